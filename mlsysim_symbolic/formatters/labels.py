"""The text around a number: unit labels (mlsysim's book spellings), display markers, denominators.

>>> normalize_label("TFLOPs/s"), normalize_label("µs"), normalize_label("kB"), normalize_label("GB")
('TFLOP/s', 'μs', 'KB', 'GB')
>>> marker(approx=True, formatter="fmt"), marker(lower_bound=True, formatter="fmt")
('~', '> ')
"""

from __future__ import annotations

import re
from typing import Any

import pint

from ..errors import FormatError, FormatTypeError
from ..units import ureg

__all__ = ["LABELS", "MARKERS", "OUR_SPELLINGS", "marker", "normalize_label", "text_atom", "unit_label"]

#: pint's compact pretty unit text -> the label mlsysim prints (mlsysim's table).
LABELS: dict[str, str] = {
    **{f"{p}FLOPs": f"{p}FLOP" for p in "KMGTPEZ"},
    **{f"{p}FLOPs/s": f"{p}FLOP/s" for p in "KMGTPEZ"},
    "Gbps": "Gb/s", "Mbit/s": "Mb/s", "Gbit/s": "Gb/s", "Tbit/s": "Tb/s",
    "B": "bytes", "flop/B": "FLOP/byte", "pJ/B": "pJ/byte", "pJ/flop": "pJ/FLOP",
    "µs": "μs",
}

#: A unit symbol of our registry's pint text -> mlsysim's registry's, where they differ: mlsysim defines ``KB``
#: as its own unit (its memory ladder's) where ours reads ``KB`` as pint's kilobyte ``kB``; the others are the
#: symbols of pint's default definitions (mlsysim's) that our ``units.txt`` spells otherwise.
OUR_SPELLINGS: dict[str, str] = {"kB": "KB", "mo": "month", "yr": "a", "FLOP": "flop", "L": "l"}
#: mlsysim's ``KFLOP`` (its FLOP ladder's, where ours reads ``KFLOP`` as a kiloflop) and pint's ``bit`` (no symbol;
#: ours is ``b``).
OUR_SPELLINGS.update({"kFLOP": "KFLOP", **{f"{prefix}b": f"{prefix}bit" for prefix in ("", "k", "M", "G", "T", "P")}})
_SYMBOL = re.compile(r"[A-Za-zµμ_]+")

#: Display markers: keyword -> the text put before the number.  At most one is given.
MARKERS: dict[str, str] = {"approx": "~", "lower_bound": "> ", "upper_bound": "< "}

#: Glyphs a label or denominator must not carry (currency, percent and multiples have their own formatters).
_FORBIDDEN = ("$", "%", "×")


def normalize_label(label: str, *, ours: bool = True) -> str:
    """mlsysim's spelling of a pint unit label (``µ`` written as Greek ``μ`` everywhere); ``ours``: the label is
    our registry's text (mapped through :data:`OUR_SPELLINGS` first), not another registry's.

    >>> normalize_label("µs/token"), normalize_label("kB", ours=False), normalize_label("FLOP/mo")
    ('μs/token', 'kB', 'flop/month')
    >>> normalize_label("pJ/b"), normalize_label("Gb/s"), normalize_label("kFLOP")
    ('pJ/bit', 'Gb/s', 'KFLOP')
    """
    if ours:
        label = _SYMBOL.sub(lambda symbol: OUR_SPELLINGS.get(symbol[0], symbol[0]), label)
    return LABELS.get(label, label.replace("µs", "μs"))


def unit_label(unit: pint.Unit) -> str:
    """The label mlsysim prints for ``unit`` (a Unit of our registry or of another: mlsysim's keeps its own text).

    >>> from mlsysim_symbolic.units import parse_unit
    >>> unit_label(parse_unit("TFLOPs/s")), unit_label(parse_unit("kB")), unit_label(pint.UnitRegistry().Unit("kB"))
    ('TFLOP/s', 'KB', 'kB')
    """
    return normalize_label(f"{unit:~P}", ours=unit._REGISTRY is ureg)


def marker(prefix: str = "", *, formatter: str, approx: bool = False, lower_bound: bool = False,
           upper_bound: bool = False) -> str:
    """The text before a number: ``prefix`` or the one display marker asked for (two at once, or a marker and a
    prefix, raise :class:`~mlsysim_symbolic.errors.FormatError`).

    >>> marker("about ", formatter="fmt"), marker(upper_bound=True, formatter="fmt")
    ('about ', '< ')
    """
    asked = [text for name, text in MARKERS.items() if {"approx": approx, "lower_bound": lower_bound,
                                                         "upper_bound": upper_bound}[name]]
    if len(asked) > 1:
        raise FormatError(formatter, "a value takes one display marker only: approx, lower_bound or upper_bound")
    if asked and prefix:
        raise FormatError(formatter, "give either prefix= or a display marker, not both")
    return prefix or (asked[0] if asked else "")


def text_atom(value: Any, *, formatter: str, what: str) -> str:
    """A label or denominator word, checked: a non-empty string without surrounding spaces or glyphs.

    >>> text_atom("GPU-hour", formatter="fmt_usd", what="per")
    'GPU-hour'
    >>> text_atom(" GB", formatter="fmt_qty", what="unit_label")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_qty: unit_label must not have leading or trailing spaces, got ' GB'
    """
    if not isinstance(value, str):
        raise FormatTypeError(formatter, f"{what} must be a string, got {type(value).__name__}")
    if not value:
        raise FormatError(formatter, f"{what} must not be empty")
    if value != value.strip():
        raise FormatError(formatter, f"{what} must not have leading or trailing spaces, got {value!r}")
    if any(glyph in value for glyph in _FORBIDDEN):
        raise FormatError(formatter, f"{what} must not carry a currency, percent or multiple glyph, got {value!r}")
    return value
