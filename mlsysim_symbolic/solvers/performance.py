"""The single-node roofline: mlsysim's ``Engine.solve`` and ``SingleNodeModel`` over SingleNodeInferenceScenario.

>>> from mlsysim_symbolic.solvers import Engine, Hardware, Models
>>> p = Engine.solve(Models.Vision.ResNet50, Hardware.Cloud.A100, batch_size=1)
>>> p.latency
<Quantity(0.567564103, 'millisecond')>
"""

from __future__ import annotations

from typing import Any

from .base import REQUIRED, Arg, Solver, SolverResult

_TRAINING = "the training path (is_training=True: 3x FLOPs, training memory, ZeRO, LoRA, recomputation) is not ported"
_TRAINING_ONLY = "mlsysim reads it only when is_training=True"

#: mlsysim 0.3.0's ``Engine.solve`` arguments (engine/engine.py), in order, with its defaults.
ENGINE_ARGUMENTS = (
    Arg("model", REQUIRED, to="workload"),
    Arg("hardware", REQUIRED),
    Arg("batch_size", 1),
    Arg("precision", "fp16", lower=True),
    Arg("efficiency", 0.5),
    Arg("raise_errors", False, raises=True),
    Arg("is_training", False, fixed=True, note=_TRAINING),
    Arg("seq_len", 2048, ignored=True, note=_TRAINING_ONLY),
    Arg("zero_stage", 0, ignored=True, note=_TRAINING_ONLY),
    Arg("dp_size", 1, ignored=True, note=_TRAINING_ONLY),
    Arg("is_lora", False, ignored=True, note=_TRAINING_ONLY),
    Arg("activation_recomputation", False, ignored=True, note=_TRAINING_ONLY),
)


class SingleNodeModel(Solver):
    """mlsysim's ``SingleNodeModel``: the roofline of one inference on one device (a ``PerformanceProfile``).

    ``solve(model, hardware, batch_size=1, precision="fp16", efficiency=0.5, raise_errors=False, **kwargs)``:
    mlsysim passes ``kwargs`` on to ``Engine.solve``; here they are that function's further arguments, named.
    """

    type_name = "SingleNodeInferenceScenario"
    result_name = "PerformanceProfile"
    arguments = ENGINE_ARGUMENTS


class Engine:
    """mlsysim's ``Engine``: ``Engine.solve(model, hardware, ...)`` is ``SingleNodeModel().solve(...)``."""

    @staticmethod
    def solve(*args: Any, **kwargs: Any) -> SolverResult:
        """The roofline ``PerformanceProfile`` of one inference (mlsysim's ``Engine.solve`` signature)."""
        return SingleNodeModel().solve(*args, **kwargs)


Engine.solve.__signature__ = SingleNodeModel._signature.replace(  # type: ignore[attr-defined]
    parameters=list(SingleNodeModel._signature.parameters.values())[1:])
