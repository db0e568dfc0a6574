"""The kept bindings (issue 29: a call never re-binds): the same inputs bound again restore one binding, and
nothing a binding keeps leaks into a scenario bound to other inputs.

Values are hand computations: a weight copy of P parameters at b bytes each is P·b (GPT-2: 1.5e9 param,
``derivations/workloads.toml``; DS-CNN: 2e5 param); a time to stream it at bandwidth W is P·b/W.
"""

from __future__ import annotations

import pytest

from mlsysim_symbolic.errors import InputError
from mlsysim_symbolic.plan.binding import _BINDINGS, _binding_key
from mlsysim_symbolic.registry import workloads
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import ScenarioType


@pytest.fixture(scope="module")
def Copy():
    t = ScenarioType.from_mapping("WeightCopy", {"summary": "x", "inputs": {
        "workload": {"kind": "workload", "symbols": {"P": {"attribute": "parameters"}}},
        "bytes_per_param": {"symbol": "b", "unit": "B/param"},
        "bandwidth": {"symbol": "W", "unit": "GB/s", "domain": "(-inf, inf)"}},
        "outputs": {"size": {"unit": "GB", "equation": "P * b"},
                    "time": {"unit": "s", "equation": "size / W"}}})
    return scenario_class(t)


def test_the_same_inputs_bound_again_restore_one_binding(Copy):
    first = Copy(workload="GPT2", bytes_per_param="2 B/param", bandwidth=100)
    assert first.size.to("GB").magnitude == pytest.approx(3.0, rel=1e-12)          # 1.5e9 * 2 B
    before = len(_BINDINGS)
    again = Copy(workload="GPT2", bytes_per_param="2 B/param", bandwidth=100)
    assert len(_BINDINGS) == before                                                # a hit, not a new binding
    assert again.time.to("s").magnitude == pytest.approx(0.03, rel=1e-12)          # 3 GB / 100 GB/s
    assert again.planner._bound is not first.planner._bound                        # each planner its own copy


def test_other_inputs_give_their_own_values(Copy):
    gpt2 = workloads()["GPT2"]
    a = Copy(workload=gpt2, bytes_per_param="4 B/param", bandwidth=100)
    b = Copy(workload="DS_CNN", bytes_per_param="4 B/param", bandwidth=100)
    c = Copy(workload=gpt2, bytes_per_param="4 B/param", bandwidth=50)
    assert a.size.to("GB").magnitude == pytest.approx(6.0, rel=1e-12)             # 1.5e9 * 4 B
    assert b.size.to("MB").magnitude == pytest.approx(0.8, rel=1e-12)             # 2e5 * 4 B
    assert (a.time.to("s").magnitude, c.time.to("s").magnitude) == pytest.approx((0.06, 0.12), rel=1e-12)
    assert a.variant(bandwidth=25).time.to("s").magnitude == pytest.approx(0.24, rel=1e-12)


def test_keys_tell_apart_what_compares_equal():
    """1 == 1.0 == True and 0.0 == -0.0 in Python; as inputs they differ (an int count, a flag, 1/x's sign)."""
    t = object()
    keys = {_binding_key(t, {"x": v}) for v in (1, 1.0, True, 0.0, -0.0)}
    assert len(keys) == 5
    assert _binding_key(t, {"x": {"a": 1}}) is None and _binding_key(t, {"x": [1]}) is None   # bound each time


def test_a_zero_bandwidth_is_refused_whichever_zero_came_first(Copy):
    """-0.0 GB/s after 0.0 GB/s and the reverse: each refused by name (no value), never answered from a kept binding."""
    for zero in (0.0, -0.0, 0.0):
        with pytest.raises(InputError) as info:
            _ = Copy(workload="GPT2", bytes_per_param="2 B/param", bandwidth=zero).time
        assert "bandwidth = 0 GB/s" in str(info.value) and "division by zero" in str(info.value)


def test_a_refused_binding_is_not_kept(Copy):
    before = len(_BINDINGS)
    for _ in range(2):   # refused both times: the error is not cached away
        with pytest.raises(InputError, match="bytes_per_param"):
            Copy(workload="GPT2", bytes_per_param="2 s", bandwidth=100)
    assert len(_BINDINGS) == before
