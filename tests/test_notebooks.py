"""The notebooks under notebooks/ run top to bottom, and what Jupyter displays is rendered, not a bare repr.

Each notebook is executed by nbclient on the ``python3`` kernel (ipykernel of this interpreter), once per
session, by the docs site build of ``tests/conftest.py`` (fixture ``docs_site``); any error fails the test.
The notebooks are committed without outputs.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mlsysim_symbolic import Scenarios

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["quickstart", "sensitivity", "new_scenario", "solvers"]
RICH = ("text/latex", "text/html", "image/png", "text/markdown")
#: What a reader sees of a displayed value, in the order Jupyter prefers it.
SHOWN = ("text/html", "text/markdown", "text/latex", "text/plain")
#: Numbers in what a reader sees; an object's repr (``<Quantity(5.27428982, 'millisecond')>``, mlsysim's own beside
#: ours: code's full precision) and a link (arXiv 2211.05102) hold no value shown, and are left out.
NOT_VALUES = re.compile(r"<\w+\([^<>]*\)>|https?://[^\s)\"']+")
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def test_every_notebook_is_listed_and_committed_without_outputs():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)
    for name in NAMES:
        nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
        nbformat.validate(nb)
        assert nb.metadata.kernelspec.name == "python3"
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{name}: a cell has outputs"


def significant_figures(number: str) -> int:
    """>>> [significant_figures(n) for n in ("3852.1231488", "0.0007788", "1536000000000", "800000.0")]
    [11, 4, 4, 7]"""
    digits = number.replace(".", "").lstrip("0")
    return len(digits if "." in number else digits.rstrip("0"))


@pytest.mark.xdist_group("docs_site")   # one worker builds the site and runs these; the other is not left waiting
@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes(name, docs_site):
    """The notebook as the docs site build executed it (nbclient, top to bottom, in the notebooks folder; a cell
    that raises fails the build): executed once per session, for the site and for this test (issue 30)."""
    folder, written = docs_site
    executed = folder / "notebooks" / f"{name}.ipynb"
    assert executed in written
    nb = nbformat.read(executed, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count is not None for c in code), f"{name}: a cell did not run"
    shown = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{name}: {out.get('ename')}: {out.get('evalue')}"
            if out.output_type in ("execute_result", "display_data"):
                shown += 1
                data = out.get("data", {})
                plain = data.get("text/plain", "")
                bare = plain.startswith("<") and plain.endswith(">") and not any(m in data for m in RICH)
                assert not bare, f"{name}: a bare object repr is displayed: {plain[:80]}"
                seen = NOT_VALUES.sub("", next(data[m] for m in SHOWN if m in data))
                long = [n for n in NUMBER.findall(seen) if significant_figures(n) > 7]
                assert not long, f"{name}: a value shows {long[0]} (issue 37: 3-4 significant figures by default)"
    assert shown >= 5


# ---------------------------------------------------------------------- what Jupyter shows
def test_scenarios_outputs_derivatives_tables_and_sweeps_render():
    s = Scenarios.DpSgdPerExampleGradients
    assert s._repr_latex_().startswith("$$ \\begin{aligned}")
    assert s.latex("per_batch", "GPT-2")._repr_latex_().startswith("$$ M_{\\mathrm{batch}}")
    assert "\\mathrm{TB}" in s.per_batch("GPT-2").to("TB")._repr_latex_()     # outputs are pint Quantities
    assert s.diff("per_batch", "batch_size")._repr_latex_() == "$\\displaystyle P b$"
    assert s.equation("per_batch")._repr_latex_().startswith("$\\displaystyle M_{batch} =")
    e = s.elasticities("per_batch", "GPT-2")[0]
    assert e._repr_latex_() == "$\\varepsilon_{B} = 1 = 1$"
    local = s.local_sensitivity("per_batch", "GPT-2")._repr_html_()
    assert local.startswith("<table><caption>per_batch</caption>") and "<td>$P b$</td>" in local
    assert "<table>" in s.one_at_a_time("per_batch", "GPT-2")._repr_html_()
    assert "<td>$P$</td>" in s.symbol_table()._repr_html_()
    sol = s.solve("per_batch", "batch_size", "80 GB", "GPT-2")
    assert sol._repr_latex_() == "$B = \\frac{M_{batch}}{P b} = 13.33\\,\\mathrm{sample} \\;\\Rightarrow\\; B = 13$"


def test_sweep_and_reduction_render_as_html_tables():
    s = Scenarios.DpSgdPerExampleGradients
    line = s.sweep("per_batch", "GPT-2", batch_size=[1, 2, 4])._repr_html_()
    assert "<th>batch_size</th>" in line and "<td>1 sample</td><td>6e+09</td>" in line and line.count("<tr>") == 4
    grid = s.sweep("per_batch", "GPT-2", batch_size=range(1, 101), bytes_per_param=[1, 2, 4])._repr_html_()
    assert "batch_size \\ bytes_per_param" in grid and grid.count("<tr>") == 1 + 12       # thinned to 12 rows
    assert "<th>100 sample</th>" in grid and "<td>6e+11</td>" in grid                     # last row: 100 x 1.5e9 x 4 B
    cube = s.sweep("per_batch", "GPT-2", batch_size=[1, 2], bytes_per_param=[1, 2], parameters=[1e9, 2e9])
    assert "<td>shape</td><td>(2, 2, 2)</td>" in cube._repr_html_()
    red = s.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 100))._repr_html_()
    assert "<th>feasible batch_size</th><td>1 sample .. 13 sample</td>" in red
    best = s.reduce_sweep("per_batch", "GPT-2", reduce="max", batch_size=range(1, 11))._repr_html_()
    assert "<th>at batch_size</th><td>10 sample</td>" in best
