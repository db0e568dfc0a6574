r"""Upright units: ``1.536\,\mathrm{TB}``, ``35\,\mathrm{pJ/bit}``, ``5.88 \times 10^{23}\,\mathrm{FLOP}``.

>>> from mlsysim_symbolic.units import Q_
>>> style = MathrmStyle()
>>> style.quantity(Q_(1.536e12, "B")), style.unit("pJ/bit"), style.quantity(Q_(4, "B/param"), drop_counts=True)
('1.536 \\times 10^{12}\\,\\mathrm{B}', '\\mathrm{pJ/bit}', '4\\,\\mathrm{B}')
"""

from __future__ import annotations

import re
from typing import Any

from .base import UnitStyle
from .numbers import format_number
from .text import escape_text
from .units import unit_items, unit_symbol

__all__ = ["MathrmStyle"]

_SAFE = re.compile(r"[A-Za-z0-9/().]")


def _symbol(name: str) -> str:
    """A unit symbol inside ``\\mathrm``: µ as ``\\mu``, % and anything outside the unit alphabet escaped."""
    out = []
    for ch in unit_symbol(name):
        if ch in "µμ":
            out.append("\\mu ")
        elif ch == "%":
            out.append("\\%")
        elif ch == "_":
            out.append("\\_")
        elif _SAFE.fullmatch(ch):
            out.append(ch)
        else:
            out.append(r"\text{" + escape_text(ch) + "}")
    return "".join(out)


class MathrmStyle(UnitStyle):
    """Numbers as ``1.5 \\times 10^{9}``, units as ``\\mathrm{GB/s}``."""

    def number_text(self, x: Any) -> str:
        return format_number(x, self.config.sig, self.config.positional)

    def unit_text(self, unit: Any) -> str:
        items = unit_items(unit)
        num = [(_symbol(n), p) for n, p in items if p > 0]
        den = [(_symbol(n), -p) for n, p in items if p < 0]

        def side(parts: list[tuple[str, float]]) -> str:
            return r"\cdot ".join(s + (f"^{{{p:g}}}" if p != 1 else "") for s, p in parts)

        if not num and not den:
            return ""
        text = side(num) if num else "1"
        if den:
            text += "/" + (side(den) if len(den) == 1 else f"({side(den)})")
        return text

    def wrap_unit(self, unit: str) -> str:
        return "\\mathrm{" + unit + "}"

    def join(self, number: str, unit: str) -> str:
        return number + r"\," + self.wrap_unit(unit)
