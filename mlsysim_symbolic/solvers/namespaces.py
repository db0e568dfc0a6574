"""mlsysim's registry namespaces over our registries: ``Models.Language.Llama3_8B``, ``Hardware.Cloud.A100``,
``Systems.Clusters.Research_256``.

Each group lists the entries of ``derivations/workloads.toml`` (by their ``registry`` field) or
``derivations/hardware.toml`` (by their ``category`` field) under mlsysim 0.3.0's group names, and
``Systems.Fabrics``, ``Systems.Nodes`` and ``Systems.Clusters`` the three tables of ``derivations/systems.toml``,
so code written against mlsysim reads the same.  An entry we do not have is refused by name, with close
matches; nothing is invented.

>>> from mlsysim_symbolic.solvers import Hardware, Models, Systems
>>> Models.Language.Llama3_8B.parameters
<Quantity(8.03e+09, 'param')>
>>> Hardware.Cloud.A100.name
'NVIDIA A100'
>>> Systems.Clusters.Research_256.node is Systems.Nodes.DGX_H100, Systems.Fabrics.InfiniBand_NDR.latency
(True, <Quantity(5.0, 'microsecond')>)
>>> Models.Language.Llama3_9B
Traceback (most recent call last):
...
mlsysim_symbolic.errors.UnknownEntryError: Models.Language: unknown entry 'Llama3_9B'; did you mean 'Llama3_8B', ...
>>> Systems.Storage
Traceback (most recent call last):
...
mlsysim_symbolic.errors.UnknownEntryError: Systems: unknown group 'Storage'. Known: Fabrics, Nodes, Clusters
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pint

from ..errors import FrozenEntryError, UnknownEntryError
from ..registry import Entry, clusters, fabrics, grids, hardware, nodes, workloads

#: mlsysim 0.3.0's group of ``Models`` -> the ``registry`` field of our workload entries.
MODEL_GROUPS: dict[str, str] = {
    "Language": "language", "Vision": "vision", "Tiny": "tiny", "Recommendation": "recommendation",
    "StateSpace": "statespace", "GenerativeVision": "generativevision", "Embodied": "embodied",
}

#: mlsysim 0.3.0's group of ``Hardware`` -> the ``category`` field of our hardware entries.  mlsysim's
#: ``Hardware.Embodied`` lists the very devices of ``Hardware.Edge`` (the edge registry under a second name).
HARDWARE_GROUPS: dict[str, str] = {
    "Cloud": "cloud", "Edge": "edge", "Embodied": "edge", "Mobile": "mobile", "Tiny": "tiny", "Workstation": "workstation",
}


def _read_only(label: str, item: str) -> FrozenEntryError:
    return FrozenEntryError(f"{label} is shared and read-only: cannot set or delete {item!r}; make a changed entry "
                            "with .with_fields({...}) and pass it where the entry would go")


class _ReadOnly:
    """Public attributes neither set nor deleted (an attribute would shadow the registry's entry for this name only);
    ``_label`` names the object in the error."""

    _label: str

    def __setattr__(self, item: str, value: Any) -> None:
        if not item.startswith("_"):    # an attribute would shadow the registry's entry for this name only
            raise _read_only(self._label, item)
        object.__setattr__(self, item, value)

    def __delattr__(self, item: str) -> None:
        raise _read_only(self._label, item)


class Group(_ReadOnly):
    """One group of a namespace (``Models.Language``): its entries as attributes, read from the registry (those whose
    ``field`` is ``value``; every entry when ``field`` is None, as ``Systems.Clusters``)."""

    def __init__(self, label: str, entries: Callable[[], Mapping[str, Entry]], field: str | None = None,
                 value: str | None = None) -> None:
        self._label, self._entries, self._field, self._value = label, entries, field, value
        self._cache: tuple[Any, dict[str, Entry]] | None = None

    def _members(self) -> dict[str, Entry]:
        registry = self._entries()
        if self._cache is not None and self._cache[0] is registry:   # a registry is read-only: filtered once
            return self._cache[1]
        if self._field is None:
            members = {k: registry[k] for k in registry}
        else:
            members = {k: registry[k] for k in registry if getattr(registry[k], self._field, None) == self._value}
        self._cache = (registry, members)
        return members

    def __getattr__(self, key: str) -> Entry:
        if key.startswith("_"):
            raise AttributeError(key)
        members = self._members()
        if key in members:
            return members[key]
        raise UnknownEntryError("entry", key, members, owner=self._label)

    def keys(self) -> list[str]:
        """The keys of the group's entries, in registry order."""
        return list(self._members())

    def list(self, sort_by: str | None = None, reverse: bool = False) -> list[Entry]:
        """The group's entries as mlsysim's ``Registry.list``: by key (its attribute order), or by the field
        ``sort_by`` names (a dotted path of mlsysim's, ``"compute.peak_flops"``: :func:`sort_key`), least first
        unless ``reverse``.

        >>> [h.name for h in Hardware.Cloud.list(sort_by="compute.peak_flops", reverse=True)][:2]
        ['NVIDIA GB200 NVL72', 'Cerebras CS-3 (WSE-3)']
        """
        members = self._members()
        return ordered([members[k] for k in sorted(members)], sort_by, reverse)

    def __dir__(self) -> list[str]:
        return [*self._members(), "keys", "list"]

    def __repr__(self) -> str:
        return f"<{self._label}: {', '.join(self._members())}>"


class Namespace(_ReadOnly):
    """A namespace of groups (``Models``, ``Hardware``): each group the entries of ``entries`` whose ``field`` is the
    group's value; or, with ``entries`` None, each group a whole registry (``groups`` maps a name to its loader)."""

    def __init__(self, label: str, groups: Mapping[str, Any], entries: Callable[[], Mapping[str, Entry]] | None = None,
                 field: str | None = None) -> None:
        self._label = label
        if entries is None:
            self._groups = {g: Group(f"{label}.{g}", loader) for g, loader in groups.items()}
        else:
            self._groups = {g: Group(f"{label}.{g}", entries, field, v) for g, v in groups.items()}

    def __getattr__(self, group: str) -> Group:
        if group.startswith("_"):
            raise AttributeError(group)
        if group in self._groups:
            return self._groups[group]
        raise UnknownEntryError("group", group, self._groups, owner=self._label)

    def groups(self) -> list[str]:
        """The group names."""
        return list(self._groups)

    def list(self, sort_by: str | None = None, reverse: bool = False) -> list[Entry]:
        """Every entry of every group, as mlsysim's ``Registry.list`` recurses into its groups (in their attribute
        order, an entry two groups share listed once), then ordered as :meth:`Group.list` orders.

        >>> len(Hardware.list()) == len({id(h) for g in Hardware.groups() for h in getattr(Hardware, g).list()})
        True
        """
        seen: set[int] = set()
        entries = []
        for group in sorted(self._groups):
            for entry in self._groups[group].list():
                if id(entry) not in seen:
                    seen.add(id(entry))
                    entries.append(entry)
        return ordered(entries, sort_by, reverse)

    def __dir__(self) -> list[str]:
        return [*self._groups, "groups", "list"]

    def __repr__(self) -> str:
        return f"<{self._label}: {', '.join(self._groups)}>"


def sort_key(entry: Entry, path: str) -> Any:
    """The value mlsysim sorts ``entry`` by for ``sort_by=path``: the field at the dotted path (its nested views,
    ``compute.peak_flops``, read from our fields), a Quantity by its magnitude in base units, and 0 where a part of
    the path is missing or the field is unset (as mlsysim's ``getattr(value, part, 0)`` and its ``None`` give).

    >>> sort_key(Hardware.Cloud.H100, "compute.peak_flops"), sort_key(Hardware.Cloud.H100, "no.such")
    (989000000000000.0, 0)
    """
    value: Any = entry
    for part in path.split("."):
        value = getattr(value, part, 0)
    if value is None:
        return 0
    if isinstance(value, pint.Quantity):
        return value.to_base_units().magnitude
    return value


def ordered(entries: list[Entry], sort_by: str | None, reverse: bool) -> list[Entry]:
    """``entries`` in their order, or stably sorted by :func:`sort_key` of ``sort_by`` (``reverse``: largest first)."""
    if not sort_by:
        return entries
    return sorted(entries, key=lambda entry: sort_key(entry, sort_by), reverse=reverse)


def _workloads() -> Any:
    return workloads()


def _hardware() -> Any:
    return hardware()


def _fabrics() -> Any:
    return fabrics()


def _nodes() -> Any:
    return nodes()


def _clusters() -> Any:
    return clusters()


#: mlsysim 0.3.0's groups of ``Systems`` that are ported -> the registry each lists (its Storage, SwitchFabric,
#: NetworkEnergy, Pods, Racks, Reliability and Orchestration are not: refused by name).
SYSTEMS_GROUPS: dict[str, Callable[[], Mapping[str, Entry]]] = {"Fabrics": _fabrics, "Nodes": _nodes, "Clusters": _clusters}

def _grids() -> Any:
    return grids()


#: mlsysim 0.3.0's groups of ``Infrastructure`` that are ported -> the ``category`` of our grid entries (its Capacity,
#: FacilityCooling, Pricing and Racks are not: refused by name).
INFRASTRUCTURE_GROUPS: dict[str, str] = {"Grids": "grid", "Datacenters": "datacenter"}

Models = Namespace("Models", MODEL_GROUPS, _workloads, "registry")
Hardware = Namespace("Hardware", HARDWARE_GROUPS, _hardware, "category")
Systems = Namespace("Systems", SYSTEMS_GROUPS)
Infrastructure = Namespace("Infrastructure", INFRASTRUCTURE_GROUPS, _grids, "category")
