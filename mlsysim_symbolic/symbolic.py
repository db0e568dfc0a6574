"""Symbolic operations on a scenario's outputs: derivatives and elasticities.

>>> from mlsysim_symbolic import Scenarios
>>> s = Scenarios.DpSgdPerExampleGradients
>>> s.diff("per_batch", "batch_size")
P*b
>>> [(e.input, e.expression, round(e.value, 12)) for e in s.elasticities("per_batch", "GPT-2")]
[('batch_size', 1, 1.0), ('bytes_per_param', 1, 1.0), ('parameters', 1, 1.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

import sympy

from .errors import InputError, UnknownNameError
from .evaluate import INLINE_LIMIT, compile_chain, compile_tree, expanded_size, gradient_chain
from .plan import Analysable, Plan
from .units import Q_, shown, ureg


@dataclass(frozen=True)
class Elasticity:
    """∂ln y/∂ln x of one output y for one input x: its value at the scenario, the derivative, and (on first read)
    the simplified expression.

    ``value`` and ``derivative_value`` come from the compiled derivative; ``expression`` is SymPy's simplification
    of ``derivative·x/y``, made only when read (seconds for a composed roofline's piecewise, which a ranking by
    value never needs) and kept with the plan, so each (type, signature, input) simplifies once.
    """

    input: str
    symbol: sympy.Symbol
    value: float
    derivative: sympy.Expr
    derivative_value: Any   # a Quantity in (output unit) / (input unit)
    form: Callable[[], sympy.Expr] = field(repr=False, compare=False)

    @cached_property
    def expression(self) -> sympy.Expr:
        """∂ln y/∂ln x as an expression over the inputs (simplified where SymPy can)."""
        return self.form()

    def __repr__(self) -> str:
        """Four significant figures, the derivative in pint's pretty units (the fields keep full precision); by hand:
        the 30-turn resend sends 892,500 tokens and its 30th turn adds 8000 + 1500·59/2 = 52,250, so ε = 52,250·30/892,500.

        >>> from mlsysim_symbolic import Scenarios
        >>> {e.input: e for e in Scenarios.CodingAgentResend30Turns.elasticities("resent_tokens")}["turns"]
        Elasticity(turns: ε = 1.756, ∂y/∂x = 5.225×10⁴ token/count)
        """
        d = self.derivative_value
        return f"Elasticity({self.input}: ε = {self.value:.4g}, ∂y/∂x = {shown(d) if hasattr(d, 'units') else f'{d:.4g}'})"

    def _repr_latex_(self) -> str:
        return f"$\\varepsilon_{{{sympy.latex(self.symbol)}}} = {sympy.latex(self.expression)} = {self.value:.4g}$"


def _symbol(scenario: Analysable, wrt: str | sympy.Symbol) -> sympy.Symbol:
    t = scenario.type
    if isinstance(wrt, sympy.Symbol):
        return wrt
    for sym, var in t.leaves.items():
        if wrt in (var.name, sym.name):
            return sym
    known = sorted(v.name for v in t.leaves.values())
    raise UnknownNameError("input", wrt, known, owner=t.name)


#: Expanded trees above this many nodes are not differentiated or simplified symbolically: the catalog's largest
#: has 544; 8 outputs o = (o' + x)(o' + 1) built on each other have 1403 and simplify to a polynomial of degree 256
#: (7 such outputs, 699 nodes, already take SymPy about 20 s; 14 ran past a minute without an answer).
SYMBOLIC_LIMIT = 1000


def check_expandable(scenario: Analysable, output: str, what: str) -> None:
    """An :class:`InputError` when ``output``'s expanded tree is too large for ``what`` (counted without building it)."""
    size = expanded_size(scenario.planner.definitions(output))
    if size > SYMBOLIC_LIMIT:
        raise InputError(f"{output}: its expanded form has {size:.3g} nodes (outputs built on each other), too many to "
                         f"{what} symbolically; elasticities() gives derivative values by the chain rule")


def diff(scenario: Analysable, output: str, wrt: str | sympy.Symbol) -> sympy.Expr:
    """∂output/∂wrt through every composed output (the tree is expanded first)."""
    check_expandable(scenario, output, "differentiate")
    plan = scenario.planner.numeric_plan(output)
    if isinstance(wrt, str) and not any(wrt in (v.name, v.symbol.name) for v in scenario.type.leaves.values()
                                        if v.role != "scenario field"):   # a scenario input's field: its nested leaf
        sym = scenario.planner.resolve(wrt, plan.args)[1].symbol   # a leaf of a scenario input ("model.micro_batch")
    else:
        sym = _symbol(scenario, wrt)
    # kept with the plan: the same output reached through a result, a level and a scenario simplifies once
    return plan.memo(("simplified derivative", sym), lambda: tidy(sympy.diff(plan.expr, sym)))


