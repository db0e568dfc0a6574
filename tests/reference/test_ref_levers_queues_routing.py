"""mlsysim 0.3.0's WorkloadLeverModel, OrchestrationModel and MoERoutingModel against ours
(mlsysim_symbolic/solvers/cost_accounting.py, operations.py and distributed.py over derivations/solvers_levers_queues.toml), field by field.

Each test calls mlsysim's own ``XModel().solve(...)`` and ours with the same arguments (mlsysim's registry objects and
Quantities passed in, as mlsysim's code passes them): at mlsysim's recorded calls
(data/mlsysim_model_calls.json), where it has any, and at seeded generated configurations (a few in the default
tier, more under ``thorough``), comparing every field (:func:`~.compare.assert_same`: numbers at 1e-9 relative in
mlsysim's unit, booleans and labels exactly, nested rows field by field).  Where mlsysim raises for an argument set,
ours raises an error of its own that is a ValueError or TypeError.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mlsysim_symbolic import solvers
from mlsysim_symbolic.errors import MlsysimSymbolicError

from .compare import assert_same
from .test_ref_solver_models import CALLS, arguments

#: Seeded draws per Model in the default tier; the thorough tier draws this many more times over.
DRAWS = 4
THOROUGH = 10


def _theirs(name: str) -> Any:
    import mlsysim.engine.solvers as theirs

    return getattr(theirs, name)()


def compare(name: str, kwargs: dict[str, Any], label: str) -> None:
    """mlsysim's and our ``solve(**kwargs)``: the same fields in mlsysim's order, each equal."""
    theirs = _theirs(name).solve(**kwargs)
    ours = getattr(solvers, name)().solve(**kwargs)
    fields = [f for f in type(theirs).model_fields if f != "constraint_trace"]
    assert list(ours.fields) == fields, f"{label}: fields {list(ours.fields)} vs mlsysim's {fields}"
    for field in fields:
        assert_same(getattr(ours, field), getattr(theirs, field), f"{label}.{field}")


def refused_alike(name: str, kwargs: dict[str, Any]) -> None:
    """mlsysim raises for ``kwargs``; ours raises an error of its own that is a ValueError or TypeError."""
    with pytest.raises((KeyError, ValueError, TypeError, AttributeError, ZeroDivisionError)):   # mlsysim's own
        _theirs(name).solve(**kwargs)
    with pytest.raises((ValueError, TypeError)) as raised:
        getattr(solvers, name)().solve(**kwargs)
    assert isinstance(raised.value, MlsysimSymbolicError), f"{name}: {type(raised.value).__name__}: {raised.value}"


@pytest.mark.parametrize("name", ["WorkloadLeverModel"])
def test_recorded_calls_match_mlsysim(name: str) -> None:
    """Every call mlsysim's named scenarios made to the Model, made on both (mlsysim live: its rows are objects the
    recording does not keep)."""
    calls = CALLS.get(name) or []
    assert calls, f"{name}: no recorded call"
    for call in calls:
        compare(name, arguments(call["arguments"]), f"{name} ({call['first_seen']})")


# ------------------------------------------------------------------------------------------- WorkloadLeverModel
def lever_draw(rng: random.Random) -> dict[str, Any]:
    """A few workloads, each stating a human cost or a handoff price, at an acceptance and a gain."""
    workloads = {}
    for i in range(rng.randint(1, 4)):
        w: dict[str, Any] = {"model": rng.uniform(0.01, 3), "environment": rng.uniform(0, 2),
                             "assessment": rng.uniform(0, 1), "acceptance": rng.uniform(0.05, 0.95)}
        if rng.random() < 0.5:
            w["handoff"] = rng.choice([rng.uniform(0.5, 10), rng.randint(1, 8)])
            if rng.random() < 0.3:
                w["human"] = 99.0   # not read where a handoff is stated
        else:
            w["human"] = rng.choice([0.0, rng.uniform(0, 30)])
        if rng.random() < 0.2:
            w["environment"] = w["model"]   # a tie: the first of model, environment, ... is the largest
        workloads[f"w{i}"] = dict(rng.sample(sorted(w.items()), len(w)))
    return {"workloads": workloads, "acceptance_gain": rng.uniform(0, 0.3)}


@pytest.mark.parametrize("seed", range(DRAWS))
def test_workload_lever_matches_mlsysim(seed: int) -> None:
    compare("WorkloadLeverModel", lever_draw(random.Random(seed)), f"WorkloadLeverModel seed {seed}")


@pytest.mark.thorough
@pytest.mark.parametrize("seed", range(DRAWS, DRAWS * THOROUGH))
def test_workload_lever_matches_mlsysim_thorough(seed: int) -> None:
    compare("WorkloadLeverModel", lever_draw(random.Random(seed)), f"WorkloadLeverModel seed {seed}")


@pytest.mark.parametrize("spoil", [
    lambda a: a["workloads"]["w0"].pop("acceptance"),                      # a term missing: mlsysim's KeyError
    lambda a: (a["workloads"]["w0"].pop("handoff", None), a["workloads"]["w0"].pop("human", None)),
    lambda a: a.update(acceptance_gain="no value"),
    lambda a: a["workloads"]["w0"].update(model="no value"),
    lambda a: a.update(workloads=[1, 2]),
])
def test_workload_lever_refused_where_mlsysim_raises(spoil: Any) -> None:
    kwargs = lever_draw(random.Random(0))
    spoil(kwargs)
    refused_alike("WorkloadLeverModel", kwargs)


# ------------------------------------------------------------------------------------------- OrchestrationModel
def queue_draw(rng: random.Random) -> dict[str, Any]:
    """mlsysim's fleet (read for nothing) and a job stream on both sides of saturation, ρ = 1 exactly among them."""
    import mlsysim

    duration = rng.choice([rng.uniform(0.05, 1.5), 0.5, 0.25])
    rate = rng.choice([rng.uniform(0, 2.5 / duration), 1 / duration, 0.0, rng.randint(1, 8)])
    fleet = rng.choice([mlsysim.Systems.Clusters.Research_256, mlsysim.Systems.Clusters.Frontier_8K, None])
    return {"fleet": fleet, "arrival_rate_jobs_per_day": rate, "avg_job_duration_days": duration}


