"""Serving and inference scenarios (derivations/serving.toml) against mlsysim 0.3.0.

Every named scenario of DecodeScenario, ServingScenario, KvFootprintScenario,
KvAdmissionScenario, KvDecodeBatchScenario and PrecisionDividendScenario, and every
numeric member of it, is compared with the reference package at 1e-9 relative. Members
that mlsysim computes in a solver (``.result``) are compared field by field. Where mlsysim
raises (an optional input left unset) or returns None, ours must raise MissingInputError.

Deliberate differences from mlsysim (see the derivation file's assumptions/excludes):
- ``KvAdmissionScenario.context_fit(n)`` takes the request count positionally as mlsysim's
  ``context_fit(requests=None)`` does, and reads the ``requests`` input when it is omitted.
- ``DecodeScenario``/``ServingScenario`` expose ServingModel's and DecodeBoundModel's hidden
  constants (2 flop/param, 4 attention flop, 0.01 ms layer tax, bytes per precision,
  efficiency 0.5, prefix caching, chunked prefill) as inputs with mlsysim's defaults.
- A ``peak_precision`` key that the device does not list falls back to peak_flops in
  DecodeScenario (mlsysim raises KeyError).
- Weights are P·b throughout; mlsysim's size_in_bytes returns a stated ``model_size`` at
  2-byte precision, and no transformer in the registry states one.
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
resolve_precision = reference("mlsysim.core.units", "resolve_precision")
ServingModel = reference("mlsysim.engine.solvers", "ServingModel")

FILE = Path(__file__).resolve().parents[2] / "derivations" / "serving.toml"

SCENARIOS: dict[str, list[str]] = {
    "DecodeScenario": [
        "Gpt2XlDecodeH100", "Gpt2XlFp16DecodeOnH100", "Llama2_70BDecodeFloorTp8", "Llama2_70B_DecodeH100",
        "Llama2_70B_DecodeTwoH100", "Llama3_70B_DecodeH100", "Llama3_70B_DecodeH100Batch64", "Llama3_70B_Int8DecodeH100",
    ],
    "ServingScenario": ["Llama3_70B_ServingH100"],
    "KvFootprintScenario": ["Gpt2XlKvFullWindow", "Llama2_7BKvAt2048Tokens"],
    "KvAdmissionScenario": [
        "Llama3_70BAgentContextAdmissionDgxH100", "Llama3_70BInt4KvBudgetH100", "Llama3_70BLongContextAdmissionDgxH100",
        "Llama3_70BShortContextAdmissionDgxH100", "Llama3_8BFp16ConversationsH100",
    ],
    "KvDecodeBatchScenario": ["Gpt2XlChatDecodeBatchesH100"],
    "PrecisionDividendScenario": ["Llama2_70BPrecisionDividendGqaTp8", "Llama2_70BPrecisionDividendMhaTp8"],
}

# Members read from mlsysim's solver result (``scenario.result.<name>``).
RESULT_FIELDS: dict[str, list[str]] = {
    "DecodeScenario": [
        "weight_bytes", "flops_per_step", "compute_time", "memory_time", "memory_share", "bound_ratio",
        "intensity", "attainable_flops", "peak_fraction",
    ],
    "ServingScenario": [
        "ttft", "itl", "kv_cache_size", "model_weights_size", "total_memory_required", "memory_utilization",
        "prompt_cache_hit_ratio", "prefill_chunks", "prefill_chunk_time", "decode_stall_bound",
    ],
    "KvAdmissionScenario": ["head_dim", "weights", "hbm_total", "kv_budget", "kv_per_token", "kv_per_request", "max_requests"],
    "PrecisionDividendScenario": [
        "weights_per_device", "weights_per_device_low", "kv_budget_per_device", "kv_budget_per_device_low",
        "kv_per_request", "kv_per_request_low", "kv_per_request_per_device", "kv_per_request_per_device_low",
        "max_batch", "max_batch_low", "dividend", "budget_gain",
    ],
}

# Members that are properties of mlsysim's scenario class itself.
PROPERTIES: dict[str, list[str]] = {
    "KvFootprintScenario": ["per_token", "total", "weights", "kv_budget", "tokens_in_budget", "requests"],
    "KvDecodeBatchScenario": [
        "weights", "kv_per_token", "kv_per_sequence", "bandwidth", "rate_ceiling", "max_batch_in_memory",
        "peak_rate", "ridge", "prefill_ops", "prefill_time",
    ],
}

# Methods of mlsysim's scenario classes, with the argument values they are compared at.
BATCH_METHODS = ["step_bytes", "step_time", "token_rate", "cache_share"]
EXTRA_BATCHES = [3, 200]                       # beyond the scenario's own batch_sizes
TPOTS = ["0.5 ms", "5 ms", "20 ms"]            # below the weight-read floor, and two targets

# mlsysim members not ported (not numbers), with the reason.
SKIPPED: dict[str, dict[str, str]] = {
    "DecodeScenario": {
        "result": "solver object (its numeric fields are compared)", "bottleneck": "string label", "constraint_trace": "text (None)",
    },
    "ServingScenario": {"result": "solver object (its numeric fields are compared)", "feasible": "bool", "constraint_trace": "list of text"},
    "KvAdmissionScenario": {"result": "solver object (its numeric fields are compared)", "constraint_trace": "text (None)"},
    "PrecisionDividendScenario": {"result": "solver object (its numeric fields are compared)", "constraint_trace": "text (None)"},
    "KvFootprintScenario": {},
    "KvDecodeBatchScenario": {},
}


@pytest.fixture(scope="module")
def cat():
    return load_file(FILE)


def _pairs(mapping: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(scenario, member) for cls, members in mapping.items() for scenario in SCENARIOS[cls] for member in members]


def _mlsysim_workload(key: str):
    for group in ("Language", "Vision", "Tiny", "Recommendation", "StateSpace", "GenerativeVision", "Embodied"):
        found = getattr(getattr(mlsysim.Models, group), key, None)
        if found is not None:
            return found
    raise KeyError(key)


def _mlsysim_hardware(key: str):
    for group in ("Cloud", "Edge", "Workstation", "Mobile", "Tiny"):
        found = getattr(getattr(mlsysim.Hardware, group), key, None)
        if found is not None:
            return found
    raise KeyError(key)


# ------------------------------------------------------------------ coverage of the reference
@pytest.mark.parametrize("cls", list(SCENARIOS))
def test_every_reference_instance_is_ported(cat, cls):
    reference = sorted(n for n in dir(mlsysim.Scenarios) if type(getattr(mlsysim.Scenarios, n)).__name__ == cls)
    assert reference == sorted(SCENARIOS[cls])
    for key in reference:
        assert cat.declared[key].type_name == cls


@pytest.mark.parametrize("cls", list(SCENARIOS))
def test_every_reference_member_is_compared_or_skipped(cat, cls):
    ref_cls = getattr(reference_types, cls)
    members = {n for n, v in vars(ref_cls).items() if not n.startswith("_") and (isinstance(v, property) or inspect.isfunction(v))}
    if "result" in members:
        result = reference_scenario(SCENARIOS[cls][0]).result
        members |= set(type(result).model_fields)
    compared = set(RESULT_FIELDS.get(cls, [])) | set(PROPERTIES.get(cls, []))
    if cls == "KvAdmissionScenario":
        compared.add("context_fit")
    if cls == "KvDecodeBatchScenario":
        compared |= {*BATCH_METHODS, "max_batch_within"}
    assert members == compared | set(SKIPPED[cls]), members ^ (compared | set(SKIPPED[cls]))
    ours = set(cat.types[cls].outputs)
    assert compared <= ours


# ------------------------------------------------------------------ named scenarios, member by member
@pytest.mark.parametrize(("scenario", "member"), _pairs(RESULT_FIELDS))
def test_result_field(cat, scenario, member):
    ours = cat.scenario(scenario)
    theirs = getattr(reference_scenario(scenario).result, member)
    if theirs is None:          # mlsysim leaves it unset: the optional input is not given
        with pytest.raises(MissingInputError):
            getattr(ours, member)
        return
    assert_close(getattr(ours, member), theirs, f"{scenario}.{member}")


@pytest.mark.parametrize(("scenario", "member"), _pairs(PROPERTIES))
def test_property(cat, scenario, member):
    ours = cat.scenario(scenario)
    ref = reference_scenario(scenario)
    try:
        theirs = getattr(ref, member)
    except (AttributeError, TypeError, KeyError):
        with pytest.raises(MissingInputError):
            getattr(ours, member)
        return
    assert_close(getattr(ours, member), theirs, f"{scenario}.{member}")


@pytest.mark.parametrize("scenario", SCENARIOS["KvAdmissionScenario"])
def test_context_fit(cat, scenario):
    ours = cat.scenario(scenario)
    ref = reference_scenario(scenario)
    if ref.requests is None:
        with pytest.raises(TypeError):
            ref.context_fit()
        with pytest.raises(MissingInputError):
            ours.context_fit()
    else:
        assert_close(ours.context_fit(), ref.context_fit(), f"{scenario}.context_fit()")
    for n in (1, 16, 48):
        assert_close(ours.context_fit(n), ref.context_fit(n), f"{scenario}.context_fit({n})")
        assert_close(ours.variant(requests=n).context_fit(), ref.context_fit(n), f"{scenario}.variant(requests={n}).context_fit()")


@pytest.mark.parametrize("scenario", SCENARIOS["KvDecodeBatchScenario"])
def test_batch_methods(cat, scenario):
    """Every batch method at mlsysim's own batch sizes and EXTRA_BATCHES (read when the test runs); every mismatch is
    reported."""
    batches = [*reference_scenario(scenario).batch_sizes, *EXTRA_BATCHES]
    mismatches = []
    for member in BATCH_METHODS:
        for batch_size in batches:
            try:
                ours = getattr(cat.scenario(scenario), member)(batch_size)
                theirs = getattr(reference_scenario(scenario), member)(batch_size)
                assert_close(ours, theirs, f"{scenario}.{member}({batch_size})")
            except AssertionError as exc:
                mismatches.append(str(exc))
    assert len(batches) > len(EXTRA_BATCHES) and not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("scenario", SCENARIOS["KvDecodeBatchScenario"])
@pytest.mark.parametrize("tpot", TPOTS)
def test_max_batch_within(cat, scenario, tpot):
    ours = cat.scenario(scenario).max_batch_within(tpot)
    theirs = reference_scenario(scenario).max_batch_within(mlsysim.core.units.Q_(tpot))
    assert_close(ours, theirs, f"{scenario}.max_batch_within({tpot})")


@pytest.mark.parametrize("scenario", SCENARIOS["KvDecodeBatchScenario"])
def test_batch_sizes_are_the_reference_list(cat, scenario):
    assert cat.scenario(scenario).keys("batch_sizes") == reference_scenario(scenario).batch_sizes


# ------------------------------------------------------------------ outputs we add (intermediates)
@pytest.mark.parametrize("scenario", [*SCENARIOS["DecodeScenario"], *SCENARIOS["ServingScenario"]])
def test_bytes_per_param(cat, scenario):
    ref = reference_scenario(scenario)
    precision = getattr(ref, "precision", "fp16")      # ServingScenario uses ServingModel's default
    assert_close(cat.scenario(scenario).bytes_per_param, resolve_precision(precision)[1], f"{scenario}.bytes_per_param")


@pytest.mark.parametrize("scenario", SCENARIOS["ServingScenario"])
def test_serving_intermediates(cat, scenario):
    ours = cat.scenario(scenario)
    ref = reference_scenario(scenario)
    assert ours.new_tokens.magnitude == max(1, ref.seq_len)
    hw = ref.hardware
    rate = hw.compute.precision_flops.get("fp16", hw.compute.peak_flops)
    ops = ((ref.result.ttft - hw.dispatch_tax) * rate * 0.5).to("flop")
    assert_close(ours.prefill_ops, ops, f"{scenario}.prefill_ops", rel=1e-8)


# ------------------------------------------------------------------ variants: the branches no named scenario takes
DECODE_VARIANTS = [
    {"precision": "int4", "tp_size": 4, "batch_size": 16, "peak_precision": "int8", "hardware": "A100"},
    {"precision": "fp32", "batch_size": 512, "hardware": "A100"},             # compute-bound: attainable = peak
    {"precision": "bf16", "batch_size": 8, "peak_precision": "fp16_sparse", "workload": "Llama2_7B"},
]


@pytest.mark.parametrize("changes", DECODE_VARIANTS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("member", RESULT_FIELDS["DecodeScenario"])
def test_decode_variant(cat, changes, member):
    ours = cat.scenario("Llama3_70B_DecodeH100").variant(**changes)
    ref_changes = dict(changes)
    if "hardware" in ref_changes:
        ref_changes["hardware"] = _mlsysim_hardware(ref_changes["hardware"])
    if "workload" in ref_changes:
        ref_changes["workload"] = _mlsysim_workload(ref_changes["workload"])
    theirs = reference_scenario("Llama3_70B_DecodeH100").variant(**ref_changes).result
    assert_close(getattr(ours, member), getattr(theirs, member), f"variant {changes}.{member}")


SERVING_VARIANTS = [
    {"workload": "DeepSeek_V3", "hardware": "JetsonAGXOrin", "batch_size": 4, "seq_len": 4096},   # MLA cache; fp16 key
    {"workload": "PaLM_540B", "hardware": "P100", "seq_len": 512},                                  # stated head_dim
    {"workload": "GPT2", "hardware": "A100", "batch_size": 32, "seq_len": 1024},
]
SERVING_MEMBERS = [m for m in RESULT_FIELDS["ServingScenario"] if m not in ("prefill_chunk_time", "decode_stall_bound")]


@pytest.mark.parametrize("changes", SERVING_VARIANTS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("member", SERVING_MEMBERS)
def test_serving_variant(cat, changes, member):
    ours = cat.scenario("Llama3_70B_ServingH100").variant(**changes)
    ref_changes = dict(changes, workload=_mlsysim_workload(changes["workload"]), hardware=_mlsysim_hardware(changes["hardware"]))
    theirs = reference_scenario("Llama3_70B_ServingH100").variant(**ref_changes).result
    assert_close(getattr(ours, member), getattr(theirs, member), f"variant {changes}.{member}")


SOLVER_OPTIONS = [
    {"precision": "fp32", "efficiency": 0.7, "cached_prefix_len": 1536, "prefill_chunk_tokens": 200},
    {"precision": "int8", "cached_prefix_len": 2047},                          # one new token
    {"prefill_chunk_tokens": 4096},                                            # one chunk larger than the prompt
    {"precision": "bf16", "efficiency": 1.0, "prefill_chunk_tokens": 512},
]


@pytest.mark.parametrize("options", SOLVER_OPTIONS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("member", RESULT_FIELDS["ServingScenario"])
@pytest.mark.parametrize("hardware", ["H100", "P100"])
def test_serving_solver_options(cat, options, member, hardware):
    """ServingModel's optional inputs, which ServingScenario itself cannot set, against the solver."""
    ours = cat.scenario("Llama3_70B_ServingH100").variant(hardware=hardware, **options)
    ref = reference_scenario("Llama3_70B_ServingH100")
    theirs = ServingModel().solve(ref.workload, _mlsysim_hardware(hardware), seq_len=ref.seq_len, batch_size=ref.batch_size, **options)
    expected = getattr(theirs, member)
    if expected is None:
        with pytest.raises(MissingInputError):
            getattr(ours, member)
        return
    assert_close(getattr(ours, member), expected, f"{options}.{member}")


