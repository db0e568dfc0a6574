"""``[types.T.result] infinite_when``: a result field shows mlsysim's ``float('inf')`` where a predicate holds (a
saturated queue's latency), while the output behind it is refused there (its ``refused_unless``), so no finite
number ever stands in for an infinite one."""

from __future__ import annotations

import math

import pytest

from mlsysim_symbolic import load_derivations
from mlsysim_symbolic.errors import DerivationError, InputError

QUEUE = '''
[types.Q]
summary = "an M/M/1 queue's mean wait"
[types.Q.inputs.lam]
unit = "1/s"
domain = "[0, inf)"
[types.Q.inputs.mu]
unit = "1/s"
[types.Q.outputs.stable]
kind = "predicate"
equation = "lam < mu"
[types.Q.outputs.saturated]
kind = "predicate"
equation = "lam >= mu"
[types.Q.outputs.wait]
unit = "ms"
refused_unless = "stable"
equation = "lam / (mu * (mu - lam))"
[types.Q.outputs.load]
unit = "1"
equation = "lam / mu"
[types.Q.result]
name = "QResult"
fields = ["wait", "load"]
'''


def _queue(tmp_path, extra: str):
    path = tmp_path / "queue.toml"
    path.write_text(QUEUE + extra, encoding="utf-8")
    return load_derivations(path)


def test_the_field_is_infinite_where_the_predicate_holds_and_the_output_is_refused(tmp_path) -> None:
    cls = _queue(tmp_path, 'infinite_when = { wait = "saturated" }\n').type_class("Q")
    calm = cls(lam=5, mu=10).result
    assert calm.wait.magnitude == pytest.approx(100.0, rel=1e-12) and str(calm.wait.units) == "ms"
    jammed = cls(lam=10, mu=10)
    assert math.isinf(jammed.result.wait.magnitude) and jammed.result.wait.units == calm.wait.units
    assert jammed.result.load == 1
    with pytest.raises(InputError, match="stable does not hold"):
        jammed.wait  # noqa: B018


@pytest.mark.parametrize("extra, says", [
    ('infinite_when = { wait = "load" }\n', "is not a predicate output"),
    ('infinite_when = { load = "saturated" }\n', "declares refused_unless"),
    ('infinite_when = { nothing = "saturated" }\n', "must be a table of result fields"),
    ('infinite_when = { wait = "saturated" }\nunset_when = { wait = "saturated" }\n', "not in result.unset_when"),
])
def test_a_malformed_infinite_when_is_refused_at_load(tmp_path, extra, says) -> None:
    with pytest.raises(DerivationError) as info:
        _queue(tmp_path, extra).check()
    assert "result.infinite_when" in str(info.value) and says in str(info.value)
