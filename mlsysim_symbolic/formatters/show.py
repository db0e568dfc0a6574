"""mlsysim's tutorial display helpers (``mlsysim.show``): a key-value block, an aligned table, a banner, printed.

A value is shown as mlsysim 0.3.0 shows it: a Quantity with its magnitude to the digits :data:`QUANTITY_DIGITS`
gives for its size (a whole number of 1 or more with thousands separators) and its unit's short form; a float to
the digits :data:`FLOAT_DIGITS` gives; anything else as its ``str``.

>>> table(["GPU", "TTFT (ms)", "Verdict"], [["A100", 12.3, "ok"], ["H100", 6.1, "ok"]])
GPU   TTFT (ms)  Verdict
────────────────────────
A100      12.30       ok
H100       6.10       ok
>>> from mlsysim_symbolic.units import Q_
>>> info("Memory", Weights=Q_(16.06, "GB"), KV_cache=Q_(2048, "MB"), Share=0.1875)
── Memory ──────────────────────────────────
Weights:   16.06 GB
KV cache:  2,048 MB
Share:     0.1875
>>> banner("Domain: Node")
<BLANKLINE>
=== Domain: Node ===
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pint

__all__ = ["FLOAT_DIGITS", "QUANTITY_DIGITS", "banner", "info", "show_value", "table"]

#: A Quantity's magnitude: (least absolute size, format) tried in order; a whole magnitude of 1 or more is written
#: as an integer with separators before these are tried; below the last size, ``.2e``.
QUANTITY_DIGITS: tuple[tuple[float, str], ...] = ((100, ",.1f"), (1, ".2f"), (0.01, ".3f"), (0.0, ".2e"))
#: A float: (least absolute size, format) tried in order.
FLOAT_DIGITS: tuple[tuple[float, str], ...] = ((1e6, ",.0f"), (100, ",.1f"), (1, ".2f"), (0.0, ".4f"))
#: The width a title's rule fills (the title included), as mlsysim's.
TITLE_WIDTH = 44
#: Column alignment codes (mlsysim's: ``<`` left, ``>`` right, ``^`` centred) -> the str method that pads.
ALIGN = {"<": str.ljust, ">": str.rjust, "^": str.center}


def _digits(magnitude: float, table: tuple[tuple[float, str], ...]) -> str:
    """The format of the first size ``magnitude`` reaches; the last row's for a NaN (which reaches none)."""
    return next((fmt for least, fmt in table if abs(magnitude) >= least), table[-1][1])


def show_value(value: Any) -> str:
    """``value`` as mlsysim's display helpers write it.

    >>> from mlsysim_symbolic.units import Q_
    >>> show_value(Q_(80, "GB")), show_value(Q_(0.25, "ms")), show_value(Q_(3e-4, "s")), show_value(2.5e7), show_value(7)
    ('80 GB', '0.250 ms', '3.00e-04 s', '25,000,000', '7')
    """
    if isinstance(value, pint.Quantity):
        magnitude = value.magnitude
        if magnitude == int(magnitude) and abs(magnitude) >= 1:
            number = f"{int(magnitude):,}"
        else:
            number = format(magnitude, _digits(magnitude, QUANTITY_DIGITS))
        return f"{number} {value.units:~P}"
    if isinstance(value, float):
        return format(value, _digits(value, FLOAT_DIGITS))
    return str(value)


def info(title: str | None = None, **fields: Any) -> None:
    """Print a titled block of ``Label: value`` lines (an underscore in a key prints as a space), labels aligned."""
    if title:
        header = f"── {title} "
        print(header + "─" * max(0, TITLE_WIDTH - len(header)))
    if not fields:
        return
    shown = {key.replace("_", " "): value for key, value in fields.items()}
    width = max(map(len, shown)) + 1
    for key, value in shown.items():
        print(f"{key + ':':<{width}}  {show_value(value)}")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], alignments: str | None = None) -> None:
    """Print ``rows`` under ``headers``, columns two spaces apart, the first left-aligned and the others right-aligned
    unless ``alignments`` gives a code per column; nothing for no rows."""
    if not rows:
        return
    n = len(headers)
    codes = (alignments or "<" + ">" * (n - 1)).ljust(n, ">")
    cells = [[show_value(v) for v in row] for row in rows]
    widths = [max([len(h), *(len(row[i]) for row in cells if i < len(row))]) for i, h in enumerate(headers)]
    line = "  ".join(ALIGN.get(codes[i], str.rjust)(h, widths[i]) for i, h in enumerate(headers))
    print(line)
    print("─" * len(line))
    for row in cells:
        print("  ".join(ALIGN.get(codes[i], str.rjust)(row[i] if i < len(row) else "", widths[i]) for i in range(n)))


def banner(text: str) -> None:
    """Print ``=== text ===`` after a blank line."""
    print(f"\n=== {text} ===")
