"""mlsysim 0.3.0's 13 application scenarios (``mlsysim.Scenarios.ChatbotServing`` ...), evaluated level by level.

Each configuration calls mlsysim's own ``Scenario.evaluate(batch_size, precision)`` and ours
(``mlsysim_symbolic.Scenarios.<name>.evaluate(...)``, the data of ``derivations/applications.toml`` run through the
checked types) and compares the scenario name, and for each level its name, status, summary (the text, exactly) and
every metric (keys in order; numbers at 1e-9, booleans and labels exactly, None as None).

One deliberate divergence, in one summary: ``AutonomousVehicle_Waymo`` puts 19 TB/h through a Jetson Orin NX whose
registry entry (mlsysim's and ours) describes no storage and no host interconnect.  mlsysim prints the utilization
as "infx capacity" (demand over a supply of 0); ours does not divide by 0 (DataModelScenario's stated exclusion) and
says that the device describes no data path.  Status, ``data_stalled`` and every metric are equal.
"""

from __future__ import annotations

import math
import re
import warnings
from decimal import Decimal
from typing import Any

import pytest

from mlsysim_symbolic import InputError, Scenarios, UnexpectedNameError, UnknownNameError
from mlsysim_symbolic.errors import DerivationError, InfeasibleError
from mlsysim_symbolic.solvers import Application, Applications, OutOfMemoryError, SingleNodeModel, SLAViolation
from mlsysim_symbolic.solvers.applications import read_applications

from .compare import assert_close, assert_same
from .lazy import reference

mlsysim = reference("mlsysim")

NAMES = ["ChatbotServing", "FrontierTraining", "KeywordSpotting", "TinySensor", "AutonomousVehicle",
         "AutonomousVehicle_Waymo", "MobileHealth", "FederatedMobileVision", "MobileAssistant", "LocalTraining",
         "DenseLLMPretrainingReference", "SmartDoorbell", "SmartDoorbellResponsiveChime"]
FLEETS = {"FrontierTraining", "DenseLLMPretrainingReference"}

#: (batch_size, precision): mlsysim's default first; the fleets at batches that fill their data-parallel ranks.
DEVICE_CONFIGS = [(1, "fp16"), (4, "fp32"), (16, "int8"), (64, "bf16"), (2, "int4")]
FLEET_CONFIGS = [(1, "fp16"), (8192, "fp16"), (1024, "fp32"), (2048, "bf16"), (16384, "int8")]
CASES = [(n, b, p) for n in NAMES for b, p in (FLEET_CONFIGS if n in FLEETS else DEVICE_CONFIGS)]

WAYMO_OURS = " | Data Wall: Pipeline Stalled (the device describes no data path: supply 0 GB/s)"
WAYMO_THEIRS = " | Data Wall: Pipeline Stalled (infx capacity)"


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def assert_same_text(ours: str, ref: str, label: str, values: dict[str, Any]) -> None:
    """The summaries are equal, but for a number that mlsysim rounds from a binary float at a decimal tie.

    Ours rounds half up from 12 significant digits (``applications._fixed``); mlsysim's f-string rounds the float,
    whose side of a tie is noise (and an exact binary tie rounds half to even).  A number may differ only where
    ours is the half-up rounding of a tie: mlsysim's digits plus one unit in the last place, and mlsysim's float,
    at 12 significant digits, is that tie."""
    if ours == ref:
        return
    a, b = _NUMBER.findall(ours), _NUMBER.findall(ref)
    assert _NUMBER.sub("#", ours) == _NUMBER.sub("#", ref) and len(a) == len(b), f"{label}: {ours!r} != {ref!r}"
    for x, y in zip(a, b):
        if x != y:
            dx, dy = Decimal(x.replace(",", "")), Decimal(y.replace(",", ""))
            ulp = Decimal(1).scaleb(dy.as_tuple().exponent)
            tie = dy + ulp / 2
            assert dx == dy + ulp, f"{label}: {x} against mlsysim's {y} in {ref!r}"
            assert tie in _decimals(values), f"{label}: {x} against mlsysim's {y}, and no metric is the tie {tie}"


def _decimals(values: dict[str, Any]) -> set[Decimal]:
    """mlsysim's metric values at 12 significant digits, in the units its summaries print."""
    out = set()
    for v in values.values():
        if isinstance(v, float):
            out.add(Decimal(f"{v:.12g}"))
        elif hasattr(v, "units"):
            for unit in ("MB", "GB", "ms"):
                try:
                    out.add(Decimal(f"{v.to(unit).magnitude:.12g}"))
                except Exception:   # another dimension (mlsysim's pint DimensionalityError)
                    pass
    return out


