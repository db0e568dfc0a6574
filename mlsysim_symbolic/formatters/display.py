"""A number shown for prose: fixed decimals, thousands commas, the display checks, a marker and a suffix
(mlsysim's ``fmt``, the formatter every other one ends in).

>>> number(1234.5, commas=True), number(0.9, precision=None, approx=True), number(12, precision=0, suffix=" GB")
('1,234.5', '~0.9', '12 GB')
>>> number(0.04)
Traceback (most recent call last):
...
mlsysim_symbolic.errors.FormatError: fmt: 0.04 shown as '0.0' at precision=1 hides the value; raise the precision or change the unit
"""

from __future__ import annotations

from typing import Any

from .inputs import finite, magnitude_in, quantity_of
from .labels import marker
from .markdown import MarkdownStr
from .precision import check_display, fixed, resolve_precision, trim_zeros

__all__ = ["number", "value_of"]


def value_of(value: Any, *, formatter: str) -> float:
    """The finite float a formatter shows: a plain real number, or a Quantity's magnitude in its own unit.

    >>> from mlsysim_symbolic.units import Q_
    >>> value_of(Q_(3, "GB"), formatter="fmt"), value_of(7, formatter="fmt")
    (3.0, 7.0)
    """
    quantity = quantity_of(value, formatter=formatter)
    if quantity is None:
        return finite(value, formatter=formatter)
    return magnitude_in(quantity, quantity.units, formatter=formatter)


def number(value: Any, *, precision: int | None = 1, commas: bool = True, prefix: str = "", suffix: str = "",
           approx: bool = False, lower_bound: bool = False, upper_bound: bool = False,
           trim_trailing_zeros: bool = False, formatter: str = "fmt") -> MarkdownStr:
    """``value`` (a number or a Quantity's magnitude) with ``precision`` decimals (``None``: auto, trimmed),
    checked (:func:`.precision.check_display`), after its marker and before ``suffix``.

    >>> number(2.0, precision=None), number(1000.2, precision=None), number(-3.25, precision=2, prefix="Δ")
    ('2', '1,000.2', 'Δ-3.25')
    """
    shown = value_of(value, formatter=formatter)
    digits = resolve_precision(shown, precision, formatter=formatter)
    text = fixed(shown, digits, commas=commas)
    check_display(shown, digits, text, formatter=formatter)
    if trim_trailing_zeros or precision is None:
        text = trim_zeros(shown, text)
    lead = marker(prefix, formatter=formatter, approx=approx, lower_bound=lower_bound, upper_bound=upper_bound)
    return MarkdownStr(f"{lead}{text}{suffix}")
