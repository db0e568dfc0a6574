"""The key input (``kind = "key"``), the unit a scenario states (``unit = "stated"``) and an input closed at infinity
(``domain = "[1, inf]"``): mlsysim_symbolic/spec/stated.py, against values computed by hand."""

from __future__ import annotations

import math

import pytest

from mlsysim_symbolic.errors import DerivationError, InputError
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import ScenarioType
from mlsysim_symbolic.units import parse_unit

#: A sequential path, one stage made s times faster (Amdahl's law over a map in a unit the scenario states).
PATH = {"summary": "one stage of a path made faster", "inputs": {
    "stages": {"kind": "map", "index": "name", "symbol": "t", "unit": "stated", "domain": "[0, inf)"},
    "stage": {"kind": "key", "of": "stages", "index": "name", "symbol": "e"},
    "speedup": {"symbol": "s", "unit": "1", "domain": "[1, inf]"}},
    "outputs": {"total": {"symbol": "T", "unit": "stated", "equation": "sum(t, name)"},
                "picked": {"symbol": "T_k", "unit": "stated", "equation": "sum(e * t, name)"},
                "after": {"unit": "stated", "equation": "T - T_k + T_k / s"},
                "per_stage": {"unit": "1/stated", "equation": "1 / T"},
                "share": {"unit": "1", "equation": "T_k / T"},
                "gain": {"unit": "1", "equation": "T / (T - T_k + T_k / s)"}}}


def path(**inputs):
    return scenario_class(ScenarioType.from_mapping("Path", PATH))(**inputs)


def test_the_key_picks_one_value_and_the_stated_unit_carries_through():
    """By hand: 60 + 45 + 25 = 130 ms; the model's 45 ms at 3x is 15 ms, so 85 + 15 = 100 ms, a gain of 1.3."""
    s = path(stages={"pre": "60 ms", "model": "45 ms", "post": "25 ms"}, stage="model", speedup=3)
    assert s.total.to("ms").magnitude == 130 and s.total.units == parse_unit("ms")
    assert s.picked.to("ms").magnitude == 45
    assert math.isclose(s.after.to("ms").magnitude, 100)
    assert math.isclose(s.per_stage.to("1/s").magnitude, 1 / 0.130)
    assert math.isclose(float(s.share), 45 / 130) and math.isclose(float(s.gain), 1.3)
    assert s.stage == "model"
    assert s.variant(stage="pre").picked.to("ms").magnitude == 60      # another key: another value


def test_the_first_value_gives_the_unit_and_the_others_are_converted_to_it():
    """0.06 s + 45 ms + 25000 us is 130 ms, shown in seconds (the first value's unit); percent and plain shares stay
    what they are: 90 % + 10 % is 100 %, 0.2 + 0.8 is 1."""
    s = path(stages={"pre": "0.06 s", "model": "45 ms", "post": "25000 us"}, stage="model", speedup=3)
    assert s.total.units == parse_unit("s") and math.isclose(s.total.magnitude, 0.130)
    shares = path(stages={"pre": "90 %", "inference": "10 %"}, stage="inference", speedup=10)
    assert shares.total.units == parse_unit("%") and math.isclose(shares.total.magnitude, 100)
    assert math.isclose(shares.after.magnitude, 91)                    # 90 + 10/10
    plain = path(stages={"model": 0.2, "rest": 0.8}, stage="model", speedup=2)
    assert plain.total.units == plain.total.to("").units and math.isclose(plain.total.magnitude, 1.0)


def test_an_infinite_speedup_is_the_limit():
    """s = inf: the stage takes no time, so 0.8 is left of 1 and the gain is 1 / 0.8 = 1.25."""
    s = path(stages={"model": 0.2, "rest": 0.8}, stage="model", speedup=math.inf)
    assert s.after.magnitude == 0.8 and s.gain.magnitude == 1.25
    open_type = ScenarioType.from_mapping("Open", {**PATH, "inputs": {**PATH["inputs"], "speedup": {"symbol": "s", "unit": "1"}}})
    with pytest.raises(InputError, match="finite"):                      # (0, inf), open: inf is refused as before
        scenario_class(open_type)(stages={"a": 1}, stage="a", speedup=math.inf)


@pytest.mark.parametrize(("inputs", "words"), [
    ({"stages": {"a": "1 ms", "b": "2 B"}, "stage": "a"}, r"stages\['b'\]: 2 B is not in the dimension of stages\['a'\]"),
    ({"stages": {"a": "1 ms", "b": "2 ms"}, "stage": "c"}, r"stage: 'c' is not a key of stages \(its keys: 'a', 'b'\)"),
    ({"stages": {"a": "1 ms", "b": "2 ms"}, "stage": 1}, r"stage: 1 is not a key of stages"),
    ({"stages": {"a": "-1 ms"}, "stage": "a"}, r"expected a value in \[0, inf\)"),
])
def test_wrong_values_are_refused_by_name(inputs, words):
    with pytest.raises(InputError, match=words):
        path(speedup=2, **inputs)


def test_a_variant_that_drops_the_named_key_is_refused():
    s = path(stages={"a": "1 ms", "b": "2 ms"}, stage="a", speedup=2)
    with pytest.raises(InputError, match="'a' is not a key of stages"):
        s.variant(stages={"b": "2 ms", "c": "3 ms"})


@pytest.mark.parametrize(("change", "words"), [
    ({"stage": {"kind": "key", "of": "nothing", "index": "name", "symbol": "e"}}, "of 'nothing' must name a map or list"),
    ({"stage": {"kind": "key", "of": "stages", "index": "other", "symbol": "e"}}, "must be the index of stages"),
    ({"stage": {"kind": "key", "of": "stages", "index": "name", "symbol": "e", "unit": "s"}}, "unknown field"),
    ({"speedup": {"symbol": "s", "unit": "stated"}}, "belongs to a map or list input"),
    ({"stages": {"kind": "map", "index": "name", "symbol": "t", "unit": "stated*s"}}, "disagree in dimension"),
    ({"again": {"kind": "map", "index": "name", "symbol": "u", "unit": "stated"}}, "one input of a type states its unit"),
])
def test_declarations_are_checked_at_load(change, words):
    with pytest.raises(DerivationError, match=words):
        ScenarioType.from_mapping("Path", {**PATH, "inputs": {**PATH["inputs"], **change}})


def test_the_dimension_check_holds_the_law_homogeneous_in_the_stated_unit():
    bad = {**PATH, "outputs": {**PATH["outputs"], "share": {"unit": "1", "equation": "T_k + T"}}}
    with pytest.raises(DerivationError, match="declared unit"):
        ScenarioType.from_mapping("Path", bad)
