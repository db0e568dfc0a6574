"""mlsysim's solver Models declared as data (derivations/models/models.toml, issue 35) against mlsysim 0.3.0.

- every declared Model's ``solve`` signature is mlsysim's (names, order, defaults; a Quantity default equal in
  magnitude and unit);
- every class of ``mlsysim.engine.solvers`` with a ``solve`` is ours (hand-written in ``mlsysim_symbolic.solvers`` or
  declared) or listed in :data:`NOT_PORTED` with its reason;
- every call mlsysim's own named scenarios made to a declared Model (``tools/record_mlsysim_model_calls.py`` wrote them
  to ``data/mlsysim_model_calls.json``, up to 8 per Model) is made again on ours with the same arguments, rebuilt as
  mlsysim's code passed them (Quantities of mlsysim's registry, mlsysim's own model and device objects), and every field of mlsysim's recorded result is
  compared (:func:`~.compare.assert_same`: numbers at 1e-9 relative in mlsysim's unit, booleans and labels exactly);
  the README tier replays the first 2 calls per Model, the thorough tier the rest;
- a few recorded calls are made on mlsysim live, to show the file is mlsysim's current answer;
- where mlsysim raises for an argument set (one recorded argument replaced by a text that is no value), ours raises
  a ValueError or TypeError of its own.

``python -m pytest tests/reference/test_ref_solver_models.py -s -k counts`` prints the counts.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path
from typing import Any

import pytest

from mlsysim_symbolic import solvers
from mlsysim_symbolic.errors import MlsysimSymbolicError
from mlsysim_symbolic.solvers.declared import declared_solver, model_names

from .compare import assert_same, magnitude_like, reference_entry
from .test_ref_function_calls import decode

DATA = json.loads((Path(__file__).parent / "data" / "mlsysim_model_calls.json").read_text(encoding="utf-8"))
CALLS: dict[str, list[dict[str, Any]]] = DATA["calls"]
DECLARED = model_names()
#: The Models hand-written in mlsysim_symbolic.solvers (a Solver subclass exported by name).
HAND_WRITTEN = frozenset(n for n in solvers.__all__ if isinstance(c := getattr(solvers, n), type)
                         and issubclass(c, solvers.Solver) and c is not solvers.Solver)
#: Declared Models some named scenario of mlsysim calls with data arguments (replayed here).
REPLAYED = [n for n in DECLARED if CALLS.get(n)]
#: Recorded calls per Model the README's command replays; the thorough tier replays the rest.
FIRST = 2
#: Models whose first solve builds a plan that takes over half a second here (2.7 s, 1.7 s, 1.2 s, 0.9 s: together
#: two thirds of this file's replay time): the thorough tier replays all their calls, keeping the README tier's CPU
#: for this file under ~10 s.
HEAVY = frozenset({"SamplingModel", "ArgmaxNoiseModel", "SandboxPoolReserveModel", "RingTraceModel"})
#: Declared Models mlsysim is called live for (their first recorded call): the recording is current.
LIVE = REPLAYED[::20]

#: Fields where mlsysim's value carries float round-off that ours, computed exactly, does not: (Model, field) -> why.
#: Compared at an absolute 1e-12 besides the usual 1e-9 relative; test_roundoff_still_differs holds them to differ
#: under the strict comparison (an entry that no longer differs fails).
ROUNDOFF: dict[tuple[str, str], str] = {
    ("ArgmaxNoiseModel", "expected_max"): "E[max] of one standard normal (pool size 1) is 0; mlsysim's trapezoidal "
    "integral (calc_expected_max_std_normal: 40,000 steps on [-10, 10]) sums to -4.5e-17 there, ours gives 0",
}
ROUNDOFF_ABS = 1e-12

#: mlsysim's Models and Optimizers that are not ours, each with the reason (tools/survey_models.py prints them).
NOT_PORTED: dict[str, str] = {
    'AdaptationPaybackModel': 'arguments that are no input of AdaptationPaybackScenario: base, adapted',
    'AdmissionOrderModel': 'arguments that are no input of AdmissionOrderScenario: checks, orders',
    'AllocationAxesModel': 'arguments that are no input of AllocationAxesScenario: decode_per_token',
    'ArchitectureChoiceModel': 'arguments that are no input of ArchitectureChoiceScenario: single_costs, single_acceptance, loop_name, turn_cost',
    'BaseResolver': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'BatchingOptimizer': "no type of ours has mlsysim's result BatchingOptimizerResult",
    'BlindRetryModel': 'arguments that are no input of BlindRetryScenario: calls',
    'BrakingBlendModel': "no type of ours has mlsysim's result BrakingBlendResult",
    'BrakingCeilingsModel': 'arguments that are no input of BrakingCeilingsScenario: mass, deceleration, speed, hub, n_wheels, current_limit, drive_load_share, mu_dry, mu_inspected, bus_low',
    'CarbonPricedPlacementModel': 'arguments that are no input of CarbonPricedPlacementScenario: fleet, regions, reference_grid',
    'CheckpointIntervalModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'CheckpointStormModel': 'arguments that are no input of CheckpointStormScenario: state_bytes',
    'ChunkReplacementModel': 'arguments that are no input of ChunkReplacementScenario: observation_age, dispatch_to_admission, inference, validation, renewal_period, lease',
    'ChunkedPrefillModel': 'arguments that are no input of ChunkedPrefillScenario: n_params, sustained_rate, weight_read_time',
    'ClearanceQueryModel': 'arguments that are no input of ClearanceQueryScenario: tick_rate, protective_clearance, slab_volume, wcet',
    'ClockConversionModel': 'arguments that are no input of ClockConversionScenario: conversion_bound, observation_age',
    'CommandAuthenticationModel': 'arguments that are no input of CommandAuthenticationScenario: speed, spare, deadline, deadline_after_admission',
    'CommunicationIntensityModel': 'arguments that are no input of DataParallelIntensityScenario: model, peak_flops, precision',
    'CompactionCadenceModel': "the type reads turn (a list of turns) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves lengths, alternate_lengths None",
    'CompactionPaybackModel': "the type reads call (a list of call numbers) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves net_by_calls None",
    'ConfidenceRegionModel': 'arguments that are no input of ConfidenceRegionScenario: tolerance',
    'ConservedBudgetModel': 'arguments that are no input of ConservedBudgetScenario: allocations, settled_children',
    'ContextBudgetModel': "the type reads turn (a list of turns) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves append_requests, append_cumulative, select_cumulative None",
    'CorpusDenominatorsModel': 'arguments that are no input of CorpusDenominatorsScenario: classes, focus, admitted',
    'DeadlinePolicyModel': 'arguments that are no input of DeadlinePolicyScenario: decode_per_token',
    'DecodeBoundModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'DecoderFamiliesModel': 'arguments that are no input of DecoderFamiliesScenario: model, processor, weight_bytes_per_param, input_tokens, bus_efficiency, compute_utilization, horizon, action_dim, renewal_period',
    'DeficitRoundRobinModel': 'arguments that are no input of DeficitRoundRobinScenario: classes, rounds',
    'DenseNetworkModel': "the type reads layers, position, layer, flops_per_mac, elementwise_ops, flop_per_op that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves every field None",
    'DetectionShortfallModel': 'arguments that are no input of DetectionShortfallScenario: frame_period, deceleration, mass, delay',
    'DriveBusModel': 'arguments that are no input of DriveBusScenario: mass, speed, deceleration, step_current, bus_resistance, full, nominal, depleted, lockout, compute_power, converter_efficiency, capacitance, clamp',
    'DutyCycledPowerModel': '2 types have the result DutyCycledPowerResult: DutyCycledPowerScenario, PeriodicInferencePowerScenario',
    'DynamicReachModel': 'arguments that are no input of DynamicReachScenario: speed_ceiling, tracked_horizon, untracked_horizon',
    'DynamicWindowModel': 'arguments that are no input of DynamicWindowScenario: max_acceleration, window, clear_distance, deceleration, drive_limit',
    'EmbodiedPaybackModel': 'arguments that are no input of EmbodiedPaybackScenario: embodied, device_power, intensities',
    'EncoderRateModel': 'arguments that are no input of EncoderRateScenario: frame_rate, peak',
    'EpochGapModel': '2 types have the result EpochGapResult: EpochGapScenario, SkewedRecordsScenario',
    'EpochOverheadModel': 'arguments that are no input of EpochOverheadScenario: network, network_batch1, steps',
    'ErrorFeedbackModel': "the type reads steps, step, boundary, half that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves errors None",
    'EstimatorConsistencyModel': 'arguments that are no input of EstimatorConsistencyScenario: nis_expected',
    'EvidenceHorizonModel': 'arguments that are no input of EvidenceHorizonScenario: tolerance, initial_error, target_speed, chunk_step, chunk_horizon, inference_latency',
    'ExponentialRareEventModel': "the type reads budget (a scenario) and level_steps (a list) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves levels None",
    'FacilityPowerModel': 'arguments that are no input of FacilityPowerScenario: it_ratio',
    'FailureIntervalModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'FailureTriageModel': 'arguments that are no input of FailureTriageScenario: parameters, peak_rate',
    'ForwardOccupancyModel': 'arguments that are no input of ForwardOccupancyScenario: approach_speed, aisle_width, untracked_horizon, tracked_horizon, forecast_horizon',
    'FreeSpaceExpiryModel': 'arguments that are no input of FreeSpaceExpiryScenario: depth_ahead, depth_abreast, loc_bound, protective_clearance, approach_speed, observation_age, frame_period, speed, braking, pre_brake_delay',
    'FreshnessProfileModel': 'arguments that are no input of FreshnessProfileScenario: target_speed, tolerance, initial_error, stages, tail_age',
    'FrozenTransformModel': 'arguments that are no input of FrozenTransformScenario: speed, tolerance',
    'GearRatioCostModel': 'arguments that are no input of GearRatioCostScenario: loss_resistance, input_inertia',
    'GoodputModel': 'arguments that are no input of GoodputScenario: ceilings',
    'GraphNeighborhoodModel': "the type reads level (a list of depths) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves nodes_by_depth, tokens_by_depth None",
    'GridPlacementModel': 'arguments that are no input of GridPlacementScenario: intensities',
    'GroupCoefficientsModel': "mlsysim passes rewards as a list; the type's input is a mapping of keys to values",
    'HostIoCpuModel': 'arguments that are no input of HostIoCpuScenario: request_rate',
    'HostMapSizingModel': 'arguments that are no input of HostMapSizingScenario: extent',
    'HubDriveElectricalModel': 'arguments that are no input of HubDriveElectricalScenario: hub, current_limit, bus_voltage, brake_onset',
    'InertialCoastModel': 'arguments that are no input of InertialCoastScenario: gyro_noise_density, gyro_bias, accel_noise_density, accel_bias, target_range, reference',
    'IntentCadenceModel': 'arguments that are no input of IntentCadenceScenario: tolerance, initial_error, slip_acceleration, intent_rate, inference_latency, tick, bus, brake_onset',
    'IntentLeaseExpiryModel': 'arguments that are no input of IntentLeaseExpiryScenario: untracked_horizon, tracked_horizon, stop_onset, speed_ceiling, velocity_limit, worst_stop_time',
    'IronLawModel': 'arguments that are no input of IronLawScenario: memory_time, compute_time',
    'IrreversibleLossModel': 'arguments that are no input of IrreversibleLossScenario: defect_probability, consequence, catch_rate, revert_fidelity, attempt_cost',
    'JerkLimitedStopModel': 'arguments that are no input of JerkLimitedStopScenario: loc_margin, physical_margin',
    'KvBlockSharingModel': 'arguments that are no input of KvBlockSharingScenario: bytes_per_token',
    'KvResidencyArchetypeModel': 'arguments that are no input of KvResidencyArchetypeScenario: bytes_per_token, n_params, sustained_rate, link',
    'LeaseBudgetModel': 'arguments that are no input of LeaseBudgetScenario: deceleration, clear_distance, loc_margin, physical_margin, brake_onset, tick, bus, observation_age, admission_age, renewal_period, inference_latency',
    'LidarSweepAgeModel': 'arguments that are no input of LidarSweepAgeScenario: sector_width, sector_distance, yaw_rate, reference_age',
    'MoERoutingModel': "no type of ours has mlsysim's result MoERoutingResult",
    'ModelCallModel': 'arguments that are no input of ModelCallScenario: prefill_per_token, decode_per_token',
    'ModelCascadeModel': "mlsysim passes call_costs (and the other per-model lists) as a list; the type's input is a mapping of keys to values",
    'NetworkRooflineModel': '2 types have the result PerformanceProfile: SingleNodeInferenceScenario, SingleNodeTrainingScenario',
    'ObjectStorageBillModel': "mlsysim passes storage_rate per month (USD/GB/month); the type's input is USD/GB (a one-time amount)",
    'ObservationAgeModel': 'arguments that are no input of ObservationAgeScenario: readout, transport, dma, isp, backbone, dispatch, frame_rate',
    'OdometryDriftModel': 'arguments that are no input of OdometryDriftScenario: path_length, bound, speed, segment',
    'OnsetTrialModel': 'arguments that are no input of OnsetTrialScenario: onset_bound, speed, resident_stop, travel_bound, stop_time',
    'OrchestrationModel': "no type of ours has mlsysim's result OrchestrationResult",
    'PagedAllocationModel': 'arguments that are no input of PagedAllocationScenario: bytes_per_token',
    'PairedComparisonModel': "the type reads tail_count (a list) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves exact_p None",
    'ParallelLayoutModel': 'arguments that are no input of ParallelLayoutScenario: model, peak_flops',
    'ParallelismOptimizer': "no type of ours has mlsysim's result ParallelismOptimizerResult",
    'PausedKvStateModel': 'arguments that are no input of PausedKvStateScenario: bytes_per_token, n_params, sustained_rate, link',
    'PlacementOptimizer': "no type of ours has mlsysim's result PlacementOptimizerResult",
    'PolicyComparisonModel': 'arguments that are no input of PolicyComparisonScenario: baseline, candidate',
    'PowerTransientModel': 'arguments that are no input of PowerTransientScenario: high_power',
    'PreemptionTaxModel': 'arguments that are no input of PreemptionTaxScenario: recovery',
    'PrefixCacheBillModel': 'arguments that are no input of ResendCacheBillScenario: turns, first_prompt, appended, output_per_turn',
    'PrefixRebuildModel': 'arguments that are no input of PrefixRebuildScenario: node',
    'ProbeVsAnswerModel': 'arguments that are no input of ProbeVsAnswerScenario: decode_per_token',
    'RailHoldUpModel': 'arguments that are no input of RailHoldUpScenario: flag_path, speed, deceleration, jerk, engage, holdup',
    'RangeFusionModel': 'arguments that are no input of RangeFusionScenario: interval, first_sigma, second_sigma, misdating_bias',
    'RaymarchTrafficModel': 'arguments that are no input of RaymarchTrafficScenario: bandwidth',
    'RecoveryBudgetModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'ReferentSetModel': "mlsysim passes scores as a list; the type's input is a mapping of keys to values",
    'RepeatedWorkEnergyModel': 'arguments that are no input of RepeatedWorkEnergyScenario: devices, device_power',
    'ReplayBufferModel': 'arguments that are no input of ReplayBufferScenario: horizon, sample_rate',
    'ResponseTimeModel': 'arguments that are no input of ResponseTimeScenario: unloaded',
    'RetentionCostModel': "mlsysim passes rate per month (USD/TB/month); the type's input is USD/TB (a one-time amount)",
    'RetryAmplificationModel': "the type reads depth (a list of layers) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves by_layer None",
    'RollingShutterSkewModel': 'arguments that are no input of RollingShutterScenario: rows, readout, exposure, yaw_rate, target_range, along_allowance, side_clearance',
    'RunFootprintModel': 'arguments that are no input of RunFootprintScenario: device_power, it_ratio, intensities, embodied_per_device',
    'RunSplitLeakageModel': 'arguments that are no input of RunSplitLeakageScenario: max_attempts',
    'RuntimeGoodputModel': 'arguments that are no input of RuntimeGoodputScenario: mtbf, checkpoint_bytes, recovery',
    'SeamBridgeModel': 'arguments that are no input of SeamBridgeScenario: gear_ratio, rotor_inertia, rated_torque, peak_torque, torque_rate_limit',
    'SearchAccountsModel': 'arguments that are no input of SearchAccountsScenario: decode_per_token, segments',
    'SerialEpisodeModel': "mlsysim passes model_intervals as a tuple; the type's input is a mapping of keys to values",
    'SeriesFailureModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'SharedDramReadModel': 'keyword-only or variadic arguments: tile_bytes, camera_bytes, telemetry_bytes, snapshot_bytes, transaction_bytes, bandwidth, bank_switches, bank_switch_time, sense, compute_after_sense, wcet, execution_ceiling',
    'ShoulderSwingModel': 'arguments that are no input of ShoulderSwingScenario: payload, reach, torque_limit, torque_rate_limit',
    'SpanCriticalPathModel': "no type of ours has mlsysim's result SpanCriticalPathResult",
    'SpeculativeEpisodeModel': 'arguments that are no input of SpeculativeEpisodeScenario: total_time, decode_fraction',
    'SpeedStepModel': 'arguments that are no input of SpeedStepScenario: base_speed, raised_speed, deceleration',
    'SpillLimitedStopModel': 'arguments that are no input of SpillLimitedStopScenario: speed, free_deceleration, free_jerk, delay, clear_distance',
    'StaleAnchorModel': 'arguments that are no input of StaleAnchorScenario: lever_arm',
    'StaleTransformModel': 'arguments that are no input of StaleTransformScenario: interval',
    'StereoDepthErrorModel': 'arguments that are no input of StereoDepthErrorScenario: target_range, loc_allowance, side_clearance',
    'StoppingBudgetModel': '2 types have the result StoppingBudgetResult: PackagingCellScenario, StoppingBudgetScenario',
    'StorageFootprintModel': 'arguments that are no input of StorageFootprintScenario: parameters',
    'StreamVsStageModel': "mlsysim passes object_rate per month (USD/GB/month); the type's input is USD/GB (a one-time amount)",
    'TakeoverBudgetModel': 'arguments that are no input of TakeoverBudgetScenario: delay, deceleration, clear_distance, loc_margin, physical_margin, jerk, tracking_bound, dispatch_to_admission, tick, chunk_lease',
    'TensorParallelLayerModel': 'arguments that are no input of TensorParallelLayerScenario: model, peak_flops',
    'ThermalThrottleModel': 'keyword-only or variadic arguments: wcet, blocking_and_interference, deadline, tick, nominal_clock, throttled_clock, time_constant, ambient, theta, quiet_power, loaded_power, trip, clear',
    'ThrottledStageModel': 'arguments that are no input of ThrottledStageScenario: stage_time',
    'TieredCheckpointModel': 'arguments that are no input of TieredCheckpointScenario: checkpoint_bytes',
    'TrainingRunModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'TrainingStateModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'TrajectoryBudgetMeterModel': 'arguments that are no input of TrajectoryBudgetMeterScenario: turns, input_tokens, uncached_tokens, output_tokens, cached_price, allowances',
    'TrajectoryDeadlinesModel': 'arguments that are no input of TrajectoryDeadlinesScenario: setpoint_period, horizon, renewal_period, response, stop_time, stop_distance, speed, clear_distance',
    'TrajectoryResendModel': 'arguments that are no input of TrajectoryResendScenario: prefill_per_token, decode_per_token',
    'TwoLinkJointRateModel': 'arguments that are no input of TwoLinkJointRateScenario: upper_arm, forearm, tool_speed',
    'UndetectedLoopModel': "the type reads turn (a list of turns) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves input_by_turn None",
    'VlaEvaluationModel': 'arguments that are no input of VlaEvaluationScenario: model, bus_efficiency, compute_utilization',
    'WaterUseModel': 'arguments that are no input of WaterUseScenario: it_energy',
    'WorkloadLeverModel': "no type of ours has mlsysim's result WorkloadLeverResult",
    'ZeroShardingModel': "mlsysim passes activations as a Quantity of bytes; the type's input is an ActivationMemoryScenario (a scenario that computes them)",
}


def _ref() -> Any:
    """mlsysim 0.3.0, imported when a test runs (collecting imports none of it)."""
    import mlsysim

    return mlsysim


def arguments(call: dict[str, Any]) -> dict[str, Any]:
    """One recorded call's keyword arguments as mlsysim's code passed them: a registry entry (``{"entry": [namespace,
    group, key]}``) as mlsysim's own object, anything else as ``test_ref_function_calls.decode`` rebuilds it (a fresh
    copy each time)."""
    return {arg: reference_entry(*value["entry"]) if isinstance(value, dict) and "entry" in value else decode(value)
            for arg, value in call.items()}


def mlsysim_models() -> dict[str, type]:
    """mlsysim's classes with their own ``solve`` in ``mlsysim.engine.solvers``, by name."""
    import mlsysim.engine.solvers as theirs

    return {n: c for n in dir(theirs) if inspect.isclass(c := getattr(theirs, n)) and "solve" in vars(c)}


