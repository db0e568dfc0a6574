"""Special functions of the equation language, compiled: scalar (``math``) and array (numpy) forms.

Tier-B equations (a normal quantile, a binomial coefficient, Cohen's arcsine transform) use SymPy's own function
classes (``erf``, ``erfc``, ``erfinv``, ``gamma``, ``binomial``, ``asin``), so they print, differentiate and simplify like
the rest.  Compiled, they run on the standard library (``math.erf``, ``math.gamma``,
``statistics.NormalDist``) for scalars and on :mod:`scipy.special` for arrays when SciPy is installed
(else the scalar forms, vectorised); the derivatives SymPy takes of them need ``polygamma``, which
comes from :mod:`mpmath` (a SymPy dependency).

>>> round(erfinv(0.5), 15), round(math.erf(erfinv(0.5)), 15)
(0.47693627620447, 0.5)
>>> binomial(10, 3), binomial(4.5, 2)
(120, 7.875)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist
from typing import Any

import numpy as np
import sympy


def _mp_evalf(args: Any, prec: int, solve: Callable[..., Any], *, exact: tuple[Any, ...] = ()) -> Any:
    """A special function's value at ``prec`` bits: ``solve`` on its arguments as mpmath numbers, at 20 guard bits
    more (None, SymPy's "no value", where an argument, or one of ``exact``, is not a number)."""
    values = [arg.evalf(prec) for arg in args]
    if not all(v.is_Number for v in (*values, *exact)):
        return None
    import mpmath

    with mpmath.workprec(prec + 20):
        result = solve(*(mpmath.mpf(str(v)) for v in values))
    return sympy.Float(result, precision=prec)


class loggamma(sympy.loggamma):  # noqa: N801 - the name SymPy, the code printer and the equation language use
    """ln Γ(x), SymPy's ``loggamma`` held as itself at a symbolic argument.

    SymPy's own turns ``loggamma(F + 1)`` of a whole ``F >= 0`` into ``log(gamma(F + 1))``, ``log(F!)``, whose
    compiled form overflows float64 past F = 170; held, it compiles to ``math.lgamma`` (SciPy's ``gammaln``) and a
    ratio of factorials (F!/(F − N·w)!, the disjoint-writes product) stays a difference of logarithms.  A number
    evaluates as SymPy's; the derivative is SymPy's ``polygamma(0, x)``.

    >>> F = sympy.Symbol("F", integer=True, nonnegative=True)
    >>> loggamma(F + 1), sympy.loggamma(F + 1)
    (loggamma(F + 1), log(gamma(F + 1)))
    >>> round(float(loggamma(1001)), 6) == round(math.lgamma(1001), 6)
    True
    """

    @classmethod
    def eval(cls, z: Any) -> Any:
        return sympy.loggamma(z) if z.is_Number else None


class gammaincinv(sympy.Function):  # noqa: N801 - the name SciPy, the code printer and the equation language use
    """The inverse in ``x`` of the regularized lower incomplete gamma function: ``P(a, x) = y`` (``a > 0``,
    ``0 <= y < 1``), SciPy's ``gammaincinv``.  For a whole ``a = s`` it is the Poisson mean at which
    ``P(N >= s) = y``: ``P(s, m) = 1 - sum_{k<s} e^-m m^k / k!``.  Its derivative in ``y`` is
    ``1 / (dP/dx) = Gamma(a) e^x x^(1 - a)``; in ``a`` it is :class:`gammaincinv_da` (no closed form: evaluated
    as ``-(dP/da) / (dP/dx)`` at the root, ``dP/da`` by mpmath's numerical derivative).

    >>> round(float(gammaincinv(1, sympy.Rational(1, 2))), 12)        # 1 - e^-x = 1/2: x = ln 2
    0.69314718056
    >>> round(gammaincinv_scalar(2, 0.001), 12)                        # 1 - e^-m (1 + m) = 0.001
    0.045402017769
    >>> round(float(gammaincinv(40, sympy.Float("0.999")).evalf(30)), 9) == round(gammaincinv_scalar(40, 0.999), 9)
    True
    """

    nargs = 2

    def fdiff(self, argindex: int = 1) -> Any:
        a, y = self.args
        if argindex == 2:
            return sympy.gamma(a) * sympy.exp(self) * self ** (1 - a)
        return gammaincinv_da(a, y)

    def _eval_evalf(self, prec: int) -> Any:
        return _mp_evalf(self.args, prec, _gammaincinv_mp)

    def _latex(self, printer: Any) -> str:
        a, y = (printer._print(arg) for arg in self.args)
        return rf"P^{{-1}}\left({a}, {y}\right)"


class gammaincinv_da(sympy.Function):  # noqa: N801 - named like the function it differentiates
    """``d/da`` of :class:`gammaincinv` at fixed ``y``: differentiating ``P(a, x(a)) = y`` gives
    ``dx/da = -(dP/da) / (dP/dx)`` with ``dP/dx = x^(a-1) e^-x / Gamma(a)``; ``dP/da`` (no closed form: DLMF 8.7
    gives it as a series) is mpmath's numerical derivative, at the working precision.  Its own derivatives stay
    unevaluated (no equation reaches them: sensitivities are first order).

    >>> h = 1e-6; f = gammaincinv_scalar
    >>> abs(gammaincinv_da_scalar(3, 0.2) - (f(3 + h, 0.2) - f(3 - h, 0.2)) / (2 * h)) < 1e-8
    True
    """

    nargs = 2

    def _eval_evalf(self, prec: int) -> Any:
        return _mp_evalf(self.args, prec, _gammaincinv_da_mp)

    def _latex(self, printer: Any) -> str:
        a, y = (printer._print(arg) for arg in self.args)
        return rf"\partial_{{a}} P^{{-1}}\left({a}, {y}\right)"


def _bracketed_root(miss: Callable[[Any], Any], density: Callable[[Any], Any], lo: Any, hi: Any, *,
                    bisections: int, newton_steps: int) -> Any:
    """The root of the increasing ``miss`` in ``[lo, hi]`` (``miss(lo) < 0 <= miss(hi)``) at mpmath's working
    precision: bisection to a relative width of 1e-3, then Newton's method with ``density`` (``miss``'s slope),
    bisecting instead wherever a step leaves the bracket.  Both loops are bounded."""
    import mpmath

    for _ in range(bisections):
        if hi - lo <= hi * mpmath.mpf("1e-3"):
            break
        mid = (lo + hi) / 2
        if miss(mid) < 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec + 8)
    for _ in range(newton_steps):
        new = x - miss(x) / density(x)
        if not lo < new < hi:       # Newton left the bracket: bisect instead
            if miss(x) < 0:
                lo = x
            else:
                hi = x
            new = (lo + hi) / 2
        if abs(new - x) <= abs(new) * tol:
            return new
        x = new
    return x


