"""mlsysim 0.3.0's analytic solvers against our catalog types (issue 20), field by field.

For every named scenario of derivations/solvers_distributed.toml this calls mlsysim's own
``XModel().solve(...)`` with the arguments written out below (the registry objects mlsysim names), checks
that our named scenario holds the same inputs, and compares every field of the solver's result with our
``scenario.result`` view: numbers at 1e-9 relative, booleans and labels exactly.  The prose
``constraint_trace`` is the one field left out (as in test_ref_results.py).  One test per solver
differentiates one result field symbolically and checks it against a central difference of mlsysim's
own numeric solve.
"""

from __future__ import annotations

from typing import Any

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import assert_close
from .compare import assert_same as _equal

SKIPPED_FIELDS = {"constraint_trace"}




def _compare_result(key: str, theirs: Any) -> int:
    """Every field of mlsysim's result equals our view's; the view names mlsysim's fields in its order."""
    ours = catalog().scenario(key).result
    fields = [f for f in type(theirs).model_fields if f not in SKIPPED_FIELDS]
    assert list(ours.fields) == fields, f"{key}: our fields {list(ours.fields)} != mlsysim's {fields}"
    assert type(ours).__name__ == "ResultView" and repr(ours).startswith(type(theirs).__name__ + "(")
    for field in fields:
        _equal(getattr(ours, field), getattr(theirs, field), f"{key}.{field}")
    return len(fields)


def _named(type_name: str) -> list[str]:
    return sorted(k for k, d in catalog().declared.items() if d.type_name == type_name)


def _q(text: str) -> Any:
    from mlsysim.core.units import Q_

    return Q_(text)


# ---------------------------------------------------------------------------------------------- TopologyModel
TOPOLOGY = {   # scenario -> (mlsysim fabric, solve's topology and num_nodes; None: the default)
    "TopologyFatTreeNdr64": ("InfiniBand_NDR", {}),
    "TopologyDragonflyNdr2to1": ("InfiniBand_NDR_Oversub2to1", {"topology": "dragonfly", "num_nodes": 256}),
    "TopologyTorus512Xdr": ("InfiniBand_XDR", {"topology": "torus_3d", "num_nodes": 512}),
    "TopologyRing16RoCE": ("RoCE_400G", {"topology": "ring", "num_nodes": 16}),
    "TopologyFatTree1024Ndr4to1": ("InfiniBand_NDR_Oversub4to1", {"topology": "fat_tree", "num_nodes": 1024}),
    "TopologyTorus64Ethernet100G": ("Ethernet_100G", {"topology": "torus_3d", "num_nodes": 64}),
}


