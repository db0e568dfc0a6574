"""Registries of workloads (models), hardware, grid regions and systems (fabrics, nodes, clusters), each entry
with its provenance.

The data live in ``derivations/workloads.toml``, ``derivations/hardware.toml``, ``derivations/grids.toml`` and
``derivations/systems.toml`` (facts from mlsysim 0.3.0's registries and the papers and datasheets they cite).
A node names its accelerator by a key of the hardware registry and a cluster its node and fabric by their keys;
each reference is resolved (and a dangling one refused by file, entry and field) when the registry is read.

>>> from mlsysim_symbolic.registry import workloads
>>> gpt2 = workloads()["GPT2"]
>>> gpt2.parameters
<Quantity(1.5e+09, 'param')>
>>> gpt2.size_in_bytes("4 B/param")
<Quantity(6e+09, 'byte')>
>>> gpt2.source.ref
'Radford et al. (2019), Language Models are Unsupervised Multitask Learners'
>>> grids()["Quebec"].carbon_intensity, grids()["Quebec_Hydro"].region
(<Quantity(20.0, 'gram / kilowatt_hour')>, 'Quebec (Hydro)')
>>> research = clusters()["Research_256"]
>>> research.count, research.node.accelerator.key, research.fabric.bandwidth, research.total_accelerators
(32, 'H100', <Quantity(100.0, 'gigabps')>, 256)
>>> research.node.series_psus, research.datacenter, research.source.kind
(0, None, 'convention')
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pint

from .errors import DerivationError, FrozenEntryError, InputError, UnitError, UnknownNameError, did_you_mean
from .paths import derivations_dir
from .units import Q_, is_counted_only, parse_quantity, parse_unit, ureg
from .variables import Variable

#: Field name -> (unit, meaning, integer) of the numeric fields a workload may carry.
WORKLOAD_FIELDS: dict[str, tuple[str, str, bool]] = {
    "parameters": ("param", "parameters", False),
    "active_parameters": ("param", "parameters active per token", False),
    "inference_flops": ("flop", "operations of one inference", False),
    "model_size": ("B", "stored model size", False),
    "layers": ("count", "layers", True),
    "hidden_dim": ("count", "hidden size", True),
    "heads": ("count", "attention heads", True),
    "kv_heads": ("count", "key/value heads", True),
    "head_dim": ("count", "width of one attention head", True),
    "kv_lora_rank": ("count", "MLA latent KV rank", True),
    "qk_rope_head_dim": ("count", "MLA rotary head width", True),
    "context_length": ("token/sample", "context length: tokens per sequence", True),
    "vocab_size": ("count", "vocabulary size (distinct token types, not tokens of a sequence)", True),
    "experts": ("count", "experts", True),
    "active_experts_per_token": ("count", "experts active per token", True),
    "training_ops": ("flop", "operations of the training run", False),
    "training_tokens": ("token", "training tokens", False),
    "training_accelerators_ref": ("count", "accelerators of the published run", False),
    "training_days_ref": ("d", "days of the published run", False),
    "training_gpu_days": ("d", "accelerator-days of the published run", False),
    "training_energy_mwh": ("MWh", "energy of the published run", False),
    "training_co2e": ("tonne", "CO2e of the published run", False),
    "training_dataset_size": ("B", "training data size", False),
    "denoising_steps": ("count", "denoising steps", True),
    "state_size": ("count", "SSM state size", True),
    "inference_energy": ("J", "energy of one inference", False),
    "embedding_entries": ("count", "embedding table entries", False),
}

#: Field name -> (unit, meaning) of the numeric fields a hardware entry may carry.
HARDWARE_FIELDS: dict[str, tuple[str, str, bool]] = {
    "peak_flops": ("flop/s", "peak operation rate", False),
    "precision_flops": ("flop/s", "peak operation rate at a precision", False),
    "memory_bandwidth": ("B/s", "memory bandwidth", False),
    "memory_capacity": ("B", "memory capacity", False),
    "tdp": ("W", "thermal design power", False),
    "dispatch_tax": ("s", "kernel dispatch overhead", False),
    "unit_cost": ("USD", "unit price", False),
}

#: Field name -> (unit, meaning) of the numeric fields a grid region or datacenter may carry.
GRID_FIELDS: dict[str, tuple[str, str, bool]] = {
    "carbon_intensity": ("g/kWh", "grid carbon intensity (CO2e per kWh)", False),
    "pue": ("1", "power usage effectiveness (facility over IT energy)", False),
    "wue": ("L/kWh", "water usage effectiveness (water per kWh)", False),
    "renewable_share": ("%", "renewable share of generation", False),
    "latitude": ("1", "latitude in degrees", False),
    "longitude": ("1", "longitude in degrees", False),
}


#: Field name -> (unit, meaning, integer) of the numeric fields of a network fabric (mlsysim's NetworkFabric).
FABRIC_FIELDS: dict[str, tuple[str, str, bool]] = {
    "bandwidth": ("Gbps", "link bandwidth per port", False),
    "latency": ("us", "one-way latency (alpha of the alpha-beta model)", False),
    "oversubscription_ratio": ("1", "oversubscription (leaf downlink over uplink bandwidth)", False),
}

#: Field name -> (unit, meaning, integer) of the numeric fields of a node (mlsysim's Node).
NODE_FIELDS: dict[str, tuple[str, str, bool]] = {
    "accelerators_per_node": ("count", "accelerators per node", True),
    "intra_node_bw": ("GB/s", "intra-node (NVLink-class) bandwidth per accelerator", False),
    "nics_per_node": ("count", "network cards per node", True),
    "psus_per_node": ("count", "power supplies per node", True),
    "psu_redundancy": ("count", "M of an N+M supply: PSUs that may fail at full performance", True),
    "psu_rating": ("kW", "output rating of one PSU", False),
    "max_power": ("kW", "maximum system power draw", False),
    "host_memory": ("B", "host memory", False),
    "host_cpu_cores": ("count", "host CPU cores", True),
    "host_memory_bw": ("GB/s", "host memory bandwidth", False),
    "nvswitch_count": ("count", "NVSwitch chips on the baseboard", True),
    "nvlink_links_per_accelerator": ("count", "NVLink links per accelerator", True),
    "mass": ("kg", "chassis mass", False),
}

#: Field name -> (unit, meaning, integer) of the numeric fields of a cluster (mlsysim's Fleet).
CLUSTER_FIELDS: dict[str, tuple[str, str, bool]] = {
    "count": ("count", "nodes in the fleet", True),
    "mtbf_hours": ("h", "stated fleet MTBF", False),
}


@dataclass(frozen=True)
class Source:
    """Where an entry's figures come from (a ``[.source]`` table's ``id``, mlsysim's provenance slug, is not carried:
    see :data:`mlsysim_symbolic.interop.IGNORED`)."""

    ref: str = ""
    url: str = ""
    kind: str = ""
    verified: str = ""
    notes: str = ""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> Source:
        data = dict(data or {})
        return cls(**{k: str(data.get(k, "")) for k in ("ref", "url", "kind", "verified", "notes")})


class FrozenFields(dict):
    """The read-only fields (or text) of a registry entry: item assignment, deletion and every in-place change
    raise :class:`~mlsysim_symbolic.errors.FrozenEntryError` naming the entry and pointing to ``with_fields``.

    >>> fields = workloads()["GPT2"].fields
    >>> fields["parameters"] = 1
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FrozenEntryError: Workload 'GPT2' is shared and read-only: cannot set its field 'parameters'; use .with_fields({'parameters': ...}) for a checked copy
    """

    __slots__ = ("_owner",)

    def __init__(self, data: Mapping[str, Any], owner: str) -> None:
        super().__init__({k: FrozenFields(v, owner) if isinstance(v, dict) else v for k, v in data.items()})
        self._owner = owner

    def _refuse(self, verb: str, name: Any = None) -> FrozenEntryError:
        what = f"its field {name!r}" if name is not None else "its fields"
        hint = f"{{{name!r}: ...}}" if name is not None else "{...}"
        return FrozenEntryError(f"{self._owner} is shared and read-only: cannot {verb} {what}; "
                                f"use .with_fields({hint}) for a checked copy")

    def __setitem__(self, key: Any, value: Any) -> None:
        raise self._refuse("set", key)

    def __delitem__(self, key: Any) -> None:
        raise self._refuse("delete", key)

    def __ior__(self, other: Any) -> FrozenFields:
        raise self._refuse("update")

    def update(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102
        raise self._refuse("update")

    def setdefault(self, key: Any, default: Any = None) -> Any:  # noqa: D102
        raise self._refuse("set", key)

    def pop(self, key: Any, *default: Any) -> Any:  # noqa: D102
        raise self._refuse("delete", key)

    def popitem(self) -> Any:  # noqa: D102
        raise self._refuse("delete")

    def clear(self) -> None:  # noqa: D102
        raise self._refuse("delete")

    def __reduce__(self) -> Any:    # pickled and copied as the mapping it is (pickle would set items one by one)
        return (FrozenFields, (dict(self), self._owner))


class _NoField(AttributeError):
    """An entry's unknown field: the message (with its did-you-mean) is written only when read, so that
    ``getattr(entry, "count", None)`` (is this a fleet?) costs no string matching."""

    def __init__(self, entry: Entry, item: str) -> None:
        super().__init__(item)
        self.entry, self.item = entry, item

    def __str__(self) -> str:
        entry, item = self.entry, self.item
        known = sorted({*type(entry).schema, *entry.fields, *entry.info})
        return (f"{type(entry).__name__} {entry.key!r} has no field {item!r}" + did_you_mean(item, known)
                + f" Fields: {', '.join(known)}")


@dataclass(frozen=True, eq=False)
class Entry:
    """A registry entry: a key, a display name, numeric fields and a source.

    Entries are shared (every solver, scenario and namespace reads the same one), so none may change in place:
    assigning or deleting an attribute or a field raises :class:`~mlsysim_symbolic.errors.FrozenEntryError`; a
    change is a new entry made by :meth:`with_fields`, checked as the registry read checks one.

    >>> from mlsysim_symbolic.registry import clusters
    >>> clusters()["Research_256"].count = 64
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FrozenEntryError: Cluster 'Research_256' is shared and read-only: cannot set its field 'count'; use .with_fields({'count': ...}) for a checked copy
    """

    key: str
    name: str
    fields: Mapping[str, Any]
    source: Source = field(default_factory=Source)
    info: Mapping[str, Any] = field(default_factory=dict)

    #: The numeric fields an entry of this class may carry (unit, meaning, integer).
    schema: ClassVar[Mapping[str, tuple[str, str, bool]]] = {}
    #: Text fields of this class beyond the common ones (kept as text, never read as a quantity; None when absent).
    text: ClassVar[frozenset[str]] = frozenset()

    def __post_init__(self) -> None:
        owner = f"{type(self).__name__} {self.key!r}"
        object.__setattr__(self, "fields", FrozenFields(self.fields, owner))
        object.__setattr__(self, "info", FrozenFields(self.info, owner))

    def _refuse(self, verb: str, item: str) -> FrozenEntryError:
        return self.fields._refuse(verb, item)   # type: ignore[attr-defined]  # the same words as for its fields

    def __getattr__(self, item: str) -> Any:
        if item.startswith("__"):
            raise AttributeError(item)
        fields = object.__getattribute__(self, "fields")
        if item in fields:
            return fields[item]
        info = object.__getattribute__(self, "info")
        if item in info:
            return info[item]
        if item in type(self).schema or item in _TEXT_FIELDS or item in type(self).text:
            return None     # a known field this entry does not state
        raise _NoField(self, item)

    def with_fields(self, changes: Mapping[str, Any]) -> Entry:
        """A copy with some fields changed (same units and checks as the registry); an unknown field is refused.

        >>> llama = workloads()["Llama3_8B"].with_fields({"kv_heads": 2})
        >>> llama.kv_heads, llama.heads
        (2, 32)
        >>> workloads()["Llama3_8B"].with_fields({"kv_head": 2})
        Traceback (most recent call last):
        ...
        mlsysim_symbolic.errors.UnknownNameError: Llama3_8B: unknown field 'kv_head'; did you mean 'kv_heads', ...
        """
        raw: dict[str, Any] = {**self.info, **self.fields, "name": self.name}
        raw.update(changes)
        entry = make_entry(type(self), self.key, raw, type(self).schema, strict=tuple(changes))
        return type(self)(key=self.key, name=entry.name, fields=entry.fields, source=self.source, info=entry.info)

    def get(self, path: str) -> Any:
        """A field by dotted path (``precision_flops.fp16_dense``); ``None`` when absent."""
        value: Any = self.fields
        for part in path.split("."):
            if isinstance(value, Mapping) and part in value:
                value = value[part]
            else:
                return None
        return value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, name={self.name!r})"


def _refuse_set(self: Entry, item: str, value: Any) -> None:
    raise self._refuse("set", item)


def _refuse_delete(self: Entry, item: str) -> None:
    raise self._refuse("delete", item)


# Set after the class: a frozen dataclass refuses its own fields only (a subclass' other attributes would be
# accepted and ignored by every reader of ``fields``), and a frozen dataclass may not define these in its body.
Entry.__setattr__ = _refuse_set   # type: ignore[method-assign,assignment]
Entry.__delattr__ = _refuse_delete   # type: ignore[method-assign,assignment]


class Workload(Entry):
    """A model: parameter count and architecture figures, with provenance."""

    schema = WORKLOAD_FIELDS

    def size_in_bytes(self, bytes_per_param: Any = "2 B/param") -> pint.Quantity:
        """Bytes of the parameters at ``bytes_per_param`` (``"2 B/param"``, a number of bytes per parameter, or a precision name).

        >>> workloads()["GPT2"].size_in_bytes("fp16"), workloads()["GPT2"].size_in_bytes(4)
        (<Quantity(3e+09, 'byte')>, <Quantity(6e+09, 'byte')>)
        """
        if self.fields.get("parameters") is None:
            raise InputError(f"workload {self.key!r} states no parameter count")
        width = Variable.make("bytes_per_param", unit="B/param").check(bytes_per_param)
        return (self.fields["parameters"] * Q_(width, "B/param")).to("B")


#: mlsysim 0.3.0's nested views of a ``HardwareNode`` -> (its field -> our flat field, dotted into a subtable):
#: ``hw.compute.peak_flops`` is our ``peak_flops``, ``hw.memory.capacity`` our ``memory_capacity``,
#: ``hw.interconnect.bandwidth`` our ``interconnect.bandwidth``.  ``interop.HARDWARE_MAP`` reads mlsysim's objects
#: through the same table.
HARDWARE_VIEWS: dict[str, dict[str, str]] = {
    "compute": {k: k for k in (
        "peak_flops", "precision_flops", "sm_count", "clock_rate", "core_count", "fp32_cores_per_sm",
        "tensor_cores_per_sm", "systolic_array_dim", "max_threads_per_sm", "max_registers_per_thread", "warp_size")},
    "memory": {"capacity": "memory_capacity", "bandwidth": "memory_bandwidth", **{k: k for k in (
        "sram_capacity", "sram_bandwidth", "flash_capacity", "flash_bandwidth", "l2_cache", "register_file_per_sm",
        "shared_memory_per_sm", "bus_width", "pin_data_rate", "hbm_stacks")}},
    "storage": {k: f"storage_{k}" for k in ("capacity", "bandwidth", "latency")},
    **{link: {k: f"{link}.{k}" for k in ("name", "bandwidth", "latency", "direction")} for link in ("interconnect", "nvlink")},
}


class FieldView(Mapping[str, Any]):
    """One of mlsysim's nested views of an entry (``hw.compute``, ``hw.memory``): its fields as attributes (and as a
    read-only mapping), each read from the entry's flat fields; a field the entry does not state is ``None``, as
    mlsysim's optional fields are.

    >>> h100 = hardware()["H100"]
    >>> h100.compute.peak_flops == h100.peak_flops, h100.memory.capacity, h100.interconnect.bandwidth
    (True, <Quantity(80.0, 'gibibyte')>, <Quantity(64, 'gigabyte / second')>)
    """

    __slots__ = ("_entry", "_view", "_fields")

    def __init__(self, entry: Entry, view: str, fields: Mapping[str, str]) -> None:
        object.__setattr__(self, "_entry", entry)
        object.__setattr__(self, "_view", view)
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, item: str) -> Any:
        fields = object.__getattribute__(self, "_fields")
        if item not in fields:
            entry = object.__getattribute__(self, "_entry")
            raise AttributeError(f"{type(entry).__name__} {entry.key!r}: {self._view} has no field {item!r}"
                                 + did_you_mean(item, sorted(fields)) + f" Fields: {', '.join(fields)}")
        return self._entry.get(fields[item])

    def __getitem__(self, item: str) -> Any:
        if item not in self._fields:
            raise KeyError(item)
        return self._entry.get(self._fields[item])

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __setattr__(self, item: str, value: Any) -> None:
        raise self._entry._refuse("set", f"{self._view}.{item}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.items() if v is not None)
        return f"{self._view}({shown})"


class Hardware(Entry):
    """An accelerator or device: peak rates per precision, memory, power, with provenance.  mlsysim's nested views
    (``compute``, ``memory``, ``storage``, ``interconnect``, ``nvlink``: :data:`HARDWARE_VIEWS`) read the same fields."""

    schema = HARDWARE_FIELDS


def _view_property(view: str, fields: Mapping[str, str]) -> property:
    return property(lambda entry: FieldView(entry, view, fields), doc=f"mlsysim's ``HardwareNode.{view}``, read from our fields.")


for _view, _fields in HARDWARE_VIEWS.items():   # properties: found before Entry.__getattr__, so no other read pays
    setattr(Hardware, _view, _view_property(_view, _fields))
del _view, _fields


class Grid(Entry):
    """A regional power grid or a datacenter on one: carbon intensity, PUE and WUE, with provenance.

    mlsysim's ``GridProfile`` and ``Datacenter`` fields read the same figures, as mlsysim gives them (plain numbers in
    its stated units): ``carbon_intensity_g_kwh``, ``renewable_pct``, ``lat``, ``lon``; a datacenter's ``grid`` is
    the grid entry it sits on.

    >>> grids()["Quebec"].carbon_intensity_g_kwh, grids()["Quebec_Hydro"].grid.name
    (20.0, 'Quebec (Hydro)')
    """

    schema = GRID_FIELDS

    def _plain(self, field: str, unit: str) -> float | None:
        if self.info.get("category") == "datacenter":   # mlsysim's Datacenter has no such field (its grid has)
            raise _NoField(self, {"carbon_intensity": "carbon_intensity_g_kwh", "renewable_share": "renewable_pct",
                                  "latitude": "lat", "longitude": "lon"}[field])
        value = self.fields.get(field)
        return None if value is None else float(value.to(unit).magnitude)

    @property
    def carbon_intensity_g_kwh(self) -> float | None:
        """mlsysim's ``GridProfile.carbon_intensity_g_kwh``: the carbon intensity in g/kWh, a plain number."""
        return self._plain("carbon_intensity", "g/kWh")

    @property
    def renewable_pct(self) -> float | None:
        """mlsysim's ``GridProfile.renewable_pct``: the renewable share in percent, a plain number."""
        return self._plain("renewable_share", "percent")

    @property
    def lat(self) -> float | None:
        """mlsysim's ``GridProfile.lat`` (degrees)."""
        return self._plain("latitude", "")

    @property
    def lon(self) -> float | None:
        """mlsysim's ``GridProfile.lon`` (degrees)."""
        return self._plain("longitude", "")

    @property
    def grid(self) -> Grid | None:
        """A datacenter's grid (mlsysim's ``Datacenter.grid``): the grid entry its ``grid`` key names; None for a grid."""
        key = self.info.get("grid")
        return None if key is None else grids()[key]


