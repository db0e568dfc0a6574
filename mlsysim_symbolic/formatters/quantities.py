"""Quantities in an explicit unit without a label or as whole numbers, scientific notation, fractions, durations.

>>> from mlsysim_symbolic.units import Q_
>>> fmt_sci(4.1e9), fmt_sci(Q_(-3.2e-7, "s"), precision=1), fmt_frac(1, 2, result="0.5")
('4.10 × 10⁹', '-3.2 × 10⁻⁷', '$\\\\frac{1}{2}$ = 0.5')
>>> fmt_magnitude(Q_(2.5, "TB"), "GB", precision=0), fmt_qty_int(Q_(80.4, "GB"), "GB")
('2500', '80 GB')
>>> fmt_time(Q_(0.035, "s"), "ms", precision=0), fmt_time(1, "second", style="word", precision=None)
('35 ms', '1 second')
>>> fmt_time(10, "min", style="word", attributive=True, precision=0), fmt_time(Q_(100, "ms"), "ms", marker="+", precision=0)
('10-minute', '100 ms+')
"""

from __future__ import annotations

from typing import Any

import pint

from ..errors import FormatError
from ..units import parse_unit, ureg
from .display import number, value_of
from .inputs import DisplayUnit, finite, magnitude_in, quantity_of
from .markdown import MarkdownStr
from .precision import INTEGER_TOL, decimals, resolve_precision
from .quantity import resolve_unit, shown_in
from .suffix import denominator, quantity_suffix
from .values import fmt_int

__all__ = ["TIME_MARKERS", "TIME_STYLES", "TIME_WORDS", "fmt_frac", "fmt_magnitude", "fmt_qty_int", "fmt_sci",
           "fmt_time"]

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def fmt_sci(val: Any, precision: int = 2) -> MarkdownStr:
    """``val`` (a number, or a Quantity's magnitude) as ``m.mm × 10ⁿ`` with ``precision`` decimals.

    >>> fmt_sci(0), fmt_sci(9.999e5, precision=2), fmt_sci(12345, precision=0)
    ('0.00 × 10⁰', '1.00 × 10⁶', '1 × 10⁴')
    """
    quantity = quantity_of(val, formatter="fmt_sci")
    value = finite(val if quantity is None else quantity.magnitude, formatter="fmt_sci", what="scientific value")
    digits = decimals(precision, formatter="fmt_sci")
    mantissa, exponent = format(value, f".{digits}e").split("e")
    return MarkdownStr(f"{float(mantissa):.{digits}f} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}")


def fmt_frac(numerator: Any, denominator: Any, result: Any = None, unit: Any = None) -> MarkdownStr:
    """``$\\frac{numerator}{denominator}$``, then `` = result`` and `` unit`` when given (each as its ``str``).

    >>> fmt_frac("a", "b"), fmt_frac(3, 4, 0.75, "GB")
    ('$\\\\frac{a}{b}$', '$\\\\frac{3}{4}$ = 0.75 GB')
    """
    text = f"$\\frac{{{numerator}}}{{{denominator}}}$"
    text += "" if result is None else f" = {result}"
    return MarkdownStr(text + ("" if unit is None else f" {unit}"))


def fmt_magnitude(quantity: Any, display_unit: Any = None, *, unit: Any = None, precision: int | None = 1,
                  commas: bool = False, prefix: str = "", suffix: str = "", approx: bool = False,
                  lower_bound: bool = False) -> MarkdownStr:
    """The magnitude of ``quantity`` in ``display_unit`` (or ``unit=``), no label: for a display whose header or
    equation carries the unit.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_magnitude(Q_(1.5e9, "byte/s"), unit="GB/s", suffix="×")
    '1.5×'
    """
    shown = resolve_unit(display_unit, unit, formatter="fmt_magnitude")
    value = shown_in(quantity, shown, formatter="fmt_magnitude")
    return number(value, precision=precision, commas=commas, prefix=prefix, suffix=suffix, approx=approx,
                  lower_bound=lower_bound, formatter="fmt_magnitude")


def fmt_qty_int(quantity: Any, display_unit: Any = None, *, unit: Any = None, commas: bool = True, prefix: str = "",
                extra_suffix: str = "", unit_label: str | None = None, per: Any = None, approx: bool = False,
                lower_bound: bool = False) -> MarkdownStr:
    """``quantity`` in ``display_unit`` rounded to a whole number (:func:`.values.fmt_int`), with its label.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_qty_int(Q_(12345.5, "W"), "W"), fmt_qty_int(Q_(2.5, "GB"), unit="GB", per="month", approx=True)
    ('12,346 W', '~3 GB/month')
    """
    shown = resolve_unit(display_unit, unit, formatter="fmt_qty_int")
    value = shown_in(quantity, shown, formatter="fmt_qty_int")
    suffix = quantity_suffix(shown, formatter="fmt_qty_int", unit_label=unit_label, per=per,
                             extra_suffix=extra_suffix)
    return fmt_int(value, commas=commas, prefix=prefix, suffix=suffix, approx=approx, lower_bound=lower_bound)


