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


def compile_tree(expr: sympy.Expr, args: Sequence[sympy.Symbol], *, vector: bool = False) -> Callable[..., Any]:
    """Compile ``expr`` into a Python function of ``args`` (math for scalars, numpy for arrays)."""
    modules = "numpy" if vector else _MATH_MODULE
    return sympy.lambdify(list(args), expr, modules=modules, cse=len(expr.args) > 3, docstring_limit=0)


@cache
def to_base_factor(unit: pint.Unit) -> float | int:
    """The factor taking magnitudes in ``unit`` to the base unit of its dimension."""
    factor = Q_(1, unit).to_base_units().magnitude
    if isinstance(factor, float) and factor.is_integer() and abs(factor) < 2**53:
        return int(factor)
    return factor


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
