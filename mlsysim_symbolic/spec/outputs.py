"""Output kinds: one class per kind of declared output, registered in one table.

An output is a *quantity* (a number in its unit), a *predicate* (true or false: a comparison) or a *label* (the
name of the winning case of an ``argmax``/``argmin``).  Each kind says how its declaration is read into branches,
what a compiled value becomes when evaluated, whether analyses see it as a number (a predicate through its
slack; a label not at all) and what a sweep of it returns.  Code asks the kind (``out.kind.numeric``,
``out.kind.answer(...)``), never compares its name; adding a kind is a subclass here plus a line in
:data:`OUTPUT_KINDS`, as :data:`~mlsysim_symbolic.spec.kinds.KINDS` does for inputs.

An output kind reads as its name (``str``, ``==`` with text, ``repr``), for users, pages and serialization:

>>> sorted(OUTPUT_KINDS)
['label', 'predicate', 'quantity']
>>> kind = output_kind("predicate")
>>> kind == "predicate", str(kind), kind.numeric, kind.condition
(True, 'predicate', False, True)
>>> kind.answer(1.0, ())
True
>>> output_kind("label").answer(1.0, ("compute", "memory"))
'memory'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import sympy

from ..errors import InputError
from ..units import make_quantity

if TYPE_CHECKING:
    from ..variables import Variable
    from .builder import TypeBuilder
    from .definitions import Branch

Cases = tuple[tuple[str, sympy.Expr], ...]   # a label's (case text, term), in declared order
Labels = Callable[[], tuple[str, ...]]


class OutputKind:
    """A kind of output. Subclasses set :attr:`name` and the facts below, and override what differs."""

    name: ClassVar[str] = ""
    numeric: ClassVar[bool] = False     # a number in a unit: composes, differentiates, prints as an equation
    condition: ClassVar[bool] = False   # true or false: analyses solve and sweep its slack
    has_unit: ClassVar[bool] = False    # declares a unit (required); the others refuse one
    shape: ClassVar[str] = ""           # what it is, for messages: "bool", "name"

    # ------------------------------------------------------------------ reading its declaration
    def read(self, builder: TypeBuilder, out_name: str, raw: Mapping[str, Any], var: Variable,
             units: Mapping[Any, Any]) -> tuple[tuple[Branch, ...], Cases]:
        """The branches (and a label's cases) of the output's declaration, parsed and dimension-checked."""
        raise NotImplementedError

    def declared(self, raw: Mapping[str, Any], field: str) -> str:
        """A label's ``rule``/``over`` as declared (``""`` for kinds that have none)."""
        return ""

    # ------------------------------------------------------------------ evaluating
    def answer(self, value: Any, labels: tuple[str, ...]) -> Any:
        """What a compiled value of an answer (not a number) is: a predicate's bool, a label's winning case among
        ``labels`` (its cases' texts, or the keys of the index it is over)."""
        raise NotImplementedError(f"a {self.name} is returned in its unit, not as an answer")

    def swept(self, values: np.ndarray, unit: Any, labels: Labels) -> Any:
        """A sweep's float array as this kind returns it."""
        raise NotImplementedError

    def check_analysable(self, type_name: str, output: str) -> None:
        """Refuse an analysis (sensitivity, solve, sweep of a number) of an output that has no number."""

    # ------------------------------------------------------------------ reading as its name
    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return repr(self.name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, OutputKind):
            return other.name == self.name
        return other == self.name if isinstance(other, str) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple[Any, ...]:
        return output_kind, (self.name,)   # unpickled as the table's own instance


class QuantityOutput(OutputKind):
    """A number in its declared unit (one branch per option of a choice, or the first whose inputs are set)."""

    name = "quantity"
    numeric = True
    has_unit = True
    shape = "number"

    def read(self, builder: TypeBuilder, out_name: str, raw: Mapping[str, Any], var: Variable,
             units: Mapping[Any, Any]) -> tuple[tuple[Branch, ...], Cases]:
        return tuple(builder.branch(out_name, var, when, text, units) for when, text in builder.equation_items(out_name, raw)), ()

    def swept(self, values: np.ndarray, unit: Any, labels: Labels) -> Any:
        return make_quantity(values, unit)


class PredicateOutput(OutputKind):
    """True or false: a comparison of two sides of one dimension; analyses see its slack (>= 0 where it holds)."""

    name = "predicate"
    condition = True
    shape = "bool"

    def read(self, builder: TypeBuilder, out_name: str, raw: Mapping[str, Any], var: Variable,
             units: Mapping[Any, Any]) -> tuple[tuple[Branch, ...], Cases]:
        return builder.predicate(out_name, raw, units), ()

    def answer(self, value: Any, labels: tuple[str, ...]) -> bool:
        return bool(value)

    def swept(self, values: np.ndarray, unit: Any, labels: Labels) -> np.ndarray:
        return values.astype(bool)   # the feasible region


class LabelOutput(OutputKind):
    """The name of the largest (``argmax``) or smallest (``argmin``) of named terms, or of an index's keys."""

    name = "label"
    shape = "name"

    def read(self, builder: TypeBuilder, out_name: str, raw: Mapping[str, Any], var: Variable,
             units: Mapping[Any, Any]) -> tuple[tuple[Branch, ...], Cases]:
        if "over" in raw:
            return (builder.keyed_label(out_name, raw, units),), ()
        branch, cases = builder.label(out_name, raw, units)
        return (branch,), cases

    def declared(self, raw: Mapping[str, Any], field: str) -> str:
        return str(raw.get(field, {"rule": "argmax", "over": ""}[field]))

    def answer(self, value: Any, labels: tuple[str, ...]) -> str:
        return labels[int(value)]

    def swept(self, values: np.ndarray, unit: Any, labels: Labels) -> np.ndarray:
        return np.asarray(labels())[values.astype(np.int64)]   # the winning case at each point: a regime map

    def check_analysable(self, type_name: str, output: str) -> None:
        raise InputError(f"{type_name}.{output} is a label (the name of the winning case), not a number: "
                         f"analyse one of its cases instead")


#: Every output kind, by the name a declaration gives in ``kind = "..."``.
OUTPUT_KINDS: dict[str, OutputKind] = {k.name: k for k in (QuantityOutput(), PredicateOutput(), LabelOutput())}

#: The kind of an output that declares none.
QUANTITY: OutputKind = OUTPUT_KINDS["quantity"]


def output_kind(name: str | OutputKind) -> OutputKind:
    """The :class:`OutputKind` called ``name`` (an :class:`InputError` naming the known ones otherwise).

    >>> output_kind("quantity").numeric
    True
    >>> output_kind("ratio")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: kind must be one of quantity, predicate, label, got 'ratio'
    """
    if isinstance(name, OutputKind):
        return name
    kind = OUTPUT_KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise InputError(f"kind must be one of {', '.join(OUTPUT_KINDS)}, got {name!r}")
    return kind
