"""Serving operations scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from .members import Wave, instances, wave_tests

WAVE = Wave(
    classes=(
        "ContextGrowthScenario",
        "MeanVersusTailScenario",
        "BatchWindowScenario",
        "MM1ServiceSpeedupScenario",
        "HostAcceleratorBoardScenario",
        "OffloadDeadlineScenario",
        "ExpertWeightTrafficScenario",
        "ColdStartScenario",
        "ChunkedPrefillScenario",
        "KvResidencyArchetypeScenario",
        "KvBlockSharingScenario",
        "KvForkCopyScenario",
        "FixedBatchScheduleScenario",
        "EmbeddingGatherScenario",
        "FrameCompressionScenario",
        "DecodeBudgetScenario",
        "BatchCapChoiceScenario",
        "BatchDispatchScenario",
        "ContextMemoryCrossingScenario",
        "NoisyNeighborScenario",
        "KvAttentionDesignScenario",
    ),
    not_ported={},
    renamed={},
    skipped={
        ("BatchWindowScenario", "count_at_least"): "P(N >= s) for N ~ Poisson(lambda W) is 1 - sum_{k<s} e^-m m^k/k!, "
        "a finite sum whose length is the method's argument s: the equation language sums only over the keys of a keyed "
        "input, and has no regularized incomplete gamma function (the closed form P(s, m))",
        ("BatchWindowScenario", "seen_batch_tail"): "the smallest s with P(N >= s) below 1 - q, a search over the Poisson "
        "quantile (Tier C): it has no closed form, and the tail itself needs the incomplete gamma function above",
        ("FixedBatchScheduleScenario", "total_tokens"): "returns a list (prompt + output per request, by position); the "
        "engine's outputs are numbers or dicts by key, and list inputs are keyed by value, so two lists cannot be paired by position",
        ("FixedBatchScheduleScenario", "all_lengths"): "returns a list (the batch's and the waiting requests' lengths "
        "concatenated); the engine has no list-valued output",
        ("FixedBatchScheduleScenario", "request_level_spans"): "returns a list of (start, end) tuples; the engine has no "
        "list- or tuple-valued output (request_level_iterations, the largest end, is ported and compared)",
        ("FixedBatchScheduleScenario", "continuous_spans"): "a slot-by-slot simulation with a heap (each waiting request "
        "takes the earliest freed slot): Tier C, no closed form over the keys of the lists",
        ("FixedBatchScheduleScenario", "continuous_iterations"): "the largest end of continuous_spans, the heap simulation "
        "(Tier C); with no waiting requests it is max_output, but the engine cannot refuse the case with waiting requests",
        ("FixedBatchScheduleScenario", "continuous_utilization"): "all_useful_iterations over slots x continuous_iterations, "
        "which needs the heap simulation (Tier C)",
        ("DecodeBudgetScenario", "baseline"): "returns a list of the five interval times; the engine has no list-valued "
        "output: ours has one share input per interval, and test_decode_budget_lists_equal_ours compares the items",
        ("DecodeBudgetScenario", "after_precision"): "returns a list (the intervals after the GEMM cut); compared item by "
        "item in test_decode_budget_lists_equal_ours",
        ("DecodeBudgetScenario", "after_fusion"): "returns a list (the intervals after fusion and graph replay); compared "
        "item by item in test_decode_budget_lists_equal_ours",
        ("DecodeBudgetScenario", "totals"): "returns the list [baseline, after precision, after fusion] of step sums; ours "
        "are baseline_total, precision_total and fusion_total, compared in test_decode_budget_lists_equal_ours",
    },
    method_args={
        ("BatchWindowScenario", "mean_arrivals"): [{"arrival_rate": "50 1/s"}, {"arrival_rate": "1000 1/s"}],
        ("BatchWindowScenario", "arrival_spread"): [{"arrival_rate": "50 1/s"}, {"arrival_rate": "500 1/s"}],
        ("BatchWindowScenario", "empty_share"): [{"arrival_rate": "50 1/s"}, {"arrival_rate": "200 1/s"}],
        ("BatchWindowScenario", "seen_batch_mean"): [{"arrival_rate": "200 1/s"}, {"arrival_rate": "1000 1/s"}],
        ("BatchCapChoiceScenario", "formation_wait"): [{"cap": 16}, {"cap": 32}, {"cap": 1}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_decode_budget_lists_equal_ours() -> None:
    """mlsysim's baseline, after_precision, after_fusion and totals are lists; ours are one share input per interval
    and the three totals: every item equals ours."""
    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.units import Q_

    from .compare import assert_close, reference_scenario

    for key in instances("DecodeBudgetScenario"):
        ref, ours = reference_scenario(key), catalog().scenario(key)
        totals = [ours.baseline_total, ours.precision_total, ours.fusion_total]
        for i, (o, t) in enumerate(zip(totals, ref.totals, strict=True)):
            assert_close(o, Q_(t, "ms"), f"{key}.totals[{i}]")
        shares = [ours.inputs[n] for n in ("gemm_share", "attention_share", "elementwise_share", "allreduce_share", "launch_share")]
        step = ours.inputs["baseline_step"]
        for i, (s, t) in enumerate(zip(shares, ref.baseline, strict=True)):
            assert_close(step * s, Q_(t, "ms"), f"{key}.baseline[{i}]")
        cut = [step * shares[0] * (1 - ours.inputs["gemm_cut"]), step * shares[1] * (1 - ours.inputs["attention_cut"]),
               ours.inputs["fused_elementwise"], step * shares[3], ours.inputs["replay_overhead"]]
        for i, (o, t) in enumerate(zip(cut, ref.after_fusion, strict=True)):
            assert_close(o, Q_(t, "ms"), f"{key}.after_fusion[{i}]")


def test_fixed_batch_with_waiting_requests_equals_mlsysim() -> None:
    """With waiting requests (a second batch after the first), the request-level members equal mlsysim's variant."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    for waiting in ([30, 120], [300], [10, 20, 250, 40, 60]):
        ours = catalog().scenario("FourRequestDecodeBatch").variant(waiting_lengths=waiting)
        theirs = reference_scenario("FourRequestDecodeBatch").model_copy(update={"waiting_lengths": waiting})
        for member in ("all_useful_iterations", "request_level_iterations", "request_level_utilization", "idle_share",
                       "requests_advanced", "max_output", "mean_output"):
            assert_close(getattr(ours, member), getattr(theirs, member), f"waiting {waiting}: {member}")


