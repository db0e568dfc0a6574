"""Statistics, evaluation and MLOps, group C (zero-failure and zero-event evidence, sequential and two-proportion
tests, paired accuracy comparisons, segment accuracy, skew and rollout exposure) and the misc classes against
mlsysim 0.3.0: every public member of every named scenario (see members.py); the ``result`` of each is compared
field by field by test_ref_results.py."""

import math

import pytest

from .members import Wave, wave_tests

EVENTS = [{"event": ("option", e)} for e in ("fatalities", "injuries", "crashes")]

WAVE = Wave(
    classes=(
        "RoadExposureScenario",
        "RolloutExposureScenario",
        "SameTestSetAccuracyComparisonScenario",
        "ScreeningRequirementsScenario",
        "SegmentAccuracyScenario",
    ),
    not_ported={},
    skipped={
        ("RoadExposureScenario", "cleared"): (
            "a list of the requirement values (every event class, row by row) that the fleet's miles exceed: its "
            "length depends on the values, and a keyed output keeps one value per key; ours gives the three keyed "
            "predicates zero_failure_cleared, precision_cleared and improvement_cleared, from which "
            "test_cleared_equals_mlsysims_list rebuilds mlsysim's list"),
        ("ScreeningRequirementsScenario", "failing_slices"): (
            "a list of the slice names whose sensitivity misses the floor: its length depends on the values, and a "
            "keyed output keeps one value per key; ours gives the keyed predicate passes, from which "
            "test_failing_slices_equal_mlsysims_list rebuilds mlsysim's list"),
    },
    method_args={
        **{("RoadExposureScenario", m): EVENTS
           for m in ("recomputed_zero_failure", "requirements", "shortfall", "precision_over_fleet")},
        ("ScreeningRequirementsScenario", "passes"): [
            {"slice_name": ("option", "all clinic photos")}, {"slice_name": ("option", "cataract patients")}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
