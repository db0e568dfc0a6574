"""Distributed training and communication scenarios against mlsysim 0.3.0.

Every named scenario of GradientSyncScenario, AllReduceScheduleScenario,
HierarchicalAllReduceScenario, PipelineScheduleScenario, ParallelLayoutScenario,
DataParallelScaleOutScenario, TensorParallelScenario and AlphaBetaScenario, every
numeric member (the scenario's own properties and methods, and the fields of its
``.result``), compared at 1e-9 relative.  Keyed members (dicts by link, group size,
path and message) are compared at every key; methods at every group size or at three
argument values.  Where mlsysim returns None for a member (an optional input unset),
ours must raise ``MissingInputError``.

Renamed members (mlsysim's name is one of the type's inputs here):
GradientSyncScenario ``result.compute_time`` -> ``effective_compute_time``;
DataParallelScaleOutScenario ``result.training_time`` -> ``scaled_training_time``.
TensorParallelScenario ``result.compute_time`` equals the input and is compared
against our ``compute_time`` input property.

Where mlsysim returns a bare float carrying a unit implicitly (dollars, device-hours),
ours returns a Quantity; ``IMPLICIT_UNITS`` attaches mlsysim's unit before comparing.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from mlsysim_symbolic import MissingInputError
from mlsysim_symbolic.catalog import load_file
from mlsysim_symbolic.paths import derivations_dir

from .compare import assert_close, reference_scenario

CLASSES = (
    "GradientSyncScenario",
    "AllReduceScheduleScenario",
    "HierarchicalAllReduceScenario",
    "PipelineScheduleScenario",
    "ParallelLayoutScenario",
    "DataParallelScaleOutScenario",
    "TensorParallelScenario",
    "AlphaBetaScenario",
)

# (our member, where mlsysim keeps it: "self" a scenario property or "result" a field of .result, its name there)
def _result(*names: str) -> list[tuple[str, str, str]]:
    return [(name, "result", name) for name in names]


MEMBERS: dict[str, list[tuple[str, str, str]]] = {
    "GradientSyncScenario": [
        *_result("sync_bytes", "transfer_times", "step_times", "compute_fractions", "energy_per_step", "energy_total"),
        ("effective_compute_time", "result", "compute_time"),
    ],
    "AllReduceScheduleScenario": _result(
        "chunk", "ring_factor", "ring_rounds", "tree_rounds", "ring_byte_time", "ring_startup_time", "ring_time",
        "tree_byte_time", "tree_startup_time", "tree_time", "star_byte_time", "star_ring_limit",
        "crossover_estimate", "crossover_exact",
        "message", "alpha", "bandwidth",  # echoes of the inputs, compared against our input properties
    ),
    "HierarchicalAllReduceScenario": [
        ("n_devices", "self", "n_devices"),
        *_result(
            "intra_bytes", "reduce_scatter_time", "shard", "inter_byte_time", "inter_startup_time", "inter_time",
            "all_gather_time", "total_time", "flat_ring_time", "flat_bound_time", "speedup_vs_flat_ring",
            "speedup_vs_flat_bound",
        ),
    ],
    "PipelineScheduleScenario": [
        (name, "self", name) for name in ("bubble", "slots", "idle_slots", "fill_slots", "phase_slots")
    ],
    "ParallelLayoutScenario": [
        ("n_devices", "self", "n_devices"),
        *_result(
            "n_devices", "step_flops", "compute_time", "gradient_bytes", "dp_shard", "ring_bytes", "allreduce_time",
            "hidden_time", "exposed_time", "bubble", "efficiency", "efficiency_no_overlap", "overlap_share",
            "step_time", "state_total", "state_per_device", "zero1_state_per_device", "fleet_mfu",
            "double_counted_mfu", "min_devices_for_state",
        ),
    ],
    "DataParallelScaleOutScenario": [
        *_result(
            "n_devices", "gradient_bytes", "intra_bytes", "inter_bytes", "intra_time", "inter_time",
            "communication_time", "compute_time", "update_time", "communication_overhead", "compute_share",
            "communication_share", "speedup", "efficiency", "global_batch", "cost",
        ),
        ("scaled_training_time", "result", "training_time"),
    ],
    # result.compute_time equals the input; it is compared against our compute_time input property
    "TensorParallelScenario": _result(
        "payload", "ring_factor", "traffic_per_device", "collectives_per_step", "per_collective_time",
        "communication_time", "compute_time", "step_time", "compute_fraction", "communication_fraction",
    ),
    # alphas, bandwidths and messages echo the inputs and are compared against our input properties
    "AlphaBetaScenario": _result("times", "transmission_times", "crossovers", "alphas", "bandwidths", "messages"),
}

# methods: our member -> argument values (None: every group size of the scenario)
METHODS: dict[str, dict[str, tuple[Any, ...] | None]] = {
    "AllReduceScheduleScenario": {"saved_time": None, "saved_device_hours": None},
    "PipelineScheduleScenario": {"microbatches_for_bubble": (0.05, 0.1, 0.5)},
}

# mlsysim members not compared (not numbers): the .result object itself and its constraint_trace
SKIPPED = {"result", "constraint_trace"}

# mlsysim members that return a bare float in an implicit unit
IMPLICIT_UNITS = {"cost": "USD", "saved_device_hours": "h"}


@pytest.fixture(scope="module")
def cat():
    return load_file(derivations_dir() / "distributed.toml")


def _names(cls: str) -> list[str]:
    import mlsysim

    s = mlsysim.Scenarios
    return sorted(n for n in dir(s) if type(getattr(s, n)).__name__ == cls)


def _ours(cls: str) -> list[str]:
    """Our named scenarios of ``cls``, sorted, read from the file's declarations (nothing built, mlsysim not imported
    while collecting); test_every_named_scenario_is_ported holds them to mlsysim's (:func:`_names`)."""
    return sorted(load_file(derivations_dir() / "distributed.toml").scenarios_of(cls))


