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
from statistics import NormalDist
from typing import Any

import numpy as np
import sympy


class gammaincinv(sympy.Function):  # noqa: N801 - the name SciPy, the code printer and the equation language use
    """The inverse in ``x`` of the regularized lower incomplete gamma function: ``P(a, x) = y`` (``a > 0``,
    ``0 <= y < 1``), SciPy's ``gammaincinv``.  For a whole ``a = s`` it is the Poisson mean at which
    ``P(N >= s) = y``: ``P(s, m) = 1 - sum_{k<s} e^-m m^k / k!``.  Its derivative in ``y`` is
    ``1 / (dP/dx) = Gamma(a) e^x x^(1 - a)``; in ``a`` it has none in closed form (SymPy keeps it unevaluated).

    >>> round(float(gammaincinv(1, sympy.Rational(1, 2))), 12)        # 1 - e^-x = 1/2: x = ln 2
    0.69314718056
    >>> round(gammaincinv_scalar(2, 0.001), 12)                        # 1 - e^-m (1 + m) = 0.001
    0.045402017769
    """

    nargs = 2

    def fdiff(self, argindex: int = 1) -> Any:
        a, _ = self.args
        if argindex == 2:
            return sympy.gamma(a) * sympy.exp(self) * self ** (1 - a)
        return super().fdiff(argindex)   # in a: no closed form, an unevaluated derivative

    def _eval_evalf(self, prec: int) -> Any:
        a, y = (arg.evalf(prec) for arg in self.args)
        if not (a.is_Number and y.is_Number):
            return None
        import mpmath

        with mpmath.workprec(prec + 20):
            root = _gammaincinv_mp(mpmath.mpf(str(a)), mpmath.mpf(str(y)))
        return sympy.Float(root, precision=prec)

    def _latex(self, printer: Any) -> str:
        a, y = (printer._print(arg) for arg in self.args)
        return rf"P^{{-1}}\left({a}, {y}\right)"


def _gammaincinv_mp(a: Any, y: Any) -> Any:
    """``P(a, x) = y`` solved in ``x`` at mpmath's working precision: a bracket [lo, 2 lo] found by doubling and halving,
    bisected to a relative 1e-12, then Newton's method on ``P`` (``dP/dx = x^(a-1) e^-x / Gamma(a)``) to the working
    precision.  (mpmath's Anderson solver over the first bracket stopped short of its tolerance for a small level:
    ``P(3, x) = 3.7e-5``.)

    >>> import mpmath
    >>> with mpmath.workdps(30):
    ...     x = _gammaincinv_mp(mpmath.mpf(3), mpmath.mpf("3.7e-5"))
    ...     print(mpmath.nstr(mpmath.gammainc(3, 0, x, regularized=True), 20))
    0.000037
    """
    import mpmath

    if y <= 0:
        return mpmath.mpf(0)
    if y >= 1:
        return mpmath.inf

    def level(x: Any) -> Any:
        return mpmath.gammainc(a, 0, x, regularized=True)

    hi = mpmath.mpf(1)
    while level(hi) < y:
        hi *= 2
    while hi > mpmath.mpf(2) ** -1000 and level(hi / 2) >= y:
        hi /= 2
    lo = hi / 2                                   # P(lo) < y <= P(hi)
    while hi - lo > mpmath.mpf("1e-12") * hi:
        mid = (lo + hi) / 2
        if level(mid) < y:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec + 4)
    for _ in range(100):
        step = (level(x) - y) / (x ** (a - 1) * mpmath.exp(-x) / mpmath.gamma(a))
        x -= step
        if abs(step) <= tiny * x:
            break
    return x


def gammaincinv_scalar(a: float, y: float) -> float:
    """The scalar form of :class:`gammaincinv`: SciPy's when installed, else mpmath's root."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        import mpmath

        return float(_gammaincinv_mp(mpmath.mpf(a), mpmath.mpf(y)))
    return float(special.gammaincinv(a, y))


#: SymPy's special-function classes of the equation language (dimensionless in, dimensionless out).
CLASSES = (sympy.erf, sympy.erfc, sympy.erfinv, sympy.gamma, sympy.loggamma, sympy.binomial, sympy.polygamma,
           sympy.LambertW, sympy.asin, gammaincinv)

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
    "binomial": binomial, "polygamma": polygamma, "LambertW": lambertw, "gammaincinv": gammaincinv_scalar,
    "asin": math.asin,
}


def array_functions() -> dict[str, Any]:
    """Array forms: :mod:`scipy.special` when installed, else the scalar forms vectorised."""
    try:
        from scipy import special
    except ImportError:   # pragma: no cover - scipy is a test dependency
        return {name: np.vectorize(fn, otypes=[float]) for name, fn in SCALAR.items()}
    return {"erf": special.erf, "erfc": special.erfc, "erfinv": special.erfinv, "gamma": special.gamma,
            "loggamma": special.gammaln, "binomial": special.binom,
            "polygamma": lambda m, x: special.polygamma(np.asarray(m, dtype=int), x),
            "LambertW": lambda x: np.where(np.asarray(x) >= -np.exp(-1), special.lambertw(x).real, np.nan),
            "asin": np.arcsin, "gammaincinv": special.gammaincinv}
