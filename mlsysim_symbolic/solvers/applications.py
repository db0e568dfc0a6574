"""mlsysim's application scenarios: a workload on a device or a fleet with its SLA, evaluated in three levels.

The 13 scenarios of mlsysim 0.3.0's ``Scenarios`` (``ChatbotServing``, ``FrontierTraining``, ``KeywordSpotting`` ...)
are data in ``derivations/applications.toml``.  :meth:`Application.evaluate` runs one through the checked types
behind the solvers, as mlsysim's ``Scenario.evaluate`` does:

1. **Feasibility**: the weights against the device's memory (``SingleNodeModel``'s ``feasible``, ``W <= C``) and,
   where the workload has a data rate, the data wall (``DataModel``'s ``is_stalled``);
2. **Performance**: one roofline inference (``SingleNodeModel``) on a device, one 3-D parallel training step
   (``DistributedModel``) on a fleet, against the latency SLA;
3. **Macro**: a year of the device (a one-node fleet) or the fleet (``EconomicsModel``): carbon and total cost.

Every metric that is computed names its scenario and output, so each level's equations are reachable:

>>> from mlsysim_symbolic.solvers.applications import Applications
>>> e = Applications.ChatbotServing.evaluate()
>>> e.performance.status, e.performance.summary
('PASS', 'Latency: 5.60 ms (Target: 500 ms)')
>>> e.performance.equation("latency")
Eq(T, t_o + Max(t_c, t_m))
>>> e.feasibility.equation("weight_size")
Eq(W, P*b)
>>> e.macro.summary
'Annual Carbon: 2946.3 kg | TCO: $10,407'

A level's inverse solve answers the SLA's question: the largest batch the anomaly sensor serves within 10 ms.

>>> Applications.TinySensor.evaluate().performance.solve("latency", "batch_size", "10 ms").value
3

``mlsysim_symbolic.Scenarios`` reaches the same objects by mlsysim's names (``Scenarios.ChatbotServing``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import pint

from ..errors import DerivationError, InputError, SLAViolation, UnexpectedNameError, UnknownNameError, did_you_mean
from ..output_ref import OutputRef, analysis_surface
from ..paths import derivations_dir
from ..registry import clusters, hardware, workloads
from ..scenario import Scenario
from ..units import Q_, parse_quantity
from .base import SolverResult
from .distributed import DistributedModel
from .operations import DataModel
from .performance import SingleNodeModel
from .sustainability import EconomicsModel

#: mlsysim's year of operation for the macro level (``EconomicsModel().solve(fleet, duration_days=365)``).
MACRO_DAYS = 365

#: The fields of an application in ``derivations/applications.toml``: text, keys, quantities (with the unit
#: each must have), and the provenance table.
_TEXT = ("name", "description", "application", "note")
_KEYS = ("workload", "hardware", "fleet")
_QUANTITIES = {"sla_latency": "ms", "power_budget": "W", "data_rate": "GB/s"}
_FIELDS = (*_TEXT, *_KEYS, *_QUANTITIES, "target_accuracy", "source")


# a level's metrics come from several scenarios (no whole one) and are read from .metrics, never as attributes
@analysis_surface(whole=lambda level: None, members=frozenset({"level_name", "status", "summary", "metrics", "source"}))
class EvaluationLevel:
    """One level of an evaluation (mlsysim's ``EvaluationLevel``: ``level_name``, ``status``, ``summary``,
    ``metrics``), with the scenario and output behind each computed metric.

    ``ref(metric)`` is the output behind a metric as an :class:`~mlsysim_symbolic.output_ref.OutputRef`; the flat
    forms (``equation``, ``latex``, ``diff``, ``sweep``, ``solve`` ...) take a metric name and forward to it.  A
    metric that repeats an input (the device's capacity, the SLA) has no equation and says so.
    """

    __slots__ = ("level_name", "status", "summary", "metrics", "_sources")

    def __init__(self, level_name: str, status: str, summary: str, metrics: Mapping[str, Any],
                 sources: Mapping[str, tuple[Scenario, str] | None]) -> None:
        self.level_name, self.status, self.summary = level_name, status, summary
        self.metrics = dict(metrics)
        self._sources = dict(sources)

    def __repr__(self) -> str:
        return f"EvaluationLevel(level_name={self.level_name!r}, status={self.status!r}, summary={self.summary!r})"

    def source(self, metric: str) -> tuple[Scenario, str]:
        """The scenario and the output that computed ``metric``."""
        if metric not in self.metrics:
            raise UnexpectedNameError("metric", metric, self.metrics, owner=f"the {self.level_name} level")
        where = self._sources.get(metric)
        if where is None:
            raise InputError(f"the {self.level_name} level's {metric!r} repeats an input or is not computed here; "
                             "it has no equation")
        return where

    def ref(self, metric: str) -> OutputRef:
        """The output behind ``metric`` as an object (value, equation, LaTeX, derivative, sweep, solve ...)."""
        return OutputRef(*self.source(metric))

    # equation, latex, diff, elasticities, sweep, solve ... (metric, ...): forwards to self.ref(metric), installed by
    # @analysis_surface from spec.surface.ACCESSORS


@dataclass(frozen=True)
class SystemEvaluation:
    """mlsysim's ``SystemEvaluation``: the three levels of one application's evaluation."""

    scenario_name: str
    feasibility: EvaluationLevel
    performance: EvaluationLevel
    macro: EvaluationLevel

    @property
    def levels(self) -> tuple[EvaluationLevel, EvaluationLevel, EvaluationLevel]:
        """Feasibility, performance and macro, in order."""
        return (self.feasibility, self.performance, self.macro)

    @property
    def passed_all(self) -> bool:
        """Every level passed (mlsysim: PASS or SKIPPED)."""
        return all(level.status in {"PASS", "SKIPPED"} for level in self.levels)

    def to_dict(self) -> dict[str, Any]:
        """The evaluation as one flat dict, keys as mlsysim's (``f_status``, ``p_latency``, ``m_tco_usd`` ...)."""
        flat: dict[str, Any] = {"scenario": self.scenario_name}
        flat.update({f"{p}_status": level.status for p, level in zip("fpm", self.levels)})
        for p, level in zip("fpm", self.levels):
            flat.update({f"{p}_{k}": v for k, v in level.metrics.items()})
        return flat

    def scorecard(self) -> str:
        """The scorecard text, laid out as mlsysim's."""
        border = "═" * 60
        lines = [f"╔{border}╗", "║ MLSys·im SYSTEM EVALUATION", f"║ Scenario: {self.scenario_name}", f"╠{border}╣"]
        for i, (title, level) in enumerate(zip(("Feasibility", "Performance", "Macro/Economics"), self.levels)):
            lines += [f"║ Level {i + 1}: {title} [{level.status}]", f"║ ↳ {level.summary}"]
            if i < 2:
                lines.append(f"╟{'-' * 60}╢")
        lines.append(f"╚{border}╝")
        return "\n".join(lines)


@dataclass(frozen=True)
class _OneDeviceNode:
    """The node of mlsysim's one-node ``SimFleet``: one device."""

    accelerator: Any
    accelerators_per_node: int = 1


@dataclass(frozen=True)
class _OneNodeFleet:
    """mlsysim's one-node ``SimFleet`` of a single device: what EconomicsModel reads of it (one node of one
    device, no datacenter or region: the US average)."""

    node: _OneDeviceNode
    count: int = 1
    datacenter: Any = None
    region: Any = None


def _is_fleet(system: Any) -> bool:
    return getattr(system, "count", None) is not None and getattr(system, "node", None) is not None


def _quantity(value: Any, unit: str, label: str) -> pint.Quantity:
    q = parse_quantity(value, name=label) if isinstance(value, str) else value
    if not isinstance(q, pint.Quantity) or q.dimensionality != Q_(1, unit).dimensionality:
        raise InputError(f"{label}: expected a quantity in {unit}; got {value!r}")
    if not q.magnitude > 0:
        raise InputError(f"{label}: expected a positive quantity; got {value!r}")
    return q


def _shown(q: pint.Quantity | None) -> str:
    if q is None:
        return "N/A"
    key = (type(q.magnitude), q.magnitude, q.units)
    text = _TEXTS.get(key)
    if text is None:
        text = _TEXTS[key] = f"{q:~P}"
    return text


#: Text pint writes for a unit or a quantity, and root-unit factors: pint parses and formats units afresh each time
#: (most of an evaluate()'s time went there), and a summary reads a few of them again and again.
_TEXTS: dict[Any, str] = {}
_ROOTS: dict[Any, Any] = {}


@cache
def _unit(text: str) -> pint.Unit:
    return Q_(1, text).units


def _unit_text(units: pint.Unit) -> str:
    text = _TEXTS.get(units)
    if text is None:
        text = _TEXTS[units] = f"{units:~P}"
    return text


def _magnitude_in(q: pint.Quantity, unit: str | pint.Unit) -> Any:
    """``q.to(unit).magnitude``, with the factor found once per pair of units (pint re-derives it on each ``to``)."""
    key = (q.units, unit)
    factor = _FACTORS.get(key)
    if factor is None:
        factor = _FACTORS[key] = Q_(1, q.units).to(_unit(unit) if isinstance(unit, str) else unit).magnitude
    return q.magnitude * factor


_FACTORS: dict[Any, Any] = {}


def _root(q: pint.Quantity) -> Any:
    """``q.to_root_units().magnitude`` (the magnitude pint compares), with the factor found once per unit."""
    factor = _ROOTS.get(q.units)
    if factor is None:
        factor = _ROOTS[q.units] = Q_(1, q.units).to_root_units().magnitude
    return q.magnitude * factor


def _fixed(value: float, digits: int, grouping: str = "") -> str:
    """``value`` to ``digits`` decimals, rounded half up from its 12 significant digits: the rounding of the value
    the equation gives, not of its binary noise.  A summary is text a reader compares, so a decimal tie rounds the
    same way whichever side of it the float lands: 44.535 ms prints "44.54" from 44.534999999999997 and from
    44.535000000000004.  (mlsysim formats the float itself, so at a tie its last digit is that noise, and an exact
    binary tie rounds half to even: its 0.25 MB prints "0.2", ours "0.3".)

    >>> _fixed(44.534999999999997, 2), _fixed(44.535000000000004, 2), _fixed(0.25, 1), _fixed(10407.4741, 0, ",")
    ('44.54', '44.54', '0.3', '10,407')
    """
    exact = Decimal(f"{value:.12g}").quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return format(exact, f"{grouping}.{digits}f")


def _fixed_quantity(q: pint.Quantity, digits: int) -> str:
    """A Quantity as mlsysim's summaries print it (``f"{q:.2f~P}"``), rounded by :func:`_fixed`."""
    return f"{_fixed(q.magnitude, digits)} {_unit_text(q.units)}"


@dataclass(frozen=True)
class Application:
    """One application scenario (mlsysim's ``Scenario``): a workload on a device or a fleet, with constraints.

    ``workload`` is a workload key, an entry of :data:`Models` or mlsysim's own workload; ``system`` a device
    (hardware key, entry or mlsysim's ``HardwareNode``) or a fleet (a cluster of ``Systems.Clusters``, its key, or
    mlsysim's ``Fleet``).  ``data_rate`` is the data the workload ingests (mlsysim's ``workload.data_rate``; read
    from the workload when not given).  ``power_budget`` and ``target_accuracy`` are carried, not checked, as in
    mlsysim.

    >>> a = Application("Edge check", "ResNet-50 on a Jetson", "ResNet50", "JetsonOrinNX", sla_latency="20 ms")
    >>> a.evaluate().performance.status
    'PASS'
    """

    name: str
    description: str
    workload: Any
    system: Any
    application: str | None = None
    sla_latency: Any = None
    target_accuracy: float | None = None
    power_budget: Any = None
    data_rate: Any = None
    note: str = ""
    source: Mapping[str, Any] | None = field(default=None, compare=False)
    key: str | None = None

    def __post_init__(self) -> None:
        for name, unit in _QUANTITIES.items():
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _quantity(value, unit, f"{self.name}: {name}"))

    @cached_property
    def resolved_system(self) -> Any:
        """The system as an object: a key is looked up in the hardware registry, then in ``Systems.Clusters``."""
        return _system(self.system, f"{self.name}: system") if isinstance(self.system, str) else self.system

    @cached_property
    def is_distributed(self) -> bool:
        """The system is a fleet (mlsysim's ``Fleet``) rather than one device."""
        return _is_fleet(self.resolved_system)

    @property
    def hardware(self) -> Any:
        """The device: the system, or a fleet's node's accelerator (what the feasibility level checks)."""
        system = self.resolved_system
        return system.node.accelerator if self.is_distributed else system

    def variant(self, **changes: Any) -> Application:
        """A copy with some fields changed (mlsysim's ``model_copy(update=...)``)."""
        unknown = [k for k in changes if k not in self.__dataclass_fields__]
        if unknown:
            raise UnexpectedNameError("field", unknown[0], self.__dataclass_fields__, owner="Application")
        return replace(self, **changes)

    def model_copy(self, update: Mapping[str, Any] | None = None) -> Application:
        """mlsysim's spelling of :meth:`variant`."""
        return self.variant(**dict(update or {}))

    def _data_rate(self) -> Any:
        return self.data_rate if self.data_rate is not None else getattr(self.workload, "data_rate", None)

    def _feasibility(self, node: SolverResult) -> EvaluationLevel:
        weights, capacity = node.memory_footprint, node.scenario.inputs["hardware"].memory_capacity
        fits = node.feasible
        stalled, data_summary, data_source = False, "", None
        rate = self._data_rate()
        if rate:
            data = DataModel().scenario(rate, self.hardware)
            stalled, data_source = data.is_stalled, (data, "is_stalled")
            if data.supply_bw.magnitude == 0:   # mlsysim: utilization inf ("infx capacity"); ours refuses to divide by 0
                data_summary = " | Data Wall: Pipeline Stalled (the device describes no data path: supply 0 GB/s)"
            elif stalled:
                data_summary = f" | Data Wall: Pipeline Stalled ({_fixed(_magnitude_in(data.utilization, ''), 1)}x capacity)"
            else:
                data_summary = f" | Data Pipeline: OK ({_fixed(_magnitude_in(data.utilization, '') * 100, 1)}%)"
        unit = _unit("MB" if _root(weights) < _root(Q_(1, _unit("GB"))) else "GB")
        w, c = (f"{_fixed(_magnitude_in(q, unit), 1)} {_unit_text(unit)}" for q in (weights, capacity))
        summary = f"Model fits in memory ({w} / {c})" if fits else f"OOM: Requires {w} but only has {c}"
        return EvaluationLevel(
            "Feasibility", "PASS" if fits and not stalled else "FAIL", summary + data_summary,
            {"weight_size": weights, "capacity": capacity, "data_stalled": stalled},
            {"weight_size": (node.scenario, node.output("memory_footprint")), "capacity": None, "data_stalled": data_source})

    def _performance(self, node: SolverResult, batch_size: int, precision: str) -> EvaluationLevel:
        if self.is_distributed:
            step = DistributedModel().solve(self.workload, self.resolved_system, batch_size=batch_size, precision=precision)
            s = step.scenario
            latency = step.step_latency_total
            metrics = {"latency": latency, "throughput": step.effective_throughput, "scaling_eff": step.scaling_efficiency,
                       "mfu": _magnitude_in(s.fleet_mfu, ""), "node_mfu": _magnitude_in(s.node_mfu, ""), "sla_latency": self.sla_latency}
            sources = {"latency": (s, "step_latency_total"), "throughput": (s, "effective_throughput"),
                       "scaling_eff": (s, "scaling_efficiency"), "mfu": (s, "fleet_mfu"), "node_mfu": (s, "node_mfu")}
        else:
            s = node.scenario
            latency = node.latency
            metrics = {"latency": latency, "throughput": node.throughput, "bottleneck": node.bottleneck, "sla_latency": self.sla_latency}
            sources = {"latency": (s, "latency"), "throughput": (s, "throughput"), "bottleneck": (s, "bottleneck")}
        status = "FAIL" if self.sla_latency is not None and latency > self.sla_latency else "PASS"
        summary = f"Latency: {_fixed_quantity(latency, 2)} (Target: {_shown(self.sla_latency)})"
        return EvaluationLevel("Performance", status, summary, metrics, {**sources, "sla_latency": None})

    def _macro(self) -> EvaluationLevel:
        fleet = self.resolved_system if self.is_distributed else _OneNodeFleet(_OneDeviceNode(self.hardware))
        econ = EconomicsModel().solve(fleet, duration_days=MACRO_DAYS)
        summary = f"Annual Carbon: {_fixed(econ.carbon_footprint_kg, 1)} kg | TCO: ${_fixed(econ.tco_usd, 0, ',')}"
        return EvaluationLevel(
            "Macro", "PASS", summary, {"carbon_kg": econ.carbon_footprint_kg, "tco_usd": econ.tco_usd},
            {"carbon_kg": (econ.scenario, econ.output("carbon_footprint_kg")), "tco_usd": (econ.scenario, econ.output("tco_usd"))})

    def evaluate(self, batch_size: int = 1, precision: str = "fp16") -> SystemEvaluation:
        """The three levels (mlsysim's ``Scenario.evaluate``), each metric from a checked type."""
        node = SingleNodeModel().solve(self.workload, self.hardware, batch_size=batch_size, precision=precision)
        return SystemEvaluation(self.name, self._feasibility(node), self._performance(node, batch_size, precision),
                                self._macro())

    def validate(self, batch_size: int = 1, precision: str = "fp16") -> bool:
        """True when feasibility and performance pass; else the failing level's error (mlsysim's ``validate``:
        :class:`~mlsysim_symbolic.solvers.OutOfMemoryError` for feasibility, :class:`SLAViolation` for performance)."""
        from .base import OutOfMemoryError

        e = self.evaluate(batch_size=batch_size, precision=precision)
        if e.feasibility.status == "FAIL":
            raise OutOfMemoryError(f"Feasibility Failure: {e.feasibility.summary}")
        if e.performance.status == "FAIL":
            raise SLAViolation(f"Performance Failure: {e.performance.summary}")
        return True


