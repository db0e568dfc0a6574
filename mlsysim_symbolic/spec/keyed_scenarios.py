"""Two bounded constructs for a table of scenarios and for an index whose keys two inputs share out between them.

``kind = "scenarios"`` (:class:`ScenariosMixin`, a map kind): a ``{key: scenario}`` table of one declared scenario type
(``type``), of which the equations read one output (``output``) as a keyed value under the input's index, in the
declared ``unit`` (mlsysim's ``EnergyPerInferenceScenario.runs``, a dict of SingleNodeInferenceScenario whose energies
it reads).  A value is a scenario of that type, a ``Scenarios`` name of one, or a table of its inputs; the plan layer
reads each one's output (``plan/scenario_tables.py``).  The value read is a leaf of ours (a derivative stops at it; the
run's own inputs are not reached), and the member is the table as given, a name replaced by its scenario.

``some_keys = true`` on keyed inputs sharing an index: each gives the values at some of the index's keys, and the
index's keys are all of them, in declared order (mlsysim's ``dict(anchors); update(runs)``).  A key is given by one of
them only (a key given twice is refused by name), and an input reads 0 at a key it does not give, so an equation
adds them (``a + E``: the one value each key has).

>>> from mlsysim_symbolic.spec.kinds import KINDS, Bound
>>> a = KINDS["map"].read("anchors", {"symbol": "a", "unit": "J", "index": "tier", "some_keys": True})
>>> b = KINDS["map"].read("others", {"symbol": "b", "unit": "J", "index": "tier", "some_keys": True})
>>> bound = Bound()
>>> KINDS["map"].bind(a, {"kws": "10 uJ"}, bound); KINDS["map"].bind(b, {"llm": "1 kJ"}, bound)
>>> union_keys({"tier": ["anchors", "others"]}, {"anchors": a, "others": b}, bound)
>>> bound.keys["tier"], bound.keyed["tier"]
(['kws', 'llm'], {'kws': {a: 1e-05, b: 0}, 'llm': {b: 1000, a: 0}})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..errors import InputError
from .definitions import InputSpec


def union_keys(index_inputs: Mapping[str, list[str]], inputs: Mapping[str, InputSpec], bound: Any) -> None:
    """For each index whose inputs declare ``some_keys``: its keys are theirs, in declared order, each given once;
    an input's leaves read 0 at the keys it does not give.  Sets ``bound.keys[index]``."""
    for index, names in index_inputs.items():
        parts = [n for n in names if inputs[n].some_keys and n in bound.keys]
        if not parts:
            continue
        owner: dict[Any, str] = {}
        for name in parts:
            for key in bound.keys[name]:
                if key in owner:
                    raise InputError(f"{name}: the key {key!r} is given by {owner[key]} too; the inputs sharing the index "
                                     f"{index!r} give each key once")
                owner[key] = name
        by_key = bound.keyed.setdefault(index, {})
        for name in parts:
            var = inputs[name].variable
            for key in owner:
                if owner[key] != name:
                    by_key.setdefault(key, {})[var.symbol] = 0
        bound.keys[index] = list(owner)


class ScenariosMixin:
    """``kind = "scenarios"``: each value a scenario of ``type``; its ``output`` is the keyed value (mixed into a map
    kind in :mod:`mlsysim_symbolic.spec.kinds`)."""

    name = "scenarios"
    annotation = "Dict[str, Scenario]"
    nests = False

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        type_name, output = raw.get("type"), raw.get("output")
        if not isinstance(type_name, str) or not isinstance(output, str) or not output.isidentifier():
            raise InputError("a scenarios input names its scenario type and the output it reads: "
                             "type = \"SingleNodeInferenceScenario\", output = \"energy\"")
        if "default" in raw:
            raise InputError("a scenarios input has no default (a named scenario states its table)")
        spec = super().read(name, {k: v for k, v in raw.items() if k not in ("type", "output")})   # type: ignore[misc]
        return replace(spec, kind="scenarios", type_name=type_name, output=output, annotation=f"Dict[str, {type_name}]")

    def bind_item(self, spec: InputSpec, item: Any, label: str, bound: Any) -> tuple[Any, dict[Any, Any]]:
        """Keep the value as given (a scenario, a name or a table): the plan layer resolves it and reads its output
        (:func:`mlsysim_symbolic.plan.scenario_tables.read_scenario_tables`); a value of another kind is refused here."""
        if isinstance(item, (str, Mapping)):
            return item, {}
        got = getattr(getattr(item, "type", None), "name", None)
        if got != spec.type_name or not hasattr(item, "planner"):
            raise InputError(f"{label}: expected a {spec.type_name} scenario (an instance, a Scenarios name or a table of "
                             f"its inputs), got {got or type(item).__name__}")
        return item, {}

    def describe(self, spec: InputSpec) -> list[str]:
        v = spec.variable
        return [f"    a table of {spec.type_name} scenarios; symbol {v.symbol if v else spec.name}: each one's "
                f"{spec.output} [{v.unit_text if v else ''}]"]


def declaration_error(inputs: Mapping[str, InputSpec], in_name: str) -> str | None:
    """Why input ``in_name`` is declared wrong for these constructs, or None: a scenarios input reads an output of its
    type without keys or arguments, in its declared dimension; the inputs sharing an index all give some of its keys
    (``some_keys``) or none does."""
    spec = inputs[in_name]
    if spec.output is not None and spec.sub_type is not None:   # a scenarios input: the output it reads exists, in its dimension
        out = spec.sub_type.outputs.get(spec.output)
        if out is None or out.indices or out.arguments or not out.kind.numeric:
            return f"{spec.sub_type.name} has no output {spec.output!r} without keys or arguments to read"
        if out.variable.outer_unit.dimensionality != spec.variable.unit.dimensionality:
            return (f"{spec.sub_type.name}.{spec.output} is in {out.variable.outer_unit} and {spec.variable.unit}: they "
                    "disagree in dimension")
    if spec.index is None:
        return None
    sharing = [n for n, other in inputs.items() if other.index == spec.index]
    if len({inputs[n].some_keys for n in sharing}) > 1:
        return (f"the inputs sharing the index {spec.index!r} ({', '.join(sharing)}) all give some of its keys "
                "(some_keys = true) or none does")
    return None
