"""mlsysim 0.3.0's analytic solvers against ours (``mlsysim_symbolic.solvers``): every result field equal.

Each configuration is solved twice, by mlsysim's own solver (its registry objects) and by ours (a registry key, an
entry of our ``Models``/``Hardware`` namespaces, or mlsysim's very object), and every field of mlsysim's result is
compared: numbers at 1e-9 relative, booleans and labels exactly (``members.equal``).  mlsysim's ``constraint_trace``
(prose) is not carried (documented in ``SolverResult``).  mlsysim 0.3.0 ships no test suite in its wheel, so the
configurations its regression tests pin, as issue 20 names them, are included here by hand: a ResNet-50 roofline on
an A100 at batch 1, and Llama-3 8B training memory and serving on an H100.

Per solver, one result field is differentiated symbolically (``result.diff``) and evaluated at the solve's values,
against a central difference of mlsysim's own numeric solve.
"""

from __future__ import annotations

import warnings

import pytest

from mlsysim_symbolic import InputError, MissingInputError, UnexpectedNameError, UnitError, UnknownNameError
from mlsysim_symbolic.solvers import (
    Engine,
    Hardware,
    Models,
    OutOfMemoryError,
    ServingModel,
    SingleNodeModel,
    SingleNodeTrainingModel,
    TrainingMemoryModel,
)
from mlsysim_symbolic.units import Q_

from .compare import assert_close, derivative_value, our_entry, reference_entry
from .lazy import reference
from .members import compare_fields

mlsysim = reference("mlsysim")
ref_solvers = reference("mlsysim.engine.solvers")
RefEngine = reference("mlsysim.engine.engine", "Engine")

# ---------------------------------------------------------------------------- SingleNodeModel / Engine.solve
# (model group, key), (device group, key), solve keywords, how ours names the entries.  The branches: memory- and
# compute-bound, fp32/bf16/int8/int4 widths, a precision the device does not list (peak_flops), a mixture of experts,
# a diffusion model, the flash path of a microcontroller, the host-offload path (weights beyond device memory).
SINGLE_NODE = [
    (("Vision", "ResNet50"), ("Cloud", "A100"), {"batch_size": 1}, "key"),            # issue 20's pinned roofline
    (("Vision", "ResNet50"), ("Cloud", "A100"), {"batch_size": 256, "precision": "fp32", "efficiency": 0.3}, "namespace"),
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"batch_size": 1, "precision": "bf16"}, "mlsysim"),
    (("Language", "Llama3_70B"), ("Cloud", "A100"), {"batch_size": 4}, "key"),         # offload: 141 GB > 80 GiB
    (("Language", "Mixtral_8x7B"), ("Cloud", "H100"), {"batch_size": 8, "precision": "int4"}, "namespace"),
    (("GenerativeVision", "StableDiffusion_v1_5"), ("Cloud", "T4"), {"batch_size": 2, "precision": "FP16"}, "key"),
    (("Vision", "MobileNetV2"), ("Tiny", "ESP32_S3"), {"precision": "int8"}, "mlsysim"),
    (("Tiny", "DS_CNN"), ("Tiny", "nRF52840"), {"precision": "int8", "efficiency": 0.8}, "namespace"),
    (("Vision", "ResNet18"), ("Mobile", "iPhone15Pro"), {"batch_size": 16, "precision": "int8", "efficiency": 0.9}, "key"),
]