class SystemEvaluator:
    """mlsysim's ``mlsysim.engine.evaluation.SystemEvaluator``: one workload on one device (or a fleet) scored in the
    three levels, each metric read from a solver's checked type.

    As mlsysim's pipeline composes it: ``SingleNodeModel`` when ``nodes == 1`` or no fleet is given (feasibility is
    the footprint against the device's memory, performance the roofline), else ``DistributedModel`` with
    ``tp_size = pp_size = 1`` (feasibility SKIPPED: the distributed path checks no memory); ``EconomicsModel`` for
    the macro level only when a fleet and ``duration_days`` are both given (else SKIPPED), with the single node's
    MFU as its ``mfu`` (mlsysim's pipeline hands each stage the earlier stages' result fields by name).  Metric
    units are mlsysim's: memory in GB, latency in ms, throughput in 1/s, TCO and costs in USD, carbon in tonnes.
    Two divergences, both our ``DistributedModel``'s, both refusals: the distributed path takes a transformer only
    (the port is mlsysim's transformer step), so a CNN on a fleet raises
    :class:`~mlsysim_symbolic.errors.WorkloadKindError` (a ``TypeError``) where mlsysim runs its per-replica
    roofline; and it knows no ``int4`` (an :class:`~mlsysim_symbolic.errors.InputError`).

    >>> e = SystemEvaluator.evaluate("Llama-3 8B on H100", "Llama3_8B", "H100", batch_size=32, precision="fp16",
    ...                              efficiency=0.45)
    >>> e.feasibility.summary, e.performance.summary, e.macro.status
    ('16.1 GB / 85.9 GB used', 'Memory Bound', 'SKIPPED')
    >>> e.performance.equation("latency")
    Eq(T, t_o + Max(t_c, t_m))
    """

    @staticmethod
    def evaluate(scenario_name: str, model_obj: Any, hardware_obj: Any, batch_size: int, precision: str,
                 efficiency: float, fleet_obj: Any = None, nodes: int = 1,
                 duration_days: float | None = None) -> SystemEvaluation:
        """The three levels of ``model_obj`` on ``hardware_obj`` (or on ``fleet_obj`` when ``nodes > 1``)."""
        if nodes == 1 or fleet_obj is None:
            node = SingleNodeModel().solve(model_obj, hardware_obj, batch_size=batch_size, precision=precision,
                                           efficiency=efficiency, raise_errors=False)
            feasibility, performance = _single_node_levels(node)
            mfu = node.mfu
        else:
            step = DistributedModel().solve(model_obj, fleet_obj, batch_size=batch_size, precision=precision,
                                            efficiency=efficiency, tp_size=1, pp_size=1)
            feasibility, performance = _fleet_levels(step)
            mfu = 1.0
        macro = EvaluationLevel("Macro", "SKIPPED", "No Ops config provided", {}, {})
        if fleet_obj is not None and duration_days:
            econ = EconomicsModel().solve(fleet_obj, duration_days, mfu=mfu)
            s = econ.scenario
            macro = EvaluationLevel(
                "Economics & Sustainability", "PASS", f"TCO: ${_fixed(econ.tco_usd, 0, ',')}",
                {"tco_usd": econ.tco_usd, "carbon_footprint": econ.carbon_footprint_kg / 1000.0,
                 "energy_cost": econ.opex_energy_usd, "capex": econ.capex_usd},
                {"tco_usd": (s, econ.output("tco_usd")), "carbon_footprint": None,
                 "energy_cost": (s, econ.output("opex_energy_usd")), "capex": (s, econ.output("capex_usd"))})
        return SystemEvaluation(scenario_name, feasibility, performance, macro)


