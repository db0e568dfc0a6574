"""Record the arguments mlsysim 0.3.0's own named scenarios pass to its ``calc_*`` functions (issue 36).

Every ``calc_*`` function object of mlsysim is wrapped wherever a module of mlsysim holds it (the scenario and solver
modules import them by name, ``from ..physics.x import calc_y``, sometimes under another name: every loaded
``mlsysim.*`` module's attribute that *is* one of those objects is replaced, and ``mlsysim.calc_*`` too).  Then every
named scenario of ``mlsysim.Scenarios`` is evaluated, in name order, as the reference harness reads it
(``tests/reference/members.py``): its ``result`` and every public property its class declares beyond
``BaseScenario``, every public method that needs no argument, and every method at the arguments a wave of the harness
declares for it (``Wave.method_args`` of ``tests/reference/test_ref_*.py``, given to mlsysim as the harness gives them:
positionally, text quantities in mlsysim's registry); the 13 application scenarios' ``is_distributed``, ``validate()``
and ``evaluate`` at the configurations ``tests/reference/test_ref_applications.py`` reads.  Each
call's arguments are recorded as mlsysim's code passed them (bound to the function's parameter names), calls from
inside another ``calc_*`` included (a call mlsysim makes is a call mlsysim makes).  A member may take ``--limit``
seconds; one that takes longer is left and listed (none does: the whole run takes about 6 s).

The distinct argument sets are kept per function (at most ``--cap``: the first half of the cap in the order first
seen, then an even spread over the rest), each with the member that first passed it (``first_seen``:
``"Key.member"``, a method's arguments after it), and written to ``tests/reference/data/mlsysim_calls.json``:

- a number, bool, string or None as itself; a float that is not finite as ``{"float": "inf"}``;
- a Quantity as ``{"magnitude": m, "unit": "<pint unit text>"}`` (text that mlsysim's registry reads back to the same
  Quantity);
- a list as a list, a tuple as ``{"tuple": [...]}``, a dict as ``{"dict": [[key, value], ...]}`` (its order kept);
- an object (a model, a hardware spec, a scenario) cannot be written as data: the call is counted under ``skipped``
  with the argument's name and class name.

The file is deterministic (sorted keys, the scenarios in name order), so a rerun writes the same bytes.

    python tools/record_mlsysim_calls.py            # writes tests/reference/data/mlsysim_calls.json, prints counts
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import math
import signal
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "reference" / "data" / "mlsysim_calls.json"
#: Members every mlsysim scenario has, not its physics (members.COMMON of the reference harness).
COMMON = frozenset({"result", "variant", "model_config", "evaluate"})
#: The application scenarios' ``evaluate(batch_size, precision)`` at the configurations the reference harness reads
#: (tests/reference/test_ref_applications.py): mlsysim's default first; the fleets at batches that fill their ranks.
DEVICE_CONFIGS = ((1, "fp16"), (4, "fp32"), (16, "int8"), (64, "bf16"), (2, "int4"))
FLEET_CONFIGS = ((1, "fp16"), (8192, "fp16"), (1024, "fp32"), (2048, "bf16"), (16384, "int8"))


class Unwritable(Exception):
    """An argument that is not data (an object of mlsysim's): its class name is what the file keeps."""

    def __init__(self, cls_name: str) -> None:
        super().__init__(cls_name)
        self.cls_name = cls_name


class MemberTimeout(Exception):
    """A member took longer than the time allowed (its calls so far are kept)."""


def encode(value: Any) -> Any:
    """``value`` as JSON data (the module docstring's forms); raises :class:`Unwritable` naming its class if it is
    not data.

    >>> encode((1, 2.5, "a", None, [True]))
    {'tuple': [1, 2.5, 'a', None, [True]]}
    >>> encode({"b": float("inf")})
    {'dict': [['b', {'float': 'inf'}]]}
    """
    if value is None or isinstance(value, (bool, str, int)):
        return value if type(value) in (bool, str, int, type(None)) else _unwritable(value)
    if isinstance(value, float):
        if type(value) is not float:   # a numpy float64: read as the float it equals
            value = float(value)
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple) and type(value) is tuple:
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, dict) and type(value) is dict:
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if hasattr(value, "magnitude") and hasattr(value, "units"):
        return _quantity(value)
    return _unwritable(value)


