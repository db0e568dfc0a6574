"""Fleets and fabrics: mlsysim's ``DistributedModel``, ``TopologyModel``, ``TransformationModel``, ``NetworkRooflineModel``, ``MoERoutingModel`` and
``ResponsibleEngineeringModel``, over the types of ``derivations/solvers_distributed.toml``.

A fleet is a cluster of ours and a fabric a fabric of ours (``Systems.Clusters.Research_256``,
``Systems.Fabrics.InfiniBand_NDR``, or their keys: ``derivations/systems.toml``), mlsysim's ``Fleet`` and
``NetworkFabric`` (``mlsysim.Systems.Clusters.Research_256``), or any object with their fields.

>>> from types import SimpleNamespace as NS
>>> ndr = NS(bandwidth="400 Gbps", oversubscription_ratio=1.0)
>>> r = TopologyModel().solve(ndr, "fat_tree", 64)
>>> r.bisection_bw_fraction, r.effective_bw.to("GB/s")
(1.0, <Quantity(50.0, 'gigabyte / second')>)
>>> TopologyModel().solve("InfiniBand_NDR_Oversub2to1", "fat_tree", 64).effective_bw.to("GB/s")
<Quantity(25.0, 'gigabyte / second')>
>>> TopologyModel().solve("InfiniBand_NRD")
Traceback (most recent call last):
...
mlsysim_symbolic.errors.UnknownNameError: fabric: unknown fabric 'InfiniBand_NRD'; did you mean 'InfiniBand_NDR', ...
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..units import Q_
from .base import REQUIRED, TRANSFORMERS, WORKLOADS, Arg, Solver
from .fleets import cluster_of, fabric_of


def _fabric(argument: str, fabric: Any) -> Any:
    fabric = fabric_of(argument, fabric)
    if getattr(fabric, "bandwidth", None) is None:
        raise InputError(f"{argument}: expected mlsysim's NetworkFabric (bandwidth, oversubscription_ratio) or a fabric of "
                         f"ours (Systems.Fabrics, or its key); got {fabric!r:.80}")
    return fabric


def fabric_inputs(fabric: Any) -> dict[str, Any]:
    """What TopologyModel reads of a fabric: its link bandwidth and oversubscription."""
    fabric = _fabric("fabric", fabric)
    return {"bandwidth": fabric.bandwidth, "oversubscription_ratio": getattr(fabric, "oversubscription_ratio", None) or 1.0}


def fleet_inputs(fleet: Any) -> dict[str, Any]:
    """What DistributedModel reads of a fleet: the device, nodes, devices and bandwidth per node, the fabric (its
    latency, when the fabric states none, is left to the type's default: InfiniBand NDR's, as mlsysim's)."""
    fleet = cluster_of("fleet", fleet)
    node = getattr(fleet, "node", None)
    if getattr(fleet, "count", None) is None or getattr(node, "accelerator", None) is None or getattr(fleet, "fabric", None) is None:
        raise InputError(f"fleet: expected mlsysim's Fleet (count, node.accelerator, fabric) or a cluster of ours "
                         f"(Systems.Clusters, or its key); got {fleet!r:.80}")
    inputs = {"accelerator": node.accelerator, "nodes": fleet.count, "accelerators_per_node": node.accelerators_per_node,
              "intra_node_bw": node.intra_node_bw, **_fleet_fabric(_fabric("fleet.fabric", fleet.fabric))}
    return {k: v for k, v in inputs.items() if v is not None}


def _fleet_fabric(fabric: Any) -> dict[str, Any]:
    """A fleet's fabric as the inputs that read it: link bandwidth, oversubscription (1 when unstated) and latency
    (left to the type's default, InfiniBand NDR's, when the fabric states none, as mlsysim's)."""
    inputs = {"fabric_bandwidth": fabric.bandwidth,
              "oversubscription_ratio": getattr(fabric, "oversubscription_ratio", None) or 1.0}
    if getattr(fabric, "latency", None) is not None:
        inputs["fabric_latency"] = fabric.latency
    return inputs


def per_sample_bytes(value: Any) -> dict[str, Any]:
    """mlsysim's ``sample_size_bytes`` (bytes, of one sample) as our bytes per sample."""
    size = Q_(value) if isinstance(value, str) else value
    try:
        return {"sample_size_bytes": Q_(float(size.m_as("B")), "B/sample")}
    except Exception:   # not a quantity of bytes: the input's own check names what it expects
        return {"sample_size_bytes": value}


class DistributedModel(Solver):
    """mlsysim's ``DistributedModel``: one 3-D parallel (DP x TP x PP, with EP) training step on a fleet
    (``DistributedResult``, its ``node_profile`` the PerformanceProfile of one node's share).  A layout whose
    degrees do not divide the fleet is refused, as mlsysim refuses it."""

    type_name = "DistributedTrainingStepScenario"
    result_name = "DistributedResult"
    requires = ("layout_divides",)
    arguments = (
        Arg("model", REQUIRED, kinds=TRANSFORMERS,
            note="the port is mlsysim's transformer step (TP x PP x EP replicas, training memory, per-token work); "
                 "its path for other workloads (one device's training roofline per replica, Engine.solve) is not ported"),
        Arg("fleet", REQUIRED, convert=fleet_inputs),
        Arg("batch_size", 1),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
        Arg("tp_size", 1),
        Arg("pp_size", 1),
        Arg("ep_size", 1),
        Arg("v_stages", 1),
        Arg("microbatch_count", 1),
        Arg("topology_override", None, ignored=True, note="mlsysim accepts it and reads it nowhere"),
        Arg("zero_stage", 0),
        Arg("is_lora", False, none=False),
        Arg("activation_recomputation", False, none=False),
        Arg("overlap_comm", False, none=False),
        Arg("overlap_efficiency", 0.85),
        Arg("congestion_factor", 1.0),
        Arg("straggler_factor", 1.0),
        Arg("moe_routing_imbalance_factor", 1.0),
        Arg("gradient_accumulation_steps", 1),
        Arg("seq_len", 2048),
    )


class TopologyModel(Solver):
    """mlsysim's ``TopologyModel``: bisection and effective bandwidth and mean hops of a topology (``TopologyResult``)."""

    type_name = "NetworkTopologyScenario"
    result_name = "TopologyResult"
    arguments = (Arg("fabric", REQUIRED, convert=fabric_inputs), Arg("topology", "fat_tree"), Arg("num_nodes", 64))


class TransformationModel(Solver):
    """mlsysim's ``TransformationModel``: whether CPU-side transforms starve the accelerator (``TransformationResult``)."""

    type_name = "TransformationWallScenario"
    result_name = "TransformationResult"
    arguments = (
        Arg("batch_size", REQUIRED),
        Arg("sample_size_bytes", REQUIRED, convert=per_sample_bytes),
        Arg("cpu_throughput", REQUIRED),
        Arg("accelerator_step_time", REQUIRED),
    )


class ResponsibleEngineeringModel(Solver):
    """mlsysim's ``ResponsibleEngineeringModel``: the training-time cost of differential privacy and subgroup
    evaluation (``ResponsibleEngineeringResult``)."""

    type_name = "ResponsibleEngineeringScenario"
    result_name = "ResponsibleEngineeringResult"
    arguments = (
        Arg("base_training_time", REQUIRED),
        Arg("epsilon", 1.0),
        Arg("delta", 1e-05),
        Arg("min_subgroup_prevalence", 0.01),
    )


#: What NetworkRooflineScenario reads of a fleet (mlsysim's NetworkRooflineModel reads no NVLink or fabric latency).
_ROOFLINE_FLEET = ("accelerator", "nodes", "accelerators_per_node", "fabric_bandwidth", "oversubscription_ratio")


def roofline_fleet_inputs(fleet: Any) -> dict[str, Any]:
    """What NetworkRooflineModel reads of a fleet: the device and how many, the fabric's bandwidth and oversubscription."""
    inputs = fleet_inputs(fleet)
    return {k: inputs[k] for k in _ROOFLINE_FLEET if k in inputs}


class NetworkRooflineModel(Solver):
    """mlsysim's ``NetworkRooflineModel``: the fleet-scale roofline of one data-parallel step, compute against the
    gradient synchronization over the fabric's bisection (a ``PerformanceProfile``: ``latency_memory`` holds the
    network ceiling, ``arithmetic_intensity`` the communication intensity).

    >>> r = NetworkRooflineModel().solve("Llama3_70B", "Research_256")
    >>> r.bottleneck, r.arithmetic_intensity, r.latency_memory.to("s")
    ('Network', <Quantity(1.5, 'flop / byte')>, <Quantity(22.592, 'second')>)
    >>> r.equation("latency_memory"), r.scenario.equation("network_ridge")
    (Eq(T_n, S/B_bis), Eq(I_net, R_N/B_bis))

    By hand: 2 x 70.6e9 parameters x 2 B = 282.4 GB over 100GbE's 12.5 GB/s is 22.592 s; CI = 6P / (2P x 2 B).
    """

    type_name = "NetworkRooflineScenario"
    result_name = "PerformanceProfile"
    arguments = (
        Arg("model", REQUIRED, kinds=WORKLOADS),
        Arg("fleet", REQUIRED, convert=roofline_fleet_inputs),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
    )

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        """mlsysim looks the accelerator's rate up by the precision as written (``precision_flops.get("FP8", peak)``)
        before it reads the bytes case-blind: a spelling in capitals whose lower case names a rate other than the
        peak would take the peak there.  That is refused by name (the rate of ours is the precision's own) rather
        than answered with another number than mlsysim's; any spelling whose rate is the same is answered."""
        given = values["precision"]
        if not isinstance(given, str) or given == given.lower():
            return
        compute = getattr(inputs.get("accelerator"), "compute", None)
        table = getattr(compute, "precision_flops", None) or {}
        rate = table.get(given.lower())
        if rate is not None and given not in table and rate != compute.peak_flops:
            raise InputError(f"NetworkRooflineModel.solve(): precision={given!r}: mlsysim reads the accelerator's rate "
                             f"by the text as written and takes its peak ({compute.peak_flops}) for it, not the "
                             f"{given.lower()} rate ({rate}); write precision={given.lower()!r}")


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
    return _fleet_fabric(fabric)


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
