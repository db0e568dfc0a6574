"""mlsysim's own objects as registry entries: a model or a device of the reference package read field by field.

A workload of mlsysim 0.3.0 (``Workload``, ``TransformerWorkload``, ``SparseTransformerWorkload``,
``CNNWorkload``, ``SSMWorkload``, ``DiffusionWorkload``, ``EmbodiedWorkload``) becomes a
:class:`~mlsysim_symbolic.registry.Workload`, a ``HardwareNode`` a
:class:`~mlsysim_symbolic.registry.Hardware`, flattened as ``derivations/hardware.toml`` and
``derivations/workloads.toml`` flatten them (``compute.peak_flops`` is ``peak_flops``,
``memory.capacity`` is ``memory_capacity``, ``storage.capacity`` is ``storage_capacity``,
``metadata.provenance`` is the :class:`~mlsysim_symbolic.registry.Source`).  Each Quantity is
carried in through its unit text and checked against the field's unit; a plain mlsysim count
(``count``, ``Bparam``) becomes the kind the field counts (``training_tokens`` in ``token``).
Fields left as ``None`` are left out.

Nothing here imports mlsysim: objects are recognised by their class names (``HardwareNode``, or a
class named ``Workload`` in their bases) and their attributes, so the package runs without it.
A field this module does not know (a later mlsysim's, a subclass's) that carries a value is refused
by name, so a figure is never dropped silently; :data:`IGNORED` lists the fields left out on purpose.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from typing import Any

import pint

from .errors import InputError, UnitError
from .registry import (
    GRID_FIELDS,
    HARDWARE_FIELDS,
    HARDWARE_VIEWS,
    WORKLOAD_FIELDS,
    Entry,
    Grid,
    Hardware,
    Workload,
    field_quantity,
    make_entry,
)
from .units import Q_

#: mlsysim 0.3.0 workload field (all workload classes) -> our field.  ``source.*`` is the entry's Source.
WORKLOAD_MAP: dict[str, str] = {
    "name": "name", "architecture": "architecture", "release_year": "release_year",
    "metadata.description": "description", "training_hardware_label": "training_hardware_label",
    **{f"metadata.provenance.{k}": f"source.{k}" for k in ("ref", "url", "kind", "verified", "notes")},
    **{name: name for name in WORKLOAD_FIELDS},
    **{name: name for name in (
        "data_rate", "parameter_range_min", "parameter_range_max", "width_multiplier", "resolution",
        "action_chunk_horizon", "action_dim", "observation_horizon")},
}

#: mlsysim 0.3.0 ``HardwareNode`` field (dotted through ``compute``, ``memory`` ...) -> our field.
HARDWARE_MAP: dict[str, str] = {
    "name": "name", "release_year": "release_year", "metadata.description": "description",
    **{f"metadata.provenance.{k}": f"source.{k}" for k in ("ref", "url", "kind", "verified", "notes")},
    **{f"{view}.{theirs}": ours for view, fields in HARDWARE_VIEWS.items() for theirs, ours in fields.items()},
    **{k: k for k in (
        "tdp", "tdp_min", "tdp_max", "die_area", "transistor_count", "die_to_die_bandwidth", "battery_capacity",
        "unit_cost", "unit_cost_max", "accelerator_count", "dispatch_tax")},
    "embodied_carbon_kg": "embodied_carbon",
}

#: Units of the carried fields outside the registries' schemas (the schema gives the others' units);
#: a field in neither is a plain number or text.
EXTRA_UNITS: dict[str, str] = {
    "data_rate": "B/s", "parameter_range_min": "param", "parameter_range_max": "param",
    "clock_rate": "Hz", "sram_capacity": "B", "sram_bandwidth": "B/s", "flash_capacity": "B", "flash_bandwidth": "B/s",
    "l2_cache": "B", "register_file_per_sm": "B", "shared_memory_per_sm": "B", "bus_width": "bit", "pin_data_rate": "bit/s",
    "storage_capacity": "B", "storage_bandwidth": "B/s", "storage_latency": "s",
    "interconnect.bandwidth": "B/s", "interconnect.latency": "s", "nvlink.bandwidth": "B/s", "nvlink.latency": "s",
    "tdp_min": "W", "tdp_max": "W", "die_area": "mm^2", "die_to_die_bandwidth": "B/s", "battery_capacity": "J",
    "unit_cost_max": "USD", "embodied_carbon": "kg",
}

#: mlsysim fields left out on purpose: bookkeeping of the record, and MIG partition profiles (a list of
#: alternative configurations of the device that no equation of the catalog reads).
IGNORED: dict[str, str] = {
    "metadata.last_verified": "bookkeeping of the record",
    "metadata.version": "bookkeeping of the record",
    "metadata.provenance.id": "the record's slug in mlsysim's provenance catalog",
    "mig_profiles": "MIG partition profiles: alternative configurations, read by no equation",
}

#: Nested mlsysim objects read field by field (anything else nested and unmapped is refused).
_GROUPS = frozenset({"metadata", "metadata.provenance", "compute", "memory", "storage", "interconnect", "nvlink"})


def mlsysim_kind(value: Any) -> str | None:
    """``"workload"`` or ``"hardware"`` for an mlsysim workload or ``HardwareNode`` (by class name and attributes), else ``None``."""
    if isinstance(value, (str, bytes, Mapping, Entry, pint.Quantity)) or value is None:
        return None
    names = {cls.__name__ for cls in type(value).__mro__}
    if "HardwareNode" in names and all(hasattr(value, a) for a in ("name", "compute", "memory")):
        return "hardware"
    if "Workload" in names and all(hasattr(value, a) for a in ("name", "architecture", "parameters")):
        return "workload"
    return None


def from_mlsysim(value: Any, entry_class: type[Entry], label: str = "") -> Entry | None:
    """The entry of ``entry_class`` (Workload or Hardware) read from an mlsysim object; ``None`` when ``value`` is not one.

    An mlsysim object of the other kind (a device for a workload) and a field with a value that no
    field of ours carries are refused with the object, the field and our field names.
    """
    kind = mlsysim_kind(value)
    if kind is None:
        return None
    want = "hardware" if issubclass(entry_class, Hardware) else "workload"
    what = f"mlsysim {type(value).__name__} {getattr(value, 'name', '')!r}"
    where = f"{label}: " if label else ""
    if kind != want:
        raise InputError(f"{where}expected a {want}, got {what}, which is a {kind}")
    mapping = HARDWARE_MAP if want == "hardware" else WORKLOAD_MAP
    schema = HARDWARE_FIELDS if want == "hardware" else WORKLOAD_FIELDS
    raw: dict[str, Any] = {"kind": type(value).__name__}
    for path, field_value in _fields(value, ""):
        if path in IGNORED:
            continue
        if path not in mapping:
            ours = sorted({m.split(".")[0] for m in mapping.values() if not m.startswith("source.")})
            raise InputError(
                f"{where}{what} has the field {path!r} = {field_value!r}, which no {want} field of mlsysim_symbolic "
                f"carries (fields: {', '.join(ours)}; left out on purpose: {', '.join(IGNORED)})")
        target = mapping[path]
        _put(raw, target, _converted(field_value, target, schema, f"{where}{what}.{path}"))
    name = str(raw.get("name", ""))
    return make_entry(Hardware if want == "hardware" else Workload, name, raw, schema)


def _fields(obj: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of each field of ``obj`` that has a value, into the nested groups."""
    model_fields = getattr(type(obj), "model_fields", None)
    if isinstance(model_fields, Mapping):
        names = [*model_fields, *(getattr(obj, "__pydantic_extra__", None) or {})]
    else:
        names = [n for n in vars(obj) if not n.startswith("_")]
    for name in names:
        value = getattr(obj, name, None)
        path = f"{prefix}{name}"
        if value is None or (isinstance(value, (Mapping, tuple, list)) and not value):
            continue
        if path in _GROUPS:
            yield from _fields(value, f"{path}.")
        else:
            yield path, value


