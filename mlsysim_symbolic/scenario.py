"""Scenarios: a scenario type with its inputs bound to values.

A scenario type becomes a Python class (:func:`scenario_class`) whose keyword
constructor takes the type's inputs, whose outputs are properties (or methods,
for outputs keyed by a model name or taking an argument), and whose docstring is
the type's reference page.  Instances are immutable: :meth:`Scenario.variant`
returns a changed copy.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pint
import sympy

from . import symbolic
from .errors import InputError, MissingInputError, UnexpectedNameError, UnknownNameError, closest
from .evaluate import compile_tree, to_base_factor
from .parse import parse_equation
from .registry import HARDWARE_FIELDS, WORKLOAD_FIELDS, Entry, Hardware, Workload, hardware, make_entry, workloads
from .spec import OBJECT_KINDS, InputSpec, OutputSpec, ScenarioType
from .units import Q_, base_ratio, from_base, make_quantity, parse_quantity, scaling, to_base, ureg
from .variables import KeyedSymbol, Variable


@dataclass
class _Plan:
    """One output of one scenario, ready to run: its tree, compiled function and argument sources."""

    output: OutputSpec
    expr: sympy.Expr
    args: tuple[sympy.Symbol, ...]
    function: Any
    factor: float | int      # base unit -> declared unit: value * factor / divisor (exact integers where possible)
    unit: pint.Unit
    indices: tuple[str, ...]
    arguments: tuple[str, ...]
    divisor: float | int = 1


class _ScenarioMeta(type):
    """Builds a scenario type's reference page (its ``__doc__``) only when someone reads it."""

    @property
    def __doc__(cls) -> str | None:  # type: ignore[override]
        t = cls.__dict__.get("_type")
        if t is None:
            return cls.__dict__.get("_base_doc")
        cached = cls.__dict__.get("_doc_cache")
        if cached is None:
            from .docs import type_docstring

            cached = type_docstring(t)
            type.__setattr__(cls, "_doc_cache", cached)
        return cached


class _InstanceDoc:
    """Gives instances their type's (lazily built) reference page as ``__doc__``."""

    def __get__(self, obj: Any, owner: type) -> str | None:
        return _ScenarioMeta.__doc__.__get__(owner)  # type: ignore[attr-defined]


