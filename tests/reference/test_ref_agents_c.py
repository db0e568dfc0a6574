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


def test_wilson_intervals_of_newcombe_1998_table_ii() -> None:
    """Newcombe (1998), Two-sided confidence intervals for the single proportion: comparison of seven methods,
    Statistics in Medicine 17, Table II, method 3 (Wilson score, no continuity correction), 95 %: 81/263 gives
    0.2553-0.3662, 15/148 gives 0.0624-0.1605, 1/29 gives 0.0061-0.1718, and 0/20 gives 0-0.1611 (the clean-run
    upper limit z²/(n + z²) at n = 20). Four decimals, as the table prints them."""
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("InterfaceRepairBranches")
    table = {"a": (81, 263, 0.2553, 0.3662), "b": (15, 148, 0.0624, 0.1605), "c": (1, 29, 0.0061, 0.1718),
             "d": (0, 20, 0.0, 0.1611)}
    s = base.variant(accepted_runs={k: v[0] for k, v in table.items()},
                     other_runs={k: v[1] - v[0] for k, v in table.items()})
    for branch, (_, _, low, high) in table.items():
        ours = [round(float(v.magnitude), 4) for v in s.acceptance_interval(branch=branch)]
        assert ours == [low, high], f"{branch}: {ours} against Newcombe's {low}-{high}"
    assert round(float(s.clean_failure_upper(clean_runs=20).magnitude), 4) == 0.1611
