"""Sweeps, chunked reductions, Dask, and inverse questions on catalog scenarios.

Expected values are hand computations (P*b*B with the published parameter counts,
C/(T R eta) with GPT-3's published training compute) or the scenario's own defining
equation checked at the answer.
"""

import math
import tracemalloc

import numpy as np
import pytest
import sympy

from mlsysim_symbolic import InputError, Scenarios, UnitError
from mlsysim_symbolic.sweep import reduce_sweep, sweep
from mlsysim_symbolic.units import Q_

S = Scenarios.DpSgdPerExampleGradients


# ---------------------------------------------------------------------- 3. sweeps
def test_one_input_sweep():
    r = S.sweep("per_batch", "GPT-2", batch_size=range(1, 5))
    assert str(r.values.units) == "B"
    np.testing.assert_allclose(r.values.magnitude, [6e9 * b for b in range(1, 5)], rtol=1e-15)
    assert list(r.axes["batch_size"].magnitude) == [1, 2, 3, 4]


def test_two_input_grid_broadcasts_one_axis_per_input():
    r = S.sweep("per_batch", "GPT-2", batch_size=[1, 8, 64], bytes_per_param=Q_([1, 2, 4], "B/param"))
    assert r.values.shape == (3, 3)
    assert r.values[2, 1].to("B").magnitude == pytest.approx(1.5e9 * 2 * 64)
    assert len(r.to_records()) == 9


def test_sweep_accepts_units_and_text():
    r = S.sweep("per_batch", "GPT-2", bytes_per_param=["16 bit/param", "2 B/param", "fp32"])
    np.testing.assert_allclose(r.values.to("GB").magnitude, [768, 768, 1536])


def test_sweep_rejects_bad_values():
    with pytest.raises(InputError, match="whole numbers"):
        S.sweep("per_batch", "GPT-2", batch_size=[1.5])
    with pytest.raises(InputError, match="batch_size"):
        S.sweep("per_batch", "GPT-2", batch_size=[0, 1])
    with pytest.raises(UnitError, match="bytes_per_param"):
        S.sweep("per_batch", "GPT-2", bytes_per_param=Q_([1, 2], "s"))
    with pytest.raises(KeyError, match="not an input"):
        S.sweep("per_batch", "GPT-2", batchsize=[1])


def test_integer_inputs_do_not_overflow_in_a_sweep():
    big = [2**40, 2**52]
    r = S.sweep("per_batch", "GPT-2", batch_size=big)
    np.testing.assert_allclose(r.values.magnitude, [6e9 * b for b in big], rtol=1e-15)


def test_plots_have_labelled_axes_and_units(tmp_path):
    fig = S.sweep("per_batch", "GPT-2", batch_size=range(1, 65)).plot()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "batch_size [sample]" and ax.get_ylabel() == "per_batch [GB]"   # 6 .. 384 GB: a readable prefix
    fig2 = S.sweep("per_batch", "GPT-2", batch_size=range(1, 65), bytes_per_param=[1, 2, 4]).plot()
    assert fig2.axes[0].get_ylabel() == "batch_size [sample]"
    assert fig2.axes[1].get_ylabel() == "per_batch [GB]"     # the colour bar
    fig2.savefig(tmp_path / "heat.png")