class Scenario(metaclass=_ScenarioMeta):
    """Base class of every scenario type's class.  See the type's own docstring."""

    _base_doc = "Base class of every scenario type's class.  See the type's own docstring."

    _type: ScenarioType

    def __init__(self, *, name: str | None = None, description: str | None = None, **inputs: Any) -> None:
        self.name = name if name is not None else self._type.name
        self.description = description if description is not None else self._type.summary
        self._given: dict[str, Any] = {}
        self._values: dict[str, Any] = {}
        self._scalars: dict[sympy.Symbol, Any] = {}
        self._keyed: dict[str, dict[Any, dict[sympy.Symbol, Any]]] = {}
        self._keys: dict[str, list[Any]] = {}
        self._choices: dict[str, str] = {}
        self._plans: dict[Any, _Plan] = {}
        self._argcache: dict[Any, tuple[Any, ...]] = {}
        self._fast: dict[Any, tuple[Any, ...]] = {}
        self._bind(inputs)

    # ------------------------------------------------------------------ binding
    def _bind(self, inputs: Mapping[str, Any]) -> None:
        t = self._type
        unknown = [k for k in inputs if k not in t.inputs]
        if unknown:
            hint = closest(unknown[0], list(t.inputs))
            raise UnexpectedNameError(
                f"{t.name}() got an unexpected input {unknown[0]!r}"
                + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else "")
                + f" Inputs: {', '.join(t.inputs)}")
        missing = [n for n, s in t.inputs.items() if s.required and inputs.get(n) is None]
        if missing:
            raise MissingInputError(
                f"{t.name}() missing required input{'s' if len(missing) > 1 else ''}: {', '.join(missing)}")
        # choices first: attribute paths such as precision_flops.{precision} read them
        ordered = sorted(t.inputs.items(), key=lambda item: item[1].kind != "choice")
        for in_name, spec in ordered:
            value = inputs.get(in_name, spec.default)
            self._given[in_name] = inputs.get(in_name, spec.default)
            self._bind_one(spec, value)
        for index, names in t.index_inputs.items():
            key_sets = [(n, self._keys.get(n)) for n in names if self._keys.get(n) is not None]
            if len({tuple(sorted(map(str, k))) for _, k in key_sets}) > 1:
                raise InputError(
                    f"{t.name}: inputs {', '.join(n for n, _ in key_sets)} share the index {index!r} and must have the same keys")
            if key_sets:
                self._keys[index] = key_sets[0][1]
        for sym, index in t.positions.items():   # each key's position, for the *_upto reductions
            for position, key in enumerate(self._keys.get(index, []), start=1):
                self._keyed[index][key][sym] = position

    def _bind_one(self, spec: InputSpec, value: Any) -> None:
        name = spec.name
        if spec.kind == "choice":
            if value is None:
                self._values[name] = None
                return
            if not isinstance(value, str) or value not in spec.options:
                raise InputError(f"{name}: expected one of {', '.join(map(repr, spec.options))}, got {value!r}")
            self._choices[name] = value
            self._values[name] = value
            return
        if spec.kind == "quantity":
            var = spec.variable
            assert var is not None
            if value is None:
                self._values[name] = None
                self._scalars[var.symbol] = None
                return
            magnitude = var.check(value)
            self._values[name] = magnitude if _is_count(var) else Q_(magnitude, var.unit)
            self._scalars[var.symbol] = _to_base(magnitude, var, name)
            return
        if spec.kind in ("workload", "hardware"):
            if value is None:
                self._values[name] = None
                for var in spec.attributes.values():
                    self._scalars[var.symbol] = None
                return
            entry = _entry(spec, value, name)
            self._values[name] = entry
            self._scalars.update(self._attributes(spec, entry, name))
            return
        # keyed inputs: workloads, map, list
        if value is None:
            self._values[name] = None
            return
        if spec.kind == "list":
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise InputError(f"{name}: expected a list of values, got {value!r}")
            items = list(value)
            if not items:
                raise InputError(f"{name}: expected at least one value")
            value = {_list_key(v): v for v in items}
        if not isinstance(value, Mapping) or (not value and spec.kind == "workloads"):
            what = "a non-empty mapping of names to workloads" if spec.kind == "workloads" else "a mapping of keys to values"
            raise InputError(f"{name}: expected {what}, got {value!r}")
        keyed: dict[Any, dict[sympy.Symbol, Any]] = {}
        stored: dict[Any, Any] = {}
        for key, item in value.items():
            label = f"{name}[{key!r}]"
            if spec.kind == "workloads":
                entry = _entry(spec, item, label)
                stored[key] = entry
                keyed[key] = self._attributes(spec, entry, label)
            else:
                var = spec.variable
                assert var is not None
                magnitude = var.check(item, label=label)
                stored[key] = magnitude if _is_count(var) else Q_(magnitude, var.unit)
                keyed[key] = {var.symbol: _to_base(magnitude, var, label)}
        self._values[name] = stored
        self._keys[name] = list(value)
        index = spec.index or name
        merged = self._keyed.setdefault(index, {})
        for key, syms in keyed.items():
            merged.setdefault(key, {}).update(syms)

    def _attributes(self, spec: InputSpec, entry: Entry, label: str) -> dict[sympy.Symbol, Any]:
        """Read each declared symbol of an object input from the registry entry."""
        out: dict[sympy.Symbol, Any] = {}
        pending: list[Variable] = []
        for var in spec.attributes.values():
            raw = None
            for path in var.extra["paths"]:
                try:
                    path = path.format(**self._choices)
                except KeyError:
                    continue
                raw = entry.get(path)
                if raw is not None:
                    break
            if raw is None and var.extra.get("fallback") is None and var.extra.get("default") is not None:
                raw = var.extra["default"]
            if raw is None:
                if var.extra.get("fallback") is not None:
                    pending.append(var)
                else:
                    out[var.symbol] = None
                continue
            magnitude = var.check(raw, label=f"{label} ({entry.key}).{var.extra['paths'][0]}")
            out[var.symbol] = _to_base(magnitude, var)
        for var in pending:
            names = {v.symbol.name: v.symbol for v in spec.attributes.values()}
            names.update({v.name: v.symbol for v in spec.attributes.values()})
            expr = parse_equation(var.extra["fallback"], names)
            values = {s: out.get(s) for s in expr.free_symbols}
            if any(v is None for v in values.values()):
                out[var.symbol] = None
                continue
            # fallbacks are rules of counting (e.g. head_dim = floor(h / a)), evaluated in base units
            value = compile_tree(expr, tuple(values))(*values.values())
            out[var.symbol] = value
        return out

    # ------------------------------------------------------------------ planning
    def _plan(self, name: str, argument_choices: tuple[tuple[str, str], ...] = ()) -> _Plan:
        key = (name, argument_choices)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        t = self._type
        out = t._require_output(name)
        choices = dict(self._choices)
        choices.update(dict(argument_choices))
        expr = t.expand(name, choices, available=self._available)
        expr = self._expand_reductions(expr)
        leaves = sorted((s for s in expr.free_symbols), key=lambda s: s.name)
        arguments = tuple(a for a, v in t.arguments.items() if v.symbol in expr.free_symbols)
        indices = tuple(dict.fromkeys(t.leaf_index[s] for s in leaves if s in t.leaf_index))
        for sym in leaves:
            if sym in t.leaf_index or t.leaf_input.get(sym) in t.arguments:
                continue
            if self._scalars.get(sym) is None:
                raise MissingInputError(f"{t.name}.{name} needs {self._describe_missing(sym)}, which this scenario does not set")
        cache_key = (expr, tuple(leaves))
        function = t._compiled.get(cache_key)
        if function is None:
            function = compile_tree(expr, leaves)
            t._compiled[cache_key] = function
        unit = out.variable.unit
        factor, divisor = scaling(1 / base_ratio(unit))   # 15e9 B / 10**9 is 15 GB exactly (not * 1e-9)
        plan = _Plan(out, expr, tuple(leaves), function, factor, unit, indices, arguments, divisor)
        self._plans[key] = plan
        return plan

    def _describe_missing(self, sym: sympy.Symbol) -> str:
        t = self._type
        source = t.leaf_input.get(sym, "?")
        var = t.leaves.get(sym)
        spec = t.inputs.get(source)
        if spec is not None and spec.kind in OBJECT_KINDS and var is not None and self._values.get(source) is not None:
            entry = self._values[source]
            key = getattr(entry, "key", source)
            return f"{var.extra['paths'][0]} ({sym}) of {spec.kind} {key!r}"
        return f"input {source!r} ({sym})"

    def _available(self, expr: sympy.Expr) -> bool:
        t = self._type
        for sym in expr.free_symbols:
            if sym in t.output_symbols:
                out = t.outputs[t.output_symbols[sym]]
                if not any(self._available(b.expr) for b in out.branches):
                    return False
            elif sym in t.leaves and sym not in t.leaf_index and t.leaf_input.get(sym) not in t.arguments:
                if self._scalars.get(sym) is None:
                    return False
            elif sym in t.leaf_index:
                index = t.leaf_index[sym]
                if index not in self._keys:
                    return False
        return True

    def _expand_reductions(self, expr: sympy.Expr) -> sympy.Expr:
        t = self._type
        if not expr.has(sympy.Sum, sympy.Product):
            return expr

        def expand(node: Any) -> Any:
            if isinstance(node, (sympy.Sum, sympy.Product)):
                inner = expand(node.function)
                dummy = node.limits[0][0]
                index = t.reductions.get(dummy, dummy.name)
                if index not in self._keys:
                    raise MissingInputError(f"{t.name}: the sum over {index!r} needs its keyed input, which is not set")
                upper = node.limits[0][2]
                partial = upper in t.positions
                identity = sympy.Integer(0) if isinstance(node, sympy.Sum) else sympy.Integer(1)
                terms = []
                for position, key in enumerate(self._keys[index], start=1):
                    subs = {}
                    for sym in inner.free_symbols:
                        if t.leaf_index.get(sym) == index and sym not in t.positions:
                            per_key = KeyedSymbol(sym, key)
                            subs[sym] = per_key
                            self._scalars[per_key] = self._keyed[index][key].get(sym)
                    term = inner.xreplace(subs)
                    if partial:   # the keys up to this one: the term counts where the key's position n >= its own
                        term = sympy.Piecewise((term, sympy.Ge(upper, position)), (identity, True))
                    terms.append(term)
                return sympy.Add(*terms) if isinstance(node, sympy.Sum) else sympy.Mul(*terms)
            if node.args:
                return node.func(*[expand(a) for a in node.args])
            return node

        return expand(expr)

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, output: str, *keys: Any, **arguments: Any) -> Any:
        """The value of ``output`` as a pint Quantity in its declared unit.

        ``keys`` select the model (or other key) of a keyed output; ``arguments``
        give the free arguments of a method output.
        """
        if not arguments:
            fast = self._fast.get((output, keys))
            if fast is not None:
                function, args, factor, divisor, unit = fast
                try:
                    value = function(*args)
                except (ZeroDivisionError, OverflowError, ValueError) as exc:
                    raise self._not_evaluable(output, keys, exc, self._plan(output), args) from None
                if factor != 1:
                    value = value * factor
                if divisor != 1:
                    value = value / divisor
                return make_quantity(value, unit)
        t = self._type
        out = t._require_output(output)
        picked = []
        for a in out.arguments:
            options = t.arguments[a].extra.get("options")
            if options:
                value = arguments.pop(a, None)
                if value not in options:
                    raise InputError(f"{output}: {a} must be one of {', '.join(map(repr, options))}, got {value!r}")
                picked.append((a, value))
        choice_value = tuple(picked)
        plan = self._plan(output, choice_value)
        if len(keys) != len(plan.indices):
            if not plan.indices:
                raise UnexpectedNameError(f"{t.name}.{output} takes no key, got {len(keys)}: {', '.join(map(repr, keys))}")
            known = self._keys.get(plan.indices[0], [])
            raise MissingInputError(
                f"{t.name}.{output} needs a key for {', '.join(plan.indices)}"
                f" (one of {', '.join(map(repr, known))})")
        cache_key = (output, choice_value, keys)
        args = None if plan.arguments else self._argcache.get(cache_key)
        if args is None:
            args = self._arguments(plan, keys, arguments)
            if not plan.arguments:
                self._argcache[cache_key] = args
        elif arguments:
            raise UnexpectedNameError(f"{t.name}.{output} takes no arguments, got {', '.join(arguments)}")
        try:
            value = plan.function(*args)
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            raise self._not_evaluable(output, keys, exc, plan, args) from None
        if not plan.arguments and not choice_value:
            self._fast[(output, keys)] = (plan.function, args, plan.factor, plan.divisor, plan.unit)
        if plan.factor != 1:
            value = value * plan.factor
        if plan.divisor != 1:
            value = value / plan.divisor
        return make_quantity(value, plan.unit)

    def _arguments(self, plan: _Plan, keys: tuple[Any, ...], arguments: Mapping[str, Any]) -> tuple[Any, ...]:
        t = self._type
        key_of: dict[str, Any] = {}
        if len(keys) < len(plan.indices):
            missing = plan.indices[len(keys):]
            known = self._keys.get(missing[0], [])
            raise MissingInputError(f"{t.name}.{plan.output.name} needs a key for {', '.join(missing)}"
                                    f" (one of {', '.join(map(repr, known))})")
        for index, key in zip(plan.indices, keys):
            known = self._keys.get(index)
            if known is None:
                raise MissingInputError(f"{t.name}: input {index!r} is not set")
            if key not in self._keyed[index]:
                hint = closest(str(key), [str(k) for k in known])
                raise UnknownNameError(
                    f"unknown {index} key {key!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else "")
                    + f" Known: {', '.join(map(repr, known))}")
            key_of[index] = key
        unknown = [a for a in arguments if a not in plan.arguments]
        if unknown:
            raise UnexpectedNameError(f"{t.name}.{plan.output.name} got an unexpected argument {unknown[0]!r}; arguments: {', '.join(plan.arguments) or 'none'}")
        arg_values: dict[sympy.Symbol, Any] = {}
        for a in plan.arguments:
            var = t.arguments[a]
            if a not in arguments or arguments[a] is None:
                source = var.extra.get("default_input")
                bound = self._scalars.get(t.inputs[source].variable.symbol) if source else None
                if bound is None:
                    also = f" (or set input {source!r})" if source else ""
                    raise MissingInputError(f"{t.name}.{plan.output.name}() missing required argument: {a}{also}")
                arg_values[var.symbol] = bound
                continue
            arg_values[var.symbol] = _to_base(var.check(arguments[a]), var, a)
        values = []
        for sym in plan.args:
            if sym in arg_values:
                values.append(arg_values[sym])
            elif sym in t.leaf_index:
                value = self._keyed[t.leaf_index[sym]][key_of[t.leaf_index[sym]]].get(sym)
                if value is None:
                    raise MissingInputError(f"{t.name}.{plan.output.name}: {key_of[t.leaf_index[sym]]!r} has no {self._type.leaves[sym].extra.get('paths', (sym,))[0]} ({sym})")
                values.append(value)
            else:
                value = self._scalars.get(sym)
                if value is None:
                    raise MissingInputError(f"{t.name}.{plan.output.name} needs {self._describe_missing(sym)}, which this scenario does not set")
                values.append(value)
        return tuple(values)

    def _not_evaluable(self, output: str, keys: tuple[Any, ...], exc: Exception, plan: _Plan | None = None,
                       args: tuple[Any, ...] | None = None) -> InputError:
        """The error for inputs at which the equation has no value (a zero divisor, an overflow, a log of a negative)."""
        shown = ""
        if plan is not None and args is not None:
            parts = []
            for sym, base in zip(plan.args, args):
                var = self._type.leaves.get(sym)
                if var is not None:
                    parts.append(f"{var.name} = {from_base(base, var.unit):g} {var.unit_text}")
            shown = f" at {', '.join(parts)}" if parts else ""
        where = f"{self._type.name}.{output}" + (f"[{', '.join(map(repr, keys))}]" if keys else "")
        return InputError(f"{where} has no value{shown}: {exc}")

    def values(self, *keys: Any) -> dict[str, Any]:
        """Every output that can be evaluated without arguments, as ``{name: Quantity}``."""
        out: dict[str, Any] = {}
        for name, spec in self._type.outputs.items():
            if spec.arguments:
                continue
            try:
                out[name] = self._member(name, keys)
            except MissingInputError:
                continue
        return out

    def _member(self, name: str, keys: tuple[Any, ...] = ()) -> Any:
        spec = self._type.outputs[name]
        if spec.style == "dict":
            return self._as_dict(name, spec.indices, ())
        if spec.indices and keys:
            return self.evaluate(name, *keys[: len(spec.indices)])
        if spec.indices:
            return self._as_dict(name, spec.indices, ())
        return self.evaluate(name)

    def _as_dict(self, name: str, indices: tuple[str, ...], prefix: tuple[Any, ...]) -> Any:
        plan = self._plan(name)
        indices = plan.indices
        if len(prefix) == len(indices):
            return self.evaluate(name, *prefix)
        index = indices[len(prefix)]
        if index not in self._keys:
            inputs = ", ".join(self._type.index_inputs.get(index, [index]))
            raise MissingInputError(f"{self._type.name}.{name} needs input {inputs}, which this scenario does not set")
        return {k: self._as_dict(name, indices, (*prefix, k)) for k in self._keys[index]}

    # ------------------------------------------------------------------ inputs and notes
    @property
    def planner(self) -> _PlannerShim:
        """The public plan of this scenario (trees, compiled functions, bound values) for analyses."""
        return _PlannerShim(self)

    @property
    def type(self) -> ScenarioType:
        """The scenario type this scenario binds."""
        return self._type

    @property
    def inputs(self) -> dict[str, Any]:
        """The bound inputs, by name, in their declared units."""
        return dict(self._values)

    @property
    def outputs(self) -> list[str]:
        """The names of the outputs."""
        return list(self._type.outputs)

    @property
    def assumptions(self) -> tuple[str, ...]:
        return self._type.assumptions

    @property
    def excludes(self) -> tuple[str, ...]:
        return self._type.excludes

    @property
    def derivation(self) -> str:
        return self._type.derivation

    @property
    def references(self) -> tuple[Any, ...]:
        return self._type.references

    def keys(self, index: str | None = None) -> list[Any]:
        """The keys of a keyed input (the first one when ``index`` is not given)."""
        if index is None:
            if not self._keys:
                return []
            index = next(iter(self._type.index_inputs))
        return list(self._keys.get(index, []))

    def variant(self, **changes: Any) -> Scenario:
        """A copy with some inputs (or ``name``/``description``) changed.

        >>> from mlsysim_symbolic import Scenarios
        >>> s = Scenarios.DpSgdPerExampleGradients.variant(batch_size=1024, bytes_per_param="2 B/param")
        >>> s.per_batch("GPT-2")
        <Quantity(3.072e+12, 'byte')>
        """
        given = {k: v for k, v in self._given.items() if v is not None}
        given.update(changes)
        name = given.pop("name", self.name)
        description = given.pop("description", self.description)
        return type(self)(name=name, description=description, **given)

    # ------------------------------------------------------------------ symbolic face
    def expression(self, output: str, expand: bool = False) -> sympy.Expr:
        """The tree of ``output`` (over inputs and earlier outputs; over inputs only with ``expand``)."""
        if expand:
            return self._type.expand(output, self._choices, available=self._available)
        return self._type.branch(output, self._choices, self._available).expr

    def equation(self, output: str, expand: bool = False) -> sympy.Eq:
        """``Eq(output_symbol, tree)``.

        >>> from mlsysim_symbolic import Scenarios
        >>> Scenarios.DpSgdPerExampleGradients.equation("per_batch", expand=True)
        Eq(M_batch, B*P*b)
        """
        out = self._type._require_output(output)
        return sympy.Eq(out.variable.symbol, self.expression(output, expand=expand), evaluate=False)

    def simplify(self, output: str) -> sympy.Expr:
        """``sympy.simplify`` of the expanded tree of ``output``."""
        return sympy.simplify(self.expression(output, expand=True))

    def diff(self, output: str, wrt: str) -> sympy.Expr:
        """∂output/∂wrt, symbolically (``wrt`` names an input or its symbol)."""
        return symbolic.diff(self, output, wrt)

    def elasticities(self, output: str, *keys: Any, **arguments: Any) -> list[symbolic.Elasticity]:
        """∂ln y/∂ln x for every input x of ``output``: symbolic and at this scenario's values, ranked."""
        return symbolic.elasticities(self, output, *keys, **arguments)

    # ------------------------------------------------------------------ sensitivity, sweeps, inverse questions
    def local_sensitivity(self, output: str, *keys: Any, **arguments: Any) -> Any:
        """Derivatives and elasticities of ``output`` at this scenario, ranked (a :class:`~mlsysim_symbolic.tables.Table`)."""
        from .sensitivity import local

        return local(self, output, *keys, **arguments)

    def one_at_a_time(self, output: str, *keys: Any, **options: Any) -> Any:
        """Each input low and high (``ranges=`` or +/- ``pct`` %), sorted by swing."""
        from .sensitivity import one_at_a_time

        return one_at_a_time(self, output, *keys, **options)

    def tornado(self, output: str, *keys: Any, **options: Any) -> Any:
        """A tornado chart (matplotlib Figure) of :meth:`one_at_a_time`."""
        from .sensitivity import tornado

        return tornado(self, output, *keys, **options)

    def sobol(self, output: str, *keys: Any, ranges: Mapping[str, Any], **options: Any) -> Any:
        """Sobol first-order and total indices over uniform ``ranges`` (SALib)."""
        from .sensitivity import sobol

        return sobol(self, output, *keys, ranges=ranges, **options)

    def morris(self, output: str, *keys: Any, ranges: Mapping[str, Any], **options: Any) -> Any:
        """Morris screening over ``ranges`` (SALib)."""
        from .sensitivity import morris

        return morris(self, output, *keys, ranges=ranges, **options)

    def uncertainty(self, output: str, *keys: Any, inputs: Mapping[str, Any], **options: Any) -> Any:
        """Linear propagation and Monte Carlo of input uncertainty to ``output``."""
        from .sensitivity import uncertainty

        return uncertainty(self, output, *keys, inputs=inputs, **options)

    def sweep(self, output: str, *keys: Any, **inputs: Any) -> Any:
        """``output`` over ranges or arrays of inputs (a grid), as a Quantity array; ``.plot()`` draws it."""
        from .sweep import sweep

        return sweep(self, output, *keys, **inputs)

    def reduce_sweep(self, output: str, *keys: Any, **options: Any) -> Any:
        """A chunked min/max/argmin/argmax/feasible-region reduction over a grid of inputs."""
        from .sweep import reduce_sweep

        return reduce_sweep(self, output, *keys, **options)

    def solve(self, output: str, input: str, target: Any, *keys: Any, **options: Any) -> Any:
        """The value of ``input`` at which ``output`` reaches ``target`` (symbolic, with units; integers on the feasible side)."""
        from .solve import solve

        return solve(self, output, input, target, *keys, **options)

    def optimum(self, output: str, input: str, *keys: Any, **options: Any) -> Any:
        """The stationary point of ``output`` in ``input`` (solve d output / d input = 0)."""
        from .solve import optimum

        return optimum(self, output, input, *keys, **options)

    def symbol_values(self, output: str, *keys: Any, **arguments: Any) -> dict[sympy.Symbol, Any]:
        """The value of each leaf symbol of ``output`` as a Quantity in its declared unit."""
        plan = self._plan(output)
        args = self._arguments(plan, keys, arguments)
        result = {}
        for sym, base in zip(plan.args, args):
            var = self._type.leaves.get(sym) or _per_key_variable(self._type, sym)
            value = from_base(base, var.unit)
            result[sym] = ureg.Quantity(value, var.unit)
        return result

    def latex(self, output: str | None = None, *keys: Any, values: bool = True, **options: Any) -> Any:
        """LaTeX: ``output``'s equation, substituted line and result (all outputs as ``align`` when omitted)."""
        from . import latex as latex_module

        if output is None:
            return latex_module.align(self, *keys, **options)
        return latex_module.substituted(self, output, *keys, **options) if values else latex_module.equation(self, output, **options)

    def symbol_table(self, output: str | None = None) -> Any:
        """The symbols of ``output`` (or of every output): symbol, meaning, unit."""
        from . import latex as latex_module

        return latex_module.symbol_table(self, output)

    def _repr_latex_(self) -> str:
        from . import latex as latex_module

        return latex_module.align(self)._repr_latex_()

    def __repr__(self) -> str:
        shown = []
        for k, v in self._values.items():
            if v is None:
                continue
            if isinstance(v, Mapping):
                v = "{" + ", ".join(f"{kk!r}: {getattr(vv, 'name', vv)}" for kk, vv in v.items()) + "}"
            elif isinstance(v, Entry):
                v = v.name
            elif isinstance(v, pint.Quantity):
                v = f"{v:~C}"
            shown.append(f"{k}={v}")
        return f"{type(self).__name__}(name={self.name!r}, {', '.join(shown)})"


