"""Plain values for prose and tables: whole numbers, ``:g`` table cells, unit columns, percentages, currency.

>>> fmt_int(2.5), fmt_int(1234567.4), fmt_val(9.5e10), fmt_unit(Q_(80, "GB")), fmt_unit(80)
('3', '1,234,567', '9.5e+10', 'GB', '-')
>>> fmt_percent(0.853), fmt_percent(0.5, style="symbol"), fmt_percent(0.255, style="prose", precision=1)
('85.3', '50%', '25.5 percent')
>>> fmt_usd(15000), fmt_usd(-500, approx=True), fmt_usd(4_750_000, precision=2, scale="million"), fmt_eur(1200)
('\\\\$15,000', '~-\\\\$500', '\\\\$4.75 million', 'EUR 1,200')
>>> fmt_usd(Q_(0.09, "USD/GB"), precision=2, commas=False, per="GB")
'\\\\$0.09/GB'
"""

from __future__ import annotations

from typing import Any

import pint

from ..errors import FormatError, UnitError
from ..units import Q_, parse_unit, ureg
from .display import number, value_of
from .inputs import display_unit, finite, magnitude_in, quantity_of
from .labels import unit_label
from .markdown import MarkdownStr
from .precision import ZERO_TOL, resolve_precision, round_half_away
from .scales import resolve_scale
from .suffix import denominator

__all__ = ["PERCENT_STYLES", "USD_DENOMINATORS", "USD_MARKERS", "fmt_eur", "fmt_int", "fmt_percent", "fmt_unit",
           "fmt_usd", "fmt_val", "percent_ratio"]

#: fmt_percent's styles: the text after the percentage.
PERCENT_STYLES: dict[str, str] = {"number": "", "prose": " percent", "symbol": "%"}
#: The denominators fmt_usd writes after ``/`` (mlsysim's list).
USD_DENOMINATORS: frozenset[str] = frozenset({
    "month", "year", "hour", "hr", "day", "week", "GB", "TB", "GB/month", "TB/month", "kWh", "MWh", "(TFLOP/s)",
    "label", "image", "query", "request", "token", "inference", "sample", "click", "run", "million queries",
    "million tokens", "1K inferences", "million", "tonne", "device", "device/year", "GPU-hour"})
#: The table markers fmt_usd may append.
USD_MARKERS: frozenset[str] = frozenset({"*"})

_CURRENCY = ureg.dollar.dimensionality


def _converted(value: Any, unit: Any, *, formatter: str) -> Any:
    """``value`` in ``unit`` when both are given and ``value`` is a Quantity (mlsysim's ``unit=`` of fmt/fmt_int)."""
    quantity = quantity_of(value, formatter=formatter)
    if not unit or quantity is None:
        return value
    return magnitude_in(quantity, display_unit(unit, formatter=formatter).unit, formatter=formatter)


def fmt_int(quantity: Any, unit: Any = None, commas: bool = True, prefix: str = "", suffix: str = "",
            approx: bool = False, lower_bound: bool = False, upper_bound: bool = False) -> MarkdownStr:
    """``quantity`` (a number, or a Quantity in ``unit`` if given) rounded to a whole number, ties away from zero;
    a nonzero value that rounds to 0 raises :class:`~mlsysim_symbolic.errors.FormatError`.

    >>> fmt_int(-2.5), fmt_int(Q_(1.5, "kB"), "byte", suffix=" bytes"), fmt_int(999.5, approx=True)
    ('-3', '1,500 bytes', '~1,000')
    """
    value = value_of(_converted(quantity, unit, formatter="fmt_int"), formatter="fmt_int")
    rounded = round_half_away(value)
    if rounded == 0 and abs(value) > ZERO_TOL:
        raise FormatError("fmt_int", f"{value!r} rounds to 0, which hides the value; show decimals or change the unit")
    return number(rounded, precision=0, commas=commas, prefix=prefix, suffix=suffix, approx=approx,
                  lower_bound=lower_bound, upper_bound=upper_bound, formatter="fmt_int")


