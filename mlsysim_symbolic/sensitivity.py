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

import html
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pint

from .distributions import DISTRIBUTIONS, Law
from .errors import InputError, MlsysimSymbolicError
from .evaluate import compile_chain, gradient_chain
from .moves import Move, move_given, move_number, move_option
from .moves import caption as describe_moves
from .plan import Analysable
from .plots import format_value, readable
from .plots import tornado as draw_tornado
from .sweep import VectorPlan, vector_plan
from .symbolic import elasticities
from .tables import Table
from .units import Q_, convert, from_base, to_base
from .variables import Variable


def _inputs_of(scenario: Analysable, plan: VectorPlan) -> list[str]:
    """The numeric inputs of a plan, each once (the leaves of a keyed input at several keys share its name)."""
    names: dict[str, None] = {}
    for sym in plan.args:
        var = scenario.planner.variable(sym)
        if var.options:   # a choice argument picks a branch; it has no numeric range
            continue
        names[var.name] = None
    return list(names)


def _plan_for(scenario: Analysable, output: str, keys: tuple[Any, ...], names: Sequence[str] | None, arguments: Mapping[str, Any]) -> tuple[VectorPlan, list[str]]:
    probe = vector_plan(scenario, output, keys, (), numeric=True, **arguments)
    all_names = _inputs_of(scenario, probe)
    chosen = list(names) if names is not None else all_names
    return vector_plan(scenario, output, keys, chosen, numeric=True, **arguments), chosen


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


def local(scenario: Analysable, output: str, *keys: Any, **arguments: Any) -> Table:
    """Partial derivatives (with units) and elasticities of ``output`` at the scenario, ranked by |elasticity|."""
    rows = elasticities(scenario, output, *keys, **arguments)
    records = [
        {"input": r.input, "symbol": r.symbol, "derivative": r.derivative, "derivative_value": r.derivative_value,
         "elasticity": r.expression, "elasticity_value": r.value}
        for r in rows
    ]
    return Table(("input", "symbol", "derivative", "derivative_value", "elasticity", "elasticity_value"), records, title=output)


def one_at_a_time(scenario: Analysable, output: str, *keys: Any, pct: float = 10.0,
                  ranges: Mapping[str, tuple[Any, Any]] | None = None, inputs: Sequence[str] | None = None,
                  **arguments: Any) -> Table:
    """Each input at a low and a high value, the others held; sorted by the extent of the bars a tornado draws.

    The values are valid moves of each input's kind (:mod:`.moves`): a continuous input -/+ ``pct`` % (stopped by
    its domain), a whole number to the nearest whole numbers at least one away inside its domain, a choice input to
    the options declared next to its own, or the ``(low, high)`` given in ``ranges``.  A side that cannot move stays
    at the value.  ``extent`` is the length the two bars span (max - min of the baseline and the two outputs); the
    table's note says what moved by how much.

    >>> from mlsysim_symbolic import Scenarios
    >>> t = one_at_a_time(Scenarios.DpSgdPerExampleGradients.variant(batch_size=1), "per_batch", "GPT-2")
    >>> [(r["input"], f"{r['extent']:~.3gC}") for r in t]
    [('batch_size', '6e+09 B'), ('bytes_per_param', '1.2e+09 B'), ('parameters', '1.2e+09 B')]
    >>> t.note
    'inputs ±10 %; batch_size 1 → 2 sample'
    """
    if not (0 < pct < 100):
        raise InputError(f"pct must be in (0, 100), got {pct}")
    choices = _choices_of(scenario, output)
    chosen = None if inputs is None else [n for n in inputs if n not in choices]
    picked = list(choices) if inputs is None else [n for n in inputs if n in choices]
    plan, names = _plan_for(scenario, output, keys, chosen, arguments)
    ranges = dict(ranges or {})
    unknown = [n for n in ranges if n not in plan.positions and n not in picked]
    if unknown:
        raise InputError(f"ranges: {unknown[0]!r} is not an input of {output}; inputs: {', '.join([*names, *picked])}")
    baseline = float(plan())
    rows: list[tuple[Move, Any, Any, float, float]] = []
    for name in names:
        var = plan.variables[name]
        x = plan.base[plan.positions[name]]
        move = _numeric_move(name, x, var, pct, ranges)
        y_lo, y_hi = (baseline if v is None else float(plan(**{name: to_base(v, var.unit)})) for v in (move.low, move.high))
        low, high = move.sides()
        rows.append((move, _q(x, var), (Q_(low, var.unit), Q_(high, var.unit)), y_lo, y_hi))
    for name in picked:
        move = _option_move(scenario, name, ranges)
        move, y_lo, y_hi = _option_outputs(scenario, output, keys, arguments, move, baseline)
        rows.append((move, move.value, move.sides(), y_lo, y_hi))
    records = []
    for move, value, (low, high), y_lo, y_hi in rows:
        extent = max(y_lo, y_hi, baseline) - min(y_lo, y_hi, baseline)
        records.append({
            "input": move.name, "value": value, "low": low, "high": high,
            "output_low": Q_(y_lo, plan.unit), "output_high": Q_(y_hi, plan.unit),
            "swing": Q_(abs(y_hi - y_lo), plan.unit), "extent": Q_(extent, plan.unit), "baseline": Q_(baseline, plan.unit),
        })
    records.sort(key=lambda r: (-r["extent"].magnitude, r["input"]))
    order = {r["input"]: i for i, r in enumerate(records)}
    moves = sorted((row[0] for row in rows), key=lambda m: order[m.name])
    return Table(("input", "value", "low", "high", "output_low", "output_high", "swing", "extent", "baseline"),
                 records, title=output, note=describe_moves(moves, pct))


