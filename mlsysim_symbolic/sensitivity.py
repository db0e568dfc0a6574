"""Sensitivity analysis of any output: local, one-at-a-time, global (SALib) and uncertainty.

- :func:`local`: symbolic partial derivatives and elasticities, valued at the scenario, ranked;
- :func:`one_at_a_time` and :func:`tornado`: each input at a low and a high value, sorted by swing;
- :func:`morris` and :func:`sobol`: global screening and variance indices through SALib's
  ``sample``/``analyze`` pairs (:func:`sobol_indices` and :func:`morris_indices` take any function);
- :func:`uncertainty`: inputs as intervals or distributions; linear propagation from the symbolic
  derivatives (sigma_y^2 = sum (dy/dx_i)^2 sigma_i^2) beside Monte Carlo.

>>> from mlsysim_symbolic import Scenarios
>>> t = one_at_a_time(Scenarios.DpSgdPerExampleGradients, "per_batch", "GPT-2", pct=10)
>>> [r["input"] for r in t]
['batch_size', 'bytes_per_param', 'parameters']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pint
import sympy

from .errors import InputError
from .evaluate import compile_tree
from .sweep import VectorPlan, vector_plan
from .tables import Table
from .units import Q_, convert, from_base, to_base
from .variables import Variable

if TYPE_CHECKING:
    from .scenario import Scenario


def _inputs_of(scenario: Scenario, plan: VectorPlan) -> list[str]:
    t = scenario.type
    names = []
    for sym in plan.args:
        var = t.leaves.get(sym)
        if var is not None and t.leaf_input.get(sym) in t.arguments:
            continue
        names.append(var.name if var is not None else sym.name)
    return names


def _plan_for(scenario: Scenario, output: str, keys: tuple[Any, ...], names: Sequence[str] | None, arguments: Mapping[str, Any]) -> tuple[VectorPlan, list[str]]:
    probe = vector_plan(scenario, output, keys, (), **arguments)
    all_names = _inputs_of(scenario, probe)
    chosen = list(names) if names is not None else all_names
    return vector_plan(scenario, output, keys, chosen, **arguments), chosen


def _as_base(value: Any, var: Variable, name: str, domain: bool = True) -> float:
    """A value of input ``var`` (number in its unit, Quantity or text) in base units; inside its domain unless ``domain=False``."""
    if isinstance(value, (str, pint.Quantity)):
        value = var.quantity(value, label=name)   # the unit rules of inputs (counted kinds, other registries)
        value = convert(value.magnitude, value.units, var.unit)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) or not math.isfinite(float(value)):
        raise InputError(f"{name}: expected a finite number or quantity in {var.unit_text}, got {value!r}")
    if domain and not var.domain.contains(float(value)):
        raise InputError(f"{name}: expected a value in {var.domain} {var.unit_text}, got {value}")
    return float(to_base(float(value), var.unit))


def _q(base: float, var: Variable) -> pint.Quantity:
    return Q_(from_base(base, var.unit), var.unit)


def local(scenario: Scenario, output: str, *keys: Any, **arguments: Any) -> Table:
    """Partial derivatives (with units) and elasticities of ``output`` at the scenario, ranked by |elasticity|."""
    rows = scenario.elasticities(output, *keys, **arguments)
    records = [
        {"input": r.input, "symbol": r.symbol, "derivative": r.derivative, "derivative_value": r.derivative_value,
         "elasticity": r.expression, "elasticity_value": r.value}
        for r in rows
    ]
    return Table(("input", "symbol", "derivative", "derivative_value", "elasticity", "elasticity_value"), records, title=output)


def one_at_a_time(scenario: Scenario, output: str, *keys: Any, pct: float = 10.0,
                  ranges: Mapping[str, tuple[Any, Any]] | None = None, inputs: Sequence[str] | None = None,
                  **arguments: Any) -> Table:
    """Each input at a low and a high value (given in ``ranges``, else +/- ``pct`` %), the others held; sorted by swing."""
    if not (0 < pct < 100):
        raise InputError(f"pct must be in (0, 100), got {pct}")
    plan, names = _plan_for(scenario, output, keys, inputs, arguments)
    ranges = dict(ranges or {})
    unknown = [n for n in ranges if n not in plan.positions]
    if unknown:
        raise InputError(f"ranges: {unknown[0]!r} is not an input of {output}; inputs: {', '.join(names)}")
    baseline_base = float(plan())
    records = []
    for name in names:
        var = plan.variables[name]
        x = plan.base[plan.positions[name]]
        if name in ranges:
            lo, hi = (_as_base(v, var, name) for v in ranges[name])
        else:
            lo, hi = x * (1 - pct / 100), x * (1 + pct / 100)
            if var.integer:
                lo = to_base(max(math.floor(from_base(lo, var.unit)), 1 if var.domain.positive else 0), var.unit)
                hi = to_base(math.ceil(from_base(hi, var.unit)), var.unit)
        y_lo, y_hi = float(plan(**{name: lo})), float(plan(**{name: hi}))
        records.append({
            "input": name, "value": _q(x, var), "low": _q(lo, var), "high": _q(hi, var),
            "output_low": Q_(y_lo, plan.unit), "output_high": Q_(y_hi, plan.unit),
            "swing": Q_(abs(y_hi - y_lo), plan.unit), "baseline": Q_(baseline_base, plan.unit),
        })
    records.sort(key=lambda r: (-r["swing"].magnitude, r["input"]))
    return Table(("input", "value", "low", "high", "output_low", "output_high", "swing", "baseline"), records, title=output)


def tornado(scenario: Scenario, output: str, *keys: Any, ax: Any = None, **options: Any) -> Any:
    """A tornado chart (matplotlib Figure) of :func:`one_at_a_time`."""
    from .plots import tornado as draw

    table = one_at_a_time(scenario, output, *keys, **options)
    label = getattr(scenario, "key", scenario.name)
    return draw(table, ax=ax, title=f"{label}: {output}")


# ---------------------------------------------------------------------- global (SALib)
def _problem(names: Sequence[str], bounds: Sequence[tuple[float, float]]) -> dict[str, Any]:
    if len(names) != len(bounds):
        raise InputError("one (low, high) bound per input is needed")
    for n, (lo, hi) in zip(names, bounds):
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise InputError(f"{n}: bounds must be finite with low < high, got ({lo}, {hi})")
    return {"num_vars": len(names), "names": list(names), "bounds": [[float(lo), float(hi)] for lo, hi in bounds]}


def sobol_indices(function: Callable[[np.ndarray], np.ndarray], names: Sequence[str], bounds: Sequence[tuple[float, float]],
                  n: int = 1024, seed: int = 0, title: str = "") -> Table:
    """First-order and total Sobol indices of ``function`` (rows of X -> Y) over uniform ``bounds``, via SALib."""
    from SALib.analyze import sobol as sobol_analyze
    from SALib.sample import sobol as sobol_sample

    problem = _problem(names, bounds)
    X = sobol_sample.sample(problem, n, calc_second_order=False, seed=seed)
    Y = np.asarray(function(X), dtype=float).reshape(-1)
    Si = sobol_analyze.analyze(problem, Y, calc_second_order=False, seed=seed)
    records = [{"input": name, "S1": float(Si["S1"][i]), "S1_conf": float(Si["S1_conf"][i]),
                "ST": float(Si["ST"][i]), "ST_conf": float(Si["ST_conf"][i])} for i, name in enumerate(names)]
    records.sort(key=lambda r: -r["ST"])
    return Table(("input", "S1", "S1_conf", "ST", "ST_conf"), records, title=title or "Sobol indices")


def morris_indices(function: Callable[[np.ndarray], np.ndarray], names: Sequence[str], bounds: Sequence[tuple[float, float]],
                   n: int = 100, levels: int = 4, seed: int = 0, title: str = "") -> Table:
    """Morris elementary-effects screening (mu*, mu, sigma) of ``function`` via SALib."""
    from SALib.analyze import morris as morris_analyze
    from SALib.sample import morris as morris_sample

    problem = _problem(names, bounds)
    X = morris_sample.sample(problem, n, num_levels=levels, seed=seed)
    Y = np.asarray(function(X), dtype=float).reshape(-1)
    Si = morris_analyze.analyze(problem, X, Y, num_levels=levels, seed=seed)
    records = [{"input": name, "mu_star": float(Si["mu_star"][i]), "mu": float(Si["mu"][i]),
                "sigma": float(Si["sigma"][i]), "mu_star_conf": float(Si["mu_star_conf"][i])} for i, name in enumerate(names)]
    records.sort(key=lambda r: -r["mu_star"])
    return Table(("input", "mu_star", "mu", "sigma", "mu_star_conf"), records, title=title or "Morris screening")


def _scenario_function(scenario: Scenario, output: str, keys: tuple[Any, ...], ranges: Mapping[str, tuple[Any, Any]],
                       arguments: Mapping[str, Any]) -> tuple[Callable[[np.ndarray], np.ndarray], list[str], list[tuple[float, float]], VectorPlan]:
    if not ranges:
        raise InputError("global sensitivity needs ranges: {input: (low, high)} for at least one input")
    plan = vector_plan(scenario, output, keys, list(ranges), **arguments)
    names = list(ranges)
    bounds = []
    for name in names:
        lo, hi = ranges[name]
        var = plan.variables[name]
        bounds.append((_as_base(lo, var, name), _as_base(hi, var, name)))

    def function(X: np.ndarray) -> np.ndarray:
        y = plan(**{name: X[:, i] for i, name in enumerate(names)})
        return np.broadcast_to(y, (X.shape[0],))

    return function, names, bounds, plan


def sobol(scenario: Scenario, output: str, *keys: Any, ranges: Mapping[str, tuple[Any, Any]], n: int = 1024, seed: int = 0,
          **arguments: Any) -> Table:
    """Sobol first-order (S1) and total (ST) indices of ``output`` over uniform input ``ranges``."""
    function, names, bounds, _ = _scenario_function(scenario, output, keys, ranges, arguments)
    return sobol_indices(function, names, bounds, n=n, seed=seed, title=output)


def morris(scenario: Scenario, output: str, *keys: Any, ranges: Mapping[str, tuple[Any, Any]], n: int = 100, levels: int = 4,
           seed: int = 0, **arguments: Any) -> Table:
    """Morris screening of ``output`` over input ``ranges`` (mu* in the output's declared unit)."""
    function, names, bounds, _ = _scenario_function(scenario, output, keys, ranges, arguments)
    return morris_indices(function, names, bounds, n=n, levels=levels, seed=seed, title=output)


# ---------------------------------------------------------------------- uncertainty
@dataclass(frozen=True)
class Distribution:
    """An input's uncertainty: ``normal(mean, sd)``, ``uniform(low, high)``, ``triangular(low, mode, high)``,
    or ``lognormal(median, sigma)`` (sigma of the logarithm).  Parameters are in base units."""

    kind: str
    params: tuple[float, ...]

    @property
    def mean(self) -> float:
        p = self.params
        if self.kind == "normal":
            return p[0]
        if self.kind == "uniform":
            return (p[0] + p[1]) / 2
        if self.kind == "triangular":
            return sum(p) / 3
        return p[0] * math.exp(p[1] ** 2 / 2)

    @property
    def sd(self) -> float:
        p = self.params
        if self.kind == "normal":
            return p[1]
        if self.kind == "uniform":
            return (p[1] - p[0]) / math.sqrt(12)
        if self.kind == "triangular":
            a, c, b = p
            return math.sqrt((a * a + b * b + c * c - a * b - a * c - b * c) / 18)
        m, s = p
        return m * math.sqrt((math.exp(s * s) - 1) * math.exp(s * s))

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        p = self.params
        if self.kind == "normal":
            return rng.normal(p[0], p[1], n)
        if self.kind == "uniform":
            return rng.uniform(p[0], p[1], n)
        if self.kind == "triangular":
            return rng.triangular(p[0], p[1], p[2], n)
        return p[0] * np.exp(rng.normal(0.0, p[1], n))


def distribution(spec: Any, var: Variable, name: str) -> Distribution:
    """Read ``(low, high)``, ``("uniform", low, high)``, ``("normal", mean, sd)``, ``("triangular", low, mode, high)``
    or ``("lognormal", median, sigma)`` with values in the input's unit (numbers, Quantities or text)."""
    if isinstance(spec, Distribution):
        return spec
    if not isinstance(spec, (tuple, list)) or not spec:
        raise InputError(f"{name}: expected (low, high) or (kind, params...), got {spec!r}")
    kind = spec[0] if isinstance(spec[0], str) and spec[0] in ("normal", "uniform", "triangular", "lognormal") else "uniform"
    params = list(spec[1:] if kind == spec[0] else spec)
    expected = {"normal": 2, "uniform": 2, "triangular": 3, "lognormal": 2}[kind]
    if len(params) != expected:
        raise InputError(f"{name}: a {kind} distribution takes {expected} parameters, got {len(params)}")
    if kind == "lognormal":
        values = (_as_base(params[0], var, name), float(params[1]))
    elif kind == "normal":
        values = (_as_base(params[0], var, name), abs(_as_base(params[1], var, name, domain=False)) if not isinstance(params[1], (int, float)) else float(to_base(float(params[1]), var.unit)))
    else:
        values = tuple(_as_base(v, var, name) for v in params)
    if kind in ("uniform", "triangular") and not values[0] < values[-1]:
        raise InputError(f"{name}: low must be below high, got {params}")
    if kind == "normal" and values[1] < 0:
        raise InputError(f"{name}: the standard deviation must be >= 0")
    return Distribution(kind, tuple(float(v) for v in values))


@dataclass
class Uncertainty:
    """Linear propagation and Monte Carlo side by side, in the output's declared unit."""

    output: str
    linear_mean: pint.Quantity
    linear_sd: pint.Quantity
    mc_mean: pint.Quantity
    mc_sd: pint.Quantity
    mc_p05: pint.Quantity
    mc_p95: pint.Quantity
    samples: int
    contributions: Table

    @property
    def sd_ratio(self) -> float:
        """Monte Carlo sd over linear sd (1 when the output is linear over the input spread)."""
        return float(self.mc_sd.magnitude / self.linear_sd.to(self.mc_sd.units).magnitude)

    def to_records(self) -> list[dict[str, Any]]:
        return [{"method": "linear", "mean": self.linear_mean, "sd": self.linear_sd},
                {"method": "monte carlo", "mean": self.mc_mean, "sd": self.mc_sd, "p05": self.mc_p05, "p95": self.mc_p95}]

    def _repr_html_(self) -> str:
        return Table(("method", "mean", "sd", "p05", "p95"), self.to_records(), title=f"Uncertainty of {self.output}")._repr_html_()


def uncertainty(scenario: Scenario, output: str, *keys: Any, inputs: Mapping[str, Any], samples: int = 100_000, seed: int = 0,
                **arguments: Any) -> Uncertainty:
    """Propagate input uncertainty to ``output``: linear (symbolic derivatives at the means) and Monte Carlo."""
    if not inputs:
        raise InputError("uncertainty needs inputs: {input: (low, high) or (kind, params...)}")
    if samples < 2:
        raise InputError(f"samples must be at least 2, got {samples}")
    plan = vector_plan(scenario, output, keys, list(inputs), **arguments)
    dists = {name: distribution(spec, plan.variables[name], name) for name, spec in inputs.items()}
    means = {name: d.mean for name, d in dists.items()}
    expr = scenario._plan(output).expr
    args = plan.args
    mean_args = list(plan.base)
    for name, m in means.items():
        mean_args[plan.positions[name]] = m
    y_mean = float(plan.function(*mean_args))
    variance = 0.0
    records = []
    for name, d in dists.items():
        sym = args[plan.positions[name]]
        derivative = compile_tree(sympy.diff(expr, sym), args)(*mean_args)
        term = (float(derivative) * d.sd) ** 2
        variance += term
        records.append({"input": name, "sd": _q(d.sd, plan.variables[name]), "derivative": float(derivative), "variance_share": term})
    total = variance or 1.0
    for r in records:
        r["variance_share"] = r["variance_share"] / total
    records.sort(key=lambda r: -r["variance_share"])
    rng = np.random.default_rng(seed)
    drawn = {name: d.sample(rng, samples) for name, d in dists.items()}
    y = np.broadcast_to(plan.function(*[drawn.get(n, v) if (n := _name_at(plan, i)) in drawn else v for i, v in enumerate(plan.base)]), (samples,))
    f = plan.to_unit
    unit = plan.unit
    return Uncertainty(
        output=output,
        linear_mean=Q_(f(y_mean), unit), linear_sd=Q_(f(math.sqrt(variance)), unit),
        mc_mean=Q_(f(float(np.mean(y))), unit), mc_sd=Q_(f(float(np.std(y, ddof=1))), unit),
        mc_p05=Q_(f(float(np.percentile(y, 5))), unit), mc_p95=Q_(f(float(np.percentile(y, 95))), unit),
        samples=samples,
        contributions=Table(("input", "sd", "derivative", "variance_share"), records, title=f"linear variance shares of {output}"),
    )


def _name_at(plan: VectorPlan, i: int) -> str | None:
    for name, pos in plan.positions.items():
        if pos == i:
            return name
    return None
