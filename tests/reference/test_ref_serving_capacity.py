"""Serving and inference scenarios (derivations/serving_capacity.toml) against mlsysim 0.3.0.

Every named scenario of SpeculativeRoundScenario, BatchingKneeScenario, LittlesLawScenario,
RooflinePointScenario, WeightReadScenario and MM1CapacityPlanScenario, and every member of
it, is compared with the reference package at 1e-9 relative. Where mlsysim raises (an
optional input left unset), ours must raise MissingInputError.

Deliberate differences from mlsysim (see the derivation file's notes):
- MM1CapacityPlanScenario.cost_per_million's argument is called ``accelerator_count``
  (mlsysim: ``accelerators``), because ``accelerators`` is also an output of the type.
- Inputs derived from other mlsysim scenarios (verify times, profile times, intensities,
  batched rate) are stated as quantities at mlsysim's full float precision.
- RooflinePointScenario.precision accepts ``"peak_flops"`` as a name for "unset".
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import load_file

from .compare import assert_close, reference_scenario
from .lazy import reference

mlsysim = reference("mlsysim")
reference_types = reference("mlsysim.engine.scenario_types")

FILE = Path(__file__).resolve().parents[2] / "derivations" / "serving_capacity.toml"

SCENARIOS: dict[str, list[str]] = {
    "SpeculativeRoundScenario": ["Gpt2XlSpeculativeGpt2SmallH100", "Llama3_70B_ReplicaSpeculation"],
    "BatchingKneeScenario": ["LlmDecodeBatchingKnee", "ResNet50EagerFp16BatchingH100", "VisionBatchingKnee"],
    "LittlesLawScenario": ["ImageServiceLittlesLaw", "VisionServingLittlesLaw"],
    "RooflinePointScenario": [
        "Gpt2XlDecodeH100Roofline", "Gpt2XlLayerNormH100Roofline", "KernelAt200FlopPerByteA100",
        "KernelAt200FlopPerByteH100", "LayerNormMeasuredH100", "ResNet50ClassifierHeadH100Roofline",
    ],
    "WeightReadScenario": [
        "Gpt2XlFp16DecodeFullContextPhone", "Gpt2XlFp16WeightReadPhone", "Gpt2XlInt4DecodeFullContextPhone",
        "Gpt2XlInt4WeightReadPhone", "Llama2_7BTokenOnFlagshipPhone", "MobileNetV2Fp32WeightReadPhone",
        "MobileNetV2Int8WeightReadPhone", "ResNet50Fp32WeightReadPhone",
    ],
    "MM1CapacityPlanScenario": ["ResNet50FleetPlanH100"],
}

# mlsysim members (properties and methods) of each class; all are numeric and all are ported.
PROPERTIES: dict[str, list[str]] = {
    "SpeculativeRoundScenario": ["draft_cost", "expected_tokens", "round_time", "per_token_time", "tpot_gain"],
    "BatchingKneeScenario": ["knee"],
    "LittlesLawScenario": [
        "in_flight", "replica_throughput", "throughput_floor", "replicas_needed", "executing_positions",
        "mean_executing", "service_utilization",
    ],
    "RooflinePointScenario": ["point_intensity", "bandwidth_utilization", "peak", "ridge", "attainable", "peak_fraction"],
    "WeightReadScenario": [
        "weight_bytes", "read_time", "read_energy", "read_power", "kv_cache_bytes", "token_bytes", "token_time",
        "token_rate", "separate_unpack_bytes", "separate_unpack_time",
    ],
    "MM1CapacityPlanScenario": [
        "service_rate", "exact_tail_factor", "max_utilization", "required_rate", "accelerators_exact", "accelerators",
        "accelerators_planned", "utilization_after_failure", "saturated_accelerators_exact", "batched_accelerators",
        "batched_accelerators_planned",
    ],
}
METHODS: dict[str, list[str]] = {
    "SpeculativeRoundScenario": [],
    "BatchingKneeScenario": ["throughput_share", "service_time", "throughput", "time_per_request", "fixed_share"],
    "LittlesLawScenario": [],
    "RooflinePointScenario": [],
    "WeightReadScenario": [],
    "MM1CapacityPlanScenario": ["time_in_system", "tail_time", "cost_per_million"],
}

# Argument values per (class, method): mlsysim's own batch_sizes / utilization_points /
# example_utilization, and the planned fleet sizes the scenario prints costs for.
ARGUMENTS: dict[tuple[str, str], tuple] = {
    **{("BatchingKneeScenario", m): (1, 8, 32, 128) for m in METHODS["BatchingKneeScenario"]},
    ("MM1CapacityPlanScenario", "time_in_system"): (0.5, 0.7, 0.8, 0.9, 0.95),
    ("MM1CapacityPlanScenario", "tail_time"): (0.5, 0.7, 0.8, 0.9, 0.95),
    ("MM1CapacityPlanScenario", "cost_per_million"): (36, 3, 26.11823676161379),
}

# Inputs we add to mlsysim's fields (constants made explicit, with mlsysim's value as default).
ADDED_INPUTS = {   # beyond mlsysim's fields: the counted constants its equations leave implicit (derivations/README.md)
    "MM1CapacityPlanScenario": {"failed_accelerators", "priced_requests", "requests_per_service"},
    "WeightReadScenario": {"kv_vectors", "latent_vectors", "tokens_per_step"},
}

CLASS_OF = {key: cls for cls, keys in SCENARIOS.items() for key in keys}


@pytest.fixture(scope="module")
def cat():
    return load_file(FILE)


def _reference_value(obj, member, *args):
    """mlsysim's value of ``member`` (or the exception it raises)."""
    try:
        value = getattr(obj, member)
        return value(*args) if args else value, None
    except Exception as exc:  # mlsysim raises TypeError/AttributeError/KeyError for unset optional inputs
        return None, exc


