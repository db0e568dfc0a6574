"""The domain formatters, one :class:`~.domain.Domain` entry each (mlsysim's units, ladders and labels).

A new domain formatter is an entry of :data:`DOMAINS` (and its name in :data:`~.names.FORMATTERS`); a ladder of
auto-scaled units is declared once here with :meth:`~.domain.Ladder.of` (``(unit text, at_least)`` pairs, the
thresholds in the ladder's base unit).

>>> from mlsysim_symbolic.units import Q_
>>> from mlsysim_symbolic.formatters.domains import fmt_memory, fmt_power, fmt_torque
>>> fmt_memory(Q_(1500, "byte")), fmt_memory(Q_(80, "GiB"), binary=True), fmt_memory(Q_(2.5e15, "byte"), per="day")
('1.5 KB', '80 GiB', '2.5 PB/day')
>>> fmt_power(Q_(700, "W")), fmt_power(Q_(1.2e7, "W"), approx=True), fmt_torque(Q_(2.5, "N*m"), precision=2)
('700 W', '~12 MW', '2.50 N·m')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..units import Q_
from .domain import Domain, Ladder, build
from .inputs import DisplayUnit
from .label_tables import Quotient, UnitLabels
from .markdown import MarkdownStr
from .points import POINTS, ByValueUnit

__all__ = ["DOMAINS", "LADDERS", "STIFFNESS_LABEL", "UNIT_LABELS", "formatters"]

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
)
#: mlsysim's second name of a formatter: the same record under it.
DOMAINS += (replace(next(d for d in DOMAINS if d.name == "fmt_mass_flow"), name="fmt_mass_flow_rate"),)

#: The built formatters, by name.
formatters: dict[str, Callable[..., MarkdownStr]] = {domain.name: build(domain) for domain in DOMAINS}


def __getattr__(name: str) -> Any:
    """A built domain formatter (``fmt_memory`` ...)."""
    if name in formatters:
        return formatters[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
