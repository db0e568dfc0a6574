"""Hardware and kernel scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""
from .members import Wave, wave_tests

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
    ),
    not_ported={},
    renamed={("ConvLayerScenario", "outputs"): "output_values"},
    skipped={},
    method_args={
        ("ConvLayerScenario", "dense_weight_growth"): [{"new_height": 448, "new_width": 448}, {"new_height": 56, "new_width": 112}],
        ("DenseLayerScenario", "batch_for_intensity"): [{"target": 100}, {"target": 295.2}],
        ("DenseLayerScenario", "batch_for_traffic_intensity"): [{"target": 100}, {"target": 250.0}, {"target": 5.0}],
        ("CompilationPaybackScenario", "tokens_to_repay"): [{"build": ("option", "default")}, {"build": ("option", "autotune")}],
        ("CompilationPaybackScenario", "time_to_repay"): [{"build": ("option", "default")}, {"build": ("option", "autotune")}],
        ("CompilationPaybackScenario", "shared_repay"): [{"build": ("option", "default")}, {"build": ("option", "autotune")}],
        ("CompilationPaybackScenario", "rollout_cost"): [{"build": ("option", "default")}, {"build": ("option", "autotune")}],
        ("CompilationPaybackScenario", "build_share"): [{"build": ("option", "default")}, {"build": ("option", "autotune")}],
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
