"""Sensitivity analysis on real catalog scenarios (issue: sensitivity, sweeps, inverse questions).

Expected values are hand computations from the scenarios' published inputs, analytic
results (Ishigami & Homma 1990 indices, variance shares of a sum of independent
uniforms), or exact rules of calculus (d ln sqrt(x) / d ln x = 1/2).
"""

import math
from pathlib import Path

import numpy as np
import pytest
import sympy

from mlsysim_symbolic import InputError, Scenarios, UnitError, load_derivations
from mlsysim_symbolic.sensitivity import morris_indices, sobol_indices
from mlsysim_symbolic.tables import Table
from mlsysim_symbolic.units import Q_


def by_input(rows):
    return {r.input: r for r in rows}


# ---------------------------------------------------------------------- 1. local: derivatives and elasticities
def test_elasticities_of_a_square_root_are_one_half():
    """Young/Daly tau* = sqrt(2 delta M) with delta = P b / B_w: elasticities +-1/2 exactly."""
    s = Scenarios.Gpt3CheckpointInterval10K
    e = by_input(s.elasticities("interval"))
    assert e["mtbf"].expression == sympy.Rational(1, 2)
    assert e["bytes_per_param"].expression == sympy.Rational(1, 2)
    assert e["parameters"].expression == sympy.Rational(1, 2)
    assert e["write_bandwidth"].expression == -sympy.Rational(1, 2)
    for name, expected in [("mtbf", 0.5), ("write_bandwidth", -0.5)]:
        assert e[name].value == pytest.approx(expected, rel=1e-12)


def test_elasticity_of_a_sum_is_the_term_share():
    """Llama-3 70B ITL on H100 = L*t_L + (W + KV)/BW.  By hand: L t_L = 80 * 0.01 ms = 0.8 ms;
    W = 70.6e9 * 2 B; KV = 2*80*8*128*2048*2 B; BW = 3.35e12 B/s; elasticity of layer_tax = 0.8 ms / ITL."""
    s = Scenarios.Llama3_70B_ServingH100
    W, KV, BW = 70.6e9 * 2, 2 * 80 * 8 * 128 * 2048 * 2, 3.35e12
    itl_ms = (W + KV) / BW * 1e3 + 0.8
    e = by_input(s.elasticities("itl"))
    assert e["layer_tax"].value == pytest.approx(0.8 / itl_ms, rel=1e-9)
    assert e["bandwidth" if "bandwidth" in e else "memory_bandwidth"].value == pytest.approx(-(itl_ms - 0.8) / itl_ms, rel=1e-9)
    assert sum(r.value for r in e.values() if r.input in ("layer_tax", "layers")) != pytest.approx(1.0)


def test_elasticities_through_a_min():
    """Decode attainable rate = min(R, BW * I) on H100: memory bound (3.35 TB/s * 1 flop/B < 989 TFLOP/s), so the
    elasticity to bandwidth is 1 and to the peak rate 0."""
    s = Scenarios.Llama2_70B_DecodeH100
    e = by_input(s.elasticities("attainable_flops"))
    assert e["memory_bandwidth"].value == pytest.approx(1.0)
    assert e["batch_size"].value == pytest.approx(1.0)
    peak = [r for r in e.values() if r.symbol.name == "R"]
    assert peak and peak[0].value == pytest.approx(0.0, abs=1e-12)
    assert s.attainable_flops.to("TFLOP/s").magnitude == pytest.approx(3.35)


def test_derivative_values_carry_units():
    s = Scenarios.DpSgdPerExampleGradients
    t = s.local_sensitivity("per_batch", "GPT-2")
    rec = {r["input"]: r for r in t.to_records()}
    assert rec["batch_size"]["derivative_value"].to("GB/sample").magnitude == pytest.approx(6.0)   # P*b = 1.5e9*4 B
    assert str(rec["batch_size"]["derivative"]) == "P*b"


def test_derivative_through_composed_outputs():
    s = Scenarios.Gpt3CheckpointInterval10K
    d = s.diff("interval", "mtbf")
    M, P, b, Bw = (s.type.variable(n).symbol for n in ("mtbf", "parameters", "bytes_per_param", "write_bandwidth"))
    assert sympy.simplify(d - sympy.diff(sympy.sqrt(2 * M * P * b / Bw), M)) == 0


