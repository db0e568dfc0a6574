"""Power, energy and sustainability scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""
from .members import Wave, wave_tests

_TIERS = ("kws", "llm_query", "mobilenet_phone", "resnet_edge", "resnet_cloud")

WAVE = Wave(
    classes=(
        "PeriodicInferencePowerScenario",
        "TokenEnergyScenario",
        "BatchEnergyPerImageScenario",
        "OffloadEnergyScenario",
        "OperationalCarbonScenario",
        "BatteryBudgetScenario",
        "ThermalCeilingScenario",
        "DemandReboundScenario",
        "DutyCycledPowerScenario",
        "FacilityPowerScenario",
        "CascadeEnergyScenario",
        "DataMovementEnergyScenario",
        "DevelopmentSweepScenario",
        "EmbodiedPaybackScenario",
        "PowerTransientScenario",
        "PueRetrofitScenario",
        "RepeatedWorkEnergyScenario",
        "ServiceLifeExtensionScenario",
        "ServingCrossoverScenario",
        "CoolingScenario",
        "WaterUseScenario",
        "GridPlacementScenario",
        "EnergyPerInferenceScenario",
    ),
    not_ported={},
    renamed={},
    skipped={},
    method_args={
        # every ordered pair of the five tiers (anchors and runs, each way), passed as the key names they are
        ("EnergyPerInferenceScenario", "span"): [
            {"low": ("option", lo), "high": ("option", hi)} for lo in _TIERS for hi in _TIERS if lo != hi],
        ("TokenEnergyScenario", "energy_per_token"): [{"rate": "100 token/s"}, {"rate": "912 token/s"}, {"rate": "91.2 token/s"}],
        ("BatchEnergyPerImageScenario", "weight_per_image"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 32}],
        ("BatchEnergyPerImageScenario", "bytes_per_image"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 32}],
        ("BatchEnergyPerImageScenario", "intensity"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 32}],
        ("BatchEnergyPerImageScenario", "movement_energy"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 32}],
        ("BatchEnergyPerImageScenario", "energy"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 32}],
        ("BatchEnergyPerImageScenario", "movement_share"): [{"batch_size": 1}, {"batch_size": 8}, {"batch_size": 32}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


# --------------------------------------------------------------------------- beyond the named scenarios

def _ureg():
    import mlsysim

    return mlsysim.core.units.ureg


def test_low_use_energy_per_token_is_mlsysims_low_use_call() -> None:
    """mlsysim's energy_per_token(rate, low_use=True) is our low_use_energy_per_token(rate)."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    ours, theirs = catalog().scenario("H100ChatEnergyPerToken"), reference_scenario("H100ChatEnergyPerToken")
    for rate in ("91.2 token/s", "912 token/s", "10 token/s"):
        assert_close(ours.low_use_energy_per_token(rate=rate), theirs.energy_per_token(_ureg().Quantity(rate), True), rate)


def test_operational_carbon_from_devices_power_and_duration_equals_mlsysim() -> None:
    """The second branch of it_energy_total (devices x power x duration), which no named scenario takes."""
    from mlsysim.engine.scenario_types import OperationalCarbonScenario

    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close

    q = _ureg().Quantity
    theirs = OperationalCarbonScenario(name="x", description="x", intensity=q("429 g/kWh"), pue=1.1, devices=1024,
                                       device_power=q("400 W"), duration=q("720 h"), comparison=q("4.6 t"))
    ours = catalog().type_class("OperationalCarbonScenario")(intensity="429 g/kWh", pue=1.1, devices=1024,
                                                              device_power="400 W", duration="720 h", comparison="4.6 t")
    for member in ("it_energy_total", "energy", "carbon"):
        assert_close(getattr(ours, member), getattr(theirs, member), member)
    assert_close(ours.comparisons, theirs.comparisons, "comparisons")


def test_demand_rebound_with_a_stated_per_unit_factor_equals_mlsysim() -> None:
    """The first branch of unit_factor (a stated per-unit factor wins over the prices)."""
    from mlsysim.engine.scenario_types import DemandReboundScenario

    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close

    theirs = DemandReboundScenario(name="x", description="x", volume_factor=100.0, per_unit_factor=0.5,
                                   unit_price_before=0.06, unit_price_after=0.002)
    ours = catalog().scenario("TokenPriceRebound").variant(per_unit_factor=0.5)
    assert_close(ours.unit_factor, theirs.unit_factor, "unit_factor")
    assert_close(ours.net_factor, theirs.result.net_factor, "net_factor")


def test_gpt3_operational_carbon_is_pattersons_552_tonnes() -> None:
    """Patterson et al. (2021), Table 4: GPT-3, 1,287 MWh at 0.429 kgCO2e/kWh, 552 net tCO2e."""
    from mlsysim_symbolic.catalog import catalog

    carbon = catalog().scenario("Gpt3TrainingCarbon").carbon.m_as("t")
    assert round(carbon) == 552


