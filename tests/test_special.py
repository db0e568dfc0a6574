"""Tier-B functions of the equation language: erf, erfc, erfinv, normal_cdf, normal_ppf, gamma, binomial, lambertw, asin, gammainc,
gammaincinv, betainc, betaincinv.

Values come from outside the code: the standard normal quantile z_0.975 = 1.959963984540054 and
Phi(1) = 0.8413447460685429 (Abramowitz & Stegun 26.2; NIST DLMF 7.17), erfinv(1/2) = 0.4769362762044699
(DLMF 7.17.2 inverts erf), Gamma(1/2) = sqrt(pi) and Gamma(5) = 4! (DLMF 5.4.1, 5.4.6), C(10, 3) = 120,
arcsin(1/2) = pi/6 and arcsin(1) = pi/2 (the principal branch, DLMF 4.23).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from mlsysim_symbolic.dimensions import unit_of
from mlsysim_symbolic.errors import DimensionError, EquationError
from mlsysim_symbolic.evaluate import compile_tree
from mlsysim_symbolic.parse import parse_equation
from mlsysim_symbolic.printing.printer import SymbolPrinter
from mlsysim_symbolic.units import ureg

x, n, k = sympy.symbols("x n k", positive=True)
NAMES = {"x": x, "n": n, "k": k}

CASES = [   # equation, arguments, published value
    ("normal_ppf(x)", (0.975, 1, 1), 1.959963984540054),
    ("normal_cdf(x)", (1.0, 1, 1), 0.8413447460685429),
    ("erfinv(x)", (0.5, 1, 1), 0.4769362762044699),
    ("erf(x)", (0.4769362762044699, 1, 1), 0.5),
    ("erfc(x)", (0.4769362762044699, 1, 1), 0.5),
    ("gamma(x)", (0.5, 1, 1), math.sqrt(math.pi)),
    ("gamma(x)", (5.0, 1, 1), 24.0),
    ("binomial(n, k)", (1, 10, 3), 120),
    ("binomial(n, k)", (1, 52, 5), 2598960),        # five-card hands
    ("lambertw(x)", (1.0, 1, 1), 0.5671432904097838),   # the omega constant, W(1) (DLMF 4.13)
    ("lambertw(x)", (2.718281828459045, 1, 1), 1.0),    # W(e) = 1
    ("asin(x)", (0.5, 1, 1), math.pi / 6),               # Cohen's arcsine transform 2 asin(sqrt p) uses it
    ("2 * asin(sqrt(x))", (1.0, 1, 1), math.pi),         # Cohen (1988) §6.2: phi(1) = pi
    ("gammaincinv(k, x)", (0.5, 1, 1), math.log(2)),     # by hand: P(1, x) = 1 - e^-x = 1/2 at x = ln 2
    ("gammaincinv(k, x)", (1 - 2 / math.e, 1, 2), 1.0),  # by hand: P(2, 1) = 1 - e^-1 (1 + 1) = 1 - 2/e
]


@pytest.mark.parametrize(("text", "args", "published"), CASES)
def test_compiled_value_is_the_published_one(text, args, published):
    expr = parse_equation(text, NAMES)
    assert compile_tree(expr, (x, n, k))(*args) == pytest.approx(published, rel=1e-14)
    vector = compile_tree(expr, (x, n, k), vector=True)(*(np.array([a, a]) for a in args))
    assert vector == pytest.approx([published, published], rel=1e-14)
    assert float(expr.subs({x: args[0], n: args[1], k: args[2]}).evalf(30)) == pytest.approx(published, rel=1e-14)


@pytest.mark.parametrize("text", ["normal_ppf(x)", "normal_cdf(x)", "erfinv(x)", "gamma(x)", "binomial(n, k)", "lambertw(x)",
                                  "asin(x)"])
def test_derivatives_compile_and_match_a_central_difference(text):
    expr = parse_equation(text, NAMES)
    at = {x: 0.7, n: 10.5, k: 3.0}
    for var in (x, n):
        if var not in expr.free_symbols:
            continue
        d = compile_tree(sympy.diff(expr, var), (x, n, k))(*at.values())
        f = compile_tree(expr, (x, n, k))
        h = 1e-5 * at[var]
        up = [v + h if s == var else v for s, v in at.items()]
        down = [v - h if s == var else v for s, v in at.items()]
        assert d == pytest.approx((f(*up) - f(*down)) / (2 * h), rel=1e-7)


def test_gammaincinv_derivative_in_its_level_and_its_poisson_reading():
    """d/dy of the inverse is 1 / (dP/dx) = Gamma(a) e^x x^(1 - a) (compiled, against a central difference); for a whole
    a = s the inverse is the Poisson mean m at which P(N >= s) = y, so 1 - sum_{k<s} e^-m m^k / k! gives y back."""
    expr = parse_equation("gammaincinv(k, x)", NAMES)
    f = compile_tree(expr, (x, n, k))
    d = compile_tree(sympy.diff(expr, x), (x, n, k))(0.001, 1, 3)
    assert d == pytest.approx((f(0.001 + 1e-9, 1, 3) - f(0.001 - 1e-9, 1, 3)) / 2e-9, rel=1e-6)
    m = f(0.001, 1, 3)
    assert 1 - sum(math.exp(-m) * m**j / math.factorial(j) for j in range(3)) == pytest.approx(0.001, rel=1e-12)
    assert unit_of(expr, {x: ureg.dimensionless, k: ureg.dimensionless}) == ureg.dimensionless
    with pytest.raises(DimensionError, match="gammaincinv"):
        unit_of(expr, {x: ureg.second, k: ureg.dimensionless})
    assert SymbolPrinter({x: "y", n: "n", k: "a"}).doprint(expr) == r"P^{-1}\left(a, y\right)"


def test_a_dimensional_argument_is_refused():
    with pytest.raises(DimensionError, match="erf"):
        unit_of(sympy.erf(x), {x: ureg.byte})
    with pytest.raises(DimensionError, match="binomial"):
        unit_of(sympy.binomial(n, k), {n: ureg.second, k: ureg.dimensionless})
    assert unit_of(sympy.gamma(x), {x: ureg.dimensionless}) == ureg.dimensionless


def test_arity_is_checked_and_latex_is_sympys():
    with pytest.raises(EquationError, match="exactly two"):
        parse_equation("binomial(n)", NAMES)
    with pytest.raises(EquationError, match="exactly one"):
        parse_equation("erfinv(x, n)", NAMES)
    tex = SymbolPrinter({x: "x", n: "n", k: "k"}).doprint(parse_equation("binomial(n, k) * gamma(x)", NAMES))
    assert r"\binom{n}{k}" in tex and r"\Gamma\left(x\right)" in tex


def test_gammaincinv_at_high_precision_near_both_ends_of_its_level():
    """The exact (evalf) value the property tests compare with, where the old bracketed root search gave up: for a = 1,
    P(1, x) = 1 - e^-x, so x = -ln(1 - y): 9 ln 10 = 20.72326583694641 at y = 1 - 1e-9 and -ln(1 - 1e-12) = 1e-12
    (to 1e-24) at y = 1e-12; for a = 2, 1 - e^-x (1 + x) = y, checked by putting the root back; for a = 3 at y = 1e-12,
    x^3/6 ~ 1e-12 gives x ~ 1.8171e-4 (the leading term of the series, DLMF 8.7.1)."""
    y_hi, y_lo = sympy.Float("0.999999999", 60), sympy.Float("1e-12", 60)
    assert float(parse_equation("gammaincinv(k, x)", NAMES).subs({k: 1, x: y_hi}).evalf(50)) == pytest.approx(
        9 * math.log(10), rel=1e-14)
    assert float(parse_equation("gammaincinv(k, x)", NAMES).subs({k: 1, x: y_lo}).evalf(50)) == pytest.approx(
        1e-12, rel=1e-11)
    root = parse_equation("gammaincinv(k, x)", NAMES).subs({k: 2, x: y_hi}).evalf(50)
    assert 1 - sympy.exp(-root) * (1 + root) - y_hi == pytest.approx(0, abs=1e-40)
    assert float(parse_equation("gammaincinv(k, x)", NAMES).subs({k: 3, x: y_lo}).evalf(50)) == pytest.approx(
        (6e-12) ** (1 / 3), rel=1e-3)


def test_gammaincinv_derivative_in_its_shape_is_the_implicit_one():
    """d/da of x(a) with P(a, x(a)) = y is -(dP/da)/(dP/dx) (implicit differentiation): compiled and exact, it matches
    a central difference of SciPy's gammaincinv in a (Garwood's limits at 38 and 39 events, a 95 percent interval),
    and for a = 1 at y = 1/2 the value -(dP/da)/(dP/dx) with dP/dx = e^-x = 1/2 at x = ln 2."""
    from scipy import special as sp

    expr = parse_equation("gammaincinv(k, x)", NAMES)
    d = sympy.diff(expr, k)
    f = compile_tree(d, (x, n, k))
    for a, y in ((38.0, 0.025), (39.0, 0.975), (3.0, 0.2)):
        h = 1e-5 * a
        numeric = (sp.gammaincinv(a + h, y) - sp.gammaincinv(a - h, y)) / (2 * h)
        assert f(y, 1, a) == pytest.approx(numeric, rel=1e-7)
        assert float(d.subs({k: a, x: y}).evalf(30)) == pytest.approx(f(y, 1, a), rel=1e-12)
    h = 1e-6
    dp_da = (sp.gammainc(1 + h, math.log(2)) - sp.gammainc(1 - h, math.log(2))) / (2 * h)
    assert f(0.5, 1, 1.0) == pytest.approx(-dp_da / 0.5, rel=1e-7)
    assert SymbolPrinter({x: "y", n: "n", k: "a"}).doprint(d) == r"\partial_{a} P^{-1}\left(a, y\right)"


def test_betaincinv_is_the_clopper_pearson_limit_and_differentiable():
    """I_x(a, 1) = x^a and I_x(1, b) = 1 - (1 - x)^b (DLMF 8.17.1 integrated at once), so betaincinv(a, 1, y) =
    y^(1/a) and betaincinv(1, b, y) = 1 - (1 - y)^(1/b) by hand; for 19 successes in 20 runs (a = 19, b = 2) the
    binomial tail 20 p^19 - 19 p^20 (DLMF 8.17.5) equals y at the root. Compiled, exact (evalf at 50 digits, also at a
    level 1e-9 from 1) and the derivatives in y, a and b against central differences of SciPy's betaincinv."""
    from scipy import special as sp

    a, b, y = sympy.symbols("a b y", positive=True)
    expr = parse_equation("betaincinv(a, b, y)", {"a": a, "b": b, "y": y})
    f = compile_tree(expr, (a, b, y))
    assert f(20.0, 1.0, 0.05) == pytest.approx(0.05 ** (1 / 20), rel=1e-14)
    assert f(1.0, 4.0, 0.3) == pytest.approx(1 - 0.7 ** 0.25, rel=1e-14)
    root = f(19.0, 2.0, 0.05)
    assert 20 * root**19 - 19 * root**20 == pytest.approx(0.05, rel=1e-12)
    near_one = sympy.Float("0.999999999", 60)
    assert float(expr.subs({a: 20, b: 1, y: near_one}).evalf(50)) == pytest.approx(0.999999999 ** (1 / 20), rel=1e-15)
    assert float(expr.subs({a: 19, b: 2, y: sympy.Float("0.05", 50)}).evalf(50)) == pytest.approx(root, rel=1e-14)
    at = (19.0, 2.0, 0.05)
    for i, var in enumerate((a, b, y)):
        d = compile_tree(sympy.diff(expr, var), (a, b, y))(*at)
        h = 1e-6 * at[i]
        up, down = list(at), list(at)
        up[i] += h
        down[i] -= h
        assert d == pytest.approx((sp.betaincinv(*up) - sp.betaincinv(*down)) / (2 * h), rel=1e-6), var
    assert SymbolPrinter({a: "a", b: "b", y: "y"}).doprint(expr) == r"I^{-1}\left(a, b, y\right)"
    with pytest.raises(EquationError, match="exactly three"):
        parse_equation("betaincinv(a, b)", {"a": a, "b": b})


