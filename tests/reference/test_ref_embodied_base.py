"""Embodied AI and robotics, the foundation (platforms, cameras, the mobile manipulator and its site as data types, and
the classes that take them) against mlsysim 0.3.0: every public member of every named scenario (see members.py); the
``result`` of each is compared field by field by test_ref_results.py.  The data types are not mlsysim scenario classes:
their fields and derived properties are compared here with mlsysim's registry objects."""

import math

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import assert_close
from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "StoppingBudgetScenario",
        "SpeedStepScenario",
        "JerkLimitedStopScenario",
        "ResponseTimeScenario",
        "StallShareScenario",
        "OnsetTrialScenario",
        "RestrictedTransitScenario",
        "SkewedRecordsScenario",
        "FreeSpaceExpiryScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)

#: our named scenario -> the path of mlsysim's registry object it ports
RECORDS = {
    "WarehouseAMR": "embodied.Embodied.AMR.WarehouseAMR",
    "FrankaPanda": "embodied.Embodied.Manipulator.Panda",
    "SonyIMX477": "sensors.Sensors.Camera.Sony_IMX477",
    "SonyIMX296": "sensors.Sensors.Camera.Sony_IMX296",
    "WarehouseMobileManipulator": "embodied.Embodied.MobileManipulator.WarehouseMobileManipulator",
    "WarehouseAisle": "embodied.Embodied.Scenario.WarehouseAisle",
}

#: mlsysim properties of the data types that ours derive (outputs), by type
PROPERTIES = {
    "MobileManipulatorPlatform": ("unloaded_mass", "loaded_mass", "arm_effective_contact_mass", "chunk_period",
                                  "permission_rail_holdup_capacitance", "permission_rail_holdup_energy",
                                  "intent_weight_memory", "intent_inference_latency", "drive_wheel_load_share_max"),
    "EmbodiedSiteScenario": ("a_brake", "t_tick", "perception_age", "dispatch_age_limit", "tau_delay", "t_handshake",
                             "t_takeover_transport", "t_human_simple_reaction", "t_human_simple_reaction_slow",
                             "t_takeover_in_loop", "t_takeover_out_of_loop", "pre_trigger_window", "t_board_link",
                             "t_dispatch_to_admission", "t_capture_to_admission", "t_admission_to_brake_onset",
                             "t_capture_to_brake_onset", "fixed_overhead", "j_brake"),
}


def _record(path: str):
    import importlib

    module, *attrs = path.split(".")
    obj = importlib.import_module(f"mlsysim.{module}")
    for a in attrs:
        obj = getattr(obj, a)
    return obj


@pytest.mark.parametrize("key", list(RECORDS))
def test_a_data_record_equals_mlsysims_registry_object(key):
    """Every field our data type declares (an input) equals the registry object's (scenario inputs: the component's
    record, by its name), and every derived property ours has equals mlsysim's."""
    ours, theirs = catalog().scenario(key), _record(RECORDS[key])
    spec = ours.type.inputs
    compared = 0
    for name, field in spec.items():
        if not hasattr(theirs, name):   # a constant of ours mlsysim writes in its code (bits per clock)
            continue
        value = getattr(theirs, name)
        if field.kind in ("scenario", "hardware", "workload"):   # a component's record, or a registry entry: by its name
            assert getattr(ours, name).name == value.name, f"{key}.{name}"
        elif value is None:
            assert ours.inputs.get(name) is None, f"{key}.{name}: mlsysim None, ours {ours.inputs.get(name)!r}"
        elif isinstance(value, int):   # a count mlsysim keeps as a plain int (tokens per evaluation, axes, setpoints)
            got = getattr(ours, name)
            assert getattr(got, "magnitude", got) == value, f"{key}.{name}: ours {got!r}, mlsysim {value!r}"
        else:
            assert_close(getattr(ours, name), value, f"{key}.{name}")
        compared += 1
    for prop in PROPERTIES.get(type(ours).__name__, ()):
        assert_close(getattr(ours, prop), getattr(theirs, prop), f"{key}.{prop}")
        compared += 1
    assert compared >= 5


