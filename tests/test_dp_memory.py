"""DP-SGD memory beyond naive per-example gradients (derivations/dp_memory.toml).

Every excluded cost of PerExampleGradientScenario has its own type; each is tested
against a published number or, where the source states only a formula, against an
independent hand computation written out here (plain Python integers, not our code).

Sources (quoted in the tests that use them):
  * Li, Tramèr, Liang, Hashimoto (2022), "Large Language Models Can Be Strong
    Differentially Private Learners", ICLR 2022, §4.2 "Ghost clipping for Transformers
    with sequential data", Eq. 3; reference code private-transformers
    (_light_linear_weight_norm_sample_sequential: bmm(A, Aᵀ) * bmm(B, Bᵀ)).
  * Ullah, Zhang, Bullock, Mironov (2024), "Enabling Fast Gradient Clipping and Ghost
    Clipping in Opacus", PyTorch blog (pytorch/pytorch.github.io,
    _posts/2024-08-20-clipping-in-opacus.md).
  * Bu, Wang, Zha, Karypis (2023), "Differentially Private Optimization on Large Model
    at Small Cost", ICML 2023; fastDP (awslabs/fast-differential-privacy),
    fastDP/supported_layers_grad_samplers.py, mixed_ghost_norm; Bu, Mao, Xu (2022) §4.
  * Opacus: opacus/utils/batch_memory_manager.py and the tutorial
    "Building an Image Classifier with Differential Privacy".
  * Rajbhandari et al. (2020), "ZeRO: Memory Optimizations Toward Training Trillion
    Parameter Models", SC20, §3.1 and §3.2.
  * Korthikanti et al. (2022), "Reducing Activation Recomputation in Large Transformer
    Models", arXiv:2205.05198, §4.1 Eq. 1 and 2, §5; and the Hugging Face Accelerate
    Megatron-LM guide that quotes its GPT-3 result.
"""

import math
from pathlib import Path

import pytest
import sympy

import mlsysim_symbolic
from mlsysim_symbolic import InputError, Scenarios, load_derivations, workloads
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.units import Q_

NEW_TYPES = (
    "GhostClippingMemoryScenario",
    "MixedGhostClippingScenario",
    "MicrobatchedDpSgdScenario",
    "DpSgdOptimizerStateScenario",
    "DpSgdActivationScenario",
    "DpSgdStepMemoryScenario",
)
MiB = 2**20


def nbytes(q):
    return q.to("B").magnitude


def plain(q):
    """A dimensionless result as a float."""
    return float(q.to("dimensionless").magnitude) if hasattr(q, "to") else float(q)


# ---------------------------------------------------------------------- loading
def test_file_loads_alone_and_in_the_catalog():
    alone = load_derivations(Path(__file__).resolve().parents[1] / "derivations" / "dp_memory.toml")
    assert set(alone.types) == set(NEW_TYPES)
    assert alone.titles == {"dp": "DP-SGD memory"}
    cat = catalog()
    for name in NEW_TYPES:
        assert name in cat.types, name
        t = cat.types[name]
        assert t.summary and t.assumptions and t.excludes and t.derivation and t.references, name
        assert all(r.url for r in t.references), name
    assert "PerExampleGradientScenario" in cat.types    # the seed it composes


def test_seed_excludes_are_now_types():
    excludes = Scenarios.DpSgdPerExampleGradients.excludes
    for item in ("ghost clipping", "microbatching", "optimizer state", "activations"):
        assert item in excludes
    by_family = catalog().families["dp"]
    assert set(NEW_TYPES) <= set(by_family)


