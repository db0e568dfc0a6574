"""Temperature points: a value on an offset scale (``degC``) kept on its scale, for ``fmt_temperature``.

Everywhere else a Quantity in ``degC`` of another registry comes in as its absolute temperature in kelvin
(:func:`mlsysim_symbolic.units.carry_in`); a formatter that shows the point itself reads it here instead, so
``25 degC`` shows as ``25 °C`` without a round trip through 298.15 K.  :data:`POINTS` is the
:class:`~.domain.Reading` of such a formatter; :class:`ByValueUnit` chooses its default display unit from the
unit the value was given in (mlsysim's: kelvin stays kelvin, anything else is shown in degrees Celsius).

>>> import pint
>>> other = pint.UnitRegistry()
>>> point_quantity(other.Quantity(25, "degC"), formatter="fmt_temperature")
<Quantity(25, 'degree_Celsius')>
>>> point_display_unit("degC", formatter="f").unit, point_display_unit(other.Unit("degC"), formatter="f").unit
(<Unit('degree_Celsius')>, <Unit('degree_Celsius')>)
>>> ByValueUnit(frozenset({"kelvin"}), "K", "degC").pick(Q_(300, "K"), formatter="f").label
'K'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pint

from ..errors import UnitError
from ..units import Q_, parse_unit, point_unit, ureg
from .domain import Reading
from .inputs import DisplayUnit, display_unit, require_quantity
from .labels import unit_label

__all__ = ["POINTS", "ByValueUnit", "point_display_unit", "point_quantity", "unit_or_point"]


def _offset(unit: pint.Unit) -> pint.Unit | None:
    """Our offset unit of the same name as ``unit`` (of any registry), or ``None`` if it is no offset unit."""
    try:
        return point_unit(format(unit, "D"))
    except UnitError:
        return None


def unit_or_point(text: str) -> pint.Unit:
    """The unit ``text`` names, an offset unit (``degC``) included.

    >>> unit_or_point("degC"), unit_or_point("K/W")
    (<Unit('degree_Celsius')>, <Unit('kelvin / watt')>)
    """
    try:
        return parse_unit(text)
    except UnitError:
        return point_unit(text)


def point_quantity(value: Any, *, formatter: str) -> pint.Quantity:
    """``value`` as a Quantity of ours, a temperature point of another registry kept on its offset scale.

    >>> point_quantity(Q_(300, "K"), formatter="f")
    <Quantity(300, 'kelvin')>
    """
    if isinstance(value, pint.Quantity) and value._REGISTRY is not ureg:
        offset = _offset(value.units)
        if offset is not None:
            return Q_(value.magnitude, offset)
    return require_quantity(value, formatter=formatter)


def point_display_unit(unit: Any, *, formatter: str) -> DisplayUnit:
    """The display unit ``unit`` names (text, a Unit or a Quantity, of any registry), an offset unit included.

    >>> point_display_unit("mK", formatter="f").label
    'mK'
    """
    given = unit.units if isinstance(unit, pint.Quantity) else unit
    if isinstance(given, str):
        offset = _offset_text(given)
    else:
        offset = _offset(given) if isinstance(given, pint.Unit) else None
    if offset is None:
        return display_unit(unit, formatter=formatter)
    return DisplayUnit(offset, unit_label(offset))


def _offset_text(text: str) -> pint.Unit | None:
    try:
        parse_unit(text)
    except UnitError:
        try:
            return point_unit(text)
        except UnitError:
            return None
    return None


#: The reading of a formatter of temperature points.
POINTS = Reading(point_quantity, point_display_unit)


@dataclass(frozen=True)
class ByValueUnit:
    """A default display unit chosen by the unit the value is given in: ``then`` when one of its units is named
    in ``names`` (pint's unit names, ``"kelvin"``), else ``otherwise`` (both unit text)."""

    names: frozenset[str]
    then: str
    otherwise: str

    def pick(self, quantity: Any, *, formatter: str) -> DisplayUnit:
        """The display unit for ``quantity`` (ours)."""
        chosen = self.then if self.names & set(quantity.units._units) else self.otherwise
        return point_display_unit(chosen, formatter=formatter)
