"""mlsysim's analysis solvers, ``SensitivitySolver`` and ``SynthesisSolver``, over the single-node roofline.

``SensitivitySolver`` binds RooflineSensitivityScenario: the roofline of SingleNodeInferenceScenario composed at
the device and at three upgraded devices (peak rate, memory bandwidth, memory capacity each times 1 + p/100), so
mlsysim's finite sensitivities and binding constraint are outputs of a checked type, and the infinitesimal answer,
the elasticity d ln T / d ln x of the baseline latency, is one call away:

>>> from mlsysim_symbolic.solvers import Hardware, Models, SensitivitySolver, SynthesisSolver
>>> from mlsysim_symbolic.solvers.analysis import binding_by_elasticity, elasticities
>>> r = SensitivitySolver().solve(Models.Language.Llama3_8B, Hardware.Cloud.H100)
>>> r.binding_constraint, round(r.sensitivities["memory_bandwidth"], 4)
('memory_bandwidth', -0.0856)
>>> e = elasticities(r)                       # d ln T/d ln x of baseline_latency, keyed as r.sensitivities
>>> round(e["memory_bandwidth"].value, 4), abs(e["peak_flops"].value), e["memory_capacity"].value
(-0.9411, 0.0, 0.0)
>>> e["memory_bandwidth"].derivative.has(e["memory_bandwidth"].symbol), binding_by_elasticity(r)
(True, 'memory_bandwidth')

``r.elasticities("baseline_latency")`` gives every input's elasticity (flash bandwidth, overheads, efficiency ...),
each at the cost of a symbolic simplification of the roofline; :func:`elasticities` only the three parameters
mlsysim perturbs.

``SynthesisSolver`` binds RooflineSynthesisScenario, the roofline inverted for one pass that streams every weight
once; its inverse solve answers the question the other way round (the weight-streaming time of a device with a
given bandwidth):

>>> s = SynthesisSolver().solve("Llama3_8B", "10 ms")
>>> s.required_bw, s.required_memory
(<Quantity(1606.0, 'gigabyte / second')>, <Quantity(16.06, 'gigabyte')>)
>>> s.solve("required_bw", "target_latency", "3350 GB/s").value        # 16.06 GB / 3350 GB/s
<Quantity(4.79402985, 'millisecond')>
"""

from __future__ import annotations

from ..errors import InputError
from ..symbolic import Elasticity
from ..symbolic import elasticities as _elasticities
from .base import REQUIRED, WORKLOADS, Arg, Solver, SolverResult

#: mlsysim's perturbed parameters, in its order, and the input (or symbol) of RooflineSensitivityScenario each is.
PARAMETERS = {"peak_flops": "R", "memory_bandwidth": "memory_bandwidth", "memory_capacity": "memory_capacity"}


class SensitivitySolver(Solver):
    """mlsysim's ``SensitivitySolver``: the relative change in latency when each of peak rate, memory bandwidth and
    memory capacity is raised by ``perturbation_pct`` percent, and the binding one (``SensitivityResult``).

    A non-positive ``perturbation_pct`` is refused (mlsysim computes it, but it is no upgrade); the prose
    ``constraint_trace`` is not carried.
    """

    type_name = "RooflineSensitivityScenario"
    result_name = "SensitivityResult"
    arguments = (
        Arg("model", REQUIRED, kinds=WORKLOADS),
        Arg("hardware", REQUIRED),
        Arg("precision", "fp16", lower=True),
        Arg("perturbation_pct", 10.0),
        Arg("efficiency", 0.5),
    )


class SynthesisSolver(Solver):
    """mlsysim's ``SynthesisSolver``: the bandwidth, peak rate and memory a device needs to run one pass of the
    model within ``target_latency`` (``SynthesisResult``)."""

    type_name = "RooflineSynthesisScenario"
    result_name = "SynthesisResult"
    arguments = (
        Arg("model", REQUIRED, kinds=WORKLOADS),
        Arg("target_latency", REQUIRED),
        Arg("precision", "fp16", lower=True),
        Arg("efficiency", 0.5),
    )


def elasticities(result: SolverResult) -> dict[str, Elasticity]:
    """The infinitesimal counterpart of a ``SensitivityResult``: d ln T/d ln x of ``baseline_latency`` for each
    parameter mlsysim perturbs (keyed as ``result.sensitivities``), symbolic and at the solve's values.

    Where the weights fit and one ceiling binds by more than k, a finite upgrade by k changes T by exactly
    (1 - 1/k)·e of the binding parameter (e = -t_bind/T) and the others by 0; near the ridge point the finite change
    is capped by the other ceiling, and memory capacity, which enters only through whether the weights fit, has
    elasticity 0 while a finite upgrade that makes them fit changes latency by a step.
    """
    if result.scenario.type.name != SensitivitySolver.type_name:
        raise InputError(f"elasticities: expected a SensitivitySolver result, got one of {result.scenario.type.name}")
    found = {e.input: e for e in _elasticities(result.scenario, "baseline_latency", only=tuple(PARAMETERS.values()))}
    return {field: found[name] for field, name in PARAMETERS.items()}


def binding_by_elasticity(result: SolverResult) -> str:
    """The parameter of largest |d ln T/d ln x| (the first in mlsysim's order on a tie, as its ``max``): the
    binding constraint of an infinitesimal upgrade.  Unlike mlsysim's answer it has no rule for a model that does
    not fit (see :func:`elasticities`)."""
    e = elasticities(result)
    return max(e, key=lambda field: abs(e[field].value))
