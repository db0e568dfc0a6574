"""The systems registries (derivations/systems.toml: fabrics, nodes, clusters) against mlsysim 0.3.0's live
``Systems.Fabrics``, ``Systems.Nodes`` and ``Systems.Clusters``, and our entries as the fleet and fabric of the
fleet solvers, compared with mlsysim's solve given mlsysim's own objects.

Registry fields: every field of every mlsysim object (pydantic ``model_fields``), numbers at 1e-12 relative in
mlsysim's unit, None where mlsysim has None, text exactly; references by identity (our node's accelerator is the
hardware entry of mlsysim's device, a cluster's node and fabric the entries of mlsysim's node and fabric), and
every provenance field.  Solvers: every result field (``constraint_trace``, prose, apart) with
``compare.assert_same`` (numbers at 1e-9, booleans and labels exactly), nested results field by field.
"""

from __future__ import annotations

import importlib.util
import math
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from mlsysim_symbolic import DerivationError, InputError, UnknownNameError
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.registry import clusters, fabrics, hardware, nodes
from mlsysim_symbolic.solvers import (
    DistributedModel,
    EconomicsModel,
    Models,
    ReliabilityModel,
    SustainabilityModel,
    Systems,
    TopologyModel,
)
from mlsysim_symbolic.solvers.namespaces import UnknownEntryError
from mlsysim_symbolic.sources import REGISTRY_FILES, read_path
from mlsysim_symbolic.units import Q_

from .compare import assert_same, magnitude_like
from .lazy import mapping, reference

mlsysim = reference("mlsysim")
theirs = reference("mlsysim.solvers")
TheirHardware = reference("mlsysim.hardware.registry", "Hardware")
Datacenters = reference("mlsysim.infrastructure.registry", "Datacenters")
Grids = reference("mlsysim.infrastructure.registry", "Grids")
Clusters = reference("mlsysim.systems.registry", "Clusters")
Fabrics = reference("mlsysim.systems.registry", "Fabrics")
Nodes = reference("mlsysim.systems.registry", "Nodes")

REL = 1e-12


def members(registry: Any) -> dict[str, Any]:
    return {k: v for k, v in vars(registry).items() if not k.startswith("_") and isinstance(v, BaseModel)}


# mlsysim's registries, read when first used (collecting imports nothing of mlsysim)
THEIR_FABRICS = mapping(lambda: members(Fabrics._target()))
THEIR_NODES = mapping(lambda: members(Nodes._target()))
THEIR_CLUSTERS = mapping(lambda: members(Clusters._target()))
FABRIC_KEY = mapping(lambda: {id(v): k for k, v in THEIR_FABRICS.items()})
NODE_KEY = mapping(lambda: {id(v): k for k, v in THEIR_NODES.items()})
HARDWARE_KEY = mapping(lambda: {id(v): k for g in vars(TheirHardware._target()).values() if isinstance(g, type)
                                for k, v in members(g).items()})


def same_value(ours: Any, theirs_value: Any, label: str) -> None:
    """One registry field: None, text, whole numbers exactly (type too); plain and Quantity numbers at 1e-12."""
    if theirs_value is None or isinstance(theirs_value, (str, bool)):
        assert ours == theirs_value and type(ours) is type(theirs_value), f"{label}: ours {ours!r}, mlsysim {theirs_value!r}"
    elif isinstance(theirs_value, int):
        assert ours == theirs_value and type(ours) is int, f"{label}: ours {ours!r}, mlsysim {theirs_value!r}"
    elif isinstance(theirs_value, float):
        value = float(ours.to("").magnitude) if hasattr(ours, "units") else float(ours)
        assert math.isclose(value, theirs_value, rel_tol=REL), f"{label}: ours {ours!r}, mlsysim {theirs_value!r}"
    else:   # a Quantity of mlsysim's: ours in its unit
        value, reference = magnitude_like(ours, theirs_value)
        assert math.isclose(value, reference, rel_tol=REL), f"{label}: ours {ours!r}, mlsysim {theirs_value!r}"


#: The [.source] tables as written (the provenance id is kept in the file; our Source does not carry it).
RAW = tomllib.loads((derivations_dir() / "systems.toml").read_text(encoding="utf-8"))


