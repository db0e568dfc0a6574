"""The type cache on disk (:mod:`mlsysim_symbolic.type_cache`): every type reads back as built, a second process
reads types instead of building them and gives the same numbers, LaTeX and trees, damage and foreign globals are
ignored, and an edited declaration makes another key."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from mlsysim_symbolic import type_cache
from mlsysim_symbolic.catalog import catalog, load_derivations
from mlsysim_symbolic.errors import NotCachedError
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.plan_cache import declaration_digest

#: The README's command reads back one type in PARTS (every PARTS-th by name, from the first); the thorough tier the
#: others.
PARTS = 4


@pytest.mark.parametrize("part", [0, *(pytest.param(i, marks=pytest.mark.thorough) for i in range(1, PARTS))])
def test_every_type_of_the_catalog_reads_back_as_built(monkeypatch: pytest.MonkeyPatch, part: int) -> None:
    """Each of the catalog's types, written and read back (its composed types by name through the catalog), declares
    the same inputs, arguments, outputs (trees and units), composition and result view; or, where a tree holds
    something the cache does not store, is refused whole (NotCachedError: the type is then built, never half-read).
    SymPy may add state to a node it has evaluated (an And of a used type, later in a process), so a type used by
    other tests may be refused here while the same type fresh from its declaration is stored: most must be.  The
    types are built here from their declarations (the cache off): the session's catalog may hold types another
    test worker wrote to the shared cache and this one read back, which are never written again."""
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", "off")
    cat = load_derivations(derivations_dir(), standalone=True)
    differ, refused = [], []
    names = sorted(cat.info)[part::PARTS]
    for name in names:
        stype = cat.types[name]
        try:
            back = type_cache.loads(type_cache.dumps(stype, stype.resolver), cat)
        except NotCachedError:
            refused.append(name)
            continue
        if not type_cache.same_type(back, stype) or back.resolver is not cat:
            differ.append(name)
    assert differ == []
    assert len(refused) <= len(names) // 20, refused


SOLVE = """
import json, sys, warnings
warnings.simplefilter("ignore")
from mlsysim_symbolic import Scenarios
from mlsysim_symbolic.catalog import catalog, load_derivations
from mlsysim_symbolic.solvers import SensitivitySolver
r = SensitivitySolver().solve("Llama3_8B", "H100")
s = Scenarios.Gpt3ActivationsMicrobatch1
out = {"binding": r.binding_constraint, "sensitivities": {k: float(v) for k, v in r.sensitivities.items()},
       "baseline": str(r.baseline_latency), "latex": str(r.scenario.latex("baseline_latency")),
       "tree": str(r.scenario.equation("baseline_latency", expand=True)),
       "dp": str(Scenarios.DpSgdPerExampleGradients.per_batch("GPT-2")),
       "activations": str(s.activations), "doc": s.type.outputs["activations"].doc,
       "built": sorted(catalog().built)}
print(json.dumps(out))
"""


def _run(cache: str) -> dict:
    env = {**os.environ, "MLSYSIM_SYMBOLIC_CACHE": cache}
    out = subprocess.run([sys.executable, "-c", SOLVE], capture_output=True, text=True, check=True, env=env, timeout=600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_process_reads_the_types_and_answers_the_same(tmp_path: Path) -> None:
    """The first process builds and writes every type it uses; the second reads them (the entries are read: they
    are not rewritten) and gives the same values, LaTeX and expanded tree as a process with no cache at all."""
    first = _run(str(tmp_path / "cache"))
    entries = sorted((tmp_path / "cache" / "types-v1").glob("*.pickle"))
    assert len(entries) == len(first["built"]) >= 3
    written = {p: p.stat().st_mtime_ns for p in entries}
    second = _run(str(tmp_path / "cache"))
    assert {p: p.stat().st_mtime_ns for p in sorted((tmp_path / "cache" / "types-v1").glob("*.pickle"))} == written
    uncached = _run("off")
    assert first == second == uncached


def test_an_entry_naming_anything_else_is_ignored_and_the_type_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pickle that names a global outside the admitted records (here ``os.system``), a truncated file and an entry
    stored under another key all read as no entry."""
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    cat = catalog()
    stype = cat.types["PerExampleGradientScenario"]
    key = "a" * 64
    assert type_cache.write(key, stype, cat, cat.types.__getitem__)
    path = tmp_path / "cache" / "types-v1" / f"{key}.pickle"
    assert type_cache.same_type(type_cache.read(key, cat, cat.types.__getitem__), stype)

    class Evil:
        def __reduce__(self):
            return os.system, ("echo owned",)

    for damaged in (key.encode() + pickle.dumps(Evil()), path.read_bytes()[:100], ("b" * 64).encode() + path.read_bytes()[64:]):
        path.write_bytes(damaged)
        assert type_cache.read(key, cat, cat.types.__getitem__) is None
    with pytest.raises(pickle.UnpicklingError, match="posix.system is not read"):
        type_cache.loads(pickle.dumps(Evil()), cat)


def test_the_key_changes_with_any_declaration_reached() -> None:
    """A type's entry is named by its own declaration and those of the types it reaches: editing a composed type's
    table (one equation) names another entry."""
    raw = {"outputs": {"y": {"unit": "s", "equation": "x"}}}
    edited = {"outputs": {"y": {"unit": "s", "equation": "2 * x"}}}
    own = ("Outer", declaration_digest("Outer", "f", {"uses": {"inner": {"type": "Inner"}}}))
    before = type_cache.entry_key("Outer", [own, ("Inner", declaration_digest("Inner", "f", raw))])
    after = type_cache.entry_key("Outer", [own, ("Inner", declaration_digest("Inner", "f", edited))])
    assert before != after
    assert before == type_cache.entry_key("Outer", [("Inner", declaration_digest("Inner", "f", raw)), own])   # order-free
