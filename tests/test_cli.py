"""The ``mlsysim-symbolic`` command line: every command, its --help, its JSON and each error path.

Commands run in-process through ``mlsysim_symbolic.cli.main([...])`` (exit code returned,
output captured); a few run the installed console script in a subprocess.  Expected
numbers are by hand: GPT-2 has 1.5e9 parameters, DS-CNN 200,000, FP32 is 4 bytes, batch 256.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mlsysim_symbolic
from mlsysim_symbolic import cli
from mlsysim_symbolic.catalog import catalog, load_derivations
from mlsysim_symbolic.cli import build_parser, main

NAME = "DpSgdPerExampleGradients"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fails(capsys, *argv: str) -> str:
    """Run a command that must fail: exit code 2, nothing on stdout, the message on stderr."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (argv, out, err)
    assert out == ""
    assert err.strip()
    return err


def table(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """A printed table: its header cells and its rows as {header: cell}, read at the header's column starts
    (the code lays columns out two spaces apart; this reader only needs each header to start its column)."""
    lines = text.rstrip("\n").splitlines()
    header = lines[0]
    names, starts, i = [], [], 0
    for cell in [c for c in header.split("  ") if c.strip()]:
        i = header.index(cell.strip(), i)
        names.append(cell.strip())
        starts.append(i)
        i += len(cell.strip())
    bounds = [*starts[1:], None]
    return names, [{n: line[a:b].strip() for n, a, b in zip(names, starts, bounds)} for line in lines[1:]]


def values_section(out: str) -> str:
    """The table under 'Values' of a named scenario's 'show' page."""
    return out.split("Values\n------\n", 1)[1].split("\n\n", 1)[0]


# ---------------------------------------------------------------------- --help
@pytest.mark.parametrize("command", [[], ["list"], ["show"], ["eval"], ["latex"], ["sensitivity"], ["solve"], ["docs"], ["check"]])
def test_help(capsys, command):
    code, out, err = run(capsys, *command, "--help")
    assert code == 0 and err == ""
    assert out.startswith("usage: mlsysim-symbolic" + (f" {command[0]}" if command else ""))
    if command == ["solve"]:
        assert "NAME OUTPUT INPUT [TARGET]" in out and "--sense {<=,>=}" in out
    if command == ["latex"]:
        assert "--document" in out and "--siunitx" in out and "--family" in out and "[NAME]" in out


def test_no_command_and_an_unknown_command(capsys):
    assert "required: COMMAND" in fails(capsys)
    assert "invalid choice: 'frobnicate'" in fails(capsys, "frobnicate")


# ---------------------------------------------------------------------- list
def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    headers, rows = table(out)
    assert headers == ["family", "type", "scenario", "summary"]
    n = len(catalog().families["training"])   # the family's files' titles, and its count of types
    title = catalog().titles["training"]   # its files' titles (no training.toml)
    assert title.startswith("Training compute; ") and {"family": "training", "type": "", "scenario": "", "summary": f"{title} ({n} types)"} in rows
    mine = [r for r in rows if r["type"] == "PerExampleGradientScenario"]
    assert mine[0]["scenario"] == "" and mine[0]["summary"].startswith("Naive DP-SGD keeps one gradient per example")
    assert {r["scenario"] for r in mine[1:]} == {NAME}
    assert mine[1]["summary"] == "Per-example FP32 gradients for the KWS DS-CNN and GPT-2 at batch 256"
    # every type and named scenario has its row
    assert len([r for r in rows if r["type"] and not r["scenario"]]) == len(catalog().info)
    assert len([r for r in rows if r["scenario"]]) == len(catalog().declared)


def test_list_family_and_json(capsys):
    code, out, _ = run(capsys, "list", "--family", "dp", "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["dp"]
    assert data["dp"]["title"] == "DP-SGD and privacy"
    assert data["dp"]["types"]["MicrobatchedDpSgdScenario"]["scenarios"] == ["OpacusResNet18PhysicalBatches"]
    code, out, _ = run(capsys, "list", "--json")
    assert sum(len(t["scenarios"]) for f in json.loads(out).values() for t in f["types"].values()) == len(catalog().declared)


def test_list_unknown_family(capsys):
    err = fails(capsys, "list", "--family", "trainig")
    assert "mlsysim-symbolic list: error: --family: unknown family 'trainig'" in err and "did you mean 'training'" in err


# ---------------------------------------------------------------------- show
def test_show_prints_the_reference_page_values_and_latex(capsys):
    code, out, _ = run(capsys, "show", NAME)
    assert code == 0
    assert out.startswith(f"{NAME}: Per-example FP32 gradients")
    for heading in ("Equation\n--------", "Assumptions", "Excludes", "Derivation", "References", "Inputs", "Outputs", "Values\n------", "LaTeX\n-----"):
        assert heading in out
    headers, rows = table(values_section(out))
    assert headers == ["output", "key", "value", "unit"]
    assert {"output": "per_batch", "key": "GPT-2", "value": "1.536e+12", "unit": "B"} in rows      # 1.5e9 x 4 B x 256
    assert r"= 1.536\,\mathrm{TB}    (GPT-2)" in out


def test_show_markdown(capsys):
    code, out, _ = run(capsys, "show", NAME, "--markdown")
    assert code == 0 and out.startswith("# PerExampleGradientScenario\n") and "## Methods" in out


def test_show_a_scenario_with_two_keys_and_methods(capsys):
    code, out, _ = run(capsys, "show", "AlphaBetaHdrNdrSmallMessage")
    assert code == 0
    assert {"output": "times", "key": "NDR, small", "value": "1.7e-06", "unit": "s"} in table(values_section(out))[1]   # 1.5 us + 10 kB / 50 GB/s
    code, out, _ = run(capsys, "show", "Gpt3CheckpointInterval10K")
    headers, rows = table(values_section(out))
    assert code == 0 and headers == ["output", "value", "unit"]
    assert {"output": "waste_at(...)", "value": "a method of tau", "unit": ""} in rows


def test_show_unknown_scenario_suggests_the_closest(capsys):
    err = fails(capsys, "show", "DpSgdPerExampleGradient")
    assert "NAME: unknown scenario or scenario type 'DpSgdPerExampleGradient'" in err and "did you mean 'DpSgdPerExampleGradients'" in err


# ---------------------------------------------------------------------- eval
def test_eval_text_and_json(capsys):
    code, out, _ = run(capsys, "eval", NAME)
    assert code == 0 and {"output": "per_example", "key": "KWS", "value": "800000", "unit": "B"} in table(out)[1]   # mlsysim's unit
    code, out, _ = run(capsys, "eval", NAME, "--json")
    data = json.loads(out)
    assert data["scenario"] == NAME and data["key"] is None
    assert data["values"]["per_batch"]["GPT-2"] == {"value": 1.5e9 * 4 * 256, "unit": "B"}
    assert data["values"]["per_example"]["KWS"] == {"value": 200_000 * 4, "unit": "B"}


def test_eval_model_and_set(capsys):
    code, out, _ = run(capsys, "eval", NAME, "--model", "GPT-2", "--set", "batch_size=1024", "--set", "bytes_per_param=2 B/param", "--json")
    data = json.loads(out)
    assert code == 0 and data["key"] == "GPT-2" and data["set"] == {"batch_size": 1024, "bytes_per_param": "2 B/param"}
    assert data["values"]["per_batch"] == {"value": 1.5e9 * 2 * 1024, "unit": "B"}
    code, out, _ = run(capsys, "eval", "GpuFailuresTraining10K", "--set", "n_components=20000")
    assert code == 0 and {"output": "interval", "value": "2.5", "unit": "h"} in table(out)[1]      # 50,000 h / 20,000


def test_eval_scenario_without_keys_as_json(capsys):
    code, out, _ = run(capsys, "eval", "GPipeFourStageWalkthrough", "--json")
    values = json.loads(out)["values"]
    assert values["bubble"] == {"value": pytest.approx(3 / 7), "unit": "1"}
    assert "microbatches_for_bubble" not in values                   # a method of an argument


@pytest.mark.parametrize("argv,message", [
    (["eval", "NoSuchScenario"], "NAME: unknown scenario 'NoSuchScenario'"),
    (["eval", NAME, "--set", "batch_size"], "--set: 'batch_size' is not input=value"),
    (["eval", NAME, "--set", "=3"], "--set: '=3' is not input=value"),
    (["eval", NAME, "--set", "batch_sise=8"], "--set: PerExampleGradientScenario(): unexpected input 'batch_sise'; did you mean 'batch_size'? Known: models, batch_size, bytes_per_param"),
    (["eval", NAME, "--set", "batch_size=0"], "--set: batch_size: expected a value in (0, inf)"),
    (["eval", NAME, "--set", "batch_size=2.5"], "--set: batch_size: expected a whole number"),
    (["eval", NAME, "--set", "bytes_per_param=4 s"], "--set: bytes_per_param"),
    (["eval", NAME, "--model", "GPT-3"], "--model: unknown model key 'GPT-3'; did you mean 'GPT-2'? Known: 'KWS', 'GPT-2'"),
    (["eval", "GPipeFourStageWalkthrough", "--model", "x"], "--model: scenario GPipeFourStageWalkthrough has no keyed inputs"),
    (["eval"], "the following arguments are required: NAME"),
])
def test_eval_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- latex
def test_latex_fragment(capsys):
    code, out, _ = run(capsys, "latex", NAME)
    assert code == 0 and out.splitlines()[0] == f"% mlsysim-symbolic: {NAME} (PerExampleGradientScenario)"
    assert r"M_{\mathrm{batch}} &= M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B/param} \cdot 256 = 1.536\,\mathrm{TB} & & \text{(GPT-2)}" in out
    code, out, _ = run(capsys, "latex", NAME, "--siunitx", "--model", "KWS", "--sig", "2")
    assert code == 0 and r"= \qty{200}{\mega\byte} & & \text{(KWS)}" in out and r"\text{(GPT-2)}" not in out   # 2.048e8 B to 2 figures
    code, out, _ = run(capsys, "latex", NAME, "--prefix", "binary", "--sig", "3")
    assert r"= 1.4\,\mathrm{TiB}" in out                                 # 1.536e12 / 2**40 = 1.397


def test_latex_document(capsys, tmp_path):
    code, out, _ = run(capsys, "latex", "--document", "--family", "reliability")
    assert code == 0 and out.startswith(r"\documentclass") and out.rstrip().endswith(r"\end{document}")
    assert out.count(r"\section{") == len(catalog().families["reliability"])
    code, out, _ = run(capsys, "latex", "--family", "dp", "--siunitx")        # --family alone implies --document
    assert code == 0 and r"\usepackage{siunitx}" in out and out.count(r"\part{") == 1
    code, out, _ = run(capsys, "latex", NAME, "--document")
    assert code == 0 and out.count(r"\section{") == 1 and r"\title{DpSgdPerExampleGradients: Per-example" in out
    # -o writes the document instead of printing it (the whole catalog's document, one section per type, is checked
    # by test_paper.py: compiled where TeX is installed; its Markdown pages by test_write_docs, without TeX)
    target = tmp_path / "paper.tex"
    code, out, err = run(capsys, "latex", "--document", "--family", "reliability", "-o", str(target))
    assert code == 0 and out == "" and f"wrote {target}" in err
    assert target.read_text().count(r"\section{") == len(catalog().families["reliability"])


@pytest.mark.parametrize("argv,message", [
    (["latex"], "NAME: a scenario name is required unless --document"),
    (["latex", "Nope"], "NAME: unknown scenario or scenario type 'Nope'"),
    (["latex", "--document", "--family", "servng"], "--family: unknown family 'servng'; did you mean 'serving'? Known: " + ", ".join(sorted(catalog().families))),
    (["latex", NAME, "--family", "dp"], "--family: selects the family of a --document"),
    (["latex", NAME, "--sig", "0"], "--sig: sig must be a whole number of significant figures"),
    (["latex", NAME, "--sig", "three"], "argument --sig: invalid int value: 'three'"),
    (["latex", NAME, "--prefix", "metric"], "argument --prefix: invalid choice: 'metric'"),
    (["latex", "--document", "--model", "GPT-2"], "--model: needs a scenario NAME"),
    (["latex", NAME, "--model", "GPT-3"], "--model: unknown model key 'GPT-3'"),
    (["latex", "--document", "-o", "/nonexistent-dir/x/paper.tex"], "--output: cannot write"),
])
def test_latex_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- sensitivity
def test_sensitivity(capsys):
    code, out, _ = run(capsys, "sensitivity", NAME, "per_batch", "--model", "GPT-2")
    headers, rows = table(out)
    assert code == 0 and headers == ["input", "symbol", "elasticity", "d per_batch/d input", "unit", "elasticity formula"]
    assert len(rows) == 3 and all(r["elasticity"] == "+1.0000" for r in rows)              # M = P b B: each input one for one
    by_input = {r["input"]: r for r in rows}
    assert by_input["batch_size"]["d per_batch/d input"] == "6e+09" and by_input["batch_size"]["unit"] == "B/sample"   # P b = 1.5e9 x 4 B
    code, out, _ = run(capsys, "sensitivity", "GpuFailuresTraining10K", "expected_failures", "--json")
    data = json.loads(out)
    by_input = {r["input"]: r for r in data["elasticities"]}
    assert by_input["n_components"]["value"] == pytest.approx(1.0) and by_input["component_mtbf"]["value"] == pytest.approx(-1.0)
    assert by_input["n_components"]["elasticity"] == "1"


def test_sensitivity_of_a_two_key_output(capsys):
    code, out, _ = run(capsys, "sensitivity", "AlphaBetaHdrNdrSmallMessage", "times", "--model", "NDR", "--json")
    data = json.loads(out)
    assert code == 0 and data["keys"] == ["NDR", "small"]
    alpha = 1.5e-6
    wire = 10_000 / 50e9
    assert {r["input"]: r["value"] for r in data["elasticities"]}["alphas"] == pytest.approx(alpha / (alpha + wire))


@pytest.mark.parametrize("argv,message", [
    (["sensitivity", "Nope", "per_batch"], "NAME: unknown scenario 'Nope'"),
    (["sensitivity", NAME, "per_bach"], "OUTPUT: PerExampleGradientScenario: unknown output 'per_bach'; did you mean 'per_batch', 'per_example'? Known: per_example, per_batch"),
    (["sensitivity", "Gpt3CheckpointInterval10K", "waste_at"], "OUTPUT: waste_at is a method of tau"),
    (["sensitivity", NAME, "per_batch", "--model", "GPT-3"], "--model: unknown models key 'GPT-3'"),
    (["sensitivity", NAME, "per_batch"], "--model: per_batch has one value per models key (KWS, GPT-2); choose one with --model"),
    (["sensitivity", "GPipeFourStageWalkthrough", "bubble", "--model", "x"], "--model: output bubble is not keyed"),
    (["sensitivity", NAME], "the following arguments are required: OUTPUT"),
])
def test_sensitivity_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- solve
def test_solve_text_and_json(capsys):
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "GPT-2")
    headers, rows = table(out)
    assert code == 0 and headers == ["input", "value (sample)", "exact (sample)", "constraint", "at", "method", "note"]
    assert rows == [{"input": "batch_size", "value (sample)": "13", "exact (sample)": "13.33", "constraint": "per_batch <= 80 GB",
                     "at": "GPT-2", "method": "closed form B = M_batch/(P*b)", "note": "integer input: floor keeps per_batch <= target"}]
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "KWS", "--json")
    data = json.loads(out)
    assert data["keys"] == ["KWS"]
    assert data["value"] == 100_000                                               # 80e9 B / (200,000 x 4 B) per example
    assert data["exact"] == {"value": pytest.approx(1e5), "unit": "sample"} and data["method"] == "closed form"
    assert data["target"] == {"value": 80, "unit": "GB"} and data["expression"] == "M_batch/(P*b)"


