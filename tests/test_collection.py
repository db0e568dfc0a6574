"""Collecting the suite stays cheap: it imports nothing of mlsysim (5 s) and builds (almost) no scenario type (the
catalog builds in its tests, once per session).  Checked on the whole suite's collection: this run's own, as the
root conftest recorded it when collection ended, when this run collected the whole suite (the README's command;
each pytest-xdist worker collects it), else a child process's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _probe_of_a_child() -> dict[str, str]:
    env = {**os.environ, "MLSYSIM_PRINT_COLLECTION_PROBE": "1"}   # the root conftest prints its record
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("PROBE "))
    return dict(part.split("=") for part in line.split()[1:])


def test_collecting_the_suite_imports_no_mlsysim_and_builds_no_catalog(collection_probe):
    probe = {k: str(v) for k, v in collection_probe.items()}
    if int(probe["items"]) <= 5000:   # this run collected a part of the suite: collect the whole in a child
        probe = _probe_of_a_child()
    assert probe["mlsysim"] == "False", probe
    assert int(probe["built"]) <= 10, probe           # a few module constants of test_bad_inputs; the catalog has 613
    assert int(probe["items"]) > 5000, probe
