"""Input kinds: one class per kind of constructor input, registered in one table.

Each kind knows how to *read* its declaration (a ``[types.T.inputs.NAME]`` table) into an
:class:`~mlsysim_symbolic.spec.definitions.InputSpec`, how to *bind* a user's value to the
leaf symbols of the trees (in base units), and how to *describe* itself on a reference page.
Adding a kind is a subclass here plus a line in :data:`KINDS` (and its entry in
``derivations/README.md``), as SymPy's printers dispatch on the node type.

>>> sorted(KINDS)
['choice', 'flag', 'grid', 'hardware', 'key', 'list', 'map', 'quantity', 'relation', 'rows', 'scenario', 'scenarios', 'workload', 'workloads']
>>> spec = KINDS["quantity"].read("batch_size", {"symbol": "B", "unit": "sample", "integer": True})
>>> spec.annotation, [v.symbol for v in spec.leaves()]
('int', [B])
>>> bound = Bound()
>>> KINDS["quantity"].bind(spec, "256 sample", bound)
>>> bound.values["batch_size"], bound.scalars
(<Quantity(256, 'sample')>, {B: 256})
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np
import pint
import sympy

from ..errors import InputError, UnitError, UnknownNameError, WorkloadKindError
from ..evaluate import compile_tree, to_base_factor
from ..interop import from_mlsysim, grid_from_mlsysim
from ..parse import parse_equation
from ..registry import (
    GRID_FIELDS,
    HARDWARE_FIELDS,
    WORKLOAD_FIELDS,
    Entry,
    Grid,
    Hardware,
    Workload,
    grids,
    hardware,
    make_entry,
    workloads,
)
from ..units import Q_, parse_quantity, parse_unit, to_base
from ..variables import AttributeRead, Variable, check_counted
from .definitions import InputSpec, ReadOnlyDict
from .keyed_scenarios import ScenariosMixin
from .reader import ATTRIBUTE_FIELDS, check_fields, read_table, read_variable
from .rows import RowsMixin
from .stated import KeyKindMixin, bind_stated, states_unit


@dataclass
class Bound:
    """The values a scenario binds: by input name (declared units) and by leaf symbol (base units)."""

    values: dict[str, Any] = field(default_factory=dict)        # input name -> value in its declared unit
    scalars: dict[sympy.Symbol, Any] = field(default_factory=dict)   # leaf -> base-unit value (None: unset)
    keyed: dict[str, dict[Any, dict[sympy.Symbol, Any]]] = field(default_factory=dict)   # index -> key -> leaf -> value
    keys: dict[str, list[Any]] = field(default_factory=dict)    # keyed input (and index) -> its keys, in order
    choices: dict[str, str] = field(default_factory=dict)       # choice input -> chosen option
    stated: pint.Unit | None = None   # the unit a keyed input declared ``unit = "stated"`` was given in (spec/stated.py)


def checked(var: Variable, value: Any, label: str | None = None) -> Any:
    """``var.check(value)``, with a whole number too large for float64 (``10**400``) refused by name, not as a bare
    ``OverflowError`` from the finiteness test."""
    try:
        return var.check(value, label=label)
    except OverflowError:   # 10**400; or a unit whose factor pint cannot hold ('1 GB^1000/B^1000')
        shown = repr(_short(value)) if isinstance(value, str) else f"{_short(value)} {var.unit_text}"
        raise InputError(f"{label or var.name}: {shown} is beyond float64") from None


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else f"{text[:12]}...{text[-6:]} ({len(text)} characters)"


def to_base_checked(magnitude: Any, var: Variable, label: str | None = None) -> Any:
    """``magnitude`` (in ``var``'s unit) in base units; an error naming ``label`` when it leaves float64."""
    try:
        base = to_base(magnitude, var.unit)
    except OverflowError:
        base = math.inf
    if isinstance(base, float) and not math.isfinite(base) and not (magnitude == math.inf and var.domain.contains(math.inf)):
        raise InputError(f"{label or var.name}: {magnitude} {var.unit_text} is beyond float64 in base units")
    return base


def is_count(var: Variable) -> bool:
    """Whether ``var`` is a plain whole count (kept as an ``int``, not a Quantity, among the bound inputs)."""
    return var.integer and not var.unit.dimensionality and to_base_factor(var.unit) == 1


def stored(magnitude: Any, var: Variable) -> Any:
    """How a checked value is kept among the bound inputs: an int for counts, else a Quantity."""
    return magnitude if is_count(var) else Q_(magnitude, var.unit)


class InputKind:
    """A kind of input. Subclasses set :attr:`name` and override what differs."""

    name: ClassVar[str] = ""
    keyed: ClassVar[bool] = False       # binds one value per key (an index)
    annotation: ClassVar[str] = "Any"
    chooses: ClassVar[bool] = False     # names one option (bound first: attribute paths read the choices)
    nests: ClassVar[bool] = False       # another scenario, whose outputs enter the equations as ``input.output``
    gates: ClassVar[bool] = False       # may be read only with another input set (``only_with``)
    holds_values: ClassVar[bool] = False   # a map or list of numbers: may state its unit, or be the keys a key input names
    scenario_table: ClassVar[bool] = False   # a table of scenarios read for one output (spec/keyed_scenarios.py)

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        """The :class:`InputSpec` of a declaration table."""
        var = read_variable(name, {k: v for k, v in raw.items() if k not in ("symbols", "only_with")}, role="input")
        if "symbols" in raw:
            raise InputError(f"'symbols' belongs to workload and hardware inputs, not to a {self.name} input")
        only_with = raw.get("only_with")
        if only_with is not None and (not self.gates or not isinstance(only_with, str)):
            raise InputError(f"'only_with' takes the name of another input, on a quantity input; got {only_with!r} "
                             f"on a {self.name} input")
        default = raw.get("default")
        if default is not None and not self.keyed:
            checked(var, default)
        return InputSpec(name, self.name, str(raw.get("meaning", "")) or var.meaning, _required(raw), default,
                         variable=var, index=str(raw.get("index", name)) if self.keyed else None,
                         annotation=self.annotation_of(var), only_with=only_with)

    def annotation_of(self, var: Variable | None) -> str:
        return self.annotation

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        """Record ``value`` of input ``spec`` in ``bound`` (``None``: the input is unset)."""
        raise NotImplementedError

    def check_range(self, spec: InputSpec, keys: list[Any] | None, last: Any, owner: str) -> None:
        """Refuse bound ``keys`` that are not the range ``spec.upto`` declares (list inputs; nothing else has one)."""

    def update(self, spec: InputSpec, current: Any, change: Any) -> Any:
        """The value a ``variant`` binds when it changes this input from ``current`` to ``change``."""
        return change

    def describe(self, spec: InputSpec) -> list[str]:
        """Indented lines for the input's entry on a plain-text reference page."""
        v = spec.variable
        return [f"    symbol {v.symbol}, unit {v.unit_text}, domain {v.domain}"] if v is not None else []


class QuantityKind(InputKind):
    """A number with a unit: one leaf symbol."""

    name = "quantity"
    gates = True

    def annotation_of(self, var: Variable | None) -> str:
        return "int" if var is not None and var.integer else "Quantity"

    @staticmethod
    def unset(spec: InputSpec, bound: Bound) -> Variable:
        """Record the input as unset; its one leaf."""
        var = spec.variable
        assert var is not None
        bound.values[spec.name] = None
        bound.scalars[var.symbol] = None
        return var

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        var = spec.variable
        assert var is not None
        if value is None:
            self.unset(spec, bound)
            return
        key = _value_key(spec, value)
        hit = _QUANTITIES.get(key) if key is not None else None
        if hit is None or hit[0] is not spec:   # a number or a text is read once per input (a solver's defaults)
            magnitude = checked(var, value)
            hit = (spec, stored(magnitude, var), to_base_checked(magnitude, var, spec.name))
            if key is not None:
                if len(_QUANTITIES) >= _CACHE_MAX:
                    _QUANTITIES.clear()
                _QUANTITIES[key] = hit
        bound.values[spec.name] = hit[1]
        bound.scalars[var.symbol] = hit[2]


class FlagKind(QuantityKind):
    """Yes or no (mlsysim's ``bool`` fields): a leaf that is 1 or 0, for an equation to multiply by or to test
    (``piecewise(a, f > 0, b)``).  Only ``True``/``False`` bind: ``1``, ``"yes"`` or ``"False"`` (true in Python) are
    refused, so a flag cannot be set by a number that happens to be nonzero."""

    name = "flag"
    annotation = "bool"
    gates = False

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        check_fields(raw, frozenset({"kind", "symbol", "latex", "default", "required", "meaning", "doc"}))
        default = raw.get("default")
        if default is not None and not isinstance(default, bool):
            raise InputError(f"a flag's default is true or false, got {default!r}")
        fields = {k: v for k, v in raw.items() if k not in ("default", "kind")}
        var = read_variable(name, {**fields, "unit": "1", "integer": True, "domain": "[0, 1]"}, role="input")
        return InputSpec(name, self.name, str(raw.get("meaning", "")) or var.meaning, _required(raw), default,
                         variable=var, annotation=self.annotation)

    def annotation_of(self, var: Variable | None) -> str:
        return self.annotation

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        var = self.unset(spec, bound)
        if value is None:
            return
        if not isinstance(value, (bool, np.bool_)):
            raise InputError(f"{spec.name}: expected True or False, got {value!r}")
        bound.values[spec.name] = bool(value)
        bound.scalars[var.symbol] = int(bool(value))

    def describe(self, spec: InputSpec) -> list[str]:
        return [f"    symbol {spec.variable.symbol if spec.variable else spec.name}: 1 for True, 0 for False"]


class ChoiceKind(InputKind):
    """One of a list of named options; picks an output's branch or a precision template."""

    name = "choice"
    annotation = "str"
    chooses = True

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        check_fields(raw, frozenset({"kind", "options", "default", "required", "meaning", "doc"}))
        if not isinstance(raw.get("options", ()), (list, tuple)):
            raise InputError("'options' must be a list of names")
        options = tuple(str(o) for o in raw.get("options", ()))
        if not options:
            raise InputError("a choice input needs 'options'")
        default = raw.get("default")
        if default is not None and default not in options:
            raise InputError(f"default {default!r} is not one of the options {options}")
        return InputSpec(name, self.name, str(raw.get("meaning", "")), _required(raw), default, options=options,
                         annotation=self.annotation)

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        if value is None:
            bound.values[spec.name] = None
            return
        if not isinstance(value, str) or value not in spec.options:
            raise InputError(f"{spec.name}: expected one of {', '.join(map(repr, spec.options))}, got {value!r}")
        bound.choices[spec.name] = value
        bound.values[spec.name] = value

    def describe(self, spec: InputSpec) -> list[str]:
        return [f"    one of {', '.join(spec.options)}"]


#: (input spec, entry, choices) -> the attributes read (the spec and entry kept, so an id is never reused under us).
_ATTRIBUTES: dict[tuple[int, int, tuple[tuple[str, str], ...]], tuple[InputSpec, Entry, dict[sympy.Symbol, Any]]] = {}
#: Entries either cache holds before it starts again (inline tables and converted mlsysim objects are new each time).
_CACHE_MAX = 4096


#: (input spec, plain value) -> (spec, value kept, base-unit value): numbers and text, read once per input.
_QUANTITIES: dict[tuple[Any, ...], tuple[InputSpec, Any, Any]] = {}
_PLAIN = (int, float, str)


def value_key(value: Any, plain: tuple[type, ...] = _PLAIN) -> tuple[Any, ...] | None:
    """A key for a value of a ``plain`` type or a scalar Quantity (the same value read the same way); None for
    anything else.  0.0 and -0.0 are equal keys but not the same input (1/x): a float's sign is in its key.

    >>> value_key(0.0) == value_key(-0.0), value_key(1) == value_key(1.0), value_key([1])
    (False, False, None)
    """
    kind = type(value)
    if kind in plain:
        return (kind, value, math.copysign(1.0, value) if kind is float else None)
    if isinstance(value, pint.Quantity) and type(value.magnitude) in (int, float):
        m = value.magnitude
        return (type(m), m, math.copysign(1.0, m), value.units, id(value._REGISTRY))
    return None


def _value_key(spec: InputSpec, value: Any) -> tuple[Any, ...] | None:
    """:func:`value_key` of an input's value, for that input."""
    key = value_key(value)
    return None if key is None else (id(spec), *key)


class ObjectKind(InputKind):
    """A registry entry (a model or a device) whose fields are read into attribute symbols."""

    schema: ClassVar[Mapping[str, tuple[str, str, bool]]] = WORKLOAD_FIELDS
    entry_class: ClassVar[type[Entry]] = Workload

    def registry(self) -> Any:
        return workloads()

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        check_fields(raw, frozenset({"kind", "symbols", "default", "required", "meaning", "doc", "index", "kinds"}))
        attributes: dict[str, Variable] = {}
        for sym_name, attr in (raw.get("symbols") or {}).items():
            attributes[sym_name] = self._attribute(sym_name, attr)
        index = str(raw.get("index", name)) if self.keyed else None
        kinds = raw.get("kinds", [])
        if not isinstance(kinds, list) or not all(isinstance(k, str) and k for k in kinds) or (kinds and self.keyed):
            raise InputError(f"{name}: kinds must be a list of entry classes (mlsysim's, e.g. \"TransformerWorkload\") "
                             f"of a single registry input, got {kinds!r}")
        return InputSpec(name, self.name, str(raw.get("meaning", "")), _required(raw), raw.get("default"),
                         index=index, attributes=attributes, annotation=self.annotation, kinds=tuple(kinds))

    def _attribute(self, sym_name: str, attr: Any) -> Variable:
        attr = read_table(attr, f"symbol {sym_name}")
        if "attribute" not in attr:
            raise InputError(f"symbol {sym_name} needs an 'attribute' (a field of the {self.name})")
        check_fields(attr, ATTRIBUTE_FIELDS, f"symbol {sym_name}")
        paths = attr["attribute"]
        paths = [paths] if isinstance(paths, str) else list(paths)
        first = paths[0].split(".")[0]
        unit, meaning_default, integer = self.schema.get(first, (attr.get("unit"), "", False))
        if "unit" in attr:
            unit = attr["unit"]
        if unit is None:
            raise InputError(f"symbol {sym_name}: field {first!r} has no known unit; declare 'unit'")
        if attr.get("counted") is not None:
            try:
                check_counted(parse_unit(unit), attr["counted"])
            except UnitError as exc:
                raise InputError(f"symbol {sym_name}: {exc}") from None
        reads = AttributeRead(tuple(paths), attr.get("fallback"), attr.get("default"))
        label = str(attr.get("name", first if "{" not in paths[0] else sym_name))
        return Variable.make(
            label, symbol=attr.get("symbol", sym_name), unit=unit, latex=attr.get("latex"),
            meaning=str(attr.get("meaning", meaning_default)), integer=bool(attr.get("integer", integer)),
            domain=attr.get("domain"), role="attribute", reads=reads, counted=attr.get("counted"))

    def entry(self, value: Any, label: str) -> Entry:
        """A registry entry from its key, an entry, a table of its fields (an entry stated inline), or mlsysim's object."""
        registry = self.registry()
        if isinstance(value, Entry):
            if not isinstance(value, self.entry_class):   # a node or a cluster where a device belongs, ...
                raise InputError(f"{label}: expected a {registry.kind} entry, got the {type(value).__name__.lower()} "
                                 f"{getattr(value, 'key', value)!r}")
            return value
        if isinstance(value, str):
            try:
                return registry[value]
            except UnknownNameError as exc:
                raise exc.within(label) from None
        if isinstance(value, Mapping):
            try:
                return make_entry(self.entry_class, str(value.get("name", label)), value, self.schema, strict=True)
            except (InputError, UnknownNameError) as exc:
                raise exc.within(label) from None
        converted = from_mlsysim(value, self.entry_class, label)   # mlsysim's own workload or HardwareNode
        if converted is not None:
            return converted
        raise InputError(f"{label}: expected a {registry.kind} (its registry name, a table of its fields, or mlsysim's "
                         f"object), got {type(value).__name__}")

    def attributes(self, spec: InputSpec, entry: Entry, label: str, choices: Mapping[str, str]) -> dict[sympy.Symbol, Any]:
        """Each declared symbol of the input read from ``entry`` (base units; ``None`` where absent).

        Entries are immutable, so what one (input, entry, choices) reads is read once: binding the same registry
        entry again (every solver call given ``Models.Vision.ResNet50``) is a dictionary lookup."""
        key = (id(spec), id(entry), tuple(sorted(choices.items())))
        hit = _ATTRIBUTES.get(key)
        if hit is not None and hit[0] is spec and hit[1] is entry:
            return dict(hit[2])
        out = self._read_attributes(spec, entry, label, choices)
        if len(_ATTRIBUTES) >= _CACHE_MAX:
            _ATTRIBUTES.clear()
        _ATTRIBUTES[key] = (spec, entry, dict(out))
        return out

    def _read_attributes(self, spec: InputSpec, entry: Entry, label: str, choices: Mapping[str, str]) -> dict[sympy.Symbol, Any]:
        out: dict[sympy.Symbol, Any] = {}
        pending: list[Variable] = []
        for var in spec.attributes.values():
            reads = var.reads
            assert reads is not None
            raw = _first_field(entry, reads.paths, choices)
            if raw is None and reads.fallback is None and reads.default is not None:
                raw = reads.default
            if raw is None:
                if reads.fallback is not None:
                    pending.append(var)
                else:
                    out[var.symbol] = None
                continue
            magnitude = checked(var, raw, f"{label} ({entry.key}).{reads.field}")
            out[var.symbol] = to_base_checked(magnitude, var)
        names = {v.symbol.name: v.symbol for v in spec.attributes.values()}
        names.update({v.name: v.symbol for v in spec.attributes.values()})
        for var in pending:
            expr = parse_equation(var.reads.fallback, names)   # type: ignore[union-attr,arg-type]
            values = {s: out.get(s) for s in expr.free_symbols}
            # fallbacks are rules of counting (e.g. head_dim = floor(h / a)), evaluated in base units
            out[var.symbol] = None if any(v is None for v in values.values()) else compile_tree(expr, tuple(values))(*values.values())
        return out

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        if value is None:
            bound.values[spec.name] = None
            for var in spec.attributes.values():
                bound.scalars[var.symbol] = None
            return
        entry = self.entry(value, spec.name)
        kind = getattr(entry, "kind", "") or None
        if spec.kinds and kind not in spec.kinds:   # a CNN where the equations describe a transformer's KV cache
            what = f"is a {kind}" if kind else "states no kind (give its mlsysim class as kind = ...)"
            raise WorkloadKindError(f"{spec.name} {entry.key!r} {what}; this input takes {' or '.join(spec.kinds)} only"
                                    + (f" ({spec.meaning})" if spec.meaning else ""))
        bound.values[spec.name] = entry
        bound.scalars.update(self.attributes(spec, entry, spec.name, bound.choices))

    def describe(self, spec: InputSpec) -> list[str]:
        return [f"    symbol {v.symbol} = {_field(v)} [{v.unit_text}] — {v.meaning}" for v in spec.attributes.values()]

    def update(self, spec: InputSpec, current: Any, change: Any) -> Any:
        """A table of fields changes those fields of the bound entry and keeps the rest (a GQA variant:
        ``variant(workload={"kv_heads": 8})``); anything else replaces the entry."""
        if isinstance(change, Mapping) and isinstance(current, Entry):
            try:
                return current.with_fields(change)
            except (InputError, UnknownNameError) as exc:
                raise exc.within(spec.name) from None
        return change


class WorkloadKind(ObjectKind):
    name = "workload"
    annotation = "Workload"


class HardwareKind(ObjectKind):
    name = "hardware"
    annotation = "Hardware"
    schema = HARDWARE_FIELDS
    entry_class = Hardware

    def registry(self) -> Any:
        return hardware()


class GridKind(ObjectKind):
    """A grid region or a datacenter on one (``derivations/grids.toml``; or mlsysim's ``GridProfile``/``Datacenter``)."""

    name = "grid"
    annotation = "Grid"
    schema = GRID_FIELDS
    entry_class = Grid

    def registry(self) -> Any:
        return grids()

    def entry(self, value: Any, label: str) -> Entry:
        if isinstance(value, (str, Entry, Mapping)):
            return super().entry(value, label)
        converted = grid_from_mlsysim(value, label)
        if converted is None:
            raise InputError(f"{label}: expected a grid (its registry name, a table of its fields, or mlsysim's GridProfile "
                             f"or Datacenter), got {type(value).__name__}")
        return converted


class KeyedKind(InputKind):
    """An input with one value per key; its leaves are summed or keyed by the index they share."""

    keyed = True

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        """A keyed input; ``mirrors = "x"`` makes it the values of keyed input ``x`` under another index (never given
        itself), so an output keyed by x's index can compare its key with every other key: ``rank = sum(piecewise(1,
        z_o > z, 0), other)``."""
        some_keys = raw.get("some_keys", False)
        if not isinstance(some_keys, bool):
            raise InputError(f"'some_keys' is true or false; got {some_keys!r}")
        if "some_keys" in raw:   # gives some keys of its index, the others given by the inputs sharing it
            return replace(KeyedKind.read(self, name, {k: v for k, v in raw.items() if k != "some_keys"}), some_keys=some_keys)
        mirrors = raw.get("mirrors")
        if mirrors is None:
            return super().read(name, raw)
        if not isinstance(mirrors, str) or not mirrors.isidentifier():
            raise InputError(f"'mirrors' names another keyed input of the type; got {mirrors!r}")
        if "default" in raw or "required" in raw or "index" not in raw:
            raise InputError("a mirror takes the values of the input it mirrors: it declares its own 'index' and no "
                             "'default' or 'required'")
        spec = super().read(name, {k: v for k, v in raw.items() if k != "mirrors"})
        return replace(spec, mirrors=mirrors, required=False)

    def items(self, spec: InputSpec, value: Any) -> Mapping[Any, Any]:
        if not isinstance(value, Mapping):
            raise InputError(f"{spec.name}: expected a mapping of keys to values, got {value!r}")
        return value

    def bind_item(self, spec: InputSpec, item: Any, label: str, bound: Bound) -> tuple[Any, dict[sympy.Symbol, Any]]:
        var = spec.variable
        assert var is not None
        magnitude = checked(var, item, label)
        return stored(magnitude, var), {var.symbol: to_base_checked(magnitude, var, label)}

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        if value is None:
            bound.values[spec.name] = None
            return
        items = self.items(spec, value)
        if spec.variable is not None and states_unit(spec.variable.unit):   # the unit the scenario states
            bind_stated(spec, items, bound)
            return
        kept: dict[Any, Any] = {}
        index = spec.index or spec.name
        merged = bound.keyed.setdefault(index, {})
        for key, item in items.items():
            kept[key], symbols = self.bind_item(spec, item, f"{spec.name}[{key!r}]", bound)
            merged.setdefault(key, {}).update(symbols)
        bound.values[spec.name] = ReadOnlyDict(kept)   # read-only: a named scenario is shared by everyone
        bound.keys[spec.name] = list(items)


class MapKind(KeyedKind):
    name = "map"
    annotation = "Dict[str, Quantity]"
    holds_values = True


class ListKind(KeyedKind):
    """One value per key, the values themselves the keys.  ``upto = "turns"`` (with ``start``, default 1) declares
    a list that must be ``start, start + 1, ..., turns``, the value of another input or of a scenario input's
    output (``"trajectory.horizon"``): mlsysim's ``range(1, turns + 1)``, checked where it is bound, so a changed
    ``turns`` with the list left as it was is refused by name, never summed over the old turns.  With
    ``positions = true`` the list is keyed by position instead (``start``, ``start + 1``, ...: mlsysim's list index), so
    its values may repeat (a gradient sequence, a network's layer widths); a list of positions (``upto``) shares its
    index to name them in equations."""

    name = "list"
    annotation = "List[Quantity]"
    holds_values = True

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        upto, start, positions = raw.get("upto"), raw.get("start", 1), raw.get("positions", False)
        if upto is not None and (not isinstance(upto, str) or not all(p.isidentifier() for p in upto.split(".")) or upto.count(".") > 1):
            raise InputError(f"'upto' names an input (\"turns\") or a scenario input's output (\"trajectory.horizon\"); got {upto!r}")
        if not isinstance(positions, bool) or (positions and upto is not None):
            raise InputError(f"'positions' is true or false, and not given with 'upto'; got {positions!r}")
        if isinstance(start, bool) or not isinstance(start, int) or ("start" in raw and upto is None and not positions):
            raise InputError(f"'start' is a whole number, given with 'upto' or 'positions'; got {start!r}")
        spec = super().read(name, {k: v for k, v in raw.items() if k not in ("upto", "start", "positions")})
        return replace(spec, upto=upto, start=start, positions=positions)

    def check_range(self, spec: InputSpec, keys: list[Any] | None, last: Any, owner: str) -> None:
        """Refuse ``keys`` unless they are ``spec.start, ..., last`` (``last`` the bound value ``spec.upto`` names;
        with either unset there is nothing to check)."""
        if spec.upto is None or keys is None or last is None:
            return
        magnitude = getattr(last, "magnitude", last)
        whole = isinstance(magnitude, (int, float, np.integer, np.floating)) and float(magnitude).is_integer()
        expected = list(range(spec.start, int(magnitude) + 1)) if whole else None
        if expected is None or [float(k) for k in keys] != [float(k) for k in expected]:
            shown = f"{spec.start}, {spec.start + 1}, ..., {magnitude:g}" if whole else f"{spec.start}, ..., {spec.upto}"
            raise InputError(f"{owner}: {spec.name} must be {shown}, one value each up to {spec.upto} = {last}; got "
                             f"{_few(keys)} (state {spec.name} again when {spec.upto} changes)")

    def items(self, spec: InputSpec, value: Any) -> Mapping[Any, Any]:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise InputError(f"{spec.name}: expected a list of values, got {value!r}")
        items = list(value)
        if not items and spec.upto is None:   # a range start..upto may be empty (mlsysim's range(1, 1)): upto < start
            raise InputError(f"{spec.name}: expected at least one value")
        if spec.positions:   # keyed by position (mlsysim's list index, from start): values may repeat
            return {spec.start + i: v for i, v in enumerate(items)}
        keyed = {_list_key(v): v for v in items}
        if len(keyed) != len(items):   # keyed by value: a repeated value would silently count once
            seen: set[Any] = set()
            twice = next(v for v in items if _list_key(v) in seen or seen.add(_list_key(v)))
            raise InputError(f"{spec.name}: the value {twice!r} is given twice; a list input is keyed by its values, "
                             "so each must differ (give repeated values as a table of names: {{a = ..., b = ...}})")
        return keyed


class WorkloadsKind(KeyedKind, WorkloadKind):
    name = "workloads"
    annotation = "Dict[str, Workload]"

    def items(self, spec: InputSpec, value: Any) -> Mapping[Any, Any]:
        if not isinstance(value, Mapping) or not value:
            raise InputError(f"{spec.name}: expected a non-empty mapping of names to workloads, got {value!r}")
        return value

    def bind_item(self, spec: InputSpec, item: Any, label: str, bound: Bound) -> tuple[Any, dict[sympy.Symbol, Any]]:
        entry = self.entry(item, label)
        return entry, self.attributes(spec, entry, label, bound.choices)

    bind = KeyedKind.bind
    describe = ObjectKind.describe
    update = InputKind.update


class RelationKind(InputKind):
    """Each key of an index mapped to a list of keys of the same index, each listed before it (``predecessors = {1: [],
    2: [1], 3: [1, 2]}``): the edges of an acyclic graph in topological order, read by ``earliest(w, relation)``.
    Not a number: it is part of a plan's signature, like the keys (a graph written out term by term)."""

    name = "relation"
    annotation = "Dict[Any, List[Any]]"

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        check_fields(raw, frozenset({"kind", "index", "inverse", "default", "required", "meaning", "doc"}))
        index, inverse = raw.get("index"), raw.get("inverse")
        if not isinstance(index, str) or not index.isidentifier():
            raise InputError(f"a relation input names the index whose keys it relates ('index'); got {index!r}")
        if inverse is not None and (not isinstance(inverse, str) or not inverse.isidentifier() or inverse == name):
            raise InputError(f"'inverse' names the reverse relation (the keys listing each key); got {inverse!r}")
        return InputSpec(name, self.name, str(raw.get("meaning", "")), _required(raw), raw.get("default"),
                         annotation=self.annotation, relates=index, inverse=inverse)

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        if value is None:
            bound.values[spec.name] = None
            return
        if not isinstance(value, Mapping) or not all(isinstance(v, (list, tuple)) for v in value.values()):
            raise InputError(f"{spec.name}: expected a mapping of each key to a list of keys, got {value!r}")
        kept = {k: tuple(v) for k, v in value.items()}
        bound.values[spec.name] = ReadOnlyDict({k: list(v) for k, v in kept.items()})
        bound.keys[spec.name] = list(kept.items())   # part of the signature: a plan writes the graph out

    def ordered(self, spec: InputSpec, relation: Sequence[tuple[Any, tuple[Any, ...]]], keys: Sequence[Any],
                owner: str) -> dict[Any, tuple[Any, ...]]:
        """``relation`` over the bound ``keys`` of its index (a key given as text or as a number names the key of the
        same text), every key present (an unlisted key relates to none): refused, naming the input and the keys,
        where a key is not one of the index's or a listed key does not come before the key listing it (a cycle, or
        an order that is not topological)."""
        by_text = {str(k): k for k in keys}
        position = {k: i for i, k in enumerate(keys)}

        def key(k: Any, where: str) -> Any:
            if str(k) not in by_text:
                raise InputError(f"{owner}: {spec.name}{where} names {k!r}, which is not a key of {spec.relates} "
                                 f"({', '.join(map(repr, keys))})")
            return by_text[str(k)]

        out: dict[Any, tuple[Any, ...]] = {k: () for k in keys}
        for k, listed in relation:
            this = key(k, "")
            related = tuple(key(j, f"[{k!r}]") for j in listed)
            late = [j for j in related if position[j] >= position[this]]
            if late:
                raise InputError(f"{owner}: {spec.name}[{k!r}] lists {late[0]!r}, which is not before {k!r} among the "
                                 f"{spec.relates} keys: the keys must be in topological order (each listed key before "
                                 f"the key listing it), so a cycle is refused")
            out[this] = related
        return out

    def describe(self, spec: InputSpec) -> list[str]:
        return [f"    each key of {spec.relates} -> a list of earlier keys of {spec.relates}"]


class ScenarioKind(InputKind):
    """Another scenario of a declared type (an instance, or a table of its inputs): its outputs enter the
    equations as ``input.output`` and its leaves reach the plan, so sensitivity reaches through it."""

    name = "scenario"
    nests = True

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        check_fields(raw, frozenset({"kind", "type", "link", "required", "meaning", "doc", "argument"}))
        if not isinstance(raw.get("type"), str):
            raise InputError("a scenario input names its scenario type: type = \"ActivationMemoryScenario\"")
        links = raw.get("link") or {}
        if not isinstance(links, Mapping) or not all(isinstance(v, str) for v in links.values()):
            raise InputError("'link' must be a table: the scenario's choice argument -> our choice input")
        if not isinstance(raw.get("argument", False), bool):
            raise InputError("'argument' must be true or false")
        argument = bool(raw.get("argument", False))
        return InputSpec(name, self.name, str(raw.get("meaning", "")), bool(raw.get("required", False)) and not argument,
                         None, annotation=raw["type"], type_name=raw["type"], links=dict(links), argument=argument)

    def bind(self, spec: InputSpec, value: Any, bound: Bound) -> None:
        if value is None or isinstance(value, (Mapping, str)):   # a name is looked up by the plan, in the catalog
            bound.values[spec.name] = ReadOnlyDict(value) if isinstance(value, Mapping) else value
            return
        got = getattr(getattr(value, "type", None), "name", None)
        if got != spec.type_name or not hasattr(value, "planner"):
            raise InputError(f"{spec.name}: expected a {spec.type_name} scenario (an instance, a Scenarios name or a "
                             f"table of its inputs), got {got or type(value).__name__}")
        bound.values[spec.name] = value

    def describe(self, spec: InputSpec) -> list[str]:
        links = ", ".join(f"its {a} from {c}" for a, c in spec.links.items())
        return [f"    a {spec.type_name} scenario" + (f" ({links})" if links else "")]


class KeyKind(KeyKindMixin, KeyedKind):
    """``kind = "key"``: a text naming one key of a keyed input (``of``), an indicator under its index
    (:mod:`mlsysim_symbolic.spec.stated`)."""


class ScenariosKind(ScenariosMixin, MapKind):
    """``kind = "scenarios"``: a table of scenarios of one type, one output of each read as the keyed value
    (:mod:`mlsysim_symbolic.spec.keyed_scenarios`)."""

    holds_values = False
    scenario_table = True


class RowsKind(RowsMixin, KeyedKind):
    """``kind = "rows"``: a list of equal-length lists of numbers, bound as cells, with indices over its row and column
    numbers (:mod:`mlsysim_symbolic.spec.rows`)."""


#: Every input kind, by the name a declaration gives in ``kind = "..."``.
KINDS: dict[str, InputKind] = {k.name: k for k in (
    QuantityKind(), FlagKind(), ChoiceKind(), WorkloadKind(), WorkloadsKind(), HardwareKind(), GridKind(), MapKind(), ListKind(),
    RelationKind(), ScenarioKind(), KeyKind(), ScenariosKind(), RowsKind())}


def kind_of(spec: InputSpec | str) -> InputKind:
    """The :class:`InputKind` of an input (or of a kind name)."""
    return KINDS[spec if isinstance(spec, str) else spec.kind]


def read_input(name: str, raw: Any) -> InputSpec:
    """The :class:`InputSpec` of a ``[types.T.inputs.NAME]`` table, read by its kind."""
    raw = read_table(raw, "an input")
    kind = str(raw.get("kind", "quantity"))
    if kind not in KINDS:
        raise InputError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
    return KINDS[kind].read(name, raw)


def _required(raw: Mapping[str, Any]) -> bool:
    return bool(raw.get("required", "default" not in raw))


def _first_field(entry: Entry, paths: Iterable[str], choices: Mapping[str, str]) -> Any:
    for path in paths:
        try:
            path = path.format(**choices)
        except KeyError:
            continue
        raw = entry.get(path)
        if raw is not None:
            return raw
    return None


def _field(var: Variable) -> str:
    """The entry field an attribute symbol reads (its first path)."""
    return var.reads.field if var.reads is not None else var.name


def _few(keys: list[Any]) -> str:
    shown = [f"{k:g}" if isinstance(k, float) else str(k) for k in keys]
    return f"[{', '.join(shown)}]" if len(shown) <= 6 else f"[{', '.join(shown[:3])}, ..., {shown[-1]}] ({len(shown)} values)"


def _list_key(value: Any) -> Any:
    if isinstance(value, pint.Quantity):
        return value.magnitude
    if isinstance(value, str):
        try:
            return parse_quantity(value).magnitude
        except InputError:
            return value
    return value
