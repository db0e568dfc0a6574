"""Units as a physicist writes them, and the choice of a result's prefix.

A result keeps the unit its output declares when that unit is prefixed (an output
declared in GiB shows GiB, as in Python); an unprefixed unit (B, FLOP, s) takes the SI
prefix that reads well, up to quetta for bytes (6 ZB) but only up to exa for FLOP:
beyond the prefixes that read well a value prints in the base unit with scientific
notation (``5.88 \\times 10^{23}\\,\\mathrm{FLOP}``).

>>> from mlsysim_symbolic.units import Q_
>>> compact_quantity(Q_(6e21, "B")), compact_quantity(Q_(5.88e23, "flop"))
(<Quantity(6.0, 'zettabyte')>, <Quantity(5.88e+23, 'flop')>)
>>> compact_quantity(Q_(16, "GiB")), compact_quantity(Q_(16, "GiB"), LatexConfig(prefix="decimal")).magnitude
(<Quantity(16, 'gibibyte')>, 17.179869184)
"""

from __future__ import annotations

import math
from typing import Any

import pint

from ..errors import UnitError
from ..units import Q_, ureg
from .config import DEFAULT, LatexConfig

__all__ = [
    "COUNT_UNITS", "PREFIXABLE", "PREFIX_LIMITS", "as_unit", "compact_quantity", "result_quantity", "unit_items",
    "unit_symbol", "without_counts",
]

#: Dimensionless count units that a substituted line leaves out (4 B/param shows as 4 B).
COUNT_UNITS = frozenset({"count", "param", "token", "sample", "request", "step"})

#: Units that take an automatic prefix in a result (others, such as hours, days, USD and counts, are kept).
PREFIXABLE = frozenset({"byte", "bit", "flop", "second", "joule", "watt", "watt_hour", "hertz", "meter", "gram"})

#: The largest power of ten a prefix of these units reads well at (ZFLOP is not written; 10^23 FLOP is).
PREFIX_LIMITS = {"flop": 18}

#: Symbols as a physicist writes them where pint's differ (pint writes a bit as ``b``).
SYMBOLS = {"bit": "bit"}

_DECIMAL = {30: "quetta", 27: "ronna", 24: "yotta", 21: "zetta", 18: "exa", 15: "peta", 12: "tera", 9: "giga", 6: "mega",
            3: "kilo", 0: "", -3: "milli", -6: "micro", -9: "nano", -12: "pico", -15: "femto", -18: "atto",
            -21: "zepto", -24: "yocto", -27: "ronto", -30: "quecto"}
_BINARY = [(60, "exbi"), (50, "pebi"), (40, "tebi"), (30, "gibi"), (20, "mebi"), (10, "kibi")]
_NO_SUBMULTIPLES = frozenset({"byte", "bit", "flop"})   # no millibytes


def as_unit(unit: Any) -> Any:
    """A pint unit from a unit or its text.

    >>> as_unit("GB/s")
    <Unit('gigabyte / second')>
    """
    return Q_(1, unit).units if isinstance(unit, str) else unit


def unit_items(unit: Any) -> list[tuple[str, float]]:
    """``(pint unit name, power)`` of each factor of ``unit``, in pint's order.

    >>> unit_items("pJ/bit")
    [('picojoule', 1), ('bit', -1)]
    """
    return list(as_unit(unit)._units.items())


def unit_symbol(name: str) -> str:
    """The printed symbol of one pint unit name, prefix included: ``GB``, ``pJ``, ``Gbit``, ``FLOP``.

    >>> unit_symbol("picojoule"), unit_symbol("bit"), unit_symbol("gigabit"), unit_symbol("gibibyte")
    ('pJ', 'bit', 'Gbit', 'GiB')
    """
    for prefix, base, suffix in ureg.parse_unit_name(name):
        if base in SYMBOLS and not suffix:
            return (ureg.get_symbol(prefix + "byte")[:-1] if prefix else "") + SYMBOLS[base]
    return ureg.get_symbol(name)


def without_counts(unit: Any) -> Any:
    """``unit`` without its count factors.

    >>> without_counts("B/param"), without_counts("token/s")
    (<Unit('byte')>, <Unit('1 / second')>)
    """
    result = ureg.dimensionless
    for n, p in unit_items(unit):
        if n not in COUNT_UNITS:
            result = result * ureg.Unit(n) ** p
    return result


