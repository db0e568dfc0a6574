"""Rates of counted events (``1,200 QPS``, ``45 tokens/s``, ``30 FPS``): a number followed by one of mlsysim's named
rate units.  Physical rates (``GB/s``, ``TFLOP/s``) are Quantities for :func:`.quantity.fmt_qty` instead.

>>> fmt_rate(1200, "QPS"), fmt_rate(2.5e6, "tokens/s", scale="M", precision=1), fmt_rate(3, "queries/s", approx=True)
('1,200 QPS', '2.5M tokens/s', '~3 queries/s')
>>> fmt_fps(29.97), fmt_fps(29.97, precision=2), fmt_fps(1500, commas=True, lower_bound=True)
('30 FPS', '29.97 FPS', '> 1,500 FPS')
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError
from .display import number, value_of
from .labels import text_atom
from .markdown import MarkdownStr
from .scales import resolve_scale
from .values import fmt_int

__all__ = ["RATE_UNITS", "fmt_fps", "fmt_rate", "fmt_token_rate"]

#: The rate units fmt_rate writes (mlsysim's list; a singular ``false wake/month`` so that 1 reads right).
RATE_UNITS: frozenset[str] = frozenset({
    "QPS", "FPS", "IOPS", "MIPS", "MACs/cycle", "tokens/s", "tokens/hour", "img/s", "images/s", "queries/s", "req/s",
    "requests/s", "requests/day", "events/s", "errors/hour", "failures/hour", "failures/day", "inferences/s",
    "inferences/hour", "inferences/day", "patients/day", "queries/hour", "queries/day", "reviews/day", "samples/s",
    "samples/min", "samples/hour", "deploys/week", "checkpoints/hour", "windows/month", "false wake/month",
    "false wakes/month", "feature reads/request", "queries/month", "queries/class", "incidents/year", "models/year",
    "reads/year", "photos/patient", "utterances/speaker", "cameras/store", "boards/store", "cases/day", "km/h"})


def _rate(value: Any, allow_negative: bool, *, formatter: str) -> float:
    rate = value_of(value, formatter=formatter)
    if rate < 0 and not allow_negative:
        raise FormatError(formatter, f"expects a non-negative rate, got {rate}; pass allow_negative=True for a signed "
                                     "rate (a change of rate)")
    return rate


def fmt_rate(value: Any, unit: str, *, precision: int | None = 0, commas: bool = True, scale: str | None = None,
             approx: bool = False, lower_bound: bool = False, upper_bound: bool = False,
             allow_negative: bool = False) -> MarkdownStr:
    """``value`` (a number, or a Quantity's magnitude) in the named rate ``unit`` (one of :data:`RATE_UNITS`),
    divided by ``scale`` (``K``/``M``/``B``/``T`` or its word); non-negative unless ``allow_negative``.

    >>> fmt_rate(12, "requests/day", upper_bound=True), fmt_rate(-40, "QPS", allow_negative=True)
    ('< 12 requests/day', '-40 QPS')
    >>> fmt_rate(5, "GB/s")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_rate: unit must be a named rate unit (use fmt_qty for a physical rate), got 'GB/s'
    """
    name = "fmt_rate"
    label = text_atom(unit, formatter=name, what="rate unit")
    if label not in RATE_UNITS:
        raise FormatError(name, f"unit must be a named rate unit (use fmt_qty for a physical rate), got {label!r}")
    rate = _rate(value, allow_negative, formatter=name)
    divisor, glyph = resolve_scale(scale, formatter=name)
    return number(rate / divisor, precision=precision, commas=commas, suffix=f"{glyph} {label}", approx=approx,
                  lower_bound=lower_bound, upper_bound=upper_bound, formatter=name)


def fmt_fps(value: Any, *, precision: int | None = 0, commas: bool = False, approx: bool = False,
            lower_bound: bool = False, upper_bound: bool = False, allow_negative: bool = False) -> MarkdownStr:
    """Frames per second: rounded to a whole number at ``precision=0`` (as :func:`.values.fmt_int`), else shown as
    :func:`fmt_rate` shows ``FPS``; non-negative unless ``allow_negative``.

    >>> fmt_fps(59.94, precision=None), fmt_fps(-5, allow_negative=True)
    ('59.9 FPS', '-5 FPS')
    """
    rate = _rate(value, allow_negative, formatter="fmt_fps")
    if precision == 0:
        return fmt_int(rate, commas=commas, suffix=" FPS", approx=approx, lower_bound=lower_bound,
                       upper_bound=upper_bound)
    return fmt_rate(rate, "FPS", precision=precision, commas=commas, approx=approx, lower_bound=lower_bound,
                    upper_bound=upper_bound, allow_negative=allow_negative)


def fmt_token_rate(value: Any, *, unit: str = "tokens/s", precision: int | None = 0, commas: bool = True,
                   scale: str | None = None, approx: bool = False, lower_bound: bool = False, upper_bound: bool = False,
                   allow_negative: bool = False) -> MarkdownStr:
    """A model's token generation or ingestion rate: :func:`fmt_rate` in ``tokens/s`` (whole, with commas) by default.

    >>> fmt_token_rate(1235), fmt_token_rate(2.5e6, scale="M", precision=1)
    ('1,235 tokens/s', '2.5M tokens/s')
    """
    return fmt_rate(value, unit, precision=precision, commas=commas, scale=scale, approx=approx,
                    lower_bound=lower_bound, upper_bound=upper_bound, allow_negative=allow_negative)
