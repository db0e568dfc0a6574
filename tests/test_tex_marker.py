"""The LaTeX compile tests without TeX and with it (the repository's ``conftest.py``): a small project with that
conftest, a test marked ``tex`` and a doctest that calls ``compile_pdf``, run by pytest in a child process on a
PATH whose only TeX engine is the one the case puts there (a stand-in script, not TeX)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"     # the repository's: it holds the tex hooks

MODULE = '''
import pytest


def compile_pdf(source):
    """Stands in for paper.compile_pdf: fails the way it does without an engine.

    >>> compile_pdf("x")
    'paper.pdf'
    """
    import shutil
    if shutil.which("pdflatex") is None:
        raise RuntimeError("pdflatex is not installed")
    return "paper.pdf"


def plain():
    """Needs no TeX.

    >>> 1 + 1
    2
    """


@pytest.mark.tex
def test_compiles():
    assert compile_pdf("x") == "paper.pdf"


@pytest.mark.tex
def test_skips_itself():
    pytest.skip("a skip of its own")


def test_without_tex():
    assert plain() is None
'''

DOCTEST = "test_sample.py::test_sample.compile_pdf"
PLAIN_DOCTEST = "test_sample.py::test_sample.plain"
COMPILES, SKIPS, WITHOUT = "test_sample.py::test_compiles", "test_sample.py::test_skips_itself", "test_sample.py::test_without_tex"


def _run(tmp_path: Path, *, engine: bool, require: bool, args: tuple[str, ...] = ()) -> tuple[int, str]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text(CONFTEST.read_text(encoding="utf-8"), encoding="utf-8")
    (project / "test_sample.py").write_text(MODULE, encoding="utf-8")
    (project / "pytest.ini").write_text(textwrap.dedent("""
        [pytest]
        addopts = --doctest-modules -p no:cacheprovider
        markers = tex: compiles LaTeX
    """), encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if engine:
        stand_in = bin_dir / "pdflatex"
        stand_in.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        stand_in.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "MLSYSIM_REQUIRE_TEX"}
    env["PATH"] = str(bin_dir)            # no other folder: no TeX engine of the machine is found
    if require:
        env["MLSYSIM_REQUIRE_TEX"] = "1"
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-rs", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def _outcomes(output: str) -> dict[str, str]:
    """``{test id: PASSED | FAILED | SKIPPED | ERROR}`` from the verbose lines."""
    return dict(re.findall(r"^(\S+::\S+) (PASSED|FAILED|SKIPPED|ERROR)", output, re.MULTILINE))


def test_without_tex_the_compile_tests_and_doctests_skip_saying_how_to_run_them(tmp_path):
    code, output = _run(tmp_path, engine=False, require=False)
    assert code == 0, output
    assert _outcomes(output) == {DOCTEST: "SKIPPED", PLAIN_DOCTEST: "PASSED", COMPILES: "SKIPPED", SKIPS: "SKIPPED",
                                 WITHOUT: "PASSED"}, output
    assert "texlive-latex-base" in output and "python -m pytest -m tex" in output


def test_with_tex_the_doctest_that_compiles_runs_as_a_tex_test(tmp_path):
    code, output = _run(tmp_path, engine=True, require=False, args=("-m", "tex"))
    assert code == 0, output
    assert _outcomes(output) == {DOCTEST: "PASSED", COMPILES: "PASSED", SKIPS: "SKIPPED"}, output   # not required: a skip stays


def test_with_tex_required_a_tex_test_that_skips_fails(tmp_path):
    code, output = _run(tmp_path, engine=True, require=True, args=("-m", "tex"))
    assert code == 1, output
    assert _outcomes(output) == {DOCTEST: "PASSED", COMPILES: "PASSED", SKIPS: "FAILED"}, output
    assert "skipped although MLSYSIM_REQUIRE_TEX=1 requires it to run" in output


def test_with_tex_required_but_missing_the_compile_tests_fail(tmp_path):
    code, output = _run(tmp_path, engine=False, require=True, args=("-m", "tex"))
    assert code == 1, output
    assert _outcomes(output) == {DOCTEST: "FAILED", COMPILES: "FAILED", SKIPS: "FAILED"}, output


@pytest.mark.parametrize("engine", [False, True])
def test_not_tex_selects_everything_else(engine, tmp_path):
    code, output = _run(tmp_path, engine=engine, require=False, args=("-m", "not tex"))
    assert code == 0, output
    assert _outcomes(output) == {PLAIN_DOCTEST: "PASSED", WITHOUT: "PASSED"}, output
