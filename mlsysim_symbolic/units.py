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

Parameters, tokens, samples and requests are counted kinds, each its own dimension:
parameters times bytes per parameter is bytes, but bytes per parameter is not bytes per token.

>>> (Q_(1.5e9, "param") * Q_(4, "B/param")).to("B")
<Quantity(6e+09, 'byte')>
>>> Q_(4, "B/param").to("B/token")
Traceback (most recent call last):
...
pint.errors.DimensionalityError: Cannot convert from 'byte / param' ([information] / [param]) to 'byte / token' ([information] / [token])
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

import numpy as np
import pint

from .errors import DimensionalityError, InputError, UndefinedUnitError, UnitError, UnscaledUnitError

DEFINITIONS = Path(__file__).with_name("units.txt")

#: The package's own unit registry, built only from ``units.txt``.  It stays private:
#: importing the package leaves pint's application registry (the user's) untouched, and
#: Quantities of other registries are carried in through their unit text (:func:`foreign`).
ureg = pint.UnitRegistry(
    str(DEFINITIONS),
    autoconvert_offset_to_baseunit=False,
    on_redefinition="raise",
    cache_folder=None,
)
ureg.formatter.default_format = "~C"

#: How a scalar Quantity shows to a reader (tables, result pages, Jupyter and IPython): four significant figures in
#: pint's typeset form.  ``str`` and ``repr`` keep pint's full precision (code and mlsysim's pages print them:
#: ``800000.0 B``); an array keeps pint's own display (:data:`_ARRAY_FORMS`).
DISPLAY_FORMATS = {"html": "{:~.4gH}", "latex": "${:~.4gL}$", "text": "{:~.4gP}"}
_ARRAY_FORMS = {"html": ureg.Quantity._repr_html_, "latex": ureg.Quantity._repr_latex_, "text": "{:~P}".format}


def shown(q: Any, form: str = "text") -> str:
    """``q`` as a reader sees it, in ``form`` (``text``, ``html`` or ``latex``): a scalar at four significant figures.

    >>> shown(Q_(3852.1231488, "GB")), shown(Q_(1.536e12, "B"), "html")
    ('3852 GB', '1.536×10<sup>12</sup> B')
    """
    return DISPLAY_FORMATS[form].format(q) if np.ndim(q.magnitude) == 0 else _ARRAY_FORMS[form](q)


# this registry's own class: other registries (the user's, mlsysim's) are untouched
ureg.Quantity._repr_html_ = lambda self: shown(self, "html")
ureg.Quantity._repr_latex_ = lambda self: shown(self, "latex")
ureg.Quantity._repr_pretty_ = lambda self, p, cycle: p.text(shown(self))

#: The counted kinds: unit name -> (dimension, singular word, plural word).  Each is its own
#: base dimension, so a slip between them (bytes per parameter for bytes per token) is refused.
COUNTED_KINDS: dict[str, tuple[str, str, str]] = {
    "param": ("[param]", "parameter", "parameters"),
    "token": ("[token]", "token", "tokens"),
    "sample": ("[sample]", "sample", "samples"),
    "request": ("[request]", "request", "requests"),
}
#: Dimensionless count units (multiplicities), and the counted kinds: units a substituted line leaves out.
COUNT_UNITS: frozenset[str] = frozenset({"count", "step", *COUNTED_KINDS})
_COUNTED_DIMS = {dim for dim, _, _ in COUNTED_KINDS.values()}

Q_ = ureg.Quantity
Quantity = ureg.Quantity
Unit = ureg.Unit
KELVIN = ureg.kelvin


def _quantity_from_pickle(magnitude: Any, units: Any) -> pint.Quantity:
    """A pickled Quantity rebuilt in this package's registry (pint's own reader would rebuild it in the application
    registry, where ``sample`` is unknown and a ``B`` cannot meet one of ours)."""
    return ureg.Quantity(magnitude, ureg.Unit(units))


def _unit_from_pickle(units: Any) -> pint.Unit:
    """A pickled Unit rebuilt in this package's registry.  Each name is looked up first: pint defines a prefixed
    unit (``teraflop``) the first time a name reaches it, and a Unit made from a bare container in a process that
    has not met the name yet would not print."""
    for name in dict(units):
        ureg.get_name(name)
    return ureg.Unit(units)


