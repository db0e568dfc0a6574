"""mlsysim 0.3.0's constants and unit names, from this package's own registry.

``derivations/constants/mlsysim.toml`` declares them as data: each unit name with the unit of
``units.txt`` it names, each constant with its value, meaning and source.  The package's top
level reads them here on first use (``mlsysim_symbolic.BYTES_FP16``, ``mlsysim_symbolic.GB``), so
importing the package reads nothing.

>>> from mlsysim_symbolic.constants import constant, unit
>>> constant("BYTES_FP16"), constant("SEC_PER_HOUR"), unit("GB")
(<Quantity(2, 'byte')>, 3600, <Unit('gigabyte')>)
>>> constant("PRECISION_MAP")["bf16"], constant("FP8_FORMAT_BITS")["e4m3"]
(<Quantity(2, 'byte')>, (4, 3))
>>> constant("INSULATION_CLASS_F_LIMIT"), constant("INSULATION_CLASS_F_LIMIT").to("K")
(<Quantity(155.0, 'degree_Celsius')>, <Quantity(428.15, 'kelvin')>)

Parameters and tokens are counted kinds here (mlsysim's are plain counts), so mlsysim's
``(70 * Bparam * BYTES_FP16).to(GB)`` is refused as it stands (bytes times parameters is not bytes);
:func:`~mlsysim_symbolic.units.uncounted` reads it as mlsysim does:

>>> from mlsysim_symbolic.units import uncounted
>>> uncounted(70 * unit("Bparam") * constant("BYTES_FP16")).to("GB")
<Quantity(140.0, 'gigabyte')>
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

import pint

from .errors import DerivationError, InputError, InputTypeError, UnknownNameError, UnscaledUnitError
from .paths import derivations_dir
from .units import Q_, parse_quantity, parse_unit, ureg

#: Q_ and ureg are re-exported: mlsysim.core.units (which :mod:`.shim` answers with this module) has them.
__all__ = ["Constant", "Q_", "constant", "constant_names", "constants", "normalize_precision", "resolve_precision", "unit", "unit_names", "ureg"]


@dataclass(frozen=True)
class Constant:
    """One constant: its name, value (a Quantity, a number, a tuple or a read-only mapping), meaning and source."""

    name: str
    value: Any
    meaning: str
    source: str


def _value(raw: Any, where: str) -> Any:
    """A declared value: text is a quantity (the package's own parser, never ``eval``), a list a tuple, a table a
    read-only mapping of values; numbers stay as written (an int stays an int)."""
    if isinstance(raw, bool):
        raise DerivationError(f"{where}: a constant is a number, a quantity or a table of them, not {raw!r}")
    if isinstance(raw, str):
        return parse_quantity(raw, name=where, points=True)
    if isinstance(raw, list):
        return tuple(_value(item, f"{where}[{i}]") for i, item in enumerate(raw))
    if isinstance(raw, dict):
        return MappingProxyType({key: _value(item, f"{where}.{key}") for key, item in raw.items()})
    if isinstance(raw, (int, float)):
        return raw
    raise DerivationError(f"{where}: a constant is a number, a quantity or a table of them, not {type(raw).__name__}")


@cache
def _table() -> tuple[Mapping[str, str], Mapping[str, Constant]]:
    path = derivations_dir() / "constants" / "mlsysim.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DerivationError(f"{path}: {exc}") from None
    units = data.get("units", {})
    for name, text in units.items():
        if not isinstance(text, str):
            raise DerivationError(f"{path}: units.{name} must be a unit name (text), not {text!r}")
    table = {}
    for name, entry in data.get("constants", {}).items():
        missing = {"value", "meaning", "source"} - set(entry)
        if missing:
            raise DerivationError(f"{path}: constants.{name} lacks {', '.join(sorted(missing))}")
        table[name] = Constant(name, _value(entry["value"], f"constants.{name}"), entry["meaning"], entry["source"])
    return MappingProxyType(dict(units)), MappingProxyType(table)


def unit_names() -> frozenset[str]:
    """mlsysim's exported unit names (``GB``, ``Bparam``, ``kWh`` ...)."""
    return frozenset(_table()[0])


def constant_names() -> frozenset[str]:
    """mlsysim's exported constants (``BYTES_FP16``, ``SEC_PER_HOUR``, ``PRECISION_MAP`` ...)."""
    return frozenset(_table()[1])


def constants() -> Mapping[str, Constant]:
    """Every constant with its meaning and source (read-only)."""
    return _table()[1]


def unit(name: str) -> pint.Unit:
    """The unit of this package's registry that mlsysim's unit name ``name`` names."""
    units = _table()[0]
    if name not in units:
        raise UnknownNameError("unit name", name, sorted(units))
    return _unit(units[name])


@cache
def _unit(text: str) -> pint.Unit:
    try:
        return parse_unit(text)
    except UnscaledUnitError:   # degC and dB exist as names (a value in them is read at the boundary), never in equations
        return ureg.Unit(text)


def constant(name: str) -> Any:
    """The value of mlsysim's constant ``name`` (a Quantity of this package's registry, a number, a tuple or a
    read-only mapping)."""
    table = _table()[1]
    if name not in table:
        raise UnknownNameError("constant", name, sorted(table))
    return table[name].value


def normalize_precision(precision: str) -> str:
    """mlsysim's ``normalize_precision``: the precision's key (lower case), refused when it is none of mlsysim's.

    >>> normalize_precision("BF16")
    'bf16'
    """
    table = constant("PRECISION_MAP")
    if not isinstance(precision, str):
        raise InputTypeError(f"precision must be a string, got {type(precision).__name__}")
    key = precision.lower()
    if key not in table:
        raise InputError(f"precision {precision!r} is not supported. Supported precision values: {', '.join(sorted(table))}")
    return key


def resolve_precision(precision: str) -> tuple[str, pint.Quantity]:
    """mlsysim's ``mlsysim.core.units.resolve_precision``: the precision's key (lower case) and its bytes per element,
    for mlsysim's precisions alone (its ``PRECISION_MAP``: ``fp64`` is none of them).

    >>> resolve_precision("FP16")
    ('fp16', <Quantity(2, 'byte')>)
    >>> resolve_precision("fp64")
    Traceback (most recent call last):
    mlsysim_symbolic.errors.InputError: precision 'fp64' is not supported. Supported precision values: bf16, fp16, fp32, fp8, int4, int8, tf32
    """
    key = normalize_precision(precision)
    return key, constant("PRECISION_MAP")[key]


def __getattr__(name: str) -> Any:
    """mlsysim's constants and unit names as attributes (``BYTES_FP16``, ``GB``), as its ``mlsysim.core.units`` has
    them (:mod:`mlsysim_symbolic.shim` answers that path with this module).

    >>> from mlsysim_symbolic.constants import GB, BYTES_FP16
    >>> (80 * GB), BYTES_FP16
    (<Quantity(80, 'gigabyte')>, <Quantity(2, 'byte')>)
    """
    if not name.startswith("__"):
        if name in constant_names():
            return constant(name)
        if name in unit_names():
            return unit(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
