"""Embodied AI and robotics, wave 33 group A (the site and machine classes from braking blends to chunk leases, and
the gripper transfer) against mlsysim 0.3.0: every public member of every named scenario (see members.py); the
``result`` of each is compared field by field by test_ref_results.py."""

import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "GripperTransferScenario",
        "GoalSetMembershipScenario",
        "ForceTailScenario",
        "ClockConversionScenario",
        "DynamicWindowScenario",
        "ChunkReplacementScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_dynamic_window_admissible_speed_written_out():
    """Fox, Burgard and Thrun (1997), §3: the admissible velocities are those with v ≤ √(2·dist·v̇_b). Written out for
    the warehouse rack end: √(2 × 1.1 m × 2.0 m/s²) = √4.4 = 2.0976 m/s, above the 1.5 m/s drive limit; the dynamic
    window over one 50 ms renewal at 2.0 m/s² is ±0.1 m/s."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseBaseDynamicWindow")
    assert s.admissible_speed.to("m/s").magnitude == pytest.approx(math.sqrt(4.4), rel=1e-12)
    assert s.half_width.to("m/s").magnitude == pytest.approx(0.1, rel=1e-12)
    assert s.admits_drive_limit is True
    assert s.variant(site={"machine": "WarehouseMobileManipulator", "d_clear": "0.5 m"}).admits_drive_limit is False


def test_gripper_transfer_written_out():
    """Hand computation of a linear normalized command: 0.8 of a 100 mm stroke is 80 mm (clears a 75 mm part), 0.8 of
    60 mm is 48 mm (does not), 20 mm beyond the target's whole stroke; a 30 N grip on a 15 N rating is twice it."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("GripperStrokeTransfer")
    assert s.donor_opening.to("mm").magnitude == pytest.approx(80, rel=1e-12)
    assert s.target_opening.to("mm").magnitude == pytest.approx(48, rel=1e-12)
    assert s.stroke_excess.to("mm").magnitude == pytest.approx(20, rel=1e-12)
    assert (s.donor_clears, s.target_clears) == (True, False)
    assert float(s.force_ratio) == pytest.approx(2.0, rel=1e-12)
