"""``fmt_latency``: a duration auto-scaled for prose (ns to hours), handed to :func:`.quantities.fmt_time`.

>>> from mlsysim_symbolic.units import Q_
>>> fmt_latency(Q_(5e-5, "s")), fmt_latency(Q_(500, "s")), fmt_latency(Q_(0.035, "s"), unit="us", commas=True)
('50 μs', '8.3 min', '35,000 μs')
"""

from __future__ import annotations

from typing import Any

from .domains import LADDERS
from .inputs import display_unit, magnitude_in, require_quantity
from .markdown import MarkdownStr
from .precision import resolve_precision
from .quantities import fmt_time

__all__ = ["fmt_latency"]


def fmt_latency(duration: Any, *, unit: Any = None, precision: int | None = None,
                commas: bool = False) -> MarkdownStr:
    """Auto-scale a latency (a time Quantity) for prose: ns, μs, ms, s, min or h by its size, or ``unit``;
    a negative duration raises, as :func:`.quantities.fmt_time` does.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_latency(Q_(2.5, "h"), precision=2), fmt_latency(Q_(5e-10, "s"))
    ('2.50 h', '0.5 ns')
    """
    value = require_quantity(duration, formatter="fmt_latency")
    shown = LADDERS["latency"].pick(value, formatter="fmt_latency") if unit is None else \
        display_unit(unit, formatter="fmt_latency")
    digits = resolve_precision(magnitude_in(value, shown.unit, formatter="fmt_latency"), precision,
                               formatter="fmt_latency")
    return fmt_time(value, shown.unit if unit is None else unit, precision=digits, commas=commas, style="symbol",
                    trim_trailing_zeros=precision is None)
