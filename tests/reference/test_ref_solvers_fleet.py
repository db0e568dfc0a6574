"""Four of mlsysim 0.3.0's analytic solvers against ours (derivations/solvers_fleet.toml).

For each solver, every named scenario of its type is solved by mlsysim's own ``XModel().solve(...)`` with the
same arguments (the fleet from ``mlsysim.systems.registry.Clusters``, the grid or datacenter from
``mlsysim.infrastructure.registry``), and EVERY field of mlsysim's result is compared with our result view:
numbers at 1e-9 relative, booleans and labels exactly.  mlsysim's ``constraint_trace`` (prose, ``None`` for
these solvers) is left out of our views.  One test per solver differentiates a result field symbolically and
checks the derivative against a central difference of mlsysim's numeric solve.
"""

from __future__ import annotations

import functools

import pytest
import sympy

from mlsysim_symbolic import Scenarios, grids
from mlsysim_symbolic.units import Q_

from .compare import assert_close
from .lazy import reference

mlsysim = reference("mlsysim")
Hardware = reference("mlsysim.hardware.registry", "Hardware")
Datacenters = reference("mlsysim.infrastructure.registry", "Datacenters")
Grids = reference("mlsysim.infrastructure.registry", "Grids")
Models = reference("mlsysim.models.registry", "Models")
Clusters = reference("mlsysim.systems.registry", "Clusters")
EconomicsModel, EfficiencyModel, InferenceScalingModel, SustainabilityModel = (
    reference("mlsysim.solvers", name) for name in ("EconomicsModel", "EfficiencyModel", "InferenceScalingModel", "SustainabilityModel"))


@functools.cache
def sites() -> dict:
    """Our grid-registry key -> mlsysim's object (a Datacenter, or a bare GridProfile, as SustainabilityModel takes both)."""
    return {**{k: getattr(Datacenters, k) for k in ("Quebec_Hydro", "Poland_Coal", "EU_Average", "France_Nuclear")},
            **{k: getattr(Grids, k) for k in ("Iceland", "Texas")}}


def _fields(theirs) -> list[str]:
    return [f for f in type(theirs).model_fields if f != "constraint_trace"]


def _same_result(ours, theirs, label: str) -> None:
    assert ours.fields == tuple(_fields(theirs)), f"{label}: fields {ours.fields} != mlsysim's {_fields(theirs)}"
    for field in ours.fields:
        a, b = getattr(ours, field), getattr(theirs, field)
        if isinstance(b, (bool, str)) or b is None:
            assert a == b and type(a) is type(b), f"{label}.{field}: ours {a!r} != mlsysim {b!r}"
        elif hasattr(type(b), "model_fields"):   # a nested result (InferenceScalingResult.serving_detail is a ServingResult)
            assert type(a).__name__ == "ResultView" and repr(a).startswith(type(b).__name__ + "("), f"{label}.{field}: {a!r}"
            _same_result(a, b, f"{label}.{field}")
        elif isinstance(b, dict):
            assert list(a) == list(b), f"{label}.{field}: keys {list(a)} != {list(b)}"
            for k in b:
                assert_close(a[k], b[k], f"{label}.{field}[{k}]")
        else:
            if hasattr(b, "units"):
                assert hasattr(a, "units"), f"{label}.{field}: mlsysim gives a Quantity {b!r}, ours {a!r}"
            else:
                assert not hasattr(a, "units"), f"{label}.{field}: mlsysim gives a plain number {b!r}, ours {a!r}"
            assert_close(a, b, f"{label}.{field}")


# ---------------------------------------------------------------------- SustainabilityModel
#: named scenario -> (mlsysim fleet, SustainabilityModel.solve keyword arguments beside the fleet)
SUSTAINABILITY = {
    "Research256SustainabilityUs": ("Research_256", {"duration_days": 30}),
    "Lab64A100SustainabilityQuebec": ("Lab_64_A100", {"duration_days": 14, "datacenter": "Quebec_Hydro", "mfu": 0.4,
                                                      "embodied_carbon_per_device": 150.0}),
    "Training1KB200SustainabilityPoland": ("Training_1K_B200", {"duration_days": 90, "datacenter": "Poland_Coal", "mfu": 0.5}),
    "Kempner384SustainabilityIceland": ("Kempner_H100_384", {"duration_days": 7, "datacenter": "Iceland", "mfu": 0.35}),
    "Llama3Cluster16KSustainabilityTexas": ("Meta_Llama3_16K_H100", {"duration_days": 54, "datacenter": "Texas", "mfu": 0.38}),
}


