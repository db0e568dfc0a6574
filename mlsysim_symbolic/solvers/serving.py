"""LLM serving: mlsysim's ``ServingModel`` over ServingScenario (TTFT from prefill, ITL from streaming weights and KV).

Both of ServingModel's other paths are the same type's equations: ``decode_hardware`` (prefill/decode disaggregation:
the KV cache crosses ``network_bandwidth`` before decoding, and decode reads from the decode device's memory) and
``draft_model`` (speculative decoding: K draft tokens and one verification step per expected accepted token).

>>> from mlsysim_symbolic.solvers import ServingModel
>>> r = ServingModel().solve("Llama3_8B", "H100", seq_len=2048)
>>> r.feasible, r.prefill_chunks
(True, 1)
>>> r.equation("itl")
Eq(T_ITL, L*t_L + (M_kv + W)/BW)
>>> d = ServingModel().solve("Llama3_8B", "H100", seq_len=2048, decode_hardware="A100")
>>> d.equation("ttft")
Eq(T_TTFT, F_p/(R*eta) + N_c*t_d + t_x)
>>> d.scenario.equation("kv_transfer_time")
Eq(t_x, M_kv/BW_n)
>>> d.solve("ttft", "network_bandwidth", "72 ms").value     # the link that keeps TTFT at 72 ms
<Quantity(260.71075, 'gigabyte / second')>
>>> s = ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model="Llama3_8B")
>>> s.equation("itl")
Eq(T_ITL, (K*t_dr + T_v)/E_tok)
"""

from __future__ import annotations

from typing import Any

from ..catalog import catalog
from ..errors import MissingInputError
from ..spec.kinds import checked
from ..units import Q_
from .base import REQUIRED, TRANSFORMERS, Arg, Solver

#: Why serving takes transformers only.
_KV_CACHE = ("its equations decode with a KV cache of layers x KV heads x head width per token (mlsysim's "
             "get_kv_cache_size, which only its transformer workloads have)")


class ServingModel(Solver):
    """mlsysim's ``ServingModel``: time to first token, inter-token latency and memory (a ``ServingResult``)."""

    type_name = "ServingScenario"
    result_name = "ServingResult"
    arguments = (
        Arg("model", REQUIRED, to="workload", kinds=TRANSFORMERS, note=_KV_CACHE),
        Arg("hardware", REQUIRED),
        Arg("seq_len", REQUIRED),
        Arg("batch_size", 1),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
        Arg("decode_hardware", None),
        Arg("network_bandwidth", Q_("100 GB/s")),
        Arg("draft_model", None, kinds=TRANSFORMERS,
            note="a draft model prices its own KV cache (mlsysim's get_kv_cache_size, on its transformer workloads)"),
        Arg("draft_acceptance_rate", 0.7),
        Arg("cached_prefix_len", 0),
        Arg("prefill_chunk_tokens", None),
    )
    requires = ("prefix_ok",)

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        """``network_bandwidth`` is read only with ``decode_hardware``; without it, it is still checked (mlsysim
        refuses a bandwidth that is not positive on every path) and left out."""
        if values["decode_hardware"] is None:
            var = catalog().types[self.type_name].inputs["network_bandwidth"].variable
            checked(var, inputs.pop("network_bandwidth"), "ServingModel.solve(): network_bandwidth")

    def _scenario(self, values: dict[str, Any]) -> Any:
        """The scenario of one solve; a draft model lacking a field its token time needs is refused by name (never
        decoded without speculation)."""
        scenario = super()._scenario(values)
        draft = scenario.inputs.get("draft_model")
        if draft is not None and not scenario.planner.available(scenario.type.output("draft_token_time").variable.symbol):
            fields = scenario.type.inputs["draft_model"].attributes.values()
            set_ = scenario.planner.bound([v.symbol for v in fields])
            missing = [v.name for v in fields if v.symbol not in set_ and v.name not in _LATENT_ONLY]
            raise MissingInputError(f"ServingModel.solve(): draft_model {draft.key!r} cannot be priced: it does not "
                                    f"state {', '.join(missing)}")
        return scenario


#: Draft fields only a latent-attention draft states (the draft's KV cache takes the other form without them).
_LATENT_ONLY = ("draft_kv_lora_rank", "draft_qk_rope_head_dim")


class InferenceScalingModel(Solver):
    """mlsysim's ``InferenceScalingModel``: latency, tokens and energy of reasoning steps at inference
    (``InferenceScalingResult``, its ``serving_detail`` the ServingModel result of one step)."""

    type_name = "InferenceScalingScenario"
    result_name = "InferenceScalingResult"
    arguments = (
        Arg("model", REQUIRED, kinds=TRANSFORMERS, note=_KV_CACHE),
        Arg("hardware", REQUIRED),
        Arg("reasoning_steps", 8),
        Arg("context_length", 2048),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
    )