def test_every_field_the_registry_object_has_is_ported_or_named():
    """The site and machine types declare every scalar field of mlsysim's objects except the ones named here."""
    from mlsysim.embodied.types import EmbodiedSiteScenario, MobileManipulatorPlatform

    left_out = {
        "name", "metadata", "archetype",
        # the machine's components not yet ported (see MobileManipulatorPlatform's excludes)
        "permission_mcu", "lidar", "imu", "safety_scanner", "chunk_model",
        "drive_unit", "drive_wheel_load_share", "cg_height", "tip_arm_stowed",
    }
    for cls, ours in ((MobileManipulatorPlatform, "MobileManipulatorPlatform"), (EmbodiedSiteScenario, "EmbodiedSiteScenario")):
        declared = set(catalog().types[ours].inputs)
        missing = sorted(set(cls.model_fields) - declared - left_out)
        assert missing == [], f"{ours}: {missing}"


def test_derivatives_reach_the_site_and_machine_fields():
    """The pre-brake delay's sensitivity reaches the navigation camera's exposure through machine and site
    (∂τ/∂T_exp = 1/2: the observation age starts at the exposure midpoint), and the jerk bound's the base's limits."""
    site = catalog().scenario("WarehouseAisle")
    assert str(site.diff("tau_delay", "machine.nav_camera.exposure_time")) == "1/2"
    assert str(site.diff("j_brake", "machine.base.max_velocity")) == "-8*machine.base.a_max**2/(3*machine.base.v_max**2)"


def test_c2_stop_jerk_bound_is_eight_thirds_a_squared_over_v():
    """Derivation check: the C2 stop q(u) = v·T·(u − u³ + u⁴/2), u = t/T, has peak deceleration 1.5·v/T and peak jerk
    6·v/T²; with the peak deceleration set to a, T = 1.5·v/a and the jerk is (8/3)·a²/v (written out here with SymPy)."""
    import sympy

    u, v, T, a = sympy.symbols("u v T a", positive=True)
    q = v * T * (u - u**3 + u**4 / 2)
    acc = sympy.diff(q, u, 2) / T**2
    jerk = sympy.diff(q, u, 3) / T**3
    peak_acc = -acc.subs(u, sympy.Rational(1, 2))
    assert sympy.simplify(peak_acc - sympy.Rational(3, 2) * v / T) == 0
    t_stop = sympy.solve(sympy.Eq(peak_acc, a), T)[0]
    peak_jerk = sympy.simplify(abs(jerk.subs(u, 0)).subs(T, t_stop))
    site = catalog().scenario("WarehouseAisle")
    value = float(peak_jerk.subs({a: 2.0, v: 1.5}))
    assert site.j_brake.to("m/s**3").magnitude == pytest.approx(value, rel=1e-12)
    assert value == pytest.approx(8 / 3 * 2.0**2 / 1.5, rel=1e-12)


def _double_s_stop(v: float, a: float, j: float, steps: int = 200_000) -> tuple[float, float]:
    """The time-optimal stop under |acceleration| <= a and |jerk| <= j, integrated step by step (Biagiotti and
    Melchiorri 2008, ch. 3): jerk -j until the deceleration reaches a (or until half the speed is shed), hold, then
    jerk +j so the deceleration returns to zero as the speed does.  (distance, time)."""
    t_j = min(a / j, math.sqrt(v / j))          # length of one jerk ramp
    a_peak = j * t_j
    t_hold = max(v / a_peak - t_j, 0.0)          # speed shed by the two ramps is a_peak * t_j
    total = 2 * t_j + t_hold
    dt = total / steps
    x, speed, acc = 0.0, v, 0.0
    for i in range(steps):
        t = (i + 0.5) * dt
        jerk = -j if t < t_j else (0.0 if t < t_j + t_hold else j)
        x += speed * dt + acc * dt**2 / 2 + jerk * dt**3 / 6
        speed += acc * dt + jerk * dt**2 / 2
        acc += jerk * dt
    return x, total


