"""Two bounded input constructs for a keyed input whose unit or chosen key the *scenario* states, not the type.

``kind = "key"`` (:class:`KeyKind`): a text input naming one key of a keyed input declared before it (``of = "stages"``,
sharing its ``index``), mlsysim's ``stages[stage]``.  In equations its symbol is the indicator of that key under the
index (1 at the named key, 0 at the others), so ``sum(e * t, stage)`` is the named stage's time; a text that is not a
key of the input is refused by name, and a variant that changes the map re-checks it.

``unit = "stated"`` on a ``map`` or ``list`` input: a unit the scenario states, one for the whole input (mlsysim's
``Dict[str, Quantity]`` whose values are milliseconds in one named scenario and percent or plain shares in another).
The dimension check treats ``stated`` as a dimension of its own (``[stated]``), so the law must be homogeneous in it;
binding takes the unit of the first value (a plain number: dimensionless), converts every other value to it (one of
another dimension is refused by name) and outputs declared in ``stated`` leave in that unit (``total_time`` is
``130 ms`` for milliseconds, ``100 %`` for percent).  One input of a type may state it.

>>> from mlsysim_symbolic.spec.kinds import KINDS, Bound
>>> stages = KINDS["map"].read("stages", {"symbol": "t", "unit": "stated", "index": "stage"})
>>> stage = KINDS["key"].read("stage", {"of": "stages", "index": "stage", "symbol": "e"})
>>> bound = Bound()
>>> KINDS["map"].bind(stages, {"a": "60 ms", "b": "0.045 s"}, bound)
>>> KINDS["key"].bind(stage, "b", bound)
>>> bound.stated, dict(bound.values["stages"]), bound.keyed["stage"]
(<Unit('millisecond')>, {'a': <Quantity(60, 'millisecond')>, 'b': <Quantity(45.0, 'millisecond')>}, {'a': {t: 60, e: 0}, 'b': {t: 45.0, e: 1}})
>>> KINDS["key"].bind(stage, "c", Bound(keys={"stages": ["a", "b"]}))
Traceback (most recent call last):
...
mlsysim_symbolic.errors.InputError: stage: 'c' is not a key of stages (its keys: 'a', 'b')
>>> restated(Q_(130, "stated"), parse_unit("ms")), restated(Q_(0.5, "1/stated"), parse_unit("%"))
(<Quantity(130, 'millisecond')>, <Quantity(0.5, '1 / percent')>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pint

from ..errors import InputError
from ..units import Q_, carry_in, make_quantity, parse_quantity, parse_unit, ureg
from .definitions import InputSpec, ReadOnlyDict
from .reader import check_fields, read_variable

#: The placeholder unit of a keyed input whose unit the scenario states (its own dimension, ``[stated]``).
STATED = parse_unit("stated")
STATED_DIMENSION = "[stated]"


def states_unit(unit: pint.Unit) -> bool:
    """Whether ``unit`` involves the stated unit (an input that states it, or an output carrying it)."""
    return STATED_DIMENSION in unit.dimensionality


def restated(q: pint.Quantity, unit: pint.Unit | None) -> pint.Quantity:
    """``q`` (in a unit involving ``stated``) with ``stated`` replaced by the bound ``unit``; ``q`` unchanged where no
    unit is bound or ``q`` does not involve it.  A prefixed ``kilostated`` is converted first."""
    if unit is None or not states_unit(q.units):
        return q
    power = q.units.dimensionality[STATED_DIMENSION]
    rest = q.units / STATED ** power
    magnitude = q.to(STATED ** power * rest).magnitude
    return make_quantity(magnitude, rest * unit ** power)


def bind_stated(spec: InputSpec, items: Mapping[Any, Any], bound: Any) -> dict[Any, Any]:
    """The values of a keyed input declared in ``stated``, bound: the first value's unit is the input's (recorded in
    ``bound.stated``), every value is converted to it; returns ``{key: Quantity}`` to keep, and sets each key's leaf
    to its magnitude in that unit (the base value of ``stated``)."""
    var = spec.variable
    assert var is not None
    quantities = {}
    for key, item in items.items():
        label = f"{spec.name}[{key!r}]"
        if isinstance(item, str):
            q = parse_quantity(item, name=label)
        elif isinstance(item, pint.Quantity):
            q = carry_in(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            q = Q_(item, ureg.dimensionless)
        else:
            raise InputError(f"{label}: expected a number or quantity, got {type(item).__name__} {item!r}")
        if states_unit(q.units):
            raise InputError(f"{label}: give the value in a unit of its own ('60 ms', '90 %', 0.2), not in {q.units}")
        quantities[key] = q
    if not quantities:
        raise InputError(f"{spec.name}: expected at least one value")
    first_key, first = next(iter(quantities.items()))
    unit = first.units
    previous = getattr(bound, "stated", None)
    if previous is not None and previous.dimensionality != unit.dimensionality:
        raise InputError(f"{spec.name}: the stated unit is already {previous} (one input of a type states it)")
    kept: dict[Any, Any] = {}
    index = spec.index or spec.name
    merged = bound.keyed.setdefault(index, {})
    for key, q in quantities.items():
        label = f"{spec.name}[{key!r}]"
        if q.units.dimensionality != unit.dimensionality:
            raise InputError(f"{label}: {q} is not in the dimension of {spec.name}[{first_key!r}] = {first} (the "
                             f"values of {spec.name} state one unit for the whole input)")
        magnitude = var.check(q.magnitude if q.units == unit else float(q.to(unit).magnitude), label=label)
        kept[key] = Q_(magnitude, unit)
        merged.setdefault(key, {})[var.symbol] = magnitude
    bound.stated = unit
    bound.values[spec.name] = ReadOnlyDict(kept)
    bound.keys[spec.name] = list(quantities)
    return kept


class KeyKindMixin:
    """``kind = "key"``: the text naming one key of the keyed input ``of`` (declared before it, same ``index``); its
    symbol is that key's indicator under the index.  Mixed into a :class:`~mlsysim_symbolic.spec.kinds.KeyedKind`
    (see :mod:`mlsysim_symbolic.spec.kinds`)."""

    name = "key"
    annotation = "str"

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        check_fields(raw, frozenset({"kind", "of", "index", "symbol", "latex", "default", "required", "meaning", "doc"}))
        of, index = raw.get("of"), raw.get("index")
        if not isinstance(of, str) or not of.isidentifier() or not isinstance(index, str) or not index.isidentifier():
            raise InputError("a key input names the keyed input whose key it picks and that input's index: "
                             "of = \"stages\", index = \"stage\"")
        default = raw.get("default")
        if default is not None and not isinstance(default, (str, int)):
            raise InputError(f"a key input's default is one key (a name), got {default!r}")
        fields = {k: v for k, v in raw.items() if k in ("symbol", "latex", "meaning", "doc")}
        var = read_variable(name, {**fields, "unit": "1", "domain": "[0, 1]"}, role="input")
        required = bool(raw.get("required", "default" not in raw))
        return InputSpec(name, "key", str(raw.get("meaning", "")) or var.meaning, required, default, variable=var,
                         index=index, annotation="str", of=of)

    def bind(self, spec: InputSpec, value: Any, bound: Any) -> None:
        if value is None:
            bound.values[spec.name] = None
            return
        keys = bound.keys.get(spec.of)
        if keys is None:
            raise InputError(f"{spec.name}: {value!r} names a key of {spec.of}, which is not set; give {spec.of}")
        if isinstance(value, bool) or not isinstance(value, (str, int)) or value not in keys:
            shown = ", ".join(map(repr, keys))
            raise InputError(f"{spec.name}: {value!r} is not a key of {spec.of} (its keys: {shown})")
        var = spec.variable
        assert var is not None
        merged = bound.keyed.setdefault(spec.index, {})
        for key in keys:
            merged.setdefault(key, {})[var.symbol] = 1 if key == value else 0
        bound.values[spec.name] = value
        bound.keys[spec.name] = list(keys)

    def update(self, spec: InputSpec, current: Any, change: Any) -> Any:
        return change

    def describe(self, spec: InputSpec) -> list[str]:
        return [f"    a key of {spec.of}; symbol {spec.variable.symbol if spec.variable else spec.name}: 1 at that key, "
                "0 at the others"]


def declaration_error(inputs: Mapping[str, InputSpec], in_name: str, holds_values: Callable[[InputSpec], bool]) -> str | None:
    """Why input ``in_name`` of a type with ``inputs`` (in declared order) is declared wrong for these constructs, or
    None: a key input names a map or list input declared before it, sharing its index; ``stated`` is the unit of a map
    or list input only (not a mirror), one per type.  ``holds_values``: whether an input is a map or list of numbers
    (its kind's flag)."""
    spec = inputs[in_name]
    names = list(inputs)
    if spec.of is not None:   # a key input
        target = inputs.get(spec.of)
        if target is None or not holds_values(target) or names.index(spec.of) > names.index(in_name):
            return f"of {spec.of!r} must name a map or list input declared before it"
        if target.index != spec.index:
            return f"index {spec.index!r} must be the index of {spec.of} ({target.index!r})"
        return None
    var = spec.variable
    if var is None or not states_unit(var.unit):
        return None
    if var.unit.dimensionality != STATED.dimensionality:   # "stated * s": the values would be read as the wrong thing
        return (f"unit {var.unit} and 'stated' disagree in dimension: an input that states its unit is declared exactly "
                "'stated', and the scenario's first value gives the unit")
    if not holds_values(spec) or spec.mirrors is not None or var.unit != STATED or var.integer:
        return "unit 'stated' (the unit the scenario states) belongs to a map or list input, exactly 'stated' (not integer)"
    first = next(n for n in names if inputs[n].variable is not None and states_unit(inputs[n].variable.unit))
    if first != in_name:
        return f"one input of a type states its unit ({first} already does)"
    return None
