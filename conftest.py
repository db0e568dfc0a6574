"""Hooks for every test of the repository, the package's doctests included (a conftest under ``tests/`` does not
reach ``mlsysim_symbolic/``).

- Tests that compile LaTeX carry the marker ``tex`` (doctests too: those that call ``compile_pdf``).  Without
  pdflatex they skip, saying how to run them; with ``MLSYSIM_REQUIRE_TEX=1`` (``.ci/run``'s second phase) they
  run and a skip of one of them is a failure.  ``python -m pytest -m tex`` runs them alone.  Tests that render the
  docs site in a headless browser carry ``browser`` and are handled alike (Chromium; ``MLSYSIM_REQUIRE_BROWSER=1``).
- Tests marked ``thorough`` (the same checks over more inputs: more property examples, the mutation test over
  every type, the command line over every named scenario) are left out of the README's command so that it runs in
  minutes; ``python -m pytest -m thorough`` runs them alone (``.ci/run`` does, after the README's command), and
  ``--thorough`` adds them to any run.
- Collecting the package's doctests builds no scenario type (see :func:`pytest_make_collect_report`); what the
  collection left imported and built is recorded for ``tests/test_collection.py`` (fixture ``collection_probe``).
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from dataclasses import dataclass

import pytest
from _pytest.doctest import DoctestItem, DoctestModule

#: Text of a doctest that needs a TeX engine: it compiles a document.
TEX_DOCTEST = "compile_pdf("
NEEDS_TEX = ("pdflatex is not installed, so the LaTeX compile tests (marker tex) skip: install TeX "
             "(Debian: apt-get install texlive-latex-base texlive-latex-recommended texlive-science), "
             "then run them alone with `python -m pytest -m tex`, or run .ci/run")


@dataclass(frozen=True)
class SystemNeed:
    """Tests that need a program of the system (marker ``marker``): they skip without it, saying how to install it,
    unless ``env`` is ``1`` (``.ci/run`` sets it where it installs the program), when a skip fails."""

    marker: str
    programs: tuple[str, ...]
    env: str
    how: str

    def present(self) -> bool:
        return any(shutil.which(program) for program in self.programs)

    def required(self) -> bool:
        return os.environ.get(self.env) == "1"


NEEDS = (
    SystemNeed("tex", ("pdflatex",), "MLSYSIM_REQUIRE_TEX", NEEDS_TEX),
    SystemNeed("browser", ("chromium", "chromium-browser", "google-chrome"), "MLSYSIM_REQUIRE_BROWSER",
               "no Chromium is installed, so the tests that render the docs site in a headless browser (marker browser) "
               "skip: install it (Debian: apt-get install chromium), then run them with `python -m pytest -m browser`, "
               "or run .ci/run"),
)


THOROUGH = "thorough"


def pytest_addoption(parser):
    parser.addoption("--thorough", action="store_true", default=False,
                     help="also run the tests marked thorough (left out unless this is given or -m names them)")


def pytest_configure(config):
    """A ``-m`` expression that names the ``thorough`` tests selects them as ``--thorough`` does: afterwards
    ``config.getoption("--thorough")`` alone says whether this run includes them (``tests/conftest.py`` reads it)."""
    if THOROUGH in (config.getoption("-m") or ""):
        config.option.thorough = True


def tex_required() -> bool:
    return NEEDS[0].required()


def pytest_collection_modifyitems(config, items):
    """Mark the doctests that compile LaTeX ``tex``; without pdflatex (and unless it is required) skip every ``tex`` item.
    Leave out the ``thorough`` tests unless the run asks for them (deselected, as ``-m`` deselects)."""
    if not config.getoption("--thorough"):
        left = [item for item in items if item.get_closest_marker(THOROUGH) is not None]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if item.get_closest_marker(THOROUGH) is None]
    for item in items:
        if isinstance(item, DoctestItem) and any(TEX_DOCTEST in example.source for example in item.dtest.examples):
            item.add_marker(pytest.mark.tex)
    for need in NEEDS:
        if not need.present() and not need.required():
            skip = pytest.mark.skip(reason=need.how)
            for item in items:
                if item.get_closest_marker(need.marker) is not None:
                    item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With ``MLSYSIM_REQUIRE_TEX=1`` a ``tex`` test that skips (for whatever reason) fails: TeX is there to be used
    (and so for each of :data:`NEEDS`)."""
    outcome = yield
    report = outcome.get_result()
    for need in NEEDS:
        if report.skipped and need.required() and item.get_closest_marker(need.marker) is not None:
            report.outcome = "failed"
            report.longrepr = f"{item.nodeid} skipped although {need.env}=1 requires it to run: {report.longrepr}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """pytest looks for fixtures in every name ``dir()`` gives of a module whose doctests it collects; the package
    and ``mlsysim_symbolic.scenarios`` list every scenario type in their ``dir()`` (for tab completion), and reading
    one builds it: all 300-odd types were built while collecting.  While a package module's doctests are collected,
    its ``dir()`` gives the names it holds; the types build when a test uses them."""
    path = getattr(collector, "path", None)
    if not (isinstance(collector, DoctestModule) and path is not None and path.parent.name == "mlsysim_symbolic"):
        yield
        return
    module = importlib.import_module("mlsysim_symbolic" if path.stem == "__init__" else f"mlsysim_symbolic.{path.stem}")
    listing = module.__dict__.get("__dir__")
    if listing is None:
        yield
        return
    module.__dir__ = lambda: sorted(vars(module))
    try:
        yield
    finally:
        module.__dir__ = listing


#: What this process's collection left behind (see :func:`pytest_collection_finish`), printed too when this is 1.
PRINT_PROBE = "MLSYSIM_PRINT_COLLECTION_PROBE"
#: (the key of the record in the config's stash)
_PROBE: pytest.StashKey[dict] = pytest.StashKey()


def pytest_collection_finish(session):
    """Record, as collection ends, whether mlsysim was imported, how many scenario types were built and how many
    items were collected (each pytest-xdist worker collects the whole run itself).  A catalog module never imported
    built nothing."""
    catalog = sys.modules.get("mlsysim_symbolic.catalog")
    probe = {"mlsysim": "mlsysim" in sys.modules, "built": len(catalog.catalog().built) if catalog is not None else 0,
             "items": len(session.items)}
    session.config.stash[_PROBE] = probe
    if os.environ.get(PRINT_PROBE) == "1":   # a child collection that tests/test_collection.py reads
        print("PROBE " + " ".join(f"{k}={v}" for k, v in probe.items()))


@pytest.fixture(scope="session")
def collection_probe(request) -> dict:
    """What this process's collection left behind: ``mlsysim`` imported (bool), ``built`` types, ``items``."""
    return request.config.stash[_PROBE]
