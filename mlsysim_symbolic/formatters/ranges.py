"""Ranges ``lo–hi`` (MIT Press style: an en dash, both endpoints in full): of numbers, of Quantities in one display
unit, of durations, of dollar amounts.  An inverted range raises (:func:`.span.ordered`).

>>> from mlsysim_symbolic.units import Q_
>>> fmt_range(5, 10, precision=0, unit="GB"), fmt_range(1992, 1993, precision=0, commas=False)
('5–10 GB', '1992–1993')
>>> fmt_range(0.10, 0.50, kind="usd", precision=2), fmt_qty_range(Q_(40, "GB"), Q_(0.08, "TB"), "GB")
('\\\\$0.10–\\\\$0.50', '40–80 GB')
>>> fmt_time_range(Q_(0.5, "s"), Q_(2, "s"), "ms"), fmt_time_range(1, 2, "h", style="word")
('500–2000 ms', '1–2 hours')
>>> fmt_usd_range(2e6, 5e6, scale="M", per="year"), fmt_usd_range(10, 20, repeat_symbol=False, approx=True)
('\\\\$2M–\\\\$5M/year', '~\\\\$10–20')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import FormatError, FormatTypeError
from ..units import ureg
from .display import number, value_of
from .inputs import DisplayUnit, finite, magnitude_in, quantity_of, require_quantity
from .markdown import MarkdownStr
from .precision import INTEGER_TOL
from .quantities import TIME_WORDS
from .quantity import resolve_unit
from .scales import resolve_scale
from .span import endpoint_precisions, joined, ordered
from .suffix import denominator, quantity_suffix
from .values import USD_DENOMINATORS, fmt_int, fmt_usd

__all__ = ["RANGE_KINDS", "TIME_RANGE_STYLES", "fmt_qty_range", "fmt_range", "fmt_time_range", "fmt_usd_range"]

#: fmt_range's kinds: ``kind`` -> how an endpoint is shown, given ``(endpoint, precision, commas)``.
RANGE_KINDS: dict[str, Callable[[Any, Any, bool], MarkdownStr]] = {
    "number": lambda end, precision, commas: number(end, precision=precision, commas=commas, formatter="fmt_range"),
    "usd": lambda end, precision, commas: fmt_usd(end, precision=precision, commas=commas),
}


def fmt_range(lo: Any, hi: Any, *, precision: int | None = 1, commas: bool = True, unit: str = "",
              kind: str = "number") -> MarkdownStr:
    """``lo–hi`` (numbers, or Quantities' magnitudes), each endpoint shown by its ``kind`` (:data:`RANGE_KINDS`:
    ``number`` or ``usd``, each endpoint with its ``\\$``), followed by the text ``unit`` when given (``percent``,
    ``%``, ``GB``).

    >>> fmt_range(2, 4, precision=0, unit="percent"), fmt_range(1.5, 2.5, precision=None)
    ('2–4 percent', '1.5–2.5')
    """
    name = "fmt_range"
    ordered(value_of(lo, formatter=name), value_of(hi, formatter=name), formatter=name)
    show = RANGE_KINDS.get(kind) if isinstance(kind, str) else None
    if show is None:
        raise FormatError(name, f"kind must be one of {list(RANGE_KINDS)}, got {kind!r}; for a percent range use "
                                "kind='number' with unit='percent' or '%'")
    if unit and not isinstance(unit, str):
        raise FormatTypeError(name, f"unit is the text written after the range, got {type(unit).__name__}")
    return joined(show(lo, precision, commas), show(hi, precision, commas), f" {unit}" if unit else "")


def _endpoint_in(value: Any, shown: DisplayUnit, *, formatter: str) -> float:
    """An endpoint's magnitude in ``shown``: a Quantity converted, a plain number taken as already in it."""
    quantity = quantity_of(value, formatter=formatter)
    if quantity is None:
        return finite(value, formatter=formatter)
    return magnitude_in(quantity, shown.unit, formatter=formatter)


def _span(low: float, high: float, precision: Any, commas: bool, suffix: str, *, formatter: str) -> MarkdownStr:
    """``low–high`` and ``suffix``: ordered, each endpoint at its precision (trimmed when auto)."""
    ordered(low, high, formatter=formatter)
    ends = [number(value, precision=digits, commas=commas, trim_trailing_zeros=precision is None, formatter=formatter)
            for value, digits in zip((low, high), endpoint_precisions(low, high, precision, formatter=formatter))]
    return joined(*ends, suffix)