def _reduce_quantity(self: pint.Quantity) -> tuple[Any, ...]:
    return _quantity_from_pickle, (self._magnitude, self._units)


def _reduce_unit(self: pint.Unit) -> tuple[Any, ...]:
    return _unit_from_pickle, (self._units,)


# The registry's own classes (pint builds them for this registry alone) pickle through the readers above, so a value
# crosses a process boundary (pickle, a ProcessPoolExecutor with fork or spawn) and comes back in this registry.
ureg.Quantity.__reduce__ = _reduce_quantity   # type: ignore[method-assign]
ureg.Unit.__reduce__ = _reduce_unit   # type: ignore[method-assign]

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
    mlsysim_symbolic.errors.UndefinedUnitError: unknown unit 'furlong': not in the mlsysim_symbolic unit registry
    """
    if not isinstance(text, str) or not _UNIT_TEXT.match(text):
        raise UnitError(f"unit {text!r} has characters a unit cannot have")
    stripped = text.strip()
    if stripped in ("", "1", "dimensionless"):
        return ureg.dimensionless
    try:
        unit = ureg.parse_units(stripped.replace("^", "**"))
    except Exception as exc:   # pint's parser raises many types (AssertionError on 'log(log2())', TokenError ...)
        raise UndefinedUnitError(text) from exc
    if not isinstance(unit, pint.Unit):
        raise UnitError(f"unit {text!r} is not a unit")
    _refuse_unscaled(unit, text)
    return unit


def _unscaled_parts(unit: pint.Unit) -> list[str]:
    """The parts of ``unit`` that do not convert by a factor (degC's offset, the decibel's logarithm; pint's
    ``delta_decibel`` of ``dB/m``, a name its own check cannot resolve, is no factor either)."""
    return [name for name in unit._units if not _multiplicative(name)]


@lru_cache(maxsize=256)
def _multiplicative(name: str) -> bool:
    try:
        return bool(ureg._is_multiplicative(name))
    except (AssertionError, KeyError, pint.UndefinedUnitError):   # pint asserts on a delta of a logarithmic unit
        return False


def _refuse_unscaled(unit: pint.Unit, text: str) -> None:
    """Refuse an offset or logarithmic unit where a unit is declared or converted: the engine scales by factors."""
    parts = _unscaled_parts(unit)
    if parts:
        raise UnscaledUnitError(text, parts)


@lru_cache(maxsize=16)
def point_unit(text: str) -> pint.Unit:
    """An offset unit a result shows a temperature in (``"degC"``, mlsysim's), where nothing converts it by a factor:
    the value is computed in kelvin and only shown on this scale (pint's own offset conversion).

    >>> point_unit("degC"), Q_(326.15, "K").to(point_unit("degC"))
    (<Unit('degree_Celsius')>, <Quantity(53.0, 'degree_Celsius')>)
    >>> point_unit("K")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.UnitError: 'K' is not an offset unit (a temperature scale such as degC): a result shows other units through result.plain
    """
    unit = lone_unscaled(text)
    if unit is None or unit.dimensionality != KELVIN.dimensionality:
        raise UnitError(f"{text!r} is not an offset unit (a temperature scale such as degC): a result shows other "
                        "units through result.plain")
    return unit


def lone_unscaled(text: str) -> pint.Unit | None:
    """The unit ``text`` names when it is one unit that does not convert by a factor, alone (``degC``, ``dB``);
    None when it converts by a factor; :class:`UnscaledUnitError` when such a unit is combined with others
    (``dB/m``).  What reads a value in it converts it with pint itself, never by a factor.

    >>> lone_unscaled("dB"), lone_unscaled("GB")
    (<Unit('decibel')>, None)
    """
    try:
        parse_unit(text)
    except UnscaledUnitError:
        unit = ureg.parse_units(text.strip())
        if len(unit._units) == 1 and next(iter(unit._units.values())) == 1:
            return unit
        raise
    return None


def scalable(q: pint.Quantity, text: str = "") -> pint.Quantity:
    """``q`` in units that convert by a factor: a temperature point in degC as its absolute temperature in kelvin,
    anything else that does not scale by a factor (a decibel, degC times something) refused by name.

    >>> scalable(Q_(25, "degC")), scalable(Q_(3, "delta_degC")), scalable(Q_(4, "B"))
    (<Quantity(298.15, 'kelvin')>, <Quantity(3, 'delta_degree_Celsius')>, <Quantity(4, 'byte')>)
    >>> scalable(Q_(3, "dB"))
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.UnscaledUnitError: unit 'decibel' does not convert by a factor (decibel): declare kelvin (a difference in K or delta_degC), give a temperature point alone ('25 degC', read as 298.15 K), and a gain as its ratio, not in dB
    """
    parts = _unscaled_parts(q.units)
    if not parts:
        return q
    if len(q.units._units) == 1 and q.units._units[parts[0]] == 1 and q.dimensionality == KELVIN.dimensionality:
        return q.to(KELVIN)   # pint's offset conversion: 25 degC is 298.15 K
    raise UnscaledUnitError(text or format(q.units, "D"), parts)


def parse_quantity(text: str, *, name: str = "value", points: bool = False) -> pint.Quantity:
    """Parse ``"<number> <unit>"`` (``"4 B"``, ``"80 GiB"``, ``"989 TFLOP/s"``).

    A temperature in degC is read as its absolute value in kelvin, unless ``points`` keeps it in degC (a
    constant shown as mlsysim shows it): ``parse_quantity("25 degC")`` is 298.15 K.

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
    except UnscaledUnitError:   # "25 degC": a temperature, read as its absolute value in kelvin
        try:
            point = Q_(number, ureg.parse_units(unit_text.strip()))
            kelvin = scalable(point, unit_text)
            return point if points else kelvin
        except UnitError as exc:
            raise exc.within(name) from None
    except UnitError as exc:
        raise exc.within(name) from None
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
    _refuse_unscaled(unit, str(unit))   # 1 degC would scale by 274.15: never a factor
    whole = Q_(1, unit).to_base_units().magnitude   # OverflowError for GB^1000/B^1000: callers name their input
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


def counted_part(unit: pint.Unit) -> dict[str, int | float]:
    """The counted kinds of a unit's dimension with their powers: ``{'[param]': -1}`` for ``B/param``.

    >>> counted_part(parse_unit("flop/(param*token)")), counted_part(parse_unit("GB"))
    ({'[param]': -1, '[token]': -1}, {})
    """
    return {d: p for d, p in unit.dimensionality.items() if d in _COUNTED_DIMS}


def is_counted_only(unit: pint.Unit) -> bool:
    """True when a unit's dimension is made of counted kinds alone (``sample``, ``token/sample``, ``1``).

    >>> is_counted_only(parse_unit("token/sample")), is_counted_only(parse_unit("count")), is_counted_only(parse_unit("B/param"))
    (True, True, False)
    """
    return all(d in _COUNTED_DIMS for d in unit.dimensionality)


_DIM_WORDS = {"[information]": ("byte", "bytes"), "[time]": ("second", "seconds"), "[flop]": ("operation", "operations"),
              "[currency]": ("dollar", "dollars"), "[energy]": ("joule", "joules"), "[mass]": ("kilogram", "kilograms"),
              "[length]": ("meter", "meters"), "[current]": ("ampere", "amperes"), "[temperature]": ("kelvin", "kelvins"),
              **{dim: (one, many) for dim, one, many in COUNTED_KINDS.values()}}


def dimension_text(unit: Any) -> str:
    """``unit``'s dimension as pint writes it, its dimensions in name order (pint's own order is the order they were
    first met in the process, so one message read two ways in two runs).

    >>> dimension_text(parse_unit("B*param/token")), dimension_text(parse_unit("param*B/token**2"))
    ('[information] * [param] / [token]', '[information] * [param] / [token] ** 2')
    """
    dims = sorted(getattr(unit, "dimensionality", unit).items())   # a unit, a quantity or a dimensionality

    def part(dim: str, power: float) -> str:
        return dim if power == 1 else f"{dim} ** {power:g}"

    num = [part(d, p) for d, p in dims if p > 0]
    den = [part(d, -p) for d, p in dims if p < 0]
    text = " * ".join(num) if num else ("1" if den else "")
    return text + "".join(f" / {d}" for d in den)


def describe_unit(unit: pint.Unit | str) -> str:
    """A unit's dimension in the field's words: ``bytes per parameter``, ``operations per parameter per token``.

    >>> describe_unit("B/param"), describe_unit("flop/(param*token)"), describe_unit("GB"), describe_unit("token/sample")
    ('bytes per parameter', 'operations per parameter per token', 'bytes', 'tokens per sample')
    >>> describe_unit("count"), describe_unit("B*token"), describe_unit("J")
    ('a plain number', 'bytes × tokens', 'joules')
    """
    if isinstance(unit, str):
        unit = parse_unit(unit)
    dims = dict(sorted(unit.dimensionality.items()))   # by name: pint keeps them in the order first met in the process
    if dims == {"[mass]": 1, "[length]": 2, "[time]": -2}:
        dims = {"[energy]": 1}
    elif dims.get("[mass]") == 1 and dims.get("[length]") == 2 and dims.get("[time]", 0) <= -2:
        dims = {"[energy]": 1, **({"[time]": dims["[time]"] + 2} if dims["[time]"] != -2 else {})}

    def word(dim: str, power: float, plural: bool) -> str:
        one, many = _DIM_WORDS.get(dim, (dim, dim))
        text = many if plural else one
        return text if power == 1 else f"{text}^{power:g}"

    num = [word(d, p, True) for d, p in dims.items() if p > 0]
    den = [word(d, -p, False) for d, p in dims.items() if p < 0]
    if not num and not den:
        return "a plain number"
    text = " × ".join(num) if num else "1"
    return text + "".join(f" per {d}" for d in den)


def carry_in(q: Any) -> Any:
    """A Quantity of another pint registry (the user's, mlsysim's) as one of ours, through its unit text.

    Anything else is returned as it is.  The registry stays private (pint's application registry is
    never replaced), so a user's ``pint.Quantity("80 GB")`` comes in here.  mlsysim's ``param`` is
    our ``param``; a unit we do not know raises :class:`~mlsysim_symbolic.errors.UnitError`.

    >>> user = pint.UnitRegistry()
    >>> carry_in(user.Quantity(80, "gigabyte")), carry_in(user.Quantity(3, "dimensionless"))
    (<Quantity(80, 'gigabyte')>, <Quantity(3, 'dimensionless')>)
    >>> pretty = pint.UnitRegistry()
    >>> pretty.formatter.default_format = "~P"   # pretty text ("B/s²", mlsysim's) is read through pint's plain form
    >>> carry_in(pretty.Quantity(100, "byte / second ** 2"))
    <Quantity(100, 'byte / second ** 2')>
    """
    if not isinstance(q, pint.Quantity) or q._REGISTRY is ureg:
        return q
    text = str(q.units)
    try:
        unit = ureg.dimensionless if text in ("", "dimensionless") else parse_unit(text.replace(" ", ""))
    except UnitError:
        try:   # the registry's own format may be pretty ("USD/d²", mlsysim's): its unit names in pint's plain form
            unit = parse_unit(format(q.units, "D"))
        except UnscaledUnitError:   # mlsysim's Q_(155, degC): its absolute temperature in kelvin
            return scalable(Q_(q.magnitude, ureg.parse_units(format(q.units, "D"))), text)
        except UnitError:
            raise UnitError(f"unit {text} (from another pint registry) is not known to mlsysim_symbolic") from None
    return Q_(q.magnitude, unit)


def uncounted(q: pint.Quantity) -> pint.Quantity:
    """``q`` with its counted kinds dropped: the value a world without them (mlsysim's) writes.

    ``6 GB/sample`` is ``6 GB`` there, ``512 token/request`` is ``512``.  The magnitude is kept
    (a prefixed count such as ``kparam`` is scaled to ones).

    >>> uncounted(Q_(6, "GB/sample")), uncounted(Q_(512, "token/request")), uncounted(Q_(2, "kparam"))
    (<Quantity(6, 'gigabyte')>, <Quantity(512, 'dimensionless')>, <Quantity(2000.0, 'dimensionless')>)
    """
    unit = ureg.dimensionless
    factor: Any = 1
    for name, power in q.units._units.items():
        one = ureg.Unit(name)
        if one.dimensionality and is_counted_only(one):
            factor = factor * Q_(1, one).to_base_units().magnitude ** power
        else:
            unit = unit * one ** power
    return Q_(q.magnitude * factor if factor != 1 else q.magnitude, unit)


def dimensionality(unit: pint.Unit | str) -> pint.util.UnitsContainer:
    """The dimensionality of a unit, e.g. ``{'[information]': 1, '[time]': -1}``."""
    if isinstance(unit, str):
        unit = parse_unit(unit)
    return unit.dimensionality


def format_dimensionality(dim: Any) -> str:
    """Human text for a dimensionality: ``[information] / [time]`` or ``dimensionless``."""
    return dimension_text(dim) or "dimensionless"


def is_finite_number(value: Any) -> bool:
    """True for an int or float that is neither NaN nor infinite."""
    try:
        return math.isfinite(value)
    except TypeError:
        return False


def relabel(value: pint.Quantity, source: pint.Unit, target: pint.Unit) -> pint.Quantity:
    """``value``, if in ``source``'s dimension and not ``target``'s, as the same number in ``target``'s: the one rule
    between a counted unit and the unit it leaves in (``6 GB`` and ``6 GB/sample``), its prefix kept; any other
    value as it is.

    >>> relabel(Q_(6, "GB"), parse_unit("B"), parse_unit("B/sample"))
    <Quantity(6, 'gigabyte / sample')>
    """
    if value.dimensionality == source.dimensionality != target.dimensionality:
        return Q_(value.magnitude, value.units * (target / source))
    return value


def output_bound(value: Any, unit: pint.Unit, *, output: str, name: str = "target",
                 inner: pint.Unit | None = None) -> pint.Quantity:
    """A target, limit or bound for ``output`` (in ``unit``, the unit its values leave in) as a finite Quantity in
    ``unit``'s dimension.  A value in the equation's ``inner`` unit (counted kinds included: ``6 GB/sample`` for a
    per-example size returned in B) is the same number in ``unit``.

    One rule for numbers without units, in Python as on the command line: text is read as a quantity; a bare
    number is taken only for a dimensionless output (for any other it would silently mean the declared unit, or
    bytes, or seconds), else a :class:`~mlsysim_symbolic.errors.UnitError` names the output and its unit.

    >>> output_bound("80 GB", parse_unit("B"), output="per_batch", name="limit")
    <Quantity(80, 'gigabyte')>
    >>> output_bound(0.5, parse_unit("1"), output="goodput")
    <Quantity(0.5, 'dimensionless')>
    >>> output_bound("6 GB/sample", parse_unit("B"), output="per_example", inner=parse_unit("B/sample"))
    <Quantity(6, 'gigabyte')>
    >>> output_bound(80, parse_unit("B"), output="per_batch", name="limit")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.UnitError: limit: 80 has no unit, but per_batch is in B (bytes): give one, e.g. '80 B' ...
    """
    shown = f"{unit:~C} ({describe_unit(unit)})"
    if isinstance(value, str):
        value = parse_quantity(value, name=name)
    value = carry_in(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not unit.dimensionless:
            raise UnitError(f"{name}: {value!r} has no unit, but {output} is in {shown}: give one, e.g. "
                            f"'{value!r} {unit:~C}' (only a dimensionless output takes a bare number)")
        value = Q_(value, unit)
    if not isinstance(value, pint.Quantity):
        raise InputError(f"{name}: expected a quantity such as '80 GB' for {output}, got {value!r}")
    if inner is not None:
        value = relabel(value, inner, unit)   # 6 GB/sample -> 6 GB
    magnitude = value.magnitude
    if isinstance(magnitude, bool) or not isinstance(magnitude, (int, float)) or not math.isfinite(magnitude):
        raise InputError(f"{name}: expected a finite quantity such as '80 GB' for {output}, got {value!r}")
    if value.dimensionality != unit.dimensionality:
        raise DimensionalityError(name, f"{value:~C} ({format_dimensionality(value.dimensionality) if value.dimensionality else 'dimensionless'})",
                                  shown, what=output)
    return value
