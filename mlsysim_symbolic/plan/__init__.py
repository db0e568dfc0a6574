"""The plan layer: a scenario's bound values, and each output ready to run.

A :class:`Planner` binds a type's inputs (each through its kind), then answers for any
output a frozen :class:`Plan`: the tree (branch picked, earlier outputs substituted,
keyed sums expanded), its leaves in order, the compiled function (cached for the type by
:func:`caches`, shared by every scenario of it) and the scaling from base units to the
declared unit.

The layer is a package of parts with one job each, which :class:`Planner` joins (each part builds on the one before):
:mod:`.model` (the :class:`Plan` value), :mod:`.binding` (inputs bound, and kept bindings), :mod:`.compiling` (the
compiled functions kept per type, the plan cache on disk), :mod:`.planning` (trees and plans) and :mod:`.evaluation`
(values and their errors).

Analyses (:mod:`~mlsysim_symbolic.symbolic`, :mod:`~mlsysim_symbolic.sweep`,
:mod:`~mlsysim_symbolic.solve`, :mod:`~mlsysim_symbolic.sensitivity`, the printers) reach a
scenario only through this public layer.

>>> from mlsysim_symbolic import Scenarios
>>> planner = Scenarios.DpSgdPerExampleGradients.planner
>>> plan = planner.plan("per_batch")
>>> plan.expr, plan.args, plan.indices
(B*P*b, (B, P, b), ('models',))
>>> planner.values(plan, ("GPT-2",))
(256, 1500000000.0, 4)
>>> planner.evaluate("per_batch", "GPT-2")
<Quantity(1.536e+12, 'byte')>
"""

from __future__ import annotations

from typing import Protocol

from ..spec import ScenarioType
from .binding import Binding, thawed
from .compiling import Compiling, TypeCaches, caches, stored_definitions
from .evaluation import Evaluation
from .model import Plan, placeholder, scale
from .planning import Planning

__all__ = ["Analysable", "Binding", "Compiling", "Evaluation", "NeededBy", "Plan", "Planner", "Planning", "TypeCaches",
           "caches", "needed_by", "placeholder", "scale", "stored_definitions", "thawed"]


class Planner(Evaluation):
    """A type's inputs bound to values, and the plans of its outputs (built once, then cached).

    The public facade of the plan layer: binding (:class:`~.binding.Binding`), compiling
    (:class:`~.compiling.Compiling`), planning (:class:`~.planning.Planning`) and evaluation
    (:class:`~.evaluation.Evaluation`), each part building on the one before.
    """


class Analysable(Protocol):
    """What an analysis needs of a scenario: its planner, type and name."""

    @property
    def planner(self) -> Planner: ...

    @property
    def type(self) -> ScenarioType: ...

    name: str


class NeededBy:
    """The default shown in a signature for an input without one: the outputs that need it.

    >>> NeededBy(("per_token", "total"))
    <needed by per_token, total>
    """

    def __init__(self, outputs: tuple[str, ...]) -> None:
        self.outputs = outputs

    def __repr__(self) -> str:
        return f"<needed by {', '.join(self.outputs) or 'no output'}>"


def needed_by(t: ScenarioType) -> dict[str, tuple[str, ...]]:
    """Input name -> the outputs whose trees reach it (through earlier outputs, composition and choices)."""
    out: dict[str, list[str]] = {name: [] for name in t.inputs}
    for name in t.outputs:
        leaves, choices = t.closure(name)
        reached = {t.leaf_input[s] for s in leaves if s in t.leaf_input} | set(choices)
        for source in reached:
            if source in out:
                out[source].append(name)
    return {k: tuple(v) for k, v in out.items()}
