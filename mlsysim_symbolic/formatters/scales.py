"""Decimal scales of counts and currency: ``K``/``M``/``B``/``T`` or their words (``million``), checked.

>>> resolve_scale("M", formatter="fmt_usd"), resolve_scale("million", formatter="fmt_usd")
((1000000.0, 'M'), (1000000.0, ' million'))
>>> resolve_scale("B", style="word", attributive=True, formatter="fmt_count"), auto_scale(2.5e9), auto_scale(999)
((1000000000.0, '-billion'), 'B', None)
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError, FormatTypeError

__all__ = ["SCALES", "SCALE_WORDS", "STYLES", "auto_scale", "resolve_scale"]

#: Scale symbol -> its factor, smallest first.
SCALES: dict[str, float] = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
#: Scale symbol -> its word.
SCALE_WORDS: dict[str, str] = {"K": "thousand", "M": "million", "B": "billion", "T": "trillion"}
_SYMBOL_OF_WORD = {word: symbol for symbol, word in SCALE_WORDS.items()}
#: How a symbol scale is written: as the symbol (``4.6M``) or its word (``4.6 million``).
STYLES = ("symbol", "word")


def resolve_scale(scale: Any, *, formatter: str, style: str = "symbol", attributive: bool = False) -> tuple[float, str]:
    """``(divisor, suffix)`` of ``scale`` (``None``: ``(1, "")``).  A word scale (any case) is written as given,
    after a space (a hyphen when ``attributive``); a symbol after nothing, or as its word in ``style="word"``.

    >>> resolve_scale(None, formatter="fmt_usd"), resolve_scale("K", style="word", formatter="fmt_count")
    ((1, ''), (1000.0, ' thousand'))
    """
    if style not in STYLES:
        raise FormatError(formatter, f"style must be 'symbol' or 'word', got {style!r}")
    if scale is None:
        if attributive:
            raise FormatError(formatter, "attributive=True requires scale=")
        return 1, ""
    if not isinstance(scale, str):
        raise FormatTypeError(formatter, f"scale must be a string or None, got {type(scale).__name__}")
    joiner = "-" if attributive else " "
    if scale in SCALES:
        if attributive and style != "word":
            raise FormatError(formatter, f"attributive=True requires a word scale, got {scale!r}")
        return SCALES[scale], (f"{joiner}{SCALE_WORDS[scale]}" if style == "word" else scale)
    symbol = _SYMBOL_OF_WORD.get(scale.lower())
    if symbol is None:
        raise FormatError(formatter, f"scale must be one of {sorted(SCALES) + sorted(_SYMBOL_OF_WORD)}, got {scale!r}")
    return SCALES[symbol], f"{joiner}{scale}"


def auto_scale(value: float) -> str | None:
    """The largest scale symbol not above ``|value|`` (``None`` below a thousand).

    >>> auto_scale(-1e12), auto_scale(1e3)
    ('T', 'K')
    """
    fitting = [symbol for symbol, factor in SCALES.items() if abs(value) >= factor]
    return fitting[-1] if fitting else None