@pytest.mark.filterwarnings("ignore:Precision .* not in")
@pytest.mark.parametrize(("model", "device", "kwargs", "how"), SINGLE_NODE,
                         ids=[f"{m[1]}-{d[1]}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for m, d, kw, _ in SINGLE_NODE])
def test_single_node_model_equals_mlsysim(model, device, kwargs, how) -> None:
    theirs = ref_solvers.SingleNodeModel().solve(reference_entry("Models", *model), reference_entry("Hardware", *device), **kwargs)
    ours = SingleNodeModel().solve(our_entry(how, "Models", *model), our_entry(how, "Hardware", *device), **kwargs)
    assert repr(ours).startswith("PerformanceProfile(")
    assert compare_fields(ours, theirs, f"SingleNodeModel({model[1]}, {device[1]}, {kwargs})") == 17


@pytest.mark.filterwarnings("ignore:Precision .* not in")
@pytest.mark.parametrize(("model", "device", "kwargs", "how"), SINGLE_NODE[:4], ids=[c[0][1] + "-" + c[1][1] for c in SINGLE_NODE[:4]])
def test_engine_solve_equals_mlsysim(model, device, kwargs, how) -> None:
    """``Engine.solve`` positionally, with mlsysim's further inference-path arguments (seq_len is read only in training)."""
    args = (reference_entry("Models", *model), reference_entry("Hardware", *device))
    theirs = RefEngine.solve(*args, kwargs.get("batch_size", 1), kwargs.get("precision", "fp16"), seq_len=4096)
    ours = Engine.solve(our_entry(how, "Models", *model), our_entry(how, "Hardware", *device),
                        kwargs.get("batch_size", 1), kwargs.get("precision", "fp16"), seq_len=4096)
    compare_fields(ours, theirs, f"Engine.solve({model[1]}, {device[1]})")


# Engine.solve(..., is_training=True): the training path (SingleNodeTrainingScenario).  The branches: 3x and 4x
# (recomputation) work, ZeRO 0-3, LoRA, fp32/bf16/fp8, a mixture of experts, a footprint beyond device memory
# (offload fields set), MHA and GQA heads.
TRAINING_STEP = [
    (("Language", "GPT2"), ("Cloud", "A100"), {"batch_size": 4, "seq_len": 1024}, "key"),
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"batch_size": 1, "activation_recomputation": True}, "namespace"),
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"batch_size": 2, "zero_stage": 3, "dp_size": 8, "is_lora": True,
                                                     "precision": "bf16"}, "mlsysim"),
    (("Language", "Llama3_70B"), ("Cloud", "A100"), {"batch_size": 1, "zero_stage": 1, "dp_size": 4}, "key"),
    (("Language", "Mixtral_8x7B"), ("Cloud", "H100"), {"batch_size": 2, "precision": "fp8", "zero_stage": 2,
                                                        "dp_size": 16, "activation_recomputation": True}, "namespace"),
    (("Language", "BERT_Base"), ("Cloud", "T4"), {"batch_size": 16, "seq_len": 512, "precision": "fp32",
                                                   "efficiency": 0.4}, "mlsysim"),
    # Other workloads: mlsysim's fallback footprint (2 W + 12 B/param of Adam state; 1.1 W with LoRA), no activations.
    (("Vision", "ResNet50"), ("Cloud", "A100"), {"batch_size": 32}, "key"),
    (("Vision", "ResNet50"), ("Cloud", "A100"), {"batch_size": 256, "precision": "fp32", "activation_recomputation": True}, "mlsysim"),
    (("Vision", "MobileNetV2"), ("Mobile", "iPhone15Pro"), {"batch_size": 8, "is_lora": True}, "namespace"),
    (("Vision", "YOLOv8_Nano"), ("Edge", "JetsonOrinNX"), {"batch_size": 16, "precision": "bf16"}, "key"),
    (("Tiny", "DS_CNN"), ("Tiny", "ESP32_S3"), {"precision": "int8"}, "mlsysim"),
    (("Vision", "ResNet18"), ("Tiny", "ESP32_S3"), {"batch_size": 4}, "namespace"),   # 2 W + 12 P beyond 8 MB: offload
]


@pytest.mark.filterwarnings("ignore:Precision .* not in")
@pytest.mark.parametrize(("model", "device", "kwargs", "how"), TRAINING_STEP,
                         ids=[f"{m[1]}-{d[1]}-{i}" for i, (m, d, _, _) in enumerate(TRAINING_STEP)])
