"""Counts: tallies of things with a scale (``5.3M``, ``7-billion``) and a count noun (``1,024 GPUs``), their ranges,
and the parameter and token counts of models (``175B``, auto-scaled).

>>> fmt_count(5_300_000, scale="M", precision=1), fmt_count(1024, label="GPU", approx=True), fmt_count(8192)
('5.3M', '~1,024 GPUs', '8,192')
>>> fmt_count(7e9, scale="billion", attributive=True), fmt_count(2, label="batch", plural_label="batches")
('7-billion', '2 batches')
>>> fmt_params(175e9), fmt_params(1.5e9), fmt_params(150e6, scale="B"), fmt_tokens(15e12, scale="T")
('175B', '1.5B', '0.15B', '15T')
>>> fmt_count_range(1, 8, label="node"), fmt_count_range(2e6, 5e6, scale="M")
('1–8 nodes', '2M–5M')
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError
from ..units import ureg
from .display import number, value_of
from .inputs import magnitude_in, quantity_of
from .labels import text_atom
from .markdown import MarkdownStr
from .precision import auto_precision, decimals, fixed, is_integer_like
from .scales import SCALES, STYLES, auto_scale, resolve_scale
from .span import joined, ordered

__all__ = ["COUNT_LABEL_DENYLIST", "count_label", "fmt_count", "fmt_count_range", "fmt_params", "fmt_tokens",
           "plural", "scaled_count_precision"]

#: Labels that are units, rates or percent words, not count nouns: each has its own formatter (mlsysim's list).
COUNT_LABEL_DENYLIST: frozenset[str] = frozenset({
    "GB", "MB", "KB", "TB", "PB", "GiB", "MiB", "KiB", "TiB", "GB/s", "MB/s", "TB/s", "Gb/s", "TFLOP/s", "PFLOP/s",
    "W", "kW", "MW", "J", "mJ", "Wh", "kWh", "MWh", "ms", "s", "min", "h", "ns", "us", "µs", "μs", "QPS", "FPS",
    "tokens/s", "tokens/hour", "img/s", "images/s", "req/s", "samples/s", "percent", "percentage point",
    "percentage points"})

#: English plural endings: (a word ending, how many letters it drops, what it appends), the first that fits.
_PLURALS: tuple[tuple[Any, int, str], ...] = (
    (lambda word: len(word) > 1 and word.endswith("y") and word[-2].lower() not in "aeiou", 1, "ies"),
    (lambda word: word.endswith(("s", "x", "ch", "sh")), 0, "es"),
    (lambda word: True, 0, "s"),
)


def plural(word: str) -> str:
    """The English plural of a count noun (``query`` -> ``queries``, ``batch`` -> ``batches``, ``day`` -> ``days``).

    >>> plural("query"), plural("batch"), plural("day"), plural("GPU")
    ('queries', 'batches', 'days', 'GPUs')
    """
    _, drop, ending = next(rule for rule in _PLURALS if rule[0](word))
    return f"{word[:len(word) - drop]}{ending}"


def _noun(label: Any, *, formatter: str, what: str) -> str:
    word = text_atom(label, formatter=formatter, what=what)
    if "/" in word:
        raise FormatError(formatter, f"{what} must be a count noun, not a rate or unit expression, got {word!r}")
    if word in COUNT_LABEL_DENYLIST:
        raise FormatError(formatter, f"{what}={word!r} is a unit, rate or percent label: use that value's formatter")
    return word


def count_label(count: float, label: Any, plural_label: Any, *, formatter: str) -> str:
    """`` noun`` agreeing with ``count`` (singular for 1), or ``""`` without a label; ``plural_label`` overrides
    :func:`plural` and needs ``label``.

    >>> count_label(1, "GPU", None, formatter="fmt_count"), count_label(3, "mouse", "mice", formatter="fmt_count")
    (' GPU', ' mice')
    >>> count_label(3, "GB", None, formatter="fmt_count")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_count: label='GB' is a unit, rate or percent label: use that value's formatter
    """
    if label is None:
        if plural_label is not None:
            raise FormatError(formatter, "plural_label requires label")
        return ""
    singular = _noun(label, formatter=formatter, what="label")
    many = plural(singular) if plural_label is None else _noun(plural_label, formatter=formatter, what="plural_label")
    return f" {singular if abs(count - 1) <= 1e-9 else many}"


def _check_count(count: float, *, whole: bool, formatter: str) -> float:
    if count < 0:
        raise FormatError(formatter, f"expects a non-negative count, got {count}")
    if whole and not is_integer_like(count):
        raise FormatError(formatter, f"expects a whole-number count, got {count}; pass allow_fractional=True only "
                                     "for a count that is fractional on purpose")
    return count


def fmt_count(value: Any, scale: str | None = None, precision: int | None = 0, commas: bool = True,
              label: str | None = None, plural_label: str | None = None, suffix: str = "", approx: bool = False,
              lower_bound: bool = False, allow_fractional: bool = False, scale_style: str = "symbol",
              attributive: bool = False) -> MarkdownStr:
    """A count (a number, or a Quantity's magnitude), divided by ``scale`` (``K``/``M``/``B``/``T`` or its word;
    ``scale_style="word"`` writes a symbol as its word, ``attributive`` hyphenates it: ``7-billion``), followed by
    a count noun ``label`` agreeing with the count or a free ``suffix``.  A count is non-negative, and whole when it
    has a label or is attributive (unless ``allow_fractional``).

    >>> fmt_count(5_300_000, scale="M", scale_style="word", precision=1), fmt_count(1, label="city")
    ('5.3 million', '1 city')
    >>> fmt_count(3, label="query"), fmt_count(2.5, suffix=" racks", precision=1, lower_bound=True)
    ('3 queries', '> 2.5 racks')
    """
    name = "fmt_count"
    count = value_of(value, formatter=name)
    _check_count(count, whole=(label is not None or plural_label is not None or attributive) and not allow_fractional,
                 formatter=name)
    if suffix and (label is not None or plural_label is not None):
        raise FormatError(name, "give suffix= or label=, not both")
    if attributive and (suffix or label is not None or plural_label is not None):
        raise FormatError(name, "attributive=True formats only the scaled modifier; put the count noun in prose")
    if scale_style not in STYLES:
        raise FormatError(name, f"scale_style must be one of {list(STYLES)}, got {scale_style!r}")
    if scale is None and scale_style != "symbol":
        raise FormatError(name, f"scale_style={scale_style!r} requires scale=")
    divisor, glyph = resolve_scale(scale, style=scale_style, attributive=attributive, formatter=name)
    tail = suffix or count_label(count, label, plural_label, formatter=name)
    return number(count / divisor, precision=precision, commas=commas, suffix=glyph + tail, approx=approx,
                  lower_bound=lower_bound, formatter=name)


def scaled_count_precision(value: float, precision: int | None) -> int | None:
    """The decimals of a scaled count: ``precision`` when given; else none for a whole value, the auto precision at
    1 and above, and two significant digits below 1 (an explicit scale larger than the count: ``0.15B``).

    >>> scaled_count_precision(175.0, None), scaled_count_precision(0.15, None), scaled_count_precision(0.005, None)
    (0, 2, 4)
    """
    if precision is not None:
        return precision
    if is_integer_like(value):
        return 0
    size = abs(value)
    if size >= 1:
        return auto_precision(value)
    return 2 if size >= 0.1 else 3 if size >= 0.01 else 4


def _promoted(count: float, symbol: str, precision: int | None, *, style: str, attributive: bool,
              formatter: str) -> tuple[str | None, bool]:
    """The auto scale that keeps the shown mantissa below 1,000 (``999,999,999`` is ``1B``, not ``1000.0M``), and
    whether the largest scale still shows 1,000 or more (then it is shown with commas)."""
    symbols = list(SCALES)
    while True:
        divisor, _ = resolve_scale(symbol, style=style, attributive=attributive, formatter=formatter)
        digits = decimals(scaled_count_precision(count / divisor, precision), formatter=formatter)
        if abs(float(fixed(count / divisor, digits))) < 1000:
            return symbol, False
        if symbol == symbols[-1]:
            return symbol, True
        symbol = symbols[symbols.index(symbol) + 1]


def _scaled_count(value: Any, unit: Any, *, scale: Any, precision: int | None, commas: bool, scale_style: str,
                  attributive: bool, approx: bool, lower_bound: bool, formatter: str) -> MarkdownStr:
    """A whole, non-negative count (a number, or a Quantity in ``unit``), divided by ``scale`` (``"auto"``: the
    largest scale not above it, promoted so the mantissa stays below 1,000)."""
    quantity = quantity_of(value, formatter=formatter)
    count = value_of(value, formatter=formatter) if quantity is None else \
        magnitude_in(quantity, unit, formatter=formatter)
    _check_count(count, whole=True, formatter=formatter)
    if isinstance(scale, str) and scale == "auto":
        scale = auto_scale(count)
        if scale is not None:
            scale, crowded = _promoted(count, scale, precision, style=scale_style, attributive=attributive,
                                       formatter=formatter)
            commas = commas or crowded
    divisor, glyph = resolve_scale(scale, style=scale_style, attributive=attributive, formatter=formatter)
    shown = count / divisor
    return number(shown, precision=scaled_count_precision(shown, precision), commas=commas, suffix=glyph,
                  approx=approx, lower_bound=lower_bound, formatter=formatter)


def fmt_params(parameters: Any, *, scale: str | None = "auto", precision: int | None = None, commas: bool = False,
               scale_style: str = "symbol", attributive: bool = False, approx: bool = False,
               lower_bound: bool = False) -> MarkdownStr:
    """A model's parameter count (a number, or a ``param`` Quantity), auto-scaled to ``175B``, ``1.5B``, ``150M``;
    an explicit ``scale`` fixes the denominator (``0.15B``).  Scales and styles as :func:`fmt_count`.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_params(Q_(70, "Bparam")), fmt_params(999_999_999), fmt_params(7e9, scale="billion", attributive=True)
    ('70B', '1B', '7-billion')
    """
    return _scaled_count(parameters, ureg.param, scale=scale, precision=precision, commas=commas,
                         scale_style=scale_style, attributive=attributive, approx=approx, lower_bound=lower_bound,
                         formatter="fmt_params")


def fmt_tokens(tokens: Any, *, scale: str | None = None, precision: int | None = None, commas: bool = True,
               scale_style: str = "symbol", attributive: bool = False, approx: bool = False,
               lower_bound: bool = False) -> MarkdownStr:
    """A token count (a number, or a Quantity of tokens), whole and non-negative; ``scale`` as :func:`fmt_params`
    (``"auto"`` included), none by default.

    >>> from mlsysim_symbolic.units import Q_
    >>> fmt_tokens(Q_(8192, "token")), fmt_tokens(2.5e12, scale="auto"), fmt_tokens(4e6, scale="M", approx=True)
    ('8,192', '2.5T', '~4M')
    """
    return _scaled_count(tokens, ureg.count, scale=scale, precision=precision, commas=commas,
                         scale_style=scale_style, attributive=attributive, approx=approx, lower_bound=lower_bound,
                         formatter="fmt_tokens")


def fmt_count_range(lo: Any, hi: Any, *, scale: str | None = None, precision: int | None = 0, commas: bool = True,
                    label: str | None = None, plural_label: str | None = None,
                    allow_fractional: bool = False) -> MarkdownStr:
    """A range of counts, each endpoint with the scale glyph (``2M–5M``) and one count noun after them, singular
    only when both endpoints are 1.  Checks as :func:`fmt_count`.

    >>> fmt_count_range(1, 1, label="GPU"), fmt_count_range(1200, 4800, commas=True), fmt_count_range(0.5, 2.5, precision=1)
    ('1–1 GPU', '1,200–4,800', '0.5–2.5')
    """
    name = "fmt_count_range"
    whole = (label is not None or plural_label is not None) and not allow_fractional
    low, high = value_of(lo, formatter=name), value_of(hi, formatter=name)
    ordered(_check_count(low, whole=whole, formatter=name), _check_count(high, whole=whole, formatter=name),
            formatter=name)
    divisor, glyph = resolve_scale(scale, formatter=name)
    ends = [number(end / divisor, precision=precision, commas=commas, suffix=glyph, formatter=name)
            for end in (low, high)]
    noun = "" if label is None and plural_label is None else \
        count_label(1 if abs(low - 1) <= 1e-9 and abs(high - 1) <= 1e-9 else 2, label, plural_label, formatter=name)
    return joined(*ends, noun)
