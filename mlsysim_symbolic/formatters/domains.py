"""The domain formatters, one :class:`~.domain.Domain` entry each (mlsysim's units, ladders and labels).

A new domain formatter is an entry of :data:`DOMAINS` (and its name in :data:`~.names.FORMATTERS`); a ladder of
auto-scaled units is declared once here with :meth:`~.domain.Ladder.of` (``(unit text, at_least)`` pairs, the
thresholds in the ladder's base unit).

>>> from mlsysim_symbolic.units import Q_
>>> from mlsysim_symbolic.formatters.domains import fmt_memory, fmt_power, fmt_torque
>>> fmt_memory(Q_(1500, "byte")), fmt_memory(Q_(80, "GiB"), binary=True), fmt_memory(Q_(2.5e15, "byte"), per="day")
('1.5 KB', '80 GiB', '2.5 PB/day')
>>> fmt_power(Q_(700, "W")), fmt_power(Q_(1.2e7, "W"), approx=True), fmt_torque(Q_(2.5, "N*m"), precision=2)
('700 W', '~12 MW', '2.50 N·m')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .domain import Domain, Ladder, build
from .markdown import MarkdownStr

__all__ = ["DOMAINS", "LADDERS", "formatters"]

#: The auto-scaling ladders (mlsysim's ``_pick_*_unit`` rules).
LADDERS: dict[str, Ladder] = {
    "memory": Ladder.of("byte", ("KB", 0), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("PB", 1e15)),
    "memory_binary": Ladder.of("byte", ("KiB", 0), ("MiB", 1024**2), ("GiB", 1024**3), ("TiB", 1024**4)),
    "power": Ladder.of("W", ("W", 0), ("kW", 1e3), ("MW", 1e6), ("GW", 1e9)),
}

_MARKED = ("approx", "lower_bound", "upper_bound", "per")

#: One entry per domain formatter.
DOMAINS: tuple[Domain, ...] = (
    Domain("fmt_memory", dimension="byte", default=LADDERS["memory"], keywords=("binary", *_MARKED),
           ladders={"binary": LADDERS["memory_binary"]},
           doc="Memory sizes auto-scaled for prose: KB to PB (KiB to TiB with binary=True)."),
    Domain("fmt_power", dimension="W", default=LADDERS["power"], keywords=_MARKED,
           doc="Power auto-scaled for prose: W, kW, MW, GW."),
    Domain("fmt_torque", dimension="N*m", default="N*m", label="N·m", checks_value=True,
           doc="Torque for prose, labelled N·m."),
)

#: The built formatters, by name.
formatters: dict[str, Callable[..., MarkdownStr]] = {domain.name: build(domain) for domain in DOMAINS}


def __getattr__(name: str) -> Any:
    """A built domain formatter (``fmt_memory`` ...)."""
    if name in formatters:
        return formatters[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
