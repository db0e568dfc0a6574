"""Survey mlsysim 0.3.0's solver Models against our catalog and write the skeleton of ``derivations/models/models.toml``.

Every class of ``mlsysim.engine.solvers`` with a ``solve`` that ``mlsysim_symbolic.solvers`` does not hand-write is
matched to the catalog type whose ``[types.T.result]`` view carries mlsysim's result class name (``produces``).  A
Model is written as a table entry when exactly one type has that result, every ``solve`` argument is an input name
of that type (or a hand-checked rename, :data:`RENAMES`), and every default is data (None, a number, a bool, a text,
a Quantity as magnitude and unit).  Every other Model is printed with the reason it is left out (the test's
``NOT_PORTED``).  The tool imports mlsysim; the package never does.

    python tools/survey_models.py            # writes derivations/models/models.toml, prints the left-out Models
    python tools/survey_models.py --check    # exits 1 if the file differs from what the survey writes
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "derivations" / "models" / "models.toml"
#: Arguments whose mlsysim name is not the input's, checked by hand: (Model, argument) -> input of our type.
RENAMES: dict[tuple[str, str], str] = {
    ("BisectionModel", "n_devices"): "total_accelerators",
    ("CompressionRunModel", "ratio"): "compression_ratio",
    ("GridPlacementModel", "intensities"): "grids",
    ("HorizonCompoundingModel", "target_horizon"): "long_horizon",
    ("IronLawModel", "memory_time"): "memory_time_stated",
    ("IronLawModel", "compute_time"): "compute_time_stated",
    ("OutageCostModel", "job_devices"): "total_accelerators",
    ("KingmanQueueModel", "low"): "low_utilization",
    ("TailLatencyModel", "arrival_rate_qps"): "arrival_rate",        # requests per second, as a plain number
    ("TailLatencyModel", "service_latency_ms"): "service_latency",   # milliseconds, as a plain number
    ("KingmanQueueModel", "high"): "high_utilization",
    ("UtilizationLossModel", "n_devices"): "total_accelerators",
    **{(m, "model"): "workload" for m in ("DataParallelScaleOutModel", "GradientSyncModel", "KvAdmissionModel",
                                          "PrecisionDividendModel", "TensorParallelCommModel", "ZeroShardingModel")},
}
#: Models whose solve arguments are not the quantities their type takes (checked by hand, Model by Model, against
#: mlsysim's solve and the type's inputs): each part names the argument(s), what mlsysim passes and what the type takes
#: instead.  No rename binds them; the type is not bent to them (issue 35).  Four Models whose result two types carry
#: (DutyCycledPower, EpochGap, NetworkRoofline, StoppingBudget) say here why neither type takes their arguments.
_SITE = "site (an EmbodiedSiteScenario)"
_MACHINE = "machine (a MobileManipulatorPlatform)"
_CADENCE = "cadence (an IntentCadenceScenario)"
_FLOORS = "floors (a DecodeScenario: prefill per token is its compute_time, decode per token its memory_time)"
_IT_RATIO = ("(rack_accelerators x rack_accelerator_power + rack_non_accelerator_power - rack_cooling_allocation_power) "
             "/ (rack_accelerators x rack_accelerator_power)")
_POOL = "pool (a KvAdmissionScenario: bytes per token is its kv_per_token)"


def _reads(args: str, *where: str) -> str:
    """mlsysim passes ``args`` as values the type reads from its composed scenario(s) ``where``."""
    return f"{args}: mlsysim passes values, the type reads them from its composed {' and '.join(where)}"


def _output(arg: str, equation: str) -> str:
    """mlsysim passes ``arg``; the type computes it as an output from other inputs."""
    return f"{arg}: mlsysim passes a value, the type computes it as an output ({equation})"


def _split(arg: str, shape: str, inputs: str) -> str:
    """mlsysim passes ``arg`` as one container; the type takes its parts as separate inputs."""
    return f"{arg}: mlsysim passes {shape}, the type takes its parts as the inputs {inputs}"


def _catalog(args: str, where: str) -> str:
    """mlsysim passes numbers the type reads from a catalog entry (a workload or a device)."""
    return f"{args}: mlsysim passes numbers, the type reads them from its catalog {where}"


def _taken(*parts: str) -> str:
    """One Model's reason: its parts, each naming the arguments it is about."""
    return "taken differently by the type: " + "; ".join(parts)


