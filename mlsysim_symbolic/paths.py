"""Where the catalog's data files are: the ``derivations/`` folder.

In a source checkout it is the top-level ``derivations/`` folder; in an installed
wheel it is shipped as the package ``mlsysim_symbolic.derivations``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def derivations_dir() -> Path:
    """The folder holding ``*.toml`` derivation files, workloads and hardware (found once: it does not move)."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "derivations", here / "derivations"):
        if (candidate / "workloads.toml").is_file():
            return candidate
    try:
        import importlib.resources as resources

        found = Path(str(resources.files("mlsysim_symbolic.derivations")))
        if found.is_dir():
            return found
    except (ModuleNotFoundError, TypeError):
        pass
    raise FileNotFoundError("cannot find the derivations/ folder of mlsysim_symbolic")