def _unwritable(value: Any) -> Any:
    raise Unwritable(type(value).__name__)


def _quantity(q: Any) -> dict[str, Any]:
    """A Quantity of mlsysim's registry as magnitude and unit text, when that text reads back to the same Quantity."""
    magnitude = q.magnitude
    if not isinstance(magnitude, (int, float)) or isinstance(magnitude, bool):
        raise Unwritable(f"Quantity[{type(magnitude).__name__}]")
    unit = format(q.units, "D")
    back = type(q)(magnitude, unit)
    if back.units != q.units:
        raise Unwritable(f"Quantity[{unit}]")
    return {"magnitude": encode(magnitude), "unit": unit}


class Recorder:
    """The calls of every wrapped function: per function the distinct argument sets in the order first seen."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.seen: dict[str, dict[str, dict[str, Any]]] = {}
        self.skipped: dict[str, Counter[str]] = {}
        self.where = ""   # the named scenario and member being read (each argument set names the first)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` recording each call's arguments (bound to its signature: a dict by parameter name) before it runs."""
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            self.record(name, signature, args, kwargs)
            return fn(*args, **kwargs)

        return recorded

    def record(self, name: str, signature: inspect.Signature, args: tuple, kwargs: dict[str, Any]) -> None:
        self.calls[name] += 1
        try:
            bound = signature.bind(*args, **kwargs).arguments
        except TypeError:   # mlsysim's own call does not fit the signature: it will raise; nothing to compare
            self.skipped.setdefault(name, Counter())["<unbound call>"] += 1
            return
        encoded = {}
        for arg, value in bound.items():
            try:
                encoded[arg] = encode(value)
            except Unwritable as exc:
                self.skipped.setdefault(name, Counter())[f"{arg}: {exc.cls_name}"] += 1
                return
        key = json.dumps(encoded, sort_keys=True)
        self.seen.setdefault(name, {}).setdefault(key, {"arguments": encoded, "first_seen": self.where})

    def kept(self, cap: int) -> dict[str, list[dict[str, Any]]]:
        """Per function at most ``cap`` argument sets: the first ``cap // 2`` seen, then an even spread of the rest."""
        out = {}
        for name, by_key in self.seen.items():
            sets = list(by_key.values())
            if len(sets) > cap:
                head, rest = sets[: cap // 2], sets[cap // 2:]
                room = cap - len(head)
                sets = head + [rest[(i * len(rest)) // room] for i in range(room)]
            out[name] = sets
        return out


def calc_functions(mlsysim: Any) -> dict[int, tuple[str, Callable[..., Any]]]:
    """mlsysim's ``calc_*`` function objects by id: (name, function)."""
    return {id(f): (n, f) for n in dir(mlsysim) if n.startswith("calc_") and callable(f := getattr(mlsysim, n))}


def patch_all(mlsysim: Any, recorder: Recorder) -> int:
    """Replace every loaded ``mlsysim.*`` module's attribute that is one of the ``calc_*`` objects; the count replaced."""
    functions = calc_functions(mlsysim)
    wrapped = {key: recorder.wrap(name, fn) for key, (name, fn) in functions.items()}
    replaced = 0
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not (module_name == "mlsysim" or module_name.startswith("mlsysim.")):
            continue
        for attr, value in list(vars(module).items()):
            if id(value) in wrapped and value is functions[id(value)][1]:
                setattr(module, attr, wrapped[id(value)])
                replaced += 1
    return replaced


def unpatched(mlsysim: Any, originals: dict[int, tuple[str, Callable[..., Any]]]) -> list[str]:
    """Module attributes still holding an unwrapped ``calc_*`` (a module loaded after the patch that copied one)."""
    return [f"{m}.{a}" for m, module in sorted(sys.modules.items())
            if module is not None and (m == "mlsysim" or m.startswith("mlsysim."))
            for a, v in vars(module).items() if id(v) in originals and v is originals[id(v)][1]]


def wave_method_calls() -> dict[str, list[tuple[str, tuple[Any, ...]]]]:
    """class -> [(method, mlsysim's positional arguments)], every call the reference harness's waves declare
    (``Wave.method_args``; their modules imported from ``tests/reference``, which imports nothing of mlsysim)."""
    import importlib

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.reference.members import Wave, to_reference

    calls: dict[str, list[tuple[str, tuple[Any, ...]]]] = {}
    for path in sorted((ROOT / "tests" / "reference").glob("test_ref_*.py")):
        wave = getattr(importlib.import_module(f"tests.reference.{path.stem}"), "WAVE", None)
        if not isinstance(wave, Wave):
            continue
        for (cls_name, method), declared in sorted(wave.method_args.items()):
            for kwargs in declared:
                args = tuple(v[1] if isinstance(v, tuple) and v[:1] == ("option",) else to_reference(v)
                             for v in kwargs.values())
                calls.setdefault(cls_name, []).append((method, args))
    return calls


def members(scenario: Any, declared: dict[str, list[tuple[str, tuple[Any, ...]]]]) -> Iterator[
        tuple[str, tuple[Any, ...] | None]]:
    """(member, None) for a property, (member, arguments) for a method call, of one named scenario: ``result``, then
    what its class declares beyond BaseScenario (the methods that need no argument, called without), then the calls
    ``declared`` for its class (:func:`wave_method_calls`); an application scenario's ``is_distributed``,
    ``validate()`` and ``evaluate`` at the reference harness's configurations."""
    from mlsysim.engine.scenario_types import BaseScenario

    if not isinstance(scenario, BaseScenario):
        yield "is_distributed", None
        yield "validate", ()
        for config in FLEET_CONFIGS if scenario.is_distributed else DEVICE_CONFIGS:
            yield "evaluate", config
        return
    if isinstance(inspect.getattr_static(type(scenario), "result", None), property):
        yield "result", None
    seen: set[str] = set()
    for klass in type(scenario).__mro__:
        if klass is BaseScenario or not issubclass(klass, BaseScenario):
            break
        for name, value in vars(klass).items():
            if name.startswith("_") or name in COMMON or name in seen:
                continue
            seen.add(name)
            if isinstance(value, property):
                yield name, None
            elif inspect.isfunction(value) and _no_required_arguments(value):
                yield name, ()
    yield from declared.get(type(scenario).__name__, ())


def _no_required_arguments(fn: Callable[..., Any]) -> bool:
    params = list(inspect.signature(fn).parameters.values())[1:]   # past self
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`MemberTimeout` in the block after ``seconds`` (the main thread's interval timer)."""
    def expire(signum: int, frame: Any) -> None:
        raise MemberTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def evaluate_all(mlsysim: Any, limit: float, recorder: Recorder | None = None) -> dict[str, Any]:
    """Read every member of every named scenario; counts of what was read, raised and timed out."""
    from mlsysim.engine.scenario_types import BaseScenario
    from mlsysim.engine.scenarios import Scenario

    declared = wave_method_calls()
    counts: Counter[str] = Counter()
    raised: Counter[str] = Counter()
    slow: list[str] = []
    names = sorted(n for n in dir(mlsysim.Scenarios) if not n.startswith("_"))
    for key in names:
        scenario = getattr(mlsysim.Scenarios, key)
        if not isinstance(scenario, (BaseScenario, Scenario)):   # Scenarios.list, a method
            continue
        counts["named scenarios"] += 1
        for member, call in members(scenario, declared):
            if recorder is not None:
                recorder.where = f"{key}.{member}" + ("" if call is None else f"{call}")
            try:
                with time_limit(limit), warnings.catch_warnings():
                    warnings.simplefilter("ignore")   # mlsysim's notes on its own inputs (idle ranks, a default peak)
                    value = getattr(scenario, member)
                    if call is not None:
                        value(*call)
                counts["members read"] += 1
            except MemberTimeout:
                slow.append(f"{key}.{member}")
            except Exception as exc:   # mlsysim's own refusal (an optional input unset, a check): its calls so far are kept
                counts["members that raise"] += 1
                raised[type(exc).__name__] += 1
    counts_out: dict[str, Any] = dict(counts)
    counts_out["raised, by exception"] = dict(sorted(raised.items()))
    return {"counts": counts_out, "timed out": slow}


def run(cap: int, limit: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """Import and patch mlsysim, evaluate every named scenario, and return (the file's data, the run's counts)."""
    import mlsysim

    originals = calc_functions(mlsysim)
    recorder = Recorder()
    replaced = patch_all(mlsysim, recorder)
    evaluated = evaluate_all(mlsysim, limit, recorder)
    missed = unpatched(mlsysim, originals)
    kept = recorder.kept(cap)
    all_names = sorted(name for name, _ in originals.values())
    data, counts = recording(recorder, kept, evaluated, cap=cap, names=all_names, version=mlsysim.__version__,
                             about="Arguments mlsysim 0.3.0's named scenarios pass to its calc_* functions "
                                   "(tools/record_mlsysim_calls.py; tests/reference/test_ref_function_calls.py compares them)",
                             what="functions")
    stats = {"attributes patched": replaced, "left unpatched": missed, **counts}
    return data, stats


def recording(recorder: Recorder, kept: dict[str, Any], evaluated: dict[str, Any], *, cap: int, names: list[str],
              version: str, about: str, what: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The file's data (the kept argument sets, the counts per name, what was skipped, never called or timed out)
    and the run's counts, ``what`` naming the things recorded ("functions", "Models")."""
    data = {
        "about": about,
        "mlsysim": version,
        "cap": cap,
        "calls": kept,
        "distinct": {n: len(v) for n, v in sorted(recorder.seen.items())},
        "recorded": dict(sorted(recorder.calls.items())),
        "skipped": {n: dict(sorted(c.items())) for n, c in sorted(recorder.skipped.items())},
        "never_called": [n for n in names if n not in recorder.calls],
        "timed_out": evaluated["timed out"],
    }
    counts = {**evaluated["counts"], f"{what} called": len(recorder.calls), "calls recorded": sum(recorder.calls.values()),
              "distinct argument sets": sum(len(v) for v in recorder.seen.values()),
              "argument sets kept": sum(len(v) for v in kept.values()),
              f"{what} with a skipped (object) call": len(recorder.skipped),
              f"{what} never called": len(data["never_called"]), "members timed out": len(evaluated["timed out"])}
    return data, counts


def parse_arguments(argv: list[str] | None, doc: str, out: Path, cap: int, what: str) -> argparse.Namespace:
    """The recorders' command line: ``--out``, ``--cap`` (argument sets kept per ``what``), ``--limit``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=out, help="the JSON file written (default: %(default)s)")
    parser.add_argument("--cap", type=int, default=cap, help=f"argument sets kept per {what} (default: %(default)s)")
    parser.add_argument("--limit", type=float, default=20.0,
                        help="seconds one member may take before it is left (default: %(default)s)")
    return parser.parse_args(argv)


def write_recording(out: Path, data: dict[str, Any], stats: dict[str, Any], started: float) -> None:
    """Write ``data`` (deterministic JSON) to ``out`` and print the counts, the members left and the time taken."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    for label, value in stats.items():
        print(f"{label}: {value}")
    for member in data["timed_out"]:
        print(f"timed out: {member}")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} in {time.perf_counter() - started:.1f} s")


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv, __doc__, OUT, 40, "function")
    started = time.perf_counter()
    data, stats = run(args.cap, args.limit)
    write_recording(args.out, data, stats, started)
    return 1 if stats["left unpatched"] else 0


if __name__ == "__main__":
    sys.exit(main())
