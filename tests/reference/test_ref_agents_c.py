"""Agents and LLM applications, group C (RL from verifiable rewards, fine-tuning on trajectories, sampling and
attention) against mlsysim 0.3.0: every public member of every named scenario (see members.py); result fields are
compared by test_ref_results.py."""

from .members import Wave, wave_tests

BRANCHES = [{"branch": ("option", b)} for b in ("original", "warning", "paginated")]
PASS_RATES = [{"pass_rate": 0.05}, {"pass_rate": 0.5}, {"pass_rate": 0.95}, {"pass_rate": 0.2}]

WAVE = Wave(
    classes=(
        "AttemptGroupContrastScenario",
        "CenteredRewardScenario",
        "ContinuationForkCostScenario",
        "ControlledBranchScenario",
        "ForkValueScenario",
        "GroupBarrierScenario",
        "LengthNormalizationScenario",
        "LossNormalizationScenario",
        "PerInvocationSerializationScenario",
        "PreferencePairScenario",
        "RatioClipScenario",
        "RewardCompositionScenario",
        "RolloutSlotCycleScenario",
        "RolloutStepBudgetScenario",
        "RunSplitLeakageScenario",
        "TargetMaskScenario",
        "AttentionDilutionScenario",
        "AllocationAxesScenario",
    ),
    not_ported={},
    skipped={},
    method_args={
        **{("AttemptGroupContrastScenario", m): PASS_RATES
           for m in ("success_yield", "mixed_fraction", "attempts_per_success")},
        **{("ControlledBranchScenario", m): BRANCHES
           for m in ("runs", "accepted", "acceptance_interval", "failure_upper")},
        ("ControlledBranchScenario", "clean_failure_upper"): [{"clean_runs": n} for n in (1, 20, 59, 73, 1000)],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
