"""Test-session settings.

- The catalog's structure cache lives in a temporary folder, not the user's cache.
- Tests that compile LaTeX carry the marker ``tex`` (doctests too: those that call ``compile_pdf``).  Without
  pdflatex they skip, saying how to run them; with ``MLSYSIM_REQUIRE_TEX=1`` (``.ci/run``'s second phase) they
  run and a skip of one of them is a failure.  ``python -m pytest -m tex`` runs them alone.
- The reference tests' count of values compared with mlsysim 0.3.0 is printed at the end.
"""

import os
import shutil
import sys
import tempfile

import pytest

_SAVED: dict[str, str | None] = {}

#: Text of a doctest that needs a TeX engine: it compiles a document.
TEX_DOCTEST = "compile_pdf("
NEEDS_TEX = ("pdflatex is not installed, so the LaTeX compile tests (marker tex) skip: install TeX "
             "(Debian: apt-get install texlive-latex-base texlive-latex-recommended texlive-science), "
             "then run them alone with `python -m pytest -m tex`, or run .ci/run")


def tex_required() -> bool:
    return os.environ.get("MLSYSIM_REQUIRE_TEX") == "1"


def pytest_collection_modifyitems(config, items):
    """Mark the doctests that compile LaTeX ``tex``; without pdflatex (and unless it is required) skip every ``tex`` item."""
    from _pytest.doctest import DoctestItem

    for item in items:
        if isinstance(item, DoctestItem) and any(TEX_DOCTEST in example.source for example in item.dtest.examples):
            item.add_marker(pytest.mark.tex)
    if shutil.which("pdflatex") is None and not tex_required():
        skip = pytest.mark.skip(reason=NEEDS_TEX)
        for item in items:
            if item.get_closest_marker("tex") is not None:
                item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With ``MLSYSIM_REQUIRE_TEX=1`` a ``tex`` test that skips (for whatever reason) fails: TeX is there to be used."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and tex_required() and item.get_closest_marker("tex") is not None:
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid} skipped although MLSYSIM_REQUIRE_TEX=1 requires it to run: {report.longrepr}"


def pytest_configure(config):
    """Before collection (test modules read the catalog at import): thousands of generated derivation files
    must not fill ``~/.cache``; child processes (CLI, notebooks) inherit the setting."""
    _SAVED["old"] = os.environ.get("MLSYSIM_SYMBOLIC_CACHE")
    _SAVED["folder"] = tempfile.mkdtemp(prefix="mlsysim-symbolic-cache-")
    os.environ["MLSYSIM_SYMBOLIC_CACHE"] = _SAVED["folder"]


def pytest_unconfigure(config):
    if _SAVED.get("old") is None:
        os.environ.pop("MLSYSIM_SYMBOLIC_CACHE", None)
    else:
        os.environ["MLSYSIM_SYMBOLIC_CACHE"] = _SAVED["old"]
    if _SAVED.get("folder"):
        shutil.rmtree(_SAVED["folder"], ignore_errors=True)


# ---------------------------------------------------------------------- values compared with mlsysim 0.3.0
_WORKERS_COMPARED: list[int] = []


def _compared_here() -> int | None:
    counting = sys.modules.get("reference.counting")
    return None if counting is None else counting.COMPARED["values"]


def pytest_sessionfinish(session):
    """A pytest-xdist worker hands its count to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None and _compared_here() is not None:
        workeroutput["mlsysim_compared"] = _compared_here()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """(pytest-xdist, controller) a worker's count."""
    count = getattr(node, "workeroutput", {}).get("mlsysim_compared")
    if count is not None:
        _WORKERS_COMPARED.append(count)



def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """How many values the reference tests compared with mlsysim 0.3.0 (``tests/reference/counting.py``)."""
    here = _compared_here()
    if here is None and not _WORKERS_COMPARED:
        return
    total = (here or 0) + sum(_WORKERS_COMPARED)
    terminalreporter.write_line(f"{total:,} values compared with mlsysim 0.3.0")