def test_chunked_prefill_without_a_node_has_only_the_prompt_counts() -> None:
    """mlsysim's LongPromptChunkedPrefill has no prefill node, so its result raises AttributeError; ours has the
    counts that need only the prompt (iterations, chunks) and no value (None) for the timed fields."""
    import pytest

    from mlsysim_symbolic import MissingInputError
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario

    with pytest.raises(AttributeError):
        _ = reference_scenario("LongPromptChunkedPrefill").result
    ours = catalog().scenario("LongPromptChunkedPrefill")
    assert ours.iterations.magnitude == 20 and ours.result.chunks == 19   # ceil and floor of 10000/512
    for field in ("decode_step", "monolithic_prefill", "monolithic_gap", "chunked_iteration", "chunked_done", "gap_ratio"):
        assert getattr(ours.result, field) is None
    with pytest.raises(MissingInputError):
        _ = ours.decode_step


def _models():
    import mlsysim

    return mlsysim.Models.Language


#: Changes away from the named values (where floor, ceil, max and the MLA alternative switch): ours take the first
#: of a (ours, mlsysim's) pair, mlsysim the second; text is a quantity for both, lists item by item.
VARIANTS = {
    "DualTriggerBatchFourRequests": [{"worker_free": "5 ms"}, {"timeout": "30 ms", "deadline": "40 ms"},
                                     {"arrivals": ["0 ms", "1 ms"], "response_path": "0 ms"}],
    "ChunkedPrefillAmongDecodes": [{"chunk_tokens": 4096}, {"chunk_tokens": 64, "decodes": 8}, {"prompt_tokens": 100000},
                                   {"decodes": 1, "chunk_tokens": 16}],
    "RepairBlockSharingResidency": [{"headroom": 0.3}, {"block_tokens": 32}, {"common": 1000, "output": 0},
                                    {"block_tokens": 100, "common": 250}],
    "RepairAgentResidency": [{"shared_prefix": 0}, {"context_tokens": 100000, "shared_prefix": 50000},
                             {"generation": "30 s", "wait": "1 s"}],
    "SharedPoolNoisyNeighbor": [{"swollen_share": "30 GB"}, {"pool_tenants": 7, "base_sequences": 77},
                                {"burst_rate": ("1234 request/s", 1234.0)}],
    "Gpt2XlContextMemoryOnH100": [{"workload": ("DeepSeek_V3", lambda: _models().DeepSeek_V3)},
                                  {"workload": ("Llama3_70B", lambda: _models().Llama3_70B), "bytes_per_value": "1 B"}],
    "BatchCap16Or32At500Qps": [{"arrival_rate": ("2000 request/s", "2000 1/s"), "large_cap": 128}, {"small_cap": 2}],
    "FourRequestDecodeBatch": [{"output_lengths": [10, 20, 30]}, {"output_lengths": [7]}, {"output_lengths": [5, 500]}],
    "KvBytesPerTokenByAttentionDesign": [{"session_tokens": 1000}, {"gqa": ("Mixtral_8x7B", lambda: _models().Mixtral_8x7B),
                                                                    "mha": ("Llama3_405B", lambda: _models().Llama3_405B)}],
    "Llama3_70B_ReplicaDecodeBudget": [{"tp_size": 4}, {"gemm_cut": 0.7, "attention_cut": 0.0}],
    "CriteoShapedRequestOnH100": [{"width": 64, "bytes_per_value": "2 B"}],
    "Drone4KObstacleOffload": [{"compression": 20.0}, {"frame_rate": "5 Hz"}],
    "ResNet50FasterModelAt80PctH100": [{"utilization": 0.5}, {"fast_service": "3 ms", "utilization": 0.95}],
    "BatchWindow20msIn50msBudget": [{"window": "5 ms"}],
    "Llama70BReplicaColdStart": [{"workload": ("Llama3_8B", lambda: _models().Llama3_8B), "fetch_bandwidth": "5 GB/s"}],
}


