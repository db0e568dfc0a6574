"""Reductions over an index's keys beyond sum and product: maximum, minimum, and labels over keys (argmax/argmin).

mlsysim computes these in Python (``max(d.values())``, ``min(d, key=d.get)``); here they are tree nodes.  The
values are checked against hand computation: 100 MWh on grids of 1.5, 750 and 400 g/kWh emit 0.15, 75 and
40 t, so the spread is 74.85 t, the cleanest grid is quebec and the dirtiest poland; d(spread)/d(energy) is
(750 - 1.5) g/kWh = 0.7485 t/MWh.
"""

from __future__ import annotations

import pytest

from mlsysim_symbolic import DerivationError
from mlsysim_symbolic.errors import FloatRangeError, InputError, UnknownKeyError
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


# --- relation inputs: earliest(w, relation) and reductions over related keys -----------------------------------------
#: A diamond a -> (b, c) -> d plus a lone e: by hand, with durations a 2, b 3, c 5, d 1, e 4 (seconds), the earliest
#: starts are a 0, b 2, c 2, d max(2 + 3, 2 + 5) = 7, e 0; finishes 2, 5, 7, 8, 4; the makespan 8 (a, c, d); the
#: successors of a are b and c, so a's free float is min(2, 2) - 2 = 0, b's is 7 - 5 = 2, c's 0; d and e have none.
GRAPH = {"summary": "tasks over a dependency graph", "inputs": {
    "durations": {"kind": "map", "index": "task", "symbol": "d", "unit": "s"},
    "after": {"kind": "relation", "index": "task", "inverse": "before"},
    "other_durations": {"kind": "map", "mirrors": "durations", "index": "other", "symbol": "d_o", "unit": "s"}},
    "outputs": {
        "start": {"symbol": "S", "unit": "s", "style": "dict", "equation": "earliest(d, after)"},
        "finish": {"symbol": "F", "unit": "s", "style": "dict", "equation": "S + d"},
        "makespan": {"unit": "s", "equation": "maximum(F, task)"},
        "other_start": {"symbol": "S_o", "unit": "s", "style": "dict", "equation": "earliest(d_o, after)"},
        "waited": {"unit": "s", "style": "dict", "equation": "sum(d, after)"},
        "longest_wait": {"unit": "s", "style": "dict", "keep": "waits", "equation": "maximum(d, after)"},
        "waits": {"kind": "predicate", "style": "dict", "equation": "sum(1, after) > 1/2"},
        "followed": {"kind": "predicate", "style": "dict", "equation": "sum(1, before) > 1/2"},
        "free_float": {"unit": "s", "style": "dict", "keep": "followed", "equation": "minimum(S_o - F, before)"}}}
DIAMOND = {"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"], "e": []}
DURATIONS = {"a": "2 s", "b": "3 s", "c": "5 s", "d": "1 s", "e": "4 s"}


@pytest.fixture(scope="module")
def graph_type():
    return scenario_class(ScenarioType.from_mapping("Graph", GRAPH))


def _seconds(values):
    return {k: v.to("s").magnitude for k, v in values.items()}


def test_earliest_start_is_the_forward_pass_by_hand(graph_type):
    s = graph_type(durations=DURATIONS, after=DIAMOND)
    assert _seconds(s.start) == {"a": 0, "b": 2, "c": 2, "d": 7, "e": 0}
    assert _seconds(s.finish) == {"a": 2, "b": 5, "c": 7, "d": 8, "e": 4}
    assert _seconds(s.other_start) == _seconds(s.start)
    assert s.makespan.to("s").magnitude == 8
    assert _seconds(s.waited) == {"a": 0, "b": 2, "c": 2, "d": 8, "e": 0}          # the predecessors' durations summed
    assert s.followed == {"a": True, "b": True, "c": True, "d": False, "e": False}
    assert _seconds(s.free_float) == {"a": 0, "b": 2, "c": 0}                        # over the successors (the inverse)
    assert _seconds(s.longest_wait) == {"b": 2, "c": 2, "d": 5}                      # kept where it waits for some
    with pytest.raises(UnknownKeyError, match="waits does not hold there"):
        s.planner.evaluate("longest_wait", "a")
    unkept = scenario_class(ScenarioType.from_mapping("Graph", {**GRAPH, "outputs": {
        "longest_wait": {"unit": "s", "style": "dict", "equation": "maximum(d, after)"}}}))(durations=DURATIONS, after=DIAMOND)
    assert unkept.planner.evaluate("longest_wait", "d").to("s").magnitude == 5
    with pytest.raises(FloatRangeError, match=r"longest_wait\['a'\] is not a number"):   # the largest of no term
        unkept.planner.evaluate("longest_wait", "a")