def _pair(spec: Any, name: str) -> tuple[Any, Any]:
    """A (low, high) range, or a named error."""
    if isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence) or len(spec) != 2:
        raise InputError(f"ranges[{name!r}]: expected (low, high), got {spec!r}")
    return spec[0], spec[1]


def _numeric_move(name: str, x: float, var: Variable, pct: float, ranges: Mapping[str, Any]) -> Move:
    """The move of a numeric input at ``x`` (base units): the given range, else the valid -/+ ``pct`` % move."""
    value = from_base(x, var.unit)
    if name not in ranges:
        return move_number(name, value, var, pct)
    lo, hi = (from_base(_as_base(v, var, name), var.unit) for v in _pair(ranges[name], name))
    return move_given(name, value, lo, hi, f"{var.unit:~C}")


def _choices_of(scenario: Analysable, output: str) -> list[str]:
    """The scenario's set choice inputs that ``output`` depends on, in declaration order; none for a scenario
    that cannot make variants (a choice moves by a variant of the scenario)."""
    if getattr(scenario, "variant", None) is None:
        return []
    _, used = scenario.type.closure(output)
    bound = scenario.planner.choices
    return [name for name in scenario.type.inputs if name in used and name in bound]


def _option_move(scenario: Analysable, name: str, ranges: Mapping[str, Any]) -> Move:
    options = tuple(scenario.type.inputs[name].options)
    current = scenario.planner.choices[name]
    if name not in ranges:
        return move_option(name, current, options)
    given = _pair(ranges[name], name)
    for option in given:
        if option not in options:
            raise InputError(f"ranges[{name!r}]: expected options of {name} ({', '.join(options)}), got {option!r}")
    return move_given(name, current, *given)


def _option_outputs(scenario: Any, output: str, keys: tuple[Any, ...], arguments: Mapping[str, Any], move: Move,
                    baseline: float) -> tuple[Move, float, float]:
    """The output at each side of a choice input's move (a variant of the scenario at that option); a side at
    which the output has no value does not move, and the move says why."""
    values, sides, notes = [], [], []
    for option in (move.low, move.high):
        if option is None:
            values.append(baseline)
            sides.append(None)
            continue
        varied = scenario.variant(**{move.name: option})
        try:   # the scalar evaluation refuses, by name, an option at which the output has no value
            varied.planner.evaluate(output, *keys, **arguments)
        except MlsysimSymbolicError:
            values.append(baseline)
            sides.append(None)
            notes.append(f"{option} has no value")
            continue
        values.append(float(vector_plan(varied, output, keys, (), numeric=True, **arguments)()))
        sides.append(option)
    moved = Move(move.name, move.value, sides[0], sides[1], move.rule, move.unit, note="; ".join(notes))
    return moved, values[0], values[1]


