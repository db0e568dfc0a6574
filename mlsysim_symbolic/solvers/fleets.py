"""What mlsysim's fleet-level solvers read of a ``Fleet``: its nodes, each node's devices and series parts.

A fleet argument is a cluster of ours (its key ``"Research_256"`` or the entry ``Systems.Clusters.Research_256``,
``derivations/systems.toml``), mlsysim's own ``Fleet`` (``mlsysim.Systems.Clusters.Research_256``), or any object
with its fields (``count``, ``node.accelerator``, ``node.accelerators_per_node`` ...); anything else is refused by name.

>>> from types import SimpleNamespace as NS
>>> fleet = NS(count=32, node=NS(accelerator="H100", accelerators_per_node=8, nics_per_node=8, series_psus=2))
>>> sorted(node_inputs("fleet", fleet).items())
[('accelerators_per_node', 8), ('hardware', 'H100'), ('nodes', 32)]
>>> sorted(series_inputs("fleet", "Research_256").items())
[('accelerators_per_node', 8), ('nics_per_node', 8), ('node_count', 32), ('series_psus', 0)]
>>> node_inputs("fleet", "Research_265")
Traceback (most recent call last):
...
mlsysim_symbolic.errors.UnknownNameError: fleet: unknown cluster 'Research_265'; did you mean 'Research_256', ...
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from ..errors import InputError, UnknownNameError
from ..registry import Entry, clusters, fabrics


def _keyed(registry: Any, argument: str, value: Any) -> Any:
    """``value`` itself, or the entry of ``registry`` its text names (refused by name, with close matches)."""
    if isinstance(value, str):
        try:
            return registry()[value]
        except UnknownNameError as exc:
            raise exc.within(argument) from None
    return value


def cluster_of(argument: str, fleet: Any) -> Any:
    """``fleet`` itself, or the cluster entry its text names (refused by name, with close matches, when unknown)."""
    return _keyed(clusters, argument, fleet)


def fabric_of(argument: str, fabric: Any) -> Any:
    """``fabric`` itself, or the fabric entry its text names (refused by name, with close matches, when unknown)."""
    return _keyed(fabrics, argument, fabric)


def _node(argument: str, fleet: Any, *fields: str) -> Any:
    node = getattr(fleet, "node", None)
    if getattr(fleet, "count", None) is None or node is None or any(getattr(node, f, None) is None for f in fields):
        raise InputError(f"{argument}: expected mlsysim's Fleet (count, {', '.join('node.' + f for f in fields)}) or a "
                         f"cluster of ours (Systems.Clusters, or its key); got {fleet!r:.80}")
    return node


def _read_once(read: Callable[[str, Any], dict[str, Any]]) -> Callable[[str, Any], dict[str, Any]]:
    """``read`` of a cluster entry of ours done once (entries are immutable; every solve names the same few), with
    the entry kept so its id is never reused under us; mlsysim's objects and other fleets are read each time."""
    found: dict[int, tuple[Entry, dict[str, Any]]] = {}

    @wraps(read)
    def once(argument: str, fleet: Any) -> dict[str, Any]:
        fleet = cluster_of(argument, fleet)
        if not isinstance(fleet, Entry):
            return read(argument, fleet)
        hit = found.get(id(fleet))
        if hit is None or hit[0] is not fleet:
            hit = found[id(fleet)] = (fleet, read(argument, fleet))
        return dict(hit[1])

    return once


@_read_once
def node_inputs(argument: str, fleet: Any) -> dict[str, Any]:
    """The device, the node count and the devices per node of ``fleet`` (what energy and cost scale with)."""
    node = _node(argument, fleet, "accelerator", "accelerators_per_node")
    return {"hardware": node.accelerator, "nodes": fleet.count, "accelerators_per_node": node.accelerators_per_node}


@_read_once
def series_inputs(argument: str, fleet: Any) -> dict[str, Any]:
    """The node count and each node's parts in series (devices, NICs, PSUs): what the fleet's MTBF is made of."""
    node = _node(argument, fleet, "accelerators_per_node", "nics_per_node", "series_psus")
    return {"node_count": fleet.count, "accelerators_per_node": node.accelerators_per_node,
            "nics_per_node": node.nics_per_node, "series_psus": node.series_psus}


def site_of(fleet: Any) -> Any:
    """The fleet's own datacenter, else its region (mlsysim's fallbacks before the US average); None when neither."""
    fleet = cluster_of("fleet", fleet)
    return getattr(fleet, "datacenter", None) or getattr(fleet, "region", None)
