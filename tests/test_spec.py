"""Tests that mirror ``mlsysim_symbolic/spec/`` (issue 31): the input kinds of ``kinds.py`` (read, bind, update), the
readers of ``reader.py``, the frozen data of ``definitions.py``, ``ScenarioType`` of ``types.py`` and its queries, the
reserved names of ``surface.py``, ``OUTPUT_KINDS`` and ``RESULT_SOURCES``.

Types are small and built here with ``ScenarioType.from_mapping`` (as tests/test_engine.py does); each expected value
is computed by hand in a comment, or taken from mlsysim 0.3.0.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest
import sympy
from reference.lazy import reference

from mlsysim_symbolic.errors import DerivationError, InputError, UnknownNameError
from mlsysim_symbolic.output_ref import OutputRef
from mlsysim_symbolic.registry import Workload, workloads
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import (
    ACCESSORS,
    CORE_MEMBERS,
    KINDS,
    OUTPUT_KINDS,
    RESERVED,
    Bound,
    Reference,
    ScenarioType,
    clash,
    kind_of,
)
from mlsysim_symbolic.spec.definitions import ReadOnlyDict
from mlsysim_symbolic.spec.kinds import read_input
from mlsysim_symbolic.spec.reader import VARIABLE_FIELDS, check_fields, check_name, read_table
from mlsysim_symbolic.spec.result_sources import RESULT_SOURCES, source_named
from mlsysim_symbolic.units import ureg

mlsysim = reference("mlsysim")   # imported when a test first reads it: collecting imports nothing of mlsysim

#: One input of each common kind, a choice-picked output, a predicate, a label and a result view.
SPEC = {"summary": "a small type for the spec tests", "inputs": {
    "n": {"symbol": "n", "unit": "1"},
    "t": {"symbol": "t", "unit": "s", "default": "2 s"},
    "limit": {"symbol": "L", "unit": "s", "default": "1 s"},
    "b": {"symbol": "b", "unit": "B/param", "default": "2 B/param"},
    "mode": {"kind": "choice", "options": ["fast", "slow"], "default": "fast"},
    "on": {"kind": "flag", "symbol": "f", "default": False},
    "w": {"kind": "map", "index": "item", "symbol": "w", "unit": "GB"},
    "l": {"kind": "list", "index": "step", "symbol": "l", "unit": "ms"},
    "model": {"kind": "workload", "symbols": {"P": {"attribute": "parameters"}}}},
    "outputs": {
        "total": {"unit": "GB", "equation": "n * sum(w, item)"},
        "time": {"unit": "ms", "choice": "mode", "equation": {"fast": "t", "slow": "2 * t"}},
        "late": {"kind": "predicate", "equation": "time >= L"},
        "which": {"kind": "label", "cases": {"time": "time", "limit": "L"}, "rule": "argmax"},
        "bytes": {"unit": "B", "equation": "P * b"}},
    "result": {"name": "SpecResult", "fields": ["n", "total", "time"]}}
T = ScenarioType.from_mapping("Spec", SPEC)
GIVEN = {"n": 3, "w": {"a": "2 GB", "b": "5 GB"}, "l": ["1 ms", "3 ms"], "model": "GPT2"}


def sym(name: str) -> sympy.Symbol:
    """The leaf of ``T`` called ``name``."""
    found = [s for s in T.leaves if s.name == name]
    assert len(found) == 1, name
    return found[0]


# ---------------------------------------------------------------------- kinds.py: read, bind, update
def test_kinds_table_holds_the_kinds_declarations_name():
    for name in ("quantity", "flag", "choice", "workload", "workloads", "hardware", "grid", "map", "list", "scenario"):
        assert KINDS[name].name == name and kind_of(name) is KINDS[name]


@pytest.mark.parametrize("value, declared_ms, base_s", [
    ("1.5 s", 1500, 1.5),        # 1.5 s = 1500 ms
    ("250 us", 0.25, 250e-6),    # 250 µs = 0.25 ms
    (7, 7, 7e-3),                # a bare number is in the declared unit: 7 ms
])
def test_quantity_kind(value, declared_ms, base_s):
    spec = KINDS["quantity"].read("t", {"symbol": "t", "unit": "ms"})
    assert spec.kind == "quantity" and spec.required and spec.variable.unit == ureg.Unit("ms")
    bound = Bound()
    KINDS["quantity"].bind(spec, value, bound)
    assert bound.values["t"].to("ms").magnitude == pytest.approx(declared_ms)
    assert bound.scalars[spec.variable.symbol] == pytest.approx(base_s)


def test_quantity_kind_unset_and_refused():
    kind = KINDS["quantity"]
    spec = kind.read("t", {"symbol": "t", "unit": "ms", "default": "3 ms"})
    assert not spec.required and spec.default == "3 ms"
    bound = Bound()
    kind.bind(spec, None, bound)
    assert bound.values["t"] is None and bound.scalars[spec.variable.symbol] is None
    with pytest.raises(InputError):
        kind.bind(spec, "3 GB", Bound())            # not a time
    with pytest.raises(InputError):
        kind.bind(spec, "-1 ms", Bound())           # outside (0, inf)
    with pytest.raises(InputError, match="symbl"):
        kind.read("t", {"symbl": "t", "unit": "ms"})
    with pytest.raises(InputError):
        kind.read("t", {"unit": "ms", "default": "3 GB"})   # a default in the wrong unit
    assert kind.update(spec, "3 ms", "4 ms") == "4 ms"       # a quantity change replaces the value


@pytest.mark.parametrize("value, leaf", [(True, 1), (False, 0)])
def test_flag_kind(value, leaf):
    spec = KINDS["flag"].read("on", {"kind": "flag", "symbol": "f", "default": False})
    bound = Bound()
    KINDS["flag"].bind(spec, value, bound)
    assert bound.values["on"] is value and bound.scalars[spec.variable.symbol] == leaf


@pytest.mark.parametrize("bad", [1, 0, "yes", "False", 0.0])
def test_flag_kind_refuses_anything_but_a_bool(bad):
    spec = KINDS["flag"].read("on", {"kind": "flag"})
    with pytest.raises(InputError, match="expected True or False"):
        KINDS["flag"].bind(spec, bad, Bound())


def test_flag_kind_read_refuses_a_unit_or_a_non_bool_default():
    with pytest.raises(InputError):
        KINDS["flag"].read("on", {"kind": "flag", "unit": "s"})
    with pytest.raises(InputError, match="true or false"):
        KINDS["flag"].read("on", {"kind": "flag", "default": 1})


def test_choice_kind():
    kind = KINDS["choice"]
    spec = kind.read("mode", {"kind": "choice", "options": ["fast", "slow"], "default": "fast"})
    assert spec.options == ("fast", "slow") and spec.default == "fast"
    bound = Bound()
    kind.bind(spec, "slow", bound)
    assert bound.choices == {"mode": "slow"} and bound.values["mode"] == "slow"
    with pytest.raises(InputError, match="'fast', 'slow'"):
        kind.bind(spec, "medium", Bound())
    with pytest.raises(InputError, match="needs 'options'"):
        kind.read("mode", {"kind": "choice"})
    with pytest.raises(InputError, match="not one of the options"):
        kind.read("mode", {"kind": "choice", "options": ["a"], "default": "b"})


def test_workload_kind_reads_attributes_from_the_registry():
    kind = KINDS["workload"]
    spec = kind.read("model", {"kind": "workload", "symbols": {"P": {"attribute": "parameters"},
                                                               "Ly": {"attribute": "layers"}}})
    bound = Bound()
    kind.bind(spec, "GPT2", bound)
    gpt2 = mlsysim.Models.Language.GPT2   # mlsysim 0.3.0: 1.5e9 parameters, 48 layers
    assert bound.values["model"].key == "GPT2"
    assert bound.scalars[spec.attributes["P"].symbol] == pytest.approx(gpt2.parameters.to("param").magnitude)
    assert bound.scalars[spec.attributes["Ly"].symbol] == gpt2.layers
    with pytest.raises(UnknownNameError, match="GPT2"):
        kind.bind(spec, "GPT9", Bound())
    with pytest.raises(InputError, match="attribute"):
        kind.read("model", {"kind": "workload", "symbols": {"P": {"unit": "param"}}})


def test_workload_kind_update_changes_fields_or_replaces():
    kind = KINDS["workload"]
    spec = kind.read("model", {"kind": "workload", "symbols": {"Ly": {"attribute": "layers"}}})
    gpt2 = workloads()["GPT2"]
    half = kind.update(spec, gpt2, {"layers": 24})
    assert isinstance(half, Workload) and half.layers == 24 and half.hidden_dim == 1600   # GPT-2 XL: hidden 1600 kept
    assert gpt2.layers == 48                                                              # the shared entry unchanged
    assert kind.update(spec, gpt2, "Llama3_8B") == "Llama3_8B"                          # not a table: replaced
    with pytest.raises(UnknownNameError, match="model"):
        kind.update(spec, gpt2, {"layer": 24})                                           # named within the input


def test_map_kind():
    kind = KINDS["map"]
    spec = kind.read("w", {"kind": "map", "index": "item", "symbol": "w", "unit": "GB"})
    assert spec.index == "item"
    bound = Bound()
    kind.bind(spec, {"a": "2 GB", "b": "500 MB"}, bound)
    assert bound.keys["w"] == ["a", "b"]
    assert bound.keyed["item"]["a"][spec.variable.symbol] == pytest.approx(2e9)     # 2 GB = 2e9 B
    assert bound.keyed["item"]["b"][spec.variable.symbol] == pytest.approx(5e8)     # 500 MB = 5e8 B
    assert isinstance(bound.values["w"], ReadOnlyDict)
    with pytest.raises(InputError, match="mapping"):
        kind.bind(spec, ["2 GB"], Bound())


def test_list_kind():
    kind = KINDS["list"]
    spec = kind.read("l", {"kind": "list", "index": "step", "symbol": "l", "unit": "ms"})
    bound = Bound()
    kind.bind(spec, ["1 ms", "3 ms"], bound)
    assert bound.keys["l"] == [1, 3]                                           # keyed by value
    assert [bound.keyed["step"][k][spec.variable.symbol] for k in (1, 3)] == pytest.approx([1e-3, 3e-3])
    for bad, message in [(["1 ms", "1 ms"], "given twice"), ([], "at least one"), ("1 ms", "list")]:
        with pytest.raises(InputError, match=message):
            kind.bind(spec, bad, Bound())


#: A list stated as 1..n beside the count it ranges over (mlsysim's ``range(1, turns + 1)``), and a type that
#: composes it and ranges a list over its output.
RANGED = {"summary": "turns 1..H", "inputs": {
    "turns": {"symbol": "H", "unit": "count", "integer": True},
    "turn": {"kind": "list", "upto": "turns", "symbol": "k", "unit": "count", "integer": True}},
    "outputs": {"horizon": {"unit": "count", "equation": "H"}, "total": {"unit": "count", "equation": "sum(k, turn)"}}}


def test_a_list_upto_an_input_is_held_to_its_range():
    cls = scenario_class(ScenarioType.from_mapping("Ranged", RANGED))
    assert cls(turns=4, turn=[1, 2, 3, 4]).total.magnitude == 10                 # 1 + 2 + 3 + 4, by hand
    s = cls(turns=3, turn=[1, 2, 3])
    with pytest.raises(InputError, match=r"Ranged: turn must be 1, 2, \.\.\., 5, one value each up to turns = 5; got \[1, 2, 3\]"):
        s.variant(turns=5)                                                     # the old list is never summed again
    assert s.variant(turns=5, turn=[1, 2, 3, 4, 5]).total.magnitude == 15
    with pytest.raises(InputError, match="turn must be 1, 2, ..., 2"):
        cls(turns=2, turn=[2, 3])
    outer = {"summary": "over a ranged scenario", "inputs": {
        "inner": {"kind": "scenario", "type": "Ranged"},
        "step": {"kind": "list", "upto": "inner.horizon", "start": 0, "symbol": "j", "unit": "count", "integer": True,
                 "domain": "[0, inf)"}},
        "outputs": {"steps": {"unit": "count", "equation": "sum(1, step)"}}}
    types = {"Ranged": cls.type}
    outer_cls = scenario_class(ScenarioType.from_mapping("Outer", outer, types=types))
    assert outer_cls(inner=s, step=[0, 1, 2, 3]).steps.magnitude == 4           # 0..3: four steps
    with pytest.raises(InputError, match=r"step must be 0, 1, \.\.\., 3, one value each up to inner.horizon"):
        outer_cls(inner=s, step=[0, 1, 2])


#: A list ranged over a count the type computes (mlsysim's ``range(1, n_levels + 1)`` with n_levels from a loop):
#: the rounds of a doubling ladder 1, 2, 4, ... until it reaches x, K = ceil(log2(x)) + 1 of them.
LADDER = {"summary": "doubling rounds until x", "inputs": {
    "x": {"symbol": "x", "unit": "1"},
    "round": {"kind": "list", "upto": "rounds", "symbol": "k", "unit": "count", "integer": True}},
    "outputs": {"rounds": {"symbol": "K", "unit": "count", "equation": "ceil(log(x, 2)) + 1"},
                "level": {"unit": "1", "equation": "min(x, 2**(k - 1))"},
                "total": {"unit": "1", "equation": "sum(min(x, 2**(k - 1)), round)"}},
    "result": {"name": "LadderResult", "fields": ["level", "rounds"], "lists": ["level"]}}


def test_a_list_upto_an_output_of_the_type_follows_the_computed_count():
    cls = scenario_class(ScenarioType.from_mapping("Ladder", LADDER))
    s = cls(x=5, round=[1, 2, 3, 4])                                            # 1, 2, 4, then 5: ceil(log2 5) + 1 = 4
    assert s.result.level == pytest.approx([1, 2, 4, 5]) and s.total.magnitude == 12
    with pytest.raises(InputError, match=r"Ladder: round must be 1, 2, \.\.\., 5, one value each up to rounds = 5"):
        s.variant(x=9)                                                          # 1, 2, 4, 8, 9: the old list is refused
    assert s.variant(x=9, round=[1, 2, 3, 4, 5]).total.magnitude == 24
    for change, message in [({"rounds": {"unit": "1", "equation": "sum(1, round)"}}, "does not read the list"),
                            ({"rounds": {"unit": "1", "equation": "k"}}, "without keys")]:
        bad = {**LADDER, "outputs": {**LADDER["outputs"], **change}}
        with pytest.raises(DerivationError, match=message):
            ScenarioType.from_mapping("Bad", bad)


#: A keyed output that keeps only the keys where a predicate holds (mlsysim's ``{n: sqrt(2 ln n) for n in sizes if n > 1}``).
KEPT = {"summary": "sqrt(2 ln n) over n > 1", "inputs": {
    "sizes": {"kind": "list", "index": "pool", "symbol": "n", "unit": "1"},
    "floor_size": {"symbol": "n_0", "unit": "1", "default": 1}},
    "outputs": {"above": {"kind": "predicate", "equation": "n > n_0"},
                "root": {"unit": "1", "style": "dict", "keep": "above", "equation": "sqrt(2 * log(n))"},
                "total": {"unit": "1", "equation": "sum(n, pool)"}},
    "result": {"name": "KeptResult", "fields": ["root", "total"], "lists": ["root"]}}


def test_keep_holds_only_the_keys_where_its_predicate_holds():
    cls = scenario_class(ScenarioType.from_mapping("Kept", KEPT))
    s = cls(sizes=[1, 2, 8])
    root = s.root
    assert list(root) == [2, 8]                                                 # 1 dropped: 1 > 1 is false
    assert [v.magnitude for v in root.values()] == pytest.approx([1.1774100225154747, 2.039333980337618])  # sqrt(2 ln 2), sqrt(2 ln 8)
    assert s.result.root == pytest.approx([1.1774100225154747, 2.039333980337618])
    assert s.total.magnitude == 11                                              # every key still counts elsewhere
    assert list(s.variant(floor_size=4).root) == [8]
    with pytest.raises(UnknownNameError, match="above does not hold there"):
        s.planner.evaluate("root", 1)
    for change, message in [({"keep": "total"}, "keep must name a predicate output keyed by pool"),
                            ({"keep": "nothing"}, "keep must name a predicate output"),
                            ({"style": "method"}, "keep is for a keyed output without arguments, read as a dict")]:
        bad = {**KEPT, "outputs": {**KEPT["outputs"], "root": {**KEPT["outputs"]["root"], **change}}}
        with pytest.raises(DerivationError, match=message):
            ScenarioType.from_mapping("Bad", bad)


#: A bounded search: how many of 0, 1, ..., K have k**2 <= x (floor(sqrt(x)) + 1 while K**2 > x), refused beyond K.
SEARCHED = {"summary": "a count over declared candidates", "inputs": {
    "x": {"symbol": "x", "unit": "1"},
    "limit": {"symbol": "K", "unit": "count", "integer": True, "default": 4},
    "candidate": {"kind": "list", "upto": "limit", "start": 0, "symbol": "k", "unit": "count", "integer": True,
                  "domain": "[0, inf)", "default": [0, 1, 2, 3, 4]}},
    "outputs": {"covered": {"kind": "predicate", "equation": "K**2 > x", "doc": "The candidates reach past x."},
                "roots": {"unit": "count", "refused_unless": "covered", "equation": "sum(piecewise(1, k**2 <= x, 0), candidate)"},
                "twice": {"unit": "1", "equation": "2 * x"}}}


def test_refused_unless_refuses_an_output_where_its_predicate_fails():
    cls = scenario_class(ScenarioType.from_mapping("Searched", SEARCHED))
    assert cls(x=10).roots.magnitude == 4                                       # 0, 1, 2, 3 (16 > 10): floor(sqrt(10)) + 1
    assert cls(x=0.5).roots.magnitude == 1                                      # 0 only
    with pytest.raises(InputError, match=r"Searched.roots is refused: covered does not hold \(The candidates reach past x\)"):
        _ = cls(x=16).roots                                                     # 4**2 = 16 is not > 16: the search may stop short
    assert cls(x=16).twice.magnitude == 32                                      # other outputs are read as before
    assert cls(x=16, limit=5, candidate=[0, 1, 2, 3, 4, 5]).roots.magnitude == 5
    for change, message in [({"refused_unless": "twice"}, "refused_unless must name a predicate output"),
                            ({"refused_unless": "nothing"}, "refused_unless must name a predicate output")]:
        bad = {**SEARCHED, "outputs": {**SEARCHED["outputs"], "roots": {**SEARCHED["outputs"]["roots"], **change}}}
        with pytest.raises(DerivationError, match=message):
            ScenarioType.from_mapping("Bad", bad)


@pytest.mark.parametrize(("upto", "words"), [
    ("steps", "must name a whole-number"), ("scale", "must name a whole-number"), ("turn", "must name a whole-number"),
    ("a.b.c", "'upto' names an input"), (3, "'upto' names an input")])
def test_a_list_upto_must_name_a_whole_number_input(upto, words):
    bad = {**RANGED, "inputs": {**RANGED["inputs"], "scale": {"symbol": "s", "unit": "1"},
                                "turn": {**RANGED["inputs"]["turn"], "upto": upto}}}
    with pytest.raises((DerivationError, InputError), match=words):
        ScenarioType.from_mapping("Bad", bad)
    with pytest.raises(InputError, match="'start' is a whole number, given with 'upto'"):
        read_input("x", {"kind": "list", "symbol": "x", "unit": "1", "start": 0})


def test_read_input_refuses_an_unknown_kind():
    with pytest.raises(InputError, match="'vector'"):
        read_input("x", {"kind": "vector"})
    with pytest.raises(InputError, match="table"):
        read_input("x", "1 s")


# ---------------------------------------------------------------------- reader.py
def test_check_fields():
    check_fields({"unit": "s", "symbol": "t"}, VARIABLE_FIELDS)   # no error
    with pytest.raises(InputError, match=r"input x: unknown field\(s\) colour, shape; allowed: .*unit"):
        check_fields({"unit": "s", "colour": 1, "shape": 2}, VARIABLE_FIELDS, "input x")


@pytest.mark.parametrize("raw, ok", [({"a": 1}, True), ({}, True), ([1], False), ("text", False), (None, False)])
def test_read_table(raw, ok):
    if ok:
        assert read_table(raw, "an input") is raw
    else:
        with pytest.raises(InputError, match=f"an input must be a table, got {type(raw).__name__}"):
            read_table(raw, "an input")


@pytest.mark.parametrize("name, ok", [("batch", True), ("b2_x", True), ("_type", False), ("2x", False), ("a-b", False)])
def test_check_name(name, ok):
    if ok:
        check_name(name, "input")
    else:
        with pytest.raises(InputError, match="identifier"):
            check_name(name, "input")


# ---------------------------------------------------------------------- definitions.py
def test_read_only_dict_refuses_every_change():
    d = ReadOnlyDict({"a": 1})
    for change in (lambda: d.__setitem__("b", 2), lambda: d.pop("a"), lambda: d.update(b=2), d.clear,
                   lambda: d.setdefault("b", 2), lambda: d.__delitem__("a")):
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert d == {"a": 1}


def test_reference_text():
    assert str(Reference("Young (1974)")) == "Young (1974)"
    assert str(Reference("Young (1974)", "Eq. 2", "https://doi.org/10.1145/361147.361115")) == \
        "Young (1974), Eq. 2 <https://doi.org/10.1145/361147.361115>"


def test_specs_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        T.inputs["n"].default = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        T.outputs["total"].doc = "x"


# ---------------------------------------------------------------------- types.py
def test_from_mapping_reads_inputs_outputs_and_kinds():
    assert list(T.inputs) == ["n", "t", "limit", "b", "mode", "on", "w", "l", "model"]
    assert {n: s.kind for n, s in T.inputs.items() if s.kind != "quantity"} == \
        {"mode": "choice", "on": "flag", "w": "map", "l": "list", "model": "workload"}
    assert list(T.outputs) == ["total", "time", "late", "which", "bytes"]
    assert T.output("total").variable.unit == ureg.Unit("GB")


@pytest.mark.parametrize("output, leaves, choices", [
    ("total", {"n", "w"}, set()),
    ("time", {"t"}, {"mode"}),                  # both branches' leaves: t (fast) and t (slow)
    ("late", {"t", "L"}, {"mode"}),             # through time
    ("bytes", {"P", "b"}, set()),
])
def test_closure(output, leaves, choices):
    found, picked = T.closure(output)
    assert {s.name for s in found} == leaves and picked == choices


def test_branch_picks_by_choice():
    t = sym("t")
    assert T.branch("time", {"mode": "slow"}).expr == 2 * t and T.branch("time", {"mode": "slow"}).when == "slow"
    assert T.branch("time", {"mode": "fast"}).expr == t
    assert T.branch("time").when == "fast"      # no choice given: the first branch


def test_output_unknown_name_has_a_hint():
    with pytest.raises(UnknownNameError, match="'totl'; did you mean 'total'"):
        T.output("totl")


@pytest.mark.parametrize("change, message", [
    ({"summry": "x"}, "summry"),                                                  # unknown type field
    ({"outputs": {"x": {"unit": "GB", "equation": "n * q"}}}, "q"),              # unknown name in an equation
    ({"outputs": {"x": {"unit": "s", "equation": "n * w"}}}, "GB"),              # wrong dimension (GB, not s)
    ({"outputs": {"x": {"unit": "s", "choice": "mode", "equation": {"fast": "t"}}}}, "slow"),   # a branch missing
])
def test_from_mapping_refuses_a_bad_declaration_naming_the_type(change, message):
    with pytest.raises(DerivationError, match=message) as info:
        ScenarioType.from_mapping("Bad", {**SPEC, **change})
    assert "Bad" in str(info.value)


# ---------------------------------------------------------------------- surface.py
@pytest.mark.parametrize("name, phrase", [
    ("evaluate", "the Scenario member .evaluate"),
    ("diff", "the analysis accessor .diff (OutputRef.diff)"),
    ("ref", "the analysis accessor .ref"),
    ("latency", None),
])
def test_clash(name, phrase):
    assert clash(name) == phrase


@pytest.mark.parametrize("name", sorted(RESERVED))
def test_a_reserved_name_is_refused_as_an_input(name):
    with pytest.raises(DerivationError, match="reserved"):
        ScenarioType.from_mapping("Bad", {"inputs": {name: {"unit": "s"}}, "outputs": {}})


def test_reserved_names_are_members_of_a_scenario_and_accessors_forward_to_output_ref():
    s = scenario_class(T)(**GIVEN)
    for name in CORE_MEMBERS - {"self", "cls"}:   # self and cls: a method's own parameter names
        assert hasattr(s, name), name
    for name, method in ACCESSORS.items():
        assert hasattr(s, name), name
        if method is not None:
            assert inspect.isfunction(getattr(OutputRef, method)), method


# ---------------------------------------------------------------------- outputs.py
def test_output_kinds():
    assert set(OUTPUT_KINDS) == {"quantity", "predicate", "label"}
    assert [(k.numeric, k.condition) for k in OUTPUT_KINDS.values()] == [(True, False), (False, True), (False, False)]
    assert T.output("late").kind == "predicate" and T.output("which").kind == "label"
    assert OUTPUT_KINDS["predicate"].answer(1.0, ()) is True and OUTPUT_KINDS["predicate"].answer(0.0, ()) is False
    assert OUTPUT_KINDS["label"].answer(1, ("time", "limit")) == "limit"
    assert T.output("which").labels == ("time", "limit")


@pytest.mark.parametrize("given, late, which, time_ms", [
    ({}, True, "time", 2000),                                   # t = 2 s >= L = 1 s; 2 s is the larger case
    ({"t": "0.5 s"}, False, "limit", 500),                      # 0.5 s < 1 s
    ({"t": "0.5 s", "mode": "slow"}, True, "time", 1000),       # slow: 2 t = 1 s >= 1 s; a 1 s tie goes to the first case
])
def test_predicate_and_label_answers(given, late, which, time_ms):
    s = scenario_class(T)(**GIVEN, **given)
    assert s.late is late and s.which == which
    assert s.time.to("ms").magnitude == pytest.approx(time_ms)


# ---------------------------------------------------------------------- result_sources.py
def test_result_sources_in_the_order_they_are_tried():
    assert list(RESULT_SOURCES) == ["view", "row views", "variants", "table", "member", "output", "by option", "input", "used result",
                                   "used field", "attribute"]
    assert all(source_named(name) is RESULT_SOURCES[name] and str(RESULT_SOURCES[name]) == name for name in RESULT_SOURCES)


def test_result_fields_read_by_their_source():
    assert [(f, str(src), name) for f, src, name in T.result.fields] == \
        [("n", "input", "n"), ("total", "output", "total"), ("time", "output", "time")]
    r = scenario_class(T)(**GIVEN).result
    assert r.n == 3
    assert r.total.to("GB").magnitude == pytest.approx(21)     # 3 * (2 + 5) GB
    assert r.time.to("ms").magnitude == pytest.approx(2000)    # fast: t = 2 s


def test_bytes_from_a_workload_attribute():
    s = scenario_class(T)(**GIVEN)
    assert s.bytes.to("GB").magnitude == pytest.approx(3.0)    # GPT-2: 1.5e9 param x 2 B/param = 3 GB


LISTED = {
    "inputs": {"turn": {"kind": "list", "symbol": "k", "unit": "count", "integer": True},
               "step": {"symbol": "d", "unit": "s"}},
    "outputs": {"at": {"symbol": "T_k", "unit": "s", "equation": "k * d"}, "first": {"unit": "s", "equation": "d"}},
}


def test_a_listed_result_field_shows_a_keyed_output_as_a_list_in_key_order():
    t = ScenarioType.from_mapping("Listed", {**LISTED, "result": {"fields": ["at", "first"], "lists": ["at"]}})
    r = scenario_class(t)(turn=[3, 1, 2], step="2 s").result
    assert [v.to("s").magnitude for v in r.at] == [6, 2, 4] and isinstance(r.at, list)


@pytest.mark.parametrize("lists", [["first"], ["missing"], "at"])
def test_result_lists_names_keyed_outputs_of_the_result(lists):
    with pytest.raises(DerivationError, match="result.lists"):
        ScenarioType.from_mapping("Listed", {**LISTED, "result": {"fields": ["at", "first"], "lists": lists}})


TRACED = {
    "inputs": {"stride": {"kind": "list", "symbol": "k", "unit": "count", "integer": True},
               "crash": {"kind": "list", "symbol": "c", "unit": "count", "integer": True}},
    "outputs": {"lost": {"symbol": "ell", "unit": "count", "equation": "c - k * floor(c / k)"},
                "total": {"symbol": "L", "unit": "count", "style": "dict", "equation": "sum(ell, crash)"},
                "best": {"kind": "label", "over": "stride", "term": "L", "rule": "argmin"}},
}


def test_a_tuples_result_field_shows_a_two_index_output_by_its_other_index_of_tuples():
    """mlsysim's {stride: (c mod stride for each crash)}: keyed by the other index, a tuple over the named one in its
    key order, whichever order the output's indexes nest in."""
    t = ScenarioType.from_mapping("Traced", {**TRACED, "result": {"fields": ["lost", "total"], "tuples": {"lost": "crash"}}})
    r = scenario_class(t)(stride=[10, 25], crash=[37, 83, 5]).result
    assert r.lost == {10: (7, 3, 5), 25: (12, 8, 5)}
    t = ScenarioType.from_mapping("Traced", {**TRACED, "result": {"fields": ["lost"], "tuples": {"lost": "stride"}}})
    assert scenario_class(t)(stride=[10, 25], crash=[37, 83]).result.lost == {37: (7, 12), 83: (3, 8)}


