"""The plan layer: a scenario's bound values, and each output ready to run.

A :class:`Planner` binds a type's inputs (each through its kind), then answers for any
output a frozen :class:`Plan`: the tree (branch picked, earlier outputs substituted,
keyed sums expanded), its leaves in order, the compiled function (cached for the type by
:func:`caches`, shared by every scenario of it) and the scaling from base units to the
declared unit.
Analyses (:mod:`~mlsysim_symbolic.symbolic`, :mod:`~mlsysim_symbolic.sweep`,
:mod:`~mlsysim_symbolic.solve`, :mod:`~mlsysim_symbolic.sensitivity`, the printers) reach a
scenario only through this public layer.

>>> from mlsysim_symbolic import Scenarios
>>> planner = Scenarios.DpSgdPerExampleGradients.planner
>>> plan = planner.plan("per_batch")
>>> plan.expr, plan.args, plan.indices
(B*P*b, (B, P, b), ('models',))
>>> planner.values(plan, ("GPT-2",))
(256, 1500000000.0, 4)
>>> planner.evaluate("per_batch", "GPT-2")
<Quantity(1.536e+12, 'byte')>
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Protocol

import pint
import sympy

from . import plan_cache, reductions
from .dimensions import unit_of
from .errors import FloatRangeError, InputError, MissingInputError, UnexpectedNameError, UnknownNameError
from .evaluate import compile_chain, scalar_namespace
from .registry import Entry
from .spec import Bound, OutputSpec, ScenarioType, kind_of
from .spec.definitions import ReadOnlyDict
from .spec.kinds import checked, to_base_checked
from .underflow import lost_to_zero, suspicious
from .units import base_ratio, from_base, make_quantity, scaling, ureg
from .variables import KeyedSymbol, NestedSymbol, Variable

_EVAL_ERRORS = (ZeroDivisionError, OverflowError, ValueError)
_INF = float("inf")


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

    def __post_init__(self) -> None:
        if self.returns is None:
            object.__setattr__(self, "returns", self.output.variable.outer_unit)

    @cached_property
    def expr(self) -> sympy.Expr:
        """The output as one tree over its leaves (each definition substituted into the next)."""
        done: dict[sympy.Symbol, sympy.Expr] = {}
        for sym, expr in self.definitions:
            done[sym] = expr.xreplace(done) if done else expr
        return done[self.definitions[-1][0]]

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
    """
    if var.domain.contains(1):
        return 1
    value = var.domain.low if var.domain.contains(var.domain.low) else var.domain.low + 1
    return int(value) if var.integer else value


class TypeCaches:
    """What the plan layer keeps for one (frozen) scenario type, shared by every scenario of it: its plans by
    (output, choices, slack, presence signature) and its compiled trees; an analysis may keep more by its own key.

    >>> from mlsysim_symbolic import Scenarios
    >>> caches(Scenarios.DpSgdPerExampleGradients.type) is caches(Scenarios.DpSgdPerExampleGradients.type)
    True
    """

    __slots__ = ("plans", "compiled", "__weakref__")

    def __init__(self) -> None:
        self.plans: dict[Any, Any] = {}
        self.compiled: dict[Any, Callable[..., Any]] = {}

    def clear(self) -> None:
        """Forget every plan and compiled function (the next plan is made, or read from disk, again)."""
        self.plans.clear()
        self.compiled.clear()


#: type -> its caches: held weakly, so a type dropped (one a test built) takes its plans with it
_CACHES: weakref.WeakKeyDictionary[ScenarioType, TypeCaches] = weakref.WeakKeyDictionary()


def caches(stype: ScenarioType) -> TypeCaches:
    """The plans and compiled functions kept for ``stype`` (made empty on first use)."""
    found = _CACHES.get(stype)
    if found is None:
        found = _CACHES[stype] = TypeCaches()
    return found


@dataclass(frozen=True)
class _Unset:
    """A shared plan that cannot be made: the leaf its signature leaves unset."""

    leaf: sympy.Symbol


class Analysable(Protocol):
    """What an analysis needs of a scenario: its planner, type and name."""

    @property
    def planner(self) -> Planner: ...

    @property
    def type(self) -> ScenarioType: ...

    name: str


