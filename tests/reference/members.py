"""Every public member of an mlsysim 0.3.0 class, compared with ours: the harness of the catalog waves.

A wave's test module declares a :class:`Wave` (its classes, the classes it leaves out and why, members
renamed or skipped and why, arguments for methods, mlsysim's implicit units) and calls
:func:`wave_tests`; the harness then

- finds every named scenario of each class in ``mlsysim.Scenarios`` and asserts ours has the same names
  under the same type;
- finds every public member mlsysim defines on the class (properties and methods declared on the class
  or its scenario bases, not pydantic's or ``BaseScenario``'s) and compares each, on every named
  scenario: properties as they are, methods at the declared arguments; numbers at 1e-9 relative,
  booleans and labels exactly, dicts key by key, lists item by item;
- asserts every member is compared or skipped with a reason, and every class of the wave is ported or
  listed with a reason (``coverage``: at least 95 % ported).

Where mlsysim raises or returns ``None`` (an unset optional input), ours must raise
``MissingInputError`` or return ``None``.  ``result`` fields are compared for every named scenario by
``test_ref_results.py``; they are not repeated here.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pint
import pytest

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.units import Q_

from .compare import assert_close, reference_scenario

#: Members every mlsysim scenario has (not the class's physics).
COMMON = frozenset({"result", "variant", "model_config", "evaluate"})


@cache
def instances(cls_name: str) -> tuple[str, ...]:
    """Names of the named scenarios of ``cls_name`` in mlsysim 0.3.0, sorted."""
    import mlsysim

    s = mlsysim.Scenarios
    return tuple(sorted(n for n in dir(s) if not n.startswith("_") and type(getattr(s, n)).__name__ == cls_name))


def named(cls_name: str) -> tuple[str, ...]:
    """Names of our named scenarios of ``cls_name``, sorted, read from the catalog's declarations (cheap: for
    parametrizing while collecting; a wave's ``test_every_named_scenario_is_ported`` holds them to :func:`instances`)."""
    return tuple(sorted(catalog().scenarios_of(cls_name)))


@cache
def reference_class(cls_name: str) -> type:
    """mlsysim's class ``cls_name``."""
    from mlsysim.engine import scenario_types

    found = getattr(scenario_types, cls_name, None)
    if found is None:
        keys = instances(cls_name)
        if not keys:
            raise LookupError(f"mlsysim 0.3.0 has no class or named scenario of {cls_name}")
        found = type(reference_scenario(keys[0]))
    return found


def public_members(cls_name: str) -> dict[str, str]:
    """``{member: "property" | "method"}`` of mlsysim's class: what it declares beyond BaseScenario/pydantic."""
    from mlsysim.engine.scenario_types import BaseScenario

    members: dict[str, str] = {}
    for klass in reference_class(cls_name).__mro__:
        if klass is BaseScenario or not issubclass(klass, BaseScenario):
            break
        for name, value in vars(klass).items():
            if name.startswith("_") or name in COMMON or name in members:
                continue
            if isinstance(value, property):
                members[name] = "property"
            elif inspect.isfunction(value) or isinstance(value, (classmethod, staticmethod)):
                members[name] = "method"
    return members


def to_reference(value: Any) -> Any:
    """An argument for mlsysim: a text quantity (``"10 minute"``) in mlsysim's registry, else as is."""
    if isinstance(value, str):
        import mlsysim

        return mlsysim.core.units.ureg.Quantity(value)
    return value


