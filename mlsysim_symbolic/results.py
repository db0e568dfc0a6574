"""Result views: mlsysim's ``scenario.result`` objects, read from a scenario's outputs and inputs.

A type whose mlsysim counterpart has a result object declares ``[types.T.result]`` (the class name and
its fields, each an output, or an input the result repeats).  ``scenario.result`` is then an immutable
view with mlsysim's field names and values: Quantities, floats, bools, labels, and keyed fields as dicts.

>>> from mlsysim_symbolic import Scenarios
>>> r = Scenarios.Llama3_70B_DecodeH100.result
>>> r.bottleneck, repr(r).split("(")[0]
('Memory', 'DecodeBoundResult')
>>> r.weight_bytes.to("GB")
<Quantity(141.2, 'gigabyte')>
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pint

from .errors import MissingInputError, did_you_mean
from .plan import Planner
from .spec import ResultSpec
from .units import Q_, is_counted_only, uncounted


def _shown(value: Any, unit: str | None) -> Any:
    """A value as mlsysim's results carry it: plain numbers for ratios and counts (and, where the type says so,
    for a quantity mlsysim keeps as a number in a stated unit: a cost in USD), Quantities otherwise."""
    if isinstance(value, dict):
        return {k: _shown(v, unit) for k, v in value.items()}
    if not isinstance(value, pint.Quantity):
        return value
    if unit is not None:
        return value.to(unit).magnitude
    if is_counted_only(value.units):
        return uncounted(value).to("").magnitude
    return value


def input_value(planner: Planner, name: str) -> Any:
    """A bound input as a result repeats it: in its outer unit (mlsysim's), as the scenario's member gives it."""
    spec = planner.type.inputs.get(name)
    value = planner.inputs.get(name)
    return value if spec is None or spec.variable is None else spec.variable.outward(value)


class ResultView:
    """The fields of one result, evaluated once; read-only, with mlsysim's field names."""

    __slots__ = ("_name", "_values")

    def __init__(self, spec: ResultSpec, planner: Planner) -> None:
        values: dict[str, Any] = {}
        plain = dict(spec.plain)
        unset = dict(spec.unset_when)
        tables = dict(spec.tables)
        counts = set(spec.counts)
        views = dict(spec.views)
        for field, source, name in spec.fields:
            if field in unset and planner.member(unset[field]):
                values[field] = None   # as mlsysim, a field set on one branch only (offload_spill_bytes when it fits)
                continue
            if source == "view":   # a nested result over this scenario's own outputs (DistributedResult.node_profile)
                values[field] = ResultView(views[field], planner)
                continue
            if source == "table":   # mlsysim's dict of inputs or outputs (parallelism = {"dp": dp_size, ...})
                values[field] = {key: _shown(input_value(planner, n) if n in planner.type.inputs else planner.member(n), plain.get(field))
                                 for key, n in tables[field]}
                continue
            if source == "input":   # an echo of an input: a ratio or a count as the plain number mlsysim repeats
                values[field] = _shown(input_value(planner, name), plain.get(field))
                continue
            if source == "attribute":   # a text field of a registry input: a grid's region name
                head, _, attr = name.partition(".")
                entry = planner.inputs.get(head)
                values[field] = None if entry is None else getattr(entry, attr)
                continue
            if source == "used result":   # a composed type's view over the inputs bound to it (mlsysim's nested result)
                sub, bind = planner.type.use_binds[name]
                assert sub.result is not None
                values[field] = ResultView(sub.result, Planner(sub, {s: planner.given[p] for s, p in bind.items()}))
                continue
            if source == "member":   # a tuple of outputs
                try:
                    values[field] = tuple(_shown(planner.member(p), plain.get(field)) for p in planner.type.members[name][0])
                except MissingInputError:
                    values[field] = None
                continue
            if source == "by option":   # {option: value} over the options whose inputs are set, as mlsysim's dicts
                argument = planner.type.output(name).arguments[0]
                values[field] = {}
                for option in planner.type.arguments[argument].extra["options"]:
                    try:
                        values[field][option] = _shown(planner.evaluate(name, **{argument: option}), plain.get(field))
                    except MissingInputError:
                        continue
                continue
            try:
                values[field] = _shown(planner.member(name), plain.get(field))
            except MissingInputError:
                values[field] = None   # as mlsysim, a field whose optional input is unset is None
                continue
            if field in counts:   # a count mlsysim keeps as a Quantity of its dimensionless count
                values[field] = Q_(values[field], "count")
        object.__setattr__(self, "_name", spec.name)
        object.__setattr__(self, "_values", values)

    @classmethod
    def from_values(cls, name: str, values: dict[str, Any]) -> ResultView:
        """A view of already computed fields (how a pickled or copied view comes back)."""
        view = object.__new__(cls)
        object.__setattr__(view, "_name", name)
        object.__setattr__(view, "_values", values)
        return view

    def __reduce__(self) -> tuple[Any, ...]:
        return ResultView.from_values, (self._name, self._values)

    def __getattr__(self, field: str) -> Any:
        if field.startswith("__"):   # copy and pickle probe dunders on a bare instance: no field lookup
            raise AttributeError(field)
        values = object.__getattribute__(self, "_values")
        if field in values:
            return values[field]
        raise AttributeError(f"{object.__getattribute__(self, '_name')} has no field {field!r}"
                             + did_you_mean(field, values) + f" Fields: {', '.join(values)}")

    def __setattr__(self, field: str, value: Any) -> None:
        raise AttributeError(f"{self._name} is read-only")

    def __dir__(self) -> list[str]:
        return [*self._values, "fields", "model_dump"]

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self._values.items())

    @property
    def fields(self) -> tuple[str, ...]:
        """The field names, in mlsysim's order."""
        return tuple(self._values)

    def model_dump(self) -> dict[str, Any]:
        """The fields as a dict (as pydantic's ``model_dump``, which mlsysim's results have)."""
        return dict(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ResultView) and self._name == other._name and self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"{self._name}({shown})"
