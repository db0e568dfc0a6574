"""Tests that mirror ``mlsysim_symbolic/plan.py`` (issue 31): ``Plan``, ``scale``, ``placeholder``, ``needed_by`` and the
public API of ``Planner``, on one small type built here (every value computed by hand) and on the named scenario
``DpSgdPerExampleGradients`` (its parameter counts compared with mlsysim 0.3.0)."""

from __future__ import annotations

import pint
import pytest
import sympy
from reference.lazy import reference

from mlsysim_symbolic import Scenarios
from mlsysim_symbolic.errors import MissingInputError, UnexpectedNameError, UnknownKeyError, UnknownNameError
from mlsysim_symbolic.plan import NeededBy, Plan, Planner, needed_by, placeholder, scale
from mlsysim_symbolic.spec import ScenarioType
from mlsysim_symbolic.units import ureg
from mlsysim_symbolic.variables import Variable

mlsysim = reference("mlsysim")   # imported when a test first reads it: collecting imports nothing of mlsysim

#: n (a count), t (optional, seconds), mode (a choice), w (one size in GB per item), and an argument k.
TOY = ScenarioType.from_mapping("Toy", {"summary": "a small type for the plan tests", "inputs": {
    "n": {"symbol": "n", "unit": "1"},
    "t": {"symbol": "t", "unit": "s", "required": False},
    "mode": {"kind": "choice", "options": ["fast", "slow"], "default": "fast"},
    "w": {"kind": "map", "index": "item", "symbol": "w", "unit": "GB"}},
    "arguments": {"k": {"unit": "1"}},
    "outputs": {
        "total": {"unit": "GB", "equation": "n * sum(w, item)"},
        "per_item": {"unit": "GB", "equation": "n * w"},
        "time": {"unit": "ms", "choice": "mode", "equation": {"fast": "t", "slow": "2 * t"}},
        "k_times": {"unit": "1", "equation": "k * n"}}})

GIVEN = {"n": 3, "w": {"a": "2 GB", "b": "5 GB"}}

@pytest.fixture
def toy() -> Planner:
    return Planner(TOY, GIVEN)


def _gb(q: pint.Quantity) -> float:
    return q.to("GB").magnitude


# ---------------------------------------------------------------------- scale, placeholder, NeededBy, needed_by
@pytest.mark.parametrize("value, factor, divisor, expected", [
    (15e9, 1, 10**9, 15.0),     # 15e9 B in GB, exactly 15 (15e9 * 1e-9 would be 15.000000000000002)
    (3, 2, 1, 6),               # 3 * 2
    (7, 1, 1, 7),               # both steps skipped: the value itself
    (1, 1000, 8, 125.0),        # 1 * 1000 / 8
])
def test_scale(value, factor, divisor, expected):
    result = scale(value, factor, divisor)
    assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize("kwargs, expected", [
    ({"unit": "s"}, 1),                                  # 1 s lies in (0, inf)
    ({"unit": "1", "domain": "[2, 3]"}, 2.0),            # 1 is outside: the closed low end
    ({"unit": "1", "domain": "(2, 5]"}, 3.0),            # open low end: low + 1
    ({"unit": "1", "domain": "[4, 9]", "integer": True}, 4),
])
def test_placeholder_is_inside_the_domain(kwargs, expected):
    var = Variable.make("x", **kwargs)
    value = placeholder(var)
    assert value == expected and type(value) is type(expected) and var.domain.contains(value)


#: Found by this file: placeholder() gave low + 1 for an open low end, outside a domain narrower than 1 ((0, 1) gave
#: 1.0), so sweeping or solving for an argument declared in (0, 1) failed ('e: expected a value in (0, 1)').
@pytest.mark.parametrize("domain", ["(0, 1)", "(0, 0.5]", "(2, 2.5)"])   # (0, 1) is declared 21 times in derivations/
def test_placeholder_is_inside_an_open_domain_narrower_than_one(domain):
    var = Variable.make("x", unit="1", domain=domain)
    assert var.domain.contains(placeholder(var))


def test_placeholder_of_an_argument_is_accepted_by_values():
    """What sweep.vector_plan and solve do before a swept or solved argument has a value."""
    t = ScenarioType.from_mapping("E", {"inputs": {"n": {"unit": "1"}},
                                        "arguments": {"e": {"unit": "1", "domain": "(0, 1)"}},
                                        "outputs": {"ek": {"unit": "1", "equation": "e * n"}}})
    p = Planner(t, {"n": 3})
    plan = p.plan("ek")
    values = p.values(plan, (), {"e": placeholder(t.arguments["e"])})
    assert values[1] == 3   # n; e is the placeholder


def test_needed_by_lists_the_outputs_that_reach_each_input():
    assert needed_by(TOY) == {"n": ("total", "per_item", "k_times"), "t": ("time",), "mode": ("time",),
                              "w": ("total", "per_item")}


@pytest.mark.parametrize("outputs, text", [(("per_token", "total"), "<needed by per_token, total>"),
                                           ((), "<needed by no output>")])
