"""Agents and LLM applications, group B (model calls, resent trajectories, context budgets, retrieval payloads and
indexes) against mlsysim 0.3.0: every public member of every named scenario (see members.py); the ``result`` of each
is compared field by field by test_ref_results.py."""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "ModelCallScenario",
        "TrajectoryResendScenario",
        "AppendOnlyContextScenario",
        "ResendCacheBillScenario",
        "AnnFootprintScenario",
        "Bm25PairScenario",
        "CompactionCadenceScenario",
        "CompactionPaybackScenario",
        "ContextAdmissionScenario",
        "ContextBudgetScenario",
        "ContextInvalidationScenario",
        "ExactScanScenario",
        "GraphNeighborhoodScenario",
        "IndexMaintenanceScenario",
        "ObservationCarryScenario",
        "PrefixLayoutBillScenario",
        "RetrievalPayloadScenario",
        "StorageAmplificationScenario",
        "ToolCatalogSelectionScenario",
        "UndetectedLoopScenario",
        "TrajectoryBudgetMeterScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
