"""Every solver that takes a workload, on every workload of our registry, against mlsysim 0.3.0's own solve.

Issue 28: a CNN given to transformer equations answered silently (``ServingModel().solve("ResNet50", ...)`` a
1.68 GB KV cache where mlsysim raises).  Here each workload argument of each solver (:data:`CALLS`, one fixed call
per solver) is solved with each of the 42 entries of ``derivations/workloads.toml``, by mlsysim (its own registry
object) and by us (the registry key), and the pair must be one of:

- **equal**: mlsysim answers and so do we, every result field equal (``members.compare_fields``: numbers at 1e-9
  relative, labels and booleans exactly, nested results field by field);
- **refused as mlsysim**: mlsysim raises (it reads a field or method the workload's class lacks) and we refuse by
  name: a :class:`WorkloadKindError` naming the workload and the kinds the solver takes, or its
  :class:`WorkloadFieldError` naming the workload and the field it does not state;
- **refused with a reason**: mlsysim answers and we refuse by name, for the reason :data:`REFUSED` gives;
- **documented divergence**: mlsysim answers and so do we, every field equal but those :data:`DIVERGENT` names,
  which differ for the reason it gives (a deliberate departure also tested by hand elsewhere).

mlsysim's objects and outcomes are built once (cached) and imported inside functions; nothing heavy runs at
collection.  The counts of each class are printed at the end of the module.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from mlsysim_symbolic import MlsysimSymbolicError
from mlsysim_symbolic import solvers as ours
from mlsysim_symbolic.errors import WorkloadFieldError, WorkloadKindError
from mlsysim_symbolic.registry import workloads

from .members import compare_fields, equal

#: mlsysim 0.3.0's workload classes, as our entries' ``kind`` names them (the classes of mlsysim.models.types).
TRANSFORMER = ("TransformerWorkload", "SparseTransformerWorkload")
OTHER = ("CNNWorkload", "SSMWorkload", "DiffusionWorkload", "EmbodiedWorkload", "Workload")

# ------------------------------------------------------------------------------------------ the calls
#: solver label -> (our call, mlsysim's call), each of one workload (ours a registry key, mlsysim's its own object).
#: One call per workload argument of every solver of mlsysim_symbolic.solvers that takes one.
Call = Callable[[Any], Any]


def _mlsysim() -> Any:
    import mlsysim

    return mlsysim


def _h100() -> Any:
    return _mlsysim().Hardware.Cloud.H100


def _their(solver: str) -> Any:
    return getattr(_mlsysim().solvers, solver)()


def _their_engine(w: Any, **kw: Any) -> Any:
    from mlsysim.engine.engine import Engine

    return Engine.solve(w, _h100(), **kw)


CALLS: dict[str, tuple[Call, Call]] = {
    "Engine.solve": (lambda w: ours.Engine.solve(w, "H100", batch_size=4),
                     lambda w: _their_engine(w, batch_size=4)),
    "Engine.solve(is_training=True)": (lambda w: ours.Engine.solve(w, "H100", batch_size=8, is_training=True),
                                       lambda w: _their_engine(w, batch_size=8, is_training=True)),
    "SingleNodeModel": (lambda w: ours.SingleNodeModel().solve(w, "H100", batch_size=1, precision="bf16"),
                        lambda w: _their("SingleNodeModel").solve(w, _h100(), batch_size=1, precision="bf16")),
    "TrainingMemoryModel": (lambda w: ours.TrainingMemoryModel().solve(w, "H100", batch_size=8),
                            lambda w: _their("TrainingMemoryModel").solve(w, _h100(), batch_size=8)),
    "ServingModel": (lambda w: ours.ServingModel().solve(w, "H100", seq_len=2048),
                     lambda w: _their("ServingModel").solve(w, _h100(), seq_len=2048)),
    "ServingModel(draft_model=)": (
        lambda w: ours.ServingModel().solve("Llama3_70B", "H100", seq_len=2048, draft_model=w),
        lambda w: _their("ServingModel").solve(_mlsysim().Models.Language.Llama3_70B, _h100(), seq_len=2048, draft_model=w)),
    "InferenceScalingModel": (lambda w: ours.InferenceScalingModel().solve(w, "H100"),
                              lambda w: _their("InferenceScalingModel").solve(w, _h100())),
    "EfficiencyModel": (lambda w: ours.EfficiencyModel().solve(w, "H100", workload_type="attention"),
                        lambda w: _their("EfficiencyModel").solve(w, _h100(), workload_type="attention")),
    "CheckpointModel": (lambda w: ours.CheckpointModel().solve(w, "H100"),
                        lambda w: _their("CheckpointModel").solve(w, _h100())),
    "CompressionModel": (lambda w: ours.CompressionModel().solve(w, "H100", target_bitwidth=4),
                         lambda w: _their("CompressionModel").solve(w, _h100(), target_bitwidth=4)),
    "DistributedModel": (lambda w: ours.DistributedModel().solve(w, "Research_256", batch_size=256),
                         lambda w: _their("DistributedModel").solve(w, _mlsysim().Systems.Clusters.Research_256, batch_size=256)),
    "SensitivitySolver": (lambda w: ours.SensitivitySolver().solve(w, "H100"),
                          lambda w: _their("SensitivitySolver").solve(w, _h100())),
    "SynthesisSolver": (lambda w: ours.SynthesisSolver().solve(w, "10 ms"),
                        lambda w: _their("SynthesisSolver").solve(w, _mlsysim().core.units.Q_(10, "ms"))),
    "NetworkRooflineModel": (lambda w: ours.NetworkRooflineModel().solve(w, "Research_256"),
                             lambda w: _their("NetworkRooflineModel").solve(w, _mlsysim().Systems.Clusters.Research_256)),
    "MoERoutingModel": (lambda w: ours.MoERoutingModel().solve(w, 8, 2048, ep_size=8, fleet="Research_256"),
                        lambda w: _their("MoERoutingModel").solve(w, 8, 2048, ep_size=8,
                                                                  fleet=_mlsysim().Systems.Clusters.Research_256)),
    "WeightStreamingModel": (lambda w: ours.WeightStreamingModel().solve(w, "Cerebras_CS3", seq_len=2047, batch_size=3),
                             lambda w: _their("WeightStreamingModel").solve(w, _mlsysim().Hardware.Cloud.Cerebras_CS3,
                                                                            seq_len=2047, batch_size=3)),
    "ContinuousBatchingModel": (
        lambda w: ours.ContinuousBatchingModel().solve(w, "H100", 4096, mean_request_tokens=1000, max_batch_size=64),
        lambda w: _their("ContinuousBatchingModel").solve(w, _h100(), 4096, mean_request_tokens=1000, max_batch_size=64)),
    "ServingCapacityModel": (lambda w: ours.ServingCapacityModel().solve(w, "H100", 2.0, 60000.0, max_replicas=16),
                             lambda w: _their("ServingCapacityModel").solve(w, _h100(), 2.0, 60000.0, max_replicas=16)),
}

#: The solvers of mlsysim_symbolic.solvers that take no workload (each checked to bind none).
NO_WORKLOAD = ("SustainabilityModel", "EconomicsModel", "ScalingModel", "ReliabilityModel", "DataModel", "TopologyModel",
               "TransformationModel", "ResponsibleEngineeringModel", "OrchestrationModel", "WorkloadLeverModel")
#: Which solver class each call exercises (Engine.solve is SingleNodeModel's, its training path SingleNodeTrainingModel's).
SOLVER_OF = {label: label.split("(")[0].split(".")[0] for label in CALLS} | {
    "Engine.solve": "SingleNodeModel", "Engine.solve(is_training=True)": "SingleNodeTrainingModel"}

# ------------------------------------------------------------------------------------------ the tables
_NOT_PORTED_PATH = ("mlsysim prices a workload that is not a TransformerWorkload through another path (one device's "
                    "Engine.solve training roofline per replica, per-sample work, no layer sharding); the port is its "
                    "transformer step only, so other kinds are refused by name (README: workloads other than transformers).")
_NO_FLOPS_DLRM = ("DLRM states neither parameters nor inference_flops, only a 100 GB model_size; mlsysim then counts "
                  "0 FLOPs (a latency, a speedup or a required rate with no compute in it) or 0 parameters, numbers "
                  "that describe no model, so ours refuses by name the fields it lacks.")
_NO_FLOPS_FALLBACK = ("OPT-13B states no inference_flops; mlsysim's lower() then counts 2 FLOPs per parameter per "
                      "token, a fallback the single-node types port but DistributedTrainingStepScenario does not yet, so "
                      "ours refuses by name the field it lacks instead of leaving the step's latency None.")

#: (call, workload) -> why we refuse where mlsysim answers (each reason a sentence).
REFUSED: dict[tuple[str, str], str] = {
    **{("DistributedModel", k): _NOT_PORTED_PATH for k, e in workloads().items() if e.kind in OTHER},
    ("DistributedModel", "OPT_13B"): _NO_FLOPS_FALLBACK,
    **{(call, "DLRM"): _NO_FLOPS_DLRM for call in ("Engine.solve", "Engine.solve(is_training=True)", "SingleNodeModel",
                                                  "CompressionModel", "SensitivitySolver", "SynthesisSolver")},
}

#: (call, workload) -> (fields that differ from mlsysim's, why): deliberate departures, every other field equal.
DIVERGENT: dict[tuple[str, str], tuple[tuple[str, ...], str]] = {
    ("Engine.solve(is_training=True)", "StableDiffusion_v1_5"): (
        ("latency", "latency_compute", "throughput", "arithmetic_intensity", "energy", "mfu", "hfu"),
        "training a diffusion model runs its network once per sample at one sampled timestep (Ho, Jain and Abbeel "
        "2020, Algorithm 1); mlsysim charges every denoising pass of inference (50x the work): "
        "test_ref_solvers_core.py::test_diffusion_training_runs_the_network_once_per_sample."),
}

OUTCOMES: Counter[str] = Counter()


# ------------------------------------------------------------------------------------------ mlsysim's side, once
@cache
def their_workload(key: str) -> Any:
    """mlsysim's own registry object of our workload ``key`` (its group by our entry's ``registry`` field)."""
    from mlsysim_symbolic.solvers.namespaces import MODEL_GROUPS

    group = next(g for g, r in MODEL_GROUPS.items() if r == workloads()[key].registry)
    return getattr(getattr(_mlsysim().Models, group), key)


@cache
def their_outcome(call: str, key: str) -> tuple[str, Any]:
    """``("answer", result)`` or ``("raise", exception)`` of mlsysim's call on workload ``key``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "answer", CALLS[call][1](their_workload(key))
        except Exception as exc:   # mlsysim's AttributeError / TypeError / NotImplementedError on a missing field
            return "raise", exc