# ---------------------------------------------------------------------- ghost clipping
def test_ghost_clipping_gpt2_lm_head_against_li_et_al():
    """Li et al. (2022) §4.2, Eq. 3: ‖∇W L_i‖²_F = vec(a_i a_iᵀ)ᵀ vec(g_i g_iᵀ), i.e. two T×T
    matrices per example, O(BT²) memory, instead of the p×d per-example gradient, O(Bpd).
    The published statement is a complexity, so the numbers are computed by hand for the
    untied GPT-2 Small LM head (p = 50257 vocabulary, d = 768) at T = 1024, B = 256, FP32."""
    s = Scenarios.GhostClippingGpt2SmallLmHead
    ghost = 2 * 256 * 1024 * 1024 * 4               # = 2,147,483,648 B
    inst = 256 * 50257 * 768 * 4                    # = 39,523,713,024 B
    assert nbytes(s.ghost_memory) == ghost == 2_147_483_648
    assert nbytes(s.instantiated_memory) == inst == 39_523_713_024
    assert plain(s.ghost_to_instantiated) == pytest.approx(2 * 1024**2 / (50257 * 768), rel=1e-12)
    assert plain(s.ghost_to_instantiated) == pytest.approx(0.054334, rel=1e-4)
    assert nbytes(s.saving) == inst - ghost
    assert s.breakeven_seq_length.to("count").magnitude == pytest.approx(math.sqrt(50257 * 768 / 2), rel=1e-12)   # positions
    # the scenario's layer is the registry's GPT-2 Small head
    small = workloads()["GPT2_Small"]
    assert s.out_features == small.vocab_size == 50257
    assert s.in_features == small.hidden_dim == 768


def test_ghost_clipping_equations_follow_eq3():
    """Two Gram matrices of T² values per example (n_G = 2, Li et al. Eq. 3); ratio n_G·T²/(p·d)."""
    s = Scenarios.GhostClippingGpt2SmallLmHead
    t = s.type
    B, T, p, d, b_v, n_G, g = (t.variable(n).symbol for n in
                               ("batch_size", "seq_length", "out_features", "in_features", "bytes_per_value", "gram_matrices",
                                "copies_per_example"))   # g: one instantiated gradient per example (1/sample)
    assert sympy.simplify(s.expression("ghost_memory", expand=True) - n_G * B * T**2 * b_v) == 0
    assert sympy.simplify(s.expression("instantiated_memory", expand=True) - B * g * p * d * b_v) == 0
    assert sympy.simplify(s.expression("ghost_to_instantiated", expand=True) - n_G * T**2 / (g * p * d)) == 0
    assert s.gram_matrices == Q_(2, "1/sample")   # two Gram matrices per example


def test_ghost_clipping_breaks_even_at_t_star():
    """At T* = sqrt(p·d/2) both cost the same: p·d = 2048·1024 = 2·1024², so T* = 1024 exactly."""
    cls = mlsysim_symbolic.GhostClippingMemoryScenario
    s = cls(batch_size=8, seq_length=1024, out_features=2048, in_features=1024, bytes_per_value="2 B")
    assert s.breakeven_seq_length.to("count").magnitude == pytest.approx(1024.0, rel=1e-12)
    assert nbytes(s.ghost_memory) == nbytes(s.instantiated_memory) == 8 * 2048 * 1024 * 2
    assert nbytes(s.saving) == 0
    longer = s.variant(seq_length=1025)
    assert nbytes(longer.saving) == 8 * 2048 * 1024 * 2 - 2 * 8 * 1025**2 * 2 < 0


