"""mlsysim_symbolic: the back-of-envelope equations of ML systems as SymPy trees with units.

One declaration of a scenario gives numbers with units, LaTeX and sensitivities:

>>> from mlsysim_symbolic import Scenarios
>>> scenario = Scenarios.DpSgdPerExampleGradients
>>> value = scenario.per_batch(next(iter(scenario.models)))
>>> str(value.units)
'B'
>>> scenario.per_batch("GPT-2")
<Quantity(1.536e+12, 'byte')>
"""

from __future__ import annotations

from typing import Any

from .catalog import Scenarios, load_derivations
from .errors import (
    DerivationError,
    DimensionError,
    EquationError,
    InputError,
    MissingInputError,
    MlsysimSymbolicError,
    UnexpectedNameError,
    UnitError,
    UnknownNameError,
)
from .registry import hardware, workloads
from .scenario import Scenario
from .units import Q_, ureg

__version__ = "0.1.0"

__all__ = [
    "Q_",
    "DerivationError",
    "DimensionError",
    "EquationError",
    "InputError",
    "MissingInputError",
    "MlsysimSymbolicError",
    "Scenario",
    "Scenarios",
    "UnexpectedNameError",
    "UnitError",
    "UnknownNameError",
    "hardware",
    "load_derivations",
    "ureg",
    "workloads",
]


def __getattr__(name: str) -> Any:
    """Scenario-type classes (``PerExampleGradientScenario`` ...) load with the catalog on first use."""
    if name.startswith("__"):
        raise AttributeError(name)
    from .catalog import catalog

    classes = catalog().classes
    if name in classes:
        return classes[name]
    raise AttributeError(f"module 'mlsysim_symbolic' has no attribute {name!r}")
