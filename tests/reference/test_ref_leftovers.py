"""The classes the first waves left (wave 34, derivations/leftovers.toml) against mlsysim 0.3.0: every public member of
every named scenario (see members.py); the ``result`` of each is compared field by field by test_ref_results.py."""

import math

import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "AcceleratorComparison",
        "RetryAmplificationScenario",
        "RunFootprintScenario",
        "CheckpointTraceScenario",
        "CarbonPricedPlacementScenario",
        "ErrorFeedbackScenario",
        "DenseNetworkScenario",
    ),
    not_ported={},
    renamed={},
    skipped={
        ("DenseNetworkScenario", "architecture"): "text, the widths joined by arrows ('784 → 128 → 64 → 10'): a string "
        "built from numbers, which no output kind holds (outputs are numbers, booleans, labels of declared cases or keys); "
        "its numbers are the layer_widths result field (compared)",
    },
    method_args={
        ("AcceleratorComparison", "equivalent_hours"): [{"baseline_hours": 10000}, {"baseline_hours": 1.5}],
        ("CheckpointTraceScenario", "stride_overhead"): [
            {"stride": 10, "lost_turn_cost": "0.1 s"}, {"stride": 25, "lost_turn_cost": "20 s"}, {"stride": 1.5, "lost_turn_cost": "2 s"}],
    },
    implicit_units={
        ("AcceleratorComparison", "equivalent_hours"): "h",
        ("AcceleratorComparison", "candidate_device_hours"): "h",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_retry_amplification_of_three_layers_of_four_attempts_is_64() -> None:
    """Beyer et al. (eds.), Site Reliability Engineering (2016), ch. 22 Addressing Cascading Failures: retries at
    several layers multiply; three layers each allowing one try and three retries (4 attempts) send 4^3 = 64
    requests to the bottom for one failing user request (hand computation of a^L)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("ThreeLayerRetryAmplification").variant(attempts_per_layer=4)
    assert float(s.layered) == 64
    assert s.result.by_layer == pytest.approx([1, 4, 16, 64], rel=1e-12)
    assert float(s.coordinated) == 4


def test_retry_depths_must_reach_the_layers() -> None:
    """A changed layer count with the depths left as they were is refused, never listed over the old depths."""
    from mlsysim_symbolic import InputError
    from mlsysim_symbolic.catalog import catalog

    with pytest.raises(InputError, match="depth"):
        _ = catalog().scenario("ThreeLayerRetryAmplification").variant(layers=4).result.by_layer


def test_equal_share_of_peak_restates_device_hours_by_the_peak_ratio() -> None:
    """Hand computation from the datasheets' dense FP16 tensor peaks (V100 125 TFLOP/s, H100 SXM 989 TFLOP/s) and
    TDPs (300 W, 700 W): 10,000 V100-hours are 10,000 x 125 / 989 = 1263.9 H100-hours; peak per watt improves
    (989/700) / (125/300) = 3.391x."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("V100ToH100")
    assert s.candidate_device_hours.to("h").magnitude == pytest.approx(10000 * 125 / 989, rel=1e-12)
    assert float(s.efficiency_ratio) == pytest.approx((989 / 700) / (125 / 300), rel=1e-12)


def test_run_footprint_by_hand() -> None:
    """Hand computation of the 64-A100 run (A100 TDP 400 W and 150 kg embodied carbon, NVIDIA's datasheet and
    mlsysim's registry): 21,504 device-hours x 400 W = 8.6016 MWh; the DGX H100 rack's IT ratio
    (32 x 700 W + 11.1 kW - 2.7 kW) / (32 x 700 W) = 1.375; x PUE 1.12 = 13.246464 MWh of facility energy, 5.6827 t on
    a 429 g/kWh grid; embodied 21,504 h x 150 kg / 35,040 h = 92.05 kg (Gupta et al. 2021, straight-line amortization)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("Lab64A100TrainingFootprint")
    assert float(s.it_ratio) == pytest.approx(1.375, rel=1e-12)
    assert s.facility_energy.to("MWh").magnitude == pytest.approx(21504 * 0.4 * 1.375 * 1.12 / 1000, rel=1e-12)
    assert s.carbon["US average"].to("t").magnitude == pytest.approx(13.246464 * 429 / 1000, rel=1e-12)
    assert s.embodied_allocated.to("kg").magnitude == pytest.approx(21504 * 150 / 35040, rel=1e-12)
    assert s.variant(wue={"evaporative": "1.8 L/kWh"}).water["evaporative"].to("L").magnitude == pytest.approx(
        11.8272e3 * 1.8, rel=1e-12)


def test_checkpoint_trace_strides_by_hand() -> None:
    """Hand computation on the two-crash trace (crashes after turns 37 and 83 of 100; 0.5 s pause, 1 s restore, 0.1 s
    per rebuilt turn): stride 25 checkpoints after 25, 50, 75, 100 (4 pauses, 2 s), loses 37 - 25 = 12 and 83 - 75 = 8
    turns (2 restores + 20 x 0.1 s = 4 s), 6 s in all, the least of 10, 25 and 50 (8 s, 6 s, 10 s); Young's stride in
    turns (Young 1974, T_opt = sqrt(2 T_s T_f) with T_f = 1 / (r t)): sqrt(2 x 0.5 / (0.02 x 0.1)) = sqrt(500)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("TwoCrashCheckpointTrace")
    assert s.result.lost_turns[25] == (12, 8)
    assert s.total_time[25].to("s").magnitude == pytest.approx(6.0, rel=1e-12)
    assert s.best_stride == 25 and s.result.best_stride == 25
    assert float(s.stride_logged) == pytest.approx(500 ** 0.5, rel=1e-12)
    # a stride that does not divide the trace still checkpoints after the last turn: 100 / 30 -> 30, 60, 90, 100
    assert float(s.variant(strides=[30]).checkpoints[30]) == 4


def test_carbon_price_reorders_regions_by_hand() -> None:
    """Hand computation of the ranking (an internal carbon price added to TCO, Barroso et al. 2018 ch. 6 for the
    TCO): at $100/t the 10,000 MWh run emits 10,000 MWh x PUE x CI, so Iowa (1.12 x 680 g/kWh = 7,616 t) pays
    $761,600 and US average (1.12 x 429 = 4,804.8 t) $480,480 over the same TCO, Quebec (1.06 x 20 = 212 t) $21,200
    over a TCO lower by 10,000 MWh x 0.06 x 0.12 USD/kWh = $72,000; without the price the US average and Iowa tie and
    keep their listed order. A high enough price on a dirtier cheap region reverses the untaxed order."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("CarbonPricedRegionPlacement")
    tco = {r: float(v.to("USD").magnitude) for r, v in s.tco.items()}
    assert tco["US_Avg"] - tco["Quebec"] == pytest.approx(72000, rel=1e-9)
    assert s.objective["Iowa"].to("USD").magnitude - tco["Iowa"] == pytest.approx(761600, rel=1e-9)
    assert list(s.result.objective) == ["Quebec", "US_Avg", "Iowa"]
    assert list(s.result.objective_untaxed) == ["Quebec", "US_Avg", "Iowa"]   # US_Avg and Iowa tie: listed order
    # Quebec made dearer than the others untaxed (PUE 1.5), so only the carbon price can make it win
    v = s.variant(region_pue={"US_Avg": 1.12, "Quebec": 1.5, "Iowa": 1.12})
    assert v.best_region_untaxed == "US_Avg" and list(v.result.objective_untaxed)[-1] == "Quebec"
    assert v.variant(carbon_price_per_ton="1000 USD/t").best_region == "Quebec"


def _error_feedback_by_rule(gradients: list[float]) -> tuple[list[float], list[int]]:
    """Error feedback as stated (Karimireddy et al. 2019, Algorithm 2 with C = rounding): send round(g + e), keep the
    rest; returns (residual at each boundary 0..n, what is sent at each step)."""
    import math

    errors, sent = [0.0], []
    for g in gradients:
        s = g + errors[-1]
        v = math.floor(s + 0.5)
        sent.append(v)
        errors.append(s - v)
    return errors, sent


def test_error_feedback_closed_form_follows_the_rule_step_by_step() -> None:
    """Derivation check: the closed form (sent = round(G_t) - round(G_(t-1)), residual G_t - round(G_t)) equals the
    rule applied step by step, with repeated values and values above a unit; the sent sum plus the last residual is
    the true sum (Karimireddy et al. 2019, §3: the error is kept, not lost)."""
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("ErrorFeedbackFiveSteps")
    for gradients in ([0.3, 0.3, 0.3, 0.3], [1.7, 0.2, 0.2, 2.6, 0.1, 0.45], [0.1] * 7):
        n = len(gradients)
        s = base.variant(gradients=gradients, steps=n, step=list(range(1, n + 1)), boundary=list(range(n + 1)))
        errors, sent = _error_feedback_by_rule(gradients)
        assert s.result.sent == pytest.approx(sent, abs=1e-12)
        assert s.result.errors == pytest.approx(errors, abs=1e-12)
        assert float(s.total_sent) + errors[-1] == pytest.approx(sum(gradients), rel=1e-12)
        assert float(s.naive_total_sent) == sum(math.floor(g + 0.5) for g in gradients)


def test_error_feedback_steps_must_match_the_gradients() -> None:
    """Gradients of another length with the steps left as they were are refused, never summed over the old steps."""
    from mlsysim_symbolic import InputError
    from mlsysim_symbolic.catalog import catalog

    with pytest.raises(InputError):
        _ = catalog().scenario("ErrorFeedbackFiveSteps").variant(gradients=[0.4, 0.3]).result.sent


def test_dense_network_counts_by_hand_with_a_repeated_width() -> None:
    """Hand computation (a dense layer has n_in n_out weights and n_out biases, Goodfellow et al. 2016 §6.5): the
    MNIST network 784-128-64-10 has 784x128 + 128 + 128x64 + 64 + 64x10 + 10 = 109,386 parameters; widths may repeat
    (784-128-128-10: 100,480 + 16,512 + 1,290 = 118,282), and inference holds the largest adjacent pair (784 + 128)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("MnistDenseNetwork")
    assert float(s.parameters) == 784 * 128 + 128 + 128 * 64 + 64 + 64 * 10 + 10 == 109386
    r = s.variant(layer_widths=[784, 128, 128, 10], batch_size=1).result
    assert r.params_per_layer == pytest.approx([100480, 16512, 1290], rel=1e-12)
    assert r.parameters == pytest.approx(118282, rel=1e-12)
    assert r.inference_activation_values == pytest.approx(784 + 128, rel=1e-12)
    assert r.traffic_values == pytest.approx(784 + 2 * (128 + 128) + 10, rel=1e-12)
    assert r.input_gradient_flops == pytest.approx(2 * (128 * 128 + 128 * 10), rel=1e-12)
    assert r.steps_per_epoch == 60000
