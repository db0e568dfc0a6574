"""Data labeling, selection and curation scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from .members import Wave, wave_tests

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
    ),
    method_args={
        ("DataBudgetScenario", "allocation"): [
            {"category": ("option", "labeling")},
            {"category": ("option", "storage and processing")},
            {"category": ("option", "governance")},
        ],
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
