"""Sweeps: an output over ranges or arrays of its inputs, compiled once, vectorised with numpy.

Grids broadcast one axis per swept input; large design spaces are reduced in
chunks so memory stays bounded (a minimum over 10^8 points never holds 10^8
values), and run on Dask arrays when ``backend="dask"``.

>>> from mlsysim_symbolic import Scenarios
>>> s = Scenarios.DpSgdPerExampleGradients
>>> r = sweep(s, "per_batch", "GPT-2", batch_size=[1, 2, 4])
>>> r.values.to("GB")
<Quantity([ 6. 12. 24.], 'gigabyte')>
>>> reduce_sweep(s, "per_batch", "GPT-2", reduce="max", batch_size=range(1, 1025)).value.to("TB")
<Quantity(6.144, 'terabyte')>
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html import escape as html_escape
from typing import Any, ClassVar

import numpy as np
import pint
import sympy

from .errors import FloatRangeError, InputError, UnitError
from .plan import Analysable, placeholder, scale
from .plots import format_value, plot_sweep, readable
from .underflow import TINY, lost_to_zero
from .units import Q_, convert, from_base, make_quantity, output_bound, parse_quantity, to_base
from .variables import Variable

DEFAULT_CHUNK = 1 << 20


@dataclass
class VectorPlan:
    """An output ready to evaluate on arrays: numpy function, fixed base values, and where each swept input goes."""

    output: str
    function: Any
    base: list[Any]
    positions: dict[str, int]
    variables: dict[str, Variable]
    factor: float
    unit: pint.Unit                        # the unit values leave in (the output's outer unit)
    args: tuple[sympy.Symbol, ...]
    divisor: float = 1
    inner: pint.Unit | None = None         # the equation's unit (counted kinds included): a limit may be given in it
    tree: Any = None                       # () -> the output's tree over ``args`` (read only to check an underflow)

    def __call__(self, **base_values: Any) -> Any:
        """Magnitudes of the output in its declared unit; inputs given in base units (an underflow refused)."""
        out = self._values(**base_values)
        floating = out.dtype.kind == "f" if isinstance(out, np.ndarray) else isinstance(out, float)
        if self.tree is not None and floating:
            self._check_underflow(out, base_values)
        return out

    #: Zero or subnormal points re-evaluated exactly per call (the first ones; beyond them the check samples).
    UNDERFLOW_CHECKS: ClassVar[int] = 256

    def _check_underflow(self, out: Any, base_values: dict[str, Any]) -> None:
        tiny = np.abs(out) < TINY
        if not np.any(tiny):
            return
        shape = np.shape(out)
        for flat in np.flatnonzero(tiny)[: self.UNDERFLOW_CHECKS]:
            at = np.unravel_index(int(flat), shape) if shape else ()
            args = list(self.base)
            for name, value in base_values.items():
                args[self.positions[name]] = float(np.broadcast_to(value, shape)[at]) if shape else float(np.ravel(value)[0])
            if lost_to_zero(self.tree(), self.args, args, float(np.asarray(out)[at])):
                shown = ", ".join(f"{n} = {args[self.positions[n]]:g}" for n in base_values)
                raise FloatRangeError(f"{self.output} underflows float64 to {float(np.asarray(out)[at]):g} where its exact "
                                      f"value is not zero{' at ' + shown + ' (base units)' if shown else ''}")

    def _values(self, **base_values: Any) -> Any:
        args = list(self.base)
        for name, value in base_values.items():
            args[self.positions[name]] = value
        try:
            # an overflow or a division by zero raises here, at no cost when there is none; the search for where
            # the infinite values are runs only then (an inf in a table, a plot or a mean is a silent wrong number)
            with np.errstate(over="raise", divide="raise", invalid="ignore"):
                out = self.to_unit(self.function(*args))
            if np.ndim(out) or not math.isinf(out):   # Python's own float arithmetic overflows to inf silently
                return out
        except FloatingPointError:
            pass
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            if not any(np.ndim(v) for v in base_values.values()):   # scalar inputs at which the output has no value
                shown = ", ".join(f"{n} = {v!r}" for n, v in base_values.items())
                raise InputError(f"{self.output} has no value{' at ' + shown + ' (base units)' if shown else ''}: {exc}") from None
        # numpy's select computes every branch, and a branch not taken may divide a fixed Python number by zero
        # (B_st**-1 where no storage path is stated): in numpy's arithmetic that is an inf the select drops
        args = [np.float64(a) if type(a) in (int, float) else a for a in args]
        with np.errstate(all="ignore"):
            out = self.to_unit(self.function(*args))
        infinite = np.isinf(out)
        if np.any(infinite):
            at = np.unravel_index(int(np.argmax(infinite)), np.shape(infinite)) if np.ndim(infinite) else ()
            shown = ", ".join(f"{n} = {np.broadcast_to(v, np.shape(infinite))[at]:g}" for n, v in base_values.items())
            raise InputError(f"{self.output} overflows float64{' at ' + shown + ' (base units)' if shown else ''}")
        return out

    def to_unit(self, value: Any) -> Any:
        """A base-unit magnitude (or array) of the output in its declared unit."""
        return scale(value, self.factor, self.divisor)


def resolve(scenario: Analysable, name: str, args: tuple[sympy.Symbol, ...]) -> tuple[int, Variable]:
    """Where input ``name`` (an input name, attribute name or symbol) sits among a plan's arguments."""
    return scenario.planner.resolve(name, args)


