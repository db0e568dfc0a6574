"""Predicates and labels (issue 12): a yes/no output solved for its boundary, and a regime map that
switches label exactly where its two terms cross.  Expected values are hand computations from the
registries' published figures (Llama-3 8B's model card, the H100 datasheet)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlsysim_symbolic import DerivationError, Scenarios, load_derivations
from mlsysim_symbolic.plots import regime_map

# Llama-3 8B (Meta model card): 8.03e9 parameters, 32 layers, 8 KV heads of width 4096/32 = 128.
# H100 SXM (NVIDIA datasheet): 80 GiB HBM3, 3.35 TB/s, 989 TFLOP/s dense FP16.
P, L, KV, HEAD = 8.03e9, 32, 8, 4096 // 32
CAPACITY = 80 * 2**30                       # bytes
SEQ = 2048                                   # tokens per request


@pytest.fixture(scope="module")
def serving():
    return Scenarios.Llama3_70B_ServingH100.variant(workload="Llama3_8B", seq_len=SEQ)


def test_feasible_solved_for_the_largest_batch_equals_the_numeric_solve_on_memory(serving):
    by_predicate = serving.solve("feasible", "batch_size")
    by_total = serving.solve("total_memory_required", "batch_size", f"{CAPACITY} B")
    # hand: FP16 weights 2 B x 8.03e9; KV per request 2 (K, V) x 32 layers x 8 heads x 128 x 2 B x 2048 tokens
    weights, kv_per_request = 2 * P, 2 * L * KV * HEAD * 2 * SEQ
    largest = math.floor((CAPACITY - weights) / kv_per_request)
    assert by_predicate.value == by_total.value == largest
    assert serving.variant(batch_size=largest).feasible is True
    assert serving.variant(batch_size=largest + 1).feasible is False
    # the slack is the free memory, in the sides' unit
    assert serving.variant(batch_size=1).planner.slack("feasible").to("B").magnitude == pytest.approx(CAPACITY - weights - kv_per_request)


def test_a_predicate_sweeps_to_a_feasible_region(serving):
    r = serving.sweep("feasible", batch_size=[1, 100, 259, 260, 261, 1000])
    largest = math.floor((CAPACITY - 2 * P) / (2 * L * KV * HEAD * 2 * SEQ))
    assert list(r.values) == [b <= largest for b in [1, 100, 259, 260, 261, 1000]]


def test_bottleneck_regime_map_switches_where_the_two_times_cross():
    s = Scenarios.Llama3_70B_DecodeH100
    # compute time 2 P B n_t / R against weight streaming 2 P / BW: they cross at B n_t = R / BW
    crossing = 989e12 / 3.35e12          # = 295.2 requests x tokens per step
    solved = s.solve("compute_time", "batch_size", s.memory_time).exact.magnitude
    assert solved == pytest.approx(crossing, rel=1e-12)
    batches, steps = np.arange(1, 601), [1, 2, 3]
    r = s.sweep("bottleneck", batch_size=batches, tokens_per_step=steps)
    expected = [["Compute" if b * n >= crossing else "Memory" for n in steps] for b in batches]
    assert r.values.tolist() == expected
    for j, n in enumerate(steps):   # the label changes once, between the floor and the ceiling of the crossing
        switch = int(np.argmax(r.values[:, j] == "Compute"))
        assert batches[switch - 1] < crossing / n <= batches[switch]
    fig = regime_map(batches, steps, r.values, x_name="batch_size", y_name="tokens_per_step", x_unit="request", y_unit="token/request")
    assert sorted(t.get_text() for t in fig.axes[0].get_legend().get_texts()) == ["Compute", "Memory"]


def test_the_label_is_mlsysims_text_and_ties_go_to_compute():
    s = Scenarios.Llama3_70B_DecodeH100
    assert s.bottleneck == "Memory" and s.variant(batch_size=296).bottleneck == "Compute"
    assert "arg\\,max" in s.latex("bottleneck") and s.latex("bottleneck").endswith(r"\text{Memory}")


def test_answers_are_checked_at_load(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[types.T]\n[types.T.inputs.m]\nunit = "GB"\n[types.T.inputs.t]\nunit = "s"\n'
                    '[types.T.outputs.fits]\nkind = "predicate"\nequation = "m <= t"\n')
    with pytest.raises(DerivationError, match="comparison disagree in dimension"):
        load_derivations(path).check()
    path.write_text('[types.T]\n[types.T.inputs.m]\nunit = "GB"\n[types.T.inputs.t]\nunit = "s"\n'
                    '[types.T.outputs.which]\nkind = "label"\ncases = { a = "m", b = "t" }\n')
    with pytest.raises(DerivationError, match="share one dimension"):
        load_derivations(path).check()
    path.write_text('[types.T]\n[types.T.inputs.m]\nunit = "GB"\n[types.T.outputs.fits]\nkind = "predicate"\nequation = "m <= m"\n'
                    '[types.T.outputs.twice]\nunit = "GB"\nequation = "fits * m"\n')
    with pytest.raises(DerivationError, match="uses the predicate fits"):
        load_derivations(path).check()
