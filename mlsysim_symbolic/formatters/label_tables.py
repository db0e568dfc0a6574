"""Labels chosen by the display unit, for the domain records whose label names the unit shown (mlsysim's
``μH``, ``L/day``, ``kN/mm``): a table of units and their labels, or a quotient labelled part by part.

A display unit not in a table keeps its own label (:func:`.labels.unit_label`), so a label never names another
unit than the one the number is in.

>>> from mlsysim_symbolic.formatters.inputs import display_unit
>>> water = UnitLabels.of(("L", "L"), ("L/day", "L/day"))
>>> water(display_unit("liter/d", formatter="f")), water(display_unit("m**3", formatter="f"))
('L/day', None)
>>> stiffness = Quotient.of("fmt_stiffness", "a force over a length", {"N": "N", "kN": "kN"}, {"m": "m", "mm": "mm"})
>>> stiffness(display_unit("kN/mm", formatter="fmt_stiffness"))
'kN/mm'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pint

from ..errors import FormatError
from .inputs import DisplayUnit
from .points import unit_or_point

__all__ = ["Quotient", "UnitLabels"]


@dataclass(frozen=True)
class UnitLabels:
    """Display unit -> label; ``None`` (the unit's own label) for a unit not in the table."""

    labels: Mapping[pint.Unit, str]

    @classmethod
    def of(cls, *pairs: tuple[str, str]) -> UnitLabels:
        """A table from ``(unit text, label)`` pairs (an offset unit such as ``degC`` included)."""
        return cls({unit_or_point(text): label for text, label in pairs})

    def __call__(self, shown: DisplayUnit) -> str | None:
        return self.labels.get(shown.unit)


@dataclass(frozen=True)
class Quotient:
    """The label ``numerator/denominator`` of a display unit that is one unit of ``numerators`` over one of
    ``denominators`` (each: pint unit name -> its label); another display unit raises
    :class:`~mlsysim_symbolic.errors.FormatError` naming ``formatter`` and what it ``wants`` (mlsysim's
    ``ValueError``).

    >>> from mlsysim_symbolic.formatters.inputs import display_unit
    >>> Quotient.of("fmt_stiffness", "a force over a length", {"N": "N"}, {"m": "m"})(display_unit("kg/s**2", formatter="f"))
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_stiffness: cannot label the display unit kg/s²: give a force over a length
    """

    formatter: str
    wants: str
    numerators: Mapping[str, str]
    denominators: Mapping[str, str]

    @classmethod
    def of(cls, formatter: str, wants: str, numerators: Mapping[str, str],
           denominators: Mapping[str, str]) -> Quotient:
        """A quotient from unit texts: their pint unit names are the keys."""
        def names(table: Mapping[str, str]) -> dict[str, str]:
            return {_single_name(text): label for text, label in table.items()}
        return cls(formatter, wants, names(numerators), names(denominators))

    def __call__(self, shown: DisplayUnit) -> str:
        parts = shown.unit._units
        over = [name for name, power in parts.items() if power == 1]
        under = [name for name, power in parts.items() if power == -1]
        if len(parts) == 2 and len(over) == len(under) == 1 and over[0] in self.numerators \
                and under[0] in self.denominators:
            return f"{self.numerators[over[0]]}/{self.denominators[under[0]]}"
        raise FormatError(self.formatter, f"cannot label the display unit {shown.unit:~P}: give {self.wants}")


def _single_name(text: str) -> str:
    (name,) = unit_or_point(text)._units
    return name