def _put(raw: dict[str, Any], target: str, value: Any) -> None:
    head, _, rest = target.partition(".")
    if rest:
        raw.setdefault(head, {})[rest] = value
    else:
        raw[head] = value


def _converted(value: Any, target: str, schema: Mapping[str, tuple[str, str, bool]], label: str) -> Any:
    """One field's value in our terms: a Quantity in the field's dimension, a number, or text."""
    unit = schema[target][0] if target in schema else EXTRA_UNITS.get(target)
    if isinstance(value, Mapping):     # precision_flops: one rate per precision
        return {str(k): _converted(v, target, schema, f"{label}[{k!r}]") for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, pint.Quantity):
        if unit is None:
            raise UnitError(f"{label}: a quantity ({value}) where mlsysim_symbolic keeps a plain number or text")
        return field_quantity(value, unit, label)
    if target.startswith("source.") or isinstance(value, (str, bool)) or unit is None:
        return value
    if isinstance(value, (int, float)):
        return value if unit == "count" and isinstance(value, int) else Q_(value, unit)
    raise InputError(f"{label}: {type(value).__name__} {value!r} is neither a quantity nor a number")



def grid_from_mlsysim(value: Any, label: str = "") -> Grid | None:
    """The :class:`~mlsysim_symbolic.registry.Grid` of an mlsysim ``GridProfile`` or ``Datacenter``; ``None`` when
    ``value`` is neither.

    A ``GridProfile`` gives its carbon intensity (``carbon_intensity_g_kwh`` g/kWh), PUE and WUE (L/kWh); a
    ``Datacenter`` its grid's intensity and WUE with its own ``pue`` (``pue_override`` or the grid's), and the
    grid's display name as ``region`` (what mlsysim's SustainabilityModel reports as ``region_name``).

    >>> grid_from_mlsysim("US_Avg") is None      # a registry key is not an mlsysim object (GridKind looks it up)
    True
    """
    names = {cls.__name__ for cls in type(value).__mro__}
    if "Datacenter" in names and hasattr(value, "grid"):
        grid, category = value.grid, "datacenter"
    elif "GridProfile" in names and hasattr(value, "carbon_intensity_g_kwh"):
        grid, category = value, "grid"
    else:
        return None
    try:
        raw: dict[str, Any] = {
            "name": str(value.name), "category": category, "region": str(grid.name),
            "carbon_intensity": Q_(float(grid.carbon_intensity_g_kwh), "g/kWh"), "pue": float(value.pue),
            "wue": Q_(float(grid.wue), "L/kWh")}
    except (TypeError, ValueError) as exc:
        raise InputError(f"{label + ': ' if label else ''}mlsysim {type(value).__name__} {getattr(value, 'name', '')!r}: {exc}") from None
    entry = make_entry(Grid, raw["name"], raw, GRID_FIELDS)
    assert isinstance(entry, Grid)
    return entry
