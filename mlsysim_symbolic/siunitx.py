"""siunitx output: pint units and quantities as ``\\qty{..}{..}``, ``\\unit{..}`` and ``\\num{..}``.

SI units and prefixes map to siunitx's own macros (``\\tera\\byte``, ``\\gibi\\byte``,
``\\milli\\second``); the package's non-SI units (``flop``, ``param``, ``token``,
``USD`` ...) map to macros that :func:`preamble` declares with ``\\DeclareSIUnit``
(``\\flop``, ``\\param`` ...); denominators use ``\\per``; anything else falls back
to ``\\text{..}`` inside the unit.

>>> from mlsysim_symbolic.units import Q_
>>> siunitx_quantity(Q_(1.536, "TB"))
'\\\\qty{1.536}{\\\\tera\\\\byte}'
>>> print(siunitx_quantity(Q_(989, "TFLOP/s")))
\\qty{989}{\\tera\\flop\\per\\second}
>>> print(siunitx_quantity(Q_(4, "B/param"), drop_counts=True))
\\qty{4}{\\byte}
>>> print(siunitx_quantity(Q_(1.5e9, "param"), drop_counts=True))
\\num{1.5e9}
>>> print(siunitx_unit("GiB/s"))
\\gibi\\byte\\per\\second
"""

from __future__ import annotations

import math
from typing import Any

import pint

from .units import Q_, ureg

#: pint prefix name -> siunitx prefix macro.
PREFIX_MACROS: dict[str, str] = {
    "atto": r"\atto", "femto": r"\femto", "pico": r"\pico", "nano": r"\nano", "micro": r"\micro",
    "milli": r"\milli", "centi": r"\centi", "kilo": r"\kilo", "mega": r"\mega", "giga": r"\giga",
    "tera": r"\tera", "peta": r"\peta", "exa": r"\exa", "zetta": r"\zetta", "yotta": r"\yotta",
    "kibi": r"\kibi", "mebi": r"\mebi", "gibi": r"\gibi", "tebi": r"\tebi", "pebi": r"\pebi", "exbi": r"\exbi",
}

#: pint unit name -> siunitx's built-in unit macro(s).
SI_MACROS: dict[str, str] = {
    "byte": r"\byte", "bit": r"\bit", "second": r"\second", "minute": r"\minute", "hour": r"\hour",
    "day": r"\day", "watt": r"\watt", "joule": r"\joule", "hertz": r"\hertz", "meter": r"\meter",
    "gram": r"\gram", "kilogram": r"\kilogram", "tonne": r"\tonne", "ampere": r"\ampere",
    "kelvin": r"\kelvin", "volt": r"\volt", "percent": r"\percent", "watt_hour": r"\watt\hour",
}

#: pint unit name -> (macro, printed text): units the document preamble declares with ``\\DeclareSIUnit``.
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

#: Dimensionless count units that a substituted line leaves out (4 B/param shows as 4 B).
COUNT_UNITS = frozenset({"count", "param", "token", "sample", "request", "step"})


def preamble(*, per_mode: str = "symbol") -> str:
    r"""The preamble lines a document needs for this module's output: siunitx and its ``\DeclareSIUnit`` macros.

    >>> text = preamble()
    >>> r"\usepackage{siunitx}" in text and r"\DeclareSIUnit{\flop}{FLOP}" in text
    True
    """
    lines = [r"\usepackage{siunitx}", rf"\sisetup{{per-mode={per_mode}}}"]
    lines += [rf"\DeclareSIUnit{{{macro}}}{{{text}}}" for macro, text in DECLARED_UNITS.values()]
    return "\n".join(lines)


def _escape(text: str) -> str:
    return text.replace("\\", r"\textbackslash{}").replace("_", r"\_").replace("%", r"\%").replace("&", r"\&").replace("#", r"\#")


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
        if suffix:
            continue
        if prefix and prefix not in PREFIX_MACROS:
            continue
        body = SI_MACROS.get(base) or (DECLARED_UNITS[base][0] if base in DECLARED_UNITS else None)
        if body is not None:
            return (PREFIX_MACROS[prefix] if prefix else "") + body
    try:
        symbol = ureg.get_symbol(name)
    except Exception:
        symbol = name
    return rf"\text{{{_escape(symbol)}}}"


def _power(p: float) -> str:
    return "" if p == 1 else rf"\tothe{{{p:g}}}"


def siunitx_unit(unit: Any, *, drop_counts: bool = False) -> str:
    r"""A pint unit (or unit text) as the unit argument of ``\qty``/``\unit``: ``\tera\byte\per\second``.

    Empty for a dimensionless unit.

    >>> siunitx_unit("kWh"), siunitx_unit("1/h"), siunitx_unit("")
    ('\\kilo\\watt\\hour', '\\per\\hour', '')
    """
    if isinstance(unit, str):
        unit = Q_(1, unit).units
    items = [(n, p) for n, p in unit._units.items() if not (drop_counts and n in COUNT_UNITS)]
    num = "".join(_name_macro(n) + _power(p) for n, p in items if p > 0)
    den = "".join(r"\per" + _name_macro(n) + _power(-p) for n, p in items if p < 0)
    return num + den


def siunitx_number(x: Any, sig: int = 4) -> str:
    r"""The number argument of ``\num``/``\qty`` with ``sig`` significant figures: ``1.536``, ``1.5e9``.

    >>> siunitx_number(1.536e12), siunitx_number(256), siunitx_number(0.0296512)
    ('1.536e12', '256', '0.02965')
    """
    from .latex import split_number

    mantissa, exponent = split_number(x, sig)
    return mantissa if exponent is None else f"{mantissa}e{exponent}"


def siunitx_quantity(q: pint.Quantity, sig: int = 4, *, drop_counts: bool = False) -> str:
    r"""A quantity as ``\qty{1.536}{\tera\byte}`` (``\num{..}`` when it has no unit left).

    Infinite and NaN magnitudes print as plain ``\infty`` / ``\mathrm{NaN}`` (siunitx cannot parse them).

    >>> siunitx_quantity(Q_(float("inf"), "B"))
    '\\infty'
    """
    magnitude = q.magnitude
    try:
        finite = math.isfinite(float(magnitude))
    except (TypeError, ValueError):
        finite = True
    if not finite:
        value = float(magnitude)
        return r"\mathrm{NaN}" if math.isnan(value) else (r"\infty" if value > 0 else r"-\infty")
    unit = siunitx_unit(q.units, drop_counts=drop_counts)
    number = siunitx_number(magnitude, sig)
    return rf"\qty{{{number}}}{{{unit}}}" if unit else rf"\num{{{number}}}"


__all__ = ["DECLARED_UNITS", "PREFIX_MACROS", "SI_MACROS", "preamble", "siunitx_number", "siunitx_quantity", "siunitx_unit"]
