"""Training-compute scenarios against mlsysim 0.3.0.

Every named scenario of ClusterTrainingTimeScenario, TrainingRunScenario,
PublishedRunScenario, FleetMfuScenario, PowerLawScenario and
AllocationGrowthScenario, every numeric member (the scenario's own properties, or
the fields of its ``.result`` for TrainingRunScenario), compared at 1e-9 relative.
Where mlsysim raises (an optional input unset), ours must raise ``MissingInputError``.

``stage_times`` (a cumulative product over the ordered ``overheads``, ``prod_upto``)
is compared key by key.  Not ported: every ``.result`` object itself.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import load_file
from mlsysim_symbolic.paths import derivations_dir

from .compare import assert_close, reference_scenario

FILE = derivations_dir() / "training_compute.toml"

# class -> member name -> where mlsysim keeps it: "self" (a scenario property) or "result" (a field of .result)
MEMBERS: dict[str, dict[str, str]] = {
    "ClusterTrainingTimeScenario": dict.fromkeys(
        ["peak_rate", "training_time", "delivered_rate", "training_tokens", "step_operations", "step_time",
         "steps", "energy", "step_energy", "device_hours", "rental_cost"], "self"),
    "TrainingRunScenario": dict.fromkeys(
        ["total_flops", "peak_time", "compute_time", "scaled_time", "total_time", "stage_times", "delivered_fraction"], "result"),
    "PublishedRunScenario": dict.fromkeys(["training_operations", "achieved_rate", "energy", "peak_fraction"], "self"),
    "FleetMfuScenario": dict.fromkeys(
        ["node_useful_work", "fleet_useful_work", "fleet_peak_work", "node_mfu", "fleet_mfu", "scaling_efficiency",
         "extra_step_time", "extra_share"], "self"),
    "PowerLawScenario": dict.fromkeys(["multiple_factor", "multiple_reduction", "halving_multiple", "reduction_multiple"], "self"),
    "AllocationGrowthScenario": {"growth": "self"},
}

# members mlsysim has that are not ported (see the module docstring)
SKIPPED: dict[str, set[str]] = {}

# (scenario, member) where mlsysim raises because an optional input is unset: ours must raise MissingInputError
RAISES: set[tuple[str, str]] = {
    *((s, m) for s in ("Gpt3TrainingTime1KA100", "Gpt3TrainingTime1KA100HigherUtilization")
      for m in ("step_operations", "step_time", "steps", "step_energy", "rental_cost")),
    ("Gpt3PublishedRun", "energy"),
    ("KaplanComputeDoubling", "reduction_multiple"),
    ("KaplanTenPercentLowerLoss", "multiple_factor"),
    ("KaplanTenPercentLowerLoss", "multiple_reduction"),
}


@functools.cache
def _mlsysim_instances() -> dict[str, str]:
    import mlsysim

    scen = mlsysim.Scenarios
    return {n: type(getattr(scen, n)).__name__ for n in dir(scen) if type(getattr(scen, n)).__name__ in MEMBERS}


#: Our named scenarios of the file and their types, read from its declarations (nothing built, mlsysim not imported
#: while collecting); test_every_instance_is_ported holds them to mlsysim's.
OURS = {k: d.type_name for k, d in load_file(FILE).declared.items()}
CASES = [(name, member) for name, cls in sorted(OURS.items()) for member in MEMBERS[cls]]


@pytest.fixture(scope="module")
def cat() -> Any:
    return load_file(FILE)


def _theirs(name: str, member: str) -> Any:
    ref = reference_scenario(name)
    where = MEMBERS[type(ref).__name__][member]
    return getattr(ref.result if where == "result" else ref, member)


def test_every_instance_is_ported(cat: Any) -> None:
    ours = {k: d.type_name for k, d in cat.declared.items()}
    assert ours == OURS == _mlsysim_instances()


@pytest.mark.parametrize("cls", sorted(MEMBERS))
def test_outputs_are_the_ported_members(cat: Any, cls: str) -> None:
    assert set(cat.types[cls].outputs) == set(MEMBERS[cls])


def test_stage_times_follow_the_order_of_the_overheads(cat: Any) -> None:
    """stage_times is a cumulative product in the overheads' order (mlsysim's dict, key by key)."""
    ref = reference_scenario("Gpt3PretrainingFrontier8K").result.stage_times
    ours = cat.scenario("Gpt3PretrainingFrontier8K").stage_times
    assert list(ours) == list(ref) == ["checkpoint", "failures", "maintenance"]
    scaled = cat.scenario("Gpt3PretrainingFrontier8K").scaled_time
    # by hand: 1.03, 1.03 * 1.1, 1.03 * 1.1 * 1.05 times the scaled time
    for key, factor in zip(ours, (1.03, 1.03 * 1.1, 1.03 * 1.1 * 1.05)):
        assert ours[key].to("h").magnitude == pytest.approx(scaled.to("h").magnitude * factor, rel=1e-12)


@pytest.mark.parametrize(("name", "member"), CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_member(cat: Any, name: str, member: str) -> None:
    ours = cat.scenario(name)
    if (name, member) in RAISES:
        with pytest.raises(Exception):  # noqa: B017 - mlsysim raises TypeError/ValueError on a None input
            _theirs(name, member)
        with pytest.raises(MissingInputError):
            getattr(ours, member)
        return
    theirs = _theirs(name, member)
    if isinstance(theirs, dict):
        value = getattr(ours, member)
        assert list(value) == list(theirs)
        for key in theirs:
            assert_close(value[key], theirs[key], f"{name}.{member}[{key}]")
        return
    assert_close(getattr(ours, member), theirs, f"{name}.{member}")


def test_total_time_is_the_last_stage(cat: Any) -> None:
    """The product over every overhead equals mlsysim's last cumulative stage (the one stage we can express)."""
    ref = reference_scenario("Gpt3PretrainingFrontier8K").result
    assert_close(cat.scenario("Gpt3PretrainingFrontier8K").total_time, ref.stage_times["maintenance"], "total_time")


