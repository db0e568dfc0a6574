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
        "ContactDeadlineScenario",
        "FrozenTransformScenario",
        "EvidenceHorizonScenario",
        "LeaseBudgetScenario",
        "GravityBiasedJointStopScenario",
        "CycleBudgetScenario",
        "ConfidenceRegionScenario",
        "IntentCadenceScenario",
        "DynamicReachScenario",
        "ForwardOccupancyScenario",
        "IntentLeaseExpiryScenario",
        "EncoderRateScenario",
        "KvHistoryScenario",
        "InertialCoastScenario",
        "HubDriveElectricalScenario",
        "DriveBusScenario",
        "GearRatioCostScenario",
        "BrakingCeilingsScenario",
        # embodied_d.toml (its budget is a TakeoverBudgetScenario, whose nested results bind outputs of its own)
        "CommandAuthenticationScenario",
        "DetectionShortfallScenario",
        "ClearanceQueryScenario",
    ),
    not_ported={
        "BrakingBlendScenario": "reserve_use is the largest growth of travel plus the resident S-curve stop over the "
        "blend's ticks 0..n, n = ceil(T/tick) with T = 1.875 a/j: 529 ticks in the named scenario, each an S-curve stop "
        "(a piecewise of a square root) at the blended speed; as a list input up to the window_ticks output it would be "
        "a 529-term maximum stated in the named scenario, too large to differentiate and compile in the property tests "
        "on this machine; the rest of the result is closed-form (left for a follow-up with the maximum)",
    },
    skipped={
        **{("CycleBudgetScenario", m): "a method over a stage name, and the two named scenarios name different stages "
           "(method_args are per class): compared at every stage of both by test_cycle_budget_stages_equal_mlsysims"
           for m in ("stage", "share")},
    },
    method_args={
        **{("ContactDeadlineScenario", m): [{"speed": f"{v} m/s"} for v in (0.03, 0.1, 0.5)]
           for m in ("deadline", "tripwire_time", "brake_onset", "time_left", "force_rate", "force_at_brake_onset")},
        **{("GravityBiasedJointStopScenario", m): [{"alpha": f"{a} 1/s**2"} for a in (7.25, 29.0, 50.75)]
           for m in ("stop_angle", "tool_stop")},
        **{("GravityBiasedJointStopScenario", m): [{"clearance": f"{c} mm"} for c in (110, 70, 0)]
           for m in ("barrier_margin", "barrier_torque_demand")},
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_dynamic_window_admissible_speed_written_out():
    """Fox, Burgard and Thrun (1997), The Dynamic Window Approach to Collision Avoidance: the admissible velocities are those with v ≤ √(2·dist·v̇_b). Written out for
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


def test_evidence_horizon_written_out_and_refused_off_the_setpoint_grid():
    """Constant-acceleration kinematics (OpenStax University Physics Volume 1, §3.4): a 12 mm margin (15 mm tolerance
    less 3 mm) under 0.5 m/s² of residual slip is used up after √(2 × 0.012 / 0.5) s = 219.09 ms; untracked at
    0.2 m/s it lasts 60 ms. ACT-style chunking (Zhao et al. 2023) at 20 Hz with 40 ms inference: age 90 ms,
    ⌈90/25⌉ = 4 setpoints, a 16 × 25 = 400 ms span. A 30 Hz renewal (33.3 ms) is not a whole number of 25 ms setpoints:
    mlsysim raises, and ours refuses by name."""
    import math

    import mlsysim

    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("ConveyorMugEvidenceHorizon")
    assert s.horizon.to("ms").magnitude == pytest.approx(1000 * math.sqrt(2 * 0.012 / 0.5), rel=1e-12)
    assert s.untracked_deadline.to("ms").magnitude == pytest.approx(60, rel=1e-12)
    assert s.age_at_replacement.to("ms").magnitude == pytest.approx(90, rel=1e-12)
    assert float(s.min_supply_setpoints) == 4
    assert s.chunk_span.to("ms").magnitude == pytest.approx(400, rel=1e-12)
    off_grid = s.variant(chunk_rate="30 Hz")
    with pytest.raises(InputError, match="schedule_valid"):
        _ = off_grid.age_at_replacement
    theirs = mlsysim.Scenarios.ConveyorMugEvidenceHorizon.model_copy(update={"chunk_rate": mlsysim.core.units.ureg("30 Hz")})
    with pytest.raises(ValueError, match="whole number"):
        _ = theirs.result


def test_gravity_biased_joint_stop_written_out():
    """Newton's second law for rotation and constant-deceleration kinematics (OpenStax University Physics Volume 1,
    §10.2 and §10.7), written out: 87 N·m peak with gravity holding 75 % leaves 21.75 N·m descending, 7.25 rad/s² on
    3 kg·m²; from 1.2 rad/s the joint stops in 1.44/14.5 rad and the 0.8 m tool travels 0.8 × 1.44/14.5 m = 79.45 mm,
    four times the 1.44/58 × 0.8 m = 19.86 mm of the unbiased stop, in 1.2/7.25 s = 165.5 ms."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("LoadedArmJointGravityStop")
    assert s.alpha_descending.to("1/s**2").magnitude == pytest.approx(7.25, rel=1e-12)
    assert s.tool_stop_descending.to("mm").magnitude == pytest.approx(800 * 1.44 / 14.5, rel=1e-12)
    assert s.tool_stop_free.to("mm").magnitude == pytest.approx(800 * 1.44 / 58, rel=1e-12)
    assert s.stop_time_descending.to("ms").magnitude == pytest.approx(1200 / 7.25, rel=1e-12)


