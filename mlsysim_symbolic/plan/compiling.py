"""Compiling plans, once per type: the compiled functions and plans kept for a scenario type (outside the frozen
type, in a :class:`TypeCaches` the plan layer owns), and the plan cache on disk that keeps definitions and function
source across processes.

>>> from mlsysim_symbolic import Scenarios
>>> planner = Scenarios.DpSgdPerExampleGradients.planner
>>> planner.compiled(planner.plan("per_batch"))(256, 1.5e9, 4)
1536000000000.0
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cached_property
from typing import Any

import sympy

from .. import plan_cache
from ..evaluate import compile_chain, scalar_namespace
from ..spec import ScenarioType
from .model import Plan


class TypeCaches:
    """What the plan layer keeps for one (frozen) scenario type, shared by every scenario of it: its plans by
    (output, choices, slack, presence signature) and its compiled trees; an analysis may keep more by its own key.

    >>> from mlsysim_symbolic import Scenarios
    >>> caches(Scenarios.DpSgdPerExampleGradients.type) is caches(Scenarios.DpSgdPerExampleGradients.type)
    True
    """

    __slots__ = ("plans", "compiled", "__weakref__")

    def __init__(self) -> None:
        self.plans: dict[Any, Any] = {}
        self.compiled: dict[Any, Callable[..., Any]] = {}

    def clear(self) -> None:
        """Forget every plan and compiled function (the next plan is made, or read from disk, again)."""
        self.plans.clear()
        self.compiled.clear()


#: id of a type -> (a weak reference to the type, its caches).  Keyed by id for speed (a solver call looks its type up:
#: a plain dict lookup, where a WeakKeyDictionary makes a weak reference each time), yet never by id alone: the entry
#: holds the type's weak reference, checked on every lookup, and is dropped when the type is (so an id reused by a
#: later object never finds it), and a dropped type takes its plans with it (one a test built).
_CACHES: dict[int, tuple[weakref.ReferenceType[ScenarioType], TypeCaches]] = {}


def caches(stype: ScenarioType) -> TypeCaches:
    """The plans and compiled functions kept for ``stype`` (made empty on first use)."""
    found = _CACHES.get(id(stype))
    if found is not None and found[0]() is stype:
        return found[1]
    made = TypeCaches()
    key = id(stype)
    # the dict bound, not looked up: at interpreter exit the module's globals are None when the last types die
    _CACHES[key] = (weakref.ref(stype, lambda _, key=key, kept=_CACHES: kept.pop(key, None)), made)
    return made


def stored_definitions(stype: ScenarioType, what: tuple[Any, ...], make: Callable[[], Any],
                       check: Callable[[], None]) -> tuple[Any, str | None]:
    """The definitions of a plan of ``stype`` (``what``: its output, choices and stable signature), read from the plan
    cache on disk when another process (or an earlier run) made them for this type, signature and code (after
    ``check``, which refuses what making them would refuse); else made by ``make`` and stored there.  With the
    entry's key (None: not cached on disk)."""
    key = plan_cache.entry_key(stype, what)
    if key is not None:
        check()
        found = plan_cache.read(key)
        if found is not None:
            return found, key
    definitions = make()
    if key is not None and not plan_cache.write(key, definitions):
        key = None   # not storable (a nested scenario's symbols): its function is not stored either
    return definitions, key


class Compiling:
    """The compile step of a planner: a plan's chain compiled once per type (its :class:`TypeCaches`)."""

    type: ScenarioType

    @cached_property
    def _caches(self) -> TypeCaches:
        return caches(self.type)

    def compiled(self, plan: Plan, *, varying: frozenset[sympy.Symbol] | None = None) -> Callable[..., Any]:
        """The plan's chain compiled over its leaves (kept for the type, shared by its scenarios): scalar, or for
        arrays with the fixed factors hoisted out when ``varying`` names the leaves that vary."""
        return self._compiled(plan.definitions, plan.args, varying)

    def _compiled(self, definitions: tuple[tuple[sympy.Symbol, sympy.Expr], ...], args: tuple[sympy.Symbol, ...],
                  varying: frozenset[sympy.Symbol] | None, disk_key: str | None = None) -> Callable[..., Any]:
        key = (definitions, args, varying)
        compiled = self._caches.compiled
        function = compiled.get(key)
        if function is None:
            if varying is None and disk_key is not None:   # a plan's scalar function: its source kept on disk too
                function = plan_cache.compiled(disk_key, definitions, args, compile_chain, scalar_namespace)
            elif varying is None:
                function = compile_chain(definitions, args)
            else:
                function = compile_chain(definitions, args, vector=True, varying=set(varying))
            compiled[key] = function
        return function