class NeededBy:
    """The default shown in a signature for an input without one: the outputs that need it.

    >>> NeededBy(("per_token", "total"))
    <needed by per_token, total>
    """

    def __init__(self, outputs: tuple[str, ...]) -> None:
        self.outputs = outputs

    def __repr__(self) -> str:
        return f"<needed by {', '.join(self.outputs) or 'no output'}>"


def needed_by(t: ScenarioType) -> dict[str, tuple[str, ...]]:
    """Input name -> the outputs whose trees reach it (through earlier outputs, composition and choices)."""
    out: dict[str, list[str]] = {name: [] for name in t.inputs}
    for name in t.outputs:
        leaves, choices = t.closure(name)
        reached = {t.leaf_input[s] for s in leaves if s in t.leaf_input} | set(choices)
        for source in reached:
            if source in out:
                out[source].append(name)
    return {k: tuple(v) for k, v in out.items()}


def _frozen(value: Any) -> Any:
    """A given value kept so that changing the caller's object afterwards cannot change the scenario."""
    if isinstance(value, Mapping):
        return ReadOnlyDict({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _answer(plan: Plan, value: Any) -> bool | str:
    """A predicate's bool, or the text of a label's winning case (as the output's kind says)."""
    return plan.output.kind.answer(value, plan.labels or plan.output.labels)


def _read_field(var: Any, sym: sympy.Symbol) -> Any:
    """The entry field an attribute leaf reads (its symbol for any other leaf), for a message."""
    return var.reads.field if var.reads is not None else sym


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
    def of(cls, planner: Planner) -> _Binding:
        return cls(_copied(planner._bound), dict(planner._given), planner._presence, planner.signature, planner._fast)

    def restore(self, planner: Planner) -> None:
        planner._bound = _copied(self.bound)   # a planner adds per-key and nested leaves to its own copy
        planner._given = dict(self.given)
        planner._presence = self.presence
        planner._subs = {}
        planner._fast = self.fast
        planner.__dict__["signature"] = self.signature


def _copied(bound: Bound) -> Bound:
    return Bound(dict(bound.values), dict(bound.scalars),
                 {index: {key: dict(leaves) for key, leaves in by_key.items()} for index, by_key in bound.keyed.items()},
                 dict(bound.keys), dict(bound.choices))


#: (type, the inputs given, each as a key) -> (type, its binding, the given values): kept alive with the entry, so an
#: id is never reused under us.  Only inputs whose key says all there is to them are kept: numbers, texts, flags and
#: registry entries (immutable); a table, a list or an mlsysim object is bound each time.
_BINDINGS: dict[tuple[Any, ...], tuple[ScenarioType, _Binding, tuple[Any, ...]]] = {}
_BINDINGS_MAX = 2048
_SCALARS = (int, float, str, bool, type(None))


def _binding_key(stype: ScenarioType, inputs: Mapping[str, Any]) -> tuple[Any, ...] | None:
    key: list[Any] = [id(stype)]
    for name, value in inputs.items():
        kind = type(value)
        if kind in _SCALARS:
            # 0.0 and -0.0 are equal keys but not the same input (1/x): the sign is part of a float's key
            key.append((name, kind, value, math.copysign(1.0, value) if kind is float else None))
        elif isinstance(value, Entry):
            key.append((name, Entry, id(value)))
        elif isinstance(value, pint.Quantity) and type(value.magnitude) in (int, float):
            m = value.magnitude
            key.append((name, type(m), m, math.copysign(1.0, m), value.units, id(value._REGISTRY)))
        else:
            return None
    return tuple(key)


class Planner:
    """A type's inputs bound to values, and the plans of its outputs (built once, then cached)."""

    def __init__(self, stype: ScenarioType, inputs: Mapping[str, Any]) -> None:
        self.type = stype
        self._bound = Bound()
        self._given: dict[str, Any] = {}
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

    # ------------------------------------------------------------------ binding
    def _bind(self, inputs: Mapping[str, Any]) -> None:
        t = self.type
        unknown = [k for k in inputs if k not in t.inputs]
        if unknown:
            raise UnexpectedNameError("input", unknown[0], t.inputs, owner=f"{t.name}()")
        # choices first: attribute paths such as precision_flops.{precision} read them
        for name, spec in sorted(t.inputs.items(), key=lambda item: not kind_of(item[1]).chooses):
            value = inputs.get(name, spec.default)
            if spec.only_with and inputs.get(spec.only_with, t.inputs[spec.only_with].default) is None:
                if inputs.get(name) is not None:   # read only with its gate: refused by name, never dropped
                    raise InputError(f"{t.name}: {name} is read only with {spec.only_with}, which is not set; "
                                     f"set {spec.only_with} or leave {name} out")
                value = None                       # its default applies only with the gate
            self._given[name] = _frozen(value)
            kind_of(spec).bind(spec, value, self._bound)
        keys = self._bound.keys
        for index, names in t.index_inputs.items():
            key_sets = [(n, keys[n]) for n in names if n in keys]
            if len({tuple(sorted(map(str, k))) for _, k in key_sets}) > 1:
                raise InputError(f"{t.name}: inputs {', '.join(n for n, _ in key_sets)} share the index {index!r} and must have the same keys")
            if key_sets:
                keys[index] = key_sets[0][1]
        for sym, index in t.positions.items():   # each key's position, for the *_upto reductions
            for position, key in enumerate(keys.get(index, []), start=1):
                self._bound.keyed[index][key][sym] = position
        self._subs: dict[str, Planner] = {}
        for name, spec in t.inputs.items():
            if kind_of(spec).nests:
                self._bind_scenario(name, spec)
        # which leaves are set (by the leaves' identity: the type's own symbols, never a per-key or nested one yet)
        self._presence = frozenset(id(s) for s, v in self._bound.scalars.items() if v is not None)

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
        sub = value.planner if hasattr(value, "planner") else Planner(spec.sub_type, value)
        self._subs[name] = sub
        for sym, var in proxies:
            output = var.stands_for.output
            arguments = {a: self._bound.choices.get(c) for a, c in spec.links.items() if a in spec.sub_type.output(output).arguments}
            try:
                q = sub.evaluate(output, **arguments)
            except MissingInputError:
                self._bound.scalars[sym] = None
                continue
            self._bound.scalars[sym] = to_base_checked(q.magnitude, var, var.name)

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

    # ------------------------------------------------------------------ trees
    def available(self, expr: sympy.Expr) -> bool:
        """Whether every leaf ``expr`` reaches is set (picks the first available form of an output)."""
        t = self.type
        for sym in expr.free_symbols:
            if sym in t.output_symbols:
                if not any(self.available(b.expr) for b in t.outputs[t.output_symbols[sym]].branches):
                    return False
            elif sym in t.leaf_index:
                if t.leaf_index[sym] not in self._bound.keys:
                    return False
            elif sym in t.leaves and t.leaf_input.get(sym) not in t.arguments:
                if self._bound.scalars.get(sym) is None:
                    return False
        return True

    def composed_tree(self, sym: sympy.Symbol) -> sympy.Expr:
        """A used type's output over our leaves, at the options our choice inputs bound to its choices pick, through
        the first of its alternatives whose inputs the bind table binds and this scenario sets (a latent-attention KV
        cache only for a model that states its latent rank)."""
        t = self.type
        form = t.composed_forms.get(sym)
        if form is None:
            return t.composed[sym]
        sub, output, mapping, choice_map = form
        choices = {c: self._bound.choices[ours] for c, ours in choice_map.items() if ours in self._bound.choices}

        def available(expr: sympy.Expr) -> bool:   # through the used type's own outputs too
            return (all(any(available(b.expr) for b in sub.outputs[sub.output_symbols[s]].branches)
                        for s in expr.free_symbols if s in sub.output_symbols)
                    and all(s in mapping for s in expr.free_symbols if s in sub.leaves)
                    and self.available(expr.xreplace(mapping)))

        return sub.expand(output, choices, available=available).xreplace(mapping)

    def expression(self, output: str, expand: bool = False, choices: Mapping[str, str] | None = None) -> sympy.Expr:
        """The tree of ``output`` at this scenario's choices: over inputs and earlier outputs, or the leaves only."""
        picked = {**self._bound.choices, **(choices or {})}
        if expand:
            if self._subs:   # reach through bound scenario inputs to their leaves (needs their values)
                try:
                    return self.plan(output, tuple((choices or {}).items())).expr
                except MissingInputError:
                    pass
            return self.type.expand(output, picked, available=self.available, composed=self.composed_tree)
        return self.type.branch(output, picked, self.available).expr

    def expanded(self, output: str, choices: Mapping[str, str] | None = None) -> sympy.Expr:
        """The tree of ``output`` over its leaves, keyed sums written out term by term."""
        self.type.output(output)
        self._require_choices(output, choices)
        return self._expand_reductions(self.expression(output, expand=True, choices=choices))

    def _require_choices(self, output: str, choices: Mapping[str, str] | None) -> None:
        _, used = self.type.closure(output)
        for choice in used:
            spec = self.type.inputs.get(choice)
            if spec is not None and spec.required and choice not in self._bound.choices and choice not in (choices or {}):
                raise MissingInputError(f"{self.type.name}.{output}", [choice], options=spec.options)

    def _expand_reductions(self, expr: sympy.Expr) -> sympy.Expr:
        t = self.type
        if not expr.has(*reductions.NODES):
            return expr
        bound = self._bound

        def expand(node: Any) -> Any:
            if isinstance(node, reductions.NODES):
                inner = expand(node.function)
                index = t.reductions.get(node.limits[0][0], node.limits[0][0].name)
                if index not in bound.keys:
                    raise MissingInputError(f"{t.name}: the sum over {index!r} needs its keyed input "
                                            f"({', '.join(t.index_inputs.get(index, [index]))}), which is not set")
                upper = node.limits[0][2]
                identity = sympy.Integer(0) if isinstance(node, sympy.Sum) else sympy.Integer(1)
                terms = []
                for position, key in enumerate(bound.keys[index], start=1):
                    subs = {}
                    for sym in inner.free_symbols:
                        if t.leaf_index.get(sym) == index and sym not in t.positions:
                            subs[sym] = KeyedSymbol(sym, key)
                            bound.scalars[subs[sym]] = bound.keyed[index][key].get(sym)
                    term = inner.xreplace(subs)
                    if upper in t.positions:   # the keys up to this one: the term counts where the key's position n >= its own
                        term = sympy.Piecewise((term, sympy.Ge(upper, position)), (identity, True))
                    terms.append(term)
                return reductions.write_out(node, terms)
            return node.func(*[expand(a) for a in node.args]) if node.args else node

        return expand(expr)

    def compiled(self, plan: Plan, *, varying: frozenset[sympy.Symbol] | None = None) -> Callable[..., Any]:
        """The plan's chain compiled over its leaves (cached on the type, shared by its scenarios): scalar, or for
        arrays with the fixed factors hoisted out when ``varying`` names the leaves that vary."""
        return self._compiled(plan.definitions, plan.args, varying)

    def _compiled(self, definitions: tuple[tuple[sympy.Symbol, sympy.Expr], ...], args: tuple[sympy.Symbol, ...],
                  varying: frozenset[sympy.Symbol] | None, disk_key: str | None = None) -> Callable[..., Any]:
        key = (definitions, args, varying)
        compiled = self._caches.compiled
        function = compiled.get(key)
        if function is None:
            if varying is None and disk_key is not None:   # a plan's scalar function: its source kept on disk too
                function = plan_cache.compiled(disk_key, definitions, args, compile_chain, scalar_namespace)
            elif varying is None:
                function = compile_chain(definitions, args)
            else:
                function = compile_chain(definitions, args, vector=True, varying=set(varying))
            compiled[key] = function
        return function

    def definitions(self, output: str, choices: Mapping[str, str] | None = None) -> tuple[tuple[sympy.Symbol, sympy.Expr], ...]:
        """The chain of ``output``: each output (and composed output) it uses, before it, each over its leaves
        and the symbols of the outputs before it (keyed sums written out; outputs inside a sum inlined)."""
        t = self.type
        self._require_choices(output, choices)
        picked = {**self._bound.choices, **(choices or {})}
        chain: list[tuple[sympy.Symbol, sympy.Expr]] = []
        seen: set[sympy.Symbol] = set()

        def inline(expr: sympy.Expr) -> sympy.Expr:
            subs = {s: t.expand(t.output_symbols[s], picked, self.available, self.composed_tree) if s in t.output_symbols
                    else self.composed_tree(s)
                    for s in expr.free_symbols if s in t.output_symbols or s in t.composed}
            return expr.xreplace(subs) if subs else expr

        def visit(sym: sympy.Symbol, expr: sympy.Expr) -> None:
            if sym in seen:
                return
            seen.add(sym)
            nested = self._nested(sym)
            if nested is not None:   # a bound scenario input's output: that scenario's chain, over its own leaves
                chain.extend(d for d in nested if d[0] == sym or d[0] not in seen)
                seen.update(d[0] for d in nested)
                return
            if expr.has(*reductions.NODES):
                expr = expr.replace(lambda e: isinstance(e, reductions.NODES), lambda e: e.func(inline(e.function), *e.limits))
            for dep in sorted(expr.free_symbols, key=lambda s: s.name):
                if dep in t.output_symbols:
                    visit(dep, t.branch(t.output_symbols[dep], picked, self.available).expr)
                elif dep in t.composed:
                    visit(dep, self.composed_tree(dep))
                elif dep in t.leaves and t.leaves[dep].scenario_input in self._subs:
                    visit(dep, dep)
            chain.append((sym, self._expand_reductions(expr)))

        out = t.output(output)
        visit(out.variable.symbol, t.branch(output, picked, self.available).expr)
        return tuple(chain)

    def _nested(self, sym: sympy.Symbol) -> list[tuple[sympy.Symbol, sympy.Expr]] | None:
        """For the leaf standing for a bound scenario input's output: that scenario's definitions with its symbols
        scoped by the input's name, ending with ``(leaf, its result)``; their leaves' values join ours."""
        var = self.type.leaves.get(sym)
        name = var.scenario_input if var is not None else None
        sub = self._subs.get(name) if name else None
        if sub is None:
            return None
        spec, output = self.type.inputs[name], var.stands_for.output
        links = tuple((a, self._bound.choices[c]) for a, c in spec.links.items()
                      if a in spec.sub_type.output(output).arguments and c in self._bound.choices)
        plan = sub.plan(output, links)
        rename = {s: NestedSymbol(s, name, sub.variable(s)) for s in plan.args}
        rename.update({d: NestedSymbol(d, name) for d, _ in plan.definitions})
        for leaf, value in zip(plan.args, sub.values(plan)):
            self._bound.scalars[rename[leaf]] = value
        chain = [(rename[d], e.xreplace(rename)) for d, e in plan.definitions]
        chain.append((sym, rename[plan.definitions[-1][0]]))   # definitions are in base units on both sides
        return chain

    # ------------------------------------------------------------------ plans
    def plan(self, output: str, choices: tuple[tuple[str, str], ...] = (), *, slack: bool = False) -> Plan:
        """The :class:`Plan` of ``output`` (``choices``: options picked by choice arguments).

        With ``slack=True`` a predicate output ``lhs <= rhs`` is planned as its slack ``rhs - lhs`` (``lhs - rhs``
        for ``>=``), a number in the unit of its sides that is positive exactly where the predicate holds.
        """
        key = (output, choices, slack)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        # a plan is the type's at a presence signature (which leaves are set, the keys, the choices), not this
        # scenario's: every scenario of the type with the same signature (each solver call) shares it
        shared = (output, choices, slack, self.signature)
        plans = self._caches.plans
        plan = plans.get(shared)
        if plan is None:
            try:
                plan = self._make_plan(output, choices, slack)
            except MissingInputError as exc:   # an optional input unset: as much a property of the signature
                leaf = getattr(exc, "leaf", None)
                if leaf is not None:
                    plans[shared] = _Unset(leaf)
                raise
            plans[shared] = plan
        elif isinstance(plan, _Unset):   # the message names this scenario's entry
            raise self._missing(output, plan.leaf)
        else:
            self._derive(plan.args)
        self._plans[key] = plan
        return plan

    @cached_property
    def _caches(self) -> TypeCaches:
        return caches(self.type)

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

    def _chain(self, output: str, choices: tuple[tuple[str, str], ...]) -> tuple[Any, str | None]:
        """:meth:`definitions` at ``choices``, read from the plan cache on disk when another process (or an earlier
        run) made them for this type, signature and code; else made and stored there.  With the entry's key
        (None: not cached on disk)."""
        key = plan_cache.entry_key(self.type, (output, choices, self.stable_signature))
        if key is not None:
            self._require_choices(output, dict(choices))
            found = plan_cache.read(key)
            if found is not None:
                return found, key
        definitions = self.definitions(output, dict(choices))
        if key is not None and not plan_cache.write(key, definitions):
            key = None   # not storable (a nested scenario's symbols): its function is not stored either
        return definitions, key

    def _derive(self, args: tuple[sympy.Symbol, ...]) -> None:
        """Bind the per-key and nested leaves of a shared plan, as planning it here would have (its values)."""
        scalars = self._bound.scalars
        for sym in args:
            if sym not in scalars and isinstance(sym, (KeyedSymbol, NestedSymbol)):
                scalars[sym] = self._derived(sym)

    def _derived(self, sym: sympy.Symbol) -> Any:
        if isinstance(sym, KeyedSymbol):
            index = self.type.leaf_index[sym.base]
            return self._bound.keyed[index][sym.key].get(sym.base)
        sub = self._subs[sym.scope]
        value = sub._bound.scalars.get(sym.base)
        if value is None and isinstance(sym.base, (KeyedSymbol, NestedSymbol)):
            value = sub._bound.scalars[sym.base] = sub._derived(sym.base)
        return value

    def _make_plan(self, output: str, choices: tuple[tuple[str, str], ...], slack: bool) -> Plan:
        t = self.type
        out = t.output(output)
        definitions, disk_key = self._chain(output, choices)
        if slack:
            out, definitions = self._slack(out, definitions)
        defined = {sym for sym, _ in definitions}
        free = set().union(*(expr.free_symbols for _, expr in definitions)) - defined
        leaves = tuple(sorted(free, key=lambda s: s.name))
        self._derive(leaves)   # the per-key and nested leaves of definitions read from the cache
        for sym in leaves:
            if sym not in t.leaf_index and t.leaf_input.get(sym) not in t.arguments and self._bound.scalars.get(sym) is None:
                raise self._missing(output, sym)
        factor, divisor = scaling(1 / base_ratio(out.variable.unit))   # 15e9 B / 10**9 is 15 GB exactly (not * 1e-9)
        function = self._compiled(definitions, leaves, None, disk_key and f"{disk_key}-{'slack' if slack else 'value'}")
        plan = Plan(out, definitions, leaves, function, out.variable.unit,
                    indices=tuple(dict.fromkeys(t.leaf_index[s] for s in leaves if s in t.leaf_index)),
                    arguments=tuple(a for a, v in t.arguments.items() if v.symbol in free),
                    factor=factor, divisor=divisor,
                    labels=tuple(str(k) for k in self._bound.keys.get(out.over, ())) if out.over else ())
        return plan

    def numeric_plan(self, output: str, choices: tuple[tuple[str, str], ...] = ()) -> Plan:
        """The plan an analysis differentiates, sweeps or solves: the output itself, or a predicate's slack."""
        kind = self.type.output(output).kind
        kind.check_analysable(self.type.name, output)
        return self.plan(output, choices, slack=kind.condition)

    def _slack(self, out: OutputSpec, definitions: tuple[tuple[sympy.Symbol, sympy.Expr], ...]) -> tuple[OutputSpec, tuple]:
        if not out.kind.condition:
            raise InputError(f"{self.type.name}.{out.name} is not a predicate, so it has no slack")
        *before, (sym, rel) = definitions
        if not isinstance(rel, sympy.core.relational.Relational):
            raise InputError(f"{self.type.name}.{out.name} = {rel} joins several comparisons: its slack is not one number")
        lhs, rhs = rel.args
        expr = rhs - lhs if isinstance(rel, (sympy.Le, sympy.Lt)) else lhs - rhs
        unit = unit_of(lhs, self.type.unit_map) if lhs != 0 else unit_of(rhs, self.type.unit_map)
        var = replace(out.variable, name=f"{out.name}_slack", unit=unit, meaning=f"slack of {out.name}: {expr} (>= 0 where it holds)")
        slack_sym = sympy.Symbol(f"{sym.name}_slack", real=True)
        return replace(out, kind="quantity", variable=var), (*before, (slack_sym, expr))

    def slack(self, output: str, *keys: Any, **arguments: Any) -> pint.Quantity:
        """How far predicate ``output`` is from flipping, in the unit of its sides (>= 0 where it holds)."""
        plan = self.plan(output, slack=True)
        value = plan.function(*self.values(plan, keys, arguments))
        return make_quantity(plan.to_unit(value), plan.unit)

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

    def values(self, plan: Plan, keys: tuple[Any, ...] = (), arguments: Mapping[str, Any] | None = None) -> tuple[Any, ...]:
        """The base-unit value of each of ``plan.args``: bound inputs, the values at ``keys``, and ``arguments``."""
        if not arguments and not plan.indices and not plan.arguments:   # the common case: every leaf a bound scalar
            scalars = self._bound.scalars
            try:
                found = tuple([scalars[s] for s in plan.args])
            except KeyError:
                found = None
            if found is not None and not keys and all(v is not None for v in found):
                return found
        t = self.type
        arguments = arguments or {}
        key_of = self._key_of(plan, keys)
        unknown = [a for a in arguments if a not in plan.arguments]
        if unknown:
            raise UnexpectedNameError("argument", unknown[0], plan.arguments, owner=f"{t.name}.{plan.output.name}",
                                      note="" if plan.arguments else "(it takes no arguments)")
        given = {t.arguments[a].symbol: self._argument(plan, a, arguments.get(a)) for a in plan.arguments}
        values = []
        for sym in plan.args:
            if sym in given:
                values.append(given[sym])
            elif sym in t.leaf_index:
                key = key_of[t.leaf_index[sym]]
                value = self._bound.keyed[t.leaf_index[sym]][key].get(sym)
                if value is None:
                    raise MissingInputError(f"{t.name}.{plan.output.name}: {key!r} has no "
                                            f"{_read_field(self.variable(sym), sym)} ({sym})")
                values.append(value)
            else:
                value = self._bound.scalars.get(sym)
                if value is None:
                    raise MissingInputError(f"{t.name}.{plan.output.name} needs {self._describe_missing(sym)}, which this scenario does not set")
                values.append(value)
        return tuple(values)

    def _key_of(self, plan: Plan, keys: tuple[Any, ...]) -> dict[str, Any]:
        t = self.type
        if len(keys) < len(plan.indices):
            missing = plan.indices[len(keys):]
            raise MissingInputError(f"{t.name}.{plan.output.name}", missing, what="a key for",
                                    options=self._bound.keys.get(missing[0], ()), reason="")
        key_of: dict[str, Any] = {}
        for index, key in zip(plan.indices, keys):
            known = self._bound.keys.get(index)
            if known is None:
                raise MissingInputError(f"{t.name}.{plan.output.name}", t.index_inputs.get(index, [index]))
            try:
                present = key in self._bound.keyed[index]
            except TypeError:
                present = False
            if not present:
                raise UnknownNameError(f"{index} key", key, known)
            key_of[index] = key
        return key_of

    def _argument(self, plan: Plan, name: str, value: Any) -> Any:
        t = self.type
        var = t.arguments[name]
        if value is not None:
            return to_base_checked(checked(var, value, name), var, name)
        source = var.default_input
        bound = self._bound.scalars.get(t.inputs[source].variable.symbol) if source else None
        if bound is None:
            raise MissingInputError(f"{t.name}.{plan.output.name}()", [name], what="argument",
                                    reason=f"or set input {source!r}" if source else "")
        return bound

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, output: str, *keys: Any, **arguments: Any) -> pint.Quantity:
        """The value of ``output`` as a pint Quantity in its declared unit (``keys`` pick keyed values)."""
        if not arguments:
            try:
                fast = self._fast.get((output, keys))
            except TypeError:   # an unhashable key (a list): the slow path names it
                fast = None
            if fast is not None:
                return self._run(output, keys, *fast)
        t = self.type
        out = t.output(output)
        picked = []
        for a in out.arguments:
            options = t.arguments[a].options
            if options:
                value = arguments.pop(a, None)
                if value not in options:
                    raise InputError(f"{output}: {a} must be one of {', '.join(map(repr, options))}, got {value!r}")
                picked.append((a, value))
        choice_value = tuple(picked)
        plan = self.plan(output, choice_value)
        if len(keys) != len(plan.indices):
            if not plan.indices:
                raise UnexpectedNameError("key", keys[0], owner=f"{t.name}.{output}", note=f"(it takes no key; got {len(keys)})")
            raise MissingInputError(f"{t.name}.{output}", plan.indices, what="a key for",
                                    options=self._bound.keys.get(plan.indices[0], ()), reason="")
        cache_key = (output, choice_value, keys)
        try:
            args = None if plan.arguments else self._argcache.get(cache_key)
        except TypeError:
            raise UnknownNameError(f"{plan.indices[0]} key", keys, self._bound.keys.get(plan.indices[0], ()),
                                   owner=f"{t.name}.{output}", note="(a key must be a name)") from None
        if args is None:
            args = self.values(plan, keys, arguments)
            if not plan.arguments:
                self._argcache[cache_key] = args
        elif arguments:
            raise UnexpectedNameError("argument", next(iter(arguments)), owner=f"{t.name}.{output}",
                                      note="(it takes no arguments)")
        result = self._run(output, keys, plan, args)
        if not plan.arguments and not choice_value:
            self._fast[(output, keys)] = (plan, args)
        return result

    def _run(self, output: str, keys: tuple[Any, ...], plan: Plan, args: tuple[Any, ...]) -> Any:
        """The compiled function at ``args``: a Quantity in the declared unit, a bool or a label; named errors."""
        try:
            value = plan.function(*args)
        except _EVAL_ERRORS as exc:
            raise self.not_evaluable(output, keys, exc, plan, args) from None
        if not -_INF < value < _INF:
            raise self.not_finite(output, keys, value, plan, args)
        if not plan.output.kind.numeric:
            return _answer(plan, value)
        shown = plan.to_unit(value)
        if suspicious(shown) and lost_to_zero(plan.expr, plan.args, args, shown):   # 0.0 where the exact value is not
            raise self.not_finite(output, keys, value, plan, args, what=f"underflows float64 (to {shown:g} {plan.returns:~C})")
        return make_quantity(shown, plan.returns)

    def not_evaluable(self, output: str, keys: tuple[Any, ...], exc: Exception, plan: Plan | None = None,
                      args: tuple[Any, ...] | None = None) -> InputError:
        """The error for inputs at which the equation has no value (a zero divisor, an overflow, a log of a negative)."""
        shown = ""
        if plan is not None and args is not None:
            parts = []
            for sym, base in zip(plan.args, args):
                var = self.variable(sym)
                parts.append(f"{var.name} = {from_base(base, var.unit):g} {var.unit_text}")
            shown = f" at {', '.join(parts)}" if parts else ""
        where = f"{self.type.name}.{output}" + (f"[{', '.join(map(repr, keys))}]" if keys else "")
        return InputError(f"{where} has no value{shown}: {exc}")

    def not_finite(self, output: str, keys: tuple[Any, ...], value: Any, plan: Plan, args: tuple[Any, ...],
                   what: str | None = None) -> FloatRangeError:
        """The error for a result beyond float64 (NaN, or ``what`` went wrong): names the output and the inputs that took it there."""
        parts = []
        for sym, base in zip(plan.args, args):
            var = self.variable(sym)
            parts.append(f"{var.name} = {from_base(base, var.unit):g} {var.unit_text}")
        where = f"{self.type.name}.{output}" + (f"[{', '.join(map(repr, keys))}]" if keys else "")
        what = what or ("is not a number" if value != value else "overflows float64")
        return FloatRangeError(f"{where} {what} at {', '.join(parts)}")

    def member(self, name: str, keys: tuple[Any, ...] = ()) -> Any:
        """What reading member ``name`` gives: a Quantity, or a dict by key for keyed outputs."""
        spec = self.type.output(name)
        if spec.style == "dict" or (spec.indices and not keys):
            return self.as_dict(name)
        if spec.indices:
            return self.evaluate(name, *keys[: len(spec.indices)])
        return self.evaluate(name)

    def as_dict(self, name: str, prefix: tuple[Any, ...] = ()) -> Any:
        """A keyed output as nested dicts ``{key: Quantity}``, one level per index."""
        indices = self.plan(name).indices
        if len(prefix) == len(indices):
            return self.evaluate(name, *prefix)
        index = indices[len(prefix)]
        if index not in self._bound.keys:
            raise MissingInputError(f"{self.type.name}.{name}", self.type.index_inputs.get(index, [index]))
        return {k: self.as_dict(name, (*prefix, k)) for k in self._bound.keys[index]}

    def symbol_values(self, output: str, *keys: Any, **arguments: Any) -> dict[sympy.Symbol, pint.Quantity]:
        """The value of each leaf symbol of ``output`` as a Quantity in its declared unit."""
        plan = self.plan(output)
        args = self.values(plan, keys, arguments)
        result = {}
        for sym, base in zip(plan.args, args):
            var = self.variable(sym)
            result[sym] = ureg.Quantity(from_base(base, var.unit), var.unit)
        return result
