"""LaTeX for scenarios: equations, substituted lines, symbol tables and align blocks.

Printing dispatches on the node type through a SymPy ``LatexPrinter`` subclass
that knows each symbol's declared LaTeX name, or, for the substituted line, its
value with its unit.

>>> from mlsysim_symbolic import Scenarios
>>> s = Scenarios.DpSgdPerExampleGradients
>>> print(equation(s, "per_batch"))
M_{\\mathrm{batch}} = B M_{\\mathrm{example}}
>>> print(equation(s, "per_batch", expand=True))
M_{\\mathrm{batch}} = B P b
>>> print(substituted(s, "per_batch", "GPT-2"))
M_{\\mathrm{batch}} = B M_{\\mathrm{example}} = B P b = 256 \\cdot 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B} = 1.536\\,\\mathrm{TB}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pint
import sympy
from sympy.printing.latex import LatexPrinter

from .units import Q_

if TYPE_CHECKING:
    from .scenario import Scenario

#: Dimensionless count units left out of values shown in a substituted line (4 B/param shows as 4 B).
COUNT_UNITS = frozenset({"count", "param", "token", "sample", "request", "step"})


class Latex(str):
    """A LaTeX string that Jupyter renders as math."""

    def _repr_latex_(self) -> str:
        body = str(self)
        if body.lstrip().startswith("\\begin"):
            return f"$$ {body} $$"
        return f"$$ {body} $$"


@dataclass(frozen=True)
class LatexConfig:
    """Rendering options (frozen; build a new one with ``dataclasses.replace``).

    ``sig``: significant figures of numbers; ``unit``: display unit of the result
    (``None`` picks a prefix automatically); ``prefix``: ``"decimal"`` or ``"binary"``
    for bytes; ``siunitx``: emit ``\\qty{..}{..}`` instead of ``\\mathrm`` units.
    """

    sig: int = 4
    unit: str | None = None
    prefix: str = "decimal"
    siunitx: bool = False
    expand: bool = True


DEFAULT = LatexConfig()


class SymbolPrinter(LatexPrinter):
    """A LaTeX printer that prints symbols by their declared LaTeX names (or by value)."""

    def __init__(self, names: Mapping[sympy.Symbol, str], values: Mapping[sympy.Symbol, str] | None = None, **settings: Any):
        if values is not None:
            settings.setdefault("mul_symbol", "dot")
        super().__init__(settings)
        self._names = names
        self._values = values

    def _print_Symbol(self, expr: sympy.Symbol, style: str = "plain") -> str:
        if self._values is not None and expr in self._values:
            return self._values[expr]
        if expr in self._names:
            return self._names[expr]
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


def format_number(x: float | int, sig: int = 4) -> str:
    """A number in LaTeX with ``sig`` significant figures: ``256``, ``1.5 \\times 10^{9}``."""
    if isinstance(x, bool):
        x = int(x)
    if isinstance(x, int) and abs(x) < 10**6:
        return str(x)
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else (r"\infty" if x > 0 else r"-\infty")
    exponent = math.floor(math.log10(abs(x)))
    if -3 <= exponent < 6:
        text = f"{x:.{sig}g}"
        if "e" in text:
            text = f"{x:.{max(sig - exponent - 1, 0)}f}"
        return text
    mantissa = x / 10**exponent
    m = f"{mantissa:.{sig}g}"
    if m.startswith("10"):
        exponent += 1
        m = f"{mantissa / 10:.{sig}g}"
    return (f"{m} \\times " if m != "1" else "") + f"10^{{{exponent}}}"


def _unit_parts(unit: Any) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    num: list[tuple[str, float]] = []
    den: list[tuple[str, float]] = []
    for name, power in unit._units.items():
        symbol = unit._REGISTRY.get_symbol(name)
        (num if power > 0 else den).append((symbol, abs(power)))
    return num, den


def format_unit(unit: Any, *, drop_counts: bool = False) -> str:
    """A unit in upright LaTeX: ``\\mathrm{GB/s}``; empty for dimensionless."""
    if isinstance(unit, str):
        unit = Q_(1, unit).units
    if drop_counts:
        unit = _without_counts(unit)
    num, den = _unit_parts(unit)

    def side(parts: list[tuple[str, float]]) -> str:
        return r"\cdot ".join(s + (f"^{{{p:g}}}" if p != 1 else "") for s, p in parts)

    if not num and not den:
        return ""
    text = side(num) if num else "1"
    if den:
        text += "/" + (side(den) if len(den) == 1 else f"({side(den)})")
    text = text.replace("µ", "\\mu ").replace("%", "\\%")
    return "\\mathrm{" + text + "}"


def _without_counts(unit: Any) -> Any:
    kept = {n: p for n, p in unit._units.items() if n not in COUNT_UNITS}
    result = Q_(1, "").units
    for n, p in kept.items():
        result = result * Q_(1, n).units ** p
    return result


def format_quantity(q: pint.Quantity, config: LatexConfig = DEFAULT, *, compact: bool = False, drop_counts: bool = False) -> str:
    """A quantity as ``1.536\\,\\mathrm{TB}`` (or ``\\qty{1.536}{\\tera\\byte}`` with siunitx)."""
    if compact:
        q = compact_quantity(q, config)
    if config.siunitx:
        from .siunitx import siunitx_quantity

        return siunitx_quantity(q, config.sig, drop_counts=drop_counts)
    number = format_number(q.magnitude, config.sig)
    unit = format_unit(q.units, drop_counts=drop_counts)
    return number + (rf"\,{unit}" if unit else "")


_BINARY = [("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)]


def compact_quantity(q: pint.Quantity, config: LatexConfig = DEFAULT) -> pint.Quantity:
    """``q`` in ``config.unit``, or with an automatic SI (or binary, for bytes) prefix."""
    if config.unit:
        return q.to(config.unit)
    if not q.dimensionality or q.magnitude == 0 or not math.isfinite(float(q.magnitude)):
        return q
    if config.prefix == "binary" and q.units == Q_(1, "B").units:
        for name, size in _BINARY:
            if abs(q.magnitude) >= size:
                return q.to(name)
        return q
    try:
        return q.to_compact()
    except Exception:  # pint cannot compact some compound units; show them as they are
        return q


def _names(scenario: Scenario) -> dict[sympy.Symbol, str]:
    t = scenario.type
    names = {sym: var.latex for sym, var in t.leaves.items()}
    names.update({o.variable.symbol: o.variable.latex for o in t.outputs.values()})
    names.update({sym: var.latex for sym, var in t.composed_variables.items()})
    return names


def equation(scenario: Scenario, output: str, *, expand: bool = False, **options: Any) -> Latex:
    """``lhs = rhs`` of ``output`` with declared symbol names."""
    printer = SymbolPrinter(_names(scenario))
    out = scenario.type._require_output(output)
    lhs = out.variable.latex
    rhs = printer.doprint(scenario.expression(output, expand=expand))
    return Latex(f"{lhs} = {rhs}")


def substituted(scenario: Scenario, output: str, *keys: Any, config: LatexConfig | None = None, **options: Any) -> Latex:
    """``lhs = rhs = rhs with numbers = result``: the line a paper prints beside its number."""
    config = config or LatexConfig(**{k: v for k, v in options.items() if k in LatexConfig.__dataclass_fields__})
    arguments = {k: v for k, v in options.items() if k not in LatexConfig.__dataclass_fields__}
    names = _names(scenario)
    out = scenario.type._require_output(output)
    plan = scenario._plan(output)
    expr = plan.expr
    values = scenario.symbol_values(output, *keys, **arguments)
    shown = {sym: format_quantity(q, config, drop_counts=True) for sym, q in values.items()}
    result = scenario.evaluate(output, *keys, **arguments)
    lhs = out.variable.latex
    parts = [lhs]
    declared = scenario.expression(output)
    if not config.expand or declared != expr:
        parts.append(SymbolPrinter(names).doprint(declared))
    if config.expand:
        parts.append(SymbolPrinter(names).doprint(expr))
    parts.append(SymbolPrinter(names, shown).doprint(expr))
    parts.append(format_quantity(result, config, compact=True))
    deduped = [parts[0]]
    for p in parts[1:]:
        if p != deduped[-1]:
            deduped.append(p)
    return Latex(" = ".join(deduped))


def align(scenario: Scenario, *keys: Any, config: LatexConfig | None = None, **options: Any) -> Latex:
    """An ``aligned`` block: one line per output (equation = numbers = result)."""
    config = config or LatexConfig(**options)
    t = scenario.type
    lines = []
    for name, out in t.outputs.items():
        if out.arguments:
            continue
        use = keys
        if out.indices and not keys:
            first = [scenario.keys(i)[:1] for i in out.indices]
            if not all(first):
                continue
            use = tuple(k[0] for k in first)
        try:
            text = substituted(scenario, name, *use[: len(out.indices)], config=config)
        except Exception:  # an output needing an unset optional input is left out of the block
            continue
        lhs, _, rhs = text.partition(" = ")
        key_note = rf"\quad \text{{({', '.join(map(str, use[: len(out.indices)]))})}}" if out.indices else ""
        lines.append(f"{lhs} &= {rhs}{key_note}")
    return Latex("\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}")


@dataclass(frozen=True)
class SymbolTable:
    """Rows of (symbol LaTeX, meaning, unit) for a scenario's symbols."""

    rows: tuple[tuple[str, str, str], ...]

    def to_latex(self) -> str:
        body = " \\\\\n".join(f"${s}$ & {m} & {('$' + u + '$') if u else '1'}" for s, m, u in self.rows)
        return "\\begin{tabular}{lll}\n\\hline\nSymbol & Meaning & Unit \\\\\n\\hline\n" + body + " \\\\\n\\hline\n\\end{tabular}"

    def to_records(self) -> list[dict[str, str]]:
        return [{"symbol": s, "meaning": m, "unit": u} for s, m, u in self.rows]

    def _repr_html_(self) -> str:
        cells = "".join(f"<tr><td>${s}$</td><td>{m}</td><td>${u}$</td></tr>" for s, m, u in self.rows)
        return f"<table><thead><tr><th>Symbol</th><th>Meaning</th><th>Unit</th></tr></thead><tbody>{cells}</tbody></table>"

    def __str__(self) -> str:
        return self.to_latex()


def symbol_table(scenario: Scenario, output: str | None = None) -> SymbolTable:
    """The symbols of ``output`` (or of all outputs) with meaning and unit."""
    t = scenario.type
    if output is not None:
        symbols = set(scenario.expression(output, expand=True).free_symbols) | set(scenario.expression(output).free_symbols)
        symbols.add(t.outputs[output].variable.symbol)
    else:
        symbols = None
    rows = []
    variables = [*t.leaves.values(), *t.composed_variables.values(), *(o.variable for o in t.outputs.values())]
    for var in variables:
        if symbols is not None and var.symbol not in symbols:
            continue
        rows.append((var.latex, var.meaning or var.name.replace("_", " "), format_unit(var.unit)))
    return SymbolTable(tuple(rows))