class SystemEntry(Entry):
    """A fabric, node or cluster: ``with_fields`` checks the copy as the registry read checks an entry, and a
    reference field may be given as a key (``with_fields({"node": "DGX_A100"})``), resolved in our registry."""

    #: The table of ``derivations/systems.toml`` entries of this class live in.
    table: ClassVar[str] = ""
    #: Reference field -> the registry (by loader name in this module) its key is resolved in.
    references: ClassVar[Mapping[str, str]] = {}

    def with_fields(self, changes: Mapping[str, Any]) -> Entry:
        """A copy with some fields changed, checked; a reference by key is resolved (an unknown key refused by name).

        >>> small = clusters()["Research_256"].with_fields({"count": 4, "fabric": "InfiniBand_NDR"})
        >>> small.total_accelerators, small.fabric.name
        (32, 'IB NDR')
        >>> clusters()["Research_256"].with_fields({"count": 0.5})
        Traceback (most recent call last):
        ...
        mlsysim_symbolic.errors.InputError: clusters.Research_256.count = 0.5: expected a whole number of nodes in the fleet (1 or more)
        """
        resolved = dict(changes)
        for name, loader in type(self).references.items():
            if name in resolved:
                resolved[name] = _reference_value(self, name, resolved[name], loader)
        entry = super().with_fields(resolved)
        problem = _problem(entry, type(self).table)
        if problem is not None:
            raise InputError(problem)
        return entry


