"""A table of scenarios read for one output (``kind = "scenarios"``) and an index whose keys two inputs share out
(``some_keys = true``): mlsysim_symbolic/spec/keyed_scenarios.py, against values computed by hand."""

from __future__ import annotations

import math

import pytest

from mlsysim_symbolic.errors import DerivationError, InputError
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import ScenarioType

#: A device drawing P watts for t seconds: E = P t.
LAMP = {"summary": "energy of one run", "inputs": {"power": {"symbol": "P", "unit": "W"}, "time": {"symbol": "t", "unit": "s"}},
        "outputs": {"energy": {"symbol": "E_run", "unit": "J", "equation": "P * t"}}}

#: Stated anchors and runs in one table by tier; span(low, high) through mirrors of both under a second index.
TIERS = {"summary": "energy by tier", "inputs": {
    "anchors": {"kind": "map", "index": "low", "some_keys": True, "symbol": "a", "unit": "J"},
    "runs": {"kind": "scenarios", "type": "Lamp", "output": "energy", "index": "low", "some_keys": True, "symbol": "E",
             "unit": "J"},
    "anchors_high": {"kind": "map", "mirrors": "anchors", "index": "high", "some_keys": True, "symbol": "a_h", "unit": "J"},
    "runs_high": {"kind": "scenarios", "type": "Lamp", "output": "energy", "mirrors": "runs", "index": "high",
                  "some_keys": True, "symbol": "E_h", "unit": "J"}},
    "outputs": {"energies": {"unit": "J", "style": "dict", "equation": "a + E"},
                "total": {"unit": "J", "equation": "sum(a + E, low)"},
                "span": {"unit": "1", "equation": "(a_h + E_h) / (a + E)"}}}


def tiers_type(raw=TIERS):
    lamp = ScenarioType.from_mapping("Lamp", LAMP)
    return ScenarioType.from_mapping("Tiers", raw, types={"Lamp": lamp}), lamp


def test_runs_and_anchors_make_one_table_in_declared_order():
    """By hand: runs of 2 W x 3 s = 6 J and 5 W x 0.1 s = 0.5 J after the anchors 10 uJ and 1 kJ; the total is
    1006.50001 J; span(x, llm) = 1000 / 6, span(kws, llm) = 1e8."""
    t, lamp = tiers_type()
    one = scenario_class(lamp)(power="2 W", time="3 s")
    s = scenario_class(t)(anchors={"kws": "10 uJ", "llm": "1 kJ"}, runs={"x": one, "y": {"power": 5, "time": 0.1}})
    assert list(s.energies) == ["kws", "llm", "x", "y"]
    assert [v.to("J").magnitude for v in s.energies.values()] == pytest.approx([1e-5, 1000, 6, 0.5], rel=1e-15)
    assert math.isclose(s.total.to("J").magnitude, 1006.50001)
    assert math.isclose(float(s.span("x", "llm")), 1000 / 6) and math.isclose(float(s.span(low="kws", high="llm")), 1e8)
    assert s.runs["x"] is one and dict(s.runs["y"]) == {"power": 5, "time": 0.1}   # as given
    assert s.variant(runs={"x": {"power": 4, "time": 3}}).energies["x"].to("J").magnitude == 12   # the mirror follows


def test_a_key_given_twice_is_refused():
    t, _ = tiers_type()
    with pytest.raises(InputError, match="the key 'x' is given by anchors too"):
        scenario_class(t)(anchors={"x": "1 J"}, runs={"x": {"power": 1, "time": 1}})


def test_a_run_of_another_type_is_refused():
    t, _ = tiers_type()
    with pytest.raises(InputError, match="expected a Lamp scenario"):
        scenario_class(t)(anchors={"k": "1 J"}, runs={"x": 3})


@pytest.mark.parametrize(("change", "words"), [
    ({"runs": {"kind": "scenarios", "type": "Lamp", "index": "low", "some_keys": True, "symbol": "E", "unit": "J"}},
     "names its scenario type and the output it reads"),
    ({"runs": {"kind": "scenarios", "type": "Lamp", "output": "energy", "index": "low", "symbol": "E", "unit": "J"}},
     "all give some of its keys"),
    ({"runs": {"kind": "scenarios", "type": "Lamp", "output": "energy", "index": "low", "some_keys": True, "symbol": "E",
               "unit": "s"}}, r"Lamp.energy is in J and s: they disagree in dimension"),
    ({"runs": {"kind": "scenarios", "type": "Lamp", "output": "heat", "index": "low", "some_keys": True, "symbol": "E",
               "unit": "J"}}, "Lamp has no output 'heat'"),
    ({"runs_high": {"kind": "scenarios", "type": "Lamp", "output": "power", "mirrors": "runs", "index": "high",
                    "some_keys": True, "symbol": "E_h", "unit": "J"}}, "type, output"),
])
def test_declarations_are_checked_at_load(change, words):
    with pytest.raises(DerivationError, match=words):
        tiers_type({**TIERS, "inputs": {**TIERS["inputs"], **change}})


def test_the_span_is_dimensionless_by_the_dimension_check():
    bad = {**TIERS, "outputs": {**TIERS["outputs"], "span": {"unit": "1", "equation": "(a_h + E_h) * (a + E)"}}}
    with pytest.raises(DerivationError, match="declared unit"):
        tiers_type(bad)
