"""The equations papers print (derivations/papers.toml), checked against the numbers they print.

Each test quotes the source and the section or table the number comes from.  Where a source
states only a formula (no worked number that we can quote with certainty), the test checks the
identity the source states (per-term form == factored form, or the formula written out here by
hand with the paper's constants) and says so in its docstring.

Sources:
  * Narayanan et al. (2021), "Efficient Large-Scale Language Model Training on GPU Clusters
    Using Megatron-LM", SC21: §2.2 (bubbles), §5.1 Eq. 2-4, Table 1.
  * Brown et al. (2020), "Language Models are Few-Shot Learners": Table 2.1, Table D.1.
  * Kaplan et al. (2020), "Scaling Laws for Neural Language Models": §2.1.
  * Chowdhery et al. (2022), "PaLM": Appendix B, Table 22.
  * Korthikanti et al. (2022), "Reducing Activation Recomputation in Large Transformer
    Models", MLSys 2023: Table 2, Table 3, Eq. 4-6, §5, §6.1 (Figure 7), Appendix B.
  * Daly (2006), FGCS 22(3), Eq. 37 and the captions of Figs. 3-5; Young (1974), CACM 17(9).
  * NVIDIA nccl-tests, doc/PERFORMANCE.md and src/all_reduce.cu; printed all_reduce_perf output in
    aws-samples/awsome-distributed-training, micro-benchmarks/nccl-tests/README.md.
  * Huang et al. (2019), "GPipe", §2.3 (prints no bubble value, only "negligible when M >= 4 x K").
  * Tazi et al. (2025), "The Ultra-Scale Playbook: Training LLMs on GPU Clusters" (Hugging Face,
    huggingface.co/spaces/nanotron/ultrascale-playbook): "Revisiting global batch size" and
    Pipeline Parallelism, "Interleaving stages" (figure "Bubble size for PP=8").
  * Reddi et al., Machine Learning Systems (MLSysBook), Vol. II "Distributed Training Systems",
    callout "Engineering Calculation: Pipeline Efficiency" (harvard-edge/cs249r_book,
    book/quarto/contents/vol2/distributed_training/distributed_training.qmd, commit 000dd0a).
  * BigScience Workshop notes, bigscience-workshop/bigscience, jz/frameworks/deepspeed.md
    (DeepSpeed pipeline efficiency gas/(gas+PP-1), commit 636f1a9, 2021-06-16).
  * NVIDIA Deep Learning Performance, GPU Performance Background User's Guide, Table 1.
  * Databricks (2023), "LLM Inference Performance Engineering: Best Practices", MBU.
  * Hoffmann et al. (2022), "Training Compute-Optimal Large Language Models": §3, §4.1, Table 3.
  * Ullah et al. (2024), "Enabling Fast Gradient Clipping and Ghost Clipping in Opacus".
  * Rajbhandari et al. (2020), "ZeRO", SC20: §3.2.
"""

import math
from pathlib import Path

import pytest
import sympy

import mlsysim_symbolic
from mlsysim_symbolic import Scenarios, load_derivations
from mlsysim_symbolic.catalog import catalog

NEW_TYPES = (
    "TransformerParameterCountScenario",
    "PalmTrainingFlopsScenario",
    "MegatronIterationFlopsScenario",
    "SequenceParallelActivationScenario",
    "DalyCheckpointScenario",
    "CollectiveBandwidthScenario",
    "PipelineBubbleScenario",
    "GemmIntensityScenario",
    "MbuScenario",
    "AchievedDeviceRateScenario",
    "ComputeOptimalScenario",
    "MlpActivationMemoryScenario",
    "ZeroActivationEstimateScenario",
)
MiB = 2**20


def mag(q, unit):
    return float(q.to(unit).magnitude)


def leaves(s, *names):
    return [s.type.variable(n).symbol for n in names]


def constants(s, *names):
    """The base-unit magnitudes of constant inputs (defaults), as exact numbers, keyed by symbol."""
    out = {}
    for n in names:
        var = s.type.variable(n)
        out[var.symbol] = sympy.nsimplify(getattr(s, n).to_base_units().magnitude)
    return out


# ---------------------------------------------------------------------- loading and rendering
def test_file_loads_alone_and_in_the_catalog():
    alone = load_derivations(Path(__file__).resolve().parents[1] / "derivations" / "papers.toml")
    assert set(alone.types) == set(NEW_TYPES)
    cat = catalog()
    assert set(cat.families["papers"]) == set(NEW_TYPES)
    for name in NEW_TYPES:
        t = cat.types[name]
        assert t.summary and t.assumptions and t.excludes and t.derivation and t.references, name
        assert all(r.url for r in t.references) and any(r.section for r in t.references), name
        assert any(d.type_name == name for d in cat.declared.values()), name   # each has a named scenario


@pytest.mark.parametrize("key", [k for k, d in catalog().declared.items() if d.type_name in NEW_TYPES])
def test_every_named_scenario_renders_latex(key):
    tex = str(catalog().scenario(key).latex())
    assert tex.count("&=") >= 1 and "\\" in tex


