"""mlsysim 0.3.0's analytic solvers, signature-compatible, as compositions of the catalog's checked types.

Each solver binds one scenario type of ``derivations/`` and returns mlsysim's result fields (Quantities in
mlsysim's units, plain floats, booleans, labels) with ``.scenario``, so every field has an equation:

>>> from mlsysim_symbolic.solvers import SingleNodeModel
>>> r = SingleNodeModel().solve("ResNet50", "A100", batch_size=1)
>>> r.latency, r.bottleneck
(<Quantity(0.567564103, 'millisecond')>, 'Compute')
>>> r.equation("latency")
Eq(T, t_o + Max(t_c, t_m))
>>> r.equation("latency_compute")
Eq(t_c, B*F/R_eff)
>>> r.scenario.diff("latency_compute", "batch_size")
F_inf*n_dn/(R*eta)

Arguments are mlsysim's (names, order, defaults); models and devices are registry keys, entries of the
:data:`Models` and :data:`Hardware` namespaces (``Models.Vision.ResNet50``), or mlsysim's own objects.
``mlsysim_symbolic.solvers.base`` says how a solver is declared.  mlsysim's other Models are declared as data
(``derivations/models/models.toml``, :mod:`.declared`): their classes are made on first use, by name
(``from mlsysim_symbolic.solvers import AcceptedTaskCostModel``), so importing this package stays fast.
"""

from __future__ import annotations

from typing import Any

from ..catalog import Scenarios
from ..errors import UnknownEntryError
from .analysis import SensitivitySolver, SynthesisSolver
from .applications import Application, Applications, EvaluationLevel, SLAViolation, SystemEvaluation, SystemEvaluator
from .base import Arg, OutOfMemoryError, Solver, SolverResult
from .cost_accounting import WorkloadLeverModel
from .declared import declared_solver, model_names
from .distributed import (
    DistributedModel,
    MoERoutingModel,
    NetworkRooflineModel,
    ResponsibleEngineeringModel,
    TopologyModel,
    TransformationModel,
)
from .namespaces import Hardware, Infrastructure, Models, Systems
from .operations import CheckpointModel, CompressionModel, DataModel, OrchestrationModel, ReliabilityModel, ScalingModel
from .performance import EfficiencyModel, Engine, SingleNodeModel, SingleNodeTrainingModel
from .serving import InferenceScalingModel, ServingModel
from .serving_models import ContinuousBatchingModel, ServingCapacityModel, WeightStreamingModel
from .sustainability import EconomicsModel, SustainabilityModel
from .system_classes import Fleet, NetworkFabric, Node
from .training import TrainingMemoryModel
from .workload_classes import (
    CNNWorkload,
    DiffusionWorkload,
    EmbodiedWorkload,
    SparseTransformerWorkload,
    SSMWorkload,
    TransformerWorkload,
    Workload,
)

Scenarios.extend(Applications)   # mlsysim's application scenarios by its names: Scenarios.ChatbotServing

__all__ = ["Application", "Applications", "Arg", "CheckpointModel", "ContinuousBatchingModel", "CompressionModel", "DataModel", "DistributedModel", "EconomicsModel", "EfficiencyModel",
           "Engine", "EvaluationLevel", "Hardware", "InferenceScalingModel", "Models", "OutOfMemoryError", "ReliabilityModel",
           "ResponsibleEngineeringModel", "SLAViolation", "ScalingModel", "SensitivitySolver", "ServingCapacityModel", "ServingModel", "SingleNodeModel", "SingleNodeTrainingModel", "Solver",
           "SolverResult", "SustainabilityModel", "SynthesisSolver", "SystemEvaluation", "SystemEvaluator", "Systems", "TopologyModel", "TrainingMemoryModel", "TransformationModel",
           "MoERoutingModel", "OrchestrationModel", "WeightStreamingModel", "WorkloadLeverModel", "Workload", "TransformerWorkload", "SparseTransformerWorkload", "CNNWorkload", "SSMWorkload", "DiffusionWorkload",
           "EmbodiedWorkload", "Infrastructure", "Fleet", "NetworkFabric", "NetworkRooflineModel", "Node"]


def __getattr__(name: str) -> Any:
    """A Model declared as data (:mod:`.declared`), made on first use; any other name is refused by AttributeError."""
    if name.startswith("__") or name not in model_names():
        raise UnknownEntryError("name", name, owner=__name__, listed=False)
    return declared_solver(name)


def __dir__() -> list[str]:
    return sorted({*globals(), *model_names()})
