"""The workload and hardware registries against mlsysim 0.3.0's (the reference package).

Every model of mlsysim's model registries and every device of its hardware registries
is present under the same key, with the same figures (through our loader and unit
registry) to 1e-12 relative, and with its source.
"""

import functools
import math

import pint
import pytest
from pydantic import BaseModel

from mlsysim_symbolic import hardware, workloads
from mlsysim_symbolic.registry import WORKLOAD_FIELDS
from mlsysim_symbolic.units import Q_, is_counted_only

from .compare import assert_close

MODEL_REGISTRIES = ("LanguageModels", "VisionModels", "TinyModels", "RecommendationModels", "StateSpaceModels",
                    "GenerativeVisionModels", "EmbodiedModels")
HARDWARE_REGISTRIES = ("CloudHardware", "EdgeHardware", "MobileHardware", "TinyHardware", "WorkstationHardware")


def _entries(registry):
    return {a: v for a, v in vars(registry).items() if not a.startswith("_") and isinstance(v, BaseModel)}


def _registry_name(name: str) -> str:
    """Our registry's name of mlsysim's: ``LanguageModels`` -> ``language``, ``CloudHardware`` -> ``cloud``."""
    return name.removesuffix("Models").removesuffix("Hardware").lower()


@functools.cache
def ref_models() -> dict:
    """mlsysim's models by key: (our registry name, the model); mlsysim imported on first use, not while collecting."""
    from mlsysim.models import registry as mr

    return {key: (_registry_name(r), w) for r in MODEL_REGISTRIES for key, w in _entries(getattr(mr, r)).items()}


@functools.cache
def ref_devices() -> dict:
    """mlsysim's devices by key: (our category, the device)."""
    from mlsysim.hardware import registry as hr

    return {key: (_registry_name(r), h) for r in HARDWARE_REGISTRIES for key, h in _entries(getattr(hr, r)).items()}


def _same(ours, theirs, label):
    if hasattr(theirs, "magnitude"):
        assert isinstance(ours, pint.Quantity), f"{label}: expected a quantity, got {ours!r}"
        if str(theirs.units) == "count" and is_counted_only(ours.units) and ours.dimensionality:
            # a registry field keeps the kind it counts (training_tokens in token), read from mlsysim's plain count as
            # field_quantity reads one coming in; every other field is compared in mlsysim's unit
            theirs = Q_(theirs.magnitude, ours.units)
        assert_close(ours, theirs, label, rel=1e-12)   # ours.to(mlsysim's unit)
    else:
        ours_value = ours.magnitude if isinstance(ours, pint.Quantity) else ours
        assert math.isclose(float(ours_value), float(theirs), rel_tol=1e-12), f"{label}: {ours!r} != {theirs!r}"


def test_same_models_and_devices():
    assert set(workloads()) == set(ref_models())
    assert set(hardware()) == set(ref_devices())
    # the minimum: the language, vision and tiny registries, and these accelerators
    for key in ("H100", "H200", "A100", "B200", "MI300X", "TPUv5p", "iPhone15Pro", "STM32F4"):
        assert key in hardware()


@pytest.mark.parametrize("key", sorted(workloads()))     # ours: test_same_models_and_devices holds them to mlsysim's
def test_workload_figures_and_source(key):
    registry, ref = ref_models()[key]
    ours = workloads()[key]
    assert ours.name == ref.name
    assert ours.registry == registry
    checked = 0
    for field in WORKLOAD_FIELDS:
        theirs = getattr(ref, field, None)
        if theirs is None:
            assert getattr(ours, field) is None, f"{key}.{field}: mlsysim has none"
            continue
        _same(getattr(ours, field), theirs, f"{key}.{field}")
        checked += 1
    assert checked >= 1
    prov = ref.metadata.provenance
    if prov is not None:
        assert ours.source.ref == (prov.ref or "")
        assert ours.source.url == (prov.url or "")


@pytest.mark.parametrize("key", sorted(hardware()))
def test_hardware_figures_and_source(key):
    _, ref = ref_devices()[key]
    ours = hardware()[key]
    assert ours.name == ref.name
    _same(ours.peak_flops, ref.compute.peak_flops, f"{key}.peak_flops")
    _same(ours.memory_capacity, ref.memory.capacity, f"{key}.memory_capacity")
    _same(ours.memory_bandwidth, ref.memory.bandwidth, f"{key}.memory_bandwidth")
    if ref.tdp is not None:
        _same(ours.tdp, ref.tdp, f"{key}.tdp")
    for precision, rate in (ref.compute.precision_flops or {}).items():
        _same(ours.get(f"precision_flops.{precision}"), rate, f"{key}.precision_flops.{precision}")
    prov = ref.metadata.provenance if ref.metadata else None
    if prov is not None:
        assert ours.source.url == (prov.url or "")