TAKEN_DIFFERENTLY: dict[str, str] = {
    "AdaptationPaybackModel": _taken(
        _split("base", "a dict of input_tokens, output_tokens, steps, input_price, output_price",
               "base_input_tokens, base_output_tokens, base_steps, base_input_price, base_output_price"),
        _split("adapted", "the same dict", "adapted_input_tokens, ..., adapted_output_price")),
    "AdmissionOrderModel": _taken(
        _split("checks and orders", "a dict check -> (pass probability, time) and a list of orders (check names)",
               "first_order_pass, first_order_time, second_order_pass, second_order_time (maps keyed in each of "
               "exactly two orders' sequence)")),
    "AllocationAxesModel": _taken(_reads("decode_per_token", _FLOORS)),
    "ArchitectureChoiceModel": _taken(
        _split("single_costs, single_acceptance, loop_name, turn_cost",
               "maps over the single-call designs, the loop's name and its per-turn cost",
               "call_cost, acceptance and loop (maps over every design, the loop included, loop = 1 on it)")),
    "BlindRetryModel": _taken(_output("calls", "workers x calls_per_worker")),
    "BrakingCeilingsModel": _taken(_reads("mass, deceleration, speed, hub (a hub-drive object), n_wheels, current_limit, "
                                          "drive_load_share, mu_dry, mu_inspected, bus_low", _SITE)),
    "CarbonPricedPlacementModel": _taken(
        "fleet: mlsysim passes a Fleet object, the type takes hardware (a catalog device), nodes and "
        "accelerators_per_node",
        "regions: mlsysim passes grid-profile names whose PUE and carbon intensity it looks up, the type takes "
        "region_pue and region_carbon_intensity (maps by region)",
        "reference_grid: mlsysim passes a grid profile for EconomicsModel's one-day IT energy of the fleet (to count "
        "days), the type computes the fleet's IT power from hardware, nodes, mfu, idle_fraction and dynamic_fraction "
        "(no grid)"),
    "CheckpointStormModel": _taken(_output("state_bytes", "workload parameters x bytes_per_param")),
    "ChunkReplacementModel": _taken(_reads("observation_age, dispatch_to_admission, inference, validation, "
                                           "renewal_period, lease", _MACHINE, _SITE)),
    "ChunkedPrefillModel": _taken(
        _catalog("n_params", "workload"),
        _output("sustained_rate", "accelerators_per_node x the accelerator's peak x utilization"),
        _output("weight_read_time", "parameters x weight_bytes_per_param / (accelerators_per_node x bandwidth)")),
    "ClearanceQueryModel": _taken(
        _reads("tick_rate, protective_clearance, wcet", _SITE),
        _output("slab_volume", "site aisle width x clear distance x slab_height")),
    "ClockConversionModel": _taken(_reads("conversion_bound, observation_age", _SITE)),
    "CommandAuthenticationModel": _taken(
        _reads("speed, spare, deadline, deadline_after_admission", "budget (a TakeoverBudgetScenario)")),
    "CommunicationIntensityModel": _taken(
        "model: the type's workload",
        _catalog("peak_flops", "accelerator (a device entry)"),
        "precision: mlsysim passes a precision name that sets the gradient bytes, the type takes bytes_fp16 (the "
        "fp16 bytes per value only)"),
    "ConfidenceRegionModel": _taken(_reads("tolerance", _SITE)),
    "ConservedBudgetModel": _taken(
        _split("allocations", "a pair", "allocation_first, allocation_second"),
        _split("settled_children", "a pair", "settled_first, settled_second")),
    "CorpusDenominatorsModel": _taken(
        _split("classes", "a dict class -> (records, stored tokens, target tokens)",
               "records, stored_per_record, target_per_record (maps by class)"),
        "focus and admitted: mlsysim passes a class name and a list of names, the type takes focus_weight and "
        "admitted_weight (0/1 maps by class)"),
    "DeadlinePolicyModel": _taken(_reads("decode_per_token", _FLOORS)),
    "DecoderFamiliesModel": _taken(_reads("model, processor, weight_bytes_per_param, input_tokens, bus_efficiency, "
                                          "compute_utilization, horizon, action_dim, renewal_period",
                                          "backbone (a VlaEvaluationScenario and its machine)")),
    "DeficitRoundRobinModel": _taken(
        _split("classes", "a dict class -> {weight, input, output}", "weight, input_charge, output_charge (maps)"),
        "rounds: the type's simulated_rounds"),
    "DetectionShortfallModel": _taken(_reads("frame_period, deceleration, mass, delay", _SITE)),
    "DriveBusModel": _taken(_reads("mass, speed, deceleration, step_current, bus_resistance, full, nominal, depleted, "
                                   "lockout, compute_power, converter_efficiency, clamp", _SITE),
                            "capacitance: the type's link_capacitance"),
    "DynamicReachModel": _taken(_reads("speed_ceiling, tracked_horizon, untracked_horizon", _CADENCE)),
    "DynamicWindowModel": _taken(_reads("max_acceleration, window, clear_distance, deceleration, drive_limit",
                                        _MACHINE, _SITE)),
    "DutyCycledPowerModel": _taken(
        "powers, duty_cycles, reference_power: mlsysim passes dicts over any named stages and a reference power, "
        "DutyCycledPowerScenario (of the two types with its result) takes one cascade: always_on_power, stage_power, "
        "stage_activity, full_power (also the reference), event_rate, full_duration; PeriodicInferencePowerScenario "
        "takes a workload on hardware"),
    "EpochGapModel": _taken(
        _split("first_epoch, second_epoch", "the pair's two epochs",
               "epochs (a map by sensor) and pair_weight (+1 and -1 on the pair)"),
        "committed: mlsysim passes a sequence of terms it subtracts one by one, EpochGapScenario takes their sum "
        "(one quantity); SkewedRecordsScenario (the other type with its result) takes a site and a skew"),
    "EmbodiedPaybackModel": _taken(_catalog("embodied, device_power", "device (its embodied carbon and TDP)"),
                                   "intensities: the type's grids"),
    "EncoderRateModel": _taken(_reads("frame_rate, peak", _SITE)),
    "EpochOverheadModel": _taken(
        "network, network_batch1: mlsysim passes two DenseNetworkResult objects, the type takes the layers' fan_in, "
        "fan_out, has_input_gradient (maps), batch_size, training_examples, bytes_per_value and single_batch",
        _output("steps", "floor(training_examples / batch_size)")),
    "EstimatorConsistencyModel": _taken(_reads("nis_expected", "fusion (a RangeFusionScenario)")),
    "EvidenceHorizonModel": _taken(_reads("tolerance, initial_error, target_speed, chunk_step, chunk_horizon, "
                                          "inference_latency", _SITE, _MACHINE)),
    "FacilityPowerModel": _taken(_output("it_ratio", _IT_RATIO)),
    "FailureTriageModel": _taken(_catalog("parameters", "workload"), _catalog("peak_rate", "hardware")),
    "ForwardOccupancyModel": _taken(_reads("approach_speed, aisle_width, untracked_horizon, tracked_horizon",
                                           _CADENCE), "forecast_horizon: the type's forecast"),
    "FreeSpaceExpiryModel": _taken(_reads("depth_ahead, depth_abreast, loc_bound, protective_clearance, "
                                          "approach_speed, observation_age, frame_period, speed, braking, "
                                          "pre_brake_delay", _SITE)),
    "FreshnessProfileModel": _taken(
        _reads("target_speed, tolerance, initial_error", _SITE),
        _split("stages", "a list of (name, p50, p99, max)", "stage_p50, stage_p99, stage_max (maps by stage)"),
        "tail_age: the type's system_p999"),
    "FrozenTransformModel": _taken(_reads("speed, tolerance", _SITE)),
    "GearRatioCostModel": _taken(_reads("loss_resistance, input_inertia", "joint (an ActuatorJoint)")),
    "GoodputModel": _taken(_split("ceilings", "a dict keyed S, R, P",
                                  "scheduling_ceiling, runtime_ceiling, program_ceiling")),
    "HostIoCpuModel": _taken(_output("request_rate", "devices x requests_per_device")),
    "HostMapSizingModel": _taken(_split("extent", "a sequence of three lengths", "extent_x, extent_y, extent_z")),
    "HubDriveElectricalModel": _taken(_reads("hub (a hub-drive object), current_limit, bus_voltage, brake_onset",
                                             _SITE)),
    "InertialCoastModel": _taken(_reads("gyro_noise_density, gyro_bias, accel_noise_density, accel_bias, "
                                        "target_range, reference", _SITE)),
    "IntentCadenceModel": _taken(_reads("tolerance, initial_error, slip_acceleration, intent_rate, inference_latency, "
                                        "tick, bus, brake_onset", _SITE, _MACHINE)),
    "IntentLeaseExpiryModel": _taken(_reads("untracked_horizon, tracked_horizon, stop_onset, speed_ceiling, "
                                            "velocity_limit, worst_stop_time", _CADENCE)),
    "IrreversibleLossModel": _taken(
        _output("attempt_cost", "model_cost_per_attempt + environment_cost_per_attempt + assessment_cost_per_attempt "
                "+ approver_review_time x approver_hourly_rate"),
        "defect_probability, consequence, catch_rate, revert_fidelity: the type's wrong_change_probability, "
        "wrong_change_impact, canary_catch_rate, canary_recovery_fraction"),
    "JerkLimitedStopModel": _taken(_reads("loc_margin, physical_margin (each optional)", "optional " + _SITE)),
    "KvBlockSharingModel": _taken(_reads("bytes_per_token", _POOL)),
    "KvResidencyArchetypeModel": _taken(
        _reads("bytes_per_token", _POOL), _catalog("n_params", "workload"),
        _output("sustained_rate", "accelerators_per_node x the accelerator's peak x utilization"),
        _output("link", "accelerators_per_node x the accelerator's host link")),
    "LeaseBudgetModel": _taken(_reads("deceleration, clear_distance, loc_margin, physical_margin, brake_onset, tick, "
                                      "bus, observation_age, admission_age, renewal_period, inference_latency",
                                      _SITE + " and its machine")),
    "LidarSweepAgeModel": _taken(_reads("sector_width, sector_distance, yaw_rate, reference_age", _SITE)),
    "ModelCallModel": _taken(_reads("prefill_per_token, decode_per_token", _FLOORS)),
    "ObservationAgeModel": _taken(_reads("readout, transport, dma, isp, backbone, dispatch, frame_rate", _SITE)),
    "OdometryDriftModel": _taken(
        _reads("bound, speed, segment", _SITE), _output("path_length", "legs x square_side")),
    "OnsetTrialModel": _taken(_reads("onset_bound, speed, resident_stop, travel_bound, stop_time",
                                     "oracle (a StoppingBudgetScenario)")),
    "PagedAllocationModel": _taken(_reads("bytes_per_token", _POOL)),
    "ParallelLayoutModel": _taken("model: the type's workload", _catalog("peak_flops", "accelerator at the precision input")),
    "PausedKvStateModel": _taken(_reads("bytes_per_token", _POOL),
                                 _reads("n_params, sustained_rate, link", "prefill (a PrefixRebuildScenario)")),
    "PolicyComparisonModel": _taken(
        _split("baseline", "a dict of confirmed, unresolved, accepted_attacked, accepted_benign, false_block counts",
               "baseline_confirmed, ..., baseline_false_block"),
        _split("candidate", "the same dict", "candidate_confirmed, ..., candidate_false_block")),
    "PowerTransientModel": _taken(_catalog("high_power", "hardware (its TDP)")),
    "PreemptionTaxModel": _taken(
        "recovery: mlsysim passes a recovery profile object, the type takes restart_time, warmup_time and "
        "checkpoint_bandwidth"),
    "PrefixCacheBillModel": _taken(_reads("turns, first_prompt, appended, output_per_turn",
                                          "trajectory (a TrajectoryResendScenario)")),
    "PrefixRebuildModel": _taken("node: mlsysim passes a node object, the type takes accelerator (a catalog device) "
                                 "and accelerators_per_node"),
    "ProbeVsAnswerModel": _taken(_reads("decode_per_token", _FLOORS)),
    "RailHoldUpModel": _taken(_reads("flag_path, speed, deceleration, jerk, engage, holdup", _SITE,
                                     "stop (a StoppingBudgetScenario)")),
    "RangeFusionModel": _taken(_reads("interval, first_sigma, second_sigma, misdating_bias", _SITE,
                                      "stereo (a StereoDepthErrorScenario)", "age (an ObservationAgeScenario)")),
    "RaymarchTrafficModel": _taken(_catalog("bandwidth", "soc (its memory bandwidth)")),
    "RepeatedWorkEnergyModel": _taken(_catalog("device_power", "accelerator (its TDP)"),
                                      "devices: the type's total_accelerators"),
    "ReplayBufferModel": _taken(_reads("horizon", _SITE), "sample_rate: the type's imu_rate"),
    "ResponseTimeModel": _taken(_reads("unloaded", _SITE)),
    "RollingShutterSkewModel": _taken(_reads("rows, readout, exposure, yaw_rate, target_range, along_allowance, "
                                             "side_clearance", _SITE)),
    "RunFootprintModel": _taken(
        _catalog("device_power, embodied_per_device", "device (its rated power and embodied carbon)"),
        _output("it_ratio", _IT_RATIO),
        "intensities: the type's grids"),
    "RunSplitLeakageModel": _taken(
        "max_attempts: mlsysim passes the bound of its search for the majority count, the type takes "
        "search_attempts (the list 1 .. max_attempts)"),
    "RuntimeGoodputModel": _taken(
        _output("mtbf", "from n_devices, devices_per_node, component_mttf, per_node"),
        _output("checkpoint_bytes", "workload parameters x bytes_per_param"),
        "recovery: mlsysim passes a recovery profile object, the type takes detection_time, restart_time, "
        "warmup_time and checkpoint_bandwidth"),
    "SeamBridgeModel": _taken(_reads("gear_ratio, rotor_inertia, rated_torque, peak_torque, torque_rate_limit",
                                     "joint (an ActuatorJoint)", _MACHINE)),
    "SearchAccountsModel": _taken(_reads("decode_per_token", _FLOORS),
                                  "segments: mlsysim passes a count, the type takes depths (the list 1 .. segments)"),
    "ShoulderSwingModel": _taken(_reads("payload, reach, torque_limit, torque_rate_limit", _MACHINE)),
    "SpeculativeEpisodeModel": _taken(_reads("total_time, decode_fraction", "episode (a SerialEpisodeScenario)")),
    "SpeedStepModel": _taken(_reads("base_speed, raised_speed, deceleration",
                                    "base and raised (two StoppingBudgetScenarios)")),
    "SpillLimitedStopModel": _taken(_reads("speed, free_deceleration, free_jerk, delay, clear_distance",
                                           "free_stop (a JerkLimitedStopScenario)")),
    "StaleAnchorModel": _taken(_reads("lever_arm", _MACHINE + " (its arm's upper-arm plus forearm length)")),
    "StaleTransformModel": _taken(_reads("interval", _SITE)),
    "StereoDepthErrorModel": _taken(_reads("target_range, loc_allowance, side_clearance", _SITE)),
    "StorageFootprintModel": _taken(_catalog("parameters", "workload")),
    "StoppingBudgetModel": _taken(
        "loc_margin: mlsysim passes a value, StoppingBudgetScenario reads it from its composed site (an "
        "EmbodiedSiteScenario: site.delta_loc)",
        "PackagingCellScenario (the other type with its result) takes a packaging cell's mass, clearance, reserve, "
        "exposure, processing, bus and onset instead of delay and the margins"),
    "TakeoverBudgetModel": _taken(_reads("delay, deceleration, clear_distance, loc_margin, physical_margin, jerk, "
                                         "tracking_bound, dispatch_to_admission, tick, chunk_lease", _SITE)),
    "TensorParallelLayerModel": _taken("model: the type's workload",
                                       _catalog("peak_flops", "accelerator at the precision input")),
    "ThrottledStageModel": _taken(_reads("stage_time", _SITE)),
    "TieredCheckpointModel": _taken(_output("checkpoint_bytes", "workload parameters x bytes_per_param")),
    "TrajectoryBudgetMeterModel": _taken(
        _reads("turns, input_tokens, uncached_tokens, output_tokens", "trajectory (a TrajectoryResendScenario)"),
        "cached_price: mlsysim passes a price, the type takes cached_fraction (a share of input_price)",
        _split("allowances", "a dict keyed turns, tokens, time, dollars",
               "turn_allowance, token_allowance, time_allowance, dollar_allowance")),
    "TrajectoryDeadlinesModel": _taken(_reads("setpoint_period, horizon, renewal_period, response, stop_time, "
                                              "stop_distance, speed, clear_distance", _MACHINE, _SITE,
                                              "stop (a JerkLimitedStopScenario)")),
    "TrajectoryResendModel": _taken(_reads("prefill_per_token, decode_per_token", _FLOORS)),
    "TwoLinkJointRateModel": _taken(_reads("upper_arm, forearm, tool_speed", _MACHINE)),
    "VlaEvaluationModel": _taken(_reads("bus_efficiency, compute_utilization", _MACHINE),
                                 "model: the type's intent_model"),
    "WaterUseModel": _taken(_output("it_energy", "it_power x period")),
}
#: Models whose type cannot take mlsysim's arguments as they are, found by replaying mlsysim's recorded calls
#: (tests/reference/test_ref_solver_models.py) and checked by hand: Model -> reason (the type is not bent to them).
_DERIVED = "the type reads {inputs} that mlsysim derives inside solve from its arguments (the named scenario states " \
           "them); a solve with mlsysim's arguments alone leaves {fields} None"