def test_horowitz_45nm_energies() -> None:
    """Horowitz (ISSCC 2014), 45 nm: a 32-bit DRAM read costs 640 pJ (160 pJ per byte, the scenarios' byte energy);
    the mean of a 32-bit float add (0.9 pJ) and multiply (3.7 pJ) is the ResNet-50 scenario's 2.3 pJ per FLOP."""
    from mlsysim_symbolic.catalog import catalog

    assert catalog().scenario("BatchOneDecodeWeightEnergy").operand_energy.m_as("pJ") == 640.0
    resnet = catalog().scenario("ResNet50BatchEnergyPerImage")
    assert abs(resnet.inputs["flop_energy"].m_as("pJ/flop") - (0.9 + 3.7) / 2) < 1e-12
    assert resnet.inputs["byte_energy"].m_as("pJ/B") * 4 == 640.0


def test_pue_is_facility_over_it_power() -> None:
    """The Green Grid (WP #49): PUE = total facility power / IT equipment power, recovered from the outputs."""
    from mlsysim_symbolic.catalog import catalog

    for key in ("Mega100KFacilityPower", "Reference25KFacilityPower"):
        s = catalog().scenario(key)
        assert abs(float(s.facility_power / s.it_power) - s.inputs["pue"]) < 1e-12


def test_air_flow_matches_the_standard_air_sensible_heat_rule() -> None:
    """The HVAC rule for standard air (0.075 lb/ft^3 x 0.24 Btu/(lb F) x 60 min/h = 1.08): q [Btu/h] = 1.08 x CFM x dT [F].
    Our air constants (1.2 kg/m^3, 1005 J/(kg K)) give the same volume flow within 0.5 %, both ways round."""
    from mlsysim_symbolic.catalog import catalog

    btu_per_hour, cfm = 0.29307107, 0.471947443   # W per Btu/h; L/s per ft^3/min
    for key in ("H100AirCooling", "AiRackAirCooling"):
        s = catalog().scenario(key)
        q = s.inputs["heat_load"].m_as("W") / btu_per_hour
        dt_f = s.inputs["temperature_rise"].m_as("K") * 1.8
        rule = q / (1.08 * dt_f) * cfm
        assert abs(s.volume_flow.m_as("L/s") / rule - 1) < 5e-3, (key, s.volume_flow, rule)


def test_water_carries_heat_in_thousands_of_times_less_volume_than_air() -> None:
    """At one load and rise the air-to-water volume ratio is (c_w rho_w) / (c_a rho_a) = 4180 x 1000 / (1005 x 1.2)."""
    from mlsysim_symbolic.catalog import catalog

    air = catalog().scenario("Nvl72WaterCooling").variant(coolant="air")
    water = catalog().scenario("Nvl72WaterCooling")
    ratio = float(air.volume_flow / water.volume_flow)
    assert abs(ratio - 4180 * 1000 / (1005 * 1.2)) < 1e-9 * ratio
    assert 3000 < ratio < 4000


def test_grid_placement_labels_and_spread_follow_mlsysim_under_reordering_and_ties() -> None:
    """lowest/highest are argmin/argmax of the intensities over the grid keys, a tie going to the earlier grid as
    Python's min/max do; spread is the largest intensity over the smallest. Checked against mlsysim on variants the
    named scenarios do not take: grids reversed, and two grids tied at each end."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    theirs, ours = reference_scenario("RegionalGridPlacement"), catalog().scenario("RegionalGridPlacement")
    reversed_keys = list(theirs.grids)[::-1]
    tied = {"Norway": 820.0, "Poland": 20.0}   # Norway ties Poland at 820 and comes first; Poland ties Quebec's 20, after it
    cases = [
        ({k: theirs.grids[k] for k in reversed_keys}, {k: ours.inputs["grids"][k] for k in reversed_keys}),
        ({k: g.model_copy(update={"carbon_intensity_g_kwh": tied.get(k, g.carbon_intensity_g_kwh)}) for k, g in theirs.grids.items()},
         {k: (f"{tied[k]} g/kWh" if k in tied else v) for k, v in ours.inputs["grids"].items()}),
    ]
    for (their_grids, our_grids), expected in zip(cases, [("Norway", "Poland"), ("Quebec", "Norway")]):
        t, o = theirs.variant(grids=their_grids, energy_cut=0.25).result, ours.variant(grids=our_grids, energy_cut=0.25)
        assert (o.lowest, o.highest) == (t.lowest, t.highest) == expected, (o.lowest, o.highest, t.lowest, t.highest)
        assert_close(o.spread, t.spread, "spread")
        for k, v in t.emissions_after_cut.items():
            assert_close(o.emissions_after_cut[k], v, f"emissions_after_cut[{k}]")


def test_grid_placement_spread_is_the_emissions_ratio_of_the_extreme_grids() -> None:
    """Location-based accounting (GHG Protocol Scope 2): one energy on every grid, so the dirtiest grid's emissions
    over the cleanest's is the ratio of their intensities (Poland's 820 g/kWh over Norway's 10: 82)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("RegionalGridPlacement")
    assert (s.lowest, s.highest) == ("Norway", "Poland")
    assert abs(float(s.emissions[s.highest] / s.emissions[s.lowest]) - float(s.spread)) < 1e-12
    assert float(s.spread) == 82.0