class _PlannerShim:
    """Transitional public face of the plan layer (replaced by ``plan.Planner``)."""

    def __init__(self, scenario: Scenario) -> None:
        self._s = scenario
        self.type = scenario._type

    def plan(self, output: str, choices: tuple[tuple[str, str], ...] = ()) -> _Plan:
        return self._s._plan(output, choices)

    def values(self, plan: _Plan, keys: tuple[Any, ...] = (), arguments: Mapping[str, Any] | None = None) -> tuple[Any, ...]:
        return self._s._arguments(plan, keys, arguments or {})

    def variable(self, sym: sympy.Symbol) -> Variable:
        return self._s._type.leaves.get(sym) or _per_key_variable(self._s._type, sym)

    def member(self, name: str, keys: tuple[Any, ...] = ()) -> Any:
        """What reading member ``name`` gives: a Quantity, or a dict by key for keyed outputs."""
        return self._s._member(name, keys)


def _is_count(var: Variable) -> bool:
    return var.integer and not var.unit.dimensionality and to_base_factor(var.unit) == 1


def _to_base(magnitude: Any, var: Variable, label: str | None = None) -> Any:
    base = to_base(magnitude, var.unit)
    if isinstance(base, float) and not math.isfinite(base):
        raise InputError(f"{label or var.name}: {magnitude} {var.unit_text} is beyond float64 in base units")
    return base


