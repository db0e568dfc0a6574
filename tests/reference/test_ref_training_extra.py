"""Training scenarios (derivations/training_extra.toml) against mlsysim 0.3.0.

Every public member of every named scenario (see members.py), compared at 1e-9 relative.
"""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "MaterializedScoresScenario", "ResidualAdapterScenario", "SelfContainedReplicaScenario",
        "PretrainingAmortizationScenario", "SustainedThroughputScenario", "MlpTrainingStepScenario",
        "EpochOverheadScenario",
    ),
    skipped={
        ("MlpTrainingStepScenario", "host"): (
            "returns a HostDispatchScenario object (a scenario-valued member); HostDispatchScenario is not in the "
            "catalog and no output kind returns a scenario"
        ),
    },
    implicit_units={
        ("MaterializedScoresScenario", "scores_per_layer"): "token**2",
        ("SustainedThroughputScenario", "required_device_hours"): "h",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
