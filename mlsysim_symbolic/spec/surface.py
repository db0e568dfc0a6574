"""The names a scenario's class keeps for itself: its core members and its analysis accessors, in one table.

A declared input, argument, output or member may take none of them (:data:`RESERVED`): the builder refuses the
type at load time, naming the type, the declaration and the accessor, where a declared output used to shadow the
accessor without a word.  :data:`ACCESSORS` is the one registry of the analysis surface: each name with the
:class:`~mlsysim_symbolic.output_ref.OutputRef` method its flat form forwards to (``s.diff(output, wrt)`` is
``s.ref(output).diff(wrt)``), or ``None`` for a namespace (``s.sensitivity.sobol(...)``), the handout itself
(``ref``) or a fact of the type (``assumptions``).  The owners (``Scenario``, ``SolverResult``,
``EvaluationLevel``) install the forwards from this table, so a new analysis is one row here and one method there.

One output may keep an accessor's name where mlsysim's class has a member of that name
(``LaplaceMeanReleaseScenario.sensitivity``): it says so with ``shadows_accessor = true``; on that type the
analyses stay reachable through ``s.ref(output)``.

>>> clash("sobol")
'the analysis accessor .sobol (OutputRef.sobol)'
>>> clash("variant")
'the Scenario member .variant'
>>> clash("per_batch") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: Members every scenario needs (its binding, values and identity): no declaration may take them.
CORE_MEMBERS = frozenset({
    "type", "planner", "name", "description", "key", "inputs", "outputs", "evaluate", "values", "variant", "keys",
    "result", "self", "cls",
})

#: The analysis surface: accessor name -> the OutputRef method its flat form forwards to (None: not a forward).
ACCESSORS: Mapping[str, str | None] = MappingProxyType({
    # handed out / namespaces / facts of the type
    "ref": None, "sensitivity": None, "sweeps": None, "inverse": None, "tex": None,
    "assumptions": None, "excludes": None, "derivation": None, "references": None,
    # forwards: name(output, *args, **options) == ref(output).method(*args, **options)
    "expression": "expression", "equation": "equation", "simplify": "simplify", "diff": "diff",
    "elasticities": "elasticities", "local_sensitivity": "local_sensitivity", "one_at_a_time": "one_at_a_time",
    "tornado": "tornado", "sobol": "sobol", "morris": "morris", "uncertainty": "uncertainty",
    "sweep": "sweep", "reduce_sweep": "reduce_sweep", "solve": "solve", "optimum": "optimum",
    "symbol_values": "symbol_values", "latex": "latex", "symbol_table": "symbol_table",
})

#: Every name a declaration may not take.
RESERVED = CORE_MEMBERS | frozenset(ACCESSORS)

#: Members of a solver result besides its fields and the accessors: with the accessors, what a result field may
#: not be called (a field is read through ``__getattr__``, so a member of the same name would hide it).
RESULT_MEMBERS = frozenset({"scenario", "output", "fields", "model_dump"})


def clash(name: str) -> str | None:
    """What ``name`` would clash with on a scenario's class (a phrase for an error), or None when it is free."""
    if name in CORE_MEMBERS:
        return f"the Scenario member .{name}"
    if name in ACCESSORS:
        method = ACCESSORS[name]
        return f"the analysis accessor .{name}" + (f" (OutputRef.{method})" if method else "")
    return None


def result_clash(field: str) -> str | None:
    """What a top-level result field named ``field`` would be hidden by on a solver result, or None.

    >>> result_clash("latency") is None, result_clash("diff"), result_clash("fields")
    (True, 'the analysis accessor .diff (OutputRef.diff)', 'the solver-result member .fields')
    """
    if field in RESULT_MEMBERS:
        return f"the solver-result member .{field}"
    return clash(field) if field in ACCESSORS else None
