"""Matplotlib figures: sweeps (line, heat map), tornado charts and regime maps, with labelled axes and units.

Every figure function takes an optional ``ax=`` (draw into an existing Axes) and returns the matplotlib
``Figure``.  Axes carry readable units: a value in bytes is shown in the SI prefix that keeps its tick
numbers plain (``TB``, not ``x1e12 B``); a count is shown in powers of a thousand (``10^9 param``).
A range spanning more than two decades (or a grid spaced by a constant ratio) is drawn on a log axis, and a heat map's cells are drawn on the
real, possibly uneven, grid (cell edges halfway between neighbouring grid values).

matplotlib is an optional dependency: ``pip install "mlsysim-symbolic[plot]"``.

>>> from mlsysim_symbolic.units import Q_
>>> readable(Q_([1.2e12, 1.6e12], "B"))
<Quantity([1.2 1.6], 'terabyte')>
>>> cell_edges([1.0, 2.0, 4.0])
array([0.5, 1.5, 3. , 5. ])
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np
import pint

from .units import Q_, parse_unit, ureg

PLOT_EXTRA = 'pip install "mlsysim-symbolic[plot]"'
LOG_SPAN = 100.0   # a range wider than this ratio (two decades) is drawn on a log axis

_SI = {-12: "pico", -9: "nano", -6: "micro", -3: "milli", 0: "", 3: "kilo", 6: "mega", 9: "giga", 12: "tera",
       15: "peta", 18: "exa", 21: "zetta", 24: "yotta"}
_BINARY = {0: "", 1: "kibi", 2: "mebi", 3: "gibi", 4: "tebi", 5: "pebi", 6: "exbi"}
_PREFIXABLE = frozenset({"byte", "bit", "second", "flop", "meter", "gram", "watt", "joule", "hertz", "volt"})
_LOW_COLOUR, _HIGH_COLOUR = "#4477aa", "#ee6677"          # colour-blind safe (Paul Tol's bright scheme)
_REGIME_COLOURS = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb",
                   "#332288", "#117733", "#882255")


def require_matplotlib() -> Any:
    """The ``matplotlib`` module, or a ``ModuleNotFoundError`` that names the extra to install.

    >>> require_matplotlib().__name__
    'matplotlib'
    """
    try:
        import matplotlib
        import matplotlib.figure  # noqa: F401  (the Figure class used below)
    except ImportError as exc:
        raise ModuleNotFoundError(f"figures need matplotlib, which is not installed: {PLOT_EXTRA}", name="matplotlib") from exc
    return matplotlib


def _figure(ax: Any, size: tuple[float, float] = (6.4, 4.0)) -> tuple[Any, Any]:
    """``ax``'s figure and ``ax``, or a new constrained-layout Figure (no pyplot state) and its Axes."""
    require_matplotlib()
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


# ---------------------------------------------------------------------- readable units
def _scale_of(values: pint.Quantity) -> float:
    data = np.abs(np.asarray(values.magnitude, dtype=float))
    data = data[np.isfinite(data) & (data > 0)]
    return float(data.max()) if data.size else 0.0


def readable(values: pint.Quantity) -> pint.Quantity:
    """``values`` in the prefix of their first unit that puts the largest magnitude in [1, 1000) (binary
    prefixes, steps of 1024, when the unit already has one).  Units that take no prefix (counts, hours,
    dollars) are returned unchanged; :func:`axis_unit` shows those with a power of ten instead.

    >>> readable(Q_(0.0431, "s"))
    <Quantity(43.1, 'millisecond')>
    >>> readable(Q_(3 * 2**20, "GiB/s"))
    <Quantity(3.0, 'pebibyte / second')>
    >>> readable(Q_(2e9, "param"))
    <Quantity(2e+09, 'param')>
    """
    biggest = _scale_of(values)
    items = list(values.unit_items())
    first = next((i for i, (_, power) in enumerate(items) if power == 1), None)
    if not biggest or first is None:
        return values
    registry = ureg
    prefix, root, suffix = registry.parse_unit_name(items[first][0])[0]
    if root not in _PREFIXABLE or suffix:
        return values
    root_values = values.to(_unit_with(registry, items, first, root))
    biggest = _scale_of(root_values)
    if prefix in _BINARY.values() and prefix:
        step = min(max(int(math.floor(math.log(biggest, 1024))), 0), max(_BINARY))
        new = _BINARY[step]
    else:
        exponent = 3 * math.floor(math.log10(biggest) / 3 + 1e-12)
        new = _SI[min(max(exponent, min(_SI)), max(_SI))]
    return root_values.to(_unit_with(registry, items, first, new + root))