# ---------------------------------------------------------------------- parameter count
def test_gpt3_parameter_count_against_brown_et_al():
    """Brown et al. (2020) Table D.1 lists GPT-3 175B at 174,600 M parameters; Table 2.1 rounds it to 175.0B.
    Shape: Table 2.1 (n_layers = 96, d_model = 12288), vocabulary 50,257, context 2,048."""
    s = Scenarios.Gpt3ParameterCount
    p = mag(s.parameters, "param")
    assert round(p / 1e8) * 1e8 == pytest.approx(174_600e6, rel=1e-12)   # 174,600 M (Table D.1)
    assert p == pytest.approx(175.0e9, rel=0.003)                        # 175.0 B (Table 2.1)
    assert p == pytest.approx(12 * 96 * 12288**2 + 13 * 96 * 12288 + (50257 + 2048) * 12288, rel=1e-14)
    assert mag(s.parameters_by_term, "param") == 174_604_234_752


@pytest.mark.parametrize("layers, hidden, printed", [
    (48, 8192, 39.1),      # Narayanan et al. (2021) Table 1
    (80, 12288, 145.6),    # Table 1
    (128, 25600, 1008.0),  # Table 1 (the "1T" row)
])
def test_megatron_table1_parameter_counts(layers, hidden, printed):
    """Narayanan et al. (2021) Table 1 parameter counts (billions, one decimal), from Eq. 2 with
    V = 51,200 and s = 2,048 (§5.1)."""
    s = Scenarios.Megatron1TParameterCount.variant(layers=layers, hidden_size=hidden)
    assert round(mag(s.parameters, "param") / 1e9, 1) == printed


def test_factored_equals_per_term_and_kaplan_split():
    """Narayanan Eq. 2 factored form == 12lh² + 13lh + (V+s)h; Kaplan §2.1: N ≈ 12·n_layer·d_model²."""
    s = Scenarios.Gpt3ParameterCount
    L, h, V, sq, c = leaves(s, "layers", "hidden_size", "vocab_size", "seq_length", "params_per_entry")
    factored = s.expression("parameters", expand=True)
    assert sympy.simplify(factored - s.expression("parameters_by_term", expand=True)) == 0
    assert sympy.simplify(factored - c * (12 * L * h**2 + 13 * L * h + (V + sq) * h)) == 0
    assert sympy.simplify(s.expression("kaplan_non_embedding", expand=True) - 12 * L * h**2 * c) == 0
    assert mag(s.embedding_parameters + s.non_embedding_parameters, "param") == mag(s.parameters_by_term, "param")
    # Kaplan's N leaves out the 13lh biases: 0.01% of GPT-3's non-embedding parameters
    assert mag(s.kaplan_non_embedding, "param") == pytest.approx(mag(s.non_embedding_parameters, "param"), rel=1e-4)


# ---------------------------------------------------------------------- PaLM FLOPs, MFU, PF-days
def test_palm_540b_mfu_with_and_without_attention():
    """Chowdhery et al. (2022) App. B / Table 22: PaLM 540B trains at 238.3K tokens/s on 6144 TPU v4
    chips (275 TFLOP/s) with 6N + 12LHQT model FLOPs per token (L=118, H=48, Q=256, T=2048):
    MFU 46.2%.  Without the attention term (6N only, FleetMfuScenario's definition): 45.7%."""
    s = Scenarios.Palm540BMfu
    assert round(mag(s.mfu, "percent"), 1) == 46.2                        # Table 22
    assert round(mag(s.mfu_no_attention, "percent"), 1) == 45.7
    assert mag(s.attention_flops_per_token, "flop/token") == 12 * 118 * 48 * 256 * 2048
    assert mag(s.hfu, "percent") == pytest.approx(mag(s.mfu, "percent"), rel=1e-12)   # no rematerialisation given
    more = s.variant(remat_flops_per_token="1e12 flop/token")
    assert mag(more.hfu, "percent") > mag(more.mfu, "percent")


def test_palm_mfu_without_attention_is_fleet_mfu():
    """FleetMfuScenario's MFU (6·P·T over n·R·t) is this type's mfu_no_attention for the same step."""
    s = Scenarios.Palm540BMfu
    N, X, n, R, k = leaves(s, "parameters", "throughput", "chips", "peak_rate", "dense_flops")
    assert sympy.simplify(s.expression("mfu_no_attention", expand=True) - X * k * N / (n * R)) == 0


def test_gpt3_pf_days_against_brown_table_d1():
    """Brown et al. (2020) Table D.1, GPT-3 175B: 174,600M parameters, 300B tokens, total train
    compute 3.14E+23 flops = 3.64E+03 PF-days (6ND, attention left out as the table notes)."""
    gpt3 = mlsysim_symbolic.PalmTrainingFlopsScenario(
        parameters="174.6e9 param", layers=96, heads=96, head_dim=128, seq_length=2048,
        throughput="1 token/s", chips=1, peak_rate="1 TFLOP/s", training_tokens="300e9 token")
    assert float(f"{mag(gpt3.total_compute_6nd, 'flop'):.2e}") == 3.14e23
    assert float(f"{mag(gpt3.pf_days_6nd, 'PFLOP/s*d'):.2e}") == 3.64e3
    assert mag(gpt3.pf_days, "PFLOP/s*d") > mag(gpt3.pf_days_6nd, "PFLOP/s*d")    # attention adds work


