"""Composition: a type that uses another type's outputs (``[types.T.uses.NAME]``, ``type``, ``bind``, ``replace``).

The composed output enters T's equations as one symbol (``M = M_batch + M_w``), and stands for the
other type's tree over T's own inputs, so ``expand=True`` reaches T's leaves.  ``replace`` puts an equation of
T's inputs in place of one leaf of the used type (``replace = { R = "R * k" }``: the used roofline at a peak rate
scaled by k), so one type can compose another at several points of its inputs.  ``bind`` may also name an output
of T (``bind = { delay = "total_delay" }``: the used budget at a delay T computes) or, for a scenario input of the
used type, a scenario input of T of the same type (``bind = { site = "site" }``); a use bound that way keeps its
nested result view (the used type's result at the values bound), which a use with ``replace`` has not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pint
import sympy

from ..dimensions import unit_of
from ..errors import DimensionError, EquationError, InputError
from ..variables import ScenarioOutput, Variable
from .definitions import InputSpec
from .kinds import QuantityKind, kind_of
from .reader import Fail, check_fields

if TYPE_CHECKING:
    from .types import ScenarioType


class Composition(Mapping):
    """The outputs of composed types, as ``(use, output) -> expression`` for the parser.

    A ``[types.T.uses.NAME]`` table names another type and binds each of that type's
    inputs it needs to an input of T (``bind = { sub_input = "t_input" }``).  The
    composed output is the other type's tree with its symbols replaced by T's, so
    ``expression(..., expand=True)`` reaches T's leaves.
    """

    def __init__(self, owner: ScenarioType, raw: Mapping[str, Any], types: Mapping[str, ScenarioType], fail: Fail,
                 parse: Callable[[str], sympy.Expr] | None = None, outputs: frozenset[str] | set[str] = frozenset()):
        self.owner = owner
        self.fail = fail
        self.subs: dict[str, tuple[ScenarioType, dict[sympy.Symbol, sympy.Symbol], dict[str, str]]] = {}
        self.names = list(raw)
        self.proxies: dict[tuple[str, str], sympy.Symbol] = {}
        self.taken: set[str] = set()
        self.units: dict[sympy.Symbol, pint.Unit] = {}
        self.replaced: set[str] = set()   # uses with a replace table (their nested result view would not show it)
        # (use, used type's input, our output) of each input bound to an output of ours: resolved once our outputs'
        # symbols are declared (:meth:`bind_outputs`), before any equation composes it
        self.to_outputs: list[tuple[str, str, str]] = []
        for use, spec in raw.items():
            if not isinstance(spec, Mapping) or "type" not in spec:
                raise fail(f"uses.{use} needs a 'type'", "uses", use)
            try:
                check_fields(spec, frozenset({"type", "bind", "replace"}), f"uses.{use}")
            except InputError as exc:
                raise fail(str(exc), "uses", use) from None
            type_name = str(spec["type"])
            if type_name not in types:
                raise fail(f"uses.{use}: unknown scenario type {type_name!r}", "uses", use)
            sub = types[type_name]
            bind = dict(spec.get("bind") or {})
            mapping: dict[sympy.Symbol, sympy.Symbol] = {}
            choice_map: dict[str, str] = {}
            for sub_in, parent_in in bind.items():
                if sub_in not in sub.inputs:
                    raise fail(f"uses.{use}: {type_name} has no input {sub_in!r}; inputs: {', '.join(sub.inputs)}", "uses", use)
                if parent_in not in owner.inputs and parent_in in outputs:
                    self._output_bindable(use, sub.inputs[sub_in], parent_in)
                    self.to_outputs.append((use, str(sub_in), str(parent_in)))
                    continue
                if parent_in not in owner.inputs:
                    raise fail(f"uses.{use}: binds {sub_in} to {parent_in!r}, which is neither an input nor an output of "
                               f"{owner.name}", "uses", use)
                self._bind(use, sub, sub.inputs[sub_in], owner.inputs[parent_in], mapping, choice_map)
            self._replace(use, sub, dict(spec.get("replace") or {}), mapping, parse)
            owner.uses[use] = type_name
            owner.use_binds[use] = (sub, {str(k): str(v) for k, v in bind.items()})
            self.subs[use] = (sub, mapping, choice_map)

    def _replace(self, use: str, sub: ScenarioType, table: Mapping[str, Any], mapping: dict[sympy.Symbol, Any],
                 parse: Callable[[str], sympy.Expr] | None) -> None:
        """``replace = { leaf = "equation" }``: the used type's leaf (its symbol, bound by ``bind``) stands for an
        equation of our inputs, of the leaf's dimension."""
        if not table:
            return
        if parse is None:
            raise self.fail(f"uses.{use}: replace needs the owner's names", "uses", use)
        units = {sym: var.unit for sym, var in self.owner.leaves.items()}
        by_name = {sym.name: sym for sym in sub.leaves}
        for leaf, text in table.items():
            sym = by_name.get(str(leaf))
            if sym is None:
                raise self.fail(f"uses.{use}.replace: {sub.name} has no leaf symbol {leaf!r}; symbols: "
                                f"{', '.join(sorted(by_name))}", "uses", use)
            if sym not in mapping:
                raise self.fail(f"uses.{use}.replace: {leaf} is not bound (bind its input first)", "uses", use)
            if not isinstance(text, str):
                raise self.fail(f"uses.{use}.replace.{leaf} must be an equation (text)", "uses", use)
            try:
                expr = parse(text)
                unit = unit_of(expr, units)
            except (EquationError, DimensionError) as exc:
                raise self.fail(f"uses.{use}.replace.{leaf}: {exc} in {text!r}", "uses", use) from None
            if unit.dimensionality != sub.leaves[sym].unit.dimensionality:
                raise self.fail(f"uses.{use}.replace.{leaf}: {text!r} is in {unit:~} but {leaf} is in "
                                f"{sub.leaves[sym].unit_text}", "uses", use)
            mapping[sym] = expr
            self.replaced.add(use)

    def _output_bindable(self, use: str, sub: InputSpec, output: str) -> None:
        """Only a quantity input without keys may stand for an output of ours (a number of one dimension)."""
        if type(kind_of(sub)) is not QuantityKind or sub.variable is None or sub.index:
            raise self.fail(f"uses.{use}: binds {sub.name} to the output {output}, but {sub.name} is a {sub.kind} input; "
                            "only a quantity input without keys can be bound to an output", "uses", use)

    def bind_outputs(self, variables: Mapping[str, Variable], kinds: Mapping[str, Any]) -> None:
        """Each used input bound to an output of ours (``bind = { delay = "total_delay" }``) stands for that output's
        symbol, of the input's dimension (checked here, at load); expanding a composed output then reaches through
        our output to our leaves."""
        for use, sub_in, output in self.to_outputs:
            sub, mapping, _ = self.subs[use]
            spec, var = sub.inputs[sub_in], variables[output]
            if not kinds[output].numeric:
                raise self.fail(f"uses.{use}: binds {sub_in} to the output {output}, a {kinds[output]}; only a number "
                                "can be bound", "uses", use)
            assert spec.variable is not None
            if spec.variable.unit.dimensionality != var.unit.dimensionality:
                raise self.fail(f"uses.{use}: binds {sub_in} (in {spec.variable.unit_text}) to the output {output}, "
                                f"which is in {var.unit_text}: they disagree in dimension", "uses", use)
            mapping[spec.variable.symbol] = var.symbol

    def check_output_binds(self, owner: ScenarioType) -> None:
        """An output bound to a used input is one number: no arguments, no keys (checked once its equation is read)."""
        for use, sub_in, output in self.to_outputs:
            out = owner.outputs[output]
            if out.arguments or out.indices:
                what = f"arguments ({', '.join(out.arguments)})" if out.arguments else f"keys ({', '.join(out.indices)})"
                raise self.fail(f"uses.{use}: binds {sub_in} to the output {output}, which takes {what}; only an output "
                                "without arguments or keys can be bound", "uses", use)

    def _bind_scenario(self, use: str, used: ScenarioType, sub: InputSpec, parent: InputSpec, mapping: dict) -> None:
        """A scenario input of the used type bound to one of ours of the same type: each of its outputs and fields the
        used type reads stands for the same one of our input (a leaf of ours, bound by our scenario)."""
        if sub.sub_type is None or parent.sub_type is None or sub.sub_type.name != parent.sub_type.name:
            raise self.fail(f"uses.{use}: cannot bind the {getattr(sub.sub_type, 'name', '?')} input {sub.name} to "
                            f"{parent.name}, a {getattr(parent.sub_type, 'name', '?')}", "uses", use)
        for sym, var in [(s, v) for s, v in used.leaves.items() if v.scenario_input == sub.name]:
            assert var.stands_for is not None
            field = var.stands_for.output
            try:
                mapping[sym] = self.scenario_output(parent.name, field)
            except EquationError as exc:
                raise self.fail(f"uses.{use}: binds {sub.name} to {parent.name}: {exc}", "uses", use) from None

    def _bind(self, use: str, used: ScenarioType, sub: InputSpec, parent: InputSpec, mapping: dict, choice_map: dict) -> None:
        if sub.kind != parent.kind:
            raise self.fail(f"uses.{use}: cannot bind {sub.kind} input {sub.name} to {parent.kind} input {parent.name}", "uses", use)
        if kind_of(sub).nests:
            self._bind_scenario(use, used, sub, parent, mapping)
            return
        if kind_of(sub).chooses:
            if set(sub.options) - set(parent.options):
                raise self.fail(f"uses.{use}: choice {parent.name} lacks options {sorted(set(sub.options) - set(parent.options))} of {sub.name}", "uses", use)
            choice_map[sub.name] = parent.name
            return
        if sub.variable is not None and parent.variable is not None:
            if sub.variable.unit.dimensionality != parent.variable.unit.dimensionality:
                raise self.fail(
                    f"uses.{use}: {sub.name} is in {sub.variable.unit_text} but {parent.name} is in {parent.variable.unit_text}", "uses", use)
            mapping[sub.variable.symbol] = parent.variable.symbol
        for var in sub.attributes.values():
            same = [v for v in parent.attributes.values()   # the same field read in the same unit (param, or param/sample)
                    if _paths(v) == _paths(var) and v.unit.dimensionality == var.unit.dimensionality]
            # of two symbols reading one field (its value with a fallback, and as stated with default 0), the one
            # read the same way
            match = next((v for v in same if v.reads == var.reads), same[0] if same else None)
            if match is None:
                raise self.fail(
                    f"uses.{use}: {parent.name} declares no symbol for {_paths(var)[0]} in {var.unit_text} "
                    f"(needed for {sub.name}.{var.symbol})", "uses", use)
            mapping[var.symbol] = match.symbol
        if sub.index and parent.index:
            mapping[sympy.Symbol(sub.index, integer=True, positive=True)] = sympy.Symbol(parent.index, integer=True, positive=True)
            mapping[sympy.Symbol(f"N_{sub.index}", integer=True, positive=True)] = sympy.Symbol(f"N_{parent.index}", integer=True, positive=True)

    # Mapping protocol for the parser
    def __contains__(self, key: object) -> bool:
        if not (isinstance(key, tuple) and len(key) == 2):
            return False
        spec = self.owner.inputs.get(key[0])
        return key[0] in self.subs or (spec is not None and kind_of(spec).nests)

    def scenario_output(self, name: str, output: str) -> sympy.Symbol:
        """``name.output`` of a scenario input: a leaf of ours whose value the bound scenario gives (and whose tree
        the plan writes out over that scenario's own leaves)."""
        spec = self.owner.inputs[name]
        sub = spec.sub_type
        given = sub.inputs.get(output) if output not in sub.outputs else None
        if given is not None and given.variable is not None and not given.index:
            return self._scenario_input(name, output, given.variable)   # a quantity the scenario is given (site.d_clear)
        if output not in sub.outputs:
            raise EquationError(f"{name} ({sub.name}) has no output {output!r}; outputs: {', '.join(sub.outputs)}")
        out = sub.outputs[output]
        if not out.kind.numeric or out.indices:
            raise EquationError(f"{name}.{output} is a {'keyed output' if out.indices else out.kind}; only numbers compose")
        unlinked = [a for a in out.arguments if a not in spec.links]
        if unlinked:
            raise EquationError(f"{name}.{output} takes {', '.join(unlinked)}; link each to a choice input: "
                                f"link = {{ {unlinked[0]} = \"...\" }}")
        key = (name, output)
        if key not in self.proxies:
            proxy = sympy.Symbol(f"{out.variable.symbol.name}_{name}", real=True)
            tag = name.replace("_", r"\_")
            var = Variable(name=f"{name}.{output}", symbol=proxy, unit=out.variable.unit,
                           meaning=f"{out.doc or out.variable.meaning} (of {name})", role="scenario output",
                           latex=f"{{{out.variable.latex}}}^{{(\\mathrm{{{tag}}})}}", stands_for=ScenarioOutput(name, output))
            self.owner.add_leaf(var, name, None)
            self.units[proxy] = out.variable.unit
            self.proxies[key] = proxy
        return self.proxies[key]

    def _scenario_input(self, name: str, field: str, given: Variable) -> sympy.Symbol:
        """``name.field`` where ``field`` is a quantity input of the scenario bound to ``name``: a leaf of ours whose
        value is that scenario's input (the plan writes it as that scenario's own leaf, so derivatives reach it)."""
        key = (name, field)
        if key not in self.proxies:
            proxy = sympy.Symbol(f"{given.symbol.name}_{name}", real=True)
            tag = name.replace("_", r"\_")
            # the plan writes it as the nested leaf "name.field" (role "scenario field": diff resolves that one)
            var = Variable(name=f"{name}.{field}", symbol=proxy, unit=given.unit, meaning=f"{given.meaning} (of {name})",
                           role="scenario field", latex=f"{{{given.latex}}}^{{(\\mathrm{{{tag}}})}}",
                           stands_for=ScenarioOutput(name, field))
            self.owner.add_leaf(var, name, None)
            self.units[proxy] = given.unit
            self.proxies[key] = proxy
        return self.proxies[key]

    def __getitem__(self, key: tuple[str, str]) -> sympy.Expr:
        use, output = key
        if use not in self.subs:
            return self.scenario_output(use, output)
        sub, mapping, choice_map = self.subs[use]
        if output not in sub.outputs:
            raise EquationError(f"{use} ({sub.name}) has no output {output!r}; outputs: {', '.join(sub.outputs)}")
        out = sub.outputs[output]
        if out.arguments:
            raise EquationError(f"{use}.{output} takes arguments ({', '.join(out.arguments)}); only outputs without arguments compose")
        if out.choice is not None:
            raise EquationError(f"{use}.{output} depends on the choice {out.choice}; compose one without a choice")
        # an output stated as alternatives composes through the first whose inputs the bind table binds, through
        # the outputs it uses too (a form over an output that needs an unbound input is not available)
        def available(e: sympy.Expr) -> bool:
            return all(any(available(b.expr) for b in sub.outputs[sub.output_symbols[s]].branches)
                       if s in sub.output_symbols else (s in mapping or s not in sub.leaves) for s in e.free_symbols)

        expr = sub.expand(output, available=available)
        for dummy in sub.reductions:
            if dummy in mapping:
                self.owner.reductions[mapping[dummy]] = mapping[dummy].name
        unbound = sorted(str(s) for s in expr.free_symbols if s in sub.leaves and s not in mapping)
        if unbound:
            names = sorted({sub.leaf_input[s] for s in expr.free_symbols if s in sub.leaves and s not in mapping})
            raise EquationError(f"{use}.{output} needs {sub.name} input(s) {', '.join(names)} ({', '.join(unbound)}), which uses.{use}.bind does not bind")
        proxy_key = (use, output)
        if proxy_key not in self.proxies:
            name = out.variable.symbol.name
            taken = {v.symbol.name for v in self.owner.leaves.values()} | {str(k) for k in self.taken}
            proxy = sympy.Symbol(name if name not in taken else f"{name}_{use}", real=True)
            self.taken.add(proxy.name)
            self.proxies[proxy_key] = proxy
            self.owner.composed[proxy] = expr.xreplace(mapping)
            self.owner.composed_forms[proxy] = (sub, output, mapping, choice_map)
            self.owner.composed_variables[proxy] = Variable(
                name=f"{use}.{output}", symbol=proxy, unit=out.variable.unit, meaning=out.doc or out.variable.meaning,
                latex=out.variable.latex, role="composed")
            self.units[proxy] = out.variable.unit
        return self.proxies[proxy_key]

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0


def _paths(var: Variable) -> tuple[str, ...]:
    """The entry fields an attribute symbol reads, in order."""
    return var.reads.paths if var.reads is not None else ()
