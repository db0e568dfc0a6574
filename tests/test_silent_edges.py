"""Issue 28, round 2: no silent wrong number.  Each test here failed on the main branch it was written against
(an edge a careless or hostile user reaches) and names the item of the issue it covers."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from mlsysim_symbolic import Scenarios
from mlsysim_symbolic import solvers as ours_solvers
from mlsysim_symbolic.catalog import load_derivations
from mlsysim_symbolic.cli import main as cli_main
from mlsysim_symbolic.errors import DerivationError, EquationError, FloatRangeError, FrozenEntryError, InputError, UnitError
from mlsysim_symbolic.parse import parse_equation
from mlsysim_symbolic.registry import (
    Cluster,
    Entry,
    Fabric,
    Grid,
    Hardware,
    Node,
    Workload,
    clusters,
    fabrics,
    grids,
    hardware,
    nodes,
    workloads,
)
from mlsysim_symbolic.solvers import Hardware as HardwareNS
from mlsysim_symbolic.solvers import ReliabilityModel, ServingModel, Systems
from mlsysim_symbolic.variables import Variable

# ---------------------------------------------------------------------------- 1. registry entries are immutable
REGISTRIES = [(workloads, "GPT2", "parameters", 1), (hardware, "H100", "memory_bandwidth", "1 GB/s"),
              (grids, "Quebec", "pue", 2.0), (fabrics, "InfiniBand_NDR", "latency", "1 us"),
              (nodes, "DGX_H100", "nics_per_node", 4), (clusters, "Research_256", "count", 64)]


@pytest.mark.parametrize(("loader", "key", "name", "value"), REGISTRIES, ids=[r[1] for r in REGISTRIES])
def test_registry_entry_refuses_assignment_and_deletion(loader, key, name, value) -> None:
    entry = loader()[key]
    before = entry.get(name)
    for attempt in (lambda: setattr(entry, name, value), lambda: delattr(entry, name),
                    lambda: entry.fields.__setitem__(name, value), lambda: entry.fields.pop(name),
                    lambda: setattr(entry, "not_a_field", value)):
        with pytest.raises(FrozenEntryError, match=rf"'{key}'.*with_fields"):
            attempt()
    assert loader()[key].get(name) == before


def test_every_entry_class_has_checked_with_fields() -> None:
    for cls in (Workload, Hardware, Grid, Fabric, Node, Cluster):
        assert issubclass(cls, Entry) and callable(cls.with_fields)
    # the copy is checked as the registry read checks an entry: a cluster of half a node is refused
    with pytest.raises(InputError, match="count"):
        clusters()["Research_256"].with_fields({"count": 0.5})
    with pytest.raises(InputError, match="memory_bandwidth"):
        hardware()["H100"].with_fields({"memory_bandwidth": "1 GB"})


def test_mutation_attempt_leaves_solvers_alone_and_with_fields_changes_them() -> None:
    research = Systems.Clusters.Research_256
    with pytest.raises(FrozenEntryError):
        research.count = 64
    with pytest.raises(FrozenEntryError):
        HardwareNS.Cloud.H100.memory_bandwidth = "1 GB/s"
    with pytest.raises(FrozenEntryError):
        Systems.Clusters.Research_256 = research.with_fields({"count": 64})   # would shadow the registry's entry
    assert research.total_accelerators == 32 * 8
    from mlsysim.solvers import ReliabilityModel as TheirReliability
    from mlsysim.systems.registry import Clusters as C
    theirs = TheirReliability().solve(C.Research_256, 100.0).fleet_mtbf.m_as("h")
    ours = ReliabilityModel().solve("Research_256", job_duration_hours=100.0).fleet_mtbf.m_as("h")
    assert ours == pytest.approx(theirs, rel=1e-12)
    theirs64 = TheirReliability().solve(C.Research_256.model_copy(update={"count": 64}), 100.0).fleet_mtbf.m_as("h")
    ours64 = ReliabilityModel().solve(research.with_fields({"count": 64}), job_duration_hours=100.0).fleet_mtbf.m_as("h")
    assert ours64 == pytest.approx(theirs64, rel=1e-12) and ours64 == pytest.approx(ours / 2, rel=1e-12)


# ---------------------------------------------------------------------------- 2. a NaN bound of a domain
def _one_input_file(tmp_path, domain: str):
    path = tmp_path / "nan_domain.toml"
    path.write_text(f"""[types.T.inputs.m]