@pytest.mark.parametrize("key", ["WarehouseEnforcerCycleBudget", "WarehouseEnforcerUnloadedTick"])
def test_cycle_budget_stages_equal_mlsysims(key):
    """stage(name) and share(name) at every stage of both named scenarios against mlsysim's; the shares sum to one."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario

    ours, theirs = catalog().scenario(key), reference_scenario(key)
    names = [n for n, _ in theirs.stages]
    assert [str(k) for k in ours.keys("stage")] == names
    for n in names:
        assert ours.stage(n).to("us").magnitude == pytest.approx(theirs.stage(n).to("us").magnitude, rel=1e-12)
        assert float(ours.share(n)) == pytest.approx(theirs.share(n), rel=1e-12)
    assert sum(float(ours.share(n)) for n in names) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize(("sigmas", "quantile"), [(["4 mm"], 3.841), (["4 mm", "5 mm"], 5.991), (["4 mm", "5 mm", "12 mm"], 7.815)])
def test_chi_square_upper_critical_values_of_nist(sigmas, quantile):
    """NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.4 (critical values of the chi-square distribution):
    the 0.95 quantile is 3.841 with 1 degree of freedom, 5.991 with 2 and 7.815 with 3; one degree per axis."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("DistantHandleConfidenceRegion").variant(sigmas=sigmas)
    assert float(s.quantile) == pytest.approx(quantile, abs=5e-4)


def test_intent_latency_roofline_written_out():
    """The roofline (Williams, Waterman and Patterson 2009) of one OpenVLA-7B evaluation on a Jetson AGX Orin, with
    prefill compute-bound and decode memory-bound (Pope et al. 2023), written out: prefill 2 × 7e9 × 288 +
    2 × 32 × 4096 × 288² FLOPs at half of 43 TFLOP/s; 7e9 × 0.5 B of weights at 0.7 × 204 GB/s per decode step, six
    steps after the first of seven action tokens (Kim et al. 2024: one token per action dimension). The cadence's
    renewal age is the 500 ms period plus that latency."""
    from mlsysim_symbolic.catalog import catalog

    flops = 2 * 7e9 * 288 + 2 * 32 * 4096 * 288**2
    prefill = flops / (0.5 * 43e12)
    sweep = 7e9 * 0.5 / (0.7 * 204e9)
    m = catalog().scenario("WarehouseMobileManipulator")
    assert m.intent_inference_latency.to("s").magnitude == pytest.approx(prefill + 6 * sweep, rel=1e-12)
    s = catalog().scenario("ConveyorMugIntentCadence")
    assert s.renewal_age.to("s").magnitude == pytest.approx(0.5 + prefill + 6 * sweep, rel=1e-12)


