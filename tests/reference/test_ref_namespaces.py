"""mlsysim's registry namespaces as its code reads them: ``list(sort_by=..., reverse=...)`` on every namespace and group
(entries, in mlsysim's order, sorted by a dotted path of mlsysim's objects), and a device's nested views
(``hw.compute.peak_flops``, ``hw.memory.capacity``), compared with mlsysim 0.3.0's own objects."""

from __future__ import annotations

import pytest

from mlsysim_symbolic.solvers import Hardware, Infrastructure, Models, Systems

from .compare import assert_same
from .lazy import reference

mlsysim = reference("mlsysim")

SORTS = {
    "Hardware": [None, "release_year", "compute.peak_flops", "memory.capacity", "memory.bandwidth", "tdp", "name",
                 "no.such.field"],
    "Models": [None, "parameters", "layers", "release_year", "inference_flops", "name"],
    "Systems": [None, "count", "name", "node.accelerator.compute.peak_flops", "bandwidth"],
    "Infrastructure": [None, "name", "carbon_intensity_g_kwh", "pue", "wue", "renewable_pct", "lat",
                       "grid.carbon_intensity_g_kwh"],
    # a datacenter of ours also states its grid's figures flat (wue, carbon intensity: our equations read them);
    # mlsysim's Datacenter reads them through its grid, so it sorts by those as by a missing field (0)
    "Infrastructure.Datacenters": [None, "name", "pue", "grid.carbon_intensity_g_kwh", "grid.renewable_pct"],
}
OURS = {"Hardware": Hardware, "Models": Models, "Systems": Systems, "Infrastructure": Infrastructure}
#: Namespaces of mlsysim with groups not ported (Systems' Storage, Racks ...; Infrastructure's Pricing, Racks ...):
#: their groups are compared one by one.
PARTIAL = frozenset({"Systems", "Infrastructure"})


def _names(entries) -> list[str]:
    return [e.name for e in entries]


@pytest.mark.parametrize("namespace", ["Hardware", "Models", "Systems", "Infrastructure"])
def test_list_sorted_as_mlsysims_on_every_group(namespace):
    ours, theirs = OURS[namespace], getattr(mlsysim, namespace)
    # mlsysim's Systems also lists groups not ported (Storage, Racks ...): its groups are compared one by one
    scopes = [*([None] if namespace not in PARTIAL else []), *ours.groups()]
    compared = 0
    for group in scopes:
        o = ours if group is None else getattr(ours, group)
        t = theirs if group is None else getattr(theirs, group)
        for sort_by in SORTS.get(f"{namespace}.{group}", SORTS[namespace]):
            for reverse in (False, True):
                assert _names(o.list(sort_by=sort_by, reverse=reverse)) == _names(t.list(sort_by=sort_by, reverse=reverse)), \
                    (namespace, group, sort_by, reverse)
                compared += 1
    assert compared >= 20


def test_every_device_reads_through_mlsysims_nested_views():
    """Each field of each nested view of every device equals mlsysim's, in mlsysim's unit (an unset one is None)."""
    from mlsysim_symbolic.registry import HARDWARE_VIEWS

    for theirs in mlsysim.Hardware.list():
        ours = next(h for h in Hardware.list() if h.name == theirs.name)
        for view, fields in HARDWARE_VIEWS.items():
            their_view = getattr(theirs, view)
            for field in fields:
                expected = getattr(their_view, field, None) if their_view is not None else None
                got = getattr(getattr(ours, view), field)
                if expected is None or field == "precision_flops":   # (a dict of mlsysim's keys; compared elsewhere)
                    continue
                if isinstance(expected, str):
                    assert got == expected, (theirs.name, view, field)
                else:
                    assert_same(got, expected, f"{theirs.name}.{view}.{field}")