def theirs(name: str, batch_size: int, precision: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # mlsysim warns when the batch leaves data-parallel ranks idle
        return getattr(mlsysim.Scenarios, name).evaluate(batch_size=batch_size, precision=precision)


def test_the_thirteen_are_mlsysims():
    assert sorted(Applications) == sorted(NAMES)
    for name in NAMES:
        ours, ref = Scenarios[name], getattr(mlsysim.Scenarios, name)
        assert (ours.name, ours.description, ours.application) == (ref.name, ref.description, ref.application)
        assert ours.is_distributed == ref.is_distributed
        for f in ("sla_latency", "power_budget"):
            assert_same(getattr(ours, f), getattr(ref, f), f"{name}.{f}")
        assert_same(ours._data_rate(), ref.workload.data_rate, f"{name}.data_rate")
        assert ours.target_accuracy == ref.target_accuracy


@pytest.mark.parametrize("name,batch_size,precision", CASES, ids=[f"{n}-{b}-{p}" for n, b, p in CASES])
def test_evaluate_equals_mlsysim_level_by_level(name: str, batch_size: int, precision: str):
    ours = Scenarios[name].evaluate(batch_size=batch_size, precision=precision)
    ref = theirs(name, batch_size, precision)
    assert ours.scenario_name == ref.scenario_name
    for mine, their in zip(ours.levels, (ref.feasibility, ref.performance, ref.macro)):
        label = f"{name}/{their.level_name}"
        assert (mine.level_name, mine.status) == (their.level_name, their.status), label
        expected = their.summary
        if name == "AutonomousVehicle_Waymo" and mine.level_name == "Feasibility":
            assert expected.endswith(WAYMO_THEIRS)
            expected = expected.replace(WAYMO_THEIRS, WAYMO_OURS)
        assert_same_text(mine.summary, expected, label, their.metrics)
        assert list(mine.metrics) == list(their.metrics), label
        for key, value in their.metrics.items():
            assert_same(mine.metrics[key], value, f"{label}.{key}")
    assert ours.passed_all == ref.passed_all
    assert list(ours.to_dict()) == list(ref.to_dict())
    card = ref.scorecard()
    for mine, their in zip(ours.levels, (ref.feasibility, ref.performance, ref.macro)):
        card = card.replace(f"↳ {their.summary}\n", f"↳ {mine.summary}\n").replace(f"↳ {their.summary}\n", f"↳ {mine.summary}\n")
    assert ours.scorecard() + "\n" == card + "\n"


@pytest.mark.parametrize("name", NAMES)
def test_validate_raises_as_mlsysim(name: str):
    from mlsysim.core.exceptions import OOMError as TheirOOM
    from mlsysim.core.exceptions import SLAViolation as TheirSLA

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected: Any = getattr(mlsysim.Scenarios, name).validate()
        except (TheirOOM, TheirSLA) as exc:
            expected = exc
    if expected is True:
        assert Scenarios[name].validate() is True
        return
    error = OutOfMemoryError if isinstance(expected, TheirOOM) else SLAViolation
    with pytest.raises(error) as caught:
        Scenarios[name].validate()
    if name != "AutonomousVehicle_Waymo":
        assert str(caught.value) == str(expected)


#: The unit of a metric mlsysim gives as a plain number (its name says it).
PLAIN_UNITS = {"carbon_kg": "kg", "tco_usd": "USD"}


@pytest.mark.parametrize("name", NAMES)
def test_every_computed_metric_is_its_equations_value(name: str):
    """Each metric that is computed names a scenario output whose value is the metric, with an equation."""
    e = Scenarios[name].evaluate()
    reached = 0
    for level in e.levels:
        for metric, value in level.metrics.items():
            try:
                scenario, output = level.source(metric)
            except InputError:
                assert metric in ("capacity", "sla_latency", "data_stalled"), metric
                continue
            assert level.equation(metric).lhs is not None
            got = getattr(scenario, output)
            if isinstance(value, (bool, str)):
                assert got == value, metric
            elif isinstance(value, float) and metric in PLAIN_UNITS:
                assert math.isclose(got.m_as(PLAIN_UNITS[metric]), value, rel_tol=1e-12), metric
            else:
                assert_close(got, value, f"{name}.{metric}")
            reached += 1
    assert reached >= (8 if name in FLEETS else 6)


def test_derivative_of_latency_in_batch_against_mlsysim_central_difference():
    """KeywordSpotting is compute-bound on the ESP32-S3: T = t_o + B·F/R_eff, so dT/dB is F/R_eff; mlsysim's
    own evaluate() at B = 3 and 5 gives the central difference."""
    level = Scenarios.KeywordSpotting.evaluate(batch_size=4).performance
    slope = level.diff("latency", "batch_size")
    scenario, _ = level.source("latency")
    ours = float(slope.subs({s: v for s, v in _numbers(scenario).items()}).evalf())
    lo, hi = (theirs("KeywordSpotting", b, "fp16").performance.metrics["latency"].to("s").magnitude for b in (3, 5))
    assert math.isclose(ours, (hi - lo) / 2, rel_tol=1e-9)


def _numbers(scenario: Any) -> dict:
    out = {}
    for sym, q in scenario.symbol_values("latency").items():
        out[sym] = q.to_base_units().magnitude if hasattr(q, "to_base_units") else q
    return out


def test_inverse_solve_from_a_level():
    """What software efficiency would bring KeywordSpotting (81.01 ms) to its 30 ms SLA: more than 1, so none.
    By hand: T = t_o + F/(R·eta) with t_o = 1.01 ms, so 30 ms needs eta = 0.5·80/(30 − 1.01) = 1.3798."""
    level = Scenarios.KeywordSpotting.evaluate().performance
    with pytest.raises(InfeasibleError, match=r"efficiency = 1\.3797"):
        level.solve("latency", "efficiency", "30 ms")
    # TinySensor (8.435 ms, memory-bound): the largest batch under its 10 ms SLA.
    tiny = Scenarios.TinySensor.evaluate().performance
    largest = tiny.solve("latency", "batch_size", "10 ms")
    b = largest.value
    fits = SingleNodeModel().solve("AnomalyDetector", "ESP32_S3", batch_size=b).latency
    over = SingleNodeModel().solve("AnomalyDetector", "ESP32_S3", batch_size=b + 1).latency
    assert fits.to("ms").magnitude <= 10 < over.to("ms").magnitude


def test_variant_and_a_users_application():
    base = Scenarios.SmartDoorbell
    strict = base.variant(sla_latency="50 ms", name="Smart Doorbell, responsive chime")
    assert strict.evaluate().performance.summary == Scenarios.SmartDoorbellResponsiveChime.evaluate().performance.summary
    mine = Application("Edge ResNet", "ResNet-50 on a Jetson", "ResNet50", "JetsonOrinNX", sla_latency="20 ms")
    ref = mlsysim.engine.scenarios.Scenario(name="Edge ResNet", description="ResNet-50 on a Jetson",
                                            workload=mlsysim.Models.Vision.ResNet50,
                                            system=mlsysim.Hardware.Edge.JetsonOrinNX,
                                            sla_latency=mlsysim.core.units.Q_("20 ms"))
    e, r = mine.evaluate(batch_size=8), ref.evaluate(batch_size=8)
    for a, b in zip(e.levels, (r.feasibility, r.performance, r.macro)):
        assert (a.status, a.summary) == (b.status, b.summary)
        for k, v in b.metrics.items():
            assert_same(a.metrics[k], v, k)


def test_bad_input_is_named(tmp_path):
    with pytest.raises(UnknownNameError, match="unknown hardware or cluster key 'Frontier_9K'"):
        Application("x", "", "GPT4", "Frontier_9K").evaluate()
    with pytest.raises(InputError, match="sla_latency: expected a quantity in ms"):
        Application("x", "", "GPT4", "H100", sla_latency="5 GB")
    with pytest.raises(InputError, match="sla_latency: expected a positive quantity"):
        Application("x", "", "GPT4", "H100", sla_latency="-5 ms")
    with pytest.raises(UnexpectedNameError, match="Application: unexpected field 'sla'"):
        Scenarios.ChatbotServing.variant(sla="1 ms")
    level = Scenarios.ChatbotServing.evaluate().performance
    with pytest.raises(UnexpectedNameError, match="the Performance level: unexpected metric 'latncy'; did you mean 'latency'"):
        level.equation("latncy")
    with pytest.raises(InputError, match="repeats an input"):
        level.equation("sla_latency")
    with pytest.raises(InputError, match="precision='fp7' is not a known precision.*Known: 'bf16'"):
        Scenarios.ChatbotServing.evaluate(precision="fp7")
    bad = tmp_path / "apps.toml"
    bad.write_text('[applications.X]\nname = "X"\nworkload = "GPT4"\nhardware = "H100"\nsla = "1 ms"\n')
    with pytest.raises(DerivationError, match="unknown field 'sla'"):
        read_applications(bad)
    bad.write_text('[applications.X]\nname = "X"\nworkload = "GPT5"\nhardware = "H100"\n')
    with pytest.raises(DerivationError, match="workload 'GPT5' is not in the workload registry"):
        read_applications(bad)
    bad.write_text('[applications.X]\nname = "X"\nworkload = "GPT4"\nhardware = "H100"\nfleet = "Training_1K"\n')
    with pytest.raises(DerivationError, match="exactly one of hardware or fleet"):
        read_applications(bad)
    bad.write_text('[applications.X]\nname = "X"\nworkload = "GPT4"\nfleet = "Frontier_9K"\n')
    with pytest.raises(DerivationError, match="fleet 'Frontier_9K' is not in the fleet registry; did you mean 'Frontier_8K'"):
        read_applications(bad)
    with pytest.raises(AttributeError, match="ChatbotServng"):
        Scenarios.ChatbotServng  # noqa: B018
