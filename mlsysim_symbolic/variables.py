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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pint
import sympy

from .code_names import code_name_latex
from .errors import DimensionalityError, InputError, UnitError
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
    relabel,
    scalable,
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
_LATEX_TOKEN = re.compile(r"\\([A-Za-z]+)|\\[,;:! _]|[A-Za-z0-9_^{} ',./*+\-()|=<>!\[\]]")


def check_latex(latex: str, *, symbol: str = "") -> str:
    r"""``latex`` if it is a symbol name in the safe grammar, else an :class:`InputError` naming ``symbol``.

    Letters, digits, ``_ ^ { } ' , . / * + - ( ) | = < > ! [ ]``, spaces, the escaped underscore ``\_`` and the math
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
class AttributeRead:
    """How an attribute symbol reads its registry entry: the field paths tried in order (``{choice}`` filled from the
    bound choices), a counting rule over the other symbols where none is stated (``floor(h / a)``), and a value
    where the entry states none.

    >>> AttributeRead(("precision_flops.{precision}",)).paths[0]
    'precision_flops.{precision}'
    """

    paths: tuple[str, ...]
    fallback: str | None = None
    default: Any = None

    @property
    def field(self) -> str:
        """The first path: the field the symbol names."""
        return self.paths[0]


@dataclass(frozen=True)
class ScenarioOutput:
    """What a leaf standing for ``input.output`` of a scenario input stands for."""

    scenario_input: str
    output: str


@dataclass(frozen=True)
class Variable:
    """One named quantity of a scenario type.

    Besides its unit and domain, a variable may carry facts of its role: a choice argument's ``options``, the
    ``counted`` kinds its outer unit leaves implicit, an argument's ``default_input``, an attribute's ``reads``
    (:class:`AttributeRead`) and, for a leaf standing for another scenario's output, ``stands_for``
    (:class:`ScenarioOutput`).  All are immutable; none takes part in equality.
    """

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
    options: tuple[str, ...] = field(default=(), compare=False)             # a choice argument's options
    counted: str | None = field(default=None, compare=False)                # counted kinds left implicit outside
    default_input: str | None = field(default=None, compare=False)          # an argument's value when omitted
    reads: AttributeRead | None = field(default=None, compare=False)        # an attribute: the entry fields it reads
    stands_for: ScenarioOutput | None = field(default=None, compare=False)  # a scenario input's output

    @property
    def scenario_input(self) -> str | None:
        """The scenario input whose output this leaf stands for (None for any other variable)."""
        return self.stands_for.scenario_input if self.stands_for is not None else None

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
        options: tuple[str, ...] = (),
        counted: str | None = None,
        default_input: str | None = None,
        reads: AttributeRead | None = None,
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
            latex=check_latex(latex if latex is not None else code_name_latex(sym_name), symbol=sym_name),
            integer=integer,
            domain=dom,
            default=default,
            required=required,
            role=role,
            options=tuple(options),
            counted=counted,
            default_input=default_input,
            reads=reads,
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
        if isinstance(value, (str, pint.Quantity)):
            key = _check_key(self, value)
            hit = _CHECKED.get(key) if key is not None else None
            if hit is not None and hit[0] is self:   # the same text or quantity again (a default, "100 GB/s"): read once
                return hit[1]
            magnitude = self._checked_magnitude(value, label)
            if key is not None:
                if len(_CHECKED) >= _CHECKED_MAX:
                    _CHECKED.clear()
                _CHECKED[key] = (self, magnitude)
            return magnitude
        return self._checked_number(value, label)

    def _checked_magnitude(self, value: str | pint.Quantity, label: str) -> Any:
        value = self.quantity(value, label=label)
        return self._checked_number(convert(value.magnitude, value.units, self.unit), label, converted=True)

    def _checked_number(self, value: Any, label: str, converted: bool = False) -> Any:
        if converted:
            magnitude = value
        elif isinstance(value, bool) or value is None:
            raise InputError(f"{label}: expected a number in {self.unit_text}, got {value!r}")
        elif isinstance(value, (int, float)) or _is_numpy_scalar(value):
            magnitude = value.item() if hasattr(value, "item") else value
        else:
            raise InputError(f"{label}: expected a number or quantity in {self.unit_text}, got {type(value).__name__} {value!r}")
        if not isinstance(magnitude, (int, float)):
            raise InputError(f"{label}: expected a single number, got {magnitude!r}")
        if not math.isfinite(magnitude) and not (magnitude == math.inf and self.domain.high == math.inf
                                                 and not self.domain.high_open):   # "[1, inf]" takes inf (a limit)
            raise InputError(f"{label}: expected a finite number in {self.unit_text}, got {magnitude}")
        if self.integer:
            if not isinstance(magnitude, int) and magnitude != math.floor(magnitude):   # ints are whole (2**62 + 1 too)
                raise InputError(f"{label}: expected a whole number of {self.unit_text}, got {magnitude}")
            magnitude = int(magnitude)
        if not self.domain.contains(magnitude):
            raise InputError(f"{label}: expected a value in {self.domain} {self.unit_text}, got {magnitude}")
        return magnitude


    def quantity(self, value: str | pint.Quantity, *, label: str | None = None) -> pint.Quantity:
        """Text or a Quantity (of this package's registry or another) as a Quantity of this variable's dimension.

        The unit rules of :meth:`check` without its range checks (sensitivity ranges and spreads use it).
        One rule for counted kinds: a value that leaves them out (mlsysim's ``4 B`` or ``Q_(1e9, "count")``, a
        value this package returned, ``"2 B"``) is read in this variable's declared meaning, as a plain number
        is; a value that names a different counted kind (``B/token`` for ``B/param``) is refused, as is any
        other dimension (``GB`` for a bandwidth).  A precision name is bytes per what the variable counts.

        >>> v = Variable.make("batch_size", unit="sample")
        >>> v.quantity("128 sample"), v.quantity(pint.UnitRegistry().Quantity(128, "count"))
        (<Quantity(128, 'sample')>, <Quantity(128, 'sample')>)
        >>> Variable.make("bytes_per_param", unit="B/param").quantity("2 B")
        <Quantity(2, 'byte / param')>
        """
        label = label or self.name
        if isinstance(value, str):
            value = self._parse_text(value, label)
        foreign = value._REGISTRY is not ureg
        try:
            value = scalable(carry_in(value) if foreign else value)   # a temperature in degC: its kelvin
        except UnitError as exc:
            raise exc.within(label) from None
        if value.dimensionality != self.unit.dimensionality and self.counted:
            implicit = parse_unit(self.counted)   # the declared reading: the outer unit times the counted kinds
            if (value.units * implicit).dimensionality == self.unit.dimensionality:
                value = Q_(value.magnitude, value.units * implicit)
        if value.dimensionality != self.unit.dimensionality:
            value = self.with_counted(value)
        if value.dimensionality != self.unit.dimensionality:
            raise self.mismatch(value, label, note="(from another pint registry)" if foreign else "")
        return value

    def expects(self, label: str | None = None) -> str:
        """``bytes_per_param expects B/param (bytes per parameter)``: the start of a unit error.

        >>> Variable.make("bytes_per_param", unit="B/param").expects()
        'bytes_per_param expects B/param (bytes per parameter)'
        """
        unit = self.outer_unit
        text = f"{unit:~C}" or "1"
        return f"{label or self.name} expects {text} ({describe_unit(unit)})"

    @property
    def outer_unit(self) -> pint.Unit:
        """The unit outside the package: the declared unit less the counted kinds declared implicit (``counted``).

        An input is given in it (the model's parameters for a per-example role); an output returns its value in
        it (bytes for one example: the equation is ``B/sample``, the value ``B``, as mlsysim has it).

        >>> Variable.make("parameters", unit="param/sample", counted="1/sample").outer_unit
        <Unit('param')>
        >>> Variable.make("per_example", unit="B/sample", counted="1/sample").outer_unit
        <Unit('byte')>
        """
        counted = self.counted
        if not counted:
            return self.unit
        return strip_counted(self.unit, parse_unit(counted))

    def outward(self, value: Any) -> Any:
        """A value of this variable as it leaves the package: a Quantity in :attr:`outer_unit` (the same magnitude,
        counted kinds having no prefix); anything else as it is.

        >>> Variable.make("bytes_per_param", unit="B/param", counted="1/param").outward(Q_(2, "B/param"))
        <Quantity(2, 'byte')>
        """
        if not self.counted:
            return value
        if isinstance(value, Mapping):   # a keyed input: each value
            return {key: self.outward(v) for key, v in value.items()}
        if not isinstance(value, pint.Quantity):
            return value
        return Q_(convert(value.magnitude, value.units, self.unit), self.outer_unit)

    def inward(self, value: Any) -> Any:
        """A value in :attr:`outer_unit` read back in the declared unit, counted kinds included (what printers show:
        ``6 GB/sample`` for bytes per example).

        >>> Variable.make("per_example", unit="B/sample", counted="1/sample").inward(Q_(6, "GB"))
        <Quantity(6, 'gigabyte / sample')>
        """
        if not self.counted or not isinstance(value, pint.Quantity):
            return value
        return relabel(value, self.outer_unit, self.unit)

    def mismatch(self, value: pint.Quantity, label: str | None = None, note: str = "") -> DimensionalityError:
        """The error refusing ``value`` for this variable, in the field's words and with both units.

        >>> print(Variable.make("bytes_per_param", unit="B/param").mismatch(Q_(2, "GB/s")))
        bytes_per_param expects B/param (bytes per parameter); got 2 GB/s (bytes per second): dimension [information] / [time], not [information] / [param]
        >>> print(Variable.make("batch_size", unit="sample").mismatch(Q_(256, "token")))
        batch_size expects sample (samples); got 256 token (tokens): dimension [token], not [sample]
        """
        unit = self.outer_unit
        want, have = unit.dimensionality, value.units.dimensionality
        return DimensionalityError(label or self.name, f"{f'{value:~C}'.strip()} ({describe_unit(value.units)})",
                                   f"{f'{unit:~C}' or '1'} ({describe_unit(unit)})",
                                   dimensions=(str(have) or "dimensionless", str(want) or "dimensionless"), note=note)

    def _parse_text(self, text: str, label: str) -> pint.Quantity:
        """Text in the package's units; a precision name (``fp16``) is bytes per whatever this variable counts."""
        key = text.strip().lower()
        if key in PRECISION_BYTES and self.unit.dimensionality.get("[information]") == 1:
            rest = self.unit / ureg.byte
            if is_counted_only(rest) and all(p < 0 for p in rest.dimensionality.values()):
                return Q_(PRECISION_BYTES[key], ureg.byte * _counted_units(rest))
        return parse_quantity(text, name=label)

    def with_counted(self, value: pint.Quantity) -> pint.Quantity:
        """``value`` with the counted kinds it leaves out of this variable's unit put back, in the declared meaning.

        Added only when the rest of the dimension is this variable's and every counted kind the value does name
        has the declared power: ``param`` for ``param/sample`` (the parameters whose gradient each example keeps),
        ``4 B`` for ``B/param``, ``256 count`` for ``sample``.  Anything else comes back as it is, for the caller's
        unit error (``B/token`` for ``B/param`` names the wrong kind).

        >>> v = Variable.make("parameters", unit="param/sample", counted="1/sample")
        >>> v.check(Q_(1.5e9, "param")), v.check(Q_(1.5e9, "param/sample")), v.check(1.5e9)
        (1500000000.0, 1500000000.0, 1500000000.0)
        >>> v.check(Q_(1024, "token"))
        Traceback (most recent call last):
        ...
        mlsysim_symbolic.errors.DimensionalityError: parameters expects param (parameters); got 1024 token (tokens): dimension [token], not [param]
        """
        have, want = counted_part(value.units), counted_part(self.unit)
        if any(want.get(d) != p for d, p in have.items()):
            return value
        rest_have = {d: p for d, p in value.units.dimensionality.items() if d not in have}
        rest_want = {d: p for d, p in self.unit.dimensionality.items() if d not in want}
        if rest_have != rest_want:
            return value
        missing = {d: p for d, p in want.items() if d not in have}
        dimensioned = ureg.dimensionless   # the value's unit less its plain counts (count, percent: read as numbers)
        for name, power in value.units._units.items():
            if ureg.Unit(name).dimensionality:
                dimensioned = dimensioned * ureg.Unit(name) ** power
        return Q_(convert(value.magnitude, value.units, dimensioned), dimensioned * _counted_units_of(missing))


def check_counted(unit: pint.Unit, counted: str) -> pint.Unit:
    """The ``counted`` declaration of a variable of ``unit``, checked: counted kinds alone, without a prefix.

    The value outside is in ``unit / counted``: ``B/sample`` with ``counted = "1/sample"`` is bytes for one
    example; ``1`` with ``counted = "sample/token"`` takes a context length in tokens per sample.

    >>> check_counted(parse_unit("B/sample"), "1/sample")
    <Unit('1 / sample')>
    >>> check_counted(parse_unit("B/sample"), "1/kparam")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.UnitError: counted = '1/kparam' must name counted kinds alone, without a prefix (param, token, sample, request)
    """
    if not isinstance(counted, str):
        raise UnitError(f"counted must be text such as '1/sample', got {counted!r}")
    implicit = parse_unit(counted)
    if not implicit._units or not all(name in COUNTED_KINDS for name in implicit._units):
        raise UnitError(f"counted = {counted!r} must name counted kinds alone, without a prefix ({', '.join(COUNTED_KINDS)})")
    return implicit


def strip_counted(unit: pint.Unit, counted: pint.Unit) -> pint.Unit:
    """``unit`` less the counted kinds ``counted`` (``B/sample`` less ``1/sample`` is ``B``), a plain count dropped.

    >>> strip_counted(parse_unit("B/sample"), parse_unit("1/sample")), strip_counted(parse_unit("token/s"), parse_unit("token"))
    (<Unit('byte')>, <Unit('1 / second')>)
    """
    result = ureg.dimensionless
    for name, power in (unit / counted)._units.items():
        if name != "count":   # a plain count times a kind is that kind
            result = result * ureg.Unit(name) ** power
    return result


def _counted_units_of(dims: dict[str, Any]) -> pint.Unit:
    """The counted-kind units with the given powers of their dimensions (``1/param`` for ``{'[param]': -1}``)."""
    result = ureg.dimensionless
    for name, (dim, _, _) in COUNTED_KINDS.items():
        if dims.get(dim):
            result = result * ureg.Unit(name) ** dims[dim]
    return result


def _counted_units(dimension_unit: pint.Unit) -> pint.Unit:
    """The counted-kind units with the powers of ``dimension_unit``'s dimension (``1/param`` for ``[param]^-1``)."""
    return _counted_units_of(dict(dimension_unit.dimensionality))


#: (variable, text or quantity) -> its checked magnitude: text and quantities are immutable here, so each is read once.
_CHECKED: dict[tuple[Any, ...], tuple[Variable, Any]] = {}
_CHECKED_MAX = 4096


def _check_key(var: Variable, value: str | pint.Quantity) -> tuple[Any, ...] | None:
    if isinstance(value, str):
        return (id(var), value)
    magnitude = value.magnitude
    if type(magnitude) not in (int, float):
        return None
    return (id(var), type(magnitude), magnitude, value.units, id(value._REGISTRY))


def _is_numpy_scalar(value: Any) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 1) == 0
