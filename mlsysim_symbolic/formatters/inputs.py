"""What a formatter is given, made ours: finite magnitudes, Quantities of our registry, display units.

A Quantity or Unit of another pint registry (mlsysim's, the user's) is carried in through its unit text
(:func:`mlsysim_symbolic.units.carry_in`).  Conversions go through our registry; where our registry keeps a
counted kind (``param``, ``token``, ``sample``, ``request``) as its own dimension and mlsysim does not, a
conversion that fails is tried again with the counted kinds dropped (:func:`mlsysim_symbolic.units.uncounted`),
which is mlsysim's arithmetic (``3 USD`` per ``token`` is ``3 USD``).

>>> import pint
>>> other = pint.UnitRegistry()
>>> quantity_of(other.Quantity(1.5, "kilobyte"), formatter="fmt_qty")
<Quantity(1.5, 'kilobyte')>
>>> magnitude_in(Q_(3, "USD"), Q_(1, "USD/token").units, formatter="fmt_usd")
3.0
>>> display_unit("GB/s", formatter="fmt_qty").label, display_unit(other.Unit("kilobyte"), formatter="fmt_qty").label
('GB/s', 'kB')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Any

import pint

from ..errors import FormatError, FormatTypeError, UnitError, UnscaledUnitError
from ..units import Q_, carry_in, lone_unscaled, parse_unit, uncounted, ureg
from .labels import unit_label

__all__ = ["DisplayUnit", "display_unit", "finite", "magnitude_in", "quantity_of", "require_quantity",
           "unscaled_unit"]


def finite(value: Any, *, formatter: str, what: str = "value") -> float:
    """``value`` (a real number) as a finite float; ``inf`` and ``nan`` raise
    :class:`~mlsysim_symbolic.errors.FormatError` (a divide-by-zero upstream), a non-number
    :class:`~mlsysim_symbolic.errors.FormatTypeError`.

    >>> finite(3, formatter="fmt")
    3.0
    >>> finite(float("inf"), formatter="fmt")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt: the value is inf, not finite (a divide-by-zero or 0/0 upstream?)
    """
    if hasattr(value, "item") and not isinstance(value, Real):   # numpy scalars
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, Real):
        raise FormatTypeError(formatter, f"the {what} must be a real number or a Quantity, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise FormatError(formatter, f"the {what} is {number}, not finite (a divide-by-zero or 0/0 upstream?)")
    return number


def quantity_of(value: Any, *, formatter: str) -> pint.Quantity | None:
    """``value`` as a Quantity of our registry (carried in from another registry), or ``None`` if it is none.

    >>> quantity_of(3.0, formatter="fmt") is None
    True
    """
    if not isinstance(value, pint.Quantity):
        return None
    try:
        return carry_in(value)
    except UnscaledUnitError:   # a level in dB: a formatter only converts it, which pint does in its own unit
        return Q_(value.magnitude, unscaled_unit(format(value.units, "D"), formatter=formatter))
    except UnitError as error:
        raise FormatTypeError(formatter, f"unit {value.units} is not known to mlsysim_symbolic") from error


def require_quantity(value: Any, *, formatter: str) -> pint.Quantity:
    """``value`` as a Quantity of our registry; a plain number raises
    :class:`~mlsysim_symbolic.errors.FormatTypeError` (mlsysim's formatters of Quantities raise ``TypeError``).

    >>> require_quantity(2.0, formatter="fmt_qty")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatTypeError: fmt_qty: requires a pint Quantity (keep the unit attached), got float
    """
    quantity = quantity_of(value, formatter=formatter)
    if quantity is None:
        raise FormatTypeError(formatter, f"requires a pint Quantity (keep the unit attached), got {type(value).__name__}")
    return quantity


@dataclass(frozen=True)
class DisplayUnit:
    """A unit to show a value in: ``unit`` of our registry and ``label``, the text printed after the number."""

    unit: pint.Unit
    label: str


def display_unit(unit: Any, *, formatter: str) -> DisplayUnit:
    """The display unit ``unit`` names: unit text, a Unit or a Quantity (its unit), of our registry or another.

    The label is :func:`.labels.unit_label` of the unit as given (a Unit of mlsysim's registry keeps its own
    symbol).

    >>> display_unit(Q_(1, "newton * meter"), formatter="fmt_qty").label, display_unit("KB", formatter="f").label
    ('m·N', 'KB')
    """
    if isinstance(unit, pint.Quantity):
        unit = unit.units
    if isinstance(unit, str):
        try:
            parsed = parse_unit(unit) if unit else ureg.dimensionless
        except UnscaledUnitError:
            parsed = unscaled_unit(unit, formatter=formatter)
        return DisplayUnit(parsed, unit_label(parsed))
    if isinstance(unit, pint.Unit):
        ours = quantity_of(unit._REGISTRY.Quantity(1, unit), formatter=formatter).units
        return DisplayUnit(ours, unit_label(unit))
    raise FormatTypeError(formatter, f"a display unit must be unit text or a pint Unit, got {type(unit).__name__}")


def unscaled_unit(text: str, *, formatter: str) -> pint.Unit:
    """The unit ``text`` names where it does not convert by a factor (a decibel, a degC): the engine refuses it
    (:func:`mlsysim_symbolic.units.parse_unit`), but a formatter only converts a value into or out of it, which
    pint does exactly (``2`` is ``3.0103 dB``).

    >>> round(float(Q_(2, "dimensionless").to(unscaled_unit("dB", formatter="fmt_decibel")).magnitude), 4)
    3.0103
    >>> unscaled_unit("GB", formatter="fmt_qty")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_qty: unit 'GB' converts by a factor: read it with parse_unit
    >>> unscaled_unit("dB/m", formatter="fmt_decibel")   # (mlsysim: pint's bare AssertionError)
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_decibel: unit 'dB/m' combines a unit that does not scale by a factor (a decibel, a degC) with others: show the level or the temperature alone
    """
    try:
        unit = lone_unscaled(text)
    except UnscaledUnitError:
        raise FormatError(formatter, f"unit {text!r} combines a unit that does not scale by a factor (a decibel, a "
                                     "degC) with others: show the level or the temperature alone") from None
    except UnitError as error:
        raise FormatTypeError(formatter, f"unit {text!r} is not known to mlsysim_symbolic") from error
    if unit is None:
        raise FormatError(formatter, f"unit {text!r} converts by a factor: read it with parse_unit")
    return unit


def magnitude_in(quantity: pint.Quantity, unit: pint.Unit, *, formatter: str) -> float:
    """The finite magnitude of ``quantity`` (ours) in ``unit``, counted kinds dropped when only that makes the
    dimensions agree; a unit of another dimension raises :class:`~mlsysim_symbolic.errors.FormatTypeError`
    (pint's ``DimensionalityError`` is a ``TypeError``).

    >>> magnitude_in(Q_(2, "kparam"), ureg.dimensionless, formatter="fmt_qty")
    2000.0
    """
    try:
        value = quantity.to(unit).magnitude
    except pint.DimensionalityError:
        plain, target = uncounted(quantity), uncounted(Q_(1, unit))
        try:
            value = plain.to(target.units).magnitude / target.magnitude
        except pint.DimensionalityError:
            raise FormatTypeError(formatter, f"cannot show {quantity.units:~P} "
                                             f"({quantity.dimensionality}) in {unit:~P} ({unit.dimensionality})") from None
    return finite(value, formatter=formatter, what="quantity magnitude")