def _parameters(fn: Any) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(fn).parameters.values() if p.name != "self"]


def _same_default(ours: Any, theirs: Any) -> bool:
    if hasattr(theirs, "magnitude") and hasattr(theirs, "units"):
        return (hasattr(ours, "units") and ours.magnitude == theirs.magnitude
                and format(ours.units, "D") == format(theirs.units, "D"))
    return type(ours) is type(theirs) and ours == theirs


@pytest.mark.parametrize("name", DECLARED)
def test_signature_is_mlsysims(name):
    """Names, order, kinds and defaults of the declared Model's ``solve`` are mlsysim's."""
    ours = _parameters(getattr(solvers, name).solve)
    theirs = _parameters(mlsysim_models()[name].solve)
    assert [p.name for p in ours] == [p.name for p in theirs]
    assert [p.kind for p in ours] == [p.kind for p in theirs]
    for o, t in zip(ours, theirs):
        assert (o.default is t.default is inspect.Parameter.empty) or _same_default(o.default, t.default), (
            f"{name}.solve({o.name}): default {o.default!r}, mlsysim's {t.default!r}")


def test_every_mlsysim_model_is_ours_or_not_ported_with_a_reason():
    """Every class of mlsysim.engine.solvers with a solve is hand-written, declared, or in NOT_PORTED (and not two of
    these); NOT_PORTED names only mlsysim's classes."""
    theirs = set(mlsysim_models())
    assert not theirs - HAND_WRITTEN - set(DECLARED) - set(NOT_PORTED), sorted(theirs - HAND_WRITTEN - set(DECLARED) - set(NOT_PORTED))
    assert not set(NOT_PORTED) - theirs, sorted(set(NOT_PORTED) - theirs)
    assert not set(NOT_PORTED) & (HAND_WRITTEN | set(DECLARED)), sorted(set(NOT_PORTED) & (HAND_WRITTEN | set(DECLARED)))
    assert not HAND_WRITTEN & set(DECLARED), sorted(HAND_WRITTEN & set(DECLARED))
    assert set(DECLARED) <= theirs, sorted(set(DECLARED) - theirs)


