"""mlsysim's ``NetworkFabric``, ``Node`` and ``Fleet`` constructible as mlsysim's code builds them, giving our checked
registry entries (``registry.Fabric``, ``Node``, ``Cluster``) that every solver reads as it reads ``Systems``' own.

The arguments are mlsysim 0.3.0's (keywords, its defaults: ``topology="fat-tree"``, ``oversubscription_ratio=1.0``,
``nics_per_node=1``, ``psus_per_node=2``, ``psu_redundancy=0``); a quantity may be ours, mlsysim's or text; a
reference may be our entry, its key, or mlsysim's own object (a ``HardwareNode`` for ``accelerator``).  What mlsysim
refuses is refused (a field it does not have, a count not whole, PSU redundancy beyond the supplies), with our error,
a ``ValueError`` as pydantic's ``ValidationError`` is.  ``isinstance(x, Fleet)`` holds for our clusters.

>>> from mlsysim_symbolic.solvers import ReliabilityModel
>>> ib = NetworkFabric(name="IB NDR", bandwidth="400 Gbps", latency="5 us")
>>> fleet = Fleet(name="Four DGX", node=Node(name="DGX", accelerator="H100", accelerators_per_node=8,
...               intra_node_bw="450 GB/s"), count=4, fabric=ib)
>>> fleet.total_accelerators, isinstance(fleet, Fleet), isinstance(ib, Fleet)
(32, True, False)
>>> ReliabilityModel().solve(fleet, job_duration_hours=24.0).fleet_mtbf.units
<Unit('hour')>
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError, did_you_mean
from ..interop import from_mlsysim
from ..registry import Cluster, Entry, Fabric, Hardware, SystemEntry, make_system_entry
from ..registry import Node as NodeEntry

#: Fields that may hold one of mlsysim's own objects, carried in as an entry of ours of this class.
CARRIED: dict[str, type[Entry]] = {"accelerator": Hardware}


class _SystemClass(type):
    """The metaclass: calling the class builds our checked entry (:func:`registry.make_system_entry`) from mlsysim's
    keywords; ``isinstance`` holds for entries of the registry class it stands for."""

    entry_class: type[SystemEntry]
    defaults: dict[str, Any]
    required: tuple[str, ...]

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, cls.entry_class)

    def __call__(cls, **fields: Any) -> Entry:
        known = {"name", "metadata", *cls.entry_class.schema, *cls.entry_class.text}
        unknown = sorted(set(fields) - known)
        if unknown:   # (mlsysim's pydantic models refuse a field they do not have with a ValueError too)
            raise InputError(f"{cls.__name__}(): unknown field {unknown[0]!r}" + did_you_mean(unknown[0], sorted(known))
                             + f" Fields: {', '.join(sorted(known))}")
        missing = [name for name in cls.required if fields.get(name) is None]
        if missing:
            raise InputError(f"{cls.__name__}(): missing {', '.join(missing)} (mlsysim requires them)")
        raw = {**cls.defaults, **fields}
        raw.pop("metadata", None)   # mlsysim's provenance record: a constructed entry states none
        name = str(raw["name"])
        for field_name, value in list(raw.items()):
            if isinstance(value, Entry) or value is None or isinstance(value, (str, int, float)):
                continue
            entry_class = CARRIED.get(field_name)
            converted = from_mlsysim(value, entry_class, f"{cls.__name__}.{field_name}") if entry_class else None
            if converted is not None:
                raw[field_name] = converted
        return make_system_entry(cls.entry_class, name, raw)


def _system_class(name: str, entry_class: type[SystemEntry], required: tuple[str, ...], defaults: dict[str, Any],
                  doc: str) -> type:
    made = _SystemClass(name, (), {"__doc__": doc})
    made.entry_class, made.required, made.defaults = entry_class, required, defaults
    return made


NetworkFabric = _system_class("NetworkFabric", Fabric, ("name", "bandwidth"),
                              {"topology": "fat-tree", "oversubscription_ratio": 1.0},
                              "mlsysim's NetworkFabric(name, topology='fat-tree', bandwidth, latency=None, "
                              "oversubscription_ratio=1.0): our Fabric entry.")
Node = _system_class("Node", NodeEntry, ("name", "accelerator", "accelerators_per_node", "intra_node_bw"),
                     {"nics_per_node": 1, "psus_per_node": 2, "psu_redundancy": 0},
                     "mlsysim's Node(name, accelerator, accelerators_per_node, intra_node_bw, nics_per_node=1, "
                     "psus_per_node=2, psu_redundancy=0, ...): our Node entry.")
Fleet = _system_class("Fleet", Cluster, ("name", "node", "count", "fabric"), {},
                      "mlsysim's Fleet(name, node, count, fabric, region=None, datacenter=None, mtbf_hours=None): our "
                      "Cluster entry.")

__all__ = ["Fleet", "NetworkFabric", "Node"]