def _check(ours: Any, theirs: Any, label: str, unit: str | None = None) -> None:
    """Compare a value, or a (nested) dict of values at every key."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), f"{label}: ours {ours!r} is not keyed like mlsysim's {theirs!r}"
        assert set(ours) == set(theirs), f"{label}: keys {sorted(map(str, ours))} != mlsysim {sorted(map(str, theirs))}"
        for key in theirs:
            _check(ours[key], theirs[key], f"{label}[{key!r}]", unit)
        return
    assert theirs is not None, f"{label}: mlsysim returns None"
    if unit is not None:
        assert_close(ours.to(unit).magnitude, theirs, label)
    else:
        assert_close(ours, theirs, label)


def _member_cases():
    for cls in CLASSES:
        for key in _ours(cls):
            for ours, where, theirs in MEMBERS[cls]:
                yield pytest.param(key, ours, where, theirs, id=f"{key}.{where}.{theirs}")


@pytest.mark.parametrize("key, ours_name, where, theirs_name", list(_member_cases()))
def test_member(cat, key, ours_name, where, theirs_name):
    ref = reference_scenario(key)
    holder = ref.result if where == "result" else ref
    theirs = getattr(holder, theirs_name)
    ours = getattr(cat.scenario(key), ours_name)
    _check(ours, theirs, f"{key}.{ours_name}", IMPLICIT_UNITS.get(ours_name))


@pytest.mark.parametrize("key", [k for cls in METHODS for k in _ours(cls)])
def test_methods(cat, key):
    """Every method of the named scenario at each declared argument (mlsysim's own group sizes where none is declared,
    read when the test runs); every mismatch is reported."""
    methods = next(m for cls, m in METHODS.items() if key in _ours(cls))
    mismatches, compared = [], 0
    for name, args in methods.items():
        for value in args if args is not None else tuple(reference_scenario(key).group_sizes):
            try:
                theirs = getattr(reference_scenario(key), name)(value)
                ours = getattr(cat.scenario(key), name)(value)
                _check(ours, theirs, f"{key}.{name}({value})", IMPLICIT_UNITS.get(name))
                compared += 1
            except AssertionError as exc:
                mismatches.append(str(exc))
    assert not mismatches, "\n".join(mismatches)
    assert compared >= 1


def test_every_numeric_member_is_covered():
    """mlsysim's members of each class (scenario properties, methods, result fields) are all compared or skipped."""
    from mlsysim.engine import scenario_types

    base = set(vars(scenario_types.BaseScenario)) | set(dir(scenario_types.BaseModel))
    for cls in CLASSES:
        klass = getattr(scenario_types, cls)
        own = {n for n, v in vars(klass).items() if not n.startswith("_") and n not in base and (isinstance(v, property) or callable(v))}
        covered = {theirs for _, where, theirs in MEMBERS[cls] if where == "self"} | set(METHODS.get(cls, {})) | SKIPPED
        assert own <= covered, f"{cls}: members not compared: {sorted(own - covered)}"
        names = _names(cls)
        assert names, cls
        if "result" in own:
            fields = set(type(reference_scenario(names[0]).result).model_fields)
            covered_result = {theirs for _, where, theirs in MEMBERS[cls] if where == "result"} | SKIPPED
            assert fields <= covered_result, f"{cls}.result: fields not compared: {sorted(fields - covered_result)}"