def vector_plan(scenario: Analysable, output: str, keys: tuple[Any, ...] = (), names: Iterable[str] = (), *, numeric: bool = False,
                **arguments: Any) -> VectorPlan:
    """Compile ``output`` for arrays (cached per tree) with every other input at the scenario's values.

    An output's arguments (``tau`` of ``waste_at``) may be among ``names``: they are swept like inputs, and
    take a placeholder until given (a value in ``arguments``, or the swept values).  With ``numeric`` a
    predicate is planned as its slack (a number to differentiate or sample); otherwise it gives bools.
    """
    planner = scenario.planner
    plan = planner.numeric_plan(output) if numeric else planner.plan(output)
    names = list(names)
    swept_args = {a for a in plan.arguments if a in names and a not in arguments}
    given = dict(arguments)
    for a in swept_args:   # a swept argument needs no value here: it is replaced by the swept values
        given[a] = placeholder(planner.type.arguments[a])
    base = list(planner.values(plan, keys, given))
    positions: dict[str, int] = {}
    variables: dict[str, Variable] = {}
    for name in names:
        i, var = planner.resolve(name, plan.args)
        positions[name] = i
        variables[name] = var
    varying = frozenset(plan.args[i] for i in positions.values())
    function = planner.compiled(plan, varying=varying)
    return VectorPlan(output, function, base, positions, variables, plan.factor, plan.returns, plan.args, plan.divisor,
                      plan.unit, (lambda: plan.expr) if plan.output.kind.numeric or numeric else None)


def to_base_array(values: Any, var: Variable, name: str) -> np.ndarray:
    """Swept values (numbers in the declared unit, Quantities, or text) as a float64 array in base units.

    Checks cost at most a min, a max and (for float values of an integer input) a whole-number test,
    so that a sweep stays within a small factor of hand-written numpy.
    """
    if isinstance(values, range):
        if len(values) == 0:
            raise InputError(f"{name}: the range is empty")
        array = np.arange(values.start, values.stop, values.step, dtype=np.float64)
        lo, hi = float(min(values[0], values[-1])), float(max(values[0], values[-1]))
        whole = True
    else:
        if isinstance(values, str):
            values = parse_quantity(values, name=name)
        if isinstance(values, pint.Quantity):
            if values.dimensionality != var.unit.dimensionality:
                raise UnitError(f"{name}: expected values in {var.unit_text}, got {values.units:~C}")
            values = convert(values.magnitude, values.units, var.unit)
        elif isinstance(values, (list, tuple)) and values and isinstance(values[0], (str, pint.Quantity)):
            values = [var.check(v, label=name) for v in values]
        raw = np.asarray(values)
        if raw.dtype.kind not in "iuf":
            raise InputError(f"{name}: expected numbers in {var.unit_text}, got {raw.dtype} values")
        whole = raw.dtype.kind in "iu"
        array = raw.astype(np.float64, copy=False)
        if array.ndim == 0:
            array = array.reshape(1)
        if array.size == 0:
            raise InputError(f"{name}: no values to sweep")
        lo, hi = float(array.min()), float(array.max())
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise InputError(f"{name}: swept values must be finite")
    if not (var.domain.contains(lo) and var.domain.contains(hi)):
        raise InputError(f"{name}: swept values must lie in {var.domain} {var.unit_text}, got {lo:g} .. {hi:g}")
    if var.integer and not whole and not np.array_equal(array, np.trunc(array)):
        raise InputError(f"{name}: swept values must be whole numbers of {var.unit_text}")
    if not math.isfinite(to_base(max(abs(lo), abs(hi)), var.unit)):
        raise InputError(f"{name}: swept values up to {max(abs(lo), abs(hi)):g} {var.unit_text} are beyond float64 in base units")
    return to_base(array, var.unit)


