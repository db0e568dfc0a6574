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
    assert grids.tex.equation("spread") == r"\mathrm{spread} = \max_{\text{grid}} E c - \min_{\text{grid}} E c"
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


def test_one_task_keeps_every_keyed_output_a_dict(graph_type):
    """A graph of one task (by hand: it starts at 0, finishes at its 2 s, waits for none, is followed by none): each
    output keyed by the task is a one-key dict, as with more keys. Written out over one key, a reduction leaves no
    position leaf, and the plan once took the output for an unkeyed one (a bare value, and an IndexError for the
    kept free float)."""
    s = graph_type(durations={"a": "2 s"}, after={"a": []})
    assert _seconds(s.start) == {"a": 0} and _seconds(s.other_start) == {"a": 0}
    assert _seconds(s.finish) == {"a": 2}
    assert _seconds(s.waited) == {"a": 0}
    assert s.followed == {"a": False} and s.waits == {"a": False}
    assert s.free_float == {} and s.longest_wait == {}   # kept only where followed / waiting: nowhere
    assert s.makespan.to("s").magnitude == 2
    assert s.planner.evaluate("start", "a").to("s").magnitude == 0


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
    assert s.tex.equation("free_float") == r"\mathrm{free\_float} = \min_{\text{before}} \left(S_{o} - F\right)"
    assert s.tex.equation("waited") == r"\mathrm{waited} = \sum_{\text{after}} d"
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


# --- first_fit_decreasing(w, C, k): bin loads of first-fit decreasing --------------------------------------------------
#: Sizes a 5, b 7, c 5, d 3, e 4 GB into 10 GB bins, by hand: largest first (b 7, a 5, c 5, e 4, d 3; the tie a, c in
#: key order), b opens bin 1 (7), a opens bin 2 (5), c fits bin 2 (10), e fits neither (11, 14) and opens bin 3 (4), d
#: fits bin 1 (10): loads 10, 10, 4 at the keys in positions 1, 2, 3 (a, b, c), bins 4 and 5 empty, 3 bins used.
PACK = {"summary": "sizes packed first-fit decreasing", "inputs": {
    "sizes": {"kind": "map", "index": "item", "symbol": "w", "unit": "GB"},
    "capacity": {"symbol": "C", "unit": "GB"}},
    "outputs": {
        "fits": {"kind": "predicate", "equation": "maximum(w, item) <= C"},
        "loads": {"symbol": "L", "unit": "GB", "style": "dict", "keep": "used", "refused_unless": "fits",
                  "equation": "first_fit_decreasing(w, C, item)"},
        "all_loads": {"unit": "GB", "style": "dict", "equation": "first_fit_decreasing(w, C, item)"},
        "used": {"kind": "predicate", "style": "dict", "equation": "L > 0"},
        "bins": {"symbol": "B", "unit": "1", "equation": "sum(ceil(L / C), item)"},
        "stored": {"unit": "GB", "equation": "sum(L, item)"}}}
SIZES = {"a": "5 GB", "b": "7 GB", "c": "5 GB", "d": "3 GB", "e": "4 GB"}


@pytest.fixture(scope="module")
def pack_type():
    return scenario_class(ScenarioType.from_mapping("Pack", PACK))


def _gb(values):
    return {k: v.to("GB").magnitude for k, v in values.items()}


def test_first_fit_decreasing_is_the_placement_by_hand(pack_type):
    s = pack_type(sizes=SIZES, capacity="10 GB")
    assert _gb(s.loads) == {"a": 10, "b": 10, "c": 4}
    assert _gb(s.all_loads) == {"a": 10, "b": 10, "c": 4, "d": 0, "e": 0}
    assert s.bins == 3 and s.stored.to("GB").magnitude == 24   # every size stored once: 5 + 7 + 5 + 3 + 4
    # bins of 12 GB: 7 + 5 fill bin 1, then 5 + 4 + 3 fill bin 2: two bins
    assert _gb(pack_type(sizes=SIZES, capacity="12 GB").loads) == {"a": 12, "b": 12}
    # every size alone: a capacity equal to the largest, 7, gives 7 | 5 | 5 | 4 + 3 = 7 -> bins 7, 5, 5, 7
    assert _gb(pack_type(sizes=SIZES, capacity="7 GB").loads) == {"a": 7, "b": 5, "c": 5, "d": 7}
    one = pack_type(sizes={"a": "3 GB"}, capacity="10 GB")   # one key: still a dict keyed by it, one bin
    assert _gb(one.loads) == {"a": 3} and one.bins == 1