def equal(ours: Any, theirs: Any, label: str, unit: str | None = None) -> int:
    """Assert ours equals mlsysim's value (recursively); returns the count of compared leaves."""
    if theirs is None:
        assert ours is None, f"{label}: ours {ours!r}, mlsysim None"
        return 1
    if isinstance(theirs, (bool, str)):
        assert ours == theirs and type(ours) is type(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
        return 1
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), f"{label}: ours {ours!r} is not a dict like mlsysim's {theirs!r}"
        assert [str(k) for k in ours] == [str(k) for k in theirs], f"{label}: keys {list(ours)} vs {list(theirs)}"
        return sum(equal(o, theirs[k], f"{label}[{k!r}]", unit) for o, k in zip(ours.values(), theirs))
    if isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
        return sum(equal(o, t, f"{label}[{i}]", unit) for i, (o, t) in enumerate(zip(ours, theirs)))
    if isinstance(getattr(type(theirs), "model_fields", None), dict):   # a nested result (DistributedResult.node_profile)
        return compare_fields(ours, theirs, label)
    if unit is not None:
        assert not hasattr(theirs, "units"), f"{label}: mlsysim returns a Quantity here; drop its implicit unit"
        theirs = Q_(float(theirs), unit)
    assert isinstance(ours, (int, float, pint.Quantity)) and not isinstance(ours, bool), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
    assert_close(ours, theirs, label)
    return 1