def _gammaincinv_mp(a: Any, y: Any) -> Any:
    """``P(a, x) = y`` solved in ``x`` at mpmath's working precision: a bracket found by doubling, bisection to a
    relative width of 1e-3, then Newton's method inside the bracket (the upper tail ``Q = 1 - P`` where ``y > 1/2``,
    so a level near 1 keeps its digits).  Every loop is bounded."""
    import mpmath

    if y <= 0:
        return mpmath.mpf(0)
    if y >= 1:
        return mpmath.inf
    upper = y > mpmath.mpf(1) / 2
    target = 1 - y if upper else y
    if upper:
        def miss(x: Any) -> Any:   # P(a, x) - y, through the upper tail
            return target - mpmath.gammainc(a, x, mpmath.inf, regularized=True)
    else:
        def miss(x: Any) -> Any:
            return mpmath.gammainc(a, 0, x, regularized=True) - target
    lo, hi = mpmath.mpf(0), max(mpmath.mpf(1), a)
    for _ in range(2000):          # P(a, x) -> 1 as x grows: doubling brackets any y < 1
        if miss(hi) >= 0:
            break
        lo, hi = hi, 2 * hi
    log_norm = mpmath.loggamma(a)
    return _bracketed_root(miss, lambda x: mpmath.exp((a - 1) * mpmath.log(x) - x - log_norm), lo, hi,   # dP/dx
                           bisections=200, newton_steps=100)


