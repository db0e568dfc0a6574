"""Rendering options: the frozen :class:`LatexConfig`, and :class:`Latex`, a string Jupyter shows as math.

>>> LatexConfig(sig=3, prefix="binary").sig
3
>>> LatexConfig().prefixes
(-12, 30)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InputError
from ..units import parse_unit

__all__ = ["DEFAULT", "Latex", "LatexConfig", "split_options"]


class Latex(str):
    """A LaTeX string that Jupyter renders as display math.

    >>> Latex("x = 1")._repr_latex_()
    '$$ x = 1 $$'
    """

    def _repr_latex_(self) -> str:
        return f"$$ {self} $$"


@dataclass(frozen=True)
class LatexConfig:
    """Rendering options (frozen; build a new one with ``dataclasses.replace``).

    ``sig``: significant figures of numbers.  ``unit``: display unit of a result.
    ``prefix``: ``None`` (default) shows a result in its declared unit when the author
    declared a prefixed one (``GiB``, ``ms``: the unit Python returns) and picks an SI
    prefix for an unprefixed one (``B``, ``FLOP``); ``"decimal"`` (SI) or ``"binary"``
    (IEC, for bytes and bits) pick a prefix whatever the declaration.  ``siunitx``: emit
    ``\\qty{..}{..}`` instead of ``\\mathrm`` units.  ``expand``: show the equation
    expanded to the inputs as well as in its declared form.  ``positional``: magnitudes
    printed positionally (``0.02965``, ``589824``); outside, scientific notation
    (``5.88 \\times 10^{23}``).  ``prefixes``: the smallest and largest power of ten an
    automatic prefix may stand for (pico to quetta); a result beyond them prints in its
    base unit with scientific notation.  ``expanded_limit``: an expanded form longer than
    this (printed characters, roughly) is left out, and the numbers are substituted into
    the declared form with the values of the intermediate outputs.

    >>> LatexConfig(prefix="metric")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: prefix must be 'decimal' or 'binary', got 'metric'
    """

    sig: int = 4
    unit: str | None = None
    prefix: str | None = None
    siunitx: bool = False
    expand: bool = True
    positional: tuple[float, float] = (1e-3, 1e6)
    prefixes: tuple[int, int] = (-12, 30)
    expanded_limit: int = 150

    def __post_init__(self) -> None:
        if self.prefix is not None and self.prefix not in ("decimal", "binary"):
            raise InputError(f"prefix must be 'decimal' or 'binary', got {self.prefix!r}")
        if not isinstance(self.sig, int) or isinstance(self.sig, bool) or not 1 <= self.sig <= 17:
            raise InputError(f"sig must be a whole number of significant figures from 1 to 17, got {self.sig!r}")
        low, high = self.positional
        if not 0 < low < 1 < high:
            raise InputError(f"positional must be (low, high) with 0 < low < 1 < high, got {self.positional!r}")
        small, large = self.prefixes
        if small % 3 or large % 3 or not -30 <= small <= 0 <= large <= 30:
            raise InputError(f"prefixes must be multiples of 3 from -30 to 30 around 0, got {self.prefixes!r}")
        if self.unit is not None:
            parse_unit(self.unit)   # an unknown unit fails here, naming it


DEFAULT = LatexConfig()

_FIELDS = frozenset(LatexConfig.__dataclass_fields__)


def split_options(config: LatexConfig | None, options: Mapping[str, Any]) -> tuple[LatexConfig, dict[str, Any]]:
    """Split keyword options into rendering options (a config) and the output's arguments.

    >>> split_options(None, {"sig": 2, "tau": "15 min"})
    (LatexConfig(sig=2, unit=None, prefix=None, siunitx=False, expand=True, positional=(0.001, 1000000.0), prefixes=(-12, 30), expanded_limit=150), {'tau': '15 min'})
    """
    given = {k: v for k, v in options.items() if k in _FIELDS}
    arguments = {k: v for k, v in options.items() if k not in _FIELDS}
    if config is None:
        config = LatexConfig(**given)
    elif given:
        config = replace(config, **given)
    return config, arguments
