"""Responsible AI (evaluation, monitoring, security) scenarios against mlsysim 0.3.0: every public member of every
named scenario (see members.py)."""

from .members import Wave, wave_tests

A, B = ("option", "A"), ("option", "B")
GROUP_METHODS = ("size", "positives", "positive_rate", "tpr", "fpr", "ppv", "base_rate", "fnr", "accuracy", "share")
GAP_METRICS = ("positive_rate", "tpr", "fpr", "ppv", "base_rate", "fnr", "accuracy")
KEY_NOT_VALUE = ("returns a group's name (a key of the data): an output is a quantity, a predicate or a label over "
                 "cases fixed in the type, never a key")
NO_PHI_INV = "needs the inverse normal CDF (statistics.NormalDist().inv_cdf): the equation language has no erfinv"
NO_BETA_INV = ("Clopper-Pearson bounds need the inverse regularized incomplete beta function (scipy beta.ppf): the "
               "equation language has none")
NO_NORM_PPF = "needs the normal quantile scipy.stats.norm.ppf (inverse normal CDF): the equation language has no erfinv"

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
        ("GroupConfusionScenario", "first"): KEY_NOT_VALUE,
        ("GroupConfusionScenario", "second"): KEY_NOT_VALUE,
        ("ProportionGapTestScenario", "z_critical"): NO_PHI_INV,
        ("ProportionGapTestScenario", "interval_at"): "the interval is gap ± z_critical·se; " + NO_PHI_INV,
        ("ProportionGapTestScenario", "interval"): "the interval is gap ± z_critical·se; " + NO_PHI_INV,
        ("ProportionGapTestScenario", "n_at_critical"): "2p(1 − p)(z_critical/gap)²; " + NO_PHI_INV,
        ("SubgroupEvaluationBudgetScenario", "z"): "z = Φ⁻¹(0.5 + confidence/2); " + NO_PHI_INV,
        ("SubgroupEvaluationBudgetScenario", "samples_needed"): "ceil(z²p(1 − p)/h²) with z = Φ⁻¹(0.5 + c/2); " + NO_PHI_INV,
        ("SubgroupEvaluationBudgetScenario", "gap_samples_per_group"): "ceil(2z²p(1 − p)/h²); " + NO_PHI_INV,
        ("SubgroupEvaluationBudgetScenario", "gap_half_width_at"): "z·sqrt(2p(1 − p)/n); " + NO_PHI_INV,
        ("SubgroupSampleScenario", "interval"): NO_BETA_INV,
        ("SubgroupSampleScenario", "small_interval"): NO_BETA_INV,
        ("SubgroupSampleScenario", "large_interval"): NO_BETA_INV,
        ("SubgroupSampleScenario", "width_ratio"): "the ratio of the two Clopper-Pearson widths; " + NO_BETA_INV,
        ("SubgroupSampleScenario", "per_group_needed"): NO_NORM_PPF,
        ("SubgroupSampleScenario", "share_needed"): "per_group_needed/total; per_group_needed " + NO_NORM_PPF,
    },
    method_args={
        **{("GroupConfusionScenario", m): [{"group": A}, {"group": B}] for m in GROUP_METHODS},
        ("GroupConfusionScenario", "gap"): [{"metric": ("option", m)} for m in GAP_METRICS],
        **{("QueryExtractionBudgetScenario", m): [{"queries": 5e4}, {"queries": 1e5}, {"queries": 2.5e6}]
           for m in ("tier_days", "pay_per_query_cost", "tier_cost", "lifetime_cost")},
        ("ProportionGapTestScenario", "z_at"): [{"n": 10}, {"n": 100}, {"n": 37}],
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
    for metric in ("positive_rate", "tpr", "fpr", "ppv", "base_rate"):
        assert_close(ours.gap(metric), theirs.gap(metric), f"gap({metric})")
    assert_close(ours.share("C"), theirs.share("C"), "share('C')")
    swapped = ours.variant(pair_sign={"A": -1, "B": 1, "C": 0})
    assert_close(swapped.gap("tpr"), -theirs.gap("tpr"), "gap('tpr') with the pair swapped")
    assert_close(swapped.disparate_impact, theirs.disparate_impact, "disparate_impact is symmetric")