# ---------------------------------------------------------------------- 2. one at a time and tornado
def test_one_at_a_time_sorted_by_swing_with_given_ranges():
    s = Scenarios.DpSgdPerExampleGradients
    t = s.one_at_a_time("per_batch", "GPT-2", ranges={"batch_size": (128, 1024), "bytes_per_param": ("2 B/param", "4 B/param")})
    rows = t.to_records()
    assert [r["input"] for r in rows][:2] == ["batch_size", "bytes_per_param"]
    # hand: 1.5e9*4*(1024-128) B and 1.5e9*256*(4-2) B
    assert rows[0]["swing"].to("B").magnitude == pytest.approx(1.5e9 * 4 * 896)
    assert rows[1]["swing"].to("B").magnitude == pytest.approx(1.5e9 * 256 * 2)
    assert rows[2]["low"].to("param/sample").magnitude == pytest.approx(1.35e9)   # default +-10 %


CASES = Path(__file__).parent / "data" / "tornado_cases.toml"


@pytest.fixture(scope="module")
def case():
    """y = r w (1 + z) f k at r = 2 GB/s, w = 1 in [1, inf), z = 3 in [0, 3], f = 1 in [0, 1], mode mid (k = 2 of
    slow 1, mid 2, fast 4): 16 GB/s; v = r / (4 - k) has no value in the fast mode (tests/data/tornado_cases.toml)."""
    return load_derivations(CASES).scenario("TornadoCase")


#: By hand from y = 16 GB/s (every input a factor): input, low, high (declared units or options), outputs at them
#: (GB/s) and the extent the bars span.  A side that cannot move holds the value and gives the baseline.
PRODUCT = [
    ("mode", "slow", "fast", 8.0, 32.0, 24.0),          # the options declared next to mid
    ("width", 1, 2, 16.0, 32.0, 16.0),                  # 0 is no width: up only, by a whole step (+100 %)
    ("stage", 2, 3, 12.0, 16.0, 4.0),                   # 4 is outside [0, 3]: down only
    ("rate", 1.8, 2.2, 14.4, 17.6, 3.2),                # -/+ 10 %
    ("share", 0.9, 1.0, 14.4, 16.0, 1.6),               # 1.1 is outside [0, 1]: down only
]


def _plain(value):
    return value if isinstance(value, str) else value.magnitude


def test_one_at_a_time_moves_each_kind_to_valid_neighbours_sorted_by_extent(case):
    t = case.one_at_a_time("product")
    assert [r["input"] for r in t] == [row[0] for row in PRODUCT]
    for r, (name, low, high, y_low, y_high, extent) in zip(t, PRODUCT):
        assert (_plain(r["low"]), _plain(r["high"])) == (pytest.approx(low), pytest.approx(high)) if name != "mode" else (low, high)
        assert r["output_low"].to("GB/s").magnitude == pytest.approx(y_low), name
        assert r["output_high"].to("GB/s").magnitude == pytest.approx(y_high), name
        assert r["extent"].to("GB/s").magnitude == pytest.approx(extent), name
        assert r["baseline"].to("GB/s").magnitude == pytest.approx(16.0)
    assert t.note == "inputs ±10 %; mode mid → slow, fast; width 1 → 2; stage 3 → 2; share 1 → 0.9"


@pytest.mark.parametrize(("options", "note"), [
    # z 3 - 50 % is 1.5: a half rounds away from the value, to 1 (y 8 GB/s, extent 8 as share's 1 -> 0.5: by name)
    ({"pct": 50}, "inputs ±50 %; mode mid → slow, fast; width 1 → 2; share 1 → 0.5; stage 3 → 1"),
    ({"ranges": {"mode": ("slow", "fast"), "rate": ("1 GB/s", "3 GB/s")}, "inputs": ["mode", "rate", "width"]},
     "mode mid → slow, fast (given); rate 2 → 1, 3 GB/s (given); width 1 → 2"),
    ({"inputs": ["rate"]}, "inputs ±10 %"),
])
def test_one_at_a_time_note_says_what_moved_by_how_much(case, options, note):
    assert case.one_at_a_time("product", **options).note == note


def test_a_choice_without_a_value_at_an_option_moves_to_the_other_side(case):
    """v = r / (4 - k): 2 / (4 - 2) = 1 GB/s in mid, 2 / 3 GB/s in slow, no value in fast (k = 4)."""
    t = case.one_at_a_time("pole")
    mode = next(r for r in t if r["input"] == "mode")
    assert (mode["low"], mode["high"]) == ("slow", "mid")
    assert mode["output_low"].to("GB/s").magnitude == pytest.approx(2 / 3)
    assert mode["output_high"].to("GB/s").magnitude == pytest.approx(1.0)
    assert t.note == "inputs ±10 %; mode mid → slow (fast has no value)"