@pytest.mark.parametrize("tuples", [{"total": "crash"}, {"lost": "turn"}, {"missing": "crash"}, ["lost"]])
def test_result_tuples_names_two_index_outputs_and_one_of_their_indexes(tuples):
    with pytest.raises(DerivationError, match="result.tuples"):
        ScenarioType.from_mapping("Traced", {**TRACED, "result": {"fields": ["lost", "total"], "tuples": tuples}})


def test_a_ranked_result_field_orders_a_dict_by_value_least_first_and_stable_on_ties():
    t = ScenarioType.from_mapping("Listed", {**LISTED, "result": {"fields": ["at", "first"], "ranked": ["at"]}})
    s = scenario_class(t)(turn=[3, 1, 4, 2], step="2 s")
    assert list(s.keys("turn")) == [3, 1, 4, 2]              # the output keeps its input's order
    assert list(s.result.at) == [1, 2, 3, 4]                 # the view ranks it (2, 4, 6, 8 s)
    tie = {**LISTED, "outputs": {**LISTED["outputs"], "at": {"symbol": "T_k", "unit": "s", "equation": "floor(k / 2) * d"}}}
    t = ScenarioType.from_mapping("Listed", {**tie, "result": {"fields": ["at"], "ranked": ["at"]}})
    assert list(scenario_class(t)(turn=[3, 2, 1, 5], step="2 s").result.at) == [1, 3, 2, 5]   # 0, 2, 2, 4 s


