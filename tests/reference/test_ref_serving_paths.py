"""ServingModel's two other paths against mlsysim 0.3.0: disaggregated decode and speculative decoding.

mlsysim's ``ServingModel.solve`` (engine/solvers/serving.py) has two paths beyond one device serving one model:

- ``decode_hardware``: prefill on ``hardware``, decode on ``decode_hardware`` (Splitwise, Patel et al. 2024;
  DistServe, Zhong et al. 2024).  The KV cache crosses ``network_bandwidth`` before the first token
  (t_x = M_kv / BW_n, added to TTFT), decode streams weights and KV from the decode device's memory, and the memory
  wall is the decode device's capacity;
- ``draft_model``: speculative decoding (Leviathan et al. 2023).  A draft token costs the draft's weights and its own
  KV cache over the decode device's bandwidth; K = SPECULATIVE_GAMMA = 4 drafts per step; a step yields
  E = 1 + a(1 - a^K)/(1 - a) tokens (1 + K at a = 1, Leviathan et al. 2023 Eq. 1); ITL = (K t_draft + t_verify)/E,
  t_verify the plain decode step; the draft's weights join the memory total.

Each configuration is solved by mlsysim's own ``ServingModel().solve`` (its registry objects, its Quantities) and by
ours (a registry key, our ``Models``/``Hardware`` namespace entry, or mlsysim's very object), and every one of
the 11 result fields is compared (numbers at 1e-9 relative, booleans exactly, None as None: ``members.equal``).
One derivative per path is checked against a central difference of mlsysim's own solve.
"""

from __future__ import annotations

from typing import Any

import pytest

from mlsysim_symbolic import InputError, MissingInputError, ServingScenario, load_derivations
from mlsysim_symbolic.errors import DerivationError
from mlsysim_symbolic.solvers import ServingModel

from .compare import derivative_value, our_entry, reference_entry
from .lazy import reference
from .members import compare_fields

mlsysim = reference("mlsysim")
ref_Q = reference("mlsysim.core.units", "Q_")
calibration = reference("mlsysim.engine.calibration")
ref_solvers = reference("mlsysim.engine.solvers")


def _theirs_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """mlsysim's keywords: its own workload, device and Quantity objects."""
    out = dict(kwargs)
    if "decode_hardware" in out:
        out["decode_hardware"] = reference_entry("Hardware", "Cloud", out["decode_hardware"])
    if "draft_model" in out:
        out["draft_model"] = reference_entry("Models", "Language", out["draft_model"])
    if "network_bandwidth" in out:
        out["network_bandwidth"] = ref_Q(out["network_bandwidth"])
    return out


def _our_kwargs(kwargs: dict[str, Any], how: str) -> dict[str, Any]:
    out = dict(kwargs)
    if "decode_hardware" in out:
        out["decode_hardware"] = our_entry(how, "Hardware", "Cloud", out["decode_hardware"])
    if "draft_model" in out:
        out["draft_model"] = our_entry(how, "Models", "Language", out["draft_model"])
    if "network_bandwidth" in out and how == "mlsysim":
        out["network_bandwidth"] = ref_Q(out["network_bandwidth"])    # mlsysim's own Quantity binds too
    return out


def _both(model: str, device: str, kwargs: dict[str, Any], how: str) -> tuple[Any, Any]:
    theirs = ref_solvers.ServingModel().solve(reference_entry("Models", "Language", model), reference_entry("Hardware", "Cloud", device),
                                              **_theirs_kwargs(kwargs))
    ours = ServingModel().solve(our_entry(how, "Models", "Language", model), our_entry(how, "Hardware", "Cloud", device),
                                **_our_kwargs(kwargs, how))
    return ours, theirs




