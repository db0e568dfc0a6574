"""Solver benchmark: the calls mlsysim's users make most, ours against mlsysim 0.3.0's same call, in one process.

Each row times one warm call (best of several repeats, after warm-up calls), both sides given their own registry
objects (ours: entries of :data:`Models`, :data:`Hardware`, :data:`Systems`; mlsysim: its own), and reads one field
of the result on both sides so that a lazily computed view is not flattered.  Reported as the ratio ours / mlsysim;
the target is at most 0.1 (ten times faster).

Also: the first composed solve (``SensitivitySolver().solve``: four rooflines composed) in a fresh interpreter,
import included, with a warm on-disk cache (its steady state) and with a cold one: ``MLSYSIM_SYMBOLIC_CACHE``
pointed at an empty folder, which holds both the structure cache and the plan cache (planned definitions and
compiled functions, :mod:`mlsysim_symbolic.plan_cache`).  Targets: under 1 s warm, under 3 s cold.
``--baseline DIR`` also times the same rows, interleaved, for another checkout of the package (``git archive``
of another commit unpacked in DIR, imported through ``PYTHONPATH``), so that before and after share one run.

    python benchmarks/bench_solvers.py
    python benchmarks/bench_solvers.py --first-only --baseline /tmp/main-checkout
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
    RQ = mlsysim.core.units.Q_
    stages = {"prefill": RQ(120.0, "ms"), "decode": RQ(300.0, "ms"), "network": RQ(40.0, "ms")}
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
        # Models declared as data (derivations/models/models.toml), given mlsysim's own Quantities
        ("AcceptedTaskCostModel().solve (declared)",
         lambda: ours.AcceptedTaskCostModel().solve(RQ(2.0, "USD"), RQ(3.0, "USD"), 0.5, token_price_cut=0.2).cost_per_accepted,
         lambda: ref.AcceptedTaskCostModel().solve(RQ(2.0, "USD"), RQ(3.0, "USD"), 0.5, token_price_cut=0.2).cost_per_accepted),
        ("AmdahlModel().solve (declared, a dict of stages)",
         lambda: ours.AmdahlModel().solve(stages, "decode", 2.0).overall_speedup,
         lambda: ref.AmdahlModel().solve(stages, "decode", 2.0).overall_speedup),
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


WARM_TARGET, COLD_TARGET = 1.0, 3.0


def child_once(code: str, env: dict[str, str]) -> float:
    """Seconds ``code`` takes in a fresh interpreter, started outside any checkout (the current folder comes first on
    ``sys.path`` for ``-c``, and would shadow a ``PYTHONPATH`` baseline)."""
    out = subprocess.run([sys.executable, "-c", f"import time; t=time.perf_counter(); {code}; print(time.perf_counter()-t)"],
                         capture_output=True, text=True, check=True, env={**os.environ, **env}, timeout=600,
                         cwd=tempfile.gettempdir())
    return float(out.stdout.strip().splitlines()[-1])


def first_solve_rows(runs: int = 3, baseline: str | None = None) -> list[tuple[str, float, str]]:
    """The first SensitivitySolver().solve in a fresh interpreter (import included): warm and cold on-disk cache
    (structure and plan caches both in the folder ``MLSYSIM_SYMBOLIC_CACHE`` names); with ``baseline``, the same
    for the package checked out in that folder, interleaved run by run."""
    sides = {"": {}} if baseline is None else {"": {}, f"baseline ({baseline}): ": {"PYTHONPATH": baseline}}
    warm: dict[str, list[float]] = {side: [] for side in sides}
    cold: dict[str, list[float]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory(prefix="mlsysim-symbolic-cache-") as tmp:
        for n, extra in enumerate(sides.values()):
            child_once(FIRST_SOLVE, {**extra, "MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, f"warm{n}")})   # primes it
        for i in range(runs):
            for n, (side, extra) in enumerate(sides.items()):
                warm[side].append(child_once(FIRST_SOLVE, {**extra, "MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, f"warm{n}")}))
                cold[side].append(child_once(FIRST_SOLVE, {**extra, "MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, f"cold{n}-{i}")}))
    rows = []
    for side in sides:
        rows += [(f"{side}first SensitivitySolver().solve, fresh interpreter, warm cache (target < {WARM_TARGET:g} s)",
                  statistics.median(warm[side]), "s"),
                 (f"{side}first SensitivitySolver().solve, fresh interpreter, cold cache (target < {COLD_TARGET:g} s)",
                  statistics.median(cold[side]), "s")]
    return rows


def main(first: bool = True, warm: bool = True, baseline: str | None = None) -> list[tuple[str, float, str]]:
    rows = warm_rows() if warm else []
    if first:
        rows += first_solve_rows(baseline=baseline)
    return rows


if __name__ == "__main__":
    base = sys.argv[sys.argv.index("--baseline") + 1] if "--baseline" in sys.argv else None
    result = main(first="--warm-only" not in sys.argv, warm="--first-only" not in sys.argv, baseline=base)
    for name, value, unit in result:
        print(f"{name:100s} {value:12.4g} {unit}")