def fmt_qty_range(lo: Any, hi: Any, display_unit: Any = None, *, unit: Any = None, precision: Any = None,
                  commas: bool = False, unit_label: str | None = None, per: Any = None) -> MarkdownStr:
    """A range of two Quantities (plain numbers raise) in ``display_unit`` (or ``unit=``) with one unit label
    (or ``unit_label``) and ``/per``; ``precision`` one int, a ``(lo, hi)`` pair or ``None`` (auto).

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_qty_range(Q_(1.5, "TB/s"), Q_(3.35, "TB/s"), unit="TB/s", precision=(1, 2), per="GPU")
    '1.5–3.35 TB/s/GPU'
    """
    name = "fmt_qty_range"
    low_q, high_q = require_quantity(lo, formatter=name), require_quantity(hi, formatter=name)
    shown = resolve_unit(display_unit, unit, formatter=name)
    low, high = (magnitude_in(end, shown.unit, formatter=name) for end in (low_q, high_q))
    text = _span(low, high, precision, commas, "", formatter=name)
    return MarkdownStr(text + quantity_suffix(shown, formatter=name, unit_label=unit_label, per=per))


def _time_word(shown: DisplayUnit, low: float, high: float) -> str:
    words = TIME_WORDS.get(shown.unit)
    if words is None:
        raise FormatError("fmt_time_range", f"style='word' has no word for the time unit {shown.label!r}")
    both_one = abs(low - 1) <= INTEGER_TOL and abs(high - 1) <= INTEGER_TOL
    return f" {words[0] if both_one else words[1]}"


#: fmt_time_range's styles: ``style`` -> the text after the range, from the display unit and the endpoints.
TIME_RANGE_STYLES: dict[str, Callable[[DisplayUnit, float, float], str]] = {
    "symbol": lambda shown, low, high: quantity_suffix(shown, formatter="fmt_time_range"),
    "word": _time_word,
}
_TIME = ureg.second.dimensionality


def fmt_time_range(lo: Any, hi: Any, display_unit: Any = None, *, unit: Any = None, precision: Any = None,
                   commas: bool = False, style: str = "symbol") -> MarkdownStr:
    """A range of durations (time Quantities, or numbers already in the display unit) in a time unit: ``2–5 ms``,
    or ``2–5 milliseconds`` (``style="word"``; singular only when both endpoints are 1).

    >>> fmt_time_range(1, 1, "min", style="word"), fmt_time_range(0.25, 1.5, unit="us", precision=2)
    ('1–1 minute', '0.25–1.50 μs')
    """
    name = "fmt_time_range"
    shown = resolve_unit(display_unit, unit, formatter=name)
    if shown.unit.dimensionality != _TIME:
        raise FormatError(name, f"display unit must be a time unit, got {shown.label!r}")
    suffix_of = TIME_RANGE_STYLES.get(style) if isinstance(style, str) else None
    if suffix_of is None:
        raise FormatError(name, f"style must be one of {list(TIME_RANGE_STYLES)}, got {style!r}")
    low, high = (_endpoint_in(end, shown, formatter=name) for end in (lo, hi))
    text = _span(low, high, precision, commas, "", formatter=name)
    return MarkdownStr(text + suffix_of(shown, low, high))


def _dollars(value: Any, *, formatter: str) -> float:
    quantity = quantity_of(value, formatter=formatter)
    if quantity is None:
        return value_of(value, formatter=formatter)
    return magnitude_in(quantity, ureg.dollar, formatter=formatter)


def fmt_usd_range(lo: Any, hi: Any, *, precision: int = 0, commas: bool = True, scale: str | None = None,
                  per: Any = None, approx: bool = False, repeat_symbol: bool = True) -> MarkdownStr:
    """A range of dollar amounts (numbers or dollar Quantities) as :func:`.values.fmt_usd` shows them, ``scale`` on
    both endpoints and one ``/per`` (of :data:`.values.USD_DENOMINATORS`) after them; ``repeat_symbol=False``
    writes the dollar sign once (``\\$10–20``).

    >>> fmt_usd_range(1.5, 2.25, precision=2), fmt_usd_range(2.5e9, 3.5e9, scale="B", precision=1, repeat_symbol=False)
    ('\\\\$1.50–\\\\$2.25', '\\\\$2.5B–3.5B')
    """
    name = "fmt_usd_range"
    low, high = _dollars(lo, formatter=name), _dollars(hi, formatter=name)
    ordered(low, high, formatter=name)
    first = fmt_usd(low, precision=precision, commas=commas, scale=scale, approx=approx)
    if repeat_symbol:
        second = fmt_usd(high, precision=precision, commas=commas, scale=scale)
    else:
        divisor, glyph = resolve_scale(scale, formatter=name)
        second = fmt_int(high / divisor, commas=commas, suffix=glyph) if precision == 0 else \
            number(high / divisor, precision=precision, commas=commas, suffix=glyph, formatter=name)
    return joined(first, second, denominator(per, formatter=name, allowed=USD_DENOMINATORS))