def test_engine_training_path_equals_mlsysim(model, device, kwargs, how) -> None:
    theirs = RefEngine.solve(reference_entry("Models", *model), reference_entry("Hardware", *device), is_training=True, **kwargs)
    ours = Engine.solve(our_entry(how, "Models", *model), our_entry(how, "Hardware", *device), is_training=True, **kwargs)
    assert ours.scenario.type.name == "SingleNodeTrainingScenario"
    assert compare_fields(ours, theirs, f"Engine.solve({model[1]}, {device[1]}, is_training=True, {kwargs})") == 17
    single = SingleNodeModel().solve(our_entry(how, "Models", *model), our_entry(how, "Hardware", *device), is_training=True, **kwargs)
    assert single == ours


def test_diffusion_training_runs_the_network_once_per_sample() -> None:
    """Deliberate divergence: training a diffusion model evaluates its network once per sample, at one sampled
    timestep (Ho, Jain and Abbeel 2020, Algorithm 1), so a step's work is 3·F_inf·B.  mlsysim lowers the inference
    graph (F_inf × denoising_steps) for training too: 50× the compute for Stable Diffusion v1.5.  The memory side
    (mlsysim's fallback footprint: 2 W + 12 B/param) is equal."""
    theirs = RefEngine.solve(reference_entry("Models", "GenerativeVision", "StableDiffusion_v1_5"), reference_entry("Hardware", "Cloud", "T4"),
                             batch_size=2, is_training=True)
    ours = Engine.solve("StableDiffusion_v1_5", "T4", batch_size=2, is_training=True)
    assert_close(ours.memory_footprint, theirs.memory_footprint, "memory_footprint")
    assert_close(ours.memory_footprint, Q_(2 * 8.6e8 * 2 + 12 * 8.6e8, "B"), "2 W + 12 P by hand")
    assert_close(ours.latency_memory, theirs.latency_memory, "latency_memory")
    # 3 F_inf B / (R eta): 20 GFLOP per U-Net pass, batch 2, the T4's 65 TFLOP/s fp16 peak at efficiency 0.5.
    assert_close(ours.latency_compute, Q_(3 * 2e10 * 2 / (65e12 * 0.5), "s"), "3 F_inf B / (R eta) by hand")
    assert_close(ours.latency_compute * 50, theirs.latency_compute, "50 denoising steps")


def test_engine_training_derivative_equals_mlsysim_central_difference() -> None:
    """∂memory_footprint/∂seq_len of Llama-3 8B training (batch 2, no recomputation: linear and quadratic terms)
    against mlsysim's central difference with a step of one token (exact for a quadratic)."""
    kwargs = {"batch_size": 2, "is_training": True}
    r = SingleNodeTrainingModel().solve("Llama3_8B", "H100", seq_len=2048, **kwargs)
    ours = derivative_value(r, "memory_footprint", "seq_len").m_as("GiB*sample/token")
    model, device = reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100")
    up = RefEngine.solve(model, device, seq_len=2049, **kwargs).memory_footprint.m_as("GiB")
    down = RefEngine.solve(model, device, seq_len=2047, **kwargs).memory_footprint.m_as("GiB")
    assert ours == pytest.approx((up - down) / 2, rel=1e-9)
    # by hand: L·B·(34·h + 2·5·a·s) bytes per token = 32 x 2 x (34 x 4096 + 10 x 32 x 2048)
    assert ours == pytest.approx(32 * 2 * (34 * 4096 + 10 * 32 * 2048) / 2**30, rel=1e-12)


def test_engine_solve_raise_errors_refuses_what_mlsysim_refuses() -> None:
    from mlsysim.core.exceptions import OOMError

    with pytest.raises(OOMError):
        RefEngine.solve(Models_ := reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "A100"),
                        raise_errors=True)
    assert Models_.name
    with pytest.raises(OutOfMemoryError, match="feasible is false"):
        Engine.solve("Llama3_70B", "A100", raise_errors=True)
    assert Engine.solve("ResNet50", "A100", raise_errors=True).feasible is True


