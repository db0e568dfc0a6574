"""Reductions over an index's keys beyond sum and product: maximum, minimum, and labels over keys (argmax/argmin).

mlsysim computes these in Python (``max(d.values())``, ``min(d, key=d.get)``); here they are tree nodes.  The
values are checked against hand computation: 100 MWh on grids of 1.5, 750 and 400 g/kWh emit 0.15, 75 and
40 t, so the spread is 74.85 t, the cleanest grid is quebec and the dirtiest poland; d(spread)/d(energy) is
(750 - 1.5) g/kWh = 0.7485 t/MWh.
"""

from __future__ import annotations

import pytest

from mlsysim_symbolic import DerivationError
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import ScenarioType

GRIDS = {"summary": "one energy placed on named grids", "inputs": {
    "energy": {"symbol": "E", "unit": "MWh"},
    "intensity": {"kind": "map", "index": "grid", "symbol": "c", "unit": "g/kWh"}},
    "outputs": {
        "emissions": {"unit": "t", "equation": "E * c", "style": "dict"},
        "spread": {"unit": "t", "equation": "maximum(E * c, grid) - minimum(E * c, grid)"},
        "lowest": {"kind": "label", "over": "grid", "term": "c", "rule": "argmin"},
        "highest": {"kind": "label", "over": "grid", "term": "E * c"}}}
INTENSITY = {"quebec": "1.5 g/kWh", "poland": "750 g/kWh", "texas": "400 g/kWh"}


@pytest.fixture(scope="module")
def grids():
    return scenario_class(ScenarioType.from_mapping("Grids", GRIDS))(energy="100 MWh", intensity=INTENSITY)


def test_maximum_minimum_and_labels_over_keys(grids):
    assert {k: v.to("t").magnitude for k, v in grids.emissions.items()} == pytest.approx({"quebec": 0.15, "poland": 75, "texas": 40})
    assert grids.spread.to("t").magnitude == pytest.approx(74.85, rel=1e-12)
    assert (grids.lowest, grids.highest) == ("quebec", "poland")
    assert grids.type.output("lowest").over == "grid"


def test_they_differentiate_print_and_sweep(grids):
    slope = [e for e in grids.elasticities("spread") if e.input == "energy"][0]
    assert slope.derivative_value.to("t/MWh").magnitude == pytest.approx(0.7485, rel=1e-12)
    assert grids.tex.equation("spread") == r"spread = \max_{\text{grid}} E c - \min_{\text{grid}} E c"
    assert grids.tex.equation("lowest") == r"\mathrm{lowest} = \operatorname*{arg\,min}_{\text{grid}} c"
    swept = grids.sweep("highest", energy=[1, 10, 100])
    assert list(swept.values) == ["poland"] * 3
    assert "poland at 3" in repr(swept)


def test_ties_go_to_the_earlier_key_and_a_single_key_wins():
    cls = scenario_class(ScenarioType.from_mapping("Grids", GRIDS))
    tied = cls(energy="1 MWh", intensity={"a": "5 g/kWh", "b": "5 g/kWh", "c": "9 g/kWh"})
    assert (tied.lowest, tied.highest) == ("a", "c")
    assert cls(energy="1 MWh", intensity={"only": "5 g/kWh"}).lowest == "only"


@pytest.mark.parametrize(("outputs", "message"), [
    ({"x": {"kind": "label", "over": "nope", "term": "c"}}, "over = 'nope' is not an index"),
    ({"x": {"kind": "label", "over": "grid", "term": "c", "cases": {"a": "c"}}}, "without 'cases'"),
    ({"x": {"kind": "label", "over": "grid", "term": "c", "rule": "median"}}, "rule must be one of"),
    ({"x": {"unit": "t", "equation": "maximum(E * c, grid) + E"}}, "dimension"),
    ({"x": {"unit": "t", "equation": "maximum(E * c, zone)"}}, "'zone' is not an index"),
])
def test_bad_declarations_are_refused(outputs, message):
    with pytest.raises(DerivationError, match=message):
        ScenarioType.from_mapping("Bad", {**GRIDS, "outputs": outputs})


@pytest.mark.parametrize("equation", ["sum(sum_upto(x, grid), grid)", "sum(sum_upto(1, grid) * x, grid)",
                                      "maximum(sum_upto(x, grid), grid)"])