def test_first_fit_decreasing_differentiates_as_the_placement_does(pack_type):
    """Each load moves one for one with the sizes its bin holds and not with the others or the capacity: bin 1 holds
    b and d, so d L_1 / d w_b = d L_1 / d w_d = 1 and 0 in a, c, e (the derivative is first_fit_share)."""
    import sympy

    from mlsysim_symbolic.packing import first_fit_load, first_fit_share

    C, *w = sympy.symbols("C w_a w_b w_c w_d w_e", positive=True)
    values = {C: 10, w[0]: 5, w[1]: 7, w[2]: 5, w[3]: 3, w[4]: 4}
    bin1 = first_fit_load(1, C, *w)
    assert [sympy.diff(bin1, x).subs(values) for x in w] == [0, 1, 0, 1, 0]
    assert sympy.diff(bin1, C) == 0
    assert sympy.diff(first_fit_share(1, 2, C, *w), w[1]) == 0
    assert bin1.subs(values) == 10 and float(bin1.subs(values)) == 10.0
    assert sympy.latex(first_fit_load(2, C, w[0], w[1])) == r"\operatorname{FFD}_{2}\left(w_{a}, w_{b};\ C\right)"
    s = pack_type(sizes=SIZES, capacity="10 GB")
    slopes = {str(e.symbol): e.derivative_value.to("").magnitude for e in s.elasticities("stored")}
    assert slopes == {"w['a']": 1, "w['b']": 1, "w['c']": 1, "w['d']": 1, "w['e']": 1, "C": 0}


def test_first_fit_decreasing_prints_and_refuses_what_it_cannot_place(pack_type):
    s = pack_type(sizes=SIZES, capacity="10 GB")
    assert s.tex.equation("loads") == r"L = \operatorname{FFD}_{\text{item}}\left(w;\ C\right)"
    over = pack_type(sizes={**SIZES, "f": "11 GB"}, capacity="10 GB")
    with pytest.raises(InputError, match="loads is refused: fits does not hold"):   # never an empty dict
        _ = over.loads
    with pytest.raises(FloatRangeError, match="is not a number"):   # unguarded: a size above C fits no bin
        over.planner.evaluate("all_loads", "a")


@pytest.mark.parametrize(("equation", "message"), [
    ("first_fit_decreasing(w, item)", r"takes the sizes, the capacity and an index name"),
    ("first_fit_decreasing(w, C, sizes)", "'sizes' is not an index"),
    ("first_fit_decreasing(w, w, item)", "the capacity C must be a term of inputs without keys"),
    ("first_fit_decreasing(w * sum(w, item), C, item)", "without a reduction inside"),
    ("first_fit_decreasing(C, C, item)", "w must be a term of inputs keyed by 'item'"),
])
def test_bad_first_fit_declarations_are_refused(equation, message):
    bad = {**PACK, "outputs": {"x": {"unit": "GB", "style": "dict", "equation": equation}}}
    with pytest.raises(DerivationError, match=message):
        ScenarioType.from_mapping("Bad", bad)


def test_first_fit_sizes_and_capacity_share_a_dimension():
    bad = {**PACK, "inputs": {**PACK["inputs"], "capacity": {"symbol": "C", "unit": "s"}},
           "outputs": {"x": {"unit": "GB", "style": "dict", "equation": "first_fit_decreasing(w, C, item)"}}}
    with pytest.raises(DerivationError, match="compares sizes with the capacity"):
        ScenarioType.from_mapping("Bad", bad)
