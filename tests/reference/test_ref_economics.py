"""Economics scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py).

Per-month and per-year members (USD/month, dollar/a, payback in months or years) are in pint's month and Julian
year in both registries, so the harness compares them as they are.
"""

from __future__ import annotations

import math

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import reference_scenario
from .members import Wave, named, wave_tests

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
        **dict.fromkeys(TERMS, "a dict of three fixed terms (not the keys of an input), which a dict output cannot "
                               "give; each term is an output of ours, compared by test_fixed_terms_equal_mlsysim"),
        **dict.fromkeys([("BatchServingCostScenario", "cost_ratio"), ("BatchServingCostScenario", "added_time")],
                        "reads the first and last element of the list input batch_sizes; the equation language has "
                        "no positional access to a list (sum/prod/maximum/minimum over all its keys: the smallest and "
                        "largest batch equal the first and last only for a sorted list)"),
        **dict.fromkeys([("ServingInstanceCostScenario", m) for m in
                         ("price_ratio", "breakeven_rate", "small_within_large_price", "small_fleet_rate")],
                        "picks the entries of the maps prices/rates named by the text inputs small and large; an "
                        "equation cannot select one key of a map by a choice input's value"),
        ("LifecycleTcoScenario", "ratios_to"): "returns {term: this term / other's term, ..., 'total': this total / "
                                               "other's}; the per-term ratios need another scenario's keyed term read "
                                               "at this scenario's key (other.X of a keyed output raises 'needs a key "
                                               "for term'), and a dict output has only its index's keys, so no "
                                               "'total'; ours gives the 'total' entry as total_ratio_to(other), "
                                               "compared in test_total_ratio_equals_mlsysims_ratios_to_total",
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
            for (cls, member) in table for key in named(cls)]


@pytest.mark.parametrize(("cls_name", "key", "member"), _cases(TERMS))
def test_fixed_terms_equal_mlsysim(cls_name: str, key: str, member: str) -> None:
    theirs = getattr(reference_scenario(key), member)
    ours = catalog().scenario(key)
    terms = TERMS[(cls_name, member)]
    assert list(theirs) == list(terms)
    for k, output in terms.items():
        value = float(getattr(ours, output).to("").magnitude)
        assert math.isclose(value, theirs[k], rel_tol=1e-9), f"{key}.{member}[{k}]: ours {value!r}, mlsysim {theirs[k]!r}"


@pytest.mark.parametrize("key", named("LifecycleTcoScenario"))
@pytest.mark.parametrize("other", named("LifecycleTcoScenario"))
def test_total_ratio_equals_mlsysims_ratios_to_total(key: str, other: str) -> None:
    """mlsysim's ratios_to(other)['total'] against our total_ratio_to(other), for every pair of named budgets."""
    theirs = reference_scenario(key).ratios_to(reference_scenario(other))["total"]
    ours = float(catalog().scenario(key).total_ratio_to(other).to("").magnitude)
    assert math.isclose(ours, theirs, rel_tol=1e-9), f"{key}.ratios_to({other})['total']: ours {ours!r}, mlsysim {theirs!r}"


def test_dominant_term_follows_the_largest_amount() -> None:
    """The label names the largest term, and moves when another term overtakes it (a tie goes to the earlier key)."""
    s = catalog().scenario("FiftyModelCompanyTco")
    assert s.dominant == "inference"
    assert s.variant(monthly={**s.monthly, "data": "500000 USD/month"}).dominant == "data"
    assert s.variant(monthly={**s.monthly, "training": "400000 USD/month"}).dominant == "training"


@pytest.mark.parametrize("key", named("OwnVsRentScenario"))
def test_breakeven_utilization_equates_owning_and_renting(key: str) -> None:
    """The closed form u* = (C_up + Y F) / (Y (R - E)) is where the lifetime costs are equal (derivation check)."""
    s = catalog().scenario(key)
    u_star = float(s.breakeven_utilization.to("").magnitude)
    at = s.variant(utilization=u_star)
    owned, rented = at.owned_total.to("USD").magnitude, at.rented_total.to("USD").magnitude
    assert math.isclose(owned, rented, rel_tol=1e-12), f"{key}: owned {owned} != rented {rented} at u* = {u_star}"
    assert math.isclose(float(at.savings.to("USD").magnitude), 0.0, abs_tol=1e-6 * owned)


@pytest.mark.parametrize("key", named("OwnVsRentScenario"))
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