def _topology_inputs(fabric: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    return {"bandwidth": fabric.bandwidth, "oversubscription_ratio": fabric.oversubscription_ratio, **kwargs}


def test_every_topology_scenario_is_compared() -> None:
    assert sorted(TOPOLOGY) == _named("NetworkTopologyScenario") and len(TOPOLOGY) >= 5


@pytest.mark.parametrize("key", sorted(TOPOLOGY))
def test_topology_result_equals_mlsysim(key: str) -> None:
    import mlsysim
    from mlsysim.solvers import TopologyModel

    fabric_name, kwargs = TOPOLOGY[key]
    fabric = getattr(mlsysim.Systems.Fabrics, fabric_name)
    scenario = catalog().scenario(key)
    for name, value in _topology_inputs(fabric, kwargs).items():   # our named scenario holds the fabric's values
        _equal(getattr(scenario, name), value, f"{key} input {name}")
    assert _compare_result(key, TopologyModel().solve(fabric, **kwargs)) == 6


def test_topology_same_scenario_from_mlsysim_objects() -> None:
    """The type binds mlsysim's own fabric Quantities (Gbps) and equals mlsysim for a topology and size not named."""
    import mlsysim
    from mlsysim.solvers import TopologyModel

    fabric = mlsysim.Systems.Fabrics.InfiniBand_HDR
    s = catalog().scenario("TopologyFatTreeNdr64").variant(bandwidth=fabric.bandwidth, topology="ring", num_nodes=10)
    theirs = TopologyModel().solve(fabric, topology="ring", num_nodes=10)
    for field in ("effective_bw", "bisection_bw", "bisection_bw_fraction", "hops_avg"):
        assert_close(getattr(s.result, field), getattr(theirs, field), field)


def test_topology_derivative_equals_mlsysim_central_difference() -> None:
    """d effective_bw / d num_nodes on a 512-node 3-D torus: symbolically -2B/(3 r N^(4/3)); numerically
    (mlsysim at N ± 1) / 2 and, by hand, -2 * 100 GB/s / (3 * 512^(4/3)) = -200/12288 GB/s."""
    import mlsysim
    import sympy
    from mlsysim.solvers import TopologyModel

    s = catalog().scenario("TopologyTorus512Xdr")
    d = s.diff("effective_bw", "num_nodes")
    B, r, N = (s.type.variable(n).symbol for n in ("bandwidth", "oversubscription_ratio", "num_nodes"))
    assert sympy.simplify(d - (-2 * B / (3 * r * N ** sympy.Rational(4, 3)))) == 0
    value = {rec["input"]: rec for rec in s.local_sensitivity("effective_bw").to_records()}["num_nodes"]["derivative_value"]
    fabric = mlsysim.Systems.Fabrics.InfiniBand_XDR
    hi, lo = (TopologyModel().solve(fabric, "torus_3d", n).effective_bw.m_as("GB/s") for n in (513, 511))
    assert value.to("GB/s").magnitude == pytest.approx((hi - lo) / 2, rel=1e-4)
    assert value.to("GB/s").magnitude == pytest.approx(-200 / 12288, rel=1e-12)


# ---------------------------------------------------------------------------------------------- TransformationModel
TRANSFORMATION = {   # scenario -> solve(batch_size, sample_size_bytes, cpu_throughput, accelerator_step_time)
    "TransformImageNetJpegStarved": (256, "500 KB", "2 GB/s", "50 ms"),
    "TransformImageNetJpegKeepsUp": (64, "500 KB", "2 GB/s", "50 ms"),
    "TransformTokenizedTextFast": (1024, "8 KB", "0.5 GB/s", "120 ms"),
    "TransformVideoClipsStarved": (32, "12 MB", "4 GB/s", "40 ms"),
    "TransformAudioAugmentBalanced": (128, "640 KB", "1.6 GB/s", "51.2 ms"),
}


def test_every_transformation_scenario_is_compared() -> None:
    assert sorted(TRANSFORMATION) == _named("TransformationWallScenario") and len(TRANSFORMATION) >= 5


@pytest.mark.parametrize("key", sorted(TRANSFORMATION))
def test_transformation_result_equals_mlsysim(key: str) -> None:
    from mlsysim.solvers import TransformationModel

    batch, sample, cpu, step = TRANSFORMATION[key]
    scenario = catalog().scenario(key)
    assert scenario.inputs["batch_size"].magnitude == batch
    for name, text in (("sample_size_bytes", sample), ("cpu_throughput", cpu), ("accelerator_step_time", step)):
        _equal(getattr(scenario, name), _q(text), f"{key} input {name}")
    theirs = TransformationModel().solve(batch, _q(sample), _q(cpu), _q(step))
    assert _compare_result(key, theirs) == 5


def test_transformation_bottleneck_flips_where_mlsysim_flips() -> None:
    """The predicate and mlsysim's is_bottleneck agree on both sides of the balance point (64 ms vs 50 ms at 256,
    the tie at 51.2 ms is not a bottleneck in either)."""
    from mlsysim.solvers import TransformationModel

    s = catalog().scenario("TransformAudioAugmentBalanced")
    for step in ("51.1 ms", "51.2 ms", "51.3 ms"):
        theirs = TransformationModel().solve(128, _q("640 KB"), _q("1.6 GB/s"), _q(step))
        assert s.variant(accelerator_step_time=step).result.is_bottleneck is theirs.is_bottleneck


def test_transformation_derivative_equals_mlsysim_central_difference() -> None:
    """d accelerator_utilization / d accelerator_step_time where preprocessing binds (64 ms > 50 ms at batch 256):
    U = T_acc / T_tf, so dU/dT_acc = 1/T_tf = 1/(64 ms) by hand; mlsysim at 50 ± 0.01 ms agrees."""
    from mlsysim.solvers import TransformationModel

    s = catalog().scenario("TransformImageNetJpegStarved")
    assert s.diff("accelerator_utilization", "accelerator_step_time") is not None
    rec = {r["input"]: r for r in s.local_sensitivity("accelerator_utilization").to_records()}["accelerator_step_time"]
    ours = rec["derivative_value"].to("1/ms").magnitude
    hi, lo = (TransformationModel().solve(256, _q("500 KB"), _q("2 GB/s"), _q(f"{t} ms")).accelerator_utilization
              for t in (50.01, 49.99))
    assert ours == pytest.approx((hi - lo) / 0.02, rel=1e-9)
    assert ours == pytest.approx(1 / 64, rel=1e-12)


# ---------------------------------------------------------------------------------------------- ResponsibleEngineeringModel
RESPONSIBLE = {   # scenario -> solve(base_training_time, **kwargs)
    "ResponsibleDefaults100h": ("100 h", {}),
    "ResponsibleStrictPrivacy": ("24 h", {"epsilon": 0.1, "min_subgroup_prevalence": 0.05}),
    "ResponsibleLoosePrivacy": ("1000 h", {"epsilon": 8.0, "delta": 1e-6, "min_subgroup_prevalence": 0.001}),
    "ResponsibleClampedEpsilon": ("10 h", {"epsilon": 0.001, "min_subgroup_prevalence": 0.2}),
    "ResponsibleBalancedGroups": ("72 h", {"epsilon": 3.0, "delta": 1e-7, "min_subgroup_prevalence": 0.25}),
}


def test_every_responsible_scenario_is_compared() -> None:
    assert sorted(RESPONSIBLE) == _named("ResponsibleEngineeringScenario") and len(RESPONSIBLE) >= 5


@pytest.mark.parametrize("key", sorted(RESPONSIBLE))
def test_responsible_result_equals_mlsysim(key: str) -> None:
    from mlsysim.solvers import ResponsibleEngineeringModel

    time, kwargs = RESPONSIBLE[key]
    scenario = catalog().scenario(key)
    _equal(scenario.inputs["base_training_time"], _q(time), f"{key} base_training_time")
    for name, value in kwargs.items():
        _equal(getattr(scenario, name), value, f"{key} input {name}")
    assert _compare_result(key, ResponsibleEngineeringModel().solve(_q(time), **kwargs)) == 8


def test_responsible_clamp_and_hand_values() -> None:
    """By hand: 1 + 2/max(0.001, 0.01) = 201, 10 h x 201 = 2010 h; 1 + 2/8 = 1.25; 1/0.001 = 1000."""
    clamped, loose = catalog().scenario("ResponsibleClampedEpsilon"), catalog().scenario("ResponsibleLoosePrivacy")
    assert clamped.result.dp_slowdown_factor == pytest.approx(201.0, rel=1e-12)
    assert clamped.effective_training_time.to("h").magnitude == pytest.approx(2010.0, rel=1e-12)
    assert loose.result.dp_slowdown_factor == pytest.approx(1.25, rel=1e-12)
    assert loose.result.additional_data_requirement == pytest.approx(1000.0, rel=1e-12)


def test_responsible_derivative_equals_mlsysim_central_difference() -> None:
    """d effective_training_time / d epsilon = -c T_base / eps^2: at eps = 0.1, 24 h: -2 * 24 / 0.01 = -4800 h by
    hand; mlsysim at 0.1 ± 1e-6 agrees."""
    from mlsysim.solvers import ResponsibleEngineeringModel

    s = catalog().scenario("ResponsibleStrictPrivacy")
    rec = {r["input"]: r for r in s.local_sensitivity("effective_training_time").to_records()}["epsilon"]
    ours = rec["derivative_value"].to("h").magnitude
    hi, lo = (ResponsibleEngineeringModel().solve(_q("24 h"), epsilon=e, min_subgroup_prevalence=0.05)
              .effective_training_time.m_as("h") for e in (0.1 + 1e-6, 0.1 - 1e-6))
    assert ours == pytest.approx((hi - lo) / 2e-6, rel=1e-6)
    assert ours == pytest.approx(-4800.0, rel=1e-12)


# ---------------------------------------------------------------------------------------------- DistributedModel
DISTRIBUTED = {   # scenario -> (mlsysim model, cluster, nodes override or None, solve's keyword arguments)
    "DistLlama3_8B_Research256_3D": ("Llama3_8B", "Research_256", None,
                                     {"batch_size": 256, "tp_size": 8, "pp_size": 4, "microbatch_count": 8}),
    "DistGpt3_Research256_Interleaved": ("GPT3", "Research_256", None,
                                         {"batch_size": 512, "tp_size": 8, "pp_size": 8, "v_stages": 2, "microbatch_count": 16,
                                          "activation_recomputation": True, "zero_stage": 1, "overlap_comm": True}),
    "DistLlama3_70B_Training1K": ("Llama3_70B", "Training_1K", None,
                                  {"batch_size": 1024, "precision": "bf16", "tp_size": 8, "pp_size": 4, "microbatch_count": 8,
                                   "zero_stage": 1, "overlap_comm": True, "gradient_accumulation_steps": 2, "congestion_factor": 1.3}),
    "DistLlama3_8B_Training512_DataParallel": ("Llama3_8B", "Training_512_H100", None,
                                               {"batch_size": 1024, "seq_len": 4096, "zero_stage": 2}),
    "DistMixtral_Training1KB200_Expert": ("Mixtral_8x7B", "Training_1K_B200", None,
                                          {"batch_size": 512, "precision": "fp8", "tp_size": 2, "ep_size": 8, "zero_stage": 1,
                                           "moe_routing_imbalance_factor": 1.25}),
    "DistGpt2_Training1KA100_LoraStraggler": ("GPT2", "Training_1K_A100", None,
                                              {"batch_size": 2048, "precision": "fp32", "efficiency": 0.4, "seq_len": 1024,
                                               "is_lora": True, "straggler_factor": 1.15}),
    "DistLlama3_8B_OneNodeTp2": ("Llama3_8B", "Research_256", 1, {"batch_size": 16, "tp_size": 2}),
    "DistGpt3_Research256_Spills": ("GPT3", "Research_256", None, {"batch_size": 256}),
    "DistLlama3_70B_Training512_TpAcrossNodes": ("Llama3_70B", "Training_512_H100", None,
                                                 {"batch_size": 256, "tp_size": 16, "pp_size": 2, "microbatch_count": 4}),
}

#: mlsysim's node_profile (a PerformanceProfile) field -> our output; the offload fields are None in mlsysim where
#: the state fits, which an output cannot be: they are compared in test_distributed_result_equals_mlsysim by case.
NODE_PROFILE = {
    "latency": "node_latency", "latency_compute": "node_latency_compute", "latency_memory": "node_latency_memory",
    "latency_overhead": "node_latency_overhead", "throughput": "node_throughput", "bottleneck": "node_bottleneck",
    "arithmetic_intensity": "node_arithmetic_intensity", "energy": "node_energy",
    "memory_footprint": "node_memory_footprint", "peak_flops_actual": "node_peak_flops_actual",
    "peak_bw_actual": "node_peak_bw_actual", "mfu": "node_mfu", "hfu": "node_hfu", "feasible": "node_feasible",
    "overhead_dominated": "node_overhead_dominated",
}
NODE_OFFLOAD = {"offload_spill_bytes": "node_offload_spill", "offload_effective_bw": "node_peak_bw_actual"}


def _fleet(cluster: str, nodes: int | None) -> Any:
    import mlsysim

    fleet = getattr(mlsysim.Systems.Clusters, cluster)
    return fleet if nodes is None else fleet.model_copy(update={"count": nodes})


def _fleet_inputs(fleet: Any) -> dict[str, Any]:
    """The fleet's fields as our inputs (the fabric's latency, when unset, is InfiniBand NDR's, as mlsysim's)."""
    import mlsysim

    return {"nodes": fleet.count, "accelerators_per_node": fleet.node.accelerators_per_node,
            "intra_node_bw": fleet.node.intra_node_bw, "fabric_bandwidth": fleet.fabric.bandwidth,
            "fabric_latency": fleet.fabric.latency or mlsysim.Systems.Fabrics.InfiniBand_NDR.latency,
            "oversubscription_ratio": fleet.fabric.oversubscription_ratio}


def _solve_distributed(key: str, **update: Any) -> Any:
    import warnings

    import mlsysim
    from mlsysim.solvers import DistributedModel

    model, cluster, nodes, kwargs = DISTRIBUTED[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # batch < dp warns in mlsysim; none of ours is below
        return DistributedModel().solve(getattr(mlsysim.Models.Language, model), _fleet(cluster, nodes), **{**kwargs, **update})


def test_every_distributed_scenario_is_compared() -> None:
    assert sorted(DISTRIBUTED) == _named("DistributedTrainingStepScenario") and len(DISTRIBUTED) >= 5


@pytest.mark.parametrize("key", sorted(DISTRIBUTED))
def test_distributed_result_equals_mlsysim(key: str) -> None:
    """Every DistributedResult field equals our view's, and every node_profile field our node_ output."""
    model, cluster, nodes, kwargs = DISTRIBUTED[key]
    fleet = _fleet(cluster, nodes)
    scenario = catalog().scenario(key)
    assert scenario.inputs["model"].key == model
    assert scenario.inputs["accelerator"].name == fleet.node.accelerator.name
    for name, value in {**_fleet_inputs(fleet), **kwargs}.items():
        ours = getattr(scenario, name)   # the member: the input as it leaves (mlsysim's unit)
        _equal(ours.magnitude if name in ("batch_size", "seq_len") else ours, value, f"{key} input {name}")
    theirs = _solve_distributed(key)
    ours = scenario.result
    fields = [f for f in type(theirs).model_fields if f not in SKIPPED_FIELDS]
    assert list(ours.fields) == fields and repr(ours).startswith("DistributedResult(")
    for field in fields:
        if field == "node_profile":   # the nested view, field by field (None offload fields included)
            nested = [f for f in type(theirs.node_profile).model_fields if f not in SKIPPED_FIELDS]
            assert list(ours.node_profile.fields) == nested and repr(ours.node_profile).startswith("PerformanceProfile(")
            for f in nested:
                _equal(getattr(ours.node_profile, f), getattr(theirs.node_profile, f), f"{key}.node_profile.{f}")
            continue
        _equal(getattr(ours, field), getattr(theirs, field), f"{key}.{field}")
    profile = theirs.node_profile
    assert set(type(profile).model_fields) == set(NODE_PROFILE) | set(NODE_OFFLOAD) | SKIPPED_FIELDS
    for field, output in NODE_PROFILE.items():
        _equal(getattr(scenario, output), getattr(profile, field), f"{key}.node_profile.{field}")
    if profile.feasible:
        assert profile.offload_spill_bytes is None and profile.offload_effective_bw is None
        assert scenario.node_offload_spill.magnitude == 0
    else:
        for field, output in NODE_OFFLOAD.items():
            _equal(getattr(scenario, output), getattr(profile, field), f"{key}.node_profile.{field}")


def test_distributed_configurations_cover_every_branch() -> None:
    """The named configurations reach each collective path mlsysim distinguishes: DP in one node, one DP rank per
    node, hierarchical; TP over NVLink and over the fabric; EP; a spilled state; every ZeRO stage below 3."""
    values = {k: catalog().scenario(k) for k in DISTRIBUTED}

    def n(x: Any) -> float:
        return float(getattr(x, "magnitude", x))

    assert n(values["DistLlama3_8B_OneNodeTp2"].dp_nodes_spanned) == 1
    assert n(values["DistLlama3_8B_Research256_3D"].dp_ranks_per_node) == 1
    hier = values["DistLlama3_8B_Training512_DataParallel"]
    assert n(hier.dp_ranks_per_node) == 8 and n(hier.dp_nodes_spanned) == 64
    assert n(values["DistLlama3_70B_Training512_TpAcrossNodes"].inputs["tp_size"]) == 16
    assert n(values["DistMixtral_Training1KB200_Expert"].result.ep_communication_latency) > 0
    assert values["DistGpt3_Research256_Spills"].node_feasible is False
    assert {n(v.inputs["zero_stage"]) for v in values.values()} == {0, 1, 2}


def test_distributed_layout_that_does_not_divide_is_flagged() -> None:
    """mlsysim refuses TP 3 on 256 accelerators (ValueError); our predicate layout_divides says false there (the
    equations cannot raise), and true on every named layout."""
    with pytest.raises(ValueError, match="divide total accelerators"):
        _solve_distributed("DistLlama3_8B_Research256_3D", tp_size=3)
    assert catalog().scenario("DistLlama3_8B_Research256_3D").variant(tp_size=3).layout_divides is False
    assert all(catalog().scenario(k).layout_divides is True for k in DISTRIBUTED)


def test_distributed_step_by_hand() -> None:
    """Llama-3 8B, TP 8 x PP 4 x DP 8 on Research_256, batch 256, by hand: B_loc = 32; compute
    4 * 16.06e9 flop * 2048 * 32 ... (3 passes) over 32 * 494.5 TFLOP/s: 3 * 16.06e9 * 2048 * 32 / (32 * 494.5e12) s;
    the bubble is 3/(8 + 3) of the step; DP ring of 16.06e9 B / 32 over 8 ranks at 12.5 GB/s, 50 us."""
    s = catalog().scenario("DistLlama3_8B_Research256_3D")
    compute = 3 * 16.06e9 * 2048 * 32 / (32 * 494.5e12)
    assert s.node_latency_compute.to("s").magnitude == pytest.approx(compute, rel=1e-12)
    assert s.result.bubble_fraction == pytest.approx(3 / 11, rel=1e-12)
    dp = 2 * 7 / 8 * (16.06e9 / 32) / 12.5e9 + 2 * 7 * 50e-6
    assert s.result.dp_communication_latency.to("s").magnitude == pytest.approx(dp, rel=1e-12)
    assert s.result.parallelism == {"dp": 8, "tp": 8, "pp": 4, "ep": 1}


def test_distributed_derivative_equals_mlsysim_central_difference() -> None:
    """d tp_communication_latency / d seq_len on the 256-GPU 3-D step, symbolically, against mlsysim's own solve at
    seq_len 2048 ± 1 (the TP ring time is linear in the sequence) and by hand: 4 AllReduces x ceil(32/4) layers x
    2(8-1)/8 x 32 samples x 4096 x 2 B per token over 450 GB/s."""
    s = catalog().scenario("DistLlama3_8B_Research256_3D")
    d = s.diff("tp_communication_latency", "seq_len")
    assert s.type.variable("seq_len").symbol not in d.free_symbols   # linear in s
    # the compiled derivative alone (``local_sensitivity`` also simplifies every input's elasticity for display: 10 s
    # of SymPy here, tested in test_sensitivity)
    (rec,) = s.elasticities("tp_communication_latency", only=["seq_len"])
    ours = rec.derivative_value.to("ms*sample/token").magnitude
    hi, lo = (_solve_distributed("DistLlama3_8B_Research256_3D", seq_len=n).tp_communication_latency.m_as("ms")
              for n in (2049, 2047))
    assert ours == pytest.approx((hi - lo) / 2, rel=1e-9)
    assert ours == pytest.approx(4 * 8 * 2 * 7 / 8 * 32 * 4096 * 2 / 450e9 * 1e3, rel=1e-12)


def test_distributed_binds_mlsysim_objects() -> None:
    """The facade's path: mlsysim's own workload, accelerator and fleet Quantities bind, and the step equals mlsysim's."""
    import mlsysim

    fleet = mlsysim.Systems.Clusters.Training_1K
    s = catalog().scenario("DistLlama3_70B_Training1K").variant(
        model=mlsysim.Models.Language.Llama3_70B, accelerator=fleet.node.accelerator, **_fleet_inputs(fleet))
    theirs = _solve_distributed("DistLlama3_70B_Training1K")
    for field in ("step_latency_total", "dp_communication_latency", "tp_communication_latency", "effective_throughput"):
        _equal(getattr(s.result, field), getattr(theirs, field), field)
    _equal(s.node_energy, theirs.node_profile.energy, "node_profile.energy")
