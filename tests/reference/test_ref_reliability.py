"""Reliability and checkpointing scenarios against mlsysim 0.3.0.

Every named scenario of CheckpointIntervalScenario, FailureIntervalScenario,
SeriesFailureScenario, RecoveryBudgetScenario, AvailabilityScenario,
GoodputScenario and SdcExposureScenario, every numeric member (the scenario's own
properties and methods, and the fields of its ``.result``), compared at 1e-9
relative.  Keyed members are compared at every key; methods at two or three
argument values.  Where mlsysim raises (or returns None, or has no such key) ours
must raise ``MissingInputError``.

Where mlsysim returns a bare float that carries a unit implicitly (rates per hour,
device-hours), ours returns a Quantity; the test attaches mlsysim's implicit unit
(``IMPLICIT_UNITS``) before comparing.
"""

from __future__ import annotations

from typing import Any

import pytest
import sympy

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import load_file
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.units import Q_

from .compare import assert_close, reference_scenario

CLASSES = (
    "CheckpointIntervalScenario",
    "FailureIntervalScenario",
    "SeriesFailureScenario",
    "RecoveryBudgetScenario",
    "AvailabilityScenario",
    "GoodputScenario",
    "SdcExposureScenario",
)

# member name -> where mlsysim keeps it: "self" (a scenario property), "result" (a field of .result)
MEMBERS: dict[str, dict[str, str]] = {
    "CheckpointIntervalScenario": {
        "checkpoint_bytes": "self", "t_write": "self",
        "interval": "result", "write_share": "result", "rework_share": "result", "waste": "result",
    },
    "FailureIntervalScenario": {"interval": "result", "expected_failures": "result", "failures_per_day": "result"},
    "SeriesFailureScenario": {
        "device_rate": "result", "system_rate": "result", "mtbf": "result", "failures_per_day": "result",
    },
    "RecoveryBudgetScenario": {
        "checkpoint_bytes": "self", "detect": "result", "restart": "result", "reload": "result",
        "warmup": "result", "total": "result", "failure_interval": "result", "failures_per_day": "result",
        "lost_per_day": "result", "day_share": "result", "gpu_hours_per_day": "result",
    },
    "AvailabilityScenario": {
        "all_up": "self", "downtime_per_year": "self", "any_up": "self", "replicated_downtime_per_year": "self",
    },
    "GoodputScenario": {
        "mpg": "result", "job_product": "result", "after_scheduling": "result", "after_runtime": "result",
        "scheduling_share": "result", "runtime_share": "result", "program_share": "result",
        "full_scheduling_gain": "result", "cost_multiple": "result", "job_cost_multiple": "result",
        "runtime_headroom": "result", "useful_rate": "result",
    },
    "SdcExposureScenario": {
        "exposure": "self", "p_step": "self", "steps_between": "self", "interval": "self", "run_events": "self",
    },
}

# keyed members: (class, member) -> the keys to compare (ours: a dict property or a method of the key)
KEYED: dict[tuple[str, str], str] = {
    ("SeriesFailureScenario", "component_rates"): "dict",
    ("GoodputScenario", "point_value"): "factor",
    ("GoodputScenario", "ceiling_ratio"): "factor",
    ("GoodputScenario", "ceiling_gain"): "factor",
    ("GoodputScenario", "mpg_at_ceiling"): "factor",
}
GOODPUT_FACTORS = ("S", "R", "P")

# methods with free arguments: (class, member) -> [(our keyword, our value, mlsysim value)]
METHOD_ARGS: dict[tuple[str, str], list[tuple[str, str, Any]]] = {
    ("CheckpointIntervalScenario", "waste_at"): [
        ("tau", "10 min", ("10", "minute")), ("tau", "1 h", ("1", "hour")), ("tau", "optimum", None)],
    ("CheckpointIntervalScenario", "miss_penalty"): [
        ("factor", 0.5, 0.5), ("factor", 2.0, 2.0), ("factor", 10.0, 10.0)],
    ("AvailabilityScenario", "required_availability"): [
        ("all_up_target", 0.5, 0.5), ("all_up_target", 0.9, 0.9), ("all_up_target", 0.99, 0.99)],
    ("AvailabilityScenario", "downtime"): [
        ("interval", "1 d", ("1", "day")), ("interval", "30 d", ("30", "day")), ("interval", "8760 h", ("8760", "hour"))],
}