def _unit_with(registry: Any, items: list[tuple[str, Any]], index: int, name: str) -> Any:
    unit = registry.Unit(name)
    for i, (other, power) in enumerate(items):
        if i != index:
            unit = unit * registry.Unit(other) ** power
    return unit


def axis_unit(values: pint.Quantity, log: bool = False) -> tuple[np.ndarray, str]:
    """Plain magnitudes for an axis and the unit text for its label: :func:`readable` prefixes, else a power of
    a thousand in the label (``10^9 param``) so the tick numbers need no offset.  A log axis keeps the unit.

    >>> axis_unit(Q_([1e9, 2e9], "param"))
    (array([1., 2.]), '$10^{9}$ param')
    >>> axis_unit(Q_([1.5e12], "B"))
    (array([1.5]), 'TB')
    """
    shown = readable(values)
    data = np.asarray(shown.magnitude, dtype=float)
    text = _unit_text(shown.units)
    biggest = _scale_of(shown)
    if log or not biggest or 1e-3 <= biggest < 1e4:
        return data, text
    exponent = 3 * math.floor(math.log10(biggest) / 3 + 1e-12)
    return data / 10.0 ** exponent, f"$10^{{{exponent}}}$" + (f" {text}" if text else "")


def _unit_text(unit: Any) -> str:
    return f"{unit:~C}" if unit is not None and str(unit) != "dimensionless" else ""


def _label(name: str, unit_text: str) -> str:
    return f"{name} [{unit_text}]" if unit_text else name


def format_value(q: pint.Quantity, sig: int = 3, tex: bool = True) -> str:
    """A scalar Quantity as short text in a readable unit: ``230 sample``, ``2.68 TB/s``, ``1.35x10^9 param``
    (a power of ten in mathtext for a figure; ``tex=False`` keeps ``1.35e+09`` for plain text).

    >>> format_value(Q_(2.68e12, "B/s"))
    '2.68 TB/s'
    >>> format_value(Q_(1638.4, "token")), format_value(Q_(64, "count"))
    ('1,638 token', '64')
    >>> print(format_value(Q_(1.35e9, "param")))
    $1.35\\times 10^{9}$ param
    """
    shown = readable(q)
    unit = _unit_text(shown.units) if str(shown.units) != "count" else ""
    magnitude = float(shown.magnitude)
    number = f"{magnitude:.{sig}g}"
    if "e" in number and 1e3 <= abs(magnitude) < 1e6:
        number = f"{magnitude:,.0f}"
    elif "e" in number and tex:    # a count far from 1: a power of ten in mathtext, not 1.35e+09
        mantissa, exponent = number.split("e")
        number = rf"${mantissa}\times 10^{{{int(exponent)}}}$"
    return number + (f" {unit}" if unit else "")


def _wants_log(data: np.ndarray, grid: bool = False) -> bool:
    """A log axis for positive values spanning more than two decades, or (``grid``) for a grid of at least three
    positive values spaced by a constant ratio (128, 256, 512, ...) spanning at least a factor of 8.

    >>> _wants_log(np.array([1.0, 500.0])), _wants_log(np.array([128.0, 256, 512, 1024]), grid=True)
    (True, True)
    >>> _wants_log(np.arange(1.0, 65.0), grid=True)
    False
    """
    finite = np.sort(data[np.isfinite(data)])
    if finite.size < 2 or not np.all(finite > 0):
        return False
    span = finite[-1] / finite[0]
    if span > LOG_SPAN:
        return True
    if not grid or finite.size < 3 or span < 8:
        return False
    steps, ratios = np.diff(finite), np.diff(np.log(finite))
    return bool(np.std(ratios) / np.mean(ratios) < 0.5 * np.std(steps) / np.mean(steps))


