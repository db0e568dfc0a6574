"""Mutation test of the dimension check (``tools/mutate_dimensions.py``).

Every equation of ``derivations/`` gets planted unit mistakes (a symbol declared in another
dimension, a factor dropped, a time or bandwidth factor added, a bytes term added, a denominator
moved up); an independent oracle (pint arithmetic on the tree) says which mistakes change the
dimension, and every one of those must be refused, both by ``check_equation`` with the type's
unit map and on the load path (``ScenarioType.from_mapping`` on the type's table with the mistake
written into its equation text or ``unit``), for a dimension reason.  Here every mutant is checked
by ``check_equation`` and every 24th takes the load path (issue 30: the load path is most of the
tool's time); the README's command checks a sixth of the types (every sixth by name), the ``thorough`` tier the rest;
``.ci/run`` runs both and ``tools/mutate_dimensions.py --load all``, every mutant down both paths.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.units import parse_unit

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "mutate_dimensions.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("mutate_dimensions", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutate_dimensions"] = module
    spec.loader.exec_module(module)
    return module


#: The catalog's types in this many groups (sorted names, every CHUNKS-th), each a test: pytest-xdist spreads them over
#: workers, and a failure names its group.
CHUNKS = 6
#: The load path (the whole type rebuilt by ``ScenarioType.from_mapping`` with the mistake written into its table) is
#: five sixths of the cost: here every LOAD_EVERY-th mutant takes it; ``.ci/run`` runs the tool with ``--load all``.
LOAD_EVERY = 24


def _chunk(i: int) -> dict:
    return {n: catalog().types[n] for n in sorted(catalog().types)[i::CHUNKS]}


#: The README's command checks the first group (every CHUNKS-th type of the sorted catalog: a sample across every
#: domain, every mutant of its equations); the others are ``thorough`` (``.ci/run`` runs them, and the tool itself
#: over every type with every mutant down the load path).
@pytest.mark.parametrize("chunk", [0, *(pytest.param(i, marks=pytest.mark.thorough) for i in range(1, CHUNKS))])
def test_every_dimension_changing_mutant_is_refused(tool, chunk):
    types = _chunk(chunk)
    s = tool.run(load="sample", sample_every=LOAD_EVERY, types=types)
    print("\n" + tool.report(s))
    # every branch of every quantity output (predicates and labels compare outputs that are mutated themselves)
    branches = sum(len(o.branches) for t in types.values() for o in t.outputs.values() if o.kind == "quantity")
    assert s.originals == branches and s.originals_consistent == branches   # the oracle agrees with every shipped equation
    assert not s.printer_failures                                          # the printed equations load back unchanged
    assert s.made >= 10 * branches                                          # ~12 mistakes per equation
    assert s.changing >= 0.7 * s.made
    assert s.caught == s.changing and not s.escaped, [m.what for m in s.escaped[:10]]
    assert s.caught_consistent == 0                                         # and nothing consistent is refused
    assert s.load_tried >= 0.9 * s.changing / LOAD_EVERY                    # the sample reaches the load path
    assert s.load_refused == s.load_tried and not s.load_escaped, [(m.what, m.note) for m in s.load_escaped[:10]]
    for kind in tool.KINDS:   # every kind of mistake is planted in every group, and changes a dimension there
        assert s.by_kind[kind, "changing"] > 0, kind
        assert s.by_kind[kind, "caught"] == s.by_kind[kind, "changing"], kind   # every counted-kind slip too
    assert s.by_kind["kind-swap", "made"] >= 150 and s.by_kind["kind-drop", "made"] >= 50   # counted kinds in quantity


def test_counted_kind_mutations_of_one_symbol(tool):
    """param ↔ token in a declared unit, and a per-token left out, are made and change the dimension."""
    unit = parse_unit("flop/(param*token)")
    made = dict(tool._kind_mutations(unit))
    assert set(made) == {"param swapped for token", "param swapped for sample", "param swapped for request", "param left out",
                         "token swapped for param", "token swapped for sample", "token swapped for request", "token left out"}
    assert parse_unit(made["token left out"]).dimensionality == parse_unit("flop/param").dimensionality
    assert parse_unit(made["param swapped for token"]).dimensionality == parse_unit("flop/token**2").dimensionality
    k, N, D = sympy.symbols("k N D", positive=True)
    units = {k: unit, N: parse_unit("param"), D: parse_unit("token")}
    flop = parse_unit("flop")
    assert not tool.changes_dimension(k * N * D, units, flop)
    assert tool.changes_dimension(k * N * D, {**units, k: parse_unit(made["token left out"])}, flop)
    r = sympy.Symbol("r", positive=True)
    ratio = {r: parse_unit("token/param"), N: parse_unit("param"), D: parse_unit("token")}
    assert tool.changes_dimension(r * D, ratio, parse_unit("token"))              # N and D exchanged in D_opt = r·N
    assert not tool.changes_dimension(r * N, ratio, parse_unit("token"))


def test_the_oracle_tells_consistent_from_inconsistent(tool):
    P, b, t = sympy.symbols("P b t", positive=True)
    units = {P: parse_unit("param"), b: parse_unit("B/param"), t: parse_unit("s")}
    B = parse_unit("B")
    assert not tool.changes_dimension(P * b, units, B)
    assert tool.changes_dimension(P * b + t, units, B)            # inconsistent sum
    assert tool.changes_dimension(P, units, B)                    # dropped factor: a count, not bytes
    assert tool.changes_dimension(P * b * t, units, B)            # extra time factor
    assert not tool.changes_dimension(sympy.Max(P * b, 0), units, B)
    assert tool.changes_dimension(sympy.log(P * b), units, parse_unit("1"))
    assert tool.changes_dimension(sympy.floor(P * b), units, parse_unit("1"))


def test_a_blind_checker_lets_mutants_escape(tool, monkeypatch):
    """The harness can fail: with the dimension check switched off, the planted mistakes escape."""
    monkeypatch.setattr(tool, "check_equation", lambda *args, **kwargs: None)
    one = {"PerExampleGradientScenario": catalog().types["PerExampleGradientScenario"]}
    s = tool.run(types=one)
    assert s.changing > 0 and len(s.escaped) == s.changing


def test_the_script_runs_as_a_command():
    """The command line, on one type (``--type``): every type is mutated in-process above, with the load path too;
    running them all again in a child process (a few minutes of CPU) would check nothing more (issue 30)."""
    out = subprocess.run([sys.executable, str(SCRIPT), "--type", "PerExampleGradientScenario"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "mutants made:" in out.stdout and "escaped: 0" in out.stdout
    counted = re.search(r"counted kinds \(param, token, sample, request\): (\d+) mutants, (\d+) change the dimension, (\d+) caught", out.stdout)
    assert counted and int(counted[1]) > 0 and counted[2] == counted[3], out.stdout
    refused = subprocess.run([sys.executable, str(SCRIPT), "--type", "NoSuchScenario"], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "unknown scenario type NoSuchScenario" in refused.stderr
