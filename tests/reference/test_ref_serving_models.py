"""mlsysim 0.3.0's serving solver Models against ours (derivations/serving_models.toml; issue 35).

mlsysim records no call of these Models from its named scenarios (``never_called`` in
``data/mlsysim_model_calls.json``), so each is held to mlsysim's own ``XModel().solve`` at the same arguments over
seeded generated configurations: mlsysim's registry objects and plain numbers passed to both, as mlsysim's code
passes them, and every field of mlsysim's result compared (:func:`~.members.compare_fields`: numbers at 1e-9
relative, booleans exactly).  The default tier draws a few configurations per Model; ``thorough`` draws more.
Where mlsysim raises on a bad argument ours raises a ValueError or TypeError of its own; where mlsysim answers an
argument ours excludes (the type's ``excludes``), ours refuses it by name.

- ``TailLatencyModel``: M/M/c waits (Erlang C) with Kingman's factor; the saturated queue (λ ≥ cμ) is mlsysim's
  infinite latencies, utilization 1 and headroom 1 (``result.infinite_when``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mlsysim_symbolic.errors import MlsysimSymbolicError
from mlsysim_symbolic.solvers import TailLatencyModel

from .lazy import reference
from .members import compare_fields

ref_solvers = reference("mlsysim.engine.solvers")

#: Configurations drawn per Model in the default tier, and in the thorough tier.
DEFAULT, THOROUGH = 6, 60


def _same(name: str, ours_cls: type, args: dict[str, Any], theirs_args: dict[str, Any] | None = None) -> int:
    """Ours equals mlsysim's at ``args`` (mlsysim's at ``theirs_args`` where its objects differ), every field."""
    theirs = getattr(ref_solvers, name)().solve(**(theirs_args if theirs_args is not None else args))
    ours = ours_cls().solve(**args)
    return compare_fields(ours, theirs, f"{name}({args})")


# ---------------------------------------------------------------------------------------------- TailLatencyModel
def tail_latency_draws(seed: int, n: int) -> list[dict[str, Any]]:
    """``n`` argument sets of TailLatencyModel: loads from idle to past saturation, 1 to 512 replicas, service
    times of a millisecond to ten seconds, service variability from deterministic (cv 0) to bursty (cv 3).  A load
    drawn at exactly ρ = 1 is left out: λ and cμ then agree to the last bit or two, and whether mlsysim's
    ``c * (1000/s)`` and our ``c/s`` in seconds round to either side of λ is a float tie (TAIL_FIXED holds an exact one)."""
    rng = random.Random(seed)
    draws = []
    for _ in range(n):
        c = rng.choice([1, 2, 3, 4, 8, 16, 64, 512])
        s = 10 ** rng.uniform(0, 4)
        rho = rng.choice([0.0, rng.uniform(0.01, 0.5), rng.uniform(0.5, 0.999), rng.uniform(1.0001, 2.0)])
        args = {"arrival_rate_qps": rho * c * 1000.0 / s, "service_latency_ms": s, "num_replicas": c}
        if rng.random() < 0.6:
            args["service_time_cv"] = rng.choice([0.0, 0.5, 1.0, 2.0, rng.uniform(0, 3)])
        draws.append(args)
    return draws


TAIL_FIXED = [
    {"arrival_rate_qps": 30, "service_latency_ms": 100, "num_replicas": 4},
    {"arrival_rate_qps": 50, "service_latency_ms": 100, "num_replicas": 4},      # saturated: λ > cμ
    {"arrival_rate_qps": 40, "service_latency_ms": 100, "num_replicas": 4},      # saturated: λ = cμ exactly
    {"arrival_rate_qps": 10, "service_latency_ms": 50.0},                        # M/M/1 at ρ = 0.5 (P_W = q_50)
    {"arrival_rate_qps": 0, "service_latency_ms": 100, "num_replicas": 2},       # idle
    {"arrival_rate_qps": 900.0, "service_latency_ms": 250.0, "num_replicas": 256, "service_time_cv": 0.0},
]


@pytest.mark.parametrize("args", TAIL_FIXED + tail_latency_draws(35, DEFAULT), ids=lambda a: ",".join(f"{v:.4g}" for v in a.values()))
def test_tail_latency_matches_mlsysim(args):
    assert _same("TailLatencyModel", TailLatencyModel, args) == 5


@pytest.mark.thorough
def test_tail_latency_matches_mlsysim_thorough():
    for args in tail_latency_draws(3501, THOROUGH):
        _same("TailLatencyModel", TailLatencyModel, args)


def test_tail_latency_saturated_is_infinite_and_refused_as_an_output():
    """A saturated queue: the result shows mlsysim's infinite latencies; the scenario's latency output itself is
    refused by name (no finite number stands in for it)."""
    r = TailLatencyModel().solve(50, 100, 4)
    assert r.p99_latency.magnitude == float("inf") and r.p99_latency.units == r.p50_latency.units == TailLatencyModel().solve(30, 100, 4).p99_latency.units
    assert (r.queue_utilization, r.is_stable, r.slo_headroom_ratio) == (1, False, 1)
    with pytest.raises(ValueError, match="is_stable does not hold"):
        r.scenario.p99_latency  # noqa: B018


@pytest.mark.parametrize("bad", [
    {"service_time_cv": -0.5},                    # mlsysim: validate_nonnegative
    {"service_latency_ms": "no value"},
    {"arrival_rate_qps": "no value"},
])
def test_tail_latency_refused_where_mlsysim_raises(bad):
    args = {"arrival_rate_qps": 30.0, "service_latency_ms": 100.0, "num_replicas": 4, **bad}
    with pytest.raises((ValueError, TypeError)):
        ref_solvers.TailLatencyModel().solve(**args)
    with pytest.raises((ValueError, TypeError)) as raised:
        TailLatencyModel().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError)


@pytest.mark.parametrize("excluded", [
    {"service_latency_ms": 0.0},     # mlsysim: service rate 0, infinite latencies
    {"num_replicas": 0},             # mlsysim: max(1, int(0)) = 1
    {"num_replicas": 2.5},           # mlsysim: int(2.5) = 2
    {"arrival_rate_qps": -1.0},      # mlsysim: a negative utilization
])
def test_tail_latency_excluded_arguments_are_refused_by_name(excluded):
    """Arguments the type excludes (its ``excludes`` say what mlsysim answers there) are refused, never priced."""
    args = {"arrival_rate_qps": 30.0, "service_latency_ms": 100.0, "num_replicas": 4, **excluded}
    with pytest.raises((ValueError, TypeError)) as raised:
        TailLatencyModel().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError)