# ---------------------------------------------------------------------------- disaggregated decode
# model, prefill device, keywords (decode device and draft by registry key), how ours names the entries.  The
# branches: GQA, MHA (GPT-2, Llama-2), latent attention (DeepSeek-V3), a mixture of experts, fp32/fp16/bf16/fp8/int4,
# the default 100 GB/s link and stated ones, a decode device with less memory than the prefill one (infeasible on
# the decode side only), prefix caching and chunked prefill, a decode device of the prefill device's own kind.
DISAGGREGATED = [
    ("Llama3_8B", "H100", {"seq_len": 2048, "decode_hardware": "A100"}, "key"),
    ("Llama3_70B", "H100", {"seq_len": 4096, "batch_size": 8, "precision": "fp8", "decode_hardware": "H200",
                            "network_bandwidth": "400 GB/s"}, "namespace"),
    ("Llama2_7B", "H100", {"seq_len": 1024, "batch_size": 4, "decode_hardware": "T4", "network_bandwidth": "25 GB/s"},
     "mlsysim"),
    ("DeepSeek_V3", "B200", {"seq_len": 8192, "precision": "fp8", "decode_hardware": "MI300X",
                             "network_bandwidth": "50 GB/s"}, "key"),
    ("Mixtral_8x7B", "H100", {"seq_len": 2048, "batch_size": 4, "precision": "int4", "prefill_chunk_tokens": 512,
                              "cached_prefix_len": 700, "decode_hardware": "A100_40GB", "network_bandwidth": "200 GB/s"},
     "namespace"),
    ("GPT2", "T4", {"seq_len": 1024, "batch_size": 2, "precision": "fp32", "efficiency": 0.35,
                    "decode_hardware": "V100", "network_bandwidth": "12.5 GB/s"}, "mlsysim"),
    ("Llama3_8B", "H100", {"seq_len": 8192, "batch_size": 16, "precision": "BF16", "decode_hardware": "H100",
                           "network_bandwidth": "50 GB/s"}, "key"),
]

# ---------------------------------------------------------------------------- speculative decoding
# The acceptance rate at mlsysim's default 0.7, at 0 (one token per step: pure overhead) and at 1 (1 + K tokens,
# the other branch of the expected-token count); drafts with grouped-query, multi-head and latent attention
# (DeepSeek-V3 drafting for Llama-3 405B exercises the draft's MLA cache); an infeasible target (405B at fp16 on an
# H100) whose draft weights add to the total; fp32/bf16/fp8/int8; prefix caching and chunked prefill beside a draft.
SPECULATIVE = [
    ("Llama3_70B", "H100", {"seq_len": 2048, "draft_model": "Llama3_8B"}, "key"),
    ("Llama3_70B", "H200", {"seq_len": 4096, "batch_size": 4, "precision": "fp8", "draft_model": "Llama2_7B",
                            "draft_acceptance_rate": 0.0}, "namespace"),
    ("Llama3_8B", "A100", {"seq_len": 1024, "draft_model": "GPT2_Small", "draft_acceptance_rate": 1.0}, "mlsysim"),
    ("Llama2_70B", "B200", {"seq_len": 2048, "batch_size": 8, "precision": "bf16", "draft_model": "Llama2_7B",
                            "draft_acceptance_rate": 0.55, "cached_prefix_len": 1024}, "key"),
    ("GPT2", "T4", {"seq_len": 1024, "precision": "fp32", "draft_model": "GPT2_Small", "draft_acceptance_rate": 0.9,
                    "prefill_chunk_tokens": 256}, "namespace"),
    ("Llama3_405B", "H100", {"seq_len": 4096, "draft_model": "Llama3_8B", "draft_acceptance_rate": 0.8}, "mlsysim"),
    ("Llama3_405B", "B200", {"seq_len": 2048, "batch_size": 2, "precision": "int8", "draft_model": "DeepSeek_V3",
                             "draft_acceptance_rate": 0.3}, "key"),
]

