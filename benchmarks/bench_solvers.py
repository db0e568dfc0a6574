"""Solver benchmark: the calls mlsysim's users make most, ours against mlsysim 0.3.0's same call, in one process.

Each row times one warm call (best of several repeats, after warm-up calls), both sides given their own registry
objects (ours: entries of :data:`Models`, :data:`Hardware`, :data:`Systems`; mlsysim: its own), and reads one field
of the result on both sides so that a lazily computed view is not flattered.  Reported as the ratio ours / mlsysim;
the target is at most 0.1 (ten times faster).

Also: the first composed solve (``SensitivitySolver().solve``: four rooflines composed) in a fresh interpreter,
with a warm on-disk cache (its steady state) and with a cold one (an empty cache folder).

    python benchmarks/bench_solvers.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import timeit
import warnings
from collections.abc import Callable
from typing import Any

TARGET = 0.1


def per_call(fn: Callable[[], Any], budget: float = 0.05, repeat: int = 5) -> float:
    """Best-of-``repeat`` seconds per call, each repeat about ``budget`` seconds long (after warm-up calls)."""
    start = timeit.default_timer()
    calls = 0
    while calls < 3 or timeit.default_timer() - start < budget:   # warm-up, and how many calls fill the budget
        fn()
        calls += 1
    number = max(1, int(calls * budget / (timeit.default_timer() - start)))
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def cases() -> list[tuple[str, Callable[[], Any], Callable[[], Any]]]:
    """(name, ours, mlsysim's): each call builds the result and reads one field."""
    import mlsysim
    from mlsysim.engine import solvers as ref

    import mlsysim_symbolic
    from mlsysim_symbolic import solvers as ours

    M, H, S = ours.Models, ours.Hardware, ours.Systems
    RM, RH, RS = mlsysim.Models, mlsysim.Hardware, mlsysim.Systems
    return [
        ("SingleNodeModel().solve",
         lambda: ours.SingleNodeModel().solve(M.Vision.ResNet50, H.Cloud.A100, batch_size=8).latency,
         lambda: ref.SingleNodeModel().solve(RM.Vision.ResNet50, RH.Cloud.A100, batch_size=8).latency),
        ("Engine.solve(..., is_training=True)",
         lambda: ours.Engine.solve(M.Language.Llama3_8B, H.Cloud.H100, 8, "bf16", is_training=True).latency,
         lambda: mlsysim.Engine.solve(RM.Language.Llama3_8B, RH.Cloud.H100, 8, "bf16", is_training=True).latency),
        ("ServingModel().solve",
         lambda: ours.ServingModel().solve(M.Language.Llama3_8B, H.Cloud.H100, seq_len=4096, batch_size=4).ttft,
         lambda: ref.ServingModel().solve(RM.Language.Llama3_8B, RH.Cloud.H100, seq_len=4096, batch_size=4).ttft),
        ("TrainingMemoryModel().solve",
         lambda: ours.TrainingMemoryModel().solve(M.Language.Llama3_8B, H.Cloud.H100, batch_size=8).total_memory,
         lambda: ref.TrainingMemoryModel().solve(RM.Language.Llama3_8B, RH.Cloud.H100, batch_size=8).total_memory),
        ("DistributedModel().solve",
         lambda: ours.DistributedModel().solve(M.Language.Llama3_70B, S.Clusters.Research_256, batch_size=256,
                                               tp_size=8).step_latency_total,
         lambda: ref.DistributedModel().solve(RM.Language.Llama3_70B, RS.Clusters.Research_256, batch_size=256,
                                              tp_size=8).step_latency_total),
        ("ReliabilityModel().solve",
         lambda: ours.ReliabilityModel().solve(S.Clusters.Research_256, 720.0).goodput_ratio,
         lambda: ref.ReliabilityModel().solve(RS.Clusters.Research_256, 720.0).goodput_ratio),
        ("Scenarios.KeywordSpotting.evaluate()",
         lambda: mlsysim_symbolic.Scenarios.KeywordSpotting.evaluate().performance,
         lambda: mlsysim.Scenarios.KeywordSpotting.evaluate().performance),
    ]


def warm_rows(rounds: int = 3) -> list[tuple[str, float, str]]:
    """Per solver: our call, mlsysim's call (microseconds, best over ``rounds`` interleaved rounds) and the ratio."""
    warnings.simplefilter("ignore")
    rows: list[tuple[str, float, str]] = []
    for name, mine, theirs in cases():
        a, b = [], []
        for _ in range(rounds):   # interleaved, so a noisy moment hits both sides
            a.append(per_call(mine))
            b.append(per_call(theirs))
        rows.append((f"ours: {name}", min(a) * 1e6, "us"))
        rows.append((f"mlsysim 0.3.0: {name}", min(b) * 1e6, "us"))
        rows.append((f"ratio: {name} (target <= {TARGET:g})", min(a) / min(b), "x"))
    return rows


FIRST_SOLVE = ("import warnings; warnings.simplefilter('ignore'); from mlsysim_symbolic.solvers import SensitivitySolver; "
               "r = SensitivitySolver().solve('Llama3_8B', 'H100'); r.binding_constraint")


def child_once(code: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, "-c", f"import time; t=time.perf_counter(); {code}; print(time.perf_counter()-t)"],
                         capture_output=True, text=True, check=True, env={**os.environ, **env}, timeout=600)
    return float(out.stdout.strip().splitlines()[-1])


def first_solve_rows(runs: int = 3) -> list[tuple[str, float, str]]:
    """The first SensitivitySolver().solve in a fresh interpreter (import included): warm and cold on-disk cache."""
    warm, cold = [], []
    with tempfile.TemporaryDirectory(prefix="mlsysim-symbolic-cache-") as tmp:
        primed = {"MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, "warm")}
        child_once(FIRST_SOLVE, primed)
        for i in range(runs):
            warm.append(child_once(FIRST_SOLVE, primed))
            cold.append(child_once(FIRST_SOLVE, {"MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, f"cold{i}")}))
    return [("first SensitivitySolver().solve, fresh interpreter, warm cache", statistics.median(warm), "s"),
            ("first SensitivitySolver().solve, fresh interpreter, cold cache", statistics.median(cold), "s")]


def main(first: bool = True) -> list[tuple[str, float, str]]:
    rows = warm_rows()
    if first:
        rows += first_solve_rows()
    return rows


if __name__ == "__main__":
    result = main(first="--warm-only" not in sys.argv)
    for name, value, unit in result:
        print(f"{name:72s} {value:12.4g} {unit}")