def test_every_named_scenario_is_ported(cat):
    ours = {k for k, d in cat.declared.items() if d.type_name in CLASSES}
    theirs = {n for cls in CLASSES for n in _names(cls)}
    assert ours == theirs
    assert all(_ours(cls) == _names(cls) for cls in CLASSES)
    for key in theirs:
        assert cat.declared[key].type_name == type(reference_scenario(key)).__name__


# ---------------------------------------------------------------------- outputs mlsysim keeps implicit
@pytest.mark.parametrize("key", _ours("GradientSyncScenario") + _ours("ParallelLayoutScenario") + _ours("DataParallelScaleOutScenario"))
def test_size_fp16_is_size_in_bytes(cat, key):
    ref = reference_scenario(key)
    assert_close(cat.scenario(key).size_fp16, ref.workload.size_in_bytes("fp16"), f"{key}.size_fp16")


@pytest.mark.parametrize("key", _ours("GradientSyncScenario"))
def test_gradient_bytes_is_size_in_bytes(cat, key):
    ref = reference_scenario(key)
    assert_close(cat.scenario(key).gradient_bytes, ref.workload.size_in_bytes(ref.precision), f"{key}.gradient_bytes")


@pytest.mark.parametrize("key", _ours("ParallelLayoutScenario"))
def test_unrounded_compute_time_is_compute_time_without_a_window(cat, key):
    theirs = reference_scenario(key).variant(window_resolution=None).result.compute_time
    ours = cat.scenario(key)
    assert_close(ours.unrounded_compute_time, theirs, f"{key}.unrounded_compute_time")
    assert_close(ours.variant(window_resolution=None).compute_time, theirs, f"{key}.compute_time (no window)")


# ---------------------------------------------------------------------- variants: choices, rounding, optional inputs
GRADIENT_PRECISIONS = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4")


@pytest.mark.parametrize("precision", GRADIENT_PRECISIONS)
@pytest.mark.parametrize(
    "key, field, members",
    [
        ("Gpt3GradientSync", "precision", ("sync_bytes", "transfer_times", "energy_total")),
        ("Gpt2DataParallelFourNodes10GbE", "precision", ("gradient_bytes", "inter_time", "speedup", "cost")),
        ("Gpt3ThreeDParallel1K", "gradient_precision", ("gradient_bytes", "ring_bytes", "allreduce_time", "step_time")),
    ],
)
def test_precision_variants(cat, key, field, members, precision):
    theirs = reference_scenario(key).variant(**{field: precision}).result
    ours = cat.scenario(key).variant(**{field: precision})
    for name in members:
        _check(getattr(ours, name), getattr(theirs, name), f"{key}[{field}={precision}].{name}", IMPLICIT_UNITS.get(name))


