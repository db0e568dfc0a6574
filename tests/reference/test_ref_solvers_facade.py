"""The solvers facade of the sustainability, economics, efficiency, inference-scaling, checkpoint, scaling,
reliability, data and compression types, called exactly as mlsysim 0.3.0's solvers are called.

Each configuration passes the SAME arguments (mlsysim's own model, device, fleet, datacenter and Quantity
objects, or plain numbers) to ``mlsysim_symbolic.solvers.XModel().solve(...)`` and to mlsysim's
``mlsysim.solvers.XModel().solve(...)``, and compares every field of mlsysim's result (``constraint_trace``, prose,
apart): numbers at 1e-9 relative, booleans and labels exactly, nested results field by field.  The types
themselves are compared on their named scenarios, and differentiated against mlsysim's central differences, in
``test_ref_solvers_fleet.py`` and ``test_ref_solvers_training.py``; here the argument mapping is under test.
"""

from __future__ import annotations

from typing import Any

import pytest

from mlsysim_symbolic import InputError
from mlsysim_symbolic import solvers as ours

from .compare import assert_close
from .lazy import reference

mlsysim = reference("mlsysim")
theirs = reference("mlsysim.solvers")
their_Q = reference("mlsysim.core.units", "Q_")
H = reference("mlsysim.hardware.registry", "Hardware")
Datacenters = reference("mlsysim.infrastructure.registry", "Datacenters")
Grids = reference("mlsysim.infrastructure.registry", "Grids")
M = reference("mlsysim.models.registry", "Models")
C = reference("mlsysim.systems.registry", "Clusters")
F = reference("mlsysim.systems.registry", "Fabrics")


def same(a: Any, b: Any, label: str) -> int:
    """Compare our field value ``a`` with mlsysim's ``b``; the number of values compared."""
    if b is None or isinstance(b, (bool, str)):
        assert a == b and type(a) is type(b), f"{label}: ours {a!r}, mlsysim {b!r}"
        return 1
    if hasattr(type(b), "model_fields"):   # a nested result
        return same_result(a, b, label)
    if isinstance(b, dict):
        assert list(a) == list(b), f"{label}: keys {list(a)} != {list(b)}"
        return sum(same(a[k], b[k], f"{label}[{k}]") for k in b)
    assert hasattr(a, "units") == hasattr(b, "units"), f"{label}: ours {a!r}, mlsysim {b!r} (Quantity or plain)"
    assert_close(a, b, label)
    return 1


def same_result(a: Any, b: Any, label: str) -> int:
    fields = [f for f in type(b).model_fields if f != "constraint_trace"]
    assert list(a.fields) == fields, f"{label}: fields {list(a.fields)} != mlsysim's {fields}"
    assert repr(a).startswith(type(b).__name__ + "("), f"{label}: {a!r}"
    return sum(same(getattr(a, f), getattr(b, f), f"{label}.{f}") for f in fields)


