"""mlsysim 0.3.0's serving solver Models against ours (derivations/serving_models.toml; issue 35).

mlsysim records no call of these Models from its named scenarios (``never_called`` in
``data/mlsysim_model_calls.json``), so each is held to mlsysim's own ``XModel().solve`` at the same arguments over
seeded generated configurations: mlsysim's registry objects and plain numbers passed to both, as mlsysim's code
passes them, and every field of mlsysim's result compared (:func:`~.members.compare_fields`: numbers at 1e-9
relative, booleans exactly).  The default tier draws a few configurations per Model; ``thorough`` draws more.
Where mlsysim raises on a bad argument ours raises a ValueError or TypeError of its own; where mlsysim answers an
argument ours excludes (the type's ``excludes``), ours refuses it by name.

- ``TailLatencyModel``: M/M/c waits (Erlang C) with Kingman's factor; the saturated queue (λ ≥ cμ) is mlsysim's
  infinite latencies, utilization 1 and headroom 1 (``result.infinite_when``).
- ``WeightStreamingModel``: KV cache in wafer SRAM against per-layer compute and weight injection, both phases, on
  devices with and without an interconnect (the 100 GB/s fallback), every transformer of mlsysim's registry.
- ``ContinuousBatchingModel``: static max-length reservation against paged blocks over capped-exponential request
  lengths (MHA, GQA and latent-attention caches), weights that leave no KV budget, a static allocator that fits no
  request (mlsysim's infinite speedup), page sizes that do and do not divide the context.
- ``ServingCapacityModel``: the replica scan over ContinuousBatchingModel's and ServingModel's outputs and the M/M/c
  P99 wait: met at some count, never met (tail latency or capacity binds at ``max_replicas``), and a model that does
  not fit (infinite waits and utilization, no capacity).
"""

from __future__ import annotations

import inspect
import math
import random
from typing import Any

import pytest

from mlsysim_symbolic.errors import MlsysimSymbolicError
from mlsysim_symbolic.solvers import ContinuousBatchingModel, ServingCapacityModel, TailLatencyModel, WeightStreamingModel

from .compare import our_entry, reference_entry
from .lazy import reference
from .members import compare_fields, equal

ref_solvers = reference("mlsysim.engine.solvers")

#: Configurations drawn per Model in the default tier, and in the thorough tier.
DEFAULT, THOROUGH = 6, 60


@pytest.mark.parametrize("cls", [WeightStreamingModel, ContinuousBatchingModel, ServingCapacityModel], ids=lambda c: c.__name__)
def test_hand_written_signature_is_mlsysims(cls):
    """Names, order, kinds and defaults of the hand-written Models' ``solve`` are mlsysim's (the declared
    TailLatencyModel is held to it by test_ref_solver_models)."""
    ours = [p for p in inspect.signature(cls.solve).parameters.values() if p.name != "self"]
    theirs = [p for p in inspect.signature(getattr(ref_solvers, cls.__name__).solve).parameters.values() if p.name != "self"]
    assert [(p.name, p.kind, p.default) for p in ours] == [(p.name, p.kind, p.default) for p in theirs]


def _same(name: str, ours_cls: type, args: dict[str, Any], theirs_args: dict[str, Any] | None = None) -> int:
    """Ours equals mlsysim's at ``args`` (mlsysim's at ``theirs_args`` where its objects differ), every field."""
    theirs = getattr(ref_solvers, name)().solve(**(theirs_args if theirs_args is not None else args))
    ours = ours_cls().solve(**args)
    return compare_fields(ours, theirs, f"{name}({args})")