def test_one_at_a_time_refuses_a_range_of_unknown_options(case):
    with pytest.raises(InputError, match=r"ranges\['mode'\]: expected options of mode \(slow, mid, fast\), got 'turbo'"):
        case.one_at_a_time("product", ranges={"mode": ("slow", "turbo")})


def test_catalog_moves_stay_in_each_inputs_domain():
    """Training memory at ZeRO stage 3 (the solvers notebook's tornado): stage 3 of [0, 3] moves to 2 only, the widths
    of 1 up only, the trainable share of 1 down only; every moved value is inside its domain, whole where whole."""
    from mlsysim_symbolic.solvers import TrainingMemoryModel

    s = TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, dp_size=8, zero_stage=3).scenario
    t = s.one_at_a_time("total_memory")
    args = s.planner.plan("total_memory").args
    rows = {r["input"]: r for r in t}
    for name, r in rows.items():
        if isinstance(r["value"], str):
            options = s.type.inputs[name].options
            assert r["low"] in options and r["high"] in options
            continue
        var = s.planner.resolve(name, args)[1]
        for side in ("low", "high"):
            v = r[side].to(var.unit).magnitude
            assert var.domain.contains(v), (name, side, v)
            assert not var.integer or v == int(v), (name, side, v)
    assert [(_plain(rows[n]["low"]), _plain(rows[n]["high"])) for n in ("zero_stage", "tp_size", "trainable_fraction")] == [
        (2, 3), (1, 2), (pytest.approx(0.9), 1)]
    assert (rows["precision"]["low"], rows["precision"]["high"]) == ("bf16", "fp8")   # fp16's neighbours in the options
    extents = [r["extent"].magnitude for r in t]
    assert extents == sorted(extents, reverse=True)
    assert "zero_stage 3 → 2; tp_size 1 → 2" in t.note


def test_one_at_a_time_rejects_unknown_ranges():
    with pytest.raises(InputError, match="not an input"):
        Scenarios.DpSgdPerExampleGradients.one_at_a_time("per_batch", "GPT-2", ranges={"nope": (1, 2)})


def test_tornado_figure_saves(tmp_path):
    fig = Scenarios.Llama3_70B_ServingH100.tornado("itl", pct=20)
    path = tmp_path / "tornado.png"
    fig.savefig(path)
    assert path.stat().st_size > 1000
    ax = fig.axes[0]
    assert "itl" in ax.get_xlabel() and "[ms]" in ax.get_xlabel()
    # a bar for each side an input moved: batch_size 1 moves up only (to 2 requests), every other input both ways
    table = Scenarios.Llama3_70B_ServingH100.one_at_a_time("itl", pct=20)
    assert len(ax.patches) == 2 * len(table) - 1
    assert "batch_size 1 → 2 request" in table.note


# ---------------------------------------------------------------------- 5. global sensitivity (SALib)
def test_sobol_on_ishigami_matches_the_analytic_indices():
    """Ishigami & Homma (1990), a=7, b=0.1: S1 = (0.3139, 0.4424, 0), ST = (0.5576, 0.4424, 0.2437)."""
    from SALib.test_functions import Ishigami

    bounds = [(-math.pi, math.pi)] * 3
    t = sobol_indices(Ishigami.evaluate, ["x1", "x2", "x3"], bounds, n=8192, seed=1)
    got = {r["input"]: r for r in t}
    for name, s1, st in [("x1", 0.3139, 0.5576), ("x2", 0.4424, 0.4424), ("x3", 0.0, 0.2437)]:
        assert got[name]["S1"] == pytest.approx(s1, abs=0.03)
        assert got[name]["ST"] == pytest.approx(st, abs=0.03)


def test_sobol_of_a_sum_equals_the_variance_shares():
    """round_time = K*t_step + t_v with independent uniforms: S1_i = Var_i / sum Var.
    Var(t_v) = (1 ms)^2/12, Var(4 * t_step) = (4 * 0.05 ms)^2/12, so S1 = 1/1.04 and 0.04/1.04."""
    s = Scenarios.Gpt2XlSpeculativeGpt2SmallH100
    t = s.sobol("round_time", ranges={"verify_time": ("0.5 ms", "1.5 ms"), "draft_step": ("0.05 ms", "0.1 ms")}, n=4096, seed=2)
    got = {r["input"]: r for r in t}
    assert got["verify_time"]["S1"] == pytest.approx(1 / 1.04, abs=0.02)
    assert got["draft_step"]["S1"] == pytest.approx(0.04 / 1.04, abs=0.02)
    assert got["verify_time"]["ST"] == pytest.approx(1 / 1.04, abs=0.02)


