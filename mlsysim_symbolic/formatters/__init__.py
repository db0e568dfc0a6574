"""mlsysim's ``fmt_*`` formatters over our units: the same text as mlsysim 0.3.0's for the same value.

Each formatter takes a Quantity of this package's registry or of another pint registry (mlsysim's: carried in
through its unit text) and returns a :class:`~.markdown.MarkdownStr`.  Importing this subpackage imports no
formatter: a name is looked up in :data:`~.names.FORMATTERS` and its module imported on first use.

Differences from mlsysim (each tested in ``tests/reference/test_ref_formatters.py``): the euro is its own currency
(mlsysim's ``EUR`` is a 1:1 alias of its dollar), so ``fmt_eur`` takes a plain number or a euro Quantity and refuses
a dollar one (``TypeError``), and ``fmt_usd``/``fmt_usd_range`` refuse a euro one, where mlsysim converts 1:1;
``fmt_range``'s ``unit=`` is text (mlsysim writes the ``str`` of any object given); a display unit given as the
text ``"kB"`` prints ``KB`` (our registry reads ``KB`` and ``kB`` as pint's kilobyte; mlsysim's ladder unit prints
``KB``; a Unit object of mlsysim's keeps its own text); a number given as text raises ``TypeError`` (mlsysim reads
it with ``float``); bytes stay a dimension, so ``fmt_usd(5 dollar, per="GB")`` raises ``TypeError`` where mlsysim
(whose bytes are counts of bits) prints ``\\$40,000,000,000/GB``, and a byte Quantity is no parameter or token count
(``fmt_params(1 GB)``: mlsysim's ``8B``).  A value without bytes or bits is not shown per byte or bit
(``fmt_arithmetic_intensity(300 flop)``, ``fmt_energy_per_bit(300 pJ)``, ``fmt_bandwidth(300 / s)`` raise
``TypeError``; mlsysim shows 2400 FLOP/byte, 300 pJ/bit, 0.00004 MB/s); a display unit given as the text
``"kiloflop"`` prints ``KFLOP`` (mlsysim: ``kflop``; its FLOP ladder prints ``KFLOP``, which our registry reads
as the kiloflop); a value converted through our registry's definitions may differ from mlsysim's in its last bit
and so round the other way on a tie (``fmt_density(0.05 g/L)``: ``0.1 kg/m³`` here, ``0.05 kg/m³`` in mlsysim,
whose cubic decimetre liter gives 0.049999999999999996).  Counted kinds (``param``, ``token``, ``sample``, ``request``) are dropped where
only that makes a conversion possible, as mlsysim has none.  Errors are the package's own: ``FormatError`` (a
``ValueError``) where mlsysim raises ``ValueError``, ``FormatTypeError`` (a ``TypeError``) where it raises
``TypeError`` or pint's ``DimensionalityError``.

Domain formatters: a label chosen by the display unit (``fmt_volume``, ``fmt_power_rate``, ``fmt_temperature_rate``,
``fmt_thermal_resistance`` ...) names the unit shown, the unit's own label outside the formatter's table (mlsysim
picks by substrings of the unit's text: 2 m³ in liters prints ``2000 m³``, 2 K/s in °C/min ``120 °C/s``); a fixed
label (``fmt_jerk``'s ``m/s³``) is mlsysim's whatever the unit, as there.  ``fmt_mass`` shows a negative mass of a
tonne or more in ``t`` (mlsysim: in ``kg``, its ladder compares signed kilograms).  A ``degF`` temperature is
refused (``TypeError``: our registry has no Fahrenheit).  A ``degC`` value is read on its own scale
(:mod:`.points`), as mlsysim shows it.  A liter converts without mlsysim's float noise (its liter is 0.1³ m³):
8389 m³ at ``precision=0`` is ``8,389,000 L`` where mlsysim refuses 8388999.999999998 as not whole.

>>> from mlsysim_symbolic import formatters
>>> from mlsysim_symbolic.units import Q_
>>> formatters.fmt_memory(Q_(80e9, "byte")), formatters.fmt_qty(Q_(2.5, "GB/s"), "MB/s", precision=0)
('80 GB', '2500 MB/s')
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .names import FORMATTERS

__all__ = sorted(FORMATTERS)


def __getattr__(name: str) -> Any:
    """A formatter, its module imported on first use."""
    if name in FORMATTERS:
        return getattr(import_module(f"{__name__}.{FORMATTERS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names and the formatters' (nothing is imported)."""
    return sorted({*globals(), *FORMATTERS})