# ---------------------------------------------------------------------------- both together
# A draft speculating on the decode device: its tokens stream from the decode device's bandwidth and its weights
# count against the decode device's capacity.
BOTH = [
    ("Llama3_70B", "H100", {"seq_len": 2048, "draft_model": "Llama3_8B", "decode_hardware": "H200",
                            "network_bandwidth": "200 GB/s"}, "key"),
    ("Llama3_8B", "A100", {"seq_len": 1024, "draft_model": "GPT2_Small", "draft_acceptance_rate": 1.0,
                           "decode_hardware": "T4", "network_bandwidth": "25 GB/s"}, "mlsysim"),
    ("Mixtral_8x7B", "B200", {"seq_len": 4096, "batch_size": 16, "precision": "int8", "draft_model": "Llama2_7B",
                              "draft_acceptance_rate": 0.0, "decode_hardware": "MI300X"}, "namespace"),
    ("Llama2_70B", "H100", {"seq_len": 2048, "precision": "fp16", "draft_model": "Llama2_7B", "draft_acceptance_rate": 0.5,
                            "decode_hardware": "A100_40GB", "network_bandwidth": "100 GB/s"}, "key"),
]


@pytest.mark.parametrize(("model", "device", "kwargs", "how"), DISAGGREGATED,
                         ids=[f"{m}-{d}-{k['decode_hardware']}-{i}" for i, (m, d, k, _) in enumerate(DISAGGREGATED)])
def test_disaggregated_serving_equals_mlsysim(model, device, kwargs, how) -> None:
    ours, theirs = _both(model, device, kwargs, how)
    assert compare_fields(ours, theirs, f"ServingModel({model}, {device}, {kwargs})") == 11
    # the path is the one taken: a transfer on TTFT, the decode device's bandwidth in ITL
    assert ours.scenario.evaluate("kv_transfer_time").m_as("ms") > 0
    assert "BW_dh" in str(ours.equation("itl").rhs)


@pytest.mark.parametrize(("model", "device", "kwargs", "how"), SPECULATIVE,
                         ids=[f"{m}-{k['draft_model']}-{i}" for i, (m, _, k, _) in enumerate(SPECULATIVE)])
def test_speculative_serving_equals_mlsysim(model, device, kwargs, how) -> None:
    ours, theirs = _both(model, device, kwargs, how)
    assert compare_fields(ours, theirs, f"ServingModel({model}, {device}, {kwargs})") == 11
    assert str(ours.equation("itl").rhs) == "(K*t_dr + T_v)/E_tok"


@pytest.mark.parametrize(("model", "device", "kwargs", "how"), BOTH,
                         ids=[f"{m}-{k['draft_model']}-{k['decode_hardware']}-{i}" for i, (m, _, k, _) in enumerate(BOTH)])
def test_disaggregated_speculative_serving_equals_mlsysim(model, device, kwargs, how) -> None:
    ours, theirs = _both(model, device, kwargs, how)
    assert compare_fields(ours, theirs, f"ServingModel({model}, {device}, {kwargs})") == 11
    assert "BW_dh" in str(ours.scenario.equation("draft_token_time").rhs)


def test_the_configurations_cover_both_branches() -> None:
    """The tables reach what the brief asks: infeasible and feasible on each path, acceptance 0 and 1, MLA."""
    feasible = {path: {ServingModel().solve(m, d, **k).feasible for m, d, k, _ in table}
                for path, table in (("disaggregated", DISAGGREGATED), ("speculative", SPECULATIVE), ("both", BOTH))}
    assert feasible == {"disaggregated": {True, False}, "speculative": {True, False}, "both": {True, False}}
    rates = {k.get("draft_acceptance_rate", 0.7) for _, _, k, _ in SPECULATIVE + BOTH}
    assert {0.0, 1.0, 0.7} <= rates


def test_speculative_constants_are_mlsysims() -> None:
    """K is mlsysim's SPECULATIVE_GAMMA and the layer tax its FRAMEWORK_LAYER_TAX_MS (read from mlsysim here)."""
    s = ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="Llama3_8B").scenario
    assert s.inputs["speculative_gamma"] == calibration.SPECULATIVE_GAMMA == 4
    assert s.inputs["layer_tax"].m_as("ms") == calibration.FRAMEWORK_LAYER_TAX_MS


