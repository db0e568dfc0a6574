"""Responsible AI (evaluation, monitoring, security) scenarios against mlsysim 0.3.0: every public member of every
named scenario (see members.py)."""

import math

import pytest

from .members import Wave, named, wave_tests

A, B = ("option", "A"), ("option", "B")
GROUP_METHODS = ("size", "positives", "positive_rate", "tpr", "fpr", "ppv", "base_rate", "fnr", "accuracy", "share")
GAP_METRICS = ("positive_rate", "tpr", "fpr", "ppv", "base_rate", "fnr", "accuracy")
NO_BETA_INV = ("Clopper-Pearson bounds need the inverse regularized incomplete beta function (scipy beta.ppf): the "
               "equation language has none")

WAVE = Wave(
    classes=(
        "GroupConfusionScenario",
        "ProtectedMemoryFitScenario",
        "QueryExtractionBudgetScenario",
        "ShardedUnlearningScenario",
        "SampledDecisionMonitorScenario",
        "ReviewStaffingScenario",
        "InlineOverheadScenario",
        "OutputShapingScenario",
        "PreferenceLabelBudgetScenario",
        "ThroughputCostScenario",
        "ProportionGapTestScenario",
        "SubgroupEvaluationBudgetScenario",
        "SubgroupSampleScenario",
        "InjectionExposureScenario",
        "PolicyComparisonScenario",
    ),
    not_ported={},
    skipped={
        ("SubgroupSampleScenario", "interval"): NO_BETA_INV,
        ("SubgroupSampleScenario", "small_interval"): NO_BETA_INV,
        ("SubgroupSampleScenario", "large_interval"): NO_BETA_INV,
        ("SubgroupSampleScenario", "width_ratio"): "the ratio of the two Clopper-Pearson widths; " + NO_BETA_INV,
    },
    method_args={
        **{("GroupConfusionScenario", m): [{"group": A}, {"group": B}] for m in GROUP_METHODS},
        ("GroupConfusionScenario", "gap"): [{"metric": ("option", m)} for m in GAP_METRICS],
        **{("QueryExtractionBudgetScenario", m): [{"queries": 5e4}, {"queries": 1e5}, {"queries": 2.5e6}]
           for m in ("tier_days", "pay_per_query_cost", "tier_cost", "lifetime_cost")},
        ("ProportionGapTestScenario", "z_at"): [{"n": 10}, {"n": 100}, {"n": 37}],
        ("ProportionGapTestScenario", "interval_at"): [{"n": 10}, {"n": 37}, {"n": 100}, {"n": 2500}],
        ("SubgroupEvaluationBudgetScenario", "gap_samples_per_group"): [{}, {"gap_width": 0.02}, {"gap_width": 0.1}],
        ("SubgroupEvaluationBudgetScenario", "gap_half_width_at"): [
            {"n_per_group": 100}, {"n_per_group": 1568}, {"n_per_group": 40000}],
    },
    implicit_units={
        ("QueryExtractionBudgetScenario", "tier_days"): "day",
        ("QueryExtractionBudgetScenario", "collection_days"): "day",
        ("ShardedUnlearningScenario", "planning_days"): "day",
        ("SampledDecisionMonitorScenario", "decisions_per_day"): "request",
        ("SampledDecisionMonitorScenario", "records_per_day"): "request",
        ("ReviewStaffingScenario", "appeals_per_day"): "1/day",
        ("OutputShapingScenario", "bits_removed"): "bit",
        ("OutputShapingScenario", "retained_bits"): "bit",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_pair_sign_marks_mlsysims_first_two_groups_with_a_third_group() -> None:
    """mlsysim compares the first two groups in order; ours the groups pair_sign marks. A third group (sign 0)
    enters the pooled and per-group members but not the gaps, as in mlsysim; swapping the signs negates the gaps."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    c = {"tp": 70.0, "fp": 20.0, "fn": 10.0, "tn": 100.0}
    theirs = reference_scenario("FraudFlagTwoGroups")
    theirs = theirs.variant(groups={**theirs.groups, "C": c})
    base = catalog().scenario("FraudFlagTwoGroups")
    ours = base.variant(**{k: {**base.inputs[k], "C": v} for k, v in c.items()},
                        pair_sign={"A": 1, "B": -1, "C": 0})
    for member in ("pooled_positive_rate", "overall_accuracy", "disparate_impact", "average_odds_difference"):
        assert_close(getattr(ours, member), getattr(theirs, member), member)
    assert (ours.first, ours.second) == (theirs.first, theirs.second) == ("A", "B")
    for metric in ("positive_rate", "tpr", "fpr", "ppv", "base_rate"):
        assert_close(ours.gap(metric), theirs.gap(metric), f"gap({metric})")
    assert_close(ours.share("C"), theirs.share("C"), "share('C')")
    swapped = ours.variant(pair_sign={"A": -1, "B": 1, "C": 0})
    assert_close(swapped.gap("tpr"), -theirs.gap("tpr"), "gap('tpr') with the pair swapped")
    assert_close(swapped.disparate_impact, theirs.disparate_impact, "disparate_impact is symmetric")
    assert (swapped.first, swapped.second) == ("B", "A")
    reordered = theirs.variant(groups={k: theirs.groups[k] for k in ("C", "B", "A")})   # mlsysim: C first, B second
    marked = ours.variant(pair_sign={"A": 0, "B": -1, "C": 1})
    assert (marked.first, marked.second) == (reordered.first, reordered.second) == ("C", "B")
    assert_close(marked.gap("tpr"), reordered.gap("tpr"), "gap('tpr') of the pair (C, B)")


GAP_INTERVAL_NS = (10, 37, 100, 2500)


@pytest.mark.parametrize("key", named("ProportionGapTestScenario"))
def test_gap_interval_ends_equal_mlsysim(key: str) -> None:
    """mlsysim's interval and interval_at(n) (low, high) tuples against our two ends of each."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    ref, ours = reference_scenario(key), catalog().scenario(key)
    low, high = ref.interval
    assert_close(ours.interval_low, low, f"{key}.interval[0]")
    assert_close(ours.interval_high, high, f"{key}.interval[1]")
    for n in GAP_INTERVAL_NS:
        low, high = ref.interval_at(n)
        assert_close(ours.interval_low_at(n), low, f"{key}.interval_at({n})[0]")
        assert_close(ours.interval_high_at(n), high, f"{key}.interval_at({n})[1]")


def test_gap_reaches_the_critical_value_at_n_at_critical() -> None:
    """Derivation check: at n_at_critical decisions per group the pooled z equals z_critical, and the interval
    at the named n is centred on the gap with half-width z_critical standard errors."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("LoanApprovalGapTest")
    n_star = float(s.n_at_critical.magnitude)
    assert math.isclose(float(s.z_at(n_star)), float(s.z_critical), rel_tol=1e-12)
    assert math.isclose((float(s.interval_low) + float(s.interval_high)) / 2, float(s.gap), rel_tol=1e-12)


def test_textbook_quantiles() -> None:
    """The two-sided 95 % normal quantile is 1.959964 (any normal table; Cochran 1977 ch. 4 rounds it to 1.96), and
    Cochran's worst-case n for ±1 point at 95 % is ⌈1.96² · 0.25 / 0.01²⌉ = 9604 examples (the classic figure)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("OnePercentGroupEvaluationBudget")
    assert abs(float(s.z) - 1.959964) < 1e-6
    assert s.samples_needed.to("").magnitude == 9604   # a plain count, as mlsysim returns it
