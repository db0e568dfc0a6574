#!/usr/bin/env python3
"""Write derivations/systems.toml from mlsysim 0.3.0's live ``Systems.Fabrics``, ``Systems.Nodes`` and ``Systems.Clusters``.

    python tools/systems_registry.py            # from the repository root, mlsysim installed; rewrites the file
    python tools/systems_registry.py --check    # exit 1 when the file differs from what mlsysim gives

The TOML is the data (the package never imports mlsysim); this script only says where each line came from.
Every Quantity is written as pint text in a unit of ours; a unit this script does not know is refused, never
guessed.  A node's accelerator is written as the key of our hardware registry whose mlsysim object it is
(identity in mlsysim's Hardware registry); a cluster's node and fabric as the keys of their entries here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: mlsysim's unit text -> ours.
UNITS = {"Gbps": "Gbps", "microsecond": "us", "GB / second": "GB/s", "TiB": "TiB", "GiB": "GiB", "kilowatt": "kW",
         "kilogram": "kg"}
FABRIC_FIELDS = ("topology", "bandwidth", "latency", "oversubscription_ratio")
NODE_FIELDS = ("accelerators_per_node", "intra_node_bw", "nics_per_node", "psus_per_node", "psu_redundancy", "psu_rating",
               "max_power", "host_memory", "host_cpu", "host_cpu_cores", "host_memory_bw", "host_storage", "nvswitch_count",
               "nvlink_links_per_accelerator", "mass")
CLUSTER_FIELDS = ("count", "region", "datacenter", "mtbf_hours")
#: Fields of mlsysim's Node whose value, when an entry does not set it, is the class default (not a datasheet's).
NODE_DEFAULTS = ("nics_per_node", "psus_per_node", "psu_redundancy")

HEADER = """\
# mlsysim 0.3.0's systems registries (mlsysim.systems.registry: Fabrics, Nodes, Clusters), read from the live
# objects by tools/systems_registry.py. One table per entry, keyed by mlsysim's attribute name:
#   [fabrics.KEY]  NetworkFabric: topology, bandwidth, latency (absent where mlsysim states none), oversubscription_ratio
#   [nodes.KEY]    Node: accelerator = the key of our hardware registry (derivations/hardware.toml), accelerators and
#                  NICs per node, intra_node_bw, the PSU fields (psus_per_node, psu_redundancy, psu_rating, max_power),
#                  host and physical figures where mlsysim has them
#   [clusters.KEY] Fleet: node = a key of [nodes], fabric = a key of [fabrics], count = nodes in the fleet
#   metadata.provenance -> [.source]; metadata.description -> description.
# A node's psus_per_node / psu_redundancy / nics_per_node marked "mlsysim default" is mlsysim's Node class default
# (2 / 0 / 1), not a datasheet figure: mlsysim computes with it (series_psus), so it is kept.
# mlsysim's Fleet.region, Fleet.datacenter and Fleet.mtbf_hours are None on every cluster (not written).
"""


def number(value: float | int) -> str:
    """A TOML number as short as it is exact (``5.0`` as ``5``)."""
    if isinstance(value, bool):
        raise TypeError(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def quantity(q: Any, where: str) -> str:
    unit = f"{q.units:D}"
    if unit not in UNITS:
        raise SystemExit(f"{where}: mlsysim unit {unit!r} has no counterpart in tools/systems_registry.py UNITS")
    return f'"{number(q.magnitude)} {UNITS[unit]}"'


def text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def value_line(name: str, value: Any, where: str) -> str | None:
    if value is None:
        return None
    if hasattr(value, "units"):
        return f"{name} = {quantity(value, where)}"
    if isinstance(value, str):
        return f"{name} = {text(value)}"
    if isinstance(value, bool):
        raise SystemExit(f"{where}: a boolean {name} is not expected")
    if isinstance(value, (int, float)):
        return f"{name} = {value!r}"   # a float stays a float (mlsysim's oversubscription_ratio = 1.0)
    raise SystemExit(f"{where}: {name} = {value!r} ({type(value).__name__}) cannot be written")


def source_lines(table: str, key: str, meta: Any) -> list[str]:
    prov = meta.provenance
    lines = ["", f"[{table}.{key}.source]"]
    kind = getattr(prov.kind, "value", prov.kind)
    for name, value in (("kind", kind), ("ref", prov.ref), ("url", prov.url), ("verified", prov.verified),
                        ("notes", prov.notes), ("id", prov.id)):
        if value:
            lines.append(f"{name} = {text(str(value))}")
    return lines


def members(registry: Any) -> dict[str, Any]:
    """A registry's entries in definition order (mlsysim's pydantic objects)."""
    from pydantic import BaseModel

    return {k: v for k, v in vars(registry).items() if not k.startswith("_") and isinstance(v, BaseModel)}


def hardware_keys() -> dict[int, str]:
    """id(mlsysim HardwareNode) -> its attribute name in mlsysim's Hardware registry (our hardware key)."""
    from mlsysim.hardware.registry import Hardware

    out: dict[int, str] = {}
    for group in vars(Hardware).values():
        if isinstance(group, type):
            for k, v in members(group).items():
                out.setdefault(id(v), k)
    return out


def render() -> str:
    from mlsysim.systems.registry import Clusters, Fabrics, Nodes

    from mlsysim_symbolic.registry import hardware

    ours = hardware()
    accelerators = hardware_keys()
    fabric_keys = {id(v): k for k, v in members(Fabrics).items()}
    node_keys = {id(v): k for k, v in members(Nodes).items()}
    out = [HEADER]
    for key, f in members(Fabrics).items():
        out += ["", f"[fabrics.{key}]", f"name = {text(f.name)}", f"description = {text(f.metadata.description)}"]
        out += [line for n in FABRIC_FIELDS if (line := value_line(n, getattr(f, n), f"fabrics.{key}"))]
        out += source_lines("fabrics", key, f.metadata)
    for key, n in members(Nodes).items():
        accel = accelerators.get(id(n.accelerator))
        if accel is None or accel not in ours:
            raise SystemExit(f"nodes.{key}: accelerator {n.accelerator.name!r} is not an entry of derivations/hardware.toml")
        out += ["", f"[nodes.{key}]", f"name = {text(n.name)}", f"description = {text(n.metadata.description)}",
                f"accelerator = {text(accel)}"]
        for name in NODE_FIELDS:
            line = value_line(name, getattr(n, name), f"nodes.{key}")
            if line and name in NODE_DEFAULTS and name not in n.model_fields_set:
                line += "   # mlsysim default"
            if line:
                out.append(line)
        out += source_lines("nodes", key, n.metadata)
    for key, c in members(Clusters).items():
        if any(getattr(c, name) is not None for name in ("region", "datacenter", "mtbf_hours")):
            raise SystemExit(f"clusters.{key}: region/datacenter/mtbf_hours set in mlsysim; extend this script")
        out += ["", f"[clusters.{key}]", f"name = {text(c.name)}", f"description = {text(c.metadata.description)}",
                f"node = {text(node_keys[id(c.node)])}", f"fabric = {text(fabric_keys[id(c.fabric)])}", f"count = {c.count}"]
        out += source_lines("clusters", key, c.metadata)
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    target = ROOT / "derivations" / "systems.toml"
    made = render()
    if "--check" in argv:
        same = target.is_file() and target.read_text(encoding="utf-8") == made
        print(f"{target}: {'up to date' if same else 'differs from mlsysim'}")
        return 0 if same else 1
    target.write_text(made, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