# ---------------------------------------------------------------------------------------------- TailLatencyModel
def tail_latency_draws(seed: int, n: int) -> list[dict[str, Any]]:
    """``n`` argument sets of TailLatencyModel: loads from idle to past saturation, 1 to 512 replicas, service
    times of a millisecond to ten seconds, service variability from deterministic (cv 0) to bursty (cv 3).  A load
    drawn at exactly ρ = 1 is left out: λ and cμ then agree to the last bit or two, and whether mlsysim's
    ``c * (1000/s)`` and our ``c/s`` in seconds round to either side of λ is a float tie (TAIL_FIXED holds an exact one)."""
    rng = random.Random(seed)
    draws = []
    for _ in range(n):
        c = rng.choice([1, 2, 3, 4, 8, 16, 64, 512])
        s = 10 ** rng.uniform(0, 4)
        rho = rng.choice([0.0, rng.uniform(0.01, 0.5), rng.uniform(0.5, 0.999), rng.uniform(1.0001, 2.0)])
        args = {"arrival_rate_qps": rho * c * 1000.0 / s, "service_latency_ms": s, "num_replicas": c}
        if rng.random() < 0.6:
            args["service_time_cv"] = rng.choice([0.0, 0.5, 1.0, 2.0, rng.uniform(0, 3)])
        draws.append(args)
    return draws


TAIL_FIXED = [
    {"arrival_rate_qps": 30, "service_latency_ms": 100, "num_replicas": 4},
    {"arrival_rate_qps": 50, "service_latency_ms": 100, "num_replicas": 4},      # saturated: λ > cμ
    {"arrival_rate_qps": 40, "service_latency_ms": 100, "num_replicas": 4},      # saturated: λ = cμ exactly
    {"arrival_rate_qps": 10, "service_latency_ms": 50.0},                        # M/M/1 at ρ = 0.5 (P_W = q_50)
    {"arrival_rate_qps": 0, "service_latency_ms": 100, "num_replicas": 2},       # idle
    {"arrival_rate_qps": 900.0, "service_latency_ms": 250.0, "num_replicas": 256, "service_time_cv": 0.0},
]


@pytest.mark.parametrize("args", TAIL_FIXED + tail_latency_draws(35, DEFAULT), ids=lambda a: ",".join(f"{v:.4g}" for v in a.values()))
def test_tail_latency_matches_mlsysim(args):
    assert _same("TailLatencyModel", TailLatencyModel, args) == 5


@pytest.mark.thorough
def test_tail_latency_matches_mlsysim_thorough():
    for args in tail_latency_draws(3501, THOROUGH):
        _same("TailLatencyModel", TailLatencyModel, args)


def test_tail_latency_saturated_is_infinite_and_refused_as_an_output():
    """A saturated queue: the result shows mlsysim's infinite latencies; the scenario's latency output itself is
    refused by name (no finite number stands in for it)."""
    r = TailLatencyModel().solve(50, 100, 4)
    assert r.p99_latency.magnitude == float("inf") and r.p99_latency.units == r.p50_latency.units == TailLatencyModel().solve(30, 100, 4).p99_latency.units
    assert (r.queue_utilization, r.is_stable, r.slo_headroom_ratio) == (1, False, 1)
    with pytest.raises(ValueError, match="is_stable does not hold"):
        r.scenario.p99_latency  # noqa: B018


@pytest.mark.parametrize("bad", [
    {"service_time_cv": -0.5},                    # mlsysim: validate_nonnegative
    {"service_latency_ms": "no value"},
    {"arrival_rate_qps": "no value"},
])
def test_tail_latency_refused_where_mlsysim_raises(bad):
    args = {"arrival_rate_qps": 30.0, "service_latency_ms": 100.0, "num_replicas": 4, **bad}
    with pytest.raises((ValueError, TypeError)):
        ref_solvers.TailLatencyModel().solve(**args)
    with pytest.raises((ValueError, TypeError)) as raised:
        TailLatencyModel().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError)


@pytest.mark.parametrize("excluded", [
    {"service_latency_ms": 0.0},     # mlsysim: service rate 0, infinite latencies
    {"num_replicas": 0},             # mlsysim: max(1, int(0)) = 1
    {"num_replicas": 2.5},           # mlsysim: int(2.5) = 2
    {"arrival_rate_qps": -1.0},      # mlsysim: a negative utilization
])
def test_tail_latency_excluded_arguments_are_refused_by_name(excluded):
    """Arguments the type excludes (its ``excludes`` say what mlsysim answers there) are refused, never priced."""
    args = {"arrival_rate_qps": 30.0, "service_latency_ms": 100.0, "num_replicas": 4, **excluded}
    with pytest.raises((ValueError, TypeError)) as raised:
        TailLatencyModel().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError)


