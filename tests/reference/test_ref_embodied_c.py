"""Embodied AI and robotics, wave 33 group C (the classes whose blockers the first two groups removed: decoder
families over a VLA evaluation, the quintic seam bridge, a freshness profile focused on one named stage, and estimator
consistency over a range fusion) against mlsysim 0.3.0: every public member of every named scenario (see members.py);
the ``result`` of each is compared field by field by test_ref_results.py (the seam bridge's coefficient a5, exactly 0
in ours, at an absolute tolerance stated there with its reason)."""


import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "DecoderFamiliesScenario",
        "SeamBridgeScenario",
        "FreshnessProfileScenario",
        "EstimatorConsistencyScenario",
        "ThermalThrottleScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_seam_bridge_quintic_solves_its_boundary_system_written_out():
    """Polynomial time scaling (Lynch and Park 2017, Modern Robotics, §9.2): q(t) = a3 t³ + a4 t⁴ + a5 t⁵ with
    q(T) = Δω·T/2, q'(T) = Δω, q''(T) = 0. Written out for Δω = 0.2 rad/s and T = 50 ms: a3 = 0.2/0.05² = 80,
    a4 = −0.2/(2·0.05³) = −800, a5 = 0; substituted back, the three end conditions hold exactly. The peak acceleration
    q''(T/2) = 1.5·0.2/0.05 = 6 rad/s², the end jerk 6·80 = 480 rad/s³; through the reflected inertia 50² × 7.34e-5 =
    0.1835 kg·m² the one-tick (1 ms) step asks 0.1835 × 0.2/0.001 = 36.7 N·m, the bridge's torque rate 0.1835 × 480 =
    88.08 N·m/s, 8.8 % of the arm's 1000 N·m/s limit."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("PandaClassJointSeamBridge")
    a3, a4, a5 = s.coefficients
    assert (a3, a4, a5) == (pytest.approx(80, rel=1e-12), pytest.approx(-800, rel=1e-12), 0)
    t, dw = 0.05, 0.2
    assert a3 * t**3 + a4 * t**4 + a5 * t**5 == pytest.approx(dw * t / 2, rel=1e-12)
    assert 3 * a3 * t**2 + 4 * a4 * t**3 + 5 * a5 * t**4 == pytest.approx(dw, rel=1e-12)
    assert 6 * a3 * t + 12 * a4 * t**2 + 20 * a5 * t**3 == pytest.approx(0, abs=1e-12)
    assert s.peak_acceleration.to("rad/s**2").magnitude == pytest.approx(6, rel=1e-12)
    assert s.peak_jerk.to("rad/s**3").magnitude == pytest.approx(480, rel=1e-12)
    assert s.step_torque.to("N*m").magnitude == pytest.approx(36.7, rel=1e-12)
    assert s.torque_rate.to("N*m/s").magnitude == pytest.approx(88.08, rel=1e-12)
    assert s.within_rate_limit is True and s.variant(bridge_duration="10 ms").within_rate_limit is False
    assert s.variant(loaded_inertia=None).result.loaded_step_torque is None


def test_freshness_profile_written_out_and_an_unknown_focus_stage_refused():
    """Constant-speed travel, written out: the conveyor mug (15 mm tolerance, 3 mm initial error, 0.2 m/s) allows
    12 mm, a (15 − 3)/0.2 = 60 ms deadline; the stage medians sum to 35 ms (7 mm of travel), the 68.4 ms P99.9 age
    carries the mug 13.68 mm, 1.68 mm past the allowance; the 18.5 ms backbone is 18.5/35 of the median chain. A focus
    stage that is not one of the stages is refused by name."""
    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("WristCameraGraspAgeProfile")
    assert s.deadline.to("ms").magnitude == pytest.approx(60, rel=1e-12)
    assert s.travel_tail.to("mm").magnitude == pytest.approx(13.68, rel=1e-12)
    assert s.overrun_tail.to("mm").magnitude == pytest.approx(1.68, rel=1e-12)
    assert float(s.focus_share) == pytest.approx(18.5 / 35, rel=1e-12)
    assert s.variant(focus_stage="Fieldbus").result.focus_stage.to("ms").magnitude == pytest.approx(1.0, rel=1e-12)
    with pytest.raises(InputError, match="Vision"):
        _ = s.variant(focus_stage="Vision").result


@pytest.mark.parametrize(("confidences", "gates"), [([0.95, 0.99], [3.841, 6.635]), ([0.9, 0.999], [2.706, 10.828])])
def test_chi_square_gates_of_nist(confidences, gates):
    """NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.4 (critical values of the chi-square distribution),
    one degree of freedom: the 0.90, 0.95, 0.99 and 0.999 quantiles are 2.706, 3.841, 6.635 and 10.828."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("RackEndMisdatedUpdateConsistency").variant(gate_confidences=confidences)
    assert s.result.gates == [pytest.approx(g, abs=5e-4) for g in gates]


