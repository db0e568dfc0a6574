r"""siunitx units: ``\qty{1.536}{\tera\byte}``, ``\unit{\pico\joule\per\bit}``, ``\num{5.88e23}``.

SI units and prefixes map to siunitx's own macros (``\tera\byte``, ``\gibi\byte``,
``\milli\second``, ``\quetta`` and ``\ronna`` from siunitx 3.2); the package's non-SI
units (``flop``, ``param``, ``token``, ``USD`` ...) map to macros that :func:`preamble`
declares with ``\DeclareSIUnit``; denominators use ``\per``; anything else falls back
to escaped ``\text{..}`` inside the unit.

>>> from mlsysim_symbolic.units import Q_
>>> style = SiunitxStyle()
>>> print(style.quantity(Q_(1.536, "TB")), style.quantity(Q_(989, "TFLOP/s")), style.quantity(Q_(4, "B/param"), drop_counts=True))
\qty{1.536}{\tera\byte} \qty{989}{\tera\flop\per\second} \qty{4}{\byte}
>>> print(style.quantity(Q_(1.5e9, "param"), drop_counts=True), siunitx_unit("GiB/s"))
\num{1.5e9} \gibi\byte\per\second
"""

from __future__ import annotations

from typing import Any

from ..units import ureg
from .base import UnitStyle
from .numbers import split_number
from .text import escape_text
from .units import COUNT_UNITS, as_unit, unit_items

__all__ = ["DECLARED_UNITS", "PREFIX_MACROS", "SI_MACROS", "SiunitxStyle", "preamble", "siunitx_number", "siunitx_unit"]

#: pint prefix name -> siunitx prefix macro.
PREFIX_MACROS: dict[str, str] = {
    "quecto": r"\quecto", "ronto": r"\ronto", "yocto": r"\yocto", "zepto": r"\zepto",
    "atto": r"\atto", "femto": r"\femto", "pico": r"\pico", "nano": r"\nano", "micro": r"\micro",
    "milli": r"\milli", "centi": r"\centi", "kilo": r"\kilo", "mega": r"\mega", "giga": r"\giga",
    "tera": r"\tera", "peta": r"\peta", "exa": r"\exa", "zetta": r"\zetta", "yotta": r"\yotta",
    "ronna": r"\ronna", "quetta": r"\quetta",
    "kibi": r"\kibi", "mebi": r"\mebi", "gibi": r"\gibi", "tebi": r"\tebi", "pebi": r"\pebi", "exbi": r"\exbi",
}

#: pint unit name -> siunitx's built-in unit macro(s).
SI_MACROS: dict[str, str] = {
    "byte": r"\byte", "bit": r"\bit", "second": r"\second", "minute": r"\minute", "hour": r"\hour",
    "day": r"\day", "watt": r"\watt", "joule": r"\joule", "hertz": r"\hertz", "meter": r"\meter",
    "gram": r"\gram", "kilogram": r"\kilogram", "tonne": r"\tonne", "ampere": r"\ampere",
    "kelvin": r"\kelvin", "volt": r"\volt", "percent": r"\percent", "watt_hour": r"\watt\hour",
    "newton": r"\newton", "ohm": r"\ohm", "henry": r"\henry", "radian": r"\radian", "degree": r"\degree",
}

#: pint unit name -> (macro, printed text): units the document preamble declares with ``\DeclareSIUnit``.
DECLARED_UNITS: dict[str, tuple[str, str]] = {
    "flop": (r"\flop", "FLOP"),
    "param": (r"\param", "param"),
    "token": (r"\token", "token"),
    "sample": (r"\sample", "sample"),
    "request": (r"\request", "request"),
    "step": (r"\step", "step"),
    "count": (r"\countunit", "count"),
    "dollar": (r"\USD", "USD"),
    "week": (r"\week", "wk"),
    "year": (r"\yr", "yr"),
    "ppm": (r"\ppm", "ppm"),
    "bps": (r"\bps", "bps"),
    "OPS": (r"\OPS", "OPS"),
    "TOPS": (r"\TOPS", "TOPS"),
}