#: Time unit -> (singular word, plural word), for ``style="word"`` (mlsysim's list of time words).
TIME_WORDS: dict[pint.Unit, tuple[str, str]] = {
    parse_unit(symbol): (word, f"{word}s")
    for symbol, word in (("ns", "nanosecond"), ("us", "microsecond"), ("ms", "millisecond"), ("s", "second"),
                         ("min", "minute"), ("h", "hour"), ("d", "day"), ("week", "week"), ("month", "month"),
                         ("year", "year"))
}
#: fmt_time's styles: a unit symbol (``35 ms``) or a word agreeing in number (``2 seconds``).
TIME_STYLES = ("symbol", "word")
#: The trailing markers fmt_time may append (``100 ms+``).
TIME_MARKERS = ("+",)
_TIME = ureg.second.dimensionality


def _time_word(shown: DisplayUnit) -> tuple[str, str]:
    words = TIME_WORDS.get(shown.unit)
    if words is None:
        raise FormatError("fmt_time", f"has no word for the time unit {shown.label!r}")
    return words


def _time_checks(shown: DisplayUnit, style: str, attributive: bool, per: Any, marker: str) -> None:
    if shown.unit.dimensionality != _TIME:
        raise FormatError("fmt_time", f"display unit must be a time unit, got {shown.label!r}")
    if style not in TIME_STYLES:
        raise FormatError("fmt_time", f"style must be 'symbol' or 'word', got {style!r}")
    if attributive and (style != "word" or per is not None):
        raise FormatError("fmt_time", "attributive=True requires style='word' and no per=")
    if marker and (marker not in TIME_MARKERS or style != "symbol" or attributive or per is not None):
        raise FormatError("fmt_time", f"marker must be one of {list(TIME_MARKERS)}, with style='symbol' and "
                                      f"neither attributive=True nor per=, got {marker!r}")


def fmt_time(duration: Any, display_unit: Any = None, *, unit: Any = None, precision: int | None = 1,
             commas: bool = False, style: str = "symbol", attributive: bool = False, per: Any = None,
             marker: str = "", approx: bool = False, lower_bound: bool = False, allow_negative: bool = False,
             trim_trailing_zeros: bool = False) -> MarkdownStr:
    """A duration (a time Quantity, or a number already in ``display_unit``) in a time unit: ``35 ms``,
    ``2 seconds`` (``style="word"``), ``10-minute`` (``attributive=True``), ``100 ms+`` (``marker="+"``);
    a negative duration raises unless ``allow_negative``.

    >>> fmt_time(2, "s", style="word", precision=0), fmt_time(-1.5, "h", allow_negative=True, per="day")
    ('2 seconds', '-1.5 h/day')
    """
    shown = resolve_unit(display_unit, unit, formatter="fmt_time")
    _time_checks(shown, style, attributive, per, marker)
    quantity = quantity_of(duration, formatter="fmt_time")
    value = value_of(duration, formatter="fmt_time") if quantity is None else \
        magnitude_in(quantity, shown.unit, formatter="fmt_time")
    digits = resolve_precision(value, precision, formatter="fmt_time")
    trim = trim_trailing_zeros or precision is None
    if value < 0 and not allow_negative:
        raise FormatError("fmt_time", f"expects a non-negative duration, got {value}; pass allow_negative=True "
                                      "for a signed duration")
    if style == "word":
        singular, plural = _time_word(shown)
        if attributive:
            suffix = f"-{singular}"
        else:
            suffix = f" {singular if abs(value - 1) <= INTEGER_TOL else plural}{denominator(per, formatter='fmt_time')}"
        return number(value, precision=digits, commas=commas, suffix=suffix, approx=approx, lower_bound=lower_bound,
                      trim_trailing_zeros=trim, formatter="fmt_time")
    suffix = quantity_suffix(shown, formatter="fmt_time", per=per, extra_suffix=marker)
    return number(value, precision=digits, commas=commas, suffix=suffix, approx=approx, lower_bound=lower_bound,
                  trim_trailing_zeros=trim, formatter="fmt_time")
