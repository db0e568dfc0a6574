"""The scaffold of the domain formatters (mlsysim's ``fmt_memory``, ``fmt_power`` ...): one :class:`Domain` record
per formatter, built into a function by :func:`build`.  A record says which dimension the formatter shows, its
default display unit or :class:`Ladder` of auto-scaled units, its label and its keywords; the built function does
what every mlsysim domain formatter does, in its order:

1. a value that is not a Quantity raises :class:`~mlsysim_symbolic.errors.FormatTypeError`;
2. with ``checks_value``, a value of another dimension raises :class:`~mlsysim_symbolic.errors.FormatError`
   (else its conversion raises :class:`~mlsysim_symbolic.errors.FormatTypeError`, as pint's does);
3. the display unit is ``unit=`` when given, else the ladder's rung for the value (a ladder chosen by a true flag
   keyword, e.g. ``binary=True``, first), else ``default`` (unit text, or a :class:`Picker` choosing from the value);
4. with ``checks_unit``, a display unit of another dimension raises :class:`~mlsysim_symbolic.errors.FormatError`;
5. the value in that unit must be of the record's ``sign`` (:data:`SIGNS`);
6. it is shown at ``precision`` (``None``: auto, trimmed: :mod:`.precision`), followed by the label (``label``, or
   the unit's) and ``/per``, after the approx/lower/upper-bound marker.

>>> from mlsysim_symbolic.units import Q_
>>> ladder = Ladder.of("W", ("W", 0), ("kW", 1e3))
>>> fmt_heat = build(Domain("fmt_heat", dimension="W", default=ladder, keywords=("approx",)))
>>> fmt_heat(Q_(2500, "W")), fmt_heat(Q_(12, "W"), approx=True), fmt_heat(Q_(2500, "W"), unit="W", commas=True)
('2.5 kW', '~12 W', '2,500 W')
>>> fmt_span = build(Domain("fmt_span", dimension="m", default=Ladder.of("m", ("m", 0), ("km", 1e3)), commas=None,
...                         auto_commas=lambda shown, value: shown.unit != Q_(1, "m").units or abs(value) >= 1000))
>>> fmt_span(Q_(2500, "m")), fmt_span(Q_(2500, "m"), unit="m"), fmt_span(Q_(2.5e6, "m"), commas=False)
('2.5 km', '2,500 m', '2500 km')
>>> fmt_heat(Q_(1, "W"), per="GPU")
Traceback (most recent call last):
...
mlsysim_symbolic.errors.FormatTypeError: fmt_heat: unexpected keyword 'per'; it takes unit, precision, commas, approx
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import pint

from ..errors import FormatError, FormatTypeError
from ..units import Q_, parse_unit, uncounted
from .display import number
from .inputs import DisplayUnit, display_unit, magnitude_in, require_quantity
from .markdown import MarkdownStr
from .precision import resolve_precision
from .suffix import quantity_suffix

__all__ = ["KEYWORDS", "PLAIN", "SIGNS", "Domain", "Ladder", "Picker", "Reading", "Rung", "build"]

#: The optional keywords a domain formatter may take (beyond ``unit``, ``precision``, ``commas``), with their
#: defaults.  ``approx``/``lower_bound``/``upper_bound``/``per`` decorate the display; a flag naming one of a
#: record's ``ladders`` picks that ladder.
KEYWORDS: dict[str, Any] = {"binary": False, "approx": False, "lower_bound": False, "upper_bound": False,
                            "per": None}

#: Value signs a record may require: name -> (test of the magnitude, what the error says is expected).
SIGNS: dict[str, tuple[Callable[[float], bool], str]] = {
    "any": (lambda value: True, "any value"),
    "non_negative": (lambda value: value >= 0, "a non-negative value"),
    "positive": (lambda value: value > 0, "a positive value"),
}


@dataclass(frozen=True)
class Rung:
    """One unit of a ladder, reached by magnitudes of at least ``at_least`` in ``measure`` (``None``: the ladder's
    base unit); a ``signed`` rung compares the signed magnitude (a negative value never reaches it), the others its
    absolute value."""

    unit: str
    at_least: float
    signed: bool = False
    measure: str | None = None


@dataclass(frozen=True)
class Ladder:
    """Auto-scaled display units: the value climbs from the first rung while it reaches the next one (its
    magnitude in ``base``, converted to the rung's ``measure`` when it has one).  Rungs are given in ascending order.

    >>> from mlsysim_symbolic.units import Q_
    >>> Ladder.of("byte", ("KB", 0), ("MB", 1e6)).pick(Q_(-3e6, "byte"), formatter="f").label
    'MB'

    ``signed_from`` names the first rung compared with the signed magnitude (mlsysim's energy and emissions
    ladders: a negative value past the second rung stays on it); ``stepwise`` measures each rung's threshold in the
    unit of the rung below it, as mlsysim's energy ladder does (1 MWh is 999.9999999999999 kWh there, so it shows
    1000 kWh):

    >>> grams = Ladder.of("g", ("g", 0), ("kg", 1e3), ("t", 1e3), signed_from="t", stepwise=True)
    >>> grams.pick(Q_(-3e6, "g"), formatter="f").label, grams.pick(Q_(3e6, "g"), formatter="f").label
    ('kg', 't')
    """

    base: str
    rungs: tuple[Rung, ...]

    @classmethod
    def of(cls, base: str, *rungs: tuple[str, float], signed_from: str | None = None,
           stepwise: bool = False) -> Ladder:
        """A ladder from ``(unit text, at_least)`` pairs: the rungs from ``signed_from`` on are ``signed``; with
        ``stepwise``, each rung's ``at_least`` is measured in the unit of the rung below it (else in ``base``)."""
        units = [unit for unit, _ in rungs]
        if signed_from is not None and signed_from not in units:
            raise ValueError(f"ladder of {base}: signed_from {signed_from!r} is none of its rungs {units}")
        first_signed = units.index(signed_from) if signed_from is not None else len(units)
        return cls(base, tuple(Rung(unit, at_least, signed=index >= first_signed,
                                    measure=units[index - 1] if stepwise and index else None)
                               for index, (unit, at_least) in enumerate(rungs)))

    def pick(self, quantity: Any, *, formatter: str) -> DisplayUnit:
        """The display unit of ``quantity`` (ours) on this ladder."""
        base = Q_(magnitude_in(quantity, parse_unit(self.base), formatter=formatter), parse_unit(self.base))
        chosen = self.rungs[0]
        for rung in self.rungs[1:]:
            value = base.magnitude if rung.measure is None else base.to(parse_unit(rung.measure)).magnitude
            if (value if rung.signed else abs(value)) < rung.at_least:
                break
            chosen = rung
        return display_unit(chosen.unit, formatter=formatter)


