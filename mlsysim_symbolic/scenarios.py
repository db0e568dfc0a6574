"""The scenario-type classes of the catalog, importable by name (each built on first import).

>>> from mlsysim_symbolic.scenarios import PerExampleGradientScenario
>>> PerExampleGradientScenario.__name__
'PerExampleGradientScenario'
"""

from __future__ import annotations

from typing import Any

from .catalog import catalog


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    cat = catalog()
    if name in cat.classes:
        return cat.classes[name]
    raise AttributeError(f"module 'mlsysim_symbolic.scenarios' has no scenario type {name!r}")


def __dir__() -> list[str]:
    """The type names, from the catalog's metadata (nothing is built)."""
    return sorted(catalog().info)
