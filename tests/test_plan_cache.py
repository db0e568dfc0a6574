"""The plan cache on disk (:mod:`mlsysim_symbolic.plan_cache`): keyed by content, damage ignored, results unchanged."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import sympy

from mlsysim_symbolic import Scenarios, load_derivations, plan_cache
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.evaluate import compile_chain, scalar_namespace
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.plan import caches, compiling
from mlsysim_symbolic.plan.binding import _BINDINGS
from mlsysim_symbolic.solvers import SensitivitySolver
from mlsysim_symbolic.spec import ScenarioType


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of its own (structure and plans)."""
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    folder = plan_cache.folder()
    assert folder is not None
    return folder


def _forget() -> None:
    """Drop the plans and compiled functions kept in this process, so that the next plan is made (or read) again:
    each type's, and the kept bindings' (whose evaluate fast path holds plans: a solve bound to the same inputs
    earlier in the process would otherwise never plan again, whichever tests ran before)."""
    cat = catalog()
    for name in cat.info:
        entry = cat._entry(name)
        if entry is not None and entry.stype is not None:
            caches(entry.stype).clear()
    _BINDINGS.clear()


def _solve() -> dict[str, object]:
    """One solve's values, its LaTeX and its expanded tree (each read from a plan)."""
    result = SensitivitySolver().solve("Llama3_8B", "H100")
    scenario = result.scenario
    return {"binding": result.binding_constraint, "sensitivities": dict(result.sensitivities),
            "baseline": result.baseline_latency, "latex": str(scenario.latex("baseline_latency")),
            "tree": scenario.equation("baseline_latency", expand=True),
            "per_batch": Scenarios.DpSgdPerExampleGradients.variant().per_batch("GPT-2"),   # a planner of its own
            "dp_latex": str(Scenarios.DpSgdPerExampleGradients.latex("per_batch", "GPT-2"))}


def _dp(source: Path) -> float:
    return load_derivations(source, standalone=True).scenario("DpSgdPerExampleGradients").per_batch("GPT-2").magnitude


def test_round_trip_keeps_trees_as_written() -> None:
    x, y = sympy.symbols("x y", positive=True)
    unevaluated = sympy.Max(x, x + 1, evaluate=False)   # SymPy would fold it to x + 1
    back = plan_cache.loads(plan_cache.dumps(((x, unevaluated), (y, sympy.Piecewise((x, sympy.Le(x, y)), (y, True))))))
    assert back[0][1].args == unevaluated.args and back[0][1].func is sympy.Max
    assert back[1][1] == sympy.Piecewise((x, sympy.Le(x, y)), (y, True))
    s, c, n = sympy.symbols("S S_c n_min", positive=True)
    tree = sympy.Max(s - c, n) * s * sympy.Min(c, n)   # Max keeps its argument set beside its args: printing reads it
    assert sympy.latex(plan_cache.loads(plan_cache.dumps(tree))) == sympy.latex(tree)


def test_values_equal_with_and_without_the_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _forget()
    first = _solve()                      # planned, and stored
    assert any(cache.glob("*.pickle"))
    _forget()
    second = _solve()                     # read back
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", "off")
    assert plan_cache.folder() is None
    _forget()
    third = _solve()                      # no cache at all
    assert first == second == third


def test_a_damaged_entry_is_ignored_and_rebuilt(cache: Path) -> None:
    _forget()
    expected = _solve()
    entries = sorted(cache.glob("*.pickle"))
    assert entries
    for i, entry in enumerate(entries):   # truncated, garbage, empty, and a valid pickle of something else
        entry.write_bytes([entry.read_bytes()[:20], b"\x80\x05not a pickle", b"", plan_cache.dumps(("other", ()))][i % 4])
    _forget()
    assert _solve() == expected
    for entry in entries:                 # each rewritten whole
        key = entry.name.removesuffix(".pickle")
        assert plan_cache.read(key) is not None