unit = "B"
domain = "{domain}"
[types.T.outputs.y]
unit = "B"
equation = "m"
""", encoding="utf-8")
    return path


@pytest.mark.parametrize("domain", ["(nan, nan)", "(0, nan)", "[nan, 1]", "(NaN, inf)", "(1, 1)"])
def test_domain_with_nan_bound_refused_at_load_with_file_and_line(tmp_path, domain) -> None:
    path = _one_input_file(tmp_path, domain)
    with pytest.raises(DerivationError) as info:
        load_derivations(path).check()
    message = str(info.value)
    assert str(path) in message and domain in message and ("NaN" in message or "empty" in message)
    assert info.value.line is not None


def test_domain_still_checks_values() -> None:
    # (0, nan) used to accept -1; a sound domain refuses it
    with pytest.raises(InputError):
        Variable.make("m", unit="B", domain="(0, inf)").check(-1)
    assert Variable.make("m", unit="B", domain="[1, 1]").check(1) == 1


# ---------------------------------------------------------------------------- 3. look-alike characters in equations
LOOKALIKES = [("2 * \u017f", "U+017F LATIN SMALL LETTER LONG S", "s"),
              ("\U0001d42c * 2", "U+1D42C MATHEMATICAL BOLD SMALL S", "s"),
              ("\uff53 + 1", "U+FF53 FULLWIDTH LATIN SMALL LETTER S", "s"),
              ("\u0455 / 2", "U+0455 CYRILLIC SMALL LETTER DZE", "s")]


@pytest.mark.parametrize(("text", "codepoint", "looks"), LOOKALIKES, ids=[c[1] for c in LOOKALIKES])
def test_lookalike_letter_refused_with_code_point(text, codepoint, looks) -> None:
    s = sympy.Symbol("s", positive=True)
    with pytest.raises(EquationError) as info:
        parse_equation(text, {"s": s})
    assert codepoint in str(info.value) and f"looks like {looks!r}" in str(info.value)


def test_lookalike_refused_when_a_derivation_file_loads(tmp_path) -> None:
    path = tmp_path / "lookalike.toml"
    path.write_text('[types.T.inputs.s]\nunit = "B"\n[types.T.outputs.y]\nunit = "B"\nequation = "2 * \u017f"\n',
                    encoding="utf-8")
    with pytest.raises(DerivationError) as info:
        load_derivations(path).check()
    assert str(path) in str(info.value) and "U+017F" in str(info.value) and "'s'" in str(info.value)


# ---------------------------------------------------------------------------- 4. the CLI never exits 0 with a value missing
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["table", "json"])
def test_cli_eval_overflow_is_a_failure_naming_the_output(capsys, json_flag) -> None:
    # per_batch = batch_size * parameters * bytes_per_param: 1e300 * 1.5e9 * 4 B is beyond float64 (~1.8e308)
    code = cli_main(["eval", "DpSgdPerExampleGradients", "--set", "batch_size=1e300", *json_flag])
    out, err = capsys.readouterr()
    assert code != 0
    assert "per_batch" in err and "overflows float64" in err and "batch_size = 1e+300" in err
    assert "Traceback" not in err


def test_cli_eval_still_leaves_out_outputs_whose_inputs_are_not_set(capsys) -> None:
    # Cifar100Curriculum sets no warmup_epochs: warmup_samples is not an output of it (not a missing value)
    assert cli_main(["eval", "Cifar100Curriculum"]) == 0
    assert "warmup_samples" not in capsys.readouterr().out


# ---------------------------------------------------------------------------- 5. a bare number for an output with a unit
def test_bare_number_target_or_limit_refused_for_an_output_with_a_unit() -> None:
    s = Scenarios.DpSgdPerExampleGradients
    for call in (lambda: s.solve("per_batch", "batch_size", 80, "GPT-2"),
                 lambda: s.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit=80, batch_size=range(1, 65))):
        with pytest.raises(UnitError, match=r"per_batch is in B \(bytes\).*'80 B'"):
            call()
    # with a unit: GPT-2 in fp32 holds 1.5e9 x 4 B = 6 GB per sample, so 80 GB holds 13 samples (80 / 6 = 13.3)
    assert s.solve("per_batch", "batch_size", "80 GB", "GPT-2").value == 13
    assert s.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 65)).feasible == 13


def test_solver_result_target_needs_a_unit_and_a_dimensionless_one_does_not() -> None:
    from mlsysim.hardware.registry import Hardware as H
    from mlsysim.models.registry import Models as M
    from mlsysim.solvers import ServingModel as TheirServing

    r = ServingModel().solve("Llama3_8B", "H100", seq_len=2048)
    with pytest.raises(UnitError, match="ttft"):
        r.solve("ttft", "seq_len", 0.1)      # was read as 0.1 ms
    longest = r.solve("ttft", "seq_len", "0.1 s").value
    ttft = [TheirServing().solve(M.Language.Llama3_8B, H.Cloud.H100, seq_len=n).ttft.m_as("s") for n in (longest, longest + 1)]
    assert ttft[0] <= 0.1 < ttft[1]
    most = r.solve("memory_utilization", "seq_len", 0.5).value   # dimensionless: a bare number is the value itself
    share = [TheirServing().solve(M.Language.Llama3_8B, H.Cloud.H100, seq_len=n).memory_utilization for n in (most, most + 1)]
    assert share[0] <= 0.5 < share[1]


# ---------------------------------------------------------------------------- 6. unknown option names
@pytest.mark.parametrize("name", ["bogus", " adam", "adam ", "adafactor"])
@pytest.mark.parametrize("solver", ["CheckpointModel", "TrainingMemoryModel"])
def test_unknown_optimizer_refused_by_name_listing_known(solver, name) -> None:
    extra = {"batch_size": 8} if solver == "TrainingMemoryModel" else {}
    with pytest.raises(InputError, match=r"optimizer=.*not a known optimizer.*Known: 'adam', 'adamw', 'none', 'sgd'"):
        getattr(ours_solvers, solver)().solve("Llama3_8B", "H100", optimizer=name, **extra)


@pytest.mark.parametrize("name", ["adam", "ADAM", "adamw", "sgd", "none"])
def test_known_optimizers_priced_as_mlsysim_prices_them(name) -> None:
    from mlsysim.hardware.registry import Hardware as H
    from mlsysim.models.registry import Models as M
    from mlsysim.solvers import CheckpointModel as TheirCheckpoint

    theirs = TheirCheckpoint().solve(M.Language.Llama3_8B, H.Cloud.H100, optimizer=name).checkpoint_size.m_as("GB")
    ours = ours_solvers.CheckpointModel().solve("Llama3_8B", "H100", optimizer=name).checkpoint_size.m_as("GB")
    assert ours == pytest.approx(theirs, rel=1e-12)


# ---------------------------------------------------------------------------- 7. underflow is reported as overflow is
UNDERFLOW_TYPES = """
[types.U.inputs.a]
unit = "1"
domain = "[0, inf)"
[types.U.inputs.m]
unit = "B"
[types.U.outputs.decay]
unit = "1"
equation = "exp(-a)"
[types.U.outputs.clipped]
unit = "1"
equation = "max(0, 1 - a)"
[types.U.outputs.scaled]
unit = "GB"
equation = "m * exp(-a)"
[types.U.outputs.product]
unit = "1"
equation = "a * m / m"
"""


@pytest.fixture
def underflow_type(tmp_path):
    path = tmp_path / "underflow.toml"
    path.write_text(UNDERFLOW_TYPES, encoding="utf-8")
    return load_derivations(path).type_class("U")


def test_underflow_to_zero_is_a_named_error(underflow_type) -> None:
    s = underflow_type(a=1000, m="1 B")
    with pytest.raises(FloatRangeError, match=r"U\.decay underflows float64.*a = 1000"):
        _ = s.decay                               # exp(-1000) ~ 5.1e-435: below float64's smallest subnormal
    with pytest.raises(FloatRangeError, match=r"U\.scaled underflows"):
        _ = underflow_type(a=705, m="1 B").scaled  # exp(-705) B ~ 4e-307 B = 4e-316 GB: a subnormal in the declared unit
    assert underflow_type(a=700, m="1 B").decay.magnitude == pytest.approx(math.exp(-700), rel=1e-12)   # normal: stands


def test_true_zeros_stand(underflow_type) -> None:
    s = underflow_type(a=2, m="1 B")
    assert s.clipped.magnitude == 0.0             # max(0, 1 - 2) is exactly 0
    assert underflow_type(a=0, m="1 B").product.magnitude == 0.0   # an input that is 0


def test_underflow_in_a_sweep_is_a_named_error_and_true_zeros_stand(underflow_type) -> None:
    s = underflow_type(a=1, m="1 B")
    values = s.sweep("decay", a=[1, 2, 700]).values.magnitude
    assert values == pytest.approx([math.exp(-1), math.exp(-2), math.exp(-700)], rel=1e-12)
    with pytest.raises(FloatRangeError, match="decay underflows float64.*a = 1000"):
        s.sweep("decay", a=[1, 2, 1000])
    with pytest.raises(FloatRangeError, match="decay underflows"):
        s.reduce_sweep("decay", reduce="min", a=range(990, 1010))
    assert list(s.sweep("clipped", a=[0.5, 2, 3]).values.magnitude) == [0.5, 0.0, 0.0]


# ---------------------------------------------------------------------------- 8. size guards before allocating
def test_huge_sweeps_refused_by_size_before_allocating() -> None:
    s = Scenarios.DpSgdPerExampleGradients
    with pytest.raises(InputError, match=r"100,000 x 100,000 = 1e\+10 points needs about 160 GB.*max_bytes"):
        s.sweep("per_batch", "GPT-2", batch_size=range(1, 100_001), bytes_per_param=np.arange(1, 100_001))
    # 3e4 x 3e4 = 9e8 points x 16 B = 14.4 GB (the case that took 13.8 GB)
    with pytest.raises(InputError, match=r"30,000 x 30,000 = 9e\+08 points needs about 14.4 GB"):
        s.sweep("per_batch", "GPT-2", batch_size=range(1, 30_001), bytes_per_param=np.arange(1, 30_001))
    with pytest.raises(InputError, match=r"100,000 x 100,000 = 1e\+10 points is more than max_points=1,000,000,000"):
        s.reduce_sweep("per_batch", "GPT-2", reduce="max", batch_size=range(1, 100_001), bytes_per_param=np.arange(1, 100_001))


def test_size_limits_are_the_callers_to_raise() -> None:
    s = Scenarios.DpSgdPerExampleGradients
    axes = {"batch_size": range(1, 1001), "bytes_per_param": np.arange(1, 1001)}   # 1e6 points: 16 MB
    with pytest.raises(InputError, match=r"max_bytes=1000000"):
        s.sweep("per_batch", "GPT-2", max_bytes=1_000_000, **axes)
    grid = s.sweep("per_batch", "GPT-2", **axes).values.to("B").magnitude
    assert grid.shape == (1000, 1000) and grid[9, 3] == 10 * 4 * 1.5e9   # batch 10 at 4 B/param: 10 x 4 x 1.5e9 B
    with pytest.raises(InputError, match="max_points=999,999"):
        s.reduce_sweep("per_batch", "GPT-2", reduce="max", max_points=999_999, **axes)
    top = s.reduce_sweep("per_batch", "GPT-2", reduce="max", max_points=1_000_000, **axes)
    assert top.value.to("B").magnitude == 1000 * 1000 * 1.5e9


# ---------------------------------------------------------------------------- 9. dask and numpy give one answer
@pytest.mark.parametrize("backend", ["numpy", "dask"])
def test_feasible_region_same_on_both_backends(backend) -> None:
    pytest.importorskip("dask")
    s = Scenarios.DpSgdPerExampleGradients
    r = s.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 1025),
                       backend=backend)
    # GPT-2 in fp32: 6 GB a sample, so batches 1 .. 13 fit under 80 GB (13 x 6 = 78, 14 x 6 = 84)
    assert r.feasible == 13
    low, high = r.bounds["batch_size"]
    assert (low.magnitude, high.magnitude) == (1, 13) and str(low.units) == "sample"
    two = s.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 65),
                         bytes_per_param=["2 B/param", "4 B/param"], backend=backend, chunk=16)
    # at 2 B/param 3 GB a sample: 1 .. 26 fit; at 4 B/param 1 .. 13: 39 points, batch 1 .. 26, width 2 .. 4 B/param
    assert two.feasible == 26 + 13
    assert [q.magnitude for q in two.bounds["batch_size"]] == [1, 26]
    assert [q.to("B/param").magnitude for q in two.bounds["bytes_per_param"]] == [2, 4]


# ---------------------------------------------------------------------------- 10. the CLI finds every name Scenarios finds
def test_cli_shows_and_evaluates_application_scenarios(capsys) -> None:
    from mlsysim_symbolic.solvers import Applications

    assert len(Applications) == 13
    assert Scenarios.KeywordSpotting is Applications.KeywordSpotting
    assert cli_main(["show", "KeywordSpotting"]) == 0
    out = capsys.readouterr().out
    # DS-CNN on an ESP32-S3: mlsysim's evaluation of the same scenario gives the levels' statuses and summaries
    import mlsysim  # inside the test: collecting imports nothing of mlsysim (tests/test_collection.py)

    theirs = mlsysim.Scenarios.KeywordSpotting.evaluate()
    for level in (theirs.feasibility, theirs.performance):
        assert f"{level.status}" in out and level.summary.split("(")[0].strip() in out
    assert "Latency: 81.01 ms (Target: 30 ms)" in out and "FAIL" in out
    for name in Applications:
        assert cli_main(["eval", name, "--json"]) == 0, name
        assert f'"scenario": "{name}"' in capsys.readouterr().out


def test_cli_application_names_in_other_commands_are_refused_by_what_they_are(capsys) -> None:
    for argv in (["latex", "KeywordSpotting"], ["sensitivity", "KeywordSpotting", "latency"],
                 ["solve", "KeywordSpotting", "latency", "batch_size", "10 ms"]):
        assert cli_main(argv) == 2
        assert "application scenario" in capsys.readouterr().err


# ---------------------------------------------------------------------------- 11. None is not the default
NONE_CALLS = [("SingleNodeModel", ("ResNet50", "A100"), {}, "batch_size"),
              ("SingleNodeModel", ("ResNet50", "A100"), {}, "precision"),
              ("ServingModel", ("Llama3_8B", "H100"), {"seq_len": 2048}, "batch_size"),
              ("ServingModel", ("Llama3_8B", "H100"), {"seq_len": 2048}, "precision"),
              ("TrainingMemoryModel", ("Llama3_8B", "H100"), {"batch_size": 8}, "precision"),
              ("TrainingMemoryModel", ("Llama3_8B", "H100"), {}, "batch_size"),
              ("InferenceScalingModel", ("Llama3_8B", "H100"), {}, "precision"),
              ("SensitivitySolver", ("Llama3_8B", "H100"), {}, "precision"),
              ("CheckpointModel", ("Llama3_8B", "H100"), {}, "optimizer")]


def _theirs(solver: str, args: tuple, kwargs: dict):
    from mlsysim.hardware.registry import Hardware as H
    from mlsysim.models.registry import Models as M
    from mlsysim.solvers import __dict__ as their_solvers

    model = {"ResNet50": M.Vision.ResNet50, "Llama3_8B": M.Language.Llama3_8B}[args[0]]
    device = {"A100": H.Cloud.A100, "H100": H.Cloud.H100}[args[1]]
    return lambda: their_solvers[solver]().solve(model, device, **kwargs)


@pytest.mark.parametrize(("solver", "args", "kwargs", "name"), NONE_CALLS, ids=[f"{c[0]}.{c[3]}" for c in NONE_CALLS])
def test_none_refused_by_name_where_mlsysim_raises(solver, args, kwargs, name) -> None:
    call = {**kwargs, name: None}
    if name == "batch_size" and solver == "TrainingMemoryModel":
        call = {name: None}
    with pytest.raises(Exception):   # noqa: B017 - mlsysim's own TypeError/AttributeError: the fact carried over
        _theirs(solver, args, call)()
    with pytest.raises(InputError, match=rf"{solver}\.solve\(\): {name}=None"):
        getattr(ours_solvers, solver)().solve(*args, **call)


def test_none_where_mlsysim_accepts_it_gives_mlsysims_number() -> None:
    # mlsysim reads sequence_parallel=None as false (``if sequence_parallel:``): with tp_size 8 that changes the
    # activations, so None must not silently be our default (True)
    call = {"batch_size": 8, "tp_size": 8, "sequence_parallel": None}
    theirs = _theirs("TrainingMemoryModel", ("Llama3_8B", "H100"), call)()
    ours = ours_solvers.TrainingMemoryModel().solve("Llama3_8B", "H100", **call)
    assert ours.activations.m_as("GB") == pytest.approx(theirs.activations.m_as("GB"), rel=1e-12)
    on = ours_solvers.TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, tp_size=8)
    assert on.activations != ours.activations


def test_a_sweep_through_a_piecewise_whose_other_branch_divides_by_zero():
    """A100PcieDataWall states a 32 GB/s host interconnect and no storage path (B_st = 0: left out, as mlsysim), so
    the supply is 32 GB/s and utilization = D / 32 GB/s: by hand 1/32 = 0.03125 and 20/32 = 0.625.  numpy's select
    computes every branch, and the storage branch's 1/B_st with B_st a fixed Python 0 raised a bare
    ZeroDivisionError from inside the compiled function; a sweep that underflows is still refused by name."""
    s = Scenarios.A100PcieDataWall
    assert s.sweep("utilization", workload_data_rate=[1.0, 20.0]).values.tolist() == [0.03125, 0.625]
    assert s.sweep("is_stalled", workload_data_rate=[20.0, 40.0]).values.tolist() == [False, True]
    with pytest.raises(FloatRangeError, match="utilization underflows float64"):
        s.sweep("utilization", workload_data_rate=[1e-320, 1.0])