FOOTPRINT_VARIANTS = [
    {"hardware": "H100", "kv_share": 0.5},
    {"hardware": "A100", "kv_share": 0.3, "kv_width_factor": 0.5, "tokens": 4096},
    {"workload": "DeepSeek_V3", "hardware": "H100", "kv_share": 0.25, "tokens": 32768},   # MLA cache
    {"workload": "PaLM_540B", "hardware": "H100", "kv_share": 0.9, "bytes_per_value": "1 B"},  # stated head_dim
]


@pytest.mark.parametrize("changes", FOOTPRINT_VARIANTS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("member", PROPERTIES["KvFootprintScenario"])
def test_footprint_variant(cat, changes, member):
    ours = cat.scenario("Llama2_7BKvAt2048Tokens").variant(**changes)
    ref_changes = dict(changes)
    ref_changes["hardware"] = _mlsysim_hardware(changes["hardware"])
    if "workload" in changes:
        ref_changes["workload"] = _mlsysim_workload(changes["workload"])
    if "bytes_per_value" in changes:
        ref_changes["bytes_per_value"] = mlsysim.core.units.Q_(changes["bytes_per_value"])
    theirs = getattr(reference_scenario("Llama2_7BKvAt2048Tokens").variant(**ref_changes), member)
    assert_close(getattr(ours, member), theirs, f"variant {changes}.{member}")


BATCH_VARIANTS = [
    {"workload": "DeepSeek_V3", "hardware": "GB200_NVL72", "peak_precision": "fp8"},   # MLA cache
    {"workload": "PaLM_540B", "hardware": "A100", "peak_precision": "fp16_dense"},    # stated head_dim
    {"workload": "Llama3_8B", "hardware": "H100", "peak_precision": "int8", "context_tokens": 8192},
]


@pytest.mark.parametrize("changes", BATCH_VARIANTS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("member", [*PROPERTIES["KvDecodeBatchScenario"], *BATCH_METHODS, "max_batch_within"])
def test_decode_batch_variant(cat, changes, member):
    ours = cat.scenario("Gpt2XlChatDecodeBatchesH100").variant(**changes)
    ref_changes = dict(changes, workload=_mlsysim_workload(changes["workload"]), hardware=_mlsysim_hardware(changes["hardware"]))
    ref = reference_scenario("Gpt2XlChatDecodeBatchesH100").variant(**ref_changes)
    if member in BATCH_METHODS:
        for b in (1, 64, 1000):
            assert_close(getattr(ours, member)(b), getattr(ref, member)(b), f"variant {changes}.{member}({b})")
    elif member == "max_batch_within":
        for t in ("50 ms", "500 ms"):
            assert_close(ours.max_batch_within(t), ref.max_batch_within(mlsysim.core.units.Q_(t)), f"variant {changes}.{member}({t})")
    else:
        assert_close(getattr(ours, member), getattr(ref, member), f"variant {changes}.{member}")


ADMISSION_VARIANTS = [
    {"workload": "Llama2_70B", "accelerators": 4, "weight_bytes_per_param": "1 B/param", "kv_bytes_per_elem": "1 B"},
    {"workload": "GPT2", "accelerators": 1, "reserve": "2 GB", "context_tokens": 1024},   # MHA: kv_heads = heads
]


@pytest.mark.parametrize("changes", ADMISSION_VARIANTS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("member", RESULT_FIELDS["KvAdmissionScenario"])
def test_admission_variant(cat, changes, member):
    ours = cat.scenario("Llama3_70BShortContextAdmissionDgxH100").variant(**changes)
    ref_changes = dict(changes, workload=_mlsysim_workload(changes["workload"]))
    for key in ("weight_bytes_per_param", "kv_bytes_per_elem", "reserve"):
        if key in ref_changes:
            ref_changes[key] = mlsysim.core.units.Q_(ref_changes[key].replace("/param", ""))
    theirs = reference_scenario("Llama3_70BShortContextAdmissionDgxH100").variant(**ref_changes).result
    assert_close(getattr(ours, member), getattr(theirs, member), f"variant {changes}.{member}")


# ------------------------------------------------------------------ the symbolic face agrees with the numbers
def test_decode_memory_time_tree(cat):
    s = cat.scenario("Llama2_70BDecodeFloorTp8")
    assert str(s.expression("memory_time", expand=True)) == "P*b_16/(BW*t)"


def test_kv_cache_tree_takes_the_latent_branch_for_mla(cat):
    s = cat.scenario("Llama2_7BKvAt2048Tokens")
    assert "n_kv" in str(s.expression("per_token", expand=True))
    mla = s.variant(workload="DeepSeek_V3")
    assert "r_kv" in str(mla.expression("per_token", expand=True))