def test_expected_tokens_by_hand() -> None:
    """E = 1 + a(1 - a^K)/(1 - a) with K = 4, written out: a = 0.7 gives 1 + 0.7 + 0.49 + 0.343 + 0.2401 = 2.7731;
    a = 0 gives 1; a = 1 gives 1 + K = 5 (Leviathan et al. 2023, Eq. 1: E = (1 - a^(K+1))/(1 - a))."""
    s = ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="Llama3_8B").scenario
    assert s.evaluate("expected_tokens").m_as("") == pytest.approx(2.7731, rel=1e-12)
    assert s.variant(draft_acceptance_rate=0).evaluate("expected_tokens").m_as("") == 1
    assert s.variant(draft_acceptance_rate=1).evaluate("expected_tokens").m_as("") == 5
    assert s.variant(draft_acceptance_rate=0.5).evaluate("expected_tokens").m_as("") == pytest.approx((1 - 0.5**5) / 0.5, rel=1e-14)


def test_the_plain_path_is_unchanged() -> None:
    """Without decode_hardware and draft_model the equations are the one-device ones (no transfer, no draft)."""
    r = ServingModel().solve("Llama3_8B", "H100", seq_len=2048)
    assert str(r.equation("ttft")) == "Eq(T_TTFT, F_p/(R*eta) + N_c*t_d)"
    assert str(r.equation("itl")) == "Eq(T_ITL, L*t_L + (M_kv + W)/BW)"
    assert str(r.equation("total_memory_required")) == "Eq(M_tot, M_kv + W)"
    assert r.scenario.inputs["network_bandwidth"] is None


# ---------------------------------------------------------------------------- derivatives and inverse solves
def test_disaggregated_ttft_derivative_equals_mlsysim_central_difference() -> None:
    """∂TTFT/∂network_bandwidth (Llama-3 70B, H100 prefill, H200 decode, 4,096 tokens, batch 8) against mlsysim's
    central difference, and by hand: -M_kv/BW_n², M_kv = 2·80·8·128·4096·8·2 B = 10.737418240 GB."""
    bw, h = 100.0, 1e-3
    kwargs = {"seq_len": 4096, "batch_size": 8}
    r = ServingModel().solve("Llama3_70B", "H100", decode_hardware="H200", network_bandwidth=f"{bw} GB/s", **kwargs)
    ours = derivative_value(r, "ttft", "network_bandwidth").m_as("ms/(GB/s)")
    model, prefill, decode = (reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "H100"),
                              reference_entry("Hardware", "Cloud", "H200"))

    def ttft(b: float) -> float:
        return ref_solvers.ServingModel().solve(model, prefill, decode_hardware=decode, network_bandwidth=ref_Q(b, "GB/s"),
                                                **kwargs).ttft.m_as("ms")

    assert ours == pytest.approx((ttft(bw + h) - ttft(bw - h)) / (2 * h), rel=1e-6)
    kv_gb = 2 * 80 * 8 * 128 * 4096 * 8 * 2 / 1e9
    assert kv_gb == pytest.approx(10.73741824, rel=1e-12)
    assert ours == pytest.approx(-kv_gb / bw**2 * 1e3, rel=1e-12)      # ms per GB/s