# ------------------------------------------------------------------------------------------ WeightStreamingModel
#: mlsysim's transformers (its TransformerWorkload entries: GQA, MHA, latent attention, mixtures of experts).
TRANSFORMER_KEYS = ("BERT_Base", "BERT_Large", "DeepSeek_V3", "GPT2", "GPT3", "GPT4", "Llama2_13B", "Llama2_70B",
                    "Llama2_7B", "Llama3_405B", "Llama3_70B", "Llama3_8B", "Mixtral_8x7B", "OPT_13B", "PaLM_540B")
#: Devices: the wafer, GPUs with an interconnect, and devices with none (the fallback link).
DEVICE_KEYS = ("Cerebras_CS3", "Cerebras_CS3", "H100", "A100", "B200", "V100", "Groq_LPU", "MI300X", "TPUv5p", "T4")
PRECISIONS = ("fp32", "tf32", "bf16", "fp16", "FP16", "fp8", "int8", "int4")


def model_device_draws(seed: int, n: int) -> list[tuple[str, str, dict[str, Any], str]]:
    """``n`` (model, device, keywords, how ours names the entries) for the Models that take a model and a device.
    Sequence lengths and batches are drawn off powers of two, where a KV cache times mlsysim's 1.1 can land on a
    device's capacity exactly and the comparison of two roundings of one number decides feasibility."""
    rng = random.Random(seed)
    draws = []
    for _ in range(n):
        kwargs: dict[str, Any] = {"seq_len": rng.randint(1, 32767) | 1}
        if rng.random() < 0.8:
            kwargs["batch_size"] = rng.choice([1, 3, rng.randint(2, 600) | 1])
        if rng.random() < 0.7:
            kwargs["precision"] = rng.choice(PRECISIONS)
        if rng.random() < 0.5:
            kwargs["efficiency"] = rng.choice([1.0, rng.uniform(0.05, 1.0)])
        draws.append((rng.choice(TRANSFORMER_KEYS), rng.choice(DEVICE_KEYS), kwargs, rng.choice(["key", "namespace", "mlsysim"])))
    return draws


#: Fields that are the difference 1 − S̄/A of two near-equal numbers (a paged allocation's waste, ~1e-7 at one-token
#: pages): they keep only the digits S̄ and A differ in, so mlsysim's bisection for the length scale and our W0 agree
#: there to ~1e-15 absolute, not 1e-9 relative (test_ref_serving_deployment's near-limit test says the same of
#: PagedAllocationScenario).  At OPT_13B, S_max = 128781, S̄ = 121278, p = 1 the 50-digit waste is
#: 4.7088191417136e-7: mlsysim's is 1.4e-16 from it, ours 1.2e-15 (about ten units in the last place of A).
#: Compared at 1e-9 relative or 1e-14 absolute.
CANCELLING = {("ContinuousBatchingModel", "paged_internal_fragmentation")}


def _same_on(name: str, ours_cls: type, model: str, device: str, kwargs: dict[str, Any], how: str) -> int:
    theirs = getattr(ref_solvers, name)().solve(reference_entry("Models", "Language", model),
                                                reference_entry("Hardware", "Cloud", device), **kwargs)
    ours = ours_cls().solve(our_entry(how, "Models", "Language", model), our_entry(how, "Hardware", "Cloud", device), **kwargs)
    label = f"{name}({model}, {device}, {kwargs})"
    assert ours.fields == tuple(f for f in type(theirs).model_fields if f != "constraint_trace"), label
    compared = 0
    for field in ours.fields:
        if (name, field) in CANCELLING:
            a, b = getattr(ours, field), getattr(theirs, field)
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-14), f"{label}.{field}: ours {a!r} != mlsysim {b!r}"
            compared += 1
        else:
            compared += equal(getattr(ours, field), getattr(theirs, field), f"{label}.{field}")
    return compared