_MAPPING = "mlsysim passes {arg} as a {shape}; the type's input is a mapping of keys to values"
_PER_TIME = "mlsysim passes {arg} per month ({unit}); the type's input is {ours} (a one-time amount)"
NOT_TAKEN: dict[str, str] = {
    "CompactionPaybackModel": _DERIVED.format(inputs="call (a list of call numbers)", fields="net_by_calls"),
    "DenseNetworkModel": _DERIVED.format(inputs="layers, position, layer, flops_per_mac, elementwise_ops, flop_per_op",
                                         fields="every field"),
    "PairedComparisonModel": _DERIVED.format(inputs="tail_count (a list)", fields="exact_p"),
    "ExponentialRareEventModel": _DERIVED.format(inputs="budget (a scenario) and level_steps (a list)", fields="levels"),
    "CompactionCadenceModel": _DERIVED.format(inputs="turn (a list of turns)", fields="lengths, alternate_lengths"),
    "ContextBudgetModel": _DERIVED.format(inputs="turn (a list of turns)",
                                          fields="append_requests, append_cumulative, select_cumulative"),
    "ErrorFeedbackModel": _DERIVED.format(inputs="steps, step, boundary, half", fields="errors"),
    "GraphNeighborhoodModel": _DERIVED.format(inputs="level (a list of depths)", fields="nodes_by_depth, tokens_by_depth"),
    "RetryAmplificationModel": _DERIVED.format(inputs="depth (a list of layers)", fields="by_layer"),
    "UndetectedLoopModel": _DERIVED.format(inputs="turn (a list of turns)", fields="input_by_turn"),
    "GroupCoefficientsModel": _MAPPING.format(arg="rewards", shape="list"),
    "ModelCascadeModel": _MAPPING.format(arg="call_costs (and the other per-model lists)", shape="list"),
    "ReferentSetModel": _MAPPING.format(arg="scores", shape="list"),
    "SerialEpisodeModel": _MAPPING.format(arg="model_intervals", shape="tuple"),
    "ObjectStorageBillModel": _PER_TIME.format(arg="storage_rate", unit="USD/GB/month", ours="USD/GB"),
    "RetentionCostModel": _PER_TIME.format(arg="rate", unit="USD/TB/month", ours="USD/TB"),
    "StreamVsStageModel": _PER_TIME.format(arg="object_rate", unit="USD/GB/month", ours="USD/GB"),
    "ZeroShardingModel": "mlsysim passes activations as a Quantity of bytes; the type's input is an "
                         "ActivationMemoryScenario (a scenario that computes them)",
    **TAKEN_DIFFERENTLY,
}
#: Kinds of workload, by the table's name for them (the names ``declared.KIND_SETS`` resolves).
KIND_NAMES = {("TransformerWorkload", "SparseTransformerWorkload"): "transformers"}


