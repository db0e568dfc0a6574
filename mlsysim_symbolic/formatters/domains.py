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
from typing import Any

from .domain import Domain, Ladder, build
from .label_rules import Equal, LabelRules, Same, Spelled
from .markdown import MarkdownStr

__all__ = ["ALIASES", "DOMAINS", "LABEL_RULES", "LADDERS", "formatters"]

#: The auto-scaling ladders (mlsysim's ``_pick_*_unit`` rules).
LADDERS: dict[str, Ladder] = {
    "memory": Ladder.of("byte", ("KB", 0), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("PB", 1e15)),
    "memory_binary": Ladder.of("byte", ("KiB", 0), ("MiB", 1024**2), ("GiB", 1024**3), ("TiB", 1024**4)),
    "power": Ladder.of("W", ("W", 0), ("kW", 1e3), ("MW", 1e6), ("GW", 1e9)),
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