def test_gammainc_is_the_poisson_tail_without_cancellation():
    """P(a, x) for whole a = s is the Poisson tail P(N >= s) at mean x, 1 - e^-x sum_{k<s} x^k / k! (DLMF §8.4):
    by hand 1 - e^-x at s = 1, 1 - e^-x (1 + x) at s = 2; at x = 0.03 and s = 4 the tail is 3.295e-8 (the series
    e^-x x^4/4! (1 + x/5 + x^2/30 + ...)), where 1 - sum keeps 8 digits, and at s = 20 it is 1.39e-49, where
    1 - sum gives 0; compiled, exact (evalf) and both derivatives (x: the density x^(s-1) e^-x / Gamma(s); s: against
    a central difference of SciPy's gammainc) agree."""
    from scipy import special as sp

    expr = parse_equation("gammainc(k, x)", NAMES)
    f = compile_tree(expr, (x, n, k))
    assert f(0.7, 1, 1) == pytest.approx(1 - math.exp(-0.7), rel=1e-14)
    assert f(0.7, 1, 2) == pytest.approx(1 - math.exp(-0.7) * 1.7, rel=1e-14)
    series = math.exp(-0.03) * 0.03**4 / 24 * sum(0.03**i / math.prod(range(5, 5 + i)) for i in range(8))
    assert f(0.03, 1, 4) == pytest.approx(series, rel=1e-13)
    tiny = math.exp(-0.03) * 0.03**20 / math.factorial(20) * sum(0.03**i / math.prod(range(21, 21 + i)) for i in range(8))
    assert f(0.03, 1, 20) == pytest.approx(tiny, rel=1e-13)
    assert float(expr.subs({k: 20, x: sympy.Float("0.03", 40)}).evalf(40)) == pytest.approx(tiny, rel=1e-14)
    dx = compile_tree(sympy.diff(expr, x), (x, n, k))
    assert dx(0.03, 1, 4) == pytest.approx(0.03**3 * math.exp(-0.03) / 6, rel=1e-13)
    dk = compile_tree(sympy.diff(expr, k), (x, n, k))
    for a, y in ((4.0, 0.03), (2.5, 1.7), (30.0, 20.0)):
        h = 1e-5 * a
        assert dk(y, 1, a) == pytest.approx((sp.gammainc(a + h, y) - sp.gammainc(a - h, y)) / (2 * h), rel=1e-7)
    assert SymbolPrinter({x: "m", n: "n", k: "s"}).doprint(expr) == r"P\left(s, m\right)"
    with pytest.raises(EquationError):
        parse_equation("gammainc(k)", NAMES)