def _gammaincinv_da_mp(a: Any, y: Any) -> Any:
    """``-(dP/da) / (dP/dx)`` at ``x = gammaincinv(a, y)``, at mpmath's working precision."""
    import mpmath

    x = _gammaincinv_mp(a, y)
    dp_da = mpmath.diff(lambda t: mpmath.gammainc(t, 0, x, regularized=True), a)
    density = mpmath.exp((a - 1) * mpmath.log(x) - x - mpmath.loggamma(a))
    return -dp_da / density


def gammaincinv_scalar(a: float, y: float) -> float:
    """The scalar form of :class:`gammaincinv`: SciPy's when installed, else mpmath's root."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        import mpmath

        return float(_gammaincinv_mp(mpmath.mpf(a), mpmath.mpf(y)))
    return float(special.gammaincinv(a, y))


def gammaincinv_da_scalar(a: float, y: float) -> float:
    """The scalar form of :class:`gammaincinv_da` (mpmath at 30 digits)."""
    import mpmath

    with mpmath.workdps(30):
        return float(_gammaincinv_da_mp(mpmath.mpf(a), mpmath.mpf(y)))


class gammainc(sympy.Function):  # noqa: N801 - the name SciPy, the code printer and the equation language use
    """The regularized lower incomplete gamma function ``P(a, x) = gamma(a, x) / Gamma(a)`` (``a > 0``, ``x >= 0``),
    SciPy's ``gammainc`` (DLMF 8.2.4).  For a whole ``a = s`` it is the Poisson tail ``P(N >= s)`` at mean ``x``
    (DLMF §8.4, its special values at whole ``a``: ``Q(s, x) = e^-x sum_{k<s} x^k / k!``), computed without the cancellation of
    ``1 - sum_{k<s} e^-x x^k / k!`` (which keeps no digit of a tail below 1e-16).  Its derivative in ``x`` is the
    density ``x^(a-1) e^-x / Gamma(a)``; in ``a`` it is :class:`gammainc_da` (no closed form: mpmath's numerical
    derivative).

    >>> round(float(gammainc(1, sympy.log(2))), 12)                   # 1 - e^-x at x = ln 2
    0.5
    >>> abs(gammainc_scalar(4, 0.03) / (1 - math.exp(-0.03) * (1 + 0.03 + 0.03**2 / 2 + 0.03**3 / 6)) - 1) < 1e-6
    True
    >>> exact = float(gammainc(20, sympy.Float("0.03")).evalf(30))   # e^-m m^20 / 20! (1 + m/21 + ...): 1 - sum gives 0
    >>> math.isclose(exact, gammainc_scalar(20, 0.03), rel_tol=1e-13), math.isclose(exact, math.exp(-0.03) * 0.03**20 / math.factorial(20), rel_tol=2e-3)
    (True, True)
    """

    nargs = 2

    def fdiff(self, argindex: int = 1) -> Any:
        a, x = self.args
        if argindex == 2:
            return x ** (a - 1) * sympy.exp(-x) / sympy.gamma(a)
        return gammainc_da(a, x)

    def _eval_evalf(self, prec: int) -> Any:
        return _mp_evalf(self.args, prec, _gammainc_mp)

    def _mpmathcode(self, printer: Any) -> str:   # mpmath's gammainc(a, x) is the unregularized upper integral
        a, x = (printer._print(arg) for arg in self.args)
        return f"gammainc({a}, 0, {x}, regularized=True)"

    def _latex(self, printer: Any) -> str:
        a, x = (printer._print(arg) for arg in self.args)
        return rf"P\left({a}, {x}\right)"


class gammainc_da(sympy.Function):  # noqa: N801 - named like the function it differentiates
    """``d/da`` of :class:`gammainc` at fixed ``x`` (no closed form: DLMF 8.7 gives it as a series): mpmath's
    numerical derivative, at the working precision.  Its own derivatives stay unevaluated (sensitivities are first
    order).

    >>> h = 1e-6; f = gammainc_scalar
    >>> abs(gammainc_da_scalar(3, 0.2) - (f(3 + h, 0.2) - f(3 - h, 0.2)) / (2 * h)) < 1e-8
    True
    """

    nargs = 2

    def _eval_evalf(self, prec: int) -> Any:
        return _mp_evalf(self.args, prec, _gammainc_da_mp)

    def _latex(self, printer: Any) -> str:
        a, x = (printer._print(arg) for arg in self.args)
        return rf"\partial_{{a}} P\left({a}, {x}\right)"


def _gammainc_mp(a: Any, x: Any) -> Any:
    """``P(a, x)`` at mpmath's working precision."""
    import mpmath

    return mpmath.gammainc(a, 0, x, regularized=True)


