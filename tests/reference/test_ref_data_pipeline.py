"""Data storage and input-pipeline scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from __future__ import annotations

from .members import Wave, wave_tests

TWO_CODECS = "mlsysim compares two codecs of the one decode_rates table; the equation language indexes a map by one key per index, so an output cannot read one map at two keys (no self-join of a keyed input)"

WAVE = Wave(
    classes=(
        "AcceleratorInputFeedScenario",
        "BatchVersusStreamingIngestScenario",
        "CodecEpochScenario",
        "ColumnProjectionScenario",
        "CompressedReadScenario",
        "CorpusTierScenario",
        "DataEchoingScenario",
        "DataStallScenario",
        "FeatureHistoryScenario",
        "FeatureLookupScenario",
        "HostInputPipelineScenario",
        "HostIoCpuScenario",
        "InputDemandScenario",
        "ObjectStorageBillScenario",
        "PersonalizationStorageScenario",
        "PrefetchDepthScenario",
        "RetentionCostScenario",
        "ShardPackagingScenario",
        "StorageFootprintScenario",
        "StreamVsStageScenario",
        "SyntheticFootprintScenario",
        "TieredCacheScenario",
        "TokenizedBatchFeedScenario",
        "TraceVolumeScenario",
    ),
    not_ported={
        "SequencePackingScenario": (
            "tier C: its result's buffers, buffer_loads, packed_positions, packed_occupancy and position_ratio come from "
            "first-fit decreasing bin packing (calc_first_fit_decreasing), an iterative placement (each length, longest "
            "first, into the first buffer with room) with no closed form and no bounded construct of the format (the "
            "count of buffers and each buffer's load depend on every earlier placement); the rest is expressible "
            "(examples, stored, longest = maximum over a positions list, mean, padded positions and occupancy), but a "
            "result view must show every field"
        ),
    },
    renamed={("FeatureHistoryScenario", "values"): "feature_values"},
    skipped={
        ("CodecEpochScenario", "time_saved"): TWO_CODECS,
        ("CodecEpochScenario", "run_time_saved"): TWO_CODECS,
        ("CodecEpochScenario", "rate_ratio"): TWO_CODECS,
    },
    method_args={
        ("AcceleratorInputFeedScenario", "demand"): [
            {"decoded": 0, "rate": "3000 count/s"}, {"decoded": 1, "rate": "3200 count/s"}, {"decoded": 0, "rate": "12000 count/s"}],
        ("AcceleratorInputFeedScenario", "feeding_loss"): [{"decoded": 0}, {"decoded": 1}],
        ("AcceleratorInputFeedScenario", "samples_supplied"): [{"bandwidth": "250 MB/s"}, {"bandwidth": "7 GB/s"}],
        ("AcceleratorInputFeedScenario", "streams_needed"): [
            {"bandwidth": "250 MB/s", "target_rate": "3200 count/s"}, {"bandwidth": "7 GB/s", "target_rate": "12000 count/s"}],
        ("CodecEpochScenario", "decode_time"): [{"codec": ("option", "gzip")}, {"codec": ("option", "Snappy")}],
        ("CompressedReadScenario", "output_bandwidth"): [{"codec": ("option", "light")}, {"codec": ("option", "dense")}],
        ("CompressedReadScenario", "decode_cores"): [{"codec": ("option", "light")}, {"codec": ("option", "dense")}],
        ("CorpusTierScenario", "load_time"): [{"path": ("option", "object store")}, {"path": ("option", "NVMe")}],
        ("CorpusTierScenario", "monthly_cost"): [{"tier": ("option", t)} for t in ("object store", "NVMe low", "NVMe high")],
        ("HostInputPipelineScenario", "copy_share"): [{"step": ("option", "large model")}, {"step": ("option", "small model")}],
        ("DataStallScenario", "relative_throughput"): [{"compute_speedup": 0.5}, {"compute_speedup": 2}, {"compute_speedup": 50}],
    },
    implicit_units={
        ("BatchVersusStreamingIngestScenario", "stream_core_hours_per_day"): "h",
        ("BatchVersusStreamingIngestScenario", "batch_core_hours_per_day"): "h",
        ("FeatureLookupScenario", "reads_per_day"): "1/d",
        ("FeatureLookupScenario", "reads_per_second"): "1/s",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)

