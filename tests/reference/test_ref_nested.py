"""Scenarios as inputs (issue 12): ZeroSharding with an ActivationMemory scenario as its activations, as
mlsysim 0.3.0 nests them, equal to mlsysim's numbers; its expanded tree reaches the nested scenario's
leaves, so a derivative with respect to the micro-batch is exact."""

from __future__ import annotations

import pickle

import pytest

from mlsysim_symbolic import InputError, MissingInputError, Scenarios, UnknownNameError
from mlsysim_symbolic.catalog import catalog

from .compare import assert_close, reference_scenario


@pytest.mark.parametrize("strategy", ["none", "selective", "full"])
def test_zero_sharding_with_an_activation_scenario_equals_mlsysim(strategy):
    theirs = reference_scenario("Gpt3Zero3On64").model_copy(update={"activation_strategy": strategy})
    activations = Scenarios.Gpt3ActivationsMicrobatch1          # our instance, as mlsysim passes its own
    ours = Scenarios.Gpt3Zero3On64.variant(activations=activations, activation_strategy=strategy)
    for field in ("activations", "zero3_total_per_device", "stage_state", "weights"):
        assert_close(getattr(ours.result, field) if not isinstance(getattr(ours.result, field), dict) else 0,
                     getattr(theirs.result, field) if not isinstance(getattr(theirs.result, field), dict) else 0, field)
    assert_close(ours.result.activations, activations.activations(strategy), "the nested scenario's own value")


def test_the_tree_reaches_the_nested_leaves_and_the_derivative_is_exact():
    s = Scenarios.Gpt3Zero3On64
    expanded = s.expression("zero3_total_per_device", expand=True)
    assert "activations.b" in {str(x) for x in expanded.free_symbols}
    # full recomputation keeps L x bytes x s x b x h per replica: d/d b = 96 x 2 B x 2048 x 12288 (Korthikanti §4.1)
    derivative = s.diff("zero3_total_per_device", "activations.micro_batch")
    one = s.variant(activations={"workload": "GPT3", "micro_batch": 1}).zero3_total_per_device.to("B").magnitude
    two = s.variant(activations={"workload": "GPT3", "micro_batch": 2}).zero3_total_per_device.to("B").magnitude
    assert two - one == pytest.approx(96 * 2 * 2048 * 12288, rel=1e-12)
    assert "activations.b" not in {str(x) for x in derivative.free_symbols}   # linear in b
    rows = {r["input"]: r for r in s.sensitivity.local("zero3_total_per_device")}
    slope = rows["activations.micro_batch"]["derivative_value"].to("B/sample").magnitude
    assert slope == pytest.approx(two - one, rel=1e-12)


def test_a_nested_scenario_must_be_of_the_declared_type_and_pickles():
    with pytest.raises(InputError, match="expected a ActivationMemoryScenario scenario"):
        Scenarios.Gpt3Zero3On64.variant(activations=Scenarios.DpSgdPerExampleGradients)
    s = Scenarios.Gpt3Zero3On64
    assert pickle.loads(pickle.dumps(s)).zero3_total_per_device == s.zero3_total_per_device
    assert catalog().types["ZeroShardingScenario"].inputs["activations"].type_name == "ActivationMemoryScenario"


def test_a_scenario_input_bound_by_its_scenarios_name_equals_the_instance_and_mlsysim():
    """mlsysim code passes its named scenario; here its name (or ours) binds the same scenario."""
    by_name = Scenarios.Gpt3Zero3On64.variant(activations="Gpt3ActivationsMicrobatch4", activation_strategy="selective")
    by_instance = Scenarios.Gpt3Zero3On64.variant(activations=Scenarios.Gpt3ActivationsMicrobatch4, activation_strategy="selective")
    assert by_name.activations is Scenarios.Gpt3ActivationsMicrobatch4
    assert by_name.zero3_total_per_device == by_instance.zero3_total_per_device
    import mlsysim

    ref = reference_scenario("Gpt3Zero3On64").model_copy(update={
        "activations": mlsysim.Scenarios.Gpt3ActivationsMicrobatch4, "activation_strategy": "selective"})
    assert_close(by_name.result.zero3_total_per_device, ref.result.zero3_total_per_device, "bound by name")


