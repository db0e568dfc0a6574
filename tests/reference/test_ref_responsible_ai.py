"""Responsible AI (fairness, oversight, accountability) scenarios against mlsysim 0.3.0: every public member of
every named scenario (see members.py)."""

from __future__ import annotations

import pytest

from mlsysim_symbolic.units import Q_

from .compare import assert_close, reference_scenario
from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "AccuracyFrontierScenario",
        "AdversarialTrainingPassesScenario",
        "AutomationBiasScenario",
        "BiasFeedbackScenario",
        "CertifiedRadiusScenario",
        "ConstraintAccuracyCostScenario",
        "DataParallelAttackSurfaceScenario",
        "DecisionChainScenario",
        "DisclosurePenaltyScenario",
        "EncryptedInferenceLatencyScenario",
        "EqualOpportunityPriceScenario",
        "EventRetentionScenario",
        "ExplanationLoadScenario",
        "ExplanationLogScenario",
        "ExplorationExposureScenario",
        "ExposureConcentrationScenario",
    ),
    not_ported={},
    skipped={
        ("AccuracyFrontierScenario", "point"): "returns a pair (candidates[name], accuracy); an output is one value. "
        "Its second half is point_accuracy(candidate), compared below; its first is the candidates input",
        ("AccuracyFrontierScenario", "disparity_ratio"): "takes two keys of the same keyed input (worse, better); an "
        "output is keyed by at most one key per index and an input has one index",
    },
    method_args={
        ("AccuracyFrontierScenario", "accuracy"): [{"disparity": 0.0}, {"disparity": 0.05}, {"disparity": 0.18}, {"disparity": 1.0}],
        ("AutomationBiasScenario", "accepted_misses"): [{}, {"acceptance": 0.6}, {"acceptance": 0.8}, {"acceptance": 0.0}],
        ("BiasFeedbackScenario", "gap_at"): [{"cycles": 0}, {"cycles": 1}, {"cycles": 6}],
        ("DecisionChainScenario", "completeness"): [{"p": 0.99}, {"p": 0.9}, {"p": 1.0}, {"p": 0.0}],
    },
    implicit_units={
        ("BiasFeedbackScenario", "gap_at"): "percent",
        ("BiasFeedbackScenario", "gap_at_breach"): "percent",
        ("BiasFeedbackScenario", "unmitigated_at_horizon"): "percent",
        ("BiasFeedbackScenario", "sampled_gap_at_breach"): "percent",
        ("ConstraintAccuracyCostScenario", "accuracy_cost"): "percent",
        ("DisclosurePenaltyScenario", "per_day_penalty"): "USD",
        ("DisclosurePenaltyScenario", "total"): "USD",
        ("ExplanationLoadScenario", "notices_per_day"): "1/d",
        ("ExplanationLoadScenario", "sampled_evaluations"): "1/d",
        ("ExplanationLoadScenario", "exact_evaluations"): "1/d",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


# ---------------------------------------------------------------------- beyond the harness
def _ours(key: str):
    from mlsysim_symbolic.catalog import catalog

    return catalog().scenario(key)


@pytest.mark.parametrize("candidate", ["A", "B", "C"])
def test_point_is_the_candidate_and_its_accuracy(candidate: str) -> None:
    """mlsysim's point(name) is (candidates[name], accuracy there): ours is the input and point_accuracy(candidate)."""
    ours = _ours("FairnessAccuracyFrontierSketch")
    x, acc = reference_scenario("FairnessAccuracyFrontierSketch").point(candidate)
    assert_close(ours.candidates[candidate], x, f"candidates[{candidate}]")
    assert_close(ours.point_accuracy(candidate), acc, f"point_accuracy({candidate})")


@pytest.mark.parametrize(("cycles", "growth"), [(0, 1.1), (3, 0.9), (6, 1.25)])
def test_gap_at_with_a_factor_override(cycles: int, growth: float) -> None:
    """mlsysim's gap_at(cycles, factor) with the override is ours gap_at_factor(cycles, growth)."""
    ours = _ours("CreditServiceBiasFeedback").gap_at_factor(cycles=cycles, growth=growth)
    theirs = reference_scenario("CreditServiceBiasFeedback").gap_at(cycles, growth)
    assert_close(ours, Q_(theirs, "percent"), f"gap_at({cycles}, {growth})")


def test_disparity_ratio_from_the_inputs() -> None:
    """disparity_ratio is not an output (two keys of one index); the inputs it divides are ours, unchanged."""
    ours = _ours("FairnessAccuracyFrontierSketch")
    theirs = reference_scenario("FairnessAccuracyFrontierSketch")
    assert_close(ours.candidates["A"] / ours.candidates["B"], theirs.disparity_ratio("A", "B"), "A over B")


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("RadiologyAutomationBias", {"miss_acceptance": 0.6}),
        ("CreditServiceBiasFeedback", {"next_audit_gap": 3.9}),
        ("ReferenceJobAttackSurface", {"dp_degree": 128}),
        ("CreditServiceEqualOpportunityPrice", {"fpr_increase": 0.05}),
        ("CreditDenialExplanationLoad", {"features": 12}),
        ("WarehouseCrossingExposure", {"encounter_share": 0.5}),
        ("AdmittedCommandDecisionChain", {"links": 3}),
    ],
)
def test_variants_follow_mlsysim(key: str, change: dict) -> None:
    """Changing one input moves every member as mlsysim's does (the flattening keeps mlsysim's dependencies)."""
    from .members import equal, public_members

    ours = _ours(key).variant(**change)
    theirs = reference_scenario(key).variant(**change)
    cls = type(theirs).__name__
    compared = 0
    for member, how in public_members(cls).items():
        if how != "property" or (cls, member) in WAVE.skipped:
            continue
        compared += equal(getattr(ours, member), getattr(theirs, member), f"{key}.{member}",
                          WAVE.implicit_units.get((cls, member)))
    assert compared >= 2


