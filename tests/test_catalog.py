"""The catalog as data: every derivation file loads, every equation passes the
dimension check, and a bad or malicious file is refused with file, line, scenario
and reason, without running anything."""

import builtins
import textwrap
from pathlib import Path

import pytest
import sympy

from mlsysim_symbolic import DerivationError, load_derivations
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.dimensions import check_equation
from mlsysim_symbolic.paths import derivations_dir

FILES = sorted(p for p in derivations_dir().glob("*.toml") if p.name not in {"workloads.toml", "hardware.toml"})


def test_catalog_loads():
    cat = catalog()
    assert "PerExampleGradientScenario" in cat.types
    assert "DpSgdPerExampleGradients" in cat.declared
    assert set(cat.families) >= {"training", "dp"}


def _equations():
    cat = catalog()
    for tname, t in cat.types.items():
        for oname, out in t.outputs.items():
            for i, branch in enumerate(out.branches):
                yield pytest.param(t, oname, branch, id=f"{tname}.{oname}[{i}]")


@pytest.mark.parametrize("stype, output, branch", list(_equations()))
def test_every_equation_passes_the_dimension_check(stype, output, branch):
    units = stype.unit_map
    check_equation(branch.expr, stype.outputs[output].variable.unit, units, output=output)
    expanded = stype.expand(output, {stype.outputs[output].choice: branch.when} if branch.when else None)
    check_equation(expanded, stype.outputs[output].variable.unit, units, output=output)
    assert all(s in stype.leaves or s in stype.reductions or s.name.startswith("N_") for s in expanded.free_symbols)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_file_loads_on_its_own_checks(path):
    loaded = load_derivations(path)
    assert loaded.types or loaded.declared


def test_shipped_in_the_package_folder():
    assert (derivations_dir() / "workloads.toml").is_file()
    assert (derivations_dir() / "hardware.toml").is_file()


GOOD_TYPE = """
[types.Tiny]
summary = "bytes of weights"
[types.Tiny.inputs.params]
symbol = "P"
unit = "param"
[types.Tiny.inputs.width]
symbol = "b"
unit = "B/param"
[types.Tiny.outputs.size]
unit = "B"
equation = "{equation}"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "user.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "equation, reason",
    [
        ('__import__(\\"os\\")', "'__import__' is not an allowed function"),
        ("P.__class__", "attribute access"),
        ('open(\\"f\\")', "'open' is not an allowed function"),
        ("(lambda: P)()", "only named functions may be called"),
        ("lambda: P", "Lambda is not allowed"),
        ("[P for P in b]", "ListComp is not allowed"),
        ("P * q", "unknown name 'q'"),
        ("P * b +", "syntax error"),
        ("P + b", "terms disagree in dimension"),
        ("max(P * b, P)", "arguments of max() disagree"),
        ("P", "declared unit is B"),
    ],
)
def test_bad_equations_are_refused_with_file_line_scenario_reason(tmp_path, monkeypatch, equation, reason):
    def boom(*a, **k):
        raise AssertionError("the loader ran code from the file")

    path = write(tmp_path, GOOD_TYPE.replace("{equation}", equation))
    monkeypatch.setattr(builtins, "exec", boom)
    monkeypatch.setattr(builtins, "eval", boom)
    with pytest.raises(DerivationError) as info:
        load_derivations(path)
    err = info.value
    assert err.path == str(path)
    assert err.scenario == "Tiny"
    assert err.line is not None and path.read_text().splitlines()[err.line - 1].strip().startswith(("[types.Tiny.outputs.size]", "equation", "[types.Tiny"))
    assert reason in str(err), str(err)


@pytest.mark.parametrize(
    "text, reason, scenario",
    [
        (GOOD_TYPE.replace("{equation}", "P * b").replace('unit = "B/param"', 'unit = "B/furlong"'), "unknown unit", "Tiny"),
        (GOOD_TYPE.replace("{equation}", "P * b") + """
[types.Tiny.outputs.a]
unit = "B"
equation = "c"
[types.Tiny.outputs.c]
unit = "B"
equation = "a"
""", "cycle", "Tiny"),
        (GOOD_TYPE.replace("{equation}", "P * b") + """
[scenarios.S]
type = "Tiny"
inputs.params = 10
""", "missing required input: width", "S"),
        (GOOD_TYPE.replace("{equation}", "P * b") + """
[scenarios.S]
type = "Tiny"
inputs.params = 10
inputs.width = "4 s"
""", "width expects B/param (bytes per parameter); got 4 s (seconds)", "S"),
        (GOOD_TYPE.replace("{equation}", "P * b") + """
