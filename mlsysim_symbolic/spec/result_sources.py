"""Result-field sources: where each field of a result view (mlsysim's ``scenario.result``) comes from.

One class per source, registered in one table in the order the builder tries them: a field is a nested view, a
list of nested views (one per key), a dict of a scenario input's results at variants of it, a dict of inputs or outputs, a tuple of outputs, an output, an output by each option of its choice argument, an
echo of an input, a composed type's own result (or one field of it), or a text field of a registry entry.  The builder reads each
declared field into ``(field, source, name)`` with the first source that :meth:`~FieldSource.claims` it;
:mod:`mlsysim_symbolic.results` then asks that source to :meth:`~FieldSource.compute` the field.  Adding a
source is a subclass here plus a line in :data:`RESULT_SOURCES`.  A source reads as its name (``str``, ``==``).

>>> list(RESULT_SOURCES)
['view', 'row views', 'variants', 'table', 'member', 'output', 'by option', 'input', 'used result', 'used field', 'attribute']
>>> RESULT_SOURCES["member"].equation, RESULT_SOURCES["input"].equation, str(RESULT_SOURCES["input"])
(True, False, 'input')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import MissingInputError
from ..units import Q_
from .kinds import ObjectKind, kind_of

if TYPE_CHECKING:
    from .definitions import ResultSpec
    from .types import ScenarioType


@dataclass(frozen=True)
class Declared:
    """What a result table declares besides its fields: nested views, dict fields, and the composed types whose
    outputs are replaced (those have no result of their own)."""

    views: Mapping[str, Any]
    tables: Mapping[str, Any]
    replaced: frozenset[str] | set[str]
    variants: Mapping[str, Any] = field(default_factory=dict)
    row_views: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ResultTools:
    """What a source needs of the layer above (:mod:`mlsysim_symbolic.results`): a result view of a spec over a
    planner, a planner of a type over given inputs, a value as mlsysim shows it, and an input as a result repeats it."""

    view: Callable[[ResultSpec, Any], Any]
    values: Callable[[str, dict[str, Any]], Any]   # a view of fields already computed (its class name, field -> value)
    planner: Callable[[ScenarioType, dict[str, Any]], Any]
    shown: Callable[[Any, str | None], Any]
    input_value: Callable[[Any, str], Any]


class FieldSource:
    """A kind of result field. Subclasses set :attr:`name` and override :meth:`claims` and :meth:`compute`."""

    name: ClassVar[str] = ""
    equation: ClassVar[bool] = False   # shows outputs of the type (with equations), not an echo of an input

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        """Whether a declared field (called ``field``, naming ``source``) comes from here."""
        raise NotImplementedError

    def named(self, field: str, source: str) -> str:
        """The name kept beside the field: the output, input or type it reads (a view or a table: the field)."""
        return source

    def outputs(self, t: ScenarioType, name: str) -> tuple[str, ...]:
        """The outputs of the type the field shows (none for an echo)."""
        return ()

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        """The field's value for the scenario ``planner`` binds (``plain``: the unit mlsysim states it in, if any)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return repr(self.name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FieldSource):
            return other.name == self.name
        return other == self.name if isinstance(other, str) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple[Any, ...]:
        return source_named, (self.name,)   # unpickled as the table's own instance


class ViewSource(FieldSource):
    """A nested result over this scenario's own outputs (DistributedResult.node_profile)."""

    name = "view"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return field in declared.views

    def named(self, field: str, source: str) -> str:
        return field

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        return tools.view(layout.views[field], planner)


class RowViewsSource(FieldSource):
    """A list of nested result views, one per key of an index in key order, each showing the keyed outputs at that key
    and the unkeyed fields alike in every row (mlsysim's ``DetectionShortfallResult.rows``, a list of
    ``DetectionShortfallRow``); with ``row_keys``, a dict of them keyed by a keyed output's value at each key
    (mlsysim's ``ClearanceQueryResult.rows``, by the pitch rounded to whole centimetres; a later row of the same value
    replaces an earlier one, as a dict built in key order does)."""

    name = "row views"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return field in declared.row_views

    def named(self, field: str, source: str) -> str:
        return field

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        spec = layout.row_views[field]
        keyed = dict(tools.view(spec, planner))   # each field: {key: value} (a field unset on one branch: None)
        keys = next((list(v) for v in keyed.values() if isinstance(v, dict)), [])
        rows = [tools.values(spec.name, {f: v[key] if isinstance(v, dict) else v for f, v in keyed.items()})
                for key in keys]
        if field not in layout.row_keys:
            return rows
        named = layout.row_keys[field]
        if named not in planner.type.outputs:   # the rows' index itself (checked at load): keyed by its own keys
            return dict(zip(keys, rows))
        labels = planner.member(named)
        return {_whole(labels[key]): row for key, row in zip(keys, rows)}


def _whole(value: Any) -> Any:
    """A dict key as mlsysim's ``round(...)`` gives it: an int where the value is whole.

    >>> _whole(2.0), _whole(2.5)
    (2, 2.5)
    """
    value = getattr(value, "magnitude", value)
    return int(value) if isinstance(value, float) and value.is_integer() else value


