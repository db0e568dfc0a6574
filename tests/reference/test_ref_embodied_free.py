"""Embodied AI and robotics, the classes with no site or machine (latency travel, sensing physics, traction, fieldbus
timing, control-loop phase, drift, teleoperation, sizing and campaigns) against mlsysim 0.3.0: every public member of
every named scenario (see members.py); the ``result`` of each is compared field by field by test_ref_results.py."""

import pytest

from .members import Wave, wave_tests

ARCHIVES = [{"archive": ("option", a)} for a in ("cautious", "exploratory")]
REGIMES = [{"regime": ("option", r)} for r in ("In distribution", "Near OOD", "Sensor degraded", "Far OOD")]

WAVE = Wave(
    classes=(
        "TravelDuringLatencyScenario",
        "VisibilityRangeScenario",
        "ThermalExpansionScenario",
        "TractionLossScenario",
        "CanFdBusScenario",
        "EtherCatCycleScenario",
        "DelayPhaseMarginScenario",
        "PhaseLagBudgetScenario",
        "HoldIntervalDriftScenario",
        "SensorBiasDriftScenario",
        "TimingAttitudeErrorScenario",
        "TeleopLoopScenario",
        "ContinuousDeratingScenario",
        "GearedRotorScenario",
        "ConformalInsetScenario",
        "BeliefExpiryScenario",
        "EpochGapScenario",
        "HandoffExposureScenario",
        "HostMapSizingScenario",
        "ImitationBoundScenario",
        "DiscountHorizonScenario",
        "OnRobotFineTuneScenario",
        "ParallelSimRunScenario",
        "TrialCampaignScenario",
        "StateGridScenario",
        "ContactGridScenario",
        "CorrelatedLogScenario",
        "ConfidenceRegimesScenario",
        "ForceRiseGapScenario",
        "DemonstrationCampaignScenario",
        "ReferentSetScenario",
        "ShieldCoverageBillScenario",
        "TorqueHalfSpaceProjectionScenario",
        "RailDroopScenario",
    ),
    not_ported={},
    skipped={
        ("ConfidenceRegimesScenario", "row"): "returns mlsysim's stored tuple (name, confidence, success) of a regime: its "
        "numbers are our inputs confidence[regime] and success[regime], and its first item is the regime's own name (the "
        "equation language returns numbers, not text); gap(regime) is compared",
        ("TorqueHalfSpaceProjectionScenario", "projection"): "mlsysim's dict of a list, two floats and a bool: its "
        "entries are our outputs projected_torque (keyed by joint), correction_norm, lambda_star and was_modified, "
        "each tested in test_torque_projection_parts_equal_mlsysims_dict",
        ("TorqueHalfSpaceProjectionScenario", "angle_deg"): "a static method over any 2-vector through atan2, which "
        "the equation language does not have (and its argument is a free vector, not an input of the scenario)",
    },
    method_args={
        ("ParallelSimRunScenario", "time_for"): [{"steps": 1.0e9}, {"steps": 2.5e6}],
        **{("ContactGridScenario", m): ARCHIVES
           for m in ("bin_span", "occupied", "share", "empty", "empty_share", "rms_error")},
        ("ConfidenceRegimesScenario", "gap"): REGIMES,
    },
    implicit_units={
        **{("TorqueHalfSpaceProjectionScenario", m): "N*m" for m in (
            "proposal_value", "breach", "clamp_value", "clamp_penetration", "projected_value")},
        ("RailDroopScenario", "delay_expansion_percent"): "percent",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_koschmieder_constants_of_the_two_contrast_thresholds():
    """Koschmieder (1924): with a 2 % contrast threshold the visual range is 3.912/β (ln 50, the constant of his law
    as Middleton, Vision through the Atmosphere (1952), states it); the WMO's meteorological optical range takes a
    5 % threshold, ln 20/β ≈ 2.996/β (WMO-No. 8, Vol. I, Ch. 9)."""
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("DenseFogVisibility")
    for beta, threshold, constant in ((0.05, 0.02, 3.912), (0.05, 0.05, 2.996), (0.002, 0.02, 3.912)):
        s = base.variant(extinction=f"{beta} 1/m", contrast_threshold=threshold)
        assert s.visibility_range.to("m").magnitude * beta == pytest.approx(constant, abs=5e-4)


@pytest.mark.parametrize(("payload", "data_field", "crc", "fixed_stuff"), [
    (0, 0, 17, 6), (8, 8, 17, 6), (9, 12, 17, 6), (13, 16, 17, 6), (16, 16, 17, 6), (17, 20, 21, 7),
    (21, 24, 21, 7), (25, 32, 21, 7), (33, 48, 21, 7), (49, 64, 21, 7), (64, 64, 21, 7),
])
def test_can_fd_data_field_sizes_and_crc_follow_iso_11898_1(payload, data_field, crc, fixed_stuff):
    """ISO 11898-1:2015 (CAN FD): a DLC encodes data fields of 0-8, 12, 16, 20, 24, 32, 48 and 64 bytes, so a payload
    is padded up to the next of these; the CRC is 17 bits for data fields up to 16 bytes and 21 bits above, with 6 and
    7 fixed stuff bits (Bosch, CAN with Flexible Data-Rate 1.0, 2012)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseServoCanFdOneBus").variant(payload_bytes=payload)
    assert float(s.data_field_bits) == 8 * data_field
    assert float(s.crc_bits) == crc and float(s.fixed_stuff_bits) == fixed_stuff


def test_can_fd_eight_byte_frame_bits_written_out():
    """Hand count of an 8-byte base-format CAN FD frame (ISO 11898-1:2015 layout): 17 arbitration-phase bits and
    13 after the CRC, with ⌊(17 − 1)/4⌋ = 4 worst-case stuff bits, is 34 nominal bits; ESI + DLC 5, data 64, stuff count
    4, CRC 17, fixed stuff 6 and the rest of ⌊(17 + 5 + 64 − 1)/4⌋ = 21 stuff bits (17) is 113 data bits. At 1 and
    5 Mbit/s that is 34 + 22.6 = 56.6 µs; unstuffed, 30 and 96 bits."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseServoCanFdOneBus")
    assert (float(s.bits_nominal), float(s.bits_data), float(s.stuff_bits)) == (34, 113, 21)
    assert s.frame_time.to("us").magnitude == pytest.approx(56.6, rel=1e-12)
    plain = s.variant(worst_case_stuffing=False)
    assert (float(plain.bits_nominal), float(plain.bits_data)) == (30, 96)


def test_delay_margin_is_the_phase_margin_over_the_crossover():
    """Åström and Murray, Feedback Systems (2nd ed.): a time delay τ adds phase −ωτ at unchanged gain, so the delay
    margin is φ_m/ω_gc. Written out: 45° = π/4 rad at 10 rad/s is π/40 s = 78.54 ms, and at that delay the phase lost
    at crossover, ω_c·τ, is the whole margin."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("VisualServoDelayPhaseMargin")
    assert s.delay_ceiling.to("s").magnitude == pytest.approx(math.pi / 40, rel=1e-12)
    at_ceiling = s.variant(delay=s.delay_ceiling)
    assert float(at_ceiling.share_used) == pytest.approx(1.0, rel=1e-12)
    assert s.crossover_frequency.to("Hz").magnitude == pytest.approx(10 / (2 * math.pi), rel=1e-12)


def test_zero_order_hold_costs_half_a_sample_of_phase():
    """Franklin, Powell and Workman, Digital Control of Dynamic Systems (3rd ed.): a zero-order hold is, in the
    baseband, a delay of T/2, and a delay τ removes 360°·f·τ. Written out: at 20 Hz a 1 ms tick's hold costs
    360 × 20 × 0.0005 = 3.6°, and a 5° allowance absorbs 5/(360 × 20) s = 0.6944 ms of delay."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseJointLoopThroughTick")
    assert s.phase_hold.to("deg").magnitude == pytest.approx(3.6, rel=1e-12)
    assert s.allowed_delay.to("ms").magnitude == pytest.approx(5 / 7.2, rel=1e-12)