def _list_key(value: Any) -> Any:
    if isinstance(value, pint.Quantity):
        return value.magnitude
    if isinstance(value, str):
        try:
            return parse_quantity(value).magnitude
        except InputError:
            return value
    return value


def _per_key_variable(t: ScenarioType, sym: sympy.Symbol) -> Variable:
    if isinstance(sym, KeyedSymbol) and sym.base in t.leaves:
        return t.leaves[sym.base]
    raise UnknownNameError(f"no variable for symbol {sym}")


def _entry(spec: InputSpec, value: Any, label: str) -> Entry:
    registry = hardware() if spec.kind == "hardware" else workloads()
    if isinstance(value, Entry):
        return value
    if isinstance(value, str):
        try:
            return registry[value]
        except UnknownNameError as exc:
            raise UnknownNameError(f"{label}: {exc}") from None
    if isinstance(value, Mapping):
        # an entry stated inline (a model that is in no registry): same fields and units as the registry
        cls, schema = (Hardware, HARDWARE_FIELDS) if spec.kind == "hardware" else (Workload, WORKLOAD_FIELDS)
        try:
            return make_entry(cls, str(value.get("name", label)), value, schema)
        except InputError as exc:
            raise InputError(f"{label}: {exc}") from None
    raise InputError(f"{label}: expected a {registry.kind} (its registry name, or a table of its fields), got {type(value).__name__}")


