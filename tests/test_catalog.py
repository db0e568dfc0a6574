"""The catalog as data: every derivation file loads, every equation passes the
dimension check, and a bad or malicious file is refused with file, line, scenario
and reason, without running anything."""

import builtins
import glob
import re
import textwrap
import tomllib
from pathlib import Path

import pytest
import sympy

from mlsysim_symbolic import DerivationError, MissingInputError, load_derivations
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.dimensions import check_equation
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.sources import REGISTRY_FILES

FILES = sorted(p for p in derivations_dir().glob("*.toml") if p.name not in REGISTRY_FILES)


def test_catalog_loads():
    cat = catalog()
    assert "PerExampleGradientScenario" in cat.types
    assert "DpSgdPerExampleGradients" in cat.declared
    assert set(cat.families) >= {"training", "dp"}


@pytest.mark.parametrize("name", sorted(catalog().info))
def test_every_equation_passes_the_dimension_check(name):
    """Every branch of every output of the type, as written and expanded (one test per type: the names are read
    from the catalog's files while collecting, each type is built when its test runs); every failure is reported."""
    stype = catalog().types[name]
    units = stype.unit_map
    checked, failures = 0, []
    for output, out in stype.outputs.items():
        for i, branch in enumerate(out.branches):
            try:
                check_equation(branch.expr, out.variable.unit, units, output=output)
                expanded = stype.expand(output, {out.choice: branch.when} if branch.when else None)
                check_equation(expanded, out.variable.unit, units, output=output)
                stray = [s for s in expanded.free_symbols if not (s in stype.leaves or s in stype.reductions or s.name.startswith("N_"))]
                assert not stray, f"symbols that are neither leaves nor reductions: {stray}"
                checked += 1
            except Exception as exc:
                failures.append(f"{output}[{i}]: {type(exc).__name__}: {exc}")
    assert not failures, f"{name}: " + "\n".join(failures)
    assert checked == sum(len(out.branches) for out in stype.outputs.values()) >= 1


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_file_loads_on_its_own_checks(path):
    report = load_derivations(path).check()
    assert report.types or report.scenarios


def test_shipped_in_the_package_folder():
    assert (derivations_dir() / "workloads.toml").is_file()
    assert (derivations_dir() / "hardware.toml").is_file()
    assert (derivations_dir() / "grids.toml").is_file()


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
        load_derivations(path).check()
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
        load_derivations(path).check()
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
        load_derivations(path).check()


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
        load_derivations(path).check()


# ---------------------------------------------------------------------- lazy types
def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter (the catalog of this process is already built); its last line of output."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1]


def test_listing_builds_no_type():
    out = _fresh(
        "import io, contextlib, mlsysim_symbolic as m\n"
        "from mlsysim_symbolic.catalog import catalog\n"
        "from mlsysim_symbolic.cli import main\n"
        "names = dir(m) + list(m.__all__) + dir(m.Scenarios) + dir(__import__('mlsysim_symbolic.scenarios').scenarios)\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['list']); main(['list', '--json'])\n"
        "print('ZeroShardingScenario' in names, 'DpSgdPerExampleGradients' in names, catalog().built)")
    assert out == "True True []"


def test_first_use_builds_the_type_and_what_it_composes():
    out = _fresh(
        "from mlsysim_symbolic import Scenarios\n"
        "from mlsysim_symbolic.catalog import catalog\n"
        "Scenarios.DpSgdPerExampleGradients.per_batch('GPT-2')\n"
        "one = catalog().built\n"
        "catalog().classes['DpSgdStepMemoryScenario']\n"
        "print(one, sorted(catalog().built))")
    assert out == ("['PerExampleGradientScenario'] ['DpSgdActivationScenario', 'DpSgdOptimizerStateScenario', "
                   "'DpSgdStepMemoryScenario', 'PerExampleGradientScenario']")


