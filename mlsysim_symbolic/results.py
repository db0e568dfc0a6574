"""Result views: mlsysim's ``scenario.result`` objects, read from a scenario's outputs and inputs.

A type whose mlsysim counterpart has a result object declares ``[types.T.result]`` (the class name and
its fields, each an output, or an input the result repeats).  ``scenario.result`` is then an immutable
view with mlsysim's field names and values: Quantities, floats, bools, labels, and keyed fields as dicts.
A field is evaluated when first read (a lookup of the type's shared plan and its compiled function) and kept,
so a solve that reads one field pays for one field; ``repr``, ``==``, ``model_dump`` and pickling read them all.

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
    key = (value.units, unit)
    factors = _FACTORS.get(key)
    if factors is None:
        factors = _FACTORS[key] = _plain_factors(value.units, unit)
    if factors is _KEEP:
        return value
    magnitude = value.magnitude
    for factor in factors:   # the very multiplications uncounted(...).to(...) makes, found once per unit
        if factor != 1:
            magnitude = magnitude * factor
    return magnitude


_KEEP: tuple[Any, ...] = ()
_FACTORS: dict[tuple[Any, str | None], tuple[Any, ...]] = {}


def _plain_factors(units: Any, unit: str | None) -> tuple[Any, ...]:
    """How a value in ``units`` becomes mlsysim's plain number: the factors ``.to(unit)`` (or, for counted kinds
    alone, ``uncounted(...).to("")``) multiplies its magnitude by; ``_KEEP`` where it stays a Quantity."""
    if unit is not None:
        return (Q_(1, units).to(unit).magnitude,)
    if not is_counted_only(units):
        return _KEEP
    one = uncounted(Q_(1, units))
    return (one.magnitude, Q_(1, one.units).to("").magnitude)


class _Layout:
    """A result spec read once into lookups (the spec's tables as dicts), shared by every view of it."""

    __slots__ = ("fields", "sources", "plain", "unset", "tables", "counts", "views")

    def __init__(self, spec: ResultSpec) -> None:
        self.fields = tuple(f for f, _, _ in spec.fields)
        self.sources = {f: (source, name) for f, source, name in spec.fields}
        self.plain = dict(spec.plain)
        self.unset = dict(spec.unset_when)
        self.tables = dict(spec.tables)
        self.counts = frozenset(spec.counts)
        self.views = dict(spec.views)


_LAYOUTS: dict[int, tuple[ResultSpec, _Layout]] = {}


def result_layout(spec: ResultSpec) -> _Layout:
    """The spec's fields read into lookups, once per spec (``sources``: field -> (source, name))."""
    hit = _LAYOUTS.get(id(spec))
    if hit is None or hit[0] is not spec:
        hit = _LAYOUTS[id(spec)] = (spec, _Layout(spec))
    return hit[1]


def input_value(planner: Planner, name: str) -> Any:
    """A bound input as a result repeats it: in its outer unit (mlsysim's), as the scenario's member gives it."""
    spec = planner.type.inputs.get(name)
    value = planner.inputs.get(name)
    return value if spec is None or spec.variable is None else spec.variable.outward(value)


class ResultView:
    """The fields of one result, each evaluated on first read (a compiled function of the shared plan) and kept;
    read-only, with mlsysim's field names."""

    __slots__ = ("_name", "_values", "_layout", "_planner")

    def __init__(self, spec: ResultSpec, planner: Planner) -> None:
        object.__setattr__(self, "_name", spec.name)
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_layout", result_layout(spec))
        object.__setattr__(self, "_planner", planner)

    def _field(self, field: str) -> Any:
        """The value of ``field`` (computed on first read, then kept)."""
        values = object.__getattribute__(self, "_values")
        if field in values:
            return values[field]
        layout = object.__getattribute__(self, "_layout")
        value = self._compute(layout, object.__getattribute__(self, "_planner"), field)
        values[field] = value
        return value

    @staticmethod
    def _compute(layout: _Layout, planner: Planner, field: str) -> Any:
        source, name = layout.sources[field]
        plain = layout.plain.get(field)
        if field in layout.unset and planner.member(layout.unset[field]):
            return None   # as mlsysim, a field set on one branch only (offload_spill_bytes when it fits)
        if source == "view":   # a nested result over this scenario's own outputs (DistributedResult.node_profile)
            return ResultView(layout.views[field], planner)
        if source == "table":   # mlsysim's dict of inputs or outputs (parallelism = {"dp": dp_size, ...})
            return {key: _shown(input_value(planner, n) if n in planner.type.inputs else planner.member(n), plain)
                    for key, n in layout.tables[field]}
        if source == "input":   # an echo of an input: a ratio or a count as the plain number mlsysim repeats
            return _shown(input_value(planner, name), plain)
        if source == "attribute":   # a text field of a registry input: a grid's region name
            head, _, attr = name.partition(".")
            entry = planner.inputs.get(head)
            return None if entry is None else getattr(entry, attr)
        if source == "used result":   # a composed type's view over the inputs bound to it (mlsysim's nested result)
            sub, bind = planner.type.use_binds[name]
            assert sub.result is not None
            return ResultView(sub.result, Planner(sub, {s: planner.given[p] for s, p in bind.items()}))
        if source == "member":   # a tuple of outputs
            try:
                return tuple(_shown(planner.member(p), plain) for p in planner.type.members[name][0])
            except MissingInputError:
                return None
        if source == "by option":   # {option: value} over the options whose inputs are set, as mlsysim's dicts
            argument = planner.type.output(name).arguments[0]
            out = {}
            for option in planner.type.arguments[argument].extra["options"]:
                try:
                    out[option] = _shown(planner.evaluate(name, **{argument: option}), plain)
                except MissingInputError:
                    continue
            return out
        try:
            value = _shown(planner.member(name), plain)
        except MissingInputError:
            return None   # as mlsysim, a field whose optional input is unset is None
        if field in layout.counts:   # a count mlsysim keeps as a Quantity of its dimensionless count
            value = Q_(value, "count")
        return value

    def _all(self) -> dict[str, Any]:
        """Every field, in mlsysim's order (each computed now if not read yet)."""
        layout = object.__getattribute__(self, "_layout")
        if layout is None:
            return object.__getattribute__(self, "_values")
        return {f: self._field(f) for f in layout.fields}

    @classmethod
    def from_values(cls, name: str, values: dict[str, Any]) -> ResultView:
        """A view of already computed fields (how a pickled or copied view comes back)."""
        view = object.__new__(cls)
        object.__setattr__(view, "_name", name)
        object.__setattr__(view, "_values", values)
        object.__setattr__(view, "_layout", None)
        object.__setattr__(view, "_planner", None)
        return view

    def __reduce__(self) -> tuple[Any, ...]:
        return ResultView.from_values, (self._name, self._all())

    def __getattr__(self, field: str) -> Any:
        if field.startswith("__"):   # copy and pickle probe dunders on a bare instance: no field lookup
            raise AttributeError(field)
        layout = object.__getattribute__(self, "_layout")
        if layout is not None and field in layout.sources:
            return self._field(field)
        values = object.__getattribute__(self, "_values")
        if layout is None and field in values:
            return values[field]
        names = layout.fields if layout is not None else tuple(values)
        raise AttributeError(f"{object.__getattribute__(self, '_name')} has no field {field!r}"
                             + did_you_mean(field, names) + f" Fields: {', '.join(names)}")

    def __setattr__(self, field: str, value: Any) -> None:
        raise AttributeError(f"{self._name} is read-only")

    def __dir__(self) -> list[str]:
        return [*self.fields, "fields", "model_dump"]

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self._all().items())

    @property
    def fields(self) -> tuple[str, ...]:
        """The field names, in mlsysim's order."""
        layout = object.__getattribute__(self, "_layout")
        return layout.fields if layout is not None else tuple(self._values)

    def model_dump(self) -> dict[str, Any]:
        """The fields as a dict (as pydantic's ``model_dump``, which mlsysim's results have)."""
        return self._all()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ResultView) and self._name == other._name and self._all() == other._all()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self._all().items())
        return f"{self._name}({shown})"