def _our_solve(call: str, key: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CALLS[call][0](key)


def _pairs() -> Iterator[Any]:
    for call in CALLS:
        for key in workloads():
            yield pytest.param(call, key, id=f"{call}-{key}")


# ------------------------------------------------------------------------------------------ the tests
@pytest.mark.parametrize(("call", "key"), list(_pairs()))
def test_solver_on_workload_is_mlsysims_answer_or_refused_by_name(call: str, key: str) -> None:
    how, theirs = their_outcome(call, key)
    entry = workloads()[key]
    if how == "raise":
        assert (call, key) not in REFUSED and (call, key) not in DIVERGENT, f"{call}/{key}: mlsysim raises; stale table row"
        with pytest.raises(WorkloadKindError) as info:
            _our_solve(call, key)
        message = str(info.value)
        assert repr(key) in message, message
        if isinstance(info.value, WorkloadFieldError):
            assert "does not state" in message, message
        else:
            # the kinds it takes: transformers (MoERoutingModel: sparse transformers only)
            assert f"is a {entry.kind}" in message and "TransformerWorkload" in message.partition(" takes ")[2], message
        OUTCOMES["refused as mlsysim"] += 1
        return
    if (call, key) in REFUSED:
        with pytest.raises(MlsysimSymbolicError) as refusal:
            _our_solve(call, key)
        assert repr(key) in str(refusal.value), str(refusal.value)
        OUTCOMES["refused with a reason"] += 1
        return
    mine = _our_solve(call, key)
    if (call, key) in DIVERGENT:
        differ, _ = DIVERGENT[(call, key)]
        for field in mine.fields:
            if field in differ:
                with pytest.raises(AssertionError):
                    equal(getattr(mine, field), getattr(theirs, field), f"{call}/{key}.{field}")
            else:
                equal(getattr(mine, field), getattr(theirs, field), f"{call}/{key}.{field}")
        OUTCOMES["documented divergence"] += 1
        return
    assert compare_fields(mine, theirs, f"{call}/{key}") >= 3
    OUTCOMES["equal"] += 1


def test_every_workload_argument_declares_its_kinds() -> None:
    """Every argument of every solver that binds a workload input declares the kinds its equations describe, and the
    solvers that take none are the ten of NO_WORKLOAD: a new solver or argument cannot bypass the check."""
    from mlsysim_symbolic.catalog import catalog

    found = {}
    for name in ours.__all__:
        cls = getattr(ours, name)
        if not (isinstance(cls, type) and issubclass(cls, ours.Solver) and cls is not ours.Solver):
            continue
        stype = catalog().types[cls.type_name]
        bound = [a for a in cls.arguments if a.input and getattr(stype.inputs.get(a.input), "kind", None) == "workload"]
        assert all(a.kinds for a in bound), (name, [a.name for a in bound if not a.kinds])
        for a in bound:   # within what the type's input takes, where it declares kinds
            assert not stype.inputs[a.input].kinds or set(a.kinds) <= set(stype.inputs[a.input].kinds), (name, a.name)
        # a workload the solver passes on to other solvers (ServingCapacityModel's model): it declares its kinds too
        bound += [a for a in cls.arguments if a.indirect and a.kinds]
        found[name] = [a.name for a in bound]
    assert sorted(k for k, v in found.items() if not v) == sorted(NO_WORKLOAD)
    assert {k for k, v in found.items() if v} == set(SOLVER_OF.values())
    assert found["ServingModel"] == ["model", "draft_model"] and len(found) == 26   # 25 classes + Engine's training path


def test_issue_28_examples_are_refused_by_name() -> None:
    """The issue's four calls: each refused, naming the workload, its kind and what the solver takes."""
    with pytest.raises(WorkloadKindError, match="model 'ResNet50' is a CNNWorkload; ServingModel takes TransformerWorkload"):
        ours.ServingModel().solve("ResNet50", "H100", seq_len=2048)
    with pytest.raises(WorkloadKindError, match="'ResNet50' is a CNNWorkload; InferenceScalingModel takes"):
        ours.InferenceScalingModel().solve("ResNet50", "H100")
    with pytest.raises(ValueError, match="'ResNet50' is a CNNWorkload; TrainingMemoryModel takes"):
        ours.TrainingMemoryModel().solve("ResNet50", "H100", batch_size=8)
    with pytest.raises(TypeError, match="'ResNet50' is a CNNWorkload; DistributedModel takes TransformerWorkload"):
        ours.DistributedModel().solve("ResNet50", "Research_256", batch_size=256)
    with pytest.raises(WorkloadKindError, match="is a CNNWorkload"):   # mlsysim's own object, not only a key
        ours.ServingModel().solve(their_workload("ResNet50"), "H100", seq_len=2048)


def test_the_types_behind_the_transformer_solvers_refuse_a_cnn_too() -> None:
    """The declaration is the type's as well (``kinds`` on its workload input): a scenario built directly, without a
    solver, refuses a CNN by name; the types whose equations describe any workload take one."""
    from mlsysim_symbolic.catalog import catalog

    classes = catalog().classes
    for type_name, workload, extra in [
        ("ServingScenario", "workload", {"seq_len": 2048}),
        ("ServingScenario", "draft_model", {"workload": "Llama3_70B", "seq_len": 2048}),
        ("InferenceScalingScenario", "model", {}),
        ("TrainingMemoryBudgetScenario", "workload", {"batch_size": 8}),
        ("DistributedTrainingStepScenario", "model", {"accelerator": "H100", "batch_size": 256}),
    ]:
        hardware = {} if type_name == "DistributedTrainingStepScenario" else {"hardware": "H100"}
        with pytest.raises(WorkloadKindError, match=f"{workload} 'ResNet50' is a CNNWorkload; this input takes TransformerWorkload"):
            classes[type_name](name="x", **{workload: "ResNet50"}, **hardware, **extra)
    assert classes["SingleNodeInferenceScenario"](name="x", workload="ResNet50", hardware="H100").latency.magnitude > 0


def test_tables_name_real_pairs_and_sentences() -> None:
    for call, key in [*REFUSED, *DIVERGENT]:
        assert call in CALLS and key in workloads(), (call, key)
    for reason in [*REFUSED.values(), *(r for _, r in DIVERGENT.values())]:
        assert len(reason.split()) >= 12 and reason.endswith("."), reason


def test_zz_print_the_counts(capsys: pytest.CaptureFixture[str], record_property: Callable[[str, object], None]) -> None:
    """The table's counts: printed past the capture and recorded as a property of this test (complete when every
    pair above ran)."""
    total = sum(OUTCOMES.values())
    line = (f"solver x workload pairs: {total} of {len(CALLS) * len(workloads())} — "
            + ", ".join(f"{k} {v}" for k, v in sorted(OUTCOMES.items())))
    record_property("solver_workload_counts", dict(OUTCOMES))
    with capsys.disabled():
        print(f"\n{line}")
    if total == len(CALLS) * len(workloads()):
        assert OUTCOMES["refused with a reason"] == len(REFUSED) and OUTCOMES["documented divergence"] == len(DIVERGENT)