class _Axis:
    """A swept axis, kept as given (a range stays a range) and shown as a Quantity on demand."""

    def __init__(self, source: Any, array: np.ndarray, var: Variable):
        self.source = source if isinstance(source, range) else None
        self.array = None if isinstance(source, range) else array
        self.var = var

    def __len__(self) -> int:
        return len(self.source) if self.array is None else int(self.array.size)

    def __repr__(self) -> str:
        return f"Axis({self.var.name}: {_span(self.quantity())})"

    def quantity(self) -> pint.Quantity:
        if self.array is None:
            assert self.source is not None
            values = np.arange(self.source.start, self.source.stop, self.source.step, dtype=np.float64)
        else:
            values = from_base(self.array, self.var.unit)
        return make_quantity(values, self.var.unit)


def _proportional(scenario: Analysable, plan: VectorPlan, out: Any, inputs: Mapping[str, Any],
                  shaped: Mapping[str, np.ndarray]) -> np.ndarray | None:
    """An output proportional to its one swept range (``c * B``: memory per batch, time per token) evaluated in the
    range's own buffer, ``c`` being the output at 1: one array, as hand-written numpy's ``c * arange(...)`` (whose
    temporary numpy reuses).  A second array of 8 MB per 10^6 points is what made glibc hand the memory back and
    fault it in again on every sweep (a sweep of 10^6 points at 2 ms instead of 0.4).  None when it does not apply."""
    if len(inputs) != 1 or not out.kind.numeric:
        return None
    (name, values), = inputs.items()
    if not isinstance(values, range):   # only a range's buffer is ours to overwrite (the result keeps the range)
        return None
    symbol = plan.args[plan.positions[name]]
    _, rest = scenario.planner.plan(plan.output).expr.as_independent(symbol, as_Add=False)
    if rest != symbol:
        return None
    array = shaped[name]
    c = plan(**{name: np.float64(1.0)})   # the output at 1 (in its declared unit): the coefficient
    if np.ndim(c) or not np.isfinite(c):
        return None
    try:
        with np.errstate(over="raise"):
            np.multiply(array, c, out=array)
    except FloatingPointError:   # the buffer now holds infinities: the swept values again, then the general path names
        array[...] = to_base_array(values, plan.variables[name], name).reshape(array.shape)   # where it overflows
        return None
    return array


