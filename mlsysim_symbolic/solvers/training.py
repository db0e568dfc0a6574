"""Training memory: mlsysim's ``TrainingMemoryModel`` over TrainingMemoryBudgetScenario.

>>> from mlsysim_symbolic.solvers import TrainingMemoryModel
>>> r = TrainingMemoryModel().solve("Llama3_8B", "H100", batch_size=8, zero_stage=3, dp_size=8)
>>> r.feasible, r.parallelism
(True, {'dp': 8, 'tp': 1, 'pp': 1, 'ep': 1})
>>> r.equation("optimizer_state")
Eq(M_o, Piecewise((P_r*f_tr*o/d, z >= 1), (P_r*f_tr*o, True)))
"""

from __future__ import annotations

from .base import REQUIRED, TRANSFORMERS, Arg, Solver


class TrainingMemoryModel(Solver):
    """mlsysim's ``TrainingMemoryModel``: per-accelerator training memory (a ``TrainingMemoryResult``)."""

    type_name = "TrainingMemoryBudgetScenario"
    result_name = "TrainingMemoryResult"
    arguments = (
        Arg("model", REQUIRED, to="workload", kinds=(*TRANSFORMERS, "SSMWorkload", "EmbodiedWorkload"),
            note="its activations are a transformer stack's (layers x hidden width, heads); mlsysim reads those fields "
                 "of any workload class that has them, its SSM and embodied ones too"),
        Arg("hardware", REQUIRED),
        Arg("batch_size", REQUIRED),
        Arg("seq_len", 2048),
        Arg("precision", "fp16", lower=True),
        Arg("optimizer", "adam", lower=True),
        Arg("activation_checkpointing", "selective"),
        Arg("tp_size", 1),
        Arg("pp_size", 1),
        Arg("dp_size", 1),
        Arg("ep_size", 1),
        Arg("zero_stage", 0),
        Arg("gradient_accumulation_steps", 1),
        Arg("trainable_fraction", 1.0),
        Arg("communication_buffer_fraction", 0.05),
        Arg("sequence_parallel", True, none=False),   # mlsysim: if sequence_parallel: (None is False)
    )
