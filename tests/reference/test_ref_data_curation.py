"""Data labeling, selection and curation scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import assert_close, reference_scenario
from .members import Wave, named, wave_tests

#: CoresetRunScenario's methods take a Workload (``scorer=None`` is the workload); ours take the choice
#: ``scorer`` ("workload" or "proxy").  The harness passes the same value to both, so these are compared in
#: ``test_coreset_scorer_methods`` below, at mlsysim's ``scorer=None`` and ``scorer=self.proxy``.
SCORER_METHODS = ("score_time", "score_energy", "selection_time", "saving", "saving_fraction")
SCORER = "takes a Workload object (mlsysim's scorer); compared in test_coreset_scorer_methods at scorer=workload and scorer=proxy"

WAVE = Wave(
    classes=(
        "ActiveLearningBudgetScenario",
        "ActiveLearningRoundsScenario",
        "AgreementDriftScenario",
        "AnnotatorAgreementScenario",
        "BudgetMatchedLabelingScenario",
        "CoverageFloorScenario",
        "CurriculumScheduleScenario",
        "DataBudgetScenario",
        "DataScalingReturnScenario",
        "LabelGranularityScenario",
        "LabelingVersusTrainingScenario",
        "LaborEffortScenario",
        "SelectionBudgetScenario",
        "SemiSupervisedCostScenario",
        "MinHashBandingScenario",
        "CoresetRunScenario",
        "InformationComputeRatioScenario",
        "CorpusRepetitionScenario",
        "DuplicateRemovalScenario",
    ),
    skipped={
        **{("CoresetRunScenario", m): SCORER for m in SCORER_METHODS},
        ("CorpusRepetitionScenario", "workload"): "returns mlsysim's Workload object (the run's model), not a number; "
        "ours is the input `workload`, whose parameters, training_ops and corpus bytes are compared as outputs",
        ("CorpusRepetitionScenario", "hardware"): "returns mlsysim's HardwareNode object (the run's accelerator), not a "
        "number; its peak rate and TDP enter run_time and run_energy, which are compared",
    },
    method_args={
        ("DataBudgetScenario", "allocation"): [
            {"category": ("option", "labeling")},
            {"category": ("option", "storage and processing")},
            {"category": ("option", "governance")},
        ],
        ("DuplicateRemovalScenario", "time_saved"): [{"corpus": ("option", "C4")}, {"corpus": ("option", "RealNews")}],
        ("DuplicateRemovalScenario", "energy_saved"): [{"corpus": ("option", "C4")}, {"corpus": ("option", "RealNews")}],
        ("MinHashBandingScenario", "candidate_probability"): [
            {"similarity": 0.0}, {"similarity": 0.3}, {"similarity": 0.5}, {"similarity": 0.8}, {"similarity": 1.0},
        ],
    },
    implicit_units={
        ("CoresetRunScenario", "sample_rate"): "1/s",
        ("InformationComputeRatioScenario", "icr_full"): "1/flop",
        ("InformationComputeRatioScenario", "icr_subset"): "1/flop",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


@pytest.mark.parametrize("key", named("CoresetRunScenario"))
@pytest.mark.parametrize("member", SCORER_METHODS)
def test_coreset_scorer_methods(key: str, member: str) -> None:
    """Each scorer method at mlsysim's default (the workload) and at the scenario's proxy."""
    ref, ours = reference_scenario(key), catalog().scenario(key)
    assert_close(getattr(ours, member)(scorer="workload"), getattr(ref, member)(), f"{key}.{member}()")
    assert_close(getattr(ours, member)(scorer="proxy"), getattr(ref, member)(ref.proxy), f"{key}.{member}(proxy)")


@pytest.mark.parametrize("key", named("CorpusRepetitionScenario"))
def test_compute_optimal_allocation(key: str) -> None:
    """mlsysim's compute_optimal (N, D) tuple against our two outputs (plain numbers: parameters, tokens)."""
    ref, ours = reference_scenario(key), catalog().scenario(key)
    n, d = ref.compute_optimal
    assert_close(ours.compute_optimal_parameters, n, f"{key}.compute_optimal[0]")
    assert_close(ours.compute_optimal_tokens, d, f"{key}.compute_optimal[1]")


def test_mmds_banding_example() -> None:
    """Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, ch. 3 §3.4.2: with b = 20 bands of r = 5 rows
    (signatures of 100 hashes), a pair of Jaccard similarity 0.8 agrees on a band with 0.8^5 = 0.328 and fails to
    become a candidate with probability (1 - 0.328)^20, printed as about .00035 (one in 3000)."""
    screen = catalog().scenario("TrajectoryMinHashScreen").variant(bands=20, rows=5)
    assert screen.hashes.magnitude == 100
    assert abs(0.8**5 - 0.328) < 1e-3
    assert abs((1 - screen.candidate_probability(similarity=0.8)) - 0.00035) < 1e-5


@pytest.mark.parametrize("key", named("MinHashBandingScenario"))
def test_probe_candidate_probabilities(key: str) -> None:
    """Our dict over probe_similarities equals mlsysim's candidate_probability at each of its probe_similarities."""
    ref, ours = reference_scenario(key), catalog().scenario(key)
    got = ours.probe_candidate_probabilities
    assert list(got) == list(ref.probe_similarities)
    for s in ref.probe_similarities:
        assert_close(got[s], ref.candidate_probability(s), f"{key}.candidate_probability({s})")
