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
    'AdaptationPaybackModel': 'taken differently by the type: base: mlsysim passes a dict of input_tokens, output_tokens, steps, input_price, output_price, the type takes its parts as the inputs base_input_tokens, base_output_tokens, base_steps, base_input_price, base_output_price; adapted: mlsysim passes the same dict, the type takes its parts as the inputs adapted_input_tokens, ..., adapted_output_price',
    'AdmissionOrderModel': "taken differently by the type: checks and orders: mlsysim passes a dict check -> (pass probability, time) and a list of orders (check names), the type takes its parts as the inputs first_order_pass, first_order_time, second_order_pass, second_order_time (maps keyed in each of exactly two orders' sequence)",
    'AllocationAxesModel': 'taken differently by the type: decode_per_token: mlsysim passes values, the type reads them from its composed floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time)',
    'ArchitectureChoiceModel': "taken differently by the type: single_costs, single_acceptance, loop_name, turn_cost: mlsysim passes maps over the single-call designs, the loop's name and its per-turn cost, the type takes its parts as the inputs call_cost, acceptance and loop (maps over every design, the loop included, loop = 1 on it)",
    'BaseResolver': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'BatchingOptimizer': "no type of ours has mlsysim's result BatchingOptimizerResult",
    'BlindRetryModel': 'taken differently by the type: calls: mlsysim passes a value, the type computes it as an output (workers x calls_per_worker)',
    'BrakingBlendModel': "no type of ours has mlsysim's result BrakingBlendResult",
    'BrakingCeilingsModel': 'taken differently by the type: mass, deceleration, speed, hub (a hub-drive object), n_wheels, current_limit, drive_load_share, mu_dry, mu_inspected, bus_low: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'CarbonPricedPlacementModel': "taken differently by the type: fleet: mlsysim passes a Fleet object, the type takes hardware (a catalog device), nodes and accelerators_per_node; regions: mlsysim passes grid-profile names whose PUE and carbon intensity it looks up, the type takes region_pue and region_carbon_intensity (maps by region); reference_grid: mlsysim passes a grid profile for EconomicsModel's one-day IT energy of the fleet (to count days), the type computes the fleet's IT power from hardware, nodes, mfu, idle_fraction and dynamic_fraction (no grid)",
    'CheckpointIntervalModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'CheckpointStormModel': 'taken differently by the type: state_bytes: mlsysim passes a value, the type computes it as an output (workload parameters x bytes_per_param)',
    'ChunkReplacementModel': 'taken differently by the type: observation_age, dispatch_to_admission, inference, validation, renewal_period, lease: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform) and site (an EmbodiedSiteScenario)',
    'ChunkedPrefillModel': "taken differently by the type: n_params: mlsysim passes numbers, the type reads them from its catalog workload; sustained_rate: mlsysim passes a value, the type computes it as an output (accelerators_per_node x the accelerator's peak x utilization); weight_read_time: mlsysim passes a value, the type computes it as an output (parameters x weight_bytes_per_param / (accelerators_per_node x bandwidth))",
    'ClearanceQueryModel': 'taken differently by the type: tick_rate, protective_clearance, wcet: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario); slab_volume: mlsysim passes a value, the type computes it as an output (site aisle width x clear distance x slab_height)',
    'ClockConversionModel': 'taken differently by the type: conversion_bound, observation_age: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'CommandAuthenticationModel': 'taken differently by the type: speed, spare, deadline, deadline_after_admission: mlsysim passes values, the type reads them from its composed budget (a TakeoverBudgetScenario)',
    'CommunicationIntensityModel': "taken differently by the type: model: the type's workload; peak_flops: mlsysim passes numbers, the type reads them from its catalog accelerator (a device entry); precision: mlsysim passes a precision name that sets the gradient bytes, the type takes bytes_fp16 (the fp16 bytes per value only)",
    'CompactionCadenceModel': "the type reads turn (a list of turns) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves lengths, alternate_lengths None",
    'CompactionPaybackModel': "the type reads call (a list of call numbers) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves net_by_calls None",
    'ConfidenceRegionModel': 'taken differently by the type: tolerance: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'ConservedBudgetModel': 'taken differently by the type: allocations: mlsysim passes a pair, the type takes its parts as the inputs allocation_first, allocation_second; settled_children: mlsysim passes a pair, the type takes its parts as the inputs settled_first, settled_second',
    'ContextBudgetModel': "the type reads turn (a list of turns) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves append_requests, append_cumulative, select_cumulative None",
    'CorpusDenominatorsModel': 'taken differently by the type: classes: mlsysim passes a dict class -> (records, stored tokens, target tokens), the type takes its parts as the inputs records, stored_per_record, target_per_record (maps by class); focus and admitted: mlsysim passes a class name and a list of names, the type takes focus_weight and admitted_weight (0/1 maps by class)',
    'DeadlinePolicyModel': 'taken differently by the type: decode_per_token: mlsysim passes values, the type reads them from its composed floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time)',
    'DecodeBoundModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'DecoderFamiliesModel': 'taken differently by the type: model, processor, weight_bytes_per_param, input_tokens, bus_efficiency, compute_utilization, horizon, action_dim, renewal_period: mlsysim passes values, the type reads them from its composed backbone (a VlaEvaluationScenario and its machine)',
    'DeficitRoundRobinModel': "taken differently by the type: classes: mlsysim passes a dict class -> {weight, input, output}, the type takes its parts as the inputs weight, input_charge, output_charge (maps); rounds: the type's simulated_rounds",
    'DenseNetworkModel': "the type reads layers, position, layer, flops_per_mac, elementwise_ops, flop_per_op that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves every field None",
    'DetectionShortfallModel': 'taken differently by the type: frame_period, deceleration, mass, delay: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'DriveBusModel': "taken differently by the type: mass, speed, deceleration, step_current, bus_resistance, full, nominal, depleted, lockout, compute_power, converter_efficiency, clamp: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario); capacitance: the type's link_capacitance",
    'DutyCycledPowerModel': 'taken differently by the type: powers, duty_cycles, reference_power: mlsysim passes dicts over any named stages and a reference power, DutyCycledPowerScenario (of the two types with its result) takes one cascade: always_on_power, stage_power, stage_activity, full_power (also the reference), event_rate, full_duration; PeriodicInferencePowerScenario takes a workload on hardware',
    'DynamicReachModel': 'taken differently by the type: speed_ceiling, tracked_horizon, untracked_horizon: mlsysim passes values, the type reads them from its composed cadence (an IntentCadenceScenario)',
    'DynamicWindowModel': 'taken differently by the type: max_acceleration, window, clear_distance, deceleration, drive_limit: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform) and site (an EmbodiedSiteScenario)',
    'EmbodiedPaybackModel': "taken differently by the type: embodied, device_power: mlsysim passes numbers, the type reads them from its catalog device (its embodied carbon and TDP); intensities: the type's grids",
    'EncoderRateModel': 'taken differently by the type: frame_rate, peak: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'EpochGapModel': "taken differently by the type: first_epoch, second_epoch: mlsysim passes the pair's two epochs, the type takes its parts as the inputs epochs (a map by sensor) and pair_weight (+1 and -1 on the pair); committed: mlsysim passes a sequence of terms it subtracts one by one, EpochGapScenario takes their sum (one quantity); SkewedRecordsScenario (the other type with its result) takes a site and a skew",
    'EpochOverheadModel': "taken differently by the type: network, network_batch1: mlsysim passes two DenseNetworkResult objects, the type takes the layers' fan_in, fan_out, has_input_gradient (maps), batch_size, training_examples, bytes_per_value and single_batch; steps: mlsysim passes a value, the type computes it as an output (floor(training_examples / batch_size))",
    'ErrorFeedbackModel': "the type reads steps, step, boundary, half that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves errors None",
    'EstimatorConsistencyModel': 'taken differently by the type: nis_expected: mlsysim passes values, the type reads them from its composed fusion (a RangeFusionScenario)',
    'EvidenceHorizonModel': 'taken differently by the type: tolerance, initial_error, target_speed, chunk_step, chunk_horizon, inference_latency: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario) and machine (a MobileManipulatorPlatform)',
    'ExponentialRareEventModel': "the type reads budget (a scenario) and level_steps (a list) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves levels None",
    'FacilityPowerModel': 'taken differently by the type: it_ratio: mlsysim passes a value, the type computes it as an output ((rack_accelerators x rack_accelerator_power + rack_non_accelerator_power - rack_cooling_allocation_power) / (rack_accelerators x rack_accelerator_power))',
    'FailureIntervalModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'FailureTriageModel': 'taken differently by the type: parameters: mlsysim passes numbers, the type reads them from its catalog workload; peak_rate: mlsysim passes numbers, the type reads them from its catalog hardware',
    'ForwardOccupancyModel': "taken differently by the type: approach_speed, aisle_width, untracked_horizon, tracked_horizon: mlsysim passes values, the type reads them from its composed cadence (an IntentCadenceScenario); forecast_horizon: the type's forecast",
    'FreeSpaceExpiryModel': 'taken differently by the type: depth_ahead, depth_abreast, loc_bound, protective_clearance, approach_speed, observation_age, frame_period, speed, braking, pre_brake_delay: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'FreshnessProfileModel': "taken differently by the type: target_speed, tolerance, initial_error: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario); stages: mlsysim passes a list of (name, p50, p99, max), the type takes its parts as the inputs stage_p50, stage_p99, stage_max (maps by stage); tail_age: the type's system_p999",
    'FrozenTransformModel': 'taken differently by the type: speed, tolerance: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'GearRatioCostModel': 'taken differently by the type: loss_resistance, input_inertia: mlsysim passes values, the type reads them from its composed joint (an ActuatorJoint)',
    'GoodputModel': 'taken differently by the type: ceilings: mlsysim passes a dict keyed S, R, P, the type takes its parts as the inputs scheduling_ceiling, runtime_ceiling, program_ceiling',
    'GraphNeighborhoodModel': "the type reads level (a list of depths) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves nodes_by_depth, tokens_by_depth None",
    'GroupCoefficientsModel': "mlsysim passes rewards as a list; the type's input is a mapping of keys to values",
    'HostIoCpuModel': 'taken differently by the type: request_rate: mlsysim passes a value, the type computes it as an output (devices x requests_per_device)',
    'HostMapSizingModel': 'taken differently by the type: extent: mlsysim passes a sequence of three lengths, the type takes its parts as the inputs extent_x, extent_y, extent_z',
    'HubDriveElectricalModel': 'taken differently by the type: hub (a hub-drive object), current_limit, bus_voltage, brake_onset: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'InertialCoastModel': 'taken differently by the type: gyro_noise_density, gyro_bias, accel_noise_density, accel_bias, target_range, reference: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'IntentCadenceModel': 'taken differently by the type: tolerance, initial_error, slip_acceleration, intent_rate, inference_latency, tick, bus, brake_onset: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario) and machine (a MobileManipulatorPlatform)',
    'IntentLeaseExpiryModel': 'taken differently by the type: untracked_horizon, tracked_horizon, stop_onset, speed_ceiling, velocity_limit, worst_stop_time: mlsysim passes values, the type reads them from its composed cadence (an IntentCadenceScenario)',
    'IrreversibleLossModel': "taken differently by the type: attempt_cost: mlsysim passes a value, the type computes it as an output (model_cost_per_attempt + environment_cost_per_attempt + assessment_cost_per_attempt + approver_review_time x approver_hourly_rate); defect_probability, consequence, catch_rate, revert_fidelity: the type's wrong_change_probability, wrong_change_impact, canary_catch_rate, canary_recovery_fraction",
    'JerkLimitedStopModel': 'taken differently by the type: loc_margin, physical_margin (each optional): mlsysim passes values, the type reads them from its composed optional site (an EmbodiedSiteScenario)',
    'KvBlockSharingModel': 'taken differently by the type: bytes_per_token: mlsysim passes values, the type reads them from its composed pool (a KvAdmissionScenario: bytes per token is its kv_per_token)',
    'KvResidencyArchetypeModel': "taken differently by the type: bytes_per_token: mlsysim passes values, the type reads them from its composed pool (a KvAdmissionScenario: bytes per token is its kv_per_token); n_params: mlsysim passes numbers, the type reads them from its catalog workload; sustained_rate: mlsysim passes a value, the type computes it as an output (accelerators_per_node x the accelerator's peak x utilization); link: mlsysim passes a value, the type computes it as an output (accelerators_per_node x the accelerator's host link)",
    'LeaseBudgetModel': 'taken differently by the type: deceleration, clear_distance, loc_margin, physical_margin, brake_onset, tick, bus, observation_age, admission_age, renewal_period, inference_latency: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario) and its machine',
    'LidarSweepAgeModel': 'taken differently by the type: sector_width, sector_distance, yaw_rate, reference_age: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'ModelCallModel': 'taken differently by the type: prefill_per_token, decode_per_token: mlsysim passes values, the type reads them from its composed floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time)',
    'ModelCascadeModel': "mlsysim passes call_costs (and the other per-model lists) as a list; the type's input is a mapping of keys to values",
    'ObjectStorageBillModel': "mlsysim passes storage_rate per month (USD/GB/month); the type's input is USD/GB (a one-time amount)",
    'ObservationAgeModel': 'taken differently by the type: readout, transport, dma, isp, backbone, dispatch, frame_rate: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'OdometryDriftModel': 'taken differently by the type: bound, speed, segment: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario); path_length: mlsysim passes a value, the type computes it as an output (legs x square_side)',
    'OnsetTrialModel': 'taken differently by the type: onset_bound, speed, resident_stop, travel_bound, stop_time: mlsysim passes values, the type reads them from its composed oracle (a StoppingBudgetScenario)',
    'PagedAllocationModel': 'taken differently by the type: bytes_per_token: mlsysim passes values, the type reads them from its composed pool (a KvAdmissionScenario: bytes per token is its kv_per_token)',
    'PairedComparisonModel': "the type reads tail_count (a list) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves exact_p None",
    'ParallelLayoutModel': "taken differently by the type: model: the type's workload; peak_flops: mlsysim passes numbers, the type reads them from its catalog accelerator at the precision input",
    'ParallelismOptimizer': "no type of ours has mlsysim's result ParallelismOptimizerResult",
    'PausedKvStateModel': 'taken differently by the type: bytes_per_token: mlsysim passes values, the type reads them from its composed pool (a KvAdmissionScenario: bytes per token is its kv_per_token); n_params, sustained_rate, link: mlsysim passes values, the type reads them from its composed prefill (a PrefixRebuildScenario)',
    'PlacementOptimizer': "no type of ours has mlsysim's result PlacementOptimizerResult",
    'PolicyComparisonModel': 'taken differently by the type: baseline: mlsysim passes a dict of confirmed, unresolved, accepted_attacked, accepted_benign, false_block counts, the type takes its parts as the inputs baseline_confirmed, ..., baseline_false_block; candidate: mlsysim passes the same dict, the type takes its parts as the inputs candidate_confirmed, ..., candidate_false_block',
    'PowerTransientModel': 'taken differently by the type: high_power: mlsysim passes numbers, the type reads them from its catalog hardware (its TDP)',
    'PreemptionTaxModel': 'taken differently by the type: recovery: mlsysim passes a recovery profile object, the type takes restart_time, warmup_time and checkpoint_bandwidth',
    'PrefixCacheBillModel': 'taken differently by the type: turns, first_prompt, appended, output_per_turn: mlsysim passes values, the type reads them from its composed trajectory (a TrajectoryResendScenario)',
    'PrefixRebuildModel': 'taken differently by the type: node: mlsysim passes a node object, the type takes accelerator (a catalog device) and accelerators_per_node',
    'ProbeVsAnswerModel': 'taken differently by the type: decode_per_token: mlsysim passes values, the type reads them from its composed floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time)',
    'RailHoldUpModel': 'taken differently by the type: flag_path, speed, deceleration, jerk, engage, holdup: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario) and stop (a StoppingBudgetScenario)',
    'RangeFusionModel': 'taken differently by the type: interval, first_sigma, second_sigma, misdating_bias: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario) and stereo (a StereoDepthErrorScenario) and age (an ObservationAgeScenario)',
    'RaymarchTrafficModel': 'taken differently by the type: bandwidth: mlsysim passes numbers, the type reads them from its catalog soc (its memory bandwidth)',
    'RecoveryBudgetModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'ReferentSetModel': "mlsysim passes scores as a list; the type's input is a mapping of keys to values",
    'RepeatedWorkEnergyModel': "taken differently by the type: device_power: mlsysim passes numbers, the type reads them from its catalog accelerator (its TDP); devices: the type's total_accelerators",
    'ReplayBufferModel': "taken differently by the type: horizon: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario); sample_rate: the type's imu_rate",
    'ResponseTimeModel': 'taken differently by the type: unloaded: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'RetentionCostModel': "mlsysim passes rate per month (USD/TB/month); the type's input is USD/TB (a one-time amount)",
    'RetryAmplificationModel': "the type reads depth (a list of layers) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves by_layer None",
    'RollingShutterSkewModel': 'taken differently by the type: rows, readout, exposure, yaw_rate, target_range, along_allowance, side_clearance: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'RunFootprintModel': "taken differently by the type: device_power, embodied_per_device: mlsysim passes numbers, the type reads them from its catalog device (its rated power and embodied carbon); it_ratio: mlsysim passes a value, the type computes it as an output ((rack_accelerators x rack_accelerator_power + rack_non_accelerator_power - rack_cooling_allocation_power) / (rack_accelerators x rack_accelerator_power)); intensities: the type's grids",
    'RunSplitLeakageModel': 'taken differently by the type: max_attempts: mlsysim passes the bound of its search for the majority count, the type takes search_attempts (the list 1 .. max_attempts)',
    'RuntimeGoodputModel': 'taken differently by the type: mtbf: mlsysim passes a value, the type computes it as an output (from n_devices, devices_per_node, component_mttf, per_node); checkpoint_bytes: mlsysim passes a value, the type computes it as an output (workload parameters x bytes_per_param); recovery: mlsysim passes a recovery profile object, the type takes detection_time, restart_time, warmup_time and checkpoint_bandwidth',
    'SeamBridgeModel': 'taken differently by the type: gear_ratio, rotor_inertia, rated_torque, peak_torque, torque_rate_limit: mlsysim passes values, the type reads them from its composed joint (an ActuatorJoint) and machine (a MobileManipulatorPlatform)',
    'SearchAccountsModel': 'taken differently by the type: decode_per_token: mlsysim passes values, the type reads them from its composed floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time); segments: mlsysim passes a count, the type takes depths (the list 1 .. segments)',
    'SerialEpisodeModel': "mlsysim passes model_intervals as a tuple; the type's input is a mapping of keys to values",
    'SeriesFailureModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'SharedDramReadModel': 'keyword-only or variadic arguments: tile_bytes, camera_bytes, telemetry_bytes, snapshot_bytes, transaction_bytes, bandwidth, bank_switches, bank_switch_time, sense, compute_after_sense, wcet, execution_ceiling',
    'ShoulderSwingModel': 'taken differently by the type: payload, reach, torque_limit, torque_rate_limit: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform)',
    'SpanCriticalPathModel': "no type of ours has mlsysim's result SpanCriticalPathResult: SpanCriticalPathScenario is "
        "not ported (test_ref_agents_e.py says why: each span's wait after the latest end of its predecessors, or "
        "after t0 for none, is a relation maximum with a default; the changed finish is a forward pass over waits that "
        "earliest() cannot take (its weights are inputs, not reductions); changed_critical is a backward argmax "
        "chain of span names)",
    'SpeculativeEpisodeModel': 'taken differently by the type: total_time, decode_fraction: mlsysim passes values, the type reads them from its composed episode (a SerialEpisodeScenario)',
    'SpeedStepModel': 'taken differently by the type: base_speed, raised_speed, deceleration: mlsysim passes values, the type reads them from its composed base and raised (two StoppingBudgetScenarios)',
    'SpillLimitedStopModel': 'taken differently by the type: speed, free_deceleration, free_jerk, delay, clear_distance: mlsysim passes values, the type reads them from its composed free_stop (a JerkLimitedStopScenario)',
    'StaleAnchorModel': "taken differently by the type: lever_arm: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform) (its arm's upper-arm plus forearm length)",
    'StaleTransformModel': 'taken differently by the type: interval: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'StereoDepthErrorModel': 'taken differently by the type: target_range, loc_allowance, side_clearance: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'StoppingBudgetModel': "taken differently by the type: loc_margin: mlsysim passes a value, StoppingBudgetScenario reads it from its composed site (an EmbodiedSiteScenario: site.delta_loc); PackagingCellScenario (the other type with its result) takes a packaging cell's mass, clearance, reserve, exposure, processing, bus and onset instead of delay and the margins",
    'StorageFootprintModel': 'taken differently by the type: parameters: mlsysim passes numbers, the type reads them from its catalog workload',
    'StreamVsStageModel': "mlsysim passes object_rate per month (USD/GB/month); the type's input is USD/GB (a one-time amount)",
    'TakeoverBudgetModel': 'taken differently by the type: delay, deceleration, clear_distance, loc_margin, physical_margin, jerk, tracking_bound, dispatch_to_admission, tick, chunk_lease: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'TensorParallelLayerModel': "taken differently by the type: model: the type's workload; peak_flops: mlsysim passes numbers, the type reads them from its catalog accelerator at the precision input",
    'ThermalThrottleModel': 'keyword-only or variadic arguments: wcet, blocking_and_interference, deadline, tick, nominal_clock, throttled_clock, time_constant, ambient, theta, quiet_power, loaded_power, trip, clear',
    'ThrottledStageModel': 'taken differently by the type: stage_time: mlsysim passes values, the type reads them from its composed site (an EmbodiedSiteScenario)',
    'TieredCheckpointModel': 'taken differently by the type: checkpoint_bytes: mlsysim passes a value, the type computes it as an output (workload parameters x bytes_per_param)',
    'TrainingRunModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'TrainingStateModel': 'mlsysim declares no result class (produces) for it: no result view to bind',
    'TrajectoryBudgetMeterModel': 'taken differently by the type: turns, input_tokens, uncached_tokens, output_tokens: mlsysim passes values, the type reads them from its composed trajectory (a TrajectoryResendScenario); cached_price: mlsysim passes a price, the type takes cached_fraction (a share of input_price); allowances: mlsysim passes a dict keyed turns, tokens, time, dollars, the type takes its parts as the inputs turn_allowance, token_allowance, time_allowance, dollar_allowance',
    'TrajectoryDeadlinesModel': 'taken differently by the type: setpoint_period, horizon, renewal_period, response, stop_time, stop_distance, speed, clear_distance: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform) and site (an EmbodiedSiteScenario) and stop (a JerkLimitedStopScenario)',
    'TrajectoryResendModel': 'taken differently by the type: prefill_per_token, decode_per_token: mlsysim passes values, the type reads them from its composed floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time)',
    'TwoLinkJointRateModel': 'taken differently by the type: upper_arm, forearm, tool_speed: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform)',
    'UndetectedLoopModel': "the type reads turn (a list of turns) that mlsysim derives inside solve from its arguments (the named scenario states them); a solve with mlsysim's arguments alone leaves input_by_turn None",
    'VlaEvaluationModel': "taken differently by the type: bus_efficiency, compute_utilization: mlsysim passes values, the type reads them from its composed machine (a MobileManipulatorPlatform); model: the type's intent_model",
    'WaterUseModel': 'taken differently by the type: it_energy: mlsysim passes a value, the type computes it as an output (it_power x period)',
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
