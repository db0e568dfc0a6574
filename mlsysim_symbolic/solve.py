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
from typing import TYPE_CHECKING, Any

import pint
import sympy

from .errors import InputError, UnitError
from .sweep import resolve
from .units import Q_, carry_in, from_base, parse_quantity, to_base

if TYPE_CHECKING:
    from .scenario import Scenario

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
        from .latex import format_quantity

        symbol = sympy.latex(self.symbol)
        exact = format_quantity(self.exact)
        text = f"{symbol} \\approx {exact}" if self.expression is None else f"{symbol} = {sympy.latex(self.expression)} = {exact}"
        if isinstance(self.value, int):   # an integer input rounded on the feasible side
            text += f" \\;\\Rightarrow\\; {symbol} = {self.value}"
        return f"${text}$"


def _target(target: Any, unit: pint.Unit, name: str = "target") -> float:
    if isinstance(target, str):
        target = parse_quantity(target, name=name)
    target = carry_in(target)   # a Quantity of another pint registry (the user's), by its unit text
    if isinstance(target, pint.Quantity):
        if target.dimensionality != unit.dimensionality:
            raise UnitError(f"{name}: expected a quantity in {unit:~C}, got {target:~C}")
        magnitude = target.magnitude
        if isinstance(magnitude, bool) or not isinstance(magnitude, (int, float)) or not math.isfinite(magnitude):
            raise InputError(f"{name}: expected a finite quantity such as '80 GB', got {target!r}")
        return float(to_base(magnitude, target.units))
    if isinstance(target, (int, float)) and not isinstance(target, bool) and math.isfinite(target):
        return float(to_base(target, unit))
    raise InputError(f"{name}: expected a quantity such as '80 GB', got {target!r}")


def solve(scenario: Scenario, output: str, input: str, target: Any, *keys: Any, sense: str = "<=", **arguments: Any) -> Solution:
    """The value of ``input`` at which ``output`` equals ``target`` (the constraint is ``output <sense> target``)."""
    if sense not in ("<=", ">="):
        raise InputError(f"sense must be '<=' or '>=', got {sense!r}")
    t = scenario.type
    plan = scenario._plan(output)
    base = list(scenario._arguments(plan, keys, arguments))
    i, var = resolve(scenario, input, plan.args)
    sym = plan.args[i]
    y_base = _target(target, plan.unit)
    values = dict(zip(plan.args, base))
    out_sym = t.outputs[output].variable.symbol
    expression = None
    root = None
    method = "closed form"
    note = ""
    expr = plan.expr
    if sympy.count_ops(expr) <= SOLVE_TIMEOUT_NODES and not expr.has(sympy.floor, sympy.ceiling, sympy.Piecewise, sympy.Max, sympy.Min):
        try:
            candidates = sympy.solve(sympy.Eq(expr, out_sym), sym, dict=False)
        except (NotImplementedError, ValueError, TypeError):
            candidates = []
        numeric = []
        for c in candidates:
            others = {s: values[s] for s in c.free_symbols if s in values}
            others[out_sym] = y_base
            try:
                v = complex(sympy.N(c.xreplace({k: sympy.Float(v) for k, v in others.items()})))
            except (TypeError, ValueError):
                continue
            if abs(v.imag) <= 1e-12 * max(1.0, abs(v.real)) and v.real > 0:
                numeric.append((v.real, c))
        if numeric:
            root, expression = min(numeric, key=lambda p: p[0]) if len(numeric) > 1 else numeric[0]
            if len(numeric) > 1:
                note = f"{len(numeric)} positive roots; the smallest is reported"
    if root is None:
        root = _bisect(plan, base, i, y_base, var)
        method = "numeric (bisection)"
        note = note or "no closed form from sympy.solve (floor/ceil/max/min/piecewise or no algebraic root): bracketed numeric root"
    exact = Q_(from_base(root, var.unit), var.unit)
    value: Any = exact
    if var.integer:
        slope = _slope(plan, base, i, root)
        keep_below = sense == "<="
        # output <= target: increasing output -> largest input below the root (floor); decreasing -> ceil
        use_floor = (slope > 0) == keep_below
        m = exact.magnitude
        value = int(math.floor(m + 1e-9)) if use_floor else int(math.ceil(m - 1e-9))
        note = (note + "; " if note else "") + f"integer input: {'floor' if use_floor else 'ceil'} keeps {output} {sense} target"
    return Solution(input, sym, expression, exact, value, method, note)