def _theirs(kwargs: dict) -> dict:
    return {k: sites()[v] if k == "datacenter" else v for k, v in kwargs.items()}


def _fleet_inputs(fleet) -> dict:
    return {"nodes": fleet.count, "accelerators_per_node": fleet.node.accelerators_per_node}


@pytest.mark.parametrize("key", sorted(SUSTAINABILITY))
def test_sustainability_every_field(key):
    fleet_name, kwargs = SUSTAINABILITY[key]
    fleet = getattr(Clusters, fleet_name)
    ours = Scenarios[key]
    # the named scenario states the fleet mlsysim's registry holds
    assert {k: ours.inputs[k] for k in ("nodes", "accelerators_per_node")} == _fleet_inputs(fleet)
    assert ours.inputs["hardware"].name == fleet.node.accelerator.name
    theirs = SustainabilityModel().solve(fleet, **_theirs(kwargs))
    _same_result(ours.result, theirs, key)


def test_sustainability_takes_mlsysims_objects():
    """mlsysim's own HardwareNode and Datacenter bind (a Datacenter with a PUE override too)."""
    from mlsysim.infrastructure.types import Datacenter
    fleet = Clusters.Training_1K_A100
    site = Datacenter(name="Custom Iowa campus", grid=Grids.Iowa, pue_override=1.3)
    ours = Scenarios.Research256SustainabilityUs.variant(hardware=fleet.node.accelerator, datacenter=site, duration_days=3.5,
                                                        **_fleet_inputs(fleet), mfu=0.7, embodied_carbon_per_device="2500 kg")
    theirs = SustainabilityModel().solve(fleet, 3.5, datacenter=site, mfu=0.7, embodied_carbon_per_device=2500.0)
    _same_result(ours.result, theirs, "custom datacenter")
    assert ours.result.region_name == "Iowa (Coal/Gas Reference)" and ours.result.pue == 1.3


def test_sustainability_derivative_matches_mlsysims_central_difference():
    s = Scenarios.Kempner384SustainabilityIceland
    d = s.diff("carbon_footprint_kg", "mfu")
    t = s.type
    TDP, N_n, g, T, PUE, CI, f_d = (t.variable(n).symbol for n in ("tdp", "nodes", "accelerators_per_node", "duration_days",
                                                                  "grid_pue", "carbon_intensity", "dynamic_fraction"))
    assert sympy.simplify(d - TDP * f_d * N_n * g * T * PUE * CI) == 0    # C = TDP (f_i + f_d u) N T PUE CI + c_e N
    ours = {r["input"]: r for r in s.local_sensitivity("carbon_footprint_kg").to_records()}["mfu"]["derivative_value"]
    fleet, h = Clusters.Kempner_H100_384, 1e-4
    up, down = (SustainabilityModel().solve(fleet, 7, datacenter=Grids.Iceland, mfu=0.35 + e).carbon_footprint_kg for e in (h, -h))
    assert_close(ours.to("kg"), Q_((up - down) / (2 * h), "kg"), "d carbon / d mfu", rel=1e-6)


# ---------------------------------------------------------------------- EconomicsModel
ECONOMICS = {
    "Research256EconomicsUs": ("Research_256", {"duration_days": 30}),
    "Lab64A100EconomicsQuebec": ("Lab_64_A100", {"duration_days": 365, "datacenter": "Quebec_Hydro", "mfu": 0.5, "kwh_price": 0.07}),
    "Training1KB200EconomicsFullTco": ("Training_1K_B200", {"duration_days": 90, "datacenter": "EU_Average", "mfu": 0.45,
                                                            "amortization_years": 4, "infrastructure_multiplier": 2.0}),
    "Kempner384EconomicsFrance": ("Kempner_H100_384", {"duration_days": 30, "datacenter": "France_Nuclear", "mfu": 0.6}),
    "Llama3Cluster16KEconomicsTexas": ("Meta_Llama3_16K_H100", {"duration_days": 54, "datacenter": "Texas", "mfu": 0.38,
                                                                "infrastructure_multiplier": 2.5}),
}


@pytest.mark.parametrize("key", sorted(ECONOMICS))
def test_economics_every_field(key):
    fleet_name, kwargs = ECONOMICS[key]
    fleet = getattr(Clusters, fleet_name)
    ours = Scenarios[key]
    assert {k: ours.inputs[k] for k in ("nodes", "accelerators_per_node")} == _fleet_inputs(fleet)
    assert ours.inputs["hardware"].name == fleet.node.accelerator.name
    theirs = EconomicsModel().solve(fleet, **_theirs(kwargs))
    _same_result(ours.result, theirs, key)


