"""Figures a reviewer accepts, read from the Axes (not from pixels), and readable text forms of results.

Each figure is rendered to PNG with the Agg backend; the tests read its legend entries, axis labels (with
units), tick labels, bar annotations and heat-map cell edges from the matplotlib objects.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mlsysim_symbolic import Q_, Scenarios
from mlsysim_symbolic.plots import axis_unit, cell_edges, format_value, readable, regime_map

matplotlib: Any = None
FigureCanvasAgg: Any = None
Figure: Any = None


@pytest.fixture(autouse=True, scope="module")
def _matplotlib():
    """matplotlib imported when the first test here runs, not while collecting (1 s)."""
    global matplotlib, FigureCanvasAgg, Figure
    matplotlib = pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

S = Scenarios.DpSgdPerExampleGradients
PLAIN_NUMBER = re.compile(r"^[\u2212-]?\d+(\.\d+)?$")      # a tick label with no exponent and no offset


def render(fig) -> bytes:
    """Draw with Agg (tick labels exist only after a draw) and return the PNG bytes."""
    FigureCanvasAgg(fig).draw()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    data = buf.getvalue()
    assert data.startswith(b"\x89PNG") and len(data) > 5000
    return data


def ticks(labels) -> list[str]:
    return [t.get_text() for t in labels if t.get_text()]


# ---------------------------------------------------------------------- tornado
def test_tornado_of_dp_sgd_per_batch_has_a_legend_values_meanings_and_terabytes(tmp_path):
    fig = S.tornado("per_batch", "GPT-2")
    render(fig)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["low input value", "high input value", "baseline 1.54 TB"]
    assert ax.get_xlabel() == "per_batch [TB]"
    xt = ticks(ax.get_xticklabels())
    assert xt and all(PLAIN_NUMBER.match(t) for t in xt), xt          # 1.3, 1.4, ... not 1.3e12
    assert ax.xaxis.get_offset_text().get_text() == ""                # no x1e12 offset
    values = [float(t.replace("\u2212", "-")) for t in xt]
    assert min(values) < 1.382 and max(values) > 1.69                  # the low and high outputs are on the axis, in TB
    # labels are the variables' meanings and code names, widest swing on top (matplotlib lists ticks from the bottom)
    assert [" ".join(t.get_text().split()) for t in ax.get_yticklabels()] == [
        "parameters of the named model (parameters)", "gradient bytes per parameter (bytes_per_param)",
        "examples per step (batch_size)"]
    # the input values used, at the bar ends: batch 256 +/- 10 % is 230 .. 282 (whole samples)
    texts = {t.get_text() for t in ax.texts}
    assert {"230 sample", "282 sample", "3.6 B/param", "4.4 B/param"} <= texts
    assert {r"$1.35\times 10^{9}$ param/sample", r"$1.65\times 10^{9}$ param/sample"} <= texts
    # two bars per input, from the baseline to the output at the low and at the high value
    assert len(ax.patches) == 6
    low_bar = ax.patches[4]          # the top row's low bar: batch 230
    assert low_bar.get_x() + low_bar.get_width() == pytest.approx(1.5e9 * 4 * 230 / 1e12)
    assert fig.get_supxlabel() == "inputs ±10 % (whole numbers to the nearest whole)"   # 256 * 0.1 is not whole
    fig.savefig(tmp_path / "tornado.png")


def test_tornado_in_a_given_axes_returns_that_figure_and_labels_unknown_meanings_by_name():
    fig = Figure()
    ax = fig.add_subplot()
    t = S.one_at_a_time("per_batch", "GPT-2")
    from mlsysim_symbolic.plots import tornado

    assert tornado(t, ax=ax, labels={"batch_size": "examples per step"}) is fig
    render(fig)
    assert [" ".join(x.get_text().split()) for x in ax.get_yticklabels()] == ["parameters", "bytes_per_param", "examples per step"]
    assert [x.get_text() for x in ax.get_legend().get_texts()][:2] == ["low input value", "high input value"]
    captions = [x for x in ax.texts if x.get_gid() == "caption"]      # in a caller's Axes: under its axis title
    assert [x.get_text() for x in captions] == [t.note]


def test_tornado_of_a_serving_latency_uses_milliseconds_and_bandwidth_in_tb_per_s():
    fig = Scenarios.Llama3_70B_ServingH100.tornado("itl", pct=20)
    render(fig)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "itl [ms]"
    # the widest bars on top: the precision choice (fp16 -> fp8 halves the weight bytes), then the bandwidth
    assert [" ".join(t.get_text().split()) for t in ax.get_yticklabels()][-2:] == ["memory bandwidth (memory_bandwidth)",
                                                                 "weight and KV-cache precision (precision)"]
    assert {"2.68 TB/s", "4.02 TB/s", "bf16", "fp8"} <= {t.get_text() for t in ax.texts}


# A small scenario whose one-at-a-time values are known by hand: y = r w (1 + z) f k, every input a factor
# (elasticity 1 for r, f and the mode's k), at r = 2 GB/s, w = 1 in [1, inf), z = 3 in [0, 3], f = 1 in [0, 1]
# and mode mid (k = 2 of slow 1, mid 2, fast 4): y = 2 * 1 * 4 * 1 * 2 = 16 GB/s.  A bowl u = r (1 + (q - 1)^2) at
# q = 1 puts both of q's outputs on one side of the baseline.
CASES = Path(__file__).parent / "data" / "tornado_cases.toml"


@pytest.fixture(scope="module")
def case():
    from mlsysim_symbolic import load_derivations

    return load_derivations(CASES).scenario("TornadoCase")


#: By hand, y = 16 GB/s: each input's label, its bar-end values, its bars (low, high: GB/s from the baseline, None
#: where the input cannot move) and the extent drawn; rows widest first.
PRODUCT_ROWS = [
    ("speed mode (mode)", ["slow", "fast"], (8 - 16, 32 - 16), 24.0),                 # k 2 -> 1 and 4
    ("tensor-parallel width (width)", ["2"], (None, 32 - 16), 16.0),                 # w 1 -> 2 only: 0 is no width
    ("ZeRO stage (stage)", ["2"], (12 - 16, None), 4.0),                               # z 3 -> 2 only: 4 is no stage
    ("rate of one worker (rate)", ["1.8 GB/s", "2.2 GB/s"], (14.4 - 16, 17.6 - 16), 3.2),   # r -/+ 10 %
    ("share of the work that counts (share)", ["0.9"], (14.4 - 16, None), 1.6),      # f 1 -> 0.9 only: 1.1 > 1
]


def bars_by_row(ax) -> dict[int, list[Any]]:
    rows: dict[int, list[Any]] = {}
    for p in ax.patches:
        rows.setdefault(round(p.get_y() + p.get_height() / 2), []).append(p)
    return rows


def values_by_row(ax) -> dict[int, list[str]]:
    rows: dict[int, list[str]] = {}
    for t in ax.texts:
        if t.get_gid() != "caption":
            rows.setdefault(round(t.xy[1]), []).append(t.get_text())
    return rows


def test_tornado_moves_each_kind_to_valid_neighbours_sorted_by_drawn_length(case):
    fig = case.tornado("product")
    render(fig)
    ax = fig.axes[0]
    labels = [" ".join(t.get_text().split()) for t in ax.get_yticklabels()][::-1]     # top row first
    assert labels == [row[0] for row in PRODUCT_ROWS]
    bars, values = bars_by_row(ax), values_by_row(ax)
    top = len(PRODUCT_ROWS) - 1
    for i, (label, shown, widths, extent) in enumerate(PRODUCT_ROWS):
        drawn = sorted(p.get_width() for p in bars[top - i])
        assert drawn == pytest.approx(sorted(w for w in widths if w is not None)), label
        ends = [p.get_x() + p.get_width() for p in bars[top - i]] + [16.0]
        assert max(ends) - min(ends) == pytest.approx(extent), label
        assert sorted(values[top - i]) == sorted(shown), label
    assert fig.get_supxlabel() == "inputs ±10 %; mode mid → slow, fast; width 1 → 2; stage 3 → 2; share 1 → 0.9"


def test_tornado_sorts_any_table_by_the_length_it_draws(case):
    from mlsysim_symbolic.plots import tornado

    t = case.one_at_a_time("product")
    t.records.reverse()                                   # a caller's table in another order
    fig = tornado(t)
    render(fig)
    assert [x.get_text() for x in fig.axes[0].get_yticklabels()][::-1] == ["mode", "width", "stage", "rate", "share"]


def test_tornado_draws_two_outputs_on_one_side_as_two_half_bars(case):
    """u = r (1 + (q - 1)^2) at q = 1: q 0.9 and 1.1 both give 2 * 1.01 = 2.02 GB/s, above the baseline 2 GB/s."""
    fig = case.tornado("bowl")
    render(fig)
    ax = fig.axes[0]
    bowl_row = bars_by_row(ax)[0]          # q moves u least: the bottom row
    assert [p.get_height() for p in bowl_row] == [pytest.approx(0.36)] * 2
    assert [p.get_width() for p in bowl_row] == [pytest.approx(0.02)] * 2
    assert bowl_row[0].get_y() != bowl_row[1].get_y()
    assert sorted(values_by_row(ax)[0]) == ["0.9", "1.1"]
    assert overlapping_texts(fig) == []


def test_tornado_labels_wrap_and_are_never_cut(case):
    fig = case.tornado("bowl")
    render(fig)
    q = next(t.get_text() for t in fig.axes[0].get_yticklabels() if "(q)" in t.get_text())
    assert "\u2026" not in q and len(q.splitlines()) == 4
    assert " ".join(q.split()) == ("a ratio whose best value is one, with a meaning long enough to take four lines of a "
                                   "tick label (q)")
    assert all(len(line) <= 32 for line in q.splitlines())


def test_tornado_labels_and_caption_are_plain_text_and_counts_take_a_power_of_a_thousand():
    from mlsysim_symbolic.plots import tornado

    t = S.one_at_a_time("per_batch", "GPT-2")
    fig = tornado(t, labels={"batch_size": "scoring at $0.01 an image and labels at $0.50"}, caption="budget $5 to $7")
    render(fig)                                                          # mathtext would have failed or eaten the text
    assert fig.axes[0].get_yticklabels()[-1].get_text() == "scoring at \\$0.01 an image and\nlabels at \\$0.50"
    assert fig.get_supxlabel() == "budget \\$5 to \\$7"
    # parameters take no prefix: the axis divides by 10^9 and says so, so the ticks are plain numbers (6.5, not 6500000000)
    s = Scenarios.Llama3_8BLoraOnH100
    fig = s.tornado("model_parameters")
    render(fig)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "model_parameters [$10^{9}$ param]"
    assert all(PLAIN_NUMBER.match(x) for x in ticks(ax.get_xticklabels()))
    top = s.one_at_a_time("model_parameters")[0]
    ends = sorted(p.get_x() + p.get_width() for p in bars_by_row(ax)[max(bars_by_row(ax))])
    assert ends == pytest.approx(sorted(top[k].to("param").magnitude / 1e9 for k in ("output_low", "output_high")))


def overlapping_texts(fig) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes intersect (value labels, tick labels, axis titles, legend, caption), and value
    labels reaching outside the axes, measured with the Agg renderer."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        values = [t for t in ax.texts if t.get_gid() != "caption"]
        texts = [*values, *[t for t in ax.texts if t.get_gid() == "caption"], ax.title, ax.xaxis.label,
                 *[t for t in ax.get_yticklabels() + ax.get_xticklabels() if t.get_text()]]
        if ax.get_legend() is not None:
            texts += ax.get_legend().get_texts()
        if fig.get_supxlabel():
            texts.append(fig._supxlabel)
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts if t.get_text()]
        for i, (a, box_a) in enumerate(boxes):
            found += [(a, b) for b, box_b in boxes[i + 1:] if box_a.overlaps(box_b)]
        frame = ax.get_window_extent(renderer)
        found += [(t.get_text(), "outside the axes") for t in values
                  if not frame.contains(*t.get_window_extent(renderer).min) or not frame.contains(*t.get_window_extent(renderer).max)]
    return found


def _in_small_axes(scenario: Any, output: str, *keys: Any) -> Any:
    from mlsysim_symbolic.plots import tornado

    fig = Figure(figsize=(8, 5), layout="constrained")
    tornado(scenario.one_at_a_time(output, *keys), ax=fig.add_subplot(), title="in a caller's axes")
    return fig


@pytest.mark.parametrize("draw", [
    lambda case: case.tornado("product"),
    lambda case: case.tornado("bowl"),
    lambda case: S.tornado("per_batch", "GPT-2"),                   # 1.35x10^9 param/sample reached the tick labels
    lambda case: Scenarios.DpSgdStepMemoryGpt2.tornado("total", "GPT-2", pct=20),
    lambda case: Scenarios.Llama3_8BTrainingMemoryH100.tornado("total_memory"),   # 24 rows, a long caption
    lambda case: _in_small_axes(S, "per_batch", "GPT-2"),
], ids=["product", "bowl", "dp-sgd", "dp-sgd-step-memory", "training-memory", "callers-axes"])
def test_tornado_texts_do_not_overlap_and_values_stay_inside_the_axes(case, draw):
    fig = draw(case)
    render(fig)
    assert overlapping_texts(fig) == []


# ---------------------------------------------------------------------- sweeps
def test_a_sweep_spanning_decades_is_drawn_on_log_axes_with_units():
    fig = S.sweep("per_batch", "GPT-2", batch_size=[1, 10, 100, 1000, 10000]).plot()
    render(fig)
    ax = fig.axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert ax.get_xlabel() == "batch_size [sample]"
    assert ax.get_ylabel() == "per_batch [TB]"                # 6 GB .. 60 TB, in the prefix of the largest
    assert "$\\mathdefault{10^{2}}$" in ticks(ax.get_xticklabels())
    x, y = ax.lines[0].get_data()
    np.testing.assert_allclose(x, [1, 10, 100, 1000, 10000])
    np.testing.assert_allclose(y, np.array([1, 10, 100, 1000, 10000]) * 6e9 / 1e12)


def test_a_narrow_sweep_stays_linear_with_plain_ticks():
    fig = S.sweep("per_batch", "GPT-2", batch_size=range(1000, 1011)).plot()
    render(fig)
    ax = fig.axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("linear", "linear")
    assert ax.get_ylabel() == "per_batch [TB]"
    assert ax.yaxis.get_offset_text().get_text() == "" and ax.xaxis.get_offset_text().get_text() == ""
    assert all(PLAIN_NUMBER.match(t) for t in ticks(ax.get_yticklabels()) + ticks(ax.get_xticklabels()))


def test_a_heat_map_on_an_uneven_grid_has_cells_on_the_real_grid(tmp_path):
    s = Scenarios.DpSgdStepMemoryGpt2
    seq = [128, 256, 512, 1024, 2048, 8192]            # powers of two with 4096 missing: uneven, geometric
    batch = [40, 10, 20, 30]                            # unsorted on purpose
    r = s.sweep("total", "GPT-2", batch_size=batch, seq_length=seq)
    fig = r.plot()
    render(fig)
    ax, bar = fig.axes
    assert ax.get_xlabel() == "seq_length [token/sample]" and ax.get_ylabel() == "batch_size [sample]"
    assert ax.get_xscale() == "log" and ax.get_yscale() == "linear"
    assert bar.get_ylabel() == "total [TB]"
    assert ticks(ax.get_xticklabels()) == ["128", "256", "512", "1024", "2048", "8192"]
    mesh = ax.collections[0]
    coords = mesh.get_coordinates()
    x_edges, y_edges = coords[0, :, 0], coords[:, 0, 1]
    # geometric midpoints between neighbours; the 2048 .. 8192 gap gives a wider cell (edge at sqrt(2048 * 8192) = 4096)
    np.testing.assert_allclose(x_edges, [128 / 2**0.5, 128 * 2**0.5, 256 * 2**0.5, 512 * 2**0.5, 1024 * 2**0.5, 4096, 16384])
    np.testing.assert_allclose(y_edges, [5, 15, 25, 35, 45])          # sorted 10, 20, 30, 40: halfway between
    # the cells hold the values of the sorted grid, in TB
    total = r.values.to("TB").magnitude
    order = np.argsort(batch)
    np.testing.assert_allclose(np.asarray(mesh.get_array()).reshape(4, 6), total[order])
    fig.savefig(tmp_path / "heat.png")


def test_a_heat_map_on_an_uneven_linear_grid_uses_arithmetic_midpoints():
    fig = Figure()
    ax = fig.add_subplot()
    r = S.sweep("per_batch", "GPT-2", batch_size=[10, 20, 30, 60], bytes_per_param=[1, 2, 4])
    assert r.plot(ax=ax) is fig
    render(fig)
    coords = ax.collections[0].get_coordinates()
    np.testing.assert_allclose(coords[:, 0, 1], [5, 15, 25, 45, 75])
    np.testing.assert_allclose(coords[0, :, 0], [0.5, 1.5, 3, 5])
    assert ax.get_yscale() == "linear" and ax.get_xscale() == "linear"  # 1, 2, 4 B/param spans only a factor of 4


def test_cell_edges_and_readable_units():
    np.testing.assert_allclose(cell_edges([1, 2, 4]), [0.5, 1.5, 3, 5])
    np.testing.assert_allclose(cell_edges([100, 1000], log=True), [10 ** 1.5, 10 ** 2.5, 10 ** 3.5])
    np.testing.assert_allclose(cell_edges([5]), [2.5, 7.5])
    assert f"{readable(Q_(1.536e12, 'B')).units:~C}" == "TB"
    assert f"{readable(Q_(3.35e12, 'B/s')).units:~C}" == "TB/s"
    assert f"{readable(Q_(2.5 * 2**30, 'KiB')).units:~C}" == "TiB"          # binary stays binary
    assert f"{readable(Q_(4e-5, 's')).units:~C}" == "µs"
    assert f"{readable(Q_(7e10, 'param')).units:~C}" == "param"             # a count takes no prefix
    data, unit = axis_unit(Q_([3e10, 7e10], "param"))
    assert unit == "$10^{9}$ param" and np.allclose(data, [30, 70])
    assert format_value(Q_(0.00043, "s")) == "430 µs"


# ---------------------------------------------------------------------- regime map
def test_regime_map_colours_a_hand_made_label_grid_with_a_legend(tmp_path):
    batch = np.array([1, 2, 4, 8, 16, 32])
    seq = np.array([128, 512, 2048, 8192])
    labels = np.where(batch[:, None] * seq[None, :] > 4000, "memory", "compute").astype(object)
    labels[0, 0] = "overhead"
    colours = {"compute": "#ff0000"}
    fig = regime_map(batch, seq, labels, x_name="batch_size", y_name="seq_len", x_unit="sample", y_unit="token",
                     title="which term dominates", colors=colours)
    render(fig)
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["overhead", "compute", "memory"]
    assert legend.get_title().get_text() == "dominant"
    assert ax.get_xlabel() == "batch_size [sample]" and ax.get_ylabel() == "seq_len [token]"
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"          # both grids are geometric
    assert ticks(ax.get_yticklabels()) == ["128", "512", "2048", "8192"]   # a tick at each grid value of a log mesh
    assert ticks(ax.get_xticklabels()) == ["1", "2", "4", "8", "16", "32"]
    mesh = ax.collections[0]
    codes = np.asarray(mesh.get_array()).reshape(len(seq), len(batch))    # rows: y (seq), columns: x (batch)
    names = ["overhead", "compute", "memory"]
    for i in range(len(batch)):
        for j in range(len(seq)):
            assert names[codes[j, i]] == labels[i, j]
    rgba = mesh.get_facecolors().reshape(len(seq), len(batch), 4)
    assert matplotlib.colors.to_hex(rgba[0, 1]) == "#ff0000"             # batch 2, seq 128: compute, the given colour
    coords = mesh.get_coordinates()
    np.testing.assert_allclose(coords[0, :, 0], cell_edges(batch, log=True))
    np.testing.assert_allclose(coords[:, 0, 1], cell_edges(seq, log=True))
    fig.savefig(tmp_path / "regimes.png")


def test_regime_map_takes_quantities_and_an_axes_and_refuses_a_transposed_grid():
    fig = Figure()
    ax = fig.add_subplot()
    x, y = Q_([1e12, 2e12, 3e12], "B"), Q_([1, 2], "s")
    grid = [["a", "b"], ["a", "a"], ["b", "b"]]
    assert regime_map(x, y, grid, x_name="memory", y_name="time", ax=ax) is fig
    render(fig)
    assert ax.get_xlabel() == "memory [TB]" and ax.get_ylabel() == "time [s]"
    with pytest.raises(ValueError, match="transposed"):
        regime_map([1, 2, 3], [1, 2], np.array(grid).T)


# ---------------------------------------------------------------------- missing extras
def test_figures_without_matplotlib_name_the_plot_extra(monkeypatch):
    r = S.sweep("per_batch", "GPT-2", batch_size=[1, 2])
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    for draw in (r.plot, lambda: S.tornado("per_batch", "GPT-2"), lambda: regime_map([1], [1], [["a"]])):
        with pytest.raises(ModuleNotFoundError, match=re.escape('pip install "mlsysim-symbolic[plot]"')):
            draw()


def test_global_sensitivity_without_salib_names_the_sensitivity_extra(monkeypatch):
    ranges = {"batch_size": (128, 512)}
    for name in ("SALib", "SALib.sample", "SALib.sample.sobol", "SALib.sample.morris"):
        monkeypatch.setitem(sys.modules, name, None)
    for run in (S.sobol, S.morris):
        with pytest.raises(ModuleNotFoundError, match=re.escape('pip install "mlsysim-symbolic[sensitivity]"')):
            run("per_batch", "GPT-2", ranges=ranges)


def test_to_pandas_without_pandas_says_what_to_install(monkeypatch):
    t = S.one_at_a_time("per_batch", "GPT-2")
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ModuleNotFoundError, match="pip install pandas"):
        t.to_pandas()


# ---------------------------------------------------------------------- text forms
def test_sweep_result_repr_names_output_unit_axes_ranges_and_shape():
    r = S.sweep("per_batch", "GPT-2", batch_size=range(1, 65), bytes_per_param=["2 B/param", "4 B/param"])
    text = repr(r)
    assert "object at 0x" not in text
    assert text.startswith("SweepResult(per_batch [B] of DpSgdPerExampleGradients over ")
    assert "batch_size = 1 .. 64 sample (64 values)" in text and "bytes_per_param = 2 .. 4 B/param (2 values)" in text
    assert "shape (64, 2)" in text and "per_batch 3 .. 384 GB" in text
    assert str(r) == text and r.shape == (64, 2)
    one = repr(S.sweep("per_batch", "GPT-2", batch_size=[5]))
    assert one.endswith("over batch_size = 5 sample; shape (1,); per_batch 30 GB)")
    assert "object at 0x" not in repr(r._axes["batch_size"]) and "1 .. 64 sample" in repr(r._axes["batch_size"])


def test_reduction_repr_says_what_was_reduced_with_units():
    best = S.reduce_sweep("per_batch", "GPT-2", reduce="min", batch_size=range(1, 11), bytes_per_param=[2, 4])
    assert repr(best) == "Reduction(min of per_batch = 3 GB at batch_size = 1 sample, bytes_per_param = 2 B/param; 20 points in 1 chunk)"
    fit = S.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 1025),
                         bytes_per_param=[1, 2, 4], chunk=500)
    text = repr(fit)
    assert text.startswith("Reduction(feasible: 92 of 3,072 points with per_batch <= 80 GB; batch_size 1 sample .. 53 sample")
    assert "7 chunks" in text and "object at 0x" not in text
    assert "<th>limit</th><td>&lt;= 80 GB</td>" in fit._repr_html_()


def test_uncertainty_text_has_both_methods_units_and_shares():
    u = S.uncertainty("per_batch", "GPT-2", inputs={"batch_size": (128, 384), "bytes_per_param": ("normal", "4 B/param", "0.2 B/param")},
                      samples=5000, seed=1)
    text = str(u)
    lines = text.splitlines()
    assert lines[0] == "Uncertainty of per_batch (5,000 Monte Carlo samples)"
    assert lines[1].split() == ["method", "mean", "sd", "p05", "p95"]
    assert lines[2].startswith("linear") and " TB" in lines[2]
    assert lines[3].startswith("monte carlo") and lines[3].count("TB") == 4
    assert "Monte Carlo sd / linear sd = " in text and "variance_share" in text and "batch_size" in text
    assert "draws rounded to whole sample" in text
    r = repr(u)
    assert r.startswith("Uncertainty(per_batch: linear 1.536 TB +/- ") and "TB" in r and "object at 0x" not in r
    assert "<th>p95</th>" in u._repr_html_() and "variance" in u._repr_html_()


def test_morris_and_sobol_tables_have_headers_with_units():
    s = Scenarios.Gpt2XlSpeculativeGpt2SmallH100
    ranges = {"verify_time": ("0.5 ms", "1.5 ms"), "draft_step": ("0.05 ms", "0.1 ms")}
    m = s.morris("round_time", ranges=ranges, n=20, seed=3)
    lines = str(m).splitlines()
    assert lines[0] == "Morris screening of round_time"
    assert lines[1].split() == ["input", "mu_star", "[ms]", "mu", "[ms]", "sigma", "[ms]", "mu_star_conf", "[ms]"]
    assert lines[2].split()[:2] == ["verify_time", "1"] and lines[3].split()[:2] == ["draft_step", "0.2"]
    assert "in ms" in lines[-1] and repr(m) == str(m)
    assert "<th>mu_star [ms]</th>" in m._repr_html_()
    assert list(m.to_pandas().columns)[:2] == ["input", "mu_star [ms]"]
    assert m[0]["mu_star"] == pytest.approx(1.0)             # the numbers stay plain floats
    t = s.sobol("round_time", ranges=ranges, n=256, seed=2)
    lines = str(t).splitlines()
    assert lines[0] == "Sobol indices of round_time" and lines[1].split() == ["input", "S1", "S1_conf", "ST", "ST_conf"]
    assert "shares of the variance of round_time" in lines[-1] and "object at 0x" not in str(t)


def test_a_table_text_form_has_its_column_headers():
    t = S.one_at_a_time("per_batch", "GPT-2")
    lines = str(t).splitlines()
    assert lines[0] == "per_batch"
    assert lines[1].split() == list(t.columns)
    assert lines[2].split()[0] == "batch_size" and len(lines) == 3 + len(t)
    assert lines[-1] == "inputs ±10 % (whole numbers to the nearest whole)"      # the note: what moved by how much