def test_single_node_signature_is_mlsysims() -> None:
    import inspect

    theirs = inspect.signature(RefEngine.solve)
    ours = inspect.signature(Engine.solve)
    assert [(p.name, p.default) for p in ours.parameters.values()] == [(p.name, p.default) for p in theirs.parameters.values()]
    single = list(inspect.signature(SingleNodeModel().solve).parameters)
    assert single[:6] == [p for p in inspect.signature(ref_solvers.SingleNodeModel().solve).parameters][:6]


def test_single_node_bad_arguments_are_named() -> None:
    with pytest.raises(UnknownNameError, match="ResNet5O.*did you mean 'ResNet50'"):
        SingleNodeModel().solve("ResNet5O", "A100")
    with pytest.raises(UnexpectedNameError, match="batchsize.*did you mean 'batch_size'"):
        SingleNodeModel().solve("ResNet50", "A100", batchsize=4)
    with pytest.raises(MissingInputError, match="hardware"):
        SingleNodeModel().solve("ResNet50")
    with pytest.raises(InputError, match="efficiency"):
        SingleNodeModel().solve("ResNet50", "A100", efficiency=1.5)
    with pytest.raises(InputError, match="precision"):
        SingleNodeModel().solve("ResNet50", "A100", precision="fp12")
    with pytest.raises(UnitError, match="batch_size"):
        SingleNodeModel().solve("ResNet50", "A100", batch_size="4 GB")
    with pytest.raises(InputError, match="memory_model: expected one of 'transformer', 'weights'"):
        SingleNodeTrainingModel().scenario_type()(name="x", workload="ResNet50", hardware="A100", memory_model="cnn")
    with pytest.raises(UnknownNameError, match="Models.Vision: unknown entry 'ResNet51'; did you mean 'ResNet50'"):
        _ = Models.Vision.ResNet51


def test_single_node_derivative_equals_mlsysim_central_difference() -> None:
    """∂latency/∂efficiency of a compute-bound batch (ResNet-50, batch 256, A100) = -t_c/η, against mlsysim."""
    eta, h = 0.5, 1e-6
    r = SingleNodeModel().solve("ResNet50", "A100", batch_size=256, efficiency=eta)
    assert r.bottleneck == "Compute"
    ours = derivative_value(r, "latency", "efficiency")
    model, device = reference_entry("Models", "Vision", "ResNet50"), reference_entry("Hardware", "Cloud", "A100")
    up = ref_solvers.SingleNodeModel().solve(model, device, batch_size=256, efficiency=eta + h).latency.m_as("ms")
    down = ref_solvers.SingleNodeModel().solve(model, device, batch_size=256, efficiency=eta - h).latency.m_as("ms")
    central = (up - down) / (2 * h)
    assert ours.m_as("ms") == pytest.approx(central, rel=1e-6)
    # and it is -t_c/eta by hand: t_c = 256 x 8.2 GFLOP / (0.5 x 312 TFLOP/s) = 13.456 ms
    assert ours.m_as("ms") == pytest.approx(-(256 * 8.2e9 / (0.5 * 312e12) * 1e3) / 0.5, rel=1e-12)