def test_feasible_region_counts_by_hand():
    """Points of batch 1..1024 x b in {1, 2, 4} B with 1.5e9 b B <= 80 GB: floor(80/1.5/b) = 53 + 26 + 13 = 92."""
    r = reduce_sweep(S, "per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 1025), bytes_per_param=[1, 2, 4], chunk=500)
    assert r.feasible == 92 and r.points == 3072 and r.chunks == 7
    assert r.bounds["batch_size"][1].magnitude == 53


def test_chunked_reduction_over_1e8_points_stays_bounded():
    """min and argmax over a 10,000 x 10,000 grid without holding 1e8 values (800 MB as float64)."""
    tracemalloc.start()
    r = reduce_sweep(S, "per_batch", "GPT-2", reduce="argmax", batch_size=range(1, 10_001),
                     bytes_per_param=np.linspace(0.5, 8, 10_000), chunk=1 << 20)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert r.points == 10**8
    assert peak < 120e6, peak                        # a few chunk-sized arrays, far below 800 MB
    assert r.value.to("B").magnitude == pytest.approx(1.5e9 * 8 * 10_000)
    assert r.at["batch_size"].magnitude == 10_000 and r.at["bytes_per_param"].magnitude == 8


def test_dask_backend_gives_the_same_answers():
    pytest.importorskip("dask.array")
    grid = {"batch_size": range(1, 301), "bytes_per_param": [1, 2, 4]}
    lazy = sweep(S, "per_batch", "GPT-2", backend="dask", chunks=64, **grid)
    eager = sweep(S, "per_batch", "GPT-2", **grid)
    np.testing.assert_allclose(np.asarray(lazy.values.magnitude.compute()), eager.values.magnitude)
    r1 = reduce_sweep(S, "per_batch", "GPT-2", reduce="feasible", limit="80 GB", backend="dask", chunk=100, **grid)
    r2 = reduce_sweep(S, "per_batch", "GPT-2", reduce="feasible", limit="80 GB", **grid)
    assert r1.feasible == r2.feasible == 53 + 26 + 13


# ---------------------------------------------------------------------- 4. inverse questions
def test_largest_batch_that_fits_in_80_gb():
    r = S.solve("per_batch", "batch_size", "80 GB", "GPT-2")
    assert r.method == "closed form"
    M, P, b = sympy.Symbol("M_batch", real=True), sympy.Symbol("P", positive=True), sympy.Symbol("b", positive=True)
    assert str(r.expression) == "M_batch/(P*b)"
    assert r.exact.magnitude == pytest.approx(80e9 / 6e9)
    assert r.value == 13                       # floor: 14 would need 84 GB
    assert S.variant(batch_size=r.value).per_batch("GPT-2") <= Q_(80, "GB") < S.variant(batch_size=r.value + 1).per_batch("GPT-2")
    del M, P, b


def test_fewest_devices_that_finish_in_30_days():
    """N = C / (T R eta) with C = 3.14e23 flop (GPT-3), R = 312 TFLOP/s (A100), eta = 0.45, T = 30 d."""
    s = Scenarios.Gpt3TrainingTime1KA100
    r = s.solve("training_time", "n_devices", "30 d")
    exact = 3.14e23 / (30 * 86400 * 312e12 * 0.45)
    assert r.exact.magnitude == pytest.approx(exact, rel=1e-12)
    assert r.value == math.ceil(exact) == 863                  # ceil: 862 devices would take longer than 30 days
    assert s.variant(n_devices=r.value).training_time <= Q_(30, "d") < s.variant(n_devices=r.value - 1).training_time


def test_numeric_fallback_is_declared():
    s = Scenarios.Llama3_70B_ServingH100
    r = s.solve("ttft", "seq_len", "1 s")          # new_tokens = max(1, S - S_c): no closed form is attempted
    assert r.method == "numeric (bisection)" and "numeric" in r.note
    lo = s.variant(seq_len=r.value).ttft
    hi = s.variant(seq_len=r.value + 1).ttft
    assert lo <= Q_(1, "s") < hi


def test_young_daly_interval_recovered_symbolically():
    """d(delta/tau + tau/(2M))/dtau = 0  =>  tau* = sqrt(2 delta M) (Young 1974; Daly 2006)."""
    s = Scenarios.Gpt3CheckpointInterval10K
    opt = s.optimum("waste_at", "tau", expand=False)
    delta, M = sympy.Symbol("delta", real=True), s.type.variable("mtbf").symbol
    delta = next(x for x in opt.expression.free_symbols if x.name == "delta")
    assert sympy.simplify(opt.expression - sympy.sqrt(2 * delta * M)) == 0
    full = s.optimum("waste_at", "tau")
    assert sympy.simplify(full.expression - s.expression("interval", expand=True)) == 0
    # hand: delta = 175e9 * 14 B / 100 GB/s = 24.5 s; M = 3.87 h
    assert full.exact.to("s").magnitude == pytest.approx(math.sqrt(2 * 24.5 * 3.87 * 3600), rel=1e-12)


def test_solve_bad_input():
    with pytest.raises(UnitError, match="target"):
        S.solve("per_batch", "batch_size", "80 s", "GPT-2")
    with pytest.raises(KeyError, match="not an input"):
        S.solve("per_batch", "nope", "80 GB", "GPT-2")


def test_decode_sweep_crosses_the_roofline_ridge():
    """Llama-2-70B decode on H100 at fp16: I = 2 flop/param * B / 2 B/param = B flop/B, attainable = min(989, 3.35 B) TFLOP/s."""
    s = Scenarios.Llama2_70B_DecodeH100
    r = s.sweep("attainable_flops", batch_size=[1, 100, 300, 1000])
    np.testing.assert_allclose(r.values.to("TFLOP/s").magnitude, [3.35, 335.0, 989.0, 989.0], rtol=1e-12)
    half = s.solve("attainable_flops", "batch_size", "500 TFLOP/s", sense=">=")   # below the ridge: 3.35 B = 500
    assert half.method == "numeric (bisection)"
    assert half.exact.magnitude == pytest.approx(500 / 3.35, rel=1e-9)
    assert half.value == math.ceil(500 / 3.35) == 150          # ceil: the fewest requests that reach 500 TFLOP/s


def test_a_proportional_output_swept_over_a_range_equals_the_general_path():
    """per_batch = B·(P·b) is evaluated in the range's own buffer (one array, as hand-written numpy); the values
    equal the general path's (a list takes it) to the last bit, and an overflow is still refused by name."""
    from mlsysim_symbolic import InputError, Scenarios

    s = Scenarios.DpSgdPerExampleGradients
    fast = s.sweep("per_batch", "GPT-2", batch_size=range(1, 2049, 3)).values.to("B").magnitude
    general = s.sweep("per_batch", "GPT-2", batch_size=list(range(1, 2049, 3))).values.to("B").magnitude
    assert np.array_equal(fast, general) and fast[0] == 1.5e9 * 4 and fast[-1] == 1.5e9 * 4 * 2047   # P·b·B by hand
    waste = Scenarios.Gpt3CheckpointInterval10K       # not proportional to tau: the general path
    swept = waste.sweep("waste_at", tau=range(600, 3601, 600)).values.magnitude
    assert np.allclose(swept, [waste.waste_at(tau=f"{t} s").magnitude for t in range(600, 3601, 600)], rtol=1e-12, atol=0)
    with pytest.raises(InputError, match="per_batch overflows float64"):
        s.sweep("per_batch", "GPT-2", batch_size=range(10**299, 10**299 + 2))
