"""Agents and LLM applications, group A, against mlsysim 0.3.0: every public member of every named scenario
(see members.py); result fields are compared by test_ref_results.py."""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "AcceptedTaskCostScenario",
        "AdaptationPaybackScenario",
        "CappedSelectionCostScenario",
        "CohortAttemptCostScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