def test_a_bad_type_fails_when_first_used_and_every_time_after(tmp_path):
    path = write(tmp_path, GOOD_TYPE.replace("{equation}", "P + b") + """
[types.Fine]
[types.Fine.inputs.x]
unit = "B"
[types.Fine.outputs.y]
unit = "B"
equation = "2 * x"
[scenarios.F]
type = "Fine"
inputs.x = "3 B"
""")
    cat = load_derivations(path)                          # the structure is sound: reading succeeds
    assert cat.built == [] and sorted(cat.info) == ["Fine", "Tiny"]
    assert cat.scenario("F").y.magnitude == 6             # a sound type of the same file works
    for _ in range(2):                                    # a failed build is not kept, nor taken for a cycle
        with pytest.raises(DerivationError, match="terms disagree in dimension") as info:
            cat.types["Tiny"]
        assert info.value.path == str(path) and info.value.line is not None and info.value.scenario == "Tiny"
    with pytest.raises(DerivationError, match="terms disagree in dimension"):
        cat.check()


def test_types_composing_each_other_in_a_cycle_are_refused_with_file_and_line(tmp_path):
    path = write(tmp_path, """
        [types.A]
        [types.A.inputs.x]
        unit = "B"
        [types.A.uses.b]
        type = "B"
        bind = { x = "x" }
        [types.A.outputs.y]
        unit = "B"
        equation = "b.y"
        [types.B]
        [types.B.inputs.x]
        unit = "B"
        [types.B.uses.a]
        type = "A"
        bind = { x = "x" }
        [types.B.outputs.y]
        unit = "B"
        equation = "a.y"
        """)
    cat = load_derivations(path)
    with pytest.raises(DerivationError, match="types compose each other in a cycle: A -> B -> A") as info:
        cat.classes["A"]
    lines = path.read_text().splitlines()
    assert info.value.path == str(path) and lines[info.value.line - 1].strip() == "[types.A.uses.b]"
    with pytest.raises(DerivationError, match="cycle: A -> B -> A"):
        cat.check()


@pytest.mark.parametrize("text, reason", [
    ("tilte = 'x'\n", "unknown top-level key(s) tilte"),
    ('[types."Not an identifier"]\nsummary = "x"\n', "is not an identifier"),
    ("[types.PerExampleGradientScenario]\n", "scenario type PerExampleGradientScenario is declared twice"),
    ("[scenarios.DpSgdPerExampleGradients]\ntype = 'PerExampleGradientScenario'\n", "named scenario DpSgdPerExampleGradients is declared twice"),
    ("[scenarios.S]\ntype = 'Nope'\n", "unknown scenario type 'Nope'"),
    ("[scenarios.S]\ntype = 'PerExampleGradientScenario'\nbatch_size = 3\n", "unknown field(s) batch_size"),
])
def test_structural_problems_are_refused_when_the_file_is_read(tmp_path, text, reason):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DerivationError) as info:
        load_derivations(path)                            # no check(): these cost nothing to find
    assert reason in str(info.value) and str(path) in str(info.value)


