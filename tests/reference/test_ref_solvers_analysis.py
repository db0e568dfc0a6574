"""SensitivitySolver and SynthesisSolver, called exactly as mlsysim 0.3.0's are called, field by field.

Each configuration passes the SAME arguments (mlsysim's own model and device objects, or our registry keys and
``Models``/``Hardware`` entries for the same ones) to ``mlsysim_symbolic.solvers`` and to mlsysim's
``SensitivitySolver().solve`` / ``SynthesisSolver().solve``; every field of mlsysim's result (``constraint_trace``,
prose, apart) is compared: numbers at 1e-9 relative, booleans and labels exactly, the sensitivities dict key by key.
The symbolic side (elasticities, derivatives, the inverse solve) is checked against mlsysim's own numeric solves
(central differences) and against hand computations written out below.
"""

from __future__ import annotations

import inspect
import math
import warnings
from typing import Any

import pytest

from mlsysim_symbolic import InputError, UnitError, UnknownNameError
from mlsysim_symbolic import solvers as ours
from mlsysim_symbolic.solvers.analysis import binding_by_elasticity, elasticities

from .compare import assert_close, assert_same
from .lazy import reference

mlsysim = reference("mlsysim")
theirs = reference("mlsysim.solvers")
their_Q = reference("mlsysim.core.units", "Q_")
TheirEngine = reference("mlsysim.engine.engine", "Engine")
H = reference("mlsysim.hardware.registry", "Hardware")
M = reference("mlsysim.models.registry", "Models")


def same_result(a: Any, b: Any, label: str) -> int:
    """Every field of mlsysim's result ``b`` (but its prose trace) equals ours; the number of values compared."""
    fields = [f for f in type(b).model_fields if f != "constraint_trace"]
    assert list(a.fields) == fields, f"{label}: fields {list(a.fields)} != mlsysim's {fields}"
    assert repr(a).startswith(type(b).__name__ + "("), f"{label}: {a!r}"
    n = 0
    for f in fields:
        mine, reference = getattr(a, f), getattr(b, f)
        if not isinstance(reference, (bool, str, dict)) and reference is not None:
            assert hasattr(mine, "units") == hasattr(reference, "units"), f"{label}.{f}: {mine!r} vs {reference!r}"
        assert_same(mine, reference, f"{label}.{f}")
        n += len(reference) if isinstance(reference, dict) else 1
    return n