# ---------------------------------------------------------------------- Megatron iteration FLOPs
def test_iteration_flops_are_korthikanti_and_narayanan_forms():
    """Formula check (the sources print the forms, not a worked number for them):
    Korthikanti §6 model FLOPs 72·B·s·l·h²·(1 + s/(6h) + V/(12lh)); Narayanan Eq. 3 (full
    recomputation) 96·B·s·l·h²·(1 + s/(6h) + V/(16lh)); selective adds the attention core's forward."""
    s = Scenarios.Megatron1TIteration
    B, sq, L, h, V = leaves(s, "batch_size", "seq_length", "layers", "hidden_size", "vocab_size")
    c = constants(s, "layer_matmul_flops", "attention_core_flops", "logit_flops", "passes")
    model = s.expression("model_flops", expand=True).subs(c)
    full = s.expression("full_recompute_flops", expand=True).subs(c)
    sel = s.expression("selective_recompute_flops", expand=True).subs(c)
    f72 = 72 * B * sq * L * h**2 * (1 + sq / (6 * h) + V / (12 * L * h))
    f96 = 96 * B * sq * L * h**2 * (1 + sq / (6 * h) + V / (16 * L * h))
    assert sympy.simplify(model - f72) == 0
    assert sympy.simplify(full - f96) == 0
    assert sympy.simplify(sel - model - 4 * B * sq**2 * L * h) == 0


def test_narayanan_8tp_rule_and_recompute_ratios():
    """Narayanan §5.1: with h ≫ s the iteration's FLOPs are ≈ 8·P per token (Eq. 4's 8TP); for the
    1T model (1008.0B parameters, Table 1) Eq. 3 is within 2% of 8·P·B·s.  Selective recomputation's
    extra work is a small share of full recomputation's (Korthikanti §5: most of the recompute
    overhead removed)."""
    s = Scenarios.Megatron1TIteration
    eight_tp = 8 * 1008.0e9 * 3072 * 2048
    assert mag(s.full_recompute_flops, "flop") == pytest.approx(eight_tp, rel=0.02)
    assert mag(s.selective_extra_share, "1") < 0.05 * mag(s.full_extra_share, "1")
    assert mag(s.selective_over_full_throughput, "1") == pytest.approx(
        mag(s.full_recompute_flops, "flop") / mag(s.selective_recompute_flops, "flop"), rel=1e-12)
    assert mag(s.variant(recompute="none").hfu, "1") == pytest.approx(mag(s.mfu, "1"), rel=1e-12)


# ---------------------------------------------------------------------- sequence parallelism
def test_korthikanti_table2_forms():
    """Korthikanti et al. (2022) Table 2, per layer: sbh(34 + 5as/h); sbh(10 + 24/t + 5as/(ht));
    sbh(34/t + 5as/(ht)); sbh(10 + 24/t); sbh·34/t; 2sbh — constants written out here."""
    s = Scenarios.Gpt3SequenceParallelLayer
    sq, b, h, a, t = leaves(s, "seq_length", "micro_batch", "hidden_size", "heads", "tensor_parallel")
    c = constants(s, "replicated_bytes", "split_bytes", "score_bytes", "input_bytes")
    sbh = sq * b * h
    rows = {
        "no_parallelism": sbh * (34 + 5 * a * sq / h),
        "tensor_parallel_only": sbh * (10 + sympy.Rational(24) / t + 5 * a * sq / (h * t)),
        "sequence_parallel": sbh * (sympy.Rational(34) / t + 5 * a * sq / (h * t)),
        "tensor_selective": sbh * (10 + sympy.Rational(24) / t),
        "sequence_parallel_selective": sbh * 34 / t,
        "full_recompute": 2 * sbh,
    }
    for out, form in rows.items():
        assert sympy.simplify(s.expression(out, expand=True).subs(c) - form) == 0, out


def test_gpt3_selective_recomputation_saves_70_percent():
    """Korthikanti §5: for GPT-3 175B (a = 96, s = 2048, h = 12288) 5as/h = 80 against 34, so selective
    recomputation removes 80/114 of the activations: "reduces the memory required for activations by 70%"."""
    s = Scenarios.Gpt3SequenceParallelLayer
    assert 5 * 96 * 2048 / 12288 == 80
    assert round(mag(s.selective_saving, "percent")) == 70
    assert mag(s.per_layer, "B") == 2048 * 1 * 12288 * 34 / 8


#: Korthikanti et al. (2022) Table 3: attention heads, hidden size (s = 2048, micro-batch 1, t = 8 for all three).
KORTHIKANTI_TABLE3 = {"175B": (96, 12288), "530B": (128, 20480), "1T": (160, 25600)}


def korthikanti_layer(model):
    heads, hidden = KORTHIKANTI_TABLE3[model]
    return Scenarios.Gpt3SequenceParallelLayer.variant(heads=heads, hidden_size=hidden)


