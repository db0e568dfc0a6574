"""Reliability operations scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from .members import Wave, instances, wave_tests

WAVE = Wave(
    classes=(
        "StragglerCostScenario",
        "ComponentExposureScenario",
        "FailureIntervalSweepScenario",
        "GroupCommitScenario",
        "RetryJitterScenario",
        "BulkheadAdmissionScenario",
        "SnapshotVolumeScenario",
        "CheckpointStormScenario",
        "TieredCheckpointScenario",
        "OutageScenario",
        "PreemptionTaxScenario",
        "ClusterExpansionScenario",
        "HotSpareScenario",
        "DiagnosticCoverageScenario",
        "HealthProbeScenario",
    ),
    not_ported={},
    renamed={},
    skipped={
        ("ClusterExpansionScenario", "at"): "returns a CheckpointIntervalScenario object (the checkpoint at the GPU-only "
        "interval of n devices), not a number; its values at both sizes are mtbf/interval/overhead and their expanded_ forms",
        ("HealthProbeScenario", "detection_window"): "returns a tuple (earliest, latest); the engine's outputs are numbers "
        "or dicts, so ours are detection_earliest and detection_latest, compared with the tuple's items below",
    },
    method_args={
        ("ClusterExpansionScenario", "run_time_change"): [{"step_speedup": 1.5}, {"step_speedup": 2.0}, {"step_speedup": 0.9}],
        ("ClusterExpansionScenario", "accelerator_hours_change"): [{"step_speedup": 1.5}, {"step_speedup": 2.0}, {"step_speedup": 0.9}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_health_probe_window_ends_equal_mlsysim_detection_window() -> None:
    """mlsysim's detection_window is the pair (earliest, latest); ours has one output for each end."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    for key in instances("HealthProbeScenario"):
        earliest, latest = reference_scenario(key).detection_window
        ours = catalog().scenario(key)
        assert_close(ours.detection_earliest, earliest, f"{key}.detection_window[0]")
        assert_close(ours.detection_latest, latest, f"{key}.detection_window[1]")
