"""mlsysim's serving solver Models over the types of ``derivations/serving_models.toml`` (issue 35).

``WeightStreamingModel``: wafer-scale inference that keeps the KV cache on the wafer and streams each layer's weights
in (WeightStreamingScenario).  ``ContinuousBatchingModel``: static max-length KV reservation against PagedAttention
blocks on one device (ContinuousBatchingScenario).  ``TailLatencyModel`` is declared as data (``derivations/models/models.toml``); the
Models here are hand-written because mlsysim reads their precision case-insensitively (``lower``).

>>> from mlsysim_symbolic.solvers import WeightStreamingModel
>>> r = WeightStreamingModel().solve("Llama3_70B", "Cerebras_CS3", seq_len=2048, batch_size=32)
>>> r.feasible, r.bottleneck, r.optimal_batch_size
(True, 'Interconnect-Bandwidth-Bound', 52083)
>>> r.equation("layer_injection_time")
Eq(t_inj, P_L*b/BW_i)
>>> from mlsysim_symbolic.solvers import ContinuousBatchingModel
>>> c = ContinuousBatchingModel().solve("Llama3_8B", "H100", 8192, mean_request_tokens=1000, max_batch_size=256)
>>> c.max_active_requests, c.static_max_active_requests, round(c.speedup_vs_static, 3)
(256, 65, 1.951)
>>> c.equation("static_max_active_requests")
Eq(N_s, Max(0, Min(B_max, floor(T_b/S_max))))
"""

from __future__ import annotations

from .base import REQUIRED, TRANSFORMERS, Arg, Solver

#: Why these Models take transformers only.
_KV_CACHE = ("its equations hold a KV cache of layers x KV heads x head width per token, which only mlsysim's "
             "transformer workloads state")


class WeightStreamingModel(Solver):
    """mlsysim's ``WeightStreamingModel``: per-layer compute against weight injection on a wafer-scale device (a
    ``WeightStreamingResult``)."""

    type_name = "WeightStreamingScenario"
    result_name = "WeightStreamingResult"
    arguments = (
        Arg("model", REQUIRED, to="workload", kinds=TRANSFORMERS, note=_KV_CACHE),
        Arg("hardware", REQUIRED),
        Arg("seq_len", REQUIRED),
        Arg("batch_size", 1),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
        Arg("phase", "decode"),
    )


class ContinuousBatchingModel(Solver):
    """mlsysim's ``ContinuousBatchingModel``: static max-length KV reservation against PagedAttention blocks (a
    ``ContinuousBatchingResult``)."""

    type_name = "ContinuousBatchingScenario"
    result_name = "ContinuousBatchingResult"
    arguments = (
        Arg("model", REQUIRED, to="workload", kinds=TRANSFORMERS, note=_KV_CACHE),
        Arg("hardware", REQUIRED),
        Arg("max_seq_len", REQUIRED),
        Arg("mean_request_tokens", None, to="mean_tokens"),
        Arg("max_batch_size", 1),
        Arg("page_size", 16),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
    )
    requires = ("mean_ok",)
