"""The domain formatters, one :class:`~.domain.Domain` entry each (mlsysim's units, ladders and labels).

A new domain formatter is an entry of :data:`DOMAINS` (and its name in :data:`~.names.FORMATTERS`); a ladder of
auto-scaled units is declared once here with :meth:`~.domain.Ladder.of` (``(unit text, at_least)`` pairs, the
thresholds in the ladder's base unit, or in the unit of the rung below for a ``stepwise`` ladder); labels some
display units get are rules of :data:`LABEL_RULES`; another name of a formatter is an entry of :data:`ALIASES`.

>>> from mlsysim_symbolic.units import Q_
>>> from mlsysim_symbolic.formatters.domains import fmt_memory, fmt_power, fmt_torque
>>> fmt_memory(Q_(1500, "byte")), fmt_memory(Q_(80, "GiB"), binary=True), fmt_memory(Q_(2.5e15, "byte"), per="day")
('1.5 KB', '80 GiB', '2.5 PB/day')
>>> fmt_power(Q_(700, "W")), fmt_power(Q_(1.2e7, "W"), approx=True), fmt_torque(Q_(2.5, "N*m"), precision=2)
('700 W', '~12 MW', '2.50 N·m')
>>> from mlsysim_symbolic.formatters.domains import fmt_battery_capacity, fmt_capacitance, fmt_energy
>>> fmt_energy(Q_(1, "MWh")), fmt_energy(Q_(-2, "MWh")), fmt_battery_capacity(Q_(5000, "mAh")), fmt_capacitance(Q_(4.7e-6, "F"))
('1000 kWh', '-2000000 Wh', '5 Ah', '4.7 μF')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..units import Q_
from .domain import Domain, Ladder, build
from .inputs import DisplayUnit
from .label_rules import Equal, LabelRules, Same, Spelled
from .label_tables import Quotient, UnitLabels
from .markdown import MarkdownStr
from .points import POINTS, ByValueUnit

__all__ = ["ALIASES", "DOMAINS", "LABEL_RULES", "LADDERS", "STIFFNESS_LABEL", "UNIT_LABELS", "formatters"]

#: The auto-scaling ladders (mlsysim's ``_pick_*_unit`` rules).
LADDERS: dict[str, Ladder] = {
    "memory": Ladder.of("byte", ("KB", 0), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("PB", 1e15)),
    "memory_binary": Ladder.of("byte", ("KiB", 0), ("MiB", 1024**2), ("GiB", 1024**3), ("TiB", 1024**4)),
    "power": Ladder.of("W", ("W", 0), ("kW", 1e3), ("MW", 1e6), ("GW", 1e9)),
    "length": Ladder.of("m", ("m", 0), ("km", 1e3)),
    "mass": Ladder.of("g", ("g", 0), ("kg", 1e3), ("t", 1e6)),
    "ops_rate": Ladder.of("OPS", ("OPS", 0), ("KOPS", 1e3), ("MOPS", 1e6), ("GOPS", 1e9), ("TOPS", 1e12)),
    "power_rate": Ladder.of("W/s", ("W/s", 0), ("kW/s", 1e3), ("MW/s", 1e6), ("GW/s", 1e9)),
    "inductance": Ladder.of("H", ("uH", 0), ("mH", 1e-3), ("H", 1)),
    "latency": Ladder.of("s", ("ns", 0), ("us", 1e-6), ("ms", 1e-3), ("s", 1), ("min", 60), ("h", 3600)),
    "area": Ladder.of("m**2", ("mm**2", 0), ("m**2", 0.01)),
    "bandwidth": Ladder.of("byte/s", ("MB/s", 0), ("GB/s", 1e9), ("TB/s", 1e12)),
    "capacitance": Ladder.of("F", ("nF", 0), ("uF", 1e-6), ("mF", 1e-3), ("F", 1)),
    "charge": Ladder.of("mAh", ("mAh", 0), ("Ah", 1e3)),
    # stepwise: each threshold in the unit of the rung below (mlsysim's converted comparisons, float for float);
    # signed past the second rung (mlsysim compares the signed value there: a large negative energy stays in Wh)
    "emissions": Ladder.of("g", ("g", 0), ("kg", 1e3), ("t", 1e3), signed_from="t", stepwise=True),
    "energy": Ladder.of("J", ("J", 0), ("Wh", 3600), ("kWh", 1e3), ("MWh", 1e3), ("GWh", 1e3), signed_from="kWh",
                        stepwise=True),
    "flop_rate": Ladder.of("GFLOP/s", ("GFLOP/s", 0), ("TFLOP/s", 1e3), ("PFLOP/s", 1e3), ("EFLOP/s", 1e3),
                           ("ZFLOP/s", 1e3), stepwise=True),
    "flops": Ladder.of("flop", ("KFLOP", 0), ("MFLOP", 1e6), ("GFLOP", 1e9), ("TFLOP", 1e12), ("PFLOP", 1e15),
                       ("EFLOP", 1e18), ("ZFLOP", 1e21)),
    "frequency": Ladder.of("Hz", ("Hz", 0), ("kHz", 1e3), ("MHz", 1e6), ("GHz", 1e9)),
    "heat_capacity": Ladder.of("J/K", ("J/K", 0), ("kJ/K", 1e3)),
}

#: The labels some formatters give some display units (mlsysim's choices: :mod:`.label_rules`).  A ``Spelled``
#: rule reads the unit's short pretty text, as mlsysim's ``str(unit)`` is (``µF``, never ``microfarad``).
LABEL_RULES: dict[str, LabelRules] = {
    "acceleration": LabelRules((Equal("standard_gravity", "g"),)),   # not pint's g_0
    "angular_acceleration": LabelRules((Same("rad/s**2", "rad/s²"), Same("deg/s**2", "deg/s²"))),
    "angular_velocity": LabelRules((Same("rad/s", "rad/s"), Same("deg/s", "deg/s"))),
    # the farad keeps its own label F (mlsysim labels F only the unit spelled exactly F: kF stays kF)
    "capacitance": LabelRules((Spelled(("pF",), "pF"), Spelled(("nF",), "nF"), Spelled(("µF",), "μF"),
                               Spelled(("mF",), "mF"))),
    "charge": LabelRules((Spelled(("mAh",), "mAh"), Spelled(("Ah",), "Ah"), Spelled(("C",), "C"))),
    "energy_per_op": LabelRules((Same("pJ/flop", "pJ/op"),)),
    "force_rate": LabelRules((Same("N/s", "N/s"), Same("N/ms", "N/ms"))),
    "heat_capacity": LabelRules((Spelled(("kJ",), "kJ/K"),), otherwise="J/K"),
}

#: Labels naming the display unit (mlsysim's spellings) where our unit text spells it otherwise.
UNIT_LABELS: dict[str, UnitLabels] = {
    "inductance": UnitLabels.of(("uH", "μH"), ("mH", "mH"), ("H", "H")),
    "resistance": UnitLabels.of(("ohm", "Ω"), ("milliohm", "mΩ"), ("kiloohm", "kΩ"), ("megaohm", "MΩ"),
                                ("microohm", "µΩ")),
    "memory_capacity": UnitLabels.of(("KiB", "KB"), ("MiB", "MB"), ("GiB", "GB"), ("TiB", "TB")),
    "ops_rate": UnitLabels.of(("KOPS", "KOPS")),
    "temperature": UnitLabels.of(("K", "K"), ("degC", "°C"), ("delta_degC", "°C")),
    "temperature_rate": UnitLabels.of(("delta_degC/s", "°C/s"), ("delta_degC/min", "°C/min"),
                                      ("delta_degC/h", "°C/h")),
    "thermal_resistance": UnitLabels.of(("delta_degC/W", "°C/W")),
    "volume": UnitLabels.of(("m**3", "m³"), ("L", "L"), ("mL", "mL"), ("cm**3", "cm³")),
    "water": UnitLabels.of(("L", "L"), ("L/h", "L/h"), ("L/day", "L/day"), ("L/kWh", "L/kWh")),
}

#: fmt_stiffness's label: a force over a length, each by its symbol.
STIFFNESS_LABEL = Quotient.of(
    "fmt_stiffness", "a force over a length (N/m, kN/mm ...)",
    {"MN": "MN", "kN": "kN", "mN": "mN", "N": "N"}, {"km": "km", "mm": "mm", "um": "µm", "cm": "cm", "m": "m"})

_KELVINS = frozenset({"kelvin", "millikelvin", "microkelvin", "kilokelvin"})
_METER = Q_(1, "m").units


def _length_commas(shown: DisplayUnit, value: float) -> bool:
    """mlsysim's fmt_length: commas for a display unit other than the meter, and for 1,000 m and more."""
    return shown.unit != _METER or abs(value) >= 1000