class Fabric(SystemEntry):
    """A network fabric (mlsysim's ``NetworkFabric``): bandwidth, latency (None where none is stated), oversubscription.

    >>> ndr = fabrics()["InfiniBand_NDR"]
    >>> ndr.bandwidth_gbs, ndr.latency_us, fabrics()["InfiniBand_EDR"].latency
    (50.0, 5.0, None)
    """

    schema = FABRIC_FIELDS
    text = frozenset({"topology"})
    table = "fabrics"

    @property
    def bandwidth_gbs(self) -> float:
        """The bandwidth in GB/s (mlsysim's ``bandwidth_gbs``)."""
        return float(self.fields["bandwidth"].m_as("GB/s"))

    @property
    def latency_us(self) -> float:
        """The latency in microseconds, 0 when none is stated (mlsysim's ``latency_us``)."""
        latency = self.fields.get("latency")
        return 0.0 if latency is None else float(latency.m_as("us"))


class Node(SystemEntry):
    """A server (mlsysim's ``Node``): its accelerator (a hardware entry), devices, NICs and PSUs per node.

    >>> dgx = nodes()["DGX_H100"]
    >>> dgx.accelerator.name, dgx.accelerators_per_node, dgx.psus_per_node, dgx.psu_redundancy, dgx.series_psus
    ('NVIDIA H100', 8, 6, 2, 0)
    """

    schema = NODE_FIELDS
    text = frozenset({"accelerator", "host_cpu", "host_storage"})
    table = "nodes"
    references = {"accelerator": "hardware"}

    @property
    def series_psus(self) -> int:
        """PSUs whose single failure stops the node: all of them without redundancy, none with a spare (mlsysim's)."""
        return 0 if self.fields["psu_redundancy"] > 0 else self.fields["psus_per_node"]