def test_betainc_is_the_binomial_tail_and_differentiable():
    """I_x(a, b) for whole a = n − m, b = m + 1 is P(X <= m) for X binomial (n, 1 − x) (DLMF 8.17.5): at x = 1/2 the
    fair-coin tail sum_{j<=m} C(n, j)/2^n, by hand for n = 10, m = 3 (176/1024); the derivative in x is the density
    x^(a−1)(1 − x)^(b−1)/B(a, b), and in a and b it agrees with central differences of SciPy's betainc."""
    from scipy import special as sp

    a, b, x = sympy.symbols("a b x", positive=True)
    expr = parse_equation("betainc(a, b, x)", {"a": a, "b": b, "x": x})
    at = {a: 7, b: 4, x: sympy.Rational(1, 2)}
    assert float(expr.subs(at).evalf(30)) == pytest.approx(176 / 1024, rel=1e-15)
    assert compile_tree(expr, (a, b, x))(7.0, 4.0, 0.5) == pytest.approx(176 / 1024, rel=1e-14)
    density = math.gamma(11) / (math.gamma(7) * math.gamma(4)) * 0.5**6 * 0.5**3
    assert float(sympy.diff(expr, x).subs(at).evalf(30)) == pytest.approx(density, rel=1e-12)
    h = 1e-6
    for var, up, down in ((a, (7 + h, 4, 0.5), (7 - h, 4, 0.5)), (b, (7, 4 + h, 0.5), (7, 4 - h, 0.5))):
        d = float(sympy.diff(expr, var).subs(at).evalf(30))
        assert d == pytest.approx((sp.betainc(*up) - sp.betainc(*down)) / (2 * h), rel=1e-6), var
    with pytest.raises(EquationError):
        parse_equation("betainc(a, b)", {"a": a, "b": b})