def test_solve_sense_and_bare_number_target(capsys):
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "1 TB", "--model", "GPT-2", "--sense", ">=", "--json")
    assert code == 0 and json.loads(out)["value"] == 167                         # ceil(1e12 / 6e9) = ceil(166.7)
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "6e10 B", "--model", "GPT-2", "--json")
    assert json.loads(out)["value"] == 10                                        # 6e10 B / 6e9 B per example
    code, out, _ = run(capsys, "solve", "GpuFailuresTraining10K", "interval", "n_components", "2.5 h", "--json")
    data = json.loads(out)
    assert data["value"] == 20_000 and data["target"]["unit"] == "h"             # 50,000 h / 2.5 h
    code, out, _ = run(capsys, "solve", CKPT, "waste_at", "mtbf", "0.05", "--arg", "tau=600s", "--json")
    assert code == 0 and json.loads(out)["target"] == {"value": 0.05, "unit": "1"}   # a plain-number output takes a bare number


@pytest.mark.parametrize("argv,message", [
    (["solve", "Nope", "per_batch", "batch_size", "80 GB"], "NAME: unknown scenario 'Nope'"),
    (["solve", NAME, "per_bach", "batch_size", "80 GB"], "OUTPUT: PerExampleGradientScenario: unknown output 'per_bach'"),
    (["solve", NAME, "per_batch", "batch_sise", "80 GB"], "INPUT: per_batch: unknown input 'batch_sise'; did you mean 'batch_size'? Known: batch_size, bytes_per_param, parameters"),
    (["solve", NAME, "per_batch", "batch_size", "80 s"], "TARGET: per_batch is in B ([information]); got '80 s' ([time])"),
    (["solve", NAME, "per_batch", "batch_size", "80 furlongs"], "TARGET: unknown unit 'furlongs'"),
    (["solve", NAME, "per_batch", "batch_size", "lots"], "TARGET: 'lots' is not a quantity"),
    (["solve", NAME, "per_batch", "batch_size", "inf"], "TARGET: must be finite"),
    (["solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "GPT-3"], "--model: unknown models key 'GPT-3'"),
    (["solve", NAME, "per_batch", "batch_size", "80 GB"], "--model: per_batch has one value per models key (KWS, GPT-2); choose one with --model"),
    (["solve", NAME, "per_batch", "batch_size", "80", "--model", "GPT-2"], "TARGET: target 80 needs a unit, e.g. '80 B' (per_batch is in B"),
    (["solve", NAME, "per_batch", "batch_size", "--model", "GPT-2"], "TARGET: per_batch is a quantity in B: give the target"),
    (["solve", NAME, "per_batch", "batch_size", "1 GB^1001/B^1000", "--model", "GPT-2"], "TARGET: cannot read '1 GB^1001/B^1000' as a quantity in B"),
    (["solve", NAME, "per_batch", "batch_size", "80 GB", "--sense", "<"], "argument --sense: invalid choice: '<'"),
    (["solve", "Gpt3CheckpointInterval10K", "waste_at", "tau", "0.1"], "OUTPUT: waste_at is a method of tau; give --arg tau=VALUE"),
    (["solve", NAME, "per_batch"], "the following arguments are required: INPUT"),
])
def test_solve_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- docs
def test_docs(capsys, tmp_path):
    # a family's pages through the command line (every type's page is written and checked by test_paper.py's
    # test_write_docs_writes_a_page_per_type_and_an_index, and as HTML by the docs site's tests)
    code, out, _ = run(capsys, "docs", str(tmp_path / "ref"), "--family", "reliability")
    assert code == 0 and out.startswith(f"wrote {len(catalog().families['reliability'])} pages and ")
    assert (tmp_path / "ref" / "index.md").exists()
    assert {p.stem for p in (tmp_path / "ref").glob("*.md")} == {*catalog().families["reliability"], "index"}
    code, out, _ = run(capsys, "docs", str(tmp_path / "one"), "PerExampleGradientScenario")
    assert code == 0 and (tmp_path / "one" / "PerExampleGradientScenario.md").exists()
    code, out, _ = run(capsys, "docs", str(tmp_path / "dp"), "--family", "dp")
    assert code == 0 and len(list((tmp_path / "dp").glob("*.md"))) == len(catalog().families["dp"]) + 1


def test_docs_errors(capsys, tmp_path):
    blocker = tmp_path / "file.md"
    blocker.write_text("x")
    assert f"OUT_DIR: '{blocker}' exists and is not a directory" in fails(capsys, "docs", str(blocker))
    assert "--family: unknown family 'nope'" in fails(capsys, "docs", str(tmp_path / "x"), "--family", "nope")
    assert "the following arguments are required: OUT_DIR" in fails(capsys, "docs")


# ---------------------------------------------------------------------- the installed console script
def _script() -> str:
    found = Path(sys.executable).with_name("mlsysim-symbolic")
    path = str(found) if found.exists() else shutil.which("mlsysim-symbolic")
    assert path, "the mlsysim-symbolic console script is not installed (pip install -e .)"
    return path


def test_console_script_json_is_parseable():
    proc = subprocess.run([_script(), "eval", NAME, "--model", "GPT-2", "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["values"]["per_batch"] == {"value": 1.536e12, "unit": "B"}


def test_console_script_error_exit_code():
    proc = subprocess.run([_script(), "solve", NAME, "per_batch", "batch_size", "80 s"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("mlsysim-symbolic solve: error: TARGET:")


def test_python_dash_m_and_a_closed_pipe():
    proc = subprocess.run([sys.executable, "-m", "mlsysim_symbolic", "--help"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "solve" in proc.stdout and "docs" in proc.stdout
    # the reader of a long listing goes away early (| head): no traceback
    proc = subprocess.run(f"'{_script()}' list | head -2", shell=True, capture_output=True, text=True, timeout=120)
    assert proc.stdout.startswith("family") and proc.stdout.splitlines()[1].startswith(sorted(catalog().families)[0]) and "Traceback" not in proc.stderr


def _first_named_scenarios() -> dict[str, str]:
    """The first named scenario of each type, by type."""
    first: dict[str, str] = {}
    for key, d in catalog().declared.items():
        first.setdefault(d.type_name, key)
    return first


#: The README's command shows, evaluates and prints (siunitx) LaTeX of the first named scenario of every
#: SAMPLE_EVERY-th type (by name) and of each family's first type; the thorough tier every other named scenario.
#: Every named scenario's values and substituted lines are also rendered by the docs site build (a sample of types'
#: pages in the README's command, every page in the thorough tier) and compiled in both modes by the catalog document
#: where TeX is installed.
SAMPLE_EVERY = 16


def _sampled_named_scenarios() -> list[str]:
    first = _first_named_scenarios()
    types = sorted(first)
    chosen = set(types[::SAMPLE_EVERY])
    for members in catalog().families.values():
        chosen.add(sorted(t for t in members if t in first)[0])
    return [first[t] for t in sorted(chosen)]


def _show_eval_latex(capsys, keys) -> None:
    first = set(_first_named_scenarios().values())
    for key in keys:
        latex = [["latex", key, "--siunitx"]] if key in first else []
        for argv in (["show", key], ["eval", key, "--json"], *latex):
            code, out, err = run(capsys, *argv)
            assert code == 0 and err == "", (argv, err)
            if argv[0] == "eval":
                assert json.loads(out)["scenario"] == key


@pytest.mark.xdist_group("docs_site")   # the worker that writes every reference page: show reuses their lines
def test_named_scenarios_of_a_sample_of_types_show_evaluate_and_print_latex(capsys):
    """show, eval and latex (siunitx) of the first named scenario of a sample of types (every sixteenth, and each
    family's first): each command's output for each kind of type, from every family."""
    keys = _sampled_named_scenarios()
    assert len(keys) >= len(catalog().types) // SAMPLE_EVERY
    _show_eval_latex(capsys, keys)


@pytest.mark.thorough
@pytest.mark.xdist_group("docs_site")
def test_every_other_named_scenario_shows_evaluates_and_prints_latex(capsys):
    """show and eval of every named scenario the test above leaves, and latex (siunitx) of each type's first."""
    sampled = set(_sampled_named_scenarios())
    _show_eval_latex(capsys, [k for k in catalog().declared if k not in sampled])


# ---------------------------------------------------------------------- types are first-class
TYPE = "ZeroShardingScenario"


def test_show_a_type_prints_its_reference_page(capsys):
    code, out, _ = run(capsys, "show", TYPE)
    assert code == 0 and out.startswith(f"{TYPE} — training scenarios.")
    assert "Equation\n--------" in out and "Values\n------" not in out            # a type has no values
    assert "Named scenarios: Llama2_7B_ZeroStages64, Gpt3Zero3On64" in out
    code, out, _ = run(capsys, "show", TYPE, "--markdown")
    assert code == 0 and out.startswith(f"# {TYPE}\n")


def test_latex_of_a_type(capsys):
    code, out, _ = run(capsys, "latex", TYPE)
    assert code == 0 and out.startswith(f"\\section{{{TYPE}}}") and "\\begin{align*}" in out
    code, out, _ = run(capsys, "latex", TYPE, "--document")
    assert code == 0 and out.startswith("\\documentclass") and out.count("\\section{") == 1
    assert "--model: needs a named scenario, not a scenario type" in fails(capsys, "latex", TYPE, "--model", "GPT-3")


def test_docs_of_chosen_types_and_scenarios(capsys, tmp_path):
    code, out, _ = run(capsys, "docs", str(tmp_path), TYPE, NAME)      # a type, and a named scenario's type
    assert code == 0 and out.startswith("wrote 2 pages and ")
    assert sorted(p.name for p in tmp_path.glob("*.md")) == ["PerExampleGradientScenario.md", f"{TYPE}.md", "index.md"]
    assert "NAME: unknown scenario or scenario type 'Nope'" in fails(capsys, "docs", str(tmp_path / "x"), "Nope")
    assert "--family: selects the pages of a family" in fails(capsys, "docs", str(tmp_path / "x"), TYPE, "--family", "dp")


# ---------------------------------------------------------------------- --arg: arguments of method outputs
CKPT = "Gpt3CheckpointInterval10K"


def test_eval_with_an_argument(capsys):
    code, out, _ = run(capsys, "eval", CKPT, "--arg", "tau=600s", "--json")
    data = json.loads(out)
    assert code == 0 and data["arguments"] == {"tau": "600s"}
    assert "miss_penalty" not in data["values"]                        # its argument (factor) was not given
    # by hand (Young): waste(tau) = delta / tau + tau / (2 M), with delta = t_write
    write = data["values"]["t_write"]["value"]
    interval = data["values"]["interval"]["value"]                   # tau* = sqrt(2 delta M), so M = tau*^2 / (2 delta)
    mtbf = interval ** 2 / (2 * write)
    assert data["values"]["waste_at"] == {"value": pytest.approx(write / 600 + 600 / (2 * mtbf), rel=1e-12), "unit": "1"}
    code, out, _ = run(capsys, "eval", CKPT, "--arg", "tau=10 min")     # a bare number or any unit of time
    assert code == 0 and {"output": "waste_at", "value": f"{write / 600 + 600 / (2 * mtbf):.6g}", "unit": "1"} in table(out)[1]
    code, out, _ = run(capsys, "eval", CKPT)
    assert code == 0 and "waste_at" not in out                         # without --arg, methods are left out


def test_sensitivity_and_solve_with_an_argument(capsys):
    code, out, _ = run(capsys, "sensitivity", CKPT, "waste_at", "--arg", "tau=600s", "--json")
    rows = {r["input"]: r["value"] for r in json.loads(out)["elasticities"]}
    assert code == 0 and rows["mtbf"] < 0 < rows["parameters"]
    assert rows["parameters"] - rows["mtbf"] == pytest.approx(1.0)   # the two terms' shares add up to 1
    code, out, _ = run(capsys, "solve", CKPT, "waste_at", "mtbf", "0.05", "--arg", "tau=600s", "--json")
    sol = json.loads(out)
    # by hand: waste(tau) = delta / tau + tau / (2 M) = 0.05 at tau = 600 s, delta = 24.5 s: M = 600 s / (2 (0.05 - 24.5 / 600))
    assert code == 0 and sol["method"] == "closed form" and sol["value"]["unit"] == "h"
    assert sol["value"]["value"] * 3600 == pytest.approx(600 / (2 * (0.05 - 24.5 / 600)), rel=1e-12)


@pytest.mark.parametrize("argv,message", [
    (["eval", CKPT, "--arg", "tua=600s"], "--arg: CheckpointIntervalScenario: unexpected argument 'tua'; did you mean 'tau'? Known: tau, factor"),
    (["eval", CKPT, "--arg", "tau"], "--arg: 'tau' is not argument=value (e.g. --arg tau=600s)"),
    (["eval", CKPT, "--arg", "tau=600 B"], "--arg: "),
    (["eval", NAME, "--arg", "tau=1"], "--arg: PerExampleGradientScenario: unexpected argument 'tau' (it has no method outputs)"),
    (["sensitivity", CKPT, "waste_at", "--arg", "factor=2"], "OUTPUT: waste_at is a method of tau; give --arg tau=VALUE"),
    (["sensitivity", CKPT, "waste", "--arg", "tau=1s"], "--arg: waste takes no argument 'tau'; it has no arguments"),
])
def test_argument_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- check
def test_check_the_shipped_catalog(capsys):
    code, out, err = run(capsys, "check")
    assert code == 0 and err == ""
    assert out.startswith(f"the shipped catalog: {len(catalog().info)} types, {len(catalog().declared)} named scenarios checked in ")


def test_check_refuses_a_dimension_error_planted_in_a_copy(capsys, tmp_path):
    from mlsysim_symbolic.paths import derivations_dir

    copy = tmp_path / "derivations"
    shutil.copytree(derivations_dir(), copy, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    code, out, _ = run(capsys, "check", str(copy))
    assert code == 0 and out.startswith(f"{copy}: {len(catalog().info)} types, {len(catalog().declared)} named scenarios")   # sound alone
    dp = copy / "dp.toml"
    text = dp.read_text()
    good = 'equation = "per_example * B"'
    assert text.count(good) == 1
    dp.write_text(text.replace(good, 'equation = "per_example * B * b"'))   # bytes times bytes per parameter
    line = next(i for i, t in enumerate(dp.read_text().splitlines(), 1) if t.startswith("[types.PerExampleGradientScenario.outputs.per_batch]"))
    code, out, err = run(capsys, "check", str(copy))
    assert code == 1 and out == ""
    assert err.startswith(f"mlsysim-symbolic check: {dp}:{line}: PerExampleGradientScenario: output per_batch:")
    assert "but the declared unit is B" in err


def test_check_a_file_with_an_unknown_name(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[types.Tiny]\n[types.Tiny.inputs.P]\nunit = "B"\n[types.Tiny.outputs.y]\nunit = "B"\nequation = "P * q"\n')
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1 and f"{bad}:4: Tiny:" in err and "unknown name 'q'" in err
    assert run(capsys, "list")[0] == 0                                 # reading it did not touch the shipped catalog


# ---------------------------------------------------------------------- --version
def test_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out == f"mlsysim-symbolic {mlsysim_symbolic.__version__}\n"
    assert mlsysim_symbolic.__version__ == importlib.metadata.version("mlsysim-symbolic")   # the installed distribution's
    proc = subprocess.run([_script(), "--version"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == out


# ---------------------------------------------------------------------- headers on every table
@pytest.mark.parametrize("argv,headers", [
    (["list"], ["family", "type", "scenario", "summary"]),
    (["list", "--family", "dp"], ["family", "type", "scenario", "summary"]),
    (["eval", NAME], ["output", "key", "value", "unit"]),
    (["eval", NAME, "--model", "GPT-2"], ["output", "key", "value", "unit"]),
    (["eval", "GPipeFourStageWalkthrough"], ["output", "value", "unit"]),                # no keyed output: no key column
    (["sensitivity", "GpuFailuresTraining10K", "expected_failures"],
     ["input", "symbol", "elasticity", "d expected_failures/d input", "unit", "elasticity formula"]),
    (["solve", NAME, "per_batch", "batch_size", "1 TB", "--model", "GPT-2", "--sense", ">="],
     ["input", "value (sample)", "exact (sample)", "constraint", "at", "method", "note"]),
    (["solve", "Llama2_70BGradientRing64Ndr", "ring_byte_time", "message", "1 s"],
     ["input", "value (B)", "exact (B)", "constraint", "at", "method"]),                  # a real input: no rounding note
    (["solve", CKPT, "waste_at", "mtbf", "0.05", "--arg", "tau=600s"], ["input", "value (h)", "exact (h)", "constraint", "method"]),
])
def test_every_table_starts_with_its_header(capsys, argv, headers):
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == "", err
    found, rows = table(out)
    assert found == headers
    assert rows and all(len(line) > 0 for line in out.splitlines())
    assert out.splitlines()[0] == out.splitlines()[0].rstrip()                        # no trailing blanks


def test_show_values_table_header(capsys):
    code, out, _ = run(capsys, "show", "GPipeFourStageWalkthrough")
    headers, rows = table(values_section(out))
    assert code == 0 and headers == ["output", "value", "unit"]
    assert {"output": "bubble", "value": f"{3 / 7:.6g}", "unit": "1"} in rows           # (p - 1) / (m + p - 1) = 3 / 7


# ---------------------------------------------------------------------- outputs with keys need --model
@pytest.mark.parametrize("argv,message", [
    (["solve", NAME, "per_batch", "batch_size", "80 GB"], "--model: per_batch has one value per models key (KWS, GPT-2); choose one with --model, e.g. --model GPT-2"),
    (["sensitivity", NAME, "per_batch", "--json"], "--model: per_batch has one value per models key (KWS, GPT-2)"),
    (["sensitivity", "AlphaBetaNdrRoce", "times"], "--model: times has one value per path key"),
    (["sensitivity", "AlphaBetaNdrRoce", "times", "--model", "NDR"],
     "--model: times is keyed by path and message; give a second --model for message: one of control, shard"),
    (["sensitivity", "AlphaBetaNdrRoce", "times", "--model", "NDR", "--model", "small"], "--model: unknown message key 'small'. Known: 'control', 'shard'"),
    (["solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "GPT-2", "--model", "KWS"],
     "--model: per_batch is keyed by models, so it takes 1 --model (one per index, in that order); got 2"),
])
def test_a_keyed_output_with_several_keys_needs_model(capsys, argv, message):
    assert message in fails(capsys, *argv)


def test_model_picks_the_key_and_a_single_key_is_used(capsys):
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "GPT-2", "--json")
    assert code == 0 and json.loads(out)["value"] == 13                             # 80e9 / (1.5e9 x 4) = 13.3: floor
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "KWS", "--json")
    assert code == 0 and json.loads(out)["value"] == 100_000                        # 80e9 / (200,000 x 4)
    # group_sizes = [64]: the output's only key is used without --model
    code, out, _ = run(capsys, "solve", "Llama2_70BGradientRing64Ndr", "ring_byte_time", "message", "1 s", "--json")
    data = json.loads(out)
    assert code == 0 and data["keys"] == [64]
    # ring bytes: t = 2 (N - 1) / N x M / beta, so M = N beta t / (2 (N - 1)) with beta = 400 Gbps = 50 GB/s
    assert data["exact"]["unit"] == "B" and data["exact"]["value"] == pytest.approx(64 * 50e9 * 1 / (2 * 63), rel=1e-12)
    code, out, _ = run(capsys, "sensitivity", "AlphaBetaNdrRoce", "times", "--model", "NDR", "--model", "shard", "--json")
    assert code == 0 and json.loads(out)["keys"] == ["NDR", "shard"]


# ---------------------------------------------------------------------- every --help has examples that work
def _subparsers() -> dict[str, object]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {"": parser, **commands.choices}


def _example_lines() -> list[tuple[str, str]]:
    return [(name, line.strip()) for name, p in _subparsers().items()
            for line in (p.epilog or "").splitlines() if line.startswith("  mlsysim-symbolic ")]


def test_every_command_has_examples(capsys):
    examples = _example_lines()
    for name in _subparsers():
        assert [e for n, e in examples if n == name], f"'{name or 'mlsysim-symbolic'} --help' has no example"
        if name:
            assert all(e.startswith(f"mlsysim-symbolic {name} ") or e == f"mlsysim-symbolic {name}" for n, e in examples if n == name)
        code, out, _ = run(capsys, *([name] if name else []), "--help")
        assert code == 0 and "examples:\n  mlsysim-symbolic" in out


@pytest.mark.parametrize("command", [line for _, line in _example_lines() if "--site" not in line])
def test_help_examples_run(capsys, tmp_path, monkeypatch, command):
    """Each example in a --help runs as written (in an empty folder, where the examples that write files write them)."""
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)
    assert argv[0] == "mlsysim-symbolic"
    code, out, err = run(capsys, *argv[1:])
    assert code == 0, (command, err)
    assert "error" not in err


def test_the_site_example_is_there():
    assert [line for _, line in _example_lines() if "--site" in line] == ["mlsysim-symbolic docs site --site"]


# ---------------------------------------------------------------------- docs --site
def test_docs_site(capsys, tmp_path, monkeypatch):
    """docs --site runs the real build_site on the chosen types; the notebooks are stand-ins of one Markdown cell each
    (tests/test_docs_site.py executes the real ones, which takes half a minute)."""
    nbformat = pytest.importorskip("nbformat")
    from mlsysim_symbolic import docs

    for name in docs.NOTEBOOKS:
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# Stand-in {name}")]), tmp_path / f"{name}.ipynb")
    monkeypatch.setattr(cli, "build_site", lambda out, *, catalog: docs.build_site(out, catalog=catalog, notebooks=tmp_path))
    site = tmp_path / "site"
    code, out, err = run(capsys, "docs", str(site), "PerExampleGradientScenario", "--site")
    assert code == 0, err
    # the site's MathJax and its licence, 3 reference pages x (md, html): the type, its family, the index; 4 notebooks x
    # (ipynb, html); the index
    assert out == f"wrote 17 files; open {site / 'index.html'}\n"
    assert (site / "reference" / "PerExampleGradientScenario.html").is_file()
    assert not (site / "reference" / "ZeroShardingScenario.md").exists()       # only the type asked for
    assert "Stand-in quickstart" in (site / "notebooks" / "quickstart.html").read_text()
    assert 'href="notebooks/quickstart.html"' in (site / "index.html").read_text()


def test_docs_site_of_a_family_and_a_missing_extra(capsys, tmp_path, monkeypatch):
    calls = []

    def fake_build_site(out_dir, *, catalog):
        calls.append((Path(out_dir), sorted(catalog.info)))
        raise ModuleNotFoundError('the docs site needs nbconvert and nbformat: pip install -e ".[test]"', name="nbconvert")

    monkeypatch.setattr(cli, "build_site", fake_build_site)
    code, out, err = run(capsys, "docs", str(tmp_path / "s"), "--site", "--family", "dp")
    assert code == 1 and out == ""
    assert err == 'mlsysim-symbolic docs: --site: the docs site needs nbconvert and nbformat: pip install -e ".[test]"\n'
    assert calls == [(tmp_path / "s", sorted(catalog().families["dp"]))]
    code, out, _ = run(capsys, "docs", str(tmp_path / "md"), "--family", "dp")        # without --site: the Markdown pages
    assert code == 0 and len(calls) == 1 and (tmp_path / "md" / "index.md").is_file()
    assert len(list((tmp_path / "md").glob("*.md"))) == len(catalog().families["dp"]) + 1


# ---------------------------------------------------------------------- issue 13: targets, infeasible targets, predicates
def test_an_infeasible_target_exits_1_with_the_reason(capsys):
    code, out, err = run(capsys, "solve", NAME, "per_batch", "batch_size", "1 GB", "--model", "GPT-2")
    # by hand: one GPT-2 example already needs 1.5e9 x 4 B = 6 GB
    assert (code, out) == (1, "")
    assert err == "mlsysim-symbolic solve: no batch_size gives per_batch <= 1 GB: even at batch_size = 1 sample, per_batch is 6 GB\n"
    proc = subprocess.run([_script(), "solve", NAME, "per_batch", "batch_size", "1 GB", "--model", "GPT-2"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stdout == "" and proc.stderr == err and "Traceback" not in proc.stderr


FIT_TOML = '''
[types.GradientFitScenario]
family = "dp"
summary = "Whether a batch of per-example gradients fits in one device's memory."

[types.GradientFitScenario.inputs.models]
kind = "workloads"
meaning = "models by name"
symbols.P = { attribute = "parameters", unit = "param/sample", counted = "1/sample", meaning = "parameters per example" }

[types.GradientFitScenario.inputs.batch_size]
symbol = "B"
unit = "sample"
integer = true
meaning = "examples per step"

[types.GradientFitScenario.inputs.bytes_per_param]
symbol = "b"
unit = "B/param"
meaning = "gradient bytes per parameter"

[types.GradientFitScenario.inputs.capacity]
symbol = "C"
unit = "GB"
meaning = "device memory"

[types.GradientFitScenario.outputs.per_batch]
symbol = "M_batch"
unit = "B"
equation = "P * b * B"
doc = "gradient bytes of the batch"

[types.GradientFitScenario.outputs.fits]
kind = "predicate"
equation = "per_batch <= C"
doc = "whether the batch's gradients fit"

[types.GradientFitScenario.outputs.larger]
kind = "label"
cases = { gradients = "per_batch", capacity = "C" }
doc = "which is larger: the gradients or the memory"

[scenarios.GradientsIn80GB]
type = "GradientFitScenario"
name = "FP32 per-example gradients in 80 GB"
inputs.models = { "KWS" = "DS_CNN", "GPT-2" = "GPT2" }
inputs.batch_size = 256
inputs.bytes_per_param = "4 B/param"
inputs.capacity = "80 GB"

[scenarios.GradientsIn1GB]
type = "GradientFitScenario"
name = "FP32 per-example gradients of GPT-2 in 1 GB"
inputs.models = { "GPT-2" = "GPT2" }
inputs.batch_size = 1
inputs.bytes_per_param = "4 B/param"
inputs.capacity = "1 GB"
'''


@pytest.fixture
def fit_catalog(tmp_path, monkeypatch):
    """A catalog with a predicate output (the shipped one has none yet): fits = per_batch <= capacity."""
    path = tmp_path / "fit.toml"
    path.write_text(FIT_TOML)
    cat = load_derivations(path)
    monkeypatch.setattr(cli, "_catalog", lambda: cat)
    return cat


def test_solve_a_predicate_without_a_target(capsys, fit_catalog):
    code, out, err = run(capsys, "solve", "GradientsIn80GB", "fits", "batch_size", "--model", "GPT-2")
    headers, rows = table(out)
    assert code == 0 and err == ""
    assert headers == ["input", "value (sample)", "exact (sample)", "constraint", "at", "method", "note"]
    assert rows[0]["value (sample)"] == "13" and rows[0]["constraint"] == "fits holds"   # floor(80e9 / (1.5e9 x 4)) = 13
    code, out, _ = run(capsys, "solve", "GradientsIn80GB", "fits", "batch_size", "--model", "KWS", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == 100_000 and data["target"] is None            # 80e9 / (200,000 x 4)
    code, out, _ = run(capsys, "solve", "GradientsIn80GB", "fits", "capacity", "--model", "GPT-2", "--json")
    assert code == 0 and json.loads(out)["exact"] == {"value": pytest.approx(1536), "unit": "GB"}   # 1.5e9 x 4 B x 256
    code, out, _ = run(capsys, "eval", "GradientsIn80GB")
    rows = table(out)[1]
    assert {"output": "fits", "key": "GPT-2", "value": "False", "unit": ""} in rows       # 1,536 GB > 80 GB
    assert {"output": "larger", "key": "KWS", "value": "capacity", "unit": ""} in rows     # 0.2 GB < 80 GB


@pytest.mark.parametrize("argv,code,message", [
    (["solve", "GradientsIn80GB", "fits", "batch_size", "80 GB", "--model", "GPT-2"], 2,
     "TARGET: fits is a predicate (true or false), so it takes no target"),
    (["solve", "GradientsIn80GB", "fits", "batch_size", "--model", "GPT-2", "--sense", ">="], 2, "--sense: fits is a predicate"),
    (["solve", "GradientsIn80GB", "fits", "batch_size"], 2, "--model: fits has one value per models key (KWS, GPT-2)"),
    (["solve", "GradientsIn1GB", "fits", "batch_size"], 1, "mlsysim-symbolic solve: no batch_size gives fits"),    # 6 GB > 1 GB at batch 1
    (["solve", "GradientsIn1GB", "per_batch", "batch_size", "1 GB"], 1, "no batch_size gives per_batch <= 1 GB"),
    (["solve", "GradientsIn80GB", "larger", "batch_size", "--model", "GPT-2"], 2,
     "OUTPUT: larger is a label (a name, not a number); solve takes a quantity or a predicate output"),
])
def test_predicate_errors(capsys, fit_catalog, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert (got, out) == (code, "") and message in err and err.count("\n") == 1


# ---------------------------------------------------------------------- issue 13: every bad --set/--arg value is one line, exit 2
KV = "Gpt2XlKvFullWindow"


@pytest.mark.parametrize("argv,message", [
    (["eval", KV, "--set", "kv_share=1 GB^1000/B^1000"], "--set: kv_share: cannot read '1 GB^1000/B^1000' as a value in 1 (a number beyond float64)"),
    (["eval", KV, "--set", "kv_share=1e400"], "--set: kv_share: expected a finite number in 1, got inf"),
    (["eval", KV, "--set", "kv_share=" + "1" + "0" * 5000], "--set: kv_share: expected a finite number"),   # more digits than int() reads
    (["eval", KV, "--set", "kv_share=nan"], "--set: kv_share: expected a finite number"),
    (["eval", KV, "--set", "kv_share=abc"], "--set: kv_share: 'abc' is not a quantity"),
    (["eval", KV, "--set", "kv_share=1 GB"], "--set: kv_share expects 1 (a plain number)"),
    (["eval", KV, "--set", "kv_share=0.5", "--set", "tokens=1 ktoken^1000/token^999/request"],
     "--set: tokens: cannot read '1 ktoken^1000/token^999/request' as a value in token/request (a number beyond float64)"),
    # a plain number (GB^1000/B^1000 is one) is read in the input's declared meaning, so its size is what is refused
    (["eval", KV, "--set", "tokens=1 GB^1000/B^1000"], "--set: tokens: cannot read '1 GB^1000/B^1000' as a value in token/request (a number beyond float64)"),
    (["eval", NAME, "--set", "models=GPT2"], "--set: models: expected a non-empty mapping of names to workloads"),
    (["eval", "Gpt3GradientSync", "--set", "precision=fp99"], "--set: precision: expected one of 'fp32'"),
    (["eval", CKPT, "--arg", "factor=1 GB^1000/B^1000"], "--arg: factor: cannot read '1 GB^1000/B^1000' as a value in 1"),
    (["eval", CKPT, "--arg", "tau=1e999"], "--arg: tau: expected a finite number in s, got inf"),
    (["eval", CKPT, "--arg", "tau=-5 s"], "--arg: tau: expected a value in (0, inf) s, got -5"),
    (["sensitivity", CKPT, "waste_at", "--arg", "tau=1 s^1000/ms^1000"], "--arg: tau expects s (seconds)"),
    (["solve", CKPT, "waste_at", "mtbf", "0.05", "--arg", "tau=1 ks^1000/s^999"], "--arg: tau: cannot read '1 ks^1000/s^999' as a value in s"),
])
def test_bad_values_are_one_line_errors(capsys, argv, message):
    err = fails(capsys, *argv)
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_readme_command_line_example_prints_what_it_shows(capsys):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Command line\n", 1)[1].split("\n## ", 1)[0]
    blocks = [b for b in section.split("```text\n")[1:] if b.startswith("$ ")]
    assert blocks
    for block in blocks:
        command, *shown = block.split("\n```", 1)[0].splitlines()
        code, out, err = run(capsys, *shlex.split(command[2:])[1:])
        assert code == 0 and err == "" and out.splitlines() == shown