class VariantsSource(FieldSource):
    """A dict of a scenario input's own result, one per key, each at a variant of that scenario whose inputs take the
    key's values of keyed outputs of ours (mlsysim's ``{k: base.variant(takeover=t + transport).result for k, t in
    responses.items()}``, ``TakeoverLadderResult.rows``)."""

    name = "variants"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return field in declared.variants

    def named(self, field: str, source: str) -> str:
        return field

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        scenario_input, changes = layout.variants[field]
        base = planner.scenario_planner(scenario_input)
        if base is None:
            return None
        sub = base.type
        assert sub.result is not None
        values = {used: planner.member(ours) for used, ours in changes}
        keys = list(next(iter(values.values())))
        return {key: tools.view(sub.result, tools.planner(sub, base.changed({used: v[key] for used, v in values.items()})))
                for key in keys}


class TableSource(FieldSource):
    """mlsysim's dict of inputs or outputs (``parallelism = {"dp": dp_size, ...}``)."""

    name = "table"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return field in declared.tables

    def named(self, field: str, source: str) -> str:
        return field

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        return {key: tools.shown(tools.input_value(planner, n) if n in planner.type.inputs else planner.member(n), plain)
                for key, n in layout.tables[field]}


class MemberSource(FieldSource):
    """A tuple of outputs, as mlsysim's tuple fields (``detection_window``); of keyed outputs, a dict of tuples by key,
    as mlsysim's ``{successes: (low, high)}`` (``BinomialIntervalsResult.wilson``)."""

    name = "member"
    equation = True

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return source in t.members and not t.outputs[t.member_outputs(source)[0]].arguments

    def outputs(self, t: ScenarioType, name: str) -> tuple[str, ...]:
        return t.member_outputs(name)

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        def zipped(parts: list[Any]) -> Any:   # keyed parts: a tuple per key (per key of each index, nested)
            if parts and all(isinstance(part, dict) for part in parts):
                return {key: zipped([part[key] for part in parts]) for key in parts[0]}
            return tuple(parts)

        def shown(member: str) -> Any:   # a part that is a member is a tuple of its own parts
            members = planner.type.members
            return zipped([shown(p) if p in members else tools.shown(planner.member(p), plain) for p in members[member][0]])

        try:
            value = shown(name)
        except MissingInputError:
            return None
        return as_lists(value) if field in layout.lists else value   # mlsysim's list (of lists) of tuples, in key order


class OutputSource(FieldSource):
    """An output without arguments; None where an optional input it needs is unset (as mlsysim)."""

    name = "output"
    equation = True

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        out = t.outputs.get(source)
        return out is not None and not out.arguments

    def outputs(self, t: ScenarioType, name: str) -> tuple[str, ...]:
        return (name,)

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        try:
            value = planner.member(name)
        except MissingInputError:
            return None   # as mlsysim, a field whose optional input is unset is None
        if field not in layout.quantities:   # mlsysim's Quantity of its token stays one, in the output's unit
            value = tools.shown(value, plain)
        if field in layout.sets and isinstance(value, dict):   # {outer key: the set of the index's keys where it holds}
            value = _sets_over(value, planner.plan(name).indices, layout.sets[field])
        if field in layout.points and value is not None:   # a temperature in kelvin, shown on mlsysim's offset scale (degC)
            value = value.to(layout.points[field])
        if field in layout.counts:   # a count mlsysim keeps as a Quantity of its dimensionless count
            value = Q_(value, "count")
        if field in layout.lists and isinstance(value, dict):   # mlsysim's list: the values in key order
            value = list(value.values())
        if field in layout.tuples and isinstance(value, dict):   # {outer key: tuple over the index, in its key order}
            value = _tuples_over(value, planner.plan(name).indices, layout.tuples[field])
        if field in layout.ranked and isinstance(value, dict):   # least first, as a ranking; sorted() is stable on ties
            value = dict(sorted(value.items(), key=lambda item: float(getattr(item[1], "magnitude", item[1]))))
        return value


def as_lists(value: Any) -> Any:
    """A keyed value as mlsysim's list: each level of dicts as a list of its values in key order (tuples kept).

    >>> as_lists({0: {0: (3, 17), 1: (0, 3)}, 1: {0: (2, 14), 1: (3, 25)}})
    [[(3, 17), (0, 3)], [(2, 14), (3, 25)]]
    """
    return [as_lists(v) for v in value.values()] if isinstance(value, dict) else value


def _sets_over(nested: dict[Any, Any], indices: tuple[str, ...], index: str) -> dict[Any, set[Any]]:
    """A two-index predicate ``{key: {key: bool}}`` (``indices`` in its nesting order) as ``{other key: the set of
    index's keys where it holds}`` (mlsysim's ``RingTraceResult.held``: the chunks each GPU holds).

    >>> _sets_over({0: {1: True, 2: False}, 1: {1: True, 2: True}}, ("chunk", "gpu"), "chunk")
    {1: {0, 1}, 2: {1}}
    >>> _sets_over({1: {0: True, 1: True}, 2: {0: False, 1: True}}, ("gpu", "chunk"), "chunk")
    {1: {0, 1}, 2: {1}}
    """
    if indices[1] == index:
        return {k: {j for j, held in inner.items() if held} for k, inner in nested.items()}
    outer = list(next(iter(nested.values()))) if nested else []
    return {k: {j for j, inner in nested.items() if inner[k]} for k in outer}


