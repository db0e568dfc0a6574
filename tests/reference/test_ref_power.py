"""Power, energy and sustainability scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""
from .members import Wave, wave_tests

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
    ),
    not_ported={},
    renamed={},
    skipped={},
    method_args={
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
