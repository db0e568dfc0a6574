"""Engine-core benchmark: one per_batch("GPT-2") call, against mlsysim 0.3.0; cold import; cold first value.

Everything is measured in this one process (or in child processes started from it),
and reported as ratios, because these machines are noisy.  The cold first value (a fresh
interpreter: import, read the catalog, build the one type it needs, bind the scenario, evaluate)
is compared with a cold ``import numpy, pint, sympy`` (what any such package must pay), the
two interleaved run by run; with the structure cache warm (its steady state, like Python's
bytecode cache) and cold (an empty cache folder per run).

Both sides run from bytecode: pip compiles an installed package's modules at install time, and
numpy, pint and sympy come with theirs; an editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` (as on
the CI machines) has none, and every fresh interpreter would then recompile this package's ~50
modules (about 0.15 s) — a cost no installed user pays.  :func:`compile_bytecode` writes it first.

    python benchmarks/bench_core.py
"""

from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import timeit

FIRST_VALUE = "import mlsysim_symbolic; mlsysim_symbolic.Scenarios.DpSgdPerExampleGradients.per_batch('GPT-2')"
BASELINE_IMPORT = "import numpy, pint, sympy"


def per_call(fn, number: int = 20000, repeat: int = 7) -> float:
    """Best-of-``repeat`` seconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def child_once(code: str, env: dict[str, str] | None = None) -> float:
    """Seconds a fresh interpreter takes to run ``code`` (timed inside it, from before its first import)."""
    out = subprocess.run(
        [sys.executable, "-c", f"import time; t=time.perf_counter(); {code}; print(time.perf_counter()-t)"],
        capture_output=True, text=True, check=True, env={**os.environ, **(env or {})})
    return float(out.stdout.strip().splitlines()[-1])


def child_seconds(code: str, runs: int = 5) -> float:
    """Median wall time of a fresh interpreter running ``code``."""
    return statistics.median(child_once(code) for _ in range(runs))


def compile_bytecode() -> bool:
    """Compile this package's modules to bytecode, as ``pip install`` does (``PYTHONDONTWRITEBYTECODE`` only stops
    the interpreter from writing it; it still reads it)."""
    import mlsysim_symbolic

    return compileall.compile_dir(os.path.dirname(mlsysim_symbolic.__file__), quiet=1)


def cold_first_value(runs: int = 9) -> list[tuple[str, float, str]]:
    """The cold first value against a cold ``import numpy, pint, sympy``, interleaved; warm and cold structure cache."""
    base, warm, cold = [], [], []
    with tempfile.TemporaryDirectory(prefix="mlsysim-symbolic-cache-") as tmp:
        primed = {"MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, "warm")}   # this run's own cache, warmed by one untimed run
        child_once(FIRST_VALUE, primed)
        for i in range(runs):
            base.append(child_once(BASELINE_IMPORT))
            warm.append(child_once(FIRST_VALUE, primed))
            cold.append(child_once(FIRST_VALUE, {"MLSYSIM_SYMBOLIC_CACHE": os.path.join(tmp, f"cold{i}")}))
    m = statistics.median
    return [("cold import numpy, pint, sympy", m(base), "s"),
            ("cold first value, warm cache", m(warm), "s"),
            ("cold first value / numpy+pint+sympy import, warm cache (target <= 1.3)", m(warm) / m(base), "x"),
            ("cold first value, cold cache", m(cold), "s"),
            ("cold first value / numpy+pint+sympy import, cold cache", m(cold) / m(base), "x")]


def function_face() -> list[tuple[str, float, str]]:
    """One call of mlsysim's function face (``calc_ring_allreduce_time`` with plain numbers), against mlsysim's own."""
    from mlsysim_symbolic import calc_ring_allreduce_time as ring

    args = (1e9, 8, 1e11, 5e-6)
    ring(*args)
    ours = per_call(lambda: ring(*args), number=2000)
    rows = [("calc_ring_allreduce_time call", ours * 1e6, "us")]
    try:
        import mlsysim

        theirs = per_call(lambda: mlsysim.calc_ring_allreduce_time(*args), number=2000)
        rows.append(("mlsysim 0.3.0 calc_ring_allreduce_time call", theirs * 1e6, "us"))
        rows.append(("calc_* speed-up vs mlsysim (target > 1x)", theirs / ours, "x"))
    except ImportError:
        pass
    return rows


def main() -> list[tuple[str, float, str]]:
    from mlsysim_symbolic import Scenarios

    compile_bytecode()

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
    rows += function_face()
    imp = child_seconds("import mlsysim_symbolic")
    rows.append(("cold import mlsysim_symbolic (target < 1 s)", imp, "s"))
    rows += cold_first_value()
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
