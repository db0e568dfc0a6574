"""Dimensionless values: bare ratios, multipliers with their times glyph, percentage points, and ranges of
multipliers and percentages.

>>> fmt_ratio(3.2), fmt_multiple(3.2), fmt_multiple(40, approx=True), fmt_multiple_range(2.5, 4.5)
('3.2', '3.2×', '~40×', '2.5–4.5×')
>>> fmt_pp(7), fmt_pp(1), fmt_pp(7, attributive=True), fmt_pp(2.5, style="symbol")
('7 percentage points', '1 percentage point', '7 percentage-point', '2.5 pp')
>>> fmt_percent_range(0.1, 0.255), fmt_percent_range(0.02, 0.04, style="symbol", precision=0)
('10–25.5 percent', '2–4%')
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError
from ..units import ureg
from .display import number, value_of
from .inputs import magnitude_in, quantity_of
from .labels import marker
from .markdown import MarkdownStr
from .precision import resolve_precision
from .span import endpoint_precisions, joined, ordered
from .values import PERCENT_STYLES, percent_ratio

__all__ = ["PP_STYLES", "dimensionless", "fmt_multiple", "fmt_multiple_range", "fmt_percent_range", "fmt_pp",
           "fmt_ratio"]

#: fmt_pp's styles: ``style`` -> the words after the number, (singular, plural).
PP_STYLES: dict[str, tuple[str, str]] = {"prose": (" percentage point", " percentage points"),
                                         "symbol": (" pp", " pp")}
#: fmt_pp's attributive form (a compound adjective: always singular and hyphenated).
PP_ATTRIBUTIVE = " percentage-point"


def dimensionless(value: Any, *, formatter: str, what: str) -> float:
    """``value`` as a finite float: a number, or a Quantity whose unit is exactly dimensionless (a Quantity in any
    other unit, ``GB/MB`` or ``param`` included, raises :class:`~mlsysim_symbolic.errors.FormatError`: convert a
    quotient of like units at the source).

    >>> from mlsysim_symbolic.units import Q_
    >>> dimensionless(Q_(2.5, ""), formatter="fmt_ratio", what="ratio"), dimensionless(3, formatter="f", what="x")
    (2.5, 3.0)
    """
    quantity = quantity_of(value, formatter=formatter)
    if quantity is None:
        return value_of(value, formatter=formatter)
    if quantity.units != ureg.dimensionless:
        raise FormatError(formatter, f"the {what} must be a dimensionless scalar, got units {quantity.units:~P}: "
                                     "convert a quotient of like units at the source, or use that unit's formatter")
    return magnitude_in(quantity, ureg.dimensionless, formatter=formatter)


def _non_negative(value: float, *, formatter: str, what: str, allow_negative: bool = False) -> float:
    if value < 0 and not allow_negative:
        raise FormatError(formatter, f"expects a non-negative {what}, got {value} (a sign or ordering bug?)")
    return value


def fmt_ratio(value: Any, precision: int | None = 1, commas: bool = False, allow_negative: bool = False) -> MarkdownStr:
    """A dimensionless ratio as a bare number (no unit, no glyph: ``fmt_multiple`` writes ``×``); non-negative
    unless ``allow_negative``.

    >>> fmt_ratio(5.0, precision=0), fmt_ratio(-0.25, precision=2, allow_negative=True)
    ('5', '-0.25')
    """
    ratio = _non_negative(dimensionless(value, formatter="fmt_ratio", what="ratio"), formatter="fmt_ratio",
                          what="ratio", allow_negative=allow_negative)
    return number(ratio, precision=precision, commas=commas, formatter="fmt_ratio")


def fmt_multiple(factor: Any, precision: int | None = None, commas: bool = False, *, approx: bool = False,
                 lower_bound: bool = False, upper_bound: bool = False) -> MarkdownStr:
    """A non-negative multiplier (a speedup, a scaling factor) with its times glyph: ``3.2×``, ``~40×``.

    >>> fmt_multiple(1000, commas=True), fmt_multiple(1.25, precision=2, upper_bound=True)
    ('1,000×', '< 1.25×')
    """
    name = "fmt_multiple"
    value = _non_negative(dimensionless(factor, formatter=name, what="multiplier"), formatter=name, what="factor")
    text = number(value, precision=resolve_precision(value, precision, formatter=name), commas=commas,
                  trim_trailing_zeros=precision is None, formatter=name)
    lead = marker(formatter=name, approx=approx, lower_bound=lower_bound, upper_bound=upper_bound)
    return MarkdownStr(f"{lead}{text}×")


def _endpoints(lo: float, hi: float, precision: Any, commas: bool, *, formatter: str) -> list[MarkdownStr]:
    """The two endpoints' numbers at their precisions (:func:`.span.endpoint_precisions`), trimmed when auto."""
    return [number(value, precision=digits, commas=commas, trim_trailing_zeros=precision is None, formatter=formatter)
            for value, digits in zip((lo, hi), endpoint_precisions(lo, hi, precision, formatter=formatter))]