[scenarios.S]
type = "Tinny"
""", "unknown scenario type 'Tinny'", "S"),
        ("[types.T\nx = 1\n", "not valid TOML", None),
    ],
)
def test_bad_files_are_refused(tmp_path, text, reason, scenario):
    path = write(tmp_path, text)
    with pytest.raises(DerivationError) as info:
        load_derivations(path)
    assert reason in str(info.value), str(info.value)
    assert str(path) in str(info.value)
    assert info.value.scenario == scenario
    assert info.value.line is not None


def test_user_file_loads_and_composes_the_shipped_catalog(tmp_path):
    path = write(tmp_path, """
        [types.WithWeights]
        summary = "per-example gradients plus fp16 weights"
        [types.WithWeights.inputs.models]
        kind = "workloads"
        symbols.P = { attribute = "parameters" }
        symbols.P_g = { attribute = "parameters", name = "per_example_parameters", unit = "param/sample", counted = "1/sample" }
        [types.WithWeights.inputs.batch_size]
        symbol = "B"
        unit = "sample"
        integer = true
        [types.WithWeights.inputs.grad_bytes]
        symbol = "b_g"
        unit = "B/param"
        [types.WithWeights.inputs.weight_bytes]
        symbol = "b_w"
        unit = "B/param"
        default = "2 B/param"
        [types.WithWeights.uses.grads]
        type = "PerExampleGradientScenario"
        bind = { models = "models", batch_size = "batch_size", bytes_per_param = "grad_bytes" }
        [types.WithWeights.outputs.total]
        unit = "GB"
        equation = "grads.per_batch + P * b_w"
        [scenarios.Gpt2Batch8]
        type = "WithWeights"
        inputs.models = { "GPT-2" = "GPT2" }
        inputs.batch_size = 8
        inputs.grad_bytes = "4 B/param"
        """)
    cat = load_derivations(path)
    s = cat.scenario("Gpt2Batch8")
    # hand computation: 1.5e9 * 4 B * 8 + 1.5e9 * 2 B = 51 GB
    assert s.total("GPT-2").to("GB").magnitude == pytest.approx(51.0, rel=1e-12)
    B, P, b_g, b_w = sympy.symbols("B P b_g b_w", positive=True)
    expanded = s.expression("total", expand=True)
    assert {str(x) for x in expanded.free_symbols} == {"B", "P", "P_g", "b_g", "b_w"}   # P_g: the per-example gradients' parameters
    assert str(s.expression("total")) == "M_batch + P*b_w"


def test_composition_refuses_unbound_inputs(tmp_path):
    path = write(tmp_path, """
        [types.Half]
        [types.Half.inputs.models]
        kind = "workloads"
        symbols.P = { attribute = "parameters", unit = "param/sample", counted = "1/sample" }
        [types.Half.uses.grads]
        type = "PerExampleGradientScenario"
        bind = { models = "models" }
        [types.Half.outputs.total]
        unit = "B"
        equation = "grads.per_batch"
        """)
    with pytest.raises(DerivationError, match="batch_size, bytes_per_param"):
        load_derivations(path)


@pytest.mark.parametrize("name", sorted(catalog().types))
def test_every_type_declares_its_notes(name):
    t = catalog().types[name]
    assert t.summary, "summary"
    assert t.assumptions, "assumptions"
    assert t.excludes, "excludes"
    assert t.derivation, "derivation"
    assert t.references and all(str(r) for r in t.references), "references"


def test_cumulative_reductions_follow_key_order(tmp_path):
    path = write(tmp_path, """
        [types.Stages]
        summary = "a time stretched by overheads in turn"
        [types.Stages.inputs.base]
        symbol = "T"
        unit = "h"
        [types.Stages.inputs.overheads]
        kind = "map"
        symbol = "o"
        unit = "1"
        domain = "[0, inf)"
        [types.Stages.outputs.after]
        unit = "h"
        style = "dict"
        equation = "T * prod_upto(1 + o, overheads)"
        [types.Stages.outputs.added]
        unit = "1"
        style = "dict"
        equation = "sum_upto(o, overheads)"
        [scenarios.S]
        type = "Stages"
        inputs.base = "10 h"
        inputs.overheads = { b = 0.5, a = 0.1, c = 1.0 }
        """)
    s = load_derivations(path).scenario("S")
    after = s.after
    assert list(after) == ["b", "a", "c"]                     # the order given, not sorted
    # by hand: 10 * 1.5, 10 * 1.5 * 1.1, 10 * 1.5 * 1.1 * 2
    assert [round(after[k].to("h").magnitude, 12) for k in after] == [15.0, 16.5, 33.0]
    assert [round(v.magnitude, 12) for v in s.added.values()] == [0.5, 0.6, 1.6]


def test_argument_defaults_to_an_input(tmp_path):
    path = write(tmp_path, """
        [types.Mean]
        summary = "error of a noisy mean"
        [types.Mean.inputs.scale]
        symbol = "b"
        unit = "USD"
        [types.Mean.inputs.group_size]
        symbol = "n"
        unit = "count"
        integer = true
        required = false
        [types.Mean.arguments.size]
        symbol = "m"
        unit = "count"
        integer = true
        default_input = "group_size"
        [types.Mean.outputs.mean_error]
        unit = "USD"
        equation = "b / m"
        [scenarios.WithGroup]
        type = "Mean"
        inputs.scale = "200 USD"
        inputs.group_size = 10
        [scenarios.WithoutGroup]
        type = "Mean"
        inputs.scale = "200 USD"
        """)
    cat = load_derivations(path)
    s = cat.scenario("WithGroup")
    assert s.mean_error().magnitude == pytest.approx(20.0)      # 200 USD / 10, by hand
    assert s.mean_error(40).magnitude == pytest.approx(5.0)     # 200 USD / 40
    with pytest.raises(TypeError, match="size"):
        cat.scenario("WithoutGroup").mean_error()


def test_argument_default_must_be_a_matching_input(tmp_path):
    path = write(tmp_path, """
        [types.Bad]
        [types.Bad.inputs.scale]
        unit = "USD"
        [types.Bad.arguments.size]
        unit = "count"
        default_input = "scale"
        [types.Bad.outputs.y]
        unit = "USD"
        equation = "scale / size"
        """)
    with pytest.raises(DerivationError, match="default_input scale is in USD but the argument is in count"):
        load_derivations(path)