def test_needed_by_repr(outputs, text):
    assert repr(NeededBy(outputs)) == text


# ---------------------------------------------------------------------- Plan
def test_plan_of_a_keyed_sum_writes_it_out_key_by_key(toy):
    plan = toy.plan("total")
    assert isinstance(plan, Plan)
    assert [s.name for s in plan.args] == ["n", "w['a']", "w['b']"]
    a, b = plan.args[1:]
    assert sympy.simplify(plan.expr - plan.args[0] * (a + b)) == 0
    assert plan.indices == () and plan.arguments == ()
    assert plan.unit == plan.returns == ureg.Unit("GB")


def test_plan_to_unit_turns_base_units_into_the_declared_unit(toy):
    plan = toy.plan("total")
    assert plan.to_unit(21e9) == 21.0          # 21e9 B = 21 GB
    assert plan.to_unit(5e8) == 0.5            # 5e8 B = 0.5 GB


def test_plan_of_a_keyed_output_and_of_a_method(toy):
    per_item, method = toy.plan("per_item"), toy.plan("k_times")
    assert per_item.indices == ("item",) and [s.name for s in per_item.args] == ["n", "w"]
    assert method.arguments == ("k",) and [s.name for s in method.args] == ["k", "n"]


def test_plan_choice_picks_the_branch():
    p = Planner(TOY, {**GIVEN, "t": "1.5 s", "mode": "slow"})
    assert p.plan("time").expr == 2 * p.plan("time").args[0]
    assert p.plan("time", (("mode", "fast"),)).expr == p.plan("time").args[0]


def test_plan_is_cached_per_output(toy):
    assert toy.plan("total") is toy.plan("total")


# ---------------------------------------------------------------------- values, evaluate, member, as_dict
def test_values_are_base_units_in_plan_order(toy):
    # n = 3; w at 'a' = 2 GB = 2e9 B
    assert toy.values(toy.plan("per_item"), ("a",)) == (3, 2e9)
    assert toy.values(toy.plan("k_times"), (), {"k": 4}) == (4, 3)


@pytest.mark.parametrize("output, keys, arguments, expected, unit", [
    ("total", (), {}, 3 * (2 + 5), "GB"),        # n * (w_a + w_b) = 3 * 7 GB = 21 GB
    ("per_item", ("a",), {}, 3 * 2, "GB"),       # 6 GB
    ("per_item", ("b",), {}, 3 * 5, "GB"),       # 15 GB
    ("k_times", (), {"k": 4}, 4 * 3, ""),        # 12
])
def test_evaluate(toy, output, keys, arguments, expected, unit):
    q = toy.evaluate(output, *keys, **arguments)
    assert isinstance(q, pint.Quantity)
    assert q.to(unit).magnitude == pytest.approx(expected) if unit else q.magnitude == pytest.approx(expected)


@pytest.mark.parametrize("mode, expected_ms", [("fast", 1500), ("slow", 3000)])   # t = 1.5 s; slow is 2 t
def test_evaluate_through_a_choice(mode, expected_ms):
    q = Planner(TOY, {**GIVEN, "t": "1.5 s", "mode": mode}).evaluate("time")
    assert q.units == ureg.Unit("ms") and q.magnitude == pytest.approx(expected_ms)


def test_member_and_as_dict(toy):
    assert {key: _gb(q) for key, q in toy.as_dict("per_item").items()} == {"a": 6.0, "b": 15.0}
    assert {key: _gb(q) for key, q in toy.member("per_item").items()} == {"a": 6.0, "b": 15.0}
    assert _gb(toy.member("per_item", ("b",))) == 15.0
    assert _gb(toy.member("total")) == 21.0


def test_symbol_values_are_in_declared_units(toy):
    found = {s.name: q for s, q in toy.symbol_values("per_item", "a").items()}
    assert found["n"].magnitude == 3 and found["w"].to("GB").magnitude == 2


def test_bound_gives_base_units_of_set_leaves(toy):
    plan = toy.plan("per_item")
    assert {s.name: v for s, v in toy.bound(plan.args, ("b",)).items()} == {"n": 3.0, "w": 5e9}
    assert {s.name: v for s, v in toy.bound(plan.args).items()} == {"n": 3.0}   # no key: the keyed leaf left out


def test_variable_and_resolve(toy):
    args = toy.plan("total").args
    assert toy.variable(args[0]).name == "n"
    assert toy.variable(args[1]).name == "w" and toy.variable(args[1]).unit == ureg.Unit("GB")   # a per-key leaf
    assert toy.resolve("n", args)[0] == 0
    with pytest.raises(UnknownNameError, match="'t'"):
        toy.resolve("t", args)
    with pytest.raises(UnknownNameError, match="zz"):
        toy.variable(sympy.Symbol("zz"))