@pytest.mark.parametrize("seed", range(DRAWS))
def test_orchestration_matches_mlsysim(seed: int) -> None:
    compare("OrchestrationModel", queue_draw(random.Random(seed)), f"OrchestrationModel seed {seed}")


@pytest.mark.thorough
@pytest.mark.parametrize("seed", range(DRAWS, DRAWS * THOROUGH))
def test_orchestration_matches_mlsysim_thorough(seed: int) -> None:
    compare("OrchestrationModel", queue_draw(random.Random(seed)), f"OrchestrationModel seed {seed}")


@pytest.mark.parametrize("rate, duration, unstable", [(1.5, 0.5, False), (2, 0.5, True), (3, 0.5, True), (0, 1, False)])
def test_orchestration_saturation_is_mlsysims(rate: float, duration: float, unstable: bool) -> None:
    """Both sides of ρ = 1 and ρ = 1 itself: the result's wait and queue are inf where mlsysim's are, and the scenario's
    own outputs refuse that branch by name (never a finite wrong number)."""
    import math

    from mlsysim_symbolic.errors import InputError

    kwargs = {"fleet": None, "arrival_rate_jobs_per_day": rate, "avg_job_duration_days": duration}
    compare("OrchestrationModel", kwargs, f"OrchestrationModel {kwargs}")
    ours = solvers.OrchestrationModel().solve(**kwargs)
    assert math.isinf(ours.avg_queue_length) is unstable and ours.is_stable is not unstable
    if unstable:
        with pytest.raises(InputError, match="is_stable does not hold"):
            ours.scenario.avg_wait_time_days   # noqa: B018


@pytest.mark.parametrize("spoil", [
    {"avg_job_duration_days": 0},              # mlsysim's ZeroDivisionError
    {"arrival_rate_jobs_per_day": "no value"},
    {"avg_job_duration_days": "no value"},
])
def test_orchestration_refused_where_mlsysim_raises(spoil: dict[str, Any]) -> None:
    refused_alike("OrchestrationModel", {"fleet": None, "arrival_rate_jobs_per_day": 1.0, "avg_job_duration_days": 0.5,
                                         **spoil})