def theirs_quiet(solver: str, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():   # mlsysim warns when a device lists no rate at the precision (it takes peak)
        warnings.simplefilter("ignore")
        return getattr(theirs, solver)().solve(*args, **kwargs)


#: () -> (model, hardware, keyword arguments): mlsysim's objects, made when the test runs (collecting imports nothing
#: of mlsysim); ours get the same objects, or the keys in KEYS.
SENSITIVITY: list[Any] = [
    (lambda: (M.Vision.ResNet50, H.Cloud.A100, {})),                                     # compute-bound at batch 1
    (lambda: (M.Language.Llama3_8B, H.Cloud.H100, {})),                                  # memory-bound
    (lambda: (M.Language.Llama3_8B, H.Cloud.A100, dict(precision="int8", efficiency=0.7, perturbation_pct=20.0))),
    (lambda: (M.Tiny.DS_CNN, H.Tiny.ESP32_S3, {})),                                      # a tiny model in the ESP32's SRAM
    (lambda: (M.Tiny.WakeVision, H.Tiny.STM32F4, dict(precision="int8"))),               # does not fit: capacity by rule
    (lambda: (M.Language.GPT3, H.Cloud.H100, {})),                                       # 350 GB on an 80 GB device
    (lambda: (M.Language.Llama3_8B, H.Cloud.T4, {})),
    (lambda: (M.Language.Mixtral_8x7B, H.Cloud.B200, dict(precision="fp8", perturbation_pct=5.0))),   # active experts compute
    (lambda: (M.Vision.MobileNetV2, H.Mobile.iPhone15Pro, dict(precision="FP16", efficiency=0.3))),
    (lambda: (M.Language.Mixtral_8x7B, H.Cloud.H100, {})),                               # 8.7 % too large: +10 % makes it fit
]

SYNTHESIS: list[Any] = [
    (lambda: (M.Language.Llama3_8B, their_Q(10, "ms"), {})),
    (lambda: (M.Vision.ResNet50, their_Q(5, "ms"), dict(precision="fp32"))),
    (lambda: (M.Tiny.DS_CNN, their_Q(50, "ms"), dict(precision="int8", efficiency=0.3))),
    (lambda: (M.Language.GPT3, their_Q(1, "s"), {})),
    (lambda: (M.Language.Mixtral_8x7B, their_Q(20, "ms"), dict(precision="fp8", efficiency=0.8))),
    (lambda: (M.Language.Llama3_70B, their_Q(500, "us"), dict(precision="int4"))),
    (lambda: (M.Vision.MobileNetV2, their_Q(2.5, "ms"), dict(precision="BF16", efficiency=1.0))),
]


def ids(calls: list[Any]) -> list[str]:
    return [str(i) for i in range(len(calls))]     # the configurations are made when the test runs


@pytest.mark.parametrize("make", SENSITIVITY, ids=ids(SENSITIVITY))
def test_sensitivity_solver_equals_mlsysims(make: Any) -> None:
    model, hardware, kwargs = make()
    reference = theirs_quiet("SensitivitySolver", model, hardware, **kwargs)
    mine = ours.SensitivitySolver().solve(model, hardware, **kwargs)
    assert same_result(mine, reference, f"SensitivitySolver({model.name}, {hardware.name}, {kwargs})") == 7


@pytest.mark.parametrize("make", SYNTHESIS, ids=ids(SYNTHESIS))
def test_synthesis_solver_equals_mlsysims(make: Any) -> None:
    model, target, kwargs = make()
    reference = theirs_quiet("SynthesisSolver", model, target, **kwargs)
    mine = ours.SynthesisSolver().solve(model, target, **kwargs)
    assert same_result(mine, reference, f"SynthesisSolver({model.name}, {target}, {kwargs})") == 7


def test_registry_keys_and_namespaces_give_the_same_results() -> None:
    """Our keys and namespace entries stand for mlsysim's objects (the first configurations of each solver)."""
    by_key = ours.SensitivitySolver().solve("Llama3_8B", "A100", precision="int8", efficiency=0.7, perturbation_pct=20.0)
    by_namespace = ours.SensitivitySolver().solve(ours.Models.Language.Llama3_8B, ours.Hardware.Cloud.A100, "int8", 20.0, 0.7)
    reference = theirs_quiet("SensitivitySolver", M.Language.Llama3_8B, H.Cloud.A100, precision="int8", efficiency=0.7,
                             perturbation_pct=20.0)
    assert same_result(by_key, reference, "keys") == same_result(by_namespace, reference, "namespace") == 7
    s = ours.SynthesisSolver().solve(ours.Models.Vision.ResNet50, "5 ms", "fp32")
    assert same_result(s, theirs_quiet("SynthesisSolver", M.Vision.ResNet50, their_Q(5, "ms"), precision="fp32"), "keys") == 7


def test_signatures_are_mlsysims() -> None:
    for name, calls in (("SensitivitySolver", SENSITIVITY), ("SynthesisSolver", SYNTHESIS)):
        assert len(calls) >= 6, name
        mine = list(inspect.signature(getattr(ours, name)().solve).parameters.items())
        reference = list(inspect.signature(getattr(theirs, name)().solve).parameters.items())
        assert [(n, p.default) for n, p in mine] == [(n, p.default) for n, p in reference], name


# ---------------------------------------------------------------------------------------------- symbolic side

def _ridge_distance(model: Any, hardware: Any, kwargs: dict) -> float:
    """max/min of mlsysim's own compute and memory times: 1 at the ridge point."""
    p = TheirEngine.solve(model, hardware, precision=kwargs.get("precision", "fp16").lower(),
                          efficiency=kwargs.get("efficiency", 0.5))
    t_c, t_m = p.latency_compute.to("ms").magnitude, p.latency_memory.to("ms").magnitude
    return max(t_c, t_m) / min(t_c, t_m)


@pytest.mark.parametrize("index", [0, 1, 2, 3, 6])
def test_binding_by_elasticity_agrees_away_from_the_ridge(index: int) -> None:
    """Where the model fits and one ceiling binds by more than the 10 % (or 20 %) upgrade, the parameter of largest
    |d ln T/d ln x| is mlsysim's binding constraint from its finite re-solves, and the finite sensitivity of the
    binding parameter is (1/k - 1) times the part of latency its ceiling makes up, which the elasticity is."""
    model, hardware, kwargs = SENSITIVITY[index]()
    pct = kwargs.get("perturbation_pct", 10.0)
    assert _ridge_distance(model, hardware, kwargs) > 1 + pct / 100   # not within the upgrade of its ridge
    reference = theirs_quiet("SensitivitySolver", model, hardware, **kwargs)
    assert reference.feasible
    mine = ours.SensitivitySolver().solve(model, hardware, **kwargs)
    assert binding_by_elasticity(mine) == reference.binding_constraint
    e = elasticities(mine)
    k = 1 + pct / 100
    for field, finite in reference.sensitivities.items():   # finite = (1/k - 1)·(t_x/T) = (1/k - 1)·|e_x|
        assert math.isclose(finite, (1 / k - 1) * -e[field].value, rel_tol=1e-9, abs_tol=1e-15), field


def test_finite_and_infinitesimal_answers_differ_at_the_capacity_step() -> None:
    """Mixtral 8x7B at fp16 (93.4 GB) on an 80 GB H100: 8.7 % too large, so mlsysim's 10 % capacity upgrade makes it
    fit and its latency drops from the offload path (every byte at the slower of HBM and the H100's host link) to
    HBM: a finite sensitivity below -0.9.  Capacity enters the roofline only through whether the
    weights fit, a step, so d ln T/d ln C is 0; on the offload path neither the peak rate nor the (faster than the
    link) HBM bandwidth moves latency either, so the infinitesimal ranking is a tie of zeros and names the first
    parameter, peak_flops, while mlsysim names memory_capacity (by its rule for a model that does not fit, and by
    the size of its finite step alike)."""
    model, hardware = M.Language.Mixtral_8x7B, H.Cloud.H100
    reference = theirs_quiet("SensitivitySolver", model, hardware)
    assert not reference.feasible and reference.binding_constraint == "memory_capacity"
    weights = model.parameters.to("count").magnitude * 2                       # 46.7e9 parameters × 2 B
    assert hardware.memory.capacity.to("B").magnitude < weights <= 1.1 * hardware.memory.capacity.to("B").magnitude
    fitted = TheirEngine.solve(model, hardware.model_copy(update={"memory": hardware.memory.model_copy(
        update={"capacity": hardware.memory.capacity * 1.1})}))
    t, t_fit = reference.baseline_latency.to("ms").magnitude, fitted.latency.to("ms").magnitude
    assert reference.sensitivities["memory_capacity"] == pytest.approx((t_fit - t) / t, rel=1e-12)
    assert reference.sensitivities["memory_capacity"] < -0.9
    mine = ours.SensitivitySolver().solve(model, hardware)
    e = elasticities(mine)
    assert [e[f].value for f in ("peak_flops", "memory_bandwidth", "memory_capacity")] == [0.0, 0.0, 0.0]
    assert e["memory_capacity"].derivative == 0
    assert binding_by_elasticity(mine) == "peak_flops" != mine.binding_constraint == "memory_capacity"
    assert_close(mine.sensitivities["memory_capacity"], reference.sensitivities["memory_capacity"], "s_C")


def test_near_the_ridge_the_finite_change_is_capped_by_the_other_ceiling() -> None:
    """ResNet-50 at fp16 on an H100 is memory-bound by 1.2 % (mlsysim's t_c/t_m = 0.988): a 10 % faster HBM makes
    compute bind, so mlsysim's finite sensitivity is (t_c - t_m)/T, far smaller than the (1/1.1 - 1)·t_m/T the
    elasticity d ln T/d ln BW = -t_m/T predicts; both still name memory bandwidth."""
    model, hardware = M.Vision.ResNet50, H.Cloud.H100
    p = TheirEngine.solve(model, hardware)
    t_c, t_m, t = (p.latency_compute.to("ms").magnitude, p.latency_memory.to("ms").magnitude, p.latency.to("ms").magnitude)
    assert 1 / 1.1 < t_c / t_m < 1
    reference = theirs_quiet("SensitivitySolver", model, hardware)
    assert reference.sensitivities["memory_bandwidth"] == pytest.approx((t_c - t_m) / t, rel=1e-9)
    mine = ours.SensitivitySolver().solve(model, hardware)
    e = elasticities(mine)
    assert e["memory_bandwidth"].value == pytest.approx(-t_m / t, rel=1e-9)
    linear = (1 / 1.1 - 1) * t_m / t
    assert abs(mine.sensitivities["memory_bandwidth"]) < abs(linear) / 5
    assert binding_by_elasticity(mine) == mine.binding_constraint == reference.binding_constraint == "memory_bandwidth"


def test_sensitivity_derivative_is_mlsysims_central_difference() -> None:
    """d baseline_latency/d memory_bandwidth of Llama-3 8B on an H100, symbolic, against mlsysim's own
    SensitivitySolver re-solved at bandwidths ±0.1 % (the latency is linear in 1/BW there: memory-bound)."""
    model, hardware = M.Language.Llama3_8B, H.Cloud.H100
    slope = elasticities(ours.SensitivitySolver().solve(model, hardware))["memory_bandwidth"].derivative_value
    bw = hardware.memory.bandwidth.to("GB/s").magnitude
    h = bw * 1e-3

    def latency(b: float) -> float:
        hw = hardware.model_copy(update={"memory": hardware.memory.model_copy(update={"bandwidth": their_Q(b, "GB/s")})})
        return theirs_quiet("SensitivitySolver", model, hw).baseline_latency.to("ms").magnitude

    central = (latency(bw + h) - latency(bw - h)) / (2 * h)   # ms per GB/s
    assert slope.to("ms/(GB/s)").magnitude == pytest.approx(central, rel=1e-5)


def test_synthesis_derivative_is_mlsysims_central_difference() -> None:
    """d required_flops/d efficiency (= -F/(T·η²)) of ResNet-50 at 5 ms, symbolic, against mlsysim's own
    SynthesisSolver re-solved at η = 0.5 ± 0.001."""
    r = ours.SynthesisSolver().solve(M.Vision.ResNet50, their_Q(5, "ms"))
    assert r.diff("required_flops", "efficiency") is not None
    from mlsysim_symbolic.symbolic import elasticities as all_elasticities

    slope = all_elasticities(r.scenario, "required_flops", only=("efficiency",))[0].derivative_value
    h = 1e-3

    def flops(eta: float) -> float:
        return theirs_quiet("SynthesisSolver", M.Vision.ResNet50, their_Q(5, "ms"), efficiency=eta).required_flops.to("TFLOP/s").magnitude

    central = (flops(0.5 + h) - flops(0.5 - h)) / (2 * h)
    assert slope.to("TFLOP/s").magnitude == pytest.approx(central, rel=1e-5)


def test_synthesis_inverse_solve_is_the_weight_streaming_time() -> None:
    """Solving required_bw for the target gives the time a device of that bandwidth streams the weights once:
    Llama-3 8B at fp16 is 8.03e9 × 2 B = 16.06 GB, and 16.06 GB / 3350 GB/s (an H100's HBM) = 4.794 ms.  mlsysim's
    SynthesisSolver at that target asks exactly the H100's bandwidth back."""
    r = ours.SynthesisSolver().solve("Llama3_8B", "10 ms")
    solved = r.solve("required_bw", "target_latency", "3350 GB/s").value
    by_hand = 8.03e9 * 2 / 3350e9 * 1e3   # ms
    assert solved.to("ms").magnitude == pytest.approx(by_hand, rel=1e-12)
    back = theirs_quiet("SynthesisSolver", M.Language.Llama3_8B, their_Q(solved.to("ms").magnitude, "ms"))
    assert back.required_bw.to("GB/s").magnitude == pytest.approx(H.Cloud.H100.memory.bandwidth.to("GB/s").magnitude, rel=1e-12)
    flops = r.solve("required_flops", "target_latency", "989 TFLOP/s").value   # the compute time at η = 0.5
    assert flops.to("ms").magnitude == pytest.approx(2 * 8.03e9 / (989e12 * 0.5) * 1e3, rel=1e-12)


def test_every_sensitivity_field_has_its_equation() -> None:
    r = ours.SensitivitySolver().solve("ResNet50", "A100")
    roofline = ours.SingleNodeModel().solve("ResNet50", "A100").scenario.expression("latency", expand=True)
    assert str(r.scenario.expression("baseline_latency", expand=True)) == str(roofline)   # the roofline, composed
    assert r.output("binding_constraint") == "binding_constraint"
    latex = r.latex("binding_constraint")
    assert r"\operatorname{arg\,max}" in latex and "peak\\_flops" in latex
    tree = r.scenario.expression("latency_peak_flops", expand=True)
    assert "p + 1" in str(tree)   # the upgraded rate (1 + p)·R inside the composed roofline


# ---------------------------------------------------------------------------------------------- bad input

@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: ours.SensitivitySolver().solve("Llama9", "H100"), UnknownNameError, ("model", "Llama9")),
    (lambda: ours.SensitivitySolver().solve("Llama3_8B", "H900"), UnknownNameError, ("hardware", "H900")),
    (lambda: ours.SensitivitySolver().solve("Llama3_8B", "H100", perturbation_pct=0), InputError, ("perturbation_pct", "(0, inf)")),
    (lambda: ours.SensitivitySolver().solve("Llama3_8B", "H100", perturbation_pct=-5.0), InputError, ("perturbation_pct", "(0, inf)")),
    (lambda: ours.SensitivitySolver().solve("Llama3_8B", "H100", efficiency=0), InputError, ("efficiency", "(0, 1]")),
    (lambda: ours.SensitivitySolver().solve("Llama3_8B", "H100", efficiency=1.5), InputError, ("efficiency", "(0, 1]")),
    (lambda: ours.SensitivitySolver().solve("Llama3_8B", "H100", precision="fp13"), InputError, ("precision", "fp13")),
    (lambda: ours.SynthesisSolver().solve("Nope", "10 ms"), UnknownNameError, ("model", "Nope")),
    (lambda: ours.SynthesisSolver().solve("Llama3_8B", "10 GB"), UnitError, ("target_latency", "[time]")),
    (lambda: ours.SynthesisSolver().solve("Llama3_8B", their_Q(10, "GB")), UnitError, ("target_latency", "[time]")),
    (lambda: ours.SynthesisSolver().solve("Llama3_8B", 0), InputError, ("target_latency", "(0, inf)")),
    (lambda: ours.SynthesisSolver().solve("Llama3_8B", "-3 ms"), InputError, ("target_latency", "(0, inf)")),
    (lambda: ours.SynthesisSolver().solve("Llama3_8B", "10 ms", efficiency=2), InputError, ("efficiency", "(0, 1]")),
    (lambda: ours.SynthesisSolver().solve("Llama3_8B", "10 ms", efficiency=0), InputError, ("efficiency", "(0, 1]")),
])
def test_bad_input_is_named(call: Any, error: type, words: tuple[str, ...]) -> None:
    with pytest.raises(error) as info:
        call().model_dump()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_elasticities_refuse_other_results_and_unknown_inputs() -> None:
    with pytest.raises(InputError, match="SensitivitySolver"):
        elasticities(ours.SynthesisSolver().solve("Llama3_8B", "10 ms"))
    from mlsysim_symbolic.symbolic import elasticities as all_elasticities

    r = ours.SynthesisSolver().solve("Llama3_8B", "10 ms")
    with pytest.raises(UnknownNameError, match="bandwidth"):
        all_elasticities(r.scenario, "required_bw", only=("bandwidth",))