def test_economics_grid_argument_and_a_device_without_price():
    """mlsysim's grid= argument binds our datacenter input; a device with no unit_cost costs 0 USD in both."""
    from mlsysim.core.units import Q_ as mlsysim_Q
    from mlsysim.hardware.registry import Hardware
    from mlsysim.systems.types import Fleet, Node
    node = Node(name="4x TPUv5p", accelerator=Hardware.Cloud.TPUv5p, accelerators_per_node=4, intra_node_bw=mlsysim_Q(1, "TB/s"))
    fleet = Fleet(name="TPU slice", node=node, count=16, fabric=Clusters.Research_256.fabric)
    theirs = EconomicsModel().solve(fleet, 10, grid=Grids.Germany, mfu=0.3, amortization_years=5)
    ours = Scenarios.Research256EconomicsUs.variant(hardware=Hardware.Cloud.TPUv5p, nodes=16, accelerators_per_node=4,
                                                    duration_days=10, datacenter=Grids.Germany, mfu=0.3, amortization_years=5)
    _same_result(ours.result, theirs, "TPU slice on the German grid")
    assert ours.result.capex_usd == 0 and ours.result.region_name == "Germany (Coal+Wind)"


def test_economics_derivative_matches_mlsysims_central_difference():
    s = Scenarios.Training1KB200EconomicsFullTco
    d = s.diff("tco_usd", "amortization_years")
    t = s.type
    c_u, N_n, g, m, T, A = (t.variable(n).symbol for n in ("unit_cost", "nodes", "accelerators_per_node",
                                                           "infrastructure_multiplier", "duration_days", "amortization_years"))
    assert sympy.simplify(d + c_u * N_n * g * m * T / A**2) == 0    # TCO = K T / A + ...: d/dA = -K T / A^2
    ours = {r["input"]: r for r in s.local_sensitivity("tco_usd").to_records()}["amortization_years"]["derivative_value"]
    fleet, h = Clusters.Training_1K_B200, 1e-4
    kw = {"datacenter": Datacenters.EU_Average, "mfu": 0.45, "infrastructure_multiplier": 2.0}
    up, down = (EconomicsModel().solve(fleet, 90, amortization_years=4 + e, **kw).tco_usd for e in (h, -h))
    assert_close(ours.to("USD/common_year"), Q_((up - down) / (2 * h), "USD/common_year"), "d TCO / d amortization_years", rel=1e-6)


# ---------------------------------------------------------------------- EfficiencyModel
#: named scenario -> (mlsysim model, mlsysim device, EfficiencyModel.solve keyword arguments)
EFFICIENCY = {
    "Gpt3FfnEfficiencyH100": lambda: (Models.Language.GPT3, Hardware.Cloud.H100, {}),
    "Llama3_8BFlashAttentionA100": lambda: (Models.Language.Llama3_8B, Hardware.Cloud.A100,
                                    {"workload_type": "attention", "use_flash_attention": True, "precision": "fp16_dense",
                                     "efficiency": 0.6}),
    "Llama3_70BAttentionB200": lambda: (Models.Language.Llama3_70B, Hardware.Cloud.B200, {"workload_type": "attention", "precision": "fp8"}),
    "ResNet50ConvT4": lambda: (Models.Vision.ResNet50, Hardware.Cloud.T4, {"workload_type": "conv", "precision": "int8", "efficiency": 0.4}),
    "Gpt2OtherKernelsMI300X": lambda: (Models.Language.GPT2, Hardware.Cloud.MI300X, {"workload_type": "other", "precision": "fp32",
                                                                            "efficiency": 0.95}),
}


@pytest.mark.parametrize("key", sorted(EFFICIENCY))
def test_efficiency_every_field(key):
    model, device, kwargs = EFFICIENCY[key]()   # mlsysim's objects, made when the test runs
    ours = Scenarios[key]
    assert ours.inputs["model"].name == model.name and ours.inputs["hardware"].name == device.name
    _same_result(ours.result, EfficiencyModel().solve(model, device, **kwargs), key)


@pytest.mark.parametrize("workload_type", ["ffn", "attention", "conv", "other"])
@pytest.mark.parametrize("flash", [False, True])
@pytest.mark.parametrize("efficiency", [0.1, 0.5, 0.8, 1.0])
def test_efficiency_every_branch_and_cap(workload_type, flash, efficiency):
    """Every kernel type, with and without FlashAttention, below and above each cap (mlsysim's own devices bind)."""
    ours = Scenarios.Gpt3FfnEfficiencyH100.variant(hardware=Hardware.Cloud.H200, workload_type=workload_type,
                                                   use_flash_attention=flash, efficiency=efficiency, precision="fp8")
    theirs = EfficiencyModel().solve(Models.Language.GPT3, Hardware.Cloud.H200, workload_type=workload_type,
                                     use_flash_attention=flash, precision="fp8", efficiency=efficiency)
    _same_result(ours.result, theirs, f"{workload_type}/{flash}/{efficiency}")


