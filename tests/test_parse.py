"""The whitelisted equation parser: what it accepts, and that it refuses everything else
without running it."""

import pytest
import sympy

from mlsysim_symbolic.errors import EquationError
from mlsysim_symbolic.parse import parse_equation

x, y, z = sympy.symbols("x y z", positive=True)
NAMES = {"x": x, "y": y, "z": z}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("x * y * z", x * y * z),
        ("x + y - z", x + y - z),
        ("x / y", x / y),
        ("x ** 2", x**2),
        ("-x", -x),
        ("(x + y) * z", (x + y) * z),
        ("max(x, y)", sympy.Max(x, y)),
        ("min(x, y, z)", sympy.Min(x, y, z)),
        ("sqrt(2 * x * y)", sympy.sqrt(2 * x * y)),
        ("log(x)", sympy.log(x)),
        ("log2(x)", sympy.log(x, 2)),
        ("exp(x)", sympy.exp(x)),
        ("ceil(x / y)", sympy.ceiling(x / y)),
        ("floor(x / y)", sympy.floor(x / y)),
        ("piecewise(x, x > y, y)", sympy.Piecewise((x, x > y), (y, True))),
        ("piecewise(x, x > y and y > z, z)", sympy.Piecewise((x, sympy.And(x > y, y > z)), (z, True))),
        ("0.5 * x", sympy.Rational(1, 2) * x),
        ("1e-9 * x", sympy.Rational(1, 10**9) * x),   # decimal literals are exact rationals
    ],
)
def test_accepts(text, expected):
    assert parse_equation(text, NAMES) == expected


ATTACKS = [
    '__import__("os")',
    '__import__("os").system("true")',
    "x.__class__",
    "x.__class__.__mro__",
    'open("f")',
    "lambda: 1",
    "(lambda q: q)(x)",
    "[i for i in range(3)]",
    "{i: i for i in range(3)}",
    'f"{x}"',
    '"text"',
    "x[0]",
    "x if y else z",
    "exec('1')",
    "eval('1')",
    "getattr(x, 'y')",
    "globals()",
    "x; y",
    "x = 1",
    "(x := 1)",
    "x == y",
    "x < y",
    "not x",
    "x and y",
    "max(*[x, y])",
    "max(x, key=y)",
    "x @ y",
    "x // y",
    "x % y",
    "x << 2",
    "2 ** 10 ** 10",
    "x ** 1000",
    "unknown_name * x",
    "sqrt(x, y)",
    "piecewise(x, y)",
    "1" * 60,
]


@pytest.mark.parametrize("text", ATTACKS)
def test_refuses_without_running(text, monkeypatch):
    import builtins

    def boom(*a, **k):  # any attempt to reach these would fail the test
        raise AssertionError("parser ran code")

    monkeypatch.setattr(builtins, "open", boom)
    monkeypatch.setattr(builtins, "exec", boom)
    monkeypatch.setattr(builtins, "eval", boom)
    with pytest.raises(EquationError):
        parse_equation(text, NAMES)


def test_reason_names_the_problem():
    with pytest.raises(EquationError, match="unknown name 'w'"):
        parse_equation("x * w", NAMES)
    with pytest.raises(EquationError, match="attribute access"):
        parse_equation("x.__class__", NAMES)
    with pytest.raises(EquationError, match="not an allowed function"):
        parse_equation('open("f")', NAMES)
    with pytest.raises(EquationError, match="Lambda is not allowed"):
        parse_equation("lambda: 1", NAMES)


def test_deep_nesting_is_refused_quickly():
    with pytest.raises(EquationError):
        parse_equation("(" * 500 + "x" + ")" * 500, NAMES)
    with pytest.raises(EquationError):
        parse_equation("-" * 5000 + "x", NAMES)


def test_a_python_keyword_as_a_symbol_is_refused_at_declaration_with_the_fix():
    from mlsysim_symbolic import DerivationError
    from mlsysim_symbolic.spec import ScenarioType

    with pytest.raises(DerivationError, match=r"symbol 'lambda' is a Python keyword.*latex = \"\\lambda\""):
        ScenarioType.from_mapping("K", {"inputs": {"rate": {"symbol": "lambda", "unit": "1/s"}},
                                        "outputs": {"o": {"unit": "1/s", "equation": "rate"}}})



def test_a_branch_not_taken_is_not_evaluated_in_compiled_trees():
    """At a = 1, x = 0, y = 2 the second branch holds: B = a y + a^2 y + y = 6, dB/da = y + 2 a y = 6; the factor
    F = a/(x+1) + a^2 + a y + 1/(x+1) = 5, dF/da = 1/(x+1) + 2a + y = 5; the last term's derivative is 1; so
    d/da = 6*5 + 6*5 + 1 = 61 (by hand).  Common-subexpression extraction would compute the first branch's 1/x first
    and divide by zero."""
    from mlsysim_symbolic.evaluate import compile_tree

    a, y = sympy.symbols("a y", positive=True)
    x = sympy.Symbol("x", nonnegative=True)
    branch = sympy.Piecewise((a / x + a**2 / x**2 + a / (x * y) + 1 / x, x > 0), (a * y + a**2 * y + y, True))
    e = branch * (a / (x + 1) + a**2 + a * y + 1 / (x + 1)) + sympy.Piecewise((a / x, x > 0), (a, True))
    d = sympy.diff(e, a)
    exact = float(d.subs({a: 1, x: 0, y: 2}))
    assert compile_tree(d, (a, x, y))(1.0, 0.0, 2.0) == exact == 61.0


def test_one_minus_an_exponential_compiles_without_cancellation():
    """1 - e^(-x) at x = 1e-10 is 9.9999999995e-11 (x - x^2/2); in floats 1 - exp(-1e-10) gives 1.00000008e-10."""
    import math

    import numpy as np

    from mlsysim_symbolic.evaluate import compile_tree

    x = sympy.Symbol("x", positive=True)
    assert compile_tree(1 - sympy.exp(-x), (x,))(1e-10) == pytest.approx(1e-10 - 5e-21, rel=1e-15)
    assert compile_tree(sympy.exp(x) - 1, (x,), vector=True)(np.array([1e-10]))[0] == pytest.approx(math.expm1(1e-10), rel=1e-15)