def fmt_multiple_range(lo: Any, hi: Any, *, precision: Any = 1, commas: bool = False) -> MarkdownStr:
    """A range of non-negative multipliers with one times glyph: ``2–4.5×``; ``precision`` one int, a ``(lo, hi)``
    pair or ``None`` (auto).

    >>> fmt_multiple_range(2, 4.5, precision=(0, 1)), fmt_multiple_range(10, 100, precision=None)
    ('2–4.5×', '10–100×')
    """
    name = "fmt_multiple_range"
    low = dimensionless(lo, formatter=name, what="multiplier range endpoint")
    high = dimensionless(hi, formatter=name, what="multiplier range endpoint")
    if low < 0 or high < 0:
        raise FormatError(name, f"expects non-negative factors, got lo={low}, hi={high}")
    ordered(low, high, formatter=name)
    return joined(*_endpoints(low, high, precision, commas, formatter=name), "×")


def fmt_pp(points: Any, precision: int | None = None, commas: bool = False, style: str = "prose",
           attributive: bool = False) -> MarkdownStr:
    """A difference of two percentages in percentage points (already on the 0-100 scale: not multiplied by 100):
    ``7 percentage points``, ``1 percentage point`` (the noun agrees with the shown value), ``7 pp``
    (``style="symbol"``), ``7 percentage-point`` (``attributive``, prose only).

    >>> fmt_pp(-1), fmt_pp(0.9), fmt_pp(12.345, precision=1, style="symbol")
    ('-1 percentage point', '0.9 percentage points', '12.3 pp')
    """
    name = "fmt_pp"
    quantity = quantity_of(points, formatter=name)
    value = value_of(points, formatter=name) if quantity is None else \
        magnitude_in(quantity, ureg.dimensionless, formatter=name)
    if style not in PP_STYLES:
        raise FormatError(name, f"style must be one of {list(PP_STYLES)}, got {style!r}")
    if attributive and style != "prose":
        raise FormatError(name, "attributive=True (the hyphenated adjective) applies to style='prose' only")
    text = number(value, precision=resolve_precision(value, precision, formatter=name), commas=commas,
                  trim_trailing_zeros=precision is None, formatter=name)
    singular, many = PP_STYLES[style]
    words = PP_ATTRIBUTIVE if attributive else singular if abs(float(text.replace(",", ""))) == 1 else many
    return MarkdownStr(f"{text}{words}")


def fmt_percent_range(lo: Any, hi: Any, *, precision: Any = None, commas: bool = False, style: str = "prose",
                      max_ratio: float = 1.5, allow_negative: bool = False) -> MarkdownStr:
    """A range of 0-1 ratios as percentages with one suffix (``style``: `` percent``, ``%`` or nothing): the ratios
    checked as :func:`.values.fmt_percent`'s; ``precision`` one int, a ``(lo, hi)`` pair or ``None`` (auto).

    >>> fmt_percent_range(0.05, 0.125, precision=(0, 1), style="number"), fmt_percent_range(-0.1, 0.2, allow_negative=True)
    ('5–12.5', '-10–20 percent')
    """
    name = "fmt_percent_range"
    low, high = (percent_ratio(end, max_ratio=max_ratio, allow_negative=allow_negative, formatter=name)
                 for end in (lo, hi))
    ordered(low, high, formatter=name)
    if style not in PERCENT_STYLES:
        raise FormatError(name, f"style must be one of {list(PERCENT_STYLES)}, got {style!r}")
    return joined(*_endpoints(low * 100, high * 100, precision, commas, formatter=name), PERCENT_STYLES[style])