# mlsysim floats that carry a unit implicitly (ours are Quantities)
IMPLICIT_UNITS: dict[tuple[str, str], str] = {
    ("SeriesFailureScenario", "component_rates"): "1/h",
    ("SeriesFailureScenario", "device_rate"): "1/h",
    ("SeriesFailureScenario", "system_rate"): "1/h",
    ("RecoveryBudgetScenario", "gpu_hours_per_day"): "h",
    ("SdcExposureScenario", "exposure"): "h",
}


def _instances(cls_name: str) -> list[str]:
    import mlsysim

    s = mlsysim.Scenarios
    return sorted(n for n in dir(s) if type(getattr(s, n)).__name__ == cls_name)


#: Our named scenarios of each class, read from the file's declarations (nothing built, mlsysim not imported while
#: collecting); test_every_named_scenario_is_ported holds them to mlsysim's.
SCENARIOS = {c: sorted(load_file(derivations_dir() / "reliability.toml").scenarios_of(c)) for c in CLASSES}


def _calls(cls_name: str, key: str) -> list[tuple[str, Any, Any]]:
    """Every (member, selection, mlsysim's argument) compared on ``key``: properties, each key of a keyed member (the
    component names read from mlsysim's result when the test runs), each declared call of a method."""
    calls: list[tuple[str, Any, Any]] = [(member, None, None) for member in MEMBERS[cls_name]]
    for (c, member), how in KEYED.items():
        if c != cls_name:
            continue
        labels = list(reference_scenario(key).result.component_rates) if how == "dict" else list(GOODPUT_FACTORS)
        calls += [(member, ("key", label), None) for label in labels]
    for (c, member), args in METHOD_ARGS.items():
        if c == cls_name:
            calls += [(member, ("arg", kw, ours), theirs) for kw, ours, theirs in args]
    return calls


@pytest.fixture(scope="module")
def cat() -> Any:
    return load_file(derivations_dir() / "reliability.toml")


def _reference_value(cls_name: str, ref: Any, member: str, sel: Any, theirs_arg: Any) -> Any:
    """mlsysim's value, or raises; ``None`` or a missing key stand for 'not available'."""
    import mlsysim

    if sel is None:
        where = MEMBERS[cls_name][member]
        return getattr(ref.result if where == "result" else ref, member)
    if sel[0] == "key":
        table = getattr(ref.result, member)
        if sel[1] not in table:
            raise KeyError(sel[1])
        return table[sel[1]]
    ours_arg = sel[2]
    if ours_arg == "optimum":
        return getattr(ref, member)(ref.result.interval)
    if isinstance(theirs_arg, tuple):
        return getattr(ref, member)(mlsysim.core.units.Q_(float(theirs_arg[0]), theirs_arg[1]))
    return getattr(ref, member)(theirs_arg)


def _our_value(ours: Any, member: str, sel: Any, ref: Any) -> Any:
    if sel is None:
        return getattr(ours, member)
    if sel[0] == "key":
        if member == "component_rates":
            return ours.component_rates[sel[1]]
        return getattr(ours, member)(factor=sel[1])
    kw, arg = sel[1], sel[2]
    if arg == "optimum":
        arg = Q_(ref.result.interval.m_as("second"), "s")
    return getattr(ours, member)(**{kw: arg})