@dataclass
class SweepResult:
    """Values of one output over a grid of inputs: ``values`` (a Quantity array, one axis per input) and ``axes``."""

    scenario: Any
    output: str
    _axes: dict[str, Any]
    values: pint.Quantity

    @property
    def axes(self) -> dict[str, pint.Quantity]:
        """Each swept input's values (a Quantity array in its declared unit), by name."""
        return {name: a.quantity() if isinstance(a, _Axis) else a for name, a in self._axes.items()}

    @property
    def shape(self) -> tuple[int, ...]:
        """The grid's shape: one axis per swept input (or the broadcast shape with ``grid=False``)."""
        return tuple(np.shape(getattr(self.values, "magnitude", self.values)))

    def __repr__(self) -> str:
        """The output and its unit, each swept input with its range, unit and count, and the shape.

        >>> from mlsysim_symbolic import Scenarios
        >>> Scenarios.DpSgdPerExampleGradients.sweep("per_batch", "GPT-2", batch_size=range(1, 65), bytes_per_param=[2, 4])
        SweepResult(per_batch [B] of DpSgdPerExampleGradients over batch_size = 1 .. 64 sample (64 values), bytes_per_param = 2 .. 4 B/param (2 values); shape (64, 2); per_batch 3 .. 384 GB)
        """
        axes = ", ".join(f"{name} = {_span(q)}" for name, q in self.axes.items())
        label = getattr(self.scenario, "key", None) or getattr(self.scenario, "name", "")
        if not hasattr(self.values, "magnitude"):   # a predicate's bools or a label's names at each point
            data = np.asarray(self.values)
            if data.dtype == bool:
                counted = f"true at {int(data.sum())} of {data.size} points"
            else:
                names, counts = np.unique(data, return_counts=True)
                counted = ", ".join(f"{n} at {c}" for n, c in zip(names.tolist(), counts.tolist()))
            return (f"SweepResult({self.output}" + (f" of {label}" if label else "")
                    + f" over {axes}; shape {self.shape}; {counted})")
        data = self.values.magnitude
        values = ""
        if isinstance(data, np.ndarray) and data.size:
            unit = readable(Q_(np.nanmax(np.abs(data)), self.values.units)).units
            low, high = (Q_(v, self.values.units).to(unit).magnitude for v in (np.nanmin(data), np.nanmax(data)))
            shown = f"{low:.4g}" if f"{low:.4g}" == f"{high:.4g}" else f"{low:.4g} .. {high:.4g}"
            values = f"; {self.output} {shown} {unit:~C}"
        return (f"SweepResult({self.output} [{self.values.units:~C}]" + (f" of {label}" if label else "")
                + f" over {axes}; shape {self.shape}{values})")

    def __str__(self) -> str:
        return self.__repr__()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """A line (one input) or heat map (two inputs) with labelled axes and units."""
        return plot_sweep(self, ax=ax, **kwargs)

    def to_records(self) -> list[dict[str, Any]]:
        names = list(self.axes)
        grids = np.meshgrid(*[a.magnitude for a in self.axes.values()], indexing="ij")
        out = []
        for idx in np.ndindex(self.values.shape):
            row = {n: Q_(g[idx], self.axes[n].units) for n, g in zip(names, grids)}
            row[self.output] = (Q_(self.values.magnitude[idx], self.values.units) if hasattr(self.values, "units")
                                else self.values[idx].item())   # a bool or a label's name
            out.append(row)
        return out

    def _repr_html_(self, limit: int = 12) -> str:
        """An HTML table for Jupyter: one input as rows, two as a grid (evenly thinned to ``limit``), more as a summary."""
        import html

        axes = self.axes
        names = list(axes)
        unit = html.escape(f"{self.values.units:~P}") if hasattr(self.values, "units") else "answer"
        caption = f"<caption>{html.escape(self.output)} [{unit}] over {html.escape(', '.join(names))} ({getattr(self.scenario, 'name', '')})</caption>"
        data = np.asarray(getattr(self.values, "magnitude", self.values))
        if data.dtype.kind in "bUO":   # bools and label names are shown as they are
            data = np.array([_Shown(x) for x in data.astype(str).ravel()], dtype=object).reshape(data.shape)

        def pick(n: int) -> list[int]:
            return list(range(n)) if n <= limit else sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)})

        def label(name: str, i: int) -> str:
            a = axes[name]
            return html.escape(f"{a.magnitude[i]:.4g} {a.units:~P}")

        if data.ndim == 1:
            cells = "".join(f"<tr><td>{label(names[0], i)}</td><td>{data[i]:.4g}</td></tr>" for i in pick(data.shape[0]))
            head = f"<tr><th>{html.escape(names[0])}</th><th>{html.escape(self.output)} [{unit}]</th></tr>"
            return f"<table>{caption}<thead>{head}</thead><tbody>{cells}</tbody></table>"
        if data.ndim == 2:
            cols = pick(data.shape[1])
            head = f"<tr><th>{html.escape(names[0])} \\ {html.escape(names[1])}</th>" + "".join(f"<th>{label(names[1], j)}</th>" for j in cols) + "</tr>"
            body = "".join("<tr><th>" + label(names[0], i) + "</th>" + "".join(f"<td>{data[i, j]:.4g}</td>" for j in cols) + "</tr>"
                           for i in pick(data.shape[0]))
            return f"<table>{caption}<thead>{head}</thead><tbody>{body}</tbody></table>"
        rows = "".join(f"<tr><td>{k}</td><td>{html.escape(str(v))}</td></tr>"
                       for k, v in (("shape", data.shape), ("min", f"{np.min(data):.4g}"), ("max", f"{np.max(data):.4g}")))
        return f"<table>{caption}<tbody>{rows}</tbody></table>"


class _Shown(str):
    """A bool or a label's name in an HTML table cell (formatted as itself under any number format)."""

    def __format__(self, spec: str) -> str:
        return html_escape(str(self))