def weight_streaming_draws(seed: int, n: int) -> list[tuple[str, str, dict[str, Any], str]]:
    rng = random.Random(seed)
    out = []
    for model, device, kwargs, how in model_device_draws(seed, n):
        if rng.random() < 0.5:
            kwargs["phase"] = rng.choice(["prefill", "decode"])
        out.append((model, device, kwargs, how))
    return out


WEIGHT_STREAMING_FIXED = [
    ("Llama3_70B", "Cerebras_CS3", {"seq_len": 2048, "batch_size": 32}, "key"),
    ("Llama3_70B", "Cerebras_CS3", {"seq_len": 2048, "batch_size": 2, "phase": "prefill"}, "mlsysim"),
    ("Llama3_405B", "Cerebras_CS3", {"seq_len": 8191, "batch_size": 301}, "namespace"),       # does not fit
    ("GPT3", "T4", {"seq_len": 511, "precision": "int4", "phase": "prefill"}, "key"),           # no interconnect
    ("Llama3_8B", "Cerebras_CS3", {"seq_len": 4095, "batch_size": 4001, "efficiency": 0.05}, "key"),   # compute-bound
]


@pytest.mark.parametrize("model, device, kwargs, how", WEIGHT_STREAMING_FIXED + weight_streaming_draws(36, DEFAULT),
                         ids=lambda v: str(v))
def test_weight_streaming_matches_mlsysim(model, device, kwargs, how):
    assert _same_on("WeightStreamingModel", WeightStreamingModel, model, device, kwargs, how) == 7


@pytest.mark.thorough
def test_weight_streaming_matches_mlsysim_thorough():
    for draw in weight_streaming_draws(3601, THOROUGH):
        _same_on("WeightStreamingModel", WeightStreamingModel, *draw)


@pytest.mark.parametrize("bad", [{"precision": "fp64"}, {"seq_len": "no value"}, {"model": "ResNet50"}])
def test_weight_streaming_refused_where_mlsysim_raises(bad):
    """An unknown precision, a text for a number, a model without transformer geometry (mlsysim: AttributeError on
    kv_heads) are refused by errors of ours."""
    args = {"model": "Llama3_8B", "hardware": "Cerebras_CS3", "seq_len": 2048, **bad}
    theirs = {**args, "model": reference_entry("Models", "Vision" if bad.get("model") == "ResNet50" else "Language", args["model"]),
              "hardware": reference_entry("Hardware", "Cloud", "Cerebras_CS3")}
    with pytest.raises((ValueError, TypeError, AttributeError)):
        ref_solvers.WeightStreamingModel().solve(**theirs)
    with pytest.raises((ValueError, TypeError)) as raised:
        WeightStreamingModel().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError)


@pytest.mark.parametrize("excluded", [{"phase": "Prefill"}, {"efficiency": 1.5}, {"seq_len": 0}, {"batch_size": 0}])
def test_weight_streaming_excluded_arguments_are_refused_by_name(excluded):
    args = {"model": "Llama3_8B", "hardware": "Cerebras_CS3", "seq_len": 2048, **excluded}
    with pytest.raises((ValueError, TypeError)) as raised:
        WeightStreamingModel().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError)


# --------------------------------------------------------------------------------------- ContinuousBatchingModel
def continuous_batching_draws(seed: int, n: int) -> list[tuple[str, str, dict[str, Any], str]]:
    """Context caps from 1 token to 128K, mean lengths from a few tokens to the cap (or unset), batch caps from 1 to
    100,000, pages of 1 to 256 tokens."""
    rng = random.Random(seed)
    out = []
    for model, device, kwargs, how in model_device_draws(seed, n):
        s_max = rng.choice([1, 17, rng.randint(2, 131071) | 1])
        draw: dict[str, Any] = {"max_seq_len": s_max}
        if rng.random() < 0.7:
            draw["mean_request_tokens"] = rng.choice([s_max, float(s_max), rng.uniform(1e-3, 1.0) * s_max, rng.randint(1, s_max)])
        if rng.random() < 0.8:
            draw["max_batch_size"] = rng.choice([1, rng.randint(2, 512), rng.randint(513, 100000)])
        if rng.random() < 0.5:
            draw["page_size"] = rng.choice([1, 8, 16, 32, 256, rng.randint(1, 300)])
        draw.update({k: v for k, v in kwargs.items() if k in ("precision", "efficiency")})
        out.append((model, device, draw, how))
    return out