# ---------------------------------------------------------------------- class factory
def _output_member(spec: OutputSpec, stype: ScenarioType) -> Any:
    name = spec.name
    doc = spec.doc
    eq = sympy.sstr(stype.expression(name))
    text = f"{doc}\n\nEquation: {spec.variable.symbol} = {eq}  [{spec.variable.unit_text}]"
    if spec.style == "property":
        def getter(self: Scenario) -> Any:
            return self.evaluate(name)

        getter.__doc__ = text
        getter.__name__ = name
        return property(getter)
    if spec.style == "dict":
        def getter_dict(self: Scenario) -> Any:
            return self._as_dict(name, spec.indices, ())

        getter_dict.__doc__ = text
        getter_dict.__name__ = name
        return property(getter_dict)

    key_params = list(spec.key_params)
    arg_params = list(spec.arguments)

    n_keys = len(key_params)
    simple = not arg_params

    def method(self: Scenario, *args: Any, **kwargs: Any) -> Any:
        if simple and not kwargs and len(args) == n_keys:
            return self.evaluate(name, *args)
        try:
            bound = sig.bind(self, *args, **kwargs)
        except TypeError as exc:
            error = MissingInputError if "missing" in str(exc) else UnexpectedNameError
            raise error(f"{stype.name}.{name}(): {exc}") from None
        values = dict(bound.arguments)
        values.pop("self")
        keys = tuple(values.pop(k) for k in key_params)
        return self.evaluate(name, *keys, **values)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD) for k in key_params]
    params += [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 default=None if stype.arguments[a].extra.get("default_input") else inspect.Parameter.empty)
               for a in arg_params]
    sig = inspect.Signature(params)
    method.__signature__ = sig  # type: ignore[attr-defined]
    method.__name__ = name
    method.__qualname__ = f"{stype.name}.{name}"
    method.__doc__ = text
    return method


