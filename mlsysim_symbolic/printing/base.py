"""The shared shape of a unit style: a number, a unit and a quantity, each formatted one way.

:class:`UnitStyle` holds what every style shares (significant figures, counts dropped
from a substituted value, infinite and NaN magnitudes); :mod:`.mathrm` and
:mod:`.siunitx` each say how a number, a unit and a number-with-unit are written.
"""

from __future__ import annotations

import math
from typing import Any

import pint

from .config import DEFAULT, LatexConfig
from .units import as_unit, without_counts

__all__ = ["UnitStyle"]


class UnitStyle:
    """Formats numbers, units and quantities for one LaTeX unit style (subclasses fill in the three hooks)."""

    def __init__(self, config: LatexConfig = DEFAULT) -> None:
        self.config = config

    # ------------------------------------------------------------ hooks
    def number_text(self, x: Any) -> str:
        """A finite number."""
        raise NotImplementedError

    def unit_text(self, unit: Any) -> str:
        """A unit's body (empty for dimensionless), without the wrapping of :meth:`unit`."""
        raise NotImplementedError

    def join(self, number: str, unit: str) -> str:
        """A number with its (non-empty) unit body."""
        raise NotImplementedError

    def wrap_unit(self, unit: str) -> str:
        """A unit body alone, as math."""
        raise NotImplementedError

    # ------------------------------------------------------------ shared
    @staticmethod
    def special(x: Any) -> str | None:
        """``\\infty``, ``-\\infty`` or ``\\mathrm{NaN}`` for a magnitude that is not finite, else None."""
        try:
            value = float(x)
        except (TypeError, ValueError):
            return None
        if math.isfinite(value):
            return None
        return r"\mathrm{NaN}" if math.isnan(value) else (r"\infty" if value > 0 else r"-\infty")

    def unit(self, unit: Any, *, drop_counts: bool = False) -> str:
        """A unit as math (empty for dimensionless).

        >>> from mlsysim_symbolic.printing.siunitx import SiunitxStyle
        >>> SiunitxStyle().unit("GiB/s"), SiunitxStyle().unit("1")
        ('\\\\unit{\\\\gibi\\\\byte\\\\per\\\\second}', '')
        """
        unit = as_unit(unit)
        if drop_counts:
            unit = without_counts(unit)
        body = self.unit_text(unit)
        return self.wrap_unit(body) if body else ""

    def quantity(self, q: pint.Quantity, *, drop_counts: bool = False) -> str:
        """A quantity: its number with its unit (the number alone when nothing is left of the unit).

        >>> from mlsysim_symbolic.printing.mathrm import MathrmStyle
        >>> from mlsysim_symbolic.units import Q_
        >>> MathrmStyle().quantity(Q_(1.5e9, "param"), drop_counts=True), MathrmStyle().quantity(Q_(float("inf"), "s"))
        ('1.5 \\\\times 10^{9}', '\\\\infty')
        """
        special = self.special(q.magnitude)
        if special is not None:
            return special
        unit = without_counts(q.units) if drop_counts else q.units
        body = self.unit_text(unit)
        number = self.number_text(q.magnitude)
        return self.join(number, body) if body else self.bare(number)

    def bare(self, number: str) -> str:
        """A number with no unit."""
        return number
