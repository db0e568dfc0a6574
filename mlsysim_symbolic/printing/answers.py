r"""LaTeX of the outputs that answer rather than measure: predicates (``fits``) and labels (``bottleneck``).

A predicate prints as its comparison, then the two sides with their values, then the answer:
``\mathrm{fits} = M \leq C = 22\,\mathrm{GB} \leq 80\,\mathrm{GB} = \text{true}``.  A label prints the
cases it chooses among, their values, and the winner:
``\mathrm{bottleneck} = \operatorname{arg\,max}\left\{\text{Compute}: T_{c},\ \text{Memory}: T_{m}\right\} = \dots = \text{Compute}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pint
import sympy

from .. import reductions
from ..dimensions import unit_of
from ..evaluate import compile_chain, compile_tree
from ..spec import OutputSpec
from ..units import base_ratio, make_quantity, scaling
from .config import LatexConfig
from .printer import SymbolPrinter
from .quantities import format_quantity
from .text import escape_text

if TYPE_CHECKING:
    from ..scenario import Scenario

#: The side of a comparison (or a label's case) being valued, as the last definition of its chain.
_SIDE = sympy.Symbol("_side")

_RULES = {"argmax": r"\operatorname{arg\,max}", "argmin": r"\operatorname{arg\,min}"}


def answer_text(value: bool | str) -> str:
    r"""The answer as upright text: ``\text{true}``, ``\text{false}`` or the label's name (escaped)."""
    if isinstance(value, bool):
        return r"\text{true}" if value else r"\text{false}"
    return r"\text{" + escape_text(value) + "}"


def declared_answer(out: OutputSpec, printer: SymbolPrinter) -> str:
    r"""The right-hand side of a predicate (its comparison) or a label (``arg max {case: term, ...}``).

    >>> import sympy
    >>> from mlsysim_symbolic.spec import ScenarioType
    >>> t = ScenarioType.from_mapping("Fit", {"inputs": {"m": {"symbol": "M", "unit": "GB"}, "c": {"symbol": "C", "unit": "GB"}},
    ...     "outputs": {"fits": {"kind": "predicate", "equation": "M <= C"},
    ...                 "larger": {"kind": "label", "cases": {"need": "M", "have": "C"}}}})
    >>> names = {v.symbol: v.symbol.name for v in t.leaves.values()}
    >>> declared_answer(t.output("fits"), SymbolPrinter(names))
    'M \\leq C'
    >>> declared_answer(t.output("larger"), SymbolPrinter(names))
    '\\operatorname{arg\\,max}\\left\\{\\text{need}: M,\\ \\text{have}: C\\right\\}'
    """
    if out.kind.condition or out.over:   # a comparison, or an argmax over an index's keys
        return printer.doprint(out.branches[0].expr)
    cases = [rf"\text{{{escape_text(label)}}}: {printer.doprint(term)}" for label, term in out.cases]
    return _RULES[out.rule] + r"\left\{" + r",\ ".join(cases) + r"\right\}"


def _value(scenario: Scenario, expr: sympy.Expr, definitions: Any, args: tuple, values: tuple, config: LatexConfig) -> str:
    """``expr`` (over leaves and earlier outputs) valued at the scenario, formatted with its unit."""
    unit = unit_of(expr, scenario.type.unit_map)
    factor, divisor = scaling(1 / base_ratio(unit))
    if expr.has(*reductions.NODES):   # a reduction in a side: the definitions substituted, then written out as the plan
        done: dict[sympy.Symbol, sympy.Expr] = {}
        for sym, e in definitions:
            done[sym] = e.xreplace(done) if done else e
        base = compile_tree(scenario.planner.written_out(expr.xreplace(done)), args)(*values)
    else:
        # the chain compiled as the plan's own outputs are (each earlier output once): substituting every definition
        # into the side first rebuilt SymPy's Max/Min of expanded trees, the costliest step of a catalog's pages
        base = compile_chain((*definitions, (_SIDE, expr)), args)(*values)
    q: pint.Quantity = make_quantity(base * factor / divisor, unit)
    return format_quantity(q, config, compact=True)


def answer_parts(scenario: Scenario, output: str, keys: tuple[Any, ...], arguments: dict[str, Any], config: LatexConfig,
                 printer: SymbolPrinter) -> list[str]:
    """The sides of a predicate's or label's substituted line: name, declared form, values, answer."""
    out = scenario.type.output(output)
    answer = scenario.evaluate(output, *keys, **arguments)
    plan = scenario.planner.plan(output)
    values = scenario.planner.values(plan, keys, arguments)
    before = plan.definitions[:-1]
    if out.kind.condition:
        rel = out.branches[0].expr
        if isinstance(rel, sympy.core.relational.Relational):
            lhs, rhs = (_value(scenario, side, before, plan.args, values, config) for side in rel.args)
            numbers = printer.doprint(rel.func(sympy.Symbol("_lhs"), sympy.Symbol("_rhs"), evaluate=False))
            numbers = numbers.replace("_lhs", lhs, 1).replace("_rhs", rhs, 1)
        else:
            numbers = None
    elif out.over:   # the keys' terms are the keyed values the line before shows
        numbers = None
    else:
        shown = [rf"\text{{{escape_text(label)}}}: {_value(scenario, term, before, plan.args, values, config)}" for label, term in out.cases]
        numbers = _RULES[out.rule] + r"\left\{" + r",\ ".join(shown) + r"\right\}"
    parts = [out.variable.latex, declared_answer(out, printer)]
    if numbers:
        parts.append(numbers)
    parts.append(answer_text(answer))
    return parts
