"""DP-SGD and privacy scenarios against mlsysim 0.3.0.

Every named scenario of DpSgdRunScenario, LaplaceMeanReleaseScenario,
DpTrainingPlanScenario and MembershipAuditScenario, every numeric member, compared
at 1e-9 relative.  Methods are compared at several argument values.

One difference of form: mlsysim's ``LaplaceMeanReleaseScenario.mean_error(group_size=None)``
defaults its argument to the ``group_size`` input.  Ours is ``mean_error(size)``: an
argument may not share an input's name and arguments take no default, so mlsysim's
``mean_error()`` is ours ``mean_error(size=group_size)`` (tested below).
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import load_file
from mlsysim_symbolic.paths import derivations_dir

from .compare import assert_close, reference_scenario

FILE = derivations_dir() / "privacy.toml"

# class -> properties compared
PROPERTIES: dict[str, list[str]] = {
    "DpSgdRunScenario": ["sampling_rate", "steps"],
    "LaplaceMeanReleaseScenario": ["sensitivity", "noise_scale", "small_group_error"],
    "DpTrainingPlanScenario": ["cost_strong"],
    "MembershipAuditScenario": [],
}
# class -> method -> (our argument name, values); mlsysim takes the same value positionally
METHODS: dict[str, dict[str, tuple[str, list[Any]]]] = {
    "DpSgdRunScenario": {},
    "LaplaceMeanReleaseScenario": {"mean_error": ("size", [1000, 100, 7])},
    "DpTrainingPlanScenario": {},
    "MembershipAuditScenario": {"ceiling": ("fpr", [0.0, 0.01, 0.1, 0.5, 1.0]), "audit": ("fpr", [0.0, 0.01, 0.1, 0.5, 1.0])},
}


@functools.cache
def _mlsysim_instances() -> dict[str, str]:
    import mlsysim

    scen = mlsysim.Scenarios
    return {n: type(getattr(scen, n)).__name__ for n in dir(scen) if type(getattr(scen, n)).__name__ in PROPERTIES}


#: Our named scenarios of the file and their types, read from its declarations (nothing built, mlsysim not imported
#: while collecting); test_every_instance_is_ported holds them to mlsysim's.
OURS = {k: d.type_name for k, d in load_file(FILE).declared.items()}


@pytest.fixture(scope="module")
def cat() -> Any:
    return load_file(FILE)


def test_every_instance_is_ported(cat: Any) -> None:
    ours = {k: d.type_name for k, d in cat.declared.items()}
    assert ours == OURS == _mlsysim_instances()


@pytest.mark.parametrize("cls", sorted(PROPERTIES))
def test_outputs_are_the_ported_members(cat: Any, cls: str) -> None:
    assert set(cat.types[cls].outputs) == set(PROPERTIES[cls]) | set(METHODS[cls])


@pytest.mark.parametrize("name", sorted(OURS))
def test_members(cat: Any, name: str) -> None:
    """Every ported property, and every method at each declared argument, of the named scenario equals mlsysim's
    (one test per named scenario; every mismatch is reported)."""
    cls, ours, theirs, mismatches, compared = OURS[name], cat.scenario(name), reference_scenario(name), [], 0
    for member in PROPERTIES[cls]:
        try:
            assert_close(getattr(ours, member), getattr(theirs, member), f"{name}.{member}")
            compared += 1
        except AssertionError as exc:
            mismatches.append(str(exc))
    for member, (arg, values) in METHODS[cls].items():
        for value in values:
            try:
                assert_close(getattr(ours, member)(**{arg: value}), getattr(theirs, member)(value), f"{name}.{member}({value})")
                compared += 1
            except AssertionError as exc:
                mismatches.append(str(exc))
    assert not mismatches, "\n".join(mismatches)
    assert compared >= 1


def test_mean_error_default_is_group_size(cat: Any) -> None:
    """mlsysim's mean_error() uses the group_size input: ours at size=group_size."""
    ours = cat.scenario("SalaryMeanLaplaceRelease")
    theirs = reference_scenario("SalaryMeanLaplaceRelease")
    assert_close(ours.mean_error(size=ours.group_size), theirs.mean_error(), "mean_error(size=group_size)")
    assert_close(ours.mean_error(), theirs.mean_error(), "mean_error()")


def test_small_group_error_without_small_group_size(cat: Any) -> None:
    """Without small_group_size, mlsysim's small_group_error is mean_error(None), the group_size error; ours too."""
    theirs = reference_scenario("SalaryMeanLaplaceRelease").variant(small_group_size=None)
    ours = cat.scenario("SalaryMeanLaplaceRelease").variant(small_group_size=None)
    assert_close(theirs.small_group_error, theirs.mean_error(), "mlsysim fallback")
    assert_close(ours.small_group_error, theirs.small_group_error, "small_group_error without small_group_size")


def test_missing_required_input_raises(cat: Any) -> None:
    """A required input left unset raises MissingInputError when an output that uses it is read, naming both."""
    unset = cat.scenario("SalaryMeanLaplaceRelease").variant(epsilon=None)
    with pytest.raises(MissingInputError, match="epsilon"):
        _ = unset.noise_scale


def test_steps_truncates(cat: Any) -> None:
    """int() truncation of epochs·N/B when the division is not whole."""
    ours = cat.scenario("Cifar10DpSgdRun").variant(batch_size=3000)
    theirs = reference_scenario("Cifar10DpSgdRun").variant(batch_size=3000)
    assert theirs.steps == 1000 and ours.steps.magnitude == 1000
    ours = cat.scenario("Cifar10DpSgdRun").variant(batch_size=3001)
    theirs = reference_scenario("Cifar10DpSgdRun").variant(batch_size=3001)
    assert_close(ours.steps, theirs.steps, "steps at batch 3001")
    assert theirs.steps == 999
