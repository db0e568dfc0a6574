"""Dimensional analysis of an equation from its symbols' declared units alone.

:func:`unit_of` walks a SymPy tree and returns the pint unit it carries, raising
:class:`~mlsysim_symbolic.errors.DimensionError` naming the offending terms and
their units when terms disagree: ``bytes + seconds``, ``max(bytes, flops)``, a
``log`` or ``ceil`` of a dimensional quantity, a symbolic power of one.

>>> import sympy
>>> from mlsysim_symbolic.units import parse_unit
>>> M, t = sympy.symbols("M t", positive=True)
>>> units = {M: parse_unit("B"), t: parse_unit("s")}
>>> unit_of(M / t, units)
<Unit('byte / second')>
>>> unit_of(M + t, units)
Traceback (most recent call last):
...
mlsysim_symbolic.errors.DimensionError: terms disagree in dimension: M is in B ([information]: bytes) but t is in s ([time]: seconds)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pint
import sympy

from . import reductions, special
from .errors import DimensionError
from .units import describe_unit, format_dimensionality, is_counted_only, ureg

_ONE = ureg.dimensionless


def _describe(expr: Any, unit: pint.Unit) -> str:
    return f"{sympy.sstr(expr)} is in {_unit_words(unit)}"


def _dimensions(unit: pint.Unit) -> dict[str, float]:
    """``unit``'s dimensions with their exponents, rounded (pint keeps a rational exponent as a float: a cube root
    cubed leaves [length] ** 1.1e-16, which is no dimension at all)."""
    return {k: round(v, 9) for k, v in unit.dimensionality.items() if abs(v) > 1e-9}


def _same(a: pint.Unit, b: pint.Unit) -> bool:
    return _dimensions(a) == _dimensions(b)


def _require_dimensionless(what: str, arg: Any, unit: pint.Unit) -> None:
    if _dimensions(unit):
        raise DimensionError(f"{what} needs a dimensionless argument, but {_describe(arg, unit)}")


def unit_of(expr: Any, units: Mapping[sympy.Symbol, pint.Unit]) -> pint.Unit:
    """The unit of ``expr`` given the unit of each of its symbols."""
    if isinstance(expr, sympy.Symbol):
        if expr not in units:
            raise DimensionError(f"symbol {expr} has no declared unit")
        return units[expr]
    if isinstance(expr, (sympy.Number, sympy.NumberSymbol)) or expr in (sympy.pi, sympy.E):
        return _ONE
    if isinstance(expr, sympy.Mul):
        result = _ONE
        for arg in expr.args:
            result = result * unit_of(arg, units)
        return result
    if isinstance(expr, sympy.Add):
        return _common("terms disagree in dimension", expr.args, units)
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        base_unit = unit_of(base, units)
        exp_unit = unit_of(exponent, units)
        _require_dimensionless("an exponent", exponent, exp_unit)
        if exponent.is_Number:
            if _dimensions(base_unit) and not exponent.is_Rational:
                raise DimensionError(f"a dimensional base needs a rational exponent: {sympy.sstr(expr)}")
            if not _dimensions(base_unit):
                return _ONE
            return base_unit ** _exponent(exponent)
        _require_dimensionless(f"a power with a symbolic exponent ({sympy.sstr(expr)})", base, base_unit)
        return _ONE
    if isinstance(expr, (sympy.Max, sympy.Min)):
        what = "max" if isinstance(expr, sympy.Max) else "min"
        return _common(f"arguments of {what}() disagree in dimension", expr.args, units)
    if isinstance(expr, sympy.Piecewise):
        values = [v for v, _ in expr.args]
        for _, cond in expr.args:
            _check_condition(cond, units)
        return _common("branches of piecewise() disagree in dimension", values, units)
    if isinstance(expr, (sympy.floor, sympy.ceiling)):
        what = "floor()" if isinstance(expr, sympy.floor) else "ceil()"
        unit = unit_of(expr.args[0], units)
        if unit.dimensionality and is_counted_only(unit) and all(p > 0 for p in unit.dimensionality.values()):
            return unit   # whole counted things: floor(2.5 sample) is 2 samples (counted kinds have no prefix in use)
        _require_dimensionless(what, expr.args[0], unit)
        return _ONE
    if isinstance(expr, (sympy.log, sympy.exp, sympy.cos, sympy.sin, sympy.acos)):
        name = f"{type(expr).__name__}()"
        for arg in expr.args:
            _require_dimensionless(name, arg, unit_of(arg, units))
        return _ONE
    if isinstance(expr, special.CLASSES):
        for arg in expr.args:
            _require_dimensionless(f"{type(expr).__name__}()", arg, unit_of(arg, units))
        return _ONE
    if isinstance(expr, sympy.Abs):
        return unit_of(expr.args[0], units)
    if isinstance(expr, (reductions.ArgMax, reductions.ArgMin)):
        unit_of(expr.function, {**units, **{lim[0]: _ONE for lim in expr.limits}})   # any one dimension: a position
        return _ONE
    if isinstance(expr, reductions.FirstFitDecreasing):   # sizes and the capacity they fill: one dimension
        inner_units = {**units, expr.limits[0][0]: _ONE}
        return _common("first_fit_decreasing(w, C, k) compares sizes with the capacity",
                       (expr.function, expr.limits[1][2]), inner_units)
    if isinstance(expr, reductions.NODES):
        inner = unit_of(expr.function, {**units, **{lim[0]: _ONE for lim in expr.limits}})
        if isinstance(expr, sympy.Product):
            _require_dimensionless("prod()", expr.function, inner)
        return inner
    if isinstance(expr, sympy.Indexed):
        return unit_of(expr.base.label, units)
    if isinstance(expr, sympy.Function) and hasattr(expr, "unit_of"):
        return expr.unit_of(units)
    raise DimensionError(f"cannot find the dimension of {sympy.sstr(expr)} ({type(expr).__name__})")


def _exponent(exponent: sympy.Rational) -> Any:
    if exponent.is_Integer:
        return int(exponent)
    return float(exponent)


def _common(message: str, args: Any, units: Mapping[sympy.Symbol, pint.Unit]) -> pint.Unit:
    first = None
    first_arg = None
    for arg in args:
        if arg == 0:   # zero is zero in every unit: piecewise(x, c, 0) and max(x, 0) are fine
            continue
        unit = unit_of(arg, units)
        if first is None:
            first, first_arg = unit, arg
        elif not _same(first, unit):
            # a bare number beside a dimensional term is the classic slip (1 B + 1)
            raise DimensionError(f"{message}: {_describe(first_arg, first)} but {_describe(arg, unit)}")
    return first if first is not None else _ONE


def _check_condition(cond: Any, units: Mapping[sympy.Symbol, pint.Unit]) -> None:
    if cond is sympy.true or cond is True or cond is sympy.false:
        return
    if isinstance(cond, (sympy.And, sympy.Or, sympy.Not, sympy.logic.boolalg.ITE)):   # ITE: SymPy's form of a piecewise inside a comparison
        for arg in cond.args:
            _check_condition(arg, units)
        return
    if isinstance(cond, sympy.core.relational.Relational):
        _common("the two sides of a comparison disagree in dimension", cond.args, units)
        return
    raise DimensionError(f"condition {cond} is not a comparison")


def check_equation(expr: Any, declared: pint.Unit, units: Mapping[sympy.Symbol, pint.Unit], *, output: str = "") -> pint.Unit:
    """Check that ``expr`` has the dimension of ``declared``; return the unit it carries.

    Counted kinds are dimensions like any other, so the message names them:

    >>> from mlsysim_symbolic.units import parse_unit
    >>> P, b = sympy.symbols("P b", positive=True)
    >>> check_equation(P * b, parse_unit("B"), {P: parse_unit("param"), b: parse_unit("B/token")}, output="W")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.DimensionError: equation for W: P*b is in B*param/token ([information] * [param] / [token]: bytes × parameters per token), but the declared unit is B ([information]: bytes)
    """
    label = f"equation for {output}: " if output else ""
    if isinstance(expr, sympy.logic.boolalg.Boolean) and not isinstance(expr, sympy.Expr):   # a predicate's condition
        check_condition(expr, units, output=output)
        return declared
    if expr == 0 or (isinstance(expr, reductions.NODES) and expr.function == 0):   # zero (0 * x folds to 0;
        return declared                                                              # a sum of zeros) in every unit
    try:
        unit = unit_of(expr, units)
    except DimensionError as exc:
        raise DimensionError(f"{label}{exc}") from None
    if not _same(unit, declared):
        raise DimensionError(f"{label}{sympy.sstr(expr)} is in {_unit_words(unit)}, but the declared unit is {_unit_words(declared)}")
    return unit


def check_condition(cond: Any, units: Mapping[sympy.Symbol, pint.Unit], *, output: str = "") -> None:
    """Check a condition (a comparison, or ``and``/``or``/``not`` of comparisons): both sides of each
    comparison in one dimension.  The condition of a predicate output is checked this way."""
    try:
        _check_condition(cond, units)
    except DimensionError as exc:
        raise DimensionError(f"equation for {output}: {exc}" if output else str(exc)) from None


def _unit_words(unit: pint.Unit) -> str:
    """``B/param ([information] / [param]: bytes per parameter)``."""
    return f"{f'{unit:~C}' or '1'} ({format_dimensionality(unit)}: {describe_unit(unit)})"