@pytest.mark.parametrize("precision", ("fp8", "fp16_dense", "int8", "tf32", "fp32"))
def test_compute_precision_variants(cat, precision):
    theirs = reference_scenario("Gpt3ThreeDParallel1K").variant(precision=precision).result
    ours = cat.scenario("Gpt3ThreeDParallel1K").variant(precision=precision)
    for name in ("compute_time", "hidden_time", "step_time", "efficiency", "fleet_mfu"):
        _check(getattr(ours, name), getattr(theirs, name), f"precision={precision}.{name}")


def test_missing_compute_precision_raises(cat):
    """mlsysim indexes precision_flops without a fallback (KeyError); ours finds no rate and raises MissingInputError."""
    with pytest.raises(KeyError):
        reference_scenario("Gpt3ThreeDParallel1K").variant(precision="fp4").result  # noqa: B018
    with pytest.raises(MissingInputError):
        cat.scenario("Gpt3ThreeDParallel1K").variant(precision="fp4").compute_time  # noqa: B018


@pytest.mark.parametrize("resolution", ("1 s", "0.01 s", "0.25 s", "0.3 s", "0.7 s", "50 ms"))
@pytest.mark.parametrize("key", _ours("ParallelLayoutScenario"))
def test_window_resolution_variants(cat, key, resolution):
    """round(t/r)·r with ties to even (Python round) at several resolutions, powers of ten and not."""
    import mlsysim

    theirs = reference_scenario(key).variant(window_resolution=mlsysim.core.units.Q_(resolution)).result
    ours = cat.scenario(key).variant(window_resolution=resolution)
    for name in ("compute_time", "hidden_time", "step_time", "efficiency"):
        _check(getattr(ours, name), getattr(theirs, name), f"{key}[r={resolution}].{name}")


def test_window_rounding_ties_to_even(cat):
    """At an exact tie the window rounds half to even, as Python's round() does (2.5 -> 2, 3.5 -> 4)."""
    s = cat.scenario("Gpt3DataParallel1K")
    raw = s.unrounded_compute_time.to("s").magnitude
    ties = 0
    for windows in (2.5, 3.5, 4.5, 5.5, 2.4, 2.6):
        r = raw / windows
        if raw / r != windows:  # the quotient must be exact in floating point for the check to mean anything
            continue
        got = s.variant(window_resolution=f"{r!r} s").compute_time.to("s").magnitude
        assert math.isclose(got, round(windows) * r, rel_tol=1e-12), (windows, got, round(windows) * r)
        ties += windows % 1 == 0.5
    assert ties >= 2, "no exact tie reached: the check did not run"


def test_min_devices_without_device_memory(cat):
    """mlsysim returns None for min_devices_for_state without device_memory; ours raises MissingInputError."""
    assert reference_scenario("Gpt3ThreeDParallel1K").variant(device_memory=None).result.min_devices_for_state is None
    with pytest.raises(MissingInputError):
        cat.scenario("Gpt3ThreeDParallel1K").variant(device_memory=None).min_devices_for_state  # noqa: B018


def test_cost_without_node_hour_rate(cat):
    """mlsysim returns None for cost without node_hour_rate; ours raises MissingInputError."""
    assert reference_scenario("Gpt2DataParallelOneNode").variant(node_hour_rate=None).result.cost is None
    with pytest.raises(MissingInputError):
        cat.scenario("Gpt2DataParallelOneNode").variant(node_hour_rate=None).cost  # noqa: B018


def test_one_node_needs_no_inter_bandwidth(cat):
    """One node: the cross-node terms are zero and inter_bandwidth may be unset (both packages)."""
    theirs = reference_scenario("Gpt2DataParallelOneNode").result
    ours = cat.scenario("Gpt2DataParallelOneNode")
    assert ours.inputs["inter_bandwidth"] is None
    assert ours.inter_time.magnitude == 0 == theirs.inter_time.magnitude
    assert ours.inter_bytes.magnitude == 0 == theirs.inter_bytes.magnitude