class Picker(Protocol):
    """A default display unit chosen from the value (a :class:`Ladder`, or a choice by the value's own unit)."""

    def pick(self, quantity: Any, *, formatter: str) -> DisplayUnit:
        """The display unit of ``quantity`` (ours)."""


@dataclass(frozen=True)
class Reading:
    """How a record reads what it is given: its value (as a Quantity of ours) and a display unit.  :data:`PLAIN`
    reads Quantities and units that convert by a factor; a temperature point on an offset scale (``degC``) needs
    the reading of :mod:`.points`, which keeps it on its scale."""

    quantity: Callable[..., pint.Quantity]
    unit: Callable[..., DisplayUnit]


#: The reading of every record that shows no temperature point.
PLAIN = Reading(require_quantity, display_unit)


@dataclass(frozen=True)
class Domain:
    """One domain formatter.

    ``name``: the formatter's name (``fmt_memory``).  ``dimension``: unit text of the dimension it shows.
    ``default``: the display unit when ``unit=`` is not given, as unit text or a :class:`Ladder`.  ``label``: the
    label written after the number whatever the display unit (``"N·m"``), a function of the display unit giving a
    label or ``None`` (the unit's own), or ``None``.  ``keywords``: the optional keywords it takes, names of
    :data:`KEYWORDS`, in mlsysim's order.  ``ladders``: flag keyword -> the ladder it picks (``binary``).
    ``commas``: the default of ``commas=``; when the call's ``commas`` is ``None``, ``auto_commas(display unit,
    magnitude)`` decides (mlsysim's fmt_length: commas for km and for 1,000 m and more).  ``checks_value``/``checks_unit``: a value/display unit of another
    dimension raises ``FormatError`` (a ``ValueError``, as mlsysim's explicit checks) rather than the conversion's
    ``FormatTypeError``.  ``sign``: a key of :data:`SIGNS`.  ``reading``: how the value and display unit are
    read (:class:`Reading`).  ``doc``: the formatter's docstring.
    """

    name: str
    dimension: str
    default: str | Ladder | Picker
    label: str | Callable[[DisplayUnit], str | None] | None = None
    keywords: tuple[str, ...] = ()
    ladders: Mapping[str, Ladder] = field(default_factory=dict)
    commas: bool | None = False
    auto_commas: Callable[[DisplayUnit, float], bool] | None = None
    checks_value: bool = False
    checks_unit: bool = False
    sign: str = "any"
    reading: Reading = PLAIN
    doc: str = ""

    def __post_init__(self) -> None:
        unknown = [k for k in (*self.keywords, *self.ladders) if k not in KEYWORDS]
        if unknown or set(self.ladders) - set(self.keywords) or self.sign not in SIGNS:
            raise ValueError(f"domain {self.name}: unknown keywords {unknown}, ladders {sorted(self.ladders)} not "
                             f"among its keywords, or sign {self.sign!r} not in {sorted(SIGNS)}")

    def signature(self) -> inspect.Signature:
        """The built formatter's signature: ``(quantity, *, unit=None, precision=None, commas=..., <keywords>)``."""
        keyword = inspect.Parameter.KEYWORD_ONLY
        return inspect.Signature([
            inspect.Parameter("quantity", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("unit", keyword, default=None),
            inspect.Parameter("precision", keyword, default=None),
            inspect.Parameter("commas", keyword, default=self.commas),
            *(inspect.Parameter(name, keyword, default=KEYWORDS[name]) for name in self.keywords)])

    def display(self, quantity: Any, unit: Any, flags: Mapping[str, Any]) -> DisplayUnit:
        """The display unit: ``unit``, the ladder of a true flag, or the default."""
        if unit is not None:
            return self.reading.unit(unit, formatter=self.name)
        chosen = next((ladder for flag, ladder in self.ladders.items() if flags.get(flag)), self.default)
        if not isinstance(chosen, str):
            return chosen.pick(quantity, formatter=self.name)
        return self.reading.unit(chosen, formatter=self.name)

    def unit_label(self, shown: DisplayUnit) -> str | None:
        """The label replacing the display unit's own, if any."""
        return self.label(shown) if callable(self.label) else self.label

    def check_dimension(self, quantity: Any, what: str) -> None:
        """Raise :class:`~mlsysim_symbolic.errors.FormatError` unless ``quantity`` (ours) has the record's
        dimension (counted kinds dropped, as mlsysim has none)."""
        wanted = parse_unit(self.dimension).dimensionality
        if wanted not in (quantity.dimensionality, uncounted(quantity).dimensionality):
            raise FormatError(self.name, f"{what} must have the dimension of {self.dimension} ({wanted}), "
                                         f"got {quantity.units:~P} ({quantity.dimensionality})")

    def show(self, quantity: Any, arguments: Mapping[str, Any]) -> MarkdownStr:
        """The formatter's text for ``quantity`` and its bound ``arguments`` (the steps of the module's docstring)."""
        value = self.reading.quantity(quantity, formatter=self.name)
        if self.checks_value:
            self.check_dimension(value, "the value")
        shown = self.display(value, arguments["unit"], arguments)
        if self.checks_unit:
            self.check_dimension(Q_(1, shown.unit), "the display unit")
        magnitude = magnitude_in(value, shown.unit, formatter=self.name)
        test, expected = SIGNS[self.sign]
        if not test(magnitude):
            raise FormatError(self.name, f"expects {expected}, got {magnitude}")
        precision = arguments["precision"]
        digits = resolve_precision(magnitude, precision, formatter=self.name)
        suffix = quantity_suffix(shown, formatter=self.name, unit_label=self.unit_label(shown),
                                 per=arguments.get("per"))
        commas = arguments["commas"]
        if commas is None and self.auto_commas is not None:
            commas = self.auto_commas(shown, magnitude)
        return number(magnitude, precision=digits, commas=bool(commas), suffix=suffix,
                      approx=arguments.get("approx", False), lower_bound=arguments.get("lower_bound", False),
                      upper_bound=arguments.get("upper_bound", False), trim_trailing_zeros=precision is None,
                      formatter=self.name)


def build(domain: Domain) -> Callable[..., MarkdownStr]:
    """The formatter of ``domain``: a function with the record's signature, name and docstring; a keyword it does
    not take raises :class:`~mlsysim_symbolic.errors.FormatTypeError` (a ``TypeError``, as Python's call does)."""
    signature = domain.signature()
    taken = list(signature.parameters)[1:]

    def formatter(*args: Any, **kwargs: Any) -> MarkdownStr:
        unknown = [name for name in kwargs if name not in signature.parameters]
        if unknown:
            raise FormatTypeError(domain.name, f"unexpected keyword {unknown[0]!r}; it takes {', '.join(taken)}")
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise FormatTypeError(domain.name, str(error)) from None
        bound.apply_defaults()
        return domain.show(bound.arguments["quantity"], bound.arguments)

    formatter.__name__ = formatter.__qualname__ = domain.name
    formatter.__doc__ = domain.doc
    formatter.__signature__ = signature   # type: ignore[attr-defined]
    return formatter
