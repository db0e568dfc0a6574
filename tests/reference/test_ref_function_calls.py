"""mlsysim's function face at the arguments mlsysim's own scenarios pass (issue 36).

``tools/record_mlsysim_calls.py`` evaluated every named scenario of mlsysim 0.3.0 with its ``calc_*`` functions
wrapped, and kept each function's distinct argument sets (``data/mlsysim_calls.json``: up to 40 per function).  Here
every recorded call of a function ported in our function face is made again on both sides, with the Quantities
rebuilt in mlsysim's registry (what mlsysim's code passes), and compared as ``test_ref_functions.py`` compares its
drawn arguments (:func:`compare_call`: 1e-9 relative in mlsysim's unit, mlsysim's Python shape, its absolute
tolerances and refusals).  Where mlsysim raises for a call, ours raises too: the same built-in exception (ours a
subclass of it), or for mlsysim's ValueError, ZeroDivisionError and OverflowError a ValueError or TypeError of ours
(``compare_call``'s rule: a 0/0 or a value past float64 is our FloatRangeError).  test_ref_functions' QUANTITY_ONLY and
PLAIN_ARGS need nothing here: each argument already comes as mlsysim's code passed it (a Quantity or a plain number).
Calls that ours cannot take as mlsysim does (DIVERGENT, each with its reason) are held to differ, as strict expected
failures.  Functions not ported (NOT_PORTED) are not called; which ones some scenario calls is printed by the counts.

``python -m pytest tests/reference/test_ref_function_calls.py -s -k counts`` prints the counts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mlsysim_symbolic
from mlsysim_symbolic.functions import function_names

from .functions import FAMILIES
from .test_ref_functions import NOT_PORTED, compare_call

DATA = json.loads((Path(__file__).parent / "data" / "mlsysim_calls.json").read_text(encoding="utf-8"))
CALLS: dict[str, list[dict[str, Any]]] = DATA["calls"]
PORTED = frozenset(function_names())
#: Functions some scenario calls that are ported here (each compared at every recorded call).
COMPARED = sorted(n for n in CALLS if n in PORTED)
#: mlsysim's refusals that compare_call holds ours to (ours a ValueError or TypeError).
REFUSALS = (ValueError, ZeroDivisionError, OverflowError)


def _unit(arguments: dict[str, Any], name: str) -> str | None:
    """The unit text of a recorded Quantity argument (None for a plain value)."""
    value = arguments.get(name)
    return value["unit"] if isinstance(value, dict) and "magnitude" in value else None


#: Recorded calls where ours departs from mlsysim on purpose or cannot take mlsysim's argument: function -> (which of
#: its recorded calls, why).  Those calls are left out of the comparison and held, in
#: test_documented_divergence_still_differs, to differ (an entry that matches no call, or a call that agrees, fails).
DIVERGENT: dict[str, tuple[Callable[[dict[str, Any]], bool], str]] = {
    "calc_append_only_context": (
        lambda a: a["turns"] == 0,
        "RepairLoopToTurnCeiling.result calls it at turns = 0, where mlsysim returns a last call of s0 + δ(H − 1) = "
        "1000 − 1100 = −100 tokens (a negative context) and 0 cumulative; the table's turns is at least 1 (turn t "
        "counts from 1, as mlsysim's docstring says), so ours refuses a trajectory without a call"),
    "calc_laplace_scale": (
        lambda a: _unit(a, "sensitivity") not in (None, "dimensionless"),
        "SalaryMeanLaplaceRelease.noise_scale passes a sensitivity of 200,000 USD; mlsysim's b = Δ/ε keeps Δ's unit "
        "('sensitivity may carry units (dollars, counts)'), the table declares Δ a plain number (a scalar input has one "
        "declared dimension; unit = \"stated\" is for map and list inputs), so ours refuses USD"),
    "calc_ownership_breakeven_utilization": (
        lambda a: _unit(a, "fixed_cost_per_year") == "USD",
        "the OwnVsRent scenarios pass the per-year costs as USD (one year's amount) and years as a plain 3; the table "
        "declares them USD/yr and yr (what the names say, and mlsysim's ratio is the same either way), so ours refuses "
        "USD for a cost per year"),
    "calc_repair_break_even": (
        lambda a: _unit(a, "repair_cost") == "second",
        "TestConfigRepairVsRebuild.result passes the costs in seconds (the time axis); the table's assumption: declared "
        "on the dollar axis, the time axis given as plain numbers (a scalar input has one declared dimension)"),
    "calc_repair_first_expected_cost": (
        lambda a: _unit(a, "repair_cost") == "second",
        "TestConfigRepairVsRebuild.result passes the costs in seconds (the time axis); the table declares them in USD "
        "(a scalar input has one declared dimension), so ours refuses seconds"),
    "calc_scurve_rest_to_rest_time": (
        lambda a: _unit(a, "distance") == "radian",
        "WarehouseArmShoulderSwing.result passes a joint move in rad (rad/s², rad/s³); mlsysim reads the distance's own "
        "unit, the table declares metres, so ours refuses an angle"),
    "calc_short_circuit_cost": (
        lambda a: all(not isinstance(t, dict) for t in a["check_costs"]),
        "FlakyRaceTestAllPassRule.result passes unit costs as plain numbers, where mlsysim returns a plain float; the "
        "table's assumption: costs are times, plain numbers are read as seconds and the cost is a Quantity in seconds "
        "(a stated unit would return an int for int costs: Function's stated rule)"),
}


def compared_calls(name: str) -> list[dict[str, Any]]:
    """The recorded calls of ``name`` compared with mlsysim: all but those a DIVERGENT entry names."""
    divergent = DIVERGENT.get(name, (lambda a: False, ""))[0]
    return [c for c in CALLS[name] if not divergent(c["arguments"])]


def _ref() -> Any:
    """mlsysim 0.3.0, imported when a test runs (collecting imports none of it: test_collection)."""
    import mlsysim

    return mlsysim


def decode(value: Any) -> Any:
    """A recorded argument as mlsysim passed it: a Quantity of mlsysim's registry (``mlsysim.Q_``), a tuple, a dict
    in its order, a float that is not finite, else the number, bool, string, None or list it is."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "magnitude" in value:
        return _ref().Q_(decode(value["magnitude"]), value["unit"])
    (tag, body), = value.items()
    forms = {"tuple": lambda b: tuple(decode(v) for v in b), "float": float,
             "dict": lambda b: {_key(decode(k)): decode(v) for k, v in b}}
    return forms[tag](body)


