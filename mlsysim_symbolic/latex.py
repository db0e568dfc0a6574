"""LaTeX for scenarios: equations, substituted lines, results, symbol tables and align blocks.

Printing dispatches on the node type through a SymPy ``LatexPrinter`` subclass
that knows each symbol's declared LaTeX name, or, for the substituted line, its
value with its unit.  Units print upright (``\\mathrm{TB}``) or, with
``siunitx=True``, as siunitx macros (``\\qty{1.536}{\\tera\\byte}``, see
:mod:`mlsysim_symbolic.siunitx`).

>>> from mlsysim_symbolic import Scenarios
>>> s = Scenarios.DpSgdPerExampleGradients
>>> print(equation(s, "per_batch"))
M_{\\mathrm{batch}} = B M_{\\mathrm{example}}
>>> print(equation(s, "per_batch", expand=True))
M_{\\mathrm{batch}} = B P b
>>> print(substituted(s, "per_batch", "GPT-2"))
M_{\\mathrm{batch}} = B M_{\\mathrm{example}} = B P b = 256 \\cdot 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B} = 1.536\\,\\mathrm{TB}
>>> print(substituted(s, "per_batch", "GPT-2", siunitx=True))
M_{\\mathrm{batch}} = B M_{\\mathrm{example}} = B P b = \\num{256} \\cdot \\num{1.5e9} \\cdot \\qty{4}{\\byte} = \\qty{1.536}{\\tera\\byte}
>>> print(result(s, "per_batch", "GPT-2", prefix="binary", sig=3))
1.4\\,\\mathrm{TiB}
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pint
import sympy
from sympy.printing.latex import LatexPrinter

from .errors import InputError, MlsysimSymbolicError, UnitError
from .siunitx import COUNT_UNITS
from .units import Q_, parse_unit, ureg
from .variables import KeyedSymbol

if TYPE_CHECKING:
    from .scenario import Scenario
    from .spec import ScenarioType

__all__ = [
    "COUNT_UNITS", "DEFAULT", "Latex", "LatexConfig", "Row", "SymbolPrinter", "SymbolTable", "align", "compact_quantity",
    "equation", "escape_text", "format_number", "format_quantity", "format_unit", "result", "rows", "split_number",
    "substituted", "substituted_parts", "symbol_table", "type_equations", "type_names",
]


class Latex(str):
    """A LaTeX string that Jupyter renders as display math.

    >>> Latex("x = 1")._repr_latex_()
    '$$ x = 1 $$'
    """

    def _repr_latex_(self) -> str:
        return f"$$ {self} $$"


@dataclass(frozen=True)
class LatexConfig:
    """Rendering options (frozen; build a new one with ``dataclasses.replace``).

    ``sig``: significant figures of numbers; ``unit``: display unit of the result
    (``None`` picks a prefix automatically); ``prefix``: ``"decimal"`` (SI) or
    ``"binary"`` (IEC, for bytes and bits) automatic prefixes; ``siunitx``: emit
    ``\\qty{..}{..}`` instead of ``\\mathrm`` units; ``expand``: show the equation
    expanded to the inputs as well as in its declared form.

    >>> LatexConfig(sig=3, prefix="binary").sig
    3
    >>> LatexConfig(prefix="metric")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: prefix must be 'decimal' or 'binary', got 'metric'
    """

    sig: int = 4
    unit: str | None = None
    prefix: str = "decimal"
    siunitx: bool = False
    expand: bool = True

    def __post_init__(self) -> None:
        if self.prefix not in ("decimal", "binary"):
            raise InputError(f"prefix must be 'decimal' or 'binary', got {self.prefix!r}")
        if not isinstance(self.sig, int) or isinstance(self.sig, bool) or not 1 <= self.sig <= 17:
            raise InputError(f"sig must be a whole number of significant figures from 1 to 17, got {self.sig!r}")
        if self.unit is not None:
            parse_unit(self.unit)   # an unknown unit fails here, naming it


DEFAULT = LatexConfig()

_CONFIG_FIELDS = frozenset(LatexConfig.__dataclass_fields__)


def _config(config: LatexConfig | None, options: Mapping[str, Any]) -> tuple[LatexConfig, dict[str, Any]]:
    """Split keyword options into rendering options (a config) and output arguments."""
    given = {k: v for k, v in options.items() if k in _CONFIG_FIELDS}
    arguments = {k: v for k, v in options.items() if k not in _CONFIG_FIELDS}
    if config is None:
        config = LatexConfig(**given)
    elif given:
        from dataclasses import replace

        config = replace(config, **given)
    return config, arguments


# ---------------------------------------------------------------------- text
_TEXT_ESCAPES = {
    "\\": r"$\backslash$", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\~{}", "^": r"\^{}", "<": "$<$", ">": "$>$", "|": r"$|$",
}
_UNICODE = {
    "×": r"$\times$", "·": r"$\cdot$", "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''",
    "≤": r"$\le$", "≥": r"$\ge$", "≈": r"$\approx$", "≠": r"$\ne$", "∝": r"$\propto$", "→": r"$\rightarrow$",
    "←": r"$\leftarrow$", "↔": r"$\leftrightarrow$", "∞": r"$\infty$", "±": r"$\pm$", "√": r"$\surd$", "∑": r"$\sum$",
    "∂": r"$\partial$", "…": r"\ldots{}", "°": r"\textdegree{}", "µ": r"$\mu$", "²": r"$^{2}$", "³": r"$^{3}$",
    "¹": r"$^{1}$", "⁻": r"$^{-}$", "½": r"$\frac{1}{2}$", "§": r"\S{}", "é": r"\'e", "è": r"\`e", "ö": r'\"o', "ü": r'\"u',
    "ä": r'\"a', "∈": r"$\in$", "≪": r"$\ll$", "≫": r"$\gg$", "⌈": r"$\lceil$", "⌉": r"$\rceil$", "⌊": r"$\lfloor$",
    "⌋": r"$\rfloor$", "∗": "*", "′": "'", "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "✓": "yes", "✗": "no",
}
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ζ": "zeta", "η": "eta", "θ": "theta",
    "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta",
    "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}


def escape_text(text: str) -> str:
    r"""Prose (a meaning, an assumption, a reference) as text-mode LaTeX that pdflatex accepts.

    Specials are escaped and common Unicode (Greek letters, ×, ·, ≤, superscripts) becomes
    LaTeX; any other non-ASCII character is written as ``[U+XXXX]`` rather than failing.

    >>> print(escape_text("16 B/param × Ψ, ≤ 5% of α_max"))
    16 B/param $\times$ $\Psi$, $\le$ 5\% of $\alpha$\_max
    """
    out = []
    for ch in str(text):
        if ch in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[ch])
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ch in _GREEK:
            out.append(f"$\\{_GREEK[ch]}$")
        else:
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)


# ---------------------------------------------------------------------- the printer
def _top_level_subscript(latex: str) -> int | None:
    """Index of the ``_`` of a final top-level ``_{...}`` of ``latex`` (None when it has none)."""
    if not latex.endswith("}"):
        return None
    depth = 0
    for i in range(len(latex) - 1, -1, -1):
        c = latex[i]
        if c == "}":
            depth += 1
        elif c == "{":
            depth -= 1
            if depth == 0:
                return i - 1 if i >= 1 and latex[i - 1] == "_" else None
    return None


def _with_subscript(latex: str, key: str) -> str:
    """``latex`` with ``key`` added to its subscript: ``M_{\\mathrm{example}}`` -> ``M_{\\mathrm{example}, KWS}``."""
    at = _top_level_subscript(latex)
    if at is not None:
        return f"{latex[:-1]}, {key}}}"
    m = re.fullmatch(r"(.*[^\\])_([A-Za-z0-9])", latex)
    if m:
        return f"{m.group(1)}_{{{m.group(2)}, {key}}}"
    return f"{latex}_{{{key}}}"


def _key_text(key: str) -> str:
    """A key that is not plain alphanumeric as upright text, LaTeX specials escaped."""
    return "\\text{" + escape_text(key) + "}"


class SymbolPrinter(LatexPrinter):
    """A LaTeX printer that prints symbols by their declared LaTeX names (or, given ``values``, by value).

    Per-key symbols of an expanded sum (``c_{gpu}``) print as the declared name with the
    key added to its subscript; sums over a keyed input print as ``\\sum_{\\text{index}}``.

    >>> import sympy
    >>> P, b = sympy.symbols("P b")
    >>> SymbolPrinter({P: "P", b: r"b_{\\mathrm{grad}}"}).doprint(P * b)
    'P b_{\\\\mathrm{grad}}'
    >>> SymbolPrinter({P: "P", b: "b"}, {P: "1.5", b: r"4\\,\\mathrm{B}"}).doprint(P * b)
    '1.5 \\\\cdot 4\\\\,\\\\mathrm{B}'
    """

    def __init__(self, names: Mapping[sympy.Symbol, str], values: Mapping[sympy.Symbol, str] | None = None, **settings: Any):
        if values is not None:
            settings.setdefault("mul_symbol", "dot")
        super().__init__(settings)
        self._names = names
        self._values = values
        self._by_name = {sym.name: latex for sym, latex in names.items()}

    def _print_Symbol(self, expr: sympy.Symbol, style: str = "plain") -> str:
        if self._values is not None and expr in self._values:
            return self._values[expr]
        if expr in self._names:
            return self._names[expr]
        if isinstance(expr, KeyedSymbol) and expr.base in self._names:
            key = str(expr.key)
            key = rf"\mathrm{{{key}}}" if re.fullmatch(r"[A-Za-z0-9]+", key) else _key_text(key)
            return _with_subscript(self._names[expr.base], key)
        return super()._print_Symbol(expr, style=style)

    def _print_Pow(self, expr: sympy.Pow) -> str:
        base, exp = expr.args
        if self._values is not None and isinstance(base, sympy.Symbol) and base in self._values and exp.is_Rational and exp > 0 and exp != sympy.Rational(1, 2):
            return rf"\left({self._values[base]}\right)^{{{self._print(exp)}}}"
        return super()._print_Pow(expr)

    def _print_ceiling(self, expr: Any, exp: Any = None) -> str:
        return rf"\left\lceil {self._print(expr.args[0])} \right\rceil"

    def _print_floor(self, expr: Any, exp: Any = None) -> str:
        return rf"\left\lfloor {self._print(expr.args[0])} \right\rfloor"

    def _reduction(self, expr: Any, operator: str) -> str:
        dummy = expr.limits[0][0]
        body = self._print(expr.function)
        if isinstance(expr.function, sympy.Add):
            body = rf"\left({body}\right)"
        index = dummy.name.replace("_", r"\_")
        return rf"{operator}_{{\text{{{index}}}}} {body}"

    def _print_Sum(self, expr: Any) -> str:
        return self._reduction(expr, r"\sum")

    def _print_Product(self, expr: Any) -> str:
        return self._reduction(expr, r"\prod")


# ---------------------------------------------------------------------- numbers and units
def split_number(x: float | int, sig: int = 4) -> tuple[str, int | None]:
    """``x`` rounded to ``sig`` significant figures as (mantissa text, power of ten or None).

    Integers below 10^6 are exact; other numbers from 10^-3 to 10^6 print positionally.

    >>> split_number(1.536e12), split_number(256), split_number(0.0296512), split_number(9.9996e8)
    (('1.536', 12), ('256', None), ('0.02965', None), ('1', 9))
    """
    if isinstance(x, bool):
        x = int(x)
    if hasattr(x, "item") and not isinstance(x, (int, float)):
        x = x.item()   # numpy scalars
    if isinstance(x, int) and abs(x) < 10**6:
        return str(x), None
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return ("0" if x == 0 else ("inf" if x > 0 else "-inf")), None
    rounded = float(f"{x:.{sig - 1}e}")
    exponent = math.floor(math.log10(abs(rounded)))
    if -3 <= exponent < 6:
        text = f"{rounded:.{sig}g}"
        if "e" in text:
            text = f"{rounded:.{max(sig - exponent - 1, 0)}f}"
        return text, None
    mantissa = f"{rounded / 10**exponent:.{sig}g}"
    if "e" in mantissa or float(mantissa) >= 10:
        exponent += 1
        mantissa = f"{rounded / 10**exponent:.{sig}g}"
    return mantissa, exponent


def format_number(x: float | int, sig: int = 4) -> str:
    """A number in LaTeX with ``sig`` significant figures: ``256``, ``1.5 \\times 10^{9}``.

    >>> format_number(1.5e9), format_number(3e-7, 2), format_number(1e12), format_number(float("inf"))
    ('1.5 \\\\times 10^{9}', '3 \\\\times 10^{-7}', '10^{12}', '\\\\infty')
    """
    mantissa, exponent = split_number(x, sig)
    if mantissa in ("inf", "-inf"):
        return r"\infty" if mantissa == "inf" else r"-\infty"
    if exponent is None:
        return mantissa
    if mantissa in ("1", "-1"):
        return ("-" if mantissa == "-1" else "") + f"10^{{{exponent}}}"
    return f"{mantissa} \\times 10^{{{exponent}}}"


def _unit_parts(unit: Any) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    num: list[tuple[str, float]] = []
    den: list[tuple[str, float]] = []
    for name, power in unit._units.items():
        symbol = unit._REGISTRY.get_symbol(name)
        (num if power > 0 else den).append((symbol, abs(power)))
    return num, den


def format_unit(unit: Any, *, drop_counts: bool = False, siunitx: bool = False) -> str:
    """A unit in upright LaTeX: ``\\mathrm{GB/s}`` (``\\unit{\\giga\\byte\\per\\second}`` with siunitx); empty for dimensionless.

    >>> format_unit("GB/s"), format_unit("B/param", drop_counts=True), format_unit("1")
    ('\\\\mathrm{GB/s}', '\\\\mathrm{B}', '')
    >>> format_unit("TFLOP/s", siunitx=True)
    '\\\\unit{\\\\tera\\\\flop\\\\per\\\\second}'
    """
    if isinstance(unit, str):
        unit = Q_(1, unit).units
    if drop_counts:
        unit = _without_counts(unit)
    if siunitx:
        from .siunitx import siunitx_unit

        text = siunitx_unit(unit)
        return rf"\unit{{{text}}}" if text else ""
    num, den = _unit_parts(unit)

    def side(parts: list[tuple[str, float]]) -> str:
        return r"\cdot ".join(s + (f"^{{{p:g}}}" if p != 1 else "") for s, p in parts)

    if not num and not den:
        return ""
    text = side(num) if num else "1"
    if den:
        text += "/" + (side(den) if len(den) == 1 else f"({side(den)})")
    text = text.replace("µ", "\\mu ").replace("μ", "\\mu ").replace("%", "\\%").replace("_", "\\_")
    return "\\mathrm{" + text + "}"


def _without_counts(unit: Any) -> Any:
    result = ureg.dimensionless
    for n, p in unit._units.items():
        if n not in COUNT_UNITS:
            result = result * ureg.Unit(n) ** p
    return result


def format_quantity(q: pint.Quantity, config: LatexConfig = DEFAULT, *, compact: bool = False, drop_counts: bool = False) -> str:
    """A quantity as ``1.536\\,\\mathrm{TB}`` (or ``\\qty{1.536}{\\tera\\byte}`` with siunitx).

    >>> format_quantity(Q_(1.536e12, "B"), compact=True)
    '1.536\\\\,\\\\mathrm{TB}'
    >>> format_quantity(Q_(1.536e12, "B"), LatexConfig(siunitx=True, unit="GB"), compact=True)
    '\\\\qty{1536}{\\\\giga\\\\byte}'
    """
    if compact:
        q = compact_quantity(q, config)
    if config.siunitx:
        from .siunitx import siunitx_quantity

        return siunitx_quantity(q, config.sig, drop_counts=drop_counts)
    number = format_number(q.magnitude, config.sig)
    unit = format_unit(q.units, drop_counts=drop_counts)
    return number + (rf"\,{unit}" if unit else "")


#: Units that take an automatic prefix in a result (others, such as hours, days, USD and counts, are kept).
PREFIXABLE = frozenset({"byte", "bit", "flop", "second", "joule", "watt", "watt_hour", "hertz", "meter", "gram"})
_DECIMAL = {18: "exa", 15: "peta", 12: "tera", 9: "giga", 6: "mega", 3: "kilo", 0: "", -3: "milli", -6: "micro", -9: "nano", -12: "pico"}
_BINARY_PREFIXES = [(60, "exbi"), (50, "pebi"), (40, "tebi"), (30, "gibi"), (20, "mebi"), (10, "kibi")]
_NO_SUBMULTIPLES = frozenset({"byte", "bit", "flop"})   # no millibytes


def compact_quantity(q: pint.Quantity, config: LatexConfig = DEFAULT) -> pint.Quantity:
    """``q`` in ``config.unit``, or with an automatic SI (or, for bytes and bits, binary) prefix.

    Only a single unit in the numerator takes a prefix (``TFLOP/s``, ``kB/param``, ``ms``);
    seconds are only divided (``ms``, never ``ks``); hours, days, currency and counts are kept.

    >>> compact_quantity(Q_(9.89e14, "FLOP/s"))
    <Quantity(989.0, 'teraflop / second')>
    >>> compact_quantity(Q_(2**41, "B"), LatexConfig(prefix="binary"))
    <Quantity(2.0, 'tebibyte')>
    >>> compact_quantity(Q_(3370, "USD")), compact_quantity(Q_(1536, "s"))
    (<Quantity(3370, 'dollar')>, <Quantity(1536, 'second')>)
    >>> compact_quantity(Q_(1.536e12, "B"), LatexConfig(unit="GB"))
    <Quantity(1536.0, 'gigabyte')>
    """
    if config.unit:
        try:
            return q.to(config.unit)
        except pint.DimensionalityError:
            raise UnitError(f"unit: cannot show {q.units:~C} in {config.unit!r}") from None
    try:
        magnitude = float(q.magnitude)
    except (TypeError, ValueError):
        return q
    if not q.dimensionality or magnitude == 0 or not math.isfinite(magnitude):
        return q
    numerator = [(n, p) for n, p in q.units._units.items() if p > 0]
    if len(numerator) != 1 or numerator[0][1] != 1:
        return q
    name = numerator[0][0]
    parsed = [(pre, base) for pre, base, suffix in ureg.parse_unit_name(name) if not suffix and base in PREFIXABLE]
    if not parsed:
        return q
    base = parsed[0][1]
    rest = q.units / ureg.Unit(name)
    value = q.to(ureg.Unit(base) * rest).magnitude
    prefix = ""
    if config.prefix == "binary" and base in ("byte", "bit"):
        for power, candidate in _BINARY_PREFIXES:
            if abs(value) >= 2**power:
                prefix = candidate
                break
    else:
        rounded = float(f"{value:.{config.sig - 1}e}")
        exponent = 3 * math.floor(math.floor(math.log10(abs(rounded))) / 3)
        exponent = max(-12, min(18, exponent))
        if base == "second":
            exponent = min(exponent, 0)
        if base in _NO_SUBMULTIPLES:
            exponent = max(exponent, 0)
        prefix = _DECIMAL[exponent]
    return q.to(ureg.Unit(prefix + base) * rest)


# ---------------------------------------------------------------------- scenario LaTeX
def type_names(t: ScenarioType) -> dict[sympy.Symbol, str]:
    """Every symbol of scenario type ``t`` (leaves, composed terms, outputs) with its declared LaTeX name.

    >>> from mlsysim_symbolic import Scenarios
    >>> sorted(type_names(Scenarios.DpSgdPerExampleGradients.type).values())
    ['B', 'M_{\\\\mathrm{batch}}', 'M_{\\\\mathrm{example}}', 'P', 'b']
    """
    names = {sym: var.latex for sym, var in t.leaves.items()}
    names.update({o.variable.symbol: o.variable.latex for o in t.outputs.values()})
    names.update({sym: var.latex for sym, var in t.composed_variables.items()})
    return names


def _names(scenario: Scenario) -> dict[sympy.Symbol, str]:
    return type_names(scenario.type)


def type_equations(t: ScenarioType, output: str) -> list[tuple[str | None, Latex]]:
    """Every declared form of ``output`` of type ``t``: ``[(when, "lhs = rhs [= expanded]")]``.

    ``when`` is the choice value (or ``None`` for the first form whose inputs are set).

    >>> from mlsysim_symbolic import Scenarios
    >>> type_equations(Scenarios.DpSgdPerExampleGradients.type, "per_batch")
    [(None, 'M_{\\\\mathrm{batch}} = B M_{\\\\mathrm{example}} = B P b')]
    """
    printer = SymbolPrinter(type_names(t))
    out = t._require_output(output)
    lhs = out.variable.latex
    forms: list[tuple[str | None, Latex]] = []
    for i, branch in enumerate(out.branches):
        text = f"{lhs} = {printer.doprint(branch.expr)}"
        if i == 0:
            try:
                full = t.expand(output)
            except _SKIPPED:
                full = branch.expr
            if full != branch.expr:
                text += f" = {printer.doprint(full)}"
        forms.append((branch.when, Latex(text)))
    return forms


def equation(scenario: Scenario, output: str, *, expand: bool = False, **options: Any) -> Latex:
    """``lhs = rhs`` of ``output`` with declared symbol names (over the inputs only with ``expand``).

    >>> from mlsysim_symbolic import Scenarios
    >>> print(equation(Scenarios.Gpt3CheckpointInterval10K, "interval"))
    \\tau^{*} = \\sqrt{2} \\sqrt{M} \\sqrt{\\delta}
    """
    printer = SymbolPrinter(_names(scenario))
    out = scenario.type._require_output(output)
    lhs = out.variable.latex
    rhs = printer.doprint(scenario.expression(output, expand=expand))
    return Latex(f"{lhs} = {rhs}")


def _result_quantity(value: pint.Quantity) -> pint.Quantity:
    """A result in the bare ``count`` unit is shown as a plain number."""
    if dict(value.units._units) == {"count": 1}:
        return Q_(value.magnitude, "")
    return value


def substituted_parts(scenario: Scenario, output: str, *keys: Any, config: LatexConfig | None = None, **options: Any) -> list[str]:
    """The sides of the substituted line: ``[lhs, declared rhs, expanded rhs, numbers, result]`` (repeats dropped).

    >>> from mlsysim_symbolic import Scenarios
    >>> substituted_parts(Scenarios.DpSgdPerExampleGradients, "per_example", "KWS")
    ['M_{\\\\mathrm{example}}', 'P b', '200000 \\\\cdot 4\\\\,\\\\mathrm{B}', '800\\\\,\\\\mathrm{kB/sample}']
    """
    config, arguments = _config(config, options)
    names = _names(scenario)
    out = scenario.type._require_output(output)
    # evaluate first: it names a wrong or missing key or argument
    value = scenario.evaluate(output, *keys, **arguments)
    plan = scenario._plan(output)
    expr = plan.expr
    values = scenario.symbol_values(output, *keys, **arguments)
    shown = {sym: format_quantity(q, config, drop_counts=True) for sym, q in values.items()}
    parts = [out.variable.latex]
    declared = scenario.expression(output)
    if not config.expand or declared != expr:
        parts.append(SymbolPrinter(names).doprint(declared))
    if config.expand:
        parts.append(SymbolPrinter(names).doprint(expr))
    parts.append(SymbolPrinter(names, shown).doprint(expr))
    parts.append(format_quantity(_result_quantity(value), config, compact=True))
    deduped = [parts[0]]
    for p in parts[1:]:
        if p != deduped[-1]:
            deduped.append(p)
    return deduped


def substituted(scenario: Scenario, output: str, *keys: Any, config: LatexConfig | None = None, **options: Any) -> Latex:
    """``lhs = rhs = rhs with numbers = result``: the line a paper prints beside its number.

    ``options`` are :class:`LatexConfig` fields (``sig``, ``unit``, ``prefix``, ``siunitx``,
    ``expand``) or the output's arguments.

    >>> from mlsysim_symbolic import Scenarios
    >>> print(substituted(Scenarios.DpSgdPerExampleGradients, "per_batch", "KWS", unit="MB", sig=3))
    M_{\\mathrm{batch}} = B M_{\\mathrm{example}} = B P b = 256 \\cdot 200000 \\cdot 4\\,\\mathrm{B} = 205\\,\\mathrm{MB}
    """
    return Latex(" = ".join(substituted_parts(scenario, output, *keys, config=config, **options)))


def result(scenario: Scenario, output: str, *keys: Any, config: LatexConfig | None = None, **options: Any) -> Latex:
    """The value of ``output`` alone, in ``unit`` or with an automatic prefix, to ``sig`` figures.

    >>> from mlsysim_symbolic import Scenarios
    >>> s = Scenarios.DpSgdPerExampleGradients
    >>> print(result(s, "per_batch", "GPT-2"), result(s, "per_batch", "GPT-2", unit="GB", siunitx=True))
    1.536\\,\\mathrm{TB} \\qty{1536}{\\giga\\byte}
    """
    config, arguments = _config(config, options)
    value = scenario.evaluate(output, *keys, **arguments)
    return Latex(format_quantity(_result_quantity(value), config, compact=True))


@dataclass(frozen=True)
class Row:
    """One line of an align block: an output, the keys it was evaluated at, and its substituted parts."""

    output: str
    keys: tuple[Any, ...]
    parts: tuple[str, ...]

    def key_note(self) -> str:
        """``\\quad \\text{(GPT-2)}`` for a keyed output, else empty.

        >>> Row("per_batch", ("GPT-2",), ("M", "1")).key_note(), Row("x", (), ("x", "1")).key_note()
        ('\\\\quad \\\\text{(GPT-2)}', '')
        """
        if not self.keys:
            return ""
        return rf"\quad \text{{({escape_text(', '.join(map(str, self.keys)))})}}"


_SKIPPED = (MlsysimSymbolicError, TypeError, KeyError, ValueError, ZeroDivisionError, ArithmeticError)


def _key_sets(scenario: Scenario, name: str, keys: Sequence[Any], all_keys: bool, limit: int) -> list[tuple[Any, ...]]:
    indices = scenario._plan(name).indices
    if not indices:
        return [()]
    if keys:
        return [tuple(keys[: len(indices)])]
    per = [scenario.keys(i) for i in indices]
    if not all(per):
        return []
    if all_keys:
        return list(itertools.islice(itertools.product(*per), limit))
    return [tuple(k[0] for k in per)]


def rows(scenario: Scenario, *keys: Any, config: LatexConfig | None = None, all_keys: bool = False, limit: int = 8,
         **options: Any) -> list[Row]:
    """The substituted line of every output that needs no argument (keyed outputs at the first key, or every key).

    Outputs that cannot be evaluated (an optional input unset, an argument needed) are left out.

    >>> from mlsysim_symbolic import Scenarios
    >>> [(r.output, r.keys) for r in rows(Scenarios.DpSgdPerExampleGradients, all_keys=True)]
    [('per_example', ('KWS',)), ('per_example', ('GPT-2',)), ('per_batch', ('KWS',)), ('per_batch', ('GPT-2',))]
    """
    config, _ = _config(config, options)
    out_rows = []
    for name, out in scenario.type.outputs.items():
        if out.arguments:
            continue
        try:
            key_sets = _key_sets(scenario, name, keys, all_keys, limit)
        except _SKIPPED:
            continue
        for use in key_sets:
            try:
                parts = substituted_parts(scenario, name, *use, config=config)
            except _SKIPPED:   # an output needing an unset optional input is left out of the block
                continue
            out_rows.append(Row(name, use, tuple(parts)))
    return out_rows


def align(scenario: Scenario, *keys: Any, config: LatexConfig | None = None, all_keys: bool | None = None, **options: Any) -> Latex:
    """An ``aligned`` block: one line per output (equation = numbers = result).

    Keyed outputs get a line per key (up to 8) unless ``keys`` pick one (or ``all_keys=False``: the first key).

    >>> from mlsysim_symbolic import Scenarios
    >>> print(align(Scenarios.DpSgdPerExampleGradients, "GPT-2"))
    \\begin{aligned}
    M_{\\mathrm{example}} &= P b = 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B} = 6\\,\\mathrm{GB/sample}\\quad \\text{(GPT-2)} \\\\
    M_{\\mathrm{batch}} &= B M_{\\mathrm{example}} = B P b = 256 \\cdot 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B} = 1.536\\,\\mathrm{TB}\\quad \\text{(GPT-2)}
    \\end{aligned}
    """
    lines = [f"{r.parts[0]} &= {' = '.join(r.parts[1:])}{r.key_note()}"
             for r in rows(scenario, *keys, config=config, all_keys=not keys if all_keys is None else all_keys, **options)]
    if not lines:
        lines = [r"&\text{(every output needs an argument or an unset input)}"]
    return Latex("\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}")


# ---------------------------------------------------------------------- symbol tables
@dataclass(frozen=True)
class SymbolTable:
    """Rows of (symbol LaTeX, meaning, unit LaTeX) for a scenario's symbols.

    >>> from mlsysim_symbolic import Scenarios
    >>> t = symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example")
    >>> t.rows[0]
    ('P', 'parameters of the named model (one gradient of them per example)', '\\\\mathrm{param/sample}')
    """

    rows: tuple[tuple[str, str, str], ...]
    siunitx_units: tuple[str, ...] = ()

    def to_latex(self, *, siunitx: bool = False, longtable: bool = False) -> str:
        """A ``tabular`` (or ``longtable``) of symbol, meaning and unit; meanings are escaped for pdflatex.

        >>> from mlsysim_symbolic import Scenarios
        >>> print(symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example").to_latex(siunitx=True).splitlines()[4])
        $P$ & parameters of the named model (one gradient of them per example) & $\\unit{\\param\\per\\sample}$ \\\\
        """
        units = self.siunitx_units if siunitx and self.siunitx_units else tuple(r[2] for r in self.rows)
        body = " \\\\\n".join(
            f"${s}$ & {escape_text(m)} & {('$' + u + '$') if u else '1'}" for (s, m, _), u in zip(self.rows, units))
        env = "longtable" if longtable else "tabular"
        spec = "lp{0.55\\linewidth}l" if longtable else "lll"
        return (f"\\begin{{{env}}}{{{spec}}}\n\\hline\nSymbol & Meaning & Unit \\\\\n\\hline\n" + body
                + (" \\\\\n" if body else "") + f"\\hline\n\\end{{{env}}}")

    def to_records(self) -> list[dict[str, str]]:
        """The rows as ``{"symbol", "meaning", "unit"}`` dicts."""
        return [{"symbol": s, "meaning": m, "unit": u} for s, m, u in self.rows]

    def to_markdown(self) -> str:
        """A Markdown table with ``$...$`` math."""
        lines = ["| Symbol | Meaning | Unit |", "|---|---|---|"]
        for s, m, u in self.rows:
            lines.append(f"| ${s}$ | {m.replace('|', '&#124;')} | {('$' + u + '$') if u else '1'} |")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        cells = "".join(f"<tr><td>${s}$</td><td>{html.escape(m)}</td><td>{('$' + u + '$') if u else '1'}</td></tr>" for s, m, u in self.rows)
        return f"<table><thead><tr><th>Symbol</th><th>Meaning</th><th>Unit</th></tr></thead><tbody>{cells}</tbody></table>"

    def __str__(self) -> str:
        return self.to_latex()


def symbol_table(scenario: Scenario, output: str | None = None) -> SymbolTable:
    """The symbols of ``output`` (or of all outputs) with meaning and unit.

    >>> from mlsysim_symbolic import Scenarios
    >>> [row[0] for row in symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example").rows]
    ['P', 'b', 'M_{\\\\mathrm{example}}']
    """
    t = scenario.type
    if output is not None:
        symbols = set(scenario.expression(output, expand=True).free_symbols) | set(scenario.expression(output).free_symbols)
        symbols.add(t._require_output(output).variable.symbol)
    else:
        symbols = None
    table_rows = []
    si_units = []
    variables = [*t.leaves.values(), *t.composed_variables.values(), *(o.variable for o in t.outputs.values())]
    seen = set()
    for var in variables:
        if (symbols is not None and var.symbol not in symbols) or var.symbol in seen:
            continue
        seen.add(var.symbol)
        table_rows.append((var.latex, var.meaning or var.name.replace("_", " "), format_unit(var.unit)))
        si_units.append(format_unit(var.unit, siunitx=True))
    return SymbolTable(tuple(table_rows), tuple(si_units))
