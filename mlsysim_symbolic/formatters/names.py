"""Where each ``fmt_*`` formatter lives: the one list the package's lazy exports read (no formatter is imported).

A new formatter is one entry: its name and the module of this subpackage that defines it (a domain formatter's
module is ``domains``, where its table entry builds it).

>>> FORMATTERS["fmt_memory"], "fmt_qty" in FORMATTERS
('domains', True)
"""

from __future__ import annotations

__all__ = ["FORMATTERS"]

#: Formatter name -> module of :mod:`mlsysim_symbolic.formatters` that defines it.
FORMATTERS: dict[str, str] = {
    # values.py: numbers, currency, percentages, table cells
    "fmt_int": "values",
    "fmt_val": "values",
    "fmt_unit": "values",
    "fmt_percent": "values",
    "fmt_usd": "values",
    "fmt_eur": "values",
    # quantity.py and quantities.py: Quantities in an explicit unit, scientific notation, durations
    "fmt_qty": "quantity",
    "fmt_sci": "quantities",
    "fmt_frac": "quantities",
    "fmt_magnitude": "quantities",
    "fmt_qty_int": "quantities",
    "fmt_time": "quantities",
    # math.py: LaTeX math and composed Markdown
    "fmt_math": "math",
    "fmt_display_math": "math",
    "fmt_text": "math",
    # domains.py: the table of domain formatters (auto-scaled units)
    "fmt_memory": "domains",
    "fmt_power": "domains",
    "fmt_torque": "domains",
    # counts.py, ratios.py, rates.py, ranges.py, scientific.py: mlsysim's range, count, rate and ratio formatters
    "fmt_count": "counts",
    "fmt_count_range": "counts",
    "fmt_params": "counts",
    "fmt_tokens": "counts",
    "fmt_ratio": "ratios",
    "fmt_multiple": "ratios",
    "fmt_multiple_range": "ratios",
    "fmt_pp": "ratios",
    "fmt_percent_range": "ratios",
    "fmt_rate": "rates",
    "fmt_fps": "rates",
    "fmt_token_rate": "rates",
    "fmt_range": "ranges",
    "fmt_qty_range": "ranges",
    "fmt_time_range": "ranges",
    "fmt_usd_range": "ranges",
    "fmt_sci_qty": "scientific",
    "fmt_sci_flops": "scientific",
    "fmt_illuminance": "domains",
    "fmt_inductance": "domains",
    "fmt_inertia": "domains",
    "fmt_jerk": "domains",
    "fmt_length": "domains",
    "fmt_mass": "domains",
    "fmt_mass_flow": "domains",
    "fmt_mass_flow_rate": "domains",
    "fmt_memory_capacity": "domains",
    "fmt_motor_constant": "domains",
    "fmt_ops_rate": "domains",
    "fmt_power_rate": "domains",
    "fmt_resistance": "domains",
    "fmt_specific_heat": "domains",
    "fmt_stiffness": "domains",
    "fmt_temperature": "domains",
    "fmt_temperature_rate": "domains",
    "fmt_thermal_resistance": "domains",
    "fmt_torque_constant": "domains",
    "fmt_torque_rate": "domains",
    "fmt_velocity": "domains",
    "fmt_voltage": "domains",
    "fmt_volume": "domains",
    "fmt_volumetric_flow": "domains",
    "fmt_water": "domains",
    "fmt_water_intensity": "domains",
    "fmt_water_rate": "domains",
    # latency.py: durations auto-scaled, handed to fmt_time
    "fmt_latency": "latency",
}
