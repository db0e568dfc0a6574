"""Comparing our values with the reference package mlsysim 0.3.0.

mlsysim has its own pint registry; its quantities are carried into ours through
their magnitude and unit name, then compared at 1e-9 relative.  mlsysim has no counted
kinds (its ``param`` is a dimensionless count), so ours are dropped before comparing
(``uncounted``: 6 GB/sample is mlsysim's 6 GB).
"""

from __future__ import annotations

import math
from typing import Any

import pint

from mlsysim_symbolic.units import Q_, uncounted

REL = 1e-9


def reference_scenario(name: str) -> Any:
    """The named scenario of mlsysim 0.3.0 (the reference package, a test dependency)."""
    import mlsysim

    return getattr(mlsysim.Scenarios, name)


def _unit_text(q: Any) -> str:
    text = str(q.units)
    return text.replace("TFLOPs", "TFLOP").replace("GFLOPs", "GFLOP").replace("PFLOPs", "PFLOP")


def magnitude_like(ours: Any, theirs: Any) -> tuple[float, float]:
    """Our value expressed in the reference value's unit, and the reference magnitude."""
    if isinstance(ours, pint.Quantity):
        ours = uncounted(ours)
        if hasattr(theirs, "magnitude") and hasattr(theirs, "units"):
            unit = _unit_text(theirs)
            return float((ours / uncounted(Q_(1, unit))).to("dimensionless").magnitude), float(theirs.magnitude)
        return float(ours.to("").magnitude), float(theirs)
    if hasattr(theirs, "magnitude"):
        return float(ours), float(theirs.to("").magnitude)
    return float(ours), float(theirs)


def assert_close(ours: Any, theirs: Any, label: str = "", rel: float = REL) -> None:
    """Assert our value equals the reference value to ``rel`` relative (absolute 1e-300 near zero)."""
    a, b = magnitude_like(ours, theirs)
    assert math.isclose(a, b, rel_tol=rel, abs_tol=1e-300), f"{label}: ours {a!r} != mlsysim {b!r} (ours {ours!r}, mlsysim {theirs!r})"