def test_chi_square_mean_band_of_nist():
    """NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.4: with 50 degrees of freedom the lower- and
    upper-tail 0.025 critical values are 32.357 and 71.420; the 95 % band of the mean of 50 scalar NEES values
    (Bar-Shalom, Li and Kirubarajan 2001, §5.4.2) is them over 50: [0.64714, 1.42840]."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("RackEndMisdatedUpdateConsistency")
    assert float(s.band_low) == pytest.approx(32.357 / 50, abs=1e-5)
    assert float(s.band_high) == pytest.approx(71.420 / 50, abs=1e-5)


def test_noncentral_detection_equals_scipys_ncx2_and_other_dimensions_are_refused():
    """The closed form of the one-degree noncentral chi-square tail, Φ(−√g − √λ) + Φ(√λ − √g), against SciPy's
    ncx2.sf at the scenario's noncentrality for gates from 0.5 to 0.999; a two-dimensional statistic (no closed form
    here) is refused by name, never priced with the scalar formula."""
    from scipy.stats import chi2, ncx2

    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("RackEndMisdatedUpdateConsistency")
    lam = float(s.nis_expected) - 1
    confidences = [0.5, 0.9, 0.95, 0.999]
    ours = s.variant(gate_confidences=confidences).result.detection
    assert ours == [pytest.approx(float(ncx2.sf(chi2.ppf(c, 1), 1, lam)), rel=1e-9) for c in confidences]
    with pytest.raises(InputError, match="scalar_statistic"):
        _ = s.variant(dimension=2).result.detection


def test_decoder_families_written_out():
    """Written out for OpenVLA-7B (Llama 2 7B backbone: 32 layers, hidden 4096; Touvron et al. 2023, Table 1) with a
    300M-parameter FP16 flow expert (π0's action expert, Black et al. 2024): 16 setpoints × 7 action dimensions = 112
    binned tokens; KV per token 2 × 32 × 4096 × 2 B = 524288 B; the 288-token prefix 288 × 524288 B = 150.99 MB; the
    expert's weights 3e8 × 2 B = 600 MB; binned decoding is the prefill plus 111 weight sweeps, FAST the prefill plus 29."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("IntentBackboneDecoderFamilies")
    b = catalog().scenario("IntentModelEvaluationInt4")
    assert float(s.binned_tokens) == 112
    assert s.kv_per_token.to("B").magnitude == pytest.approx(2 * 32 * 4096 * 2, rel=1e-12)
    assert s.prefix_kv.to("MB").magnitude == pytest.approx(288 * 2 * 32 * 4096 * 2 / 1e6, rel=1e-12)
    assert s.expert_weights.to("MB").magnitude == pytest.approx(600, rel=1e-12)
    step = b.t_decode_step.to("ms").magnitude
    prefill = s.t_prefill.to("ms").magnitude
    assert s.t_binned.to("ms").magnitude == pytest.approx(prefill + 111 * step, rel=1e-12)
    assert s.t_fast.to("ms").magnitude == pytest.approx(prefill + 29 * step, rel=1e-12)
    assert prefill == pytest.approx(b.t_prefill.to("ms").magnitude, rel=1e-12)   # the deployed backbone decodes causally


@pytest.mark.parametrize("backbone", ["IntentModelEvaluationParallel", "IntentModelEvaluationThreeViews",
                                      "IntentModelEvaluation8Bit", "IntentModelEvaluationFp16"])
def test_decoder_families_over_every_backbone_equal_mlsysims(backbone):
    """The named scenario over each of the other VLA evaluations (a parallel-decoding backbone among them: every family
    decodes in its own mode whatever the backbone's flag) against mlsysim's with the same backbone, field by field."""
    import mlsysim

    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_same

    ours = catalog().scenario("IntentBackboneDecoderFamilies").variant(backbone=backbone).result
    theirs = mlsysim.Scenarios.IntentBackboneDecoderFamilies.model_copy(
        update={"backbone": getattr(mlsysim.Scenarios, backbone)}).result
    for f in ours.fields:
        assert_same(getattr(ours, f), getattr(theirs, f), f"{backbone}.{f}")


def test_thermal_throttle_written_out_and_its_unreachable_thresholds():
    """Clock-invariant cycles and the lumped capacitance method (Incropera et al., §5.2), written out: a 250 µs WCET at
    1.2 GHz is 300000 cycles, 500 µs at 600 MHz, so with 90 µs of blocking and interference the response 590 µs passes
    the 400 µs deadline by 190 µs. Quiet 45 + 4 × 2 = 53 °C, loaded 45 + 26 × 2 = 97 °C (326.15 K and 370.15 K: mlsysim's
    degrees Celsius in kelvin here); the trip at 95 °C comes after 8 ln(44/2) s = 24.73 s and the clock returns at 85 °C
    after 8 ln(42/32) s from the trip, 8 ln(44/32) s from the loaded equilibrium. A lighter load whose equilibrium stays
    below the trip has no time to trip (None: mlsysim's calc_first_order_time_to_temperature returns None there, and its
    ThermalThrottleResult, which declares the field a required Quantity, raises a ValidationError), and a clear threshold at or below the quiet equilibrium is
    refused by name, never a logarithm of a negative ratio."""
    import math

    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.errors import InputError

    s = catalog().scenario("WarehouseSharedDieThermalThrottle")
    assert float(s.cycles) == pytest.approx(300000, rel=1e-12)
    assert s.overrun.to("us").magnitude == pytest.approx(190, rel=1e-12)
    assert s.junction_quiet.to("K").magnitude == pytest.approx(273.15 + 53, rel=1e-12)
    assert s.junction_loaded.to("K").magnitude == pytest.approx(273.15 + 97, rel=1e-12)
    assert s.time_to_trip.to("s").magnitude == pytest.approx(8 * math.log(44 / 2), rel=1e-12)
    assert s.recovery.to("s").magnitude == pytest.approx(8 * math.log(42 / 32), rel=1e-12)
    assert s.recovery_from_loaded.to("s").magnitude == pytest.approx(8 * math.log(44 / 32), rel=1e-12)
    assert s.variant(loaded_power="20 W").result.time_to_trip is None
    with pytest.raises(InputError, match="clears_from_trip"):
        _ = s.variant(quiet_power="25 W").recovery


VARIANTS = [
    ("PandaClassJointSeamBridge", {"loaded_inertia": None}, {"loaded_inertia": None}),
    ("RackEndMisdatedUpdateConsistency", {"runs": 10, "confidence": 0.9, "gate_confidences": [0.5, 0.9, 0.999]},
     {"runs": 10, "confidence": 0.9, "gate_confidences": [0.5, 0.9, 0.999]}),
    ("RackEndMisdatedUpdateConsistency", {"runs": 200, "confidence": 0.99}, {"runs": 200, "confidence": 0.99}),
    ("WristCameraGraspAgeProfile", {"focus_stage": "Fieldbus", "system_p999": "40 ms"},
     {"focus_stage": "Fieldbus", "system_p999": (40, "ms")}),
    ("WarehouseSharedDieThermalThrottle", {"loaded_power": "40 W", "theta": "1.5 K/W", "throttled_clock": "900 MHz"},
     {"loaded_power": (40, "W"), "theta": (1.5, "K/W"), "throttled_clock": (900, "MHz")}),
    ("WarehouseSharedDieThermalThrottle", {"time_constant": "3 s", "clear": "363.15 K"},
     {"time_constant": (3, "s"), "clear": (90, "degC")}),
]


@pytest.mark.parametrize(("key", "ours_update", "theirs_update"), VARIANTS)
def test_variants_equal_mlsysims(key, ours_update, theirs_update):
    """Variants off the named scenarios (another focus stage, other gates and campaigns, another load and clock, no
    loaded inertia) against mlsysim's model_copy with the same values, field by field; the junction temperatures in
    kelvin (mlsysim's degrees Celsius converted by its own registry)."""
    import math

    import mlsysim
    from mlsysim.core.units import ureg

    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_same

    theirs_update = {k: ureg.Quantity(*v) if isinstance(v, tuple) else v for k, v in theirs_update.items()}
    ours = catalog().scenario(key).variant(**ours_update).result
    theirs = getattr(mlsysim.Scenarios, key).model_copy(update=theirs_update).result
    for f in ours.fields:
        if f == "coefficients":   # a5: exactly 0 in ours, mlsysim's numpy residue (see test_ref_results.NEAR_ZERO)
            assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-8) for a, b in zip(ours.coefficients, theirs.coefficients))
        elif f.startswith("junction_"):
            assert math.isclose(getattr(ours, f).to("K").magnitude, getattr(theirs, f).to("kelvin").magnitude, rel_tol=1e-9)
        else:
            assert_same(getattr(ours, f), getattr(theirs, f), f"{key}.{f}")