def _our_value(value):
    return value[0] if isinstance(value, tuple) else value


def _their_value(value):
    from .members import to_reference

    if isinstance(value, tuple):
        value = value[1]
        return value() if callable(value) else (to_reference(value) if isinstance(value, str) else value)
    if isinstance(value, list):
        return [_their_value(v) for v in value]
    return to_reference(value) if isinstance(value, str) else value


def test_variants_equal_mlsysim_variants() -> None:
    """Away from the named values: every public member (numbers, dicts) and every result field of ours equals
    mlsysim's variant with the same field values."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario
    from .members import variant_equal

    skipped = {m for (c, m) in WAVE.skipped}
    compared = 0
    for key, changes in VARIANTS.items():
        base = catalog().scenario(key)
        for change in changes:
            ours = base.variant(**{k: _our_value(v) for k, v in change.items()})
            theirs = reference_scenario(key).variant(**{k: _their_value(v) for k, v in change.items()})
            compared += variant_equal(ours, theirs, f"{key}.variant({change})",
                                      {m for (c, m) in WAVE.skipped if c == type(base).__name__})
    assert skipped and compared >= 200


def test_opt13b_kv_bytes_per_token_equal_pagedattention_example() -> None:
    """Kwon et al. (2023), §3 (memory challenges): one OPT-13B token's KV cache is 2 (key and value) x 5120 (hidden)
    x 40 (layers) x 2 bytes (FP16) = 800 KB, and a 2,048-token request up to 1.6 GB."""
    from mlsysim_symbolic.catalog import catalog

    per_token = catalog().scenario("Gpt2XlContextMemoryOnH100").variant(workload="OPT_13B").kv_per_token
    assert per_token.to("B").magnitude == 2 * 5120 * 40 * 2 == 819200   # bytes for one token (mlsysim's B)          # 800 KiB ("800 KB")
    design = catalog().scenario("KvBytesPerTokenByAttentionDesign").variant(models={"OPT-13B": "OPT_13B"})
    assert design.per_token["OPT-13B"].to("B").magnitude == 819200
    assert design.design == {"OPT-13B": "MHA"}
    # the paper's KB is 1024 bytes here: 800 KB per token, 2,048 tokens -> 1,638,400 KB, "as much as 1.6 GB"
    assert per_token.to("KiB").magnitude == 800                     # bytes for one token, in mlsysim's unit
    assert (per_token * 2048).to("KiB").magnitude == 1_638_400
