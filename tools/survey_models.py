"""Survey mlsysim 0.3.0's solver Models against our catalog and write the skeleton of ``derivations/models/models.toml``.

Every class of ``mlsysim.engine.solvers`` with a ``solve`` that ``mlsysim_symbolic.solvers`` does not hand-write is
matched to the catalog type whose ``[types.T.result]`` view carries mlsysim's result class name (``produces``).  A
Model is written as a table entry when exactly one type has that result, every ``solve`` argument is an input name
of that type (or a hand-checked rename, :data:`RENAMES`), and every default is data (None, a number, a bool, a text,
a Quantity as magnitude and unit).  Every other Model is printed with the reason it is left out (the test's
``NOT_PORTED``).  The tool imports mlsysim; the package never does.

    python tools/survey_models.py            # writes derivations/models/models.toml, prints the left-out Models
    python tools/survey_models.py --check    # exits 1 if the file differs from what the survey writes
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "derivations" / "models" / "models.toml"
#: Arguments whose mlsysim name is not the input's, checked by hand: (Model, argument) -> input of our type.
RENAMES: dict[tuple[str, str], str] = {
    ("BisectionModel", "n_devices"): "total_accelerators",
    ("CompressionRunModel", "ratio"): "compression_ratio",
    ("GridPlacementModel", "intensities"): "grids",
    ("HorizonCompoundingModel", "target_horizon"): "long_horizon",
    ("IronLawModel", "memory_time"): "memory_time_stated",
    ("IronLawModel", "compute_time"): "compute_time_stated",
    ("OutageCostModel", "job_devices"): "total_accelerators",
    ("KingmanQueueModel", "low"): "low_utilization",
    ("KingmanQueueModel", "high"): "high_utilization",
    ("UtilizationLossModel", "n_devices"): "total_accelerators",
    **{(m, "model"): "workload" for m in ("DataParallelScaleOutModel", "GradientSyncModel", "KvAdmissionModel",
                                          "PrecisionDividendModel", "TensorParallelCommModel", "ZeroShardingModel")},
}
#: Models whose type cannot take mlsysim's arguments as they are, found by replaying mlsysim's recorded calls
#: (tests/reference/test_ref_solver_models.py) and checked by hand: Model -> reason (the type is not bent to them).
_DERIVED = "the type reads {inputs} that mlsysim derives inside solve from its arguments (the named scenario states " \
           "them); a solve with mlsysim's arguments alone leaves {fields} None"
_MAPPING = "mlsysim passes {arg} as a {shape}; the type's input is a mapping of keys to values"
_PER_TIME = "mlsysim passes {arg} per month ({unit}); the type's input is {ours} (a one-time amount)"
NOT_TAKEN: dict[str, str] = {
    "CompactionPaybackModel": _DERIVED.format(inputs="call (a list of call numbers)", fields="net_by_calls"),
    "DenseNetworkModel": _DERIVED.format(inputs="layers, position, layer, flops_per_mac, elementwise_ops, flop_per_op",
                                         fields="every field"),
    "PairedComparisonModel": _DERIVED.format(inputs="tail_count (a list)", fields="exact_p"),
    "ExponentialRareEventModel": _DERIVED.format(inputs="budget (a scenario) and level_steps (a list)", fields="levels"),
    "CompactionCadenceModel": _DERIVED.format(inputs="turn (a list of turns)", fields="lengths, alternate_lengths"),
    "ContextBudgetModel": _DERIVED.format(inputs="turn (a list of turns)",
                                          fields="append_requests, append_cumulative, select_cumulative"),
    "ErrorFeedbackModel": _DERIVED.format(inputs="steps, step, boundary, half", fields="errors"),
    "GraphNeighborhoodModel": _DERIVED.format(inputs="level (a list of depths)", fields="nodes_by_depth, tokens_by_depth"),
    "RetryAmplificationModel": _DERIVED.format(inputs="depth (a list of layers)", fields="by_layer"),
    "UndetectedLoopModel": _DERIVED.format(inputs="turn (a list of turns)", fields="input_by_turn"),
    "GroupCoefficientsModel": _MAPPING.format(arg="rewards", shape="list"),
    "ModelCascadeModel": _MAPPING.format(arg="call_costs (and the other per-model lists)", shape="list"),
    "ReferentSetModel": _MAPPING.format(arg="scores", shape="list"),
    "SerialEpisodeModel": _MAPPING.format(arg="model_intervals", shape="tuple"),
    "ObjectStorageBillModel": _PER_TIME.format(arg="storage_rate", unit="USD/GB/month", ours="USD/GB"),
    "RetentionCostModel": _PER_TIME.format(arg="rate", unit="USD/TB/month", ours="USD/TB"),
    "StreamVsStageModel": _PER_TIME.format(arg="object_rate", unit="USD/GB/month", ours="USD/GB"),
    "ZeroShardingModel": "mlsysim passes activations as a Quantity of bytes; the type's input is an "
                         "ActivationMemoryScenario (a scenario that computes them)",
}
#: Kinds of workload, by the table's name for them (the names ``declared.KIND_SETS`` resolves).
KIND_NAMES = {("TransformerWorkload", "SparseTransformerWorkload"): "transformers"}


def mlsysim_models() -> dict[str, type]:
    """mlsysim's classes with their own ``solve`` in ``mlsysim.engine.solvers``, by name."""
    import mlsysim.engine.solvers as solvers

    return {n: c for n in sorted(dir(solvers)) if inspect.isclass(c := getattr(solvers, n)) and "solve" in vars(c)}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"not TOML data: {value!r}")


