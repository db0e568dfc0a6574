"""Underflow: a float64 result of 0.0 (or a subnormal) where the exact value is not zero.

Overflow shows itself (``inf``); underflow does not: ``exp(-a)`` at ``a = 1000`` is ``0.0`` in float64 while the
exact value is about 5e-435.  A zero or subnormal result is therefore re-evaluated from the output's tree at the
same inputs in arbitrary precision (mpmath, whose exponent range is unbounded): where that value is not zero and
float64's own precision (53 bits) with an unbounded exponent gives it too, the zero came from float64's exponent
range, a silent wrong number, and is refused.  Where the exact value is zero (``max(0, x)`` at ``x < 0``, an
input that is 0), or where 53 bits cannot give it either (a difference of nearly equal terms: 0.0 is then within
float64's rounding of those terms, as any other value is), the zero stands.  The check runs only on such
results, never on ordinary ones.

>>> import sympy
>>> a = sympy.Symbol("a", positive=True)
>>> lost_to_zero(sympy.exp(-a), (a,), (1000.0,), 0.0)
True
>>> lost_to_zero(sympy.Max(0, 1 - a), (a,), (2.0,), 0.0)
False
>>> lost_to_zero(sympy.exp(-a), (a,), (1.0,), 0.36787944117144233)   # an ordinary value: not examined
False
>>> b = sympy.Symbol("b", positive=True)
>>> lost_to_zero(a * (1 - b) - a + a * b, (a, b), (1e9, 0.1), 0.0)   # cancellation: within rounding of 1e9
False
>>> lost_to_zero(sympy.exp(-a) * 1e300, (a,), (1000.0,), 0.0)     # an intermediate underflow: 5e-135 lost
True
>>> lost_to_zero(2**(1 - a), (a,), (1024.0,), 2.0**-1023)         # a subnormal that is the exact value: it stands
False
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import mpmath
import sympy

#: The smallest positive normal float64; below it a nonzero result has lost precision (a subnormal).
TINY = sys.float_info.min
#: Bits of the re-evaluation (float64 carries 53).
PRECISION = 160
#: float64's precision: a re-evaluation with these bits and an unbounded exponent tells a range loss from rounding.
FLOAT_BITS = 53


def suspicious(value: Any) -> bool:
    """Whether a float64 ``value`` is 0.0 or subnormal (the only results :func:`lost_to_zero` examines)."""
    try:
        return abs(float(value)) < TINY
    except (TypeError, ValueError, OverflowError):
        return False


@lru_cache(maxsize=256)
def _exact(expr: sympy.Expr, args: tuple[sympy.Symbol, ...]) -> Callable[..., Any]:
    return sympy.lambdify(args, expr, modules="mpmath", docstring_limit=0)


def exact_value(expr: sympy.Expr, args: Sequence[sympy.Symbol], values: Sequence[float],
                bits: int = PRECISION) -> Any:
    """``expr`` at ``values`` with ``bits`` of precision and an unbounded exponent (an ``mpf``), or None where it
    cannot be evaluated so."""
    try:
        function = _exact(expr, tuple(args))
        with mpmath.workprec(bits):
            return function(*(mpmath.mpf(float(v)) for v in values))
    except Exception:   # noqa: BLE001 - a tree mpmath cannot evaluate: no verdict, the float64 value stands
        return None


def lost_to_zero(expr: sympy.Expr, args: Sequence[sympy.Symbol], values: Sequence[float], value: Any,
                 to_unit: Callable[[Any], Any] | None = None) -> bool:
    """Whether the float64 ``value`` of ``expr`` at ``values`` is 0.0 or subnormal while the exact value is not zero
    and float64's 53 bits, given an unbounded exponent, would have kept it (to 1e-6): a loss to the exponent range,
    not to rounding.  A subnormal ``value`` that keeps every bit float64's 53 would (2^-1074, float64's smallest
    subnormal, as a number format's range gives it: a power of two) has lost nothing and stands; ``to_unit`` takes the tree's value
    to ``value``'s unit where the two differ (an output shown in its declared unit)."""
    if not suspicious(value):
        return False
    exact = exact_value(expr, args, values)
    if exact is None or isinstance(exact, bool):
        return False
    try:
        if not exact != 0:
            return False
        rounded = exact_value(expr, args, values, bits=FLOAT_BITS)
        if rounded is None or isinstance(rounded, bool):
            return False
        shown = rounded if to_unit is None else to_unit(rounded)
        if float(value) != 0 and abs(float(value) - shown) <= 4 * 2.0**-53 * abs(shown):   # a subnormal with all 53 bits
            return False
        return bool(abs(rounded - exact) <= 1e-6 * abs(exact))
    except TypeError:
        return False