# ---------------------------------------------------------------------------------------------- engine fixes

def test_heaviside_of_a_branched_argument_compiles_exactly() -> None:
    """A roofline derivative is Heaviside(t_m - t_c) times the branch's slope, and t_m holds the piecewise of the
    paths (offload, memory).  SymPy 1.14's code printer rewrites Heaviside as a piecewise of its argument, and with
    common subexpressions (the branch conditions named x3 ...) that rewrite keeps the first branch only: here it
    reads 1/min(x, y) = 1 where the condition c < p·b is false and 1/x = 1/4 holds, so the step is taken at
    2·2·1 = 4 > a instead of 2·2/4 = 1, not above a = 1, and the value is -0.25 for -0.125 (by hand:
    p·b·(B+1)·(-1/x²)·H(1 - 1) = 2·2·(-1/16)·1/2 = -0.125).  compile_tree calls Heaviside as a function instead."""
    import sympy

    from mlsysim_symbolic.evaluate import compile_tree

    a, p, b, x, y, c, n = sympy.symbols("a p b x y c n", positive=True)
    path = sympy.Piecewise((1 / sympy.Min(x, y), c < p * b), (1 / x, True))
    slope = sympy.Piecewise((-1 / sympy.Min(x, y) ** 2, c < p * b), (-1 / x ** 2, True))
    expr = p * b * (n + 1) * slope * sympy.Heaviside(p * b * (n + 1) * path - a)
    values = (1.0, 1.0, 2.0, 4.0, 1.0, 10.0, 1.0)   # a, p, b, x, y, c, n
    assert compile_tree(expr, (a, p, b, x, y, c, n))(*values) == -0.125
    assert float(compile_tree(expr, (a, p, b, x, y, c, n), vector=True)(*values)) == -0.125