def test_disaggregated_ttft_budget_is_an_inverse_solve() -> None:
    """The slowest link that keeps TTFT at mlsysim's TTFT over a 250 GB/s link is 250 GB/s (TTFT falls as the link
    widens, so the solve has one root), and mlsysim's own solve at the found bandwidth meets the budget."""
    kwargs = {"seq_len": 4096, "batch_size": 8}
    model, prefill, decode = (reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "H100"),
                              reference_entry("Hardware", "Cloud", "H200"))

    def ttft(b: float) -> float:
        return ref_solvers.ServingModel().solve(model, prefill, decode_hardware=decode, network_bandwidth=ref_Q(b, "GB/s"),
                                                **kwargs).ttft.m_as("ms")

    budget = ttft(250.0)
    r = ServingModel().solve("Llama3_70B", "H100", decode_hardware="H200", **kwargs)
    link = r.solve("ttft", "network_bandwidth", f"{budget!r} ms").value.m_as("GB/s")
    assert link == pytest.approx(250.0, rel=1e-6)
    assert ttft(link) == pytest.approx(budget, rel=1e-9)
    # the brief's question as written: the link that brings Llama-3 8B's TTFT (4,096 tokens, H100 -> A100) to 200 ms
    r8 = ServingModel().solve("Llama3_8B", "H100", seq_len=4096, decode_hardware="A100")
    link8 = r8.solve("ttft", "network_bandwidth", "200 ms").value
    theirs = ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_8B"), prefill, seq_len=4096,
                                              decode_hardware=reference_entry("Hardware", "Cloud", "A100"),
                                              network_bandwidth=ref_Q(link8.m_as("GB/s"), "GB/s"))
    assert theirs.ttft.m_as("ms") == pytest.approx(200, rel=1e-9)


def test_speculative_itl_derivative_equals_mlsysim_central_difference() -> None:
    """∂ITL/∂draft_acceptance_rate (Llama-3 70B with a Llama-3 8B draft on an H100, a = 0.7) against mlsysim's
    central difference; and its sign: a higher acceptance rate lowers ITL."""
    a, h = 0.7, 1e-6
    r = ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="Llama3_8B", draft_acceptance_rate=a)
    ours = derivative_value(r, "itl", "draft_acceptance_rate").m_as("ms")
    model, device, draft = (reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "H100"),
                            reference_entry("Models", "Language", "Llama3_8B"))

    def itl(x: float) -> float:
        return ref_solvers.ServingModel().solve(model, device, seq_len=2048, draft_model=draft,
                                                draft_acceptance_rate=x).itl.m_as("ms")

    assert ours == pytest.approx((itl(a + h) - itl(a - h)) / (2 * h), rel=1e-6)
    assert ours < 0


def test_speculative_itl_budget_is_an_inverse_solve() -> None:
    """The acceptance rate at which the drafted ITL reaches 20 ms, checked on mlsysim's own solve there."""
    r = ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="Llama3_8B")
    rate = float(r.solve("itl", "draft_acceptance_rate", "20 ms").value.m_as(""))
    assert 0 < rate < 1
    theirs = ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "H100"),
                                              seq_len=2048, draft_model=reference_entry("Models", "Language", "Llama3_8B"),
                                              draft_acceptance_rate=rate)
    assert theirs.itl.m_as("ms") == pytest.approx(20, rel=1e-6)


# ---------------------------------------------------------------------------- refusals (as mlsysim raises)
@pytest.mark.parametrize("rate", [-0.1, 1.2])
def test_acceptance_rate_outside_zero_one_is_refused_by_name(rate) -> None:
    with pytest.raises(ValueError, match="draft_acceptance_rate"):
        ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "H100"),
                                         seq_len=2048, draft_model=reference_entry("Models", "Language", "Llama3_8B"),
                                         draft_acceptance_rate=rate)
    with pytest.raises(InputError, match="draft_acceptance_rate"):
        ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="Llama3_8B", draft_acceptance_rate=rate)
    with pytest.raises(InputError, match="draft_acceptance_rate"):    # mlsysim checks it on every path
        ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_acceptance_rate=rate)


@pytest.mark.parametrize("decode", [None, "A100"])
@pytest.mark.parametrize("bandwidth", ["0 GB/s", "-5 GB/s"])
def test_network_bandwidth_not_positive_is_refused_by_name(decode, bandwidth) -> None:
    with pytest.raises(ValueError, match="network_bandwidth"):
        ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100"),
                                         seq_len=2048, network_bandwidth=ref_Q(bandwidth),
                                         decode_hardware=None if decode is None else reference_entry("Hardware", "Cloud", decode))
    with pytest.raises(InputError, match="network_bandwidth"):
        ServingModel().solve("Llama3_8B", "H100", seq_len=2048, network_bandwidth=bandwidth, decode_hardware=decode)


