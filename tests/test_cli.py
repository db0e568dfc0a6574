"""The ``mlsysim-symbolic`` command line: every command, its --help, its JSON and each error path.

Commands run in-process through ``mlsysim_symbolic.cli.main([...])`` (exit code returned,
output captured); a few run the installed console script in a subprocess.  Expected
numbers are by hand: GPT-2 has 1.5e9 parameters, DS-CNN 200,000, FP32 is 4 bytes, batch 256.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.cli import main

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


# ---------------------------------------------------------------------- --help
@pytest.mark.parametrize("command", [[], ["list"], ["show"], ["eval"], ["latex"], ["sensitivity"], ["solve"], ["docs"], ["check"]])
def test_help(capsys, command):
    code, out, err = run(capsys, *command, "--help")
    assert code == 0 and err == ""
    assert out.startswith("usage: mlsysim-symbolic" + (f" {command[0]}" if command else ""))
    if command == ["solve"]:
        assert "NAME OUTPUT INPUT TARGET" in out and "--sense {<=,>=}" in out
    if command == ["latex"]:
        assert "--document" in out and "--siunitx" in out and "--family" in out and "[NAME]" in out


def test_no_command_and_an_unknown_command(capsys):
    assert "required: COMMAND" in fails(capsys)
    assert "invalid choice: 'frobnicate'" in fails(capsys, "frobnicate")


# ---------------------------------------------------------------------- list
def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "training (14 types): Training memory" in out
    assert "  PerExampleGradientScenario: Naive DP-SGD keeps one gradient per example" in out
    assert f"    - {NAME}" in out


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
    assert "mlsysim-symbolic list: error: --family: unknown family 'trainig'" in err and "closest: training" in err


# ---------------------------------------------------------------------- show
def test_show_prints_the_reference_page_values_and_latex(capsys):
    code, out, _ = run(capsys, "show", NAME)
    assert code == 0
    assert out.startswith(f"{NAME}: Per-example FP32 gradients")
    for heading in ("Equation\n--------", "Assumptions", "Excludes", "Derivation", "References", "Inputs", "Outputs", "Values\n------", "LaTeX\n-----"):
        assert heading in out
    assert "per_batch[GPT-2] = 1.536×10¹² B" in out
    assert r"= 1.536\,\mathrm{TB}    (GPT-2)" in out


def test_show_markdown(capsys):
    code, out, _ = run(capsys, "show", NAME, "--markdown")
    assert code == 0 and out.startswith("# PerExampleGradientScenario\n") and "## Methods" in out


def test_show_a_scenario_with_two_keys_and_methods(capsys):
    code, out, _ = run(capsys, "show", "AlphaBetaHdrNdrSmallMessage")
    assert code == 0 and "times[NDR][small] = 1.7×10⁻⁶ s" in out     # 1.5 us + 10 kB / 50 GB/s
    code, out, _ = run(capsys, "show", "Gpt3CheckpointInterval10K")
    assert code == 0 and "waste_at(...): a method of tau" in out


def test_show_unknown_scenario_suggests_the_closest(capsys):
    err = fails(capsys, "show", "DpSgdPerExampleGradient")
    assert "NAME: unknown scenario or scenario type 'DpSgdPerExampleGradient'" in err and "closest: DpSgdPerExampleGradients" in err


# ---------------------------------------------------------------------- eval
def test_eval_text_and_json(capsys):
    code, out, _ = run(capsys, "eval", NAME)
    assert code == 0 and "per_example[KWS] = 800000 B" in out
    code, out, _ = run(capsys, "eval", NAME, "--json")
    data = json.loads(out)
    assert data["scenario"] == NAME and data["key"] is None
    assert data["values"]["per_batch"]["GPT-2"] == {"value": 1.5e9 * 4 * 256, "unit": "B"}
    assert data["values"]["per_example"]["KWS"] == {"value": 200_000 * 4, "unit": "B/sample"}


def test_eval_model_and_set(capsys):
    code, out, _ = run(capsys, "eval", NAME, "--model", "GPT-2", "--set", "batch_size=1024", "--set", "bytes_per_param=2 B/param", "--json")
    data = json.loads(out)
    assert code == 0 and data["key"] == "GPT-2" and data["set"] == {"batch_size": 1024, "bytes_per_param": "2 B/param"}
    assert data["values"]["per_batch"] == {"value": 1.5e9 * 2 * 1024, "unit": "B"}
    code, out, _ = run(capsys, "eval", "GpuFailuresTraining10K", "--set", "n_components=20000")
    assert code == 0 and "interval = 2.5 h" in out                    # 50,000 h / 20,000


def test_eval_scenario_without_keys_as_json(capsys):
    code, out, _ = run(capsys, "eval", "GPipeFourStageWalkthrough", "--json")
    values = json.loads(out)["values"]
    assert values["bubble"] == {"value": pytest.approx(3 / 7), "unit": "1"}
    assert "microbatches_for_bubble" not in values                   # a method of an argument


@pytest.mark.parametrize("argv,message", [
    (["eval", "NoSuchScenario"], "NAME: unknown scenario 'NoSuchScenario'"),
    (["eval", NAME, "--set", "batch_size"], "--set: 'batch_size' is not input=value"),
    (["eval", NAME, "--set", "=3"], "--set: '=3' is not input=value"),
    (["eval", NAME, "--set", "batch_sise=8"], "--set: unknown input 'batch_sise'; inputs: models, batch_size, bytes_per_param (closest: batch_size)"),
    (["eval", NAME, "--set", "batch_size=0"], "--set: batch_size: expected a value in (0, inf)"),
    (["eval", NAME, "--set", "batch_size=2.5"], "--set: batch_size: expected a whole number"),
    (["eval", NAME, "--set", "bytes_per_param=4 s"], "--set: bytes_per_param"),
    (["eval", NAME, "--model", "GPT-3"], "--model: unknown model key 'GPT-3'; known: KWS, GPT-2 (closest: GPT-2)"),
    (["eval", "GPipeFourStageWalkthrough", "--model", "x"], "--model: scenario GPipeFourStageWalkthrough has no keyed inputs"),
    (["eval"], "the following arguments are required: NAME"),
])
def test_eval_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- latex
def test_latex_fragment(capsys):
    code, out, _ = run(capsys, "latex", NAME)
    assert code == 0 and out.splitlines()[0] == f"% mlsysim-symbolic: {NAME} (PerExampleGradientScenario)"
    assert r"M_{\mathrm{batch}} &= M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B} \cdot 256 = 1.536\,\mathrm{TB} & & \text{(GPT-2)}" in out
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
    target = tmp_path / "paper.tex"
    code, out, err = run(capsys, "latex", "--document", "-o", str(target))
    assert code == 0 and out == "" and f"wrote {target}" in err
    assert target.read_text().count(r"\section{") == len(catalog().types)


@pytest.mark.parametrize("argv,message", [
    (["latex"], "NAME: a scenario name is required unless --document"),
    (["latex", "Nope"], "NAME: unknown scenario or scenario type 'Nope'"),
    (["latex", "--document", "--family", "servng"], "--family: unknown family 'servng'; known: distributed, dp, papers, reliability, serving, training (closest: serving)"),
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
    assert code == 0 and len(out.splitlines()) == 3 and all("+1.0000" in line for line in out.splitlines())
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
    (["sensitivity", NAME, "per_bach"], "OUTPUT: DpSgdPerExampleGradients has no output 'per_bach'; outputs: per_example, per_batch (closest: per_batch"),
    (["sensitivity", "Gpt3CheckpointInterval10K", "waste_at"], "OUTPUT: waste_at is a method of tau"),
    (["sensitivity", NAME, "per_batch", "--model", "GPT-3"], "--model: unknown models key 'GPT-3'"),
    (["sensitivity", "GPipeFourStageWalkthrough", "bubble", "--model", "x"], "--model: output bubble is not keyed"),
    (["sensitivity", NAME], "the following arguments are required: OUTPUT"),
])
def test_sensitivity_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- solve
def test_solve_text_and_json(capsys):
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "GPT-2")
    assert code == 0 and out.startswith("batch_size = 13  (exact 13.33 sample; per_batch <= 80 GB at GPT-2; closed form B = M_batch/(P*b)")
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "80 GB", "--json")
    data = json.loads(out)
    assert data["keys"] == ["KWS"]                                               # without --model: the first key
    assert data["value"] == 100_000                                               # 80e9 B / (200,000 x 4 B) per example
    assert data["exact"] == {"value": pytest.approx(1e5), "unit": "sample"} and data["method"] == "closed form"
    assert data["target"] == {"value": 80, "unit": "GB"} and data["expression"] == "M_batch/(P*b)"


def test_solve_sense_and_bare_number_target(capsys):
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "1 TB", "--model", "GPT-2", "--sense", ">=", "--json")
    assert code == 0 and json.loads(out)["value"] == 167                         # ceil(1e12 / 6e9) = ceil(166.7)
    code, out, _ = run(capsys, "solve", NAME, "per_batch", "batch_size", "6e10", "--model", "GPT-2", "--json")
    assert json.loads(out)["value"] == 10                                        # 6e10 B / 6e9 B per example
    code, out, _ = run(capsys, "solve", "GpuFailuresTraining10K", "interval", "n_components", "2.5", "--json")
    data = json.loads(out)
    assert data["value"] == 20_000 and data["target"]["unit"] == "h"             # 50,000 h / 2.5 h


@pytest.mark.parametrize("argv,message", [
    (["solve", "Nope", "per_batch", "batch_size", "80 GB"], "NAME: unknown scenario 'Nope'"),
    (["solve", NAME, "per_bach", "batch_size", "80 GB"], "OUTPUT: DpSgdPerExampleGradients has no output 'per_bach'"),
    (["solve", NAME, "per_batch", "batch_sise", "80 GB"], "INPUT: per_batch does not depend on 'batch_sise'; its inputs: batch_size, bytes_per_param, parameters (closest: batch_size)"),
    (["solve", NAME, "per_batch", "batch_size", "80 s"], "TARGET: per_batch is in B ([information]); got '80 s' ([time])"),
    (["solve", NAME, "per_batch", "batch_size", "80 furlongs"], "TARGET: unknown unit 'furlongs'"),
    (["solve", NAME, "per_batch", "batch_size", "lots"], "TARGET: 'lots' is not a quantity"),
    (["solve", NAME, "per_batch", "batch_size", "inf"], "TARGET: must be finite"),
    (["solve", NAME, "per_batch", "batch_size", "80 GB", "--model", "GPT-3"], "--model: unknown models key 'GPT-3'"),
    (["solve", NAME, "per_batch", "batch_size", "80 GB", "--sense", "<"], "argument --sense: invalid choice: '<'"),
    (["solve", "Gpt3CheckpointInterval10K", "waste_at", "tau", "0.1"], "OUTPUT: waste_at is a method of tau; give --arg tau=VALUE"),
    (["solve", NAME, "per_batch"], "the following arguments are required: INPUT, TARGET"),
])
def test_solve_errors(capsys, argv, message):
    assert message in fails(capsys, *argv)


# ---------------------------------------------------------------------- docs
def test_docs(capsys, tmp_path):
    code, out, _ = run(capsys, "docs", str(tmp_path / "ref"))
    assert code == 0 and out.startswith(f"wrote {len(catalog().types)} pages and ")
    assert (tmp_path / "ref" / "index.md").exists() and (tmp_path / "ref" / "PerExampleGradientScenario.md").exists()
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
    proc = subprocess.run(f"'{_script()}' list | head -1", shell=True, capture_output=True, text=True, timeout=120)
    assert proc.stdout.startswith("distributed") and "Traceback" not in proc.stderr


def test_every_named_scenario_shows_evaluates_and_prints_latex(capsys):
    for key in catalog().declared:
        for argv in (["show", key], ["eval", key, "--json"], ["latex", key, "--siunitx"]):
            code, out, err = run(capsys, *argv)
            assert code == 0 and err == "", (argv, err)
            if argv[0] == "eval":
                assert json.loads(out)["scenario"] == key


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
    assert code == 0 and f"waste_at = {write / 600 + 600 / (2 * mtbf):.6g}" in out
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
    (["eval", CKPT, "--arg", "tua=600s"], "--arg: unknown argument 'tua'; arguments: tau, factor (closest: tau)"),
    (["eval", CKPT, "--arg", "tau"], "--arg: 'tau' is not argument=value (e.g. --arg tau=600s)"),
    (["eval", CKPT, "--arg", "tau=600 B"], "--arg: "),
    (["eval", NAME, "--arg", "tau=1"], f"--arg: unknown argument 'tau'; {'PerExampleGradientScenario'} has no method outputs"),
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
    assert code == 0 and out.startswith(f"{copy}: 64 types, 159 named scenarios")     # the copy alone is sound
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
