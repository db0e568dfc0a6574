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
        "ArmComparisonScenario",
        "DriftConfirmationScenario",
        "CanaryScheduleScenario",
        "BinomialIntervalsScenario",
        "BinShareShiftScenario",
    ),
    not_ported={},
    skipped={
        ("BinShareShiftScenario", m): (
            "a method keyed by bin name, and the two named scenarios name different bins (countries, age bands), so "
            "no one argument list fits both: compared for every bin of every named scenario in "
            "test_bin_terms_and_shares_by_name_equal_mlsysims below")
        for m in ("term", "shares")
    },
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
        ("ArmComparisonScenario", "runs_per_arm_for"): [{"effect_h": h} for h in (0.2, 0.5, 0.8, 0.28379410920832804)],
        ("DriftConfirmationScenario", "outcomes_needed"): [{"drop_size": d} for d in (0.05, 0.02, 0.01, 0.005)],
        ("DriftConfirmationScenario", "collection_time"): [{"rate": ("option", "high")}, {"rate": ("option", "low")}],
        ("DriftConfirmationScenario", "collection_time_for"): [{"samples": 500, "rate": ("option", "low")},
                                                               {"samples": 3932, "rate": ("option", "high")}],
        ("CanaryScheduleScenario", "stage_minimum"): [{"share": p} for p in (0.01, 0.05, 0.25, 0.5, 1.0)],
        ("BinShareShiftScenario", "ratio"): [{"i": i} for i in range(5)],
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


#: Newcombe (1998), Statistics in Medicine 17:857-872: the 95 % intervals of the paper's illustrative proportions by
#: method 1 (Wald, "simple asymptotic") and method 3 (Wilson score, no continuity correction), to four decimals.
NEWCOMBE = (
    # x, n, Wald (low, high) or None where not used here, Wilson (low, high)
    (81, 263, (0.2522, 0.3638), (0.2553, 0.3662)),
    (15, 148, (0.0527, 0.1500), (0.0624, 0.1605)),
    (0, 20, (0.0, 0.0), (0.0, 0.1611)),
    (1, 29, None, (0.0061, 0.1718)),
)


@pytest.mark.parametrize(("x", "n", "wald", "wilson"), NEWCOMBE, ids=[f"{r[0]}/{r[1]}" for r in NEWCOMBE])
def test_wald_and_wilson_intervals_are_newcombes(x, n, wald, wilson):
    """Newcombe (1998), Two-sided confidence intervals for the single proportion: comparison of seven methods,
    Statistics in Medicine 17(8):857-872, the illustrative intervals (methods 1 and 3 at 95 %): 81/263, 15/148, 0/20
    and 1/29 (the Wald interval of 1/29, which leaves [0, 1], is not asserted)."""
    from mlsysim_symbolic.catalog import catalog

    result = catalog().scenario("FiftyTaskIntervals").variant(trials=n, successes=[x]).result
    assert result.z_critical == pytest.approx(1.959963984540054, rel=1e-12)
    if wald is not None:
        assert result.wald[x] == pytest.approx(wald, abs=5e-5)
    assert result.wilson[x] == pytest.approx(wilson, abs=5e-5)


def test_wilson_upper_limit_at_zero_is_z_squared_over_n_plus_z_squared():
    """Wilson (1927): at x = 0 the upper limit is z²/(n + z²) (centre and half-width both z²/(2(n + z²)))."""
    from mlsysim_symbolic.catalog import catalog

    z = 1.959963984540054
    assert catalog().scenario("FiftyTaskIntervals").result.wilson[0][1] == pytest.approx(z * z / (50 + z * z), rel=1e-12)


def test_lady_tasting_tea_is_one_in_seventy():
    """Fisher (1935), The Design of Experiments, ch. II: four cups of each kind, and C(8, 4) = 70 ways to pick four,
    so all four right by chance is 1/70. As two arms of four runs with 4 and 0 successes (every failure in arm B):
    all_in_one_arm = 1/70, the two-sided exact p = 2/70; with 3 and 1 successes, the tables no more probable than
    the observed one are x = 0, 1, 3, 4 of probabilities 1, 16, 16, 1 in 70: p = 34/70 (hand computation)."""
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("LatchCheckpointComparison").variant(arm_runs=4, table=[0, 1, 2, 3, 4])
    perfect = base.variant(successes_a=4, successes_b=0)
    assert float(perfect.all_in_one_arm) == pytest.approx(1 / 70, rel=1e-12)
    assert float(perfect.fisher_p) == pytest.approx(2 / 70, rel=1e-12)
    assert float(base.variant(successes_a=3, successes_b=1).fisher_p) == pytest.approx(34 / 70, rel=1e-12)


