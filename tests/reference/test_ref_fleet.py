"""Fleet scheduling and edge deployment scenarios (derivations/fleet.toml) against mlsysim 0.3.0.

Every public member of every named scenario (see members.py), compared at 1e-9 relative.
"""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "DiurnalLendingScenario", "ElasticResizeScenario", "NodePackingScenario", "QueueWaitScenario",
        "QuotaLendingScenario", "SchedulingSnapshotScenario", "ServingConsolidationScenario",
        "DailyUploadScenario", "SensorUplinkScenario", "WakeWordFleetScenario",
    ),
    not_ported={
        "DominantShareScenario": (
            "its only member is `result`, a plain dict from progressive filling of indivisible bundles "
            "(a loop granting one bundle at a time to the tenant of lowest dominant share until none fits: "
            "tier C, no closed form for indivisible bundles), over a nested tenant x resource table that no "
            "input kind holds (map and list are one level)"
        ),
    },
    implicit_units={
        ("DiurnalLendingScenario", "annual_value"): "USD",
        ("ServingConsolidationScenario", "annual_value"): "USD",
        ("ElasticResizeScenario", "window_h"): "h",
        ("ElasticResizeScenario", "wait_h"): "h",
        ("ElasticResizeScenario", "rescale_h"): "h",
        ("ElasticResizeScenario", "wait_run_h"): "h",
        ("ElasticResizeScenario", "step_up_phase2_h"): "h",
        ("ElasticResizeScenario", "rescale_break_even_h"): "h",
        ("ElasticResizeScenario", "gpu_hours"): "h",
        ("ElasticResizeScenario", "epochs_per_gpu_hour"): "1/h",
        ("WakeWordFleetScenario", "accelerator_hours_per_day"): "h",
        ("WakeWordFleetScenario", "datacenter_hours_per_day"): "h",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_pollaczek_khinchine_reduces_to_mm1_and_md1() -> None:
    """Kleinrock (1975) Vol. 1: M/M/1 waits rho/(1 - rho) mean services (C_s = 1); M/D/1 half that (C_s = 0)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("Mg1ExponentialJobQueueAt80")
    for rho in (0.3, 0.8, 0.95):
        mm1 = s.variant(utilization=rho, service_cv=1).wait_ratio
        md1 = s.variant(utilization=rho, service_cv=0).wait_ratio
        assert abs(float(mm1) - rho / (1 - rho)) < 1e-12
        assert abs(float(md1) - rho / (1 - rho) / 2) < 1e-12