@pytest.mark.parametrize("speed", [0.3, 0.5625, 1.3, 2.0])
def test_scurve_stop_distance_and_time_equal_the_integrated_double_s_profile(speed):
    """Derivation check: the closed forms d_S = v²/(2a) + v·a/(2j) (v >= a²/j) or v·√(v/j), and T_S = v/a + a/j or
    2√(v/j), equal the double-S stop integrated step by step (jerk-limited ramps, deceleration held at a), below and
    above the plateau speed a²/j = 0.5625 m/s of the warehouse base (a = 2 m/s², j = 64/9 m/s³)."""
    s = catalog().scenario("WarehouseFinishedStopAtAisleSpeed").variant(speed=f"{speed} m/s")
    distance, time = _double_s_stop(speed, 2.0, 64 / 9)
    assert s.scurve_travel.to("m").magnitude == pytest.approx(distance, rel=1e-4)   # the step grid misses the ramp ends by < dt
    assert s.stop_time.to("s").magnitude == pytest.approx(time, rel=1e-9)


def _excess(s, v: float) -> float:
    """The budget at speed v less the room, v·τ + d_S(v) + v_h·(τ + T_S(v)) − (D − δ − ε), from the scenario's own
    inputs (mlsysim's calc_scurve_max_permitted_velocity bisects this to its root)."""
    a, j = s.a_brake.to("m/s**2").magnitude, s.jerk.to("m/s**3").magnitude
    tau, room = s.delay.to("s").magnitude, s.room.to("m").magnitude
    v_h = s.approach_speed.to("m/s").magnitude if s.approach_speed is not None else 0.0
    if v >= a * a / j:
        d, t = v * v / (2 * a) + v * a / (2 * j), v / a + a / j
    else:
        d, t = v * math.sqrt(v / j), 2 * math.sqrt(v / j)
    return v * tau + d + v_h * (tau + t) - room


@pytest.mark.parametrize(("key", "changes"), [
    ("WarehouseFinishedStopAtAisleSpeed", {}),                                   # trapezoidal branch
    ("WarehouseFinishedStopWalkingPerson", {}),                                  # cubic, one real root (Cardano)
    ("WarehouseFinishedStopAtAisleSpeed", {"delay": "4600 ms"}),                 # cubic, three real roots (Viète)
    ("WarehouseFinishedStopAtAisleSpeed", {"delay": "7200 ms"}),
    ("WarehouseFinishedStopWalkingPerson", {"delay": "900 ms", "approach_speed": "0.2 m/s"}),
])
def test_the_speed_ceiling_is_the_root_of_the_budget(key, changes):
    """The closed-form ceiling (quadratic above a²/j, Cardano's or Viète's root of the cubic in √v below it) makes
    the budget exactly fill the room, on each branch; a little faster overruns it."""
    s = catalog().scenario(key).variant(**changes) if changes else catalog().scenario(key)
    v = s.speed_ceiling.to("m/s").magnitude
    assert v > 0
    assert _excess(s, v) == pytest.approx(0.0, abs=1e-12)
    assert _excess(s, v * (1 + 1e-6)) > 0


def test_the_tempe_delay_travel_is_the_trapezoid_of_the_recorded_speeds():
    """Hand computation of the Tempe budget's delay travel from its stated inputs (NTSB HAR-19/03 as mlsysim states
    them: 43.2 mph at recognition, 40.5 mph a second later): (43.2 + 40.5)/2 mph × 1 s = 41.85 mph·s = 18.7088 m."""
    s = catalog().scenario("TempeActionSuppression")
    assert s.delay_travel.to("m").magnitude == pytest.approx((43.2 + 40.5) / 2 * 1609.344 / 3600, rel=1e-12)
    assert s.result.speed_ceiling is None and s.result.clear_distance is None


def test_the_default_jerk_bound_is_the_c2_polynomials_peak_at_the_reference_speed():
    """Without a stated jerk bound the stop takes (8/3)·a²/v_ref, at the entry speed unless a reference speed is
    given (mlsysim's calc_c2_stop_suffix); hand computation: a = 5 m/s², v = 1 m/s gives 66.67 m/s³, v_ref = 2 m/s
    half of it."""
    s = catalog().scenario("WarehouseArmStallStop")
    assert s.jerk_bound.to("m/s**3").magnitude == pytest.approx(8 / 3 * 25 / 1.0, rel=1e-12)
    assert s.variant(jerk_reference_speed="2 m/s").jerk_bound.to("m/s**3").magnitude == pytest.approx(8 / 3 * 25 / 2.0, rel=1e-12)
    assert s.polynomial_distance.to("mm").magnitude == pytest.approx(0.75 * 1.0 / 5 * 1000, rel=1e-12)