def test_single_node_fields_have_equations_sweeps_and_solves() -> None:
    r = SingleNodeModel().solve("Llama3_8B", "H100", batch_size=1)
    assert str(r.equation("latency").lhs) == "T"
    assert "\\max" in r.latex("latency") or "max" in r.latex("latency")
    sweep = r.sweep("throughput", batch_size=[1, 2, 4])
    assert sweep.values.shape == (3,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = r.solve("latency", "batch_size", "30 ms")
    assert best.value >= 1
    assert r.output("feasible") == "feasible"
    with pytest.raises(UnexpectedNameError, match="PerformanceProfile: unexpected field 'latncy'; did you mean 'latency'"):
        r.equation("latncy")
    with pytest.raises(AttributeError, match="constraint_trace"):
        _ = r.constraint_trace


# ---------------------------------------------------------------------------- TrainingMemoryModel
# (model group, key), (device group, key), solve keywords, how ours names the entries.  The branches: the three
# recomputation strategies, fp32/bf16/fp8 widths, each optimizer, ZeRO 0-3, TP with and without sequence
# parallelism, pipelining (boundary buffers, layers per stage), expert parallelism, accumulation, LoRA-like partial
# training, and a microbatch floored at one sequence.
TRAINING_MEMORY = [
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"batch_size": 8}, "key"),             # issue 20's pinned budget
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"batch_size": 32, "dp_size": 8, "zero_stage": 3,
                                                     "activation_checkpointing": "full"}, "namespace"),
    (("Language", "Llama3_70B"), ("Cloud", "H100"), {"batch_size": 1024, "tp_size": 8, "pp_size": 4, "dp_size": 16,
                                                      "zero_stage": 1, "gradient_accumulation_steps": 8,
                                                      "seq_len": 8192, "precision": "bf16"}, "mlsysim"),
    (("Language", "Llama3_70B"), ("Cloud", "A100"), {"batch_size": 64, "tp_size": 8, "sequence_parallel": False,
                                                      "dp_size": 4, "zero_stage": 2, "optimizer": "SGD"}, "key"),
    (("Language", "GPT2"), ("Cloud", "A100_40GB"), {"batch_size": 16, "seq_len": 1024, "precision": "fp32",
                                                     "activation_checkpointing": "none"}, "namespace"),
    (("Language", "Mixtral_8x7B"), ("Cloud", "H100"), {"batch_size": 256, "ep_size": 8, "tp_size": 2, "dp_size": 16,
                                                        "zero_stage": 1, "optimizer": "adamw",
                                                        "precision": "fp8"}, "mlsysim"),
    (("Language", "Llama2_7B"), ("Cloud", "A100"), {"batch_size": 4, "trainable_fraction": 0.01, "optimizer": "none",
                                                     "communication_buffer_fraction": 0.0,
                                                     "activation_checkpointing": "none"}, "key"),
    (("Language", "BERT_Base"), ("Cloud", "T4"), {"batch_size": 2, "dp_size": 8, "seq_len": 512, "pp_size": 5}, "key"),
]


@pytest.mark.parametrize(("model", "device", "kwargs", "how"), TRAINING_MEMORY,
                         ids=[f"{m[1]}-{d[1]}-{i}" for i, (m, d, _, _) in enumerate(TRAINING_MEMORY)])
def test_training_memory_model_equals_mlsysim(model, device, kwargs, how) -> None:
    theirs = ref_solvers.TrainingMemoryModel().solve(reference_entry("Models", *model), reference_entry("Hardware", *device), **kwargs)
    ours = TrainingMemoryModel().solve(our_entry(how, "Models", *model), our_entry(how, "Hardware", *device), **kwargs)
    assert repr(ours).startswith("TrainingMemoryResult(")
    assert compare_fields(ours, theirs, f"TrainingMemoryModel({model[1]}, {device[1]}, {kwargs})") == 16


def test_training_memory_pinned_budget_by_hand() -> None:
    """Llama-3 8B (8.03e9 parameters, 32 layers, hidden 4096), global batch 8 x 2,048 tokens, fp16 Adam, selective:
    weights 2 x 8.03e9 = 16.06 GB, gradients 16.06 GB, Adam 12 x 8.03e9 = 96.36 GB, activations
    32 x 34 x 2048 x 8 x 4096 = 73.014444032 GB, bucket 5 % of the gradients = 0.803 GB: 202.297444032 GB."""
    r = TrainingMemoryModel().solve(Models.Language.Llama3_8B, Hardware.Cloud.H100, batch_size=8)
    assert r.total_memory.m_as("GB") == pytest.approx(16.06 + 16.06 + 96.36 + 32 * 34 * 2048 * 8 * 4096 / 1e9 + 0.803, rel=1e-12)
    assert r.feasible is False and r.available_memory.m_as("GiB") == pytest.approx(80, rel=1e-12)