@pytest.mark.parametrize("ranked", [["first"], ["missing"], "at"])
def test_result_ranked_names_dict_outputs_of_the_result(ranked):
    with pytest.raises(DerivationError, match="result.ranked"):
        ScenarioType.from_mapping("Listed", {**LISTED, "result": {"fields": ["at", "first"], "ranked": ranked}})


POSITIONED = {
    "inputs": {"value": {"kind": "list", "positions": True, "index": "pos", "symbol": "g", "unit": "count"},
               "n": {"symbol": "n", "unit": "count", "integer": True},
               "pos": {"kind": "list", "upto": "n", "symbol": "t", "unit": "count", "integer": True},
               "cut": {"kind": "list", "upto": "n", "start": 0, "symbol": "j", "unit": "count", "integer": True,
                       "domain": "[0, inf)"}},
    "outputs": {"through": {"symbol": "G_j", "unit": "count", "equation": "sum(piecewise(g, t <= j, 0), pos)"}},
    "result": {"fields": ["through"], "lists": ["through"]},
}


def test_a_positions_list_is_keyed_by_position_and_may_repeat_values():
    t = ScenarioType.from_mapping("Positioned", POSITIONED)
    s = scenario_class(t)(value=[2, 2, 5], n=3, pos=[1, 2, 3], cut=[0, 1, 2, 3])
    assert s.keys("pos") == [1, 2, 3]
    assert [float(v) for v in s.result.through] == [0, 2, 4, 9]   # the sums through each cut 0..3


