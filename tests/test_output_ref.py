"""One analysis surface: the same output reference from a scenario, a solver result and an evaluation level.

Each row names an owner (a scenario, mlsysim's result of one solve, one level of an application's evaluation), the
name it knows the output by, and hand-computed numbers: the value and the derivative at the bound values.  The
owner's ``ref(name)``, its flat forms (``equation(name)``, ``diff(name, wrt)`` ...) and the scenario's own
``ref(output)`` must agree.  A declared name that clashes with a registered accessor is refused at load time.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import sympy

from mlsysim_symbolic import DerivationError, InputError, Scenarios
from mlsysim_symbolic.output_ref import OutputRef
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.solvers import SingleNodeModel
from mlsysim_symbolic.solvers.applications import Applications
from mlsysim_symbolic.spec import ACCESSORS, RESERVED, ScenarioType


@dataclass(frozen=True)
class Row:
    id: str
    owner: Callable[[], Any]           # builds the scenario, solver result or evaluation level
    name: str                          # the name the owner knows the output by (output, field or metric)
    output: str                        # the scenario's output behind it
    keys: tuple[Any, ...]
    value: float                       # in bytes, by hand
    wrt: str
    derivative: str                    # sympy's text of d output / d wrt
    slope: float                       # the derivative at the bound values, by hand
    slope_unit: str


ROWS = [
    # GPT-2: 1.5e9 params x 4 B (FP32 per-example gradients) x 256 examples = 1.536e12 B; d/d batch = P b = 6e9 B per sample
    Row("scenario", lambda: Scenarios.DpSgdPerExampleGradients, "per_batch", "per_batch", ("GPT-2",),
        1.536e12, "batch_size", "P*b", 6e9, "B/sample"),
    # ResNet-50 on one A100 at FP16: 25,557,032 params x 2 B = 51,114,064 B; d/dP = b_16 = 2 B/param
    Row("solver result", lambda: SingleNodeModel().solve("ResNet50", "A100", batch_size=1), "memory_footprint",
        "memory_footprint", (), 51_114_064, "P", "b_16", 2, "B/param"),
    # the TinySensor application (AnomalyDetector on an ESP32-S3, FP16): 270,000 params x 2 B = 540,000 B
    Row("evaluation level", lambda: Applications.TinySensor.evaluate().feasibility, "weight_size",
        "memory_footprint", (), 540_000, "P", "b_16", 2, "B/param"),
]


def _at_values(ref: OutputRef, expr: sympy.Expr) -> Any:
    """``expr`` (over the leaves of ``ref``'s output) at the scenario's values, as a pint Quantity."""
    values = ref.symbol_values()
    free = sorted(expr.free_symbols, key=str)
    return sympy.lambdify(free, expr)(*[values[s] for s in free])


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_the_same_output_reference_from_every_owner(row: Row) -> None:
    owner = row.owner()
    ref = owner.ref(row.name)
    assert isinstance(ref, OutputRef) and ref.name == row.output
    own = ref.scenario.ref(row.output, *row.keys)          # the scenario's own reference to the output
    keyed = OutputRef(ref.scenario, row.output, *row.keys)
    assert own == keyed and hash(own) == hash(keyed)
    # value
    assert own.value.to("B").magnitude == pytest.approx(row.value, rel=1e-12)
    if not row.keys:
        assert ref.value.to("B").magnitude == pytest.approx(row.value, rel=1e-12)
    # equation: the reference's, the owner's flat form, the scenario's flat form
    for expand in (False, True):
        eq = ref.equation(expand=expand)
        assert eq == owner.equation(row.name, expand=expand) == ref.scenario.equation(row.output, expand=expand)
        assert eq == own.equation(expand=expand)
    # derivative: symbolic and at the bound values
    d = ref.diff(row.wrt)
    assert str(d) == row.derivative
    assert d == owner.diff(row.name, row.wrt) == ref.scenario.diff(row.output, row.wrt) == own.diff(row.wrt)
    assert _at_values(own, d).to(row.slope_unit).magnitude == pytest.approx(row.slope, rel=1e-12)
    # LaTeX and elasticities through the owner equal the reference's
    assert str(owner.latex(row.name, *row.keys)) == str(own.latex())
    assert [e.input for e in owner.elasticities(row.name, *row.keys)] == [e.input for e in own.elasticities()]


def test_a_level_a_result_and_a_scenario_share_one_output():
    """The performance level's latency is the single-node solve's latency field is the scenario's latency output."""
    level = Applications.TinySensor.evaluate().performance
    result = SingleNodeModel().solve("AnomalyDetector", "ESP32_S3", batch_size=1, precision="fp16")
    refs = [level.ref("latency"), result.ref("latency"), result.scenario.ref("latency")]
    assert {r.name for r in refs} == {"latency"}
    assert len({str(r.equation(expand=True)) for r in refs}) == 1
    assert len({str(r.diff("batch_size")) for r in refs}) == 1
    assert len({r.value.to("ms").magnitude for r in refs}) == 1
    assert refs[0].value == level.metrics["latency"] == result.latency


def test_a_sweep_and_a_solve_through_the_reference():
    s = Scenarios.DpSgdPerExampleGradients
    ref = s.ref("per_batch", "GPT-2")
    # 6 GB per example (1.5e9 x 4 B): 1 and 2 examples are 6 and 12 GB; 80 GB holds floor(80 / 6) = 13 examples
    assert list(ref.sweep(batch_size=[1, 2]).values.to("GB").magnitude) == [6.0, 12.0]
    assert ref.solve("batch_size", "80 GB").value == s.solve("per_batch", "batch_size", "80 GB", "GPT-2").value == 13
    assert [r["input"] for r in ref.local_sensitivity()] == [r["input"] for r in s.sensitivity.local("per_batch", "GPT-2")]


def test_the_flat_forms_are_registered_once():
    """Every forward of the table is a descriptor on each owner; the names the builder refuses are that table."""
    from mlsysim_symbolic.output_ref import Forward
    from mlsysim_symbolic.scenario import Scenario
    from mlsysim_symbolic.solvers.applications import EvaluationLevel
    from mlsysim_symbolic.solvers.base import SolverResult

    forwards = {n for n, m in ACCESSORS.items() if m}
    for owner in (Scenario, SolverResult, EvaluationLevel):
        assert {n for n, v in vars(owner).items() if isinstance(v, Forward)} == forwards
    assert set(ACCESSORS) <= RESERVED
    # a call without an output works on the whole scenario where there is one
    s = Scenarios.DpSgdPerExampleGradients
    assert str(s.latex()) == str(s.tex.align())
    with pytest.raises(TypeError, match="needs the name of an output"):
        Applications.TinySensor.evaluate().performance.latex()


def test_an_unknown_output_is_refused_by_name():
    with pytest.raises(Exception, match="per_batc"):
        Scenarios.DpSgdPerExampleGradients.ref("per_batc")
    with pytest.raises(InputError, match="has no equation"):
        Applications.TinySensor.evaluate().performance.ref("sla_latency")


_BASE = {"summary": "x", "inputs": {"x": {"symbol": "x", "unit": "B"}}}


@pytest.mark.parametrize(("decl", "name"), [("outputs", "sweep"), ("outputs", "ref"), ("outputs", "tornado"),
                                            ("outputs", "sensitivity"), ("inputs", "latex"), ("inputs", "diff")])
def test_a_declared_name_that_clashes_with_an_accessor_is_refused_at_load(decl: str, name: str) -> None:
    data = {**_BASE, "outputs": {"y": {"unit": "B", "equation": "x"}}}
    if decl == "outputs":
        data["outputs"] = {name: {"unit": "B", "equation": "x"}}
    else:
        data["inputs"] = {name: {"symbol": "z", "unit": "B"}}
        data["outputs"] = {"y": {"unit": "B", "equation": "z"}}
    with pytest.raises(DerivationError, match=rf"Clashing: {decl[:-1]} {name}: .*'{name}'.*analysis accessor \.{name}"):
        ScenarioType.from_mapping("Clashing", data)


def test_an_output_takes_a_namespace_accessor_name_only_by_declaring_it():
    t = ScenarioType.from_mapping("Release", {**_BASE, "outputs": {
        "sensitivity": {"unit": "B", "equation": "x", "shadows_accessor": True},
        "twice": {"unit": "B", "equation": "2 * sensitivity"}}})
    s = scenario_class(t)(x="3 B")
    assert s.sensitivity.to("B").magnitude == 3                      # the declared output
    assert s.ref("twice").diff("x") == 2                              # the analyses, through the reference
    with pytest.raises(DerivationError, match="shadows_accessor = true is only for"):
        ScenarioType.from_mapping("Bad", {**_BASE, "outputs": {"y": {"unit": "B", "equation": "x", "shadows_accessor": True}}})
    with pytest.raises(DerivationError, match="shadows_accessor = true is only for"):
        ScenarioType.from_mapping("Bad", {**_BASE, "outputs": {"sweep": {"unit": "B", "equation": "x", "shadows_accessor": True}}})


def test_no_shipped_type_clashes():
    """Every shipped type's declared names are free of the table, but the one that says it shadows an accessor (read
    from the files' declarations, without building every type; the builder refuses the rest when a type is built)."""
    shadowing = []
    for path in sorted(derivations_dir().rglob("*.toml")):
        for t, data in (tomllib.loads(path.read_text()).get("types") or {}).items():
            for part in ("inputs", "arguments", "members"):
                assert not set(data.get(part) or {}) & RESERVED, (t, part)
            for name, out in (data.get("outputs") or {}).items():
                assert name not in RESERVED or out.get("shadows_accessor") is True, (t, name)
                if out.get("shadows_accessor"):
                    shadowing.append((t, name))
    assert shadowing == [("LaplaceMeanReleaseScenario", "sensitivity")]
    assert Scenarios.SalaryMeanLaplaceRelease.type.outputs["sensitivity"].shadows


def test_the_hand_numbers_use_mlsysims_parameter_counts():
    """The rows' parameter counts are mlsysim 0.3.0's (GPT-2 1.5e9, ResNet-50 25,557,032), and so are the values."""
    mlsysim = pytest.importorskip("mlsysim")
    assert mlsysim.Models.Language.GPT2.parameters.magnitude == 1.5e9
    assert mlsysim.Models.Vision.ResNet50.parameters.magnitude == 25_557_032
    assert ROWS[0].value == 1.5e9 * 4 * 256 and ROWS[1].value == 25_557_032 * 2


@pytest.mark.parametrize("field", ["diff", "ref", "fields", "scenario"])
def test_a_result_field_an_accessor_would_hide_is_refused_at_load(field: str) -> None:
    """A solver result reads its fields through __getattr__: a field named as an accessor or member would be hidden."""
    with pytest.raises(DerivationError, match=rf"Viewed: result field '{field}' would be hidden by the .*\.{field}"):
        ScenarioType.from_mapping("Viewed", {**_BASE, "outputs": {"y": {"unit": "B", "equation": "x"}},
                                             "result": {"name": "ViewedResult", "fields": ["y", field]}})


def test_every_public_member_of_an_owner_is_in_a_table():
    """A public member of Scenario or SolverResult outside the tables could be taken by a declaration unnoticed."""
    from mlsysim_symbolic.output_ref import analysis_surface

    class Owner:
        def ref(self, name: str) -> None: ...
        def unlisted(self) -> None: ...

    with pytest.raises(TypeError, match="public members not in its table \\(unlisted\\)"):
        analysis_surface(whole=lambda o: None, members=frozenset())(Owner)
