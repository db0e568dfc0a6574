"""Test-session settings: the catalog's structure cache lives in a temporary folder, not the user's cache."""

import os
import shutil
import tempfile

_SAVED: dict[str, str | None] = {}


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
