"""Hardware and kernel scenarios (second half) against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

import pytest

from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.units import Q_

from .compare import assert_close, reference_scenario
from .members import Wave, to_reference, wave_tests

STAGE_NAMES = ("its arguments are stage names (variadic text keys of the map input `stages`); an equation cannot "
               "pick keys of a keyed input by text arguments, and a method argument cannot be keyed")

PER_VALUE = ("codes", "readback", "errors")
PER_VALUE_REASON = ("mlsysim returns a list in the order of `values`; ours is a dict keyed by the list input "
                    "tensor_values in the same order, compared item by item by test_per_value_members_equal_mlsysim")

INDEXES = ("bandwidth_index", "dense_index", "sparse_index")
INDEX_REASON = ("mlsysim returns a list in the order of its accelerators/models; ours is a dict keyed by the same "
                "entries in the same order, compared item by item by test_growth_indexes_equal_mlsysim")

WAVE = Wave(
    classes=(
        "HostDispatchScenario",
        "PipelineSpeedupScenario",
        "IronLawScenario",
        "RecurrentStepScenario",
        "TransformerBlockScenario",
        "MatmulTileScenario",
        "QuantizationGridScenario",
        "LayerStackScenario",
        "SystolicReuseEnergyScenario",
        "OperationEnergyComparisonScenario",
        "MemoryRoundTripScenario",
        "KernelFusionScenario",
        "JacobianScenario",
        "PeakRatioRangeScenario",
        "GrowthGapScenario",
        "KernelShareScenario",
        "PackedQkvProjectionScenario",
        "ParadigmCostScenario",
        "ParameterBandwidthGrowthScenario",
    ),
    not_ported={},
    skipped={
        ("PipelineSpeedupScenario", "subtotal"): STAGE_NAMES,
        ("PipelineSpeedupScenario", "share"): STAGE_NAMES,
        ("PipelineSpeedupScenario", "overlapped_share"): STAGE_NAMES,
        **dict.fromkeys([("QuantizationGridScenario", m) for m in PER_VALUE], PER_VALUE_REASON),
        **dict.fromkeys([("ParameterBandwidthGrowthScenario", m) for m in INDEXES], INDEX_REASON),
        ("MatmulTileScenario", "fits"): "mlsysim's method fits(capacity) is our predicate of the input `capacity` (the property "
                                        "test cannot check a predicate with an argument); compared by test_fits_equals_mlsysim",
        ("LayerStackScenario", "widths"): "a list whose first item is the first dense layer's in_features and the rest "
                                          "each layer's out_features: the equation language has no positional access "
                                          "to a keyed input (only sums, products and extremes over all its keys); the "
                                          "widths are the inputs in_features/out_features themselves",
    },
    method_args={
        ("MatmulTileScenario", "row_b_reads"): [{"cells": 128}, {"cells": 7}],
    },
    implicit_units={
        ("MatmulTileScenario", "tile_intensity"): "flop/B",
        ("MatmulTileScenario", "unblocked_intensity"): "flop/B",
        ("MatmulTileScenario", "compulsory_intensity"): "flop/B",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


#: QuantizationGrid variants (our inputs, mlsysim's fields): the named scenario's grid, symmetric and signed grids with
#: min-max calibration, and a 2-bit grid whose zero-point and codes fall on ties (round half to even).
GRIDS = [
    ({}, {}),
    ({"symmetric": "true", "alpha": None, "beta": None}, {"symmetric": True, "alpha": None, "beta": None}),
    ({"signed": "true", "tensor_values": [-1.0, 0.5, 2.5]}, {"signed": True, "values": [-1.0, 0.5, 2.5]}),
    ({"bits": 2, "alpha": -1.25, "beta": 0.25, "tensor_values": [0.25, -0.75, -1.5, 2.0]},
     {"bits": 2, "alpha": -1.25, "beta": 0.25, "values": [0.25, -0.75, -1.5, 2.0]}),
]


@pytest.mark.parametrize(("ours_update", "theirs_update"), GRIDS)
def test_per_value_members_equal_mlsysim(ours_update: dict, theirs_update: dict) -> None:
    ours = catalog().scenario("Uint8RangeMinusOneToThree")
    ours = ours.variant(**ours_update) if ours_update else ours
    ref = reference_scenario("Uint8RangeMinusOneToThree").model_copy(update=theirs_update)
    for member in ("lo", "hi", "qmin", "qmax", "scale", "zero_point_exact", "zero_point", "max_rounding_error"):
        assert_close(getattr(ours, member), getattr(ref, member), member)
    for member in PER_VALUE:
        got, want = list(getattr(ours, member).values()), getattr(ref, member)
        assert len(got) == len(want)
        for i, (a, b) in enumerate(zip(got, want)):
            assert_close(a, b, f"{member}[{i}]")


def test_growth_indexes_equal_mlsysim() -> None:
    ours = catalog().scenario("DenseParametersVsBandwidthSince2014")
    ref = reference_scenario("DenseParametersVsBandwidthSince2014")
    for member in INDEXES:
        got, want = list(getattr(ours, member).values()), getattr(ref, member)
        assert len(got) == len(want) > 0
        for i, (a, b) in enumerate(zip(got, want)):
            assert_close(a, b, f"{member}[{i}]")


def test_flattened_accelerators_are_mlsysim_devices_and_registry_bandwidths() -> None:
    """The map `accelerators` names mlsysim's devices in order, each at its registry memory bandwidth."""
    from mlsysim_symbolic.registry import hardware

    ours = catalog().declared["DenseParametersVsBandwidthSince2014"].inputs["accelerators"]
    ref = reference_scenario("DenseParametersVsBandwidthSince2014").accelerators
    assert [hardware()[k].name for k in ours] == [h.name for h in ref]
    for (key, value), device in zip(ours.items(), ref):
        assert_close(Q_(value), hardware()[key].memory_bandwidth, key)
        assert_close(Q_(value), device.memory.bandwidth, key)


def test_flattened_layers_are_mlsysim_layers() -> None:
    """LayerStack and ParadigmCost maps hold the fields of mlsysim's nested layer scenarios, in order."""
    for key in ("MnistMlpLayerStack", "MnistSmallCnn"):
        inputs, ref = catalog().declared[key].inputs, reference_scenario(key)
        assert list(inputs["in_features"].values()) == [d.in_features for d in ref.dense_layers]
        assert list(inputs["out_features"].values()) == [d.out_features for d in ref.dense_layers]
        assert list(inputs["kernel"].values()) == [c.kernel for c in ref.conv_layers]
        assert list(inputs["in_channels"].values()) == [c.in_channels for c in ref.conv_layers]
        assert list(inputs["out_channels"].values()) == [c.out_channels for c in ref.conv_layers]
    inputs = catalog().declared["DigitRecognitionParadigms"].inputs
    widths = reference_scenario("DigitRecognitionParadigms").network.layer_widths
    assert list(inputs["network_in"].values()) == widths[:-1]
    assert list(inputs["network_out"].values()) == widths[1:]


@pytest.mark.parametrize("capacity", ["228 KiB", "128 KiB", "64 KiB", "100 KB"])
def test_fits_equals_mlsysim(capacity: str) -> None:
    """mlsysim's fits(capacity) against ours with the capacity as an input (128 KiB is exactly the live bytes)."""
    ours = catalog().scenario("Matmul4096Fp16Tile128").variant(capacity=capacity).fits
    theirs = reference_scenario("Matmul4096Fp16Tile128").fits(to_reference(capacity))
    assert ours is theirs
