"""mlsysim's ``WorkloadLeverModel``, ``OrchestrationModel`` and ``MoERoutingModel`` over the types of
``derivations/solvers_models2.toml``.

Each Solver only reshapes mlsysim's arguments into the type's inputs (a dict of per-workload dicts into one map per
term); every number of the result is an output of the checked type.

>>> from mlsysim_symbolic.solvers import WorkloadLeverModel
>>> r = WorkloadLeverModel().solve({"support": {"model": 0.03, "environment": 0.01, "assessment": 0.01,
...                                             "handoff": 4, "acceptance": 0.85}}, 0.1)
>>> row = r.rows["support"]
>>> round(row.human, 6), row.largest_term, round(row.acceptance_gain, 4)
(0.6, 'human', 0.6559)
>>> r.scenario.equation("human_term")
Eq(H_w, H + h*(1 - p))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError, MissingInputError
from .base import REQUIRED, Arg, Solver
from .fleets import cluster_of, fabric_of

#: The terms every workload of WorkloadLeverModel states (mlsysim reads each as ``w[key]``), by input of ours.
_LEVER_TERMS = ("model", "environment", "assessment", "acceptance")


def lever_inputs(workloads: Any) -> dict[str, Any]:
    """mlsysim's ``{name: {"model": ..., "environment": ..., "assessment": ..., "acceptance": ..., "human" or
    "handoff": ...}}`` as one map per input of WorkloadLeverScenario.  A workload stating a ``handoff`` (not None) is
    charged it per rejected attempt and its ``human`` is not read (0 here), as mlsysim's; one without states
    ``human`` (its handoff is 0).  A missing term is refused by name (mlsysim raises KeyError).

    >>> lever_inputs({"a": {"model": 1, "environment": 2, "assessment": 3, "human": 4, "acceptance": 0.5}})["handoff"]
    {'a': 0}
    """
    if not isinstance(workloads, Mapping):
        raise InputError(f"WorkloadLeverModel.solve(): workloads must be a dict of workload name -> dict of its terms; "
                         f"got {type(workloads).__name__}")
    maps: dict[str, dict[Any, Any]] = {k: {} for k in (*_LEVER_TERMS, "human", "handoff")}
    for name, terms in workloads.items():
        if not isinstance(terms, Mapping):
            raise InputError(f"WorkloadLeverModel.solve(): workloads[{name!r}] must be a dict of its terms; "
                             f"got {type(terms).__name__}")
        handoff = terms.get("handoff")
        wanted = (*_LEVER_TERMS, *(() if handoff is not None else ("human",)))
        missing = [k for k in wanted if k not in terms]
        if missing:
            raise MissingInputError(f"WorkloadLeverModel.solve(): workloads[{name!r}] states no {', '.join(missing)}"
                                    + ("" if handoff is not None or "human" not in missing
                                       else " (a human cost per attempt, or a handoff price per rejected attempt)"))
        for key in _LEVER_TERMS:
            maps[key][name] = terms[key]
        maps["human"][name] = 0 if handoff is not None else terms["human"]
        maps["handoff"][name] = handoff if handoff is not None else 0
    return maps


class WorkloadLeverModel(Solver):
    """mlsysim's ``WorkloadLeverModel``: cost per accepted task by workload and three levers on it
    (``WorkloadLeverResult``, its ``rows`` a dict of ``WorkloadLeverRow`` by workload)."""

    type_name = "WorkloadLeverScenario"
    result_name = "WorkloadLeverResult"
    arguments = (
        Arg("workloads", REQUIRED, convert=lever_inputs),
        Arg("acceptance_gain", REQUIRED),
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


def fabric_of_fleet(fleet: Any) -> dict[str, Any]:
    """What MoERoutingModel reads of a fleet: its fabric's link bandwidth, oversubscription and latency (a fabric
    stating no latency leaves the type's default, InfiniBand NDR's 5 us, as mlsysim's ``_inter_node_latency``).

    >>> sorted(fabric_of_fleet("Research_256"))
    ['fabric_bandwidth', 'fabric_latency', 'oversubscription_ratio']
    """
    fleet = cluster_of("fleet", fleet)
    fabric = fabric_of("fleet.fabric", getattr(fleet, "fabric", None))
    if getattr(fabric, "bandwidth", None) is None:
        raise InputError(f"fleet: expected mlsysim's Fleet (its fabric's bandwidth, oversubscription_ratio, latency) or "
                         f"a cluster of ours (Systems.Clusters, or its key); got {fleet!r:.80}")
    inputs = {"fabric_bandwidth": fabric.bandwidth,
              "oversubscription_ratio": getattr(fabric, "oversubscription_ratio", None) or 1.0}
    if getattr(fabric, "latency", None) is not None:
        inputs["fabric_latency"] = fabric.latency
    return inputs


class MoERoutingModel(Solver):
    """mlsysim's ``MoERoutingModel``: effective active experts and parameters under routing imbalance, the routed
    bytes that cross expert-parallel ranks, and the all-to-all over a fleet's fabric (``MoERoutingResult``).

    >>> r = MoERoutingModel().solve("Mixtral_8x7B", 8, 4096, ep_size=8, routing_imbalance_factor=1.25,
    ...                             fleet="Research_256")
    >>> r.effective_active_experts, r.token_dispatch_bytes
    (2.5, <Quantity(587.20256, 'megabyte')>)
    >>> r.equation("all_to_all_latency")
    Eq(T_a2a, alpha*(e - 1) + M*r_os*(e - 1)/(B_fab*e))
    >>> MoERoutingModel().solve("Mixtral_8x7B", 8, 4096, ep_size=8).all_to_all_latency is None
    True
    """

    type_name = "MoeRoutingScenario"
    result_name = "MoERoutingResult"
    arguments = (
        Arg("model", REQUIRED, kinds=("SparseTransformerWorkload",),
            note="mlsysim reads the model's experts and active experts per token, which only its sparse transformers have"),
        Arg("batch_size", REQUIRED),
        Arg("seq_len", REQUIRED),
        Arg("precision", "fp16", lower=True),
        Arg("ep_size", 1),
        Arg("routing_imbalance_factor", 1.0),
        Arg("fleet", None, convert=fabric_of_fleet),
    )