@pytest.mark.parametrize("model", list(KORTHIKANTI_TABLE3))
def test_korthikanti_sequence_parallel_and_selective_give_5x(model):
    """Korthikanti et al. (2022) §6.1, on Figure 7 (memory as a share of the tensor-parallel baseline,
    Eq. 2): "Individually, both techniques cut the memory requirement nearly in half, and combined
    provide a 5x reduction bringing the memory requirements to under 20%. This is only ~2x of the full
    activation recomputation which is at 10% of the baseline."  Figure 7's caption: "As the model size
    increases, ... together they reduce the memory required by ~5x"; abstract and §7: "5x".

    From Table 2's rows with Table 3's shapes (t = 8, s = 2048): tensor_parallel_only over
    sequence_parallel_selective is 23/4.25 = 5.41 (175B) and 21/4.25 = 4.94 (530B, 1T): 5x to the one
    figure printed.  sequence_parallel_selective over full_recompute is 34/(2t) = 2.125: ~2x.  Full
    recomputation is 2/21 = 9.5% of the baseline for 530B and 1T: 10% to the one figure printed.
    Not asserted: the 22B model gives 6.2x (the caption's "as the model size increases" is about the
    larger models), full recompute is 8.7% for 175B, and "under 20%" is 20.2% for 530B and 1T from
    the formulas alone: Figure 7 measures memory with Appendix B's output-tensor deallocation."""
    s = korthikanti_layer(model)
    baseline = mag(s.tensor_parallel_only, "B")
    both = mag(s.sequence_parallel_selective, "B")
    full = mag(s.full_recompute, "B")
    assert round(baseline / both) == 5                       # "5x reduction" (§6.1, abstract, §7)
    assert round(both / full) == 2                           # "only ~2x of the full activation recomputation"
    assert both / full == pytest.approx(34 / (2 * 8), rel=1e-12)
    assert both < 0.5 * baseline and mag(s.sequence_parallel, "B") < baseline   # each technique saves memory
    if model != "175B":
        assert round(100 * full / baseline, -1) == 10        # "full activation recomputation ... at 10%"


def test_mt_nlg_selective_recomputation_saves_65_percent():
    """Korthikanti et al. (2022) §5: "For MT-NLG, a = 128, s = 2048, and h = 20480 so 5as/h = 64 ...
    by using selective activation recomputation we can save 70% and 65% of the required memory for
    activations for the GPT-3 and MT-NLG models, respectively."  Here with t = 8 (Table 3), as the
    share of Eq. 4 (tensor + sequence parallel) that Eq. 6 (34·sbhL/t) removes."""
    s = korthikanti_layer("530B")
    assert 5 * 128 * 2048 / 20480 == 64
    assert round(mag(s.selective_saving, "percent")) == 65
    assert mag(s.sequence_parallel, "B") == pytest.approx(2048 * 20480 / 8 * (34 + 64), rel=1e-12)


def test_korthikanti_appendix_b_output_tensor_saving():
    """Korthikanti et al. (2022) Appendix B: deallocating each microbatch's output tensor saves sbh per
    microbatch in flight, p of them on the first stage; "Using the hyperparameters for the 530B model
    (see Table 3), and this setup's 2 bytes per data element, the theoretical savings ... on the first
    pipeline stage is sbhp = 2.73 GB".  The tensor is a layer's input, Table 2's full-recomputation
    row (2sbh bytes); p = 35 (Table 3).  The printed GB is 2^30 bytes (2.94 in 10^9 bytes)."""
    s = korthikanti_layer("530B")
    assert round(35 * mag(s.full_recompute, "GiB"), 2) == 2.73


# ---------------------------------------------------------------------- Daly
def test_daly_eq37_against_young():
    """Formula check (Daly 2006, Eq. 37; the printed values are in the test of Figs. 3-5): with x = δ/(2M),
    τ_opt/τ_Young = 1 − (2/3)√x + x/9; τ_opt = M for δ ≥ 2M; → Young as δ/M → 0."""
    s = Scenarios.DalyTenMinuteCheckpoint
    delta, M = 600.0, 4 * 3600.0
    x = delta / (2 * M)
    young = math.sqrt(2 * delta * M)
    daly = young * (1 + math.sqrt(x) / 3 + x / 9) - delta
    assert mag(s.young_interval, "s") == pytest.approx(young, rel=1e-12)
    assert mag(s.daly_interval, "s") == pytest.approx(daly, rel=1e-12)
    assert daly / young == pytest.approx(1 - 2 / 3 * math.sqrt(x) + x / 9, rel=1e-12)
    assert mag(s.variant(checkpoint_time="9 h").daly_interval, "h") == pytest.approx(4.0, rel=1e-12)   # δ ≥ 2M → M
    tiny = s.variant(checkpoint_time="0.01 s")
    assert mag(tiny.young_over_daly, "1") == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("mtbf, printed_min, digits", [
    ("24 h", 117, 0),     # Fig. 3: "The new model predicts τopt=117 min"
    ("6 h", 57, 0),       # Fig. 4: "The new model predicts τopt=57 min"
    ("15 min", 9.1, 1),   # Fig. 5: "The new model predicts τopt=9.1 min"
])
def test_daly_figures_3_to_5_optimal_interval(mtbf, printed_min, digits):
    """Daly (2006), FGCS 22(3), captions of Figs. 3-5: "Comparison of model and simulation results for
    M=24 h [6 h, 15 min], Ts=500 h, R=10 min, and δ=5 min. The new model predicts τopt=117 min
    [57 min, 9.1 min]."  R and Ts do not enter the optimum (Eq. 37); δ < 2M in all three."""
    s = Scenarios.DalyTenMinuteCheckpoint.variant(checkpoint_time="5 min", mtbf=mtbf)
    assert mag(s.daly_series_margin, "min") > 0
    assert round(mag(s.daly_interval, "min"), digits) == printed_min


