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
    "fmt_acceleration": "domains",
    "fmt_angle": "domains",
    "fmt_angular_acceleration": "domains",
    "fmt_angular_velocity": "domains",
    "fmt_area": "domains",
    "fmt_arithmetic_intensity": "domains",
    "fmt_bandwidth": "domains",
    "fmt_battery_capacity": "domains",
    "fmt_capacitance": "domains",
    "fmt_carbon_intensity": "domains",
    "fmt_charge": "domains",
    "fmt_compute_efficiency": "domains",
    "fmt_current": "domains",
    "fmt_decibel": "domains",
    "fmt_density": "domains",
    "fmt_emissions": "domains",
    "fmt_energy": "domains",
    "fmt_energy_per_bit": "domains",
    "fmt_energy_per_byte": "domains",
    "fmt_energy_per_flop": "domains",
    "fmt_energy_per_op": "domains",
    "fmt_flop_rate": "domains",
    "fmt_flops": "domains",
    "fmt_flow_rate": "domains",
    "fmt_force": "domains",
    "fmt_force_rate": "domains",
    "fmt_frequency": "domains",
    "fmt_heat_capacity": "domains",
    "fmt_heat_flux": "domains",
}
