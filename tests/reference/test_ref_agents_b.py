"""Agents and LLM applications, group B (model calls, resent trajectories, context budgets, retrieval payloads and
indexes) against mlsysim 0.3.0: every public member of every named scenario (see members.py); the ``result`` of each
is compared field by field by test_ref_results.py."""

import pytest

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "ModelCallScenario",
        "TrajectoryResendScenario",
        "AppendOnlyContextScenario",
        "ResendCacheBillScenario",
        "AnnFootprintScenario",
        "Bm25PairScenario",
        "CompactionCadenceScenario",
        "CompactionPaybackScenario",
        "ContextAdmissionScenario",
        "ContextBudgetScenario",
        "ContextInvalidationScenario",
        "ExactScanScenario",
        "GraphNeighborhoodScenario",
        "IndexMaintenanceScenario",
        "ObservationCarryScenario",
        "PrefixLayoutBillScenario",
        "RetrievalPayloadScenario",
        "StorageAmplificationScenario",
        "ToolCatalogSelectionScenario",
        "UndetectedLoopScenario",
        "TrajectoryBudgetMeterScenario",
        "CorpusDenominatorsScenario",
    ),
    not_ported={},
    skipped={},
    method_args={},
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_product_quantization_of_sift_is_a_64_bit_code():
    """Jégou, Douze and Schmid (2011), Product Quantization for Nearest Neighbor Search, IEEE TPAMI 33(1): a code is
    m·log2 k* bits (§II-B), and the paper's SIFT experiments (§V) use m = 8 subquantizers of k* = 256 centroids, a
    64-bit code for a 128-dimension descriptor (FP32: 512 bytes, so 64x compression, 16 dimensions per subvector);
    ADC's per-query table holds m·k* = 2048 distances (§III-A)."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("AnnIndexesTenMillionVectors").variant(
        dimension=128, bytes_per_value="4 B", subvectors=8, centroids=256, code_bytes="1 B", table_entry_bytes="4 B")
    assert s.code_bytes_per_vector.to("bit").magnitude == 64
    assert s.bytes_per_vector.to("B").magnitude == 512
    assert float(s.compression) == 64
    assert float(s.sub_dim) == 16
    assert s.lookup_table.to("B").magnitude == 2048 * 4


def _watermark_trace(target: int, trigger: int, delta: int, turns: int) -> list[int]:
    """The watermark rule as stated (Packer et al. 2023, §2.2: flush on reaching the threshold), turn by turn."""
    length, out = target, []
    for _ in range(turns):
        length += delta
        out.append(length)
        if length >= trigger:
            length = target
    return out


def test_compaction_sawtooth_closed_form_follows_the_watermark_rule():
    """Derivation check: the closed form S_target + (((t − 1) mod n_c) + 1)·δ equals the rule applied turn by turn,
    for gaps that are and are not multiples of δ, and passes = ⌊H/n_c⌋ counts the turns that reach the trigger."""
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("RepairCompactionWatermarks")
    for target, trigger, delta, turns in ((47000, 92000, 4000, 30), (10000, 20000, 2500, 17), (5000, 5001, 1, 9)):
        s = base.variant(target=target, trigger=trigger, tokens_per_turn=delta, turns=turns,
                         alternate_target=target, turn=list(range(1, turns + 1)))
        trace = _watermark_trace(target, trigger, delta, turns)
        assert s.result.lengths == pytest.approx(trace, rel=1e-12)   # plain token counts, as mlsysim's list
        assert float(s.passes) == sum(1 for v in trace if v >= trigger)


def test_exact_tree_node_counts_are_geometric_sums():
    """Derivation check: nodes through each depth are 1 + c + ... + c^l (Knuth, TAOCP vol. 1 §2.3.4.5), the c = 1
    branch included (a chain: l + 1 nodes)."""
    from mlsysim_symbolic.catalog import catalog

    base = catalog().scenario("TypedTraversalDepthThree")
    for c in (1, 2, 3, 5):
        s = base.variant(children=c, depth=4, level=[0, 1, 2, 3, 4])
        expected = [sum(c**i for i in range(level + 1)) for level in range(5)]
        assert s.result.nodes_by_depth == pytest.approx(expected, rel=1e-12)
        assert float(s.nodes) == pytest.approx(expected[4], rel=1e-12)
        assert float(s.shallow_nodes) == pytest.approx(expected[3], rel=1e-12)


def test_corpus_classes_split_by_targets_and_weights_equal_mlsysims_focus_and_admitted():
    """mlsysim's classes (records, stored, target per record), focus and admitted, against ours: the classes with
    targets and those without (declared apart), focus and admitted as 0/1 weights; the named scenario states the
    same pool, and another focus and route give mlsysim's result."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_same, reference_scenario

    theirs, ours = reference_scenario("RecoveryPoolDenominators"), catalog().scenario("RecoveryPoolDenominators")
    targeted = [c for c, (_, _, u) in theirs.classes.items() if u.magnitude > 0]
    assert list(ours.records) == targeted and list(ours.untargeted_records) == [c for c in theirs.classes if c not in targeted]
    for c, (n, s, u) in theirs.classes.items():
        records, stored = (ours.records, ours.stored_per_record) if c in targeted else (
            ours.untargeted_records, ours.untargeted_stored_per_record)
        assert float(records[c]) == n and stored[c].to("token").magnitude == s.magnitude
        assert c not in targeted or ours.target_per_record[c].to("token").magnitude == u.magnitude
    theirs = theirs.variant(focus="direct", admitted=["direct", "negative"])
    ours = ours.variant(focus_weight={"direct": 1, "recovery": 0}, admitted_weight={"direct": 1, "recovery": 0},
                        untargeted_focus_weight={"negative": 0}, untargeted_admitted_weight={"negative": 1})
    for field in ("admitted_stored_tokens", "record_share", "stored_share", "admitted_stored_share", "target_share"):
        assert_same(getattr(ours.result, field), getattr(theirs.result, field), field)