def test_daly_validity_margins():
    """Eq. 37 applies for δ < 2M; Young's interval is taken as adequate for δ ≤ εM (ε = 0.01: there
    it exceeds Daly's by about 5%)."""
    s = Scenarios.DalyTenMinuteCheckpoint
    assert mag(s.daly_series_margin, "h") > 0 and mag(s.young_margin, "h") < 0   # 600 s is 4% of 4 h
    ok = s.variant(checkpoint_time="144 s")                                        # δ = 0.01 M exactly
    assert mag(ok.young_margin, "h") == pytest.approx(0, abs=1e-12)
    assert mag(ok.young_over_daly, "1") == pytest.approx(1.05, abs=0.005)


# ---------------------------------------------------------------------- NCCL bus bandwidth
@pytest.mark.parametrize("collective, factor", [
    ("all_reduce", lambda n: 2 * (n - 1) / n),
    ("reduce_scatter", lambda n: (n - 1) / n),
    ("all_gather", lambda n: (n - 1) / n),
    ("all_to_all", lambda n: (n - 1) / n),
    ("broadcast", lambda n: 1.0),
    ("reduce", lambda n: 1.0),
])
def test_nccl_tests_bus_bandwidth_factors(collective, factor):
    """nccl-tests doc/PERFORMANCE.md: algbw = S/t; busbw = algbw × 2(n−1)/n (AllReduce),
    (n−1)/n (ReduceScatter, AllGather, AlltoAll), 1 (Broadcast, Reduce)."""
    for n in (2, 8, 64):
        s = Scenarios.NcclAllReduceEightGpus.variant(collective=collective, ranks=n)
        assert mag(s.algorithm_bandwidth, "GB/s") == pytest.approx(4 / 0.040, rel=1e-12)
        assert mag(s.bus_bandwidth, "GB/s") == pytest.approx(100 * factor(n), rel=1e-12)
    assert mag(Scenarios.NcclAllReduceEightGpus.bus_factor, "1") == 1.75   # 2·7/8


@pytest.mark.parametrize("size, time_us, algbw, busbw", [
    (17179869184, 66132, 259.78, 487.09),     # 2 x p5.48xlarge, out-of-place
    (17179869184, 66109, 259.87, 487.26),     # same row, in-place
    (8589934592, 33605, 255.62, 479.28),      # 8 GiB row, out-of-place
    (1073741824, 4607.6, 233.04, 436.95),     # 1 GiB row, out-of-place
])
def test_nccl_tests_printed_all_reduce_rows(size, time_us, algbw, busbw):
    """All_reduce_perf output printed in aws-samples/awsome-distributed-training,
    micro-benchmarks/nccl-tests/README.md ("All_reduce performance test will be executed from 8B to 16GB
    on 2x p5.48xlarge": 2 nodes x 8 GPUs, n = 16), columns size (B), time (us), algbw, busbw (GB/s).
    nccl-tests prints GB as 10^9 B (src/all_reduce.cu: count*typesize/1.0E9/sec) and busbw = algbw x
    2(n-1)/n (doc/PERFORMANCE.md).  The printed time is itself rounded, hence 1e-4."""
    s = Scenarios.NcclAllReduceEightGpus.variant(size=f"{size} B", time=f"{time_us} us", ranks=16)
    assert mag(s.algorithm_bandwidth, "GB/s") == pytest.approx(algbw, abs=0.005 + algbw * 1e-4)
    assert mag(s.bus_bandwidth, "GB/s") == pytest.approx(busbw, abs=0.005 + busbw * 1e-4)
    assert mag(s.bus_factor, "1") == 1.875


def test_nccl_tests_printed_16_gib_row_to_two_decimals():
    """The 16 GiB out-of-place row of that output to the printed two decimals: 17179869184 B in 66132 us
    on 16 ranks, printed algbw 259.78 and busbw 487.09 GB/s."""
    s = Scenarios.NcclAllReduceEightGpus.variant(size="17179869184 B", time="66132 us", ranks=16)
    assert round(mag(s.algorithm_bandwidth, "GB/s"), 2) == 259.78
    assert round(mag(s.bus_bandwidth, "GB/s"), 2) == 487.09