def test_ghost_clipping_opacus_blog_synthetic_network():
    """Opacus blog (Ullah et al. 2024), "Synthetic Setup: Memory Profiling": a 2-layer fully
    connected network, Input 5120, Hidden 2560, Output 1280, "Total number of model parameters
    = 15.6M", "Model size = 62.5 MB" (binary MB).  One instantiated per-example gradient of the
    two weight matrices is that model size: (2560·5120 + 1280·2560)·4 B = 62.5 MiB.
    For non-sequential inputs (T = 1) the blog says ghost clipping "takes O(batch-size) space":
    2 values per example per layer.  Its measured "First Backward" of Vanilla DP-SGD at batch 32
    is 3,663 MB, at least the 32 per-example gradients (32 × 62.5 MiB = 2,000 MiB)."""
    cls = mlsysim_symbolic.GhostClippingMemoryScenario
    layers = [(2560, 5120), (1280, 2560)]
    one = sum(nbytes(cls(batch_size=1, seq_length=1, out_features=p, in_features=d,
                         bytes_per_value="4 B").instantiated_memory) for p, d in layers)
    assert one / MiB == 62.5
    assert (2560 * 5120 + 1280 * 2560) / MiB == pytest.approx(15.6, abs=0.05)
    batch = [cls(batch_size=32, seq_length=1, out_features=p, in_features=d, bytes_per_value="4 B") for p, d in layers]
    assert all(nbytes(s.ghost_memory) == 2 * 32 * 4 for s in batch)   # O(B): 2 numbers per example
    per_example_gradients = sum(nbytes(s.instantiated_memory) for s in batch)
    assert per_example_gradients / MiB == 2000.0
    assert per_example_gradients / MiB <= 3663


# ---------------------------------------------------------------------- mixed ghost norm
def fastdp_use_gc(T, p, d):
    """The rule as published in fastDP's mixed_ghost_norm: layer.use_gc = bool(2*T**2 <= d_times_p)."""
    return bool(2 * T**2 <= d * p)


def test_mixed_rule_switches_at_2t2_equal_pd():
    """Boundary of Bu et al.'s layerwise decision (fastDP: use_gc = 2*T**2 <= d*p): at T = 1024,
    2T² = 2,097,152; a layer with p·d equal to it uses the ghost norm (tie → ghost), one with
    p·d one less instantiates, one with p·d one more uses the ghost norm."""
    cls = mlsysim_symbolic.MixedGhostClippingScenario
    two_t2 = 2 * 1024**2
    assert two_t2 == 2048 * 1024 == 2_097_152
    s = cls(batch_size=4, seq_length=1024, bytes_per_value="4 B",
            out_features={"at": 2048, "below": two_t2 - 1, "above": two_t2 + 1},
            in_features={"at": 1024, "below": 1, "above": 1})
    assert plain(s.uses_ghost("at")) == 1
    assert plain(s.uses_ghost("below")) == 0
    assert plain(s.uses_ghost("above")) == 1
    assert nbytes(s.per_layer("at")) == 4 * 4 * two_t2
    assert nbytes(s.per_layer("below")) == 4 * 4 * (two_t2 - 1) == nbytes(s.instantiated_memory("below"))
    assert nbytes(s.per_layer("above")) == 4 * 4 * two_t2 == nbytes(s.ghost_memory)
    # the other side of the boundary in T, at fixed p·d = 2048·1024
    for T, ghost in ((1023, 1), (1024, 1), (1025, 0)):
        v = cls(batch_size=4, seq_length=T, bytes_per_value="4 B", out_features={"w": 2048}, in_features={"w": 1024})
        assert plain(v.uses_ghost("w")) == ghost == fastdp_use_gc(T, 2048, 1024), T
        assert nbytes(v.per_layer("w")) == 4 * 4 * min(2 * T**2, 2048 * 1024), T


@pytest.mark.parametrize("T", [1, 16, 100, 512, 1024, 1086, 4096])
def test_mixed_rule_matches_fastdp_on_gpt2_small_layers(T):
    """The per-layer choice equals fastDP's line for every GPT-2 Small linear layer and T."""
    s = Scenarios.MixedGhostClippingGpt2Small.variant(seq_length=T)
    for key in s.keys("layer"):
        p, d = s.out_features[key], s.in_features[key]
        assert plain(s.uses_ghost(key)) == fastdp_use_gc(T, p, d), (key, T)


