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
    unit, exponent, text = _axis_scale(values, log)
    return np.asarray(values.to(unit).magnitude, dtype=float) / 10.0 ** exponent, text


def _axis_scale(values: pint.Quantity, log: bool = False) -> tuple[Any, int, str]:
    """The unit of :func:`readable`, the power of ten (a multiple of 3) the axis divides by, and the label text."""
    shown = readable(values)
    text = _unit_text(shown.units)
    biggest = _scale_of(shown)
    if log or not biggest or 1e-3 <= biggest < 1e4:
        return shown.units, 0, text
    exponent = 3 * math.floor(math.log10(biggest) / 3 + 1e-12)
    return shown.units, exponent, f"$10^{{{exponent}}}$" + (f" {text}" if text else "")


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
_VALUE_FONT = 8            # points: the input values at the bar ends
_VALUE_PAD = 3             # points between a bar end and its value
_MARGIN = 0.03             # of the axis width, beyond the outermost bar end or value
_CAPTION_WIDTH = 110       # characters per caption line (a 7.2 in figure at the small font)


def wrap_label(text: str, width: int = 32) -> str:
    """``text`` wrapped at spaces to lines of at most ``width`` characters, never cut (a longer word keeps a line).

    >>> wrap_label("bytes per layer per hidden value of each token at 16 bits (communication_buffer_fraction)").splitlines()
    ['bytes per layer per hidden value', 'of each token at 16 bits', '(communication_buffer_fraction)']
    """
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def _plain_text(text: str) -> str:
    r"""``text`` shown as written: a dollar sign escaped, so that ``$0.01 ... $0.50`` is not read as mathtext.

    >>> _plain_text("scoring at $0.01 an image")
    'scoring at \\$0.01 an image'
    """
    return text.replace("$", r"\$")


def _shown_value(value: Any) -> str:
    return format_value(value) if isinstance(value, pint.Quantity) else str(value)


def _moved(row: dict[str, Any], side: str) -> bool:
    """Whether the input moved on ``side`` (``low`` or ``high``): a side that cannot move holds the value."""
    value, end = row["value"], row[side]
    if isinstance(value, pint.Quantity) and isinstance(end, pint.Quantity):
        return bool(end.to(value.units).magnitude != value.magnitude)
    return bool(end != value)


def _drawn_extent(row: dict[str, Any], unit: Any) -> float:
    ends = [float(row[k].to(unit).magnitude) for k in ("output_low", "output_high", "baseline")]
    return max(ends) - min(ends)


def _label_sides(lo: float, hi: float, b: float) -> tuple[float, float]:
    """Which way each value label points from its bar end (-1 left, +1 right): outward from the baseline; a bar of
    no length points away from the other bar (low left, high right when neither has a length)."""
    lo_side = float(np.sign(lo - b)) or (-float(np.sign(hi - b)) or -1.0)
    hi_side = float(np.sign(hi - b)) or (-float(np.sign(lo - b)) or 1.0)
    return lo_side, hi_side