#: (named scenario, list input, first value, the input or trajectory output whose value ends the list)
STATED_RANGES = (
    ("RepairResendCacheBill", "turn", 1, "trajectory.turns"),
    ("RepairCompactionWatermarks", "turn", 1, "turns"),
    ("RepairCompactionPayback", "call", 1, "bill.trajectory.turns"),
    ("RepairCompactionPaybackHalfCachedRate", "call", 1, "bill.trajectory.turns"),
    ("RepairContextBudget", "turn", 1, "turns"),
    ("TypedTraversalDepthThree", "level", 0, "depth"),
    ("RepairLoopToTurnCeiling", "turn", 0, "ceiling"),
)


@pytest.mark.parametrize(("key", "listed", "first", "last"), STATED_RANGES, ids=[r[0] for r in STATED_RANGES])
def test_a_stated_range_runs_over_mlsysims_range(key, listed, first, last):
    """The per-turn (per-call, per-depth) lists are stated inputs (the equation language has no range over an input):
    each runs first, first + 1, ..., the count mlsysim ranges over, so the lists and the counts cannot drift apart."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import reference_scenario

    end = reference_scenario(key)
    for part in last.split("."):
        end = getattr(end, part)
    assert [int(v) for v in getattr(catalog().scenario(key), listed)] == list(range(first, int(end) + 1))


@pytest.mark.parametrize("key", ["RepairCompactionPayback", "RepairCompactionPaybackHalfCachedRate"])
def test_compaction_payback_states_the_nested_bill(key):
    """mlsysim nests the bill (a ResendCacheBillScenario over a TrajectoryResendScenario); ours states its values."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    theirs, ours = reference_scenario(key), catalog().scenario(key)
    bill, trajectory = theirs.bill, theirs.bill.trajectory
    assert (int(ours.turns), int(ours.first_prompt.to("token").magnitude), int(ours.appended.to("token").magnitude)) == (
        trajectory.turns, trajectory.first_prompt, trajectory.appended)
    for name in ("input_price", "cached_fraction", "output_price"):
        assert_close(getattr(ours, name), getattr(bill, name), f"{key}.{name}")


@pytest.mark.parametrize(("key", "fields"), [
    ("AppendOnlyRepairContext", ("last_call_tokens", "cumulative_input_tokens")),
    ("TwentyFourMegabyteLogObservation", ("raw_tokens", "carried_tokens")),
    ("RecoveryPoolDenominators", ("stored_tokens", "admitted_stored_tokens", "target_tokens")),
    ("RepairAgentFailureTriage", ("training_tokens", "residual_tokens")),
])
def test_token_totals_leave_in_mlsysims_token(key, fields):
    """mlsysim keeps these result fields as Quantities of its ``token`` (its other results give counts as plain
    numbers): ours leave in the same unit (result.quantities), not in a dimensionless count that compares equal."""
    from mlsysim_symbolic import Scenarios

    from .compare import reference_scenario

    ours, theirs = getattr(Scenarios, key).result, reference_scenario(key).result
    for field in fields:
        assert f"{getattr(ours, field).units}" == f"{getattr(theirs, field).units}" == "token", field