_REPLACED = """
[types.Doubled]
summary = "s"
assumptions = ["a"]
excludes = ["e"]
derivation = "d"
references = [ {{ text = "t" }} ]
[types.Doubled.inputs.models]
kind = "workloads"
symbols.P = {{ attribute = "parameters", unit = "param/sample", counted = "1/sample" }}
[types.Doubled.inputs.batch_size]
symbol = "B"
unit = "sample"
integer = true
[types.Doubled.inputs.grad_bytes]
symbol = "b_g"
unit = "B/param"
[types.Doubled.inputs.growth]
symbol = "g"
unit = "1"
[types.Doubled.uses.grads]
type = "PerExampleGradientScenario"
bind = {{ models = "models", batch_size = "batch_size", bytes_per_param = "grad_bytes" }}
replace = {{ {leaf} = "{equation}" }}
[types.Doubled.outputs.total]
unit = "GB"
equation = "grads.per_batch"
[scenarios.Gpt2Batch8]
type = "Doubled"
inputs.models = {{ "GPT-2" = "GPT2" }}
inputs.batch_size = 8
inputs.grad_bytes = "4 B/param"
inputs.growth = 1.5
"""


def test_composition_replaces_a_leaf_of_the_used_type(tmp_path: Any) -> None:
    """PerExampleGradientScenario's per_batch = B·P·b; with its B replaced by g·B, GPT-2 (1.5e9 parameters) at
    4 B/param and a batch of 8 grown by 1.5: 12 × 1.5e9 × 4 B = 72 GB (by hand)."""
    from mlsysim_symbolic import load_derivations

    path = tmp_path / "user.toml"
    path.write_text(_REPLACED.format(leaf="B", equation="g * B"), encoding="utf-8")
    s = load_derivations(path).scenario("Gpt2Batch8")
    assert s.total("GPT-2").to("GB").magnitude == pytest.approx(72.0, rel=1e-12)
    assert "g" in {str(x) for x in s.expression("total", expand=True).free_symbols}


@pytest.mark.parametrize(("leaf", "equation", "words"), [
    ("Q", "g * B", ("no leaf symbol 'Q'",)),
    ("B", "g * b_g", ("g * b_g", "is in", "sample")),        # bytes per parameter where a batch belongs
    ("B", "g * nothing", ("unknown name", "nothing")),
])
def test_composition_refuses_a_bad_replacement(tmp_path: Any, leaf: str, equation: str, words: tuple[str, ...]) -> None:
    from mlsysim_symbolic import DerivationError, load_derivations

    path = tmp_path / "user.toml"
    path.write_text(_REPLACED.format(leaf=leaf, equation=equation), encoding="utf-8")
    with pytest.raises(DerivationError) as info:
        load_derivations(path).check()
    for word in words:
        assert word in str(info.value), (word, str(info.value))
