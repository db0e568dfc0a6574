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


def test_float_bit_flip_in_binary16_equals_numpy() -> None:
    """The same equations at IEEE 754 binary16 (E = 5, F = 10, IEEE 754-2019 Table 3.5) against numpy's float16,
    bit by bit: the format is an input, not binary32 hard-coded."""
    import math

    import numpy as np

    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close

    base = catalog().scenario("Fp32WeightExponentFlip").variant(exponent_bits=5, fraction_bits=10)
    assert base.word_bits.magnitude == 16
    compared = 0
    for value in (0.042, 0.5, 1.0, 3.14159, 1000.0):
        word = np.array([value], dtype=np.float16).view(np.uint16)
        stored = float(word.view(np.float16)[0])
        for bit in range(16):
            corrupted = float((word ^ np.uint16(1 << bit)).view(np.float16)[0])
            if not math.isfinite(corrupted) or abs(corrupted) < 2.0**-14:
                continue
            ours = base.variant(value=value, flipped_bit=bit)
            assert_close(ours.stored, stored, f"binary16 stored({value})")
            assert_close(ours.corrupted, corrupted, f"binary16 corrupted({value}, bit {bit})")
            compared += 1
    assert compared >= 60
    # the top exponent bit of 0.5 (biased exponent 14 = 0b01110): 0.5 x 2^16 = 32768
    assert_close(base.variant(value=0.5, flipped_bit=14).corrupted, 32768.0, "0.5 with bit 14 flipped")
    assert base.variant(value=0.5, flipped_bit=14).scale_log2 == 16


VARIANTS = {
    "Gpt3ClusterDoubling1K": [{"n_devices": 512, "factor": 3.0}, {"n_devices": 4096, "factor": 1.5},
                              {"component_mtbf": "20000 h", "factor": 4.0}],
    "HalfSpeedStraggler1K": [{"slow_speed": 0.9}, {"n_devices": 64, "step_time": "3 s"}],
    "WarehouseDiagnosticCoverageHundredFit": [{"target": ("1 1/Gh", 1.0), "confidence": 0.99}, {"confidence": 0.5}],
    "GrowingTrajectorySnapshots": [{"stride": 7}, {"turns": 13, "stride": 13}],
    "BlockingCallBulkhead": [{"arrivals": 40}, {"arrivals": 1000}, {"arrivals": 80, "queue_cap": 0}],
    "TransceiverDegradationRoce4K": [{"probability": 0.003}],
    "IntentQuorumGroupCommit": [{"batch_size": 1}, {"batch_timer": "0 ms"}],
    "ForcedPreemption175BFineTune64": [{"n_devices": 1024, "lost_work": "0 min"}],
}


def _our_value(value):
    return value[0] if isinstance(value, tuple) else value


def _their_value(value):
    """mlsysim's value: the second of a (ours, mlsysim's) pair where mlsysim keeps a plain number (FIT), text as a Quantity."""
    from .members import to_reference

    if isinstance(value, tuple):
        return value[1]
    return to_reference(value) if isinstance(value, str) else value


def test_variants_equal_mlsysim_variants() -> None:
    """Away from the named values (other sizes, factors, caps and strides, where floor/min/round switch): every
    public member and every result field of ours equals mlsysim's variant with the same field values."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario
    from .members import variant_equal

    compared = 0
    for key, changes in VARIANTS.items():
        base = catalog().scenario(key)
        for change in changes:
            ours = base.variant(**{k: _our_value(v) for k, v in change.items()})
            theirs = reference_scenario(key).variant(**{k: _their_value(v) for k, v in change.items()})
            compared += variant_equal(ours, theirs, f"{key}.variant({change})")
    assert compared >= 80
