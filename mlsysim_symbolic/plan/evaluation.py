"""Evaluation: a plan's leaf values (bound inputs, keyed values, arguments), its compiled function run, and the errors
that name the output and the inputs where it has no finite value.

>>> from mlsysim_symbolic import Scenarios
>>> Scenarios.DpSgdPerExampleGradients.planner.evaluate("per_batch", "GPT-2")
<Quantity(1.536e+12, 'byte')>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pint
import sympy

from ..errors import FloatRangeError, InputError, MissingInputError, UnexpectedNameError, UnknownKeyError
from ..spec.kinds import checked, to_base_checked
from ..spec.stated import restated
from ..underflow import lost_to_zero, suspicious
from ..units import from_base, make_quantity, ureg
from .model import Plan
from .planning import Planning

_EVAL_ERRORS = (ZeroDivisionError, OverflowError, ValueError)
_INF = float("inf")


def _answer(plan: Plan, value: Any) -> bool | str:
    """A predicate's bool, or the text of a label's winning case (as the output's kind says)."""
    return plan.output.kind.answer(value, plan.labels or plan.output.labels)


def _read_field(var: Any, sym: sympy.Symbol) -> Any:
    """The entry field an attribute leaf reads (its symbol for any other leaf), for a message."""
    return var.reads.field if var.reads is not None else sym


class Evaluation(Planning):
    """Running a bound scenario's plans: values in their declared units, a bool or a label, by key and argument."""

    def slack(self, output: str, *keys: Any, **arguments: Any) -> pint.Quantity:
        """How far predicate ``output`` is from flipping, in the unit of its sides (>= 0 where it holds)."""
        plan = self.plan(output, slack=True)
        value = plan.function(*self.values(plan, keys, arguments))
        return restated(make_quantity(plan.to_unit(value), plan.unit), self._bound.stated)

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
                raise UnknownKeyError(f"{index} key", key, known)
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
        self._refuse_unless(output)
        if out.keep and not self.evaluate(out.keep, *keys):   # a key the output's dict leaves out (``keep``)
            raise UnknownKeyError(f"{plan.indices[0]} key", keys[0] if len(keys) == 1 else keys, list(self.as_dict(output)),
                                  owner=f"{t.name}.{output}", note=f"({out.keep} does not hold there)")
        cache_key = (output, choice_value, keys)
        try:
            args = None if plan.arguments else self._argcache.get(cache_key)
        except TypeError:
            raise UnknownKeyError(f"{plan.indices[0]} key", keys, self._bound.keys.get(plan.indices[0], ()),
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
        if isinstance(value, complex):   # a fractional power of a negative number: the law has no real value there
            raise self.not_finite(output, keys, value, plan, args, what="has no real value (a fractional power of a negative number)")
        if not -_INF < value < _INF:
            raise self.not_finite(output, keys, value, plan, args)
        if not plan.output.kind.numeric:
            return _answer(plan, value)
        shown = plan.to_unit(value)
        if suspicious(shown) and lost_to_zero(plan.expr, plan.args, args, shown):   # 0.0 where the exact value is not
            raise self.not_finite(output, keys, value, plan, args, what=f"underflows float64 (to {shown:g} {plan.returns:~C})")
        if self._bound.stated is not None:   # an output in the unit the scenario states (spec/stated.py)
            return restated(make_quantity(shown, plan.returns), self._bound.stated)
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
        """What reading member ``name`` gives: a Quantity, or a dict by key for keyed outputs (a list in key order for
        ``style = "list"``, mlsysim's list of one value per key)."""
        spec = self.type.output(name)
        if spec.style == "list":
            return list(self.as_dict(name).values())
        if spec.style == "dict" or (spec.indices and not keys):
            return self.as_dict(name)
        if spec.indices:
            return self.evaluate(name, *keys[: len(spec.indices)])
        return self.evaluate(name)

    def _refuse_unless(self, output: str) -> None:
        """Refuse ``output`` where its ``refused_unless`` predicate fails (outside the range its equation holds in)."""
        t = self.type
        out = t.output(output)
        if out.refused_unless and not self.evaluate(out.refused_unless):
            guard = t.output(out.refused_unless)
            raise InputError(f"{t.name}.{output} is refused: {out.refused_unless} does not hold"
                             + (f" ({guard.doc.rstrip('.')})" if guard.doc else ""))

    def as_dict(self, name: str, prefix: tuple[Any, ...] = ()) -> Any:
        """A keyed output as nested dicts ``{key: Quantity}``, one level per index (an output declaring ``keep``:
        only the keys where that predicate output holds)."""
        indices = self.plan(name).indices
        declared = self.type.output(name).indices
        if not indices and declared and not self.type.output(name).keep:   # constant over its keys (every earliest
            value = self.evaluate(name)                                      # start 0 in a graph without edges)
            if any(i not in self._bound.keys for i in declared):
                raise MissingInputError(f"{self.type.name}.{name}",
                                        [n for i in declared if i not in self._bound.keys
                                         for n in self.type.index_inputs.get(i, [i])])

            def spread(level: int) -> Any:
                return value if level == len(declared) else {k: spread(level + 1) for k in self._bound.keys[declared[level]]}
            return spread(0)
        if len(prefix) == len(indices):
            return self.evaluate(name, *prefix)
        index = indices[len(prefix)]
        if index not in self._bound.keys:
            raise MissingInputError(f"{self.type.name}.{name}", self.type.index_inputs.get(index, [index]))
        keep = self.type.output(name).keep if len(prefix) + 1 == len(indices) else ""
        if keep:   # a guarded output whose keep drops every key where it fails (a NaN load) is refused, not emptied
            self._refuse_unless(name)
        return {k: self.as_dict(name, (*prefix, k)) for k in self._bound.keys[index]
                if not keep or self.evaluate(keep, *prefix, k)}

    def symbol_values(self, output: str, *keys: Any, **arguments: Any) -> dict[sympy.Symbol, pint.Quantity]:
        """The value of each leaf symbol of ``output`` as a Quantity in its declared unit."""
        plan = self.plan(output)
        args = self.values(plan, keys, arguments)
        result = {}
        for sym, base in zip(plan.args, args):
            var = self.variable(sym)
            result[sym] = restated(ureg.Quantity(from_base(base, var.unit), var.unit), self._bound.stated)
        return result