def cell_edges(centres: Sequence[float] | np.ndarray, log: bool = False) -> np.ndarray:
    """Edges of the cells around sorted grid values: halfway between neighbours (in log space when ``log``),
    the outer cells as wide as their inner half.  A single value gets a cell of +/- half its size.

    >>> cell_edges([128, 256, 1024], log=True)
    array([  90.50966799,  181.01933598,  512.        , 2048.        ])
    """
    c = np.asarray(centres, dtype=float)
    if log:
        return np.exp(cell_edges(np.log(c)))
    if c.size == 1:
        half = abs(c[0]) / 2 or 0.5
        return np.array([c[0] - half, c[0] + half])
    middle = (c[1:] + c[:-1]) / 2
    return np.concatenate([[c[0] - (middle[0] - c[0])], middle, [c[-1] + (c[-1] - middle[-1])]])


def _sorted_axis(values: np.ndarray) -> np.ndarray:
    return np.argsort(values, kind="stable")


# ---------------------------------------------------------------------- sweeps
def plot_sweep(result: Any, ax: Any = None, **kwargs: Any) -> Any:
    """A line plot for a one-input sweep, a heat map on the real grid for two; returns the matplotlib Figure.

    Units on both axes (and the colour bar), in readable prefixes; a range spanning more than two decades
    is drawn on a log axis (and a colour scale spanning more than two decades is logarithmic).

    >>> from mlsysim_symbolic import Scenarios
    >>> fig = Scenarios.DpSgdPerExampleGradients.sweep("per_batch", "GPT-2", batch_size=[1, 10, 100, 1000]).plot()
    >>> ax = fig.axes[0]
    >>> ax.get_xscale(), ax.get_xlabel(), ax.get_ylabel()
    ('log', 'batch_size [sample]', 'per_batch [TB]')
    """
    names = list(result.axes)
    if len(names) not in (1, 2):
        raise ValueError(f"plot_sweep draws one or two inputs; this sweep has {len(names)}")
    values = result.values
    data = np.asarray(values.magnitude, dtype=float)
    if data.ndim != len(names):
        raise ValueError(f"plot_sweep draws a grid with one axis per input; this sweep of {len(names)} inputs has values of "
                         f"shape {data.shape} (evaluated with grid=False?)")
    fig, ax = _figure(ax)
    if len(names) == 1:
        xq = result.axes[names[0]]
        xlog, ylog = _wants_log(np.asarray(xq.magnitude, dtype=float), grid=True), _wants_log(data)
        x, xunit = axis_unit(xq, log=xlog)
        y, yunit = axis_unit(Q_(data, values.units), log=ylog)
        order = _sorted_axis(x)
        style = {"marker": "o", "markersize": 3} if len(x) <= 30 else {}
        ax.plot(x[order], y[order], **{**style, **kwargs})
        _scale(ax, "x", xlog)
        _scale(ax, "y", ylog)
        ax.set_xlabel(_label(names[0], xunit))
        ax.set_ylabel(_label(result.output, yunit))
        ax.grid(True, which="major", alpha=0.3)
    else:
        rows_q, cols_q = (result.axes[n] for n in names)
        rlog, clog = (_wants_log(np.asarray(q.magnitude, dtype=float), grid=True) for q in (rows_q, cols_q))
        r, runit = axis_unit(rows_q, log=rlog)
        c, cunit = axis_unit(cols_q, log=clog)
        ro, co = _sorted_axis(r), _sorted_axis(c)
        grid = data[np.ix_(ro, co)]
        zlog = _wants_log(grid)
        z, zunit = axis_unit(Q_(grid, values.units), log=zlog)
        options: dict[str, Any] = {"shading": "flat"}
        if zlog:
            from matplotlib.colors import LogNorm

            options["norm"] = LogNorm(vmin=float(np.nanmin(z)), vmax=float(np.nanmax(z)))
        mesh = ax.pcolormesh(cell_edges(c[co], clog), cell_edges(r[ro], rlog), z, **{**options, **kwargs})
        _scale(ax, "x", clog, c[co])
        _scale(ax, "y", rlog, r[ro])
        ax.set_xlabel(_label(names[1], cunit))
        ax.set_ylabel(_label(names[0], runit))
        fig.colorbar(mesh, ax=ax, label=_label(result.output, zunit))
    label = getattr(result.scenario, "key", "") or getattr(result.scenario, "name", "")
    ax.set_title(f"{label}: {result.output}" if label else result.output)
    return fig