def test_equal_opportunity_group_counts_are_mlsysims() -> None:
    """The flattened counts are mlsysim's confusion table for group B, group A's TP/FN, and everyone outside B."""
    ours = _ours("CreditServiceEqualOpportunityPrice")
    theirs = reference_scenario("CreditServiceEqualOpportunityPrice")
    groups = theirs.confusion.groups
    b, a = groups[theirs.group], groups[theirs.reference_group]
    for field in ("tp", "fp", "fn", "tn"):
        assert getattr(ours, f"group_{field}").magnitude == b[field]
    assert ours.reference_tp.magnitude == a["tp"] and ours.reference_fn.magnitude == a["fn"]
    others = sum(sum(c.values()) for g, c in groups.items() if g != theirs.group)
    assert ours.other_applicants.magnitude == others


def test_pgd7_is_eight_passes() -> None:
    """Madry et al. (2018): 7 PGD steps plus the update, 8 forward-backward passes per batch, 8x standard training."""
    ours = _ours("PgdSevenTraining")
    assert ours.passes.magnitude == 8 and ours.slowdown.magnitude == 8


def test_cruise_penalties_total() -> None:
    """CPUC 15 days x $7,500 = $112,500; with NHTSA's $1.5M and DOJ's $500,000: $2,112,500."""
    ours = _ours("CruiseDisclosurePenalties")
    assert_close(ours.per_day_penalty, Q_(112_500, "USD"), "per_day_penalty")
    assert_close(ours.total, Q_(2_112_500, "USD"), "total")


@pytest.mark.parametrize(("pixels", "levels"), [(1, 255), (10, 80), (100, 25), (1000, 8)])
def test_an_l2_radius_of_one_in_pixels(pixels: int, levels: int) -> None:
    """Cohen, Rosenfeld, Kolter (2019), Table 1 caption: an l2 radius of 1.0 could change one pixel by 255, ten pixels
    by 80, 100 pixels by 25, or 1000 pixels by 8: the box corner of levels/255 on that many coordinates is ~1.0."""
    box = _ours("SmoothingRadiusCifar10").variant(linf_levels=levels, coordinates=pixels).box_corner_l2
    assert abs(float(box) - 1.0) < 0.025, box
    if pixels == 1:
        assert float(box) == 1.0


def test_binary_radius_is_theorem_one_with_the_runner_up_at_one_minus_p_a() -> None:
    """Theorem 1's R = sigma/2 (Phi^-1(p_A) - Phi^-1(p_B)) with p_B = 1 - p_A is the binary radius sigma Phi^-1(p_A)."""
    from statistics import NormalDist

    ours = _ours("SmoothingRadiusCifar10")
    for sigma, p_a in ((0.5, 0.999), (0.25, 0.9), (1.0, 0.6)):
        s = ours.variant(noise_sd=sigma, top_class_probability=p_a)
        general = sigma / 2 * (NormalDist().inv_cdf(p_a) - NormalDist().inv_cdf(1 - p_a))
        assert abs(float(s.radius) - general) < 1e-9 * general
