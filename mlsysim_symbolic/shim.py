"""mlsysim's module paths answered by this package: code written for mlsysim 0.3.0 runs on ours unchanged.

``import mlsysim_symbolic as mlsysim`` covers ``mlsysim.Models``, ``mlsysim.Hardware``, the solvers ...; code that
imports mlsysim's submodules by their paths (``from mlsysim.engine.evaluation import SystemEvaluator``, its README's
first lines) needs those paths too.  :data:`MODULES` maps each path of mlsysim that has a counterpart here to our
module; :func:`as_mlsysim` puts them in ``sys.modules`` for the length of a ``with`` block and hides mlsysim's own
modules meanwhile (a path of mlsysim with no counterpart raises ``ModuleNotFoundError``, never loads mlsysim's
module nor one of ours under mlsysim's name); on leaving, ``sys.modules`` is as it was.  The paths are for
``import`` statements (``from mlsysim.core.units import GB``, ``import mlsysim.show as show``): our modules are not
given each other as attributes, so ``mlsysim.engine.evaluation`` spelled as attributes of ``mlsysim`` is not there.

>>> with as_mlsysim():
...     import mlsysim
...     from mlsysim.core.units import resolve_precision
...     mlsysim.__name__, resolve_precision("FP16")
('mlsysim_symbolic', ('fp16', <Quantity(2, 'byte')>))
>>> with as_mlsysim():
...     import mlsysim.engine.pipeline
Traceback (most recent call last):
ModuleNotFoundError: mlsysim_symbolic has no counterpart of mlsysim's module 'mlsysim.engine.pipeline' (its counterparts: mlsysim, mlsysim.core, mlsysim.core.units, mlsysim.engine, mlsysim.engine.evaluation, mlsysim.fmt, mlsysim.fmt.core, mlsysim.show, mlsysim.solvers)
"""

from __future__ import annotations

import importlib
import importlib.abc
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["MODULES", "as_mlsysim"]

#: mlsysim 0.3.0's module path -> the module of ours that answers it (a package's path maps to the module holding
#: the names mlsysim's code reads from it: ``mlsysim.engine``'s solvers and ``SystemEvaluator`` are our solvers';
#: ``mlsysim.core.units``' constants, unit names, ``Q_`` and ``resolve_precision`` are in our constants module).
MODULES: dict[str, str] = {
    "mlsysim": "mlsysim_symbolic",
    "mlsysim.core": "mlsysim_symbolic.constants",
    "mlsysim.core.units": "mlsysim_symbolic.constants",
    "mlsysim.engine": "mlsysim_symbolic.solvers",
    "mlsysim.engine.evaluation": "mlsysim_symbolic.solvers.applications",
    "mlsysim.fmt": "mlsysim_symbolic.formatters",
    "mlsysim.fmt.core": "mlsysim_symbolic.formatters.values",
    "mlsysim.show": "mlsysim_symbolic.formatters.show",
    "mlsysim.solvers": "mlsysim_symbolic.solvers",
}

_ROOT = "mlsysim"


def _is_mlsysims(name: str) -> bool:
    return name == _ROOT or name.startswith(_ROOT + ".")


class _NoCounterpart(importlib.abc.MetaPathFinder):
    """Refuses every path of mlsysim left out of :data:`MODULES` while the shim is on."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        if _is_mlsysims(fullname) and fullname not in MODULES:
            raise ModuleNotFoundError(
                f"mlsysim_symbolic has no counterpart of mlsysim's module {fullname!r} "
                f"(its counterparts: {', '.join(sorted(MODULES))})", name=fullname)
        return None


@contextmanager
def as_mlsysim() -> Iterator[ModuleType]:
    """``mlsysim`` and its mapped submodules are ours inside the block (yields our top-level module); mlsysim's own
    modules, loaded or not, are out of reach until it ends."""
    answers = {path: importlib.import_module(ours) for path, ours in MODULES.items()}   # before anything is moved
    saved = {name: module for name, module in sys.modules.items() if _is_mlsysims(name)}
    finder = _NoCounterpart()
    for name in saved:
        del sys.modules[name]
    sys.modules.update(answers)
    sys.meta_path.insert(0, finder)
    try:
        yield sys.modules[_ROOT]
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if _is_mlsysims(n)]:
            del sys.modules[name]
        sys.modules.update(saved)