def test_training_memory_signature_and_bad_arguments() -> None:
    import inspect

    theirs = inspect.signature(ref_solvers.TrainingMemoryModel().solve)
    ours = inspect.signature(TrainingMemoryModel().solve)
    assert [(p.name, p.default) for p in ours.parameters.values()] == [(p.name, p.default) for p in theirs.parameters.values()]
    with pytest.raises(MissingInputError, match="batch_size"):
        TrainingMemoryModel().solve("Llama3_8B", "H100")
    with pytest.raises(InputError, match="zero_stage"):
        TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, zero_stage=4)
    with pytest.raises(InputError, match="optimizer"):
        TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, optimizer="lion")
    with pytest.raises(InputError, match="activation_checkpointing"):
        TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, activation_checkpointing="Full")
    with pytest.raises(InputError, match="trainable_fraction"):
        TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, trainable_fraction=1.5)
    with pytest.raises(InputError, match="no equation"):
        TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8).equation("precision")


def test_training_memory_derivative_equals_mlsysim_central_difference() -> None:
    """∂total_memory/∂trainable_fraction (Llama-3 8B, ZeRO-1 over 8 ranks) against mlsysim's central difference,
    and by hand: P·(b·(1 + f_b) + o/d) = 8.03e9 x (2 x 1.05 + 12/8) B = 28.908 GB per unit of fraction."""
    kwargs = {"batch_size": 8, "dp_size": 8, "zero_stage": 1}
    f, h = 0.5, 1e-4
    r = TrainingMemoryModel().solve("Llama3_8B", "H100", trainable_fraction=f, **kwargs)
    ours = derivative_value(r, "total_memory", "trainable_fraction").m_as("GB")
    model, device = reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100")
    up = ref_solvers.TrainingMemoryModel().solve(model, device, trainable_fraction=f + h, **kwargs).total_memory.m_as("GB")
    down = ref_solvers.TrainingMemoryModel().solve(model, device, trainable_fraction=f - h, **kwargs).total_memory.m_as("GB")
    assert ours == pytest.approx((up - down) / (2 * h), rel=1e-8)
    assert ours == pytest.approx(8.03e9 * (2 * 1.05 + 12 / 8) / 1e9, rel=1e-12)


# ---------------------------------------------------------------------------- ServingModel
# The branches: GQA (Llama-3), MHA (kv_heads = heads: Llama-2, GPT-2), multi-head latent attention (DeepSeek-V3),
# a mixture of experts, fp32/bf16/fp8/int4, a device without an 'fp16' rate key (H100: peak_flops), prefix caching
# (down to one new token), chunked prefill with an uneven last chunk, and memory infeasibility.
SERVING = [
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"seq_len": 2048}, "key"),                     # issue 20's pinned serving
    (("Language", "Llama3_70B"), ("Cloud", "H100"), {"seq_len": 4096, "batch_size": 8, "precision": "fp8"}, "namespace"),
    (("Language", "Llama2_7B"), ("Cloud", "A100"), {"seq_len": 1024, "batch_size": 16, "cached_prefix_len": 512,
                                                     "precision": "BF16"}, "mlsysim"),
    (("Language", "DeepSeek_V3"), ("Cloud", "B200"), {"seq_len": 8192, "precision": "fp8"}, "key"),
    (("Language", "Mixtral_8x7B"), ("Cloud", "H200"), {"seq_len": 2048, "batch_size": 4, "precision": "int4",
                                                        "prefill_chunk_tokens": 512}, "namespace"),
    (("Language", "GPT2"), ("Cloud", "T4"), {"seq_len": 1024, "batch_size": 2, "precision": "fp32",
                                             "prefill_chunk_tokens": 300, "efficiency": 0.35}, "mlsysim"),
    (("Language", "Llama3_8B"), ("Cloud", "H100"), {"seq_len": 2048, "cached_prefix_len": 2047, "batch_size": 32}, "key"),
]


