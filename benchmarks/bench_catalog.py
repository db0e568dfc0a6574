"""Catalog benchmarks: the catalog at ten times its size, and the whole catalog built at once.

- **scale**: a synthetic catalog of 10 renamed copies of ``derivations/`` (every type, named
  scenario and ``uses`` reference renamed, so nothing clashes: 3,180 types, 5,090 scenarios today) in a
  temporary folder; ``load_derivations(folder)`` plus one evaluated output, against the same
  with one copy (target: ratio at most 1.5).  Types build lazily, so reading ten times more
  files should cost little more than reading one.  Measured with the structure cache warm
  (the steady state, as Python's bytecode cache), and cold (an empty cache folder per run).
  The target is on the CPU time of each child (user + system), the work itself; the wall-clock
  ratio is printed beside it.  On these shared two-core machines a ~15 ms window is often
  stretched by waiting for a core or for the kernel to page the cache file back in, which
  wall-clock counts and CPU time does not (runs with the machine busy gave wall-clock ratios
  from 0.8 to 2.3 for the same code; the CPU-time ratio stayed within a few percent).
- **read**: a cold ``import mlsysim_symbolic`` plus reading the shipped catalog's structure
  (what ``list`` and tab completion need), against a 1 s budget.
- **check**: everything built at once (``mlsysim-symbolic check``: every type parsed,
  dimension-checked and compiled, every named scenario bound), for information.

Each figure is the median of several fresh interpreters (interleaved, so both sides of a ratio
see the same machine), each timing itself.

    python benchmarks/bench_catalog.py
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

RUNS = 9
COPIES = 10
KEY = "DpSgdPerExampleGradients"          # the named scenario evaluated, in copy 0
REGISTRIES = {"workloads.toml", "hardware.toml", "grids.toml", "systems.toml", "applications.toml"}   # sources.REGISTRY_FILES


def synthetic_catalog(folder: Path, copies: int, source: Path | None = None) -> tuple[int, int]:
    """Write ``copies`` renamed copies of the derivation files of ``source`` into ``folder``.

    Copy ``i`` renames every type ``T`` to ``T_c{i}`` and every named scenario ``K`` to ``K_c{i}``
    (table headers, ``type = "T"`` references of ``uses`` and scenarios, and a named scenario's key given as the
    value of a scenario input).  Returns the number
    of types and named scenarios written.
    """
    if source is None:
        from mlsysim_symbolic.paths import derivations_dir

        source = derivations_dir()
    files = sorted(p for p in source.glob("*.toml") if p.name not in REGISTRIES)
    types: set[str] = set()
    keys: set[str] = set()
    for f in files:
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        types |= set(data.get("types", {}))
        keys |= set(data.get("scenarios", {}))
    header = re.compile(r"^(\s*\[\s*)(types|scenarios)\.([A-Za-z0-9_]+)(?=[.\]\s])", re.M)
    reference = re.compile(r'(\btype\s*=\s*")([A-Za-z0-9_]+)(")')
    quoted = re.compile(r'"([A-Za-z][A-Za-z0-9_]*)"')
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(copies):
        suffix = f"_c{i}"

        def rename_header(m: re.Match[str], suffix: str = suffix) -> str:
            known = types if m.group(2) == "types" else keys
            return m.group(1) + m.group(2) + "." + m.group(3) + (suffix if m.group(3) in known else "")

        def rename_reference(m: re.Match[str], suffix: str = suffix) -> str:
            return m.group(1) + m.group(2) + (suffix if m.group(2) in types else "") + m.group(3)

        def rename_named(m: re.Match[str], suffix: str = suffix) -> str:   # a scenario input bound by its key
            return f'"{m.group(1)}{suffix}"' if m.group(1) in keys else m.group(0)

        for f in files:
            text = reference.sub(rename_reference, header.sub(rename_header, f.read_text(encoding="utf-8")))
            text = quoted.sub(rename_named, text)
            (folder / f"{f.stem}{suffix}.toml").write_text(text, encoding="utf-8")
    return len(types) * copies, len(keys) * copies


#: Every child uses this run's own structure cache (warmed by untimed runs), never the user's.
CACHE: dict[str, str] = {}


def child(code: str, env: dict[str, str] | None = None) -> list[float]:
    """Run ``code`` in a fresh interpreter; the numbers it prints on its last line."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, **CACHE, **(env or {})})
    return [float(x) for x in out.stdout.strip().splitlines()[-1].split()]


def load_and_evaluate(folder: Path) -> str:
    """Child code: after the import, time load_derivations(folder) plus one evaluated output, as wall-clock time and as
    the CPU time of the process (user + system: what the work costs, without the time the process waits for a core
    or for the kernel to page a file back in, which on these shared machines is most of the spread)."""
    return ("import time, mlsysim_symbolic; t = time.perf_counter(); c = time.process_time(); "
            f"cat = mlsysim_symbolic.load_derivations({str(folder)!r}); "
            f"v = cat.scenario({KEY + '_c0'!r}).per_batch('GPT-2'); "
            "w, c = time.perf_counter() - t, time.process_time() - c; "
            "print(w, len(cat.info), len(cat.declared), v.to('B').magnitude, c)")


