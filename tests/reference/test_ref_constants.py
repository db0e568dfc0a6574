"""mlsysim 0.3.0's constants and unit names at our top level, compared with mlsysim's own objects.

The expected values are mlsysim's (the reference package, called here) and the unit definitions it shares with
the standards (SI, IEC 80000-13): each of mlsysim's unit names converts 1:1 into the unit of ours it is mapped to,
by mlsysim's own registry's conversion.  The deliberate differences of this package's registry (counted kinds,
currencies) are listed in COUNTED and checked for what they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pint
import pytest

import mlsysim_symbolic
from mlsysim_symbolic.constants import constant_names, constants, unit_names
from mlsysim_symbolic.units import Q_, ureg

from .lazy import reference

mlsysim = reference("mlsysim")   # imported when a test runs, not while collecting

#: The names we export (from our data file); the first test checks they are exactly mlsysim's.
OUR_UNITS, OUR_CONSTANTS = sorted(unit_names()), sorted(constant_names())

#: Dimensions of ours that mlsysim's registry leaves dimensionless, on purpose (units.txt says why): information
#: (mlsysim's pint counts bits as plain numbers), the counted kinds, the currencies.
OWN_DIMENSIONS = frozenset({"[information]", "[param]", "[token]", "[currency]", "[currency_euro]"})


def test_every_name_is_exported_and_nothing_else() -> None:
    import mlsysim as module

    units = sorted(n for n in dir(module) if isinstance(getattr(module, n), pint.Unit))
    consts = sorted(n for n in dir(module) if n.isupper() and n != "Q_" and not isinstance(getattr(module, n), pint.Unit))
    assert OUR_UNITS == units and OUR_CONSTANTS == consts
    assert len(units) == 155 and len(consts) == 63


@pytest.mark.parametrize("name", OUR_UNITS)
def test_unit_name_is_mlsysims_unit_in_our_registry(name: str) -> None:
    ours, theirs = getattr(mlsysim_symbolic, name), getattr(mlsysim, name)
    assert isinstance(ours, pint.Unit) and ours._REGISTRY is ureg
    # mlsysim's registry converts one of its unit into the unit of ours by name: the same scale
    one = mlsysim.Q_(1, theirs).to(format(ours, "D")) if name != "EUR" else mlsysim.Q_(1, theirs).to("dollar")
    assert math.isclose(one.magnitude, 1.0, rel_tol=1e-12), (name, one)
    if name not in ("degC", "decibel"):   # (offset and logarithmic: checked through the conversion above)
        own = {d: p for d, p in ours.dimensionality.items() if d not in OWN_DIMENSIONS}
        assert own == dict((1 * theirs).dimensionality), name


def _same(ours: object, theirs: object, name: str) -> None:
    if isinstance(theirs, pint.Quantity):
        assert isinstance(ours, pint.Quantity) and ours._REGISTRY is ureg, name
        assert type(ours.magnitude) is type(theirs.magnitude) and ours.magnitude == theirs.magnitude, name
        # the same magnitude in the same unit: ours rebuilt in mlsysim's registry by its unit's name is mlsysim's value
        assert mlsysim.Q_(ours.magnitude, format(ours.units, "D")) == theirs, name
    elif isinstance(theirs, Mapping):
        assert isinstance(ours, Mapping) and list(ours) == list(theirs), name
        for key in theirs:
            _same(ours[key], theirs[key], f"{name}[{key}]")
    else:
        assert type(ours) is type(theirs) and ours == theirs, name


@pytest.mark.parametrize("name", OUR_CONSTANTS)
def test_constant_equals_mlsysims(name: str) -> None:
    _same(getattr(mlsysim_symbolic, name), getattr(mlsysim, name), name)
    entry = constants()[name]
    assert entry.meaning and entry.source and "mlsysim" in entry.source


def test_dict_constants_are_read_only() -> None:
    with pytest.raises(TypeError):
        mlsysim_symbolic.PRECISION_MAP["fp8"] = Q_(2, "B")


def test_constants_reach_the_functions_as_mlsysims_do() -> None:
    # the copper resistance factor at 120 degC (NBS Handbook 100: 1 + 0.00393 x 100 K = 1.393), from our constants
    # and from mlsysim's: the same number
    ours = mlsysim_symbolic.calc_copper_resistance_factor(
        Q_(120, "degC"), mlsysim_symbolic.COPPER_TEMPERATURE_COEFFICIENT,
        mlsysim_symbolic.COPPER_COEFFICIENT_REFERENCE_TEMPERATURE)
    theirs = mlsysim_symbolic.calc_copper_resistance_factor(
        mlsysim.Q_(120, "degC"), mlsysim.COPPER_TEMPERATURE_COEFFICIENT, mlsysim.COPPER_COEFFICIENT_REFERENCE_TEMPERATURE)
    assert math.isclose(ours, 1.393, rel_tol=1e-12) and math.isclose(theirs, 1.393, rel_tol=1e-12)


def test_counted_arithmetic_is_refused_not_wrong_and_uncounted_reads_it_as_mlsysim() -> None:
    from mlsysim_symbolic.units import uncounted

    weights = 70 * mlsysim_symbolic.Bparam * mlsysim_symbolic.BYTES_FP16
    with pytest.raises(pint.DimensionalityError):
        weights.to(mlsysim_symbolic.GB)
    assert uncounted(weights).to("GB").magnitude == (70 * mlsysim.Bparam * mlsysim.BYTES_FP16).to(mlsysim.GB).magnitude


def test_euro_never_converts_to_dollars() -> None:
    with pytest.raises(pint.DimensionalityError):
        Q_(100, mlsysim_symbolic.EUR).to(mlsysim_symbolic.USD)
