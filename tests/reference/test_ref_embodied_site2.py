"""Embodied AI and robotics, site and machine classes, second half (the classes that take the warehouse site or
machine of embodied_base.toml, from the tail of the alphabet) against mlsysim 0.3.0: every public member of every
named scenario (see members.py); the ``result`` of each is compared field by field by test_ref_results.py."""

import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "VlaTokenBudgetScenario",
        "TickTraceScenario",
        "ThrottledStageScenario",
        "StiffContactScenario",
        "StereoDepthErrorScenario",
        "OdometryDriftScenario",
        "LatchSeriesSpringScenario",
        "IterativeDecoderBudgetScenario",
        "HeadingDriftScenario",
    ),
    not_ported={},
    skipped={
        ("LatchSeriesSpringScenario", "spring_fast_profile"): "a dict of mlsysim's latch-profile helper (five "
        "entries); each entry is an output of ours (spring_fast_f_at_brake_onset, spring_fast_x_remaining, "
        "spring_fast_a_arm_needed, spring_fast_t_arm_stop, spring_fast_df_dt), compared with the dict's entry by "
        "test_latch_spring_fast_profile_entries_equal_mlsysims_dict",
    },
    method_args={
        ("StiffContactScenario", "penetration_at"): [{"force": f"{f} N"} for f in (10, 150, 1000)],
        **{("IterativeDecoderBudgetScenario", m): [{"budget": f"{b} ms"} for b in (5, 8, 25, 45, 50.5)]
           for m in ("evaluation_room", "max_evaluations")},
        ("IterativeDecoderBudgetScenario", "latency_at"): [{"evaluations": n} for n in (0, 4, 16)],
        ("LatchSeriesSpringScenario", "coasting_peak"): [{"stiffness": f"{k} N/m", "speed": f"{v} m/s"}
                                                         for k, v in ((5e4, 0.25), (8e5, 0.1), (1e3, 1.0))],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_stereo_sigma_is_first_order_propagation_of_disparity_noise():
    """Derivation check (Gallup et al. 2008, eq. 2; Hartley and Zisserman 2003, Ch. 12): with z = f·b/d, the first-order
    error |∂z/∂d|·σ_d written out with SymPy equals our σ_z at the scenario's near, far and rack-end ranges, and the
    range where σ_z equals a clearance C solves σ_z(z) = C."""
    import sympy

    from mlsysim_symbolic.catalog import catalog

    f, b, d, sd, z, c = sympy.symbols("f b d sigma_d z C", positive=True)
    sigma = sympy.simplify(abs(sympy.diff(f * b / d, d)) * sd).subs(d, f * b / z)   # z**2*sigma_d/(b*f)
    s = catalog().scenario("WarehouseStereoRigDepthError")
    values = {f: 800, b: 0.2, sd: 0.5}
    for rng, ours in ((2.0, s.sigma_near), (10.0, s.sigma_far), (s.site.d_clear.to("m").magnitude, s.sigma_target)):
        assert ours.to("m").magnitude == pytest.approx(float(sigma.subs(values).subs(z, rng)), rel=1e-12)
    root = sympy.solve(sympy.Eq(sigma, c), z)[0]
    loc = s.site.delta_loc.to("m").magnitude
    assert s.range_at_loc_allowance.to("m").magnitude == pytest.approx(float(root.subs(values).subs(c, loc)), rel=1e-12)
    assert s.sigma_near.to("mm").magnitude == pytest.approx(2.0**2 * 0.5 / (800 * 0.2) * 1000, rel=1e-12)   # 12.5 mm


def test_throttled_stage_stretches_by_the_inverse_clock_ratio():
    """Hand computation (Hennessy and Patterson's CPU time = cycles × clock period): the site's 22 ms backbone at 2/3
    clock takes 22 × 3/2 = 33 ms, 11 ms more, which is 16.5 mm of travel at 1.5 m/s."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("ThrottledNavigationBackbone")
    assert s.site.t_backbone.to("ms").magnitude == pytest.approx(22.0, rel=1e-12)
    assert s.throttled.to("ms").magnitude == pytest.approx(33.0, rel=1e-12)
    assert s.added_travel.to("mm").magnitude == pytest.approx(1.5 * 11.0, rel=1e-12)


def test_ten_million_ticks_at_one_kilohertz_is_two_hours_forty_six_minutes_forty_seconds():
    """Hand computation: 10⁷ ticks of the site's 1 ms permission period are 10,000 s = 2·3600 + 46·60 + 40 s; a trace
    of 3,599,600 ticks (3599.6 s) rounds to one whole hour."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseRejectedPlacementTrace")
    assert s.duration.to("s").magnitude == pytest.approx(1e7 * 1e-3, rel=1e-12)
    assert [float(v) for v in s.hours_minutes_seconds] == [2, 46, 40]
    assert [float(v) for v in s.variant(ticks=3_599_600).hours_minutes_seconds] == [1, 0, 0]