class Cluster(SystemEntry):
    """A fleet (mlsysim's ``Fleet``): ``count`` nodes of one node entry on one fabric entry; no site of its own.

    >>> clusters()["Frontier_8K"].fabric.key, clusters()["Frontier_8K"].total_accelerators
    ('InfiniBand_NDR', 8192)
    """

    schema = CLUSTER_FIELDS
    text = frozenset({"node", "fabric", "datacenter"})
    table = "clusters"
    references = {"node": "nodes", "fabric": "fabrics"}

    @property
    def total_accelerators(self) -> int:
        """Accelerators of the fleet: nodes x accelerators per node."""
        return self.fields["count"] * self.info["node"].accelerators_per_node


class Registry(Mapping[str, Entry]):
    """A read-only mapping of registry keys to entries; unknown keys list the known ones.

    A registry read from its file makes each entry when it is first asked for (``make``): a first
    value reads one workload, not all 42 (``mlsysim-symbolic check`` and the tests make every one).
    """

    def __init__(self, kind: str, entries: Mapping[str, Entry | Any], *, names: Mapping[str, str] | None = None,
                 make: Callable[[str, Any], Entry] | None = None):
        self.kind = kind
        self._entries = dict(entries)
        self._make = make
        self._by_name = dict(names) if names is not None else {e.name: k for k, e in self._entries.items()}

    def _entry(self, key: str) -> Entry:
        entry = self._entries[key]
        if self._make is not None and not isinstance(entry, Entry):
            entry = self._entries[key] = self._make(key, entry)
        return entry

    def __getitem__(self, key: str) -> Entry:
        if key in self._entries:
            return self._entry(key)
        if key in self._by_name:
            return self._entry(self._by_name[key])
        raise UnknownNameError(self.kind, key, sorted(self._entries))

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries or key in self._by_name

    def __setattr__(self, item: str, value: Any) -> None:
        if item.startswith("_") or (item == "kind" and "kind" not in self.__dict__):
            object.__setattr__(self, item, value)
            return
        raise FrozenEntryError(f"the {self.kind} registry is shared and read-only: cannot set {item!r}; "
                               "make a changed entry with .with_fields({...}) and pass it where the key would go")

    def __delattr__(self, item: str) -> None:
        raise FrozenEntryError(f"the {self.kind} registry is shared and read-only: cannot delete {item!r}")

    def __getattr__(self, item: str) -> Entry:
        if item.startswith("_"):
            raise AttributeError(item)
        try:
            return self[item]
        except UnknownNameError as exc:
            raise AttributeError(str(exc)) from None

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self._entries]


