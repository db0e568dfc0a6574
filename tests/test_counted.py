"""Counted kinds are dimensions (issue 11): parameters, tokens, samples and requests do not mix.

Each slip below was accepted when the kinds were plain counts; each is now refused with a
message that names the input (or the equation's terms) and both units.  Expected numbers are
worked by hand from the inputs (1.5e9 parameters of GPT-2 at 4 bytes each: 6 GB per example).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pint
import pytest

from mlsysim_symbolic import DerivationError, Scenarios, load_derivations
from mlsysim_symbolic.errors import UnitError
from mlsysim_symbolic.units import Q_

S = Scenarios.DpSgdPerExampleGradients


# ------------------------------------------------------------------ the input slips

@pytest.mark.parametrize("kwargs, words", [
    ({"bytes_per_param": "2 GB/s"}, ["bytes_per_param expects B/param (bytes per parameter)", "got 2 GB/s (bytes per second)"]),
    ({"bytes_per_param": "4 B/token"}, ["bytes_per_param expects B/param (bytes per parameter)", "got 4 B/token (bytes per token)"]),
    ({"batch_size": "256 token"}, ["batch_size expects sample (samples)", "got 256 token (tokens)"]),
    ({"bytes_per_param": "4 B/sample"}, ["bytes_per_param expects B/param", "got 4 B/sample (bytes per sample)"]),
])
def test_counted_slips_in_inputs_are_refused_naming_input_and_both_units(kwargs, words):
    with pytest.raises(UnitError) as info:
        S.variant(**kwargs)
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize("kwargs, per_batch_bytes", [
    ({"bytes_per_param": "2 B/param"}, 256 * 1.5e9 * 2),
    ({"bytes_per_param": "fp16"}, 256 * 1.5e9 * 2),               # a precision is bytes per whatever the input counts
    ({"bytes_per_param": "16 bit/param"}, 256 * 1.5e9 * 2),
    ({"bytes_per_param": 2}, 256 * 1.5e9 * 2),                    # a plain number is in the declared unit
    ({"bytes_per_param": "2 B"}, 256 * 1.5e9 * 2),                # so is a value that leaves the counted kind out
    ({"batch_size": "128 sample"}, 128 * 1.5e9 * 4),
    ({"batch_size": "128 example"}, 128 * 1.5e9 * 4),
])
def test_the_right_kinds_are_accepted(kwargs, per_batch_bytes):
    assert S.variant(**kwargs).per_batch("GPT-2").to("B").magnitude == pytest.approx(per_batch_bytes, rel=1e-12)


# ------------------------------------------------------------------ Quantities from other pint registries

def test_a_users_own_pint_quantity_is_accepted_through_its_unit_text():
    user = pint.UnitRegistry()
    assert S.solve("per_batch", "batch_size", pint.Quantity("80 GB"), "GPT-2").value == 13   # floor(80e9 / 6e9)
    assert S.solve("per_batch", "batch_size", user.Quantity(80, "gigabyte"), "GPT-2").value == 13
    assert S.variant(batch_size=user.Quantity(128, "dimensionless")).batch_size.to("sample").magnitude == 128
    assert S.variant(batch_size=user.Quantity(128, "count")).batch_size.to("sample").magnitude == 128


def test_a_users_plain_byte_is_read_per_parameter_and_a_wrong_dimension_refused():
    # another registry cannot say what its bytes are per: the input's declared meaning reads them (as mlsysim does)
    assert S.variant(bytes_per_param=pint.Quantity(2, "byte")).per_batch("GPT-2").to("B").magnitude == 256 * 1.5e9 * 2
    with pytest.raises(UnitError) as info:
        S.variant(bytes_per_param=pint.Quantity(2, "gigabyte / second"))
    text = str(info.value)
    assert "bytes_per_param expects B/param (bytes per parameter)" in text
    assert "got 2 GB/s (bytes per second)" in text and "another pint registry" in text


def test_mlsysim_quantities_map_by_their_declared_kind():
    from mlsysim.core.units import Q_ as MQ

    s = S.variant(batch_size=MQ(64, "count"))                    # a plain count: taken in the input's kind
    assert s.batch_size.to("sample").magnitude == 64
    assert S.variant(bytes_per_param=MQ(2, "byte / param")).per_example("GPT-2").to("B").magnitude == pytest.approx(3e9)
    with pytest.raises(UnitError, match="another pint registry"):
        S.variant(batch_size=MQ(64, "param"))                    # names a kind, the wrong one
    # mlsysim's own bytes_per_param (4 B: its byte is per nothing) is read per parameter, as its scenario reads it
    assert S.variant(bytes_per_param=MQ(2, "byte")).per_example("GPT-2").to("B").magnitude == pytest.approx(3e9)


# ------------------------------------------------------------------ a user's file: C = k · N · D

KND = """
[types.TrainingCompute]
summary = "Training compute C = k·N·D and the compute-optimal data D = r·N."