# ---------------------------------------------------------------------------------------------- MoERoutingModel
def moe_draw(rng: random.Random) -> dict[str, Any]:
    """mlsysim's sparse transformers and fleets, a step's shape, a precision (any case), an EP group and an imbalance
    on both sides of the expert cap."""
    import mlsysim

    model = rng.choice([mlsysim.Models.Language.Mixtral_8x7B, mlsysim.Models.Language.DeepSeek_V3,
                        mlsysim.Models.Language.GPT4])
    kwargs: dict[str, Any] = {"model": model, "batch_size": rng.choice([1, rng.randint(1, 64)]),
                              "seq_len": rng.choice([1, rng.randint(1, 8192), 4096])}
    if rng.random() < 0.8:
        kwargs["precision"] = rng.choice(["fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "FP16", "Bf16"])
    if rng.random() < 0.8:
        kwargs["ep_size"] = rng.choice([1, 2, 4, 8, 16, 3])
    if rng.random() < 0.8:
        kwargs["routing_imbalance_factor"] = rng.choice([1.0, rng.uniform(1, 2), rng.uniform(2, 200), float("inf")])
    if rng.random() < 0.7:
        kwargs["fleet"] = rng.choice([mlsysim.Systems.Clusters.Research_256, mlsysim.Systems.Clusters.Frontier_8K,
                                      mlsysim.Systems.Clusters.Production_2K, mlsysim.Systems.Clusters.Training_1K])
    return kwargs


@pytest.mark.parametrize("seed", range(DRAWS))
def test_moe_routing_matches_mlsysim(seed: int) -> None:
    compare("MoERoutingModel", moe_draw(random.Random(seed)), f"MoERoutingModel seed {seed}")


@pytest.mark.thorough
@pytest.mark.parametrize("seed", range(DRAWS, DRAWS * THOROUGH))
def test_moe_routing_matches_mlsysim_thorough(seed: int) -> None:
    compare("MoERoutingModel", moe_draw(random.Random(seed)), f"MoERoutingModel seed {seed}")


def test_moe_routing_over_a_fabric_without_latency_takes_ndr_latency() -> None:
    """A fleet whose fabric states no latency: both price the all-to-all at InfiniBand NDR's latency."""
    import mlsysim

    fleet = mlsysim.Systems.Clusters.Research_256
    fleet = fleet.model_copy(update={"fabric": fleet.fabric.model_copy(update={"latency": None})})
    assert fleet.fabric.latency is None
    compare("MoERoutingModel", {"model": mlsysim.Models.Language.Mixtral_8x7B, "batch_size": 4, "seq_len": 2048,
                                "ep_size": 8, "fleet": fleet}, "MoERoutingModel, fabric without latency")


def test_moe_routing_of_a_model_without_hidden_dim_takes_4096() -> None:
    """mlsysim's own SparseTransformerWorkload built by a user, stating no hidden_dim: both read it as 4096."""
    import mlsysim
    from mlsysim.core.units import Q_
    from mlsysim.models.types import SparseTransformerWorkload

    toy = SparseTransformerWorkload(name="toy", architecture="MoE", parameters=Q_(1e9, "count"), layers=4,
                                    active_parameters=Q_(2e8, "count"), experts=16, active_experts_per_token=4)
    assert toy.hidden_dim is None
    compare("MoERoutingModel", {"model": toy, "batch_size": 2, "seq_len": 128, "ep_size": 4,
                                "routing_imbalance_factor": 1.5, "fleet": mlsysim.Systems.Clusters.Research_256},
            "MoERoutingModel, a model without hidden_dim")


@pytest.mark.parametrize("spoil", [
    {"batch_size": 0},
    {"seq_len": 0.5},
    {"ep_size": 0},
    {"routing_imbalance_factor": 0.9},
    {"precision": "fp64"},
    {"seq_len": "no value"},
    {"model": "Llama3_8B"},   # a dense transformer: mlsysim reads experts it does not have
])
def test_moe_routing_refused_where_mlsysim_raises(spoil: dict[str, Any]) -> None:
    import mlsysim

    kwargs = {"model": mlsysim.Models.Language.Mixtral_8x7B, "batch_size": 4, "seq_len": 2048, "ep_size": 8,
              "fleet": mlsysim.Systems.Clusters.Research_256, **spoil}
    if kwargs["model"] == "Llama3_8B":
        kwargs["model"] = mlsysim.Models.Language.Llama3_8B
    refused_alike("MoERoutingModel", kwargs)


# ---------------------------------------------------------------------------------------------------- all three
MODELS = ("WorkloadLeverModel", "OrchestrationModel", "MoERoutingModel")


@pytest.mark.parametrize("name", MODELS)
def test_signature_is_mlsysims(name: str) -> None:
    """Names, order, kinds and defaults of ``solve`` are mlsysim's; the result view carries mlsysim's class name."""
    import inspect

    ours = list(inspect.signature(getattr(solvers, name)().solve).parameters.values())
    theirs = list(inspect.signature(_theirs(name).solve).parameters.values())
    assert [(p.name, p.kind, p.default) for p in ours] == [(p.name, p.kind, p.default) for p in theirs]
    assert getattr(solvers, name).result_name == type(_theirs(name)).produces.__name__


@pytest.mark.parametrize("name, kwargs, field, wrt, theirs_wrt", [
    ("OrchestrationModel", {"fleet": None, "arrival_rate_jobs_per_day": 1.2, "avg_job_duration_days": 0.5},
     "avg_wait_time_days", "arrival_rate_jobs_per_day", "arrival_rate_jobs_per_day"),
    ("MoERoutingModel", {"model": "Mixtral_8x7B", "batch_size": 8, "seq_len": 4096, "ep_size": 8,
                         "routing_imbalance_factor": 1.25, "fleet": "Research_256"},
     "all_to_all_latency", "routing_imbalance_factor", "routing_imbalance_factor"),
])
def test_a_field_derivative_is_mlsysims_central_difference(name: str, kwargs: dict[str, Any], field: str, wrt: str,
                                                           theirs_wrt: str) -> None:
    """A result field's symbolic derivative, evaluated at the solve, equals mlsysim's central difference."""
    import mlsysim

    from .compare import derivative_value

    ours = getattr(solvers, name)().solve(**kwargs)
    slope = float(getattr(derivative_value(ours, field, wrt), "magnitude", derivative_value(ours, field, wrt)))
    theirs_kwargs = dict(kwargs)
    if name == "MoERoutingModel":
        theirs_kwargs.update(model=mlsysim.Models.Language.Mixtral_8x7B, fleet=mlsysim.Systems.Clusters.Research_256)
    h = 1e-6 * theirs_kwargs[theirs_wrt]
    up, down = (getattr(_theirs(name).solve(**{**theirs_kwargs, theirs_wrt: theirs_kwargs[theirs_wrt] + e}), field)
                for e in (h, -h))
    unit = getattr(getattr(ours, field), "units", None)
    diff = (up - down) / (2 * h)
    expected = float(diff.to(unit).magnitude) if unit is not None else float(diff)
    assert slope == pytest.approx(expected, rel=1e-5)


def _lighthouse_workloads() -> dict[str, dict[str, float]]:
    """mlsysim's LighthouseWorkloadLevers call (tests/reference/data/mlsysim_model_calls.json), as its dicts."""
    return {"repair": {"assessment": 0.1, "human": 0.0, "acceptance": 0.4, "model": 0.4968, "environment": 0.8999999999999999},
            "research": {"environment": 0.1, "assessment": 0.05, "human": 0.0, "acceptance": 0.6, "model": 0.8999999999999999},
            "remediation": {"model": 0.15, "environment": 0.1, "assessment": 0.2, "human": 20.0, "acceptance": 0.7},
            "support": {"model": 0.03, "environment": 0.01, "assessment": 0.01, "handoff": 4, "acceptance": 0.85}}


def _named_calls() -> dict[str, tuple[str, Any]]:
    import mlsysim

    return {
        "LighthouseWorkloadLeverRows": ("WorkloadLeverModel", lambda: {"workloads": _lighthouse_workloads(),
                                                                        "acceptance_gain": 0.1}),
        "SharedClusterQueueThreeQuarters": ("OrchestrationModel", lambda: {
            "fleet": mlsysim.Systems.Clusters.Research_256, "arrival_rate_jobs_per_day": 1.5, "avg_job_duration_days": 0.5}),
        "Mixtral8x7BRoutingResearch256": ("MoERoutingModel", lambda: {
            "model": mlsysim.Models.Language.Mixtral_8x7B, "batch_size": 8, "seq_len": 4096, "ep_size": 8,
            "routing_imbalance_factor": 1.25, "fleet": mlsysim.Systems.Clusters.Research_256}),
    }


@pytest.mark.parametrize("key", ["LighthouseWorkloadLeverRows", "SharedClusterQueueThreeQuarters", "Mixtral8x7BRoutingResearch256"])
def test_named_scenario_is_mlsysims_call(key: str) -> None:
    """Each named scenario of derivations/solvers_levers_queues.toml states one of mlsysim's calls by hand; its result
    equals mlsysim's solve at that call, field by field (WorkloadLever's rows row by row)."""
    from mlsysim_symbolic.catalog import catalog

    assert {d.type_name for k, d in catalog().declared.items() if k in _named_calls()} == {
        "WorkloadLeverScenario", "ClusterQueueScenario", "MoeRoutingScenario"}
    name, kwargs = _named_calls()[key]
    theirs = _theirs(name).solve(**kwargs())
    ours = catalog().scenario(key).result
    fields = [f for f in type(theirs).model_fields if f != "constraint_trace"]
    assert list(ours.fields) == fields
    for field in fields:
        assert_same(getattr(ours, field), getattr(theirs, field), f"{key}.{field}")