def mlsysim_models() -> dict[str, type]:
    """mlsysim's classes with their own ``solve`` in ``mlsysim.engine.solvers``, by name."""
    import mlsysim.engine.solvers as solvers

    return {n: c for n in sorted(dir(solvers)) if inspect.isclass(c := getattr(solvers, n)) and "solve" in vars(c)}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"not TOML data: {value!r}")


def argument_entry(param: inspect.Parameter, to: str | None, kinds: str | tuple[str, ...] | None) -> dict[str, Any]:
    """One argument as table data; raises ``TypeError`` for a default that is not data."""
    entry: dict[str, Any] = {"name": param.name}
    default = param.default
    if default is param.empty:
        pass
    elif default is None:
        entry["default_none"] = True
    elif isinstance(default, (bool, int, float, str)):
        entry["default"] = default
    elif type(default) is tuple and all(isinstance(v, (bool, int, float, str)) for v in default):
        entry["default"] = list(default)
        entry["tuple"] = True
    elif hasattr(default, "magnitude") and hasattr(default, "units"):
        entry["default"] = default.magnitude
        entry["unit"] = format(default.units, "D")
    else:
        raise TypeError(f"{param.name}: default {type(default).__name__}")
    if to is not None:
        entry["to"] = to
    if kinds is not None:
        entry["kinds"] = kinds if isinstance(kinds, str) else list(kinds)
    return entry


