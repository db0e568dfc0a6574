"""Embodied AI and robotics, wave 33 group B (sensing age and skew, perception traffic, arm kinematics and actuator
heating, supervision queues and takeovers) against mlsysim 0.3.0: every public member of every named scenario (see
members.py); the ``result`` of each is compared field by field by test_ref_results.py."""

import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "ReplayBufferScenario",
        "RaymarchTrafficScenario",
        "StaleAnchorScenario",
        "RollingShutterScenario",
        "LidarSweepAgeScenario",
        "PairingLagScenario",
    ),
    not_ported={},
    skipped={},
    method_args={
        ("PairingLagScenario", "displacement"): [{"speed": "0.5 m/s"}, {"speed": "0.03 m/s", "lag_at": "10 ms"},
                                                 {"speed": "1.5 m/s", "lag_at": "33 ms"}],
        ("PairingLagScenario", "lag_ceiling"): [{"speed": f"{v} m/s"} for v in (0.03, 0.1, 0.5)],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_rolling_shutter_rows_of_the_imx477_written_out():
    """Sony IMX477 (the navigation camera of mlsysim's registry: 3040 rows read in 16.6 ms): the row interval is
    16.6 ms / 3040 = 5.4605 µs; at 1.5 m/s the frame's last row sees the scene 1.5 × 16.6 = 24.9 mm farther along
    (Liang, Chen and Chen 2008), and a turn at 0.5 rad/s sweeps the rack end at 1.1 m sideways by 1.1 × 0.5 × 16.6 ms
    = 9.13 mm."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseNavCameraRollingShutter")
    assert s.row_interval.to("us").magnitude == pytest.approx(16.6e3 / 3040, rel=1e-12)
    assert s.skew.to("mm").magnitude == pytest.approx(24.9, rel=1e-12)
    assert s.lateral_skew.to("mm").magnitude == pytest.approx(9.13, rel=1e-12)


def test_lidar_sector_angle_is_two_arctangents():
    """Hand computation: a 1.3 m aisle centered 1.1 m ahead subtends 2·atan(0.65/1.1) = 61.158° (the arcsine form we
    write is the same angle), swept in 50 ms × 61.158/360 = 8.494 ms of a 20 Hz rotation (Ouster OS1 datasheet)."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseRackEndLidarAge")
    angle = math.degrees(2 * math.atan(0.65 / 1.1))
    assert s.sector_angle.to("deg").magnitude == pytest.approx(angle, rel=1e-12)
    assert s.sector_time.to("ms").magnitude == pytest.approx(50 * angle / 360, rel=1e-12)