def result_quantity(value: pint.Quantity) -> pint.Quantity:
    """A result in the bare ``count`` unit is shown as a plain number.

    >>> result_quantity(Q_(3, "count")), result_quantity(Q_(3, "request"))
    (<Quantity(3, 'dimensionless')>, <Quantity(3, 'request')>)
    """
    if dict(value.units._units) == {"count": 1}:
        return Q_(value.magnitude, "")
    return value


def _prefixed(name: str) -> tuple[str, str] | None:
    """``(prefix, base)`` of a prefixable unit name (``("giga", "byte")``), None for others."""
    for prefix, base, suffix in ureg.parse_unit_name(name):
        if not suffix and base in PREFIXABLE:
            return prefix, base
    return None


def compact_quantity(q: pint.Quantity, config: LatexConfig = DEFAULT) -> pint.Quantity:
    """``q`` in ``config.unit``, in its declared prefixed unit, or with an automatic prefix.

    Only a single unit in the numerator takes a prefix (``TFLOP/s``, ``kB/param``, ``ms``);
    seconds are only divided (``ms``, never ``ks``); hours, days, currency and counts are kept.
    A declared prefixed unit is kept while its number is from 1 to 1000 (as Python shows
    it); otherwise the prefix moves, a binary one (GiB) only among binary prefixes.

    >>> compact_quantity(Q_(9.89e14, "FLOP/s"))
    <Quantity(989.0, 'teraflop / second')>
    >>> compact_quantity(Q_(2**41, "B"), LatexConfig(prefix="binary"))
    <Quantity(2.0, 'tebibyte')>
    >>> compact_quantity(Q_(3370, "USD")), compact_quantity(Q_(1536, "s"))
    (<Quantity(3370, 'dollar')>, <Quantity(1536, 'second')>)
    >>> compact_quantity(Q_(1.536e12, "B"), LatexConfig(unit="GB"))
    <Quantity(1536.0, 'gigabyte')>
    >>> compact_quantity(Q_(2.0**70, "B"), LatexConfig(prefix="binary")).units   # beyond exbi: bytes, 10^21
    <Unit('byte')>
    """
    if config.unit:
        try:
            return q.to(config.unit)
        except pint.DimensionalityError:
            raise UnitError(f"unit: cannot show {q.units:~C} in {config.unit!r}") from None
    try:
        magnitude = float(q.magnitude)
    except (TypeError, ValueError):
        return q
    if not q.dimensionality or magnitude == 0 or not math.isfinite(magnitude):
        return q
    numerator = [(n, p) for n, p in unit_items(q.units) if p > 0]
    if len(numerator) != 1 or numerator[0][1] != 1:
        return q
    name = numerator[0][0]
    parsed = _prefixed(name)
    if parsed is None:
        return q
    declared, base = parsed
    binary = declared.endswith("bi")
    if config.prefix is None and declared and 1 <= abs(magnitude) < 1000:
        return q                         # the author's prefixed unit, as Python shows it
    rest = q.units / ureg.Unit(name)
    value = q.to(ureg.Unit(base) * rest).magnitude
    if base in ("byte", "bit") and (config.prefix == "binary" or (config.prefix is None and binary)):
        prefix = next((candidate for power, candidate in _BINARY if abs(value) >= 2**power), "")
        if prefix == _BINARY[0][1] and abs(value) >= 2**_BINARY[0][0] * 1024:
            prefix = ""                  # beyond the largest binary prefix: the base unit, scientific notation
        return q.to(ureg.Unit(prefix + base) * rest)
    rounded = float(f"{value:.{config.sig - 1}e}")
    exponent = 3 * math.floor(math.floor(math.log10(abs(rounded))) / 3)
    small, large = config.prefixes
    large = min(large, PREFIX_LIMITS.get(base, large))
    if base == "second":
        large = 0
    if base in _NO_SUBMULTIPLES:
        small = 0
    if exponent > large:
        exponent = 0                     # beyond the prefixes that read well: the base unit, 10^n
    exponent = max(small, exponent)
    return q.to(ureg.Unit(_DECIMAL[exponent] + base) * rest)
