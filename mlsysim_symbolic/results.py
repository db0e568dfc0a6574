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

import math
from collections.abc import Iterator
from typing import Any

import pint

from .errors import did_you_mean
from .plan import Planner
from .spec import ResultSpec
from .spec.result_sources import ResultTools
from .units import Q_, is_counted_only, make_quantity, point_unit, uncounted


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

    __slots__ = ("fields", "sources", "plain", "unset", "infinite", "tables", "counts", "views", "lists", "quantities", "tuples", "ranked",
                 "sets", "points", "variants", "row_views", "row_keys")

    def __init__(self, spec: ResultSpec) -> None:
        self.fields = tuple(f for f, _, _ in spec.fields)
        self.sources = {f: (source, name) for f, source, name in spec.fields}
        self.plain = dict(spec.plain)
        self.unset = dict(spec.unset_when)
        self.infinite = dict(spec.infinite_when)
        self.tables = dict(spec.tables)
        self.counts = frozenset(spec.counts)
        self.views = dict(spec.views)
        self.lists = frozenset(spec.lists)
        self.quantities = frozenset(spec.quantities)
        self.tuples = dict(spec.tuples)
        self.ranked = frozenset(spec.ranked)
        self.sets = dict(spec.sets)
        self.points = {f: point_unit(u) for f, u in spec.points}
        self.variants = dict(spec.variants)
        self.row_views = dict(spec.row_views)
        self.row_keys = dict(spec.row_keys)


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
        if field in layout.unset and planner.member(layout.unset[field]):
            return None   # as mlsysim, a field set on one branch only (offload_spill_bytes when it fits)
        if field in layout.infinite and planner.member(layout.infinite[field]):
            # mlsysim's float('inf') where the quantity grows without bound (a saturated queue's wait); the output
            # itself is refused there (refused_unless), so no finite number stands in for it
            return _shown(make_quantity(math.inf, planner.plan(name).returns), layout.plain.get(field))
        # an output, an input's echo, a nested view ...: each source computes its own (spec/result_sources.py)
        return source.compute(_TOOLS, layout, planner, field, name, layout.plain.get(field))

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


#: What the field sources of :mod:`.spec.result_sources` need from this layer, found once.
_TOOLS = ResultTools(view=ResultView, values=ResultView.from_values, planner=Planner, shown=_shown, input_value=input_value)