def test_efficiency_derivative_matches_mlsysims_central_difference():
    s = Scenarios.ResNet50ConvT4
    d = s.diff("achievable_flops", "efficiency")
    t = s.type
    R, m_lo, m_hi, eta_ref = (t.variable(n).symbol for n in ("R", "mfu_low", "mfu_high", "reference_efficiency"))
    # below the 55 % cap: R_a = R (m_lo + m_hi)/2 eta/eta_ref, so dR_a/deta = R (m_lo + m_hi) / (2 eta_ref) (a Heaviside of the cap is 1)
    assert sympy.simplify(d.replace(sympy.Heaviside, lambda *a: 1) - R * (m_lo + m_hi) / (2 * eta_ref)) == 0
    ours = {r["input"]: r for r in s.local_sensitivity("achievable_flops").to_records()}["efficiency"]["derivative_value"]
    h = 1e-5
    up, down = (EfficiencyModel().solve(Models.Vision.ResNet50, Hardware.Cloud.T4, workload_type="conv", precision="int8",
                                        efficiency=0.4 + e).achievable_flops.m_as("TFLOPs/s") for e in (h, -h))
    assert_close(ours.to("TFLOP/s"), Q_((up - down) / (2 * h), "TFLOP/s"), "d achievable_flops / d efficiency", rel=1e-6)


# ---------------------------------------------------------------------- InferenceScalingModel
#: named scenario -> (mlsysim model, mlsysim device, InferenceScalingModel.solve keyword arguments)
INFERENCE_SCALING = {
    "Llama3_8BReasoningH100": lambda: (Models.Language.Llama3_8B, Hardware.Cloud.H100, {}),
    "Llama3_70BReasoningH200Fp8": lambda: (Models.Language.Llama3_70B, Hardware.Cloud.H200,
                                   {"reasoning_steps": 32, "context_length": 4096, "precision": "fp8"}),
    "DeepSeekV3ReasoningB200": lambda: (Models.Language.DeepSeek_V3, Hardware.Cloud.B200,
                                {"reasoning_steps": 16, "context_length": 8192, "precision": "fp8"}),
    "Mixtral8x7BReasoningA100Int8": lambda: (Models.Language.Mixtral_8x7B, Hardware.Cloud.A100,
                                     {"reasoning_steps": 4, "context_length": 1024, "precision": "int8", "efficiency": 0.7}),
    "Llama2_7BReasoningJetsonOrinInt4": lambda: (Models.Language.Llama2_7B, Hardware.Edge.JetsonAGXOrin,
                                         {"reasoning_steps": 12, "context_length": 512, "precision": "int4"}),
}


@pytest.mark.parametrize("key", sorted(INFERENCE_SCALING))
def test_inference_scaling_every_field(key):
    model, device, kwargs = INFERENCE_SCALING[key]()
    ours = Scenarios[key]
    assert ours.inputs["model"].name == model.name and ours.inputs["hardware"].name == device.name
    _same_result(ours.result, InferenceScalingModel().solve(model, device, **kwargs), key)


def test_inference_scaling_is_one_check_each_way_and_takes_mlsysims_objects():
    """The two branches of the memory wall, a device with no TDP (0 J in both), and mlsysim's own objects."""
    r = {k: Scenarios[k].result.feasible for k in INFERENCE_SCALING}
    assert r["DeepSeekV3ReasoningB200"] is False and r["Llama3_8BReasoningH100"] is True
    ours = Scenarios.Llama3_8BReasoningH100.variant(model=Models.Language.Llama2_13B, hardware=Hardware.Cloud.Graphcore_GC200,
                                                    reasoning_steps=3, context_length=300, precision="fp32")
    theirs = InferenceScalingModel().solve(Models.Language.Llama2_13B, Hardware.Cloud.Graphcore_GC200, reasoning_steps=3,
                                           context_length=300, precision="fp32")
    _same_result(ours.result, theirs, "Llama-2 13B on a GC200")
    assert ours.result.energy_per_query.to("J").magnitude == 0


