"""Training operations: mlsysim's ``CheckpointModel``, ``ScalingModel``, ``ReliabilityModel``, ``DataModel``,
``CompressionModel`` (over the types of ``derivations/solvers_training.toml``) and ``OrchestrationModel`` (a shared
cluster as an M/D/1 queue of jobs, over ClusterQueueScenario).

>>> r = CheckpointModel().solve("Llama3_8B", "H100")
>>> r.checkpoint_size, r.storage_bottleneck
(<Quantity(112.42, 'gigabyte')>, False)
>>> ScalingModel().solve("5.76e23 flop").tokens_per_parameter
20
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..units import Q_
from .base import NONE_IS_DEFAULT, REQUIRED, WORKLOADS, Arg, Solver
from .fleets import series_inputs


class CheckpointModel(Solver):
    """mlsysim's ``CheckpointModel``: one checkpoint's size and write time, and the stall it costs (``CheckpointResult``)."""

    type_name = "CheckpointModelScenario"
    result_name = "CheckpointResult"
    arguments = (
        Arg("model", REQUIRED, kinds=WORKLOADS),
        Arg("hardware", REQUIRED),
        # mlsysim saves 4 B/param for any optimizer but "adam" (its adamw and none too): known names only here
        Arg("optimizer", "adam", lower=True, aliases={"adamw": "sgd", "none": "sgd"}),
        Arg("checkpoint_interval_hours", 4.0),
        Arg("n_writers", 1),
        Arg("filesystem_limit_gbs", 500.0),
    )


class ScalingModel(Solver):
    """mlsysim's ``ScalingModel``: the compute-optimal model size and tokens for a budget (``ScalingResult``).

    A budget with the dimension of time (mlsysim's budget in days) binds ``compute_budget_days``; one in FLOPs is
    converted to FLOPs first (mlsysim reads its magnitude in whatever unit it is given: a documented divergence)."""

    type_name = "ScalingModelScenario"
    result_name = "ScalingResult"
    arguments = (Arg("compute_budget", REQUIRED, indirect=True), Arg("target_model_size", None))

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        budget = values["compute_budget"]
        inputs["compute_budget_days" if _is_time(budget) else "compute_budget"] = budget


def _is_time(value: Any) -> bool:
    """Whether ``value`` (a Quantity, ours or mlsysim's, or its text) is a time."""
    dims = getattr(value, "dimensionality", None)
    if dims is None and isinstance(value, str):
        try:
            dims = Q_(value).dimensionality
        except Exception:   # not a quantity at all: the budget input's own check names what it expects
            return False
    return dims is not None and str(dims) == "[time]"


class ReliabilityModel(Solver):
    """mlsysim's ``ReliabilityModel``: a fleet's MTBF, failures over a job and the goodput left (``ReliabilityResult``)."""

    type_name = "ReliabilityModelScenario"
    result_name = "ReliabilityResult"
    arguments = (
        Arg("fleet", REQUIRED, convert=partial(series_inputs, "fleet")),
        Arg("job_duration_hours", REQUIRED),
        Arg("checkpoint_time_s", 60.0),
        Arg("avg_recovery_time_s", 300.0),
    )


class DataModel(Solver):
    """mlsysim's ``DataModel``: whether a device's storage and interconnect feed a data rate (``DataResult``)."""

    type_name = "DataModelScenario"
    result_name = "DataResult"
    arguments = (Arg("workload_data_rate", REQUIRED), Arg("hardware", REQUIRED))


class CompressionModel(Solver):
    """mlsysim's ``CompressionModel``: size, accuracy and speed of a quantized or pruned model (``CompressionResult``)."""

    type_name = "CompressionModelScenario"
    result_name = "CompressionResult"
    arguments = (
        Arg("model", REQUIRED, kinds=WORKLOADS),
        Arg("hardware", REQUIRED),
        Arg("method", "quantization"),
        Arg("target_bitwidth", 8),
        Arg("sparsity", 0.0),
        Arg("sparsity_type", "unstructured", none=NONE_IS_DEFAULT),   # mlsysim gives the default's result
        Arg("baseline_precision", "fp32", lower=True),
    )


class OrchestrationModel(Solver):
    """mlsysim's ``OrchestrationModel``: a shared cluster as one M/D/1 queue of jobs (``OrchestrationResult``); at a
    utilization of 1 or more the wait and the queue length are inf, as mlsysim's.

    >>> r = OrchestrationModel().solve(None, 1.5, 0.5)
    >>> r.cluster_utilization, r.avg_wait_time_days, r.avg_queue_length, r.is_stable
    (0.75, <Quantity(0.75, 'day')>, 1.125, True)
    >>> OrchestrationModel().solve(None, 3, 0.5).avg_wait_time_days
    <Quantity(inf, 'day')>
    """

    type_name = "ClusterQueueScenario"
    result_name = "OrchestrationResult"
    arguments = (
        Arg("fleet", REQUIRED, ignored=True, note="mlsysim requires a fleet and reads none of its fields"),
        Arg("arrival_rate_jobs_per_day", REQUIRED),
        Arg("avg_job_duration_days", REQUIRED),
    )