def test_declared_models_are_solvers_named_as_mlsysims():
    """Each declared Model is a Solver subclass of its mlsysim name, made once, binding the type of its result."""
    from mlsysim_symbolic.catalog import catalog

    types = catalog().types
    for name in DECLARED:
        cls = getattr(solvers, name)
        assert cls.__name__ == name and issubclass(cls, solvers.Solver) and cls is declared_solver(name)
        assert types[cls.type_name].result.name == cls.result_name == mlsysim_models()[name].produces.__name__
    assert set(DECLARED) <= set(dir(solvers))
    with pytest.raises(AttributeError):
        solvers.NoSuchModel  # noqa: B018


def test_counts(capsys):
    """The file is mlsysim 0.3.0's and names only mlsysim's Models; the counts, printed."""
    assert DATA["mlsysim"] == "0.3.0"
    assert set(DATA["recorded"]) | set(DATA["never_called"]) == set(mlsysim_models())
    reasons: dict[str, int] = {}
    for why in NOT_PORTED.values():
        head = " ".join(why.split()[:2])
        reasons[head] = reasons.get(head, 0) + 1
    with capsys.disabled():
        print(f"\n  declared: {len(DECLARED)} Models; hand-written: {len(HAND_WRITTEN)}; not ported: {len(NOT_PORTED)}")
        readme = sum(min(FIRST, len(CALLS[n])) for n in REPLAYED if n not in HEAVY)
        print(f"  replayed: {len(REPLAYED)} Models at {readme} calls (README) "
              f"+ {sum(map(len, (CALLS[n] for n in REPLAYED))) - readme} (thorough)")
        print(f"  declared but never called with data by a scenario: {sorted(n for n in DECLARED if not CALLS.get(n))}")
        for head, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"  not ported, {head}: {count}")