def _convert(value: Any, where: str, path: Path) -> Any:
    if isinstance(value, str):
        try:
            return parse_quantity(value, name=where)
        except InputError:
            return value
    if isinstance(value, dict):
        return {k: _convert(v, f"{where}.{k}", path) for k, v in value.items()}
    return value


_TEXT_FIELDS = {"name", "registry", "kind", "architecture", "category", "training_hardware_label", "description",
                "region", "grid", "primary_source"}


#: Unit names of other registries (mlsysim's) that ours spells otherwise: ``Bparam`` is a billion parameters.
FOREIGN_UNIT_ALIASES: dict[str, str] = {"Bparam": "Gparam"}


def field_quantity(value: pint.Quantity, unit: str | None, label: str) -> pint.Quantity:
    """A Quantity of any pint registry (ours, mlsysim's, the user's) as ours in the dimension of a field's ``unit``.

    Another registry's unit is read by its unit names (``mm²``, ``Bparam`` included); a plain count of
    another registry (mlsysim's ``count``) is the kind the field counts; any other mismatch is refused.
    Without a ``unit`` (a field outside the schema) the Quantity is only brought into our registry.

    >>> field_quantity(pint.UnitRegistry().Quantity(1.5e13, "count"), "token", "training_tokens")
    <Quantity(1.5e+13, 'token')>
    >>> field_quantity(pint.UnitRegistry().Quantity(2, "GB"), "param", "parameters")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.DimensionalityError: parameters expects param (parameters); got 2 GB (bytes): dimension [information], not [param]
    """
    ours = value
    if value._REGISTRY is not ureg:
        try:
            units = ureg.dimensionless
            for name, power in value.units._units.items():
                units = units * parse_unit(FOREIGN_UNIT_ALIASES.get(name, name)) ** power
        except UnitError:
            raise UnitError(f"{label}: unit {value.units} (from another pint registry) is not known to mlsysim_symbolic") from None
        ours = Q_(value.magnitude, units)
    if unit is None:
        return ours
    target = parse_unit(unit)
    if value._REGISTRY is not ureg and not ours.dimensionality and target.dimensionality and is_counted_only(target):
        ours = Q_(ours.to("dimensionless").magnitude, target)   # mlsysim's count: what the field counts (its GB is not plain)
    if ours.dimensionality != target.dimensionality:
        raise _unit_variable(unit).mismatch(ours, label)
    return ours