def test_successes_above_the_runs_are_refused():
    """No silent p-value: successes above the runs leave no table with the observed margins (total probability 0),
    and the exact test and the all-in-one-arm chance refuse it rather than summing nothing."""
    from mlsysim_symbolic import InputError
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("LatchCheckpointComparison")
    for above in ({"successes_a": 21}, {"successes_b": 21}, {"successes_a": 30, "successes_b": 28}):
        s = base.variant(**above)
        assert float(s.table_total) == 0
        for member in ("fisher_p", "all_in_one_arm"):
            with pytest.raises(InputError, match=f"{member} has no value"):
                getattr(s, member)
    assert float(base.table_total) == pytest.approx(1, rel=1e-12)   # Vandermonde: the tables' probabilities sum to 1


def test_cohens_h_and_runs_per_arm_by_hand():
    """Cohen (1988), ch. 6: h = 2 asin√p1 − 2 asin√p2 (φ(1) − φ(0) = π); with each φ of variance 1/n, two arms need
    n = ⌈2((z_.975 + z_.80)/h)²⌉: at h = 0.2, 2·(2.8015852/0.2)² = 392.44, so 393 (hand computation)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("LatchCheckpointComparison")
    assert float(s.variant(p_high=1.0, p_low=0.0).cohens_h) == pytest.approx(math.pi, rel=1e-12)
    expected = 2 * math.asin(math.sqrt(0.9)) - 2 * math.asin(math.sqrt(0.8))
    assert float(s.cohens_h) == pytest.approx(expected, rel=1e-12)
    z = 1.959963984540054 + 0.8416212335729143
    assert 2 * (z / 0.2) ** 2 == pytest.approx(392.44, abs=0.01)
    assert int(s.runs_per_arm_for(0.2)) == 393 == math.ceil(2 * (z / 0.2) ** 2)


@pytest.mark.parametrize("delay", ["0 h", "1 h", "2 h", "2.5 h", "3 h", "10 h"])
def test_canary_labeled_by_completion_with_a_label_delay_equals_mlsysims(delay):
    """The named ladder has no label delay (mlsysim's labeled_by_completion raises there, ours is missing its input);
    with one set, every property equals mlsysim's variant, the cutoff falling in each stage in turn."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario
    from .members import to_reference, variant_equal

    theirs = reference_scenario("CanaryGuardrailSchedule").variant(label_delay=to_reference(delay))
    ours = catalog().scenario("CanaryGuardrailSchedule").variant(label_delay=delay)
    assert variant_equal(ours, theirs, f"CanaryGuardrailSchedule(label_delay={delay})") == 4   # the four properties


@pytest.mark.parametrize("key", ["FraudCountryPsi", "RankingUserAgePsi"])
def test_bin_terms_and_shares_by_name_equal_mlsysims(key):
    """term(name) and shares(name) of every bin of the named scenario equal mlsysim's; our bins are the keys of the
    share maps, in mlsysim's order, and ratio(i) at each place is the same bin's ratio."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    theirs, ours = reference_scenario(key), catalog().scenario(key)
    assert list(ours.baseline_shares) == list(ours.current_shares) == list(theirs.bins)
    for i, name in enumerate(theirs.bins):
        assert_close(ours.term(name), theirs.term(name), f"{key}.term({name!r})")
        for o, t in zip(ours.shares(name), theirs.shares(name)):
            assert_close(o, t, f"{key}.shares({name!r})")
        assert_close(ours.ratio(i), theirs.ratio(i), f"{key}.ratio({i})")


def test_psi_by_hand_and_a_place_with_no_bin_is_refused():
    """Hand computation of the fraud model's PSI, Σ (c − b)·ln(c/b) over the five country buckets (Jeffreys' symmetrised
    divergence, so every term is non-negative); ratio(i) past the last bin has no value rather than 0."""
    from mlsysim_symbolic import InputError
    from mlsysim_symbolic.catalog import catalog

    b, c = (0.45, 0.2, 0.15, 0.1, 0.1), (0.38, 0.18, 0.14, 0.12, 0.18)
    expected = sum((ci - bi) * math.log(ci / bi) for bi, ci in zip(b, c))
    s = catalog().scenario("FraudCountryPsi")
    assert float(s.psi) == pytest.approx(expected, rel=1e-12)
    assert all(float(t) >= 0 for t in s.terms)
    with pytest.raises(InputError, match="ratio has no value"):
        s.ratio(5)
