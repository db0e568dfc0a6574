"""Variables: the inputs, arguments and outputs of a scenario type.

A :class:`Variable` is a SymPy symbol together with its unit, meaning, LaTeX
name and domain.  Counts are ``integer``; everything is ``positive`` unless its
domain admits zero (``nonnegative``) or negative values.

>>> v = Variable.make("batch_size", symbol="B", unit="sample", meaning="examples per step", integer=True)
>>> v.symbol, v.symbol.is_integer, v.symbol.is_positive
(B, True, True)
>>> v.check(256)
256
>>> v.check(2.5)
Traceback (most recent call last):
...
mlsysim_symbolic.errors.InputError: batch_size: expected a whole number of sample, got 2.5
"""

from __future__ import annotations

import dataclasses
import keyword
import math
import re
from dataclasses import dataclass, field
from typing import Any

import pint
import sympy

from .errors import InputError, UnitError
from .units import (
    COUNTED_KINDS,
    PRECISION_BYTES,
    Q_,
    carry_in,
    convert,
    counted_part,
    describe_unit,
    dimensionality,
    is_counted_only,
    parse_quantity,
    parse_unit,
    ureg,
)


class KeyedSymbol(sympy.Symbol):
    """A leaf symbol taken at one key of its keyed input (``c`` at ``"gpu"``), as an expanded sum holds it.

    The key is data, not part of a name to be split again: printers read :attr:`base` and :attr:`key`.

    >>> c = sympy.Symbol("c", positive=True)
    >>> k = KeyedSymbol(c, "gpu")
    >>> k.base, k.key, k.is_positive, k == KeyedSymbol(c, "gpu"), k == KeyedSymbol(c, "cpu")
    (c, 'gpu', True, True, False)
    """

    base: sympy.Symbol
    key: Any

    def __new__(cls, base: sympy.Symbol, key: Any) -> KeyedSymbol:
        obj = sympy.Symbol.__xnew__(cls, f"{base.name}[{key!r}]", **base.assumptions0)
        obj.base = base
        obj.key = key
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.base, self.key), {}

    def __getstate__(self) -> dict[str, Any]:
        return {}


#: Math commands a symbol's ``latex`` may use: fonts, accents, Greek letters and a few signs (nothing that reads
#: files, defines macros or changes catcodes).
LATEX_COMMANDS = frozenset({
    "mathrm", "mathit", "mathbf", "mathsf", "mathtt", "mathcal", "mathbb", "boldsymbol", "text", "textrm", "textit",
    "operatorname", "hat", "bar", "tilde", "dot", "ddot", "vec", "check", "breve", "acute", "grave", "widehat",
    "widetilde", "overline", "underline", "ell", "prime", "star", "ast", "infty", "max", "min", "log", "exp", "times",
    "cdot", "partial", "nabla", "dagger", "circ", "bullet", "ldots", "cdots", "hbar", "imath", "jmath",
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho", "sigma", "varsigma", "tau", "upsilon", "phi", "varphi",
    "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega",
})
_LATEX_TOKEN = re.compile(r"\\([A-Za-z]+)|\\[,;:! ]|[A-Za-z0-9_^{} ',./*+\-()|=<>!\[\]]")


