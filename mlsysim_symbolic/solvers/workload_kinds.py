"""Which workloads a solver's equations describe: the kinds each workload argument declares, and the fields they read.

Every argument of a solver that binds a workload declares ``kinds`` (:class:`~.base.Arg`): the classes of mlsysim
0.3.0's workloads (an entry's ``kind``, mlsysim's class name) its type's equations describe.  A workload of another
kind is refused by name (:class:`WorkloadKindError`: a CNN has no KV cache to serve), and an argument that binds a
workload without declaring its kinds, or kinds its type's input does not take (the type declares them too where its
equations describe some kinds only: ``kinds = [...]`` on the input in ``derivations/``, checked on every binding,
solver or not), is a solver that cannot be used (:class:`UndeclaredKindsError`).  A workload
of a declared kind that does not state a field its equations read (a model without ``layers`` given to training
memory) is refused as well (:class:`WorkloadFieldError`), where the result would otherwise show ``None`` beside
mlsysim's number.

>>> from mlsysim_symbolic.solvers import ServingModel
>>> ServingModel().solve("ResNet50", "H100", seq_len=2048)
Traceback (most recent call last):
...
mlsysim_symbolic.errors.WorkloadKindError: ServingModel.solve(): model 'ResNet50' is a CNNWorkload; ServingModel takes TransformerWorkload or SparseTransformerWorkload only: ...
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import sympy

from ..errors import MissingInputError, UndeclaredKindsError, WorkloadFieldError, WorkloadKindError
from ..plan import caches
from ..spec.definitions import ResultSpec
from ..spec.kinds import WorkloadKind, kind_of
from ..spec.result_sources import ViewSource

if TYPE_CHECKING:
    from ..scenario import Scenario
    from ..spec.types import ScenarioType
    from .base import Arg

#: The workload classes mlsysim treats as transformers (its ``TransformerWorkload`` and subclass).
TRANSFORMERS: tuple[str, ...] = ("TransformerWorkload", "SparseTransformerWorkload")
#: Every workload class of mlsysim 0.3.0 (``mlsysim.models.types``): a solver whose equations describe any workload.
WORKLOADS: tuple[str, ...] = (*TRANSFORMERS, "CNNWorkload", "SSMWorkload", "DiffusionWorkload", "EmbodiedWorkload", "Workload")


def workload_arguments(arguments: Iterable[Arg], stype: ScenarioType) -> Iterator[Arg]:
    """The arguments that bind a workload input of the scenario type ``stype``; each must declare its kinds."""
    for arg in arguments:
        spec = stype.inputs.get(arg.input) if arg.input else None
        if spec is not None and type(kind_of(spec)) is WorkloadKind:   # one workload (not a table of them)
            yield arg


def declared_workloads(solver: str, arguments: Iterable[Arg], stype: ScenarioType) -> tuple[tuple[Arg, Any], ...]:
    """The (argument, input spec) pairs that bind a workload input of ``stype``, each checked to declare its kinds
    within those the type's input declares (else :class:`UndeclaredKindsError`): a property of the solver class,
    found once (:meth:`~.base.Solver.bindings`), not on each call."""
    found = []
    for arg in workload_arguments(arguments, stype):
        spec = stype.inputs[arg.input]   # type: ignore[index]
        if not arg.kinds or (spec.kinds and set(arg.kinds) - set(spec.kinds)):
            raise UndeclaredKindsError(f"{solver}: argument {arg.name} binds the workload input {arg.input!r} of "
                                       f"{stype.name}, which takes {spec.kinds or 'any kind'}, but declares "
                                       f"kinds {arg.kinds} (Arg(kinds=...), within the type's)")
        found.append((arg, spec))
    return tuple(found)


def check_kinds(solver: str, workloads: Iterable[tuple[Arg, Any]], inputs: Mapping[str, Any]) -> None:
    """Refuse a workload of ``inputs`` (the values a solve binds, before the scenario is built) whose kind its argument
    (of ``workloads``, :func:`declared_workloads`) does not declare."""
    for arg, spec in workloads:
        value = inputs.get(arg.input)   # type: ignore[arg-type]
        if value is None:
            continue
        entry = kind_of(spec).entry(value, arg.name)   # type: ignore[attr-defined]
        kind = getattr(entry, "kind", None) or None
        if kind not in arg.kinds:
            what = f"is a {kind}" if kind else "states no kind (give its mlsysim class as kind = ...)"
            raise WorkloadKindError(f"{solver}.solve(): {arg.name} {getattr(entry, 'key', entry)!r} {what}; "
                                    f"{solver} takes {' or '.join(arg.kinds)} only"
                                    + (f": {arg.note}" if arg.note else ""))


def check_fields(solver: str, arguments: Iterable[Arg], scenario: Scenario) -> None:
    """Refuse a workload lacking a field that a result field needs (that field would be ``None``; mlsysim's is not).

    Which result fields go unset for want of a workload field is a property of the type and the scenario's presence
    signature (which inputs are set), found once per (solver, signature) and kept with the type's plans; a call
    looks it up, then evaluates only the predicates of fields mlsysim sets on one branch (``offload_spill_bytes``
    where the state fits), which stand as ``None`` by design."""
    planner = scenario.planner
    key = ("workload fields", solver, planner.signature)
    kept = caches(scenario.type).plans
    entries = kept.get(key)
    if entries is None:
        entries = kept[key] = _field_needs(arguments, scenario)
    if not entries:
        return
    needs: dict[tuple[str, str], list[str]] = {}
    for name, field, label, predicate in entries:
        if predicate is not None and planner.member(predicate):
            continue
        needs.setdefault((name, field), []).append(label)
    if needs:
        (name, _), _ = next(iter(needs.items()))
        entry = scenario.inputs[next(a for a in arguments if a.name == name).input]
        which = "; ".join(f"{field} (for {', '.join(dict.fromkeys(labels))})" for (_, field), labels in needs.items())
        raise WorkloadFieldError(f"{solver}.solve(): {name} {getattr(entry, 'key', entry)!r} ({getattr(entry, 'kind', '')}) "
                                 f"does not state {which}, which {solver}'s equations read")


def _field_needs(arguments: Iterable[Arg], scenario: Scenario) -> tuple[tuple[str, str, str, str | None], ...]:
    """(argument, workload field, result field label, its one-branch predicate or None) for each result field left
    unset because a workload bound by ``arguments`` does not state a field the field's outputs read."""
    planner = scenario.planner
    missing: dict[sympy.Symbol, tuple[Arg, str]] = {}
    for arg in workload_arguments(arguments, scenario.type):
        if scenario.inputs.get(arg.input) is None:
            continue
        attributes = scenario.type.inputs[arg.input].attributes.values()
        bound = planner.bound([v.symbol for v in attributes])
        missing.update({v.symbol: (arg, v.reads.field if v.reads else v.name) for v in attributes if v.symbol not in bound})
    if not missing:
        return ()
    found: list[tuple[str, str, str, str | None]] = []
    for label, output, predicate in _unset_outputs(scenario, scenario.type.result, ""):
        definitions = planner.definitions(output)
        leaves = set().union(*(expr.free_symbols for _, expr in definitions)) - {sym for sym, _ in definitions}
        for sym in sorted(leaves, key=str):
            if sym in missing:
                arg, field = missing[sym]
                found.append((arg.name, field, label, predicate))
    return tuple(found)


def _unset_outputs(scenario: Scenario, spec: ResultSpec | None, prefix: str) -> Iterator[tuple[str, str, str | None]]:
    """(field label, output, one-branch predicate) of each result field an unset input leaves ``None`` (a field of
    outputs one of which cannot be planned at this presence signature)."""
    if spec is None:
        return
    unset = dict(spec.unset_when)
    views = dict(spec.views)
    for field, source, name in spec.fields:
        if isinstance(source, ViewSource):
            yield from _unset_outputs(scenario, views[field], f"{prefix}{field}.")
        elif source.equation:
            outputs = source.outputs(scenario.type, name)
            if any(_unplannable(scenario, output) for output in outputs):
                yield from ((f"{prefix}{field}", output, unset.get(field)) for output in outputs)


def _unplannable(scenario: Scenario, output: str) -> bool:
    try:
        scenario.planner.plan(output)
    except MissingInputError:
        return True
    return False
