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
        "RetrainingIntervalScenario",
        "RoadExposureScenario",
        "RolloutExposureScenario",
        "SameTestSetAccuracyComparisonScenario",
        "ScreeningRequirementsScenario",
        "SegmentAccuracyScenario",
        "SequentialTestScenario",
        "SkewCostScenario",
        "TaskMixConsistencyScenario",
        "TwoProportionTestScenario",
        "ZeroEventExposureScenario",
        "ZeroFailureScenario",
        "DesignTradeoffScenario",
        "InputSpaceScenario",
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
        ("RetrainingIntervalScenario", "cost_rate"): [
            {"interval": "1 day"}, {"interval": "3 day"}, {"interval": "30 day"}, {"interval": "90 day"}],
        ("SkewCostScenario", "cost_over"): [{"period": "1 year"}, {"period": "30 day"}, {"period": "6 hour"}],
        ("TwoProportionTestScenario", "detectable_lift"): [{}, {"n_per_variant": 25000}, {"n_per_variant": 1000000}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_cleared_equals_mlsysims_list():
    """mlsysim's cleared (the requirement values, row by row over the event classes, that the fleet's miles exceed)
    rebuilt from our three keyed predicates, for the named scenario and for a fleet past some precision rows."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario

    for fleet in (56.7, 130.0):
        theirs = reference_scenario("RoadMilesToDemonstrate").variant(fleet_miles=fleet)
        ours = catalog().scenario("RoadMilesToDemonstrate").variant(fleet_miles=fleet)
        rebuilt = [float(getattr(ours, f"{row}_requirement")(event=e).magnitude)
                   for row in ("zero_failure", "precision", "improvement") for e in theirs.rates
                   if getattr(ours, f"{row}_cleared")(event=e)]
        assert rebuilt == theirs.cleared, fleet


def test_failing_slices_equal_mlsysims_list():
    """mlsysim's failing_slices (the slices whose sensitivity misses the floor) rebuilt from our keyed predicate
    passes, at the named scenario's floor and at floors that fail none and both."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario

    for floor in (0.9, 0.7, 0.95):
        theirs = reference_scenario("RetinopathyScreenerRequirements").variant(sensitivity_floor=floor)
        ours = catalog().scenario("RetinopathyScreenerRequirements").variant(sensitivity_floor=floor)
        assert [k for k in ours.slice_sensitivity if not ours.passes(slice_name=k)] == theirs.failing_slices, floor


def test_retraining_interval_is_harris_square_root_law():
    """Harris (1913), How Many Parts to Make at Once (reprinted Operations Research 38(6), 1990): the lot that
    minimises set-up cost K spread over the lot plus holding cost h per unit is √(2K/h); here K is the run cost and h
    the staleness slope. Written out for the ranking service: γ = ln(0.94/0.88)/28 = 0.00235564 per day, s = 10⁶ ·
    0.5 · 0.94 · γ = 1107.15 USD/day², T* = √(2 · 5000/1107.15) = 3.00536 days, where both terms of the cost rate
    equal 5000/3.00536 = 1663.71 USD/day; four times the traffic halves T* (√4 = 2). The run's compute: 4 H100s · 6 h
    · 4 USD/h = 96 USD, 96/5000 = 1.92 percent of the run cost."""
    from mlsysim_symbolic import Scenarios

    gamma = math.log(0.94 / 0.88) / 28
    slope = 1e6 * 0.5 * 0.94 * gamma
    s = Scenarios.RankingRetrainingInterval
    assert s.staleness_slope.to("USD/day**2").magnitude == pytest.approx(slope, rel=1e-12)
    t_opt = s.optimal_interval.to("day").magnitude
    assert t_opt == pytest.approx(math.sqrt(2 * 5000 / slope), rel=1e-12)
    assert round(t_opt, 5) == 3.00536
    assert s.cost_rate(interval=f"{t_opt} day").to("USD/day").magnitude == pytest.approx(2 * 5000 / t_opt, rel=1e-9)
    for off in (0.5, 2.0):    # the optimum is a minimum
        assert s.cost_rate(interval=f"{t_opt * off} day").magnitude > 2 * 5000 / t_opt
    fourfold = Scenarios.RankingRetrainingIntervalFourfoldTraffic.optimal_interval.to("day").magnitude
    assert fourfold == pytest.approx(t_opt / 2, rel=1e-12)
    assert s.compute_cost.to("USD").magnitude == pytest.approx(96.0, rel=1e-12)
    assert float(s.compute_share) == pytest.approx(0.0192, rel=1e-12)


def test_zero_failure_row_of_kalra_and_paddock_table_1():
    """Kalra and Paddock (2016), Driving to Safety, RAND RR-1478-RAND, Table 1, row (1): with no event, 275 million
    miles bound the fatality rate below the human 1.09 per 100 million miles at 95 percent confidence; 3.9 million
    the injury rate (77 per 100 million) and 1.6 million the crash rate (190 per 100 million). Our re-derivation
    −ln(0.05)/(λ/100) rounds to each at the table's precision."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("RoadMilesToDemonstrate")
    printed = {"fatalities": (275, 0), "injuries": (3.9, 1), "crashes": (1.6, 1)}
    for event, (miles, digits) in printed.items():
        assert round(float(s.recomputed_zero_failure(event=event).magnitude), digits) == miles, event


def test_rule_of_three_of_hanley_and_lippman_hand():
    """Hanley and Lippman-Hand (1983), If Nothing Goes Wrong, Is Everything All Right?, JAMA 249(13): with no event
    in n trials the 95 percent upper bound on the rate is about 3/n (exactly −ln 0.05/n = 2.9957/n under the Poisson
    approximation). Written out: −ln(0.05) = 2.995732..."""
    from mlsysim_symbolic import Scenarios

    s = Scenarios.CleanAttackSuite100
    assert float(s.coefficient) == pytest.approx(2.995732273553991, rel=1e-12)
    assert round(float(s.coefficient), 1) == 3.0
    assert float(s.rate_upper) == pytest.approx(2.995732273553991 / 100, rel=1e-12)
    exposure = Scenarios.KeywordSpotterFalseWakeEvidence
    assert exposure.exposure_needed.to("hour").magnitude == pytest.approx(2.995732273553991 * 720, rel=1e-12)


def test_exact_zero_failure_bounds_of_newcombe_1998_table_ii():
    """Newcombe (1998), Two-sided confidence intervals for the single proportion, Statistics in Medicine 17,
    Table II, 0/20: method 5 (Clopper-Pearson exact, two-sided 95 %) gives 0-0.1684, whose upper limit is the
    one-sided 97.5 % zero-failure bound 1 − 0.025^(1/20); method 6 (mid-p) gives 0-0.1391, which for x = 0 is the
    one-sided 95 % bound 1 − 0.05^(1/20). Four decimals, as the table prints them."""
    from mlsysim_symbolic import Scenarios

    base = Scenarios.CleanAttackSuite100
    assert round(float(base.variant(trials=20, confidence=0.975).rate_upper_exact), 4) == 0.1684
    assert round(float(base.variant(trials=20, confidence=0.95).rate_upper_exact), 4) == 0.1391


def test_wald_sprt_boundaries_and_ville_bound():
    """Wald (1945), Sequential Tests of Statistical Hypotheses, Ann. Math. Statist. 16(2): the likelihood-ratio
    boundaries are (1 − β)/α and β/(1 − α); at α = 0.05 and β = 0.10 they are 18 and 0.10/0.95 = 0.105263..., so
    e^−A = 1/18 (Ville's bound α/(1 − β)). Written out for the latch test: a clean run adds ln(0.99/0.90) =
    0.0953102, so ⌈ln 18/0.0953102⌉ = ⌈30.326⌉ = 31 clean runs accept; 25 clean runs and a failure score
    25·0.0953102 + ln 0.1 = 0.0801694; the fixed test needs ⌈ln 0.05/ln 0.9⌉ = ⌈28.43⌉ = 29 clean runs."""
    from mlsysim_symbolic import Scenarios

    s = Scenarios.LatchSequentialTest
    assert math.exp(float(s.accept)) == pytest.approx(18, rel=1e-12)
    assert math.exp(float(s.reject)) == pytest.approx(0.1 / 0.95, rel=1e-12)
    assert float(s.false_accept_bound) == pytest.approx(0.05 / 0.9, rel=1e-12)
    assert float(s.runs_to_accept) == 31 and float(s.fixed_runs) == 29
    assert float(s.trace_score) == pytest.approx(25 * math.log(0.99 / 0.9) + math.log(0.1), rel=1e-12)


def test_sixteen_over_delta_squared_rule_of_thumb():
    """van Belle (2002), Statistical Rules of Thumb: at two-sided 5 percent and 80 percent power, n ≈ 16σ²/Δ² per
    group, as 2(1.96 + 0.84)² = 15.68 ≈ 16 (also Kohavi et al. 2009). Written out for the CTR test: 15.68·0.05·0.95
    /0.005² = 29,792 users per arm, 59,584 over both, 1.43 hours of 1 million requests a day."""
    from mlsysim_symbolic import Scenarios

    s = Scenarios.CtrLiftExperiment
    assert 2 * float(s.z_sum_squared) == pytest.approx(15.68, rel=1e-12)
    assert round(2 * float(s.z_sum_squared)) == 16
    assert float(s.per_variant) == pytest.approx(29792, rel=1e-12)
    assert s.collection_time.to("hour").magnitude == pytest.approx(59584 / 1e6 * 24, rel=1e-12)


def test_mcnemar_limit_by_hand():
    """McNemar (1947): (b − c)²/(b + c) against χ²₁ at 95 percent, 1.959964² = 3.841459. Written out for 95 against
    94 percent on 1,000 items: b − c = 10, so b + c ≤ ⌊100/3.841459⌋ = ⌊26.03⌋ = 26 disagreements; the
    independent-set interval is 0.01 ± 1.959964·√(0.95·0.05/1000 + 0.94·0.06/1000) = 0.01 ± 0.0199782."""
    from mlsysim_symbolic import Scenarios

    s = Scenarios.NinetyFiveAgainstNinetyFourOnSameImages
    assert float(s.chi2_critical) == pytest.approx(3.841458820694124, rel=1e-12)
    assert float(s.net_gap) == 10 and float(s.max_discordant) == 26
    half = 1.959963984540054 * math.sqrt(0.95 * 0.05 / 1000 + 0.94 * 0.06 / 1000)
    low, high = s.independent_interval
    assert float(low) == pytest.approx(0.01 - half, rel=1e-9) and float(high) == pytest.approx(0.01 + half, rel=1e-9)


def test_imagenet_input_space_by_hand():
    """Counting: 224·224·3 = 150,528 elements of 256 values give 256^150528 = 2^1204224 inputs, whose log10 is
    1204224·log10 2 = 362,507.545..., so 362,508 decimal digits: 10^362507 ≤ 2^1204224 < 10^362508 in exact integers."""
    from mlsysim_symbolic import Scenarios

    s = Scenarios.ImageNetInputSpace
    assert float(s.elements) == 150528
    assert 10**362507 <= 2**1204224 < 10**362508
    assert float(s.digits) == 362508


#: named scenario -> variants (field -> value; a (ours, mlsysim's) pair where the two are given differently)
VARIANTS = {
    "RankingRetrainingInterval": [{"query_rate": "250000 1/day", "run_cost": "20000 USD",
                                   "accelerator_price": "2.5 USD/hour", "value_per_query": "0.02 USD"}],
    "RoadMilesToDemonstrate": [{"fleet_miles": 300.0, "confidence": 0.99}],
    "CanaryVersusCutoverExposure": [{"canary_share": 0.25}, {"time_to_rollback": (None, None)}],
    "NinetyFiveAgainstNinetyFourOnSameImages": [
        {"n_samples": 250, "candidate_accuracy": 0.97, "confidence": 0.99},            # the candidate ahead
        {"n_samples": 333, "baseline_accuracy": 0.9, "candidate_accuracy": 0.875},     # n·Δ = 8.325 rounds down
        {"n_samples": 5000, "baseline_accuracy": 0.8, "candidate_accuracy": 0.7, "confidence": 0.8}],
    "RetinopathyScreenerRequirements": [{"sensitivity_floor": 0.7, "device": ("JetsonAGXOrin", "JetsonAGXOrin")}],
    "RecommendationAccuracyByDevice": [{"accuracies": {"Desktop": 0.5, "iOS": 0.92, "Android": 0.88, "Tablet": 0.62}}],
    "LatchSequentialTest": [
        {"p_unacceptable": 0.05, "p_acceptable": 0.02, "alpha": 0.1, "beta": 0.2, "trace_clean_runs": 0},
        {"p_unacceptable": 0.5, "p_acceptable": 0.001, "alpha": 0.01, "beta": 0.01, "trace_clean_runs": 400}],
    "RankingSkewOnePercent": [{"skew_rate": 0.05, "query_rate": "20000 1/hour", "cost_per_error": "2 USD"}],
    "TwoTaskTypeConsistency": [{"task_pass_rates": [0.2, 0.6, 0.95], "repetitions": 5}, {"repetitions": 1}],
    "CtrLiftExperiment": [{"baseline_rate": 0.2, "lift": 0.01, "family_size": 5, "significance": 0.01}],
    "ConversionRelativeLiftExperiment": [{"daily_requests": "50000 1/day", "available_per_variant": 1e6}],
    "KeywordSpotterFalseWakeEvidence": [{"budget": 0.1, "horizon": "24 hour", "confidence": 0.99,
                                         "sample_rate": "8 kHz", "sample_width": "1 B"}],
    "CleanAttackSuite100": [{"trials": 7, "confidence": 0.9}, {"target_rate": (None, None)},
                            {"trials": 2000, "confidence": 0.99, "target_rate": 0.0005}],
    "KeywordSpotterMfccChoice": [{"baseline": 20.0, "alternative": 10.0}],
    "ImageNetInputSpace": [{"levels": 2}, {"levels": 65536}],
}


def _ours(value):
    return value[0] if isinstance(value, tuple) else value


def _theirs(value):
    from .members import to_reference

    if isinstance(value, tuple):
        if isinstance(value[1], str):
            import mlsysim

            return getattr(mlsysim.Hardware.Edge, value[1])   # a device by its registry key
        return value[1]
    return to_reference(value) if isinstance(value, str) else value


def test_variants_equal_mlsysim_variants():
    """Away from the named values (the candidate ahead, n·Δ that rounds down, other boundaries, clean-run counts at
    which the ceilings switch, an unset target or rollback time): every public member and every result field of ours
    equals mlsysim's variant with the same field values."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario
    from .members import variant_equal

    skipped = {"cleared", "failing_slices"}
    compared = 0
    for key, changes in VARIANTS.items():
        for change in changes:
            ours = catalog().scenario(key).variant(**{k: _ours(v) for k, v in change.items()})
            theirs = reference_scenario(key).variant(**{k: _theirs(v) for k, v in change.items()})
            compared += variant_equal(ours, theirs, f"{key}.variant({change})", skipped)
    assert compared >= 80