def test_mixed_gpt2_small_block_by_hand():
    """GPT-2 Small at T = 1024: 2T² = 2,097,152.  Hand decisions: LM head 50257·768 = 38,597,376
    → ghost; QKV 2304·768 = 1,769,472 → instantiate; attention output 768·768 = 589,824 →
    instantiate; MLP 3072·768 = 2,359,296 (both) → ghost.  B = 256, FP32."""
    s = Scenarios.MixedGhostClippingGpt2Small
    expected_choice = {"lm-head": 1, "attn-qkv": 0, "attn-out": 0, "mlp-up": 1, "mlp-down": 1}
    assert {k: plain(s.uses_ghost(k)) for k in s.keys("layer")} == expected_choice
    per = 256 * 4
    by_hand = per * (2_097_152 + 1_769_472 + 589_824 + 2_097_152 + 2_097_152)
    assert nbytes(s.total) == by_hand == 8_858_370_048
    assert nbytes(s.ghost_total) == per * 5 * 2_097_152
    assert nbytes(s.instantiated_total) == per * (38_597_376 + 1_769_472 + 589_824 + 2 * 2_359_296)
    assert nbytes(s.total) < min(nbytes(s.ghost_total), nbytes(s.instantiated_total))


def test_mixed_per_layer_is_the_smaller_ghost_clipping_cost():
    """Cross-type: the mixed rule's layer memory is min(ghost, instantiated) of GhostClippingMemoryScenario."""
    s = Scenarios.MixedGhostClippingGpt2Small
    ghost_cls = mlsysim_symbolic.GhostClippingMemoryScenario
    for key in s.keys("layer"):
        g = ghost_cls(batch_size=256, seq_length=1024, out_features=s.out_features[key],
                      in_features=s.in_features[key], bytes_per_value="4 B")
        assert nbytes(s.per_layer(key)) == min(nbytes(g.ghost_memory), nbytes(g.instantiated_memory)), key


def test_mixed_maps_must_name_the_same_layers():
    with pytest.raises(InputError, match="layer"):
        mlsysim_symbolic.MixedGhostClippingScenario(
            batch_size=1, seq_length=2, bytes_per_value="4 B", out_features={"a": 1}, in_features={"b": 2})


# ---------------------------------------------------------------------- microbatching
def test_opacus_tutorial_physical_batches():
    """Opacus tutorial "Building an Image Classifier with Differential Privacy" (ResNet-18,
    CIFAR-10): "BATCH_SIZE = 512", "MAX_PHYSICAL_BATCH_SIZE = 128" (earlier revision:
    "BATCH_SIZE = 128", "VIRTUAL_BATCH_SIZE = 512", "N_ACCUMULATION_STEPS = int(VIRTUAL_BATCH_SIZE
    / BATCH_SIZE)" = 4).  So 4 physical passes per noisy step, and per-example gradients for 128
    examples at a time: 1.17e7 params (registry ResNet18) × 4 B × 128 = 5.9904e9 B by hand."""
    s = Scenarios.OpacusResNet18PhysicalBatches
    assert s.num_microbatches.magnitude == 4 == int(512 / 128)
    assert plain(s.reduction) == 4
    assert nbytes(s.per_microbatch("ResNet-18")) == pytest.approx(1.17e7 * 4 * 128, rel=1e-12)
    assert nbytes(s.naive_per_batch("ResNet-18")) == pytest.approx(1.17e7 * 4 * 512, rel=1e-12)
    assert nbytes(s.naive_per_batch("ResNet-18")) / nbytes(s.per_microbatch("ResNet-18")) == pytest.approx(plain(s.reduction))


@pytest.mark.parametrize("B, m", [(512, 128), (500, 128), (513, 128), (256, 1), (7, 8)])
def test_physical_pass_count_matches_opacus_splitter(B, m):
    """Opacus BatchSplittingSampler: np.array_split(batch_idxs, math.ceil(len(batch_idxs) / max_batch_size))."""
    s = Scenarios.OpacusResNet18PhysicalBatches.variant(batch_size=B, microbatch_size=m)
    assert s.num_microbatches.magnitude == math.ceil(B / m)
    assert plain(s.reduction) == pytest.approx(B / m)


