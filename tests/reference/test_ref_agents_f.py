"""Agents and LLM applications, group F (the agents classes the first waves left out: group-relative
coefficients, argmax over noisy scores, a warm sandbox pool's reserve, sampling at a temperature and top-p) against
mlsysim 0.3.0: every public member of every named scenario (see members.py); result fields are compared by
test_ref_results.py (where the true value is 0 and mlsysim's float arithmetic leaves a residue, at an absolute
tolerance there: its ``NEAR_ZERO``)."""

import math

from mlsysim_symbolic.catalog import catalog

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "GroupCoefficientsScenario",
        "ArgmaxNoiseScenario",
        "SandboxPoolReserveScenario",
        "SamplingScenario",
        "DependencyScheduleScenario",
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


def test_expected_maximum_of_normals_by_hand_and_tippett() -> None:
    """By hand: max(X, Y) = (X + Y)/2 + |X - Y|/2 and E|X - Y| = sqrt(2) sqrt(2/pi) for independent standard normals,
    so E[max of 2] = 1/sqrt(pi); E[max of 3] = 3/(2 sqrt(pi)) likewise (the closed forms for n <= 5). Tippett (1925),
    Biometrika 17, and Harter's (1961) table of expected normal order statistics give 1.53875 for n = 10 (five
    decimals). The one candidate's error has mean 0."""
    s = catalog().scenario("ArgmaxScoreNoise").variant(pool_sizes=[1, 2, 3, 10])
    e = {n: _plain(v) for n, v in s.expected_max.items()}
    assert abs(e[1]) < 1e-12
    assert math.isclose(e[2], 1 / math.sqrt(math.pi), rel_tol=1e-12)
    assert math.isclose(e[3], 3 / (2 * math.sqrt(math.pi)), rel_tol=1e-12)
    assert round(e[10], 5) == 1.53875
    assert list(s.asymptote) == [2, 3, 10]                       # the asymptote sqrt(2 ln n) is stated for n > 1
    assert all(e[n] < _plain(a) for n, a in s.asymptote.items())  # the expected maximum stays below it


def test_sandbox_reserve_by_hand() -> None:
    """By hand: Little's law gives 2/s x 300 s = 600 active leases; m = 2/s x 15 ms = 0.03; one standby misses with
    1 - e^-0.03 = 0.02955, two with 1 - e^-0.03 (1.03) = 4.41e-4 < 0.001, so the reserve is 2; the largest mean two
    standbys tolerate solves 1 - e^-m (1 + m) = 0.001, m = -W_-1(-(1 - 0.001)/e) - 1 (the lower branch of Lambert's
    W), and max_restore is m / (2/s)."""
    import mpmath

    s = catalog().scenario("CodingSandboxPoolTwoPerSecond")
    assert _plain(s.active) == 600 and _plain(s.reserve) == 2
    assert math.isclose(_plain(s.initial_miss), 1 - math.exp(-0.03), rel_tol=1e-12)
    assert math.isclose(_plain(s.reserve_miss), 1 - math.exp(-0.03) * 1.03, rel_tol=1e-12)
    m = float(-mpmath.lambertw(-(1 - 0.001) / math.e, -1).real - 1)
    assert math.isclose(s.max_restore.to("ms").magnitude, m / 2 * 1000, rel_tol=1e-9)
    assert _plain(s.slow_reserve) == 4                           # m = 0.3: tails 0.259, 0.0369, 0.0036, 2.66e-4


def test_sandbox_reserve_beyond_the_candidates_is_refused() -> None:
    """A restore of 20 s at 2/s puts m = 40 replacements outstanding: the reserve is past the 20 candidates, so it is
    refused by name rather than counted short; stating more candidates finds it."""
    import pytest

    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("CodingSandboxPoolTwoPerSecond").variant(restore="20 s")
    with pytest.raises(InputError, match="reserve is refused: reserve_searched does not hold"):
        _ = s.reserve
    assert _plain(s.active) == 600                                # what needs no search is still read