# ---------------------------------------------------------------------- pipeline bubbles
def test_gpipe_and_megatron_bubbles():
    """GPipe §2.3: bubble O((K−1)/(M+K−1)) of the step; K = 4, M = 32: 3/35.  Narayanan §2.2.1:
    (p−1)/m of the ideal time, §2.2.2 interleaved (p−1)/(v·m); §3 m = B/(d·b).  The two are one
    quantity over two denominators: share of step = x/(1 + x).
    Formula check only: neither GPipe (§2.3 prints O((K-1)/(M+K-1)) and "negligible when M >= 4 x K";
    Tables 2-3 are measured throughputs) nor Narayanan et al. (§2.2, §3.3 print formulas; Figure 6
    plots the bubble without printed values) prints a bubble fraction for a specific p, m, v; the
    printed values reproduced come from the Ultra-Scale Playbook and the DeepSpeed note (tests below)."""
    s = Scenarios.GpipeFourStages
    assert mag(s.microbatches, "count") == 32
    assert mag(s.bubble_share_of_step, "1") == pytest.approx(3 / 35, rel=1e-12)
    assert mag(s.bubble_over_ideal, "1") == pytest.approx(3 / 32, rel=1e-12)
    assert mag(s.interleaved_bubble_over_ideal, "1") == pytest.approx(3 / 64, rel=1e-12)
    x = mag(s.bubble_over_ideal, "1")
    assert mag(s.bubble_share_of_step, "1") == pytest.approx(x / (1 + x), rel=1e-12)
    big = s.variant(global_batch=3072, data_parallel=6, micro_batch=1, stages=64)   # Table 1's 1T layout
    assert mag(big.microbatches, "count") == 512



# The Ultra-Scale Playbook, Pipeline Parallelism, "Interleaving stages": the Plotly bar chart "Bubble size
# for PP=8" prints each bar's value as a two-decimal text label.  Read from the playbook's source
# (fragments/pp_bubblesize.html: text labels, y categories), label for label:
PLAYBOOK_PP8_BUBBLE = [
    (32, 8, "0.03"), (16, 8, "0.05"), (32, 4, "0.05"), (32, 2, "0.11"), (16, 4, "0.11"), (8, 8, "0.11"),
    (32, 1, "0.22"), (16, 2, "0.22"), (8, 4, "0.22"), (4, 8, "0.22"), (4, 4, "0.44"), (8, 2, "0.44"),
    (2, 8, "0.44"), (16, 1, "0.44"), (8, 1, "0.88"), (2, 4, "0.88"), (1, 8, "0.88"), (4, 2, "0.88"),
    (4, 1, "1.75"), (2, 2, "1.75"), (1, 4, "1.75"), (2, 1, "3.50"), (1, 2, "3.50"), (1, 1, "7.00"),
]


def _eight_stages(microbatches, chunks):
    """p = 8 with m microbatches of one sample on one data-parallel replica, v chunks per device."""
    return Scenarios.GpipeFourStages.variant(global_batch=microbatches, data_parallel=1, micro_batch=1,
                                             stages=8, chunks=chunks)


@pytest.mark.parametrize("m, v, printed", PLAYBOOK_PP8_BUBBLE)
def test_ultrascale_playbook_bubble_size_for_pp8(m, v, printed):
    """The Ultra-Scale Playbook (Tazi et al., Hugging Face, 2025), Pipeline Parallelism, "Interleaving
    stages": r_bubble = (1/v)·(p−1)(t_f+t_b)/(m(t_f+t_b)) = (p−1)/(v·m), "several configurations for a PP
    setup with p=8, where the special case of m=1, v=1 corresponds to naive pipeline parallelism and the
    configurations with v=1 are AFAB or 1F1B setups"; the figure "Bubble size for PP=8" prints the 24 bars
    to two decimals (e.g. "m=32, v=8" 0.03, "m=32, v=1" 0.22, "m=1, v=1" 7.00).  Each printed label is
    reproduced to its two decimals by Megatron's bubble over the ideal time; the v = 1 bars are also the
    plain 1F1B output.  mlsysim 0.3.0's calc_pipeline_bubble(p, m, v) = (p−1)/(v·m+p−1) is the same idle
    time over the whole step: x/(1+x) of the playbook's x."""
    from mlsysim.physics.performance import calc_pipeline_bubble

    s = _eight_stages(m, v)
    x = mag(s.interleaved_bubble_over_ideal, "1")
    assert f"{x:.2f}" == printed
    if v == 1:
        assert f"{mag(s.bubble_over_ideal, '1'):.2f}" == printed
        assert mag(s.bubble_share_of_step, "1") == pytest.approx(calc_pipeline_bubble(8, m), rel=1e-12)
    assert calc_pipeline_bubble(8, m, v_stages=v) == pytest.approx(x / (1 + x), rel=1e-12)


def test_ultrascale_playbook_naive_pipeline_is_over_ideal_not_share_of_step():
    """The Playbook's first formula, for one batch through p stages with no micro-batching:
    r_bubble = (p−1)(t_f+t_b)/(t_f+t_b) = p−1, printed 7.00 for p = 8 (m=1, v=1 bar).  That is the bubble
    over the ideal time; the share of the step, GPipe's (K−1)/(M+K−1), is 7/8 for the same pipeline and
    would print 0.88 — the two quantities the type keeps apart."""
    s = _eight_stages(1, 1)
    assert mag(s.bubble_over_ideal, "1") == 8 - 1
    assert mag(s.bubble_share_of_step, "1") == pytest.approx(7 / 8, rel=1e-12)
    assert f"{mag(s.bubble_share_of_step, '1'):.2f}" != "7.00"


