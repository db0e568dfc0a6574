"""Matplotlib figures: sweeps (line, heat map) and tornado charts, with labelled axes and units."""

from __future__ import annotations

from typing import Any


def _figure(ax: Any) -> tuple[Any, Any]:
    import matplotlib

    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    del matplotlib
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    return fig, fig.add_subplot()


def _label(name: str, unit: Any) -> str:
    text = f"{unit:~C}" if unit is not None else ""
    return f"{name} [{text}]" if text else name


def plot_sweep(result: Any, ax: Any = None, **kwargs: Any) -> Any:
    """A line plot for a one-input sweep, a heat map for two; returns the matplotlib Figure."""
    fig, ax = _figure(ax)
    names = list(result.axes)
    values = result.values
    if len(names) == 1:
        x = result.axes[names[0]]
        ax.plot(x.magnitude, values.magnitude, **kwargs)
        ax.set_xlabel(_label(names[0], x.units))
        ax.set_ylabel(_label(result.output, values.units))
    elif len(names) == 2:
        x, y = (result.axes[n] for n in names)
        mesh = ax.pcolormesh(y.magnitude, x.magnitude, values.magnitude, shading="auto", **kwargs)
        ax.set_xlabel(_label(names[1], y.units))
        ax.set_ylabel(_label(names[0], x.units))
        fig.colorbar(mesh, ax=ax, label=_label(result.output, values.units))
    else:
        raise ValueError(f"plot_sweep draws one or two inputs; this sweep has {len(names)}")
    ax.set_title(f"{getattr(result.scenario, 'key', '') or result.scenario.name}: {result.output}")
    return fig


def tornado(table: Any, ax: Any = None, title: str = "") -> Any:
    """A tornado chart of a one-at-a-time table: one bar per input from the low to the high output, widest on top."""
    fig, ax = _figure(ax)
    rows = list(table.records)[::-1]
    base = rows[0]["baseline"] if rows else None
    for i, r in enumerate(rows):
        lo = r["output_low"].to(base.units).magnitude
        hi = r["output_high"].to(base.units).magnitude
        left, right = min(lo, hi), max(lo, hi)
        ax.barh(i, right - left, left=left, color="tab:blue" if hi >= lo else "tab:orange")
    ax.set_yticks(range(len(rows)), [r["input"] for r in rows])
    if base is not None:
        ax.axvline(base.magnitude, color="black", linewidth=1)
        ax.set_xlabel(_label(table.title or "output", base.units))
    ax.set_title(title or f"Tornado: {table.title}")
    return fig