def _derivative(plan: Plan, sym: sympy.Symbol) -> tuple[sympy.Expr, Callable[..., Any], Callable[[], sympy.Expr]]:
    """∂y/∂x of ``plan``'s output for leaf ``sym``, its compiled function of ``plan.args``, and a maker of the
    simplified elasticity that simplifies once (all kept with the plan: made once per type, signature and input)."""
    d = sympy.diff(plan.expr, sym)
    return d, compile_tree(d, plan.args), cache(lambda: tidy(d * sym / plan.expr))


def tidy(expr: sympy.Expr) -> sympy.Expr:
    """``sympy.simplify(expr)``, or ``expr`` itself where SymPy's simplification fails on it (it compares a relational
    it rewrote to nan on a roofline with training's nested piecewise: "The argument 'nan' is not comparable").  Only
    the shown form changes: every value is computed from the unsimplified tree.

    >>> x = sympy.Symbol("x", positive=True)
    >>> tidy(x**2 / x)
    x
    """
    try:
        return sympy.simplify(expr)
    except (ValueError, TypeError, NotImplementedError, RecursionError, StopIteration):
        # StopIteration: sympy 1.14's sum_simplify looks for a Sum among the factors of a term it took for a sum's
        # multiple (the derivative of a tempered softmax, e^(z/T)/Σ e^(z/T), in T)
        return expr


def elasticities(scenario: Analysable, output: str, *keys: Any, only: Collection[str] | None = None,
                 **arguments: Any) -> list[Elasticity]:
    """Elasticities ∂ln y/∂ln x of ``output`` for each of its inputs (or those named in ``only``, by input or
    symbol name), ranked by magnitude: each derivative is taken and compiled once per type, presence signature and
    input, and its simplified form (``Elasticity.expression``) made only when read."""
    t = scenario.type
    plan = scenario.planner.numeric_plan(output)
    values = scenario.planner.values(plan, keys, arguments)
    y = plan.function(*values)
    out_unit = plan.unit
    results = []
    seen: set[str] = set()
    only = (only,) if isinstance(only, str) else only
    gradient: dict[sympy.Symbol, Any] = {}
    if expanded_size(plan.definitions) > INLINE_LIMIT:   # outputs built on each other: every derivative in one pass
        wrts = tuple(sym for sym in plan.args if t.leaf_input.get(sym) not in t.arguments)
        function = plan.memo(("gradient", wrts), lambda: compile_chain(gradient_chain(plan.definitions, wrts), plan.args))
        gradient = dict(zip(wrts, function(*values)))
    for sym, x in zip(plan.args, values):
        var = scenario.planner.variable(sym)   # a scenario input's own leaves count too
        if t.leaf_input.get(sym) in t.arguments:
            continue
        if only is not None and var.name not in only and sym.name not in only:
            continue
        seen.update((var.name, sym.name))
        if sym in gradient:   # the chain rule over the definitions; the symbolic forms left unevaluated
            out_sym = plan.definitions[-1][0]
            d = sympy.Derivative(out_sym, sym)
            d_value, form = gradient[sym], (lambda d=d, sym=sym, out_sym=out_sym: d * sym / out_sym)
        else:
            d, d_function, form = plan.memo(("elasticity", sym), lambda sym=sym: _derivative(plan, sym))
            d_value = d_function(*values)
        value = float(d_value) * float(x) / float(y) if y else float("nan")
        base_unit = Q_(1, out_unit).to_base_units().units / Q_(1, var.unit).to_base_units().units
        derivative_value = ureg.Quantity(float(d_value), base_unit).to(out_unit / var.unit)
        results.append(Elasticity(var.name, sym, value, d, derivative_value, form))
    unknown = sorted(set(only or ()) - seen)
    if unknown:
        raise UnknownNameError("input", unknown[0], [scenario.planner.variable(s).name for s in plan.args],
                               owner=f"elasticities of {output}")
    results.sort(key=lambda r: (-abs(r.value), r.input))
    return results


__all__ = ["SYMBOLIC_LIMIT", "Elasticity", "check_expandable", "diff", "elasticities"]