def test_a_sum_over_one_index_stays_keyed_by_the_other_indexes_in_its_body():
    """sum(piecewise(g, t <= j, 0), pos) reduces pos away but not j's index: the output is keyed by cut."""
    t = ScenarioType.from_mapping("Positioned", POSITIONED)
    assert t.outputs["through"].indices == ("cut",) and t.outputs["through"].style == "method"


@pytest.mark.parametrize("raw", [{"positions": "yes"}, {"positions": True, "upto": "n"}, {"start": 0}])
def test_positions_is_a_flag_apart_from_upto(raw):
    bad = {**POSITIONED, "inputs": {**POSITIONED["inputs"], "value": {"kind": "list", "symbol": "g", "unit": "count", **raw}}}
    with pytest.raises(DerivationError, match="positions|start"):
        ScenarioType.from_mapping("Positioned", bad)


#: A mirror: the values of ``x`` under a second index, so each key compares itself with every other (a rank).
MIRRORED = {"summary": "ranks by comparing every pair", "inputs": {
    "x": {"kind": "map", "index": "item", "symbol": "x", "unit": "1", "domain": "(-inf, inf)"},
    "x_other": {"kind": "map", "mirrors": "x", "index": "rival", "symbol": "y", "unit": "1", "domain": "(-inf, inf)"}},
    "outputs": {"rank": {"unit": "1", "style": "dict", "equation": "sum(piecewise(1, y > x, 0), rival)"},
                "above": {"unit": "1", "style": "dict", "equation": "sum(piecewise(y, y > x, 0), rival)"}}}


