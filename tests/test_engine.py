"""The engine's public layers: one-way imports, the plan API, accessors, inputs needed where used,
registry fields changed in place, arguments everywhere, immutability and pickling (issues 9 and 10)."""

from __future__ import annotations

import ast
import concurrent.futures
import inspect
import pickle
from pathlib import Path

import numpy as np
import pint
import pytest

import mlsysim_symbolic
from mlsysim_symbolic import InputError, MissingInputError, Scenarios, UnknownNameError, workloads
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.spec import ACCESSORS, CORE_MEMBERS, KINDS, RESERVED

PACKAGE = Path(mlsysim_symbolic.__file__).parent


# ---------------------------------------------------------------------- architecture
def _imports() -> dict[str, set[str]]:
    """Module -> package modules it imports anywhere (imports under ``if TYPE_CHECKING:`` excepted)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        modules[name] = path
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        tree = ast.parse(path.read_text())
        skip = {id(x) for n in ast.walk(tree) if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
                for x in ast.walk(n)}
        pkg = m if path.name == "__init__.py" else m.rsplit(".", 1)[0]
        for n in ast.walk(tree):
            if id(n) in skip or not isinstance(n, ast.ImportFrom) or not n.level:
                continue
            base = pkg.split(".")[: len(pkg.split(".")) - (n.level - 1)]
            target = ".".join(base + ([n.module] if n.module else []))
            for cand in [target, *(f"{target}.{a.name}" for a in n.names)]:
                if cand in modules and cand != m and cand != "mlsysim_symbolic":
                    edges[m].add(cand)
            assert not any(a.name.startswith("_") and not a.name.startswith("__") for a in n.names), \
                f"{m} imports a private name from {target}"
    return edges


def test_imports_flow_one_way():
    """No circle among the package's modules, imports inside functions included."""
    edges = _imports()
    state: dict[str, int] = {}

    def visit(m: str, trail: tuple[str, ...]) -> None:
        if state.get(m) == 2:
            return
        assert state.get(m) != 1, f"import cycle: {' -> '.join((*trail, m))}"
        state[m] = 1
        for n in edges[m]:
            visit(n, (*trail, m))
        state[m] = 2

    for m in edges:
        visit(m, ())


#: The layers, lowest first (README, "Layout"): a module imports only from its own layer or below.  ``sources`` reads
#: the files' structure with the spec's reader alone, so it sits with the spec (the plan cache finds its folder).
LAYERS = [
    {"errors", "paths", "units", "variables", "parse", "dimensions", "evaluate", "registry", "reductions", "special", "treewalk",
     "underflow", "interop", "distributions", "constants", "code_names"},
    {"spec", "sources"},
    {"plan", "plan_cache", "type_cache"},
    {"symbolic", "sweep", "solve", "sensitivity", "moves", "results", "printing", "formatters", "tables", "plots",
     "output_ref"},
    {"scenario"},
    {"catalog", "scenarios", "functions"},
    {"docs", "paper", "cli", "solvers", "shim", "__main__"},
]
#: Imports under ``if TYPE_CHECKING:`` that climb a layer (type hints only, never run): the printers annotate their
#: argument as the Scenario they print.  Counted, so a new one is a decision, not a drift.
TYPE_CHECKING_CLIMBS = {("mlsysim_symbolic.printing.answers", "mlsysim_symbolic.scenario"),
                        ("mlsysim_symbolic.printing.equations", "mlsysim_symbolic.scenario"),
                        ("mlsysim_symbolic.printing.symbols", "mlsysim_symbolic.scenario")}


def _layer(module: str) -> int:
    part = module.split(".")[1]
    found = [i for i, names in enumerate(LAYERS) if part in names]
    assert found, f"{module} is in no layer of LAYERS (add it where it belongs)"
    return found[0]


def test_no_import_climbs_a_layer_and_type_checking_climbs_are_counted():
    climbs: dict[str, set[tuple[str, str]]] = {"runtime": set(), "TYPE_CHECKING": set()}
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        if module == "mlsysim_symbolic":
            continue
        tree = ast.parse(path.read_text())
        hinted = {id(x) for n in ast.walk(tree) if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
                  for x in ast.walk(n)}
        pkg = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for n in ast.walk(tree):
            if not isinstance(n, ast.ImportFrom) or not n.level:
                continue
            target = ".".join(pkg.split(".")[: len(pkg.split(".")) - (n.level - 1)] + ([n.module] if n.module else []))
            if target == "mlsysim_symbolic" or target == module:
                continue
            if _layer(target) > _layer(module):
                climbs["TYPE_CHECKING" if id(n) in hinted else "runtime"].add((module, target))
    assert not climbs["runtime"], sorted(climbs["runtime"])
    assert climbs["TYPE_CHECKING"] == TYPE_CHECKING_CLIMBS, sorted(climbs["TYPE_CHECKING"] ^ TYPE_CHECKING_CLIMBS)