def test_inertial_coast_written_out():
    """Woodman (2007), An introduction to inertial navigation (UCAM-CL-TR-696): angle random walk N·√t, bias drift b·t and ½·b·t²,
    and a double-integrated white noise N·√(t³/3). Written out for the BMI088's datasheet terms over one second:
    0.014°, 1°, 0.00016 × 9.80665 × √(1/3) m = 0.9059 mm and 0.02 × 9.80665 / 2 m = 98.07 mm; the 1° offset at
    the 1.1 m rack end is 1100 × π/180 mm = 19.20 mm sideways."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseImuOneSecondCoast")
    assert s.heading_noise.to("deg").magnitude == pytest.approx(0.014, rel=1e-12)
    assert s.position_noise.to("mm").magnitude == pytest.approx(0.16 * 9.80665 * math.sqrt(1 / 3), rel=1e-12)
    assert s.position_bias.to("mm").magnitude == pytest.approx(20 * 9.80665 / 2, rel=1e-12)
    assert s.lateral_bias.to("mm").magnitude == pytest.approx(1100 * math.pi / 180, rel=1e-12)


def test_hub_drive_electrical_written_out():
    """An RL winding (OpenStax University Physics Volume 2, §14.5): τ = L/R = 1.885 mH / 0.7 Ω = 2.693 ms; at stall the
    42 V depleted pack ramps 25 A in 1.885e-3 × 25 / 42 s = 1.122 ms and would drive 42/0.7 = 60 A; the shorted winding
    brakes hardest at ω_e = R/L = 371.35 rad/s, ω_e/20 at the wheel = 60·371.35/(2π·20) turn/min = 177.3 turn/min."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseBaseHubDriveElectrical")
    assert s.time_constant.to("ms").magnitude == pytest.approx(1.885 / 0.7, rel=1e-12)
    assert s.ramp_time.to("ms").magnitude == pytest.approx(1.885 * 25 / 42, rel=1e-12)
    assert s.full_step_current.to("A").magnitude == pytest.approx(60, rel=1e-12)
    assert s.short_peak_wheel_speed.to("turn/min").magnitude == pytest.approx(
        60 * (0.7 / 1.885e-3) / (2 * math.pi * 20), rel=1e-12)


def test_gear_ratio_loss_inertia_product_is_independent_of_the_ratio():
    """Hughes and Drury, Electric Motors and Drives (torque ∝ current, copper loss I²R; inertia referred through a gear
    ×N²): (τ/(ηN)/K_m)² · N²J = τ²J/(η²K_m²) at every N. Written out: 87² × 7.34e-5 × 0.495 / (0.85² × 0.187²)
    = 10.8848 W·kg·m². The data records equal mlsysim's registry objects field by field."""
    import mlsysim

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("PandaClassJointGearRatios")
    expected = 87**2 * 7.34e-5 * 0.495 / (0.85**2 * 0.187**2)
    for n in (50, 100, 10, 7):
        assert s.variant(ratios=[n]).loss_inertia_product[n].to("W*kg*m**2").magnitude == pytest.approx(expected, rel=1e-12)
    joint, motor = mlsysim.Actuators.PandaClassJoint.CSG_25_50_ILM70x18, mlsysim.Actuators.FramelessMotor.TQ_ILM70x18
    ours_j, ours_m = catalog().scenario("PandaClassJointCsg25Ilm70x18"), catalog().scenario("TqIlm70x18")
    assert float(ours_j.gear_ratio) == joint.gear_ratio
    assert ours_j.rotor_inertia.to("kg*m**2").magnitude == pytest.approx(joint.rotor_inertia.to("kg*m**2").magnitude, rel=1e-12)
    assert ours_j.internal_resistance.to("ohm").magnitude == pytest.approx(joint.internal_resistance.to("ohm").magnitude, rel=1e-12)
    assert ours_j.reflected_inertia.to("kg*m**2").magnitude == pytest.approx(joint.reflected_inertia.to("kg*m**2").magnitude, rel=1e-12)
    for f in ("torque_constant", "rated_torque", "peak_torque"):
        theirs = getattr(motor, f)
        assert getattr(ours_m, f).to(str(theirs.units)).magnitude == pytest.approx(theirs.magnitude, rel=1e-12), f


def test_braking_ceilings_written_out_and_tip_over_once_measured():
    """Written out: 2.4 N·m/A × 25 A = 60 N·m per wheel; two wheels of radius 0.133 m push 902.26 N against 368 kg plus
    2 × 9.5 kg, 2.3314 m/s²; dry traction 0.6 × (300/368) × g. Quasi-static tipping (OpenStax University Physics
    Volume 1, Ch. 12): m·a·h ≤ m·g·b, so with h = 0.9 m and b = 0.35 m the ceiling is g·0.35/0.9 = 3.8137 m/s², and the
    stop passes every ceiling; unmeasured (mlsysim's registry), a_tip is None and passes is False."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseBaseBrakingCeilings")
    assert s.force.to("N").magnitude == pytest.approx(2 * 60 / 0.133, rel=1e-12)
    assert s.a_torque.to("m/s**2").magnitude == pytest.approx(2 * 60 / 0.133 / 387, rel=1e-12)
    assert s.a_traction_dry.to("m/s**2").magnitude == pytest.approx(0.6 * 300 / 368 * 9.80665, rel=1e-12)
    assert s.result.a_tip is None and s.passes is False
    measured = s.variant(cg_height="0.9 m", tip_arm="0.35 m")
    assert measured.a_tip.to("m/s**2").magnitude == pytest.approx(9.80665 * 0.35 / 0.9, rel=1e-12)
    assert measured.passes is True