def test_microbatch_composes_the_seed_type():
    """naive_per_batch is PerExampleGradientScenario.per_batch; one example per microbatch (TF
    Privacy's default num_microbatches = None: "each microbatch contains exactly one example")
    holds one per-example gradient."""
    seed = Scenarios.DpSgdPerExampleGradients
    s = mlsysim_symbolic.MicrobatchedDpSgdScenario(
        models={"KWS": "DS_CNN", "GPT-2": "GPT2"}, batch_size=256, microbatch_size=1, bytes_per_param="4 B/param")
    for model in ("KWS", "GPT-2"):
        assert s.naive_per_batch(model) == seed.per_batch(model)
        assert s.per_microbatch(model) == seed.per_example(model)   # one example's gradient (bytes, as mlsysim returns both)
    assert plain(s.reduction) == 256
    P, b, m = (s.type.variable(n).symbol for n in ("P", "bytes_per_param", "microbatch_size"))
    assert sympy.simplify(s.expression("per_microbatch", expand=True) - P * b * m) == 0


# ---------------------------------------------------------------------- optimizer state
def test_zero_gpt2_model_states():
    """ZeRO §3.1: "Mixed-precision Adam has K = 12. In total, this results in 2Ψ + 2Ψ + KΨ = 16Ψ
    bytes of memory requirement. For a model such as GPT-2 with 1.5 Billion parameters, this leads
    to a memory requirement of at least 24 GB, which is significantly higher than the meager 3 GB
    of memory required to hold the fp16 parameters alone." """
    s = Scenarios.ZeroMixedPrecisionAdamStates
    assert s.model_states("GPT-2").to("GB").magnitude == pytest.approx(24.0, rel=1e-12)
    assert s.weights("GPT-2").to("GB").magnitude == pytest.approx(3.0, rel=1e-12)
    assert s.gradients("GPT-2").to("GB").magnitude == pytest.approx(3.0, rel=1e-12)
    assert s.optimizer_state("GPT-2").to("GB").magnitude == pytest.approx(12 * 1.5, rel=1e-12)   # KΨ
    # Llama-2-7B at the same 16 B/param, by hand: 7e9 × 16 = 112 GB
    assert s.model_states("Llama-2-7B").to("GB").magnitude == pytest.approx(7e9 * 16 / 1e9, rel=1e-12)


def test_optimizer_constants_are_cited_inputs():
    t = mlsysim_symbolic.DpSgdOptimizerStateScenario(models={"GPT-2": "GPT2"}).type
    defaults = {n: t.inputs[n].default for n in ("weight_bytes", "gradient_bytes", "optimizer_bytes")}
    assert defaults == {"weight_bytes": "2 B/param", "gradient_bytes": "2 B/param", "optimizer_bytes": "12 B/param"}
    assert "ZeRO" in t.inputs["optimizer_bytes"].meaning and "K = 12" in t.inputs["optimizer_bytes"].meaning
    fp32_adam = mlsysim_symbolic.DpSgdOptimizerStateScenario(
        models={"GPT-2": "GPT2"}, weight_bytes="4 B/param", gradient_bytes="4 B/param", optimizer_bytes="8 B/param")
    assert fp32_adam.model_states("GPT-2").to("GB").magnitude == pytest.approx(1.5 * 16)   # 4 + 4 + 8 B/param


# ---------------------------------------------------------------------- activations
def test_korthikanti_eq1_gpt2_by_hand():
    """Korthikanti et al. (2022) §4.1, Eq. 1: activations per transformer layer
    sbh(34 + 5as/h) bytes.  GPT-2 1.5B (h = 1600, a = 25, L = 48), s = 1024, b = 256:
    5·25·1024/1600 = 80, so 1024·256·1600·114 = 47,815,065,600 B per layer, ×48 in total."""
    s = Scenarios.DpSgdGpt2Activations
    per_layer = 1024 * 256 * 1600 * (34 + 80)
    assert 5 * 25 * 1024 // 1600 == 80 and 5 * 25 * 1024 % 1600 == 0
    assert nbytes(s.per_layer("GPT-2")) == pytest.approx(per_layer, rel=1e-12)
    assert per_layer == 47_815_065_600
    assert nbytes(s.total("GPT-2")) == pytest.approx(48 * per_layer, rel=1e-12)
    assert nbytes(s.per_layer_selective("GPT-2")) == pytest.approx(1024 * 256 * 1600 * 34, rel=1e-12)
    assert nbytes(s.per_layer_tensor_parallel("GPT-2")) == pytest.approx(per_layer, rel=1e-12)   # t = 1