CONTINUOUS_BATCHING_FIXED = [
    ("Llama3_8B", "H100", {"max_seq_len": 8192, "mean_request_tokens": 1000, "max_batch_size": 256}, "key"),
    ("Llama3_70B", "H100", {"max_seq_len": 4096}, "mlsysim"),                                    # no KV budget
    ("DeepSeek_V3", "B200", {"max_seq_len": 2000, "mean_request_tokens": 500, "max_batch_size": 10000,
                             "page_size": 32, "precision": "int4"}, "namespace"),                # latent cache
    ("Llama2_70B", "H200", {"max_seq_len": 1_000_000, "mean_request_tokens": 2000, "max_batch_size": 64}, "key"),  # static fits none
    ("GPT2", "T4", {"max_seq_len": 17, "max_batch_size": 100000, "page_size": 16, "precision": "FP32"}, "key"),
]


@pytest.mark.parametrize("model, device, kwargs, how", CONTINUOUS_BATCHING_FIXED + continuous_batching_draws(37, DEFAULT),
                         ids=lambda v: str(v))
def test_continuous_batching_matches_mlsysim(model, device, kwargs, how):
    assert _same_on("ContinuousBatchingModel", ContinuousBatchingModel, model, device, kwargs, how) == 13


@pytest.mark.thorough
def test_continuous_batching_matches_mlsysim_thorough():
    for draw in continuous_batching_draws(3701, THOROUGH):
        _same_on("ContinuousBatchingModel", ContinuousBatchingModel, *draw)


def test_continuous_batching_unbounded_speedup_is_infinite_and_refused_as_an_output():
    """Paging admits requests that no max-length reservation fits: mlsysim's infinite speedup in the result, the
    output itself refused by name."""
    r = ContinuousBatchingModel().solve("Llama2_70B", "H200", 1_000_000, mean_request_tokens=2000, max_batch_size=64)
    assert r.static_max_active_requests == 0 and r.max_active_requests > 0 and r.speedup_vs_static == float("inf")
    with pytest.raises(ValueError, match="speedup_finite does not hold"):
        r.scenario.speedup_vs_static  # noqa: B018


@pytest.mark.parametrize("bad", [
    {"mean_request_tokens": 5000.0},      # above max_seq_len
    {"mean_request_tokens": 0},
    {"max_seq_len": 0},
    {"max_batch_size": 0},
    {"page_size": 0},
    {"efficiency": 0.0},
    {"efficiency": 1.5},
    {"precision": "fp64"},
    {"max_seq_len": "no value"},
])
def test_continuous_batching_refused_where_mlsysim_raises(bad):
    args = {"max_seq_len": 4096, "mean_request_tokens": 1000, "max_batch_size": 8, **bad}
    with pytest.raises((ValueError, TypeError)):
        ref_solvers.ContinuousBatchingModel().solve(reference_entry("Models", "Language", "Llama3_8B"),
                                                    reference_entry("Hardware", "Cloud", "H100"), **args)
    with pytest.raises((ValueError, TypeError)) as raised:
        ContinuousBatchingModel().solve("Llama3_8B", "H100", **args)
    assert isinstance(raised.value, MlsysimSymbolicError)


# ------------------------------------------------------------------------------------------ ServingCapacityModel
def _capacity_same(model: str, device: str, kwargs: dict[str, Any], how: str) -> int:
    theirs = ref_solvers.ServingCapacityModel().solve(reference_entry("Models", "Language", model),
                                                      reference_entry("Hardware", "Cloud", device), **kwargs)
    ours = ServingCapacityModel().solve(our_entry(how, "Models", "Language", model),
                                        our_entry(how, "Hardware", "Cloud", device), **kwargs)
    return compare_fields(ours, theirs, f"ServingCapacityModel({model}, {device}, {kwargs})")


