"""Serving deployment scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "SingleNodeInferenceScenario",
        "PropagationScenario",
        "PrefixSharingScenario",
        "PrecomputeVersusOnDemandScenario",
        "ReasoningLatencyScenario",
        "ServingTaxScenario",
        "SparseFlashFitScenario",
        "SpeedupCompositionScenario",
        "StagedCompressionScenario",
        "TailEventRateScenario",
        "TrafficSurgeScenario",
        "WeightedRoutingScenario",
        "WorkLatencyGapScenario",
        "SingleAcceleratorLlmServiceScenario",
        "PrefixRebuildScenario",
        "PausedKvStateScenario",
        "QuantizedDeploymentProfileScenario",
        "ReplicaStartupScenario",
        "RequestZonesScenario",
        "WeightOnlyQuantizationScenario",
    ),
    not_ported={
        "PagedAllocationScenario": "its only member is result (PagedAllocationModel), whose expected paged allocations "
        "need the scale mu of a capped exponential with mean mean_final under cap S_max, which mlsysim finds by "
        "bisection (calc_capped_exponential_scale: mu (1 - exp(-S_max/mu)) = mean); the closed form is "
        "S_max/mu = 1/rho + W0(-exp(-1/rho)/rho) with rho = mean/S_max, the principal Lambert W, which the "
        "equation language lacks; the other fields (reservation, reservations, tails, paged_fit's floor) are closed form",
    },
    renamed={},
    skipped={
        ("WeightOnlyQuantizationScenario", "measured_speedup"): "measured[reference] / measured[deployed] picks keys of "
        "a keyed input by text inputs; the equation language has no subscript by a key (ours: the map and the two labels)",
        ("WeightOnlyQuantizationScenario", "score_drop"): "scores[reference] - scores[deployed] picks keys of a keyed "
        "input by text inputs; the equation language has no subscript by a key",
        ("RequestZonesScenario", "shared_tokens"): "the sum of the first shared_zones zones needs each key's position in "
        "the map's order; the equation language has no per-key position (sum_upto(1, zone) has no keyed leaf, so the "
        "engine neither keys it nor evaluates it per term inside sum(..., zone): it gave 32768, not 14336)",
        ("RequestZonesScenario", "shared_share"): "shared_tokens / total_tokens: needs shared_tokens (see there)",
        ("WeightedRoutingScenario", "utilization"): "mlsysim's utilization(pool) = offered x weight(pool) / capacity[pool] "
        "cancels to offered / total_capacity, so the tree of ours has no keyed leaf and the engine does not make it a "
        "method taking the pool (its declared indices come from the cancelled tree); ours is a dict {pool: value}, "
        "compared pool by pool in test_weighted_routing_utilization_by_pool",
    },
    method_args={
        ("WeightOnlyQuantizationScenario", "computed"): [{"label": ("option", k)} for k in ("FP16", "8-bit", "INT4")],
        ("WeightOnlyQuantizationScenario", "gap"): [{"label": ("option", k)} for k in ("FP16", "8-bit", "INT4")],
        ("WeightedRoutingScenario", "weight"): [{"pool": ("option", "H100")}, {"pool": ("option", "A100")}],
        ("WeightedRoutingScenario", "equal_split_utilization"): [{"pool": ("option", "H100")}, {"pool": ("option", "A100")}],
    },
    implicit_units={
        ("QuantizedDeploymentProfileScenario", "float_throughput"): "1/s",
        ("QuantizedDeploymentProfileScenario", "int_throughput"): "1/s",
        ("TailEventRateScenario", "events_per_second"): "1/s",
        ("WeightedRoutingScenario", "total_capacity"): "1/s",
        ("WeightedRoutingScenario", "equal_split_load"): "1/s",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_weighted_routing_utilization_by_pool() -> None:
    """Ours is {pool: utilization}; mlsysim's utilization(pool) is each entry (equal in every pool by design)."""
    from mlsysim_symbolic.catalog import catalog

    from .compare import assert_close, reference_scenario

    key = "HeterogeneousH100A100Routing"
    ours, theirs = catalog().scenario(key).utilization, reference_scenario(key)
    assert list(ours) == list(theirs.servers)
    for pool, value in ours.items():
        assert_close(value, theirs.utilization(pool), f"{key}.utilization({pool!r})")