def test_seam_bridge_a5_is_exactly_zero_where_mlsysims_solve_leaves_a_residue():
    """The divergence, shown: for a 7 ms bridge of a 0.5 rad/s gap mlsysim's numpy solve of the 3×3 boundary system
    gives a5 = 1.5e-7 (its a4 is −7.3e5); the exact solution (Lynch and Park 2017, §9.2, written out in the type's
    derivation) has a5 = 0, which ours gives, and a3 = Δω/T², a4 = −Δω/(2T³) agree with mlsysim's at 1e-9."""
    import mlsysim
    from mlsysim.core.units import ureg

    from mlsysim_symbolic.catalog import catalog

    ours = catalog().scenario("PandaClassJointSeamBridge").variant(velocity_gap="0.5 rad/s", bridge_duration="7 ms")
    theirs = mlsysim.Scenarios.PandaClassJointSeamBridge.model_copy(
        update={"velocity_gap": ureg.Quantity(0.5, "rad/s"), "bridge_duration": ureg.Quantity(7, "ms")}).result
    a3, a4, a5 = ours.coefficients
    assert a5 == 0 and abs(theirs.coefficients[2]) > 1e-9
    assert a3 == pytest.approx(0.5 / 0.007**2, rel=1e-12) == pytest.approx(theirs.coefficients[0], rel=1e-9)
    assert a4 == pytest.approx(-0.5 / (2 * 0.007**3), rel=1e-12) == pytest.approx(theirs.coefficients[1], rel=1e-9)
