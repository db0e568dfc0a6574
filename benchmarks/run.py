"""Run every benchmark of the project and print one table of ratios against their baselines.

    python benchmarks/run.py              # every benchmark (a few minutes)
    python benchmarks/run.py solvers      # only some of them: core, solvers, sweep, catalog, chain

Each benchmark runs in its own fresh interpreter.  Each row compares a measured value with its baseline (mlsysim 0.3.0, hand-written numpy, a
per-point SymPy loop, or a time budget), both measured in this run on this machine, as
``ratio = value / baseline`` (lower is better), and checks the ratio against its target.
Rows without a target are for information.  The exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

Row = tuple[str, float, str]


@dataclass
class Comparison:
    name: str
    value: float
    baseline: float
    unit: str
    baseline_name: str
    target: float | None      # the ratio must be at most this (None: information only)

    @property
    def ratio(self) -> float:
        return self.value / self.baseline if self.baseline else math.nan

    @property
    def verdict(self) -> str:
        if self.target is None:
            return "info"
        if math.isnan(self.ratio):
            return "n/a"
        return "pass" if self.ratio <= self.target else "FAIL"


def measure(module: str, call: str = "main()") -> list[Row]:
    """Run ``module.call`` in a fresh interpreter (so no benchmark disturbs another's memory) and return its rows."""
    code = f"import json, sys; sys.path[:0] = [{str(HERE)!r}, {str(HERE.parent)!r}]; import {module}; print(json.dumps({module}.{call}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [tuple(row) for row in json.loads(out.stdout.strip().splitlines()[-1])]


def find(rows: list[Row], start: str) -> float:
    """The value of the row whose name starts with ``start`` (NaN when the benchmark could not measure it)."""
    for name, value, _ in rows:
        if name.startswith(start):
            return value
    return math.nan


def core() -> tuple[list[Comparison], float]:
    rows = measure("bench_core")
    ours, theirs = find(rows, "per_batch('GPT-2') call"), find(rows, "mlsysim 0.3.0 per_batch")
    imp, ref_imp = find(rows, "cold import mlsysim_symbolic"), find(rows, "cold import mlsysim 0.3.0")
    base = find(rows, "cold import numpy, pint, sympy")
    warm, cold = find(rows, "cold first value, warm cache"), find(rows, "cold first value, cold cache")
    return [
        Comparison("per_batch('GPT-2') call", ours, theirs, "us", "mlsysim 0.3.0 call", 0.1),
        Comparison("cold import mlsysim_symbolic", imp, 1.0, "s", "1 s budget", 1.0),
        Comparison("cold import mlsysim_symbolic", imp, ref_imp, "s", "mlsysim 0.3.0 import", 1.0),
        Comparison("cold first value (warm cache)", warm, base, "s", "import numpy, pint, sympy", 1.3),
        Comparison("cold first value (cold cache)", cold, base, "s", "import numpy, pint, sympy", None),
        Comparison("cold first value (warm cache)", warm, ref_imp, "s", "mlsysim 0.3.0 import", 1.0),
        *function_face(),
    ], ref_imp


def function_face() -> list[Comparison]:
    """One ``calc_*`` call of the function face (issue 36) against mlsysim's own: it must be faster (ratio < 1)."""
    rows = measure("bench_core", "function_face()")
    ours, theirs = find(rows, "calc_ring_allreduce_time call"), find(rows, "mlsysim 0.3.0 calc_ring_allreduce_time")
    return [Comparison("calc_ring_allreduce_time call", ours, theirs, "us", "mlsysim 0.3.0 call", 1.0)]


def sweep() -> list[Comparison]:
    rows = measure("bench_sweep")
    ours_ms = find(rows, "ours: sweep")
    return [
        Comparison("sweep of per_batch over 1e6 points", ours_ms, find(rows, "hand-written numpy"), "ms", "hand-written numpy", 1.5),
        Comparison("sweep of per_batch over 1e6 points", ours_ms / 1e3, find(rows, "per-point subs/evalf"), "s",
                   "per-point subs/evalf loop", None),
        Comparison("sweep of per_batch over 1e6 points", ours_ms / 1e3, find(rows, "per-point mlsysim"), "s",
                   "per-point mlsysim 0.3.0 calls", None),
    ]


SOLVER_CALLS = ("SingleNodeModel().solve", "Engine.solve(..., is_training=True)", "ServingModel().solve",
                "TrainingMemoryModel().solve", "DistributedModel().solve", "ReliabilityModel().solve",
                "Scenarios.KeywordSpotting.evaluate()")
#: Models declared as data (issue 35, open): shown, not yet held to the 10x target (mlsysim's thin Models are a few
#: Quantity operations; ours bind mlsysim's Quantities into a scenario on each call)
DECLARED_CALLS = ("AcceptedTaskCostModel().solve (declared)", "AmdahlModel().solve (declared, a dict of stages)")


def solvers() -> list[Comparison]:
    rows = measure("bench_solvers")
    out = [Comparison(name, find(rows, f"ours: {name}"), find(rows, f"mlsysim 0.3.0: {name}"), "us", "mlsysim 0.3.0 call", 0.1)
           for name in SOLVER_CALLS]
    out += [Comparison(name, find(rows, f"ours: {name}"), find(rows, f"mlsysim 0.3.0: {name}"), "us", "mlsysim 0.3.0 call", None)
            for name in DECLARED_CALLS]
    warm, cold = find(rows, "first SensitivitySolver().solve, fresh interpreter, warm"), find(rows, "first SensitivitySolver().solve, fresh interpreter, cold")
    out.append(Comparison("first SensitivitySolver().solve (warm)", warm, 1.0, "s", "1 s budget (fresh interpreter)", 1.0))
    out.append(Comparison("first SensitivitySolver().solve (cold)", cold, 3.0, "s", "3 s budget (fresh interpreter)", 1.0))
    return out


def chain() -> list[Comparison]:
    rows = measure("bench_chain")
    small, large = find(rows, "chain of 10 outputs"), find(rows, "chain of 40 outputs")
    triple24, triple48 = find(rows, "triple chain of 24 outputs"), find(rows, "triple chain of 48 outputs")
    return [Comparison("load + first value + LaTeX of 40 chained outputs", large, small, "s", "the same with 10", 6.0),
            Comparison("triple chain: value+LaTeX, 24 outputs", triple24, 1.0, "s", "1 s budget", 1.0),
            Comparison("triple chain: value+LaTeX, 48 outputs", triple48, triple24, "s", "the same with 24", 3.0)]


def catalog_benchmark(reference_import: float | None) -> list[Comparison]:
    rows = measure("bench_catalog")
    read = find(rows, "cold import + read of the catalog")
    check = find(rows, "cold import + check of the whole catalog")
    one_warm = find(rows, "load_derivations + one value, 1 copy (")
    one_cold = find(rows, "load_derivations + one value, 1 copy, cold")
    ref = math.nan if reference_import is None else reference_import
    return [
        Comparison("cold import + read of the catalog", read, 1.0, "s", "1 s budget", 1.0),
        Comparison("cold import + check of whole catalog", check, ref, "s", "mlsysim 0.3.0 import", None),
        Comparison("10 copies: load_derivations + value, CPU", find(rows, "CPU time: load_derivations + one value, 10 copies"),
                   find(rows, "CPU time: load_derivations + one value, 1 copy"), "s", "the same with 1 copy (warm cache)", 1.5),
        Comparison("10 copies: load_derivations + value, wall", find(rows, "load_derivations + one value, 10 copies (") , one_warm, "s",
                   "the same with 1 copy (warm cache)", None),
        Comparison("10 copies: load_derivations + value", find(rows, "load_derivations + one value, 10 copies, cold"), one_cold, "s",
                   "the same with 1 copy (cold cache)", None),
        Comparison("10 copies: check (every type built)", find(rows, "check of the 10 copies"), check, "s",
                   "import + check of the shipped types", None),
    ]


def fmt(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return f"{x:.4g}"


def table(comparisons: list[Comparison]) -> str:
    head = ("benchmark", "value", "baseline", "ratio", "target", "result")
    lines = [f"{head[0]:38s} {head[1]:>12s}   {head[2]:42s} {head[3]:>8s} {head[4]:>8s}  {head[5]}"]
    lines.append("-" * len(lines[0]))
    for c in comparisons:
        value = f"{fmt(c.value)} {c.unit}"
        baseline = f"{c.baseline_name} ({fmt(c.baseline)} {c.unit})"
        target = "-" if c.target is None else f"<= {c.target:g}"
        lines.append(f"{c.name:38s} {value:>12s}   {baseline:42s} {fmt(c.ratio):>8s} {target:>8s}  {c.verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the benchmarks and print one table of ratios against baselines.")
    parser.add_argument("only", nargs="*", choices=["core", "solvers", "sweep", "catalog", "chain", []],
                        help="benchmarks to run (default: all)")
    args = parser.parse_args(argv)
    chosen = set(args.only) or {"core", "solvers", "sweep", "catalog", "chain"}
    comparisons: list[Comparison] = []
    reference_import = None
    if "core" in chosen:
        rows, reference_import = core()
        comparisons += rows
    if "solvers" in chosen:
        comparisons += solvers()
    if "sweep" in chosen:
        comparisons += sweep()
    if "catalog" in chosen:
        comparisons += catalog_benchmark(reference_import)
    if "chain" in chosen:
        comparisons += chain()
    print(table(comparisons))
    return 1 if any(c.verdict == "FAIL" for c in comparisons) else 0


if __name__ == "__main__":
    sys.exit(main())