@dataclass(frozen=True)
class Wave:
    """What a wave's test module declares about its classes (see the module docstring)."""

    #: mlsysim class names this module covers (ported ones)
    classes: tuple[str, ...]
    #: class -> why it is not ported (counted against the wave's 95 %)
    not_ported: dict[str, str] = field(default_factory=dict)
    #: (class, mlsysim member) -> our member name, where mlsysim's is reserved here
    renamed: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (class, mlsysim member) -> why it is not compared
    skipped: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (class, method) -> calls: each a dict of our keyword arguments (text quantities like "10 minute",
    #: numbers, or option strings given as ("option", "name")); mlsysim gets the same values
    #: positionally, in that order (its parameter names may differ from ours)
    method_args: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    #: (class, member) -> the unit mlsysim's bare float carries implicitly (ours is a Quantity)
    implicit_units: dict[tuple[str, str], str] = field(default_factory=dict)

    def keys(self) -> list[Any]:
        """One pytest case per named scenario of the wave's classes, ours as declared (read from the catalog's files:
        no type built and mlsysim not imported while collecting); ``test_every_named_scenario_is_ported`` holds the
        names to mlsysim's."""
        return [pytest.param(cls_name, key, id=key) for cls_name in self.classes for key in named(cls_name)]

    def calls(self, cls_name: str) -> list[tuple[str, dict[str, Any] | None]]:
        """Every compared member of ``cls_name`` and call of it: (member, None) for a property, (member, kwargs) per
        declared call of a method."""
        out: list[tuple[str, dict[str, Any] | None]] = []
        for member, how in public_members(cls_name).items():
            if (cls_name, member) in self.skipped:
                continue
            if how == "property":
                out.append((member, None))
            for kwargs in self.method_args.get((cls_name, member), ()) if how == "method" else ():
                out.append((member, kwargs))
        return out

    def check_all(self, cls_name: str, key: str) -> tuple[int, list[str]]:
        """Compare every member (and call) of one named scenario: (values compared, every mismatch)."""
        compared, mismatches = 0, []
        for member, kwargs in self.calls(cls_name):
            try:
                compared += self.check(cls_name, key, member, kwargs)
            except Exception as exc:   # an assertion or an error of ours: reported with the others, not instead of them
                call = "" if kwargs is None else f"({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
                mismatches.append(f"{member}{call}: {type(exc).__name__}: {exc}")
        return compared, mismatches

    def check(self, cls_name: str, key: str, member: str, kwargs: dict[str, Any] | None) -> int:
        """Compare one member of one named scenario (and one call of a method)."""
        ref = reference_scenario(key)
        ours = catalog().scenario(key)
        assert type(ours).__name__ == cls_name
        name = self.renamed.get((cls_name, member), member)
        try:
            theirs = getattr(ref, member)
            if kwargs is not None:
                theirs = theirs(*[_theirs_arg(v) for v in kwargs.values()])
        except (AttributeError, TypeError, KeyError, ValueError):
            theirs = None
        if theirs is None:
            try:
                value = getattr(ours, name)
                if kwargs is not None:
                    value = value(**{k: _our_arg(v) for k, v in kwargs.items()})
            except MissingInputError:
                return 1
            assert value is None, f"{key}.{member}: mlsysim has no value (raises or None), ours {value!r}"
            return 1
        value = getattr(ours, name)
        if kwargs is not None:
            value = value(**{k: _our_arg(v) for k, v in kwargs.items()})
        return equal(value, theirs, f"{key}.{member}", self.implicit_units.get((cls_name, member)))

    def uncovered(self) -> list[str]:
        """Members of the wave's classes neither compared nor skipped with a reason."""
        missing = []
        for cls_name in self.classes:
            for member, how in public_members(cls_name).items():
                if (cls_name, member) in self.skipped:
                    continue
                if how == "method" and not self.method_args.get((cls_name, member)):
                    missing.append(f"{cls_name}.{member}() has no declared arguments")
        return missing


def _theirs_arg(value: Any) -> Any:
    if isinstance(value, tuple) and value[:1] == ("option",):
        return value[1]
    return to_reference(value)


def _our_arg(value: Any) -> Any:
    if isinstance(value, tuple) and value[:1] == ("option",):
        return value[1]
    return value


def wave_tests(wave: Wave) -> tuple[Any, Any, Any]:
    """The three tests of a wave module: members equal (one test per named scenario), named scenarios ported,
    members covered.

    Use as ``test_member, test_named_scenarios, test_members_covered = wave_tests(WAVE)``.
    """

    @pytest.mark.parametrize(("cls_name", "key"), wave.keys())
    def test_member_equals_mlsysim(cls_name: str, key: str) -> None:
        """Every compared member of the named scenario equals mlsysim's; every mismatch is reported."""
        calls = wave.calls(cls_name)
        compared, mismatches = wave.check_all(cls_name, key)
        assert not mismatches, f"{key}: {len(mismatches)} of {len(calls)} members differ from mlsysim's:\n" + "\n".join(mismatches)
        assert compared >= len(calls)

    @pytest.mark.parametrize("cls_name", wave.classes)
    def test_every_named_scenario_is_ported(cls_name: str) -> None:
        keys = instances(cls_name)
        assert keys, f"mlsysim 0.3.0 has no named scenario of {cls_name}"
        ours = tuple(sorted(k for k, d in catalog().declared.items() if d.type_name == cls_name))
        assert ours == keys

    def test_every_member_is_compared_or_skipped_with_a_reason() -> None:
        assert wave.uncovered() == []
        assert all(reason.strip() for reason in [*wave.skipped.values(), *wave.not_ported.values()])
        assert not set(wave.classes) & set(wave.not_ported)

    return test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_compared_or_skipped_with_a_reason


def variant_equal(ours: Any, theirs: Any, label: str, skipped: frozenset[str] | set[str] = frozenset()) -> int:
    """Every public property and every result field of our variant equals mlsysim's variant with the same field
    values (where mlsysim has no value, ours must raise ``MissingInputError``); returns the count compared."""
    cls_name = type(ours).__name__
    compared = 0
    for member, how in public_members(cls_name).items():
        if how != "property" or member in skipped:
            continue
        try:
            ref = getattr(theirs, member)
        except (AttributeError, TypeError):
            with pytest.raises(MissingInputError):
                getattr(ours, member)
            continue
        compared += equal(getattr(ours, member), ref, f"{label}.{member}")
    if isinstance(inspect.getattr_static(type(theirs), "result", None), property):
        ref = theirs.result
        for f in [f for f in type(ref).model_fields if f != "constraint_trace"]:
            compared += equal(getattr(ours.result, f), getattr(ref, f), f"{label}.result.{f}")
    return compared


def compare_fields(ours: Any, theirs: Any, label: str) -> int:
    """Every field of mlsysim's result ``theirs`` (its prose ``constraint_trace`` apart) equal in our result, in
    mlsysim's order (:func:`equal`; a nested result field by field); the number of values compared."""
    assert ours.fields == tuple(f for f in type(theirs).model_fields if f != "constraint_trace"), label
    return sum(equal(getattr(ours, f), getattr(theirs, f), f"{label}.{f}") for f in ours.fields)