def _single_node_levels(node: SolverResult) -> tuple[EvaluationLevel, EvaluationLevel]:
    """mlsysim's feasibility and performance levels of a SingleNodeModel result."""
    s = node.scenario
    used, capacity = node.memory_footprint, s.inputs["hardware"].memory_capacity
    gb = _unit("GB")
    shown = " / ".join(f"{_fixed(_magnitude_in(q, gb), 1)} GB" for q in (used, capacity))
    feasibility = EvaluationLevel(
        "Memory Feasibility", "PASS" if node.feasible else "FAIL", f"{shown} used",
        {"memory_used_gb": _magnitude_in(used, gb), "memory_capacity_gb": _magnitude_in(capacity, gb),
         "memory_utilization": _magnitude_in(used / capacity, "")},
        {"memory_used_gb": (s, node.output("memory_footprint")), "memory_capacity_gb": None, "memory_utilization": None})
    bound = f"{node.bottleneck} Bound" + ("" if node.feasible else " (infeasible)")
    performance = EvaluationLevel(
        "Single Node Performance", "PASS" if node.feasible else "FAIL", bound,
        {"latency": _magnitude_in(node.latency, "ms"), "throughput": _magnitude_in(node.throughput, "1/s"),
         "mfu": node.mfu},
        {name: (s, node.output(name)) for name in ("latency", "throughput", "mfu")})
    return feasibility, performance


