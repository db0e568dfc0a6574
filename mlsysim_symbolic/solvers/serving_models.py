"""mlsysim's serving solver Models over the types of ``derivations/serving_models.toml`` (issue 35).

``WeightStreamingModel``: wafer-scale inference that keeps the KV cache on the wafer and streams each layer's weights
in (WeightStreamingScenario).  ``ContinuousBatchingModel``: static max-length KV reservation against PagedAttention
blocks on one device (ContinuousBatchingScenario).  ``ServingCapacityModel``: the fewest replicas that meet a P99
target at a QPS, over the other two Models' outputs and an M/M/c queue (ServingCapacityScenario).  ``TailLatencyModel`` is declared as data (``derivations/models/models.toml``); the
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
>>> from mlsysim_symbolic.solvers import ServingCapacityModel
>>> s = ServingCapacityModel().solve("Llama3_8B", "H100", 500, 20000, mean_request_tokens=500, max_batch_size=128)
>>> s.required_replicas, s.bottleneck, round(s.utilization, 4)
(4, 'Feasible', 0.9123)
>>> s.equation("queue_wait_p99")
Eq(t_99, f_K*Max(0, -log(q_99/Max(P_W, q_99))/(c*mu - lam)))
"""

from __future__ import annotations

from typing import Any

from .base import REQUIRED, TRANSFORMERS, Arg, Solver, SolverResult
from .serving import ServingModel

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


class ServingCapacityModel(Solver):
    """mlsysim's ``ServingCapacityModel``: the fewest replicas whose estimated P99 meets a target at a QPS (a
    ``ServingCapacityResult``).

    As mlsysim composes its Models, one solve runs ``ContinuousBatchingModel`` (the replica's paged concurrency and
    decode throughput) and ``ServingModel`` at that batch and the mean request length in whole tokens (TTFT, ITL),
    each a checked type of its own, and binds their outputs as the inputs of ServingCapacityScenario; it then scans
    replica counts 1, 2, ... up to ``max_replicas`` for the first at which ``meets_target`` holds, as mlsysim does,
    and returns the scenario at that count (``max_replicas`` where none meets it, or where the model does not fit).
    The solver computes no number: it passes outputs on and chooses the count.
    """

    type_name = "ServingCapacityScenario"
    result_name = "ServingCapacityResult"
    arguments = (
        Arg("model", REQUIRED, kinds=TRANSFORMERS, indirect=True, note=_KV_CACHE),
        Arg("hardware", REQUIRED, indirect=True),
        Arg("qps", REQUIRED),
        Arg("target_p99_latency_ms", REQUIRED, to="target_p99_latency"),
        Arg("max_seq_len", 2048, indirect=True),
        Arg("mean_request_tokens", None, indirect=True),
        Arg("output_tokens", 128),
        Arg("max_batch_size", 32, indirect=True),
        Arg("precision", "fp16", indirect=True),
        Arg("efficiency", 0.5, indirect=True),
        Arg("max_replicas", 1024),
        Arg("service_time_cv", 1.0),
    )

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        """A replica's batching and serving (ContinuousBatchingModel's and ServingModel's solves at mlsysim's
        arguments), their outputs as this type's inputs, and the replica count ``max_replicas`` until the scan."""
        batching = ContinuousBatchingModel().solve(
            values["model"], values["hardware"], values["max_seq_len"], values["mean_request_tokens"],
            values["max_batch_size"], precision=values["precision"], efficiency=values["efficiency"])
        planner = batching.scenario.planner
        serving = ServingModel().solve(
            values["model"], values["hardware"], seq_len=planner.member("request_seq_len"),
            batch_size=planner.member("active_batch_size"), precision=values["precision"],
            efficiency=values["efficiency"])
        inputs.update(replica_throughput=batching.throughput_tokens_per_sec, ttft=serving.ttft, itl=serving.itl,
                      active_batch_size=planner.member("active_batch_size"),
                      model_fits=bool(serving.feasible and batching.feasible), replicas=inputs["max_replicas"])

    def _solve(self, *args: Any, **kwargs: Any) -> SolverResult:
        """mlsysim's scan: the first replica count at which ``meets_target`` holds, else ``max_replicas``."""
        result = super()._solve(*args, **kwargs)
        scenario = result.scenario
        if not scenario.planner.member("servable"):
            return result
        last = int(scenario.inputs["replicas"])
        for replicas in range(1, last):
            candidate = scenario.variant(replicas=replicas)
            if candidate.planner.member("meets_target"):
                return SolverResult(candidate)
        return result