def same_source(ours: Any, meta: Any, label: str) -> None:
    prov = meta.provenance
    assert prov is not None and ours.source.ref, f"{label}: no provenance"
    assert ours.description == meta.description, f"{label}.description"
    for name in ("ref", "url", "verified", "notes"):
        assert getattr(ours.source, name) == (getattr(prov, name) or ""), f"{label}.source.{name}"
    assert ours.source.kind == prov.kind.value, f"{label}.source.kind"
    table, key = label.split(".")
    assert RAW[table][key]["source"]["id"] == prov.id, f"{label}.source.id"


def same_entry(ours: Any, theirs_obj: Any, label: str) -> int:
    """Every field of mlsysim's object equals our entry's; references by identity.  Returns the fields compared."""
    n = 0
    for name in type(theirs_obj).model_fields:
        value = getattr(theirs_obj, name)
        if name == "metadata":
            same_source(ours, value, label)
        elif name == "accelerator":
            assert ours.accelerator is hardware()[HARDWARE_KEY[id(value)]], f"{label}.accelerator"
            assert ours.accelerator.name == value.name
        elif name == "node":
            assert ours.node is nodes()[NODE_KEY[id(value)]], f"{label}.node"
        elif name == "fabric":
            assert ours.fabric is fabrics()[FABRIC_KEY[id(value)]], f"{label}.fabric"
        else:
            same_value(getattr(ours, name), value, f"{label}.{name}")
        n += 1
    return n


# ---------------------------------------------------------------------- the registries
def test_every_fabric_node_and_cluster_of_mlsysim_is_an_entry_under_its_key() -> None:
    assert list(fabrics()) == list(THEIR_FABRICS) and len(fabrics()) == 14
    assert list(nodes()) == list(THEIR_NODES) and len(nodes()) == 8
    assert list(clusters()) == list(THEIR_CLUSTERS) and len(clusters()) == 18


@pytest.mark.parametrize("key", list(fabrics()))
def test_fabric_fields_equal_mlsysims(key: str) -> None:
    ours, ref = fabrics()[key], THEIR_FABRICS[key]
    assert same_entry(ours, ref, f"fabrics.{key}") == 6
    assert math.isclose(ours.bandwidth_gbs, ref.bandwidth_gbs, rel_tol=REL) and ours.latency_us == ref.latency_us


@pytest.mark.parametrize("key", list(nodes()))
def test_node_fields_equal_mlsysims(key: str) -> None:
    ours, ref = nodes()[key], THEIR_NODES[key]
    assert same_entry(ours, ref, f"nodes.{key}") == 18
    assert ours.series_psus == ref.series_psus and type(ours.series_psus) is int


@pytest.mark.parametrize("key", list(clusters()))
def test_cluster_fields_equal_mlsysims(key: str) -> None:
    ours, ref = clusters()[key], THEIR_CLUSTERS[key]
    assert same_entry(ours, ref, f"clusters.{key}") == 8
    assert ours.total_accelerators == ref.total_accelerators
    assert ours.node.series_psus == ref.node.series_psus


def test_psu_fields_by_hand() -> None:
    """The DGX user guides (mlsysim's provenance): H100 six 3.3 kW PSUs in 4+2, 10.2 kW max; A100 six 3 kW in 3+3,
    6.5 kW max; B200 six 3.3 kW in 5+1, 14.3 kW max.  Any spare takes the PSUs out of the series MTBF sum."""
    for key, (psus, spare, rating, peak) in {"DGX_H100": (6, 2, 3.3, 10.2), "DGX_A100": (6, 3, 3.0, 6.5),
                                             "DGX_B200": (6, 1, 3.3, 14.3)}.items():
        node = getattr(Systems.Nodes, key)
        assert (node.psus_per_node, node.psu_redundancy, node.series_psus) == (psus, spare, 0)
        assert node.psu_rating.m_as("kW") == pytest.approx(rating, rel=REL) and node.max_power.m_as("kW") == pytest.approx(peak, rel=REL)
    assert Systems.Nodes.GrandTeton_H100.series_psus == 2   # mlsysim's default 2 PSUs, no redundancy: both in series