def test_imitation_bounds_quadratic_against_linear_written_out():
    """Ross and Bagnell (2010), Theorem 2.1 (T²ε) against Ross, Gordon and Bagnell (2011), Theorem 3.2 (uTε): over
    a 5 s episode at 100 Hz (T = 500) at ε = 0.001 the cloning bound is 500² × 0.001 = 250 and the aggregation bound
    500 × 0.001 = 0.5, a gap of T/u = 500; the cloning bound saturates at the horizon 1/ε = 1000."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("ImitationBoundsFiveSecondEpisode")
    assert float(s.horizon_steps) == 500
    assert float(s.cloning) == pytest.approx(250, rel=1e-12) and float(s.aggregation) == pytest.approx(0.5, rel=1e-12)
    assert float(s.capped_gap) == pytest.approx(500, rel=1e-12)
    assert float(s.saturation_horizon) == pytest.approx(1000, rel=1e-12)


def test_legged_gym_batch_is_rudin_et_als():
    """Rudin, Hoeller, Reist and Hutter (2022), Learning to Walk in Minutes Using Massively Parallel Deep RL (CoRL):
    4096 robots and 24 steps per robot per policy update make a batch of 98,304 samples."""
    from mlsysim_symbolic.catalog import catalog

    assert float(catalog().scenario("LeggedGymQuadrupedRun").batch) == 98304


def test_effective_sample_size_of_an_ar1_series():
    """Thiébaux and Zwiers (1984): the mean of N records of an AR(1) series with lag-one correlation ρ has the
    variance of N(1 − ρ)/(1 + ρ) independent samples. Written out: an hour at 1 kHz is 3.6 million records; at
    ρ = 0.999 they hold 3.6e6 × 0.001/1.999 ≈ 1801 effective samples, 1999 records each."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("PermissionTickTelemetryHour")
    assert float(s.records) == pytest.approx(3.6e6, rel=1e-12)
    assert float(s.effective_samples) == pytest.approx(3.6e6 * 0.001 / 1.999, rel=1e-9)
    assert float(s.oversampling) == pytest.approx(1999, rel=1e-9)