def test_nucleus_by_hand_with_ties_and_unsorted_logits() -> None:
    """By hand: four equal logits give p = 1/4 each; top-p 0.6 adds them in the list's order until the mass reaches
    0.6: 0.25, 0.5, 0.75, so three stay, with mass 3/4 and 1/3 each once renormalized (Holtzman et al. 2020, §3.1:
    the smallest top set whose mass reaches p). Logits [2, 5, 5, 1] at T = 1: the two tied 5s come first, each
    e^5 / (e^2 + 2 e^5 + e) of the mass, and top-p 0.5 keeps both (the first alone is below 0.5)."""
    s = catalog().scenario("TemperatureNucleusExample")
    flat = s.variant(logits=[1.0, 1.0, 1.0, 1.0], top_p=0.6).result
    assert flat.nucleus_size == 3 and math.isclose(flat.nucleus_mass, 0.75, rel_tol=1e-12)
    assert all(math.isclose(p, 1 / 3, rel_tol=1e-12) for p in flat.nucleus_probabilities)
    tied = s.variant(logits=[2.0, 5.0, 5.0, 1.0], top_p=0.5).result
    z = math.exp(2) + 2 * math.exp(5) + math.exp(1)
    assert tied.nucleus_size == 2 and math.isclose(tied.nucleus_mass, 2 * math.exp(5) / z, rel_tol=1e-12)
    assert tied.nucleus_probabilities == [0.5, 0.5]
    unsorted = s.variant(logits=[3.0, 12.0, 6.0, 10.5, 9.0]).result      # the example's logits, shuffled
    assert unsorted.nucleus_size == 2
    assert [round(p, 12) for p in unsorted.nucleus_probabilities] == [round(p, 12) for p in s.result.nucleus_probabilities]


def test_mirror_is_bound_from_the_logits_and_never_given() -> None:
    """The mirror under the second index takes the logits' values; giving it is refused by name."""
    import pytest

    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("TemperatureNucleusExample").variant(logits=[1.0, 2.0])
    assert list(s.inputs["other_logits"].values()) == [1.0, 2.0]
    with pytest.raises(InputError, match="other_logits mirrors logits"):
        s.variant(other_logits=[1.0, 2.0])


def test_interface_migration_schedule_by_hand() -> None:
    """By hand (the critical path method's forward pass): the specification ends at 20.5 s; the three module changes
    start there and end at 62.5 s; integration (after v2 and v3) runs 62.5-105.5 s and the test step (after v4)
    62.5-79 s; the final check starts at max(105.5, 79) = 105.5 s and ends at 174.5 s = 20.5 + 42 + 43 + 69, the
    critical path. The work is 20.5 + 3 x 42 + 43 + 16.5 + 69 = 275 s, 68.75 s on four slots; three tasks run at once
    (the module changes); the test step may slip 105.5 - 79 = 26.5 s, every task on the path 0."""
    s = catalog().scenario("InterfaceMigrationSchedule")
    assert {k: _plain(v) for k, v in s.start.items()} == {"1": 0, "2": 20.5, "3": 20.5, "4": 20.5, "5": 62.5, "6": 62.5,
                                                          "7": 105.5}
    assert _plain(s.makespan) == 174.5 and _plain(s.work) == 275 and _plain(s.work_bound) == 68.75
    assert _plain(s.peak_slots) == 3
    assert {k: _plain(v) for k, v in s.free_float.items()} == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 26.5}


def test_a_dependency_list_out_of_topological_order_is_refused() -> None:
    """The forward pass needs each task's predecessors before it: a list naming a later task (here the final check
    before the integration step, a cycle 5 -> 7 -> 5) is refused by name rather than scheduled wrong."""
    import pytest

    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("InterfaceMigrationSchedule")
    cyclic = {**{k: list(v) for k, v in s.inputs["predecessors"].items()}, "5": [2, 3, 7]}
    with pytest.raises(InputError, match=r"predecessors\['5'\] lists '7', which is not before '5' among the node keys"):
        s.variant(predecessors=cyclic)
