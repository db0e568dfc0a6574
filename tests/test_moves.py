"""One-at-a-time moves of each kind of input (mlsysim_symbolic/moves.py): the values a tornado chart takes.

Expected values are hand computations: -/+ pct % of the value, the nearest whole numbers, the domain's bounds,
the options declared next to the chosen one.
"""

from __future__ import annotations

import pytest

from mlsysim_symbolic.moves import caption, move_given, move_number, move_option
from mlsysim_symbolic.variables import Variable


def var(domain: str, integer: bool = False, unit: str = "count") -> Variable:
    return Variable.make("x", unit=unit, integer=integer, domain=domain)


#: (domain, whole number?, value, pct) -> (low, high, rule): None where that side cannot move.
NUMERIC = [
    # continuous: -/+ pct %, stopped at a closed bound, not moved past an open one
    ("(0, inf)", False, 4.0, 10, 3.6, 4.4, "percent"),
    ("[0, 1]", False, 0.95, 10, 0.855, 1.0, "neighbour"),           # 1.045 > 1: the closed bound 1
    ("[0, 1)", False, 0.95, 10, 0.855, None, "neighbour"),          # 1 itself is outside: no move up
    ("[0, 1]", False, 1.0, 10, 0.9, None, "neighbour"),             # already on the bound
    ("(-inf, inf)", False, -10.0, 10, -9.0, -11.0, "percent"),      # low is -10 % of the value, nearer zero
    ("[0, inf)", False, 0.0, 10, None, None, "neighbour"),          # -/+ 10 % of zero is zero
    # whole numbers: nearest whole to -/+ pct %, at least one step, inside the domain
    ("(0, inf)", True, 256, 10, 230, 282, "rounded"),               # 230.4 and 281.6
    ("(0, inf)", True, 20, 10, 18, 22, "percent"),                  # 2 is whole: exactly -/+ 10 %
    ("[1, inf)", True, 1, 10, None, 2, "neighbour"),                # a width of 1 moves up only
    ("(0, inf)", True, 1, 10, None, 2, "neighbour"),                # 0 is outside (0, inf)
    ("[0, 3]", True, 3, 10, 2, None, "neighbour"),                  # no ZeRO stage 4
    ("[0, 3]", True, 0, 10, None, 1, "neighbour"),
    ("[0, 3]", True, 3, 50, 1, None, "neighbour"),                  # 1.5 rounds away from 3; 4.5 is outside
    ("[0, 1]", True, 1, 10, 0, None, "neighbour"),                  # a flag of 1 moves to 0 only
    ("[1, 1]", True, 1, 10, None, None, "neighbour"),               # nowhere to go
    ("[0, 100]", True, 99, 20, 79, 100, "neighbour"),               # 118.8 > 100: the bound, 100
]


@pytest.mark.parametrize(("domain", "whole", "value", "pct", "low", "high", "rule"), NUMERIC)
def test_numeric_moves_stay_valid(domain, whole, value, pct, low, high, rule):
    v = var(domain, whole)
    m = move_number("x", value, v, pct)
    assert (m.low, m.high, m.rule.name) == (pytest.approx(low) if low is not None else None,
                                            pytest.approx(high) if high is not None else None, rule)
    for side in (m.low, m.high):
        assert side is None or (v.domain.contains(side) and (not whole or side == int(side)))


@pytest.mark.parametrize(("option", "low", "high"), [("fp32", None, "bf16"), ("bf16", "fp32", "fp16"), ("fp8", "fp16", None)])
def test_a_choice_moves_to_the_options_declared_next_to_it(option, low, high):
    m = move_option("precision", option, ("fp32", "bf16", "fp16", "fp8"))
    assert (m.low, m.high) == (low, high)


@pytest.mark.parametrize(("moves", "text"), [
    ([move_number("r", 2.0, var("(0, inf)", unit="GB/s"), 10)], "inputs ±10 %"),
    ([move_number("b", 256, var("(0, inf)", True, "sample"), 10), move_number("r", 2.0, var("(0, inf)"), 10)],
     "inputs ±10 % (whole numbers to the nearest whole)"),
    ([move_number("tp", 1, var("[1, inf)", True), 10), move_number("b", 1, var("(0, inf)", True, "sample"), 10)],
     "tp 1 → 2; b 1 → 2 sample"),                                   # nothing grouped: every move by name
    ([move_number("one", 1, var("[1, 1]", True), 10), move_given("r", 2.0, 1.0, 3.0, "GB/s")],
     "one 1 not moved; r 2 → 1, 3 GB/s (given)"),
])
def test_caption_groups_the_pct_moves_and_names_the_others(moves, text):
    assert caption(moves, 10) == text