@pytest.mark.parametrize("analysis", ["sweep", "solve", "sensitivity", "symbolic"])
def test_analyses_depend_on_the_plan_not_on_scenario(analysis):
    edges = _imports()
    assert "mlsysim_symbolic.scenario" not in edges[f"mlsysim_symbolic.{analysis}"]
    assert "mlsysim_symbolic.plan" in edges[f"mlsysim_symbolic.{analysis}"]


def test_input_kinds_are_one_table():
    assert sorted(KINDS) == ["choice", "flag", "grid", "hardware", "key", "list", "map", "quantity", "relation", "rows",
                            "scenario", "scenarios", "workload", "workloads"]


def test_the_pint_application_registry_is_left_alone():
    assert pint.get_application_registry() is not mlsysim_symbolic.ureg


# ---------------------------------------------------------------------- plan, accessors, aliases
def test_the_plan_layer_is_public():
    s = Scenarios.DpSgdPerExampleGradients
    plan = s.planner.plan("per_batch")
    assert str(plan.expr) == "B*P*b" and plan.indices == ("models",)
    # independent hand computation: 256 examples x 1.5e9 params x 4 B = 1.536e12 B
    assert s.planner.evaluate("per_batch", "GPT-2").magnitude == 256 * 1.5e9 * 4


def test_accessors_and_their_aliases_agree():
    s = Scenarios.DpSgdPerExampleGradients
    assert s.inverse.solve("per_batch", "batch_size", "80 GB", "GPT-2").value == s.solve("per_batch", "batch_size", "80 GB", "GPT-2").value == 13
    grid = s.sweeps.grid("per_batch", "GPT-2", batch_size=[1, 2]).values
    assert list(grid.to("GB").magnitude) == [6.0, 12.0]   # 1.5e9 x 4 B = 6 GB per example
    assert [r["input"] for r in s.sensitivity.local("per_batch", "GPT-2")] == [r["input"] for r in s.local_sensitivity("per_batch", "GPT-2")]
    assert s.tex.substituted("per_batch", "GPT-2") == s.latex("per_batch", "GPT-2")


def test_an_output_takes_an_accessor_name_only_by_saying_so():
    """mlsysim's LaplaceMeanRelease has a member called `sensitivity`: its output declares shadows_accessor = true;
    on that type the analyses stay reachable through s.ref(output)."""
    s = Scenarios.SalaryMeanLaplaceRelease
    # the L1 sensitivity of a sum of values in [0, 200000] USD is the range, 200000 USD (Dwork & Roth 2014, §3.3)
    assert s.sensitivity.to("USD").magnitude == pytest.approx(200000.0)
    assert s.type.outputs["sensitivity"].shadows
    # noise_scale = Δ/ε: ∂b/∂ε = -Δ/ε²
    assert str(s.ref("noise_scale").diff("epsilon")) == "-Delta/epsilon**2"


def test_reserved_names_are_short_and_refused_at_load(tmp_path):
    assert len(CORE_MEMBERS) <= 16
    assert RESERVED == CORE_MEMBERS | set(ACCESSORS)
    path = tmp_path / "user.toml"
    path.write_text('[types.T]\n[types.T.inputs.variant]\nunit = "B"\n[types.T.outputs.y]\nunit = "B"\nequation = "variant"\n')
    with pytest.raises(mlsysim_symbolic.DerivationError, match="variant.*reserved"):
        mlsysim_symbolic.load_derivations(path).check()


# ---------------------------------------------------------------------- inputs needed only where used
def test_unused_inputs_are_not_required():
    c = catalog()
    kv = c.classes["KvFootprintScenario"](workload="Llama2_7B", bytes_per_value="2 B")
    # Llama-2-7B: 2 (K and V) x 32 layers x 4096 hidden x 2 B = 524,288 B per token (Touvron et al. 2023, Table 1 shape)
    assert kv.per_token.to("B").magnitude == 2 * 32 * 4096 * 2   # bytes for one token
    with pytest.raises(MissingInputError, match=r"KvFootprintScenario\.total needs input 'tokens'"):
        _ = kv.total
    failures = c.classes["FailureIntervalScenario"](component_mtbf="50000 h", n_components=1000)
    assert failures.interval.to("h").magnitude == pytest.approx(50.0)   # 50,000 h / 1,000 components
    zero = c.classes["ZeroShardingScenario"](workload="Llama2_7B")
    # ZeRO §3.1: mixed-precision Adam keeps 16 B per parameter unsharded (DDP); Llama-2-7B's registry count is 7e9
    assert zero.stage_state("DDP").to("GB").magnitude == pytest.approx(7e9 * 16 / 1e9)
    with pytest.raises(MissingInputError, match="n_devices"):
        zero.stage_state("ZeRO-3")
    ghost = Scenarios.MixedGhostClippingGpt2Small
    given = {k: v for k, v in ghost.planner.given.items() if v is not None and k not in ("batch_size", "bytes_per_value")}
    lean = type(ghost)(**given)
    assert lean.uses_ghost("lm-head") == ghost.uses_ghost("lm-head")