def test_inference_scaling_derivative_matches_mlsysims_central_difference():
    s = Scenarios.Llama3_70BReasoningH200Fp8
    d = s.diff("total_reasoning_time", "reasoning_steps")
    t = s.type
    v = {n: t.variable(n).symbol for n in ("tokens_per_step", "tokens_per_decode_step", "BW", "layers", "layer_tax", "parameters",
                                           "bytes_8bit", "kv_vectors", "kv_heads", "head_dim", "context_length", "batch_size",
                                           "cache_width_params")}
    # T = TTFT + K n_s ITL / n_1 with ITL = (P b_8 + n_V L n_kv d_h S B b_8 w_v)/BW + L t_L at fp8: dT/dK = n_s ITL / n_1
    itl = ((v["parameters"] * v["bytes_8bit"] + v["kv_vectors"] * v["layers"] * v["kv_heads"] * v["head_dim"] * v["context_length"]
            * v["batch_size"] * v["bytes_8bit"] * v["cache_width_params"]) / v["BW"] + v["layers"] * v["layer_tax"])
    assert sympy.simplify(d - v["tokens_per_step"] * itl / v["tokens_per_decode_step"]) == 0
    ours = {r["input"]: r for r in s.local_sensitivity("total_reasoning_time").to_records()}["reasoning_steps"]["derivative_value"]
    theirs = InferenceScalingModel().solve(Models.Language.Llama3_70B, Hardware.Cloud.H200, reasoning_steps=32, context_length=4096,
                                           precision="fp8")
    assert_close(ours.to("ms"), theirs.time_per_step, "dT/dK = time per step")
    # the steps are whole numbers: the central difference over K +- 1 (exact for a line)
    up, down = (InferenceScalingModel().solve(Models.Language.Llama3_70B, Hardware.Cloud.H200, reasoning_steps=32 + e,
                                              context_length=4096, precision="fp8").total_reasoning_time for e in (1, -1))
    assert_close(ours.to("ms"), (up - down) / 2, "d total_reasoning_time / d reasoning_steps")


# ---------------------------------------------------------------------- the grid registry
def test_grid_registry_equals_mlsysims():
    """Every grid and datacenter of mlsysim 0.3.0 under its key, with its figures and source."""
    from pydantic import BaseModel

    def entries(registry):
        return {a: v for a, v in vars(registry).items() if not a.startswith("_") and isinstance(v, BaseModel)}

    ref = {**entries(Grids._target()), **entries(Datacenters._target())}   # the registries themselves, not their lazy names
    assert set(grids()) == set(ref)
    for key, theirs in ref.items():
        ours = grids()[key]
        grid = getattr(theirs, "grid", theirs)
        assert ours.name == theirs.name and ours.region == grid.name
        assert_close(ours.carbon_intensity.to("g/kWh").magnitude, grid.carbon_intensity_g_kwh, f"{key}.carbon_intensity")
        assert_close(ours.wue.to("L/kWh").magnitude, grid.wue, f"{key}.wue")
        assert_close(ours.pue, theirs.pue, f"{key}.pue")
        prov = theirs.metadata.provenance
        assert ours.source.ref == prov.ref and ours.source.url == (prov.url or "")
        if grid is theirs and theirs.renewable_pct is not None:
            assert_close(ours.renewable_share.to("percent").magnitude, theirs.renewable_pct, f"{key}.renewable_share")


def test_a_grid_input_refuses_bad_values_by_name():
    from mlsysim_symbolic import InputError, UnknownNameError

    s = Scenarios.Research256SustainabilityUs
    with pytest.raises(UnknownNameError, match=r"datacenter: unknown grid 'Quebek'.*did you mean 'Quebec'"):
        s.variant(datacenter="Quebek")
    with pytest.raises(InputError, match=r"datacenter: expected a grid .* got HardwareNode"):
        s.variant(datacenter=Hardware.Cloud.H100)
    with pytest.raises(UnknownNameError, match=r"unknown field 'carbon_intensty'"):
        s.variant(datacenter={"name": "Lab", "carbon_intensty": "100 g/kWh", "pue": 1.2, "wue": "0.5 L/kWh"})
    # a grid stated inline: 100 g/kWh at PUE 1.2 over the run's 129,024 kWh of IT energy (hand: 129,024 x 1.2 x 0.1 kg)
    inline = s.variant(datacenter={"name": "Lab", "region": "Lab grid", "carbon_intensity": "100 g/kWh", "pue": 1.2, "wue": "0.5 L/kWh"})
    assert inline.result.region_name == "Lab grid"
    assert inline.result.carbon_footprint_kg == pytest.approx(129_024 * 1.2 * 0.1, rel=1e-12)