def replay(name: str, call: dict[str, Any]) -> None:
    """Ours at one recorded call equals mlsysim's recorded result, field by field (or raises where mlsysim raised)."""
    model = getattr(solvers, name)()
    if "raises" in call:
        with pytest.raises((ValueError, TypeError)):
            model.solve(**arguments(call["arguments"]))
        return
    result = model.solve(**arguments(call["arguments"]))
    recorded = dict(call["result"])
    assert list(result.fields) == list(recorded), f"{name}: fields {result.fields} vs mlsysim's {list(recorded)}"
    for field, value in recorded.items():
        if isinstance(value, dict) and "object" in value:
            continue
        label = f"{name}.{field} (from {call['first_seen']})"
        if (name, field) in ROUNDOFF:
            _assert_near(getattr(result, field), decode(value), label)
        else:
            assert_same(getattr(result, field), decode(value), label)


def _assert_near(ours: Any, theirs: Any, label: str) -> None:
    """Equal at 1e-9 relative or :data:`ROUNDOFF_ABS` absolute (lists item by item, dicts key by key in order)."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), f"{label}: keys {list(ours)} vs {list(theirs)}"
        for k in theirs:
            _assert_near(ours[k], theirs[k], f"{label}[{k!r}]")
        return
    if isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), f"{label}: ours {ours!r}, mlsysim {theirs!r}"
        for i, (o, t) in enumerate(zip(ours, theirs)):
            _assert_near(o, t, f"{label}[{i}]")
        return
    a, b = magnitude_like(ours, theirs)
    assert math.isclose(a, b, rel_tol=1e-9, abs_tol=ROUNDOFF_ABS), f"{label}: ours {a!r} != mlsysim {b!r}"


@pytest.mark.thorough   # ArgmaxNoiseModel is HEAVY
@pytest.mark.parametrize("name, field", sorted(ROUNDOFF))
def test_roundoff_still_differs(name, field):
    """Each ROUNDOFF field differs from mlsysim's under the strict comparison at some recorded call (else the entry
    is stale)."""
    differ = 0
    for call in CALLS[name]:
        theirs = decode(dict(call["result"])[field])
        ours = getattr(getattr(solvers, name)().solve(**arguments(call["arguments"])), field)
        try:
            assert_same(ours, theirs, field)
        except AssertionError:
            differ += 1
    assert differ, f"{name}.{field} agrees with mlsysim at every recorded call: drop its ROUNDOFF entry"


def failures(name: str, calls: list[dict[str, Any]]) -> list[str]:
    """Each call of ``calls`` where ours is not mlsysim's, described."""
    found = []
    for call in calls:
        try:
            replay(name, call)
        except Exception as exc:   # an assertion or an error of ours: listed with the others, not instead of them
            found.append(f"{call['arguments']}: {type(exc).__name__}: {exc}")
    return found


