"""The single-node roofline: mlsysim's ``Engine.solve`` and ``SingleNodeModel`` over SingleNodeInferenceScenario.

>>> from mlsysim_symbolic.solvers import Engine, Hardware, Models
>>> p = Engine.solve(Models.Vision.ResNet50, Hardware.Cloud.A100, batch_size=1)
>>> p.latency
<Quantity(0.567564103, 'millisecond')>
"""

from __future__ import annotations

from typing import Any

from ..registry import workloads
from .base import NONE_IS_DEFAULT, REQUIRED, TRANSFORMERS, WORKLOADS, Arg, Solver, SolverResult

_TRAINING_ONLY = "mlsysim reads it only when is_training=True"


def _engine_arguments(training: bool) -> tuple[Arg, ...]:
    """mlsysim 0.3.0's ``Engine.solve`` arguments (engine/engine.py), in order, with its defaults; the inference
    path ignores the training ones (as mlsysim does), the training path binds them."""
    ignored = not training
    return (
        Arg("model", REQUIRED, to="workload", kinds=WORKLOADS),
        Arg("hardware", REQUIRED),
        Arg("batch_size", 1),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
        Arg("raise_errors", False, raises=True),
        Arg("is_training", training, fixed=True, note="the other path is the other solver's"),
        Arg("seq_len", 2048, ignored=ignored, note=_TRAINING_ONLY),
        Arg("zero_stage", 0, ignored=ignored, note=_TRAINING_ONLY),
        Arg("dp_size", 1, ignored=ignored, note=_TRAINING_ONLY),
        Arg("is_lora", False, ignored=ignored, note=_TRAINING_ONLY),
        Arg("activation_recomputation", False, ignored=ignored, note=_TRAINING_ONLY),
    )


def is_transformer(model: Any) -> bool:
    """Whether mlsysim counts ``model``'s training memory as a transformer's (its ``training_memory``): mlsysim's
    own workload when it has that method, else a registry entry (key, display name or entry) of a transformer kind.

    >>> is_transformer("Llama3_8B"), is_transformer("ResNet50")
    (True, False)
    """
    if hasattr(model, "training_memory"):
        return True
    entry = workloads()[model] if isinstance(model, str) else model
    return getattr(entry, "kind", None) in TRANSFORMERS


class SingleNodeTrainingModel(Solver):
    """The training path of mlsysim's ``Engine.solve`` (``is_training=True``), a ``PerformanceProfile`` of one
    training step: not a class of mlsysim's, the path ``SingleNodeModel``/``Engine`` take.  A transformer's
    footprint is its training memory; any other workload's is mlsysim's fallback (2 W + 12 B/param of Adam
    state, 1.1 W with LoRA), picked as mlsysim picks it (the type's ``memory_model``)."""

    type_name = "SingleNodeTrainingScenario"
    result_name = "PerformanceProfile"
    arguments = _engine_arguments(training=True)

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        inputs["memory_model"] = "transformer" if is_transformer(values["model"]) else "weights"


class SingleNodeModel(Solver):
    """mlsysim's ``SingleNodeModel``: the roofline of one inference (or, with ``is_training=True``, one training
    step) on one device, a ``PerformanceProfile``.

    ``solve(model, hardware, batch_size=1, precision="fp16", efficiency=0.5, raise_errors=False, **kwargs)``:
    mlsysim passes ``kwargs`` on to ``Engine.solve``; here they are that function's further arguments, named.
    """

    type_name = "SingleNodeInferenceScenario"
    result_name = "PerformanceProfile"
    arguments = _engine_arguments(training=False)
    paths = ((("is_training", True), SingleNodeTrainingModel),)


class Engine:
    """mlsysim's ``Engine``: ``Engine.solve(model, hardware, ...)`` is ``SingleNodeModel().solve(...)``."""

    @staticmethod
    def solve(*args: Any, **kwargs: Any) -> SolverResult:
        """The roofline ``PerformanceProfile`` of one inference or training step (mlsysim's ``Engine.solve`` signature)."""
        return SingleNodeModel().solve(*args, **kwargs)


Engine.solve.__signature__ = SingleNodeModel._signature.replace(  # type: ignore[attr-defined]
    parameters=list(SingleNodeModel._signature.parameters.values())[1:])


class EfficiencyModel(Solver):
    """mlsysim's ``EfficiencyModel``: the achievable share of peak by kernel type (``EfficiencyResult``) over
    SoftwareEfficiencyScenario.  mlsysim reads any name but attention, ffn and conv as its last case (a misspelt
    "atention" silently so); here that case is named "other" and any other name is refused with the options."""

    type_name = "SoftwareEfficiencyScenario"
    result_name = "EfficiencyResult"
    arguments = (
        # mlsysim's EfficiencyModel reads no model field: None is accepted
        Arg("model", REQUIRED, kinds=WORKLOADS, none=NONE_IS_DEFAULT),
        Arg("hardware", REQUIRED),
        Arg("workload_type", "ffn"),
        Arg("use_flash_attention", False),
        Arg("precision", "fp16", lower=True, none=NONE_IS_DEFAULT),   # mlsysim accepts None with the fp16 result
        Arg("efficiency", 0.5),
    )