def test_many_nodes_without_inter_bandwidth_differs(cat):
    """Documented difference: with nodes > 1 and inter_bandwidth unset mlsysim raises; ours prices the
    cross-node ring at zero (inter_time falls back to 0 when inter_bandwidth is unset, so one-node jobs need
    no inter-node link; an equation cannot raise). A user must state inter_bandwidth for more than one node."""
    with pytest.raises(Exception):  # noqa: B017 - mlsysim raises from its unit check of None
        reference_scenario("Gpt2DataParallelFourNodes10GbE").variant(inter_bandwidth=None).result  # noqa: B018
    ours = cat.scenario("Gpt2DataParallelFourNodes10GbE").variant(inter_bandwidth=None)
    assert ours.inter_time.magnitude == 0
    assert ours.inter_bytes.magnitude > 0


def test_energy_without_energy_per_bit(cat):
    """Unset energy_per_bit charges no energy, as mlsysim's None does."""
    theirs = reference_scenario("Gpt3GradientSync").variant(energy_per_bit=None).result
    ours = cat.scenario("Gpt3GradientSync").variant(energy_per_bit=None)
    assert ours.inputs["energy_per_bit"] is None
    assert ours.energy_per_step.magnitude == 0 == theirs.energy_per_step.magnitude
    assert ours.energy_total.magnitude == 0 == theirs.energy_total.magnitude
    _check(ours.step_times, theirs.step_times, "step_times")


def test_critical_sizes_have_no_messages(cat):
    """CriticalSizeByInterconnect states no messages: both packages give an empty table per path."""
    theirs = reference_scenario("CriticalSizeByInterconnect").result
    ours = cat.scenario("CriticalSizeByInterconnect")
    assert theirs.messages == {} and ours.messages == {}
    assert ours.times == {path: {} for path in theirs.alphas} == theirs.times
    _check(ours.crossovers, theirs.crossovers, "crossovers")


def test_faster_accelerator_halves_only_compute(cat):
    base, fast = cat.scenario("Gpt3GradientSync"), cat.scenario("Gpt3GradientSyncFasterAccelerator")
    assert_close(fast.effective_compute_time, base.effective_compute_time / 2, "effective_compute_time")
    _check(fast.transfer_times, {k: v for k, v in base.transfer_times.items()}, "transfer_times")


@pytest.mark.parametrize("sizes", ([2, 3, 5], [6, 100, 1000], [4096, 65536]))
def test_allreduce_group_size_variants(cat, sizes):
    """Group sizes off the named scenarios, including non-powers of two (the ceil of log2)."""
    theirs = reference_scenario("GradientBufferAllReduceNdr").variant(group_sizes=sizes, time_saved_fraction=0.25)
    ours = cat.scenario("GradientBufferAllReduceNdr").variant(group_sizes=sizes, time_saved_fraction=0.25)
    for name, _, theirs_name in MEMBERS["AllReduceScheduleScenario"]:  # every member is on .result
        _check(getattr(ours, name), getattr(theirs.result, theirs_name), f"sizes={sizes}.{name}")
    for n in sizes:
        _check(ours.saved_time(n), theirs.saved_time(n), f"saved_time({n})")
        _check(ours.saved_device_hours(n), theirs.saved_device_hours(n), f"saved_device_hours({n})", "h")


def test_tensor_parallel_sequence_defaults_to_context_length(cat):
    theirs = reference_scenario("Gpt3TensorParallelStepDgxH100").result
    ours = cat.scenario("Gpt3TensorParallelStepDgxH100")
    assert ours.inputs["seq_len"] is None
    _check(ours.payload, theirs.payload, "payload")
    stated = ours.variant(seq_len=1024)
    _check(stated.payload, reference_scenario("Gpt3TensorParallelStepDgxH100").variant(seq_len=1024).result.payload, "payload(1024)")


def test_tensor_parallel_without_any_sequence_raises(cat):
    """Llama-2-70B has no context length: without seq_len mlsysim fails and ours raises MissingInputError."""
    with pytest.raises(TypeError):
        reference_scenario("Llama2_70BNodeTensorParallelStep").variant(seq_len=None).result  # noqa: B018
    with pytest.raises(MissingInputError):
        cat.scenario("Llama2_70BNodeTensorParallelStep").variant(seq_len=None).payload  # noqa: B018
