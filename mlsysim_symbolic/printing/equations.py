r"""Scenario LaTeX: equations, substituted lines, results, align blocks and equation labels.

>>> from mlsysim_symbolic import Scenarios
>>> s = Scenarios.DpSgdPerExampleGradients
>>> print(equation(s, "per_batch"))
M_{\mathrm{batch}} = M_{\mathrm{example}} B
>>> print(equation(s, "per_batch", expand=True))
M_{\mathrm{batch}} = P b B
>>> print(substituted(s, "per_batch", "GPT-2"))
M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B/param} \cdot 256 = 1.536\,\mathrm{TB}
>>> print(substituted(s, "per_batch", "GPT-2", siunitx=True))
M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = \num{1.5e9} \cdot \qty{4}{\byte\per\param} \cdot \num{256} = \qty{1.536}{\tera\byte}
>>> print(result(s, "per_batch", "GPT-2", prefix="binary", sig=3))
1.4\,\mathrm{TiB}
>>> print(equation(Scenarios.Gpt3CheckpointInterval10K, "interval"))
\tau^{*} = \sqrt{2 \delta M}
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sympy

from ..errors import InputError, MlsysimSymbolicError
from ..evaluate import INLINE_GROWTH, declared_size, expanded_size
from ..units import is_counted_only
from .answers import answer_parts, declared_answer
from .config import Latex, LatexConfig, split_options
from .kept import kept
from .order import symbol_order
from .printer import SymbolPrinter, ValuePrinter
from .quantities import format_quantity
from .siunitx import DECLARED_UNITS
from .text import escape_text, label
from .units import result_quantity

if TYPE_CHECKING:
    from ..scenario import Scenario
    from ..spec import ScenarioType

__all__ = [
    "SKIPPED", "Row", "align", "equation", "equation_label", "printed_length", "result", "rows", "substituted",
    "substituted_parts", "type_equations", "type_names",
]

#: Errors that leave an output out of a block of lines (an unset optional input, an argument needed, no value).
SKIPPED = (MlsysimSymbolicError, TypeError, KeyError, ValueError, ZeroDivisionError, ArithmeticError)


_GROUP_WIDTH = {"frac": max, "dfrac": max, "tfrac": max}
_UNIT_WIDTH = {macro: len(text) for macro, text in DECLARED_UNITS.values()}
_OPERATORS = frozenset({"cdot", "times", "leq", "geq", "le", "ge", "neq", "approx", "wedge", "vee", "pm", "in"})
_ZERO = frozenset({"left", "right", "quad", "qquad", "notag", "label", "begin", "end", "displaystyle", "limits"})


def _group(latex: str, at: int) -> tuple[str, int]:
    """The text of the brace group opening at ``latex[at]`` (``at`` past the group), or one character."""
    if at >= len(latex) or latex[at] != "{":
        return latex[at:at + 1], at + 1
    depth = 0
    for i in range(at, len(latex)):
        depth += {"{": 1, "}": -1}.get(latex[i], 0)
        if depth == 0:
            return latex[at + 1:i], i + 1
    return latex[at + 1:], len(latex)


def _width(latex: str) -> float:
    total, at = 0.0, 0
    while at < len(latex):
        ch = latex[at]
        if ch == "\\":
            m = re.match(r"\\([A-Za-z]+)|\\(.)", latex[at:])
            assert m is not None
            name = m.group(1) or ""
            at += m.end()
            if name in _GROUP_WIDTH:
                first, at = _group(latex, at)
                second, at = _group(latex, at)
                total += _GROUP_WIDTH[name](_width(first), _width(second))
            elif name in ("num", "qty", "unit"):
                if name != "unit":
                    number, at = _group(latex, at)
                    mantissa, _, exponent = number.partition("e")
                    total += len(mantissa) + (3 + 0.7 * len(exponent) if exponent else 0) + 0.5
                if name != "num":
                    unit, at = _group(latex, at)
                    total += sum(_UNIT_WIDTH.get(u, 1) for u in re.findall(r"\\[A-Za-z]+", unit))
            elif name in ("label", "begin", "end", "mathrm", "text", "operatorname", "sqrt"):
                body, at = _group(latex, at)
                total += 0 if name in ("label", "begin", "end") else _width(body) + (1 if name == "sqrt" else 0)
            elif name in _ZERO:
                pass
            elif name in _OPERATORS:
                total += 2.5   # a binary operator or relation with its spaces
            elif not name:
                total += 0.2 if m.group(2) in ",;:! " else 1
            else:
                total += 1
        elif ch in "_^":
            body, at = _group(latex, at + 1)
            total += 0.7 * _width(body)
        elif ch in "{}& \n":
            at += 1
        elif ch in "+-=<>":
            total += 2.5
            at += 1
        else:
            total += 1
            at += 1
    return total


def printed_length(latex: str) -> int:
    """About how many characters wide ``latex`` prints: a fraction as wide as its wider part, scripts smaller,
    an operator or relation with its spaces as two and a half.

    >>> printed_length(r"\\frac{1.5 \\times 10^{9}}{4\\,\\mathrm{B}}"), printed_length(r"M_{\\mathrm{batch}} = B")
    (8, 8)
    """
    return round(_width(latex))


#: An expanded tree of more nodes than this many times ``expanded_limit`` is not printed at all (it could not fit,
#: and printing 2**40 terms of a chain of outputs would never end).
NODES_PER_WIDTH = 20


#: A chain whose expanded tree, counted without building it, has more nodes than this many times the printing limit
#: is not expanded at all (SymPy's flattening shrinks a built tree, so the limit is applied with this margin).
_UNBUILT = 2


def _unbuilt(definitions: Any, config: LatexConfig) -> bool:
    """Whether a chain's expanded tree is left unbuilt: far beyond the printing limit, or grown exponentially from
    its declarations (SymPy's construction of such a tree can take minutes, and it would not fit anyway)."""
    size = expanded_size(definitions)
    return size > _UNBUILT * NODES_PER_WIDTH * config.expanded_limit or size > INLINE_GROWTH * declared_size(definitions)


def tree_size(expr: Any) -> int:
    """The number of nodes ``expr`` prints as a tree, counted over its shared subtrees once each (so linear in
    the DAG, though the count may be exponential: a chain of outputs built on each other).

    >>> x = sympy.Symbol("x")
    >>> tree_size((x + 1) * (2 * x + 1))   # Mul; Add(x, 1) and its 2 leaves; Add(Mul(2, x), 1) and its 4 nodes below
    9
    """
    return declared_size(((None, expr),))   # one definition: its nodes, a shared subtree counted once


def _too_long(expr: Any, config: LatexConfig) -> bool:
    return tree_size(expr) > NODES_PER_WIDTH * config.expanded_limit


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


def equation_label(t: ScenarioType, output: str, when: str | None = None) -> str:
    r"""The ``\label`` key of an output's equation: ``eq:TYPE:OUTPUT`` (``:VALUE`` for a form chosen by a value).

    >>> from mlsysim_symbolic import Scenarios
    >>> equation_label(Scenarios.DpSgdPerExampleGradients.type, "per_batch")
    'eq:PerExampleGradientScenario:per-batch'
    """
    return label("eq", t.name, output, when)


def type_equations(t: ScenarioType, output: str) -> list[tuple[str | None, Latex]]:
    """Every declared form of ``output`` of type ``t``: ``[(when, "lhs = rhs [= expanded]")]``.

    ``when`` is the choice value (or ``None`` for the first form whose inputs are set).

    >>> from mlsysim_symbolic import Scenarios
    >>> type_equations(Scenarios.DpSgdPerExampleGradients.type, "per_batch")
    [(None, 'M_{\\\\mathrm{batch}} = M_{\\\\mathrm{example}} B = P b B')]
    """
    out = t.output(output)
    printer = SymbolPrinter(type_names(t), order=symbol_order(t, output))
    lhs = out.variable.latex
    if not out.kind.numeric:
        return [(None, Latex(f"{lhs} = {declared_answer(out, printer)}"))]
    forms: list[tuple[str | None, Latex]] = []
    for i, branch in enumerate(out.branches):
        text = f"{lhs} = {printer.doprint(branch.expr)}"
        if i == 0:
            try:
                full = t.expand(output)
            except SKIPPED:
                full = branch.expr
            if full != branch.expr and not _too_long(full, LatexConfig()):
                text += f" = {printer.doprint(full)}"
        forms.append((branch.when, Latex(text)))
    return forms


def equation(scenario: Scenario, output: str, *, expand: bool = False, **options: Any) -> Latex:
    """``lhs = rhs`` of ``output`` with declared symbol names (over the inputs only with ``expand``), terms as written.

    >>> from mlsysim_symbolic import Scenarios
    >>> print(equation(Scenarios.FourNinesAvailability10K, "downtime"))   # "(1 - a) * D"
    T_{\\mathrm{down}} = \\left(1 - a\\right) D
    """
    out = scenario.type.output(output)
    printer = SymbolPrinter(type_names(scenario.type), order=symbol_order(scenario.type, output))
    if not out.kind.numeric:
        return Latex(f"{out.variable.latex} = {declared_answer(out, printer)}")
    expr = scenario.expression(output, expand=expand)
    if expand and tree_size(expr) > NODES_PER_WIDTH * 1000:
        raise InputError(f"{output}: the expanded form has {tree_size(expr):.3g} nodes (outputs built on each other), "
                         "too many to print; print it with expand=False (over the outputs it uses)")
    return Latex(f"{out.variable.latex} = {printer.doprint(expr)}")


def _intermediate_values(scenario: Scenario, declared: sympy.Expr, plan: Any, keys: tuple[Any, ...],
                         arguments: dict[str, Any], leaves: dict[sympy.Symbol, str], config: LatexConfig) -> dict[sympy.Symbol, str] | None:
    """The value of each symbol of the declared form: leaves as bound, earlier outputs evaluated (None if one cannot be)."""
    t = scenario.type
    key_of = dict(zip(plan.indices, keys))
    shown = {}
    for sym in declared.free_symbols:
        if sym in leaves:
            shown[sym] = leaves[sym]
            continue
        name = t.output_symbols.get(sym)
        if name is None:
            return None
        sub = scenario.planner.plan(name)
        if not all(i in key_of for i in sub.indices):
            return None
        try:
            value = t.output(name).variable.inward(scenario.evaluate(name, *(key_of[i] for i in sub.indices),
                                                                    **{a: arguments[a] for a in sub.arguments if a in arguments}))
        except SKIPPED:
            return None
        shown[sym] = format_quantity(result_quantity(value), config, compact=True)
    return shown


def leaf_text(q: Any, config: LatexConfig) -> str:
    """An input as a substituted line shows it: in its declared unit, counted kinds included where the unit has a
    dimension (``4 B/param``, ``2 s/step``), the bare number where the unit is counted kinds alone (a parameter count,
    ``param/sample``, ``count``), which would only repeat the symbol's meaning.

    >>> from mlsysim_symbolic.units import Q_
    >>> from mlsysim_symbolic.printing.config import DEFAULT
    >>> leaf_text(Q_(4, "B/param"), DEFAULT), leaf_text(Q_(1.5e9, "param/sample"), DEFAULT), leaf_text(Q_(768, "count"), DEFAULT)
    ('4\\\\,\\\\mathrm{B/param}', '1.5 \\\\times 10^{9}', '768')
    """
    return format_quantity(q, config, drop_counts=is_counted_only(q.units))


def substituted_parts(scenario: Scenario, output: str, *keys: Any, config: LatexConfig | None = None, **options: Any) -> list[str]:
    """The sides of the substituted line: ``[lhs, declared rhs, expanded rhs, numbers, result]`` (repeats dropped).

    An expanded form longer than ``config.expanded_limit`` is left out, and the numbers are
    substituted into the declared form, earlier outputs shown by their values.

    >>> from mlsysim_symbolic import Scenarios
    >>> substituted_parts(Scenarios.DpSgdPerExampleGradients, "per_example", "KWS")
    ['M_{\\\\mathrm{example}}', 'P b', '200000 \\\\cdot 4\\\\,\\\\mathrm{B/param}', '800\\\\,\\\\mathrm{kB/sample}']
    """
    config, arguments = split_options(config, options)
    t = scenario.type
    out = t.output(output)
    if not out.kind.numeric:
        return answer_parts(scenario, output, keys, arguments, config,
                            SymbolPrinter(type_names(t), order=symbol_order(t, output)))
    # evaluate first: it names a wrong or missing key or argument; shown per what it counts (6 GB/sample)
    value = out.variable.inward(scenario.evaluate(output, *keys, **arguments))
    plan = scenario.planner.plan(output)
    names = type_names(t)
    order = symbol_order(t, output)
    printer = SymbolPrinter(names, order=order)
    values = scenario.symbol_values(output, *keys, **arguments)
    leaves = {sym: leaf_text(q, config) for sym, q in values.items()}
    declared = scenario.expression(output)
    # the printed forms depend on the type, the output, the plan and the config, not on the keys or the values: a
    # keyed output's lines (up to 8 keys on a page) print them once
    declared_tex = kept((t, plan), ("declared form", output, config), lambda: printer.doprint(declared), form=True)
    if len(plan.definitions) > 1 and _unbuilt(plan.definitions, config):
        huge = True   # far beyond printing: never built (a chain of outputs each using the one before expands exponentially)
        numbers_of, shown = declared, leaves
    else:
        numbers_of, shown = plan.expr, leaves
        huge = declared != plan.expr and _too_long(plan.expr, config)
    expanded_tex = (kept((t, plan), ("expanded form", output, config), lambda: printer.doprint(plan.expr), form=True)
                    if config.expand and not huge else None)
    if huge or (expanded_tex is not None and declared != plan.expr and printed_length(expanded_tex) > config.expanded_limit):
        intermediate = _intermediate_values(scenario, declared, plan, keys, arguments, leaves, config)
        if intermediate is not None:
            numbers_of, shown, expanded_tex = declared, intermediate, None
    parts = [out.variable.latex]
    if expanded_tex is None or declared != plan.expr:
        parts.append(declared_tex)
    if expanded_tex is not None:
        parts.append(expanded_tex)
    parts.append(ValuePrinter(names, shown, order=order).doprint(numbers_of))
    parts.append(format_quantity(result_quantity(value), config, compact=True))
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
    M_{\\mathrm{batch}} = M_{\\mathrm{example}} B = P b B = 200000 \\cdot 4\\,\\mathrm{B/param} \\cdot 256 = 205\\,\\mathrm{MB}
    """
    return Latex(" = ".join(substituted_parts(scenario, output, *keys, config=config, **options)))


def result(scenario: Scenario, output: str, *keys: Any, config: LatexConfig | None = None, **options: Any) -> Latex:
    """The value of ``output`` alone: in ``unit``, its declared prefixed unit, or with an automatic prefix.

    >>> from mlsysim_symbolic import Scenarios
    >>> s = Scenarios.DpSgdPerExampleGradients
    >>> print(result(s, "per_batch", "GPT-2"), result(s, "per_batch", "GPT-2", unit="GB", siunitx=True))
    1.536\\,\\mathrm{TB} \\qty{1536}{\\giga\\byte}
    """
    config, arguments = split_options(config, options)
    value = scenario.type.output(output).variable.inward(scenario.evaluate(output, *keys, **arguments))
    return Latex(format_quantity(result_quantity(value), config, compact=True))


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


def _key_sets(scenario: Scenario, name: str, keys: Sequence[Any], all_keys: bool, limit: int) -> list[tuple[Any, ...]]:
    indices = scenario.planner.plan(name).indices
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
    config, _ = split_options(config, options)
    # a scenario is immutable: its lines are made once per process (its reference page, ``show`` and the paper ask)
    return list(kept((scenario,), ("rows", keys, config, all_keys, limit),
                     lambda: tuple(_rows(scenario, keys, config, all_keys, limit))))


def _rows(scenario: Scenario, keys: tuple[Any, ...], config: LatexConfig, all_keys: bool, limit: int) -> list[Row]:
    out_rows = []
    for name, out in scenario.type.outputs.items():
        if out.arguments:
            continue
        try:
            key_sets = _key_sets(scenario, name, keys, all_keys, limit)
        except SKIPPED:
            continue
        for use in key_sets:
            try:
                parts = substituted_parts(scenario, name, *use, config=config)
            except SKIPPED:   # an output needing an unset optional input is left out of the block
                continue
            out_rows.append(Row(name, use, tuple(parts)))
    return out_rows


def align(scenario: Scenario, *keys: Any, config: LatexConfig | None = None, all_keys: bool | None = None, **options: Any) -> Latex:
    """An ``aligned`` block: one line per output (equation = numbers = result).

    Keyed outputs get a line per key (up to 8) unless ``keys`` pick one (or ``all_keys=False``: the first key).

    >>> from mlsysim_symbolic import Scenarios
    >>> print(align(Scenarios.DpSgdPerExampleGradients, "GPT-2"))
    \\begin{aligned}
    M_{\\mathrm{example}} &= P b = 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B/param} = 6\\,\\mathrm{GB/sample}\\quad \\text{(GPT-2)} \\\\
    M_{\\mathrm{batch}} &= M_{\\mathrm{example}} B = P b B = 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B/param} \\cdot 256 = 1.536\\,\\mathrm{TB}\\quad \\text{(GPT-2)}
    \\end{aligned}
    """
    lines = [f"{r.parts[0]} &= {' = '.join(r.parts[1:])}{r.key_note()}"
             for r in rows(scenario, *keys, config=config, all_keys=not keys if all_keys is None else all_keys, **options)]
    if not lines:
        lines = [r"&\text{(every output needs an argument or an unset input)}"]
    return Latex("\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}")