def _span(q: pint.Quantity) -> str:
    """An axis's values as ``low .. high unit (n values)`` (one value alone as ``value unit``)."""
    data = np.atleast_1d(np.asarray(q.magnitude, dtype=float))
    unit = f"{q.units:~C}"
    if data.size == 1:
        return f"{data[0]:.4g} {unit}".rstrip()
    return f"{np.nanmin(data):.4g} .. {np.nanmax(data):.4g} {unit}".rstrip() + f" ({data.size} values)"


#: The memory a sweep may take by default (its result and one working array of float64 per point, and its axes):
#: 2 GiB.  A sweep above it is refused before anything is allocated; ``max_bytes=`` raises the limit.
MAX_SWEEP_BYTES = 2 * 2**30
#: The points a ``reduce_sweep`` may visit by default (chunked, so memory stays small, but time grows with them).
MAX_REDUCE_POINTS = 10**9
#: float64 arrays a sweep holds per point: its result and one temporary of the compiled expression.
_ARRAYS_PER_POINT = 2


def _length(values: Any, name: str) -> int:
    """How many values an input's sweep holds, read without building them (a range's len, an array's size)."""
    if isinstance(values, range):
        return len(values)
    if isinstance(values, str):
        return 1
    if isinstance(values, pint.Quantity):
        return int(np.size(values.magnitude))
    if isinstance(values, (list, tuple)):
        return len(values)
    try:
        return int(np.size(values))
    except Exception:   # noqa: BLE001 - not an array: its own check (to_base_array) names what it expects
        return 1


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} B"


def check_size(output: str, inputs: Mapping[str, Any], *, grid: bool, max_bytes: int | None = None,
               max_points: int | None = None, materialised: bool = True) -> int:
    """The points of a sweep of ``output`` over ``inputs``, refused (an InputError naming the size) above the limits.

    The memory estimate is 8 bytes per value of each axis plus, when the whole grid is materialised (a numpy
    sweep), ``8 x 2`` bytes per point (the result and one working array); ``max_points`` bounds the points a
    chunked reduction visits (its time).

    >>> check_size("per_batch", {"batch_size": range(1, 100_001), "seq_len": range(1, 100_001)}, grid=True)
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: sweep of per_batch over 100,000 x 100,000 = 1e+10 points needs about 160 GB; the limit is max_bytes=2147483648 (2.15 GB): sweep fewer points, reduce over them with reduce_sweep (chunked), or raise max_bytes
    """
    lengths = [_length(v, n) for n, v in inputs.items()]
    if grid:
        points = math.prod(lengths)
    else:
        try:
            points = math.prod(np.broadcast_shapes(*(np.shape(v.magnitude if isinstance(v, pint.Quantity) else v)
                                                     if not isinstance(v, (range, str)) else (len(v) if isinstance(v, range) else 1,)
                                                     for v in inputs.values())))
        except ValueError:
            points = max(lengths)   # shapes that do not broadcast: refused by numpy's own message later
    shape = " x ".join(f"{n:,}" for n in lengths)
    if max_points is not None and points > max_points:
        raise InputError(f"reduce_sweep of {output} over {shape} = {points:.3g} points is more than max_points={max_points:,}: "
                         "reduce over fewer points, or raise max_points")
    need = 8 * sum(lengths) + (8 * _ARRAYS_PER_POINT * points if materialised else 0)
    limit = MAX_SWEEP_BYTES if max_bytes is None else max_bytes
    if need > limit:
        raise InputError(f"sweep of {output} over {shape} = {points:.3g} points needs about {_bytes(need)}; the limit is "
                         f"max_bytes={limit} ({_bytes(limit)}): sweep fewer points, reduce over them with reduce_sweep "
                         "(chunked), or raise max_bytes")
    return points