def test_korthikanti_selective_recomputation_gpt3_70_percent():
    """Korthikanti et al. §5, as quoted by the Hugging Face Accelerate Megatron-LM guide:
    selective activation recomputation "for GPT-3, this leads to 70% reduction in required memory
    for activations".  GPT-3: a = 96, s = 2048, h = 12288, so 5as/h = 80 and 80/114 = 0.7018."""
    s = Scenarios.Gpt3ActivationsKorthikanti
    assert plain(s.selective_saving("GPT-3")) == pytest.approx(0.70, abs=0.005)
    assert plain(s.selective_saving("GPT-3")) == pytest.approx(80 / 114, rel=1e-12)


def test_korthikanti_eq2_tensor_parallel_gpt3():
    """Eq. 2: sbh(10 + 24/t + 5as/(ht)).  GPT-3, s = 2048, b = 1, t = 8, by hand:
    2048·1·12288·(10 + 3 + 10) = 578,813,952 B per layer and device."""
    s = Scenarios.Gpt3ActivationsKorthikanti
    assert nbytes(s.per_layer_tensor_parallel("GPT-3")) == pytest.approx(2048 * 12288 * 23, rel=1e-12)
    assert nbytes(s.per_layer("GPT-3")) == pytest.approx(2048 * 12288 * 114, rel=1e-12)   # Eq. 1, t ignored


def test_zero_activation_estimate_for_gpt2():
    """ZeRO §3.2: "the 1.5B parameter GPT-2 model trained with sequence length of 1K and batch
    size of 32 requires about 60 GB of memory"; "For a GPT-2 like architecture the total
    activations is about 12 × hidden dim × batch × seq length × transformer layers" (values, 2 B
    each in fp16).  The same type with ZeRO's coefficient (24 B, no attention-score term) gives
    24·1600·32·1024·48 = 60.4 GB; Korthikanti's fuller count is several times larger."""
    zero_style = Scenarios.DpSgdGpt2Activations.variant(
        batch_size=32, linear_bytes="24 B/token", attention_bytes="0 B*sample/token^2")
    assert zero_style.total("GPT-2").to("GB").magnitude == pytest.approx(60, rel=0.01)
    assert nbytes(zero_style.total("GPT-2")) == pytest.approx(24 * 1600 * 32 * 1024 * 48, rel=1e-12)
    korthikanti = Scenarios.DpSgdGpt2Activations.variant(batch_size=32)
    assert korthikanti.total("GPT-2").to("GB").magnitude > 4 * 60


def test_activation_constants_are_cited_inputs():
    t = Scenarios.DpSgdGpt2Activations.type
    assert {n: t.inputs[n].default for n in ("linear_bytes", "attention_bytes", "replicated_bytes", "tp_size")} == {
        "linear_bytes": "34 B/token", "attention_bytes": "5 B*sample/token^2", "replicated_bytes": "10 B/token", "tp_size": 1}
    assert any("hooks" in a for a in t.assumptions)   # what DP does (not) add is stated


# ---------------------------------------------------------------------- composed step
@pytest.fixture(scope="module")
def step():
    return Scenarios.DpSgdStepMemoryGpt2