CHECK = ("import time, mlsysim_symbolic; from mlsysim_symbolic.catalog import load_derivations; "
         "t = time.perf_counter(); r = load_derivations({folder!r}).check(); print(time.perf_counter() - t, r.types, r.scenarios)")
READ = ("import time; t = time.perf_counter(); import mlsysim_symbolic; from mlsysim_symbolic.catalog import catalog; "
        "cat = catalog(); print(time.perf_counter() - t, len(cat.info), len(cat.declared), len(cat.built))")
CHECK_SHIPPED = ("import time; t = time.perf_counter(); import mlsysim_symbolic; from mlsysim_symbolic.catalog import catalog; "
                 "r = catalog().check(); print(time.perf_counter() - t)")


def scale(runs: int = RUNS) -> list[tuple[str, float, str]]:
    with tempfile.TemporaryDirectory(prefix="mlsysim-symbolic-scale-") as tmp:
        one, ten = Path(tmp) / "one", Path(tmp) / "ten"
        synthetic_catalog(one, 1)
        n_types, n_keys = synthetic_catalog(ten, COPIES)
        # untimed: every type of the ten copies builds and every scenario binds (the renaming is sound); primes the cache
        checked = child(CHECK.format(folder=str(ten)))
        assert (int(checked[1]), int(checked[2])) == (n_types, n_keys), (checked, n_types, n_keys)
        child(load_and_evaluate(one))
        warm_one, warm_ten, cold_one, cold_ten, cpu_one, cpu_ten = [], [], [], [], [], []
        for _ in range(runs):   # the warm pairs first: a cold run writes thousands of cache files, whose writeback
            a = child(load_and_evaluate(one))   # and page-cache churn would land in the next warm child's window
            b = child(load_and_evaluate(ten))
            assert a[3] == b[3] == 1.536e12 and int(b[1]) == n_types, (a, b)
            warm_one.append(a[0])
            warm_ten.append(b[0])
            cpu_one.append(a[4])
            cpu_ten.append(b[4])
        for i in range(runs):
            cold_one.append(child(load_and_evaluate(one), {"MLSYSIM_SYMBOLIC_CACHE": str(Path(tmp) / f"cold1-{i}")})[0])
            cold_ten.append(child(load_and_evaluate(ten), {"MLSYSIM_SYMBOLIC_CACHE": str(Path(tmp) / f"cold10-{i}")})[0])
    m = statistics.median
    return [
        (f"load_derivations + one value, 1 copy ({n_types // COPIES} types), warm cache", m(warm_one), "s"),
        (f"load_derivations + one value, {COPIES} copies ({n_types} types), warm cache", m(warm_ten), "s"),
        ("scale ratio 10 copies / 1 copy, warm cache, wall-clock", m(warm_ten) / m(warm_one), "x"),
        ("CPU time: load_derivations + one value, 1 copy, warm cache", m(cpu_one), "s"),
        (f"CPU time: load_derivations + one value, {COPIES} copies, warm cache", m(cpu_ten), "s"),
        ("scale ratio 10 copies / 1 copy, warm cache, CPU time (target <= 1.5)", m(cpu_ten) / m(cpu_one), "x"),
        ("load_derivations + one value, 1 copy, cold cache", m(cold_one), "s"),
        (f"load_derivations + one value, {COPIES} copies, cold cache", m(cold_ten), "s"),
        ("scale ratio 10 copies / 1 copy, cold cache", m(cold_ten) / m(cold_one), "x"),
        (f"check of the {COPIES} copies ({n_types} types, {n_keys} scenarios built and bound)", checked[0], "s"),
    ]


def main(runs: int = RUNS) -> list[tuple[str, float, str]]:
    """Rows (name, value, unit)."""
    with tempfile.TemporaryDirectory(prefix="mlsysim-symbolic-cache-") as cache:
        CACHE["MLSYSIM_SYMBOLIC_CACHE"] = cache
        try:
            return _main(runs)
        finally:
            CACHE.clear()


def _main(runs: int) -> list[tuple[str, float, str]]:
    child(READ)   # warms this run's cache with the shipped catalog
    reads = [child(READ) for _ in range(runs)]
    built = int(reads[0][3])
    rows = [(f"cold import + read of the catalog ({int(reads[0][1])} types, {int(reads[0][2])} scenarios; "
             f"{built} built; target < 1 s)", statistics.median(r[0] for r in reads), "s"),
            ("cold import + check of the whole catalog (all built and bound)", statistics.median(child(CHECK_SHIPPED)[0] for _ in range(3)), "s")]
    return rows + scale(runs)


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:84s} {value:10.3f} {unit}")
