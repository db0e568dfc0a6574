"""Numbers, units and quantities in the style a :class:`LatexConfig` asks for (upright or siunitx).

>>> from mlsysim_symbolic.units import Q_
>>> format_quantity(Q_(1.536e12, "B"), compact=True)
'1.536\\\\,\\\\mathrm{TB}'
>>> format_quantity(Q_(1.536e12, "B"), LatexConfig(siunitx=True, unit="GB"), compact=True)
'\\\\qty{1536}{\\\\giga\\\\byte}'
>>> format_quantity(Q_(5.88e23, "flop"), LatexConfig(sig=3), compact=True), format_quantity(Q_(6e21, "B"), compact=True)
('5.88 \\\\times 10^{23}\\\\,\\\\mathrm{FLOP}', '6\\\\,\\\\mathrm{ZB}')
"""

from __future__ import annotations

from typing import Any

import pint

from .base import UnitStyle
from .config import DEFAULT, LatexConfig
from .mathrm import MathrmStyle
from .siunitx import SiunitxStyle
from .units import compact_quantity

__all__ = ["format_quantity", "format_unit", "style"]


def style(config: LatexConfig = DEFAULT) -> UnitStyle:
    """The unit style of ``config``: :class:`SiunitxStyle` or :class:`MathrmStyle`.

    >>> type(style(LatexConfig(siunitx=True))).__name__, type(style()).__name__
    ('SiunitxStyle', 'MathrmStyle')
    """
    return SiunitxStyle(config) if config.siunitx else MathrmStyle(config)


def format_unit(unit: Any, *, drop_counts: bool = False, siunitx: bool = False) -> str:
    """A unit in upright LaTeX: ``\\mathrm{GB/s}`` (``\\unit{\\giga\\byte\\per\\second}`` with siunitx); empty for dimensionless.

    >>> format_unit("GB/s"), format_unit("B/param", drop_counts=True), format_unit("1"), format_unit("pJ/bit")
    ('\\\\mathrm{GB/s}', '\\\\mathrm{B}', '', '\\\\mathrm{pJ/bit}')
    >>> format_unit("TFLOP/s", siunitx=True)
    '\\\\unit{\\\\tera\\\\flop\\\\per\\\\second}'
    """
    return style(LatexConfig(siunitx=siunitx)).unit(unit, drop_counts=drop_counts)


def format_quantity(q: pint.Quantity, config: LatexConfig = DEFAULT, *, compact: bool = False, drop_counts: bool = False) -> str:
    """A quantity as ``1.536\\,\\mathrm{TB}`` (``\\qty{1.536}{\\tera\\byte}`` with siunitx); ``compact`` picks its display unit.

    >>> from mlsysim_symbolic.units import Q_
    >>> format_quantity(Q_(16, "GiB"), compact=True), format_quantity(Q_(4, "B/param"), drop_counts=True)
    ('16\\\\,\\\\mathrm{GiB}', '4\\\\,\\\\mathrm{B}')
    """
    if compact:
        q = compact_quantity(q, config)
    return style(config).quantity(q, drop_counts=drop_counts)