def fmt_val(quantity: Any, default: str = "-") -> MarkdownStr:
    """A table cell: the magnitude in Python's ``:g`` form (``2``, ``2.5``, ``9.5e+10``); ``default`` for ``None``.

    >>> fmt_val(2.0), fmt_val(None), fmt_val(Q_(80, "GB"))
    ('2', '-', '80')
    """
    found = quantity_of(quantity, formatter="fmt_val")
    value = quantity if found is None else found.magnitude
    if value is None:
        return MarkdownStr(default)
    finite(value, formatter="fmt_val", what="table value")
    return MarkdownStr(format(value, "g"))


def fmt_unit(quantity: Any, default: str = "-") -> MarkdownStr:
    """A unit column: the label of a Quantity's unit as fmt_qty writes it; ``default`` for anything else.

    >>> fmt_unit(Q_(1, "EFLOPs/s")), fmt_unit(Q_(3, "us")), fmt_unit(None, default="")
    ('EFLOP/s', 'μs', '')
    """
    if not isinstance(quantity, pint.Quantity):
        return MarkdownStr(default)
    return MarkdownStr(unit_label(quantity.units))


def percent_ratio(ratio: Any, *, max_ratio: float, allow_negative: bool, formatter: str) -> float:
    """A percentage's 0-1 ratio (a number or a dimensionless Quantity), checked to lie in ``[0, max_ratio]``
    (``[-max_ratio, max_ratio]`` with ``allow_negative``): an already-scaled 0-100 value raises
    :class:`~mlsysim_symbolic.errors.FormatError`.

    >>> percent_ratio(Q_(0.25, ""), max_ratio=1.5, allow_negative=False, formatter="fmt_percent")
    0.25
    """
    quantity = quantity_of(ratio, formatter=formatter)
    value = finite(ratio, formatter=formatter, what="ratio") if quantity is None else \
        magnitude_in(quantity, ureg.dimensionless, formatter=formatter)
    low = -max_ratio if allow_negative else 0.0
    if not low <= value <= max_ratio:
        raise FormatError(formatter, f"expects a 0-1 ratio, got {value}: divide an already-scaled 0-100 value by 100 "
                                     "at the source, pass max_ratio= for a larger ratio, or allow_negative=True for a "
                                     "signed change")
    return value


def fmt_percent(ratio: Any, precision: int | None = None, commas: bool = False, style: str = "number",
                max_ratio: float = 1.5, allow_negative: bool = False) -> MarkdownStr:
    """A 0-1 ratio as a percentage (``0.85`` is ``85``), followed by nothing, ``%`` or `` percent`` (``style``);
    a ratio outside ``[0, max_ratio]`` (``[-max_ratio, max_ratio]`` with ``allow_negative``) raises.

    >>> fmt_percent(-0.2, allow_negative=True), fmt_percent(3.0, max_ratio=4, style="symbol")
    ('-20', '300%')
    """
    value = percent_ratio(ratio, max_ratio=max_ratio, allow_negative=allow_negative, formatter="fmt_percent")
    if style not in PERCENT_STYLES:
        raise FormatError("fmt_percent", f"style must be one of {list(PERCENT_STYLES)}, got {style!r}")
    percent = value * 100
    digits = resolve_precision(percent, precision, formatter="fmt_percent")
    return number(percent, precision=digits, commas=commas, suffix=PERCENT_STYLES[style],
                  trim_trailing_zeros=precision is None, formatter="fmt_percent")


def _usd_denominator(per: Any) -> pint.Unit:
    """The unit a ``per=`` of fmt_usd divides by: ``TB/month`` is TB × month, ``(TFLOP/s)`` one unit."""
    if not isinstance(per, str):
        return display_unit(per, formatter="fmt_usd").unit
    text = denominator(per, formatter="fmt_usd")[1:]
    if text.startswith("(") and text.endswith(")"):
        return parse_unit(text[1:-1])
    unit = ureg.dimensionless
    for part in text.split("/"):
        unit = unit * parse_unit(part)
    return unit


