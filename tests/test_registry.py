"""Tests that mirror ``mlsysim_symbolic/registry.py`` (issue 31): the six registries, entries frozen and changed by copy,
``make_entry``'s checks, and lookups of unknown keys.

Every value asserted comes from outside the code under test: mlsysim 0.3.0's own objects, or the published figure
cited beside it.
"""

from __future__ import annotations

import pytest
from reference.lazy import reference

from mlsysim_symbolic.errors import FrozenEntryError, UnitError, UnknownNameError
from mlsysim_symbolic.registry import (
    HARDWARE_FIELDS,
    WORKLOAD_FIELDS,
    Entry,
    Hardware,
    Registry,
    Workload,
    clusters,
    fabrics,
    grids,
    hardware,
    make_entry,
    nodes,
    workloads,
)

mlsysim = reference("mlsysim")   # imported when a test first reads it: collecting imports nothing of mlsysim


def _mag(q, unit):
    return q.to(unit).magnitude


# ---------------------------------------------------------------------- the six registries against mlsysim 0.3.0
@pytest.mark.parametrize("registry, key, field, theirs, unit", [
    # NVIDIA H100 SXM datasheet (hardware.toml [hardware.H100.source], prov:nvidia-h100-datasheet): 989 TFLOP/s dense
    # FP16/BF16, 3.35 TB/s HBM3, 80 GB, 700 W; mlsysim 0.3.0 carries the same figures.
    (hardware, "H100", "peak_flops", lambda: mlsysim.Hardware.Cloud.H100.compute.peak_flops, "TFLOP/s"),
    (hardware, "H100", "memory_bandwidth", lambda: mlsysim.Hardware.Cloud.H100.memory.bandwidth, "TB/s"),
    (hardware, "H100", "memory_capacity", lambda: mlsysim.Hardware.Cloud.H100.memory.capacity, "GiB"),
    (hardware, "H100", "tdp", lambda: mlsysim.Hardware.Cloud.H100.tdp, "W"),
    # GPT-2 XL (Radford et al. 2019): 1.5e9 parameters, 48 layers, hidden 1600
    (workloads, "GPT2", "parameters", lambda: mlsysim.Models.Language.GPT2.parameters, "param"),
    # Llama 3.1 8B model card: 8.03e9 parameters, 8 KV heads
    (workloads, "Llama3_8B", "parameters", lambda: mlsysim.Models.Language.Llama3_8B.parameters, "param"),
    # IEA WEO 2023: France about 50 gCO2/kWh
    (grids, "France", "carbon_intensity", lambda: mlsysim.Infrastructure.Grids.France.carbon_intensity_g_kwh, None),
    (fabrics, "Ethernet_100G", "bandwidth", lambda: mlsysim.Systems.Fabrics.Ethernet_100G.bandwidth, "Gbps"),
    (fabrics, "Ethernet_100G", "latency", lambda: mlsysim.Systems.Fabrics.Ethernet_100G.latency, "us"),
    # NVIDIA DGX H100 datasheet: 8 GPUs, 2 TB host memory, 10.2 kW max power
    (nodes, "DGX_H100", "intra_node_bw", lambda: mlsysim.Systems.Nodes.DGX_H100.intra_node_bw, "GB/s"),
    (nodes, "DGX_H100", "max_power", lambda: mlsysim.Systems.Nodes.DGX_H100.max_power, "kW"),
])
def test_registry_fields_match_mlsysim(registry, key, field, theirs, unit):
    ours = registry()[key].fields[field]
    expected = theirs()
    if unit is None:   # mlsysim states the grid's intensity as a plain float in g/kWh
        assert _mag(ours, "g/kWh") == pytest.approx(expected)
    else:
        assert _mag(ours, unit) == pytest.approx(_mag(expected, unit))


@pytest.mark.parametrize("registry, key, field, expected", [
    (workloads, "GPT2", "layers", 48),              # Radford et al. 2019, GPT-2 XL
    (workloads, "GPT2", "hidden_dim", 1600),
    (workloads, "Llama3_8B", "kv_heads", 8),        # Llama 3 model card: GQA with 8 KV heads
    (nodes, "DGX_H100", "accelerators_per_node", 8),  # DGX H100 datasheet: 8x H100 SXM5
    (nodes, "DGX_H100", "host_cpu_cores", 112),     # 2 x Xeon Platinum 8480C, 56 cores each
    (clusters, "Research_256", "count", 32),        # 256 GPUs / 8 per DGX H100 node = 32 nodes
])
def test_registry_counts(registry, key, field, expected):
    assert registry()[key].fields[field] == expected


def test_each_registry_is_a_read_only_mapping_of_its_entries():
    for registry, key, cls in [(workloads, "GPT2", Workload), (hardware, "H100", Hardware), (grids, "France", Entry),
                               (fabrics, "Ethernet_100G", Entry), (nodes, "DGX_H100", Entry),
                               (clusters, "Research_256", Entry)]:
        r = registry()
        assert isinstance(r, Registry) and key in r and isinstance(r[key], cls)
        assert r[key].key == key and getattr(r, key) is r[key]
        with pytest.raises(FrozenEntryError):
            r.anything = 1


def test_mlsysim_names_resolve_by_display_name():
    # mlsysim's display names for the same entries
    assert hardware()[mlsysim.Hardware.Cloud.H100.name].key == "H100"          # 'NVIDIA H100'
    assert workloads()[mlsysim.Models.Language.GPT2.name].key == "GPT2"        # 'GPT-2 (1.5B)'


