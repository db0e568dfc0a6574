"""Catalog benchmark: a cold load of the whole catalog in a fresh interpreter, against a 1 s budget
and against the import time of the reference package mlsysim 0.3.0.

A cold load is everything a first ``Scenarios.X`` costs: importing the package, reading every
derivation file, parsing and dimension-checking every equation, building the classes and
binding every named scenario.  Each figure is the median of several child processes, each
timing itself from before its first import.

    python benchmarks/bench_catalog.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys

RUNS = 5
COLD_LOAD = (
    "import time; t = time.perf_counter(); "
    "import mlsysim_symbolic; t1 = time.perf_counter(); "
    "from mlsysim_symbolic.catalog import catalog; cat = catalog(); t2 = time.perf_counter(); "
    "print(t2 - t, t2 - t1, len(cat.types), len(cat.declared))"
)
REFERENCE_IMPORT = "import time; t = time.perf_counter(); import mlsysim; print(time.perf_counter() - t)"


def child(code: str) -> list[float]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [float(x) for x in out.stdout.split()]


def reference_import_seconds(runs: int = 3) -> float | None:
    """Median cold import time of mlsysim 0.3.0, or None when it is not installed."""
    try:
        return statistics.median(child(REFERENCE_IMPORT)[0] for _ in range(runs))
    except subprocess.CalledProcessError:
        return None


def main(reference_import: float | None = None) -> list[tuple[str, float, str]]:
    """Rows (name, value, unit); ``reference_import`` reuses a measured mlsysim import time."""
    samples = [child(COLD_LOAD) for _ in range(RUNS)]
    total = statistics.median(s[0] for s in samples)
    load = statistics.median(s[1] for s in samples)
    types, scenarios = int(samples[0][2]), int(samples[0][3])
    rows = [
        (f"cold load of the whole catalog ({types} types, {scenarios} scenarios; target < 1 s)", total, "s"),
        ("  of which catalog() after the import", load, "s"),
    ]
    if reference_import is None:
        reference_import = reference_import_seconds()
    if reference_import is not None:
        rows.append(("cold import mlsysim 0.3.0", reference_import, "s"))
        rows.append(("cold catalog load / mlsysim 0.3.0 import", total / reference_import, "x"))
    else:
        rows.append(("mlsysim 0.3.0 not installed: no reference ratio", float("nan"), ""))
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:66s} {value:10.3f} {unit}")
