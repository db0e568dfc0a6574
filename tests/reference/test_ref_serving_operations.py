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
