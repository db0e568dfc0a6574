"""Quantities in scientific notation with a checked unit label: ``3.14 × 10²³ FLOPs``.

>>> from mlsysim_symbolic.units import Q_
>>> fmt_sci_qty(Q_(6.02e23, "byte"), "TB"), fmt_sci_flops(Q_(3.14e23, "flop")), fmt_sci_flops(Q_(2, "EFLOP"), unit="PFLOP")
('6.02 × 10¹¹ TB', '3.14 × 10²³ FLOPs', '2.00 × 10³ FLOPs')
"""

from __future__ import annotations

from typing import Any

from .inputs import require_quantity
from .markdown import MarkdownStr
from .quantities import fmt_sci
from .quantity import resolve_unit, shown_in
from .suffix import quantity_suffix

__all__ = ["FLOP_LABEL", "fmt_sci_flops", "fmt_sci_qty"]

#: The label fmt_sci_flops writes whatever its display unit: a count of floating-point operations, plural.
FLOP_LABEL = "FLOPs"


def _scientific(quantity: Any, display_unit: Any, unit: Any, precision: int, unit_label: str | None, per: Any, *,
                formatter: str) -> MarkdownStr:
    value = require_quantity(quantity, formatter=formatter)
    shown = resolve_unit(display_unit, unit, formatter=formatter)
    body = fmt_sci(shown_in(value, shown, formatter=formatter), precision=precision)
    return MarkdownStr(body + quantity_suffix(shown, formatter=formatter, unit_label=unit_label, per=per))


def fmt_sci_qty(quantity: Any, display_unit: Any = None, *, unit: Any = None, precision: int = 2,
                unit_label: str | None = None, per: Any = None) -> MarkdownStr:
    """``quantity`` (a Quantity: a plain number raises) in ``display_unit`` (or ``unit=``) as ``m.mm × 10ⁿ``
    (:func:`.quantities.fmt_sci`), followed by the unit's label (or ``unit_label``) and ``/per``.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_sci_qty(Q_(4.1e-7, "s"), unit="s", precision=1, per="token")
    '4.1 × 10⁻⁷ s/token'
    """
    return _scientific(quantity, display_unit, unit, precision, unit_label, per, formatter="fmt_sci_qty")


def fmt_sci_flops(quantity: Any, *, unit: Any = None, precision: int = 2) -> MarkdownStr:
    """A count of floating-point operations (a Quantity) in scientific notation, labelled ``FLOPs``: in ``flop`` or
    the given ``unit``.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_sci_flops(Q_(5.6, "TFLOP"), precision=1)
    '5.6 × 10¹² FLOPs'
    """
    return _scientific(quantity, "flop" if unit is None else unit, None, precision, FLOP_LABEL, None,
                       formatter="fmt_sci_flops")
