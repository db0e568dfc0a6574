"""Typed dispatch where strings decided (issue 31): output kinds, result-field sources and distributions are classes
in tables, and no code of the package decides behaviour by comparing a kind, a source or a distribution name with
text.  Each table is checked row by row: every class has its methods, and each behaves as before on an example whose
values were computed by hand (written in the comments), not by the code under test."""

from __future__ import annotations

import ast
import dataclasses
import math
import pickle
from pathlib import Path

import numpy as np
import pytest

from mlsysim_symbolic.distributions import DISTRIBUTIONS, Law
from mlsysim_symbolic.errors import InputError
from mlsysim_symbolic.plan import Planner
from mlsysim_symbolic.results import ResultView
from mlsysim_symbolic.sensitivity import distribution
from mlsysim_symbolic.spec import OUTPUT_KINDS, OutputKind, ScenarioType
from mlsysim_symbolic.spec.result_sources import RESULT_SOURCES, FieldSource
from mlsysim_symbolic.units import Q_
from mlsysim_symbolic.variables import AttributeRead, ScenarioOutput, Variable

PACKAGE = Path(__file__).resolve().parent.parent / "mlsysim_symbolic"

# ---------------------------------------------------------------------- no string decides
#: names whose comparison with text decides behaviour: a kind, a result source, a distribution (its law)
DISPATCH_NAMES = frozenset({"kind", "source", "law", "distribution", "dist"})


def _texts(node: ast.AST) -> list[str] | None:
    """The string literals of ``node`` (a literal, or a tuple/list/set of them), None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]   # type: ignore[attr-defined]
    return None


def _dispatch_name(node: ast.AST) -> str | None:
    """``kind`` of ``out.kind``, ``spec.kind``, ``kind``, ``source``, ``input_kind`` ...; not numpy's ``x.dtype.kind``."""
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        if node.attr == "kind" and isinstance(node.value, ast.Attribute) and node.value.attr == "dtype":
            return None
        name = node.attr
    else:
        return None
    return name if name in DISPATCH_NAMES or name.endswith("_kind") else None


