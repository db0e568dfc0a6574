"""One-at-a-time moves: the low and the high value each input takes in a tornado chart, valid for its kind.

- a continuous input moves by -/+ ``pct`` % of its value; a side that leaves the declared domain stops at a
  closed bound, or does not move (an open bound, or the value already on the bound);
- a whole-number input moves to the whole numbers nearest -/+ ``pct`` % (a half away from the value), at least
  one away, inside its domain (a tensor-parallel width of 1 in ``[1, inf)`` moves up only; ZeRO stage 3 in
  ``[0, 3]`` moves down only);
- a choice input moves to the options declared next to its own (fp16 among fp32, tf32, bf16, fp16, fp8 moves
  to bf16 and fp8; the first option has no lower neighbour);
- a range the caller gives is taken as given.

Each :class:`Move` keeps its :class:`Rule`; :func:`caption` says in one line what moved by how much: the inputs
moved by exactly -/+ ``pct`` % (or to the nearest whole numbers) as a group, every other move by name.

>>> from mlsysim_symbolic.variables import Variable
>>> tp = Variable.make("tp_size", unit="count", integer=True, domain="[1, inf)")
>>> zero = Variable.make("zero_stage", unit="count", integer=True, domain="[0, 3]")
>>> share = Variable.make("trainable_fraction", unit="", domain="[0, 1]")
>>> moves = [move_number("bandwidth", 4.0, Variable.make("bandwidth", unit="TB/s"), 10),
...          move_number("tp_size", 1, tp, 10), move_number("zero_stage", 3, zero, 10),
...          move_number("trainable_fraction", 1.0, share, 10), move_option("precision", "fp16", ("bf16", "fp16", "fp8"))]
>>> [(m.low, m.high) for m in moves]
[(3.6, 4.4), (None, 2), (2, None), (0.9, None), ('bf16', 'fp8')]
>>> print(caption(moves, 10))
inputs ±10 %; tp_size 1 → 2; zero_stage 3 → 2; trainable_fraction 1 → 0.9; precision fp16 → bf16, fp8
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .variables import Domain, Variable

#: Units not worth repeating in a caption: a whole-number count or a plain fraction reads as the number alone.
_PLAIN_UNITS = frozenset({"", "1", "count"})


@dataclass(frozen=True)
class Rule:
    """How a move was chosen: ``grouped`` moves are said once as "inputs -/+ pct %" (with their ``qualifier``),
    any other is listed by name (followed by its ``suffix``)."""

    name: str
    grouped: bool = False
    qualifier: str = ""
    suffix: str = ""


PERCENT = Rule("percent", grouped=True)                                                 # exactly -/+ pct %
ROUNDED = Rule("rounded", grouped=True, qualifier=" (whole numbers to the nearest whole)")   # nearest whole numbers
NEIGHBOUR = Rule("neighbour")                       # a whole step forced, or a side stopped by the domain
OPTION = Rule("option")                             # the adjacent declared options
GIVEN = Rule("given", suffix=" (given)")            # the caller's (low, high)


@dataclass(frozen=True)
class Move:
    """One input's one-at-a-time values: ``value`` and its ``low`` and ``high`` moves in the declared unit (numbers)
    or options (text); a side that does not move is ``None``.

    >>> Move("tp_size", 1, None, 2, NEIGHBOUR).text()
    'tp_size 1 → 2'
    """

    name: str
    value: Any
    low: Any
    high: Any
    rule: Rule
    unit: str = ""
    note: str = ""                # why a side did not move, where the rule does not say (an option without a value)

    def sides(self) -> tuple[Any, Any]:
        """``(low, high)`` with a side that does not move at the value."""
        return (self.value if self.low is None else self.low, self.value if self.high is None else self.high)

    def text(self) -> str:
        """``name value → low, high`` (one side: ``→ high``; neither: ``not moved``), with the unit where it says more
        than a count."""
        moved = [v for v in (self.low, self.high) if v is not None]
        unit = "" if self.unit in _PLAIN_UNITS else f" {self.unit}"
        note = f" ({self.note})" if self.note else ""
        if not moved:
            return f"{self.name} {_shown(self.value)}{unit} not moved{self.rule.suffix}{note}"
        return f"{self.name} {_shown(self.value)} → {', '.join(_shown(v) for v in moved)}{unit}{self.rule.suffix}{note}"


def _shown(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _inside_low(x: float, domain: Domain, whole: bool) -> float | None:
    """The smallest allowed value (a whole one if ``whole``) of ``domain``, or None when there is none."""
    low = domain.low
    if not math.isfinite(low):
        return None
    if whole:
        first = math.ceil(low)
        return first + 1 if domain.low_open and first == low else first
    return None if domain.low_open else low


def _inside_high(x: float, domain: Domain, whole: bool) -> float | None:
    high = domain.high
    if not math.isfinite(high):
        return None
    if whole:
        last = math.floor(high)
        return last - 1 if domain.high_open and last == high else last
    return None if domain.high_open else high


def _kept(value: float, x: float, domain: Domain, whole: bool, below: bool) -> tuple[Any, bool]:
    """``value`` when allowed, else the nearest allowed value on its side of ``x`` (None when that is ``x`` or
    there is none); the flag says the value was changed."""
    if domain.contains(value):
        return value, False
    edge = (_inside_low if below else _inside_high)(x, domain, whole)
    if edge is None or not domain.contains(edge) or (edge >= x if below else edge <= x):
        return None, True
    return edge, True


def _continuous(x: float, domain: Domain, pct: float) -> tuple[Any, Any, Rule]:
    if x == 0:
        return None, None, NEIGHBOUR     # -/+ pct % of zero is zero: nothing to move
    lo, clipped_lo = _kept(x * (1 - pct / 100), x, domain, False, below=x > 0)
    hi, clipped_hi = _kept(x * (1 + pct / 100), x, domain, False, below=x < 0)
    return lo, hi, NEIGHBOUR if clipped_lo or clipped_hi else PERCENT


def _whole(x: float, domain: Domain, pct: float) -> tuple[Any, Any, Rule]:
    v = int(round(x))
    step = abs(v) * pct / 100
    nearest_lo, nearest_hi = math.ceil(v - step - 0.5), math.floor(v + step + 0.5)   # a half rounds away from v
    lo, hi = min(nearest_lo, v - 1), max(nearest_hi, v + 1)   # at least one whole step
    forced = (lo, hi) != (nearest_lo, nearest_hi)
    lo, clipped_lo = _kept(lo, v, domain, True, below=True)
    hi, clipped_hi = _kept(hi, v, domain, True, below=False)
    if forced or clipped_lo or clipped_hi:
        return lo, hi, NEIGHBOUR
    exact = step == int(step)
    return lo, hi, PERCENT if exact else ROUNDED


#: The move of a numeric input by its kind: whole number or not.
_NUMERIC = {False: _continuous, True: _whole}


def move_number(name: str, value: float, var: Variable, pct: float) -> Move:
    """The -/+ ``pct`` % move of a numeric input at ``value`` (in its declared unit), valid for ``var``'s kind and domain.

    >>> v = Variable.make("batch_size", unit="sample", integer=True)
    >>> m = move_number("batch_size", 256, v, 10)
    >>> (m.low, m.high, m.rule.name), move_number("batch_size", 1, v, 10).text()
    ((230, 282, 'rounded'), 'batch_size 1 → 2 sample')
    """
    lo, hi, rule = _NUMERIC[bool(var.integer)](float(value), var.domain, pct)
    shown_value = int(round(value)) if var.integer else float(value)
    return Move(name, shown_value, lo, hi, rule, f"{var.unit:~C}")


def move_option(name: str, option: str, options: tuple[str, ...]) -> Move:
    """A choice input's move to the options declared next to ``option``.

    >>> move_option("strategy", "none", ("none", "selective", "full")).text()
    'strategy none → selective'
    """
    i = options.index(option)
    low = options[i - 1] if i > 0 else None
    high = options[i + 1] if i + 1 < len(options) else None
    return Move(name, option, low, high, OPTION)


def move_given(name: str, value: Any, low: Any, high: Any, unit: str = "") -> Move:
    """A range the caller gave, as given.

    >>> move_given("batch_size", 256, 128, 1024, "sample").text()
    'batch_size 256 → 128, 1024 sample (given)'
    """
    return Move(name, value, low, high, GIVEN, unit)


def caption(moves: list[Move], pct: float) -> str:
    """What moved by how much, in one line: the grouped moves first, then each other move by name.

    >>> from mlsysim_symbolic.variables import Variable
    >>> v = Variable.make("layers", unit="count", integer=True)
    >>> caption([move_number("layers", 32, v, 10)], 10)
    'inputs ±10 % (whole numbers to the nearest whole)'
    """
    grouped = [m.rule for m in moves if m.rule.grouped]
    parts = [f"inputs ±{pct:g} %" + "".join(sorted({r.qualifier for r in grouped}))] if grouped else []
    parts += [m.text() for m in moves if not m.rule.grouped]
    return "; ".join(parts)