def test_signature_names_the_outputs_that_need_an_input():
    sig = inspect.signature(catalog().classes["KvFootprintScenario"])
    assert "total" in repr(sig.parameters["tokens"].default) and "per_token" not in repr(sig.parameters["tokens"].default)


# ---------------------------------------------------------------------- registry entries changed in place
def test_variant_changes_registry_fields():
    s = Scenarios.Llama2_7BKvAt2048Tokens
    gqa = s.variant(workload={"kv_heads": 8})
    # Llama-2-7B has 32 heads: KV heads 32 -> 8 is a quarter of the KV bytes; the weights are unchanged
    assert gqa.per_token.magnitude == pytest.approx(s.per_token.magnitude / 4)
    assert gqa.weights == s.weights
    assert gqa.workload.heads == s.workload.heads and gqa.workload.kv_heads == 8
    with pytest.raises(UnknownNameError, match="kv_heads"):
        s.variant(workload={"kv_head": 8})


def test_unknown_entry_attribute_is_an_error():
    with pytest.raises(AttributeError, match="parameters"):
        _ = workloads()["GPT2"].paramters
    assert workloads()["GPT2"].kv_heads is None   # a known field the entry does not state


def test_inline_workload_with_a_typo_is_refused():
    s = Scenarios.Llama2_7BKvAt2048Tokens
    with pytest.raises(UnknownNameError, match="hiden_dim"):
        type(s)(workload={"name": "mine", "layers": 2, "hiden_dim": 64}, tokens=1, bytes_per_value="2 B")


# ---------------------------------------------------------------------- arguments everywhere
def test_sweep_over_an_argument_equals_point_by_point():
    s = Scenarios.Gpt3CheckpointInterval10K
    taus = [60, 300, 600, 1200, 3600]
    swept = s.sweep("waste_at", tau=taus).values.magnitude
    pointwise = [s.waste_at(t).magnitude for t in taus]
    assert np.allclose(swept, pointwise, rtol=1e-12)


def test_solve_and_sensitivity_take_arguments():
    s = Scenarios.Gpt3CheckpointInterval10K
    root = s.solve("waste_at", "tau", "0.1")
    assert s.waste_at(root.exact).magnitude == pytest.approx(0.1, rel=1e-9)
    table = s.one_at_a_time("waste_at", tau="600 s")
    assert "tau" in [r["input"] for r in table]


# ---------------------------------------------------------------------- immutability and parallel use
def test_scenarios_are_immutable():
    s = Scenarios.DpSgdPerExampleGradients
    with pytest.raises(AttributeError, match=r"variant\(batch_size"):
        s.batch_size = 1024
    with pytest.raises(TypeError):
        s.inputs["batch_size"] = 1024


def _per_batch(s):
    return s.per_batch("GPT-2").magnitude


def test_a_used_scenario_pickles_and_runs_in_worker_processes():
    s = Scenarios.DpSgdPerExampleGradients
    here = _per_batch(s)   # compiled caches exist now
    again = pickle.loads(pickle.dumps(s))
    assert _per_batch(again) == here and again.key == s.key
    with concurrent.futures.ProcessPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(_per_batch, [s] * 4)) == [here] * 4


def test_bad_argument_values_are_named():
    with pytest.raises(InputError, match="stage"):
        Scenarios.Llama2_7B_ZeroStages64.stage_state("ddp")