def _check_limit(name: str, value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InputError(f"{name} must be a whole number, at least 1, got {value!r}")


def _axes(plan: VectorPlan, inputs: Mapping[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, pint.Quantity]]:
    base: dict[str, np.ndarray] = {}
    shown: dict[str, pint.Quantity] = {}
    for name, values in inputs.items():
        var = plan.variables[name]
        array = to_base_array(values, var, name)
        base[name] = array
        shown[name] = _Axis(values, array, var)
    return base, shown


def sweep(scenario: Analysable, output: str, *keys: Any, grid: bool = True, backend: str = "numpy",
          chunks: int | None = None, max_bytes: int | None = None, **inputs: Any) -> SweepResult:
    """Evaluate ``output`` over the given inputs (ranges, lists, arrays or Quantity arrays).

    With ``grid=True`` each input gets its own axis (an outer product); with
    ``grid=False`` the arrays broadcast as given.  ``backend="dask"`` evaluates
    lazily on Dask arrays (``values.magnitude`` is then a Dask array).

    Before anything is allocated the memory is estimated (:func:`check_size`: 16 bytes per point of a numpy
    sweep, 8 per value of each axis) and a sweep above ``max_bytes`` (default :data:`MAX_SWEEP_BYTES`, 2 GiB)
    is refused with its size; pass a larger ``max_bytes`` to allow it.
    """
    if not inputs:
        raise InputError("sweep needs at least one input to vary, e.g. batch_size=range(1, 1025)")
    if backend not in ("numpy", "dask"):
        raise InputError(f"backend must be 'numpy' or 'dask', got {backend!r}")
    _check_limit("max_bytes", max_bytes)
    check_size(output, inputs, grid=grid, max_bytes=max_bytes, materialised=backend == "numpy")
    plan = vector_plan(scenario, output, keys, inputs)
    base, shown = _axes(plan, inputs)
    n = len(base)
    shaped = {}
    for i, (name, array) in enumerate(base.items()):
        shaped[name] = array.reshape([-1 if j == i else 1 for j in range(n)]) if grid else array
    if backend == "dask":
        import dask.array as da

        size = chunks or max(1, int(round(DEFAULT_CHUNK ** (1 / n))))
        darrays = {k: da.from_array(v, chunks=tuple(size if s > 1 else 1 for s in v.shape)) for k, v in shaped.items()}
        bcast = da.broadcast_arrays(*darrays.values())
        names = list(darrays)
        result = da.map_blocks(lambda *blocks: plan(**dict(zip(names, blocks))), *bcast, dtype=np.float64)
        return SweepResult(scenario, output, shown, make_quantity(result, plan.unit))
    if backend != "numpy":
        raise InputError(f"backend must be 'numpy' or 'dask', got {backend!r}")
    out = scenario.type.output(output)
    result = _proportional(scenario, plan, out, inputs, shaped)
    if result is None:
        result = np.asarray(plan(**shaped), dtype=np.float64)
    shape = np.broadcast_shapes(*(a.shape for a in shaped.values()))
    if result.shape != shape:   # an output that does not depend on the swept inputs
        result = np.broadcast_to(result, shape).copy()
    # a quantity in its unit, a predicate's bool array (the feasible region), a label's winning cases (a regime map)
    return SweepResult(scenario, output, shown,
                       out.kind.swept(result, plan.unit, lambda: scenario.planner.plan(output).labels or out.labels))


@dataclass
class Reduction:
    """The result of a chunked reduction over a grid."""

    reduce: str
    value: Any = None                    # min/max value, or the feasible count
    at: dict[str, Any] = field(default_factory=dict)   # inputs at the arg-min/arg-max
    points: int = 0
    feasible: int | None = None
    bounds: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # per input: feasible min, max
    chunks: int = 0
    output: str = ""                     # the reduced output's name
    limit: Any = None                    # the feasible region's limit (a Quantity), and its sense
    sense: str = "<="

    def __repr__(self) -> str:
        """What was reduced and the result, with units.

        >>> from mlsysim_symbolic import Scenarios
        >>> Scenarios.DpSgdPerExampleGradients.reduce_sweep("per_batch", "GPT-2", reduce="max", batch_size=range(1, 1025))
        Reduction(max of per_batch = 6.144 TB at batch_size = 1024 sample; 1,024 points in 1 chunk)
        >>> Scenarios.DpSgdPerExampleGradients.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 100))
        Reduction(feasible: 13 of 99 points with per_batch <= 80 GB; batch_size 1 sample .. 13 sample; 99 points in 1 chunk)
        """
        def show(v: Any) -> str:
            return format_value(v, 4, tex=False) if isinstance(v, pint.Quantity) else str(v)

        of = f" of {self.output}" if self.output else ""
        size = f"{self.points:,} points in {self.chunks} chunk{'s' if self.chunks != 1 else ''}"
        if self.reduce == "feasible":
            where = f" with {self.output or 'output'} {self.sense} {show(self.limit)}" if self.limit is not None else ""
            ranges = "".join(f"; {k} {show(lo)} .. {show(hi)}" for k, (lo, hi) in self.bounds.items())
            return f"Reduction(feasible: {self.feasible} of {self.points:,} points{where}{ranges}; {size})"
        at = ", ".join(f"{k} = {show(v)}" for k, v in self.at.items())
        return f"Reduction({self.reduce}{of} = {show(self.value)}" + (f" at {at}" if at else "") + f"; {size})"

    def __str__(self) -> str:
        return self.__repr__()

    def _repr_html_(self) -> str:
        """An HTML table for Jupyter: the reduced value, where it was reached, and the feasible bounds."""
        import html

        def show(v: Any) -> str:
            return html.escape(f"{v:~.4gP}" if isinstance(v, pint.Quantity) else str(v))

        rows = [("reduce", self.reduce + (f" of {html.escape(self.output)}" if self.output else ""))]
        if self.limit is not None:
            rows.append(("limit", html.escape(f"{self.sense} {format_value(self.limit, 4, tex=False)}")))
        rows += [("value", show(self.value)), ("points", f"{self.points:,}"), ("chunks", str(self.chunks))]
        rows += [(f"at {html.escape(k)}", show(v)) for k, v in self.at.items()]
        rows += [(f"feasible {html.escape(k)}", f"{show(lo)} .. {show(hi)}") for k, (lo, hi) in self.bounds.items()]
        return "<table><tbody>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) + "</tbody></table>"


_REDUCTIONS = ("min", "max", "argmin", "argmax", "feasible")


def reduce_sweep(scenario: Analysable, output: str, *keys: Any, reduce: str = "min", limit: Any = None, sense: str = "<=",
                 chunk: int = DEFAULT_CHUNK, backend: str = "numpy", max_points: int | None = None,
                 max_bytes: int | None = None, **inputs: Any) -> Reduction:
    """Reduce ``output`` over the outer-product grid of ``inputs`` in chunks of ``chunk`` points.

    ``reduce`` is ``min``, ``max``, ``argmin``, ``argmax`` or ``feasible`` (count the
    points where ``output <= limit`` (``sense="<="``) or ``>=``, with each input's
    feasible range).  Memory stays at a few arrays of ``chunk`` points however large the grid.

    The points are counted before any is computed: a grid above ``max_points`` (default
    :data:`MAX_REDUCE_POINTS`, 10^9, some seconds to minutes of work) is refused with its size, as are axes
    above ``max_bytes`` (default :data:`MAX_SWEEP_BYTES`); pass larger limits to allow them.
    """
    if reduce not in _REDUCTIONS:
        raise InputError(f"reduce must be one of {', '.join(_REDUCTIONS)}, got {reduce!r}")
    if sense not in ("<=", ">="):
        raise InputError(f"sense must be '<=' or '>=', got {sense!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise InputError(f"chunk must be a whole number of points, at least 1, got {chunk!r}")
    _check_limit("max_points", max_points)
    _check_limit("max_bytes", max_bytes)
    check_size(output, inputs, grid=True, max_bytes=max_bytes, materialised=False,
               max_points=MAX_REDUCE_POINTS if max_points is None else max_points)
    plan = vector_plan(scenario, output, keys, inputs)
    base, shown = _axes(plan, inputs)
    names = list(base)
    shape = tuple(len(base[n]) for n in names)
    total = math.prod(shape)
    limit_value = None
    if reduce == "feasible":
        if limit is None:
            raise InputError("reduce='feasible' needs a limit, e.g. limit='80 GB'")
        limit_value = float(output_bound(limit, plan.unit, output=output, name="limit", inner=plan.inner).to(plan.unit).magnitude)
        if not math.isfinite(limit_value):
            raise InputError(f"limit: {limit} is beyond float64 in {plan.unit:~C}")
    if backend == "dask":
        return _reduce_dask(plan, base, shown, names, shape, reduce, limit_value, sense, chunk)
    best = None
    best_index = None
    count = 0
    lo = {n: math.inf for n in names}
    hi = {n: -math.inf for n in names}
    chunks = 0
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        flat = np.arange(start, stop, dtype=np.int64)
        idx = np.unravel_index(flat, shape)
        values = {n: base[n][i] for n, i in zip(names, idx)}
        y = np.broadcast_to(plan(**values), flat.shape)
        chunks += 1
        if reduce in ("min", "argmin"):
            j = int(np.argmin(y))
            if best is None or y[j] < best:
                best, best_index = float(y[j]), start + j
        elif reduce in ("max", "argmax"):
            j = int(np.argmax(y))
            if best is None or y[j] > best:
                best, best_index = float(y[j]), start + j
        else:
            ok = y <= limit_value if sense == "<=" else y >= limit_value
            c = int(np.count_nonzero(ok))
            count += c
            if c:
                for n in names:
                    v = values[n][ok]
                    lo[n] = min(lo[n], float(v.min()))
                    hi[n] = max(hi[n], float(v.max()))
    result = Reduction(reduce=reduce, points=total, chunks=chunks, output=output)
    if reduce == "feasible":
        result.limit, result.sense = Q_(limit_value, plan.unit), sense
        result.value = count
        result.feasible = count
        for n in names:
            if count:
                unit = plan.variables[n].unit
                result.bounds[n] = (Q_(from_base(lo[n], unit), unit), Q_(from_base(hi[n], unit), unit))
        return result
    result.value = Q_(best, plan.unit)
    idx = np.unravel_index(best_index, shape)
    result.at = {n: Q_(from_base(float(base[n][i]), plan.variables[n].unit), plan.variables[n].unit) for n, i in zip(names, idx)}
    return result


def _reduce_dask(plan: VectorPlan, base: dict[str, np.ndarray], shown: dict[str, Any], names: list[str], shape: tuple[int, ...],
                 reduce: str, limit_value: Any, sense: str, chunk: int) -> Reduction:
    import dask.array as da

    n = len(names)
    side = max(1, int(round(chunk ** (1 / n))))
    arrays = []
    for i, name in enumerate(names):
        a = base[name].reshape([-1 if j == i else 1 for j in range(n)])
        arrays.append(da.from_array(a, chunks=tuple(side if s > 1 else 1 for s in a.shape)))
    bcast = da.broadcast_arrays(*arrays)
    y = da.map_blocks(lambda *blocks: plan(**dict(zip(names, blocks))), *bcast, dtype=np.float64)
    result = Reduction(reduce=reduce, points=math.prod(shape), chunks=int(np.prod(y.numblocks)), output=plan.output)
    if reduce == "feasible":
        result.limit, result.sense = Q_(limit_value, plan.unit), sense
        ok = y <= limit_value if sense == "<=" else y >= limit_value
        import dask

        lows = [da.where(ok, b, np.inf).min() for b in bcast]    # each input's feasible range, as the numpy path gives
        highs = [da.where(ok, b, -np.inf).max() for b in bcast]
        count, lo, hi = dask.compute(ok.sum(), lows, highs)
        result.value = result.feasible = int(count)
        if result.feasible:
            for name, low, high in zip(names, lo, hi):
                unit = plan.variables[name].unit
                result.bounds[name] = (Q_(from_base(float(low), unit), unit), Q_(from_base(float(high), unit), unit))
        return result
    flat = y.ravel()
    j = int((flat.argmin() if reduce in ("min", "argmin") else flat.argmax()).compute())
    idx = np.unravel_index(j, shape)
    result.value = Q_(float(flat[j].compute()), plan.unit)
    result.at = {name: Q_(from_base(float(base[name][i]), plan.variables[name].unit), plan.variables[name].unit) for name, i in zip(names, idx)}
    return result


class SweepAccessor:
    """Sweeps of one scenario: ``s.sweeps.grid(output, *keys, **inputs)`` and ``s.sweeps.reduce(...)``.

    >>> from mlsysim_symbolic import Scenarios
    >>> Scenarios.DpSgdPerExampleGradients.sweeps.grid("per_batch", "GPT-2", batch_size=[1, 2]).values.to("GB")
    <Quantity([ 6. 12.], 'gigabyte')>
    """

    def __init__(self, scenario: Analysable) -> None:
        self._s = scenario

    def grid(self, output: str, *keys: Any, **inputs: Any) -> SweepResult:
        """:func:`sweep` of ``output`` over ranges or arrays of inputs (and of its arguments)."""
        return sweep(self._s, output, *keys, **inputs)

    def reduce(self, output: str, *keys: Any, **options: Any) -> Reduction:
        """:func:`reduce_sweep`: a chunked min/max/argmin/argmax/feasible-region reduction over a grid."""
        return reduce_sweep(self._s, output, *keys, **options)
