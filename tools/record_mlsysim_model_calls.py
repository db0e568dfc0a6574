"""Record the arguments mlsysim 0.3.0's own named scenarios pass to its solver Models, and what each returned (issue 35).

The same harness as ``tools/record_mlsysim_calls.py`` (its module docstring says how mlsysim's named scenarios are
evaluated and how values are written: this tool imports its ``encode``, ``evaluate_all`` and ``Recorder``), but the
functions wrapped are the ``solve`` methods of every class of ``mlsysim.engine.solvers`` that defines one (patched on
the class, so every caller is seen, the scenarios' own imports included).  Each call's bound arguments (``self`` left
out) and the result's fields are kept (at most ``--cap`` distinct argument sets per Model, chosen as the calc_* tool
chooses), written to ``tests/reference/data/mlsysim_model_calls.json``:

- ``arguments``: as the calc_* tool writes them, and an argument that is one of mlsysim's registry objects (a model
  of ``mlsysim.Models``, a device of ``mlsysim.Hardware``) as ``{"entry": [namespace, group, key]}``; a call with an
  argument that is any other object is counted under ``skipped`` with the argument's name and class, not kept;
- ``result``: mlsysim's result fields but ``constraint_trace`` (prose), as ``[name, value]`` pairs in mlsysim's
  order, each value encoded the same way; a field that is an
  object is written ``{"object": "<class>"}`` (not compared); ``raises``: the exception's class name where mlsysim's
  solve raised instead.

The file is deterministic (sorted keys, the scenarios in name order), so a rerun writes the same bytes.

    python tools/record_mlsysim_model_calls.py     # writes tests/reference/data/mlsysim_model_calls.json, prints counts
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_mlsysim_calls import (  # noqa: E402
    Recorder,
    Unwritable,
    encode,
    evaluate_all,
    parse_arguments,
    recording,
    write_recording,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "reference" / "data" / "mlsysim_model_calls.json"
#: mlsysim's namespaces of registry objects an argument may be (written by name, rebuilt by the replay).
REGISTRIES = ("Models", "Hardware")
#: Result fields that are not physics (mlsysim's prose trace of its checks).
PROSE = frozenset({"constraint_trace"})


def encode_result(result: Any) -> list[list[Any]]:
    """mlsysim's result fields but prose as ``[name, value]`` pairs in its order (a pydantic model's), each value as
    data or ``{"object": class}``."""
    fields = getattr(type(result), "model_fields", None)
    if fields is None:
        return [["value", _field(result)]]
    return [[name, _field(getattr(result, name))] for name in fields if name not in PROSE]


def _field(value: Any) -> Any:
    try:
        return encode(value)
    except Unwritable as exc:
        return {"object": exc.cls_name}


def registry_entries(mlsysim: Any) -> dict[int, list[str]]:
    """mlsysim's registry objects by id: ``[namespace, group, key]`` (``Models``, ``Hardware``; the first key in name
    order where one object has two)."""
    found: dict[int, list[str]] = {}
    for kind in REGISTRIES:
        namespace = getattr(mlsysim, kind)
        for group in sorted(n for n in dir(namespace) if not n.startswith("_")):
            members = getattr(namespace, group)
            if not inspect.isclass(members):
                continue
            for key in sorted(n for n in dir(members) if not n.startswith("_")):
                value = getattr(members, key)
                if not callable(value):
                    found.setdefault(id(value), [kind, group, key])
    return found


class ModelRecorder(Recorder):
    """A :class:`Recorder` of ``solve`` methods that keeps each kept call's result (or the exception it raised); an
    argument that is one of mlsysim's registry objects is written ``{"entry": [namespace, group, key]}``."""

    def __init__(self, entries: dict[int, list[str]]) -> None:
        super().__init__()
        self.entries = entries

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def recorded(model: Any, *args: Any, **kwargs: Any) -> Any:
            key = self.record_call(name, signature, (model, *args), kwargs)
            try:
                result = fn(model, *args, **kwargs)
            except Exception as exc:
                if key is not None:
                    self.seen[name][key].setdefault("raises", type(exc).__name__)
                raise
            if key is not None and "result" not in self.seen[name][key]:
                self.seen[name][key]["result"] = encode_result(result)
            return result

        return recorded

    def record_call(self, name: str, signature: inspect.Signature, args: tuple, kwargs: dict[str, Any]) -> str | None:
        """Record one call (as :meth:`Recorder.record`, ``self`` left out); the key of its argument set if kept."""
        self.calls[name] += 1
        try:
            bound = dict(signature.bind(*args, **kwargs).arguments)
        except TypeError:
            self.skipped.setdefault(name, Counter())["<unbound call>"] += 1
            return None
        bound.pop("self", None)
        encoded = {}
        for arg, value in bound.items():
            if id(value) in self.entries:
                encoded[arg] = {"entry": self.entries[id(value)]}
                continue
            try:
                encoded[arg] = encode(value)
            except Unwritable as exc:
                self.skipped.setdefault(name, Counter())[f"{arg}: {exc.cls_name}"] += 1
                return None
        key = json.dumps(encoded, sort_keys=True)
        self.seen.setdefault(name, {}).setdefault(key, {"arguments": encoded, "first_seen": self.where})
        return key


def model_classes(mlsysim: Any) -> dict[str, type]:
    """mlsysim's classes with their own ``solve`` in ``mlsysim.engine.solvers``, by name."""
    import mlsysim.engine.solvers as solvers

    return {n: c for n in sorted(dir(solvers)) if inspect.isclass(c := getattr(solvers, n)) and "solve" in vars(c)}


def run(cap: int, limit: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """Import and patch mlsysim's Models, evaluate every named scenario, and return (the file's data, the counts)."""
    import mlsysim

    classes = model_classes(mlsysim)
    recorder = ModelRecorder(registry_entries(mlsysim))
    for name, cls in classes.items():
        cls.solve = recorder.wrap(name, vars(cls)["solve"])
    evaluated = evaluate_all(mlsysim, limit, recorder)
    kept = recorder.kept(cap)
    data, counts = recording(recorder, kept, evaluated, cap=cap, names=list(classes), version=mlsysim.__version__,
                             about="Arguments mlsysim 0.3.0's named scenarios pass to its solver Models' solve, and the "
                                   "results (tools/record_mlsysim_model_calls.py; tests/reference/test_ref_solver_models.py "
                                   "replays them)",
                             what="Models")
    stats = {"Models patched": len(classes), **counts}
    return data, stats


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv, __doc__, OUT, 8, "Model")
    started = time.perf_counter()
    data, stats = run(args.cap, args.limit)
    write_recording(args.out, data, stats, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
