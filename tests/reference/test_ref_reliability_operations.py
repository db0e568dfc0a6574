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
        "RuntimeGoodputScenario",
        "FloatBitFlipScenario",
    ),
    not_ported={},
    renamed={},
    skipped={
        ("ClusterExpansionScenario", "at"): "returns a CheckpointIntervalScenario object (the checkpoint at the GPU-only "
        "interval of n devices), not a number; its values at both sizes are mtbf/interval/overhead and their expanded_ forms",
        ("HealthProbeScenario", "detection_window"): "returns a tuple (earliest, latest); the engine's outputs are numbers "
        "or dicts, so ours are detection_earliest and detection_latest, compared with the tuple's items below",
        ("RuntimeGoodputScenario", "at"): "returns a RuntimeGoodputScenario (the same job on n devices), not a number; "
        "ours is variant(n_devices=n), whose members the sweep in this module compares",
        ("RuntimeGoodputScenario", "sweep"): "returns {size: RuntimeGoodputResult}, a dict of result objects the engine's "
        "outputs cannot hold; ours is variant(n_devices=n).result at each size, compared in this module",
    },
    method_args={
        ("ClusterExpansionScenario", "run_time_change"): [{"step_speedup": 1.5}, {"step_speedup": 2.0}, {"step_speedup": 0.9}],
        ("ClusterExpansionScenario", "accelerator_hours_change"): [{"step_speedup": 1.5}, {"step_speedup": 2.0}, {"step_speedup": 0.9}],
        ("RuntimeGoodputScenario", "crossover"): [{"step": 128}, {"step": 1000}, {"step": 4096}],
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


def test_runtime_goodput_sweep_equals_mlsysim_at_each_size() -> None:
    """mlsysim's sweep(sizes) is {n: at(n).result}; ours is variant(n_devices=n).result, field by field."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    sizes = [8, 128, 1024, 16384]
    for key in instances("RuntimeGoodputScenario"):
        theirs = reference_scenario(key).sweep(sizes)
        ours = catalog().scenario(key)
        for n in sizes:
            view = ours.variant(n_devices=n).result
            fields = [f for f in type(theirs[n]).model_fields if f != "constraint_trace"]
            assert list(view.fields) == fields
            for f in fields:
                assert_close(getattr(view, f), getattr(theirs[n], f), f"{key}.sweep[{n}].{f}")


def test_float_bit_flip_every_bit_of_binary32_equals_mlsysim() -> None:
    """Every bit of a binary32 word (fraction, exponent, sign) for a few values: stored and corrupted equal
    mlsysim's struct-packed calc_float32_bit_flip wherever the result stays normal and finite."""
    import math

    from mlsysim.physics import calc_float32_bit_flip

    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close

    base = catalog().scenario("Fp32WeightExponentFlip")
    compared = 0
    for value in (0.042, 1.0, 3.0e-7, 12345.678, 0.75):
        for bit in range(32):
            stored, corrupted = calc_float32_bit_flip(value, bit)
            if not math.isfinite(corrupted) or abs(corrupted) < 2.0**-126:
                continue
            ours = base.variant(value=value, flipped_bit=bit)
            assert_close(ours.stored, stored, f"stored({value}, bit {bit})")
            assert_close(ours.corrupted, corrupted, f"corrupted({value}, bit {bit})")
            compared += 1
    assert compared >= 140
