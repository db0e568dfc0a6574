"""Embodied AI and robotics, the foundation (platforms, cameras, the mobile manipulator and its site as data types, and
the classes that take them) against mlsysim 0.3.0: every public member of every named scenario (see members.py); the
``result`` of each is compared field by field by test_ref_results.py.  The data types are not mlsysim scenario classes:
their fields and derived properties are compared here with mlsysim's registry objects."""

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import assert_close

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
                                  "permission_rail_holdup_capacitance", "permission_rail_holdup_energy"),
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
        if field.kind == "scenario":
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
        "brain_soc", "permission_mcu", "lidar", "imu", "safety_scanner", "intent_model", "chunk_model",
        "intent_parallel_decode", "drive_unit", "drive_wheel_load_share", "cg_height", "tip_arm_stowed",
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
