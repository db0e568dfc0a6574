"""Test-session settings.

- The catalog's structure cache lives in a temporary folder, not the user's cache.
- (The LaTeX compile tests, marker ``tex``, are handled by the repository's top-level ``conftest.py``: its hooks
  reach the package's doctests too.)
- The reference tests' count of values compared with mlsysim 0.3.0 is printed at the end.
- The docs site (its four notebooks executed) is built once per session: ``tests/test_docs_site.py`` checks the site
  and ``tests/test_notebooks.py`` checks the executed notebooks (each notebook ran once, not twice: issue 30).  The
  README's command builds the reference pages of a sample of types; the thorough tier builds every page.
"""

import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import fcntl
except ImportError:   # Windows: each worker builds its own site
    fcntl = None

import pytest

_SAVED: dict[str, str | None] = {}

#: Set by the session that made the temporary cache folder: its pytest-xdist workers (which inherit the environment)
#: share that folder, so a plan one worker compiled is read back by the other instead of compiled again.
_OWNER = "MLSYSIM_SYMBOLIC_TEST_CACHE"


def pytest_configure(config):
    """Before collection (test modules read the catalog at import): thousands of generated derivation files
    must not fill ``~/.cache``; child processes (CLI, notebooks) inherit the setting."""
    shared = os.environ.get(_OWNER)
    if os.environ.get("PYTEST_XDIST_WORKER") and shared and os.environ.get("MLSYSIM_SYMBOLIC_CACHE") == shared:
        return   # a worker: the controller's folder, removed by the controller
    _SAVED["old"] = os.environ.get("MLSYSIM_SYMBOLIC_CACHE")
    _SAVED["folder"] = tempfile.mkdtemp(prefix="mlsysim-symbolic-cache-")
    os.environ["MLSYSIM_SYMBOLIC_CACHE"] = os.environ[_OWNER] = _SAVED["folder"]


def pytest_unconfigure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # a worker's objects all go as its process ends: frozen, they are left out of the interpreter's last
        # collections, which otherwise walk millions of SymPy nodes while the controller waits (7 s of the README
        # command's time on two cores)
        gc.freeze()
    if not _SAVED.get("folder"):
        return
    os.environ.pop(_OWNER, None)
    if _SAVED.get("old") is None:
        os.environ.pop("MLSYSIM_SYMBOLIC_CACHE", None)
    else:
        os.environ["MLSYSIM_SYMBOLIC_CACHE"] = _SAVED["old"]
    if _SAVED.get("folder"):
        shutil.rmtree(_SAVED["folder"], ignore_errors=True)


# ---------------------------------------------------------------------- the docs site, built once
@pytest.fixture(scope="session")
def kernel():
    """The ``python3`` kernelspec (ipykernel ships it in the environment; installed there if it is missing)."""
    pytest.importorskip("jupyter_client")
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        subprocess.run([sys.executable, "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"], check=True, capture_output=True)
    return "python3"


#: The README's command builds the docs site with the reference pages of every SITE_SAMPLE-th type (by name) and each
#: family's first, and every notebook; a run with the thorough tier (``-m thorough``, ``--thorough``) builds every page.
SITE_SAMPLE = 16


@pytest.fixture(scope="session")
def site_types(request):
    """The scenario types whose reference pages the session's docs site holds (sorted): a sample, or every type."""
    from mlsysim_symbolic.catalog import catalog

    cat = catalog()
    if request.config.getoption("--thorough"):   # (or -m naming the tier: the root conftest sets it)
        return sorted(cat.types)
    names = sorted(cat.types)
    first = {sorted(members)[0] for members in cat.families.values() if members}
    return sorted(set(names[::SITE_SAMPLE]) | first | {"PerExampleGradientScenario"})   # (the seed's type, which the pages' checks read)


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory, kernel, site_types):
    """``build_site`` of the repository: the reference pages of ``site_types``, and the notebooks executed top to
    bottom by nbclient (a cell that raises fails the build, so every test using this fixture fails).  Returns
    (folder, paths written)."""
    for name in ("nbformat", "nbconvert", "nbclient"):
        pytest.importorskip(name)
    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.docs import build_site

    types = None if len(site_types) == len(catalog().types) else site_types
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None or fcntl is None:
        out = tmp_path_factory.mktemp("site")
        return out, build_site(out, kernel_name=kernel, types=types)
    # under pytest-xdist the workers share one site: the first to get here builds it (the notebooks execute once),
    # the others wait on the lock and read the list of what it wrote.  The tests that read it are one xdist_group
    # (``--dist loadgroup`` in pyproject's addopts): one worker takes them all, so no other sits idle on the lock
    # while the notebooks run (a minute and a half on two cores)
    shared = tmp_path_factory.getbasetemp().parent
    out, written = shared / "site", shared / "site-written.json"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not written.exists():
            paths = build_site(out, kernel_name=kernel, types=types)
            written.write_text(json.dumps([str(p) for p in paths]))
    return out, [Path(p) for p in json.loads(written.read_text())]


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
