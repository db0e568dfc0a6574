"""Composition through alternatives and choices, a used type's result view as a field, and a registry entry's text field.

Values are hand computations from the registry figures (Llama-3 8B: 32 layers, 8 KV heads of width 128; DeepSeek-V3:
61 layers, MLA rank 512 + rotary width 64), not our own outputs.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mlsysim_symbolic import DerivationError, load_derivations

USER = """
[types.Cache]
summary = "A KV cache: the latent form where the model states a latent rank, else one K and one V per KV head."
[types.Cache.inputs.precision]
kind = "choice"
options = ["fp16", "int8"]
default = "fp16"
[types.Cache.inputs.workload]
kind = "workload"
symbols.L = { attribute = "layers" }
symbols.n_kv = { attribute = "kv_heads" }
symbols.d_h = { attribute = "head_dim", fallback = "floor(h / a)" }
symbols.h = { attribute = "hidden_dim" }
symbols.a = { attribute = "heads" }
symbols.r_kv = { attribute = "kv_lora_rank" }
symbols.d_rope = { attribute = "qk_rope_head_dim" }
[types.Cache.inputs.tokens]
symbol = "S"
unit = "1"
[types.Cache.inputs.b_16]
unit = "B"
default = "2 B"
[types.Cache.inputs.b_8]
unit = "B"
default = "1 B"
[types.Cache.outputs.width]
symbol = "b"
unit = "B"
choice = "precision"
equation = { fp16 = "b_16", int8 = "b_8" }
[types.Cache.outputs.kv]
unit = "B"
equation = ["L * (r_kv + d_rope) * S * b", "2 * L * n_kv * d_h * S * b"]
[types.Cache.result]
name = "CacheView"
fields = ["kv", "width"]

[types.Fleet]
summary = "Replicas of one cache."
[types.Fleet.inputs.precision]
kind = "choice"
options = ["fp16", "int8"]
default = "fp16"
[types.Fleet.inputs.workload]
kind = "workload"
symbols.L = { attribute = "layers" }
symbols.n_kv = { attribute = "kv_heads" }
symbols.d_h = { attribute = "head_dim", fallback = "floor(h / a)" }
symbols.h = { attribute = "hidden_dim" }
symbols.a = { attribute = "heads" }
symbols.r_kv = { attribute = "kv_lora_rank" }
symbols.d_rope = { attribute = "qk_rope_head_dim" }
[types.Fleet.inputs.tokens]
symbol = "S"
unit = "1"
[types.Fleet.inputs.replicas]
symbol = "n"
unit = "1"
[types.Fleet.inputs.b_16]
unit = "B"
default = "2 B"
[types.Fleet.inputs.b_8]
unit = "B"
default = "1 B"
[types.Fleet.uses.cache]
type = "Cache"
bind = { precision = "precision", workload = "workload", tokens = "tokens", b_16 = "b_16", b_8 = "b_8" }
[types.Fleet.outputs.total]
unit = "B"
equation = "n * cache.kv"
[types.Fleet.result]
name = "FleetView"
fields = ["total", "cache_detail", "model"]
from = { cache_detail = "cache", model = "workload.name" }
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "user.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_composed_output_follows_the_scenarios_alternative_and_choice(tmp_path):
    Fleet = load_derivations(write(tmp_path, USER)).classes["Fleet"]
    # Llama-3 8B (no latent rank): 3 replicas x 2 x 32 layers x 8 heads x 128 x 1024 tokens x 2 B
    gqa = Fleet(workload="Llama3_8B", tokens=1024, replicas=3)
    assert gqa.total.to("B").magnitude == 3 * 2 * 32 * 8 * 128 * 1024 * 2
    # at int8 the used type's bytes per value follow our choice: 1 B
    assert gqa.variant(precision="int8").total.to("B").magnitude == 3 * 2 * 32 * 8 * 128 * 1024
    # DeepSeek-V3 states a latent rank: the latent form, 61 x (512 + 64) values a token
    mla = Fleet(workload="DeepSeek_V3", tokens=1024, replicas=3)
    assert mla.total.to("B").magnitude == 3 * 61 * (512 + 64) * 1024 * 2
    assert str(mla.expression("total", expand=True)) == "L*S*b_16*n*(d_rope + r_kv)"
    assert str(gqa.variant(precision="int8").expression("total", expand=True)) == "2*L*S*b_8*d_h*n*n_kv"


def test_a_used_types_view_and_a_registry_field_as_result_fields(tmp_path):
    Fleet = load_derivations(write(tmp_path, USER)).classes["Fleet"]
    r = Fleet(workload="Llama3_8B", tokens=1024, replicas=3, precision="int8").result
    assert r.fields == ("total", "cache_detail", "model") and r.model == "Llama-3.1-8B"
    nested = r.cache_detail
    assert repr(nested).startswith("CacheView(") and nested.fields == ("kv", "width")
    assert nested.kv.to("B").magnitude == 2 * 32 * 8 * 128 * 1024 and nested.width.to("B").magnitude == 1


@pytest.mark.parametrize("source, reason", [
    ("tokens.name", "neither an output without arguments, an input, a field of a registry input"),
    ("nothing", "neither an output without arguments, an input, a field of a registry input"),
])
def test_a_result_field_with_no_source_is_refused(tmp_path, source, reason):
    text = USER.replace('model = "workload.name"', f'model = "{source}"')
    with pytest.raises(DerivationError, match=reason):
        load_derivations(write(tmp_path, text)).check()