def test_a_mirror_compares_every_key_with_every_other():
    """By hand: x = {a: 3, b: 7, c: 5}; a has 7 and 5 above it (rank 2, mass 12), b none (0, 0), c has 7 (1, 7)."""
    s = scenario_class(ScenarioType.from_mapping("Mirrored", MIRRORED))(x={"a": 3, "b": 7, "c": 5})
    assert {k: v.magnitude for k, v in s.rank.items()} == {"a": 2, "b": 0, "c": 1}
    assert {k: v.magnitude for k, v in s.above.items()} == {"a": 12, "b": 0, "c": 7}
    assert s.keys("rival") == ["a", "b", "c"] and dict(s.inputs["x_other"]) == dict(s.inputs["x"])
    changed = s.variant(x={"a": 9, "b": 1})                                     # the mirror follows the input it mirrors
    assert {k: v.magnitude for k, v in changed.rank.items()} == {"a": 0, "b": 1}
    with pytest.raises(InputError, match="x_other mirrors x"):
        s.variant(x_other={"a": 1})


@pytest.mark.parametrize(("change", "words"), [
    ({"mirrors": "nothing"}, "mirrors 'nothing' must name a map or list input"),
    ({"index": "item"}, "a mirror needs an index of its own"),
    ({"unit": "s"}, "s and 1 disagree in dimension"),
    ({"unit": "%"}, "of the same kind, unit"),
    ({"default": {"a": 1}}, "no 'default' or 'required'")])
def test_a_mirror_must_repeat_an_earlier_keyed_input(change, words):
    bad = {**MIRRORED, "inputs": {**MIRRORED["inputs"], "x_other": {**MIRRORED["inputs"]["x_other"], **change}}}
    with pytest.raises((DerivationError, InputError), match=words):
        ScenarioType.from_mapping("Mirrored", bad)


def test_a_label_over_a_list_index_names_the_key_itself():
    """Over a list input the keys are its numbers: the label is the number (mlsysim's min(strides, key=...)), not text."""
    t = ScenarioType.from_mapping("Traced", TRACED)
    s = scenario_class(t)(stride=[10, 25, 50], crash=[37, 83])
    assert s.best == 10 and isinstance(s.best, int)   # 7 + 3 turns lost at 10, against 12 + 8 and 37 + 33