def _tuples_over(nested: dict[Any, Any], indices: tuple[str, ...], index: str) -> dict[Any, tuple[Any, ...]]:
    """A two-index ``{key: {key: value}}`` (``indices`` in its nesting order) as ``{other key: tuple over index}``
    (mlsysim's ``lost_turns``: ``{stride: (turns lost at each crash, ...)}``).

    >>> _tuples_over({37: {10: 7, 25: 12}, 83: {10: 3, 25: 8}}, ("crashes", "strides"), "crashes")
    {10: (7, 3), 25: (12, 8)}
    >>> _tuples_over({10: {37: 7, 83: 3}}, ("strides", "crashes"), "crashes")
    {10: (7, 3)}
    """
    if indices[1] == index:
        return {k: tuple(inner.values()) for k, inner in nested.items()}
    outer = list(next(iter(nested.values()))) if nested else []
    return {k: tuple(inner[k] for inner in nested.values()) for k in outer}


class ByOptionSource(FieldSource):
    """``{option: value}`` of an output over the options of its one choice argument whose inputs are set."""

    name = "by option"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        out = t.outputs.get(source)
        return out is not None and len(out.arguments) == 1 and bool(t.arguments[out.arguments[0]].options)

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        argument = planner.type.output(name).arguments[0]
        out = {}
        for option in planner.type.arguments[argument].options:
            try:
                out[option] = tools.shown(planner.evaluate(name, **{argument: option}), plain)
            except MissingInputError:
                continue
        return out


class InputSource(FieldSource):
    """An echo of an input: a ratio or a count as the plain number mlsysim repeats."""

    name = "input"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return source in t.inputs

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        return tools.shown(tools.input_value(planner, name), plain)


class UsedResultSource(FieldSource):
    """A composed type's own result view at the values bound to it (mlsysim's nested result): each of its inputs bound
    to an input of ours takes that input as given (a scenario input the same scenario), each bound to an output of
    ours takes that output's value; an input left unset (or an output whose optional inputs are unset) stays unset."""

    name = "used result"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        return source in t.use_binds and t.use_binds[source][0].result is not None and source not in declared.replaced

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        sub, bind = planner.type.use_binds[name]
        assert sub.result is not None
        given = {}
        for used, ours in bind.items():
            if ours in planner.type.outputs:
                try:
                    given[used] = planner.member(ours)
                except MissingInputError:
                    given[used] = None
            else:
                given[used] = planner.given.get(ours)
        return tools.view(sub.result, tools.planner(sub, given))


class UsedFieldSource(FieldSource):
    """One field of a composed type's result view (``from = { stop_distance = "budget.stop_distance" }``): a result
    that is the used type's own, field by field (mlsysim's ``PackagingCellScenario.result``, a StoppingBudgetResult)."""

    name = "used field"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        use, _, attr = source.partition(".")
        if not (use in t.use_binds and use not in declared.replaced and attr):
            return False
        result = t.use_binds[use][0].result
        return result is not None and attr in {f for f, _, _ in result.fields}

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        use, _, attr = name.partition(".")
        return getattr(RESULT_SOURCES["used result"].compute(tools, layout, planner, field, use, plain), attr)


class AttributeSource(FieldSource):
    """A text field of a registry input (``input.field``): a grid's region name."""

    name = "attribute"

    def claims(self, t: ScenarioType, field: str, source: str, declared: Declared) -> bool:
        head, _, attr = source.partition(".")
        if head not in t.inputs or not attr.isidentifier():
            return False
        kind = kind_of(t.inputs[head])
        return isinstance(kind, ObjectKind) and not kind.keyed   # one workload, device or grid

    def compute(self, tools: ResultTools, layout: Any, planner: Any, field: str, name: str, plain: str | None) -> Any:
        head, _, attr = name.partition(".")
        entry = planner.inputs.get(head)
        return None if entry is None else getattr(entry, attr)


#: Every result-field source, by name, in the order a declared field is matched against them.
RESULT_SOURCES: dict[str, FieldSource] = {s.name: s for s in (
    ViewSource(), RowViewsSource(), VariantsSource(), TableSource(), MemberSource(), OutputSource(), ByOptionSource(), InputSource(), UsedResultSource(),
    UsedFieldSource(), AttributeSource())}


def source_named(name: str) -> FieldSource:
    """The source called ``name``.

    >>> source_named("output").equation
    True
    """
    return RESULT_SOURCES[name]


def source_of(t: ScenarioType, field: str, source: str, declared: Declared) -> FieldSource | None:
    """The first source that claims a declared field (None: no source does)."""
    return next((s for s in RESULT_SOURCES.values() if s.claims(t, field, source, declared)), None)
