"""The general Quantity formatter every domain formatter ends in: a value in an explicit unit, with its label.

>>> from mlsysim_symbolic.units import Q_
>>> fmt_qty(Q_(2.4e6, "byte/s"), "MB/s"), fmt_qty(Q_(1.5, "TB"), unit="GB", precision=0, commas=True)
('2.4 MB/s', '1,500 GB')
>>> fmt_qty(Q_(35, "ms"), "ms", precision=None, approx=True, per="token")
'~35 ms/token'
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatTypeError
from .display import number
from .inputs import DisplayUnit, display_unit, magnitude_in, require_quantity
from .markdown import MarkdownStr
from .suffix import quantity_suffix

__all__ = ["fmt_qty", "resolve_unit", "shown_in"]


def resolve_unit(display: Any, unit: Any, *, formatter: str) -> DisplayUnit:
    """The display unit given positionally or as ``unit=`` (exactly one of them).

    >>> resolve_unit(None, "GB", formatter="fmt_qty").label
    'GB'
    """
    if display is None and unit is None:
        raise FormatTypeError(formatter, "requires a display unit")
    if display is not None and unit is not None:
        raise FormatTypeError(formatter, "takes a positional unit or unit=, not both")
    return display_unit(unit if unit is not None else display, formatter=formatter)


def shown_in(quantity: Any, display: DisplayUnit, *, formatter: str) -> float:
    """The magnitude of ``quantity`` (a Quantity of any registry) in ``display``.

    >>> from mlsysim_symbolic.units import Q_
    >>> shown_in(Q_(1.5, "kB"), display_unit("byte", formatter="f"), formatter="f")
    1500.0
    """
    return magnitude_in(require_quantity(quantity, formatter=formatter), display.unit, formatter=formatter)


def fmt_qty(quantity: Any, display_unit: Any = None, *, unit: Any = None, precision: int | None = 1,
            commas: bool = False, prefix: str = "", extra_suffix: str = "", unit_label: str | None = None,
            per: Any = None, approx: bool = False, lower_bound: bool = False, upper_bound: bool = False,
            trim_trailing_zeros: bool = False) -> MarkdownStr:
    """``quantity`` (a Quantity: a plain number raises) in ``display_unit`` (or ``unit=``), followed by the unit's
    label (or ``unit_label``), ``/per`` and ``extra_suffix``; numbers as :func:`.display.number`.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_qty(Q_(2, "N*m"), "N*m", precision=0), fmt_qty(Q_(3.25, "W"), "W", precision=2, unit_label="watts")
    ('2 m·N', '3.25 watts')
    """
    shown = resolve_unit(display_unit, unit, formatter="fmt_qty")
    value = shown_in(quantity, shown, formatter="fmt_qty")
    suffix = quantity_suffix(shown, formatter="fmt_qty", unit_label=unit_label, per=per, extra_suffix=extra_suffix)
    return number(value, precision=precision, commas=commas, prefix=prefix, suffix=suffix, approx=approx,
                  lower_bound=lower_bound, upper_bound=upper_bound, trim_trailing_zeros=trim_trailing_zeros,
                  formatter="fmt_qty")
