"""Binding a scenario's inputs: each input through its kind into :class:`~mlsysim_symbolic.spec.Bound` values, a scenario
input by name through its type's :class:`~mlsysim_symbolic.spec.types.Resolver`, and the bindings kept so that the
same inputs bound again cost a copy; with the bound values read back and the signature a plan depends on.

>>> from mlsysim_symbolic import Scenarios
>>> planner = Scenarios.DpSgdPerExampleGradients.planner
>>> planner.keys("models"), planner.choices
(['KWS', 'GPT-2'], mappingproxy({}))
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import Any

import pint
import sympy

from ..errors import InputError, MissingInputError, UnexpectedNameError, UnknownNameError
from ..registry import Entry
from ..spec import Bound, ScenarioType, kind_of
from ..spec.definitions import ReadOnlyDict
from ..spec.keyed_scenarios import union_keys
from ..spec.kinds import to_base_checked, value_key
from ..variables import KeyedSymbol, NestedSymbol, Variable
from .model import Plan
from .scenario_tables import read_scenario_tables


def _frozen(value: Any) -> Any:
    """A given value kept so that changing the caller's object afterwards cannot change the scenario."""
    if isinstance(value, Mapping):
        return ReadOnlyDict({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def thawed(value: Any) -> Any:
    """A plain (picklable, mutable) copy of a kept value: read-only mappings become dicts."""
    if isinstance(value, Mapping):
        return {k: thawed(v) for k, v in value.items()}
    return value


class _Binding:
    """What binding one set of inputs gave (values, leaves, keys, choices): kept so that the same inputs bound again
    (every solver call given ``Models.Language.Llama3_8B``) cost a copy, not a walk of every input through its kind."""

    __slots__ = ("bound", "given", "presence", "signature", "fast")

    def __init__(self, bound: Bound, given: dict[str, Any], presence: frozenset[int], signature: tuple[Any, ...],
                 fast: dict[Any, tuple[Any, ...]]) -> None:
        self.bound, self.given, self.presence, self.signature = bound, given, presence, signature
        self.fast = fast   # output -> (plan, leaf values): a function of the binding, so every planner of it shares one

    @classmethod
    def of(cls, planner: Binding) -> _Binding:
        return cls(_copied(planner._bound), dict(planner._given), planner._presence, planner.signature, planner._fast)

    def restore(self, planner: Binding) -> None:
        planner._bound = _copied(self.bound)   # a planner adds per-key and nested leaves to its own copy
        planner._given = dict(self.given)
        planner._presence = self.presence
        planner._subs = {}
        planner._fast = self.fast
        planner.__dict__["signature"] = self.signature


def _copied(bound: Bound) -> Bound:
    return Bound(dict(bound.values), dict(bound.scalars),
                 {index: {key: dict(leaves) for key, leaves in by_key.items()} for index, by_key in bound.keyed.items()},
                 dict(bound.keys), dict(bound.choices), bound.stated)


#: (type, the inputs given, each as a key) -> (type, its binding, the given values): kept alive with the entry, so an
#: id is never reused under us.  Only inputs whose key says all there is to them are kept: numbers, texts, flags and
#: registry entries (immutable); a table, a list or an mlsysim object is bound each time.
_BINDINGS: dict[tuple[Any, ...], tuple[ScenarioType, _Binding, tuple[Any, ...]]] = {}
_BINDINGS_MAX = 2048
_SCALARS = (int, float, str, bool, type(None))


def _binding_key(stype: ScenarioType, inputs: Mapping[str, Any]) -> tuple[Any, ...] | None:
    key: list[Any] = [id(stype)]
    for name, value in inputs.items():
        found = (Entry, id(value)) if isinstance(value, Entry) else value_key(value, _SCALARS)
        if found is None:
            return None
        key.append((name, *found))
    return tuple(key)


class Binding:
    """A type's inputs bound to values (each through its kind), read back by name, key and leaf."""

    def __init__(self, stype: ScenarioType, inputs: Mapping[str, Any]) -> None:
        self.type = stype
        self._bound = Bound()
        self._given: dict[str, Any] = {}
        # this planner's memos of the later parts (plans by output, leaf values, and the evaluate fast path, which a
        # kept binding shares): set here, where a kept binding is restored
        self._plans: dict[Any, Plan] = {}
        self._argcache: dict[Any, tuple[Any, ...]] = {}
        self._fast: dict[Any, tuple[Any, ...]] = {}
        key = _binding_key(stype, inputs)
        hit = _BINDINGS.get(key) if key is not None else None
        if hit is not None and hit[0] is stype:
            hit[1].restore(self)
            return
        self._bind(inputs)
        if key is not None and not self._subs:   # a bound scenario input is a planner of its own: bound per call
            if len(_BINDINGS) >= _BINDINGS_MAX:
                _BINDINGS.clear()
            _BINDINGS[key] = (stype, _Binding.of(self), tuple(inputs.values()))

    def _bind(self, inputs: Mapping[str, Any]) -> None:
        t = self.type
        unknown = [k for k in inputs if k not in t.inputs]
        if unknown:
            raise UnexpectedNameError("input", unknown[0], t.inputs, owner=f"{t.name}()")
        # choices first: attribute paths such as precision_flops.{precision} read them
        for name, spec in sorted(t.inputs.items(), key=lambda item: not kind_of(item[1]).chooses):
            if spec.mirrors is not None:   # the mirrored input's values under another index: bound from it, never given
                if inputs.get(name) is not None:
                    raise InputError(f"{t.name}: {name} mirrors {spec.mirrors} (its values under the index "
                                     f"{spec.index!r}) and is not given; give {spec.mirrors}")
                self._given[name] = None
                kind_of(spec).bind(spec, inputs.get(spec.mirrors, t.inputs[spec.mirrors].default), self._bound)
                continue
            value = inputs.get(name, spec.default)
            if spec.only_with and inputs.get(spec.only_with, t.inputs[spec.only_with].default) is None:
                if inputs.get(name) is not None:   # read only with its gate: refused by name, never dropped
                    raise InputError(f"{t.name}: {name} is read only with {spec.only_with}, which is not set; "
                                     f"set {spec.only_with} or leave {name} out")
                value = None                       # its default applies only with the gate
            self._given[name] = _frozen(value)
            kind_of(spec).bind(spec, value, self._bound)
        read_scenario_tables(self)   # each key's scenario of a scenarios input, read for its output
        keys = self._bound.keys
        union_keys(t.index_inputs, t.inputs, self._bound)   # indices whose inputs give some keys each (some_keys)
        for index, names in t.index_inputs.items():
            key_sets = [(n, keys[n]) for n in names   # (a rows input's derived indices are its own: spec/rows.py)
                        if n in keys and not t.inputs[n].some_keys and t.inputs[n].index == index]
            if len({tuple(sorted(map(str, k))) for _, k in key_sets}) > 1:
                raise InputError(f"{t.name}: inputs {', '.join(n for n, _ in key_sets)} share the index {index!r} and must have the same keys")
            if key_sets:
                keys[index] = key_sets[0][1]
        for sym, index in t.positions.items():   # each key's position, for the *_upto reductions
            for position, key in enumerate(keys.get(index, []), start=1):
                self._bound.keyed[index][key][sym] = position
        for name, spec in t.inputs.items():   # a relation names keys of its index, each before the key listing it
            if spec.relates is not None and name in keys and spec.relates in keys:
                kind_of(spec).ordered(spec, keys[name], keys[spec.relates], t.name)
        self._subs: dict[str, Any] = {}   # input -> the planner of the scenario bound to it (a whole Planner)
        for name, spec in t.inputs.items():
            if kind_of(spec).nests:
                self._bind_scenario(name, spec)
        own = []
        for name, spec in t.inputs.items():   # a list stated as start..upto agrees with what it counts
            if spec.upto is not None and spec.upto in t.outputs:
                own.append((name, spec))      # an output of this type: once every leaf is bound
            elif spec.upto is not None:
                kind_of(spec).check_range(spec, self._bound.keys.get(name), self._upto_value(spec.upto), t.name)
        # which leaves are set (by the leaves' identity: the type's own symbols, never a per-key or nested one yet)
        self._presence = frozenset(id(s) for s, v in self._bound.scalars.items() if v is not None)
        for name, spec in own:   # the count does not read the list (checked at load), so it is evaluated here
            kind_of(spec).check_range(spec, self._bound.keys.get(name), self._own_upto_value(spec.upto), t.name)

    def _upto_value(self, upto: str) -> Any:
        """The bound value a list's ``upto`` names: an input's (declared unit), or a scenario input's output."""
        head, _, tail = upto.partition(".")
        if not tail:
            return self._bound.values.get(head)
        sub = self._subs.get(head)
        return sub.evaluate(tail) if sub is not None else None

    def _own_upto_value(self, output: str) -> Any:
        """The value of this type's output a list's ``upto`` names (declared unit), or None where its inputs are unset."""
        try:
            return self.evaluate(output)   # type: ignore[attr-defined] - a Binding is always a Planner's base
        except MissingInputError:
            return None

    def _bind_scenario(self, name: str, spec: Any) -> None:
        """A scenario input: its planner (given, or built from a table of its inputs) and the value of each of its
        outputs our equations use, in base units (choice arguments taken from the linked choice inputs)."""
        value = self._bound.values.get(name)
        if isinstance(value, str):   # a named scenario of the input's type, by its Scenarios key
            resolver = spec.sub_type.resolver   # the catalog that built the input's type names its scenarios
            if resolver is None:
                raise InputError(f"{name}: {value!r} names a scenario, but {spec.sub_type.name} was not read from a catalog; "
                                 "pass the scenario itself or a table of its inputs")
            value = self._bound.values[name] = resolver.named_of(spec.sub_type.name, value)
        proxies = [(sym, var) for sym, var in self.type.leaves.items() if var.scenario_input == name]
        if value is None:
            for sym, _ in proxies:
                self._bound.scalars[sym] = None
            return
        sub = value.planner if hasattr(value, "planner") else type(self)(spec.sub_type, value)
        self._subs[name] = sub
        for sym, var in proxies:
            output = var.stands_for.output
            if output not in spec.sub_type.outputs:   # a quantity input of that scenario: its bound value (base units)
                self._bound.scalars[sym] = sub._bound.scalars.get(spec.sub_type.inputs[output].variable.symbol)
                continue
            arguments = {a: self._bound.choices.get(c) for a, c in spec.links.items() if a in spec.sub_type.output(output).arguments}
            try:
                q = sub.evaluate(output, **arguments)
            except MissingInputError:
                self._bound.scalars[sym] = None
                continue
            self._bound.scalars[sym] = to_base_checked(q.magnitude, var, var.name)

    def scenario_planner(self, name: str) -> Any:
        """The planner of the scenario bound to the scenario input ``name`` (None where it is unset)."""
        return self._subs.get(name)

    def changed(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """The inputs a variant binds: the given ones, with ``changes`` applied through each input's kind."""
        given = {k: v for k, v in self._given.items() if v is not None}
        for name, spec in self.type.inputs.items():   # unsetting a gate unsets the inputs read only with it
            if spec.only_with in changes and changes[spec.only_with] is None and name not in changes:
                given.pop(name, None)
        for name, change in changes.items():
            spec = self.type.inputs.get(name)
            given[name] = kind_of(spec).update(spec, self._bound.values.get(name), change) if spec is not None else change
        return given

    # ------------------------------------------------------------------ bound values
    @property
    def inputs(self) -> Mapping[str, Any]:
        """The bound inputs, by name, in their declared units (read-only)."""
        return MappingProxyType(self._bound.values)

    @property
    def given(self) -> Mapping[str, Any]:
        """The inputs as given (defaults included), by name (read-only)."""
        return MappingProxyType(self._given)

    @property
    def choices(self) -> Mapping[str, str]:
        """The chosen option of each set choice input (read-only)."""
        return MappingProxyType(self._bound.choices)

    @property
    def stated_unit(self) -> pint.Unit | None:
        """The unit a keyed input declared ``unit = "stated"`` was given in (outputs in ``stated`` leave in it), or
        None (spec/stated.py)."""
        return self._bound.stated

    def keys(self, index: str) -> list[Any] | None:
        """The keys of an index (or keyed input), in order; ``None`` when it is not set."""
        keys = self._bound.keys.get(index)
        return list(keys) if keys is not None else None

    def bound(self, symbols: Any, keys: tuple[Any, ...] = ()) -> dict[sympy.Symbol, float]:
        """Base-unit values of the bound leaves among ``symbols`` (keyed ones at ``keys``, in index order)."""
        t = self.type
        key_of = dict(zip(t.index_inputs, keys))
        values: dict[sympy.Symbol, float] = {}
        for s in symbols:
            if s in t.leaf_index:
                key = key_of.get(t.leaf_index[s])
                v = self._bound.keyed.get(t.leaf_index[s], {}).get(key, {}).get(s) if key is not None else None
            else:
                v = self._bound.scalars.get(s)
            if v is not None:
                values[s] = float(v)
        return values

    def variable(self, sym: sympy.Symbol) -> Variable:
        """The declared variable of a leaf symbol (of its base leaf, for a per-key symbol of a sum)."""
        leaves = self.type.leaves
        if sym in leaves:
            return leaves[sym]
        if isinstance(sym, KeyedSymbol) and sym.base in leaves:
            return leaves[sym.base]
        if isinstance(sym, NestedSymbol) and sym.variable is not None:
            return sym.variable
        raise UnknownNameError("symbol", str(sym), owner=self.type.name, note="(no variable declares it)")

    def resolve(self, name: str | sympy.Symbol, args: tuple[sympy.Symbol, ...]) -> tuple[int, Variable]:
        """Where input ``name`` (an input, attribute or argument name, or a symbol) sits among a plan's leaves."""
        for i, sym in enumerate(args):
            var = self.variable(sym)
            if name == sym or name in (var.name, sym.name):
                return i, var
        names = sorted({self.variable(s).name for s in args})
        raise UnknownNameError("input", name, names, owner=self.type.name, note="(not an input of this output)")


    @cached_property
    def signature(self) -> tuple[Any, ...]:
        """What a plan of this scenario depends on besides its type: the set leaves, the keys of each index (a keyed
        sum is written out key by key), the choices, and the signatures of bound scenario inputs."""
        bound = self._bound
        return (self._presence,
                tuple((index, tuple(keys)) for index, keys in sorted(bound.keys.items())),
                tuple(sorted(bound.choices.items())),
                tuple((name, sub.signature) for name, sub in sorted(self._subs.items())))

    @cached_property
    def stable_signature(self) -> tuple[Any, ...]:
        """:attr:`signature` as another process would see it (leaves by name, class and assumptions, keys by
        ``repr``): part of the name of a plan's entry in the plan cache on disk."""
        bound, presence = self._bound, self._presence
        present = [s for s in bound.scalars if id(s) in presence]   # the set leaves (a restored binding keeps only ids)
        return (tuple(sorted((s.name, type(s).__name__, tuple(sorted(s.assumptions0.items()))) for s in present)),
                tuple((index, tuple(map(repr, keys))) for index, keys in sorted(bound.keys.items())),
                tuple(sorted(bound.choices.items())),
                tuple((name, sub.stable_signature) for name, sub in sorted(self._subs.items())))

    def _missing(self, output: str, sym: sympy.Symbol) -> MissingInputError:
        exc = MissingInputError(f"{self.type.name}.{output} needs {self._describe_missing(sym)}, which this scenario does not set")
        exc.leaf = sym   # type: ignore[attr-defined]
        return exc

    def _describe_missing(self, sym: sympy.Symbol) -> str:
        t = self.type
        source = t.leaf_input.get(sym, "?")
        var = self.variable(sym)
        spec = t.inputs.get(source)
        if spec is not None and spec.attributes and self._bound.values.get(source) is not None:
            entry = self._bound.values[source]
            return f"{var.reads.field if var.reads else var.name} ({sym}, in {var.unit_text}) of {spec.kind} {getattr(entry, 'key', source)!r}"
        return f"input {source!r} ({sym}, in {var.unit_text})"