def arguments(call: dict[str, Any]) -> dict[str, Any]:
    """One recorded call's keyword arguments, decoded (a fresh copy each time: no side shares a list)."""
    return {arg: decode(value) for arg, value in call.items()}


def _key(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key


def _builtin(exc: BaseException) -> type[BaseException]:
    """The built-in exception class ``exc`` is an instance of, nearest first (pint's DimensionalityError: TypeError)."""
    return next(k for k in type(exc).__mro__ if k.__module__ == "builtins")


def check_call(name: str, call: dict[str, Any]) -> None:
    """Ours equals mlsysim's at one recorded call (or raises where mlsysim raises)."""
    try:
        getattr(_ref(), name)(**arguments(call))
    except REFUSALS:
        pass   # compare_call holds ours to a refusal
    except Exception as exc:
        with pytest.raises(_builtin(exc)):
            getattr(mlsysim_symbolic, name)(**arguments(call))
        return
    compare_call(name, arguments(call), arguments(call))


def test_counts_of_the_recorded_calls(capsys):
    """The file is mlsysim 0.3.0's, names only mlsysim's functions, and every recorded function is compared here or
    left out of the function face with a reason (NOT_PORTED)."""
    assert DATA["mlsysim"] == "0.3.0"
    surveyed = {n for names in FAMILIES.values() for n in names}
    assert set(DATA["recorded"]) | set(DATA["never_called"]) == surveyed
    assert not set(DATA["recorded"]) & set(DATA["never_called"])
    assert all(n in PORTED or n in NOT_PORTED for n in DATA["recorded"]), sorted(
        n for n in DATA["recorded"] if n not in PORTED and n not in NOT_PORTED)
    with capsys.disabled():
        print(f"\n  scenario calls recorded: {sum(DATA['recorded'].values())} to {len(DATA['recorded'])} functions; "
              f"{sum(DATA['distinct'].values())} distinct argument sets, {sum(map(len, CALLS.values()))} kept")
        print(f"  compared here: {len(COMPARED)} functions at {sum(len(compared_calls(n)) for n in COMPARED)} calls "
              f"(and {sum(len(CALLS[n]) - len(compared_calls(n)) for n in DIVERGENT)} calls of {len(DIVERGENT)} "
              f"functions held to their documented divergence); "
              f"not ported: {sorted(n for n in DATA['recorded'] if n not in PORTED)}")
        print(f"  called by no scenario: {len(DATA['never_called'])} functions "
              f"({sum(n in PORTED for n in DATA['never_called'])} of them ported)")


def differences(name: str, calls: list[dict[str, Any]]) -> list[str]:
    """Each call of ``calls`` where ours is not mlsysim's, described (an assertion or an error of ours)."""
    failures = []
    for call in calls:
        try:
            check_call(name, call["arguments"])
        except Exception as exc:   # AssertionError or ours raising: listed with the others, not instead of them
            failures.append(f"(first from {call['first_seen']}) {call['arguments']}: {type(exc).__name__}: {exc}")
    return failures


#: Recorded calls per function the README's command compares (the first ones mlsysim's scenarios made); the thorough
#: tier compares the rest.  A list argument of a new length is a new plan to build (calc_dense_*: 30 s for all of them).
FIRST = 4


@pytest.mark.parametrize("name", COMPARED)
def test_value_matches_mlsysim_at_scenario_arguments(name):
    """The first recorded calls of ``name`` but the documented divergences; every mismatch is reported, not only the
    first."""
    calls = compared_calls(name)[:FIRST]
    failures = differences(name, calls)
    assert not failures, f"{name}: {len(failures)} of {len(calls)} recorded calls differ:\n" + "\n".join(failures)


@pytest.mark.thorough
@pytest.mark.parametrize("name", [n for n in COMPARED if len(compared_calls(n)) > FIRST])
def test_value_matches_mlsysim_at_the_other_scenario_arguments(name):
    """The rest of the recorded calls of ``name`` (the thorough tier)."""
    calls = compared_calls(name)[FIRST:]
    failures = differences(name, calls)
    assert not failures, f"{name}: {len(failures)} of {len(calls)} recorded calls differ:\n" + "\n".join(failures)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=why, strict=True, raises=AssertionError))
                                  for n, (_, why) in sorted(DIVERGENT.items())])
def test_documented_divergence_still_differs(name):
    """The calls DIVERGENT names still differ from mlsysim (an expected failure, for the entry's reason); an entry
    that matches no recorded call, or a call of it that now agrees, fails outright (pytest.fail is not an
    AssertionError)."""
    matched = [c for c in CALLS[name] if DIVERGENT[name][0](c["arguments"])]
    if not matched:
        pytest.fail(f"{name}: the DIVERGENT entry matches none of the {len(CALLS[name])} recorded calls")
    failures = differences(name, matched)
    if len(failures) < len(matched):
        pytest.fail(f"{name}: {len(matched) - len(failures)} of the {len(matched)} calls DIVERGENT names agree with mlsysim")
    raise AssertionError(f"{name}: {len(failures)} calls differ:\n" + "\n".join(failures))