def serving_capacity_draws(seed: int, n: int) -> list[tuple[str, str, dict[str, Any], str]]:
    """QPS from 0.1 to 2,000, P99 targets from 100 ms to 100 s, contexts to 32K tokens, batch caps to 256, replica caps
    of 1 to 200 (the scan's length), service variability from 0 to 3."""
    rng = random.Random(seed)
    out = []
    for model, device, kwargs, how in model_device_draws(seed, n):
        draw: dict[str, Any] = {"qps": 10 ** rng.uniform(-1, 3.3), "target_p99_latency_ms": 10 ** rng.uniform(2, 5)}
        if rng.random() < 0.7:
            draw["max_seq_len"] = rng.randint(1, 32767) | 1
        if rng.random() < 0.5:
            draw["mean_request_tokens"] = rng.uniform(1e-3, 1.0) * draw.get("max_seq_len", 2048)
        if rng.random() < 0.5:
            draw["output_tokens"] = rng.choice([1, 16, 128, 1000])
        if rng.random() < 0.5:
            draw["max_batch_size"] = rng.choice([1, 8, 32, 256])
        draw["max_replicas"] = rng.choice([1, 8, 64, 200])
        if rng.random() < 0.4:
            draw["service_time_cv"] = rng.choice([0.0, 0.5, 2.0, rng.uniform(0, 3)])
        draw.update({k: v for k, v in kwargs.items() if k in ("precision", "efficiency")})
        out.append((model, device, draw, how))
    return out


SERVING_CAPACITY_FIXED = [
    ("Llama3_8B", "H100", {"qps": 500, "target_p99_latency_ms": 20000, "mean_request_tokens": 500,
                           "max_batch_size": 128}, "key"),                                        # met at 4 replicas
    ("Llama3_8B", "H100", {"qps": 50, "target_p99_latency_ms": 2000, "max_replicas": 64}, "mlsysim"),   # base latency too long
    ("Llama3_70B", "H100", {"qps": 5, "target_p99_latency_ms": 5000}, "namespace"),              # does not fit
    ("Llama3_8B", "H100", {"qps": 2000, "target_p99_latency_ms": 60000, "max_replicas": 8}, "key"),     # unstable at the cap
    ("Llama3_8B", "A100", {"qps": 30, "target_p99_latency_ms": 9000, "service_time_cv": 2.0, "output_tokens": 64}, "key"),
]


@pytest.mark.parametrize("model, device, kwargs, how", SERVING_CAPACITY_FIXED + serving_capacity_draws(38, DEFAULT),
                         ids=lambda v: str(v))
def test_serving_capacity_matches_mlsysim(model, device, kwargs, how):
    assert _capacity_same(model, device, kwargs, how) == 14


@pytest.mark.thorough
def test_serving_capacity_matches_mlsysim_thorough():
    for draw in serving_capacity_draws(3801, THOROUGH):
        _capacity_same(*draw)


@pytest.mark.parametrize("bad", [
    {"qps": 0}, {"target_p99_latency_ms": -1.0}, {"output_tokens": 0}, {"max_replicas": 0}, {"max_batch_size": 0},
    {"max_seq_len": 0}, {"efficiency": 1.5}, {"service_time_cv": -1.0}, {"mean_request_tokens": 5000.0},
    {"precision": "fp64"}, {"qps": "no value"},
])
def test_serving_capacity_refused_where_mlsysim_raises(bad):
    args = {"qps": 50.0, "target_p99_latency_ms": 5000.0, **bad}
    with pytest.raises((ValueError, TypeError)):
        ref_solvers.ServingCapacityModel().solve(reference_entry("Models", "Language", "Llama3_8B"),
                                                 reference_entry("Hardware", "Cloud", "H100"), **args)
    with pytest.raises((ValueError, TypeError)) as raised:
        ServingCapacityModel().solve("Llama3_8B", "H100", **args)
    assert isinstance(raised.value, MlsysimSymbolicError)
