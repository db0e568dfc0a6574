"""The boundary contract (issue 27): what crosses it is the reference's.

- A value a user receives is in the unit its output declares, and for anything ported from mlsysim 0.3.0 that is
  mlsysim's unit: ``per_example`` is bytes (its equation is bytes per sample, declared ``counted = "1/sample"``),
  a throughput is ``1/s``.  Counted kinds check the equations; they do not leak.
- Whatever mlsysim code passes in works: mlsysim's Quantities (where ``byte``, ``param`` and ``count`` are
  dimensionless) are read in the input's declared meaning; a real dimension mismatch stays refused, naming the input.
- Every value the package returns survives ``pickle``, ``copy.deepcopy`` and a ``ProcessPoolExecutor`` (fork and
  spawn), and comes back in the package's registry without touching pint's application registry.

Expected numbers are mlsysim 0.3.0's own (its ``PerExampleGradientScenario.per_example`` is
``models[name].size_in_bytes(bytes_per_param).to("byte")``: GPT-2's 1.5e9 parameters at 4 B, 6e9 B, Radford et al.
2019) or hand-computed where stated.
"""

from __future__ import annotations

import copy
import doctest
import multiprocessing
import pickle
import textwrap
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pint
import pytest

import mlsysim_symbolic
from mlsysim_symbolic import Scenarios, load_derivations
from mlsysim_symbolic.errors import UnitError
from mlsysim_symbolic.units import Q_, ureg

S = Scenarios.DpSgdPerExampleGradients

# ------------------------------------------------------------------ the seed's contract, as mlsysim's page states it

#: The seed's page (issue 2: "This example must run as a doctest and print 'B'"), and its per_example contract
#: (``models[name].size_in_bytes(bytes_per_param).to('byte')``) in lines that print the same in both packages.
SEED_PAGE = """
>>> from {package} import Scenarios
>>> scenario = Scenarios.DpSgdPerExampleGradients
>>> value = scenario.per_batch(next(iter(scenario.models)))
>>> str(value.units)
'B'
>>> print(scenario.per_example("GPT-2").to("byte"))
6000000000.0 B
>>> print(scenario.per_example("GPT-2").to("MB"))
6000.0 MB
>>> print(scenario.per_batch("GPT-2").to("byte"))
1536000000000.0 B
>>> print(scenario.per_example("KWS"), scenario.per_batch("KWS").to("MB"))
800000.0 B 204.79999999999998 MB
>>> scenario.per_example("GPT-2").m_as("GB")
6.0
"""


