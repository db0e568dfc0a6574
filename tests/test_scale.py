"""Integer and scale safety: frontier FLOPs near 1e30, per-bit energies near 1e-9 J, 2**62-sized
integer sweeps, exact unit conversions, and floor/ceil outputs on exact boundaries.

Every expected value is computed here with exact rationals (``Fraction``) from the decimal
inputs as written, then rounded once to float64; the compiled path must land within a few
ulps of it (a handful of correctly rounded operations), and floor/ceil must give the integer
that the decimal inputs mean.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlsysim_symbolic import InputError, Scenarios
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.units import Q_, base_ratio, convert, from_base, parse_quantity, parse_unit, to_base

CLASSES = catalog().classes
GPT2 = Scenarios.DpSgdPerExampleGradients          # per_batch = P * b * B, P = 1.5e9 (GPT-2), b = 4 B


def ulps(got: float, exact: F) -> float:
    """Distance of ``got`` from the exact value, in ulps of the correctly rounded value."""
    nearest = float(exact)
    return abs(F(got) - exact) / F(math.ulp(nearest))


# ---------------------------------------------------------------------- exact conversions
#: unit -> its factor to base units (byte, second, flop, joule...), written out by hand.
RATIOS = {
    "GB": F(10**9), "GiB": F(2**30), "MB": F(10**6), "ms": F(1, 1000), "us": F(1, 10**6), "h": F(3600),
    "d": F(86400), "min": F(60), "TFLOP/s": F(10**12), "PFLOP": F(10**15), "pJ/bit": F(8, 10**12),
    "pJ/B": F(1, 10**12), "Gbit/s": F(10**9, 8), "GB/h": F(10**9, 3600), "%": F(1, 100), "kWh": F(3_600_000),
    "nJ/bit": F(8, 10**9), "TB/s": F(10**12),
}


@pytest.mark.parametrize("unit, ratio", RATIOS.items(), ids=list(RATIOS))
def test_unit_factors_are_exact_rationals(unit, ratio):
    assert base_ratio(parse_unit(unit)) == ratio


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(unit=st.sampled_from(sorted(RATIOS)), mantissa=st.integers(1, 10**15 - 1), exponent=st.integers(-20, 20))
def test_decimal_inputs_reach_base_units_correctly_rounded(unit, mantissa, exponent):
    """``<decimal> <unit>`` becomes the float nearest its exact base-unit value (one rounding, not two)."""
    text = f"{mantissa}e{exponent}"
    magnitude = float(text)
    exact = F(text) * RATIOS[unit]
    assert to_base(magnitude, parse_unit(unit)) == float(exact)
    back = from_base(float(exact), parse_unit(unit))
    assert ulps(back, F(text)) <= 1


@pytest.mark.parametrize("text, unit, expected", [
    ("9 ms", "s", F(9, 1000)),                 # pint's 9 * 0.001 is 0.009000000000000001
    ("15e9 B", "GB", F(15)),                  # 15e9 * 1e-9 is 15.000000000000002
    ("80 GB", "GiB", F(80 * 10**9, 2**30)),
    ("0.29 h", "s", F(29 * 36)),
    ("35 pJ/bit", "J/B", F(35 * 8, 10**12)),
    ("200 Gbps", "B/s", F(25 * 10**9)),
])
def test_conversion_between_units_is_correctly_rounded(text, unit, expected):
    q = parse_quantity(text)
    assert convert(q.magnitude, q.units, parse_unit(unit)) == float(expected)


def test_an_output_in_gb_is_not_off_by_an_ulp():
    """15e9 B of weights is 15 GB, not 15.000000000000002 GB (the base value is scaled by / 10**9, not * 1e-9)."""
    s = CLASSES["KvDecodeBatchScenario"](
        workload={"name": "toy", "parameters": 7.5e9, "layers": 10, "hidden_dim": 1024, "heads": 8, "kv_heads": 8, "head_dim": 128},
        hardware={"name": "toy", "memory_capacity": "80 GB", "memory_bandwidth": "2 TB/s", "precision_flops": {"fp16_dense": "1 PFLOP/s"}},
        weight_bytes_per_param="2 B/param", kv_bytes_per_value="2 B", context_tokens=1000, batch_sizes=[1],
        prompt_tokens=512, prefill_efficiency=0.5)
    assert s.weights.magnitude == 15.0 and str(s.weights.units) == "GB"


# ---------------------------------------------------------------------- large and small values
FRONTIER = dict(
    workload={"name": "frontier", "training_ops": "1.2e30 FLOP", "parameters": 1.8e12},
    hardware={"name": "accelerator", "peak_flops": "989.4 TFLOP/s", "tdp": "700 W"},
    n_devices=100_000, efficiency=0.4, tokens_per_step=16_777_216, hourly_price="2.5 USD/h")


def test_frontier_flops_keep_float64_precision():
    s = CLASSES["ClusterTrainingTimeScenario"](**FRONTIER)
    C, P, N, R, eta, k = F("1.2e30"), F("1.8e12"), F(100_000), F("989.4e12"), F("0.4"), F(6)
    seconds = C / (N * R * eta)
    assert ulps(s.training_time.magnitude, seconds / 86400) <= 4
    assert str(s.training_time.units) == "d"
    assert ulps(s.training_tokens.magnitude, C / (k * P)) <= 4                  # 1.1e17 tokens
    assert ulps(s.delivered_rate.magnitude, N * R * eta / 10**12) <= 4          # TFLOP/s
    assert ulps(s.step_operations.magnitude, k * P * 16_777_216 / 10**12) <= 4  # TFLOP of one step (1.8e29 FLOP)
    assert ulps(s.steps.magnitude, C / (k * P * 16_777_216)) <= 4
    kwh = N * F(700) * seconds / 3_600_000
    assert ulps(s.energy.magnitude, kwh) <= 8


@pytest.mark.parametrize("energy_per_bit, expected_per_byte", [
    ("1e-9 J/bit", F(8, 10**9)),
    ("0.7 pJ/bit", F(56, 10**13)),
    ("35 pJ/bit", F(280, 10**12)),
])
def test_per_bit_energy_keeps_float64_precision(energy_per_bit, expected_per_byte):
    """energy_per_step = 2 * gradient bytes * energy per bit; with 1 kB and 350 GB of gradients (1e-5 J to 1e3 J)."""
    for size, size_bytes in (("1 kB", F(1000)), ("350 GB", F(350 * 10**9))):
        s = CLASSES["GradientSyncScenario"](
            workload={"name": "model", "parameters": 1.0, "model_size": size}, precision="fp16",
            links={"ib": "200 Gbps"}, compute_time="1 s", energy_per_bit=energy_per_bit, steps=1)
        exact = 2 * size_bytes * expected_per_byte
        assert s.energy_per_step.units == parse_unit("J")
        assert ulps(s.energy_per_step.magnitude, exact) <= 2
        assert ulps(s.energy_total.magnitude, exact) <= 2


def test_a_big_integer_input_is_bound_exactly():
    s = GPT2.variant(batch_size=2**62 + 1)
    bound = s.inputs["batch_size"]   # a batch is samples, a counted kind: a Quantity with an exact int magnitude
    assert bound.magnitude == 2**62 + 1 and isinstance(bound.magnitude, int) and str(bound.units) == "sample"
    assert ulps(s.per_batch("GPT-2").magnitude, F(6 * 10**9) * (2**62 + 1)) <= 1
    assert GPT2.variant(batch_size=np.int64(2**62)).inputs["batch_size"].magnitude == 2**62


@pytest.mark.parametrize("values", [
    [2**62, 2**62 + 2**11],
    np.array([2**62, 2**62 + 2**11, 2**63 - 2**10], dtype=np.int64),
    np.array([2**63 + 2**12, 2**64 - 2**12], dtype=np.uint64),
], ids=["python ints", "int64", "uint64"])
def test_integer_sweeps_do_not_overflow(values):
    """P*b*B over B near 2**62..2**64: float64 products (no int64 wraparound), each correctly rounded."""
    r = GPT2.sweep("per_batch", "GPT-2", batch_size=values)
    assert r.values.magnitude.dtype == np.float64
    for got, b in zip(r.values.magnitude, [int(v) for v in values]):
        assert got > 0 and ulps(float(got), F(6 * 10**9) * b) <= 1
    top = GPT2.reduce_sweep("per_batch", "GPT-2", reduce="max", batch_size=values)
    assert ulps(top.value.magnitude, F(6 * 10**9) * max(int(v) for v in values)) <= 1
    assert top.at["batch_size"].magnitude == float(max(int(v) for v in values))


def test_integers_beyond_uint64_are_refused_by_name():
    with pytest.raises(InputError, match="batch_size"):
        GPT2.sweep("per_batch", "GPT-2", batch_size=[2**70])


# ---------------------------------------------------------------------- floor and ceil on exact boundaries
def littles_law(**inputs):
    base = dict(arrival_rate="1000 request/s", time_in_system="100 ms", batch_size=8, batch_service_time="80 ms",
                utilization_target=0.8)
    return CLASSES["LittlesLawScenario"](**{**base, **inputs})


@pytest.mark.parametrize("ms", [9, 13, 18, 26, 36, 80])
def test_replicas_at_exactly_full_throughput(ms):
    """Batches of ``ms`` requests every ``ms`` milliseconds serve exactly 1000 request/s: 1000 request/s needs 1 replica
    (not 2), 3000 need 3; at a utilization target of 0.5, twice as many."""
    for rate, replicas in ((1000, 1), (3000, 3)):
        s = littles_law(arrival_rate=f"{rate} request/s", batch_size=ms, batch_service_time=f"{ms} ms", utilization_target=0.5)
        assert s.throughput_floor.magnitude == replicas
        assert s.replicas_needed.magnitude == 2 * replicas
        assert s.executing_positions.magnitude == 2 * replicas * ms


def test_vision_serving_littles_law_boundary():
    """1000 request/s x 80 ms / 8 per batch = exactly 10 replicas at full load; 12.5 -> 13 at 80 %."""
    s = Scenarios.VisionServingLittlesLaw
    assert s.throughput_floor.magnitude == 10
    assert s.replicas_needed.magnitude == math.ceil(F(1000) / (F("0.8") * F(8) / F("0.080")))


TOY_MODEL = {"name": "toy", "parameters": 1e9, "layers": 10, "hidden_dim": 1024, "heads": 8, "kv_heads": 8}


@pytest.mark.parametrize("reserve, fits", [("0.176 GB", 1900), ("0.176000001 GB", 1899), ("0.135040 GB", 1901)])
def test_kv_admission_fits_a_whole_number_of_requests(reserve, fits):
    """80 GB - 2 GB of weights - the reserve, over 2*10 layers*8 heads*128*2 B*1000 tokens = 40.96 MB per request:
    77.824 GB holds exactly 1900 requests; one byte less holds 1899."""
    s = CLASSES["KvAdmissionScenario"](
        workload=TOY_MODEL, accelerators=1, hbm_per_accelerator="80 GB", weight_bytes_per_param="2 B/param",
        reserve=reserve, context_tokens=1000, kv_bytes_per_elem="2 B")
    per_request = F(2 * 10 * 8 * 128 * 2 * 1000)
    budget = F(80 * 10**9) - F(2 * 10**9) - F(reserve.split()[0]) * 10**9
    assert math.floor(budget / per_request) == fits          # the hand count
    assert s.head_dim == 128 or s.head_dim.magnitude == 128
    assert s.max_requests.magnitude == fits


@pytest.mark.parametrize("capacity, fits", [("79.824 GB", 1900), ("80 GB", 1904), ("79.82399 GB", 1899)])
def test_kv_decode_batch_in_memory_on_the_boundary(capacity, fits):
    """(C - W) / m_seq with W = 2 GB and m_seq = 40.96 MB: 77.824 GB of room holds exactly 1900 sequences."""
    s = CLASSES["KvDecodeBatchScenario"](
        workload={**TOY_MODEL, "head_dim": 128},
        hardware={"name": "toy", "memory_capacity": capacity, "memory_bandwidth": "2 TB/s", "precision_flops": {"fp16_dense": "1 PFLOP/s"}},
        weight_bytes_per_param="2 B/param", kv_bytes_per_value="2 B", context_tokens=1000, batch_sizes=[1],
        prompt_tokens=512, prefill_efficiency=0.5)
    assert math.floor((F(capacity.split()[0]) * 10**9 - 2 * 10**9) / F(40_960_000)) == fits
    assert s.max_batch_in_memory.magnitude == fits
    # within a step-time budget: (t * BW - W) / m_seq; (3.048 ms * 2 TB/s - 2 GB) / 40.96 MB = exactly 100 sequences
    for tpot, sequences in (("3.048 ms", 100), ("3.04799 ms", 99), ("40.96 ms", 1951)):
        assert math.floor((F(tpot.split()[0]) / 1000 * 2 * 10**12 - 2 * 10**9) / 40_960_000) == sequences
        assert s.max_batch_within(tpot).magnitude == sequences


def test_precision_dividend_max_batch_on_the_boundary():
    """Per device: 80 GB - 70e9 params * 2 B / 8 = 62.5 GB of room; 2*80 layers*8 kv heads*128*4096 tokens*2 B / 8
    = 167.77216 MB per request -> floor(372.529...) = 372; at 0.5 B/param weights and 1 B KV: 75.625 GB / 83.88608 MB."""
    s = CLASSES["PrecisionDividendScenario"](
        workload={"name": "70b", "parameters": 70e9, "layers": 80, "hidden_dim": 8192, "heads": 64}, tp_size=8,
        hbm_per_accelerator="80 GB", context_tokens=4096, kv_heads=8, weight_bytes="2 B/param",
        weight_bytes_low="0.5 B/param", kv_bytes="2 B", kv_bytes_low="1 B")
    room = F(80 * 10**9) - F(70 * 10**9) * 2 / 8
    per_request = F(2 * 80 * 8 * 128 * 4096 * 2, 8)
    assert s.max_batch.magnitude == math.floor(room / per_request)
    room_low = F(80 * 10**9) - F(70 * 10**9) * F(1, 2) / 8
    assert s.max_batch_low.magnitude == math.floor(room_low / (per_request / 2))


@pytest.mark.parametrize("epochs, dataset, batch, steps", [
    (60, 50_000, 4000, 750),
    (60, 50_001, 4000, 750),
    (3, 1000, 3, 1000),
    (7, 2**40, 2**20, 7 * 2**20),
    (7, 2**40 - 1, 2**20, 7 * 2**20 - 1),
])
def test_dp_sgd_steps_floor_on_the_boundary(epochs, dataset, batch, steps):
    s = Scenarios.Cifar10DpSgdRun.variant(epochs=epochs, dataset_size=dataset, batch_size=batch)
    assert math.floor(F(epochs * dataset, batch)) == steps
    assert s.steps.magnitude == steps


@pytest.mark.parametrize("rate, utilization, replicas", [(29, "0.29", 1), (57, "0.57", 1), (58, "0.58", 1), (116, "0.58", 2)])
def test_replicas_at_a_decimal_utilization(rate, utilization, replicas):
    """A 100 request/s replica at 29 % utilization takes exactly 29 request/s (0.29 * 100 is 28.999999999999996 in floats)."""
    s = littles_law(arrival_rate=f"{rate} request/s", batch_size=1, batch_service_time="10 ms", utilization_target=float(utilization))
    assert math.ceil(F(rate) / (F(utilization) * 100)) == replicas
    assert s.replicas_needed.magnitude == replicas


@pytest.mark.parametrize("batch, micro, count", [(512, 128, 4), (513, 128, 5), (2**40, 2**20, 2**20), (2**40 + 1, 2**20, 2**20 + 1)])
def test_microbatch_count_ceil(batch, micro, count):
    s = CLASSES["MicrobatchedDpSgdScenario"](models={"R": "ResNet18"}, batch_size=batch, microbatch_size=micro, bytes_per_param="4 B/param")
    assert s.num_microbatches.magnitude == count


@pytest.mark.parametrize("n, rounds", [(2, 2), (64, 12), (2**29, 58), (2**29 + 1, 60), (2**40, 80), (1000, 20)])
def test_tree_rounds_at_powers_of_two(n, rounds):
    """2 * ceil(log2(N)): exact at powers of two (log(2**29)/log(2) is 29.000000000000004 in floats)."""
    s = Scenarios.DdpBucketRingNdr.variant(group_sizes=[n])
    assert s.tree_rounds[n].magnitude == rounds


def test_ceil_snaps_only_within_a_few_ulps():
    """A value a few ulps above a whole number is that number; one a millionth above is not."""
    s = littles_law(arrival_rate="1000.000001 request/s", batch_size=9, batch_service_time="9 ms", utilization_target=1)
    assert s.throughput_floor.magnitude == 2
    sweep = littles_law(batch_size=9, batch_service_time="9 ms").sweep("throughput_floor", arrival_rate=Q_([1000, 1000.000001, 3000], "request/s"))
    assert list(sweep.values.magnitude) == [1, 2, 3]