def _dollars(amount: Any, per: Any) -> float:
    """The dollar figure of ``amount``: a number, a dollar Quantity, or a dollar rate in dollars per ``per``."""
    quantity = quantity_of(amount, formatter="fmt_usd")
    if quantity is None:
        return finite(amount, formatter="fmt_usd")
    if quantity.dimensionality.get("[currency]") != 1:
        raise FormatError("fmt_usd", f"expects a dollar Quantity, got units {quantity.units:~P}")
    pure = quantity.dimensionality == _CURRENCY
    if per is None:
        if not pure:
            raise FormatError("fmt_usd", f"a dollar rate ({quantity.units:~P}) needs per= for its denominator")
        return magnitude_in(quantity, ureg.dollar, formatter="fmt_usd")
    try:
        unit = _usd_denominator(per)
    except UnitError:   # a prose denominator ("label", "GPU-hour") decorates a plain dollar amount only
        if pure:
            return magnitude_in(quantity, ureg.dollar, formatter="fmt_usd")
        raise FormatError("fmt_usd", f"per={per!r} is not a unit, so a dollar rate cannot be converted to it") from None
    return magnitude_in(quantity, (Q_(1, "USD") / Q_(1, unit)).units, formatter="fmt_usd")


def fmt_usd(amount: Any, *, precision: int = 0, commas: bool = True, approx: bool = False, scale: str | None = None,
            per: Any = None, marker: str = "", suffix: str = "") -> MarkdownStr:
    """A dollar amount for prose, its dollar sign escaped (``\\$``) and its sign first (``-\\$500``): ``scale``
    divides by K/M/B/T, ``per`` writes a denominator of :data:`USD_DENOMINATORS` (and converts a dollar rate to it),
    ``marker`` appends ``*``; ``precision=0`` rounds as :func:`fmt_int`.

    >>> fmt_usd(4.6e6, precision=1, scale="M"), fmt_usd(1234, approx=True, per="year"), fmt_usd(12, marker="*")
    ('\\\\$4.6M', '~\\\\$1,234/year', '\\\\$12*')
    """
    dollars = _dollars(amount, per)
    negative = dollars < 0
    dollars = abs(dollars)
    if marker and marker not in USD_MARKERS:
        raise FormatError("fmt_usd", f"marker must be one of {sorted(USD_MARKERS)}, got {marker!r}")
    if suffix and (scale is not None or per is not None or marker):
        raise FormatError("fmt_usd", "give suffix= or scale=/per=/marker=, not both")
    divisor, scale_text = resolve_scale(scale, formatter="fmt_usd")
    dollars = dollars / divisor
    tail = (suffix or scale_text + denominator(per, formatter="fmt_usd", allowed=USD_DENOMINATORS)) + marker
    prefix = f"{'~' if approx else ''}{'-' if negative else ''}\\$"
    if precision == 0:
        return fmt_int(dollars, commas=commas, prefix=prefix, suffix=tail)
    return number(dollars, precision=precision, commas=commas, prefix=prefix, suffix=tail, formatter="fmt_usd")


def fmt_eur(amount: Any, *, precision: int = 0, commas: bool = True, scale: str | None = None,
            approx: bool = False) -> MarkdownStr:
    """A euro amount (a number, or a Quantity in euros) in the ``EUR 1,200`` prose style, ``scale`` as for
    :func:`fmt_usd`.  The euro is its own currency: a dollar Quantity (or any other) raises
    :class:`~mlsysim_symbolic.errors.FormatTypeError`, as no exchange rate is assumed.

    >>> fmt_eur(4.2e6, precision=1, scale="M", approx=True), fmt_eur(Q_(2.5, "kEUR"), precision=1, scale="K")
    ('~EUR 4.2M', 'EUR 2.5K')
    """
    quantity = quantity_of(amount, formatter="fmt_eur")
    euros = finite(amount, formatter="fmt_eur") if quantity is None else \
        magnitude_in(quantity, ureg.EUR, formatter="fmt_eur")
    divisor, scale_text = resolve_scale(scale, formatter="fmt_eur")
    euros = euros / divisor
    prefix = "~EUR " if approx else "EUR "
    if precision == 0:
        return fmt_int(euros, commas=commas, prefix=prefix, suffix=scale_text)
    return number(euros, precision=precision, commas=commas, prefix=prefix, suffix=scale_text, formatter="fmt_eur")