def _fleet_levels(step: SolverResult) -> tuple[EvaluationLevel, EvaluationLevel]:
    """mlsysim's feasibility (SKIPPED) and performance levels of a DistributedModel result."""
    s = step.scenario
    feasibility = EvaluationLevel(
        "Feasibility", "SKIPPED", "Memory feasibility not evaluated for the distributed path "
        "(requires ZeRO/accumulation assumptions; size it with TrainingMemoryModel)", {}, {})
    performance = EvaluationLevel(
        "Fleet Performance", "PASS", f"Scaling Efficiency: {_fixed(step.scaling_efficiency * 100, 1)}%",
        {"step_latency": _magnitude_in(step.step_latency_total, "ms"),
         "comm_overhead": _magnitude_in(step.communication_latency, "ms"),
         "fleet_throughput": _magnitude_in(step.effective_throughput, "1/s"), "mfu": _magnitude_in(s.fleet_mfu, ""),
         "node_mfu": _magnitude_in(s.node_mfu, ""), "scaling_efficiency": step.scaling_efficiency},
        {"step_latency": (s, "step_latency_total"), "comm_overhead": (s, "communication_latency"),
         "fleet_throughput": (s, "effective_throughput"), "mfu": (s, "fleet_mfu"), "node_mfu": (s, "node_mfu"),
         "scaling_efficiency": (s, "scaling_efficiency")})
    return feasibility, performance


