"""The one pint registry of the package, and unit parsing helpers.

Units are declared in the plain definitions file ``units.txt`` beside this module
(pint's own format).  Bytes and bits carry an ``[information]`` dimension and
``flop`` its own ``[flop]`` dimension, so mixing them raises:

>>> from mlsysim_symbolic.units import Q_
>>> Q_(1, "B") + Q_(1, "B")
<Quantity(2, 'byte')>
>>> Q_(1, "B") + 1
Traceback (most recent call last):
...
pint.errors.DimensionalityError: Cannot convert from 'byte' to 'dimensionless'

Parameters are counts, so parameters times bytes per parameter is bytes:

>>> (Q_(1.5e9, "param") * Q_(4, "B/param")).to("B")
<Quantity(6e+09, 'byte')>
>>> str(Q_(1, "GB").units), str(Q_(1, "TFLOP/s").units)
('GB', 'TFLOP/s')
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pint

from .errors import InputError, UnitError

DEFINITIONS = Path(__file__).with_name("units.txt")

#: The package-wide unit registry, built only from ``units.txt``.
ureg = pint.UnitRegistry(
    str(DEFINITIONS),
    autoconvert_offset_to_baseunit=False,
    on_redefinition="raise",
    cache_folder=None,
)
ureg.formatter.default_format = "~C"
pint.set_application_registry(ureg)

Q_ = ureg.Quantity
Quantity = ureg.Quantity
Unit = ureg.Unit

#: Bytes per element of the named numeric precisions (as mlsysim 0.3.0's PRECISION_MAP).
PRECISION_BYTES: dict[str, float] = {
    "fp64": 8.0,
    "fp32": 4.0,
    "tf32": 4.0,
    "fp16": 2.0,
    "bf16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
}

_NUMBER = re.compile(
    r"^\s*(?P<num>[-+]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan)\s*(?P<unit>.*?)\s*$",
    re.IGNORECASE,
)
_UNIT_TEXT = re.compile(r"^[A-Za-z_µμ%0-9 /*^().\-]*$")


@lru_cache(maxsize=512)
def parse_unit(text: str) -> pint.Unit:
    """Parse a unit expression such as ``"B/param"`` or ``"TFLOP/s"``.

    Only letters, digits, spaces and ``* / ^ ( ) .`` are accepted, and the text is
    handed to pint's own unit parser (never to Python's ``eval``).

    >>> str(parse_unit("GB/s"))
    'GB/s'
    >>> parse_unit("furlong")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.UnitError: unknown unit 'furlong': not in the mlsysim_symbolic unit registry
    """
    if not isinstance(text, str) or not _UNIT_TEXT.match(text):
        raise UnitError(f"unit {text!r} has characters a unit cannot have")
    stripped = text.strip()
    if stripped in ("", "1", "dimensionless"):
        return ureg.dimensionless
    try:
        unit = ureg.parse_units(stripped.replace("^", "**"))
    except (pint.UndefinedUnitError, pint.DefinitionSyntaxError, AttributeError, TypeError, ValueError, SyntaxError) as exc:
        raise UnitError(f"unknown unit {text!r}: not in the mlsysim_symbolic unit registry") from exc
    return unit


def parse_quantity(text: str, *, name: str = "value") -> pint.Quantity:
    """Parse ``"<number> <unit>"`` (``"4 B"``, ``"80 GiB"``, ``"989 TFLOP/s"``).

    A precision name (``"fp16"``, ``"bf16"``, ``"int8"`` ...) is read as its bytes per element.

    >>> parse_quantity("2 byte")
    <Quantity(2, 'byte')>
    >>> parse_quantity("fp16")
    <Quantity(2.0, 'byte')>
    >>> parse_quantity("four bytes", name="bytes_per_param")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: bytes_per_param: 'four bytes' is not a quantity; expected '<number> <unit>' such as '4 B'
    """
    key = text.strip().lower()
    if key in PRECISION_BYTES:
        return Q_(PRECISION_BYTES[key], "B")
    match = _NUMBER.match(text)
    if not match:
        raise InputError(f"{name}: {text!r} is not a quantity; expected '<number> <unit>' such as '4 B'")
    number_text = match.group("num").replace("_", "")
    number: float | int
    if re.fullmatch(r"[-+]?\d+", number_text):
        number = int(number_text)
    else:
        number = float(number_text)
    unit_text = match.group("unit")
    try:
        unit = parse_unit(unit_text)
    except UnitError as exc:
        raise UnitError(f"{name}: {exc}") from None
    return Q_(number, unit)


_QuantityClass = ureg.Quantity


def make_quantity(value: Any, unit: pint.Unit) -> pint.Quantity:
    """A Quantity of ``value`` (a number or numpy array) in ``unit``, built without re-parsing.

    Equivalent to ``ureg.Quantity(value, unit)`` for numbers and arrays, at a twentieth of the
    cost; the evaluation hot path uses it.

    >>> make_quantity(2.0, parse_unit("B")) == Q_(2.0, "B")
    True
    """
    inst = object.__new__(_QuantityClass)
    inst._magnitude = value
    inst._units = unit._units
    return inst


def dimensionality(unit: pint.Unit | str) -> pint.util.UnitsContainer:
    """The dimensionality of a unit, e.g. ``{'[information]': 1, '[time]': -1}``."""
    if isinstance(unit, str):
        unit = parse_unit(unit)
    return unit.dimensionality


def format_dimensionality(dim: Any) -> str:
    """Human text for a dimensionality: ``[information] / [time]`` or ``dimensionless``."""
    text = str(dim)
    return text if text else "dimensionless"


def is_finite_number(value: Any) -> bool:
    """True for an int or float that is neither NaN nor infinite."""
    try:
        return math.isfinite(value)
    except TypeError:
        return False
