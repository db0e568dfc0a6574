"""The parts of a scenario type, as frozen data: inputs, branches, outputs and references.

>>> Reference("Young (1974)", "Eq. 2")
Reference(text='Young (1974)', section='Eq. 2', url='')
>>> str(Reference("Young (1974)", "Eq. 2", "https://doi.org/10.1145/361147.361115"))
'Young (1974), Eq. 2 <https://doi.org/10.1145/361147.361115>'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy

from ..variables import Variable
from .outputs import QUANTITY, OutputKind

STYLES = ("property", "method", "dict", "list")
LABEL_RULES = ("argmax", "argmin")


class ReadOnlyDict(dict):
    """A dict that refuses changes: the keyed inputs of a scenario, which every user of a named scenario shares.

    >>> d = ReadOnlyDict({"GPT-2": 1})
    >>> d["GPT-3"] = 2
    Traceback (most recent call last):
    ...
    TypeError: scenario inputs are read-only; use .variant(...) for a changed copy
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("scenario inputs are read-only; use .variant(...) for a changed copy")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyDict, (dict(self),))


@dataclass(frozen=True)
class InputSpec:
    """One constructor input of a scenario type; ``kind`` names its :class:`~mlsysim_symbolic.spec.kinds.InputKind`."""

    name: str
    kind: str
    meaning: str = ""
    required: bool = True
    default: Any = None
    variable: Variable | None = None            # quantity, map and list inputs
    options: tuple[str, ...] = ()               # choice inputs
    index: str | None = None                    # keyed inputs
    attributes: Mapping[str, Variable] = field(default_factory=dict)  # object inputs: symbol -> variable
    annotation: str = "Any"                     # the Python type a user passes, for signatures and pages
    type_name: str | None = None                # scenario inputs: the scenario type of the value
    links: Mapping[str, str] = field(default_factory=dict)   # scenario inputs: its outputs' choice arguments -> our choice inputs
    sub_type: Any = field(default=None, compare=False, repr=False)   # scenario inputs: that type, once built
    argument: bool = False                      # scenario inputs: given to each call of the outputs using it
    only_with: str | None = None                # quantity inputs: read only when this other input is set
    kinds: tuple[str, ...] = ()                 # object inputs: the entry classes (mlsysim's) the equations describe
    upto: str | None = None                     # list inputs: the values are start, start + 1, ..., this input's value
    start: int = 1                              #   (or a scenario input's output: "trajectory.horizon")
    positions: bool = False                     # list inputs: keyed by position start, start + 1, ... (values may repeat)
    mirrors: str | None = None                  # map and list inputs: the same values as this input, under another index
    of: str | None = None                       # key inputs: the keyed input whose key the text names (spec/stated.py)
    some_keys: bool = False                     # keyed inputs: gives some keys of its index (spec/keyed_scenarios.py)
    output: str | None = None                   # scenarios inputs: the output of each scenario read as the keyed value
    derived: tuple[tuple[str, Any, str], ...] = ()   # rows inputs: (part, variable, index) of its numbers (spec/rows.py)
    relates: str | None = None                  # relation inputs: the index whose keys each key's list names
    inverse: str | None = None                  # relation inputs: the name of the reverse relation in reductions

    def leaves(self) -> list[Variable]:
        """The leaf variables this input contributes to the trees."""
        return (([self.variable] if self.variable is not None else []) + list(self.attributes.values())
                + [var for _, var, _ in self.derived])


@dataclass(frozen=True)
class Branch:
    """One form of an output's equation: chosen by a choice value, or the first whose inputs are set."""

    expr: sympy.Expr
    text: str
    when: str | None = None      # the choice value selecting this branch


@dataclass(frozen=True)
class OutputSpec:
    """One output of a scenario type."""

    name: str
    variable: Variable
    branches: tuple[Branch, ...]
    doc: str = ""
    style: str = "property"
    choice: str | None = None          # input or argument whose value picks the branch
    arguments: tuple[str, ...] = ()    # free arguments of a method, in order
    indices: tuple[str, ...] = ()      # indices the output is keyed by (first branch)
    key_params: tuple[str, ...] = ()   # parameter names of the keys of a method output
    kind: OutputKind = QUANTITY        # quantity | predicate (a bool) | label (the name of the winning case); reads as its name
    cases: tuple[tuple[str, sympy.Expr], ...] = ()   # label outputs: (label text, term), in declared order
    rule: str = ""                     # label outputs: argmax | argmin
    peers: tuple[str, ...] = ()        # scenario inputs given per call (``trade_ratio(other)``), in order
    over: str = ""                     # a label over an index's keys (argmax of a keyed term): that index
    shadows: bool = False              # takes a namespace accessor's name on purpose (``shadows_accessor = true``)
    keep: str = ""                     # keyed outputs: a predicate output of the same keys; the dict holds the keys where it holds
    refused_unless: str = ""           # a predicate output without keys: reading this output where it fails is refused

    @property
    def labels(self) -> tuple[str, ...]:
        """The texts a label output can take, in declared order."""
        return tuple(label for label, _ in self.cases)


@dataclass(frozen=True)
class ResultSpec:
    """A result view (mlsysim's ``scenario.result``): its class name and each field with the output or input it shows."""

    name: str
    fields: tuple[tuple[str, Any, str], ...]   # (field, its FieldSource (spec/result_sources.py, reads as its name), our name)
    plain: tuple[tuple[str, str], ...] = ()    # fields mlsysim keeps as plain numbers in a unit: (field, unit)
    unset_when: tuple[tuple[str, str], ...] = ()   # fields mlsysim leaves None on one branch: (field, predicate output)
    tables: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()   # dict fields: (field, ((key, our name), ...))
    counts: tuple[str, ...] = ()   # counts mlsysim keeps as Quantities of its dimensionless ``count`` (ScalingResult)
    views: tuple[tuple[str, ResultSpec], ...] = ()   # nested result views over this type's outputs: (field, view)
    lists: tuple[str, ...] = ()   # keyed outputs mlsysim returns as a list (its values in key order: per_turn_cost)
    quantities: tuple[str, ...] = ()   # counted outputs mlsysim keeps as Quantities of their unit (tokens), not numbers
    tuples: tuple[tuple[str, str], ...] = ()   # outputs over two indexes shown {outer key: tuple over the index}: (field, index)
    ranked: tuple[str, ...] = ()   # dict fields mlsysim orders by value, least first (a ranking; stable on ties)
    sets: tuple[tuple[str, str], ...] = ()   # predicates over two indexes shown {outer key: set of the index's keys}
    # dicts of a scenario input's result at a variant per key: (field, (scenario input, ((its input, our keyed output), ...)))
    variants: tuple[tuple[str, tuple[str, tuple[tuple[str, str], ...]]], ...] = ()
    # lists of nested views over outputs keyed by one index, one view per key in key order: (field, view)
    row_views: tuple[tuple[str, ResultSpec], ...] = ()
    row_keys: tuple[tuple[str, str], ...] = ()   # row views shown as a dict keyed by a keyed output's values: (field, output)
    points: tuple[tuple[str, str], ...] = ()   # temperatures mlsysim gives on an offset scale: (field, 'degC')
    # fields mlsysim gives as float('inf') where a quantity grows without bound: (field, predicate output)
    infinite_when: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Reference:
    """A citation: text, with an optional section and URL."""

    text: str
    section: str = ""
    url: str = ""

    def __str__(self) -> str:
        out = self.text + (f", {self.section}" if self.section else "")
        return out + (f" <{self.url}>" if self.url else "")