def string_dispatch(source: str, filename: str = "<source>") -> list[str]:
    """Every comparison (``==``, ``!=``, ``in``, ``not in``) of a kind, source or distribution name with text."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:]):
            if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                continue
            if any(_texts(text) is not None and _dispatch_name(name) for name, text in ((left, right), (right, left))):
                found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_scan_finds_string_dispatch():
    """The scanner itself, on code written to be caught and code written to pass."""
    caught = string_dispatch('if out.kind == "predicate": pass\nif spec.kind in ("workload", "grid"): pass\n'
                             'x = kind != "label"\ny = "view" == source\nz = self.kind == "normal"\n')
    assert len(caught) == 5, caught
    assert string_dispatch('a = x.dtype.kind == "f"\nb = out.kind.numeric\nc = name == "quantity"\n'
                           'd = kind_of(spec).chooses\ne = spec.kind is None\n') == []


def test_no_string_decides_a_kind_source_or_distribution():
    found = [hit for path in sorted(PACKAGE.rglob("*.py"))
             for hit in string_dispatch(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))]
    assert not found, "behaviour decided by comparing a name with text (ask the class instead):\n" + "\n".join(found)


def test_variable_has_no_extra_dict():
    """The facts a variable carries are typed fields, immutable and outside equality, and survive pickling."""
    names = {f.name for f in dataclasses.fields(Variable)}
    assert "extra" not in names
    assert {"options", "counted", "default_input", "reads", "stands_for"} <= names
    v = Variable.make("heads", unit="count", integer=True,
                      reads=AttributeRead(("num_heads", "heads"), fallback=None, default=8), counted=None)
    assert v.reads.field == "num_heads" and v.reads.default == 8
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.reads.default = 4   # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.options = ("a",)   # type: ignore[misc]
    back = pickle.loads(pickle.dumps(v))
    assert back == v and back.reads == v.reads
    assert v == Variable.make("heads", unit="count", integer=True)   # the facts take no part in equality, as extra did
    proxy = dataclasses.replace(v, stands_for=ScenarioOutput("base", "total"))
    assert proxy.scenario_input == "base" and v.scenario_input is None


# ---------------------------------------------------------------------- output kinds
FITS = ScenarioType.from_mapping("Fits", {
    "inputs": {"need": {"symbol": "M", "unit": "GB"}, "have": {"symbol": "C", "unit": "GB"}},
    "outputs": {"spare": {"symbol": "S", "unit": "GB", "equation": "C - M"},
                "fits": {"kind": "predicate", "equation": "M <= C"},
                "larger": {"kind": "label", "cases": {"need": "M", "have": "C"}}}})


@pytest.mark.parametrize("name", list(OUTPUT_KINDS))
def test_output_kind_table(name):
    kind = OUTPUT_KINDS[name]
    assert isinstance(kind, OutputKind) and kind.name == name
    for method in ("read", "answer", "swept", "check_analysable", "declared"):
        assert callable(getattr(kind, method))
    assert kind == name and str(kind) == name and repr(kind) == repr(name) and hash(kind) == hash(name)
    assert pickle.loads(pickle.dumps(kind)) is kind
    assert kind.has_unit == kind.numeric   # only a number has a unit


def test_output_kinds_behave_as_before():
    quantity, predicate, label = (OUTPUT_KINDS[n] for n in ("quantity", "predicate", "label"))
    assert (quantity.numeric, quantity.condition) == (True, False)
    assert (predicate.numeric, predicate.condition) == (False, True)
    assert (label.numeric, label.condition) == (False, False)
    # answers: 1.0 is true; a label's 1.0 is its second case
    assert predicate.answer(1.0, ()) is True and predicate.answer(0.0, ()) is False
    assert label.answer(1.0, ("compute", "memory")) == "memory"
    # sweeps: numbers in the unit, a feasible region, a regime map
    swept = quantity.swept(np.array([1.0, 2.5]), Q_(1, "GB").units, tuple)
    assert swept.units == Q_(1, "GB").units and list(swept.magnitude) == [1.0, 2.5]
    assert list(predicate.swept(np.array([0.0, 1.0]), None, tuple)) == [False, True]
    assert list(label.swept(np.array([1.0, 0.0, 1.0]), None, lambda: ("a", "b"))) == ["b", "a", "b"]
    # analyses: a label has no number
    quantity.check_analysable("T", "y")
    predicate.check_analysable("T", "y")
    with pytest.raises(InputError, match="is a label"):
        label.check_analysable("T", "y")


def test_output_kinds_in_a_type():
    """need 3 GB, have 5 GB: spare = 5 - 3 = 2 GB, fits (3 <= 5), the larger is 'have'; with need 7 GB: no fit,
    'need' larger, spare -2 GB."""
    assert [FITS.output(n).kind for n in ("spare", "fits", "larger")] == ["quantity", "predicate", "label"]
    assert FITS.output("larger").labels == ("need", "have") and FITS.output("larger").rule == "argmax"
    p = Planner(FITS, {"need": "3 GB", "have": "5 GB"})
    assert p.evaluate("spare") == Q_(2, "GB") and p.evaluate("fits") is True and p.evaluate("larger") == "have"
    p = Planner(FITS, {"need": "7 GB", "have": "5 GB"})
    assert p.evaluate("spare") == Q_(-2, "GB") and p.evaluate("fits") is False and p.evaluate("larger") == "need"
    with pytest.raises(InputError, match="is a label"):
        p.numeric_plan("larger")
    assert p.numeric_plan("fits").output.variable.name == "fits_slack"   # analyses see the predicate's slack, C - M


# ---------------------------------------------------------------------- result-field sources
TWICE = ScenarioType.from_mapping("Twice", {
    "inputs": {"x": {"symbol": "x", "unit": "B"}},
    "outputs": {"y": {"symbol": "y", "unit": "B", "equation": "2 * x"},
                "z": {"symbol": "z", "unit": "B", "equation": "3 * x"}},
    "members": {"pair": {"parts": ["y", "z"]}},
    "result": {"name": "TwiceResult", "fields": ["y", "x", "both", "pair", "inner"],
               "tables": {"both": {"a": "x", "b": "y"}},
               "views": {"inner": {"name": "Inner", "fields": ["z"]}}}})


def test_result_source_table():
    assert list(RESULT_SOURCES) == ["view", "row views", "variants", "table", "member", "output", "by option", "input", "used result",
                                   "used field", "attribute"]
    for name, source in RESULT_SOURCES.items():
        assert isinstance(source, FieldSource) and source.name == name and source == name and str(source) == name
        for method in ("claims", "compute", "named", "outputs"):
            assert callable(getattr(source, method))
        assert pickle.loads(pickle.dumps(source)) is source
    assert {n for n, s in RESULT_SOURCES.items() if s.equation} == {"output", "member"}


def test_result_sources_read_and_compute():
    """x = 3 B: y = 2 * 3 = 6 B, z = 3 * 3 = 9 B; 'both' the table {a: x, b: y}; 'pair' the member (y, z)."""
    spec = TWICE.result
    assert [(f, str(s), n) for f, s, n in spec.fields] == [
        ("y", "output", "y"), ("x", "input", "x"), ("both", "table", "both"), ("pair", "member", "pair"),
        ("inner", "view", "inner")]
    assert RESULT_SOURCES["member"].outputs(TWICE, "pair") == ("y", "z")
    assert RESULT_SOURCES["output"].outputs(TWICE, "y") == ("y",) and RESULT_SOURCES["input"].outputs(TWICE, "x") == ()
    view = ResultView(spec, Planner(TWICE, {"x": "3 B"}))
    assert view.y == Q_(6, "B") and view.x == Q_(3, "B")
    assert view.both == {"a": Q_(3, "B"), "b": Q_(6, "B")}
    assert view.pair == (Q_(6, "B"), Q_(9, "B"))
    assert view.inner.z == Q_(9, "B")
    assert ResultView(spec, Planner(TWICE, {"x": None})).y is None   # an unset input: None, as mlsysim


def test_every_result_source_is_declared_somewhere():
    """Each row of the table is used by a type of the catalog or by the example above (none is dead), and a catalog
    field's value is the same read through its source as before: Llama3_70B_DecodeH100's bottleneck is Memory."""
    from mlsysim_symbolic.catalog import catalog
    used = {source.name for _, source, _ in TWICE.result.fields}

    def visit(spec):
        for _, source, _ in spec.fields:
            used.add(source.name)
        for _, view in spec.views:
            visit(view)

    for t in catalog().types.values():
        if t.result is not None:
            visit(t.result)
    assert used == set(RESULT_SOURCES)
    from mlsysim_symbolic import Scenarios
    assert Scenarios.Llama3_70B_DecodeH100.result.bottleneck == "Memory"


# ---------------------------------------------------------------------- distributions
# (parameters, mean, sd, SALib's entry), all by hand:
#   uniform(0, 12): mean 6, sd 12 / sqrt(12) = 3.4641016;
#   normal(5, 2): mean 5, sd 2;
#   triangular(0, 3, 6): mean 9 / 3 = 3, sd sqrt((0 + 36 + 9 - 0 - 0 - 18) / 18) = sqrt(1.5) = 1.2247449,
#       SALib [low, high, (mode - low) / (high - low)] = [0, 6, 0.5];
#   lognormal(2, 0.5): mean 2 e^0.125 = 2.2662969, sd 2 sqrt((e^0.25 - 1) e^0.25) = 2 sqrt(0.28402542 * 1.28402542)
#       = 2 sqrt(0.36469585) = 1.2078011,
#       SALib [ln 2, 0.5] = [0.6931472, 0.5]
LAWS = {
    "uniform": ((0.0, 12.0), 6.0, 3.4641016, ("unif", [0.0, 12.0])),
    "normal": ((5.0, 2.0), 5.0, 2.0, ("norm", [5.0, 2.0])),
    "triangular": ((0.0, 3.0, 6.0), 3.0, 1.2247449, ("triang", [0.0, 6.0, 0.5])),
    "lognormal": ((2.0, 0.5), 2.2662969, 1.2078011, ("lognorm", [0.6931472, 0.5])),
}
# parameters that make no distribution, and the words refusing them
BAD = {
    "uniform": ((5.0, 1.0), "low must be below high"),
    "normal": ((5.0, 0.0), "standard deviation of a normal distribution must be > 0"),
    "triangular": ((0.0, 7.0, 6.0), "mode of a triangular distribution must lie between"),
    "lognormal": ((2.0, 0.0), "lognormal sigma must be > 0"),
}


def test_distribution_table_is_complete():
    assert set(DISTRIBUTIONS) == set(LAWS) == set(BAD)
    for name, law in DISTRIBUTIONS.items():
        assert isinstance(law, Law) and law.name == name
        assert len(law.parameters) == len(law.reads) == len(LAWS[name][0])
        assert set(law.reads) <= {"value", "spread", "plain"}
        for method in ("check", "mean", "sd", "draw", "salib"):
            assert callable(getattr(law, method))
        assert law.form.startswith(f"{name}(")


@pytest.mark.parametrize("name", list(LAWS))
def test_distribution_values(name):
    law = DISTRIBUTIONS[name]
    params, mean, sd, salib = LAWS[name]
    assert law.mean(params) == pytest.approx(mean, rel=1e-7)
    assert law.sd(params) == pytest.approx(sd, rel=1e-7)
    dist, bounds = law.salib(params)
    assert dist == salib[0] and bounds == pytest.approx(salib[1], rel=1e-7)
    draws = law.draw(np.random.default_rng(1), params, 400_000)
    assert draws.mean() == pytest.approx(mean, abs=4 * sd / math.sqrt(400_000) * 2)
    assert draws.std() == pytest.approx(sd, rel=0.01)
    bad, words = BAD[name]
    with pytest.raises(InputError, match=words):
        law.check(bad, list(bad), "t")


def test_distribution_reads_the_input_unit():
    """A duration in seconds (base unit): normal(5 s, 2000 ms) is (5, 2) in base units; (1 min, 2 min) alone is a
    uniform over (60, 120) s: mean 90, sd 60 / sqrt(12) = 17.320508; lognormal's sigma is a plain number."""
    var = Variable.make("t", unit="s")
    d = distribution(("normal", "5 s", "2000 ms"), var, "t")
    assert (d.kind, d.params, d.mean, d.sd) == ("normal", (5.0, 2.0), 5.0, 2.0)
    d = distribution(("1 min", "2 min"), var, "t")
    assert d.kind == "uniform" and d.params == (60.0, 120.0) and d.sd == pytest.approx(17.320508)
    with pytest.raises(InputError, match="t: lognormal sigma"):
        distribution(("lognormal", "2 s", "0.5 s"), var, "t")
    with pytest.raises(InputError, match="a triangular distribution takes 3 parameters, got 2"):
        distribution(("triangular", 1, 2), var, "t")
    with pytest.raises(InputError, match="unknown distribution 'gamma'"):
        distribution(("gamma", 1, 2, 3), var, "t")
