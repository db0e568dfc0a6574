"""Hardware and kernel scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""
from .members import Wave, wave_tests

_BUILDS = [{"build": ("option", "default")}, {"build": ("option", "autotune")}]
_LIST = "mlsysim returns a list (in its input's order); ours is the dict keyed by that input, compared value by value in "

WAVE = Wave(
    classes=(
        "ConvLayerScenario",
        "DenseLayerScenario",
        "AcceleratedFractionScenario",
        "ElementwiseOpScenario",
        "ElementwiseIntensityScenario",
        "EmbeddingTableScenario",
        "EfficiencyClaimGapScenario",
        "ActivationLogicCostScenario",
        "AcceleratorPodScenario",
        "AttentionTilingScenario",
        "CompileBreakevenScenario",
        "CompilationPaybackScenario",
        "ConvBnReluFusionScenario",
        "CrossEntropyScenario",
        "FrameRateHeadroomScenario",
        "GradientChainScenario",
        "DenseScalingSweepScenario",
        "AcceleratorGenerationsScenario",
        "AmdahlScenario",
    ),
    not_ported={},
    renamed={("ConvLayerScenario", "outputs"): "output_values"},
    skipped={
        ("DenseScalingSweepScenario", "width_sweep_macs"): _LIST + "test_width_sweep_macs_equal_mlsysims_list",
        ("AcceleratorGenerationsScenario", "ridges"): _LIST + "test_ridges_equal_mlsysims_list",
        ("DenseScalingSweepScenario", "depths"): "the list 1..max_depth: an index built from a count, which no input gives "
                                                 "(the language reduces over keyed inputs only)",
        ("DenseScalingSweepScenario", "depth_sweep_macs"): "a list over depths 1..max_depth, an index no input gives; its last "
                                                           "and middle terms are in depth_double_factor (compared)",
        ("DenseScalingSweepScenario", "depth_sweep_saved_activations"): "a list over depths 1..max_depth, an index no input "
                                                                        "gives; its last and middle terms are in "
                                                                        "saved_activations_double_factor (compared)",
        ("DenseScalingSweepScenario", "net"): "returns the list of layer widths [input_dim, width x hidden_layers, output_dim], "
                                              "a list built from a count, not a number",
    },
    method_args={
        ("ConvLayerScenario", "dense_weight_growth"): [{"new_height": 448, "new_width": 448}, {"new_height": 56, "new_width": 112}],
        ("DenseLayerScenario", "batch_for_intensity"): [{"target": 100}, {"target": 295.2}],
        ("DenseLayerScenario", "batch_for_traffic_intensity"): [{"target": 100}, {"target": 250.0}, {"target": 5.0}],
        ("CompilationPaybackScenario", "tokens_to_repay"): _BUILDS,
        ("CompilationPaybackScenario", "time_to_repay"): _BUILDS,
        ("CompilationPaybackScenario", "shared_repay"): _BUILDS,
        ("CompilationPaybackScenario", "rollout_cost"): _BUILDS,
        ("CompilationPaybackScenario", "build_share"): _BUILDS,
        ("CrossEntropyScenario", "loss"): [{"key": ("option", "confident")}, {"key": ("option", "correct")}],
    },
    implicit_units={
        ("ConvLayerScenario", "traffic_intensity"): "flop/B",
        ("DenseLayerScenario", "intensity"): "flop/B",
        ("DenseLayerScenario", "traffic_intensity"): "flop/B",
        ("ElementwiseOpScenario", "intensity"): "flop/B",
        ("ElementwiseIntensityScenario", "intensity"): "flop/B",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


# --------------------------------------------------------------------------- list members, value by value

def test_width_sweep_macs_equal_mlsysims_list() -> None:
    """mlsysim's width_sweep_macs list, in the widths' order, is our dict's values."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    ours, theirs = catalog().scenario("DenseWidthDepthSweep"), reference_scenario("DenseWidthDepthSweep")
    got = ours.width_sweep_macs
    assert list(got) == list(theirs.widths)
    assert len(theirs.width_sweep_macs) == len(got)
    for value, ref in zip(got.values(), theirs.width_sweep_macs):
        assert_close(value, ref, "width_sweep_macs")