@cache
def _unit_variable(unit: str) -> Variable:
    return Variable.make("value", unit=unit)


def _carried(value: Any, unit: str | None, label: str) -> Any:
    """A field's value with another registry's Quantities (in a table of rates too) brought into ours."""
    if isinstance(value, dict):
        return {k: _carried(v, unit, f"{label}.{k}") for k, v in value.items()}
    if isinstance(value, pint.Quantity) and value._REGISTRY is not ureg:
        return field_quantity(value, unit, label)
    return value


def make_entry(cls: type[Entry], key: str, raw: Mapping[str, Any], schema: Mapping[str, tuple[str, str, bool]], where: str = "",
               *, strict: bool | tuple[str, ...] = False) -> Entry:
    """One registry entry from its table (quantities as ``"<number> <unit>"`` text).

    With ``strict`` (every field, or the named ones), a field outside the schema is refused with the close
    names: an entry a user states inline (``kv_head = 8``) must not lose a typo silently.
    """
    texts = _TEXT_FIELDS | cls.text
    checked = set(raw) if strict is True else set(strict or ())
    for name in checked:
        if name not in schema and name not in texts and name != "source":
            known = sorted({*schema, *texts})
            raise UnknownNameError("field", name, known, owner=key)
    fields: dict[str, Any] = {}
    info: dict[str, Any] = {}
    for name, value in raw.items():
        if name == "source" or name in texts:
            continue
        converted = _convert(value, f"{key}.{name}", Path(where or "."))
        if name in schema:
            unit, _, integer = schema[name]
            converted = _carried(converted, unit, f"{key}.{name}")
            if isinstance(converted, (int, float)) and not isinstance(converted, bool):
                converted = Q_(converted, unit) if unit != "count" or not integer else converted
            if isinstance(converted, pint.Quantity) and isinstance(converted.magnitude, int):
                converted = Q_(float(converted.magnitude), converted.units)
            if isinstance(converted, str) or (isinstance(converted, pint.Quantity) and converted.dimensionality != parse_unit(unit).dimensionality):
                raise UnitError(f"{key}: {name} = {value!r} is not a quantity in {unit}")
            fields[name] = converted
        elif isinstance(converted, (pint.Quantity, dict)) or (isinstance(converted, (int, float)) and not isinstance(converted, bool)):
            fields[name] = _carried(converted, None, f"{key}.{name}")
        else:
            info[name] = converted
    info.update({k: raw[k] for k in texts if k in raw})
    return cls(key=key, name=str(raw.get("name", key)), fields=fields, source=Source.from_mapping(raw.get("source")), info=info)