def test_the_structure_cache_is_checked_against_the_content_and_never_trusted_blindly(tmp_path, monkeypatch):
    import mlsysim_symbolic.sources as sources_module

    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    path = write(tmp_path, GOOD_TYPE.replace("{equation}", "P * b") + '[scenarios.S]\ntype = "Tiny"\ninputs.params = 10\ninputs.width = "4 B/param"\n')
    assert load_derivations(path).scenario("S").size.magnitude == 40
    cached = sorted(p.name.split(".", 1)[1] for p in (tmp_path / "cache").rglob("derivations-v*/*.json"))   # (plans beside)
    assert cached == ["head.json", "scenarios.json", "types.json"]

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed although the cache holds this content")

    monkeypatch.setattr(sources_module.tomllib, "loads", no_parse)
    assert load_derivations(path).scenario("S").size.magnitude == 40          # read from the cache
    monkeypatch.undo()
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    path.write_text(path.read_text().replace("inputs.params = 10", "inputs.params = 11"))
    assert load_derivations(path).scenario("S").size.magnitude == 44          # new content: the entry is stale, parsed again
    assert len(list((tmp_path / "cache").rglob("derivations-v*/*.json"))) == 3   # ... and its entry rewritten, not added to
    for entry in (tmp_path / "cache").rglob("*.head.json"):
        entry.write_text('{"format": 1, "types": "garbage"}')
    assert load_derivations(path).scenario("S").size.magnitude == 44          # a malformed entry is ignored
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", "off")
    off = tmp_path / "off.toml"
    off.write_text(path.read_text().replace("Tiny", "Tiny2"))
    before = len(list((tmp_path / "cache").rglob("*.json")))
    assert load_derivations(off).scenario("S").size.magnitude == 44
    assert len(list((tmp_path / "cache").rglob("*.json"))) == before           # off: nothing written


def test_scenarios_list_and_types_as_in_mlsysim():
    from mlsysim_symbolic import Scenario, Scenarios, types

    listed = Scenarios.list()
    assert [s.key for s in listed] == sorted(catalog().declared) and all(isinstance(s, Scenario) for s in listed)
    by_batch = Scenarios.list(sort_by="batch_size", reverse=True)
    sizes = [getattr(getattr(s, "batch_size", None) or 0, "magnitude", getattr(s, "batch_size", None) or 0) for s in by_batch]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > 0
    classes = types()
    assert len(classes) == len(catalog().info) and all(issubclass(c, Scenario) for c in classes)
    assert [c.__name__ for c in types("dp")] == catalog().families["dp"]


def test_named_scenario_without_a_needed_input_fails_where_it_is_used(tmp_path):
    """An input without a default is needed only by the outputs that use it: the scenario loads, and reading
    such an output names the output, the input and its unit."""
    path = write(tmp_path, GOOD_TYPE.replace("{equation}", "P * b") + """
[scenarios.S]
type = "Tiny"
inputs.params = 10
""")
    scenario = load_derivations(path).scenario("S")
    with pytest.raises(MissingInputError) as info:
        _ = scenario.size
    assert all(w in str(info.value) for w in ("Tiny.size", "width", "B/param"))


def _folder(tmp_path: Path, params: int = 10) -> Path:
    """A folder of two files: a type and a named scenario of it, in separate files (a bundle spans both)."""
    folder = tmp_path / "folder"
    folder.mkdir(exist_ok=True)
    (folder / "a_types.toml").write_text(GOOD_TYPE.replace("{equation}", "P * b"), encoding="utf-8")
    (folder / "b_named.toml").write_text(f'[scenarios.S]\ntype = "Tiny"\ninputs.params = {params}\ninputs.width = "4 B/param"\n',
                                         encoding="utf-8")
    return folder


def test_the_folder_bundle_is_checked_by_each_files_stamp_and_never_trusted_blindly(tmp_path, monkeypatch):
    """A folder's structure is one cache entry (a bundle); a file changed since, or a malformed bundle, is read again.
    The values are hand computations: params x width = 10 x 4 B, then 11 x 4 B."""
    import os

    import mlsysim_symbolic.sources as sources_module

    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    folder = _folder(tmp_path)
    assert load_derivations(folder).scenario("S").size.magnitude == 40
    bundles = list((tmp_path / "cache").rglob("*.heads.marshal"))
    assert len(bundles) == 1

    def no_read(*args, **kwargs):
        raise AssertionError("a file was read although the bundle holds its structure")

    with monkeypatch.context() as m:
        m.setattr(sources_module, "read_one", no_read)
        cat = load_derivations(folder)                                        # from the bundle alone
        assert sorted(cat.info) == ["Tiny"] and list(cat.declared) == ["S"] and cat.families == {"a_types": ["Tiny"]}   # a file without a family: its name
        assert cat.declared["S"].line == 1 and cat.info["Tiny"].line == 2
    named = folder / "b_named.toml"
    named.write_text(named.read_text().replace("params = 10", "params = 11"))
    os.utime(named, ns=(1, 1))                                                 # even with an older time: the stamp differs
    assert load_derivations(folder).scenario("S").size.magnitude == 44        # changed since: read again
    bundles[0].write_bytes(b"\x00garbage")
    assert load_derivations(folder).scenario("S").size.magnitude == 44        # malformed: ignored, rewritten
    import marshal

    good = marshal.loads(bundles[0].read_bytes())
    entry = list(good)
    entry[4] = entry[4] + "\x00Extra"                                          # a count that no longer adds up
    bundles[0].write_bytes(marshal.dumps(tuple(entry)))
    assert sorted(load_derivations(folder).info) == ["Tiny"]
    assert marshal.loads(bundles[0].read_bytes()) == good                      # refused, and the bundle made again