def test_discount_effective_horizon_of_099_is_100_decisions():
    """Sutton and Barto (2018), §3.3: the discount weights sum to 1/(1 − γ), 100 decisions at γ = 0.99; written out,
    an 8 s rollout at 25 ms steps is 320 decisions, and keeping half the final reward needs γ = 0.5^(1/320)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("LatchOpeningDiscount")
    assert float(s.horizon_steps) == pytest.approx(100, rel=1e-12)
    assert float(s.decisions) == 320
    assert float(s.retaining_discount) == pytest.approx(0.5 ** (1 / 320), rel=1e-12)


def test_torque_projection_parts_equal_mlsysims_dict():
    """mlsysim's projection dict (calc_cbf_qp_orthogonal_projection) entry by entry against our outputs; written out:
    (3.5, 3) against 2τ₁ + τ₂ ≤ 5 breaches by 5, so λ* = 5/5 = 1 and u* = (1.5, 2), a correction of √5."""
    import math

    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario

    ours, theirs = catalog().scenario("TwoJointTorqueProjection"), reference_scenario("TwoJointTorqueProjection").projection
    got = [ours.projected_torque(j).to("N*m").magnitude for j in ("joint 1", "joint 2")]
    assert got == pytest.approx(theirs["u_projected"], rel=1e-12)
    assert got == pytest.approx([1.5, 2.0], rel=1e-12)
    assert ours.correction_norm.to("N*m").magnitude == pytest.approx(theirs["correction_norm"], rel=1e-12)
    assert ours.correction_norm.to("N*m").magnitude == pytest.approx(math.sqrt(5), rel=1e-12)
    assert ours.lambda_star.to("N*m").magnitude == pytest.approx(theirs["lambda_star"], rel=1e-12)
    assert ours.was_modified is theirs["was_modified"] is True


def test_ethercat_summation_frame_written_out():
    """EtherCAT's one summation frame processed on the fly (IEC 61158 Type 12; ETG technology overview), written out:
    64 header bytes plus 9 axes × 16 bytes is 208 bytes, 1664 bits, 16.64 µs at 100 Mbit/s; 9 hops of 0.6 µs add
    5.4 µs, 22.04 µs of a 1 ms cycle (2.204 %)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseServoEtherCat")
    assert s.frame_time.to("us").magnitude == pytest.approx(16.64, rel=1e-12)
    assert s.forward_time.to("us").magnitude == pytest.approx(5.4, rel=1e-12)
    assert float(s.utilization) == pytest.approx(0.02204, rel=1e-12)


def test_rail_droop_by_hand_and_refused_below_threshold():
    """Faraday's law V = L·dI/dt and Ohm's law V = I·R (OpenStax University Physics Volume 2, §14.2 and §9.3), and
    Sakurai and Newton's (1990) alpha-power delay t_d ∝ V/(V − V_t)^α. Written out for the package rail: 30 pH ·
    6 A/2 ns = 90 mV, 6 A · 8 mΩ = 48 mV, so the rail droops 138 mV to 0.712 V, and the delay stretches by
    (0.712/0.85)·(0.43/0.292)^1.3 − 1. A droop to or below the 0.42 V threshold has no real stretch (the gate does not
    switch; mlsysim raises there too): ours refuses it rather than give a number."""
    from mlsysim_symbolic import Scenarios
    from mlsysim_symbolic.errors import InputError

    s = Scenarios.PackageRailDroop
    assert s.inductive_droop.to("mV").magnitude == pytest.approx(90.0, rel=1e-12)
    assert s.resistive_droop.to("mV").magnitude == pytest.approx(48.0, rel=1e-12)
    assert s.drooped_voltage.to("V").magnitude == pytest.approx(0.712, rel=1e-12)
    stretch = (0.712 / 0.85) * (0.43 / 0.292) ** 1.3 - 1
    assert s.delay_expansion_percent.to("percent").magnitude == pytest.approx(100 * stretch, rel=1e-12)
    with pytest.raises(InputError, match="no real value"):
        _ = s.variant(delta_i="100 A").delay_expansion_percent     # drooped to 0.85 − 2.3 V, below the threshold
    with pytest.raises(InputError):
        _ = s.variant(threshold_voltage="0.6 V").delay_expansion_percent   # outside the declared range (at most 0.5 V)
