"""Comparing our values with the reference package mlsysim 0.3.0.

What crosses the boundary is the reference's: a value of ours is compared through ``.to(mlsysim's unit)``, never
through a stripped magnitude, so a count we return as ``sample/s`` where mlsysim returns ``1/s`` fails.  mlsysim's
unit is read from its unit text in our registry; where that text names a counted kind (mlsysim's ``param`` and
``token`` are dimensionless counts, so its ``param * byte`` is bytes), our value may be in either reading.  A plain
float of mlsysim's is a plain number: ours must be a number or a dimensionless Quantity.
"""

from __future__ import annotations

import math
from typing import Any

import pint

from mlsysim_symbolic.errors import UnscaledUnitError
from mlsysim_symbolic.units import Q_, parse_unit, point_unit, uncounted

#: Offset units a result shows a temperature in (mlsysim's degC): compared in the very unit, never converted into it.
OFFSET_UNITS = frozenset({point_unit("degC")})

REL = 1e-9


def reference_scenario(name: str) -> Any:
    """The named scenario of mlsysim 0.3.0 (the reference package, a test dependency)."""
    import mlsysim

    return getattr(mlsysim.Scenarios, name)


def reference_entry(kind: str, group: str, key: str) -> Any:
    """mlsysim 0.3.0's own registry object: ``reference_entry("Models", "Language", "Llama3_8B")``."""
    import mlsysim

    return getattr(getattr(getattr(mlsysim, kind), group), key)


def our_entry(how: str, kind: str, group: str, key: str) -> Any:
    """The same entry as ours: its registry key (``how="key"``), our namespace's entry (``"namespace"``), or
    mlsysim's own object (anything else)."""
    from mlsysim_symbolic.solvers import Hardware, Models

    if how == "key":
        return key
    if how == "namespace":
        return getattr(getattr(Models if kind == "Models" else Hardware, group), key)
    return reference_entry(kind, group, key)


def reference_unit(theirs: Any) -> pint.Unit:
    """mlsysim's unit of ``theirs`` (a Quantity of its registry) in ours, read from its unit text."""
    text = format(theirs.units, "C")   # full unit names joined by * and / (its default "~P" writes · and powers as ²)
    try:
        return parse_unit(text) if text not in ("", "dimensionless") else parse_unit("")
    except UnscaledUnitError:   # a temperature on mlsysim's offset scale (degC): ours must be shown in it too
        return point_unit(text)


def in_reference_unit(ours: Any, unit: pint.Unit) -> float:
    """Our value in mlsysim's ``unit``: ``ours.to(unit)`` (or, where mlsysim's unit names a count, its reading as
    the plain count it is there); a DimensionalityError when ours is in another unit."""
    if not isinstance(ours, pint.Quantity):
        if unit.dimensionality:
            raise pint.DimensionalityError("a plain number", f"{unit:~C}")
        return float(ours)
    if unit in OFFSET_UNITS and ours.units != unit:   # a temperature mlsysim shows in degC is shown in degC
        raise pint.DimensionalityError(f"{ours.units:~C}", f"{unit:~C}", extra_msg=" (mlsysim shows it on this scale)")
    try:
        return float(ours.to(unit).magnitude)
    except pint.DimensionalityError:
        plain = uncounted(Q_(1, unit))   # mlsysim's param, token: dimensionless counts in its registry
        if plain.units == unit:
            raise
        return float((ours / plain).to("").magnitude)


def magnitude_like(ours: Any, theirs: Any) -> tuple[float, float]:
    """Our value expressed in the reference value's unit (``.to``), and the reference magnitude."""
    if hasattr(theirs, "magnitude") and hasattr(theirs, "units"):
        return in_reference_unit(ours, reference_unit(theirs)), float(theirs.magnitude)
    return in_reference_unit(ours, parse_unit("")), float(theirs)


def assert_close(ours: Any, theirs: Any, label: str = "", rel: float = REL) -> None:
    """Assert our value, in mlsysim's unit, equals the reference value to ``rel`` relative (absolute 1e-300 near 0)."""
    try:
        a, b = magnitude_like(ours, theirs)
    except pint.DimensionalityError as exc:
        raise AssertionError(f"{label}: ours {ours!r} is not in mlsysim's unit ({theirs!r}): {exc}") from None
    assert math.isclose(a, b, rel_tol=rel, abs_tol=1e-300), f"{label}: ours {a!r} != mlsysim {b!r} (ours {ours!r}, mlsysim {theirs!r})"


def assert_same(ours: Any, theirs: Any, label: str = "") -> None:
    """Our field value equals mlsysim's: None, booleans and labels exactly (type included), sets exactly, dicts key by
    key in order, lists and tuples item by item, a nested result field by field (its prose constraint_trace apart), numbers
    and Quantities at 1e-9 (:func:`assert_close`)."""
    if theirs is None:
        assert ours is None, f"{label}: ours {ours!r}, mlsysim None"
    elif isinstance(theirs, (bool, str)):
        assert ours == theirs and type(ours) is type(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
    elif isinstance(theirs, (set, frozenset)):   # a set of keys (RingTraceResult.held): the same keys, exactly
        assert isinstance(ours, (set, frozenset)) and ours == theirs, f"{label}: ours {ours!r}, mlsysim {theirs!r}"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), f"{label}: keys {list(ours)} vs {list(theirs)}"
        for k in theirs:
            assert_same(ours[k], theirs[k], f"{label}[{k!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
        for i, (o, t) in enumerate(zip(ours, theirs)):
            assert_same(o, t, f"{label}[{i}]")
    elif isinstance(getattr(type(theirs), "model_fields", None), dict):   # a nested result (TokenPriceComparisonResult.baseline)
        fields = [f for f in type(theirs).model_fields if f != "constraint_trace"]
        assert list(getattr(ours, "fields", ())) == fields, f"{label}: fields {getattr(ours, 'fields', None)} vs {fields}"
        for f in fields:
            assert_same(getattr(ours, f), getattr(theirs, f), f"{label}.{f}")
    else:
        assert_close(ours, theirs, label)


def derivative_value(result: Any, field: str, wrt: str) -> Any:
    """``result.diff(field, wrt)`` (a SymPy tree) evaluated at the solve's values, in (field unit)/(input unit)."""
    import sympy

    scenario = result.scenario
    output = result.output(field)
    expr = result.diff(field, wrt)
    plan = scenario.planner.numeric_plan(output)
    values = scenario.planner.values(plan, (), {})
    number = float(sympy.lambdify(plan.args, expr, "math")(*[float(v) for v in values]))
    out_unit = scenario.type.output(output).variable.unit
    in_unit = scenario.planner.variable(next(s for s in plan.args if scenario.planner.variable(s).name == wrt)).unit
    base = Q_(1, out_unit).to_base_units().units / Q_(1, in_unit).to_base_units().units
    return Q_(number, base).to(out_unit / in_unit)
