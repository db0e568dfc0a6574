"""A scenario type is frozen once built (issue 29): what its catalog adds is given to the builder, the plan layer
keeps its caches outside it, and a scenario input given by name is looked up through the resolver that built it.

Values are hand computations: P parameters at b bytes each take P·b bytes (10 param at 4 B/param: 40 B).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from mlsysim_symbolic import Scenarios
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.errors import FrozenTypeError, InputError
from mlsysim_symbolic.plan import Planner, caches
from mlsysim_symbolic.spec import Resolver, ScenarioType

BYTES = {"inputs": {"params": {"symbol": "P", "unit": "param"}, "width": {"symbol": "b", "unit": "B/param"}},
         "outputs": {"size": {"symbol": "W", "unit": "B", "equation": "P * b"}}}
OUTER = {"inputs": {"copy": {"kind": "scenario", "type": "Bytes"}, "copies": {"symbol": "n", "unit": "1"}},
         "outputs": {"total": {"unit": "B", "equation": "n * copy.size"}}}


def test_a_built_type_refuses_later_writes():
    t = ScenarioType.from_mapping("Bytes", BYTES, digest="abc")
    assert t.declaration_digest == "abc" and t.resolver is None
    for name, value in (("summary", "changed"), ("declaration_digest", None), ("resolver", object()), ("new", 1)):
        with pytest.raises(FrozenTypeError, match=f"Bytes is frozen once built: {name} cannot be set"):
            setattr(t, name, value)
    with pytest.raises(FrozenTypeError, match="cannot be deleted"):
        del t.summary
    assert t.summary == "" and t.declaration_digest == "abc"


def test_a_catalog_type_is_frozen_its_catalog_its_resolver_and_its_caches_outside():
    s = Scenarios.DpSgdPerExampleGradients
    t = s.type
    with pytest.raises(FrozenTypeError):
        t.declaration_digest = "edited"
    assert t.resolver is catalog() and isinstance(t.resolver, Resolver) and t.declaration_digest
    assert not hasattr(t, "plans") and not hasattr(t, "compiled") and not hasattr(t, "named")
    assert s.per_batch("GPT-2").to("B").magnitude == 1.536e12   # 256 * 1.5e9 param * 4 B
    assert any(key[0] == "per_batch" for key in caches(t).plans) and caches(t).compiled
    assert caches(t) is caches(s.variant().type)


def test_a_name_is_looked_up_through_the_resolver_that_built_the_type():
    asked: list[tuple[str, str]] = []
    inner_t = ScenarioType.from_mapping("Bytes", BYTES)
    table = {"params": 10, "width": "4 B/param"}

    class Named:
        def named_of(self, type_name: str, key: str) -> Any:
            asked.append((type_name, key))
            return SimpleNamespace(planner=Planner(inner_t, table))   # anything with a planner binds

    resolved = ScenarioType.from_mapping("Bytes", BYTES, resolver=Named())
    outer = ScenarioType.from_mapping("Outer", OUTER, types={"Bytes": resolved})
    assert Planner(outer, {"copy": "Small", "copies": 3}).evaluate("total").to("B").magnitude == 120   # 3 * 40 B
    assert asked == [("Bytes", "Small")]
    assert Planner(outer, {"copy": table, "copies": 2}).evaluate("total").to("B").magnitude == 80      # a table binds


def test_a_type_built_outside_a_catalog_refuses_a_name():
    outer = ScenarioType.from_mapping("Outer", OUTER, types={"Bytes": ScenarioType.from_mapping("Bytes", BYTES)})
    with pytest.raises(InputError, match="copy: 'Small' names a scenario, but Bytes was not read from a catalog"):
        Planner(outer, {"copy": "Small", "copies": 3})


def test_a_dropped_type_takes_its_caches_with_it():
    import gc

    from mlsysim_symbolic.plan import compiling
    from mlsysim_symbolic.plan.binding import _BINDINGS

    t = ScenarioType.from_mapping("Bytes", BYTES)
    assert Planner(t, {"params": 10, "width": "4 B/param"}).evaluate("size").to("B").magnitude == 40   # 10 * 4 B
    key = id(t)
    assert caches(t).plans and key in compiling._CACHES
    del t
    _BINDINGS.clear()   # a kept binding holds its type (so that its id is never reused under it)
    gc.collect()
    assert key not in compiling._CACHES
