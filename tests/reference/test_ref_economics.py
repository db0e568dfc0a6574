"""Economics scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py).

mlsysim's pint registry has a month of 30.4375 days and a Julian year of 365.25 days; units.txt has no month
and a 365-day year.  Where mlsysim states a value per month or per year, ours is the amount of one such
period (USD, hours) or a count of periods (payback in months), exactly as mlsysim's own OwnVsRentScenario
keeps its yearly costs.  The harness would read mlsysim's unit text ("dollar / month") in our registry, so
those members are skipped there and compared here (``CALENDAR``): mlsysim's magnitude in its unit against
ours in the declared unit.
"""

from __future__ import annotations

import math
import re

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import reference_scenario
from .members import Wave, instances, wave_tests

CALENDAR_REASON = ("mlsysim states it per month or per pint year (units.txt has no month and a 365-day year); "
                   "compared by magnitude in test_calendar_member_equals_mlsysim")

#: (class, member) -> (mlsysim's unit, our unit): the magnitudes are compared in these units
CALENDAR: dict[tuple[str, str], tuple[str, str]] = {
    ("LifecycleTcoScenario", "total"): ("USD/month", "USD"),
    ("OptimizationPaybackScenario", "monthly_savings"): ("USD/month", "USD"),
    ("OptimizationPaybackScenario", "payback"): ("month", ""),
    ("PlatformBenefitScenario", "gross_benefit"): ("USD/month", "USD"),
    ("PlatformBenefitScenario", "net_benefit"): ("USD/month", "USD"),
    ("CloudEdgeCostScenario", "cloud_inference_annual"): ("USD/year", "USD"),
    ("CloudEdgeCostScenario", "cloud_annual"): ("USD/year", "USD"),
    ("CloudEdgeCostScenario", "edge_inference_annual"): ("USD/year", "USD"),
    ("CloudEdgeCostScenario", "edge_annual"): ("USD/year", "USD"),
    ("CloudEdgeCostScenario", "annual_savings"): ("USD/year", "USD"),
    ("CloudEdgeCostScenario", "payback"): ("year", ""),
}

#: (class, dict member) -> {mlsysim's key: our output}: a dict of fixed terms, each an output of ours
TERMS: dict[tuple[str, str], dict[str, str]] = {
    ("ServiceLifecycleCostScenario", "shares"): {
        "training": "training_share", "inference": "inference_share", "operations": "operations_share"},
}

