"""Scenarios as inputs (issue 12): ZeroSharding with an ActivationMemory scenario as its activations, as
mlsysim 0.3.0 nests them, equal to mlsysim's numbers; its expanded tree reaches the nested scenario's
leaves, so a derivative with respect to the micro-batch is exact."""

from __future__ import annotations

import pickle

import pytest

from mlsysim_symbolic import InputError, Scenarios
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