def tornado(table: Any, ax: Any = None, title: str = "", labels: dict[str, str] | None = None, *,
            caption: str | None = None, width: int = 32) -> Any:
    """A tornado chart of a one-at-a-time table (:func:`~mlsysim_symbolic.sensitivity.one_at_a_time`).

    Each input gets a bar from the baseline to the output at its low value and one to the output at its high value
    (a legend names the two colours), each end labelled with the input value used; a side at which the input did
    not move (a width of 1 moves up only) has no bar.  Where both outputs lie on one side of the baseline the row
    holds the two bars one above the other.  Rows are sorted by the length they draw, widest on top.  ``labels``
    maps input names to the text on the vertical axis (plain text: a ``$`` is shown as written), wrapped to
    ``width`` characters and never cut (an input without one is labelled by its name); ``caption`` (default: the
    table's note, plain text too) says what moved by how much,
    under the axis title.  The axis limits leave room for every value label inside the axes.  The output axis is
    in a readable unit (``TB``, not ``x1e12 B``).

    >>> from mlsysim_symbolic import Scenarios
    >>> fig = tornado(Scenarios.DpSgdPerExampleGradients.one_at_a_time("per_batch", "GPT-2"))
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), [t.get_text() for t in ax.get_legend().get_texts()][:2]
    ('per_batch [TB]', ['low input value', 'high input value'])
    """
    records = list(table.records)
    own = ax is None
    fig, ax = _figure(ax, size=(7.2, 1.0))
    labels = labels or {}
    if not records:
        ax.set_title(title or f"Tornado: {table.title}")
        return fig
    base = records[0]["baseline"]
    unit, exponent, unit_text = _axis_scale(Q_(max(_scale_of(r[k].to(base.units)) for r in records
                                                   for k in ("output_low", "output_high", "baseline")), base.units))
    rows = sorted(records, key=lambda r: -_drawn_extent(r, unit))[::-1]   # widest on top: rows count from the bottom
    names = [_plain_text(wrap_label(labels.get(r["input"]) or r["input"], width)) for r in rows]
    text = _plain_text(table.note if caption is None else caption)
    if own:   # sized to its rows and caption
        caption_lines = textwrap.wrap(text, _CAPTION_WIDTH) if text else []
        lines = max(n.count("\n") + 1 for n in names)
        pitch = max(0.42, 0.15 * lines + 0.12)
        fig.set_figheight(1.5 + pitch * len(rows) + 0.15 * len(caption_lines))
    else:     # as wide as the axes: about 0.55 em per character of the small font
        inches = ax.get_position().width * fig.get_figwidth()
        caption_lines = textwrap.wrap(text, max(int(inches * 72 / (0.55 * 8.3)), 20)) if text else []

    def value(q: pint.Quantity) -> float:
        return float(q.to(unit).magnitude) / 10.0 ** exponent

    b = value(base)
    ends: list[float] = [b]
    placed: list[tuple[Any, float, float]] = []     # (value label, bar end, side)
    for i, r in enumerate(rows):
        lo, hi = value(r["output_low"]), value(r["output_high"])
        moved = (_moved(r, "low"), _moved(r, "high"))
        split = all(moved) and (lo - b) * (hi - b) > 0
        lo_side, hi_side = _label_sides(lo if moved[0] else b, hi if moved[1] else b, b)
        for k, (end, side, shown, colour, name, offset) in enumerate((
                (lo, lo_side, r["low"], _LOW_COLOUR, "low input value", 0.19),
                (hi, hi_side, r["high"], _HIGH_COLOUR, "high input value", -0.19))):
            if not moved[k]:
                continue
            y = i + (offset if split else 0.0)
            ax.barh(y, end - b, left=b, height=0.36 if split else 0.7, color=colour, label=name)
            note = ax.annotate(_shown_value(shown), (end, y), xytext=(_VALUE_PAD * side, 0), textcoords="offset points",
                               ha="left" if side > 0 else "right", va="center", fontsize=_VALUE_FONT)
            placed.append((note, end, side))
            ends.append(end)
    line = ax.axvline(b, color="black", linewidth=1, label=f"baseline {format_value(base)}")
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_yticks(range(len(rows)), names)
    ax.ticklabel_format(axis="x", style="plain", useOffset=False)
    ax.set_xlabel(_label(table.title or "output", unit_text))
    handles = []
    for name in ("low input value", "high input value"):
        handles += [c for c in ax.containers if c.get_label() == name][:1]
    ax.legend(handles=[*handles, line], loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=3, fontsize="small",
              frameon=False, borderaxespad=0.2)
    ax.set_title(title or f"Tornado: {table.title}", pad=22)
    if caption_lines and own:
        fig.supxlabel("\n".join(caption_lines), fontsize="small", gid="caption")
    elif caption_lines:   # in a caller's Axes: under its axis title
        ax.annotate("\n".join(caption_lines), (0.5, 0.0), xycoords=ax.xaxis.label, xytext=(0, -6),
                    textcoords="offset points", ha="center", va="top", fontsize="small", annotation_clip=False,
                    gid="caption")
    _fit_values(fig, ax, placed, ends)
    return fig


def _fit_values(fig: Any, ax: Any, placed: list[tuple[Any, float, float]], ends: list[float]) -> None:
    """Set the x limits so that every value label lies inside the axes, beside its bar end.

    A label ``w`` pixels wide at bar end ``e`` of an axis ``W`` pixels wide needs ``e - (w / W + m) D >= left``
    (pointing left) or ``e + (w / W + m) D <= right``, where ``D`` is the span; every pair of a left and a right
    need gives ``D >= (e_right - e_left) / (1 - a_left - a_right)``.  Measured after a layout (label widths do not
    depend on the limits), twice, as the layout may move when the tick labels change.
    """
    for _ in range(2):
        fig.draw_without_rendering()
        axis_width = max(ax.get_window_extent().width, 1.0)
        pad = _VALUE_PAD * fig.dpi / 72
        lefts = [(b, _MARGIN) for b in ends]
        rights = [(b, _MARGIN) for b in ends]
        for note, end, side in placed:
            need = (note.get_window_extent().width + pad) / axis_width + _MARGIN
            (lefts if side < 0 else rights).append((end, need))
        span = 0.0
        for e_left, a_left in lefts:
            for e_right, a_right in rights:
                span = max(span, (e_right - e_left) / max(1.0 - a_left - a_right, 0.1))
        if span <= 0:
            span = abs(ends[0]) * 0.2 or 1.0
        left = min(e - a * span for e, a in lefts)
        right = max(e + a * span for e, a in rights)
        ax.set_xlim(left, max(right, left + span))


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
