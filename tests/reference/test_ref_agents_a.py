"""Agents and LLM applications, group A, against mlsysim 0.3.0: every public member of every named scenario
(see members.py); result fields are compared by test_ref_results.py."""

import pytest

from .members import Wave, wave_tests

ARM_METHOD = ("takes one of mlsysim's CohortArmRecord objects (an object the harness cannot pass); ours takes the arm's "
              "name: compared for both arms by test_arm_methods_equal_mlsysim")

WAVE = Wave(
    classes=(
        "AcceptedTaskCostScenario",
        "AdaptationPaybackScenario",
        "ArchitectureChoiceScenario",
        "CappedSelectionCostScenario",
        "CohortAttemptCostScenario",
        "CohortDispositionScenario",
        "DedicatedBreakEvenScenario",
        "DelegationCohortScenario",
        "DelegationTokenBreakEvenScenario",
        "IrreversibleLossScenario",
        "ModelCascadeScenario",
        "RepairBreakEvenScenario",
        "TokenPriceComparisonScenario",
        "ToolkitGranularityScenario",
        "RetryPolicyScenario",
        "BestOfNPoolScenario",
        "VerifiedPoolScenario",
        "CheckerPosteriorScenario",
        "DeadlinePolicyScenario",
        "SearchAccountsScenario",
    ),
    not_ported={
        "WorkloadLeverScenario": (
            "its result is rows = {workload: WorkloadLeverRow}, a nested result per key of the workloads (each with "
            "a label, largest_term, over that workload's own terms): the result format nests views over a type's "
            "own outputs but none keyed by an index; the repair workload's model term is another class's result "
            "(ResendCacheBillScenario.total_cached over a TrajectoryResendScenario over a DecodeScenario), and "
            "terms() returns per-workload dicts whose keys and key order follow each input dict's mix of optional "
            "keys (bill / token_multiple / model, human / handoff, environment / environment_per_turn)"),
    },
    skipped={
        **{("DelegationCohortScenario", m): ARM_METHOD for m in ("spend", "discarded", "cost_per_accepted", "passes")},
    },
    method_args={
        ("CohortDispositionScenario", "cost_per_artifact"): [{"yield_at": 0.03}, {"yield_at": 0.06}, {"yield_at": 0.5}],
        ("DedicatedBreakEvenScenario", "hourly_costs"): [{"at_load": 0.2}, {"at_load": 0.52}, {"at_load": 1.0}],
    },
    implicit_units={
        ("DedicatedBreakEvenScenario", "hourly_costs"): "USD/h",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


@pytest.mark.parametrize("arm", ["single", "delegated"])
def test_arm_methods_equal_mlsysim(arm: str) -> None:
    """DelegationCohortScenario's methods of an arm record, mlsysim's at its record and ours at the arm's name
    (passes(arm) is our predicate <arm>_passes: a predicate cannot pick its comparison by a choice argument)."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    key = "MatchedDelegationCohort"
    ref, ours = reference_scenario(key), catalog().scenario(key)
    record = getattr(ref, arm)
    for member in ("spend", "discarded", "cost_per_accepted"):
        assert_close(getattr(ours, member)(arm), getattr(ref, member)(record), f"{key}.{member}({arm})")
    passes = getattr(ours, f"{arm}_passes")
    assert passes is ref.passes(record)


def test_cascade_spend_is_the_sum_over_reached_tiers() -> None:
    """Derivation check of the cumulative sum: R_1 = N, R_(j+1) = R_j - A_j, spend = sum_j R_j (c_j + c_g), written
    out by hand from the named scenario's inputs (the engine sums the cumulative output R over its own index)."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("CodeEditThreeTierCascade")
    calls, accepted, gate = (0.0004, 0.002, 0.06), (60000, 28000, 11400), 0.001
    reached = [100000, 100000 - 60000, 100000 - 60000 - 28000]
    assert [float(r.to("").magnitude) for r in s.reached.values()] == reached
    spend = sum(r * (c + gate) for r, c in zip(reached, calls))
    assert math.isclose(float(s.spend.to("USD").magnitude), spend, rel_tol=1e-12)
    assert math.isclose(float(s.per_accepted.to("USD").magnitude), spend / sum(accepted), rel_tol=1e-12)


@pytest.mark.parametrize(("beam_width", "extensions", "segments"), [(4, 3, 4), (1, 1, 3), (10, 2, 6), (2, 5, 2), (7, 1, 5)])
def test_beam_closed_form_equals_mlsysims_loop(beam_width: int, extensions: int, segments: int) -> None:
    """mlsysim's beam loop (retained = min(w, retained x e) stage by stage, waves ceil(x_d / G)) against our closed
    form x_d = e min(w, e^(d-1)), at widths, extensions and depths other than the named scenario's."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_same, reference_scenario

    key = "FlatVsBeamSearch"
    theirs = reference_scenario(key).model_copy(
        update={"beam_width": beam_width, "extensions": extensions, "segments": segments}).result
    ours = catalog().scenario(key).variant(beam_width=beam_width, extensions=extensions,
                                           depths=list(range(1, segments + 1))).result
    for field in ("frontier_counts", "beam_segments", "retained", "beam_prompt_tokens", "scorer_tokens", "beam_waves",
                  "beam_test_waves", "beam_elapsed", "beam_token_cost"):
        assert_same(getattr(ours, field), getattr(theirs, field), f"{key}.result.{field}")


def test_sequential_cost_per_accepted_is_c_over_p_whatever_the_cap() -> None:
    """Derivation check (the truncated geometric count): sequential retry's cost per accepted task is c/p at any cap,
    in RetryPolicyScenario and CappedSelectionCostScenario alike; the batch's grows with the cap."""
    import math

    from mlsysim_symbolic.catalog import catalog

    retry = catalog().scenario("CheapRetryAgainstStrongCall")
    capped = catalog().scenario("CappedCandidateSelection")
    for k in (1, 2, 5, 20):
        r = retry.variant(max_attempts=k)
        assert math.isclose(float(r.sequential_per_accepted.to("USD").magnitude), 0.1 / 0.3, rel_tol=1e-12)
        c = capped.variant(cap=k)
        assert math.isclose(float(c.sequential_per_accepted.to("USD").magnitude), 0.04 / 0.4, rel_tol=1e-12)
    assert retry.variant(max_attempts=1).batch_per_accepted < retry.variant(max_attempts=5).batch_per_accepted


def test_verified_pool_precision_is_one_minus_the_checker_posterior() -> None:
    """Derivation check across two types: VerifiedPoolScenario's passing-set precision is one minus
    CheckerPosteriorScenario's P(Def | PASS) with defect rate 1 - v, false accept eps_FA and valid accept 1 - eps_FR."""
    import math

    from mlsysim_symbolic.catalog import catalog

    for key in ("SparseValidPoolFirstPass", "SparseValidPoolDoubledValidRate", "SparseValidPoolHalvedFalseAccept"):
        pool = catalog().scenario(key)
        v, fr, fa = (float(pool.inputs[n]) for n in ("valid_rate", "false_reject_rate", "false_accept_rate"))
        check = catalog().scenario("PatchCheckerPosterior").variant(defect_rate=1 - v, false_accept_rate=fa,
                                                                    valid_accept_rate=1 - fr)
        assert math.isclose(float(pool.precision), 1 - float(check.posterior), rel_tol=1e-12)


def test_mixed_workload_plug_in_overstates_pass_at_n() -> None:
    """Derivation check (Jensen: 1 - (1 - p)^N is concave in p): pass@N at the averaged rate is at least the average
    of the per-task pass@N, strictly when the rates differ and N >= 2."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("IndependentCandidatePools")
    assert float(s.mixed_plug_in) > float(s.mixed_true)
    same = s.variant(easy_pass_rate=0.3, hard_pass_rate=0.3)
    assert abs(float(same.mixed_plug_in) - float(same.mixed_true)) < 1e-15


def test_cost_per_artifact_at_the_measured_yield_equals_mlsysim() -> None:
    """mlsysim's cost_per_artifact() without an argument (its own emission yield) is our cost_per_emitted_artifact:
    our argument cannot default to an output (default_input names an input)."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    key = "CurationCohortDispositions"
    assert_close(catalog().scenario(key).cost_per_emitted_artifact, reference_scenario(key).cost_per_artifact(),
                 f"{key}.cost_per_artifact()")
