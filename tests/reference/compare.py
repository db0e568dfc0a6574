"""Comparing our values with the reference package mlsysim 0.3.0.

mlsysim has its own pint registry; its quantities are carried into ours through
their magnitude and unit name, then compared at 1e-9 relative.  mlsysim has no counted
kinds (its ``param`` is a dimensionless count), so ours are dropped before comparing
(``uncounted``: 6 GB/sample is mlsysim's 6 GB).
"""

from __future__ import annotations

import math
from typing import Any

import pint

from mlsysim_symbolic.units import Q_, uncounted

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


def _unit_text(q: Any) -> str:
    text = str(q.units)
    return text.replace("TFLOPs", "TFLOP").replace("GFLOPs", "GFLOP").replace("PFLOPs", "PFLOP")


def magnitude_like(ours: Any, theirs: Any) -> tuple[float, float]:
    """Our value expressed in the reference value's unit, and the reference magnitude."""
    if isinstance(ours, pint.Quantity):
        ours = uncounted(ours)
        if hasattr(theirs, "magnitude") and hasattr(theirs, "units"):
            unit = _unit_text(theirs)
            return float((ours / uncounted(Q_(1, unit))).to("dimensionless").magnitude), float(theirs.magnitude)
        return float(ours.to("").magnitude), float(theirs)
    if hasattr(theirs, "magnitude"):
        return float(ours), float(theirs.to("").magnitude)
    return float(ours), float(theirs)


def assert_close(ours: Any, theirs: Any, label: str = "", rel: float = REL) -> None:
    """Assert our value equals the reference value to ``rel`` relative (absolute 1e-300 near zero)."""
    a, b = magnitude_like(ours, theirs)
    assert math.isclose(a, b, rel_tol=rel, abs_tol=1e-300), f"{label}: ours {a!r} != mlsysim {b!r} (ours {ours!r}, mlsysim {theirs!r})"


def assert_same(ours: Any, theirs: Any, label: str = "") -> None:
    """Our field value equals mlsysim's: None, booleans and labels exactly (type included), dicts key by key in
    order, lists and tuples item by item, numbers and Quantities at 1e-9 (:func:`assert_close`)."""
    if theirs is None:
        assert ours is None, f"{label}: ours {ours!r}, mlsysim None"
    elif isinstance(theirs, (bool, str)):
        assert ours == theirs and type(ours) is type(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), f"{label}: keys {list(ours)} vs {list(theirs)}"
        for k in theirs:
            assert_same(ours[k], theirs[k], f"{label}[{k!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
        for i, (o, t) in enumerate(zip(ours, theirs)):
            assert_same(o, t, f"{label}[{i}]")
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
