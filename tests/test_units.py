"""The unit registry: dimensions that must not mix, counts, prefixes, display.

Expected values are unit definitions (SI and IEC prefixes: 1 GB = 10^9 B,
1 GiB = 2^30 B; 1 B = 8 bit), independent of the code under test.
"""

import pint
import pytest

from mlsysim_symbolic.errors import InputError, UnitError
from mlsysim_symbolic.units import PRECISION_BYTES, Q_, parse_quantity, parse_unit


@pytest.mark.parametrize(
    "left, right",
    [
        (Q_(1, "B"), 1),
        (Q_(1, "B"), Q_(1, "flop")),
        (Q_(1, "B"), Q_(1, "param")),
        (Q_(1, "B"), Q_(1, "s")),
        (Q_(1, "flop"), Q_(1, "token")),
        (Q_(1, "USD"), Q_(1, "B")),
        (Q_(1, "bit"), 1),
    ],
)
def test_mixing_dimensions_raises(left, right):
    with pytest.raises(pint.DimensionalityError):
        left + right


@pytest.mark.parametrize(
    "a, b, unit, expected",
    [
        (Q_(1.5e9, "param"), Q_(4, "B/param"), "B", 6e9),
        (Q_(1024, "token/sample"), Q_(8, "sample"), "token", 8192),   # tokens per sample times samples
        (Q_(6, "flop/(param*token)"), Q_(7e10, "param"), "TFLOP/token", 0.42),
        (Q_(2, "flop/param"), Q_(7e10, "param"), "TFLOP", 0.14),
    ],
)
def test_counts_compose(a, b, unit, expected):
    assert (a * b).to(unit).magnitude == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(
    "text, bytes_",
    [
        ("1 KB", 1e3), ("1 MB", 1e6), ("1 GB", 1e9), ("1 TB", 1e12), ("1 PB", 1e15),
        ("1 KiB", 1024), ("1 MiB", 1024**2), ("1 GiB", 1024**3), ("1 TiB", 1024**4),
        ("8 bit", 1), ("1 kB", 1e3), ("80 GiB", 80 * 2**30),
    ],
)
def test_prefixes(text, bytes_):
    assert parse_quantity(text).to("B").magnitude == pytest.approx(bytes_, rel=1e-15)


@pytest.mark.parametrize(
    "unit, shown",
    [("B", "B"), ("GB", "GB"), ("TFLOP/s", "TFLOP/s"), ("GB/s", "GB/s"), ("byte", "B"), ("ms", "ms"), ("W", "W")],
)
def test_compact_display(unit, shown):
    assert str(Q_(1, unit).units) == shown


def test_time_and_energy_definitions():
    assert Q_(1, "d").to("s").magnitude == 86400
    assert Q_(1, "year").to("d").magnitude == 365.25   # Julian, as pint and mlsysim (was 365: "USD/a" from mlsysim read 0.07 % off)
    assert Q_(1, "MWh").to("J").magnitude == pytest.approx(3.6e9)
    assert Q_(100, "Gbps").to("GB/s").magnitude == pytest.approx(12.5)


@pytest.mark.parametrize("name, expected", [("fp32", 4), ("FP16", 2), ("bf16", 2), ("int8", 1), ("int4", 0.5)])
def test_precision_names(name, expected):
    assert parse_quantity(name) == Q_(expected, "B")
    assert PRECISION_BYTES[name.lower()] == expected


@pytest.mark.parametrize("bad", ["four B", "", "4 B; import os", "4 __class__", "1e400x"])
def test_bad_quantity_text(bad):
    with pytest.raises(InputError):
        parse_quantity(bad, name="x")


@pytest.mark.parametrize("bad", ["furlong", "B)(", "__import__", "os.system"])
def test_unknown_units(bad):
    with pytest.raises(UnitError):
        parse_unit(bad)


# ---------------------------------------------------------------- counted kinds (issue 11)

@pytest.mark.parametrize("a, b", [("param", "token"), ("param", "sample"), ("token", "sample"), ("sample", "request"),
                                  ("B/param", "B/token"), ("flop/(param*token)", "flop/param"), ("param", "count")])
def test_counted_kinds_do_not_mix(a, b):
    with pytest.raises(pint.DimensionalityError):
        Q_(1, a).to(b)


@pytest.mark.parametrize("unit, words", [
    ("B/param", "bytes per parameter"), ("flop/(param*token)", "operations per parameter per token"),
    ("token/sample", "tokens per sample"), ("GB", "bytes"), ("request/s", "requests per second"), ("1", "a plain number"),
])
def test_describe_unit_speaks_the_fields_words(unit, words):
    from mlsysim_symbolic.units import describe_unit

    assert describe_unit(unit) == words