@pytest.mark.parametrize("name", [n for n in REPLAYED if n not in HEAVY])
def test_replay_matches_mlsysim(name):
    """The first recorded calls of ``name``: every field equals mlsysim's."""
    calls = CALLS[name][:FIRST]
    found = failures(name, calls)
    assert not found, f"{name}: {len(found)} of {len(calls)} calls differ:\n" + "\n".join(found)


@pytest.mark.thorough
@pytest.mark.parametrize("name", [n for n in REPLAYED if len(CALLS[n]) > FIRST or n in HEAVY])
def test_replay_matches_mlsysim_at_the_other_calls(name):
    """The rest of the recorded calls of ``name``, and every call of a HEAVY Model (the thorough tier)."""
    calls = CALLS[name] if name in HEAVY else CALLS[name][FIRST:]
    found = failures(name, calls)
    assert not found, f"{name}: {len(found)} of {len(calls)} calls differ:\n" + "\n".join(found)


@pytest.mark.parametrize("name", LIVE)
def test_recording_is_mlsysims_current_answer(name):
    """mlsysim, called live at the first recorded call, gives the recorded fields."""
    call = CALLS[name][0]
    live = mlsysim_models()[name]().solve(**arguments(call["arguments"]))
    for field, value in call["result"]:
        if not (isinstance(value, dict) and "object" in value):
            recorded, now = decode(value), getattr(live, field)
            assert now == recorded or (now != now and recorded != recorded), f"{name}.{field}: {now!r} != {recorded!r}"