#: (solver, () -> (positional arguments, keyword arguments)): at least five per solver, as mlsysim is called (the
#: arguments are mlsysim's objects, made when the test runs: collecting imports nothing of mlsysim).
CALLS: list[tuple[str, Any]] = [
    ("SustainabilityModel", lambda: ((C.Research_256, 30), {})),
    ("SustainabilityModel", lambda: ((C.Lab_64_A100, 14), dict(datacenter=Datacenters.Quebec_Hydro, mfu=0.4, embodied_carbon_per_device=150.0))),
    ("SustainabilityModel", lambda: ((C.Training_1K_B200, 90), dict(datacenter=Datacenters.Poland_Coal, mfu=0.5))),
    ("SustainabilityModel", lambda: ((C.Kempner_H100_384, 7), dict(datacenter=Grids.Iceland, mfu=0.35))),
    ("SustainabilityModel", lambda: ((C.Meta_Llama3_16K_H100, 54.5), dict(datacenter=Grids.Texas, mfu=0.38))),
    ("EconomicsModel", lambda: ((C.Research_256, 30), {})),
    ("EconomicsModel", lambda: ((C.Lab_64_A100, 365), dict(datacenter=Datacenters.Quebec_Hydro, mfu=0.5, kwh_price=0.07))),
    ("EconomicsModel", lambda: ((C.Training_1K_B200, 90), dict(datacenter=Datacenters.EU_Average, mfu=0.45, amortization_years=4,
                                                        infrastructure_multiplier=2.0))),
    ("EconomicsModel", lambda: ((C.Kempner_H100_384, 7), dict(grid=Grids.Iceland, mfu=0.35))),            # grid= read as the site
    ("EconomicsModel", lambda: ((C.Meta_Llama3_16K_H100, 54), dict(grid=Grids.Texas, datacenter=Datacenters.France_Nuclear))),
    ("EfficiencyModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), {})),
    ("EfficiencyModel", lambda: ((M.Language.Llama3_70B, H.Cloud.A100), dict(workload_type="attention", use_flash_attention=True))),
    ("EfficiencyModel", lambda: ((M.Vision.ResNet50, H.Cloud.A100), dict(workload_type="conv", precision="FP16", efficiency=0.7))),
    ("EfficiencyModel", lambda: ((M.Language.GPT3, H.Cloud.B200), dict(workload_type="other"))),           # mlsysim's last branch
    ("EfficiencyModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), dict(workload_type="attention", efficiency=0.2))),
    ("InferenceScalingModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), {})),
    ("InferenceScalingModel", lambda: ((M.Language.Llama3_70B, H.Cloud.H200), dict(reasoning_steps=32, context_length=8192))),
    ("InferenceScalingModel", lambda: ((M.Language.Llama3_8B, H.Cloud.A100), dict(precision="int8"))),
    ("InferenceScalingModel", lambda: ((M.Language.Mixtral_8x7B, H.Cloud.B200), dict(reasoning_steps=4, efficiency=0.35))),
    ("InferenceScalingModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), dict(reasoning_steps=1, context_length=512, precision="fp32"))),
    ("CheckpointModel", lambda: ((M.Language.Llama3_70B, H.Cloud.H100), {})),
    ("CheckpointModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), dict(n_writers=8, checkpoint_interval_hours=1.0))),
    ("CheckpointModel", lambda: ((M.Language.GPT3, H.Cloud.A100), dict(n_writers=256, checkpoint_interval_hours=2.0))),
    ("CheckpointModel", lambda: ((M.Language.Llama3_405B, H.Cloud.H200), dict(n_writers=1024, filesystem_limit_gbs=200.0))),
    ("CheckpointModel", lambda: ((M.Vision.ResNet50, H.Cloud.A100), dict(optimizer="SGD", checkpoint_interval_hours=0.5))),
    ("CheckpointModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), dict(optimizer="adamw"))),         # mlsysim: 4 B/param
    ("ScalingModel", lambda: ((their_Q(5.76e23, "flop"),), {})),
    ("ScalingModel", lambda: ((their_Q(3.14e23, "flop"),), {})),
    ("ScalingModel", lambda: ((their_Q(1e24, "flop"),), dict(target_model_size=their_Q(70e9, "count")))),
    ("ScalingModel", lambda: ((their_Q(30, "day"),), {})),
    ("ScalingModel", lambda: ((their_Q(52, "week"),), {})),
    ("ReliabilityModel", lambda: ((C.Research_256, 24.0), {})),
    ("ReliabilityModel", lambda: ((C.Training_1K_B200, 720.0), dict(checkpoint_time_s=120.0))),
    ("ReliabilityModel", lambda: ((C.Meta_Llama3_16K_H100, 54 * 24.0), dict(checkpoint_time_s=30.0, avg_recovery_time_s=600.0))),
    ("ReliabilityModel", lambda: ((C.Lab_64_A100, 168.0), {})),
    ("ReliabilityModel", lambda: ((C.Kempner_H100_384, 12.0), dict(avg_recovery_time_s=60.0))),
    ("DataModel", lambda: ((their_Q(2, "GB/s"), H.Cloud.H100), {})),
    ("DataModel", lambda: ((their_Q(50, "GB/s"), H.Cloud.A100), {})),
    ("DataModel", lambda: ((their_Q(400, "MB/s"), H.Edge.DriveThor), {})),
    ("DataModel", lambda: ((their_Q(10, "TB/hour"), H.Cloud.B200), {})),
    ("DataModel", lambda: ((their_Q(5, "GB/s"), H.Edge.RoboTaxi), {})),
    ("CompressionModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), {})),
    ("CompressionModel", lambda: ((M.Language.Llama3_70B, H.Cloud.A100), dict(target_bitwidth=4))),
    ("CompressionModel", lambda: ((M.Vision.ResNet50, H.Cloud.A100), dict(method="pruning", sparsity=0.5, sparsity_type="n_m"))),
    ("CompressionModel", lambda: ((M.Vision.MobileNetV2, H.Mobile.iPhone15Pro), dict(method="pruning", sparsity=0.9,
                                                                            sparsity_type="structured"))),
    ("CompressionModel", lambda: ((M.Language.Llama3_8B, H.Cloud.H100), dict(target_bitwidth=8, baseline_precision="FP16"))),
    ("TopologyModel", lambda: ((F.InfiniBand_NDR,), {})),
    ("TopologyModel", lambda: ((F.InfiniBand_NDR_Oversub2to1, "dragonfly", 256), {})),
    ("TopologyModel", lambda: ((F.InfiniBand_XDR,), dict(topology="torus_3d", num_nodes=512))),
    ("TopologyModel", lambda: ((F.RoCE_400G,), dict(topology="ring", num_nodes=16))),
    ("TopologyModel", lambda: ((F.Ethernet_100G, "fat_tree", 1024), {})),
    ("TransformationModel", lambda: ((256, their_Q(500, "KB"), their_Q(2, "GB/s"), their_Q(50, "ms")), {})),
    ("TransformationModel", lambda: ((64, their_Q(500, "KB"), their_Q(2, "GB/s"), their_Q(50, "ms")), {})),
    ("TransformationModel", lambda: ((1024, their_Q(8, "KB"), their_Q(0.5, "GB/s"), their_Q(120, "ms")), {})),
    ("TransformationModel", lambda: ((32, their_Q(12, "MB"), their_Q(4, "GB/s"), their_Q(40, "ms")), {})),
    ("TransformationModel", lambda: ((128, their_Q(640, "KB"), their_Q(1.6, "GB/s"), their_Q(51.2, "ms")), {})),
    ("ResponsibleEngineeringModel", lambda: ((their_Q(100, "hour"),), {})),
    ("ResponsibleEngineeringModel", lambda: ((their_Q(24, "hour"),), dict(epsilon=0.1, min_subgroup_prevalence=0.05))),
    ("ResponsibleEngineeringModel", lambda: ((their_Q(1000, "hour"),), dict(epsilon=8.0, delta=1e-6, min_subgroup_prevalence=0.001))),
    ("ResponsibleEngineeringModel", lambda: ((their_Q(72, "hour"),), dict(epsilon=3.0, delta=1e-7, min_subgroup_prevalence=0.25))),
    ("ResponsibleEngineeringModel", lambda: ((their_Q(10, "hour"),), dict(epsilon=0.5))),
    ("DistributedModel", lambda: ((M.Language.Llama3_8B, C.Research_256), dict(batch_size=256, tp_size=8, pp_size=4, microbatch_count=8))),
    ("DistributedModel", lambda: ((M.Language.GPT3, C.Research_256), dict(batch_size=512, tp_size=8, pp_size=8, v_stages=2,
                                                                 microbatch_count=16, activation_recomputation=True,
                                                                 zero_stage=1, overlap_comm=True))),
    ("DistributedModel", lambda: ((M.Language.Llama3_70B, C.Training_1K), dict(batch_size=1024, precision="BF16", tp_size=8, pp_size=4,
                                                                      microbatch_count=8, zero_stage=1, overlap_comm=True,
                                                                      gradient_accumulation_steps=2, congestion_factor=1.3))),
    ("DistributedModel", lambda: ((M.Language.Llama3_8B, C.Training_512_H100), dict(batch_size=1024, seq_len=4096, zero_stage=2))),
    ("DistributedModel", lambda: ((M.Language.Mixtral_8x7B, C.Training_1K_B200), dict(batch_size=512, precision="fp8", tp_size=2,
                                                                             ep_size=8, zero_stage=1,
                                                                             moe_routing_imbalance_factor=1.25))),
    ("DistributedModel", lambda: ((M.Language.GPT3, C.Research_256), dict(batch_size=256))),         # spills: node_profile offload set
]


@pytest.mark.parametrize("solver, call", CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_every_field_equals_mlsysims_solve_called_the_same_way(solver, call):
    args, kwargs = call()   # mlsysim's objects, made when the test runs
    mine = getattr(ours, solver)().solve(*args, **kwargs)
    reference = getattr(theirs, solver)().solve(*args, **kwargs)
    assert same_result(mine, reference, solver) >= 4
    assert mine.scenario.type.name == getattr(ours, solver).type_name


def test_each_solver_has_five_configurations_and_mlsysims_signature():
    import inspect

    for name in {c[0] for c in CALLS}:
        assert sum(c[0] == name for c in CALLS) >= 5, name
        mine = list(inspect.signature(getattr(ours, name)().solve).parameters.items())
        reference = list(inspect.signature(getattr(theirs, name)().solve).parameters.items())
        assert [(n, p.default) for n, p in mine] == [(n, p.default) for n, p in reference], name


def test_every_field_has_its_equation_and_derivative():
    """The facade's result carries the scenario: an output field has an equation and a symbolic derivative whose
    value is mlsysim's central difference (the reliability goodput against the checkpoint write time)."""
    r = ours.ReliabilityModel().solve(C.Research_256, 24.0)
    assert r.equation("goodput_ratio").lhs.name
    d = r.scenario.local_sensitivity("goodput_ratio").to_records()
    slope = {row["input"]: row for row in d}["checkpoint_time_s"]["derivative_value"].to("1/s").magnitude
    h = 1e-3
    up, down = (theirs.ReliabilityModel().solve(C.Research_256, 24.0, checkpoint_time_s=60.0 + e).goodput_ratio for e in (h, -h))
    assert slope == pytest.approx((up - down) / (2 * h), rel=1e-6)


@pytest.mark.parametrize("call, match", [
    # a node where a fleet belongs (a cluster key is a fleet: tests/reference/test_ref_systems.py)
    (lambda: ours.SustainabilityModel().solve(ours.Systems.Nodes.DGX_H100, 30), "fleet: expected mlsysim's Fleet"),
    (lambda: ours.ReliabilityModel().solve(object(), 24.0), "fleet: expected mlsysim's Fleet"),
    (lambda: ours.CheckpointModel().solve("Llama3_8B", "H100", n_writer=2), "n_writers"),
    (lambda: ours.CompressionModel().solve("Llama3_8B", "H100", sparsity_type="2:4"), "sparsity_type"),
    (lambda: ours.ScalingModel().solve("5 kg"), "compute_budget"),
    (lambda: ours.DistributedModel().solve("Llama3_8B", C.Research_256, batch_size=256, tp_size=3), "layout_divides"),
    (lambda: ours.TopologyModel().solve(F.InfiniBand_NDR, "hypercube"), "topology"),
    (lambda: ours.EfficiencyModel().solve("Llama3_8B", "H100", workload_type="atention"), "workload_type"),
    # a device with no storage or interconnect: mlsysim's utilization is inf, ours a named division by zero
    (lambda: ours.DataModel().solve(their_Q(1, "GB/s"), H.Mobile.iPhone15Pro).utilization, "division by zero"),
])
def test_bad_arguments_are_refused_by_name(call, match):
    """mlsysim's own solve reads "2:4" as unstructured pruning (only its candidate() normalises it); ours refuses
    the unknown option by name rather than silently choosing a branch."""
    with pytest.raises((InputError, ValueError, TypeError)) as info:
        call()
    assert match in str(info.value)