def _system(key: str, label: str) -> Any:
    """A device or a fleet by registry key (the hardware registry first, then the clusters)."""
    devices, fleets = hardware(), clusters()
    if key in devices:
        return devices[key]
    if key in fleets:
        return fleets[key]
    raise UnknownNameError("hardware or cluster key", key, [*devices, *fleets], owner=label, listed=False)


def _read(path: Path) -> dict[str, Application]:
    try:
        with path.open("rb") as f:
            tables = tomllib.load(f).get("applications", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DerivationError(f"cannot read the applications: {exc}", path=str(path)) from None
    apps = {}
    for key, raw in tables.items():
        where = f"{path.name}: applications.{key}"
        unknown = [k for k in raw if k not in _FIELDS]
        if unknown:
            raise DerivationError(UnknownNameError("field", unknown[0], _FIELDS, owner=where), path=str(path))
        systems = [k for k in ("hardware", "fleet") if k in raw]
        if len(systems) != 1 or "workload" not in raw or "name" not in raw:
            raise DerivationError(f"{where}: needs a name, a workload and exactly one of hardware or fleet", path=str(path))
        for name, registry in (("workload", workloads()), ("hardware", hardware()), ("fleet", clusters())):
            if name in raw and raw[name] not in registry:
                raise DerivationError(f"{where}: {name} {raw[name]!r} is not in the {name} registry"
                                      + did_you_mean(raw[name], list(registry)), path=str(path))
        try:
            apps[key] = Application(
                name=raw["name"], description=raw.get("description", ""), workload=raw["workload"],
                system=raw.get("hardware") or raw["fleet"], application=raw.get("application"),
                sla_latency=raw.get("sla_latency"), target_accuracy=raw.get("target_accuracy"),
                power_budget=raw.get("power_budget"), data_rate=raw.get("data_rate"), note=raw.get("note", ""),
                source=raw.get("source"), key=key)
        except InputError as exc:
            raise DerivationError(f"{where}: {exc}", path=str(path)) from None
    return apps


@cache
def _shipped() -> dict[str, Application]:
    return _read(derivations_dir() / "applications.toml")


class _Applications(Mapping[str, Application]):
    """The application scenarios by key or attribute (``Applications.ChatbotServing``)."""

    def __getitem__(self, key: str) -> Application:
        apps = _shipped()
        if key not in apps:
            raise UnknownNameError("application scenario", key, apps)
        return apps[key]

    def __getattr__(self, key: str) -> Application:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except UnknownNameError as exc:
            raise AttributeError(str(exc)) from None

    def __iter__(self) -> Iterator[str]:
        return iter(_shipped())

    def __len__(self) -> int:
        return len(_shipped())

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *_shipped()]

    def __repr__(self) -> str:
        return f"<Applications: {', '.join(_shipped())}>"


#: mlsysim's 13 application scenarios, read from ``derivations/applications.toml`` on first use.
Applications = _Applications()


def read_applications(path: str | Path) -> dict[str, Application]:
    """Application scenarios from another file of the same form (each checked as the shipped ones)."""
    return _read(Path(path))
