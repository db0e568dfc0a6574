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

#: SymPy's special-function classes of the equation language (dimensionless in, dimensionless out).
CLASSES = (sympy.erf, sympy.erfc, sympy.erfinv, sympy.gamma, sympy.loggamma, sympy.binomial, sympy.polygamma,
           sympy.LambertW, sympy.asin)

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
    "binomial": binomial, "polygamma": polygamma, "LambertW": lambertw,
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
            "asin": np.arcsin}
