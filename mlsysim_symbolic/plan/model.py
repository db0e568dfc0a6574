"""The value the plan layer answers: a frozen :class:`Plan` (one output ready to run) and its unit scaling.

>>> from mlsysim_symbolic import Scenarios
>>> plan = Scenarios.DpSgdPerExampleGradients.planner.plan("per_batch")
>>> plan.args, plan.unit, plan.to_unit(2.0)
((B, P, b), <Unit('byte')>, 2.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pint
import sympy

from ..evaluate import expanded
from ..spec import OutputSpec
from ..variables import Variable


@dataclass(frozen=True)
class Plan:
    """One output of one scenario, ready to run: its definitions, leaves, compiled function and unit scaling.

    ``definitions`` is the chain the function computes: each output it uses (over its leaves and the
    outputs before it), ending with the output itself.  ``expr``, the tree over the leaves alone, is built
    on first read.
    """

    output: OutputSpec
    definitions: tuple[tuple[sympy.Symbol, sympy.Expr], ...]
    args: tuple[sympy.Symbol, ...]         # the leaves, in the order the function takes them
    function: Callable[..., Any]
    unit: pint.Unit                        # the declared unit of the output (its equation's, counted kinds included)
    indices: tuple[str, ...]               # the keys a value needs (one per index)
    arguments: tuple[str, ...]             # the free arguments of a method output
    factor: float | int = 1                # base unit -> declared unit: value * factor / divisor
    divisor: float | int = 1
    labels: tuple[str, ...] = ()           # a label over an index's keys: the keys, in order (else its cases)
    returns: pint.Unit | None = None       # the unit a value leaves in: ``unit`` less the counted kinds declared implicit
    #: What analyses derive from this plan (a derivative and its compiled function, a simplified form), made once:
    #: a plan belongs to its type and presence signature, so every scenario with that signature shares them.
    memos: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.returns is None:
            object.__setattr__(self, "returns", self.output.variable.outer_unit)

    @cached_property
    def expr(self) -> sympy.Expr:
        """The output as one tree over its leaves (each definition substituted into the next; a ``Max`` or ``Min``
        rebuilt as it was declared, without SymPy's search for redundant arguments)."""
        return expanded(self.definitions, piecewise=False)

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` the first time ``key`` is asked for on this plan, the same object afterwards.

        >>> from mlsysim_symbolic import Scenarios
        >>> plan = Scenarios.DpSgdPerExampleGradients.planner.plan("per_batch")
        >>> d = plan.memo(("diff", "b"), lambda: sympy.diff(plan.expr, plan.args[2]))
        >>> d, plan.memo(("diff", "b"), lambda: 1 / 0) is d
        (B*P, True)
        """
        try:
            return self.memos[key]
        except KeyError:
            value = self.memos[key] = make()
            return value

    def to_unit(self, value: Any) -> Any:
        """A base-unit magnitude (or array) of the output in its declared unit."""
        return scale(value, self.factor, self.divisor)


def scale(value: Any, factor: float | int, divisor: float | int) -> Any:
    """``value * factor / divisor``, skipping the steps that are 1 (exact integer ratios stay exact).

    >>> scale(15e9, 1, 10**9)   # 15e9 B in GB: 15.0, where * 1e-9 would give 15.000000000000002
    15.0
    """
    if factor != 1:
        value = value * factor
    if divisor != 1:
        value = value / divisor
    return value


def placeholder(var: Variable) -> Any:
    """A value inside ``var``'s domain (1 where it may be): where an argument must have a value before the
    values an analysis tries replace it (a swept argument, the start of a search).

    >>> placeholder(Variable.make("tau", unit="s")), placeholder(Variable.make("f", unit="1", domain="[2, 3]"))
    (1, 2.0)
    >>> placeholder(Variable.make("e", unit="1", domain="(0, 1)"))   # open at both ends, narrower than 1: its middle
    0.5
    """
    domain = var.domain
    if domain.contains(1):
        return 1
    value = domain.low if domain.contains(domain.low) else domain.low + 1
    if not domain.contains(value) and math.isfinite(domain.high):   # an open low end and a width below 1
        value = (domain.low + domain.high) / 2
    return int(value) if var.integer else value
