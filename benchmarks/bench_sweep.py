"""Sweep benchmark: one output over 10^6 points, as ratios against baselines run in this process.

- ours (compiled once, numpy) vs hand-written numpy for the same formula (target: at most 1.5x);
- a per-point ``subs``/``evalf`` loop (timed on a sample, scaled to 10^6 points);
- a per-point call of the reference package mlsysim 0.3.0 (timed on a sample, scaled).

    python benchmarks/bench_sweep.py
"""

from __future__ import annotations

import time

import numpy as np

N = 1_000_000


def best(fn, repeat: int = 30, warmup: int = 5) -> float:
    """Best of ``repeat`` runs after ``warmup`` runs (the allocator settles on reusing the 8 MB arrays)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> list[tuple[str, float, str]]:
    from mlsysim_symbolic import Scenarios

    s = Scenarios.DpSgdPerExampleGradients
    s.sweep("per_batch", "GPT-2", batch_size=range(1, 11))

    # both build the 1e6 batch sizes and evaluate P*b*B on them
    P, b = 1.5e9, 4.0
    ours = hand = float("inf")
    for _ in range(3):   # interleaved, so both see the same machine state
        ours = min(ours, best(lambda: s.sweep("per_batch", "GPT-2", batch_size=range(1, N + 1))))
        hand = min(hand, best(lambda: P * b * np.arange(1, N + 1, dtype=np.float64)))
    rows = [("ours: sweep of per_batch over 1e6 batch sizes", ours * 1e3, "ms"),
            ("hand-written numpy P*b*B", hand * 1e3, "ms"),
            ("ratio ours / numpy (target <= 1.5)", ours / hand, "x")]

    expr = s.expression("per_batch", expand=True)
    syms = {str(x): x for x in expr.free_symbols}
    sample = 2000
    t = time.perf_counter()
    for B in range(1, sample + 1):
        expr.subs({syms["B"]: B, syms["P"]: P, syms["b"]: b}).evalf()
    subs_total = (time.perf_counter() - t) / sample * N
    rows.append(("per-point subs/evalf loop (scaled to 1e6)", subs_total, "s"))
    rows.append(("speed-up vs subs/evalf", subs_total / ours, "x"))
    try:
        import mlsysim

        ref = mlsysim.Scenarios.DpSgdPerExampleGradients
        t = time.perf_counter()
        for B in range(1, 501):
            ref.model_copy(update={"batch_size": B}).per_batch("GPT-2")
        ref_total = (time.perf_counter() - t) / 500 * N
        rows.append(("per-point mlsysim 0.3.0 call (scaled to 1e6)", ref_total, "s"))
        rows.append(("speed-up vs mlsysim per-point", ref_total / ours, "x"))
    except ImportError:
        rows.append(("mlsysim 0.3.0 not installed: no reference ratio", float("nan"), ""))
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:50s} {value:14.4f} {unit}")