def test_a_folder_read_from_its_bundle_still_refuses_what_clashes_with_the_shipped_catalog(tmp_path, monkeypatch):
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    folder = _folder(tmp_path)
    (folder / "c_clash.toml").write_text("[scenarios.DpSgdPerExampleGradients]\ntype = 'Tiny'\n", encoding="utf-8")
    for _ in range(2):                                                         # parsed, then from the bundle
        with pytest.raises(DerivationError, match="named scenario DpSgdPerExampleGradients is declared twice") as info:
            load_derivations(folder)
        assert "c_clash.toml:1" in str(info.value)
    (folder / "c_clash.toml").write_text("[types.PerExampleGradientScenario]\nsummary = 'again'\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DerivationError, match="scenario type PerExampleGradientScenario is declared twice"):
            load_derivations(folder)
    (folder / "c_clash.toml").write_text("[scenarios.T]\ntype = 'Nope'\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DerivationError, match="unknown scenario type 'Nope'"):
            load_derivations(folder)


@pytest.mark.parametrize("text, what", [
    ('[scenarios."a\\u0000b"]\ntype = "PerExampleGradientScenario"\n', "the named scenario"),
    ('[scenarios.""]\ntype = "PerExampleGradientScenario"\n', "the named scenario"),
    ('family = "x\\u001fy"\n', "the family"),
    ('[scenarios.S]\ntype = "A\\nB"\n', "the type"),
])
def test_names_with_control_characters_are_refused_when_the_file_is_read(tmp_path, text, what):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DerivationError, match=f"{what} .* must be a non-empty name without control characters"):
        load_derivations(path)


def test_one_name_per_quantity_a_symbol_and_its_latex_agree_in_letter_case():
    """A symbol printed by SymPy (``Eq(T_ITL, ...)``) and its LaTeX (``T_{\\mathrm{ITL}}``) name a quantity the same way:
    none of the catalog's inputs and outputs has a symbol that differs from its LaTeX only in letter case (issue 37:
    ``T_itl`` in one notebook cell, ``T_ITL`` in the next)."""
    def letters(latex: str) -> str:
        text = re.sub(r"\\(mathrm|text|operatorname|mathit|boldsymbol|mathbf)\{([^{}]*)\}", r"\2", latex)
        return text.replace("{", "").replace("}", "").replace("\\", "").replace("_", "")

    differ, seen = [], 0
    for path in sorted(glob.glob(str(derivations_dir() / "*.toml"))):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for type_name, table in data.get("types", {}).items():
            for section in ("inputs", "outputs"):
                for name, spec in (table.get(section) or {}).items():
                    if not isinstance(spec, dict) or not spec.get("symbol") or not spec.get("latex"):
                        continue
                    seen += 1
                    a, b = spec["symbol"].replace("_", ""), letters(spec["latex"])
                    if a != b and a.lower() == b.lower():
                        differ.append((type_name, name, spec["symbol"], spec["latex"]))
    assert seen > 5000 and differ == []