def test_restricted_leg_time_grows_by_the_inverse_speed_ratio():
    """(The type is embodied_base.toml's: both groups ported it; one kept.)  Hand computation: a 30 m aisle at 1.3 m/s takes 30/1.3 = 23.08 s and at 1.0 m/s 30 s; the speed cut is
    1 − 1/1.3 = 23.1 % but the time grows by 1.3/1.0 − 1 = 30 %."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseRestrictedTransit")
    assert s.leg_time_nominal.to("s").magnitude == pytest.approx(30 / 1.3, rel=1e-12)
    assert float(s.speed_cut) == pytest.approx(1 - 1 / 1.3, rel=1e-12)
    assert float(s.time_increase) == pytest.approx(1.3 / 1.0 - 1, rel=1e-12)


def test_umbmark_path_and_drift_rate_by_hand():
    """Hand computation (Borenstein and Feng 1996: UMBmark runs a 4 m × 4 m square, four legs): the path is 16 m, a
    317 mm return error is a 317/16000 = 1.98 % drift, so the 50 mm bound is spent after 0.05/0.0198125 = 2.52 m."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("WarehouseUmbmarkOdometryDrift")
    assert s.path_length.to("m").magnitude == pytest.approx(16.0, rel=1e-12)
    assert float(s.rate_uncalibrated) == pytest.approx(0.317 / 16, rel=1e-12)
    assert s.distance_uncalibrated.to("m").magnitude == pytest.approx(0.05 / (0.317 / 16), rel=1e-12)


def test_iterative_decoder_budget_by_hand():
    """Hand computation: a 16-step head of 48 ms with an 8 ms encode costs (48 − 8)/16 = 2.5 ms per evaluation; a
    4-step flow head takes 8 + 4·2.5 = 18 ms; a 25 ms step fits ⌊17/2.5⌋ = 6 evaluations, 50 − 5 ms fits ⌊37/2.5⌋ = 14,
    and a budget below the encode fits none."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("LatchDecoderBudget")
    assert s.per_evaluation.to("ms").magnitude == pytest.approx(2.5, rel=1e-12)
    assert s.flow_latency.to("ms").magnitude == pytest.approx(18.0, rel=1e-12)
    assert float(s.evaluations_within_step) == 6
    assert float(s.evaluations_within_renewal) == 14
    assert float(s.max_evaluations(budget="5 ms")) == 0


def test_heading_drift_spends_the_side_clearance_at_d_over_v_sin_epsilon():
    """Hand computation with the sine itself (the type writes sin ε as √(1 − cos²ε)): a 1° offset at 1.5 m/s drifts
    sideways at 1.5·sin(1°) = 26.2 mm/s, so 150 mm of side clearance lasts 0.15/(1.5·sin 1°) = 5.73 s, 8.59 m of
    the 30 m aisle; the same holds at 30° and 150° (the sine identity over the declared domain)."""
    import math

    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("AisleHeadingDrift")
    for deg in (1.0, 30.0, 150.0):
        v = s.variant(heading_offset=f"{deg} deg")
        expected = 0.15 / (1.5 * math.sin(math.radians(deg)))
        assert v.time_to_clearance.to("s").magnitude == pytest.approx(expected, rel=1e-10)
    assert s.distance_to_clearance.to("m").magnitude == pytest.approx(0.15 / math.sin(math.radians(1.0)), rel=1e-10)


def test_vla_patch_tokens_and_llama2_7b_kv_bytes():
    """Dosovitskiy et al. (2021), §3.1: an H×W image in P×P patches is N = HW/P² tokens, so a 224-pixel view at patch 14
    is 224²/14² = 256 tokens (OpenVLA's 224-pixel input, Kim et al. 2024); the Llama-2-7B backbone (32 layers, width
    4096) stores 2·32·4096 values of 2 bytes = 512 KiB of keys and values per token (hand computation). A 230-pixel
    frame drops its partial patches: ⌊230/14⌋ = 16 per side."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("ThreeViewVlaTokens")
    assert float(s.patches_per_view.magnitude) == 224**2 / 14**2 == 256
    assert float(s.visual_tokens.magnitude) == 3 * 256
    assert s.kv_per_token.to("B").magnitude == 2 * 32 * 4096 * 2 == 512 * 1024
    assert float(s.variant(frame_px=230).patches_per_side.magnitude) == 16


def test_latch_spring_fast_profile_entries_equal_mlsysims_dict():
    """mlsysim's spring_fast_profile (a dict) entry by entry against our five outputs, at 1e-9."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    ours, theirs = catalog().scenario("WarehouseLatchSeriesSpring"), reference_scenario("WarehouseLatchSeriesSpring")
    profile = theirs.spring_fast_profile
    assert list(profile) == ["f_at_brake_onset", "x_remaining", "a_arm_needed", "t_arm_stop", "df_dt"]
    for entry, value in profile.items():
        assert_close(getattr(ours, f"spring_fast_{entry}"), value, f"spring_fast_profile[{entry!r}]")


def test_coasting_peak_is_the_energy_balance_of_a_preloaded_spring():
    """Derivation check (OpenStax University Physics §8.2, spring energy ½kx²): a mass m at v into a spring already at
    F_0 stops where ½·m·v² = (F² − F_0²)/(2k); solved with SymPy for F it is ours √(F_0² + k·m·v²)."""
    import sympy

    from mlsysim_symbolic.catalog import catalog

    m, v, k, f0, f = sympy.symbols("m v k F_0 F", positive=True)
    peak = sympy.solve(sympy.Eq(m * v**2 / 2, (f**2 - f0**2) / (2 * k)), f)[0]
    s = catalog().scenario("WarehouseLatchSeriesSpring")
    mass = s.machine.arm_effective_contact_mass.to("kg").magnitude
    trip = s.site.f_latch_tripwire.to("N").magnitude
    value = float(peak.subs({m: mass, v: 0.25, k: 5e4, f0: trip}))
    assert s.coasting_peak(stiffness="5e4 N/m", speed="0.25 m/s").to("N").magnitude == pytest.approx(value, rel=1e-12)