[types.TrainingCompute.inputs.parameters]
symbol = "N"
unit = "{N_unit}"

[types.TrainingCompute.inputs.tokens]
symbol = "D"
unit = "{D_unit}"

[types.TrainingCompute.inputs.flops_per_param_token]
symbol = "k"
unit = "{k_unit}"
default = "6 {k_unit}"

[types.TrainingCompute.inputs.tokens_per_param]
symbol = "r"
unit = "token/param"
default = "20 token/param"

[types.TrainingCompute.outputs.compute]
symbol = "C"
unit = "flop"
equation = "k * N * D"

[types.TrainingCompute.outputs.optimal_tokens]
symbol = "D_opt"
unit = "token"
equation = "{D_opt}"

[scenarios.Chinchilla]
type = "TrainingCompute"
inputs.parameters = "{N_value}"
inputs.tokens = "{D_value}"
"""


def _knd(tmp_path: Path, **changes: str) -> Path:
    fields = {"N_unit": "param", "D_unit": "token", "k_unit": "flop/(param*token)", "D_opt": "r * N",
              "N_value": "70e9 param", "D_value": "1.4e12 token"} | changes
    path = tmp_path / "knd.toml"
    path.write_text(textwrap.dedent(KND).format(**fields), encoding="utf-8")
    return path


def test_k_n_d_declared_right_loads_and_computes(tmp_path):
    s = load_derivations(_knd(tmp_path)).scenario("Chinchilla")
    assert s.compute.to("flop").magnitude == pytest.approx(6 * 70e9 * 1.4e12, rel=1e-12)   # 5.88e23 flop
    assert s.optimal_tokens.to("token").magnitude == pytest.approx(20 * 70e9, rel=1e-12)


@pytest.mark.parametrize("changes, words", [
    # N and D swapped where they are used: r·D is tokens²/param, not tokens
    ({"D_opt": "r * D"}, ["optimal_tokens", "D*r", "token**2/param", "[token] ** 2 / [param]", "declared unit is token"]),
    # N and D swapped in the scenario's values: 70e9 tokens given for the parameters
    ({"N_value": "70e9 token", "D_value": "1.4e12 param"}, ["parameters expects param (parameters)", "got 70000000000.0 token (tokens)"]),
    # k declared per parameter only (forgetting the per token): k·N·D is flop·token
    ({"k_unit": "flop/param"}, ["compute", "D*N*k", "FLOP*token", "operations × tokens", "declared unit is FLOP"]),
])
def test_k_n_d_slips_are_refused_at_load(tmp_path, changes, words):
    with pytest.raises(DerivationError) as info:
        load_derivations(_knd(tmp_path, **changes)).check()
    text = str(info.value)
    for w in words:
        assert w in text, text


def test_the_dimension_error_names_the_terms_and_their_counted_kinds(tmp_path):
    with pytest.raises(DerivationError) as info:
        load_derivations(_knd(tmp_path, D_opt="r * N + D / N")).check()
    text = str(info.value)
    assert "terms disagree in dimension" in text
    assert "N*r is in token" in text and "D/N is in token/param" in text
    assert "[token] / [param]" in text and "tokens per parameter" in text


# ------------------------------------------------------------------ registry and per-example reading

def test_registry_fields_carry_their_kinds():
    from mlsysim_symbolic.registry import workloads

    gpt2 = workloads()["GPT2"]
    assert gpt2.parameters.units == Q_(1, "param").units
    assert gpt2.context_length.units == Q_(1, "token/sample").units     # tokens per sequence


def test_per_example_gradient_bytes_are_bytes_per_sample_in_the_equation_and_bytes_outside():
    per_example = S.per_example("GPT-2")
    assert S.type.output("per_example").variable.unit == Q_(1, "B/sample").units   # the equation's unit, checked
    assert per_example.units == Q_(1, "B").units                                     # mlsysim's unit, returned
    assert per_example.to("B").magnitude == pytest.approx(1.5e9 * 4, rel=1e-12)
    assert S.per_batch("GPT-2").to("B").magnitude == pytest.approx(256 * 1.5e9 * 4, rel=1e-12)


def test_sensitivity_ranges_follow_the_same_unit_rules():
    table = S.one_at_a_time("per_batch", "GPT-2", ranges={"batch_size": (pint.Quantity(128, "count"), "512 sample")})
    row = next(r for r in table.records if r["input"] == "batch_size")
    assert row["low"] == Q_(128, "sample")                                              # a user's plain count: samples
    assert row["output_low"].to("B").magnitude == pytest.approx(128 * 1.5e9 * 4, rel=1e-12)  # 7.68e11 B by hand
    with pytest.raises(UnitError, match=r"bytes_per_param expects B/param \(bytes per parameter\); got 2 B/token"):
        S.one_at_a_time("per_batch", "GPT-2", ranges={"bytes_per_param": ("2 B/token", "4 B/param")})