def test_the_toml_is_what_the_generator_makes_from_mlsysim() -> None:
    """derivations/systems.toml is, line for line, what tools/systems_registry.py writes from mlsysim's objects."""
    spec = importlib.util.spec_from_file_location("systems_registry", Path(__file__).parents[2] / "tools" / "systems_registry.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (derivations_dir() / "systems.toml").read_text(encoding="utf-8")


def test_the_systems_file_is_a_registry_not_a_derivation_file() -> None:
    """Read as the other registries are: apart from the catalog's derivation files (and their structure cache)."""
    assert "systems.toml" in REGISTRY_FILES
    files, _ = read_path(derivations_dir())
    assert files and not any(Path(f).name in REGISTRY_FILES for f in files)


# ---------------------------------------------------------------------- the namespace
def test_systems_namespace_reads_as_mlsysims() -> None:
    assert Systems.groups() == ["Fabrics", "Nodes", "Clusters"]
    assert Systems.Clusters.keys() == list(THEIR_CLUSTERS)
    assert Systems.Clusters.Research_256 is clusters()["Research_256"]
    assert Systems.Clusters.Frontier_8K.fabric is Systems.Fabrics.InfiniBand_NDR
    assert Systems.Nodes.DGX_H100.accelerator is hardware()["H100"]
    assert Systems.Clusters.Research_256.datacenter is None and Systems.Clusters.Research_256.region is None
    with pytest.raises(UnknownEntryError, match=r"Systems.Clusters: unknown entry 'Research_265'; did you mean 'Research_256'"):
        _ = Systems.Clusters.Research_265
    with pytest.raises(UnknownEntryError, match=r"Systems: unknown group 'Storage'"):
        _ = Systems.Storage
    assert not hasattr(Systems.Fabrics, "InfiniBand_NRD")


# ---------------------------------------------------------------------- the solvers
#: cluster -> (model and DistributedModel layout; Sustainability/Economics days and site; Reliability job hours and kwargs)
SOLVES: dict[str, tuple[str, dict[str, Any], float, str | None, float, dict[str, Any]]] = {
    "Research_256": ("Llama3_8B", dict(batch_size=256, tp_size=8, pp_size=4, microbatch_count=8), 30, None, 24.0, {}),
    "Training_1K": ("Llama3_70B", dict(batch_size=1024, precision="BF16", tp_size=8, pp_size=4, microbatch_count=8,
                                       zero_stage=1, overlap_comm=True), 90, "Quebec_Hydro", 720.0, dict(checkpoint_time_s=120.0)),
    "Frontier_8K": ("Llama3_70B", dict(batch_size=2048, tp_size=8, pp_size=8, microbatch_count=16,
                                       activation_recomputation=True), 54, "Texas", 54 * 24.0, dict(avg_recovery_time_s=600.0)),
    "Lab_64_A100": ("Llama3_8B", dict(batch_size=64, tp_size=8, zero_stage=2), 14, "Poland_Coal", 168.0, {}),
    "Meta_GenAI_H100_24K_RoCE": ("Llama3_70B", dict(batch_size=3072, tp_size=8, pp_size=16, microbatch_count=32,
                                                    congestion_factor=1.2), 30, "Iowa", 720.0, dict(checkpoint_time_s=30.0)),
    "Training_1K_B200": ("Mixtral_8x7B", dict(batch_size=512, precision="fp8", tp_size=2, ep_size=8, zero_stage=1,
                                              moe_routing_imbalance_factor=1.25), 90, "EU_Average", 720.0, {}),
    "Kempner_H100_384": ("Llama3_8B", dict(batch_size=384, tp_size=4, seq_len=4096), 7, "Iceland", 12.0, dict(avg_recovery_time_s=60.0)),
}
THEIR_SITES = mapping(lambda: {"Quebec_Hydro": Datacenters.Quebec_Hydro, "Texas": Grids.Texas, "Poland_Coal": Datacenters.Poland_Coal,
                               "Iowa": Grids.Iowa, "EU_Average": Datacenters.EU_Average, "Iceland": Grids.Iceland})


def same_result(ours: Any, ref: Any, label: str) -> int:
    """Every field of mlsysim's result (``constraint_trace`` apart) equals ours; nested results field by field."""
    fields = [f for f in type(ref).model_fields if f != "constraint_trace"]
    assert list(ours.fields) == fields, f"{label}: fields {list(ours.fields)} != mlsysim's {fields}"
    n = 0
    for field in fields:
        value = getattr(ref, field)
        if isinstance(value, BaseModel):
            n += same_result(getattr(ours, field), value, f"{label}.{field}")
        else:
            assert_same(getattr(ours, field), value, f"{label}.{field}")
            n += 1
    return n


def _their_distributed(model: str, fleet: Any, kwargs: dict[str, Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # mlsysim warns where batch < dp; none of these is
        return theirs.DistributedModel().solve(getattr(mlsysim.Models.Language, model), fleet, **kwargs)


@pytest.mark.parametrize("key", list(SOLVES))
def test_distributed_model_on_our_cluster_equals_mlsysims_on_its(key: str) -> None:
    model, layout, *_ = SOLVES[key]
    ours = DistributedModel().solve(getattr(Models.Language, model), getattr(Systems.Clusters, key), **layout)
    assert same_result(ours, _their_distributed(model, THEIR_CLUSTERS[key], layout), f"{key} DistributedResult") >= 25


@pytest.mark.parametrize("key", list(SOLVES))
def test_sustainability_and_economics_on_our_cluster_equal_mlsysims(key: str) -> None:
    _, _, days, site, _, _ = SOLVES[key]
    fleet, ref = getattr(Systems.Clusters, key), THEIR_CLUSTERS[key]
    extra = {} if site is None else {"datacenter": site}
    their_extra = {} if site is None else {"datacenter": THEIR_SITES[site]}
    assert same_result(SustainabilityModel().solve(fleet, days, mfu=0.4, **extra),
                       theirs.SustainabilityModel().solve(ref, days, mfu=0.4, **their_extra), f"{key} Sustainability") == 7
    assert same_result(EconomicsModel().solve(fleet, days, kwh_price=0.08, **extra),
                       theirs.EconomicsModel().solve(ref, days, kwh_price=0.08, **their_extra), f"{key} Economics") >= 5
    # mlsysim's defaults: no site (the US average), no price (the site's)
    assert same_result(EconomicsModel().solve(fleet, days), theirs.EconomicsModel().solve(ref, days), f"{key} Economics default") >= 5


@pytest.mark.parametrize("key", list(SOLVES))
def test_reliability_on_our_cluster_equals_mlsysims(key: str) -> None:
    *_, hours, kwargs = SOLVES[key]
    assert same_result(ReliabilityModel().solve(getattr(Systems.Clusters, key), hours, **kwargs),
                       theirs.ReliabilityModel().solve(THEIR_CLUSTERS[key], hours, **kwargs), f"{key} Reliability") == 5


def test_a_cluster_key_is_a_fleet_and_the_same_as_its_entry() -> None:
    """The key text binds as the entry does ("Research_256"), in every fleet solver."""
    for solver, args in ((SustainabilityModel(), (30,)), (EconomicsModel(), (30,)), (ReliabilityModel(), (24.0,))):
        assert solver.solve("Research_256", *args) == solver.solve(Systems.Clusters.Research_256, *args)
    by_key = DistributedModel().solve("Llama3_8B", "Training_1K", batch_size=1024, tp_size=8)
    assert same_result(by_key, _their_distributed("Llama3_8B", Clusters.Training_1K, dict(batch_size=1024, tp_size=8)),
                       "Training_1K by key") >= 25


def test_mtbf_by_hand_on_our_entry() -> None:
    """Research_256: 32 DGX H100 nodes, each 8 GPUs + 8 NICs in series and no PSU (4+2 redundancy).  mlsysim's
    component MTTFs (its Systems.Reliability: GPU 50,000 h, NIC 150,000 h) give a node rate 8/50,000 + 8/150,000
    per hour; the fleet 32 x that = 6.8267e-3/h, an MTBF of 146.484375 h."""
    from mlsysim.systems.registry import Reliability

    assert (Reliability.Gpu.mttf_hours, Reliability.Nic.mttf_hours) == (50_000.0, 150_000.0)
    r = ReliabilityModel().solve(Systems.Clusters.Research_256, 24.0)
    assert r.fleet_mtbf.m_as("hour") == pytest.approx(1 / (32 * (8 / 50_000 + 8 / 150_000)), rel=1e-12)
    assert r.fleet_mtbf.m_as("hour") == pytest.approx(146.484375, rel=1e-12)


@pytest.mark.parametrize("key, topology, num_nodes", [
    ("InfiniBand_NDR", "fat_tree", 64), ("InfiniBand_NDR_Oversub4to1", "fat_tree", 1024),
    ("InfiniBand_NDR_Oversub2to1", "dragonfly", 256), ("InfiniBand_XDR", "torus_3d", 512), ("RoCE_400G", "ring", 16),
    ("Ethernet_10G", "fat_tree", 128), ("InfiniBand_EDR", "torus_3d", 64), ("Ethernet_1P6T", "dragonfly", 1024),
])
def test_topology_model_on_our_fabric_equals_mlsysims(key: str, topology: str, num_nodes: int) -> None:
    ours = TopologyModel().solve(getattr(Systems.Fabrics, key), topology, num_nodes)
    assert same_result(ours, theirs.TopologyModel().solve(THEIR_FABRICS[key], topology, num_nodes), key) >= 4
    assert TopologyModel().solve(key, topology, num_nodes) == ours   # the key text binds as the entry does


# ---------------------------------------------------------------------- refusals
def test_unknown_keys_are_refused_by_name_with_close_matches() -> None:
    with pytest.raises(UnknownNameError, match=r"fleet: unknown cluster 'Research_265'; did you mean 'Research_256'"):
        SustainabilityModel().solve("Research_265", 30)
    with pytest.raises(UnknownNameError, match=r"fleet: unknown cluster 'Frontier_8k'; did you mean 'Frontier_8K'"):
        DistributedModel().solve("Llama3_8B", "Frontier_8k")
    with pytest.raises(UnknownNameError, match=r"fleet: unknown cluster 'Lab_64'; did you mean 'Lab_64_H100', 'Lab_64_A100'"):
        ReliabilityModel().solve("Lab_64", 24.0)
    with pytest.raises(UnknownNameError, match=r"fabric: unknown fabric 'InfiniBand_NRD'; did you mean 'InfiniBand_NDR'"):
        TopologyModel().solve("InfiniBand_NRD")


SYSTEMS_OK = """
[fabrics.F]
bandwidth = "400 Gbps"
oversubscription_ratio = 1.0
[nodes.N]
accelerator = "H100"
accelerators_per_node = 8
intra_node_bw = "450 GB/s"
nics_per_node = 8
psus_per_node = 2
psu_redundancy = 0
[clusters.C]
node = "N"
fabric = "F"
count = 4
"""


def _written(tmp_path: Path, text: str) -> str:
    path = tmp_path / "systems.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_small_systems_file_reads_and_solves(tmp_path: Path) -> None:
    """4 nodes x 8 H100 at 700 W (hardware.toml) for 1 day at mfu 1: 4 x 8 x 0.7 kW x 24 h = 537.6 kWh of IT energy."""
    cluster = clusters(_written(tmp_path, SYSTEMS_OK))["C"]
    assert cluster.total_accelerators == 32 and cluster.node.series_psus == 2 and cluster.fabric.latency is None
    r = SustainabilityModel().solve(cluster, 1)
    assert r.it_energy_kwh.m_as("kWh") == pytest.approx(4 * 8 * 0.7 * 24, rel=1e-12)


@pytest.mark.parametrize("old, new, match", [
    ('accelerator = "H100"', 'accelerator = "H1000"',
     r"nodes.N.accelerator = 'H1000' is not a key of the hardware registry \(hardware.toml\); did you mean 'H100'"),
    ('node = "N"', 'node = "DGX_H100"', r"clusters.C.node = 'DGX_H100' is not a key of the node registry \(\[nodes\] of systems.toml\)"),
    ('fabric = "F"', 'fabric = "G"', r"clusters.C.fabric = 'G' is not a key of the fabric registry \(\[fabrics\] of systems.toml\) Known: F$"),
    ('count = 4', 'count = 4.5', r"clusters.C.count = 4.5: expected a whole number of nodes in the fleet"),
    ('count = 4', 'cont = 4', r"unknown field 'cont'; did you mean 'count'"),
    ('psu_redundancy = 0', 'psu_redundancy = 2', r"nodes.N.psu_redundancy = 2: must be below psus_per_node \(2\)"),
    ('nics_per_node = 8\n', '', r"nodes.N: missing field 'nics_per_node'"),
    ('bandwidth = "400 Gbps"', 'bandwidth = "400 GB"', r"fabrics: F: bandwidth = '400 GB' is not a quantity in Gbps"),
])
def test_a_bad_systems_file_is_refused_naming_file_entry_and_field(tmp_path: Path, old: str, new: str, match: str) -> None:
    assert old in SYSTEMS_OK
    path = _written(tmp_path, SYSTEMS_OK.replace(old, new))
    with pytest.raises(DerivationError, match=match) as info:
        clusters(path)
    assert str(info.value).startswith(path)


def test_registry_quantities_are_ours() -> None:
    """The entries' Quantities are of our registry, in the TOML's units (50 GB/s of a 400 Gb/s link, by hand)."""
    ndr = Systems.Fabrics.InfiniBand_NDR
    assert ndr.bandwidth.to("GB/s") == Q_(50, "GB/s") and ndr.bandwidth_gbs == 50.0


def test_a_changed_entry_is_checked_and_its_references_resolved() -> None:
    """``with_fields`` (as mlsysim's ``model_copy(update=...)``): 4 DGX A100 nodes on NDR are 32 GPUs with 3+3 PSUs
    (no PSU in series); the distributed step on the changed cluster equals mlsysim's on its changed Fleet."""
    small = Systems.Clusters.Training_1K.with_fields({"count": 4, "node": "DGX_A100", "fabric": Systems.Fabrics.InfiniBand_NDR})
    assert (small.total_accelerators, small.node.series_psus, small.fabric.key) == (32, 0, "InfiniBand_NDR")
    ref = Clusters.Training_1K.model_copy(update={"count": 4, "node": Nodes.DGX_A100, "fabric": Fabrics.InfiniBand_NDR})
    layout = dict(batch_size=64, tp_size=8)
    assert same_result(DistributedModel().solve("Llama3_8B", small, **layout), _their_distributed("Llama3_8B", ref, layout),
                       "changed cluster") >= 25
    with pytest.raises(UnknownNameError, match=r"Training_1K.node: unknown node 'DGX_A10'; did you mean 'DGX_A100'"):
        Systems.Clusters.Training_1K.with_fields({"node": "DGX_A10"})
    with pytest.raises(InputError, match=r"Training_1K.fabric: expected a fabric \(its key or entry\), got Node"):
        Systems.Clusters.Training_1K.with_fields({"fabric": Systems.Nodes.DGX_H100})
    with pytest.raises(InputError, match=r"nodes.DGX_H100.psu_redundancy = 6: must be below psus_per_node \(6\)"):
        Systems.Nodes.DGX_H100.with_fields({"psu_redundancy": 6})
    with pytest.raises(InputError, match=r"nodes.DGX_H100: 2 required PSUs x 3.3 kW cannot carry max_power 10.2 kW"):
        Systems.Nodes.DGX_H100.with_fields({"psu_redundancy": 4})


def test_an_entry_of_another_registry_is_refused_by_its_class():
    """A node (or a cluster) where a device belongs is named, not read as a device missing its memory capacity."""
    from mlsysim_symbolic.solvers import SingleNodeModel, Systems

    with pytest.raises(InputError, match="hardware: expected a hardware entry, got the node 'DGX_H100'"):
        SingleNodeModel().solve("Llama3_8B", Systems.Nodes.DGX_H100)
    with pytest.raises(InputError, match="expected a workload entry, got the cluster 'Research_256'"):
        SingleNodeModel().solve(Systems.Clusters.Research_256, "H100")