def test_cluster_links_node_and_fabric_and_counts_accelerators():
    c = clusters()["Research_256"]
    theirs = mlsysim.Systems.Clusters.Research_256
    assert c.node.key == "DGX_H100" and c.node.name == theirs.node.name
    assert c.fabric.name == theirs.fabric.name                                   # '100GbE'
    assert c.total_accelerators == 32 * 8 == 256                                 # the cluster's name: 256 GPUs


# ---------------------------------------------------------------------- Entry: frozen, changed by copy
def test_entry_refuses_setting_and_deleting_a_field():
    h = hardware()["H100"]
    with pytest.raises(FrozenEntryError, match="tdp"):
        h.tdp = "800 W"
    with pytest.raises(FrozenEntryError):
        del h.tdp
    with pytest.raises(FrozenEntryError):
        h.fields["tdp"] = 1
    with pytest.raises(FrozenEntryError):
        h.fields.update(tdp=1)
    assert _mag(h.tdp, "W") == 700   # unchanged (datasheet: 700 W)


def test_with_fields_returns_a_changed_copy_and_keeps_the_original():
    llama = workloads()["Llama3_8B"]
    mha = llama.with_fields({"kv_heads": 32})
    assert mha is not llama and type(mha) is type(llama)
    assert (mha.kv_heads, llama.kv_heads) == (32, 8)
    assert mha.heads == llama.heads == 32                       # model card: 32 query heads, kept
    h = hardware()["H100"].with_fields({"tdp": "800 W"})
    assert _mag(h.tdp, "W") == 800 and _mag(hardware()["H100"].tdp, "W") == 700


def test_with_fields_refuses_an_unknown_field_with_a_hint():
    with pytest.raises(UnknownNameError, match="kv_heads"):
        workloads()["Llama3_8B"].with_fields({"kv_head": 2})


def test_entry_get_reads_a_dotted_path():
    # H100 datasheet: 989 TFLOP/s dense FP16, 1979 sparse
    h = hardware()["H100"]
    assert _mag(h.get("precision_flops.fp16_sparse"), "TFLOP/s") == 1979
    assert h.get("precision_flops.nope") is None


# ---------------------------------------------------------------------- make_entry
def test_make_entry_reads_text_quantities_in_schema_units():
    e = make_entry(Hardware, "Toy", {"name": "Toy GPU", "peak_flops": "2 PFLOP/s", "tdp": "1.5 kW"}, HARDWARE_FIELDS)
    assert e.name == "Toy GPU"
    assert _mag(e.peak_flops, "TFLOP/s") == pytest.approx(2000)   # 2 PFLOP/s = 2000 TFLOP/s
    assert _mag(e.tdp, "W") == pytest.approx(1500)


def test_make_entry_strict_refuses_an_unknown_field():
    with pytest.raises(UnknownNameError, match="tdq") as info:
        make_entry(Hardware, "Toy", {"tdq": "700 W"}, HARDWARE_FIELDS, strict=True)
    assert "tdp" in str(info.value)   # the close name is offered


@pytest.mark.parametrize("field, value", [("tdp", "3 GB"), ("memory_bandwidth", "5 s"), ("parameters", "abc")])
def test_make_entry_refuses_a_value_in_the_wrong_unit(field, value):
    schema = HARDWARE_FIELDS if field in HARDWARE_FIELDS else WORKLOAD_FIELDS
    cls = Hardware if schema is HARDWARE_FIELDS else Workload
    with pytest.raises(UnitError, match=field):
        make_entry(cls, "Toy", {field: value}, schema)


# ---------------------------------------------------------------------- unknown keys
@pytest.mark.parametrize("registry, typo, close", [
    (hardware, "H10", "H100"), (workloads, "Llama3_9B", "Llama3_8B"), (clusters, "Research_255", "Research_256"),
    (nodes, "DGX_H10", "DGX_H100"), (fabrics, "Ethernet_100", "Ethernet_100G"), (grids, "Frnce", "France"),
])
def test_unknown_key_raises_with_did_you_mean(registry, typo, close):
    with pytest.raises(UnknownNameError) as info:
        registry()[typo]
    text = str(info.value)
    assert typo in text and close in text and "did you mean" in text
    with pytest.raises(AttributeError, match=close):
        getattr(registry(), typo)


def test_a_bad_entry_is_refused_when_read_and_by_check(tmp_path):
    """Entries are made when first asked for (a first value reads one workload); a bad one is still refused, naming the
    file, the entry and the field, when it is read and by the catalog's ``check`` (which makes every entry)."""
    from mlsysim_symbolic.catalog import load_derivations
    from mlsysim_symbolic.errors import DerivationError

    bad = tmp_path / "workloads.toml"
    bad.write_text('[workloads.Good]\nname = "Good"\nparameters = "1e9 param"\n\n'
                   '[workloads.Bad]\nname = "Bad model"\nparameters = "7 GB"\n', encoding="utf-8")
    reg = workloads(str(bad))
    assert _mag(reg["Good"].parameters, "param") == 1e9     # the good entry reads although its neighbour is bad
    for read in (lambda: reg["Bad"], lambda: reg["Bad model"], lambda: dict(reg.items())):
        with pytest.raises(DerivationError, match=r"Bad.*parameters.*7 GB.*param") as info:
            read()
        assert str(bad) in str(info.value)
    cat = load_derivations(bad)
    with pytest.raises(DerivationError, match=r"Bad.*parameters"):
        cat.check()
