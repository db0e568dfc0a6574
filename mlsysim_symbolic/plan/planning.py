"""Planning: the tree of each output at a scenario's choices and available inputs (earlier outputs, composed and
nested scenarios' outputs, keyed sums written out), made into a :class:`~mlsysim_symbolic.plan.model.Plan` once per
type and signature, and a predicate's slack.

>>> from mlsysim_symbolic import Scenarios
>>> Scenarios.DpSgdPerExampleGradients.planner.expression("per_batch")
B*M_example
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import sympy

from .. import packing, reductions
from ..dimensions import unit_of
from ..errors import InputError, MissingInputError
from ..spec import OutputSpec, kind_of
from ..spec.outputs import QUANTITY
from ..treewalk import rename_symbols
from ..units import base_ratio, scaling
from ..variables import KeyedSymbol, NestedSymbol
from .binding import Binding
from .compiling import Compiling, stored_definitions
from .model import Plan


@dataclass(frozen=True)
class _Unset:
    """A shared plan that cannot be made: the leaf its signature leaves unset."""

    leaf: sympy.Symbol


class Planning(Binding, Compiling):
    """The trees and plans of a bound scenario's outputs (a plan shared by every scenario of the type with the same
    signature)."""

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

    def written_out(self, expr: sympy.Expr) -> sympy.Expr:
        """``expr`` with each reduction (sum, maximum, a relation's ``earliest`` ...) written out over this scenario's
        bound keys, as a plan writes it (a side of a predicate printed with its values reads it)."""
        return self._expand_reductions(expr)

    def _expand_reductions(self, expr: sympy.Expr) -> sympy.Expr:
        t = self.type
        if not expr.has(*reductions.NODES):
            return expr
        bound = self._bound

        def expand(node: Any) -> Any:
            if isinstance(node, reductions.Earliest):
                return earliest(node, expand(node.function))
            if isinstance(node, reductions.FirstFitDecreasing):
                return first_fit(node, expand(node.function), expand(node.limits[1][2]))
            if isinstance(node, reductions.Related):
                return related(node, expand(node.function))
            if isinstance(node, reductions.NODES):
                inner = expand(node.function)
                for limit in node.limits:   # a sum of a sum is one Sum with two limits: the innermost first
                    inner = expand_limit(node, limit, inner)
                return inner
            return node.func(*[expand(a) for a in node.args]) if node.args else node

        def graph_of(name: str, index: str) -> tuple[list[Any], dict[Any, tuple[Any, ...]]]:
            """The keys of ``index`` and the relation ``name`` (a relation input, or the inverse one declares) over
            them, checked (keys of the index, in topological order)."""
            spec = next(s for s in t.inputs.values() if s.relates is not None and name in (s.name, s.inverse))
            keys = bound.keys.get(index)
            if keys is None or spec.name not in bound.keys:
                missing = t.index_inputs.get(index, [index]) if keys is None else [spec.name]
                raise MissingInputError(f"{t.name}: the reduction over {name} needs {', '.join(missing)}, which is not set")
            graph = kind_of(spec).ordered(spec, bound.keys[spec.name], keys, t.name)
            if name == spec.inverse:   # the keys listing each key, in key order
                graph = {k: tuple(m for m in keys if k in graph[m]) for k in keys}
            return keys, graph

        def by_position(upper: Any, values: list[Any]) -> Any:
            """The value of the key whose position the leaf ``upper`` holds (a sum over the index sets it)."""
            if len(values) == 1:
                return values[0]
            return sympy.Piecewise(*((value, sympy.Lt(upper, sympy.Rational(2 * i + 3, 2)))
                                     for i, value in enumerate(values[:-1])), (values[-1], True))

        def related(node: Any, inner: Any) -> Any:
            """The body at each related key, combined, for each key of the relation's index (by position)."""
            (dummy, _, upper), (rel, _, _) = node.limits
            own = t.positions[upper]
            name = rel.name.removeprefix("R_")
            spec = next(s for s in t.inputs.values() if s.relates is not None and name in (s.name, s.inverse))
            read = {t.leaf_index.get(s, t.positions.get(s)) for s in inner.free_symbols} - {None}
            mirrors = {s.index for s in t.inputs.values() if s.mirrors and t.inputs[s.mirrors].index == spec.relates}
            if not read <= mirrors | {own} or len(read & mirrors) > 1:
                raise InputError(f"{t.name}: the reduction over {name} reads {', '.join(sorted(read))}: only the keys "
                                 f"{name} relates ({own}) and one mirror of them")
            index = next(iter(read & mirrors), own)   # the related key through the mirror, else through the index
            keys, graph = graph_of(name, own)
            return by_position(upper, [node.combine(*(term(inner, index, q) for q in graph[p])) if graph[p] else node.empty
                                       for p in keys])

        def earliest(node: Any, inner: Any) -> Any:
            """Each key's earliest start S_j = max over its predecessors p of (S_p + w_p), 0 with none, written out
            over the bound graph (a DAG of shared subtrees); the output keyed by the index picks its key's S through
            the position leaf, which a sum over the index sets to each key's position."""
            (dummy, _, upper), (rel, _, _) = node.limits
            index = t.reductions.get(dummy, dummy.name)
            keys, graph = graph_of(rel.name.removeprefix("R_"), index)
            start: dict[Any, Any] = {}
            for key in keys:   # keys in topological order (checked when bound): every predecessor is done first
                preds = graph[key]
                start[key] = sympy.Max(*(start[p] + term(inner, index, p) for p in preds)) if preds else sympy.Integer(0)
            return by_position(upper, [start[k] for k in keys])

        def first_fit(node: Any, inner: Any, capacity: Any) -> Any:
            """Each bin's load under first-fit decreasing of the keys' sizes (bin b at the key in position b): one flat
            first_fit_load(b, C, w_1, ..., w_n) per bin, never the placements' nested tree; the output keyed by the
            index picks its bin through the position leaf."""
            (dummy, _, upper), _ = node.limits
            index = t.reductions.get(dummy, dummy.name)
            if index not in bound.keys:
                raise MissingInputError(f"{t.name}: first_fit_decreasing over {index!r} needs its keyed input "
                                        f"({', '.join(t.index_inputs.get(index, [index]))}), which is not set")
            keys = bound.keys[index]
            sizes = [term(inner, index, k) for k in keys]
            loads = [packing.first_fit_load(b, capacity, *sizes) for b in range(1, len(keys) + 1)]
            if len(loads) == 1:   # one key still reads its position (a bin past it holds 0), so the output stays keyed
                return sympy.Piecewise((loads[0], sympy.Lt(upper, sympy.Rational(3, 2))), (sympy.Integer(0), True))
            return by_position(upper, loads)

        def term(inner: Any, index: str, key: Any) -> Any:
            """``inner`` at ``key`` of ``index``: each of its keyed leaves as that key's leaf, bound to its value, and
            the index's position leaf (an earlier reduction's choice of key) at the key's position."""
            subs = {}
            for sym in inner.free_symbols:
                if t.positions.get(sym) == index:
                    subs[sym] = sympy.Integer(bound.keys[index].index(key) + 1)
                elif t.leaf_index.get(sym) == index and sym not in t.positions:
                    subs[sym] = KeyedSymbol(sym, key)
                    bound.scalars[subs[sym]] = bound.keyed[index][key].get(sym)
            return inner.xreplace(subs)

        def expand_limit(node: Any, limit: Any, inner: Any) -> Any:
            index = t.reductions.get(limit[0], limit[0].name)
            if index not in bound.keys:
                raise MissingInputError(f"{t.name}: the sum over {index!r} needs its keyed input "
                                        f"({', '.join(t.index_inputs.get(index, [index]))}), which is not set")
            upper = limit[2]
            identity = sympy.Integer(0) if isinstance(node, sympy.Sum) else sympy.Integer(1)
            terms = []
            cumulative = upper in t.positions
            for position, key in enumerate(bound.keys[index], start=1):
                subs = {}
                for sym in inner.free_symbols:
                    if t.leaf_index.get(sym) != index:
                        continue
                    if sym in t.positions:
                        # a *_upto output reduced by a plain sum over its index: each term at its key's position
                        if not cumulative:
                            subs[sym] = sympy.Integer(position)
                        continue
                    subs[sym] = KeyedSymbol(sym, key)
                    bound.scalars[subs[sym]] = bound.keyed[index][key].get(sym)
                term = inner.xreplace(subs)
                if cumulative:   # the keys up to this one: the term counts where the key's position n >= its own
                    term = sympy.Piecewise((term, sympy.Ge(upper, position)), (identity, True))
                terms.append(term)
            return reductions.write_out(node, terms)

        return expand(expr)


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
        if output not in spec.sub_type.outputs:   # a quantity input of that scenario: its own leaf, scoped by our input
            given = spec.sub_type.inputs[output].variable.symbol
            leaf = NestedSymbol(given, name, sub.variable(given))
            self._bound.scalars[leaf] = sub._bound.scalars.get(given)
            return [(sym, leaf)]
        links = tuple((a, self._bound.choices[c]) for a, c in spec.links.items()
                      if a in spec.sub_type.output(output).arguments and c in self._bound.choices)
        plan = sub.plan(output, links)
        rename = {s: NestedSymbol(s, name, sub.variable(s)) for s in plan.args}
        rename.update({d: NestedSymbol(d, name) for d, _ in plan.definitions})
        for leaf, value in zip(plan.args, sub.values(plan)):
            self._bound.scalars[rename[leaf]] = value
        chain = [(rename[d], rename_symbols(e, rename)) for d, e in plan.definitions]
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

    def _chain(self, output: str, choices: tuple[tuple[str, str], ...]) -> tuple[Any, str | None]:
        """:meth:`definitions` at ``choices``, through the plan cache on disk (:func:`stored_definitions`)."""
        return stored_definitions(self.type, (output, choices, self.stable_signature),
                                  lambda: self.definitions(output, dict(choices)),
                                  lambda: self._require_choices(output, dict(choices)))

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
                    indices=self._indices(output, leaves),
                    arguments=tuple(a for a, v in t.arguments.items() if v.symbol in free),
                    factor=factor, divisor=divisor,
                    labels=tuple(self._bound.keys.get(out.over, ())) if out.over else ())
        return plan

    def _indices(self, output: str, leaves: tuple[sympy.Symbol, ...]) -> tuple[str, ...]:
        """The keys a value of ``output`` needs: the indices of its plan's keyed leaves, or, where those are some of the
        indices its type declares, the declared ones (a reduction written out over one key leaves no position leaf,
        the one key's value alone, and the output is still keyed by that index)."""
        t = self.type
        found = tuple(dict.fromkeys(t.leaf_index[s] for s in leaves if s in t.leaf_index))
        declared = t.output(output).indices
        return declared if declared and set(found) <= set(declared) else found

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
        return replace(out, kind=QUANTITY, variable=var), (*before, (slack_sym, expr))
