"""The pieces every range formatter shares: ordered endpoints, their precisions, the en dash between them.

mlsysim's ranges (MIT Press style) write both endpoints in full with an en dash, ``5–10``; an inverted range is
refused.  A range's ``precision`` is one int for both endpoints, a ``(lo, hi)`` pair, or ``None`` (each endpoint's
own auto precision, :func:`.precision.auto_precision`).

>>> endpoint_precisions(2.04, 153.016, None, formatter="f"), endpoint_precisions(1, 2, (0, 1), formatter="f")
((2, 1), (0, 1))
>>> joined("5", "10", " GB"), ordered(1.0, 2.0, formatter="fmt_range")
('5–10 GB', (1.0, 2.0))
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError, FormatTypeError
from .markdown import MarkdownStr
from .precision import auto_precision

__all__ = ["EN_DASH", "endpoint_precisions", "joined", "ordered"]

#: What separates a range's endpoints.
EN_DASH = "\u2013"


def ordered(lo: float, hi: float, *, formatter: str) -> tuple[float, float]:
    """``(lo, hi)``; ``hi < lo`` raises :class:`~mlsysim_symbolic.errors.FormatError` (an inverted range is a bug).

    >>> ordered(3.0, 2.0, formatter="fmt_range")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_range: expects hi >= lo, got lo=3.0, hi=2.0; swap the endpoints at the source
    """
    if hi < lo:
        raise FormatError(formatter, f"expects hi >= lo, got lo={lo}, hi={hi}; swap the endpoints at the source")
    return lo, hi


def endpoint_precisions(lo: float, hi: float, precision: Any, *, formatter: str) -> tuple[Any, Any]:
    """The precisions of the two endpoints: a ``(lo, hi)`` pair (tuple or list) as given, one precision for both,
    or each endpoint's auto precision for ``None``.  A pair of another length raises
    :class:`~mlsysim_symbolic.errors.FormatError`; a pair whose first entry is not ``None`` must hold two ints
    (else :class:`~mlsysim_symbolic.errors.FormatTypeError`); each precision is checked where it is used.

    >>> endpoint_precisions(1, 2, 3, formatter="f"), endpoint_precisions(1, 2, [None, 2], formatter="f")
    ((3, 3), (None, 2))
    """
    if isinstance(precision, (tuple, list)):
        if len(precision) != 2:
            raise FormatError(formatter, f"a (lo, hi) precision pair has two entries, got {precision!r}")
        lo_digits, hi_digits = precision
        if lo_digits is not None and not (isinstance(lo_digits, int) and isinstance(hi_digits, int)):
            raise FormatTypeError(formatter, f"precision must be an int or a pair of ints, got {precision!r}")
        return lo_digits, hi_digits
    if precision is not None:
        return precision, precision
    return auto_precision(lo), auto_precision(hi)


def joined(lo: str, hi: str, suffix: str = "") -> MarkdownStr:
    """The range text: ``lo``, the en dash, ``hi``, then ``suffix``.

    >>> joined("~\\\\$1", "\\\\$2", "/month")
    '~\\\\$1–\\\\$2/month'
    """
    return MarkdownStr(f"{lo}{EN_DASH}{hi}{suffix}")