def test_earliest_differentiates_through_the_critical_path(graph_type):
    """d makespan / d durations[x] is 1 on the critical path a, c, d and 0 off it (b, e)."""
    s = graph_type(durations=DURATIONS, after=DIAMOND)
    slopes = {str(e.symbol): e.derivative_value.to("").magnitude for e in s.elasticities("makespan")}
    assert slopes == {"d['a']": 1, "d['c']": 1, "d['d']": 1, "d['b']": 0, "d['e']": 0}


def test_another_graph_over_the_same_keys_gets_its_own_plan(graph_type):
    """The relation is part of a plan's signature: the chain a -> b -> c -> d -> e ends at 2 + 3 + 5 + 1 + 4 = 15."""
    assert graph_type(durations=DURATIONS, after=DIAMOND).makespan.to("s").magnitude == 8
    chain = {"a": [], "b": ["a"], "c": ["b"], "d": ["c"], "e": ["d"]}
    assert graph_type(durations=DURATIONS, after=chain).makespan.to("s").magnitude == 15
    assert graph_type(durations=DURATIONS, after={"b": ["a"]}).makespan.to("s").magnitude == 5   # unlisted: no predecessor


@pytest.mark.parametrize(("after", "message"), [
    ({"a": ["b"], "b": []}, r"after\['a'\] lists 'b', which is not before 'a' among the task keys: the keys must be in "
                            "topological order"),
    ({"a": [], "b": ["c"], "c": ["b"]}, r"after\['b'\] lists 'c', which is not before 'b'"),     # a cycle
    ({"a": ["a"]}, r"after\['a'\] lists 'a', which is not before 'a'"),                         # a self-loop
    ({"a": [], "z": ["a"]}, r"after names 'z', which is not a key of task"),
    ({"a": [], "b": ["z"]}, r"after\['b'\] names 'z', which is not a key of task"),
])
def test_a_relation_out_of_order_with_a_cycle_or_unknown_keys_is_refused(graph_type, after, message):
    with pytest.raises(InputError, match=message):
        graph_type(durations={"a": "1 s", "b": "2 s", "c": "3 s"}, after=after)


def test_relation_reductions_print_and_are_refused_where_they_mean_nothing(graph_type):
    s = graph_type(durations=DURATIONS, after=DIAMOND)
    assert s.tex.equation("start") == r"S = \operatorname{earliest}_{\text{after}}\left(d\right)"
    assert s.tex.equation("free_float") == r"free_{float} = \min_{\text{before}} \left(S_{o} - F\right)"
    assert s.tex.equation("waited") == r"waited = \sum_{\text{after}} d"
    bad = {**GRAPH, "outputs": {"x": {"unit": "s", "equation": "earliest(d, durations)"}}}
    with pytest.raises(DerivationError, match="'durations' is not a relation input"):
        ScenarioType.from_mapping("Bad", bad)
    bad = {**GRAPH, "outputs": {"x": {"unit": "1", "equation": "prod(1, after)"}}}
    with pytest.raises(DerivationError, match="only sum, maximum and minimum"):
        ScenarioType.from_mapping("Bad", bad)
    bad = {**GRAPH, "outputs": {"x": {"unit": "s", "equation": "earliest(d * sum(d_o, other), after)"}}}
    with pytest.raises(DerivationError, match="without a reduction inside"):
        ScenarioType.from_mapping("Bad", bad)
    with pytest.raises(InputError, match="after: expected a mapping of each key to a list of keys"):
        graph_type(durations=DURATIONS, after=["a", "b"])