def test_step_expand_reaches_the_leaves(step):
    t = step.type
    expanded = step.expression("total", expand=True)
    leaves = {t.variable(n).symbol for n in ("batch_size", "P", "P_g", "grad_bytes", "weight_bytes", "optimizer_bytes",
                                              "seq_length", "h", "a", "L", "linear_bytes", "attention_bytes")}
    assert expanded.free_symbols == leaves
    B, P, P_g, b, b_w, K, s, h, a, L, c_lin, c_att = (t.variable(n).symbol for n in (
        "batch_size", "P", "P_g", "grad_bytes", "weight_bytes", "optimizer_bytes", "seq_length", "h", "a", "L",
        "linear_bytes", "attention_bytes"))
    by_hand = P * b_w + B * P_g * b + P * K + L * s * B * h * (c_lin + c_att * a * s / h)   # P_g: parameters per example
    assert sympy.simplify(expanded - by_hand) == 0
    assert str(step.equation("total").lhs) == "M_step"
    # unexpanded, the composed terms stay symbols
    assert not (step.expression("total").free_symbols & leaves)
    overhead = step.expression("dp_overhead", expand=True)
    b_g = t.variable("gradient_bytes").symbol
    assert sympy.simplify(overhead - (B * P_g * b - P * b_g)) == 0


def test_step_equals_the_sum_of_its_parts(step):
    """The composed total equals the separate types evaluated on the same inputs."""
    models = {"GPT-2": "GPT2"}
    grads = mlsysim_symbolic.PerExampleGradientScenario(models=models, batch_size=256, bytes_per_param="4 B/param")
    opt = mlsysim_symbolic.DpSgdOptimizerStateScenario(models=models)
    acts = mlsysim_symbolic.DpSgdActivationScenario(models=models, batch_size=256, seq_length=1024)
    parts = [grads.per_batch("GPT-2"), opt.weights("GPT-2"), opt.optimizer_state("GPT-2"), acts.total("GPT-2")]
    assert nbytes(step.total("GPT-2")) == pytest.approx(sum(nbytes(q) for q in parts), rel=1e-12)
    assert step.per_example_gradients("GPT-2") == Scenarios.DpSgdPerExampleGradients.per_batch("GPT-2")
    assert nbytes(step.activation_memory("GPT-2")) == pytest.approx(nbytes(Scenarios.DpSgdGpt2Activations.total("GPT-2")))
    assert nbytes(step.nonprivate_total("GPT-2")) == pytest.approx(
        nbytes(Scenarios.ZeroMixedPrecisionAdamStates.model_states("GPT-2")) + nbytes(acts.total("GPT-2")), rel=1e-12)


def test_step_gpt2_by_hand(step):
    """GPT-2 1.5B, B = 256, s = 1024, FP32 per-example gradients: 3 GB fp16 weights (ZeRO §3.1)
    + 1.536 TB per-example gradients (seed scenario) + 18 GB Adam state (K = 12) + 48 layers of
    Korthikanti Eq. 1 activations (47,815,065,600 B each)."""
    parts = {
        "weights": 1.5e9 * 2,
        "per_example_gradients": 1.5e9 * 4 * 256,
        "optimizer_state": 1.5e9 * 12,
        "activation_memory": 48 * 1024 * 256 * 1600 * (34 + 80),
    }
    for name, value in parts.items():
        assert nbytes(getattr(step, name)("GPT-2")) == pytest.approx(value, rel=1e-12), name
    assert nbytes(step.total("GPT-2")) == pytest.approx(sum(parts.values()), rel=1e-12)
    assert nbytes(step.total("GPT-2")) == pytest.approx(3_852_123_148_800, rel=1e-12)
    assert nbytes(step.dp_overhead("GPT-2")) == pytest.approx(1.5e9 * 4 * 256 - 1.5e9 * 2, rel=1e-12)


def test_step_variant_moves_both_batch_terms(step):
    """Doubling the batch adds one more batch of per-example gradients and of activations, nothing else."""
    bigger = step.variant(batch_size=512)
    delta = nbytes(bigger.total("GPT-2")) - nbytes(step.total("GPT-2"))
    assert delta == pytest.approx(1.5e9 * 4 * 256 + 48 * 1024 * 256 * 1600 * 114, rel=1e-12)