def survey() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(table entries, left-out Model -> reason)."""
    from mlsysim_symbolic import solvers as ours
    from mlsysim_symbolic.catalog import catalog
    from mlsysim_symbolic.solvers.workload_kinds import WORKLOADS
    from mlsysim_symbolic.spec.kinds import WorkloadKind, kind_of

    types = catalog().types
    by_result: dict[str, list[str]] = {}
    for tname, stype in types.items():
        if stype.result is not None:
            by_result.setdefault(stype.result.name, []).append(tname)
    entries, left = [], {}
    for name, cls in mlsysim_models().items():
        if name in ours.__all__:
            continue
        if name in NOT_TAKEN:
            left[name] = NOT_TAKEN[name]
            continue
        produces = getattr(getattr(cls, "produces", None), "__name__", None)
        found = by_result.get(produces or "", [])
        if produces is None:
            left[name] = "mlsysim declares no result class (produces) for it: no result view to bind"
            continue
        params = list(inspect.signature(cls.solve).parameters.values())[1:]
        if len(found) > 1:   # the one type whose inputs take every argument, if exactly one does
            found = [t for t in found if all(RENAMES.get((name, p.name), p.name) in types[t].inputs for p in params)] or found
        if len(found) != 1:
            left[name] = (f"no type of ours has mlsysim's result {produces}" if not found
                          else f"{len(found)} types have the result {produces}: {', '.join(sorted(found))}")
            continue
        stype = types[found[0]]
        odd = [p.name for p in params if p.kind is not p.POSITIONAL_OR_KEYWORD]
        if odd:
            left[name] = f"keyword-only or variadic arguments: {', '.join(odd)}"
            continue
        missing = [p.name for p in params if RENAMES.get((name, p.name), p.name) not in stype.inputs]
        if missing:
            left[name] = f"arguments that are no input of {found[0]}: {', '.join(missing)}"
            continue
        args = []
        try:
            for p in params:
                to = RENAMES.get((name, p.name))
                spec = stype.inputs[to or p.name]
                kinds = None
                if type(kind_of(spec)) is WorkloadKind:
                    declared = tuple(spec.kinds) or WORKLOADS
                    kinds = "workloads" if declared == WORKLOADS else KIND_NAMES.get(declared, declared)
                args.append(argument_entry(p, to, kinds))
        except TypeError as exc:
            left[name] = f"a default that is an object: {exc}"
            continue
        entries.append({"name": name, "type": found[0], "result": produces, "arguments": args})
    return entries, left


def render(entries: list[dict[str, Any]]) -> str:
    """The table's text (one ``[[model]]`` per entry, its arguments one a line)."""
    lines = ["# mlsysim 0.3.0's solver Models as data: one entry per Model (tools/survey_models.py writes the skeleton from",
             "# mlsysim's signatures; each entry checked by hand).  type: the catalog type one solve binds; result: mlsysim's",
             "# result class (the type's result view); arguments: mlsysim's solve arguments in its order with its defaults",
             "# (no default: required; default_none: None; unit: a Quantity default's unit; to: the input it binds when",
             "# the name differs; kinds: the workload classes it takes, or a name of declared.KIND_SETS).", ""]
    for e in entries:
        lines += ["[[model]]", f"name = {_toml(e['name'])}", f"type = {_toml(e['type'])}", f"result = {_toml(e['result'])}",
                  "arguments = ["]
        for a in e["arguments"]:
            lines.append("    { " + ", ".join(f"{k} = {_toml(v)}" for k, v in a.items()) + " },")
        lines += ["]", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    args = parser.parse_args(argv)
    entries, left = survey()
    text = render(entries)
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("models.toml is the survey's" if same else "models.toml differs from the survey")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(entries)} Models; left out {len(left)}:")
    for name, why in sorted(left.items()):
        print(f"    {name!r}: {why!r},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