def tornado(scenario: Analysable, output: str, *keys: Any, ax: Any = None, caption: str | None = None,
            **options: Any) -> Any:
    """A tornado chart (matplotlib Figure) of :func:`one_at_a_time`: bars labelled by the inputs' readable names
    and code names, a legend for the low and high input values (shown at the bar ends), the output in a readable
    unit, and a caption saying what moved by how much (``caption`` replaces it; ``""`` leaves it out).

    >>> from mlsysim_symbolic import Scenarios
    >>> fig = tornado(Scenarios.DpSgdPerExampleGradients, "per_batch", "GPT-2")
    >>> [" ".join(t.get_text().split()) for t in fig.axes[0].get_yticklabels()]
    ['parameters of the named model (parameters)', 'gradient bytes per parameter (bytes_per_param)', 'examples per step (batch_size)']
    """
    table = one_at_a_time(scenario, output, *keys, **options)
    label = getattr(scenario, "key", None) or scenario.name
    args = scenario.planner.plan(output).args
    names = {}
    for r in table:
        spec = scenario.type.inputs.get(r["input"])
        meaning = spec.meaning if spec is not None and spec.options else scenario.planner.resolve(r["input"], args)[1].meaning
        names[r["input"]] = readable_name(meaning, r["input"])
    return draw_tornado(table, ax=ax, title=f"{label}: {output}", labels=names, caption=caption)


def readable_name(meaning: str, name: str) -> str:
    """An input's label: the words of its meaning before any parenthesis, colon or semicolon, and its code name
    (the name the caption uses); the name alone when it has no meaning.

    >>> readable_name("Adam state bytes per parameter: fp32 master copy, momentum, variance", "adam_bytes")
    'Adam state bytes per parameter (adam_bytes)'
    >>> readable_name("", "tp_size")
    'tp_size'
    """
    head = re.split(r" \(|[:;]", meaning or "", maxsplit=1)[0].strip()
    return f"{head} ({name})" if head and head != name else name


# ---------------------------------------------------------------------- global (SALib)
SENSITIVITY_EXTRA = 'pip install "mlsysim-symbolic[sensitivity]"'


def _salib(kind: str) -> tuple[Any, Any]:
    """SALib's ``sample`` and ``analyze`` modules of ``kind`` (``sobol`` or ``morris``), or an error naming the extra."""
    try:
        import importlib

        return (importlib.import_module(f"SALib.sample.{kind}"), importlib.import_module(f"SALib.analyze.{kind}"))
    except ImportError as exc:
        raise ModuleNotFoundError(f"{kind} needs SALib, which is not installed: {SENSITIVITY_EXTRA}", name="SALib") from exc


def _problem(names: Sequence[str], bounds: Sequence[tuple[float, float]]) -> dict[str, Any]:
    if len(names) != len(bounds):
        raise InputError("one (low, high) bound per input is needed")
    for n, (lo, hi) in zip(names, bounds):
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise InputError(f"{n}: bounds must be finite with low < high, got ({lo}, {hi})")
    return {"num_vars": len(names), "names": list(names), "bounds": [[float(lo), float(hi)] for lo, hi in bounds]}