WAVE = Wave(
    classes=(
        "OwnVsRentScenario",
        "TrainingCampaignCostScenario",
        "ServiceLifecycleCostScenario",
        "LifecycleTcoScenario",
        "OptimizationPaybackScenario",
        "PlatformBenefitScenario",
        "CloudEdgeCostScenario",
        "DataCostBreakdownScenario",
        "IdleCapacityCostScenario",
        "SpotEffectiveCostScenario",
        "SpotRunScenario",
        "UtilizationGainScenario",
        "UtilizationLossScenario",
        "ServingCostScenario",
        "AutomationBreakevenScenario",
        "BatchServingCostScenario",
        "ClickLossScenario",
        "RevenueRegressionScenario",
        "RunAmortizationScenario",
        "ServingInstanceCostScenario",
    ),
    not_ported={},
    skipped={
        **dict.fromkeys(CALENDAR, CALENDAR_REASON),
        **dict.fromkeys(TERMS, "a dict of three fixed terms (not the keys of an input), which a dict output cannot "
                               "give; each term is an output of ours, compared by test_fixed_terms_equal_mlsysim"),
        ("LifecycleTcoScenario", "dominant"): "the key of the largest entry of the map input `monthly`: a label's "
                                              "cases are fixed named terms, and an equation cannot name one key of a "
                                              "map, so the engine cannot take argmax over a map's keys",
        **dict.fromkeys([("BatchServingCostScenario", "cost_ratio"), ("BatchServingCostScenario", "added_time")],
                        "reads the first and last element of the list input batch_sizes; the equation language has "
                        "no positional access to a list (only sum/prod over all its keys)"),
        **dict.fromkeys([("ServingInstanceCostScenario", m) for m in
                         ("price_ratio", "breakeven_rate", "small_within_large_price", "small_fleet_rate")],
                        "picks the entries of the maps prices/rates named by the text inputs small and large; an "
                        "equation cannot select one key of a map by a choice input's value"),
        ("LifecycleTcoScenario", "ratios_to"): "its argument is another LifecycleTcoScenario (no scenario-valued method "
                                               "argument in this branch's engine) and it returns a dict over the keys of "
                                               "`monthly` plus an extra key 'total', which a dict output keyed by an "
                                               "input's keys cannot give",
    },
    method_args={
        ("BatchServingCostScenario", "cost_per_million"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 128}],
        ("RevenueRegressionScenario", "loss"): [{"duration": "4 h"}, {"duration": "5 day"}],
        ("RunAmortizationScenario", "net_return"): [{"runs": 1}, {"runs": 5}, {"runs": 50}],
        ("RunAmortizationScenario", "savings_multiple"): [{"runs": 1}, {"runs": 10}],
        ("ServingInstanceCostScenario", "cost_per_million"): [{"instance": ("option", k)} for k in ("CPU", "T4", "H100")],
        ("ServingInstanceCostScenario", "requests_per_hour"): [{"instance": ("option", k)} for k in ("CPU", "T4", "H100")],
        ("TrainingCampaignCostScenario", "rented_cost_per_run"): [{"length": "2 week"}, {"length": "4 week"}],
    },
    implicit_units={
        ("IdleCapacityCostScenario", "gpu_hours"): "h",
        ("IdleCapacityCostScenario", "cost"): "USD",
        ("SpotEffectiveCostScenario", "effective_rate"): "USD/h",
        ("SpotRunScenario", "run_hours"): "h",
        ("SpotRunScenario", "run_days"): "d",
        ("SpotRunScenario", "on_demand_cost"): "USD",
        ("SpotRunScenario", "spot_base_cost"): "USD",
        ("SpotRunScenario", "checkpoint_extra_hours"): "h",
        ("SpotRunScenario", "restart_total_hours"): "h",
        ("SpotRunScenario", "spot_total_hours"): "h",
        ("SpotRunScenario", "spot_total_cost"): "USD",
        ("SpotRunScenario", "savings"): "USD",
        ("UtilizationGainScenario", "annual_value"): "USD",
        ("ServingCostScenario", "daily_requests"): "request",
        ("ServingCostScenario", "annual_requests"): "request",
        ("ServingCostScenario", "annual_serving_cost"): "USD",
        ("ServingCostScenario", "efficiency_savings"): "USD",
        ("ServingCostScenario", "monthly_serving_cost"): "USD",
        ("ClickLossScenario", "requests"): "request",
        ("ClickLossScenario", "ctr_drop"): "1/request",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def _cases(table: dict) -> list:
    return [pytest.param(cls, key, member, id=f"{key}.{member}")
            for (cls, member) in table for key in instances(cls)]


@pytest.mark.parametrize(("cls_name", "key", "member"), _cases(CALENDAR))
def test_calendar_member_equals_mlsysim(cls_name: str, key: str, member: str) -> None:
    theirs_unit, ours_unit = CALENDAR[(cls_name, member)]
    raw = getattr(reference_scenario(key), member)
    calendar_words = {"month", "year", "a", "annum", "julian_year"} & set(re.findall(r"[a-z_]+", str(raw.units)))
    assert calendar_words, f"{key}.{member} is in {raw.units}: compare it in the harness"
    theirs = raw.to(theirs_unit).magnitude
    ours = getattr(catalog().scenario(key), member)
    ours = ours.to(ours_unit).magnitude if ours_unit else float(ours.to("").magnitude)
    assert math.isclose(ours, theirs, rel_tol=1e-9), f"{key}.{member}: ours {ours!r}, mlsysim {theirs!r} {theirs_unit}"


@pytest.mark.parametrize(("cls_name", "key", "member"), _cases(TERMS))
def test_fixed_terms_equal_mlsysim(cls_name: str, key: str, member: str) -> None:
    theirs = getattr(reference_scenario(key), member)
    ours = catalog().scenario(key)
    terms = TERMS[(cls_name, member)]
    assert list(theirs) == list(terms)
    for k, output in terms.items():
        value = float(getattr(ours, output).to("").magnitude)
        assert math.isclose(value, theirs[k], rel_tol=1e-9), f"{key}.{member}[{k}]: ours {value!r}, mlsysim {theirs[k]!r}"


@pytest.mark.parametrize("key", instances("OwnVsRentScenario"))
def test_breakeven_utilization_equates_owning_and_renting(key: str) -> None:
    """The closed form u* = (C_up + Y F) / (Y (R - E)) is where the lifetime costs are equal (derivation check)."""
    s = catalog().scenario(key)
    u_star = float(s.breakeven_utilization.to("").magnitude)
    at = s.variant(utilization=u_star)
    owned, rented = at.owned_total.to("USD").magnitude, at.rented_total.to("USD").magnitude
    assert math.isclose(owned, rented, rel_tol=1e-12), f"{key}: owned {owned} != rented {rented} at u* = {u_star}"
    assert math.isclose(float(at.savings.to("USD").magnitude), 0.0, abs_tol=1e-6 * owned)


@pytest.mark.parametrize("key", instances("OwnVsRentScenario"))
def test_crossover_months_equates_cumulative_costs(key: str) -> None:
    """After crossover_months, cumulative rent equals the up-front cost plus the owned running cost."""
    s = catalog().scenario(key)
    t = float(s.crossover_months.to("").magnitude)
    rent = s.rent_per_month.to("USD").magnitude * t
    own = s.upfront.to("USD").magnitude + s.owned_cost_per_month.to("USD").magnitude * t
    assert t > 0 and math.isclose(rent, own, rel_tol=1e-12)


#: (named scenario, our changed inputs, mlsysim's changed fields): off the named points, every harness-compared
#: property must still equal mlsysim's (the whole-node floor, the energy flag, the whole-day count, optional inputs)
VARIANTS = [
    ("OwnVsRentH100Cluster10K", {"gpus": 1001, "energy_scales_with_use": 1, "utilization": 0.35},
     {"gpus": 1001, "energy_scales_with_use": True, "utilization": 0.35}),
    ("OwnVsRentDgxH100Node", {"energy_scales_with_use": 0, "pue": 1.4, "years": 5},
     {"energy_scales_with_use": False, "pue": 1.4, "years": 5}),
    ("Llama2_70BSpotRun512", {"run_duration": "13.6 d", "interruptions_per_day": 3},
     {"run_duration": "13.6 d", "interruptions_per_day": 3}),
    ("RetrainingPipelineAutomation", {"upkeep_rate": "1.5 h/week"}, {"upkeep_rate": "1.5 h/week"}),
    ("ReservedGpusIdleThreeWeeks", {"gang_gpus": 512}, {"gang_gpus": 512}),
]


@pytest.mark.parametrize(("key", "ours_changes", "theirs_changes"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variants_off_the_named_points_equal_mlsysim(key: str, ours_changes: dict, theirs_changes: dict) -> None:
    from .members import equal, public_members, to_reference

    ours = catalog().scenario(key).variant(**ours_changes)
    ref = reference_scenario(key)
    theirs = ref.model_copy(update={k: to_reference(v) if isinstance(v, str) else v for k, v in theirs_changes.items()})
    cls_name = type(ref).__name__
    compared = 0
    for member, how in public_members(cls_name).items():
        if how != "property" or (cls_name, member) in WAVE.skipped:
            continue
        compared += equal(getattr(ours, member), getattr(theirs, member), f"{key}*.{member}",
                          WAVE.implicit_units.get((cls_name, member)))
    assert compared >= 1
