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
from fractions import Fraction
from functools import cache, lru_cache
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
    except Exception as exc:   # pint's parser raises many types (AssertionError on 'log(log2())', TokenError ...)
        raise UnitError(f"unknown unit {text!r}: not in the mlsysim_symbolic unit registry") from exc
    if not isinstance(unit, pint.Unit):
        raise UnitError(f"unit {text!r} is not a unit")
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
    if not isinstance(text, str):
        raise InputError(f"{name}: expected text such as '4 B', got {type(text).__name__} {text!r}")
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
        if not math.isfinite(number):
            raise InputError(f"{name}: {text!r} is not a finite quantity")
    unit_text = match.group("unit")
    try:
        unit = parse_unit(unit_text)
    except UnitError as exc:
        raise UnitError(f"{name}: {exc}") from None
    return Q_(number, unit)


@cache
def base_ratio(unit: pint.Unit) -> Fraction:
    """The exact factor taking magnitudes in ``unit`` to the base units of its dimension.

    pint keeps factors as binary floats (``1e-9`` is not 10**-9), so scaling by them leaves
    one-ulp artifacts: 15e9 B * 1e-9 is 15.000000000000002 GB.  Each part of the unit is
    read back from the shortest decimal of its float factor, which is exact for decimal and
    binary prefixes, minutes, hours, days and bits; the product over the parts is exact.

    >>> base_ratio(parse_unit("GB/h")), base_ratio(parse_unit("pJ/bit")), base_ratio(parse_unit("ms"))
    (Fraction(2500000, 9), Fraction(1, 125000000000), Fraction(1, 1000))
    """
    whole = Q_(1, unit).to_base_units().magnitude
    ratio = Fraction(1)
    for name, power in unit._units.items():
        if power != int(power):
            return Fraction(whole)
        part = Q_(1, name).to_base_units().magnitude
        ratio *= (Fraction(part) if isinstance(part, int) else Fraction(repr(float(part)))) ** int(power)
    if not math.isclose(float(ratio), float(whole), rel_tol=1e-12):   # a factor that is no decimal: keep pint's
        return Fraction(whole)
    return ratio


def _exact(magnitude: int | float) -> Fraction:
    """A magnitude as the number it was written as (the shortest decimal of a float)."""
    return Fraction(magnitude) if isinstance(magnitude, int) else Fraction(repr(magnitude))


def convert(magnitude: Any, source: pint.Unit, target: pint.Unit) -> Any:
    """``magnitude`` in ``source`` expressed in ``target``, rounded once from the exact value.

    Integers scaled by whole factors stay integers; a float is read as its shortest decimal,
    so ``9 ms`` is exactly the float nearest 0.009 s (not 0.009000000000000001).  Other
    magnitudes (arrays, Fractions) are scaled by the float ratio.

    >>> convert(9, parse_unit("ms"), parse_unit("s")), convert(15e9, parse_unit("B"), parse_unit("GB"))
    (0.009, 15.0)
    """
    ratio = base_ratio(source) / base_ratio(target) if source != target else Fraction(1)
    if ratio == 1:
        return magnitude
    if isinstance(magnitude, bool) or not isinstance(magnitude, (int, float)) or not math.isfinite(magnitude):
        return magnitude * float(ratio)
    if isinstance(magnitude, int) and ratio.denominator == 1:
        return magnitude * ratio.numerator
    return _float(_exact(magnitude) * ratio)


def _float(value: Fraction) -> float:
    """A Fraction as the nearest float; beyond float64's range, an infinity (as float arithmetic gives)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def to_base(magnitude: Any, unit: pint.Unit) -> Any:
    """``magnitude`` in ``unit`` as a magnitude in base units (see :func:`convert`); arrays too."""
    ratio = base_ratio(unit)
    if ratio == 1:
        return magnitude
    if isinstance(magnitude, (int, float)) and not isinstance(magnitude, bool) and math.isfinite(magnitude):
        if isinstance(magnitude, int) and ratio.denominator == 1:
            return magnitude * ratio.numerator
        return _float(_exact(magnitude) * ratio)
    return scale_from_ratio(magnitude, ratio)


def from_base(value: Any, unit: pint.Unit) -> Any:
    """A magnitude in base units expressed in ``unit``: one exact scaling (``/ 1e9``, ``* 1000``) where the ratio allows."""
    ratio = base_ratio(unit)
    return value if ratio == 1 else scale_from_ratio(value, 1 / ratio)


def scaling(ratio: Fraction) -> tuple[int | float, int | float]:
    """``(factor, divisor)`` such that ``value * factor / divisor`` applies ``ratio`` with exact integers where possible."""
    num, den = ratio.numerator, ratio.denominator
    if num < 2**53 and den < 2**53:
        return num, den
    return float(ratio), 1


def scale_from_ratio(value: Any, ratio: Fraction) -> Any:
    """``value * ratio`` for numbers and numpy arrays, by an integer multiply and/or divide (each correctly rounded)."""
    factor, divisor = scaling(ratio)
    if factor != 1 and divisor != 1 and type(value) is float and math.isfinite(value):
        return _float(Fraction(value) * ratio)   # GB/h and the like: one rounding, not two
    if factor != 1:
        value = value * factor
    if divisor != 1:
        value = value / divisor
    return value


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