def argument_entry(param: inspect.Parameter, to: str | None, kinds: str | tuple[str, ...] | None) -> dict[str, Any]:
    """One argument as table data; raises ``TypeError`` for a default that is not data."""
    entry: dict[str, Any] = {"name": param.name}
    default = param.default
    if default is param.empty:
        pass
    elif default is None:
        entry["default_none"] = True
    elif isinstance(default, (bool, int, float, str)):
        entry["default"] = default
    elif type(default) is tuple and all(isinstance(v, (bool, int, float, str)) for v in default):
        entry["default"] = list(default)
        entry["tuple"] = True
    elif hasattr(default, "magnitude") and hasattr(default, "units"):
        entry["default"] = default.magnitude
        entry["unit"] = format(default.units, "D")
    else:
        raise TypeError(f"{param.name}: default {type(default).__name__}")
    if to is not None:
        entry["to"] = to
    if kinds is not None:
        entry["kinds"] = kinds if isinstance(kinds, str) else list(kinds)
    return entry


def survey() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(table entries, left-out Model -> reason)."""
    from mlsysim_symbolic import solvers as ours
    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.solvers.workload_kinds import WORKLOADS
    from mlsysim_symbolic.spec.kinds import WorkloadKind, kind_of

    types = catalog().types
    by_result: dict[str, list[str]] = {}
    for tname, stype in types.items():
        if stype.result is not None:
            by_result.setdefault(stype.result.name, []).append(tname)
    entries, left = [], {}
    for name, cls in mlsysim_models().items():
        if name in ours.__all__:
            continue
        if name in NOT_TAKEN:
            left[name] = NOT_TAKEN[name]
            continue
        produces = getattr(getattr(cls, "produces", None), "__name__", None)
        found = by_result.get(produces or "", [])
        if produces is None:
            left[name] = "mlsysim declares no result class (produces) for it: no result view to bind"
            continue
        params = list(inspect.signature(cls.solve).parameters.values())[1:]
        if len(found) > 1:   # the one type whose inputs take every argument, if exactly one does
            found = [t for t in found if all(RENAMES.get((name, p.name), p.name) in types[t].inputs for p in params)] or found
        if len(found) != 1:
            left[name] = (f"no type of ours has mlsysim's result {produces}" if not found
                          else f"{len(found)} types have the result {produces}: {', '.join(sorted(found))}")
            continue
        stype = types[found[0]]
        odd = [p.name for p in params if p.kind is not p.POSITIONAL_OR_KEYWORD]
        if odd:
            left[name] = f"keyword-only or variadic arguments: {', '.join(odd)}"
            continue
        missing = [p.name for p in params if RENAMES.get((name, p.name), p.name) not in stype.inputs]
        if missing:
            left[name] = f"arguments that are no input of {found[0]}: {', '.join(missing)}"
            continue
        args = []
        try:
            for p in params:
                to = RENAMES.get((name, p.name))
                spec = stype.inputs[to or p.name]
                kinds = None
                if type(kind_of(spec)) is WorkloadKind:
                    declared = tuple(spec.kinds) or WORKLOADS
                    kinds = "workloads" if declared == WORKLOADS else KIND_NAMES.get(declared, declared)
                args.append(argument_entry(p, to, kinds))
        except TypeError as exc:
            left[name] = f"a default that is an object: {exc}"
            continue
        entries.append({"name": name, "type": found[0], "result": produces, "arguments": args})
    return entries, left


def render(entries: list[dict[str, Any]]) -> str:
    """The table's text (one ``[[model]]`` per entry, its arguments one a line)."""
    lines = ["# mlsysim 0.3.0's solver Models as data: one entry per Model (tools/survey_models.py writes the skeleton from",
             "# mlsysim's signatures; each entry checked by hand).  type: the catalog type one solve binds; result: mlsysim's",
             "# result class (the type's result view); arguments: mlsysim's solve arguments in its order with its defaults",
             "# (no default: required; default_none: None; unit: a Quantity default's unit; to: the input it binds when",
             "# the name differs; kinds: the workload classes it takes, or a name of declared.KIND_SETS).", ""]
    for e in entries:
        lines += ["[[model]]", f"name = {_toml(e['name'])}", f"type = {_toml(e['type'])}", f"result = {_toml(e['result'])}",
                  "arguments = ["]
        for a in e["arguments"]:
            lines.append("    { " + ", ".join(f"{k} = {_toml(v)}" for k, v in a.items()) + " },")
        lines += ["]", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    args = parser.parse_args(argv)
    entries, left = survey()
    text = render(entries)
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("models.toml is the survey's" if same else "models.toml differs from the survey")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(entries)} Models; left out {len(left)}:")
    for name, why in sorted(left.items()):
        print(f"    {name!r}: {why!r},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