_MARKED = ("approx", "lower_bound", "upper_bound", "per")
_BOUNDS = ("approx", "lower_bound", "upper_bound")

#: One entry per domain formatter.
DOMAINS: tuple[Domain, ...] = (
    Domain("fmt_memory", dimension="byte", default=LADDERS["memory"], keywords=("binary", *_MARKED),
           ladders={"binary": LADDERS["memory_binary"]},
           doc="Memory sizes auto-scaled for prose: KB to PB (KiB to TiB with binary=True)."),
    Domain("fmt_power", dimension="W", default=LADDERS["power"], keywords=_MARKED,
           doc="Power auto-scaled for prose: W, kW, MW, GW."),
    Domain("fmt_torque", dimension="N*m", default="N*m", label="N·m", checks_value=True,
           doc="Torque for prose, labelled N·m."),
    Domain("fmt_illuminance", dimension="lux", default="lux", label="lux",
           doc="Illuminance for prose, labelled lux."),
    Domain("fmt_inductance", dimension="H", default=LADDERS["inductance"], label=UNIT_LABELS["inductance"],
           keywords=_MARKED[:3], checks_value=True, doc="Inductance auto-scaled for prose: μH, mH, H."),
    Domain("fmt_inertia", dimension="kg*m**2", default="kg*m**2", label="kg·m²", checks_value=True,
           doc="Moment of inertia for prose, labelled kg·m²."),
    Domain("fmt_jerk", dimension="m/s**3", default="m/s**3", label="m/s³", checks_value=True,
           doc="Kinematic jerk for prose, labelled m/s³."),
    Domain("fmt_length", dimension="m", default=LADDERS["length"], commas=None, auto_commas=_length_commas,
           doc="Lengths for prose: m below 1,000 m, else km; commas for km and for 1,000 m and more."),
    Domain("fmt_mass", dimension="kg", default=LADDERS["mass"], keywords=_MARKED[:3], checks_value=True,
           doc="Masses auto-scaled for prose: g, kg, t."),
    Domain("fmt_mass_flow", dimension="kg/s", default="kg/s", keywords=_MARKED[:3], checks_value=True,
           doc="Mass flow rates for prose (kg/s, kg/h)."),
    Domain("fmt_memory_capacity", dimension="byte", default=LADDERS["memory_binary"],
           label=UNIT_LABELS["memory_capacity"], keywords=("approx",),
           doc="Vendor memory capacities: a binary magnitude (KiB to TiB) under its published decimal label (GB)."),
    Domain("fmt_motor_constant", dimension="N*m/W**0.5", default="N*m/W**0.5", label="N·m/√W", checks_value=True,
           doc="A motor constant K_m = K_t / sqrt(R) for prose, labelled N·m/√W."),
    Domain("fmt_ops_rate", dimension="OPS", default=LADDERS["ops_rate"], label=UNIT_LABELS["ops_rate"],
           keywords=_MARKED[:3], doc="Operation rates auto-scaled for prose: OPS, KOPS, MOPS, GOPS, TOPS."),
    Domain("fmt_power_rate", dimension="W/s", default=LADDERS["power_rate"], keywords=_MARKED[:3],
           checks_value=True, doc="Power ramp rates auto-scaled for prose: W/s, kW/s, MW/s, GW/s."),
    Domain("fmt_resistance", dimension="ohm", default="ohm", label=UNIT_LABELS["resistance"], checks_value=True,
           doc="Electrical resistance for prose (Ω, mΩ)."),
    Domain("fmt_specific_heat", dimension="J/(kg*K)", default="J/(kg*K)", label="J/kg/K", checks_value=True,
           checks_unit=True, sign="positive", doc="Specific heat capacity for prose, labelled J/kg/K."),
    Domain("fmt_stiffness", dimension="N/m", default="N/m", label=STIFFNESS_LABEL, keywords=_MARKED[:3],
           checks_value=True, doc="Mechanical stiffness for prose (N/m, kN/mm ...)."),
    Domain("fmt_temperature", dimension="K", default=ByValueUnit(frozenset({"kelvin"}), "K", "degC"),
           label=UNIT_LABELS["temperature"], keywords=_MARKED[:3], reading=POINTS,
           doc="Absolute temperatures for prose: in °C, or in K when given in kelvin."),
    Domain("fmt_temperature_rate", dimension="K/s", default=ByValueUnit(_KELVINS, "K/s", "delta_degC/s"),
           label=UNIT_LABELS["temperature_rate"], keywords=_MARKED[:3],
           doc="Temperature-change rates for prose: in °C/s, or in K/s when given in kelvin."),
    Domain("fmt_thermal_resistance", dimension="K/W", default="K/W", label=UNIT_LABELS["thermal_resistance"],
           keywords=_MARKED[:3], checks_value=True, doc="Thermal resistance for prose (K/W, °C/W)."),
    Domain("fmt_torque_constant", dimension="N*m/A", default="N*m/A", label="N·m/A", checks_value=True,
           doc="A motor torque constant for prose, labelled N·m/A."),
    Domain("fmt_torque_rate", dimension="N*m/s", default="N*m/s", label="N·m/s", checks_value=True,
           doc="Torque rates for prose (a steering-torque ramp), labelled N·m/s."),
    Domain("fmt_velocity", dimension="m/s", default="m/s", checks_value=True,
           doc="Velocities for prose (m/s, km/h, mph)."),
    Domain("fmt_voltage", dimension="V", default="V", checks_value=True,
           doc="Voltages for prose (V, mV, kV)."),
    Domain("fmt_volume", dimension="m**3", default="m**3", label=UNIT_LABELS["volume"], keywords=_MARKED[:3],
           checks_value=True, doc="Volumes for prose (m³, L, mL, cm³)."),
    Domain("fmt_volumetric_flow", dimension="m**3/s", default="m**3/s", keywords=_MARKED[:3], checks_value=True,
           doc="Volumetric flow rates for prose (m³/s, L/s)."),
    Domain("fmt_water", dimension="L", default="L", label=UNIT_LABELS["water"], commas=True, checks_unit=True,
           doc="Water volumes for prose, in liters by default."),
    Domain("fmt_water_rate", dimension="L/day", default="L/day", label=UNIT_LABELS["water"], commas=True,
           checks_unit=True, doc="Water flow rates for prose (L/day, L/h)."),
    Domain("fmt_water_intensity", dimension="L/kWh", default="L/kWh", label=UNIT_LABELS["water"],
           checks_unit=True, doc="Water usage per energy for prose (L/kWh)."),
    Domain("fmt_acceleration", dimension="m/s**2", default="m/s**2", label=LABEL_RULES["acceleration"],
           checks_value=True, doc="Acceleration for prose (m/s²; multiples of standard gravity labelled g)."),
    Domain("fmt_angle", dimension="rad", default="rad", keywords=_BOUNDS, checks_value=True,
           doc="Planar angles for prose (rad, mrad, deg)."),
    Domain("fmt_angular_acceleration", dimension="rad/s**2", default="rad/s**2",
           label=LABEL_RULES["angular_acceleration"], checks_value=True,
           doc="Angular acceleration for prose (rad/s², deg/s²)."),
    Domain("fmt_angular_velocity", dimension="rad/s", default="rad/s", label=LABEL_RULES["angular_velocity"],
           keywords=_BOUNDS, checks_value=True, doc="Angular velocity for prose (rad/s, deg/s, rpm)."),
    Domain("fmt_area", dimension="m**2", default=LADDERS["area"], checks_unit=True, sign="non_negative",
           doc="Physical areas for prose: mm² for chip-scale areas (below 0.01 m²), else m²."),
    Domain("fmt_arithmetic_intensity", dimension="flop/byte", default="flop/byte", keywords=_BOUNDS,
           doc="Arithmetic intensity for prose, as FLOP/byte."),
    Domain("fmt_bandwidth", dimension="byte/s", default=LADDERS["bandwidth"], keywords=_MARKED,
           doc="Bandwidth auto-scaled for prose: MB/s, GB/s, TB/s."),
    Domain("fmt_capacitance", dimension="F", default=LADDERS["capacitance"], label=LABEL_RULES["capacitance"],
           keywords=_BOUNDS, checks_value=True, doc="Capacitance auto-scaled for prose: nF, μF, mF, F."),
    Domain("fmt_carbon_intensity", dimension="g/kWh", default="g/kWh",
           doc="Grid carbon intensity for prose, in g/kWh."),
    Domain("fmt_charge", dimension="A*s", default=LADDERS["charge"], label=LABEL_RULES["charge"],
           keywords=_BOUNDS, checks_value=True, doc="Electric charge or battery capacity for prose (mAh, Ah, C)."),
    Domain("fmt_compute_efficiency", dimension="TFLOP/s/W", default="TFLOP/s/W",
           doc="Accelerator efficiency for prose, as FLOP throughput per watt (TFLOP/s/W)."),
    Domain("fmt_current", dimension="A", default="A", checks_value=True,
           doc="Electric current for prose (A, mA)."),
    Domain("fmt_decibel", dimension="dB", default="dB", label="dB",
           doc="Logarithmic levels for prose, labelled dB (a plain ratio is shown as its level)."),
    Domain("fmt_density", dimension="kg/m**3", default="kg/m**3", keywords=_BOUNDS, checks_value=True,
           doc="Density for prose (kg/m³, g/cm³)."),
    Domain("fmt_emissions", dimension="g", default=LADDERS["emissions"], keywords=("approx", "lower_bound"),
           doc="Carbon mass auto-scaled for prose: g, kg, t."),
    Domain("fmt_energy", dimension="J", default=LADDERS["energy"], keywords=_MARKED,
           doc="Energy auto-scaled for prose: J, Wh, kWh, MWh, GWh."),
    Domain("fmt_energy_per_bit", dimension="pJ/bit", default="pJ/bit", keywords=_BOUNDS,
           doc="Signalling or link energy per bit for prose, as pJ/bit."),
    Domain("fmt_energy_per_byte", dimension="pJ/byte", default="pJ/byte", keywords=_BOUNDS,
           doc="Data-movement energy per byte for prose, as pJ/byte."),
    Domain("fmt_energy_per_flop", dimension="pJ/flop", default="pJ/flop", keywords=_BOUNDS,
           doc="Compute energy per FLOP for prose, as pJ/FLOP."),
    Domain("fmt_energy_per_op", dimension="pJ/flop", default="pJ/flop", label=LABEL_RULES["energy_per_op"],
           keywords=_BOUNDS, checks_unit=True, sign="non_negative",
           doc="Energy of a generic operation (an op is a flop) for prose, as pJ/op."),
    Domain("fmt_flop_rate", dimension="GFLOP/s", default=LADDERS["flop_rate"], keywords=_MARKED,
           doc="FLOP throughput auto-scaled for prose: GFLOP/s to ZFLOP/s."),
    Domain("fmt_flops", dimension="flop", default=LADDERS["flops"],
           keywords=("per", "approx", "lower_bound", "upper_bound"),
           doc="FLOP counts auto-scaled for prose: KFLOP to ZFLOP."),
    Domain("fmt_flow_rate", dimension="m**3/s", default="m**3/s", keywords=_BOUNDS, checks_value=True,
           doc="Volumetric flow rate for prose (m³/s, L/s): fmt_volumetric_flow's other name."),
    Domain("fmt_force", dimension="N", default="N", keywords=_BOUNDS, checks_value=True,
           doc="Force for prose (N, kN, mN)."),
    Domain("fmt_force_rate", dimension="N/s", default="N/s", label=LABEL_RULES["force_rate"], keywords=_BOUNDS,
           checks_value=True, doc="Force rates for prose (N/s, N/ms), e.g. braking or clamp ramps."),
    Domain("fmt_frequency", dimension="Hz", default=LADDERS["frequency"], checks_value=True,
           doc="Frequency auto-scaled for prose: Hz, kHz, MHz, GHz."),
    Domain("fmt_heat_capacity", dimension="J/K", default=LADDERS["heat_capacity"],
           label=LABEL_RULES["heat_capacity"], keywords=_BOUNDS, checks_value=True,
           doc="Heat capacity for prose (J/K, kJ/K at 1,000 J/K and above)."),
    Domain("fmt_heat_flux", dimension="W/cm**2", default="W/cm**2", checks_unit=True, sign="non_negative",
           doc="Heat flux (power density) for prose, as W/cm²."),
)
#: mlsysim's second name of a formatter: the same record under it.
DOMAINS += (replace(next(d for d in DOMAINS if d.name == "fmt_mass_flow"), name="fmt_mass_flow_rate"),)

#: Other names of built formatters (mlsysim's aliases): alias -> the formatter's name.
ALIASES: dict[str, str] = {"fmt_battery_capacity": "fmt_charge"}

#: The built formatters, by name (an alias is the very function it names).
formatters: dict[str, Callable[..., MarkdownStr]] = {domain.name: build(domain) for domain in DOMAINS}
formatters.update({alias: formatters[name] for alias, name in ALIASES.items()})


def __getattr__(name: str) -> Any:
    """A built domain formatter (``fmt_memory`` ...)."""
    if name in formatters:
        return formatters[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
