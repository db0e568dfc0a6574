"""A fleet's energy, carbon, water and cost: mlsysim's ``SustainabilityModel`` and ``EconomicsModel``.

Over FleetSustainabilityScenario and FleetEconomicsScenario (``derivations/solvers_fleet.toml``); the fleet is
mlsysim's ``Fleet`` (see :mod:`mlsysim_symbolic.solvers.fleets`), the site a grid-registry key, or mlsysim's
``Datacenter`` or ``GridProfile``.

>>> from types import SimpleNamespace as NS
>>> fleet = NS(count=32, node=NS(accelerator="H100", accelerators_per_node=8), datacenter=None, region=None)
>>> r = SustainabilityModel().solve(fleet, 30)
>>> r.region_name, round(r.total_energy_kwh.to("MWh").magnitude, 3)
('US Average', 144.507)
>>> r.equation("total_energy_kwh").lhs
E_fac
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .base import REQUIRED, Arg, Solver
from .fleets import node_inputs, site_of


class SustainabilityModel(Solver):
    """mlsysim's ``SustainabilityModel``: energy, carbon and water of a fleet over a period (``SustainabilityResult``)."""

    type_name = "FleetSustainabilityScenario"
    result_name = "SustainabilityResult"
    arguments = (
        Arg("fleet", REQUIRED, convert=partial(node_inputs, "fleet")),
        Arg("duration_days", REQUIRED),
        Arg("datacenter", None),
        Arg("mfu", 1.0),
        Arg("embodied_carbon_per_device", 0.0),
    )

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        if values["datacenter"] is None and site_of(values["fleet"]) is not None:
            inputs["datacenter"] = site_of(values["fleet"])   # mlsysim: datacenter or fleet.datacenter or fleet.region


class EconomicsModel(Solver):
    """mlsysim's ``EconomicsModel``: capital, operating and total cost of a fleet, with its footprint (``EconomicsResult``)."""

    type_name = "FleetEconomicsScenario"
    result_name = "EconomicsResult"
    arguments = (
        Arg("fleet", REQUIRED, convert=partial(node_inputs, "fleet")),
        Arg("duration_days", REQUIRED),
        Arg("kwh_price", None),
        Arg("datacenter", None),
        Arg("grid", None, indirect=True, note="read as the datacenter when none is given"),
        Arg("mfu", 1.0),
        Arg("amortization_years", 3.0),
        Arg("infrastructure_multiplier", 1.0),
    )

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        if values["datacenter"] is None:   # mlsysim: datacenter or grid or fleet.datacenter or fleet.region
            site = values["grid"] if values["grid"] is not None else site_of(values["fleet"])
            if site is not None:
                inputs["datacenter"] = site