@pytest.mark.parametrize("data_parallel, printed_steps", [(128, 4), (512, 1)])
def test_ultrascale_playbook_microbatch_count(data_parallel, printed_steps):
    """The Ultra-Scale Playbook, "Revisiting global batch size": bs = gbs = mbs × grad_acc × dp, and the
    concrete example "Our batch size will thus be 1,024 samples ... a single GPU can only fit mbs=2 in
    memory, and we have 128 GPUs available for training. This means with 4 gradient accumulation steps,
    we'll achieve our goal of 1,024 samples"; "what if we suddenly have 512 GPUs available? ... keeping
    mbs=2 and setting the number of gradient accumulation steps to 1".  The accumulation steps per replica
    are the microbatches per pipeline, m = B/(d·b)."""
    s = Scenarios.GpipeFourStages.variant(global_batch=1024, data_parallel=data_parallel, micro_batch=2)
    assert mag(s.microbatches, "count") == printed_steps


@pytest.mark.parametrize("m, printed_overhead_pct, printed_efficiency_pct", [(4, 175, 36), (32, 22, 82)])
def test_mlsysbook_pipeline_efficiency(m, printed_overhead_pct, printed_efficiency_pct):
    """MLSysBook Vol. II, "Distributed Training Systems", Model Parallelism Limitations, callout "Engineering
    Calculation: Pipeline Efficiency": "8-stage pipeline (P=8)", "Overhead = (P − 1)/M"; "Case A: Low Latency
    (M=4)": "7/4 = 175%", "Efficiency = 1/(1 + 1.75) ≈ 36%"; "Case B: High Throughput (M=32)": "7/32 ≈ 22%",
    "Efficiency = 1/(1 + 0.22) ≈ 82%".  The overhead is Megatron's bubble over the ideal time; the efficiency
    1/(1 + x) is one minus GPipe's share of the step, M/(M + P − 1): by hand 4/11 = 36.4%, 32/39 = 82.1%.
    (Not reproduced, and not asserted: the same chapter's Hybrid Parallelism opening prints "(64−1)/32 ≈ 98%
    pipeline bubble overhead"; (64−1)/32 is 197% of the ideal time and 63/95 = 66% of the step — 98% is
    63/64, the share for one microbatch.)"""
    s = _eight_stages(m, 1)
    x = mag(s.bubble_over_ideal, "1")
    assert x == pytest.approx(7 / m, rel=1e-12)
    assert round(100 * x) == printed_overhead_pct
    efficiency = 1 - mag(s.bubble_share_of_step, "1")
    assert efficiency == pytest.approx(1 / (1 + x), rel=1e-12) == pytest.approx(m / (m + 7), rel=1e-12)
    assert round(100 * efficiency) == printed_efficiency_pct


def test_deepspeed_pipeline_efficiency_at_gas_eight_times_pp():
    """BigScience Workshop notes, jz/frameworks/deepspeed.md (DeepSpeed's pipeline engine, 2021): "if you set
    `gas=8*PP` you should get 90% pipeline efficiency. Theoretical pipeline efficiency is:
    efficiency = gas / (gas + PP - 1)", and "Say you split a model across 20 pipeline stages and want 90% PP
    efficiency".  The efficiency is one minus GPipe's share of the step.  By hand: gas = 8·PP gives
    8·PP/(9·PP − 1), 94.1% at PP = 2 falling to 8/9 = 88.9%, so 90% to the one figure printed for every PP;
    at the note's 20 stages 160/179 = 89.4%."""
    for pp in range(2, 65):
        s = Scenarios.GpipeFourStages.variant(global_batch=8 * pp, data_parallel=1, micro_batch=1, stages=pp)
        efficiency = 1 - mag(s.bubble_share_of_step, "1")
        assert efficiency == pytest.approx(8 * pp / (8 * pp + pp - 1), rel=1e-12)
        assert round(efficiency, 1) == 0.9
    twenty = Scenarios.GpipeFourStages.variant(global_batch=160, data_parallel=1, micro_batch=1, stages=20)
    assert 1 - mag(twenty.bubble_share_of_step, "1") == pytest.approx(160 / 179, rel=1e-12)


# ---------------------------------------------------------------------- GEMM intensity
def test_nvidia_linear_layer_intensities():
    """NVIDIA GPU Performance Background, Table 1: linear layer, 4096 outputs, 1024 inputs, batch 512:
    315 FLOPS/B (arithmetic-limited); batch 1: 1 FLOPS/B (memory-limited); V100 ops:byte 138.9
    (125 TFLOPS over 900 GB/s)."""
    big, one = Scenarios.LinearLayerBatch512OnV100, Scenarios.LinearLayerBatch1OnV100
    assert round(mag(big.intensity, "flop/B")) == 315
    assert round(mag(one.intensity, "flop/B")) == 1
    assert round(mag(big.ridge_point, "flop/B"), 1) == 138.9
    assert mag(big.intensity_over_ridge, "1") > 1 > mag(big.memory_over_math_time, "1")   # compute-bound
    assert mag(one.intensity_over_ridge, "1") < 1 < mag(one.memory_over_math_time, "1")   # memory-bound
    assert mag(big.attainable_rate, "TFLOP/s") == 125


