"""Agents and LLM applications, group A, against mlsysim 0.3.0: every public member of every named scenario
(see members.py); result fields are compared by test_ref_results.py."""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "AcceptedTaskCostScenario",
        "AdaptationPaybackScenario",
        "CappedSelectionCostScenario",
        "CohortAttemptCostScenario",
        "CohortDispositionScenario",
        "DedicatedBreakEvenScenario",
        "DelegationTokenBreakEvenScenario",
    ),
    not_ported={},
    skipped={},
    method_args={
        ("CohortDispositionScenario", "cost_per_artifact"): [{"yield_at": 0.03}, {"yield_at": 0.06}, {"yield_at": 0.5}],
        ("DedicatedBreakEvenScenario", "hourly_costs"): [{"at_load": 0.2}, {"at_load": 0.52}, {"at_load": 1.0}],
    },
    implicit_units={
        ("DedicatedBreakEvenScenario", "hourly_costs"): "USD/h",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
