"""Coverage of the catalog waves (issues 15-18): each class of a wave's domains is ported, or named with a reason.

Every reference module of a wave declares a ``WAVE`` (see ``members.py``) with the classes it compares and the
classes it leaves out, each with its reason.  For the waves marked complete, every class of their domains is one
or the other, and at least 95 % are ported.  ``python -m pytest tests/reference/test_ref_waves.py -s`` prints the
coverage of every wave.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from pathlib import Path

import pytest

from mlsysim_symbolic.catalog import catalog

from .waves import DOMAINS, WAVE_EXTRA, WAVES

#: Waves whose issue is resolved: every class accounted for, >= 95 % ported.
COMPLETE = (15, 16, 17, 18)


@functools.cache
def _wave_modules() -> list:
    """The reference modules that declare a ``WAVE``."""
    found = []
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.name.startswith("test_ref_") and module.name != "test_ref_waves":
            loaded = importlib.import_module(f"{__package__}.{module.name}")
            if getattr(loaded, "WAVE", None) is not None:
                found.append(loaded)
    return found


def _left_out() -> dict[str, str]:
    """Every class a wave module leaves out, with its reason."""
    return {c: reason for module in _wave_modules() for c, reason in module.WAVE.not_ported.items()}


LEFT_OUT = _left_out()


def coverage(wave: int) -> tuple[list[str], list[str], list[str]]:
    """(ported, left out with a reason, neither) classes of ``wave``."""
    classes = [c for domain in WAVES[wave] for c in DOMAINS[domain]] + list(WAVE_EXTRA.get(wave, ()))
    ported = [c for c in classes if c in catalog().info]
    explained = [c for c in classes if c not in ported and c in LEFT_OUT]
    return ported, explained, [c for c in classes if c not in ported and c not in explained]


@pytest.mark.parametrize("wave", COMPLETE)
def test_a_complete_wave_ports_95_percent_and_explains_the_rest(wave):
    ported, explained, neither = coverage(wave)
    assert neither == [], f"wave {wave}: classes neither ported nor left out with a reason: {neither}"
    total = len(ported) + len(explained)
    assert len(ported) / total >= 0.95, f"wave {wave}: {len(ported)} of {total} ported"
    assert all(LEFT_OUT[c].strip() for c in explained)


def test_wave_classes_are_in_the_waves_and_ported_and_the_coverage_is_printed(capsys):
    """Every class a wave module compares is a class of some wave and is in the catalog; prints each wave's coverage."""
    in_waves = {c for domain in DOMAINS.values() for c in domain} | {c for extra in WAVE_EXTRA.values() for c in extra}
    compared = [c for module in _wave_modules() for c in module.WAVE.classes]
    assert compared and set(compared) <= in_waves, sorted(set(compared) - in_waves)
    assert all(c in catalog().info for c in compared), [c for c in compared if c not in catalog().info]
    rows = []
    for wave in WAVES:
        ported, explained, neither = coverage(wave)
        total = len(ported) + len(explained) + len(neither)
        rows.append(f"wave {wave}: {len(ported)}/{total} ported ({100 * len(ported) / total:.0f} %), "
                    f"{len(explained)} left out with a reason, {len(neither)} not yet")
    with capsys.disabled():
        print("\n" + "\n".join(rows))


def test_a_named_scenario_reports_every_member_that_differs_not_the_first():
    """The wave harness compares every member of a named scenario in one test: two members read from each other's
    outputs (a wrong rename) give two mismatches, both reported, and the others are still compared."""
    from .members import Wave

    wave = Wave(classes=("QuotaLendingScenario",), renamed={("QuotaLendingScenario", "used"): "lendable",
                                                            ("QuotaLendingScenario", "lendable"): "used"})
    calls = wave.calls("QuotaLendingScenario")
    assert {"used", "lendable"} <= {member for member, _ in calls}
    compared, mismatches = wave.check_all("QuotaLendingScenario", "TeamQuotaLending500")
    assert sorted(m.split(":")[0] for m in mismatches) == ["lendable", "used"], mismatches
    assert all("AssertionError" in m and "mlsysim" in m for m in mismatches)
    assert compared == len(calls) - 2
    assert Wave(classes=("QuotaLendingScenario",)).check_all("QuotaLendingScenario", "TeamQuotaLending500") == (len(calls), [])