def test_morris_of_a_linear_output_is_exact():
    """For y = 4 t_step + t_v every elementary effect equals coefficient x range (in ms): mu* = (1.0, 0.2), sigma = 0."""
    s = Scenarios.Gpt2XlSpeculativeGpt2SmallH100
    t = s.morris("round_time", ranges={"verify_time": ("0.5 ms", "1.5 ms"), "draft_step": ("0.05 ms", "0.1 ms")}, n=20, seed=3)
    got = {r["input"]: r for r in t}
    assert got["verify_time"]["mu_star"] == pytest.approx(1.0, rel=1e-9)
    assert got["draft_step"]["mu_star"] == pytest.approx(0.2, rel=1e-9)
    assert got["verify_time"]["sigma"] == pytest.approx(0.0, abs=1e-9)


def test_morris_on_ishigami_screens_every_input_as_nonlinear():
    from SALib.test_functions import Ishigami

    t = morris_indices(Ishigami.evaluate, ["x1", "x2", "x3"], [(-math.pi, math.pi)] * 3, n=200, seed=4)
    assert [r["input"] for r in t][0] in ("x1", "x2")
    assert all(r["mu_star"] > 0 and r["sigma"] > 0 for r in t)   # every input acts non-linearly in Ishigami


def test_global_bad_ranges():
    s = Scenarios.DpSgdPerExampleGradients
    with pytest.raises(InputError, match="low < high"):
        s.sobol("per_batch", "GPT-2", ranges={"batch_size": (10, 1)})
    with pytest.raises(UnitError, match="bytes_per_param"):
        s.sobol("per_batch", "GPT-2", ranges={"bytes_per_param": ("1 s", "2 s")})
    with pytest.raises(InputError, match="needs ranges"):
        s.sobol("per_batch", "GPT-2", ranges={})


# ---------------------------------------------------------------------- 6. uncertainty
def test_linear_and_monte_carlo_agree_for_a_nearly_linear_output():
    s = Scenarios.DpSgdPerExampleGradients
    u = s.uncertainty("per_batch", "GPT-2", inputs={"batch_size": ("normal", 256, 2), "bytes_per_param": ("normal", "4 B/param", "0.01 B/param")},
                      samples=200_000, seed=5)
    # hand: relative sd = sqrt((2/256)^2 + (0.01/4)^2); mean 1.536e12 B
    rel = math.hypot(2 / 256, 0.01 / 4)
    assert u.linear_sd.to("B").magnitude == pytest.approx(1.536e12 * rel, rel=1e-9)
    assert u.linear_mean.to("B").magnitude == pytest.approx(1.536e12)
    assert u.sd_ratio == pytest.approx(1.0, abs=0.02)
    assert u.mc_mean.to("B").magnitude == pytest.approx(1.536e12, rel=1e-3)


def test_linear_and_monte_carlo_disagree_for_a_strongly_nonlinear_output():
    """All-up availability a^N with N = 10,000 and a spread over (0.9995, 0.99999): a^N is strongly convex in a,
    so the linearisation at the mean misses the spread and the mean (Jensen: E[a^N] > (E a)^N)."""
    s = Scenarios.GpuAvailability10K
    u = s.uncertainty("all_up", inputs={"availability": (0.9995, 0.99999)}, samples=100_000, seed=6)
    assert abs(math.log(u.sd_ratio)) > math.log(1.5)
    mean_a = (0.9995 + 0.99999) / 2
    assert u.linear_mean.magnitude == pytest.approx(mean_a**10_000, rel=1e-9)
    # exact E[a^N] for a ~ U(l, h): (h^(N+1) - l^(N+1)) / ((N+1)(h-l))
    exact = (0.99999**10_001 - 0.9995**10_001) / (10_001 * (0.99999 - 0.9995))
    assert u.mc_mean.magnitude == pytest.approx(exact, rel=0.01)
    assert u.mc_mean.magnitude > 2 * u.linear_mean.magnitude
    assert u.mc_p95.magnitude <= 1.0
    shares = u.contributions.to_records()
    assert shares[0]["input"] == "availability" and shares[0]["variance_share"] == pytest.approx(1.0)


def test_uncertainty_bad_specs():
    s = Scenarios.DpSgdPerExampleGradients
    with pytest.raises(InputError, match="normal distribution takes 2"):
        s.uncertainty("per_batch", "GPT-2", inputs={"batch_size": ("normal", 256)})
    with pytest.raises(InputError, match="low must be below high"):
        s.uncertainty("per_batch", "GPT-2", inputs={"batch_size": (300, 200)})


