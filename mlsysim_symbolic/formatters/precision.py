"""How many decimals a displayed value gets, and the checks that a display does not hide its value.

mlsysim's display rules (``mlsysim.fmt.core``), written here from their behaviour:

* a value within ``1e-9`` of a whole number is *integer-like* and auto precision shows it with no decimals;
* auto precision (``precision=None``) takes one decimal when that display is not zero and is either not ``x.0`` or
  within 1 % of the whole number; otherwise the fewest decimals (2 to 6) whose display is neither zero nor ``x.00…``;
* a display is refused (:class:`~mlsysim_symbolic.errors.FormatError`) when it shows a nonzero value as zero, a
  fractional value with no decimals, or an integer-like value with decimals that are all zero;
* a formatter-chosen ``x.0`` is trimmed to ``x`` when the whole number is within 1 % of the value;
* whole-number rounding (``fmt_int``) takes ties away from zero, on the value's shortest decimal text.

>>> auto_precision(153.016), auto_precision(2.04), auto_precision(0.00012), auto_precision(512.0)
(1, 2, 4, 0)
>>> fixed(1234.5678, 2, commas=True), round_half_away(2.5), round_half_away(-2.5), round_half_away(0.285 * 10)
('1,234.57', 3, -3, 3)
>>> trim_zeros(1000.2, "1,000.0")
'1,000'
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from numbers import Real
from typing import Any

from ..errors import FormatError

__all__ = ["INTEGER_TOL", "MAX_AUTO_PRECISION", "TRIM_REL_TOL", "auto_precision", "check_display", "decimals", "fixed",
           "is_integer_like", "resolve_precision", "round_half_away", "trim_zeros", "zero_decimals"]

#: A value this close to a whole number is integer-like.
INTEGER_TOL = 1e-9
#: A nonzero value at or below this is treated as zero by the display checks.
ZERO_TOL = 1e-12
#: Auto precision shows a whole number (or trims ``x.0``) when it is within this relative error of the value.
TRIM_REL_TOL = 0.01
#: Auto precision never takes more decimals than this.
MAX_AUTO_PRECISION = 6


def is_integer_like(value: float) -> bool:
    """True when ``value`` is within ``1e-9`` of a whole number.

    >>> is_integer_like(989.0000000001), is_integer_like(0.5)
    (True, False)
    """
    return abs(value - round(value)) <= INTEGER_TOL


def fixed(value: float, precision: int, *, commas: bool = False) -> str:
    """``value`` with ``precision`` decimals (Python's fixed-point text), thousands grouped when ``commas``.

    >>> fixed(2.5, 0), fixed(-1234.0, 1, commas=True)
    ('2', '-1,234.0')
    """
    return format(value, f"{',' if commas else ''}.{precision}f")


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def zero_decimals(text: str) -> bool:
    """True when a fixed-point display ends in decimals that are all zero (``512.0``, ``1,000.00``).

    >>> zero_decimals("512.0"), zero_decimals("512.5"), zero_decimals("512")
    (True, False, False)
    """
    whole, point, decimals = text.replace(",", "").partition(".")
    digits = whole.lstrip("-")
    return bool(point) and digits.isdigit() and bool(decimals) and set(decimals) == {"0"}


def _relative_error(value: float, shown: float) -> float:
    if abs(value) <= ZERO_TOL:
        return 0.0 if abs(shown) <= ZERO_TOL else math.inf
    return abs(shown - value) / abs(value)


def _close_whole(value: float) -> bool:
    whole = _number(fixed(value, 0))
    return whole != 0.0 and _relative_error(value, whole) <= TRIM_REL_TOL


def auto_precision(value: float) -> int:
    """The decimals auto precision gives ``value`` (the rules of the module's docstring).

    >>> auto_precision(99.96), auto_precision(0.05), auto_precision(1e-9), auto_precision(0.00999), auto_precision(3e-7)
    (1, 1, 0, 2, 6)
    """
    if is_integer_like(value):
        return 0
    one = fixed(value, 1)
    if _number(one) != 0.0 and (not zero_decimals(one) or _close_whole(value)):
        return 1
    for digits in range(2, MAX_AUTO_PRECISION + 1):
        text = fixed(value, digits)
        if _number(text) != 0.0 and not zero_decimals(text):
            return digits
    return MAX_AUTO_PRECISION


def resolve_precision(value: float, precision: int | None, *, formatter: str = "fmt") -> int:
    """``precision`` itself, or the auto precision of ``value`` when it is ``None``; a negative or non-integer
    precision raises :class:`~mlsysim_symbolic.errors.FormatError` (a ``ValueError``, as Python's format does).

    >>> resolve_precision(2.04, None), resolve_precision(2.04, 3)
    (2, 3)
    """
    if precision is None:
        return auto_precision(value)
    return decimals(precision, formatter=formatter)


def decimals(precision: Any, *, formatter: str) -> int:
    """An explicit ``precision``: a non-negative int (else :class:`~mlsysim_symbolic.errors.FormatError`, the
    ``ValueError`` Python's format raises).

    >>> decimals(2, formatter="fmt_sci")
    2
    """
    if isinstance(precision, bool) or not isinstance(precision, int) or precision < 0:
        raise FormatError(formatter, f"precision must be a non-negative int, got {precision!r}")
    return precision


def check_display(value: float, precision: int, text: str, *, formatter: str = "fmt") -> None:
    """Refuse a display that hides ``value``: zero for a nonzero value, no decimals for a fractional value,
    all-zero decimals for an integer-like value.

    >>> check_display(0.04, 1, "0.0")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt: 0.04 shown as '0.0' at precision=1 hides the value; raise the precision or change the unit
    """
    shown = _number(text)
    if shown == 0.0 and abs(value) > ZERO_TOL:
        raise FormatError(formatter, f"{value!r} shown as {text!r} at precision={precision} hides the value; "
                                     "raise the precision or change the unit")
    if precision == 0 and abs(value) > ZERO_TOL and not is_integer_like(value):
        raise FormatError(formatter, f"{value!r} is not a whole number but precision=0 shows it as {text!r}; "
                                     "use precision>=1, or fmt_int to round on purpose")
    if precision >= 1 and is_integer_like(value) and zero_decimals(text):
        raise FormatError(formatter, f"{value!r} is a whole number but precision={precision} shows it as "
                                     f"{text!r}; use precision=0 or fmt_int")


def trim_zeros(value: float, text: str) -> str:
    """``text`` without its all-zero decimals when the whole number is within 1 % of ``value``.

    >>> trim_zeros(0.04, "0.0"), trim_zeros(12.03, "12.0")
    ('0.0', '12')
    """
    if not zero_decimals(text) or not _close_whole(value):
        return text
    return fixed(value, 0, commas="," in text)


def round_half_away(value: Real) -> int:
    """``value`` rounded to a whole number, ties away from zero, on its shortest decimal text (so ``7.9999999999``
    is 8 and ``0.285 * 10`` is 3, where the float is just below the tie).

    >>> round_half_away(0.5), round_half_away(1.4999), round_half_away(-0.5)
    (1, 1, -1)
    """
    with localcontext() as ctx:
        ctx.prec = 60
        return int(Decimal(repr(float(value))).quantize(Decimal(1), rounding=ROUND_HALF_UP))
