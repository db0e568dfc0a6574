"""The values of ``kind = "scenarios"`` inputs (spec/keyed_scenarios.py): each key's scenario, given as an instance, a
``Scenarios`` name or a table of its inputs, evaluated for the output the input reads, as that key's leaf."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..spec.definitions import ReadOnlyDict
from ..spec.kinds import checked, kind_of, to_base_checked


def read_scenario_tables(planner: Any) -> None:
    """Set, for every bound scenarios input of ``planner``'s type, each key's leaf to its scenario's output (in the
    input's declared unit, base units kept); a named scenario is kept as the scenario itself."""
    t, bound = planner.type, planner._bound
    for name, spec in t.inputs.items():
        if not kind_of(spec).scenario_table or bound.values.get(name) is None:
            continue
        kept = dict(bound.values[name])
        by_key = bound.keyed.setdefault(spec.index or name, {})
        var = spec.variable
        for key, item in kept.items():
            label = f"{name}[{key!r}]"
            if isinstance(item, str):   # a named scenario of the type, by its Scenarios key
                resolver = spec.sub_type.resolver
                if resolver is None:
                    raise InputError(f"{label}: {item!r} names a scenario, but {spec.sub_type.name} was not read from a "
                                     "catalog; pass the scenario itself or a table of its inputs")
                item = kept[key] = resolver.named_of(spec.sub_type.name, item)
            sub = type(planner)(spec.sub_type, item) if isinstance(item, Mapping) else item.planner
            magnitude = checked(var, sub.evaluate(spec.output), f"{label}.{spec.output}")
            by_key.setdefault(key, {})[var.symbol] = to_base_checked(magnitude, var, label)
        bound.values[name] = ReadOnlyDict(kept)
