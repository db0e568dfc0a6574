"""Training-memory scenarios against mlsysim 0.3.0, member by member.

Every named scenario of TrainingStateScenario, TrainingStateFitScenario,
ActivationMemoryScenario, ZeroShardingScenario, AlignmentMemoryScenario,
LowRankUpdateScenario and UpdateWorkingSetScenario, and every numeric member of
it, is compared at 1e-9 relative.  Where mlsysim raises (or returns None) because
an optional input is unset, ours must raise MissingInputError.

Where mlsysim reaches a value through its solver (``scenario.result.X``), ours is
the output ``X`` of the scenario itself; mlsysim's dict results
(``result.stage_state["ZeRO-1"]``) are methods taking the key
(``stage_state("ZeRO-1")``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import load_file

from .compare import assert_close, reference_scenario

FILE = Path(__file__).resolve().parents[2] / "derivations" / "training_memory.toml"


class Case(NamedTuple):
    scenario: str
    member: str
    how: str = "prop"          # prop | result | result_key | method
    args: tuple = ()           # method arguments (ours) or the result dict key
    their_args: tuple = ()     # method arguments for mlsysim (defaults to args)
    bare_unit: str = ""        # mlsysim returns a bare number; compare ours in this unit

    @property
    def id(self) -> str:
        suffix = "" if not self.args else "[" + ",".join(map(str, self.args)) + "]"
        return f"{self.scenario}-{self.member}{suffix}"


def _mlsysim_names(cls: str) -> list[str]:
    import mlsysim

    s = mlsysim.Scenarios
    return sorted(n for n in dir(s) if type(getattr(s, n)).__name__ == cls)


def _our_names(cls: str) -> list[str]:
    """Our named scenarios of ``cls`` in the file, sorted, read from its declarations (nothing built, mlsysim not
    imported while collecting); test_every_named_scenario_is_ported holds them to mlsysim's."""
    return sorted(load_file(FILE).scenarios_of(cls))


def _cases() -> list[Case]:
    cases: list[Case] = []

    for sc in _our_names("TrainingStateScenario"):
        for m in ("weights", "gradients", "master_weights", "adam_moment", "optimizer_moments",
                  "persistent_state", "activations", "tp_weights_per_device", "tp_gradients_per_device",
                  "tp_master_per_device", "tp_moments_per_device", "tp_activations_per_device",
                  "tp_total_per_device", "tp_offloaded_per_device", "zero_moments_per_device",
                  "zero_moments_per_tp_group", "zero_weights_and_moments_per_device"):
            cases.append(Case(sc, m, "result"))

    for sc in _our_names("TrainingStateFitScenario"):
        for m in ("adapter_count", "weights", "gradients", "optimizer_state", "optimizer_values_per_parameter",
                  "master_weights", "bytes_per_trained_parameter", "adapter_state", "adapter_weights",
                  "adapter_gradients", "adapter_master", "adapter_optimizer_state", "adapter_fraction",
                  "full_state", "adapter_saved", "adapter_reduction", "adapter_kept_share", "frozen_share",
                  "adapter_reduction_ceiling", "total", "copies", "capacity_share", "training_total",
                  "training_copies", "training_capacity_multiple", "resident_batch_limit",
                  "max_resident_batch", "checkpoint", "update_bytes_per_parameter", "update_traffic",
                  "update_time"):
            cases.append(Case(sc, m))
        # mlsysim's own use: ResNet50Fp32AdamBatch64.activations_at(512)
        for batch in (1, 64, 512):
            cases.append(Case(sc, "activations_at", "method", (batch,)))
        for bw in ("2 GB/s", "7 GB/s", "25 GB/s"):
            cases.append(Case(sc, "checkpoint_write_time", "method", (bw,), (("mlsysim quantity", bw),)))

    for sc in _our_names("ActivationMemoryScenario"):
        for m in ("sequence", "score_share", "per_sequence_activations", "segment_layers", "segment_input",
                  "segment_inputs", "live_segment", "checkpointed_activations", "per_token_activations",
                  "score_activations", "projection_activations_per_layer", "ffn_activations_per_layer",
                  "score_activations_per_layer", "line_items_per_layer", "line_items_total",
                  "forward_equivalents", "recompute_forward_equivalents", "recompute_overhead"):
            cases.append(Case(sc, m))
        # mlsysim returns these two as bare numbers: bytes per (token x unit of width)
        cases.append(Case(sc, "per_token_bytes_coefficient", bare_unit="B"))
        cases.append(Case(sc, "score_bytes_coefficient", bare_unit="B"))
        for strategy in ("none", "selective", "full"):
            cases.append(Case(sc, "activations", "method", (strategy,)))
        for k in (1, 7, 8):   # 7 ~ sqrt(48), the optimum for GPT-2 XL's 48 layers
            cases.append(Case(sc, "checkpoint_memory_units", "method", (k,)))

    for sc in _our_names("ZeroShardingScenario"):
        for m in ("weights", "gradients", "optimizer_state", "activations", "zero3_total_per_device",
                  "gather_traffic", "gather_time"):
            cases.append(Case(sc, m, "result"))
        for stage in ("DDP", "ZeRO-1", "ZeRO-2", "ZeRO-3"):
            cases.append(Case(sc, "stage_state", "result_key", (stage,)))
            cases.append(Case(sc, "traffic_multiple", "result_key", (stage,)))

    for sc in _our_names("AlignmentMemoryScenario"):
        for m in ("policy_state", "reference_weights", "reward_weights", "value_state", "ppo_total",
                  "dpo_total", "dpo_reduction", "model_parallel_devices", "policy_per_device",
                  "reference_per_device", "kv_cache", "kv_per_device", "min_devices_for_ppo"):
            cases.append(Case(sc, m, "result"))

    for sc in _our_names("LowRankUpdateScenario"):
        for m in ("full_params", "update_params", "reduction", "compression", "full_bytes", "update_bytes"):
            cases.append(Case(sc, m))

    for sc in _our_names("UpdateWorkingSetScenario"):
        for m in ("weights", "gradients", "optimizer_state", "activations", "persistent", "total",
                  "amplification", "floor", "ceiling", "step_traffic", "weight_reads", "traffic_ratio",
                  "weight_read_share", "step_floor"):
            cases.append(Case(sc, m))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def cat() -> Any:
    return load_file(FILE)