def _scale(ax: Any, which: str, log: bool, grid: np.ndarray | None = None) -> None:
    """A log or plain linear axis; a log axis of a mesh over at most 12 grid values gets a tick at each value."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    if not log:
        ax.ticklabel_format(axis=which, style="plain", useOffset=False)
        return
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    if grid is not None and len(grid) <= 12:
        from matplotlib.ticker import NullLocator

        axis.set_ticks(list(grid), [f"{v:g}" for v in grid])
        axis.set_minor_locator(NullLocator())


# ---------------------------------------------------------------------- tornado
def _short(text: str, width: int = 30, lines: int = 2) -> str:
    """A variable's meaning as an axis label: the words before any parenthesis, colon or semicolon, wrapped to
    at most ``lines`` lines (an ellipsis marks a cut).

    >>> _short("Adam state bytes per parameter: fp32 master copy, momentum, variance")
    'Adam state bytes per parameter'
    >>> print(_short("activation bytes per token, example and hidden unit outside the attention scores"))
    activation bytes per token,
    example and hidden unit…
    """
    head = re.split(r" \(|[:;]", text, maxsplit=1)[0].strip() or text
    wrapped = textwrap.wrap(head, width)
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1].rstrip(",") + "\u2026"
    return "\n".join(wrapped)


def tornado(table: Any, ax: Any = None, title: str = "", labels: dict[str, str] | None = None) -> Any:
    """A tornado chart of a one-at-a-time table (:func:`~mlsysim_symbolic.sensitivity.one_at_a_time`).

    Each input gets two bars from the baseline: to the output at its low value and at its high value (a
    legend names the two colours), each end labelled with the input value used; widest swing on top.
    ``labels`` maps input names to the text on the vertical axis (the variables' meanings); an input
    without one is labelled by its name.  The output axis is in a readable unit (``TB``, not ``x1e12 B``).

    >>> from mlsysim_symbolic import Scenarios
    >>> fig = tornado(Scenarios.DpSgdPerExampleGradients.one_at_a_time("per_batch", "GPT-2"))
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), [t.get_text() for t in fig.legends[0].get_texts()][:2]
    ('per_batch [TB]', ['low input value', 'high input value'])
    """
    rows = list(table.records)[::-1]          # widest on top: matplotlib counts rows from the bottom
    own = ax is None
    fig, ax = _figure(ax, size=(7.2, 1.4 + 0.5 * max(len(rows), 1)))
    labels = labels or {}
    if not rows:
        ax.set_title(title or f"Tornado: {table.title}")
        return fig
    base = rows[0]["baseline"]
    unit_q = readable(Q_(max(_scale_of(r[k].to(base.units)) for r in rows for k in ("output_low", "output_high", "baseline")), base.units))
    unit = unit_q.units

    def value(q: pint.Quantity) -> float:
        return float(q.to(unit).magnitude)

    b = value(base)
    reach = max(max(abs(value(r["output_low"]) - b), abs(value(r["output_high"]) - b)) for r in rows) or abs(b) * 0.1 or 1.0
    for i, r in enumerate(rows):
        lo, hi = value(r["output_low"]), value(r["output_high"])
        ax.barh(i, lo - b, left=b, height=0.7, color=_LOW_COLOUR, label="low input value" if i == 0 else None)
        ax.barh(i, hi - b, left=b, height=0.7, color=_HIGH_COLOUR, label="high input value" if i == 0 else None)
        lo_side = -1.0 if lo < b or (lo == b and hi >= b) else 1.0
        hi_side = 1.0 if hi > b or (hi == b and lo < b) else -1.0
        if lo == b == hi:
            lo_side, hi_side = -1.0, 1.0
        for end, side, q in ((lo, lo_side, r["low"]), (hi, hi_side, r["high"])):
            ax.annotate(format_value(q), (end, i), xytext=(3 * side, 0), textcoords="offset points",
                        ha="left" if side > 0 else "right", va="center", fontsize=8)
    line = ax.axvline(b, color="black", linewidth=1, label=f"baseline {format_value(base)}")
    ax.set_xlim(b - 1.6 * reach, b + 1.6 * reach)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_yticks(range(len(rows)), [_short(labels.get(r["input"]) or r["input"]) for r in rows])
    ax.ticklabel_format(axis="x", style="plain", useOffset=False)
    ax.set_xlabel(_label(table.title or "output", _unit_text(unit)))
    bars = [c for c in ax.containers if c.get_label() in ("low input value", "high input value")]
    handles = [*bars, line]
    if own:   # below the axes of a figure made here; in a caller's Axes, inside it (narrowest bars are at the bottom)
        fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize="small", frameon=False)
    else:
        ax.legend(handles=handles, loc="lower right", fontsize="small", framealpha=0.9)
    ax.set_title(title or f"Tornado: {table.title}")
    return fig


# ---------------------------------------------------------------------- regime map
def regime_map(x: Any, y: Any, labels: Any, *, x_name: str = "x", y_name: str = "y", x_unit: str | None = None,
               y_unit: str | None = None, ax: Any = None, title: str = "", colors: dict[str, str] | None = None) -> Any:
    """Colour a 2-D grid by a label per point (which term dominates where), with a legend of the labels.

    ``x`` and ``y`` are the grid values (numbers, with ``x_unit``/``y_unit`` text, or Quantity arrays);
    ``labels[i][j]`` is the label at ``(x[i], y[j])``, so ``labels`` has shape ``(len(x), len(y))`` like a
    two-input sweep.  Cells are drawn on the real grid (edges halfway between neighbours; log axes for
    ranges spanning more than two decades); ``colors`` may fix a colour per label.

    >>> fig = regime_map([1, 2, 4], [10, 20], [["compute", "memory"]] * 3, x_name="batch", y_name="seq_len")
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['compute', 'memory']
    """
    xq, yq = _quantity(x, x_unit, "x"), _quantity(y, y_unit, "y")
    grid = np.asarray(labels, dtype=object)
    shape = (np.size(xq.magnitude), np.size(yq.magnitude))
    if grid.shape != shape:
        raise ValueError(f"labels must have shape (len(x), len(y)) = {shape}, got {grid.shape}"
                         + (" (transposed? labels[i][j] is the label at x[i], y[j])" if grid.shape == shape[::-1] else ""))
    xlog, ylog = (_wants_log(np.asarray(q.magnitude, dtype=float), grid=True) for q in (xq, yq))
    xs, xunit = axis_unit(xq, log=xlog)
    ys, yunit = axis_unit(yq, log=ylog)
    xo, yo = _sorted_axis(xs), _sorted_axis(ys)
    grid = grid[np.ix_(xo, yo)]
    names: list[str] = []
    for label in grid.ravel():
        if str(label) not in names:
            names.append(str(label))
    codes = np.vectorize(names.index, otypes=[int])(grid.astype(str))
    chosen = dict(colors or {})
    palette = [c for c in _REGIME_COLOURS if c not in chosen.values()]
    for name in names:
        if name not in chosen:
            chosen[name] = palette.pop(0) if palette else "#999999"
    fig, ax = _figure(ax)
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    cmap = ListedColormap([chosen[n] for n in names])
    norm = BoundaryNorm(np.arange(len(names) + 1) - 0.5, len(names))
    ax.pcolormesh(cell_edges(xs[xo], xlog), cell_edges(ys[yo], ylog), codes.T, cmap=cmap, norm=norm, shading="flat")
    _scale(ax, "x", xlog, xs[xo])
    _scale(ax, "y", ylog, ys[yo])
    ax.set_xlabel(_label(x_name, xunit))
    ax.set_ylabel(_label(y_name, yunit))
    ax.legend(handles=[Patch(facecolor=chosen[n], edgecolor="black", linewidth=0.5, label=n) for n in names],
              loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small", title="dominant")
    if title:
        ax.set_title(title)
    return fig


def _quantity(values: Any, unit: str | None, what: str) -> pint.Quantity:
    if isinstance(values, pint.Quantity):
        if unit is not None:
            values = values.to(unit)
        return Q_(np.atleast_1d(np.asarray(values.magnitude, dtype=float)), values.units)
    data = np.atleast_1d(np.asarray(values, dtype=float))
    if data.ndim != 1 or data.size == 0:
        raise ValueError(f"{what} must be a non-empty 1-D array of grid values, got shape {data.shape}")
    return Q_(data, parse_unit(unit) if unit else ureg.dimensionless)