_KINDS = {"workloads": "workload", "hardware": "hardware", "grids": "grid", "fabrics": "fabric", "nodes": "node",
          "clusters": "cluster"}


def _load(path: Path, table: str, cls: type[Entry], schema: Mapping[str, tuple[str, str, bool]], *, strict: bool = False) -> Registry:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DerivationError(f"cannot read {table}: {exc}", path=str(path)) from None
    tables = data.get(table, {})
    for key, raw in tables.items():
        if not isinstance(raw, dict):
            raise DerivationError(f"{table}.{key}: expected a table of fields, got {type(raw).__name__}", path=str(path))

    def make(key: str, raw: Mapping[str, Any]) -> Entry:
        try:
            return make_entry(cls, key, raw, schema, str(path), strict=strict)
        except (InputError, UnknownNameError) as exc:
            raise DerivationError(f"{table}: {exc}", path=str(path)) from None

    return Registry(_KINDS.get(table, table), tables, names={str(raw.get("name", key)): key for key, raw in tables.items()},
                    make=make)


@cache
def workloads(path: str | None = None) -> Registry:
    """The workload registry (``derivations/workloads.toml`` unless ``path`` is given)."""
    return _load(Path(path) if path else derivations_dir() / "workloads.toml", "workloads", Workload, WORKLOAD_FIELDS)


@cache
def hardware(path: str | None = None) -> Registry:
    """The hardware registry (``derivations/hardware.toml`` unless ``path`` is given)."""
    return _load(Path(path) if path else derivations_dir() / "hardware.toml", "hardware", Hardware, HARDWARE_FIELDS)


@cache
def grids(path: str | None = None) -> Registry:
    """The grid-region and datacenter registry (``derivations/grids.toml`` unless ``path`` is given)."""
    return _load(Path(path) if path else derivations_dir() / "grids.toml", "grids", Grid, GRID_FIELDS)


# ---------------------------------------------------------------------- systems: fabrics, nodes, clusters
#: What every entry of a systems table must state (mlsysim's required fields, and the PSU fields it computes with).
_REQUIRED = {
    "fabrics": ("bandwidth", "oversubscription_ratio"),
    "nodes": ("accelerator", "accelerators_per_node", "intra_node_bw", "nics_per_node", "psus_per_node", "psu_redundancy"),
    "clusters": ("node", "fabric", "count"),
}


def _systems_path(path: str | None) -> Path:
    return Path(path) if path else _shipped_systems()


@cache
def _shipped_systems() -> Path:   # asked for on every solver call that names a cluster: one path, made once
    return derivations_dir() / "systems.toml"


def _problem(entry: Entry, table: str) -> str | None:
    """What is wrong with one systems entry, or None: a required field missing, a count not whole and positive (a
    redundancy may be 0), a quantity not positive, PSU redundancy that mlsysim's Node would refuse."""
    where = f"{table}.{entry.key}"
    for name in _REQUIRED[table]:
        if entry.get(name) is None and entry.info.get(name) is None:
            return f"{where}: missing field {name!r} ({', '.join(_REQUIRED[table])} are required)"
    for name, (_, meaning, integer) in type(entry).schema.items():
        value = entry.fields.get(name)
        least = 0 if name == "psu_redundancy" else 1
        if integer and value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < least):
            return f"{where}.{name} = {value!r}: expected a whole number of {meaning} ({least} or more)"
        if isinstance(value, pint.Quantity) and not value.magnitude > 0:
            return f"{where}.{name} = {value}: expected a positive {meaning}"
    if table == "nodes":
        psus, spare = entry.fields["psus_per_node"], entry.fields["psu_redundancy"]
        if spare >= psus:
            return f"{where}.psu_redundancy = {spare}: must be below psus_per_node ({psus})"
        rating, peak = entry.fields.get("psu_rating"), entry.fields.get("max_power")
        if spare > 0 and rating is not None and peak is not None and (psus - spare) * rating < peak:
            return (f"{where}: {psus - spare} required PSUs x {rating} cannot carry max_power {peak}; "
                    f"the {psus - spare}+{spare} redundancy is inconsistent")
    return None


def _checked(registry: Registry, table: str, path: Path) -> None:
    """Every entry of a systems table sound (:func:`_problem`), else a DerivationError naming file, entry and field."""
    for entry in registry.values():
        problem = _problem(entry, table)
        if problem is not None:
            raise DerivationError(problem, path=str(path))