@pytest.mark.parametrize("package", ["mlsysim", "mlsysim_symbolic"])
def test_the_seed_pages_doctest_passes_verbatim(package: str):
    """The same page passes against mlsysim 0.3.0 itself and against ours (``mlsysim`` replaced by ours)."""
    text = SEED_PAGE.format(package=package)
    test = doctest.DocTestParser().get_doctest(text, {}, f"seed page ({package})", "seed page", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries == 9


def test_the_seed_equals_mlsysim_in_mlsysims_units():
    import mlsysim

    ref = mlsysim.Scenarios.DpSgdPerExampleGradients
    for name in ("KWS", "GPT-2"):
        assert str(ref.per_example(name).units) == "B" and S.per_example(name).units == ureg.byte
        assert S.per_example(name).to("byte").magnitude == ref.per_example(name).to("byte").magnitude
        assert S.per_batch(name).to("byte").magnitude == ref.per_batch(name).to("byte").magnitude


def test_a_counted_output_returns_mlsysims_unit_and_its_equation_keeps_the_kind():
    from mlsysim_symbolic.solvers import SingleNodeModel

    r = SingleNodeModel().solve("ResNet50", "A100", batch_size=1)
    assert r.throughput.units == ureg.Unit("1/s")                                  # mlsysim: 1 / second
    assert r.throughput.m_as("1/s") == pytest.approx(1000 / r.latency.m_as("ms"), rel=1e-12)   # batch 1: 1 / latency
    stype = r.scenario.type
    assert stype.output("throughput").variable.unit == ureg.Unit("sample/s")       # what the equation is checked in


# ------------------------------------------------------------------ mlsysim's objects as inputs

def test_mlsysims_own_bytes_per_param_is_accepted():
    import mlsysim

    theirs = mlsysim.Scenarios.DpSgdPerExampleGradients.bytes_per_param            # mlsysim's 4 B (per nothing there)
    assert S.variant(bytes_per_param=theirs).per_batch("GPT-2") == S.per_batch("GPT-2")
    half = S.variant(bytes_per_param=theirs / 2)
    assert half.per_batch("GPT-2").to("byte").magnitude == 256 * 1.5e9 * 2        # by hand: B * P * 2 B


def test_mlsysims_counts_are_read_in_the_inputs_declared_kind():
    from mlsysim.core.units import Q_ as MQ

    from mlsysim_symbolic.solvers import SingleNodeModel

    # a parameter count as mlsysim writes one, through a workload given inline (P * b: 1e9 params at 2 B = 2 GB)
    r = Scenarios.DpSgdPerExampleGradients.variant(models={"m": {"parameters": MQ(1e9, "count")}})
    assert r.per_example("m").to("GB").magnitude == pytest.approx(4.0, rel=1e-12)   # 1e9 params x 4 B
    r = Scenarios.DpSgdPerExampleGradients.variant(models={"m": {"parameters": MQ(1.5, "Bparam")}})
    assert r.per_example("m").to("GB").magnitude == pytest.approx(6.0, rel=1e-12)   # 1.5e9 params x 4 B
    assert SingleNodeModel().solve("ResNet50", "A100", batch_size=MQ(8, "count")).latency == \
        SingleNodeModel().solve("ResNet50", "A100", batch_size=8).latency


@pytest.mark.parametrize("value, words", [
    (Q_(2, "GB/s"), ["bytes_per_param expects B/param", "got 2 GB/s"]),
    ("4 B/token", ["bytes_per_param expects B/param", "got 4 B/token (bytes per token)"]),
])
def test_a_real_mismatch_stays_refused_naming_the_input(value: Any, words: list[str]):
    with pytest.raises(UnitError) as info:
        S.variant(bytes_per_param=value)
    assert all(w in str(info.value) for w in words)


def test_a_mlsysim_dimension_mismatch_is_refused_naming_the_input():
    from mlsysim.core.units import Q_ as MQ

    from mlsysim_symbolic.solvers import ServingModel

    with pytest.raises(UnitError, match=r"seq_len.*another pint registry"):
        ServingModel().solve("Llama3_8B", "H100", seq_len=MQ(4, "GB"))


# ------------------------------------------------------------------ persistence

def _round_trips(value: Any) -> list[Any]:
    return [pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)]


def _in_our_registry(q: pint.Quantity) -> bool:
    return q._REGISTRY is ureg


def test_quantities_come_back_in_the_packages_registry():
    app = pint.get_application_registry()
    before = set(dir(app.get()._units)) if hasattr(app, "get") else None
    for q in (S.per_example("GPT-2"), Q_(6, "GB/sample"), Q_(256, "token/request"), Q_(3, "1/s")):
        for back in _round_trips(q):
            assert back == q and _in_our_registry(back)
            assert (back + q).magnitude == 2 * q.magnitude                       # adds to one of ours
    assert pickle.loads(pickle.dumps(ureg.Unit("B/sample"))) == ureg.Unit("B/sample")
    if before is not None:
        assert set(dir(app.get()._units)) == before                             # pint's registry untouched