def test_importing_the_package_leaves_pints_application_registry_alone():
    """The registry stays private: run in a fresh interpreter, since this process imported the package long ago."""
    import subprocess
    import sys

    code = (
        "import pint\n"
        "before = pint.get_application_registry().get()\n"
        "import mlsysim_symbolic\n"
        "from mlsysim_symbolic import Scenarios\n"
        "Scenarios.DpSgdPerExampleGradients.per_batch('GPT-2')\n"
        "assert pint.get_application_registry().get() is before\n"
        "print(pint.Quantity(5, 'mile').to('km'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("8.04672 kilometer")


def test_the_package_registry_is_not_pints_default():
    from mlsysim_symbolic.units import ureg

    assert pint.get_application_registry().get() is not ureg


@pytest.mark.parametrize(("text", "unit", "value"), [
    ("2 L", "m**3", 0.002),                 # SI brochure (9th ed.) Table 8: 1 L = 1 dm^3 = 10^-3 m^3
    ("1 month", "day", 30.4375),            # a twelfth of the Julian year of 365.25 d (IAU)
    ("1 year", "day", 365.25),              # the Julian year (IAU), pint's and mlsysim's "year" and "a"
    ("2 a", "day", 730.5),
    ("1 common_year", "hour", 8760),
    ("50 pH", "V*s/A", 50e-12),             # SI brochure Table 4: H = V s / A
])
def test_units_the_waves_need(text, unit, value):
    from mlsysim_symbolic.units import Q_

    assert Q_(text).to(unit).magnitude == pytest.approx(value, rel=1e-15)


@pytest.mark.parametrize("text,meters", [("ft", 0.3048), ("yd", 0.9144), ("in", 0.0254), ("mi", 1609.344),
                                         ("mph", 0.44704)])
def test_us_customary_symbols_mean_their_units(text, meters):
    """NIST SP 811 (2008) B.8: 1 ft = 0.3048 m, 1 yd = 0.9144 m, 1 in = 0.0254 m, 1 mi = 1609.344 m exactly; a mile per
    hour 0.44704 m/s.  Undefined, "ft" was read as a femto-tonne and "yd" as a yocto-day (prefix + symbol): a
    silently wrong unit."""
    q = Q_(1, text).to_base_units()
    assert q.magnitude == pytest.approx(meters, rel=1e-15)
    assert q.units in (Q_(1, "m").units, Q_(1, "m/s").units)


# ---- units that do not convert by a factor: degC (offset) and dB (logarithmic) ----
# Expected values: 0 degC = 273.15 K exactly (SI Brochure, 9th ed., §2.3.1: t/°C = T/K − 273.15).

def test_offset_and_log_units_are_refused_in_declared_units() -> None:
    from mlsysim_symbolic.errors import UnscaledUnitError
    from mlsysim_symbolic.units import base_ratio

    for text in ("degC", "dB", "dB/m", "1/dB"):   # (in a product pint reads degC as a difference: degC/s is delta_degC/s)
        with pytest.raises(UnscaledUnitError) as info:
            parse_unit(text)
        assert text in str(info.value) and "kelvin" in str(info.value)
    with pytest.raises(UnscaledUnitError):   # 1 degC would otherwise scale by 274.15
        base_ratio(Q_(1, "degC").units)
    assert parse_unit("degC/s") == parse_unit("delta_degC/s")   # a rate of temperature is a difference per time


def test_a_declared_input_in_degC_is_refused_at_load(tmp_path) -> None:
    from mlsysim_symbolic import load_derivations
    from mlsysim_symbolic.errors import DerivationError

    path = tmp_path / "celsius.toml"
    path.write_text('[types.T.inputs.t]\nunit = "degC"\n[types.T.outputs.y]\nunit = "K"\nequation = "2 * t"\n', encoding="utf-8")
    with pytest.raises(DerivationError) as info:
        load_derivations(path).check()
    assert str(path) in str(info.value) and "degC" in str(info.value)


@pytest.mark.parametrize("value", ["25 degC", Q_(25, "degC"), pint.UnitRegistry().Quantity(25, "degC")],
                         ids=["text", "ours", "another registry"])
def test_a_temperature_in_degC_comes_in_as_its_kelvin(value) -> None:
    from mlsysim_symbolic.variables import Variable

    assert Variable.make("ambient", unit="K").check(value) == pytest.approx(298.15, rel=1e-15)
    assert Variable.make("rise", unit="K").check(Q_(25, "delta_degC")) == 25   # a difference: factor 1


def test_a_decibel_value_is_refused_naming_the_input() -> None:
    from mlsysim_symbolic.errors import UnscaledUnitError
    from mlsysim_symbolic.variables import Variable

    with pytest.raises(UnscaledUnitError) as info:
        Variable.make("gain", unit="1").check(Q_(3, "dB"))
    assert str(info.value).startswith("gain: unit") and "dB" in str(info.value)


def _point_type(tmp_path, points: str):
    from mlsysim_symbolic import load_derivations

    path = tmp_path / "points.toml"
    path.write_text('[types.T]\nsummary = "a junction"\n[types.T.inputs.ambient]\nunit = "K"\n[types.T.inputs.rise]\nunit = "K"\n'
                    '[types.T.outputs.junction]\nunit = "K"\nequation = "ambient + rise"\n[types.T.outputs.ratio]\nunit = "1"\n'
                    'equation = "rise / ambient"\n[types.T.result]\nname = "TResult"\nfields = ["junction", "ratio"]\n'
                    f"points = {points}\n", encoding="utf-8")
    return load_derivations(path)


def test_a_result_shows_a_kelvin_output_on_the_degC_scale(tmp_path) -> None:
    cat = _point_type(tmp_path, '{ junction = "degC" }')
    result = cat.type_class("T")(ambient="25 degC", rise="8 K").result   # 298.15 K + 8 K = 306.15 K = 33 degC
    assert str(result.junction.units) == "degree_Celsius" and result.junction.magnitude == pytest.approx(33.0, rel=1e-12)


@pytest.mark.parametrize("points", ['{ junction = "K" }', '{ ratio = "degC" }', '{ junction = "dB" }'])
def test_result_points_take_only_an_offset_scale_of_a_temperature_output(tmp_path, points) -> None:
    from mlsysim_symbolic.errors import DerivationError

    with pytest.raises(DerivationError) as info:
        _point_type(tmp_path, points).check()
    assert "result.points" in str(info.value)