def _their_arg(value: Any) -> Any:
    """("mlsysim quantity", "2 GB/s") is mlsysim's Quantity of that text, made when the test runs."""
    if isinstance(value, tuple) and value[:1] == ("mlsysim quantity",):
        import mlsysim

        return mlsysim.core.units.Q_(value[1])
    return value


def _theirs(case: Case) -> Any:
    ref = reference_scenario(case.scenario)
    if case.how == "result":
        return getattr(ref.result, case.member)
    if case.how == "result_key":
        return getattr(ref.result, case.member)[case.args[0]]
    if case.how == "method":
        return getattr(ref, case.member)(*map(_their_arg, case.their_args or case.args))
    return getattr(ref, case.member)


def _ours(cat: Any, case: Case) -> Any:
    s = cat.scenario(case.scenario)
    if case.how in ("method", "result_key"):
        return getattr(s, case.member)(*case.args)
    if case.how == "result" and s.type.result is not None:   # mlsysim's result field, through our result view
        return getattr(s.result, case.member)
    return getattr(s, case.member)


def test_every_named_scenario_is_ported(cat: Any) -> None:
    for cls in ("TrainingStateScenario", "TrainingStateFitScenario", "ActivationMemoryScenario",
                "ZeroShardingScenario", "AlignmentMemoryScenario", "LowRankUpdateScenario",
                "UpdateWorkingSetScenario"):
        names = _mlsysim_names(cls)
        assert names, cls
        for name in names:
            assert cat.declared[name].type_name == cls
        assert _our_names(cls) == names, cls


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_member_matches_mlsysim(cat: Any, case: Case) -> None:
    try:
        theirs = _theirs(case)
    except (TypeError, AttributeError, ValueError):
        theirs = None   # mlsysim fails on an unset optional input
    if theirs is None:
        if case.how == "result" and cat.scenario(case.scenario).type.result is not None:
            assert _ours(cat, case) is None   # a result field whose optional input is unset is None, as mlsysim's
            return
        with pytest.raises(MissingInputError):
            _ours(cat, case)
        return
    ours = _ours(cat, case)
    if case.bare_unit:
        assert_close(ours.to(case.bare_unit).magnitude, theirs, case.id)
    else:
        assert_close(ours, theirs, case.id)


# Where mlsysim raises or returns None, say so explicitly, so a change on either side shows.
EXPECTED_MISSING = {
    ("Gpt2Fp32AdamOnH100", "training_total"), ("Gpt2Fp32AdamOnH100", "adapter_count"),
    ("Llama2_7BMixedPrecisionAdam", "resident_batch_limit"), ("ResNet50Fp32SgdMomentum", "capacity_share"),
    ("Rank16AdaptersOnHypothetical8B", "update_time"), ("Gpt3ActivationsMicrobatch1", "segment_layers"),
    ("Llama2_7B_ZeroStages64", "gather_time"), ("TransformerLayerRank4Update", "full_bytes"),
}


@pytest.mark.parametrize("scenario,member", sorted(EXPECTED_MISSING))
def test_unset_optional_inputs_raise(cat: Any, scenario: str, member: str) -> None:
    case = next(c for c in CASES if c.scenario == scenario and c.member == member)
    try:
        theirs = _theirs(case)
    except (TypeError, AttributeError, ValueError):
        theirs = None
    assert theirs is None
    if case.how == "result" and cat.scenario(case.scenario).type.result is not None:
        assert _ours(cat, case) is None          # the result field is None, as mlsysim's
        with pytest.raises(MissingInputError):   # and the output itself names what it needs
            getattr(cat.scenario(case.scenario), case.member)
        return
    with pytest.raises(MissingInputError):
        _ours(cat, case)