def test_precision_fallback_matches(cat: Any) -> None:
    """mlsysim's precision_flops.get(precision, peak_flops): an H100 has no 'fp16' key, so peak_flops is used."""
    ref = reference_scenario("Gpt3PretrainingFrontier8K").variant(precision="fp16").result
    ours = cat.scenario("Gpt3PretrainingFrontier8K").variant(precision="fp16")
    for member in MEMBERS["TrainingRunScenario"]:
        theirs = getattr(ref, member)
        if isinstance(theirs, dict):
            for key in theirs:
                assert_close(getattr(ours, member)[key], theirs[key], f"fp16 {member}[{key}]")
        else:
            assert_close(getattr(ours, member), theirs, f"fp16 {member}")


def test_peak_precision_variants(cat: Any) -> None:
    """peak_precision picks precision_flops[key]; a key the hardware lacks raises in both."""
    ref = reference_scenario("Gpt2XlRunOnOneH100").variant(peak_precision="fp8")
    ours = cat.scenario("Gpt2XlRunOnOneH100").variant(peak_precision="fp8")
    for member in MEMBERS["ClusterTrainingTimeScenario"]:
        assert_close(getattr(ours, member), getattr(ref, member), f"fp8 {member}")
    import mlsysim

    ref_v100 = reference_scenario("Gpt2XlRunOnOneH100").variant(hardware=mlsysim.Hardware.Cloud.V100, peak_precision="tf32")
    with pytest.raises(KeyError):
        _ = ref_v100.peak_rate
    with pytest.raises(MissingInputError):
        _ = cat.scenario("Gpt2XlRunOnOneH100").variant(hardware="V100", peak_precision="tf32").peak_rate