def test_an_edited_derivation_never_reads_a_stale_entry(cache: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "dp.toml"
    shutil.copy(derivations_dir() / "dp.toml", copy)
    assert _dp(copy) == 1.536e12
    assert any(cache.glob("*.pickle"))
    copy.write_text(copy.read_text().replace('equation = "per_example * B"', 'equation = "per_example * B * 2"'))
    assert _dp(copy) == 2 * 1.536e12      # another declaration, another entry

    # the test can tell: were the key blind to the declaration, the edited copy would read the stale plan
    monkeypatch.setattr(plan_cache, "type_digest", lambda stype: "blind")
    shutil.copy(derivations_dir() / "dp.toml", copy)
    assert _dp(copy) == 1.536e12
    copy.write_text(copy.read_text().replace('equation = "per_example * B"', 'equation = "per_example * B * 2"'))
    assert _dp(copy) == 1.536e12


BYTES = {"inputs": {"params": {"symbol": "P", "unit": "param"}, "width": {"symbol": "b", "unit": "B/param"}},
         "outputs": {"size": {"symbol": "W", "unit": "B", "equation": "P * b"}}}


def test_the_key_covers_declaration_code_and_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    stype = ScenarioType.from_mapping("Bytes", BYTES, digest="read")   # a type is frozen: its digest given when built
    what = ("size", (), ("signature",))
    key = plan_cache.entry_key(stype, what)
    assert key is not None
    assert plan_cache.entry_key(stype, ("size", (), ("another",))) != key
    assert plan_cache.entry_key(ScenarioType.from_mapping("Bytes", BYTES, digest="edited"), what) != key
    monkeypatch.setattr(plan_cache, "code_fingerprint", lambda: "another version")
    assert plan_cache.entry_key(stype, what) != key


def test_a_type_not_read_from_a_declaration_is_not_cached() -> None:
    assert plan_cache.entry_key(ScenarioType.from_mapping("Bytes", BYTES), ("size", (), ())) is None
    assert plan_cache.entry_key(Scenarios.DpSgdPerExampleGradients.type, ("per_batch", (), ())) is not None


def test_compiled_functions_are_read_back_not_compiled_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every function stored by the first solve is read back by the second, not compiled again.  A chain the cache
    declines to store (its round trip not equal to the tree: a tree SymPy's cache built from an earlier, differently
    ordered equal object, as whichever tests ran before in the process decide) is compiled again, and only those."""
    _forget()
    unstored: list[str] = []
    write = plan_cache.write

    def counted_write(key: str, definitions: object) -> bool:
        stored = write(key, definitions)
        if not stored:
            unstored.append(key)
        return stored

    monkeypatch.setattr(plan_cache, "write", counted_write)
    expected = _solve()
    assert any(cache.glob("*.function.json"))
    _forget()
    compiles: list[object] = []
    compile_chain = compiling.compile_chain

    def counted(*args: object, **kwargs: object) -> object:
        compiles.append(args[0])
        return compile_chain(*args, **kwargs)

    monkeypatch.setattr(compiling, "compile_chain", counted)   # the plan layer's compile step
    assert _solve() == expected
    assert len(compiles) <= len(unstored), f"compiled again: {len(compiles)} chains, {len(unstored)} not stored"


def _guarded_chain() -> tuple[tuple[tuple[sympy.Symbol, sympy.Expr], ...], tuple[sympy.Symbol, ...]]:
    x, y, out = sympy.symbols("x y out", nonnegative=True)
    tree = sympy.Piecewise((1 / x, x > 0), (y, True)) + x**2 + y**2 + x * y   # a common 1/x where x = 0: guarded
    return ((out, tree),), (x, y)


def test_a_guarded_function_keeps_its_slow_form(cache: Path) -> None:
    definitions, args = _guarded_chain()
    made = plan_cache.compiled("guarded", definitions, args, compile_chain, scalar_namespace)
    read = plan_cache.compiled("guarded", definitions, args, compile_chain, scalar_namespace)
    assert read is not made and hasattr(read, "fast")
    for values in ((0.0, 2.0), (2.0, 3.0)):
        assert read(*values) == made(*values) == compile_chain(definitions, args)(*values)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "renamed global", "other key"])
def test_a_damaged_function_entry_is_compiled_again(cache: Path, damage: str) -> None:
    definitions, args = _guarded_chain()
    plan_cache.compiled("guarded", definitions, args, compile_chain, scalar_namespace)
    (entry,) = cache.glob("*.function.json")
    text = entry.read_text()
    data = json.loads(text)
    if damage == "truncated":
        entry.write_text(text[: len(text) // 2])
    elif damage == "garbage":
        entry.write_bytes(b"\xff\x00")
    elif damage == "renamed global":   # a name that stood for another function when stored
        data["names"] = {name: "function elsewhere.other" for name in data["names"]} or {"sqrt": "function elsewhere.other"}
        entry.write_text(json.dumps(data))
    else:
        data["key"] = "0" * 64
        entry.write_text(json.dumps(data))
    calls = []

    def make(*a: object) -> object:
        calls.append(1)
        return compile_chain(*a)   # type: ignore[arg-type]

    function = plan_cache.compiled("guarded", definitions, args, make, scalar_namespace)
    assert calls == [1] and function(0.0, 2.0) == compile_chain(definitions, args)(0.0, 2.0)
    assert json.loads(entry.read_text())["key"] == entry.name.removesuffix(".function.json")   # rewritten whole


class _Calls:
    """Pickles as a call of ``func`` on ``args`` (what a crafted entry would hold)."""

    def __init__(self, func: object, *args: object) -> None:
        self.func, self.args = func, args

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return self.func, self.args


def test_an_entry_calls_nothing_but_what_the_cache_writes(cache: Path, tmp_path: Path) -> None:
    import os
    import pickle

    marker = tmp_path / "marker"
    marker.write_text("kept")
    x = sympy.Symbol("x", positive=True)
    key = "0" * 64
    crafted = {   # a global outside SymPy; a node's constructor (ExprCondPair sympifies text); a wrong argument
        "remove": (key, ((x, _Calls(os.remove, str(marker))),)),
        "constructor": (key, ((x, _Calls(sympy.functions.elementary.piecewise.ExprCondPair, "x + 1", True)),)),
        "rebuild text": (key, ((x, _Calls(plan_cache._rebuild, sympy.Add, ("x + 1",), True)),)),
    }
    cache.mkdir(parents=True, exist_ok=True)
    for what, value in crafted.items():
        (cache / f"{key}.pickle").write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        assert plan_cache.read(key) is None, what
    assert marker.read_text() == "kept"
    with pytest.raises(pickle.UnpicklingError):
        plan_cache.loads(pickle.dumps(_Calls(os.remove, str(marker))))
    assert marker.exists()
