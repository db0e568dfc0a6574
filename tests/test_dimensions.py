"""Dimensional analysis from declared units, before any number is used."""

import pytest
import sympy

from mlsysim_symbolic.dimensions import check_equation, unit_of
from mlsysim_symbolic.errors import DimensionError
from mlsysim_symbolic.parse import parse_equation
from mlsysim_symbolic.units import parse_unit

SYMS = {
    "M": ("B", sympy.Symbol("M", positive=True)),
    "t": ("s", sympy.Symbol("t", positive=True)),
    "F": ("flop", sympy.Symbol("F", positive=True)),
    "R": ("flop/s", sympy.Symbol("R", positive=True)),
    "BW": ("B/s", sympy.Symbol("BW", positive=True)),
    "P": ("param", sympy.Symbol("P", positive=True)),
    "b": ("B/param", sympy.Symbol("b", positive=True)),
    "n": ("count", sympy.Symbol("n", positive=True, integer=True)),
    "a": ("1", sympy.Symbol("a", positive=True)),
}
NAMES = {k: v[1] for k, v in SYMS.items()}
UNITS = {v[1]: parse_unit(v[0]) for v in SYMS.values()}


@pytest.mark.parametrize(
    "text, unit",
    [
        ("P * b", "B"),
        ("M / BW", "s"),
        ("F / R", "s"),
        ("max(F / R, M / BW)", "s"),
        ("M / BW + F / R", "ms"),
        ("sqrt(2 * t * t)", "s"),
        ("ceil(M / (P * b))", "1"),
        ("a ** n", "1"),
        ("log(M / (P * b))", "1"),
        ("piecewise(F / R, F / R > M / BW, M / BW)", "s"),
        ("n * M", "B"),
    ],
)
def test_consistent_equations_pass(text, unit):
    expr = parse_equation(text, NAMES)
    check_equation(expr, parse_unit(unit), UNITS)


@pytest.mark.parametrize(
    "text, unit, words",
    [
        ("M + t", "B", ["M is in B", "t is in s"]),
        ("max(M, F)", "B", ["max()", "M is in B", "F is in FLOP"]),
        ("min(M / BW, F)", "s", ["min()"]),
        ("M + 1", "B", ["1 is in 1", "M is in B"]),
        ("P * b", "s", ["declared unit is s"]),
        ("F / BW", "s", ["declared unit is s"]),
        ("log(M)", "1", ["log()", "M is in B"]),
        ("ceil(M / t)", "1", ["ceil()"]),
        ("a ** t", "1", ["exponent"]),
        ("M ** a", "B", ["symbolic exponent"]),
        ("piecewise(M, M > t, 2 * M)", "B", ["comparison"]),
        ("piecewise(M, M > P * b, t)", "B", ["branches of piecewise()"]),
    ],
)
def test_inconsistent_equations_are_refused_naming_terms(text, unit, words):
    expr = parse_equation(text, NAMES)
    with pytest.raises(DimensionError) as info:
        check_equation(expr, parse_unit(unit), UNITS, output="y")
    for w in words:
        assert w in str(info.value)


def test_unit_of_carries_the_unit():
    assert unit_of(NAMES["P"] * NAMES["b"], UNITS).dimensionality == parse_unit("B").dimensionality
    assert unit_of(sympy.sqrt(NAMES["M"] * NAMES["M"]), UNITS).dimensionality == parse_unit("B").dimensionality


@pytest.mark.parametrize("text, unit", [("piecewise(M, M > P * b, 0)", "B"), ("max(M / BW, 0)", "s")])
def test_zero_fits_any_dimension(text, unit):
    check_equation(parse_equation(text, NAMES), parse_unit(unit), UNITS)