def _check(ours_call, theirs, error, label):
    if error is not None:
        with pytest.raises(MissingInputError):
            ours_call()
        return
    assert_close(ours_call(), theirs, label)


# ---------------------------------------------------------------------------- coverage
@pytest.mark.parametrize("cls", SCENARIOS)
def test_every_named_instance_is_ported(cat, cls):
    S = mlsysim.Scenarios
    theirs = sorted(n for n in dir(S) if type(getattr(S, n)).__name__ == cls)
    ours = sorted(k for k, d in cat.declared.items() if d.type_name == cls)
    assert theirs == sorted(SCENARIOS[cls])
    assert ours == theirs


@pytest.mark.parametrize("cls", SCENARIOS)
def test_every_member_is_ported(cat, cls):
    ref = getattr(reference_types, cls)
    members = sorted(n for n, v in vars(ref).items() if not n.startswith("_") and (isinstance(v, property) or inspect.isfunction(v)))
    assert members == sorted(PROPERTIES[cls] + METHODS[cls])
    assert sorted(cat.types[cls].outputs) == members
    for m in METHODS[cls]:
        assert cat.types[cls].outputs[m].style == "method"
    for p in PROPERTIES[cls]:
        assert cat.types[cls].outputs[p].style == "property"


@pytest.mark.parametrize("cls", SCENARIOS)
def test_inputs_keep_mlsysim_field_names(cat, cls):
    fields = set(getattr(reference_types, cls).model_fields) - {"name", "description"}
    assert set(cat.types[cls].inputs) == fields | ADDED_INPUTS.get(cls, set())


# ---------------------------------------------------------------------------- inputs
def _input_agrees(ours, theirs, label: str) -> None:
    from mlsysim.hardware.types import HardwareNode
    from mlsysim.models.types import Workload

    if theirs is None or theirs == []:
        assert ours is None, label
    elif isinstance(theirs, (HardwareNode, Workload)):
        assert ours.name == theirs.name, label
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), label
        for a, b in zip(ours.values(), theirs, strict=True):
            assert_close(a, b, label)
    else:
        assert_close(ours, theirs, label)


@pytest.mark.parametrize("key", list(CLASS_OF))
def test_inputs_agree(cat, key):
    """Every field of mlsysim's named scenario (name and description apart) is our input's value; every mismatch is
    reported (one test per named scenario: the fields are mlsysim's, read when the test runs)."""
    fields = sorted(f for f in getattr(reference_types, CLASS_OF[key]).model_fields if f not in ("name", "description"))
    mismatches = []
    for field in fields:
        try:
            _input_agrees(getattr(cat.scenario(key), field), getattr(reference_scenario(key), field), f"{key}.{field}")
        except (AssertionError, KeyError) as exc:
            mismatches.append(f"{field}: {type(exc).__name__}: {exc}")
    assert fields and not mismatches, "\n".join(mismatches)


# ---------------------------------------------------------------------------- members
PROPERTY_CASES = [(key, m) for cls, keys in SCENARIOS.items() for key in keys for m in PROPERTIES[cls]]


@pytest.mark.parametrize(("key", "member"), PROPERTY_CASES, ids=[f"{k}-{m}" for k, m in PROPERTY_CASES])
def test_property(cat, key, member):
    theirs, error = _reference_value(reference_scenario(key), member)
    ours = cat.scenario(key)
    _check(lambda: getattr(ours, member), theirs, error, f"{key}.{member}")


