"""LLM serving: mlsysim's ``ServingModel`` over ServingScenario (TTFT from prefill, ITL from streaming weights and KV).

>>> from mlsysim_symbolic.solvers import ServingModel
>>> r = ServingModel().solve("Llama3_8B", "H100", seq_len=2048)
>>> r.feasible, r.prefill_chunks
(True, 1)
>>> r.equation("itl")
Eq(T_itl, L*t_L + (M_kv + W)/BW)
"""

from __future__ import annotations

from ..units import Q_
from .base import REQUIRED, Arg, Solver

_DISAGGREGATED = "prefill/decode disaggregation (decode_hardware, its KV transfer over network_bandwidth) is not ported"
_SPECULATIVE = "speculative decoding (draft_model, draft_acceptance_rate) is not ported"


class ServingModel(Solver):
    """mlsysim's ``ServingModel``: time to first token, inter-token latency and memory (a ``ServingResult``)."""

    type_name = "ServingScenario"
    result_name = "ServingResult"
    arguments = (
        Arg("model", REQUIRED, to="workload"),
        Arg("hardware", REQUIRED),
        Arg("seq_len", REQUIRED),
        Arg("batch_size", 1),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
        Arg("decode_hardware", None, fixed=True, note=_DISAGGREGATED),
        Arg("network_bandwidth", Q_("100 GB/s"), ignored=True, note="mlsysim reads it only with decode_hardware"),
        Arg("draft_model", None, fixed=True, note=_SPECULATIVE),
        Arg("draft_acceptance_rate", 0.7, ignored=True, note="mlsysim reads it only with draft_model"),
        Arg("cached_prefix_len", 0),
        Arg("prefill_chunk_tokens", None),
    )
    requires = ("prefix_ok",)


class InferenceScalingModel(Solver):
    """mlsysim's ``InferenceScalingModel``: latency, tokens and energy of reasoning steps at inference
    (``InferenceScalingResult``, its ``serving_detail`` the ServingModel result of one step)."""

    type_name = "InferenceScalingScenario"
    result_name = "InferenceScalingResult"
    arguments = (
        Arg("model", REQUIRED),
        Arg("hardware", REQUIRED),
        Arg("reasoning_steps", 8),
        Arg("context_length", 2048),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
    )