def _count(value: Any, name: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InputError(f"{name} must be a whole number of at least {least}, got {value!r}")


def sobol_indices(function: Callable[[np.ndarray], np.ndarray], names: Sequence[str], bounds: Sequence[tuple[float, float]],
                  n: int = 1024, seed: int = 0, title: str = "") -> Table:
    """First-order and total Sobol indices of ``function`` (rows of X -> Y) over uniform ``bounds``, via SALib."""
    sobol_sample, sobol_analyze = _salib("sobol")
    _count(n, "n", 2)
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
    morris_sample, morris_analyze = _salib("morris")
    _count(n, "n", 2)
    _count(levels, "levels", 2)
    problem = _problem(names, bounds)
    X = morris_sample.sample(problem, n, num_levels=levels, seed=seed)
    Y = np.asarray(function(X), dtype=float).reshape(-1)
    Si = morris_analyze.analyze(problem, X, Y, num_levels=levels, seed=seed)
    records = [{"input": name, "mu_star": float(Si["mu_star"][i]), "mu": float(Si["mu"][i]),
                "sigma": float(Si["sigma"][i]), "mu_star_conf": float(Si["mu_star_conf"][i])} for i, name in enumerate(names)]
    records.sort(key=lambda r: -r["mu_star"])
    return Table(("input", "mu_star", "mu", "sigma", "mu_star_conf"), records, title=title or "Morris screening")


def _scenario_function(scenario: Analysable, output: str, keys: tuple[Any, ...], ranges: Mapping[str, tuple[Any, Any]],
                       arguments: Mapping[str, Any]) -> tuple[Callable[[np.ndarray], np.ndarray], list[str], list[tuple[float, float]], VectorPlan]:
    if not ranges:
        raise InputError("global sensitivity needs ranges: {input: (low, high)} for at least one input")
    plan = vector_plan(scenario, output, keys, list(ranges), numeric=True, **arguments)
    names = list(ranges)
    bounds = []
    for name in names:
        lo, hi = _pair(ranges[name], name)
        var = plan.variables[name]
        bounds.append((_as_base(lo, var, name), _as_base(hi, var, name)))

    def function(X: np.ndarray) -> np.ndarray:
        y = plan(**{name: X[:, i] for i, name in enumerate(names)})
        return np.broadcast_to(y, (X.shape[0],))

    return function, names, bounds, plan


def sobol(scenario: Analysable, output: str, *keys: Any, ranges: Mapping[str, tuple[Any, Any]], n: int = 1024, seed: int = 0,
          **arguments: Any) -> Table:
    """Sobol first-order (S1) and total (ST) indices of ``output`` over uniform input ``ranges``."""
    function, names, bounds, _ = _scenario_function(scenario, output, keys, ranges, arguments)
    t = sobol_indices(function, names, bounds, n=n, seed=seed, title=output)
    t.title = f"Sobol indices of {output}"
    t.note = (f"S1: first-order and ST: total shares of the variance of {output} (fractions, no unit), "
              f"inputs uniform over their ranges; _conf: 95 % confidence half-widths")
    return t


def morris(scenario: Analysable, output: str, *keys: Any, ranges: Mapping[str, tuple[Any, Any]], n: int = 100, levels: int = 4,
           seed: int = 0, **arguments: Any) -> Table:
    """Morris screening of ``output`` over input ``ranges`` (mu* in the output's declared unit)."""
    function, names, bounds, plan = _scenario_function(scenario, output, keys, ranges, arguments)
    t = morris_indices(function, names, bounds, n=n, levels=levels, seed=seed, title=output)
    unit = f"{plan.unit:~C}"
    t.units.update({c: unit for c in ("mu_star", "mu", "sigma", "mu_star_conf")} if unit else {})
    t.title = f"Morris screening of {output}"
    t.note = (f"mu*: mean |elementary effect| of {output} per input range (in {unit or 'its unit'}); "
              f"mu: mean effect; sigma: its spread (interactions, non-linearity)")
    return t


# ---------------------------------------------------------------------- uncertainty
KINDS_OF_DISTRIBUTION = tuple(DISTRIBUTIONS)   # the names, in the table's order (see :mod:`.distributions`)


@dataclass(frozen=True)
class Distribution:
    """An input's uncertainty: ``normal(mean, sd)``, ``uniform(low, high)``, ``triangular(low, mode, high)``,
    or ``lognormal(median, sigma)`` (sigma of the logarithm).  Parameters are in base units.

    Draws are truncated to the input's domain (``bounds``, base units) and, for a whole-number input, rounded
    to whole numbers of its declared unit (``step``, the base-unit size of one).
    """

    kind: str
    params: tuple[float, ...]
    bounds: tuple[float, float] = (-math.inf, math.inf)
    open_bounds: tuple[bool, bool] = (False, False)
    step: float | None = None

    @property
    def law(self) -> Law:
        """The :class:`~mlsysim_symbolic.distributions.Law` named by :attr:`kind`."""
        return DISTRIBUTIONS[self.kind]

    @property
    def mean(self) -> float:
        return self.law.mean(self.params)

    @property
    def sd(self) -> float:
        return self.law.sd(self.params)

    def _draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return self.law.draw(rng, self.params, n)

    def _inside(self, x: np.ndarray) -> np.ndarray:
        (lo, hi), (lo_open, hi_open) = self.bounds, self.open_bounds
        return ((x > lo) if lo_open else (x >= lo)) & ((x < hi) if hi_open else (x <= hi))

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` draws inside the domain (rejection sampling), rounded for whole-number inputs."""
        return self.sample_counted(rng, n)[0]

    def sample_counted(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, int]:
        """``n`` draws and how many were rejected for leaving the domain."""
        kept: list[np.ndarray] = []
        have = rejected = 0
        for _ in range(64):
            x = self._draw(rng, max(n - have, 1) * 2)
            if self.step is not None:
                x = np.round(x / self.step) * self.step
            ok = self._inside(x)
            rejected += int(np.count_nonzero(~ok))
            kept.append(x[ok])
            have += int(np.count_nonzero(ok))
            if have >= n:
                return np.concatenate(kept)[:n], rejected
        raise InputError(f"the {self.kind}{self.params} distribution lies almost wholly outside the input's domain "
                         f"{self.bounds}: fewer than {have} of {have + rejected} draws were valid")


def distribution(spec: Any, var: Variable, name: str) -> Distribution:
    """Read ``(low, high)``, ``("uniform", low, high)``, ``("normal", mean, sd)``, ``("triangular", low, mode, high)``
    or ``("lognormal", median, sigma)`` with values in the input's unit (numbers, Quantities or text)."""
    if isinstance(spec, Distribution):
        return spec
    if not isinstance(spec, (tuple, list)) or not spec:
        raise InputError(f"{name}: expected (low, high) or (kind, params...), got {spec!r}")
    if isinstance(spec[0], str) and spec[0] not in KINDS_OF_DISTRIBUTION and len(spec) != 2:
        raise InputError(f"{name}: unknown distribution {spec[0]!r}; known: {', '.join(KINDS_OF_DISTRIBUTION)}, or (low, high)")
    named = DISTRIBUTIONS.get(spec[0]) if isinstance(spec[0], str) else None
    law = named or DISTRIBUTIONS["uniform"]   # (low, high) alone
    params = list(spec[1:] if named is not None else spec)
    if len(params) != len(law.parameters):
        raise InputError(f"{name}: a {law.name} distribution takes {len(law.parameters)} parameters, got {len(params)}")
    values = tuple(_READERS[how](v, var, name, f"{law.name} {what}") for how, what, v in zip(law.reads, law.parameters, params))
    law.check(values, params, name)
    d = var.domain
    bounds = (float(to_base(d.low, var.unit)) if math.isfinite(d.low) else -math.inf,
              float(to_base(d.high, var.unit)) if math.isfinite(d.high) else math.inf)
    step = float(to_base(1, var.unit)) if var.integer else None
    return Distribution(law.name, tuple(float(v) for v in values), bounds, (d.low_open, d.high_open), step)


#: How a law's parameter is read (:attr:`~mlsysim_symbolic.distributions.Law.reads`), into base units.
_READERS: dict[str, Callable[[Any, Variable, str, str], float]] = {
    "value": lambda v, var, name, what: _as_base(v, var, name),                # in the input's unit, inside its domain
    "spread": lambda v, var, name, what: _spread(v, var, name),                # a difference in the input's unit
    "plain": lambda v, var, name, what: _plain_number(v, f"{name}: {what}"),   # a plain number (lognormal sigma)
}


def _plain_number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{what}: expected a plain finite number (the sd of the logarithm), got {value!r}")
    return float(value)


def _spread(value: Any, var: Variable, name: str) -> float:
    """A standard deviation in the input's unit (a number in that unit, a Quantity or text), in base units."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(to_base(float(value), var.unit))
    return _as_base(value, var, name, domain=False)


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
    notes: tuple[str, ...] = ()       # truncation to each input's domain and rounding, as applied

    @property
    def sd_ratio(self) -> float:
        """Monte Carlo sd over linear sd (1 when the output is linear over the input spread)."""
        return float(self.mc_sd.magnitude / self.linear_sd.to(self.mc_sd.units).magnitude)

    def to_records(self) -> list[dict[str, Any]]:
        return [{"method": "linear", "mean": self.linear_mean, "sd": self.linear_sd},
                {"method": "monte carlo", "mean": self.mc_mean, "sd": self.mc_sd, "p05": self.mc_p05, "p95": self.mc_p95}]

    def summary(self) -> Table:
        """Linear and Monte Carlo rows (mean, sd, 5th and 95th percentiles) in a readable unit of the output."""
        unit = readable(self.mc_p95).units

        def shown(q: Any) -> Any:
            return q.to(unit) if isinstance(q, pint.Quantity) else q

        records = [{k: shown(v) for k, v in r.items()} for r in self.to_records()]
        return Table(("method", "mean", "sd", "p05", "p95"), records,
                     title=f"Uncertainty of {self.output} ({self.samples:,} Monte Carlo samples)")

    def __str__(self) -> str:
        """The summary, the Monte Carlo/linear sd ratio, each input's share of the linear variance, and notes.

        >>> from mlsysim_symbolic import Scenarios
        >>> u = Scenarios.DpSgdPerExampleGradients.uncertainty("per_batch", "GPT-2", inputs={"batch_size": (128, 384)}, samples=1000)
        >>> print(str(u).splitlines()[0])
        Uncertainty of per_batch (1,000 Monte Carlo samples)
        """
        parts = [str(self.summary()), f"Monte Carlo sd / linear sd = {self.sd_ratio:.3g}", "", str(self.contributions)]
        if self.notes:
            parts += ["", "notes:", *(f"- {n}" for n in self.notes)]
        return "\n".join(parts)

    def __repr__(self) -> str:
        return (f"Uncertainty({self.output}: linear {format_value(self.linear_mean, 4)} +/- {format_value(self.linear_sd, 3)}, "
                f"Monte Carlo {format_value(self.mc_mean, 4)} +/- {format_value(self.mc_sd, 3)} "
                f"[p05 {format_value(self.mc_p05, 4)}, p95 {format_value(self.mc_p95, 4)}], {self.samples:,} samples)")

    def _repr_html_(self) -> str:
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in self.notes)
        return (self.summary()._repr_html_() + f"<p>Monte Carlo sd / linear sd = {self.sd_ratio:.3g}</p>"
                + self.contributions._repr_html_() + (f"<ul>{notes}</ul>" if notes else ""))


def uncertainty(scenario: Analysable, output: str, *keys: Any, inputs: Mapping[str, Any], samples: int = 100_000, seed: int = 0,
                **arguments: Any) -> Uncertainty:
    """Propagate input uncertainty to ``output``: linear (symbolic derivatives at the means) and Monte Carlo."""
    if not inputs:
        raise InputError("uncertainty needs inputs: {input: (low, high) or (kind, params...)}")
    _count(samples, "samples", 2)
    plan = vector_plan(scenario, output, keys, list(inputs), numeric=True, **arguments)
    dists = {name: distribution(spec, plan.variables[name], name) for name, spec in inputs.items()}
    means = {name: d.mean for name, d in dists.items()}
    definitions = scenario.planner.numeric_plan(output).definitions
    args = plan.args
    mean_args = list(plan.base)
    for name, m in means.items():
        mean_args[plan.positions[name]] = m
    with np.errstate(over="ignore", invalid="ignore"):
        y_mean = float(plan.function(*mean_args))
    if not math.isfinite(y_mean):
        raise InputError(f"{output} overflows float64 at the means of {', '.join(inputs)}")
    variance = 0.0
    records = []
    wrts = [args[plan.positions[name]] for name in dists]   # every input's derivative in one chain-rule pass
    gradient = compile_chain(gradient_chain(definitions, wrts), args)(*mean_args)
    for (name, d), derivative in zip(dists.items(), gradient):
        term = (float(derivative) * d.sd) ** 2
        variance += term
        records.append({"input": name, "sd": _q(d.sd, plan.variables[name]), "derivative": float(derivative), "variance_share": term})
    total = variance or 1.0
    for r in records:
        r["variance_share"] = r["variance_share"] / total
    records.sort(key=lambda r: -r["variance_share"])
    rng = np.random.default_rng(seed)
    drawn: dict[str, np.ndarray] = {}
    notes = []
    for name, d in dists.items():
        drawn[name], rejected = d.sample_counted(rng, samples)
        var = plan.variables[name]
        if rejected:
            notes.append(f"{name}: draws outside its domain {var.domain} {var.unit_text} were redrawn "
                         f"({rejected / (rejected + samples):.1%} of draws): a truncated {d.kind} distribution")
        if d.step is not None:
            notes.append(f"{name}: draws rounded to whole {var.unit_text}")
    if not math.isfinite(variance):
        raise InputError(f"{output}: the linear variance overflows float64 at the means of {', '.join(inputs)}")
    y = np.broadcast_to(plan(**drawn), (samples,))   # in the declared unit; an overflowing draw is refused by name
    f = plan.to_unit
    unit = plan.unit
    return Uncertainty(
        output=output,
        linear_mean=Q_(f(y_mean), unit), linear_sd=Q_(f(math.sqrt(variance)), unit),
        mc_mean=Q_(float(np.mean(y)), unit), mc_sd=Q_(float(np.std(y, ddof=1)), unit),
        mc_p05=Q_(float(np.percentile(y, 5)), unit), mc_p95=Q_(float(np.percentile(y, 95)), unit),
        samples=samples,
        contributions=Table(("input", "sd", "derivative", "variance_share"), records, title=f"linear variance shares of {output}"),
        notes=tuple(notes),
    )


def _name_at(plan: VectorPlan, i: int) -> str | None:
    for name, pos in plan.positions.items():
        if pos == i:
            return name
    return None


class SensitivityAccessor:
    """Sensitivity analyses of one scenario: ``s.sensitivity.local(output, *keys)``, ``.one_at_a_time``,
    ``.tornado``, ``.sobol``, ``.morris``, ``.uncertainty``.

    >>> from mlsysim_symbolic import Scenarios
    >>> [r["input"] for r in Scenarios.DpSgdPerExampleGradients.sensitivity.local("per_batch", "GPT-2")]
    ['batch_size', 'bytes_per_param', 'parameters']
    """

    def __init__(self, scenario: Analysable) -> None:
        self._s = scenario

    def local(self, output: str, *keys: Any, **arguments: Any) -> Table:
        """:func:`local`: derivatives and elasticities at the scenario, ranked."""
        return local(self._s, output, *keys, **arguments)

    def one_at_a_time(self, output: str, *keys: Any, **options: Any) -> Table:
        """:func:`one_at_a_time`: each input low and high, sorted by swing."""
        return one_at_a_time(self._s, output, *keys, **options)

    def tornado(self, output: str, *keys: Any, **options: Any) -> Any:
        """:func:`tornado`: the chart of :meth:`one_at_a_time`."""
        return tornado(self._s, output, *keys, **options)

    def sobol(self, output: str, *keys: Any, ranges: Mapping[str, Any], **options: Any) -> Table:
        """:func:`sobol`: first-order and total indices over uniform ``ranges``."""
        return sobol(self._s, output, *keys, ranges=ranges, **options)

    def morris(self, output: str, *keys: Any, ranges: Mapping[str, Any], **options: Any) -> Table:
        """:func:`morris`: elementary-effects screening over ``ranges``."""
        return morris(self._s, output, *keys, ranges=ranges, **options)

    def uncertainty(self, output: str, *keys: Any, inputs: Mapping[str, Any], **options: Any) -> Uncertainty:
        """:func:`uncertainty`: linear propagation beside Monte Carlo."""
        return uncertainty(self._s, output, *keys, inputs=inputs, **options)
