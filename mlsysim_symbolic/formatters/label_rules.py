"""Labels a domain formatter gives some display units (mlsysim's ``unit_label`` choices), as tables of rules.

A :class:`LabelRules` is a :class:`~.domain.Domain` ``label``: the label of the first rule the display unit
matches, else ``otherwise`` (``None``: the unit's own label).  mlsysim decides in three ways, one rule class each:

* :class:`Equal`: the display unit *is* a unit (pint's Unit equality: the same unit names and powers);
* :class:`Same`: one display unit converts to exactly one of a unit (within ``1e-12``), whatever its spelling;
* :class:`Spelled`: the display unit's text contains one of some symbols (mlsysim reads ``str(unit)``, its
  registry's short pretty form, so ``kC`` is labelled ``C`` as ``C`` is in ``kC``).

>>> from mlsysim_symbolic.formatters.inputs import display_unit
>>> rules = LabelRules((Same("rad/s", "rad/s"), Spelled(("µF", "μF"), "μF"), Equal("g_0", "g")))
>>> [rules(display_unit(text, formatter="f")) for text in ("Hz", "uF", "standard_gravity", "turn/min")]
['rad/s', 'μF', 'g', None]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pint

from ..units import Q_, parse_unit
from .inputs import DisplayUnit

__all__ = ["SAME_TOLERANCE", "Equal", "LabelRules", "Rule", "Same", "Spelled"]

#: A display unit within this of one ``unit`` is the same unit (mlsysim's tolerance).
SAME_TOLERANCE = 1e-12


class Rule(Protocol):
    """A label rule: its ``label`` and whether a display unit ``matches``."""

    label: str

    def matches(self, shown: DisplayUnit) -> bool: ...


@dataclass(frozen=True)
class Equal:
    """The display unit is ``unit`` itself (the same unit names and powers).

    >>> from mlsysim_symbolic.formatters.inputs import display_unit
    >>> rule = Equal("kg/m**3", "kg/m³")
    >>> rule.matches(display_unit("kilogram / meter ** 3", formatter="f")), rule.matches(display_unit("g/L", formatter="f"))
    (True, False)
    """

    unit: str
    label: str

    def matches(self, shown: DisplayUnit) -> bool:
        return shown.unit == parse_unit(self.unit)


@dataclass(frozen=True)
class Same:
    """One display unit is one ``unit`` (a unit of another dimension never is).

    >>> from mlsysim_symbolic.formatters.inputs import display_unit
    >>> rule = Same("N/ms", "N/ms")
    >>> rule.matches(display_unit("kN/s", formatter="f")), rule.matches(display_unit("N/s", formatter="f"))
    (True, False)
    """

    unit: str
    label: str

    def matches(self, shown: DisplayUnit) -> bool:
        try:
            one = Q_(1, shown.unit).to(parse_unit(self.unit)).magnitude
        except pint.DimensionalityError:
            return False
        return abs(one - 1) < SAME_TOLERANCE


@dataclass(frozen=True)
class Spelled:
    """The display unit's text contains one of ``symbols``.

    >>> from mlsysim_symbolic.formatters.inputs import display_unit
    >>> Spelled(("Ah",), "Ah").matches(display_unit("kAh", formatter="f"))
    True
    """

    symbols: tuple[str, ...]
    label: str

    def matches(self, shown: DisplayUnit) -> bool:
        return any(symbol in shown.label for symbol in self.symbols)


@dataclass(frozen=True)
class LabelRules:
    """The label of the first of ``rules`` a display unit matches, else ``otherwise``.

    >>> from mlsysim_symbolic.formatters.inputs import display_unit
    >>> LabelRules((Spelled(("kJ",), "kJ/K"),), otherwise="J/K")(display_unit("MJ/K", formatter="f"))
    'J/K'
    """

    rules: tuple[Rule, ...]
    otherwise: str | None = None

    def __call__(self, shown: DisplayUnit) -> str | None:
        return next((rule.label for rule in self.rules if rule.matches(shown)), self.otherwise)