# ---------------------------------------------------------------------- flags (mlsysim's bool fields)
def test_a_flag_input_is_one_or_zero_and_binds_only_true_or_false():
    """10 GB read raw, or 4x that when decoded: S (1 + f (x - 1)) is 10 GB and 40 GB (hand computation)."""
    from mlsysim_symbolic import DerivationError
    from mlsysim_symbolic.scenario import scenario_class
    from mlsysim_symbolic.spec import ScenarioType

    t = ScenarioType.from_mapping("Codec", {"summary": "x", "inputs": {
        "raw_bytes": {"symbol": "S", "unit": "GB"},
        "decoded": {"kind": "flag", "symbol": "f_d", "default": False},
        "expansion": {"symbol": "x", "unit": "1", "default": 4}},
        "outputs": {"bytes_read": {"unit": "GB", "equation": "S * (1 + f_d * (x - 1))"}}})
    s = scenario_class(t)(raw_bytes="10 GB")
    assert (s.bytes_read.to("GB").magnitude, s.variant(decoded=True).bytes_read.to("GB").magnitude) == (10, 40)
    assert s.decoded is False and s.variant(decoded=True).decoded is True
    for bad in (1, "False", "yes", 0.0):
        with pytest.raises(InputError, match="decoded: expected True or False"):
            s.variant(decoded=bad)
    with pytest.raises(DerivationError, match="a flag's default is true or false"):
        ScenarioType.from_mapping("Bad", {"inputs": {"f": {"kind": "flag", "default": 1}}, "outputs": {}})
    with pytest.raises(DerivationError, match="unit"):
        ScenarioType.from_mapping("Bad", {"inputs": {"f": {"kind": "flag", "unit": "s"}}, "outputs": {}})


# ---------------------------------------------------------------------- tuples of outputs (mlsysim's tuple members)
def test_a_member_is_a_tuple_of_outputs_read_or_called_as_they_are():
    """mlsysim's HealthProbe.detection_window is (earliest, latest) = ((k - 1) I + t, that + I): 12 s and 17 s."""
    from mlsysim_symbolic import DerivationError
    from mlsysim_symbolic.spec import ScenarioType

    s = Scenarios.InferenceReadinessProbe
    assert tuple(q.to("s").magnitude for q in s.detection_window) == (12, 17)
    base = {"inputs": {"x": {"unit": "s"}}, "arguments": {"n": {"unit": "1"}},
            "outputs": {"a": {"unit": "s", "equation": "x"}, "b": {"unit": "s", "equation": "2 * x"},
                        "c": {"unit": "s", "equation": "n * x"}}}
    for members, message in [({"a": {"parts": ["b", "c"]}}, "already an output"),
                             ({"m": {"parts": ["a"]}}, "two or more outputs"),
                             ({"m": {"parts": ["a", "nope"]}}, "two or more outputs"),
                             ({"m": {"parts": ["a", "c"]}}, "called alike")]:
        with pytest.raises(DerivationError, match=message):
            ScenarioType.from_mapping("T", {**base, "members": members})


def test_a_member_of_members_is_a_tuple_of_tuples():
    """mlsysim's ConservedBudgetResult.states is a list of (settled, reserved, free) tuples: a member may list members
    declared before it, read (and shown in a result view) as a tuple of their tuples; a later member is refused."""
    from mlsysim_symbolic import DerivationError
    from mlsysim_symbolic.scenario import scenario_class
    from mlsysim_symbolic.spec import ScenarioType

    base = {"inputs": {"x": {"unit": "s"}},
            "outputs": {"a": {"unit": "s", "equation": "x"}, "b": {"unit": "s", "equation": "2 * x"},
                        "c": {"unit": "s", "equation": "3 * x"}}}
    t = ScenarioType.from_mapping("T", {**base, "members": {"ab": {"parts": ["a", "b"]}, "bc": {"parts": ["b", "c"]},
                                                            "rows": {"parts": ["ab", "bc", "ab"]}},
                                        "result": {"name": "TResult", "fields": ["rows", "c"]}})
    assert t.member_outputs("rows") == ("a", "b", "b", "c", "a", "b")
    s = scenario_class(t)(x="1 s")
    assert [[q.to("s").magnitude for q in row] for row in s.rows] == [[1, 2], [2, 3], [1, 2]]
    assert [[q.to("s").magnitude for q in row] for row in s.result.rows] == [[1, 2], [2, 3], [1, 2]]
    with pytest.raises(DerivationError, match="two or more outputs"):
        ScenarioType.from_mapping("T", {**base, "members": {"rows": {"parts": ["ab", "a"]}, "ab": {"parts": ["a", "b"]}}})


def test_gradient_chain_gives_every_derivative_by_hand():
    """One forward pass of the chain rule over declared definitions (what elasticities of chained outputs use):
    o1 = floor(x/2), o2 = o1*y + x**2.  By hand at x = 5, y = 3: d o2/dx = 0*y + 2x = 10 (a floor's derivative is 0
    away from its steps, even once o1's tree replaces its symbol), d o2/dy = o1 = floor(2.5) = 2."""
    import sympy

    from mlsysim_symbolic.evaluate import compile_chain, gradient_chain

    x, y, o1, o2 = sympy.symbols("x y o1 o2", positive=True)
    chain = gradient_chain([(o1, sympy.floor(x / 2)), (o2, o1 * y + x**2)], (x, y))
    assert compile_chain(chain, (x, y))(5.0, 3.0) == (10.0, 2.0)