METHOD_CASES = [
    (key, m, arg)
    for cls, keys in SCENARIOS.items()
    for key in keys
    for m in METHODS[cls]
    for arg in ARGUMENTS[(cls, m)]
]


@pytest.mark.parametrize(("key", "member", "arg"), METHOD_CASES, ids=[f"{k}-{m}({a})" for k, m, a in METHOD_CASES])
def test_method(cat, key, member, arg):
    theirs, error = _reference_value(reference_scenario(key), member, arg)
    ours = cat.scenario(key)
    _check(lambda: getattr(ours, member)(arg), theirs, error, f"{key}.{member}({arg})")


def test_known_values(cat):
    """Spot values from mlsysim's scenario descriptions and formula notes (E = 2.7731, knee 80, 13 replicas, ...)."""
    assert cat.scenario("Gpt2XlSpeculativeGpt2SmallH100").expected_tokens.to("").magnitude == pytest.approx(2.7731, rel=1e-12)
    assert cat.scenario("LlmDecodeBatchingKnee").knee.to("").magnitude == pytest.approx(80)   # requests, a plain count
    assert cat.scenario("VisionServingLittlesLaw").replicas_needed.magnitude == 13
    assert cat.scenario("KernelAt200FlopPerByteH100").attainable.to("TFLOP/s").magnitude == pytest.approx(670)
    plan = cat.scenario("ResNet50FleetPlanH100")
    assert (plan.accelerators.magnitude, plan.accelerators_planned.magnitude) == (27, 36)
    assert plan.cost_per_million(plan.accelerators_planned.magnitude).units == cat.scenario("ResNet50FleetPlanH100").cost_per_million(1).units


# ---------------------------------------------------------------------------- variants beyond the named instances
PRECISIONS = ["fp16_dense", "fp8", "int8", "fp32", "tf32", "fp4"]
ROOFLINE_VARIANTS = [
    (key, p, m)
    for key in ("KernelAt200FlopPerByteH100", "KernelAt200FlopPerByteA100")
    for p in PRECISIONS
    for m in ("peak", "ridge", "attainable", "peak_fraction")
]


@pytest.mark.parametrize(("key", "precision", "member"), ROOFLINE_VARIANTS, ids=[f"{k}-{p}-{m}" for k, p, m in ROOFLINE_VARIANTS])
def test_roofline_precision_variant(cat, key, precision, member):
    """precision_flops[precision] is strict in mlsysim (KeyError when the device lacks it); ours raises too."""
    theirs, error = _reference_value(reference_scenario(key).variant(precision=precision), member)
    ours = cat.scenario(key).variant(precision=precision)
    _check(lambda: getattr(ours, member), theirs, error, f"{key}[{precision}].{member}")


KV_WORKLOADS = ["DeepSeek_V3", "Llama3_70B", "Llama2_70B", "Llama3_8B", "GPT2_Small"]
KV_VARIANTS = [(w, m) for w in KV_WORKLOADS for m in ("kv_cache_bytes", "token_bytes", "separate_unpack_bytes", "token_rate")]


@pytest.mark.parametrize(("workload", "member"), KV_VARIANTS, ids=[f"{w}-{m}" for w, m in KV_VARIANTS])
def test_weight_read_kv_geometry(cat, workload, member):
    """Grouped-query (kv_heads) and multi-head latent attention (DeepSeek-V3) paths of get_kv_cache_size."""
    key = "Gpt2XlInt4DecodeFullContextPhone"
    model = getattr(mlsysim.Models.Language, workload)
    theirs, error = _reference_value(reference_scenario(key).variant(workload=model), member)
    ours = cat.scenario(key).variant(workload=workload)
    _check(lambda: getattr(ours, member), theirs, error, f"{key}[{workload}].{member}")


@pytest.mark.parametrize("width", ["2 B", "1 B"])
def test_weight_read_model_size_fallback(cat, width):
    """A workload with no parameter count (DLRM) reads its stored model_size at any width, as mlsysim."""
    from mlsysim.core.units import Q_ as MQ

    model = mlsysim.Models.Recommendation.DLRM
    theirs = reference_scenario("Gpt2XlFp16WeightReadPhone").variant(workload=model, bytes_per_weight=MQ(width))
    ours = cat.scenario("Gpt2XlFp16WeightReadPhone").variant(workload="DLRM", bytes_per_weight=f"{width}/param")
    assert_close(ours.weight_bytes, theirs.weight_bytes, "DLRM.weight_bytes")
    assert_close(ours.read_time, theirs.read_time, "DLRM.read_time")