# ---------------------------------------------------------------------- MBU
def test_databricks_mbu_example():
    """Databricks (2023): "if a 7B parameter running with 16-bit precision has TPOT equal to 14ms,
    then it's moving 14GB of parameters in 14ms translating to 1TB/sec bandwidth usage. If the peak
    bandwidth of the machine is 2TB/sec, we are running at an MBU of 50%"."""
    s = Scenarios.Databricks7BMbu
    assert mag(s.bytes_per_step, "GB") == pytest.approx(14, rel=1e-12)
    assert mag(s.achieved_bandwidth, "TB/s") == pytest.approx(1, rel=1e-12)
    assert mag(s.mbu, "percent") == pytest.approx(50, rel=1e-12)
    assert mag(s.tokens_per_second, "token/s") == pytest.approx(1000 / 14, rel=1e-12)
    with_kv = s.variant(kv_bytes="14 GB")
    assert mag(with_kv.mbu, "percent") == pytest.approx(100, rel=1e-12)


# ---------------------------------------------------------------------- per-GPU rate
def test_megatron_table1_share_of_peak_and_training_times():
    """Narayanan et al. (2021) Table 1, 1T row: 163 teraFLOP/s per GPU, 52% of peak, 502 petaFLOP/s
    aggregate on 3072 GPUs (the per-GPU figure is rounded, hence 0.5%).  §5.1: 8TP/(nX) gives 34 days
    for GPT-3 (175B, 300B tokens, 1024 GPUs, 140 TFLOP/s) and 84 days for the 1T model (450B tokens,
    3072 GPUs, 163 TFLOP/s)."""
    t1 = Scenarios.Megatron1TAchievedRate
    assert round(mag(t1.share_of_peak, "percent")) == 52
    assert mag(t1.aggregate_rate, "PFLOP/s") == pytest.approx(502, rel=0.005)
    assert round(mag(t1.training_time, "d")) == 84
    assert round(mag(Scenarios.Gpt3AchievedRate.training_time, "d")) == 34


# ---------------------------------------------------------------------- compute-optimal
def test_chinchilla_allocation_at_gophers_budget():
    """Hoffmann et al. (2022): Chinchilla is 70B parameters trained on 1.4T tokens (§4.1), 20 tokens
    per parameter, at Gopher's budget of 5.76e23 FLOPs (Table 3).  N_opt = √(C/(6·20)) = 69.3B and
    D_opt = 1.39T are within 1.1% of them; 6ND of the run is within 2.1% of the budget."""
    s = Scenarios.ChinchillaAtGopherBudget
    assert mag(s.run_tokens_per_param, "token/param") == pytest.approx(20, rel=1e-12)
    assert mag(s.optimal_parameters, "param") == pytest.approx(70e9, rel=0.011)
    assert mag(s.optimal_tokens, "token") == pytest.approx(1.4e12, rel=0.011)
    assert mag(s.run_compute, "flop") == pytest.approx(5.76e23, rel=0.021)
    C, r, k = leaves(s, "compute", "tokens_per_param", "flops_per_param_token")
    n_opt = s.expression("optimal_parameters", expand=True)
    assert sympy.simplify(k * n_opt * s.expression("optimal_tokens", expand=True) - C) == 0   # C = 6·N·D at the optimum


# ---------------------------------------------------------------------- MLP and ZeRO activations
def test_opacus_synthetic_network():
    """Opacus blog (Ullah et al. 2024), synthetic setup: Input 5120, Hidden 2560, Output 1280,
    "Total number of model parameters = 15.6M", "Model size = 62.5 MB" (binary units).  The
    activations kept at batch 32 are written out by hand: 32 × (5120 + 2560 + 1280) × 4 B."""
    s = Scenarios.OpacusSyntheticMlp
    assert mag(s.weight_memory, "MiB") == 62.5
    assert round(mag(s.parameters, "param") / MiB, 1) == 15.6
    assert mag(s.activation_memory, "B") == 32 * (5120 + 2560 + 1280) * 4 == 1_146_880
    assert mag(s.variant(batch_size=64).activation_memory, "B") == 2 * 1_146_880


def test_zero_gpt2_activation_estimate():
    """ZeRO §3.2: "the 1.5B parameter GPT-2 model trained with sequence length of 1K and batch size
    of 32 requires about 60 GB of memory" (12 × hidden × batch × seq × layers activations, FP16)."""
    s = Scenarios.ZeroGpt2Activations
    assert mag(s.activation_memory, "GB") == pytest.approx(60, rel=0.01)
    assert mag(s.activation_memory, "B") == 12 * 1600 * 32 * 1024 * 48 * 2


def test_validity_conditions_and_the_roofline_regime_as_answers():
    """The answers agree with the margins they restate, and with NVIDIA's guide (Matrix Multiplication Background,
    Table 1): the 4096x1024 linear layer at batch 512 is math-limited on a V100 (315 FLOPS/B > 138.9), at batch 1
    memory-limited (1 FLOPS/B)."""
    from mlsysim_symbolic.catalog import catalog

    daly = catalog().scenario("DalyTenMinuteCheckpoint")
    assert daly.daly_series_applies == (daly.daly_series_margin.magnitude > 0)
    assert daly.young_adequate == (daly.young_margin.magnitude >= 0)
    assert catalog().scenario("LinearLayerBatch512OnV100").bound == "compute"
    assert catalog().scenario("LinearLayerBatch1OnV100").bound == "memory"