def test_solver_results_result_views_levels_and_sweeps_survive_pickle_and_copy():
    from mlsysim_symbolic.solvers import ServingModel

    serving = ServingModel().solve("Llama3_8B", "H100", seq_len=4096)
    view = Scenarios.Llama3_70B_DecodeH100.result
    evaluation = Scenarios.KeywordSpotting.evaluate()
    sweep = S.sweep("per_batch", "GPT-2", batch_size=range(1, 65))
    reduction = S.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit="80 GB", batch_size=range(1, 1025))
    for back in _round_trips(serving):
        assert back == serving and back.ttft == serving.ttft and _in_our_registry(back.ttft)
        assert back.equation("ttft") == serving.equation("ttft")                  # its scenario came along
    for back in _round_trips(view):
        assert back == view and back.bottleneck == "Memory"
    for back in _round_trips(evaluation):
        assert [lv.status for lv in back.levels] == ["PASS", "FAIL", "PASS"]
        assert back.performance.summary == evaluation.performance.summary
    for back in _round_trips(sweep):
        assert (back.values == sweep.values).all() and _in_our_registry(back.values)
    for back in _round_trips(reduction):
        assert back.bounds["batch_size"][1] == Q_(13, "sample")                 # floor(80e9 / 6e9) by hand


USER_FILE = """
[types.UserBytes]
summary = "Bytes of a user's model: P·b."

[types.UserBytes.inputs.parameters]
symbol = "P"
unit = "param"

[types.UserBytes.inputs.bytes_per_param]
symbol = "b"
unit = "B/param"

[types.UserBytes.outputs.weights]
symbol = "W"
unit = "B"
equation = "P * b"

[scenarios.UserSeven]
type = "UserBytes"
inputs.parameters = "7e9 param"
inputs.bytes_per_param = "2 B/param"
"""


def test_a_scenario_loaded_from_a_users_file_survives_pickle_and_copy(tmp_path: Path):
    path = tmp_path / "user.toml"
    path.write_text(textwrap.dedent(USER_FILE), encoding="utf-8")
    s = load_derivations(path).scenario("UserSeven")
    for back in _round_trips(s):
        assert back.weights.to("GB").magnitude == pytest.approx(14.0, rel=1e-12)   # 7e9 x 2 B by hand
        assert back.equation("weights") == s.equation("weights")


def _evaluate_in_child(scenario: Any) -> Any:
    return scenario.weights, scenario   # a user's scenario crosses in, is evaluated, and crosses back


def test_a_users_scenario_crosses_a_spawned_process(tmp_path: Path):
    path = tmp_path / "user.toml"
    path.write_text(textwrap.dedent(USER_FILE), encoding="utf-8")
    s = load_derivations(path).scenario("UserSeven")
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        weights, back = pool.submit(_evaluate_in_child, s).result(timeout=300)
    assert weights.to("GB").magnitude == pytest.approx(14.0, rel=1e-12) and _in_our_registry(weights)   # 7e9 x 2 B
    assert back.weights == weights and type(back).__name__ == "UserBytes"


def _per_batch_in_child(key: str) -> Any:
    from mlsysim_symbolic import Scenarios as ChildScenarios

    return ChildScenarios.DpSgdPerExampleGradients.per_example(key), ChildScenarios.DpSgdPerExampleGradients.per_batch(key)


def _solve_in_child(seq_len: int) -> Any:
    from mlsysim_symbolic.solvers import ServingModel

    return ServingModel().solve("Llama3_8B", "H100", seq_len=seq_len)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_process_pool_returns_quantities_and_solver_results(method: str):
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        per_example, per_batch = pool.submit(_per_batch_in_child, "GPT-2").result(timeout=300)
        result = pool.submit(_solve_in_child, 4096).result(timeout=300)
    assert per_example == S.per_example("GPT-2") and _in_our_registry(per_example)
    assert per_batch.to("byte").magnitude == 1.536e12
    from mlsysim_symbolic.solvers import ServingModel

    assert result == ServingModel().solve("Llama3_8B", "H100", seq_len=4096)
    assert mlsysim_symbolic.units.ureg is ureg