def check_latex(latex: str, *, symbol: str = "") -> str:
    r"""``latex`` if it is a symbol name in the safe grammar, else an :class:`InputError` naming ``symbol``.

    Letters, digits, ``_ ^ { } ' , . / * + - ( ) | = < > ! [ ]``, spaces and the math
    commands of :data:`LATEX_COMMANDS`, braces balanced: nothing that reads a file
    (``\input``), runs a program (``\write18``), defines a macro or changes catcodes,
    and no ``^^`` character codes.

    >>> check_latex(r"M_{\mathrm{batch}}"), check_latex(r"\tau^{*}")
    ('M_{\\mathrm{batch}}', '\\tau^{*}')
    >>> check_latex(r"\input{/etc/hostname}", symbol="x")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: symbol x: latex '\\input{/etc/hostname}' uses \input, which is not a math command a symbol may use (fonts, accents, Greek letters)
    """
    where = f"symbol {symbol}: " if symbol else ""
    if not isinstance(latex, str):
        raise InputError(f"{where}latex must be text, got {latex!r}")
    if "^^" in latex:
        raise InputError(f"{where}latex {latex!r} uses ^^ (a TeX character code), which a symbol name may not")
    at, depth = 0, 0
    while at < len(latex):
        m = _LATEX_TOKEN.match(latex, at)
        if m is None:
            ch = latex[at]
            if ch == "\\":
                raise InputError(f"{where}latex {latex!r} uses {latex[at:at + 2]!r}, which a symbol name may not")
            raise InputError(f"{where}latex {latex!r} has the character {ch!r}, which a symbol name may not"
                             " (letters, digits, _ ^ { } ' , . / * + - ( ) | = < > ! [ ] and math commands)")
        if m.group(1) is not None and m.group(1) not in LATEX_COMMANDS:
            raise InputError(f"{where}latex {latex!r} uses \\{m.group(1)}, which is not a math command a symbol may use"
                             " (fonts, accents, Greek letters)")
        depth += {"{": 1, "}": -1}.get(m.group(0), 0)
        if depth < 0:
            raise InputError(f"{where}latex {latex!r} closes a brace it did not open")
        at = m.end()
    if depth:
        raise InputError(f"{where}latex {latex!r} leaves a brace open")
    return latex


class NestedSymbol(sympy.Symbol):
    """A symbol of a scenario bound as an input of another (``activations``'s micro-batch ``b``): kept apart
    from the outer type's own symbols, and carrying its variable for units, names and printing.

    >>> b = Variable.make("micro_batch", symbol="b", unit="sample", integer=True)
    >>> n = NestedSymbol(b.symbol, "activations", b)
    >>> n.base, n.scope, n.variable.name, n == NestedSymbol(b.symbol, "activations", b)
    (b, 'activations', 'activations.micro_batch', True)
    """

    base: sympy.Symbol
    scope: str
    variable: Any

    def __new__(cls, base: sympy.Symbol, scope: str, variable: Any = None) -> NestedSymbol:
        obj = sympy.Symbol.__xnew__(cls, f"{scope}.{base.name}", **base.assumptions0)
        obj.base = base
        obj.scope = scope
        if variable is not None:
            variable = dataclasses.replace(variable, name=f"{scope}.{variable.name}", symbol=obj)
        obj.variable = variable
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.base, self.scope), {}

    def __getstate__(self) -> dict[str, Any]:
        return {}


_DOMAIN = re.compile(r"^\s*([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])\s*$")


@dataclass(frozen=True)
class Domain:
    """An interval of allowed magnitudes (in the variable's unit), e.g. ``(0, 1]``.

    >>> Domain.parse("(0, 1]").contains(1.0), Domain.parse("(0, 1]").contains(0)
    (True, False)
    >>> str(Domain.parse("[0, inf)"))
    '[0, inf)'
    >>> Domain.parse("(0, nan)")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: domain '(0, nan)': the upper bound is NaN, not a number (use -inf or inf for no bound)
    """

    low: float = 0.0
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True

    @classmethod
    def parse(cls, text: str) -> Domain:
        m = _DOMAIN.match(text or "")
        if not m:
            raise InputError(f"domain {text!r} is not an interval such as '(0, inf)' or '[0, 1]'")
        try:
            low = float(m.group(2))
            high = float(m.group(3))
        except ValueError:
            raise InputError(f"domain {text!r} has bounds that are not numbers") from None
        for side, bound in (("lower", low), ("upper", high)):
            if math.isnan(bound):   # every comparison with NaN is False: the check would accept any value
                raise InputError(f"domain {text!r}: the {side} bound is NaN, not a number (use -inf or inf for no bound)")
        low_open, high_open = m.group(1) == "(", m.group(4) == ")"
        if low > high or (low == high and (low_open or high_open)):
            raise InputError(f"domain {text!r} is empty")
        return cls(low, high, low_open, high_open)

    def contains(self, x: float) -> bool:
        if x < self.low or (self.low_open and x == self.low):
            return False
        if x > self.high or (self.high_open and x == self.high):
            return False
        return True

    @property
    def positive(self) -> bool:
        return self.low > 0 or (self.low == 0 and self.low_open)

    @property
    def nonnegative(self) -> bool:
        return self.low >= 0

    def __str__(self) -> str:
        def fmt(v: float) -> str:
            if math.isinf(v):
                return "inf" if v > 0 else "-inf"
            return f"{v:g}"

        return f"{'(' if self.low_open else '['}{fmt(self.low)}, {fmt(self.high)}{')' if self.high_open else ']'}"


