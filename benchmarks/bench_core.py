"""Engine-core benchmark: one per_batch("GPT-2") call, against mlsysim 0.3.0, and cold import time.

Everything is measured in this one process (or in child processes started from it),
and reported as ratios, because these machines are noisy.

    python benchmarks/bench_core.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import timeit


def per_call(fn, number: int = 20000, repeat: int = 7) -> float:
    """Best-of-``repeat`` seconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def child_seconds(code: str, runs: int = 5) -> float:
    """Median wall time of a fresh interpreter running ``code``."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", f"import time; t=time.perf_counter(); {code}; print(time.perf_counter()-t)"],
            capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def main() -> list[tuple[str, float, str]]:
    from mlsysim_symbolic import Scenarios

    s = Scenarios.DpSgdPerExampleGradients
    s.per_batch("GPT-2")
    ours = per_call(lambda: s.per_batch("GPT-2"))
    rows = [("per_batch('GPT-2') call", ours * 1e6, "us")]
    try:
        import mlsysim

        ref = mlsysim.Scenarios.DpSgdPerExampleGradients
        ref.per_batch("GPT-2")
        theirs = per_call(lambda: ref.per_batch("GPT-2"), number=2000)
        rows.append(("mlsysim 0.3.0 per_batch('GPT-2') call", theirs * 1e6, "us"))
        rows.append(("speed-up vs mlsysim (target >= 10x)", theirs / ours, "x"))
    except ImportError:
        rows.append(("mlsysim 0.3.0 not installed: no reference ratio", float("nan"), ""))
    imp = child_seconds("import mlsysim_symbolic")
    rows.append(("cold import mlsysim_symbolic (target < 1 s)", imp, "s"))
    first = child_seconds("import mlsysim_symbolic; mlsysim_symbolic.Scenarios.DpSgdPerExampleGradients.per_batch('GPT-2')")
    rows.append(("cold import + catalog + first value", first, "s"))
    try:
        ref_imp = child_seconds("import mlsysim", runs=3)
        rows.append(("cold import mlsysim 0.3.0", ref_imp, "s"))
        rows.append(("import-time ratio mlsysim / ours", ref_imp / imp, "x"))
    except subprocess.CalledProcessError:
        pass
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:48s} {value:12.3f} {unit}")