def make_system_entry(cls: type[SystemEntry], key: str, raw: Mapping[str, Any]) -> Entry:
    """A fabric, node or cluster stated inline (mlsysim's ``NetworkFabric(...)``, ``Node(...)``, ``Fleet(...)``),
    checked as the registry read checks one: a field outside the schema refused by name, a reference given as a key
    resolved in our registry (or given as an entry of its class), mlsysim's required fields and counts checked.

    >>> ib = make_system_entry(Fabric, "IB", {"bandwidth": "400 Gbps", "latency": "5 us", "oversubscription_ratio": 1.0})
    >>> fleet = make_system_entry(Cluster, "Mine", {"node": "DGX_H100", "count": 4, "fabric": ib})
    >>> fleet.total_accelerators, fleet.fabric.bandwidth_gbs
    (32, 50.0)
    """
    stated = {k: v for k, v in raw.items() if v is not None}
    probe = cls(key=key, name=str(stated.get("name", key)), fields={})
    for name, loader in cls.references.items():
        if name in stated:
            stated[name] = _reference_value(probe, name, stated[name], loader)
    entry = make_entry(cls, key, stated, cls.schema, strict=True)
    problem = _problem(entry, cls.table)
    if problem is not None:
        raise InputError(problem)
    return entry


def _reference_value(entry: Entry, field: str, value: Any, loader: str) -> Entry:
    """A reference given to ``with_fields``: a key of the default registry, or an entry of that registry's class."""
    load, expected = {"hardware": (hardware, Hardware), "nodes": (nodes, Node), "fabrics": (fabrics, Fabric)}[loader]
    registry = load()
    if isinstance(value, str):
        try:
            return registry[value]
        except UnknownNameError as exc:
            raise exc.within(f"{entry.key}.{field}") from None
    if not isinstance(value, expected):
        raise InputError(f"{entry.key}.{field}: expected a {registry.kind} (its key or entry), got {type(value).__name__}")
    return value


def _resolved(registry: Registry, table: str, field: str, target: Registry, target_file: str, path: Path) -> Registry:
    """Each entry's ``field`` (a key of ``target``) replaced by that entry; a dangling key is refused by file, entry, field."""
    out: dict[str, Entry] = {}
    keys = list(target)
    for key, entry in registry.items():
        value = entry.info[field]
        if not isinstance(value, str) or value not in keys:
            raise DerivationError(f"{table}.{key}.{field} = {value!r} is not a key of the {target.kind} registry "
                                  f"({target_file})" + did_you_mean(str(value), keys) + f" Known: {', '.join(keys)}",
                                  path=str(path))
        out[key] = type(entry)(key=entry.key, name=entry.name, fields=entry.fields, source=entry.source,
                               info={**entry.info, field: target[value]})
    return Registry(registry.kind, out)


def fabrics(path: str | None = None) -> Registry:
    """The network-fabric registry (``[fabrics]`` of ``derivations/systems.toml`` unless ``path`` is given)."""
    return _fabrics(str(_systems_path(path)))


def nodes(path: str | None = None, hardware_path: str | None = None) -> Registry:
    """The node registry (``[nodes]`` of ``derivations/systems.toml``), each accelerator resolved in the hardware
    registry (``hardware_path``, default ``derivations/hardware.toml``).

    >>> import pathlib, tempfile
    >>> bad = pathlib.Path(tempfile.mkdtemp()) / "systems.toml"
    >>> _ = bad.write_text('[nodes.N]\\naccelerator = "H1000"\\naccelerators_per_node = 8\\nintra_node_bw = "450 GB/s"\\n'
    ...                    'nics_per_node = 8\\npsus_per_node = 2\\npsu_redundancy = 0\\n')
    >>> nodes(str(bad))
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.DerivationError: .../systems.toml: nodes.N.accelerator = 'H1000' is not a key of the hardware registry (hardware.toml); did you mean 'H100', ...
    """
    return _nodes(str(_systems_path(path)), hardware_path)


def clusters(path: str | None = None, hardware_path: str | None = None) -> Registry:
    """The cluster registry (``[clusters]`` of ``derivations/systems.toml``), each node and fabric resolved in the
    same file's ``[nodes]`` and ``[fabrics]`` (the very entries :func:`nodes` and :func:`fabrics` give)."""
    return _clusters(str(_systems_path(path)), hardware_path)


@cache
def _fabrics(where: str) -> Registry:
    registry = _load(Path(where), "fabrics", Fabric, FABRIC_FIELDS, strict=True)
    _checked(registry, "fabrics", Path(where))
    return registry


@cache
def _nodes(where: str, hardware_path: str | None) -> Registry:
    registry = _load(Path(where), "nodes", Node, NODE_FIELDS, strict=True)
    _checked(registry, "nodes", Path(where))
    target = hardware() if hardware_path is None else hardware(hardware_path)   # the very entries hardware() gives
    return _resolved(registry, "nodes", "accelerator", target, Path(hardware_path or "hardware.toml").name, Path(where))


@cache
def _clusters(where: str, hardware_path: str | None) -> Registry:
    registry = _load(Path(where), "clusters", Cluster, CLUSTER_FIELDS, strict=True)
    _checked(registry, "clusters", Path(where))
    name = Path(where).name
    registry = _resolved(registry, "clusters", "node", _nodes(where, hardware_path), f"[nodes] of {name}", Path(where))
    return _resolved(registry, "clusters", "fabric", _fabrics(where), f"[fabrics] of {name}", Path(where))