POSITIVE = Domain()


@dataclass(frozen=True)
class Variable:
    """One named quantity of a scenario type."""

    name: str
    symbol: sympy.Symbol
    unit: pint.Unit
    meaning: str = ""
    latex: str = ""
    integer: bool = False
    domain: Domain = POSITIVE
    default: Any = None
    required: bool = True
    role: str = "input"           # input | argument | output | attribute
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def make(
        cls,
        name: str,
        *,
        symbol: str | None = None,
        unit: str = "",
        meaning: str = "",
        latex: str | None = None,
        integer: bool = False,
        domain: str | Domain | None = None,
        default: Any = None,
        required: bool = True,
        role: str = "input",
        extra: dict[str, Any] | None = None,
    ) -> Variable:
        dom = domain if isinstance(domain, Domain) else (Domain.parse(domain) if domain else POSITIVE)
        assumptions: dict[str, bool] = {"real": True}
        if dom.positive:
            assumptions["positive"] = True
        elif dom.nonnegative:
            assumptions["nonnegative"] = True
        if integer:
            assumptions["integer"] = True
        sym_name = symbol or name
        if keyword.iskeyword(sym_name):   # equations are read as Python expressions: 'lambda * x' cannot parse
            raise InputError(f"{name}: symbol {sym_name!r} is a Python keyword, which an equation cannot name; "
                             f"call it, say, {sym_name[:3] + '_'!r} and keep its look with latex = \"\\{sym_name}\"")
        sym = sympy.Symbol(sym_name, **assumptions)
        return cls(
            name=name,
            symbol=sym,
            unit=parse_unit(unit),
            meaning=meaning,
            latex=check_latex(latex if latex is not None else sympy.latex(sympy.Symbol(sym_name)), symbol=sym_name),
            integer=integer,
            domain=dom,
            default=default,
            required=required,
            role=role,
            extra=dict(extra or {}),
        )

    @property
    def unit_text(self) -> str:
        text = f"{self.unit:~C}"
        return text or "1"

    @property
    def dimensionality(self) -> Any:
        return dimensionality(self.unit)

    def check(self, value: Any, *, label: str | None = None) -> Any:
        """Validate ``value`` for this variable and return it in the declared unit.

        Accepts a pint Quantity, a plain number (read in the declared unit) or a
        string such as ``"4 B"``.  Returns an ``int`` for integer variables, else a
        number or a Quantity-free magnitude in the declared unit.
        """
        label = label or self.name
        unit_text = self.unit_text
        if isinstance(value, (str, pint.Quantity)):
            value = self.quantity(value, label=label)
            magnitude = convert(value.magnitude, value.units, self.unit)
        elif isinstance(value, bool) or value is None:
            raise InputError(f"{label}: expected a number in {unit_text}, got {value!r}")
        elif isinstance(value, (int, float)) or _is_numpy_scalar(value):
            magnitude = value.item() if hasattr(value, "item") else value
        else:
            raise InputError(f"{label}: expected a number or quantity in {unit_text}, got {type(value).__name__} {value!r}")
        if not isinstance(magnitude, (int, float)):
            raise InputError(f"{label}: expected a single number, got {magnitude!r}")
        if not math.isfinite(magnitude):
            raise InputError(f"{label}: expected a finite number in {unit_text}, got {magnitude}")
        if self.integer:
            if not isinstance(magnitude, int) and magnitude != math.floor(magnitude):   # ints are whole (2**62 + 1 too)
                raise InputError(f"{label}: expected a whole number of {unit_text}, got {magnitude}")
            magnitude = int(magnitude)
        if not self.domain.contains(magnitude):
            raise InputError(f"{label}: expected a value in {self.domain} {unit_text}, got {magnitude}")
        return magnitude


    def quantity(self, value: str | pint.Quantity, *, label: str | None = None) -> pint.Quantity:
        """Text or a Quantity (of this package's registry or another) as a Quantity of this variable's dimension.

        The unit rules of :meth:`check` without its range checks (sensitivity ranges and spreads use it):
        counted kinds must match, a precision name is bytes per what the variable counts, and a
        dimensionless Quantity of another registry is a plain number in this variable's kind.

        >>> v = Variable.make("batch_size", unit="sample")
        >>> v.quantity("128 sample"), v.quantity(pint.UnitRegistry().Quantity(128, "count"))
        (<Quantity(128, 'sample')>, <Quantity(128, 'sample')>)
        """
        label = label or self.name
        if isinstance(value, str):
            value = self._parse_text(value, label)
        if value._REGISTRY is not ureg:
            value = self._from_foreign(value, label)
        if value.dimensionality != self.unit.dimensionality and self.extra.get("counted"):
            value = self._with_counted(value)
        if value.dimensionality != self.unit.dimensionality:
            raise UnitError(self.unit_mismatch(value, label))
        return value

    def expects(self, label: str | None = None) -> str:
        """``bytes_per_param expects B/param (bytes per parameter)``: the start of a unit error.

        >>> Variable.make("bytes_per_param", unit="B/param").expects()
        'bytes_per_param expects B/param (bytes per parameter)'
        """
        unit = self.accepted_unit
        text = f"{unit:~C}" or "1"
        return f"{label or self.name} expects {text} ({describe_unit(unit)})"

    @property
    def accepted_unit(self) -> pint.Unit:
        """The unit a value is given in: the declared unit, less the counted kinds declared implicit.

        >>> Variable.make("parameters", unit="param/sample", extra={"counted": "1/sample"}).accepted_unit
        <Unit('param')>
        """
        counted = self.extra.get("counted")
        if not counted:
            return self.unit
        result = ureg.dimensionless
        for name, power in (self.unit / parse_unit(counted))._units.items():
            if name != "count":   # a plain count times a kind is that kind
                result = result * ureg.Unit(name) ** power
        return result

    def unit_mismatch(self, value: pint.Quantity, label: str | None = None) -> str:
        """The message refusing ``value`` for this variable, in the field's words and with both units.

        >>> print(Variable.make("bytes_per_param", unit="B/param").unit_mismatch(Q_(2, "GB")))
        bytes_per_param expects B/param (bytes per parameter); got 2 GB (bytes): dimension [information], not [information] / [param]
        >>> print(Variable.make("batch_size", unit="sample").unit_mismatch(Q_(256, "token")))
        batch_size expects sample (samples); got 256 token (tokens): dimension [token], not [sample]
        """
        got = f"{value:~C}".strip()
        want, have = self.accepted_unit.dimensionality, value.units.dimensionality
        return (f"{self.expects(label)}; got {got} ({describe_unit(value.units)}): "
                f"dimension {str(have) or 'dimensionless'}, not {str(want) or 'dimensionless'}")

    def _parse_text(self, text: str, label: str) -> pint.Quantity:
        """Text in the package's units; a precision name (``fp16``) is bytes per whatever this variable counts."""
        key = text.strip().lower()
        if key in PRECISION_BYTES and self.unit.dimensionality.get("[information]") == 1:
            rest = self.unit / ureg.byte
            if is_counted_only(rest) and all(p < 0 for p in rest.dimensionality.values()):
                return Q_(PRECISION_BYTES[key], ureg.byte * _counted_units(rest))
        return parse_quantity(text, name=label)

    def _with_counted(self, value: pint.Quantity) -> pint.Quantity:
        """``value`` with the counted kinds this variable declares implicit (``counted = "1/sample"``).

        A registry figure read in a per-example role: the model's parameters (``param``) are the
        parameters whose gradient each example keeps (``param/sample``), as DP-SGD's ``B·P·b`` reads.
        Only the declared kinds are added, and only when that gives exactly this variable's dimension.

        >>> v = Variable.make("parameters", unit="param/sample", extra={"counted": "1/sample"})
        >>> v.check(Q_(1.5e9, "param")), v.check(Q_(1.5e9, "param/sample")), v.check(1.5e9)
        (1500000000.0, 1500000000.0, 1500000000.0)
        >>> v.check(Q_(1024, "token"))
        Traceback (most recent call last):
        ...
        mlsysim_symbolic.errors.UnitError: parameters expects param (parameters); got 1024 token (tokens): dimension [token], not [param]
        """
        implicit = parse_unit(self.extra["counted"])
        if not is_counted_only(implicit):
            raise UnitError(f"{self.name}: counted = {self.extra['counted']!r} must be made of counted kinds")
        if (value.units * implicit).dimensionality == self.unit.dimensionality:
            return Q_(value.magnitude, value.units * implicit)
        return value

    def _from_foreign(self, value: pint.Quantity, label: str) -> pint.Quantity:
        """A Quantity of another pint registry (the user's, mlsysim's), carried in through its unit text.

        Other registries have no counted kinds (mlsysim's ``param`` is a dimensionless count), so:
        a unit naming a counted kind we know keeps it (mlsysim's ``param`` is our ``param``); a
        dimensionless one (``count``, ``dimensionless``) is a plain number, taken in this variable's
        unit when that unit is made of counted kinds alone (256 count for a batch of samples); any
        other mismatch (a plain ``byte`` for bytes per parameter) is refused: which count it is per
        cannot be known.
        """
        try:
            ours = carry_in(value)
        except UnitError as exc:
            raise UnitError(f"{label}: {exc}") from None
        if ours.dimensionality == self.unit.dimensionality:
            return ours
        foreign_plain = not ours.dimensionality   # in our reading of its units: mlsysim's byte is dimensionless there
        if foreign_plain and is_counted_only(self.unit):
            return Q_(value.to("dimensionless").magnitude, self.unit)
        def rest(unit: pint.Unit) -> dict[str, Any]:   # the dimension less its counted kinds
            return {d: p for d, p in unit.dimensionality.items() if d not in counted_part(unit)}

        if rest(ours.units) != rest(self.unit):
            raise UnitError(f"{self.unit_mismatch(ours, label)} (from another pint registry)")   # 2 GB for a batch size
        got = f"{value:~C}".strip() if hasattr(value, "_REGISTRY") else str(value)
        raise UnitError(
            f"{self.expects(label)}; got {got} from another pint registry ({describe_unit(ours.units)}), which cannot say "
            f"what it counts: pass '{value.magnitude} {self.unit_text}' or the plain number {value.magnitude}")


def _counted_units(dimension_unit: pint.Unit) -> pint.Unit:
    """The counted-kind units with the powers of ``dimension_unit``'s dimension (``1/param`` for ``[param]^-1``)."""
    result = ureg.dimensionless
    for name, (dim, _, _) in COUNTED_KINDS.items():
        power = dimension_unit.dimensionality.get(dim, 0)
        if power:
            result = result * ureg.Unit(name) ** power
    return result


def _is_numpy_scalar(value: Any) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 1) == 0