@pytest.mark.parametrize(("model", "device", "kwargs", "how"), SERVING,
                         ids=[f"{m[1]}-{d[1]}-{i}" for i, (m, d, _, _) in enumerate(SERVING)])
def test_serving_model_equals_mlsysim(model, device, kwargs, how) -> None:
    theirs = ref_solvers.ServingModel().solve(reference_entry("Models", *model), reference_entry("Hardware", *device), **kwargs)
    ours = ServingModel().solve(our_entry(how, "Models", *model), our_entry(how, "Hardware", *device), **kwargs)
    assert repr(ours).startswith("ServingResult(")
    assert compare_fields(ours, theirs, f"ServingModel({model[1]}, {device[1]}, {kwargs})") == 11


def test_serving_signature_and_bad_arguments() -> None:
    import inspect

    theirs = inspect.signature(ref_solvers.ServingModel().solve)
    ours = inspect.signature(ServingModel().solve)
    assert list(ours.parameters) == list(theirs.parameters)
    for name, p in ours.parameters.items():
        if name != "network_bandwidth":      # a Quantity of mlsysim's registry against one of ours
            assert p.default == theirs.parameters[name].default, name
    assert ours.parameters["network_bandwidth"].default.m_as("GB/s") == theirs.parameters["network_bandwidth"].default.m_as("GB/s")
    with pytest.raises(MissingInputError, match="seq_len"):
        ServingModel().solve("Llama3_8B", "H100")
    with pytest.raises(InputError, match="prefix_ok"):
        ServingModel().solve("Llama3_8B", "H100", seq_len=2048, cached_prefix_len=2048)
    with pytest.raises(ValueError, match="cached_prefix_len"):     # mlsysim refuses the same
        ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100"),
                                         seq_len=2048, cached_prefix_len=2048)
    # draft_model and decode_hardware are ported: tests/reference/test_ref_serving_paths.py compares them with mlsysim
    with pytest.raises(InputError, match="prefill_chunk_tokens"):
        ServingModel().solve("Llama3_8B", "H100", seq_len=2048, prefill_chunk_tokens=0)
    with pytest.raises(UnitError, match="seq_len"):
        ServingModel().solve("Llama3_8B", "H100", seq_len="2048 B")


def test_serving_derivative_equals_mlsysim_central_difference() -> None:
    """∂TTFT/∂efficiency (Llama-3 8B on an H100, 2,048 tokens, batch 4) against mlsysim's central difference, and
    ∂ITL/∂batch_size by hand: one request's KV cache over the bandwidth, 2·32·8·128·2048·2 B / 3.35 TB/s."""
    eta, h = 0.5, 1e-6
    r = ServingModel().solve("Llama3_8B", "H100", seq_len=2048, batch_size=4, efficiency=eta)
    ours = derivative_value(r, "ttft", "efficiency").m_as("ms")
    model, device = reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100")
    up = ref_solvers.ServingModel().solve(model, device, seq_len=2048, batch_size=4, efficiency=eta + h).ttft.m_as("ms")
    down = ref_solvers.ServingModel().solve(model, device, seq_len=2048, batch_size=4, efficiency=eta - h).ttft.m_as("ms")
    assert ours == pytest.approx((up - down) / (2 * h), rel=1e-6)
    per_request = derivative_value(r, "itl", "batch_size").m_as("ms/request")
    bandwidth = device.memory.bandwidth.m_as("B/s")
    assert per_request == pytest.approx(2 * 32 * 8 * 128 * 2048 * 2 / bandwidth * 1e3, rel=1e-12)