# ---------------------------------------------------------------------- 7. plain data
def test_tables_are_plain_data_with_units():
    t = Scenarios.DpSgdPerExampleGradients.one_at_a_time("per_batch", "GPT-2")
    records = t.to_records()
    assert isinstance(records, list) and isinstance(records[0], dict)
    assert str(records[0]["swing"].units) == "B"
    df = t.to_pandas()
    assert "swing [B]" in df.columns
    assert df["swing [B]"].iloc[0] == pytest.approx(records[0]["swing"].magnitude)
    assert "<table>" in t._repr_html_()
    assert isinstance(t, Table) and len(t) == 3


def test_one_at_a_time_of_a_predicate_moves_its_slack():
    """A predicate's tornado is its slack's (``pays``: full_time − selection_time − subset_time, by hand 8 − 10 − 2 =
    −4 h; selection_time ±10 % moves it to −3 h and −5 h).  Its planned slack used to carry a text kind, and the
    analysis failed with an AttributeError deep in the sweep."""
    from mlsysim_symbolic import Scenarios

    lines = str(Scenarios.ExpensiveSelectionPitfall.one_at_a_time("pays")).splitlines()
    selection = next(line for line in lines if line.startswith("selection_time")).split()
    assert selection[1:9] == ["10", "h", "9", "h", "11", "h", "-3", "h"] and selection[9:11] == ["-5", "h"], selection
    assert selection[-2:] == ["-4", "h"]   # the baseline slack


# ---------------------------------------------------------------------- how a table shows a number (issue 37)
@pytest.mark.parametrize("value,text,html_cell", [   # written by hand: 4 significant figures, typeset units
    (Q_(3852.1231488, "GB"), "3852 GB", "3852 GB"),
    (Q_(322.122547, "GB*token**2/B/sample"), "322.1 GB·token²/B/sample", "322.1 GB token<sup>2</sup>/(B sample)"),
    (Q_(5, "B*sample/token**2"), "5 B·sample/token²", "5 B sample/token<sup>2</sup>"),
    (Q_(0.046306754009487236, "ms/token"), "0.04631 ms/token", "0.04631 ms/token"),
    (1.0139177108127244, "1.014", "1.014"),
])
def test_a_table_cell_shows_four_significant_figures_and_typeset_units(value, text, html_cell):
    table = Table(("input", "value"), [{"input": "x", "value": value}])
    assert str(table).splitlines()[1] == f"x      {text}"
    assert f"<td>{html_cell}</td>" in table._repr_html_()


# ---------------------------------------------------------------------- how Jupyter shows a value (issue 37)
@pytest.mark.parametrize("value,html_text,latex,pretty", [   # written by hand: 4 significant figures, typeset units
    (Q_(3852.1231488, "GB"), "3852 GB", r"$3852\ \mathrm{GB}$", "3852 GB"),
    (Q_(1.3969838619232178, "TiB"), "1.397 TiB", r"$1.397\ \mathrm{TiB}$", "1.397 TiB"),
    (Q_(1.536e12, "B"), "1.536×10<sup>12</sup> B", r"$1.536\times 10^{12}\ \mathrm{B}$", "1.536×10¹² B"),
    (Q_(17.179869184, "GB/s**2"), "17.18 GB/s<sup>2</sup>", r"$17.18\ \frac{\mathrm{GB}}{\mathrm{s}^{2}}$", "17.18 GB/s²"),
])
def test_a_returned_quantity_shows_four_significant_figures_in_a_notebook(value, html_text, latex, pretty):
    """What Jupyter and IPython show of a scalar Quantity (HTML, LaTeX, IPython's text); ``str`` and ``repr`` keep
    pint's full precision, which code and mlsysim's pages print."""
    shown: list[str] = []

    class Printer:
        def text(self, text: str) -> None:
            shown.append(text)

    value._repr_pretty_(Printer(), False)
    assert (value._repr_html_(), value._repr_latex_(), shown) == (html_text, latex, [pretty])
    assert str(value).split()[0] == repr(value.magnitude)   # full precision
    arrays = Q_(np.array([1.23456789, 2.0]), "GB")._repr_html_()
    assert "1.23456789" in arrays   # an array keeps pint's own table


def test_a_solver_result_shows_four_significant_figures_in_a_notebook():
    """SingleNodeModel on ResNet-50 / A100 at batch 1 showed mfu 0.046306754009487236 in the solvers notebook."""
    from mlsysim_symbolic.solvers import SingleNodeModel

    r = SingleNodeModel().solve("ResNet50", "A100", batch_size=1)
    page = r._repr_html_()
    assert f"<td>mfu</td><td>{r.mfu:.4g}</td>" in page and repr(r.mfu) not in page
    assert "<td>bottleneck</td><td>&#x27;Compute&#x27;</td>" in page
