"""The text after a number: a unit label and a ``/denominator``.

>>> denominator("month", formatter="fmt_usd"), quantity_suffix(display_unit("GB", formatter="f"), per="s", formatter="f")
('/month', ' GB/s')
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..errors import FormatError
from ..units import ureg
from .inputs import DisplayUnit, display_unit
from .labels import text_atom

__all__ = ["denominator", "quantity_suffix"]

#: The currencies (the dollar, the euro): shown by fmt_usd / fmt_eur, never as a unit suffix.
_CURRENCIES = (ureg.dollar.dimensionality, ureg.EUR.dimensionality)


def denominator(per: Any, *, formatter: str, allowed: Collection[str] | None = None) -> str:
    """The ``/unit`` text of ``per``: a word (given without its slash) or a unit (its label); ``allowed`` limits it.

    >>> denominator(None, formatter="fmt_qty"), denominator("token", formatter="fmt_qty")
    ('', '/token')
    >>> denominator("/GB", formatter="fmt_usd")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FormatError: fmt_usd: per is given without its leading '/', got '/GB'
    """
    if per is None:
        return ""
    if isinstance(per, str):
        word = text_atom(per, formatter=formatter, what="per")
        if word.startswith("/"):
            raise FormatError(formatter, f"per is given without its leading '/', got {per!r}")
    else:
        word = display_unit(per, formatter=formatter).label
    if allowed is not None and word not in allowed:
        raise FormatError(formatter, f"per must be one of {sorted(allowed)}, got {word!r}")
    return f"/{word}"


def quantity_suffix(unit: DisplayUnit, *, formatter: str, unit_label: str | None = None, per: Any = None,
                    extra_suffix: str = "") -> str:
    """`` label/denominator`` + ``extra_suffix``: ``unit_label`` (checked) replaces the unit's label; ``per`` and
    ``extra_suffix`` are not given together.

    >>> quantity_suffix(display_unit("N*m", formatter="f"), unit_label="N·m", formatter="f")
    ' N·m'
    """
    if extra_suffix and per is not None:
        raise FormatError(formatter, "give extra_suffix= or per=, not both")
    if unit.unit.dimensionality in _CURRENCIES:
        raise FormatError(formatter, "currency is shown by fmt_usd (its dollar sign escaped for prose) or fmt_eur, "
                                     "not a unit suffix")
    label = unit.label if unit_label is None else text_atom(unit_label, formatter=formatter, what="unit_label")
    return f" {label}{denominator(per, formatter=formatter)}{extra_suffix}"
