"""Compiled numeric evaluation of output trees.

Each output tree is compiled once (``sympy.lambdify``) and cached; a call then
costs a Python function call, not a ``subs``/``evalf`` walk.  Inputs enter in
base units (byte, second, flop, ...) so that every term of a sum is coherent
whatever units the inputs were given in; the result leaves in the base unit of
its dimension and is scaled once to the declared unit.

>>> import sympy
>>> P, b = sympy.symbols("P b", positive=True)
>>> f = compile_tree(P * b, (P, b))
>>> f(1.5e9, 4)
6000000000.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
import pint
import sympy

from .units import Q_

_MATH_MODULE = [{"ceiling": math.ceil, "floor": math.floor, "Max": max, "Min": min}, "math"]


class log2(sympy.Function):  # noqa: N801 - named as the function it compiles to
    """log(x)/log(2), compiled to ``math.log2``/``numpy.log2`` so that exact powers of two stay exact."""


def _exact_log2(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite ``log(x)/log(2)`` (SymPy's form of log2) as :class:`log2` before compiling.

    ``math.log(2**29)/math.log(2)`` is 29.000000000000004, so ``ceil(log2(n))`` would be
    one too high at exact powers of two; ``math.log2`` is exact there.
    """
    inv = sympy.Pow(sympy.log(2), -1)
    if not expr.has(inv):
        return expr

    def rewrite(node: Any) -> Any:
        if isinstance(node, sympy.Mul) and inv in node.args:
            logs = [a for a in node.args if isinstance(a, sympy.log)]
            if logs:
                rest = [a for a in node.args if a != inv and a != logs[0]]
                return sympy.Mul(log2(logs[0].args[0]), *rest)
        return node

    return expr.replace(lambda n: isinstance(n, sympy.Mul) and inv in n.args, rewrite)


def compile_tree(expr: sympy.Expr, args: Sequence[sympy.Symbol], *, vector: bool = False) -> Callable[..., Any]:
    """Compile ``expr`` into a Python function of ``args`` (math for scalars, numpy for arrays)."""
    expr = _exact_log2(expr)
    if vector:
        modules: Any = [{"log2": np.log2}, "numpy"]
    else:
        modules = [{**_MATH_MODULE[0], "log2": math.log2}, "math"]
    return sympy.lambdify(list(args), expr, modules=modules, cse=len(expr.args) > 3, docstring_limit=0)


@cache
def to_base_factor(unit: pint.Unit) -> float | int:
    """The factor taking magnitudes in ``unit`` to the base unit of its dimension."""
    factor = Q_(1, unit).to_base_units().magnitude
    if isinstance(factor, float) and factor.is_integer() and abs(factor) < 2**53:
        return int(factor)
    return factor


def hoist(expr: sympy.Expr, varying: set[sympy.Symbol]) -> sympy.Expr:
    """Group the factors and terms that do not vary so they are computed once, as scalars.

    ``P*b*B`` swept over ``B`` compiles to ``B*(P*b)``: one pass over the array instead of two.

    >>> import sympy
    >>> P, b, B = sympy.symbols("P b B", positive=True)
    >>> hoist(P * b * B, {B}).args
    (P*b, B)
    """
    if not expr.args or not (expr.free_symbols & varying):
        return expr
    if isinstance(expr, (sympy.Mul, sympy.Add)):
        fixed = [a for a in expr.args if not (a.free_symbols & varying)]
        moving = [hoist(a, varying) for a in expr.args if a.free_symbols & varying]
        if fixed and moving:
            return expr.func(expr.func(*fixed), *moving, evaluate=False)
        return expr.func(*moving, evaluate=False)
    if isinstance(expr, sympy.Piecewise):
        return expr
    return expr.func(*[hoist(a, varying) for a in expr.args])


def exact_value(expr: sympy.Expr, values: dict[sympy.Symbol, Any], digits: int = 50) -> float:
    """Evaluate ``expr`` exactly (rationals, ``evalf(digits)``): the reference for the compiled path."""
    subs = {}
    for sym, value in values.items():
        if isinstance(value, float):
            subs[sym] = sympy.Rational(value)
        else:
            subs[sym] = sympy.Integer(value) if isinstance(value, int) else value
    return float(sympy.N(expr.xreplace(subs), digits))


def as_array(value: Any) -> np.ndarray:
    """A numpy array of magnitudes (for sweeps)."""
    return np.asarray(value, dtype=float)