def _gammainc_da_mp(a: Any, x: Any) -> Any:
    """``dP/da`` at ``(a, x)``, at mpmath's working precision."""
    import mpmath

    return mpmath.diff(lambda t: mpmath.gammainc(t, 0, x, regularized=True), a)


def gammainc_scalar(a: float, x: float) -> float:
    """The scalar form of :class:`gammainc`: SciPy's when installed, else mpmath's."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        import mpmath

        return float(_gammainc_mp(mpmath.mpf(a), mpmath.mpf(x)))
    return float(special.gammainc(a, x))


def gammainc_da_scalar(a: float, x: float) -> float:
    """The scalar form of :class:`gammainc_da` (mpmath at 30 digits)."""
    import mpmath

    with mpmath.workdps(30):
        return float(_gammainc_da_mp(mpmath.mpf(a), mpmath.mpf(x)))


class betainc(sympy.Function):  # noqa: N801 - the name SciPy, the code printer and the equation language use
    """The regularized incomplete beta function ``I_x(a, b) = B(x; a, b) / B(a, b)`` (``a, b > 0``, ``0 <= x <= 1``),
    SciPy's ``betainc`` (DLMF 8.17.2): the CDF of a Beta(a, b) law at ``x``.  For whole ``a = s`` and
    ``b = n - s + 1`` it is the binomial tail ``P(X >= s)`` of ``X`` binomial ``(n, x)`` (DLMF 8.17.5).  Its
    derivative in ``x`` is the beta density ``x^(a-1) (1-x)^(b-1) / B(a, b)``; in ``a`` or ``b`` it is
    :class:`betainc_dshape` (mpmath's numerical derivative).

    >>> round(float(betainc(2, 1, sympy.Rational(1, 2))), 12)          # I_x(a, 1) = x^a
    0.25
    >>> p = 0.3; tail = sum(math.comb(5, k) * p**k * (1 - p)**(5 - k) for k in range(2, 6))
    >>> math.isclose(betainc_scalar(2, 4, p), tail, rel_tol=1e-13)      # P(X >= 2), X binomial (5, 0.3)
    True

    The underflow check re-evaluates a tree with mpmath, whose own ``betainc(a, b, x)`` (and ``gammainc(a, x)``) is the
    unregularized integral from ``x`` up: both print mpmath's regularized lower form instead.

    >>> from mlsysim_symbolic.underflow import exact_value
    >>> a, b, x = sympy.symbols("a b x")
    >>> float(exact_value(betainc(a, b, x), (a, b, x), (2.0, 1.0, 0.5))), float(exact_value(gammainc(a, x), (a, x), (3.0, 0.0)))
    (0.25, 0.0)
    """

    nargs = 3

    def fdiff(self, argindex: int = 1) -> Any:
        a, b, x = self.args
        if argindex == 3:
            # 1/B(a, b) through log-gamma: Gamma(a + b) alone overflows float64 past a + b = 171
            log_beta = sympy.loggamma(a) + sympy.loggamma(b) - sympy.loggamma(a + b)
            return x ** (a - 1) * (1 - x) ** (b - 1) * sympy.exp(-log_beta)
        return betainc_dshape(a, b, x, argindex)

    def _eval_evalf(self, prec: int) -> Any:
        return _mp_evalf(self.args, prec, _betainc_mp)

    def _mpmathcode(self, printer: Any) -> str:   # mpmath's betainc(a, b, x) is the unregularized integral from x to 1
        a, b, x = (printer._print(arg) for arg in self.args)
        return f"betainc({a}, {b}, 0, {x}, regularized=True)"

    def _latex(self, printer: Any) -> str:
        a, b, x = (printer._print(arg) for arg in self.args)
        return rf"I_{{{x}}}\left({a}, {b}\right)"


class betainc_dshape(sympy.Function):  # noqa: N801 - named like the function it differentiates
    """``d/da`` (``i = 1``) or ``d/db`` (``i = 2``) of :class:`betainc` at fixed ``x``: mpmath's numerical derivative
    (no closed form), at the working precision; its own derivatives stay unevaluated (sensitivities are first order).

    >>> h = 1e-6; f = betainc_scalar
    >>> abs(betainc_dshape_scalar(3, 2, 0.4, 1) - (f(3 + h, 2, 0.4) - f(3 - h, 2, 0.4)) / (2 * h)) < 1e-8
    True
    """

    nargs = 4

    def _eval_evalf(self, prec: int) -> Any:
        *shapes_and_x, i = self.args
        return _mp_evalf(shapes_and_x, prec, lambda a, b, x: _betainc_dshape_mp(a, b, x, int(i)), exact=(i,))

    def _latex(self, printer: Any) -> str:
        a, b, x, i = self.args
        wrt = printer._print(a if i == 1 else b)
        return rf"\partial_{{{wrt}}} I_{{{printer._print(x)}}}\left({printer._print(a)}, {printer._print(b)}\right)"


def _betainc_mp(a: Any, b: Any, x: Any) -> Any:
    """``I_x(a, b)`` at mpmath's working precision."""
    import mpmath

    return mpmath.betainc(a, b, 0, x, regularized=True)


def _betainc_dshape_mp(a: Any, b: Any, x: Any, i: int) -> Any:
    """``dI/da`` (``i = 1``) or ``dI/db`` (``i = 2``) at ``(a, b, x)``, at mpmath's working precision."""
    import mpmath

    if i == 1:
        return mpmath.diff(lambda t: _betainc_mp(t, b, x), a)
    return mpmath.diff(lambda t: _betainc_mp(a, t, x), b)


def betainc_scalar(a: float, b: float, x: float) -> float:
    """The scalar form of :class:`betainc`: SciPy's when installed, else mpmath's."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        import mpmath

        return float(_betainc_mp(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(x)))
    return float(special.betainc(a, b, x))


def betainc_dshape_scalar(a: float, b: float, x: float, i: float) -> float:
    """The scalar form of :class:`betainc_dshape` (mpmath at 30 digits)."""
    import mpmath

    with mpmath.workdps(30):
        return float(_betainc_dshape_mp(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(x), int(i)))


class betaincinv(sympy.Function):  # noqa: N801 - the name SciPy, the code printer and the equation language use
    """The inverse in ``x`` of the regularized incomplete beta function: ``I_x(a, b) = y`` (``a, b > 0``,
    ``0 <= y <= 1``), SciPy's ``betaincinv``.  For whole ``a = s`` and ``b = n - s + 1`` it is the success probability
    ``p`` at which ``P(X >= s) = y`` for ``X`` binomial ``(n, p)``: the one-sided Clopper-Pearson limit.  Its
    derivative in ``y`` is ``1 / (dI/dx) = B(a, b) x^(1 - a) (1 - x)^(1 - b)``; in ``a`` or ``b`` it is
    :class:`betaincinv_dshape` (``-(dI/da) / (dI/dx)`` at the root, ``dI/da`` by mpmath's numerical derivative).

    >>> round(float(betaincinv(1, 1, sympy.Rational(1, 4))), 12)      # I_x(1, 1) = x
    0.25
    >>> round(betaincinv_scalar(20, 1, 0.05), 12) == round(0.05 ** (1 / 20), 12)   # I_x(n, 1) = x^n
    True
    """

    nargs = 3

    def fdiff(self, argindex: int = 1) -> Any:
        a, b, y = self.args
        if argindex == 3:
            log_beta = sympy.loggamma(a) + sympy.loggamma(b) - sympy.loggamma(a + b)
            return sympy.exp(log_beta) * self ** (1 - a) * (1 - self) ** (1 - b)
        return betaincinv_dshape(a, b, y, argindex)

    def _eval_evalf(self, prec: int) -> Any:
        return _mp_evalf(self.args, prec, _betaincinv_mp)

    def _latex(self, printer: Any) -> str:
        a, b, y = (printer._print(arg) for arg in self.args)
        return rf"I^{{-1}}\left({a}, {b}, {y}\right)"


class betaincinv_dshape(sympy.Function):  # noqa: N801 - named like the function it differentiates
    """``d/da`` (``i = 1``) or ``d/db`` (``i = 2``) of :class:`betaincinv` at fixed ``y``: ``-(dI/da) / (dI/dx)`` with
    ``dI/dx = x^(a-1) (1 - x)^(b-1) / B(a, b)``, ``dI/da`` mpmath's numerical derivative.  Its own derivatives stay
    unevaluated (sensitivities are first order).

    >>> h = 1e-6; f = betaincinv_scalar
    >>> abs(betaincinv_dshape_scalar(19, 2, 0.05, 1) - (f(19 + h, 2, 0.05) - f(19 - h, 2, 0.05)) / (2 * h)) < 1e-8
    True
    """

    nargs = 4

    def _eval_evalf(self, prec: int) -> Any:
        *shape_and_level, i = self.args
        return _mp_evalf(shape_and_level, prec, lambda a, b, y: _betaincinv_dshape_mp(a, b, y, int(i)), exact=(i,))

    def _latex(self, printer: Any) -> str:
        a, b, y, i = self.args
        shape = printer._print(a if i == 1 else b)
        return rf"\partial_{{{shape}}} I^{{-1}}\left({printer._print(a)}, {printer._print(b)}, {printer._print(y)}\right)"


def _betaincinv_mp(a: Any, b: Any, y: Any) -> Any:
    """``I_x(a, b) = y`` solved in ``x`` at mpmath's working precision: bisection on [0, 1] to a relative width of
    1e-3, then Newton's method inside the bracket (the upper tail ``1 - I`` where ``y > 1/2``).  Bounded loops."""
    import mpmath

    if y <= 0:
        return mpmath.mpf(0)
    if y >= 1:
        return mpmath.mpf(1)
    upper = y > mpmath.mpf(1) / 2
    target = 1 - y if upper else y
    if upper:
        def miss(x: Any) -> Any:   # I_x(a, b) - y, through the upper tail
            return target - mpmath.betainc(a, b, x, 1, regularized=True)
    else:
        def miss(x: Any) -> Any:
            return mpmath.betainc(a, b, 0, x, regularized=True) - target
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    log_beta = mpmath.loggamma(a) + mpmath.loggamma(b) - mpmath.loggamma(a + b)

    def density(x: Any) -> Any:   # dI/dx
        return mpmath.exp((a - 1) * mpmath.log(x) + (b - 1) * mpmath.log(1 - x) - log_beta)

    return _bracketed_root(miss, density, lo, hi, bisections=4000, newton_steps=200)


def _betaincinv_dshape_mp(a: Any, b: Any, y: Any, i: int) -> Any:
    """``-(dI/da) / (dI/dx)`` (``i = 1``; ``d/db`` for ``i = 2``) at ``x = betaincinv(a, b, y)``."""
    import mpmath

    x = _betaincinv_mp(a, b, y)
    if i == 1:
        d_shape = mpmath.diff(lambda t: mpmath.betainc(t, b, 0, x, regularized=True), a)
    else:
        d_shape = mpmath.diff(lambda t: mpmath.betainc(a, t, 0, x, regularized=True), b)
    log_beta = mpmath.loggamma(a) + mpmath.loggamma(b) - mpmath.loggamma(a + b)
    density = mpmath.exp((a - 1) * mpmath.log(x) + (b - 1) * mpmath.log(1 - x) - log_beta)
    return -d_shape / density


def betaincinv_scalar(a: float, b: float, y: float) -> float:
    """The scalar form of :class:`betaincinv`: SciPy's when installed, else mpmath's root."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        import mpmath

        return float(_betaincinv_mp(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(y)))
    return float(special.betaincinv(a, b, y))


def betaincinv_dshape_scalar(a: float, b: float, y: float, i: float) -> float:
    """The scalar form of :class:`betaincinv_dshape` (mpmath at 30 digits)."""
    import mpmath

    with mpmath.workdps(30):
        return float(_betaincinv_dshape_mp(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(y), int(i)))


class exact_quotient(sympy.Function):  # noqa: N801 - the name the code printer and the equation language use
    """``a/b`` where ``b`` divides ``a``: a geometric sum's ``(c^(d+1) − 1)/(c − 1)``, whole for whole ``c >= 2`` and
    ``d >= 0``.  It prints, differentiates and evaluates as ``a/b``; compiled, it is Python's exact integer division
    where both are whole numbers (ints) and ``b`` divides ``a``, so a count past 2^53 stays exact (mlsysim's
    ``(c ** (d + 1) - 1) // (c - 1)`` on ints), and a true division otherwise.

    >>> a, b = sympy.symbols("a b", positive=True)
    >>> sympy.diff(exact_quotient(a, b), b), exact_quotient(sympy.Integer(242), 2)
    (-a/b**2, 121)
    >>> exact_quotient_scalar(3**41 - 1, 2), exact_quotient_scalar(7.0, 2), exact_quotient_scalar(7, 2)
    (18236498188585393201, 3.5, 3.5)
    """

    nargs = 2

    @classmethod
    def eval(cls, a: Any, b: Any) -> Any:
        return a / b if a.is_Number and b.is_Number and b != 0 else None

    def fdiff(self, argindex: int = 1) -> Any:
        a, b = self.args
        return 1 / b if argindex == 1 else -a / b**2

    def _latex(self, printer: Any) -> str:
        a, b = self.args
        return rf"\frac{{{printer._print(a)}}}{{{printer._print(b)}}}"


def exact_quotient_scalar(a: Any, b: Any) -> Any:
    """:class:`exact_quotient` compiled: ``a // b`` for ints that ``b`` divides, else ``a / b``."""
    if isinstance(a, int) and isinstance(b, int) and b != 0 and a % b == 0:
        return a // b
    return a / b


#: SymPy's special-function classes of the equation language (dimensionless in, dimensionless out).
CLASSES = (sympy.erf, sympy.erfc, sympy.erfinv, sympy.gamma, sympy.loggamma, sympy.binomial, sympy.polygamma,
           sympy.LambertW, sympy.asin, gammainc, gammainc_da, gammaincinv, gammaincinv_da,
           betainc, betainc_dshape, betaincinv, betaincinv_dshape, exact_quotient)

_STANDARD = NormalDist()


def erfinv(x: float) -> float:
    """The inverse error function on (-1, 1): ``erf(erfinv(x)) = x`` (AS241 through ``NormalDist.inv_cdf``)."""
    if x == 0:
        return 0.0
    if not -1 < x < 1:
        if x in (-1, 1):
            return math.copysign(math.inf, x)
        return math.nan
    return _STANDARD.inv_cdf((1 + x) / 2) / math.sqrt(2)


def binomial(n: float, k: float) -> float:
    """``n`` choose ``k``: exact for whole numbers (``math.comb``), a falling product for a whole ``k``, through the
    gamma function otherwise."""
    if float(n).is_integer() and float(k).is_integer() and n >= 0:
        return math.comb(int(n), int(k)) if 0 <= k <= n else 0
    if float(k).is_integer() and 0 <= k <= 1000:
        return math.prod((n - i) / (i + 1) for i in range(int(k)))
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) * _gamma_signs(n, k)


def _gamma_signs(n: float, k: float) -> float:
    sign = 1.0
    for x in (n + 1, k + 1, n - k + 1):
        if x < 0 and math.floor(x) % 2 == 1:
            sign = -sign
    return sign


def lambertw(x: float) -> float:
    """The principal branch W0 of the Lambert W function (``w e^w = x``), real for ``x >= -1/e``."""
    import mpmath

    if x < -math.exp(-1):
        return math.nan
    return float(mpmath.lambertw(x).real)


def polygamma(m: float, x: float) -> float:
    """The ``m``-th derivative of the digamma function (SymPy's derivative of ``gamma`` needs it)."""
    import mpmath

    return float(mpmath.polygamma(int(m), x))


#: Scalar forms, by the name SymPy's code printer writes.
SCALAR: dict[str, Any] = {
    "erf": math.erf, "erfc": math.erfc, "erfinv": erfinv, "gamma": math.gamma, "loggamma": math.lgamma,
    "binomial": binomial, "polygamma": polygamma, "LambertW": lambertw, "gammainc": gammainc_scalar,
    "gammainc_da": gammainc_da_scalar, "gammaincinv": gammaincinv_scalar,
    "gammaincinv_da": gammaincinv_da_scalar, "betainc": betainc_scalar, "betainc_dshape": betainc_dshape_scalar,
    "betaincinv": betaincinv_scalar,
    "betaincinv_dshape": betaincinv_dshape_scalar, "asin": math.asin, "exact_quotient": exact_quotient_scalar,
}


def array_functions() -> dict[str, Any]:
    """Array forms: :mod:`scipy.special` when installed, else the scalar forms vectorised."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        return {name: np.vectorize(fn, otypes=[float]) for name, fn in SCALAR.items()} | {"exact_quotient": np.true_divide}
    return {"erf": special.erf, "erfc": special.erfc, "erfinv": special.erfinv, "gamma": special.gamma,
            "loggamma": special.gammaln, "binomial": special.binom,
            "polygamma": lambda m, x: special.polygamma(np.asarray(m, dtype=int), x),
            "LambertW": lambda x: np.where(np.asarray(x) >= -np.exp(-1), special.lambertw(x).real, np.nan),
            "asin": np.arcsin, "gammainc": special.gammainc,
            "gammainc_da": np.vectorize(gammainc_da_scalar, otypes=[float]), "gammaincinv": special.gammaincinv,
            "gammaincinv_da": np.vectorize(gammaincinv_da_scalar, otypes=[float]), "betainc": special.betainc,
            "betainc_dshape": np.vectorize(betainc_dshape_scalar, otypes=[float]), "betaincinv": special.betaincinv,
            "betaincinv_dshape": np.vectorize(betaincinv_dshape_scalar, otypes=[float]), "exact_quotient": np.true_divide}
