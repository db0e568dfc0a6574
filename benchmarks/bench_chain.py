"""Chain benchmark: a type whose outputs are built on each other, o_i = (o_{i-1} + x) * (o_{i-1} + 1),
with 10 and with 40 outputs.  Expanded, the last output has 2**n terms; planned as a chain of
definitions it should cost in proportion to the declarations.

A second shape uses the previous output three times, o_i = (o_{i-1} + x) * (o_{i-1} + 1) / (o_{i-1} + 2)
(3**n terms expanded), with 24 and 48 outputs: the value and the LaTeX line of the last output (after the
load) in under a second at 24, and at most three times that at 48.

Each figure is the median of several fresh interpreters, each timing, after the package import,
the load of the derivation file, the first evaluation of the last output and its LaTeX line.  Each
interpreter has the structure cache warm but the plan cache (:mod:`mlsysim_symbolic.plan_cache`) empty:
a copy of a primed cache folder without its plans, so that planning is measured, not read from disk.
The target: time(40) / time(10) at most 6 (linear growth would give 4, and part of the time
does not grow at all); the exponential tree gave minutes at 20 outputs.

    python benchmarks/bench_chain.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUNS = 3
SIZES = (10, 40)
TARGET_RATIO = 6.0
CHILD = (
    "import sys, time; import mlsysim_symbolic as m; "
    "t0 = time.perf_counter(); s = m.load_derivations(sys.argv[1]).scenario('C'); t1 = time.perf_counter(); "
    "v = getattr(s, 'o' + sys.argv[2]); t2 = time.perf_counter(); "
    "tex = s.latex('o' + sys.argv[2]); t3 = time.perf_counter(); "
    "assert tex and v.magnitude > 0; print(t3 - t0, t1 - t0, t2 - t1, t3 - t2)"
)


TRIPLE_SIZES = (24, 48)
TRIPLE_BUDGET = 1.0          # seconds for the value and LaTeX of the last of 24 outputs
TRIPLE_RATIO = 3.0           # 48 outputs against 24


def chain_file(n: int, folder: Path, triple: bool = False) -> Path:
    """A derivation file with one input x = 1e-3 and n outputs, each built on the one before (three times with
    ``triple``)."""
    lines = ['[types.Chain.inputs.x]\nunit = "1"\n']
    prev = "x"
    for i in range(1, n + 1):
        equation = f"({prev} + x) * ({prev} + 1) / ({prev} + 2)" if triple else f"({prev} + x) * ({prev} + 1)"
        lines.append(f'[types.Chain.outputs.o{i}]\nunit = "1"\nequation = "{equation}"\n')
        prev = f"o{i}"
    lines.append('[scenarios.C]\ntype = "Chain"\ninputs.x = 0.001\n')
    path = folder / f"chain{n}{'-triple' if triple else ''}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


_PRIMED: set[Path] = set()


def child(path: Path, n: int) -> list[float]:
    """One fresh interpreter's figures, its cache folder the primed one's structure cache without the plans."""
    primed = path.parent / "cache-primed"
    env = {**os.environ, "MLSYSIM_SYMBOLIC_CACHE": str(primed)}
    if path not in _PRIMED:   # the structure cache of the catalog and of this chain file written
        _PRIMED.add(path)
        subprocess.run([sys.executable, "-c", CHILD, str(path), str(n)], capture_output=True, check=True, env=env, timeout=600)
    fresh = Path(tempfile.mkdtemp(dir=path.parent, prefix="cache-"))
    shutil.copytree(primed, fresh, dirs_exist_ok=True, ignore=shutil.ignore_patterns("plans-v*"))
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(n)], capture_output=True, text=True, check=True,
                         timeout=600, env={**env, "MLSYSIM_SYMBOLIC_CACHE": str(fresh)})
    return [float(x) for x in out.stdout.split()]


def main() -> list[tuple[str, float, str]]:
    """Rows (name, value, unit): each size's total and parts, and the ratio of the largest to the smallest."""
    rows: list[tuple[str, float, str]] = []
    totals = {}
    with tempfile.TemporaryDirectory() as folder:
        for n in SIZES:
            path = chain_file(n, Path(folder))
            samples = [child(path, n) for _ in range(RUNS)]
            total, load, first, latex = (statistics.median(s[i] for s in samples) for i in range(4))
            totals[n] = total
            rows.append((f"chain of {n} outputs: load + first evaluation + LaTeX", total, "s"))
            rows.append(("  of which loading the file (with the catalog it may use)", load, "s"))
            rows.append(("  of which the first evaluation (planning and compiling the chain)", first, "s"))
            rows.append(("  of which the LaTeX line", latex, "s"))
        triple = {}
        for n in TRIPLE_SIZES:
            path = chain_file(n, Path(folder), triple=True)
            samples = [child(path, n) for _ in range(RUNS)]
            triple[n] = statistics.median(s[2] + s[3] for s in samples)   # first value + LaTeX, after the load
            rows.append((f"triple chain of {n} outputs: first value + LaTeX", triple[n], "s"))
    small, large = SIZES[0], SIZES[-1]
    rows.append((f"chain {large} / chain {small} (target <= {TARGET_RATIO:g}; linear would be {large / small:g})",
                 totals[large] / totals[small], "x"))
    a, b = TRIPLE_SIZES
    rows.append((f"triple chain {b} / triple chain {a} (target <= {TRIPLE_RATIO:g})", triple[b] / triple[a], "x"))
    return rows


if __name__ == "__main__":
    result = main()
    for name, value, unit in result:
        print(f"{name:72s} {value:10.3f} {unit}")
    values = {name.split(" (")[0]: value for name, value, _ in result}
    met = (values[f"chain {SIZES[-1]} / chain {SIZES[0]}"] <= TARGET_RATIO
           and values[f"triple chain of {TRIPLE_SIZES[0]} outputs: first value + LaTeX"] <= TRIPLE_BUDGET
           and values[f"triple chain {TRIPLE_SIZES[1]} / triple chain {TRIPLE_SIZES[0]}"] <= TRIPLE_RATIO)
    sys.exit(0 if met else 1)