def scenario_class(stype: ScenarioType, module: str = "mlsysim_symbolic.scenarios") -> type[Scenario]:
    """The Python class of a scenario type: keyword constructor, outputs as members, reference page as docstring."""
    namespace: dict[str, Any] = {"_type": stype, "__module__": module, "__doc__": _InstanceDoc()}
    reserved = set(dir(Scenario))
    for name, spec in stype.outputs.items():
        if name in reserved or name in stype.inputs:
            raise InputError(f"{stype.name}: output name {name!r} clashes with an input or a Scenario member")
        namespace[name] = _output_member(spec, stype)
    for in_name in stype.inputs:
        if in_name in reserved:
            raise InputError(f"{stype.name}: input name {in_name!r} clashes with a Scenario member")
        namespace[in_name] = property(lambda self, n=in_name: self._values.get(n), doc=stype.inputs[in_name].meaning)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    ordered = sorted(stype.inputs.values(), key=lambda s: not s.required)
    for spec in ordered:
        default = inspect.Parameter.empty if spec.required else spec.default
        params.append(inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=spec.annotation))
    params.append(inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str"))
    params.append(inspect.Parameter("description", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str"))

    def __init__(self: Scenario, **kwargs: Any) -> None:
        Scenario.__init__(self, **kwargs)

    __init__.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    __init__.__doc__ = f"Bind the inputs of {stype.name}."
    namespace["__init__"] = __init__
    return type(stype.name, (Scenario,), namespace)