def preamble(*, per_mode: str = "symbol") -> str:
    r"""The preamble lines a document needs for siunitx output: siunitx (3.2 or later) and its ``\DeclareSIUnit`` macros.

    >>> text = preamble()
    >>> r"\usepackage{siunitx}" in text and r"\DeclareSIUnit{\flop}{FLOP}" in text
    True
    """
    lines = [r"\usepackage{siunitx}[2022/11/01]", rf"\sisetup{{per-mode={per_mode}}}"]
    lines += [rf"\DeclareSIUnit{{{macro}}}{{{text}}}" for macro, text in DECLARED_UNITS.values()]
    return "\n".join(lines)


def _name_macro(name: str) -> str:
    """One pint unit name (possibly prefixed, e.g. ``gigabyte``) as siunitx macros; ``\\text{..}`` if unknown."""
    if name in SI_MACROS:
        return SI_MACROS[name]
    if name in DECLARED_UNITS:
        return DECLARED_UNITS[name][0]
    try:
        candidates = ureg.parse_unit_name(name)
    except Exception:  # pint raises several types for unparsable names
        candidates = ()
    for prefix, base, suffix in candidates:
        if suffix or (prefix and prefix not in PREFIX_MACROS):
            continue
        body = SI_MACROS.get(base) or (DECLARED_UNITS[base][0] if base in DECLARED_UNITS else None)
        if body is not None:
            return (PREFIX_MACROS[prefix] if prefix else "") + body
    try:
        symbol = ureg.get_symbol(name)
    except Exception:
        symbol = name
    return rf"\text{{{escape_text(symbol)}}}"


def _power(p: float) -> str:
    return "" if p == 1 else rf"\tothe{{{p:g}}}"


def siunitx_unit(unit: Any, *, drop_counts: bool = False) -> str:
    r"""A pint unit (or unit text) as the unit argument of ``\qty``/``\unit``: ``\tera\byte\per\second``.

    Empty for a dimensionless unit.

    >>> siunitx_unit("kWh"), siunitx_unit("1/h"), siunitx_unit(""), siunitx_unit("QB")
    ('\\kilo\\watt\\hour', '\\per\\hour', '', '\\quetta\\byte')
    """
    items = [(n, p) for n, p in unit_items(as_unit(unit)) if not (drop_counts and n in COUNT_UNITS)]
    num = "".join(_name_macro(n) + _power(p) for n, p in items if p > 0)
    den = "".join(r"\per" + _name_macro(n) + _power(-p) for n, p in items if p < 0)
    return num + den


def siunitx_number(x: Any, sig: int = 4, positional: tuple[float, float] = (1e-3, 1e6)) -> str:
    r"""The number argument of ``\num``/``\qty`` with ``sig`` significant figures: ``1.536``, ``1.5e9``.

    >>> siunitx_number(1.536e12), siunitx_number(256), siunitx_number(0.0296512)
    ('1.536e12', '256', '0.02965')
    """
    mantissa, exponent = split_number(x, sig, positional)
    return mantissa if exponent is None else f"{mantissa}e{exponent}"


class SiunitxStyle(UnitStyle):
    """Numbers as ``\\num{1.5e9}``, units as ``\\unit{\\giga\\byte}``, quantities as ``\\qty{..}{..}``."""

    def number_text(self, x: Any) -> str:
        return siunitx_number(x, self.config.sig, self.config.positional)

    def unit_text(self, unit: Any) -> str:
        return siunitx_unit(unit)

    def wrap_unit(self, unit: str) -> str:
        return rf"\unit{{{unit}}}"

    def join(self, number: str, unit: str) -> str:
        return rf"\qty{{{number}}}{{{unit}}}"

    def bare(self, number: str) -> str:
        return rf"\num{{{number}}}"
