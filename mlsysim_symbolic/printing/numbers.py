"""Numbers: significant figures, and positional or scientific notation.

>>> split_number(5.88e23, 3), format_number(5.88e23, 3), format_number(6.0e21)
(('5.88', 23), '5.88 \\\\times 10^{23}', '6 \\\\times 10^{21}')
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["POSITIONAL", "format_number", "split_number"]

#: Magnitudes printed positionally by default (``LatexConfig.positional``): from 10^-3 up to 10^6.
POSITIONAL = (1e-3, 1e6)


def _plain(x: Any) -> Any:
    if isinstance(x, bool):
        return int(x)
    if hasattr(x, "item") and not isinstance(x, (int, float)):
        return x.item()   # numpy scalars
    return x


def split_number(x: Any, sig: int = 4, positional: tuple[float, float] = POSITIONAL) -> tuple[str, int | None]:
    """``x`` rounded to ``sig`` significant figures as (mantissa text, power of ten or None).

    Integers below ``positional[1]`` are exact; other numbers in ``positional`` print positionally.

    >>> split_number(1.536e12), split_number(256), split_number(0.0296512), split_number(9.9996e8)
    (('1.536', 12), ('256', None), ('0.02965', None), ('1', 9))
    >>> split_number(1.5e7, positional=(1e-3, 1e9))
    ('15000000', None)
    """
    x = _plain(x)
    low, high = positional
    if isinstance(x, int) and abs(x) < high:
        return str(x), None
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return ("0" if x == 0 else ("nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))), None
    rounded = float(f"{x:.{sig - 1}e}")
    exponent = math.floor(math.log10(abs(rounded)))
    if low <= abs(rounded) < high:
        text = f"{rounded:.{sig}g}"
        if "e" in text:
            text = f"{rounded:.{max(sig - exponent - 1, 0)}f}"
        return text, None
    mantissa = f"{rounded / 10**exponent:.{sig}g}"
    if "e" in mantissa or float(mantissa) >= 10:
        exponent += 1
        mantissa = f"{rounded / 10**exponent:.{sig}g}"
    return mantissa, exponent


def format_number(x: Any, sig: int = 4, positional: tuple[float, float] = POSITIONAL) -> str:
    """A number in LaTeX with ``sig`` significant figures: ``256``, ``1.5 \\times 10^{9}``.

    >>> format_number(1.5e9), format_number(3e-7, 2), format_number(1e12), format_number(float("inf"))
    ('1.5 \\\\times 10^{9}', '3 \\\\times 10^{-7}', '10^{12}', '\\\\infty')
    """
    mantissa, exponent = split_number(x, sig, positional)
    if mantissa in ("inf", "-inf"):
        return r"\infty" if mantissa == "inf" else r"-\infty"
    if mantissa == "nan":
        return r"\mathrm{NaN}"
    if exponent is None:
        return mantissa
    if mantissa in ("1", "-1"):
        return ("-" if mantissa == "-1" else "") + f"10^{{{exponent}}}"
    return f"{mantissa} \\times 10^{{{exponent}}}"