# ---------------------------------------------------------------------- inputs, given, choices, keys
def test_inputs_given_choices_keys(toy):
    assert toy.given == {"n": 3, "t": None, "mode": "fast", "w": {"a": "2 GB", "b": "5 GB"}}   # mode's default
    assert toy.inputs["n"] == 3 and toy.inputs["t"] is None
    assert {key: _gb(q) for key, q in toy.inputs["w"].items()} == {"a": 2.0, "b": 5.0}
    assert dict(toy.choices) == {"mode": "fast"}
    assert toy.keys("item") == ["a", "b"] and toy.keys("w") == ["a", "b"] and toy.keys("nope") is None
    for view in (toy.inputs, toy.given, toy.choices):
        with pytest.raises(TypeError):
            view["n"] = 1   # read-only


def test_given_does_not_follow_the_callers_object():
    table = {"a": "2 GB"}
    p = Planner(TOY, {"n": 3, "w": table})
    table["c"] = "9 GB"
    assert list(p.given["w"]) == ["a"] and p.keys("item") == ["a"]


def test_changed_applies_changes_to_the_given_inputs(toy):
    assert toy.changed({"n": 4}) == {"n": 4, "mode": "fast", "w": {"a": "2 GB", "b": "5 GB"}}   # unset t dropped
    assert toy.changed({"t": "2 s"})["t"] == "2 s"


# ---------------------------------------------------------------------- signature
def test_signature_is_shared_by_scenarios_with_the_same_inputs_set():
    a = Planner(TOY, {"n": 3, "w": {"a": "2 GB", "b": "5 GB"}})
    b = Planner(TOY, {"n": 7, "w": {"a": "1 GB", "b": "9 GB"}})          # other values, same inputs set, same keys
    assert a.signature == b.signature
    assert a.plan("total").function is b.plan("total").function          # one compiled function for both
    assert _gb(b.evaluate("total")) == pytest.approx(7 * 10)              # 7 * (1 + 9) GB
    assert Planner(TOY, {**GIVEN, "t": "1 s"}).signature != a.signature   # t now set
    assert Planner(TOY, {"n": 3, "w": {"a": "2 GB"}}).signature != a.signature   # other keys
    assert Planner(TOY, {**GIVEN, "mode": "slow"}).signature != a.signature      # other choice


# ---------------------------------------------------------------------- errors
def test_missing_key_names_the_index(toy):
    with pytest.raises(MissingInputError, match="item") as info:
        toy.evaluate("per_item")
    assert "'a', 'b'" in str(info.value)   # the keys it could take


def test_unknown_key_names_the_key_and_the_known_ones(toy):
    with pytest.raises(UnknownKeyError, match="'z'") as info:
        toy.evaluate("per_item", "z")
    assert "'a', 'b'" in str(info.value)


def test_a_key_given_to_an_output_without_one(toy):
    with pytest.raises(UnexpectedNameError, match="key"):
        toy.evaluate("total", "a")


def test_unset_input_is_named(toy):
    with pytest.raises(MissingInputError, match=r"Toy\.time needs input 't'"):
        toy.evaluate("time")


def test_missing_argument_is_named(toy):
    with pytest.raises(MissingInputError, match="argument 'k'"):
        toy.evaluate("k_times")
    with pytest.raises(UnexpectedNameError, match="'j'"):
        toy.evaluate("k_times", k=1, j=2)


def test_unknown_input_and_output_are_named():
    with pytest.raises(UnexpectedNameError, match="'nn'; did you mean 'n'"):
        Planner(TOY, {"nn": 3})
    with pytest.raises(UnknownNameError, match="'nope'"):
        Planner(TOY, GIVEN).evaluate("nope")


# ---------------------------------------------------------------------- a named scenario, against mlsysim 0.3.0
@pytest.mark.parametrize("key, group, name", [("GPT-2", "Language", "GPT2"), ("KWS", "Tiny", "DS_CNN")])
def test_named_scenario_per_batch_gradient_bytes(key, group, name):
    """Per-example FP32 gradients at batch 256: B * P * b, P from mlsysim (GPT-2: 256 x 1.5e9 x 4 B = 1.536e12 B)."""
    model = getattr(getattr(mlsysim.Models, group), name)   # mlsysim's entry, resolved when the test runs
    planner = Scenarios.DpSgdPerExampleGradients.planner
    plan = planner.plan("per_batch")
    assert [s.name for s in plan.args] == ["B", "P", "b"] and plan.indices == ("models",)
    params = model.parameters.to("param").magnitude
    assert planner.values(plan, (key,)) == (256, params, 4)
    assert planner.evaluate("per_batch", key).to("B").magnitude == pytest.approx(256 * params * 4)
    per_example = planner.plan("per_example")   # declared per sample; the value leaves in bytes (``returns``)
    assert per_example.unit == ureg.Unit("B/sample") and per_example.returns == ureg.Unit("B")
    assert planner.evaluate("per_example", key).to("B").magnitude == pytest.approx(params * 4)
    assert planner.keys("models") == ["KWS", "GPT-2"]


def test_named_scenario_gpt2_hand_value():
    assert Scenarios.DpSgdPerExampleGradients.planner.evaluate("per_batch", "GPT-2").to("TB").magnitude == \
        pytest.approx(1.536)   # 256 x 1.5e9 x 4 B = 1.536e12 B