@pytest.mark.parametrize(("cls_name", "key"), [pytest.param(c, k, id=k) for c, keys in SCENARIOS.items() for k in keys])
def test_members_match_mlsysim(cat: Any, cls_name: str, key: str) -> None:
    """Every member, key and call of the named scenario (:func:`_calls`) equals mlsysim's; every mismatch is reported."""
    calls = _calls(cls_name, key)
    mismatches = []
    for member, sel, theirs_arg in calls:
        try:
            _member_matches(cat, cls_name, key, member, sel, theirs_arg)
        except (Exception, pytest.fail.Exception) as exc:   # (pytest.raises failing is not an Exception)
            mismatches.append(f"{member}{'' if sel is None else sel[1:]}: {type(exc).__name__}: {exc}")
    assert calls and not mismatches, f"{key}: {len(mismatches)} of {len(calls)} differ:\n" + "\n".join(mismatches)


def _member_matches(cat: Any, cls_name: str, key: str, member: str, sel: Any, theirs_arg: Any) -> None:
    ref = reference_scenario(key)
    ours = cat.scenario(key)
    assert type(ours).__name__ == cls_name
    try:
        theirs = _reference_value(cls_name, ref, member, sel, theirs_arg)
    except (AttributeError, TypeError, KeyError):
        theirs = None
    if theirs is None:
        # mlsysim raises (an unset optional input), returns None, or has no such key: ours must raise.
        with pytest.raises(MissingInputError):
            _our_value(ours, member, sel, ref)
        return
    value = _our_value(ours, member, sel, ref)
    unit = IMPLICIT_UNITS.get((cls_name, member))
    if unit is not None:
        assert not hasattr(theirs, "units"), f"{key}.{member}: mlsysim now returns a Quantity; drop IMPLICIT_UNITS"
        theirs = Q_(float(theirs), unit)
    assert_close(value, theirs, f"{key}.{member}{'' if sel is None else sel[1:]}")


@pytest.mark.parametrize("cls_name", CLASSES)
def test_every_named_scenario_is_ported(cat: Any, cls_name: str) -> None:
    ours = sorted(k for k, d in cat.declared.items() if d.type_name == cls_name)
    assert ours == SCENARIOS[cls_name] == _instances(cls_name)
    assert ours, f"mlsysim 0.3.0 has no instance of {cls_name}"


def test_expected_unavailable_members_are_the_known_ones(cat: Any) -> None:
    """The members compared as 'ours raises' are exactly the ones mlsysim leaves unset (guards the except path)."""
    raised = set()
    for cls_name, keys in SCENARIOS.items():
        for key in keys:
            ours = cat.scenario(key)
            for member in MEMBERS[cls_name]:
                try:
                    getattr(ours, member)
                except MissingInputError:
                    raised.add((key, member))
    assert raised == {
        ("FifteenMinuteCheckpoint1K", "checkpoint_bytes"),
        ("FiveMinuteCheckpoint1K", "checkpoint_bytes"),
        ("ReexecutedWorkCheckpointInterval", "checkpoint_bytes"),
        ("Llama3_405BGoodput16K", "useful_rate"),
        ("Llama3_405BOnSharedPool", "useful_rate"),
        ("SdcExposure100K", "run_events"),
    }


def test_young_interval_solves_d_waste_dtau(cat: Any) -> None:
    """d(waste_at)/d(tau) = 0 recovers tau* = sqrt(2 delta M), and miss_penalty is (x + 1/x)/2 - 1."""
    for key in SCENARIOS["CheckpointIntervalScenario"]:
        s = cat.scenario(key)
        waste = s.expression("waste_at", expand=True)
        tau = next(sym for sym in waste.free_symbols if sym.name == "tau")
        roots = sympy.solve(sympy.diff(waste, tau), tau)
        assert len(roots) == 1
        assert sympy.simplify(roots[0] - s.expression("interval", expand=True)) == 0
        x = next(sym for sym in s.expression("miss_penalty", expand=True).free_symbols if sym.name == "x")
        assert sympy.simplify(s.expression("miss_penalty", expand=True) - ((x + 1 / x) / 2 - 1)) == 0