def test_isinstance_answers_as_mlsysim_for_every_model():
    """``isinstance(model, TransformerWorkload)`` (and each of mlsysim's workload classes) gives mlsysim's answer for
    our entry of every model, and for mlsysim's own object."""
    import mlsysim_symbolic
    from mlsysim_symbolic.solvers.workload_classes import CLASSES

    models = {m.name: m for m in Models.list()}
    theirs_all = mlsysim.Models.list()
    assert len(theirs_all) == len(models)
    for theirs in theirs_all:
        ours = models[theirs.name]
        for name, cls in CLASSES.items():
            expected = isinstance(theirs, getattr(__import__("mlsysim.models.types", fromlist=[name]), name))
            assert isinstance(ours, cls) is expected, (theirs.name, name)
            assert isinstance(theirs, cls) is expected, (theirs.name, name)
            assert getattr(mlsysim_symbolic, name) is cls


def test_grids_and_datacenters_read_as_mlsysims():
    """mlsysim's GridProfile fields (plain numbers in its units) and a datacenter's grid, for every entry."""
    grids = {g.name: g for g in Infrastructure.Grids.list()}
    for theirs in mlsysim.Infrastructure.Grids.list():
        ours = grids[theirs.name]
        for field in ("carbon_intensity_g_kwh", "renewable_pct", "lat", "lon", "primary_source"):
            assert getattr(ours, field) == getattr(theirs, field), (theirs.name, field)
        # pue and wue are Quantities here (1, L/kWh: our equations read them), plain numbers in those units there
        assert float(ours.pue.to("").magnitude) == theirs.pue and float(ours.wue.to("L/kWh").magnitude) == theirs.wue
    centres = {d.name: d for d in Infrastructure.Datacenters.list()}
    for theirs in mlsysim.Infrastructure.Datacenters.list():
        assert centres[theirs.name].grid.name == theirs.grid.name
    with pytest.raises(Exception, match="unknown group 'Pricing'"):
        _ = Infrastructure.Pricing


def test_fleets_built_as_mlsysims_code_builds_them_solve_as_mlsysims():
    """NetworkFabric, Node and Fleet called with mlsysim's keywords give our checked entries, and a solver given them
    answers as mlsysim's given its own (the fleet reliability of four 8-GPU nodes on one NDR fabric)."""
    import mlsysim_symbolic
    from mlsysim_symbolic.solvers import ReliabilityModel

    def build(ns, hardware):
        fabric = ns.NetworkFabric(name="IB NDR", bandwidth=ns.Q_(400, "Gbps"), latency=ns.Q_(5, "us"))
        node = ns.Node(name="DGX", accelerator=hardware, accelerators_per_node=8, intra_node_bw=ns.Q_(450, "GB/s"),
                       nics_per_node=8)
        return ns.Fleet(name="Four DGX", node=node, count=4, fabric=fabric)

    from mlsysim.systems import types as their_types

    class Theirs:   # mlsysim's constructors under the names mlsysim's code uses
        NetworkFabric, Node, Fleet, Q_ = their_types.NetworkFabric, their_types.Node, their_types.Fleet, mlsysim.Q_

    ours = build(mlsysim_symbolic, mlsysim.Hardware.Cloud.H100)   # mlsysim's own device, carried in
    theirs = build(Theirs, mlsysim.Hardware.Cloud.H100)
    assert isinstance(ours, mlsysim_symbolic.Fleet) and ours.total_accelerators == theirs.total_accelerators == 32
    assert_same(ours.fabric.bandwidth, theirs.fabric.bandwidth, "fabric.bandwidth")
    our_result = ReliabilityModel().solve(ours, job_duration_hours=24.0)
    from mlsysim.engine.solvers import ReliabilityModel as TheirReliabilityModel

    their_result = TheirReliabilityModel().solve(theirs, job_duration_hours=24.0)
    for field in ("fleet_mtbf", "failure_probability", "optimal_checkpoint_interval", "expected_failures", "goodput_ratio"):
        assert_same(getattr(our_result, field), getattr(their_result, field), field)
    with pytest.raises(ValueError, match="psu_redundancy|redundan"):
        mlsysim_symbolic.Node(name="x", accelerator="H100", accelerators_per_node=8, intra_node_bw="450 GB/s",
                              psus_per_node=2, psu_redundancy=3)
    with pytest.raises(ValueError, match="speed"):
        mlsysim_symbolic.NetworkFabric(name="x", bandwidth="400 Gbps", speed=3)
