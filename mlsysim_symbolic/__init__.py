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

import sys
from typing import Any

from .catalog import Scenarios, load_derivations
from .catalog import catalog as _shipped
from .errors import (
    DerivationError,
    DimensionError,
    EquationError,
    FloatRangeError,
    FrozenEntryError,
    InputError,
    MissingInputError,
    MlsysimSymbolicError,
    UnexpectedNameError,
    UnitError,
    UnknownNameError,
    WorkloadFieldError,
    WorkloadKindError,
)
from .output_ref import OutputRef
from .registry import grids, hardware, workloads
from .scenario import Scenario
from .units import Q_, ureg

__version__ = "0.1.0"

__all__ = [
    "Q_",
    "DerivationError",
    "DimensionError",
    "Hardware",
    "EquationError",
    "FloatRangeError",
    "FrozenEntryError",
    "InputError",
    "MissingInputError",
    "MlsysimSymbolicError",
    "Models",
    "OutputRef",
    "Scenario",
    "Scenarios",
    "Systems",
    "UnexpectedNameError",
    "UnitError",
    "UnknownNameError",
    "WorkloadFieldError",
    "WorkloadKindError",
    "grids",
    "hardware",
    "load_derivations",
    "types",
    "ureg",
    "workloads",
]
_STATIC_ALL = __all__
_NAMESPACES = frozenset({"Hardware", "Infrastructure", "Models", "Systems", "Fleet", "NetworkFabric", "Node", "Workload", "TransformerWorkload", "SparseTransformerWorkload",
                         "CNNWorkload", "SSMWorkload", "DiffusionWorkload", "EmbodiedWorkload", "Engine"})
#: mlsysim's other top-level names that a module of ours holds: name -> that module (imported on first use).
_ELSEWHERE = {"resolve_precision": "constants", "normalize_precision": "constants", "MarkdownStr": "formatters.markdown"}
del __all__   # computed on access by __getattr__: it also lists the type names (from metadata, nothing built)


def types(family: str | None = None) -> list[type[Scenario]]:
    """The scenario-type classes of the catalog (of one family when given), built.

    >>> import mlsysim_symbolic
    >>> [cls.__name__ for cls in mlsysim_symbolic.types("dp")][:2]
    ['GhostClippingMemoryScenario', 'MixedGhostClippingScenario']
    """
    cat = _shipped()
    if family is not None and family not in cat.families:
        raise UnknownNameError("family", family, sorted(cat.families))
    names = list(cat.info) if family is None else cat.families[family]
    return [cat.classes[name] for name in names]


def __getattr__(name: str) -> Any:
    """``__all__`` (the exports, the ``fmt_*`` formatters and the type names, from metadata); a type class, a
    ``calc_*`` function of mlsysim's function face (:mod:`.functions`) or a ``fmt_*`` formatter
    (:mod:`.formatters`), built on first use, or one of mlsysim's constants and unit names (:mod:`.constants`:
    ``BYTES_FP16``, ``GB``) from this package's registry."""
    if name == "__all__":
        from .formatters.names import FORMATTERS

        return [*_STATIC_ALL, *FORMATTERS, *_shipped().info]
    if name.startswith("__"):
        raise AttributeError(name)
    if name in _NAMESPACES:   # mlsysim's registry namespaces and workload classes: the solver layer, when first named
        from .solvers import __name__ as solvers  # imports the subpackage (no attribute lookup on this module)

        return getattr(sys.modules[solvers], name)
    if name.startswith("calc_"):   # mlsysim's function face: the tables are read, and the function built, on first use
        from .functions import function, function_names

        if name in function_names():
            return function(name)
        raise AttributeError(f"module 'mlsysim_symbolic' has no attribute {name!r}")
    if name.startswith("fmt_"):   # mlsysim's formatters: the formatter's module is imported on first use
        from .formatters.names import FORMATTERS

        if name in FORMATTERS:
            from . import formatters

            return getattr(formatters, name)
        raise AttributeError(f"module 'mlsysim_symbolic' has no attribute {name!r}")
    if name in _ELSEWHERE:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_ELSEWHERE[name]}"), name)
    from .constants import constant, constant_names, unit, unit_names  # a small table, read on first use

    if name in constant_names():
        return constant(name)
    if name in unit_names():
        return unit(name)
    classes = _shipped().classes
    if name in classes:
        return classes[name]
    raise AttributeError(f"module 'mlsysim_symbolic' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the ``fmt_*`` formatters', the type names (from metadata: nothing is built), and mlsysim's
    constants and unit names."""
    from .constants import constant_names, unit_names
    from .formatters.names import FORMATTERS

    return sorted({*globals(), *FORMATTERS, *_shipped().info, *constant_names(), *unit_names(), *_ELSEWHERE})
