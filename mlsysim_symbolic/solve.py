"""Inverse questions: the value of one input that makes an output hit a target.

``solve`` returns the symbolic solution (``sympy.solve``, the real positive root)
and its value with units; an integer input is floored or ceiled on the side that
keeps the constraint ``output <= target`` (or ``>=``).  Where no closed form
exists it falls back to a bracketed numeric root and says so.

>>> from mlsysim_symbolic import Scenarios
>>> r = solve(Scenarios.DpSgdPerExampleGradients, "per_batch", "batch_size", "80 GB", "GPT-2")
>>> r.expression, r.value, r.method
(M_batch/(P*b), 13, 'closed form')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pint
import sympy

from .errors import InfeasibleError, InputError
from .evaluate import expanded_size
from .plan import Analysable, Plan, placeholder
from .printing import format_quantity
from .units import Q_, from_base, output_bound, to_base

SOLVE_TIMEOUT_NODES = 400   # trees larger than this go straight to the numeric root


@dataclass
class Solution:
    """The answer to an inverse question."""

    input: str
    symbol: sympy.Symbol
    expression: sympy.Expr | None     # the closed form, over the output symbol and the other inputs
    exact: pint.Quantity              # the real root, before any rounding
    value: Any                        # the answer: an int for integer inputs (rounded on the feasible side), else a Quantity
    method: str                       # "closed form" or "numeric (bisection)"
    note: str = ""

    def _repr_latex_(self) -> str:
        symbol = sympy.latex(self.symbol)
        exact = format_quantity(self.exact)
        text = f"{symbol} \\approx {exact}" if self.expression is None else f"{symbol} = {sympy.latex(self.expression)} = {exact}"
        if isinstance(self.value, int):   # an integer input rounded on the feasible side
            text += f" \\;\\Rightarrow\\; {symbol} = {self.value}"
        return f"${text}$"


def _target(target: Any, unit: pint.Unit, output: str, name: str = "target", outer: pint.Unit | None = None) -> float:
    """A target (text or a Quantity; a bare number only for a dimensionless output) in base units of ``unit`` (the
    equation's); finite, or a named error.  A value in the output's ``outer`` unit (the unit its values leave in:
    ``6 GB`` for bytes per example) is the same number in ``unit``."""
    outer = outer or unit
    q = output_bound(target, outer, output=output, name=name, inner=unit)
    try:
        base = float(to_base(q.to(outer).magnitude, unit))
    except OverflowError:
        base = math.inf
    if not math.isfinite(base):
        raise InputError(f"{name}: {target} is beyond float64 in base units")
    return base


def positive_real_roots(candidates: list[sympy.Expr], values: dict[sympy.Symbol, float]) -> list[tuple[float, sympy.Expr]]:
    """The candidates whose value at ``values`` is real and positive, as (value, expression), smallest first.

    >>> x, a = sympy.symbols("x a", positive=True)
    >>> positive_real_roots(sympy.solve(x**2 - a, x) + [-a], {a: 4.0})
    [(2.0, sqrt(a))]
    """
    found = []
    for c in candidates:
        try:
            v = complex(sympy.N(c.xreplace({k: sympy.Float(x) for k, x in values.items() if k in c.free_symbols})))
        except (TypeError, ValueError):
            continue
        if abs(v.imag) <= 1e-12 * max(1.0, abs(v.real)) and v.real > 0 and math.isfinite(v.real):
            found.append((v.real, c))
    return sorted(found, key=lambda p: p[0])


def _closed_form(plan: Plan, sym: sympy.Symbol, out_sym: sympy.Symbol, values: dict[sympy.Symbol, float],
                 y_base: float) -> tuple[float | None, sympy.Expr | None, str]:
    if expanded_size(plan.definitions) > 4 * SOLVE_TIMEOUT_NODES:   # counted over the chain: count_ops and has walk
        return None, None, ""                                      # the expanded tree, 2**n nodes for n chained outputs
    expr = plan.expr
    if sympy.count_ops(expr) > SOLVE_TIMEOUT_NODES or expr.has(sympy.floor, sympy.ceiling, sympy.Piecewise, sympy.Max, sympy.Min):
        return None, None, ""
    try:
        candidates = sympy.solve(sympy.Eq(expr, out_sym), sym, dict=False)
    except (NotImplementedError, ValueError, TypeError):
        return None, None, ""
    roots = positive_real_roots(candidates, {**values, out_sym: y_base})
    if not roots:
        return None, None, ""
    note = f"{len(roots)} positive roots; the smallest is reported" if len(roots) > 1 else ""
    return roots[0][0], roots[0][1], note


def solve(scenario: Analysable, output: str, input: str, target: Any = None, *keys: Any, sense: str | None = None,
          **arguments: Any) -> Solution:
    """The value of ``input`` at which ``output`` equals ``target`` (the constraint is ``output <sense> target``).

    For a predicate output (``fits``) no target is given: the answer is where it starts or stops holding (its
    slack reaches zero), rounded for a whole-number input to the side where it holds ("the largest batch that
    fits").  ``sense`` defaults to ``"<="`` for a quantity.

    ``input`` may be one of the output's arguments (``tau`` of ``waste_at``).  An integer input is rounded on the
    side that keeps the constraint; when no value of the input in its domain keeps it, an
    :class:`~mlsysim_symbolic.errors.InfeasibleError` says why in the output's own units.
    """
    t = scenario.type
    planner = scenario.planner
    predicate = t.output(output).kind.condition
    if predicate:
        if target is not None and not isinstance(target, str | pint.Quantity | int | float):
            keys = (target, *keys)   # solve("fits", "batch_size", "GPT-2"): the third argument is a key
        elif target is not None:
            raise InputError(f"{output} is a predicate: solve for where it holds without a target, e.g. "
                             f"solve({output!r}, {input!r})")
        target, sense = None, sense or ">="   # where its slack is zero
    sense = sense or "<="
    if sense not in ("<=", ">="):
        raise InputError(f"sense must be '<=' or '>=', got {sense!r}")
    plan = planner.numeric_plan(output)
    if input in plan.arguments and input not in arguments:   # solving for an argument: start from a value in its domain
        arguments = {**arguments, input: placeholder(t.arguments[input])}
    base = list(planner.values(plan, keys, arguments))
    i, var = planner.resolve(input, plan.args)
    sym = plan.args[i]
    y_base = 0.0 if predicate else _target(target, plan.unit, output, outer=plan.returns)
    problem = _Problem(plan, base, i, var, y_base, sense, output)
    root, expression, note = _closed_form(plan, sym, plan.definitions[-1][0], dict(zip(plan.args, base)), y_base)
    method = "closed form"
    if root is None:
        problem.check_reachable()
        root = problem.bisect()
        method = "numeric (bisection)"
        note = "no closed form from sympy.solve (floor/ceil/max/min/piecewise or no algebraic root): bracketed numeric root"
    if predicate and expression is not None:   # where the slack is zero
        expression = expression.xreplace({plan.definitions[-1][0]: 0})
    exact = Q_(from_base(root, var.unit), var.unit)
    if not math.isfinite(exact.magnitude):
        raise InfeasibleError(f"{output} {sense} {problem.shown(y_base)}: the {var.name} that reaches it is beyond float64")
    value: Any = exact
    if var.integer:
        use_floor = (problem.slope(root) > 0) == (sense == "<=")
        # output <= target: increasing output -> largest input below the root (floor); decreasing -> ceil
        value = int(math.floor(exact.magnitude + 1e-9)) if use_floor else int(math.ceil(exact.magnitude - 1e-9))
        keeps = f"{output} true" if predicate else f"{output} {sense} target"
        note = (note + "; " if note else "") + f"integer input: {'floor' if use_floor else 'ceil'} keeps {keeps}"
        problem.check_feasible(value)
    elif not var.domain.contains(exact.magnitude):
        raise InfeasibleError(f"no {var.name} in {var.domain} {var.unit_text} gives {output} {sense} {problem.shown(y_base)}: "
                              f"it would take {var.name} = {exact.magnitude:.6g} {var.unit_text}")
    return Solution(input, sym, expression, exact, value, method, note)


def _readable(q: pint.Quantity) -> str:
    """A quantity for a message, with an SI prefix where its unit takes one (6 GB, not 6e+09 B)."""
    try:
        q = q.to_compact() if q.magnitude and math.isfinite(q.magnitude) else q
    except (ValueError, ZeroDivisionError, pint.errors.PintError):
        pass
    return f"{q.magnitude:.4g} {q.units:~C}".rstrip()


class _Problem:
    """``output(input) <sense> target`` with every other leaf fixed: evaluated in base units, reported in declared ones."""

    def __init__(self, plan: Plan, base: list[Any], i: int, var: Any, y: float, sense: str, output: str) -> None:
        self.plan, self.base, self.i, self.var, self.y, self.sense, self.output = plan, base, i, var, y, sense, output

    def __call__(self, x: float) -> float:
        args = list(self.base)
        args[self.i] = x
        try:
            return float(self.plan.function(*args))
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            raise InputError(f"{self.output} has no value at {self.var.name} = {self.at(x)}: {exc}") from None

    def at(self, x_base: float) -> str:
        return _readable(Q_(from_base(x_base, self.var.unit), self.var.unit))

    def shown(self, y_base: float) -> str:
        return _readable(Q_(self.plan.to_unit(y_base), self.plan.returns))

    def slope(self, x: float) -> float:
        h = max(abs(x) * 1e-6, 1e-12)
        return self(x + h) - self(x - h)

    def check_feasible(self, value: int) -> None:
        """An integer answer must lie in the input's domain and keep the constraint."""
        x = to_base(value, self.var.unit)
        lowest = self.var.domain.low if self.var.domain.contains(self.var.domain.low) else math.floor(self.var.domain.low) + 1
        if not self.var.domain.contains(value):
            y = self(to_base(lowest, self.var.unit))
            raise InfeasibleError(
                f"no {self.var.name} gives {self.output} {self.sense} {self.shown(self.y)}: even at {self.var.name} = "
                f"{lowest:g} {self.var.unit_text}, {self.output} is {self.shown(y)}")
        y = self(x)
        if (y > self.y * (1 + 1e-12)) if self.sense == "<=" else (y < self.y * (1 - 1e-12)):
            raise InfeasibleError(f"no whole {self.var.name} gives {self.output} {self.sense} {self.shown(self.y)}: "
                                  f"at {self.var.name} = {value}, {self.output} is {self.shown(y)}")

    def lowest(self) -> float:
        """The smallest value the input may take (1 for a positive whole count), in its declared unit."""
        d = self.var.domain
        if d.contains(d.low):
            return d.low
        return math.floor(d.low) + 1 if self.var.integer else d.low + max(abs(d.low), 1.0) * 1e-9

    def check_reachable(self) -> None:
        """Refuse, in the field's words, a target that the output already passes at the input's smallest value."""
        low = to_base(self.lowest(), self.var.unit)
        try:
            y_low, slope = self(low), self.slope(max(low, 1e-300) * 2) if low == 0 else self.slope(low)
        except InputError:
            return
        beyond = y_low > self.y if self.sense == "<=" else y_low < self.y
        moving_away = slope >= 0 if self.sense == "<=" else slope <= 0
        if not (beyond and moving_away):
            return
        reason = f"even at {self.var.name} = {self.lowest():g} {self.var.unit_text}, {self.output} is {self.shown(y_low)}"
        try:
            fixed = self(0.0)
        except InputError:
            fixed = None
        if fixed is not None and math.isfinite(fixed) and (fixed > self.y if self.sense == "<=" else fixed < self.y):
            reason += f"; the part that does not depend on {self.var.name} is already {self.shown(fixed)}"
        raise InfeasibleError(f"no {self.var.name} gives {self.output} {self.sense} {self.shown(self.y)}: {reason}")

    def bisect(self, iterations: int = 200) -> float:
        """A bracketed root of output = target, found by widening from the bound value, then bisecting."""
        x0 = self.base[self.i] if self.base[self.i] else 1.0

        def g(x: float) -> float:
            return self(x) - self.y

        lo, hi = x0, x0
        glo = ghi = g(x0)
        for _ in range(200):   # expand geometrically until the sign changes
            if glo * ghi <= 0 and lo != hi:
                break
            lo, hi = lo / 2, hi * 2
            glo, ghi = g(lo), g(hi)
        else:
            low, high = self(lo), self(hi)
            raise InfeasibleError(
                f"no {self.var.name} gives {self.output} = {self.shown(self.y)}: between {self.var.name} = {self.at(lo)} and "
                f"{self.at(hi)} the output runs from {self.shown(low)} to {self.shown(high)} and never crosses it")
        if glo == 0:
            return lo
        for _ in range(iterations):
            mid = math.sqrt(lo * hi) if lo > 0 else (lo + hi) / 2
            gm = g(mid)
            if gm == 0 or (hi - lo) <= 1e-15 * abs(hi):
                return mid
            if (gm < 0) == (glo < 0):
                lo, glo = mid, gm
            else:
                hi, ghi = mid, gm
        return math.sqrt(lo * hi) if lo > 0 else (lo + hi) / 2


def optimum(scenario: Analysable, output: str, input: str, *keys: Any, expand: bool = True, **arguments: Any) -> Solution:
    """The stationary point of ``output`` in ``input``: ``solve(d output / d input = 0)``, symbolically.

    For the checkpoint-waste scenario this recovers Young's interval tau* = sqrt(2 delta M).
    """
    t = scenario.type
    expr = scenario.planner.expanded(output)
    var = t.variable(input)
    sym = var.symbol
    if sym not in expr.free_symbols:
        raise InputError(f"{t.name}.{output} does not depend on {input!r}")
    roots = sympy.solve(sympy.Eq(sympy.diff(expr, sym), 0), sym)
    values = scenario.planner.bound([s for s in expr.free_symbols if s != sym], keys)
    found = positive_real_roots(roots, values)
    if not found:
        raise InfeasibleError(f"d({output})/d({input}) = 0 has no real positive closed-form root")
    best = found[0]
    root, expression = best
    exact = Q_(from_base(root, var.unit), var.unit)
    if not expand:   # the same root over the output's own terms (earlier outputs kept as symbols)
        shallow = scenario.planner.expression(output)
        shallow_roots = [r for r in sympy.solve(sympy.Eq(sympy.diff(shallow, sym), 0), sym) if r.is_positive is not False]
        if len(shallow_roots) == 1:
            expression = shallow_roots[0]
    return Solution(var.name, sym, sympy.simplify(expression), exact, exact, "closed form", f"stationary point of {output}")


class InverseAccessor:
    """Inverse questions of one scenario: ``s.inverse.solve(output, input, target, *keys)`` and ``s.inverse.optimum(...)``.

    >>> from mlsysim_symbolic import Scenarios
    >>> Scenarios.DpSgdPerExampleGradients.inverse.solve("per_batch", "batch_size", "80 GB", "GPT-2").value
    13
    """

    def __init__(self, scenario: Analysable) -> None:
        self._s = scenario

    def solve(self, output: str, input: str, target: Any = None, *keys: Any, **options: Any) -> Solution:
        """:func:`solve`: the value of ``input`` at which ``output`` reaches ``target`` (a predicate: where it holds)."""
        return solve(self._s, output, input, target, *keys, **options)

    def optimum(self, output: str, input: str, *keys: Any, **options: Any) -> Solution:
        """:func:`optimum`: the stationary point of ``output`` in ``input``."""
        return optimum(self._s, output, input, *keys, **options)

    def slack(self, output: str, *keys: Any, **arguments: Any) -> pint.Quantity:
        """How far predicate ``output`` is from flipping, in the unit of its sides (>= 0 where it holds)."""
        return self._s.planner.slack(output, *keys, **arguments)