def test_a_wrong_scenario_name_is_refused_with_the_types_names():
    with pytest.raises(UnknownNameError, match="unknown ActivationMemoryScenario scenario .*did you mean 'Gpt3ActivationsMicrobatch4'.* Known: "):
        Scenarios.Gpt3Zero3On64.variant(activations="Gpt3ActivationsMicrobatch")
    with pytest.raises(InputError, match="DpSgdPerExampleGradients is a scenario of type PerExampleGradientScenario; "
                                         "expected one of type ActivationMemoryScenario"):
        Scenarios.Gpt3Zero3On64.variant(activations="DpSgdPerExampleGradients")


# ---------------------------------------------------------------------- methods over two scenarios
GOODPUT = catalog().scenarios_of("GoodputScenario")


@pytest.mark.parametrize("this", GOODPUT)
@pytest.mark.parametrize("other", GOODPUT)
def test_trade_ratio_over_two_scenarios_equals_mlsysim(this, other):
    ours = getattr(Scenarios, this).trade_ratio(getattr(Scenarios, other))
    theirs = reference_scenario(this).trade_ratio(reference_scenario(other))
    assert_close(ours, theirs, f"{this}.trade_ratio({other})")
    assert_close(getattr(Scenarios, this).trade_ratio(other), theirs, "the other given by its Scenarios name")


def test_the_other_scenarios_symbols_stay_its_own():
    """MPG'/MPG = (S'R'P')/(SRP): each factor's elasticity is +1 for the other's and -1 for ours (hand derivation)."""
    this, other = Scenarios.Llama2_70BSharedPoolGoodput128, Scenarios.Llama3_405BGoodput16K
    bound = this.variant(other=other)
    expanded = bound.expression("trade_ratio", expand=True)
    assert {str(s) for s in expanded.free_symbols} == {"S", "R", "P", "other.S", "other.R", "other.P"}
    elasticities = {e.input: e.value for e in bound.elasticities("trade_ratio")}
    assert elasticities == pytest.approx({"other.scheduling": 1, "other.runtime": 1, "other.program": 1,
                                          "scheduling": -1, "runtime": -1, "program": -1}, rel=1e-12)
    assert str(this.equation("trade_ratio")) == "Eq(rho_trade, MPG_other/MPG)"
    tex = bound.tex.equation("trade_ratio", expand=True)
    assert r"{S}^{(\mathrm{other})}" in tex and r"\frac" in tex


def test_a_method_over_two_scenarios_names_what_it_needs():
    s = Scenarios.Llama2_70BSharedPoolGoodput128
    with pytest.raises(MissingInputError, match="trade_ratio.*other"):
        s.trade_ratio()
    with pytest.raises(InputError, match="other: expected a GoodputScenario scenario"):
        s.trade_ratio(Scenarios.Gpt3Zero3On64)
    assert "trade_ratio" not in s.values()      # a method: it needs the other scenario


def test_a_type_takes_a_scenario_of_itself_only_as_a_per_call_argument():
    from mlsysim_symbolic import DerivationError
    from mlsysim_symbolic.spec import ScenarioType

    data = {"summary": "x", "inputs": {"a": {"unit": "s"}, "other": {"kind": "scenario", "type": "T"}},
            "outputs": {"t": {"unit": "s", "equation": "a"}, "ratio": {"unit": "1", "equation": "other.t / t"}}}
    with pytest.raises(DerivationError, match="can only be an argument"):
        ScenarioType.from_mapping("T", data)
    data["inputs"]["other"]["argument"] = True
    t = ScenarioType.from_mapping("T", data)
    assert t.outputs["ratio"].peers == ("other",) and t.outputs["ratio"].style == "method"