def test_serving_latency_budget_is_an_inverse_solve() -> None:
    """The largest batch whose ITL stays under 20 ms (the issue's question), checked against mlsysim on both sides."""
    r = ServingModel().solve("Llama3_8B", "H100", seq_len=4096)
    best = r.solve("itl", "batch_size", "20 ms")
    b = int(best.value)
    model, device = reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100")
    assert ref_solvers.ServingModel().solve(model, device, seq_len=4096, batch_size=b).itl.m_as("ms") <= 20
    assert ref_solvers.ServingModel().solve(model, device, seq_len=4096, batch_size=b + 1).itl.m_as("ms") > 20


def test_every_solver_declares_its_types_result() -> None:
    """Each solver's result class is its type's result view (the one mechanism), and its arguments bind inputs."""
    from mlsysim_symbolic.catalog import catalog

    for solver in (SingleNodeModel, SingleNodeTrainingModel, TrainingMemoryModel, ServingModel):
        stype = catalog().types[solver.type_name]
        assert stype.result is not None and stype.result.name == solver.result_name
        for arg in solver.arguments:
            assert arg.input is None or arg.input in stype.inputs, (solver.__name__, arg.name)


@pytest.mark.filterwarnings("ignore:Precision .* not in")
def test_single_node_bottleneck_regime_map_equals_mlsysim_point_by_point() -> None:
    """A sweep of the bottleneck label (a condition on the fixed weights beside one on the swept batch: the
    compiled And broadcasts) names mlsysim's bottleneck at every batch size, across the memory/compute switch."""
    sizes = [1, 2, 3, 4, 8, 16, 64, 256]
    for device in ("A100", "T4", "H100"):
        r = SingleNodeModel().solve("ResNet50", device, efficiency=1.0)
        labels = r.sweep("bottleneck", batch_size=sizes).values
        theirs = [ref_solvers.SingleNodeModel().solve(reference_entry("Models", "Vision", "ResNet50"),
                                                      reference_entry("Hardware", "Cloud", device), batch_size=b,
                                                      efficiency=1.0).bottleneck for b in sizes]
        assert list(labels) == theirs, device
        assert "Memory" in theirs and "Compute" in theirs, device


def test_training_step_elasticity_in_memory_bandwidth_equals_mlsysim_central_difference() -> None:
    """The training roofline streams at the memory bandwidth itself (no flash/SRAM leaf standing in for it), so
    d ln T/d ln BW of a memory-bound step (GPT-2, 128 tokens, one H100) is mlsysim's own log-central difference;
    before, the derivative read a fallback leaf and was 0, and the infeasible case crashed in SymPy's simplify."""
    import math

    r = Engine.solve("GPT2", "H100", batch_size=1, seq_len=128, is_training=True)
    assert r.bottleneck == "Memory" and r.feasible
    ours = r.scenario.elasticities("latency", only=["memory_bandwidth"])[0].value
    model, device = reference_entry("Models", "Language", "GPT2"), reference_entry("Hardware", "Cloud", "H100")

    def latency(f: float) -> float:
        hw = device.model_copy(update={"memory": device.memory.model_copy(update={"bandwidth": device.memory.bandwidth * f})})
        return RefEngine.solve(model, hw, batch_size=1, seq_len=128, is_training=True).latency.to("ms").magnitude

    h = 1e-6
    theirs = (math.log(latency(1 + h)) - math.log(latency(1 - h))) / (math.log(1 + h) - math.log(1 - h))
    assert ours == pytest.approx(theirs, rel=1e-6) and ours < -0.1
    offload = Engine.solve("Llama3_8B", "H100", batch_size=1, is_training=True, activation_recomputation=True)
    assert not offload.feasible   # streams over the host link: the memory bandwidth does not enter
    assert offload.scenario.elasticities("latency", only=["memory_bandwidth"])[0].value == 0
