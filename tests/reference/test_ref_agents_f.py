"""Agents and LLM applications, group F (the agents classes the first waves left out: group-relative
coefficients) against
mlsysim 0.3.0: every public member of every named scenario (see members.py); result fields are compared by
test_ref_results.py (where the true value is 0 and mlsysim's float arithmetic leaves a residue, at an absolute
tolerance there: its ``NEAR_ZERO``)."""

import math

from mlsysim_symbolic.catalog import catalog

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "GroupCoefficientsScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def _plain(value) -> float:
    return float(getattr(value, "magnitude", value))


def test_lone_pass_gets_sqrt_of_group_less_one() -> None:
    """By hand: G binary rewards with one pass have mean 1/G and population variance (1/G)(1 - 1/G), so the
    dispersion is sqrt(G - 1)/G and the pass's coefficient (1 - 1/G) / (sqrt(G - 1)/G) = sqrt(G - 1): sqrt(15) for
    G = 16, each failure -1/sqrt(15). With Bessel's divisor G - 1 the dispersion is 1/sqrt(G) and the pass gets
    (G - 1)/sqrt(G) = 15/4."""
    s = catalog().scenario("LonePassInGroupOfSixteen")
    coefficients = s.result.coefficients
    assert math.isclose(coefficients[0], math.sqrt(15), rel_tol=1e-12)
    assert all(math.isclose(c, -1 / math.sqrt(15), rel_tol=1e-12) for c in coefficients[1:])
    assert math.isclose(_plain(s.std), math.sqrt(15) / 16, rel_tol=1e-12)
    bessel = s.variant(bessel=True)
    assert math.isclose(_plain(bessel.std), 1 / 4, rel_tol=1e-12)
    assert math.isclose(bessel.result.coefficients[0], 15 / 4, rel_tol=1e-12)


def test_coefficients_sum_to_zero() -> None:
    """By hand: sum_i (r_i - mean) = sum_i r_i - G mean = 0, whatever the rewards, divisor or stabilizer (mlsysim's
    float sum leaves a residue of order 1e-15 that ours need not copy)."""
    s = catalog().scenario("RepairGroupOnePassOfThree").variant(rewards={"1": 0.25, "2": 0.5, "3": 0.9, "4": 0.5})
    assert abs(_plain(s.coefficient_sum)) < 1e-12
    assert _plain(s.group) == 4 and math.isclose(_plain(s.mean), 2.15 / 4, rel_tol=1e-12)