def test_ridges_equal_mlsysims_list() -> None:
    """mlsysim's ridges list (bare FLOP/byte), in the accelerators' order, is our dict's values."""
    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.units import Q_

    from .compare import assert_close, reference_scenario

    ours, theirs = catalog().scenario("NvidiaGenerationsV100ToB200"), reference_scenario("NvidiaGenerationsV100ToB200")
    got = ours.ridges
    assert [f"NVIDIA {k}" for k in got] == [h.name for h in theirs.accelerators]
    assert len(theirs.ridges) == len(got)
    for value, ref in zip(got.values(), theirs.ridges):
        assert_close(value, Q_(ref, "flop/B"), "ridges")


# --------------------------------------------------------------------------- published numbers and closed forms

def test_separable_convolution_is_8_to_9_times_cheaper_at_3x3() -> None:
    """Howard et al. (2017), MobileNets, section 3.1: 3x3 depthwise separable convolutions use 8 to 9 times less
    computation than standard ones (1/N + 1/9 of the cost at N output channels; 256 channels here)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("Conv3x3At256Channels")
    assert 8 < float(s.separable_ratio) < 9
    assert abs(float(s.separable_fraction) * float(s.separable_ratio) - 1) < 0.01


def test_sigmoid_peak_slope_is_exactly_one_quarter() -> None:
    """s'(0) = s(0)(1 - s(0)) = 1/4 exactly, so the chain keeps 4**-depth."""
    import sympy

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("TwentySigmoidLayers")
    expr = s.expression("peak_slope", expand=True)
    x0 = next(sym for sym in expr.free_symbols if sym.name == "x_0")
    assert sympy.simplify(expr.subs(x0, 0) - sympy.Rational(1, 4)) == 0
    assert float(s.surviving_fraction) == 4.0 ** -20


def test_dense_batch_for_traffic_intensity_reaches_the_target() -> None:
    """At the solved batch B, 2 B n m / (B n a + n m w + B m a) equals the target (the closed form inverts the model)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("Dense2048Fp16Batch1")
    n = m = 2048
    a = w = 2.0
    for target in (50.0, 200.0, 1000.0):
        b = float(s.batch_for_traffic_intensity(target=target))
        assert abs(2 * b * n * m / (b * n * a + n * m * w + b * m * a) - target) < 1e-9 * target


def test_valid_padding_equals_mlsysim() -> None:
    """same_padding 'false' (no named scenario sets it): every ConvLayer property equals mlsysim's variant(same_padding=False)."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario
    from .members import equal, public_members

    compared = 0
    for key in ("MnistFirstConvLayer", "ResNet50Stage3ConvBatch32Int8Weights", "Conv3x3At256Channels"):
        ours = catalog().scenario(key).variant(same_padding="false")
        theirs = reference_scenario(key).variant(same_padding=False)
        assert ours.output_height == theirs.height - theirs.kernel + 1
        for member, how in public_members("ConvLayerScenario").items():
            if how == "property":
                name = WAVE.renamed.get(("ConvLayerScenario", member), member)
                compared += equal(getattr(ours, name), getattr(theirs, member), f"{key}.{member}",
                                  WAVE.implicit_units.get(("ConvLayerScenario", member)))
    assert compared >= 60


def test_amdahl_speedup_of_a_60_percent_part_is_cs_app_s_example():
    """Bryant and O'Hallaron, Computer Systems: A Programmer's Perspective (3rd ed.), §1.9.1 (Amdahl's Law): a part
    that takes 60 percent of the time (alpha = 0.6) sped up 3 times gives 1 / (0.4 + 0.6/3) = 1.67x, and sped up until
    it takes no time, 1 / 0.4 = 2.5x.  Stated here as shares (percent) of a request path, the one AmdahlScenario."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("HostPreprocessingRequestPath").variant(
        stages={"rest": "40 %", "part": "60 %"}, stage="part", speedup=3)
    assert math.isclose(float(s.overall_speedup), 1 / (0.4 + 0.6 / 3)) and round(float(s.overall_speedup), 2) == 1.67
    assert math.isclose(s.upgraded_total_time.to("%").magnitude, 60)   # 40 % + 60 %/3
    limit = s.variant(speedup=math.inf)
    assert float(limit.overall_speedup) == 2.5 and float(limit.speedup_bound) == 2.5
    assert limit.upgraded_stage_time.magnitude == 0
