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

import math
import re
from dataclasses import dataclass, field
from typing import Any

import pint
import sympy

from .errors import InputError, UnitError
from .units import Q_, convert, dimensionality, parse_quantity, parse_unit, ureg


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
                             " (letters, digits, _ ^ {{ }} ' , . / * + - ( ) | = < > ! [ ] and math commands)")
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


_DOMAIN = re.compile(r"^\s*([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])\s*$")


@dataclass(frozen=True)
class Domain:
    """An interval of allowed magnitudes (in the variable's unit), e.g. ``(0, 1]``.

    >>> Domain.parse("(0, 1]").contains(1.0), Domain.parse("(0, 1]").contains(0)
    (True, False)
    >>> str(Domain.parse("[0, inf)"))
    '[0, inf)'
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
            low = float(m.group(2).replace("-inf", "-inf"))
            high = float(m.group(3))
        except ValueError:
            raise InputError(f"domain {text!r} has bounds that are not numbers") from None
        if low > high:
            raise InputError(f"domain {text!r} is empty")
        return cls(low, high, m.group(1) == "(", m.group(4) == ")")

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
        if isinstance(value, str):
            value = parse_quantity(value, name=label)
        if isinstance(value, pint.Quantity):
            if value._REGISTRY is not ureg:
                try:
                    value = Q_(value.magnitude, str(value.units))
                except Exception:
                    raise UnitError(f"{label}: unit {value.units!s} is not known to mlsysim_symbolic") from None
            if value.dimensionality != self.unit.dimensionality:
                raise UnitError(
                    f"{label}: expected a quantity in {unit_text} "
                    f"(dimension {_dim_text(self.unit)}), got {value:~C} (dimension {_dim_text(value.units)})"
                )
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


def _is_numpy_scalar(value: Any) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 1) == 0


def _dim_text(unit: Any) -> str:
    text = str(getattr(unit, "dimensionality", unit))
    return text or "dimensionless"
