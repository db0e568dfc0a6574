"""The scenario-type classes of the catalog, importable by name.

>>> from mlsysim_symbolic.scenarios import PerExampleGradientScenario
>>> PerExampleGradientScenario.__name__
'PerExampleGradientScenario'
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    from .catalog import catalog

    classes = catalog().classes
    if name in classes:
        return classes[name]
    raise AttributeError(f"module 'mlsysim_symbolic.scenarios' has no scenario type {name!r}")


def __dir__() -> list[str]:
    from .catalog import catalog

    return sorted(catalog().classes)
