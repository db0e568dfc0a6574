"""Chain benchmark: a type whose outputs are built on each other, o_i = (o_{i-1} + x) * (o_{i-1} + 1),
with 10 and with 40 outputs.  Expanded, the last output has 2**n terms; planned as a chain of
definitions it should cost in proportion to the declarations.

Each figure is the median of several fresh interpreters, each timing, after the package import,
the load of the derivation file, the first evaluation of the last output and its LaTeX line.
The target: time(40) / time(10) at most 6 (linear growth would give 4, and part of the time
does not grow at all); the exponential tree gave minutes at 20 outputs.

    python benchmarks/bench_chain.py
"""

from __future__ import annotations

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


def chain_file(n: int, folder: Path) -> Path:
    """A derivation file with one input x = 1e-3 and n outputs, each built on the one before."""
    lines = ['[types.Chain.inputs.x]\nunit = "1"\n']
    prev = "x"
    for i in range(1, n + 1):
        lines.append(f'[types.Chain.outputs.o{i}]\nunit = "1"\nequation = "({prev} + x) * ({prev} + 1)"\n')
        prev = f"o{i}"
    lines.append('[scenarios.C]\ntype = "Chain"\ninputs.x = 0.001\n')
    path = folder / f"chain{n}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def child(path: Path, n: int) -> list[float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(n)], capture_output=True, text=True, check=True,
                         timeout=600)
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
    small, large = SIZES[0], SIZES[-1]
    rows.append((f"chain {large} / chain {small} (target <= {TARGET_RATIO:g}; linear would be {large / small:g})",
                 totals[large] / totals[small], "x"))
    return rows


if __name__ == "__main__":
    result = main()
    for name, value, unit in result:
        print(f"{name:72s} {value:10.3f} {unit}")
    sys.exit(0 if result[-1][1] <= TARGET_RATIO else 1)