def test_network_bandwidth_without_decode_hardware_is_ignored_as_mlsysim() -> None:
    """mlsysim reads network_bandwidth only with decode_hardware: any positive value gives the one-device result."""
    theirs = ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_8B"), reference_entry("Hardware", "Cloud", "H100"),
                                              seq_len=2048, network_bandwidth=ref_Q("5 GB/s"))
    ours = ServingModel().solve("Llama3_8B", "H100", seq_len=2048, network_bandwidth="5 GB/s")
    assert compare_fields(ours, theirs, "network_bandwidth without decode_hardware") == 11
    assert ours == ServingModel().solve("Llama3_8B", "H100", seq_len=2048)


def test_a_draft_lacking_a_field_is_refused_by_name() -> None:
    """A draft without layers cannot be priced: refused, not decoded without speculation.  A draft that is not a
    transformer is refused by name (mlsysim fails on it: a CNNWorkload has no get_kv_cache_size)."""
    with pytest.raises(AttributeError, match="get_kv_cache_size"):
        ref_solvers.ServingModel().solve(reference_entry("Models", "Language", "Llama3_70B"), reference_entry("Hardware", "Cloud", "H100"),
                                         seq_len=2048, draft_model=mlsysim.Models.Vision.ResNet50)
    with pytest.raises(InputError, match="draft_model 'ResNet50' is a CNNWorkload; ServingModel takes TransformerWorkload"):
        ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="ResNet50")
    with pytest.raises(MissingInputError, match="draft_model 'tiny' cannot be priced: it does not state draft_layers"):
        ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model={"parameters": "1e9 param", "name": "tiny", "kind": "TransformerWorkload"})


# ---------------------------------------------------------------------------- the type itself (only_with)
def test_the_type_reads_network_bandwidth_only_with_decode_hardware() -> None:
    """ServingScenario: network_bandwidth (default 100 GB/s) is bound only with decode_hardware; given without it,
    it is refused by name; a variant that unsets decode_hardware drops it."""
    base = {"workload": "Llama3_8B", "hardware": "H100", "seq_len": 2048}
    plain = ServingScenario(**base)
    assert plain.inputs["network_bandwidth"] is None
    with pytest.raises(InputError, match="network_bandwidth is read only with decode_hardware"):
        ServingScenario(**base, network_bandwidth="50 GB/s")
    split = plain.variant(decode_hardware="A100")
    assert split.inputs["network_bandwidth"].m_as("GB/s") == 100
    # hand: 2·32·8·128·2048·2 B = 0.268435456 GB over 100 GB/s is 2.68435456 ms
    assert split.evaluate("kv_transfer_time").m_as("ms") == pytest.approx(2.68435456, rel=1e-12)
    assert split.ttft.m_as("ms") - plain.ttft.m_as("ms") == pytest.approx(2.68435456, rel=1e-9)
    back = split.variant(network_bandwidth="50 GB/s").variant(decode_hardware=None)
    assert back.inputs["network_bandwidth"] is None and back.ttft == plain.ttft


def test_only_with_is_checked_at_load(tmp_path) -> None:
    path = tmp_path / "gate.toml"
    head = '[types.T]\nsummary = "s"\n[types.T.inputs.x]\nunit = "GB"\n'
    path.write_text(head + '[types.T.inputs.y]\nunit = "GB"\ndefault = "1 GB"\nonly_with = "z"\n'
                    '[types.T.outputs.o]\nunit = "GB"\nequation = "x + y"\n')
    with pytest.raises(DerivationError, match="only_with 'z' must name another input"):
        load_derivations(path).check()
    path.write_text(head + '[types.T.inputs.y]\nkind = "choice"\noptions = ["a"]\nonly_with = "x"\n'
                    '[types.T.outputs.o]\nunit = "GB"\nequation = "x"\n')
    with pytest.raises(DerivationError, match="only_with"):
        load_derivations(path).check()