def _spoiled(call: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The first recorded call's arguments with its first number or Quantity argument replaced by a text."""
    args = arguments(call["arguments"])
    for arg, value in args.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool) or hasattr(value, "magnitude"):
            return arg, {**args, arg: "no value"}
    return None


@pytest.mark.parametrize("name", REPLAYED)
def test_refused_where_mlsysim_raises(name):
    """Where mlsysim raises for an argument set (a number replaced by a text), ours raises a ValueError or TypeError
    of its own (naming the input); where mlsysim does not raise, there is nothing to hold ours to."""
    spoiled = _spoiled(CALLS[name][0])
    if spoiled is None:
        pytest.skip("no number argument to replace")
    arg, args = spoiled
    try:
        mlsysim_models()[name]().solve(**args)
    except Exception:
        pass
    else:
        pytest.skip(f"mlsysim accepts a text for {arg}")
    with pytest.raises((ValueError, TypeError)) as raised:
        getattr(solvers, name)().solve(**args)
    assert isinstance(raised.value, MlsysimSymbolicError), f"{name}: {type(raised.value).__name__}: {raised.value}"


@pytest.mark.parametrize("text, says", [
    ('[[model]]\nname = "M"\ntype = "T"\nresult = "R"\n', "missing ['arguments']"),
    ('[[model]]\nname = "M"\ntype = "T"\nresult = "R"\narguments = []\nextra = 1\n', "unknown key(s) ['extra']"),
    ('[[model]]\nname = "M"\ntype = "T"\nresult = "R"\narguments = []\n' * 2, "declared twice"),
    ('[[model]\n', "not valid TOML"),
])
def test_a_malformed_table_is_refused_naming_the_file(tmp_path, text, says):
    """read_models refuses a table that is not TOML, an entry with a missing or unknown key, a Model declared twice:
    a DerivationError (a ValueError) naming the file and the Model."""
    from mlsysim_symbolic.errors import DerivationError
    from mlsysim_symbolic.solvers.declared import read_models

    path = tmp_path / "models.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DerivationError) as raised:
        read_models(path)
    assert says in str(raised.value) and str(path) in str(raised.value)


@pytest.mark.parametrize("argument, says", [
    ({"name": "n", "kinds": "cnns"}, "kinds 'cnns' is not one of ['transformers', 'workloads']"),
    ({"name": "n", "defualt": 1}, "unknown key(s) ['defualt']"),
])
def test_a_malformed_argument_is_refused_by_name(argument, says):
    """make_solver refuses an argument with an unknown key or a kinds name with no set, naming the Model."""
    from mlsysim_symbolic.errors import DerivationError
    from mlsysim_symbolic.solvers.declared import make_solver

    with pytest.raises(DerivationError, match="model 'M'") as raised:
        make_solver({"name": "M", "type": "AmdahlScenario", "result": "AmdahlResult", "arguments": [argument]})
    assert says in str(raised.value)


def test_a_declared_model_pickles_and_is_found_by_its_module():
    """A declared Model lives in mlsysim_symbolic.solvers by name: its instances pickle, its class is found there."""
    import importlib
    import pickle

    cls = getattr(solvers, DECLARED[0])
    assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls
    assert type(pickle.loads(pickle.dumps(cls()))) is cls