def _call(plan: Any, base: list[Any], i: int, x: float) -> float:
    args = list(base)
    args[i] = x
    try:
        return float(plan.function(*args))
    except (ZeroDivisionError, OverflowError, ValueError) as exc:
        raise InputError(f"{plan.output.name} has no value at {plan.args[i]} = {x:g} (base units): {exc}") from None


def _slope(plan: Any, base: list[Any], i: int, x: float) -> float:
    h = max(abs(x) * 1e-6, 1e-12)
    return _call(plan, base, i, x + h) - _call(plan, base, i, x - h)


def _bisect(plan: Any, base: list[Any], i: int, y: float, var: Any, iterations: int = 200) -> float:
    x0 = base[i] if base[i] else 1.0

    def g(x: float) -> float:
        return _call(plan, base, i, x) - y

    lo, hi = x0, x0
    glo = ghi = g(x0)
    for _ in range(200):   # expand geometrically until the sign changes
        if glo * ghi <= 0 and lo != hi:
            break
        lo, hi = lo / 2, hi * 2
        glo, ghi = g(lo), g(hi)
    else:
        raise InputError(f"no value of {var.name} in [{lo:g}, {hi:g}] (base units) reaches the target: the output never crosses it")
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


def _bound_values(scenario: Scenario, symbols: Any, keys: tuple[Any, ...]) -> dict[sympy.Symbol, float]:
    """Base-unit values of the bound leaves among ``symbols`` (keyed ones at ``keys``, in index order)."""
    t = scenario.type
    key_of = dict(zip(t.index_inputs, keys))
    values: dict[sympy.Symbol, float] = {}
    for s in symbols:
        if s in t.leaf_index:
            key = key_of.get(t.leaf_index[s])
            v = scenario._keyed.get(t.leaf_index[s], {}).get(key, {}).get(s) if key is not None else None
        else:
            v = scenario._scalars.get(s)
        if v is not None:
            values[s] = float(v)
    return values


def optimum(scenario: Scenario, output: str, input: str, *keys: Any, expand: bool = True, **arguments: Any) -> Solution:
    """The stationary point of ``output`` in ``input``: ``solve(d output / d input = 0)``, symbolically.

    For the checkpoint-waste scenario this recovers Young's interval tau* = sqrt(2 delta M).
    """
    t = scenario.type
    t._require_output(output)
    choices = dict(scenario._choices)
    expr = t.expand(output, choices, available=scenario._available)
    expr = scenario._expand_reductions(expr)
    sym = None
    for s in expr.free_symbols:
        v = t.leaves.get(s)
        if v is not None and input in (v.name, s.name):
            sym = s
    if sym is None:
        raise InputError(f"{t.name}.{output} does not depend on {input!r}")
    derivative = sympy.diff(expr, sym)
    roots = sympy.solve(sympy.Eq(derivative, 0), sym)
    var = t.leaves[sym]
    free = [s for s in expr.free_symbols if s != sym]
    values = _bound_values(scenario, free, keys)
    best = None
    for r in roots:
        try:
            v = complex(sympy.N(r.xreplace({k: sympy.Float(x) for k, x in values.items()})))
        except (TypeError, ValueError):
            continue
        if abs(v.imag) <= 1e-12 * max(1.0, abs(v.real)) and v.real > 0:
            best = (v.real, r)
    if best is None:
        raise InputError(f"d({output})/d({input}) = 0 has no real positive closed-form root")
    root, expression = best
    exact = Q_(from_base(root, var.unit), var.unit)
    if not expand:   # the same root over the output's own terms (earlier outputs kept as symbols)
        shallow = scenario.expression(output)
        shallow_roots = [r for r in sympy.solve(sympy.Eq(sympy.diff(shallow, sym), 0), sym) if r.is_positive is not False]
        if len(shallow_roots) == 1:
            expression = shallow_roots[0]
    return Solution(var.name, sym, sympy.simplify(expression), exact, exact, "closed form", f"stationary point of {output}")