def test_a_positional_reduction_inside_another_over_its_index_is_refused(equation):
    """sum(sum_upto(1, k), k) over three keys means 1 + 2 + 3 = 6; it came out keyed by k (1, 2, 3: the outer sum
    left out), a silent wrong number, so it is refused at load."""
    data = {"inputs": {"x": {"kind": "map", "index": "grid", "symbol": "x", "unit": "1"}},
            "outputs": {"o": {"unit": "1", "equation": equation}}}
    with pytest.raises(DerivationError, match="contains a \\*_upto reduction over 'grid'"):
        ScenarioType.from_mapping("Nested", data)


def test_a_plain_reduction_inside_another_over_the_same_index_is_exact():
    """sum(x * sum(x, k), k) = (1 + 2 + 4)**2 = 49 by hand."""
    from mlsysim_symbolic.scenario import scenario_class

    data = {"inputs": {"x": {"kind": "map", "index": "grid", "symbol": "x", "unit": "1"}},
            "outputs": {"o": {"unit": "1", "equation": "sum(x * sum(x, grid), grid)"}}}
    s = scenario_class(ScenarioType.from_mapping("Nested", data))(x={"a": 1, "b": 2, "c": 4})
    assert s.o.magnitude == 49


@pytest.mark.parametrize(("equation", "expected"), [
    ("prod(c, grid)", 1 * 3 * 6),                 # running sums 1, 3, 6 (of 1, 2, 3) reduced by a product
    ("sum(x * c, grid)", 1 * 1 + 2 * 3 + 3 * 6),  # each key's term at its own running sum
    ("maximum(c, grid)", 6),
])
def test_a_positional_output_reduced_through_an_output_keyed_by_its_index_is_exact(equation, expected):
    """What the refusal above points to: an output keyed by the index (c = sum_upto(x, grid)) reduced by a plain
    reduction over that index.  Each term takes its key's position; before, the position leaf was left free and
    the value was refused as needing a key.  By hand with x = 1, 2, 3.  (A bare sum(c, grid) of a sum_upto output is
    still refused as needing a key: SymPy folds the two sums into one node of two limits.)"""
    data = {"inputs": {"x": {"kind": "map", "index": "grid", "symbol": "x", "unit": "1"}},
            "outputs": {"cum": {"symbol": "c", "unit": "1", "equation": "sum_upto(x, grid)"},
                        "o": {"unit": "1", "equation": equation}}}
    s = scenario_class(ScenarioType.from_mapping("Through", data))(x={"a": 1, "b": 2, "c": 3})
    assert float(s.o.magnitude) == expected
    assert [float(s.cum(k).magnitude) for k in "abc"] == [1, 3, 6]


def test_a_list_style_output_is_the_values_in_key_order():
    """``style = "list"``: mlsysim's list of one value per key (BinShareShiftScenario.terms), read as a property in the
    order the keys were given: 100 MWh at 1.5, 750 and 400 g/kWh emit 0.15, 75 and 40 t."""
    data = {**GRIDS, "outputs": {**GRIDS["outputs"], "emission_list": {"unit": "t", "equation": "E * c", "style": "list"}}}
    s = scenario_class(ScenarioType.from_mapping("Grids", data))(energy="100 MWh", intensity=INTENSITY)
    assert isinstance(s.emission_list, list)
    assert [v.to("t").magnitude for v in s.emission_list] == pytest.approx([0.15, 75, 40], rel=1e-12)
    assert [v.to("t").magnitude for v in s.emission_list] == [v.to("t").magnitude for v in s.emissions.values()]


@pytest.mark.parametrize("equation", ["E * y", "E * c + x"])
def test_a_list_style_output_needs_exactly_one_index(equation):
    """No index (a scalar) or two (a table) has no list of one value per key: refused at load, not flattened."""
    data = {**GRIDS, "inputs": {**GRIDS["inputs"], "x": {"kind": "map", "index": "zone", "symbol": "x", "unit": "t"},
                                "y": {"symbol": "y", "unit": "t/MWh"}},
            "outputs": {"o": {"unit": "t", "equation": equation, "style": "list"}}}
    with pytest.raises(DerivationError, match="style list shows one value per key of one index"):
        ScenarioType.from_mapping("Bad", data)
