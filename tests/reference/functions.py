"""mlsysim 0.3.0's function face (issue 36): every ``calc_*`` formula by the module that defines it.

Read from ``inspect.getmembers(mlsysim)`` (368 ``calc_*`` names at the package top level, each defined in a module of
``mlsysim.physics``); kept here as data so the coverage test runs from a clean checkout and a name mlsysim adds or
drops is noticed.  Families are listed in porting order (communication, memory, serving, training first).
"""

from __future__ import annotations

#: mlsysim module (under ``mlsysim.physics``) -> its ``calc_*`` functions, in name order.
FAMILIES: dict[str, tuple[str, ...]] = {
    "communication": (
        "calc_all_to_all_time", "calc_alpha_beta_crossover", "calc_bisection_bandwidth",
        "calc_double_binary_tree_allreduce_time", "calc_fat_tree_hosts", "calc_fat_tree_path_switches",
        "calc_fat_tree_switches", "calc_hierarchical_allreduce_time", "calc_hop_latency",
        "calc_oversubscription_effect", "calc_point_to_point_time", "calc_ring_allreduce_data_factor",
        "calc_ring_allreduce_latency_steps", "calc_ring_allreduce_latency_time", "calc_ring_allreduce_time",
        "calc_ring_attention_min_chunk", "calc_ring_collective_data_factor", "calc_ring_tree_crossover_size",
        "calc_torus_bisection_links", "calc_torus_diameter", "calc_tree_allreduce_time",
    ),
    "memory": (
        "calc_activation_memory", "calc_capped_exponential_scale", "calc_checkpoint_memory_units",
        "calc_checkpoint_size", "calc_csr_bytes", "calc_decoder_matmul_weights", "calc_expected_paged_kv_tokens",
        "calc_kv_attention_design", "calc_kv_block_count", "calc_kv_cache_size", "calc_kv_resident_fit",
        "calc_low_rank_update_params", "calc_mla_cache_size", "calc_paged_kv_cache_size",
        "calc_residual_adapter_params", "calc_shared_prefix_fit", "calc_sharing_gain_limit",
        "calc_sparse_breakeven_zero_share", "calc_sparse_bytes_per_nonzero", "calc_update_step_traffic",
    ),
    "serving": (
        "calc_batch_formation_wait", "calc_batch_knee", "calc_batch_throughput_share",
        "calc_exponential_quantile_factor", "calc_kingman_wait_ratio", "calc_littles_law_occupancy",
        "calc_littles_law_rate", "calc_mg1_wait_ratio", "calc_mm1_max_utilization", "calc_mm1_time_in_system",
        "calc_padding_waste_fraction", "calc_queue_latency_mmc", "calc_residency_factor",
        "calc_speculative_expected_tokens", "calc_speculative_round_speedup",
    ),
    "transformer": (
        "calc_attention_crossover", "calc_attention_score_macs", "calc_online_softmax", "calc_score_matrix_intensity",
        "calc_transformer_block_weights", "calc_transformer_decode_flops", "calc_transformer_prefill_flops",
        "calc_transformer_training_flops", "calc_vla_inference_latency", "calc_weight_only_step_time",
    ),
    "performance": (
        "calc_amdahls_speedup", "calc_bottleneck", "calc_effective_flops", "calc_pareto_frontier",
        "calc_partial_slowdown_stretch", "calc_pipeline_bubble", "calc_stall_share_breakeven",
        "calc_strong_scaling_speedup", "calc_training_time", "calc_universal_scalability_law",
        "calc_usl_optimal_concurrency",
    ),
    "scaling": (
        "calc_allocation_growth", "calc_compute_optimal_allocation", "calc_halving_multiple",
        "calc_loss_reduction_compute_multiple", "calc_power_law_factor",
    ),
    "economics": (
        "calc_detection_delay_loss", "calc_fleet_tco", "calc_monthly_egress_cost", "calc_optimal_retraining_interval",
        "calc_ownership_breakeven_utilization", "calc_payback_period", "calc_rent_crossover",
        "calc_retraining_cost_rate", "calc_skew_cost", "calc_staleness_slope",
    ),
    "reliability": (
        "calc_all_up_availability", "calc_availability_stacked", "calc_checkpoint_stride", "calc_checkpoint_waste",
        "calc_downtime", "calc_error_budget_spent", "calc_failure_probability", "calc_group_commit_waits",
        "calc_mtbf_cluster", "calc_mtbf_node", "calc_probe_detection_window", "calc_snapshot_write_volume",
        "calc_step_event_probability", "calc_stride_overhead", "calc_young_daly_interval",
    ),
    "power": (
        "calc_inductive_droop", "calc_rail_current_step",
    ),
    "thermal": (
        "calc_coolant_mass_flow",
    ),
    "networking": (
        "calc_network_latency_ms",
    ),
    "fine_tuning": (
        "calc_example_average_share", "calc_first_fit_decreasing", "calc_preference_pair", "calc_token_average_shares",
    ),
    "layers": (
        "calc_gradient_product", "calc_layers_for_receptive_field", "calc_receptive_field",
        "calc_resnet_bottleneck_macs", "calc_separable_cost_fraction",
    ),
    "neural": (
        "calc_cross_entropy", "calc_dense_backward_flops", "calc_dense_biases", "calc_dense_forward_flops",
        "calc_dense_inference_activations", "calc_dense_macs", "calc_dense_params", "calc_dense_saved_activations",
        "calc_dense_traffic_values", "calc_dense_weights", "calc_relu", "calc_sigmoid", "calc_sigmoid_slope",
        "calc_training_state", "calc_training_step_ops",
    ),
    "numerics": (
        "calc_accumulator_headroom", "calc_affine_scale", "calc_block_bits_per_weight", "calc_dequantize",
        "calc_float32_bit_flip", "calc_float_decimal_digits", "calc_float_range", "calc_float_round",
        "calc_float_spacing", "calc_float_values", "calc_int_levels", "calc_int_max", "calc_quantize",
        "calc_repeated_add", "calc_symmetric_scale", "calc_zero_point",
    ),
    "context": (
        "calc_compaction_cycle", "calc_equivalent_key_count", "calc_observation_budget", "calc_softmax_target_weight",
        "calc_turns_that_fit", "calc_zoned_prefill_tokens",
    ),
    "retrieval": (
        "calc_bandwidth_fit_through_origin", "calc_bm25_idf", "calc_bm25_length_normalizer", "calc_bm25_term_score",
        "calc_full_tree_nodes", "calc_interface_bandwidth", "calc_lsh_candidate_probability", "calc_lsh_threshold",
        "calc_minhash_standard_error", "calc_records_that_fit", "calc_vectors_in_budget", "calc_word_overlap",
    ),
    "tool_calls": (
        "calc_blind_retry_duplicate_probability", "calc_bulkhead_admission", "calc_integration_adapters",
        "calc_jitter_expected_arrivals", "calc_layered_retry_attempts", "calc_pending_polls",
        "calc_selection_break_even", "calc_timeout_probability",
    ),
    "agents": (
        "calc_append_only_context", "calc_bounded_liability", "calc_break_even_acceptance",
        "calc_cleanup_critical_path", "calc_cost_per_accepted", "calc_cost_per_rejection", "calc_drr_calls_per_round",
        "calc_expected_irreversible_loss", "calc_expected_max_std_normal", "calc_first_horizon_below",
        "calc_independent_success", "calc_injection_exposure", "calc_injection_read_budget",
        "calc_kv_cache_bytes_per_token", "calc_mixed_outcome_fraction", "calc_nucleus", "calc_pass_at_k_unbiased",
        "calc_pass_posterior", "calc_pass_pow_k_unbiased", "calc_pruned_tree_nodes", "calc_repair_break_even",
        "calc_repair_first_expected_cost", "calc_reused_prefix_prompt_tokens", "calc_setup_share",
        "calc_short_circuit_cost", "calc_split_straddle", "calc_step_error_for_target", "calc_tempered_softmax",
        "calc_unchecked_success", "calc_used_fraction", "calc_work_for_setup_cap",
    ),
    "coordination": (
        "calc_beta_binomial_pmf", "calc_beta_mixture_shape", "calc_beta_tail", "calc_binomial_tail",
        "calc_disjoint_writes", "calc_disjoint_writes_approx", "calc_earliest_schedule", "calc_full_mesh_deliveries",
        "calc_partition_elapsed", "calc_supervisor_deliveries",
    ),
    "privacy": (
        "calc_basic_composition", "calc_laplace_scale", "calc_level_bits", "calc_membership_tpr_ceiling",
    ),
    "fairness": (
        "calc_cycles_to_gate", "calc_feedback_disparity", "calc_fpr_from_ppv", "calc_gap_samples_per_group",
    ),
    "statistics": (
        "calc_arcsine_two_arm_sample_size", "calc_behavior_cloning_cost_bound", "calc_cdf_quantile",
        "calc_chance_agreement", "calc_chi2_gate", "calc_chi2_mean_band", "calc_clopper_pearson_interval",
        "calc_cohens_h", "calc_cohens_kappa", "calc_conjunctive_confidence", "calc_consecutive_detection_frames",
        "calc_cross_entropy_exponential_proposal", "calc_dagger_cost_bound", "calc_effective_sample_size",
        "calc_equal_n_for_z", "calc_expected_calibration_error", "calc_exponential_decay_rate",
        "calc_fisher_exact_two_sided", "calc_gaussian_kl", "calc_gaussian_kl_terms",
        "calc_importance_sampling_exponential", "calc_jensen_shannon_divergence", "calc_ks_coefficient",
        "calc_ks_critical_value", "calc_ks_normal_location_shift", "calc_linf_corner_l2",
        "calc_mcnemar_exact_two_sided", "calc_mcnemar_max_discordant", "calc_mean_half_width",
        "calc_monte_carlo_sample_size", "calc_multilegged_confidence", "calc_newcombe_paired_difference",
        "calc_noncentral_gate_detection", "calc_one_proportion_sample_size", "calc_optimal_exponential_proposal_mean",
        "calc_paired_difference_variance", "calc_poisson_exact_interval", "calc_poisson_mean_for_reserve",
        "calc_poisson_reserve", "calc_poisson_tail", "calc_population_stability_index", "calc_proportion_gap_interval",
        "calc_proportion_gap_se", "calc_proportion_half_width", "calc_sample_collection_time",
        "calc_samples_for_half_width", "calc_samples_per_arm_for_difference", "calc_smoothing_radius",
        "calc_spearman_rank_correlation", "calc_split_conformal_rank", "calc_sprt_boundaries",
        "calc_sprt_expected_samples", "calc_sprt_increments", "calc_standard_error", "calc_t_critical",
        "calc_task_averaged_variance", "calc_two_proportion_detectable_lift", "calc_two_proportion_sample_size",
        "calc_two_proportion_z", "calc_wald_interval", "calc_welch_interval", "calc_wilson_clean_runs",
        "calc_wilson_interval", "calc_within_task_variance",
    ),
    "drivetrain": (
        "calc_braking_limits", "calc_drive_torque_deceleration_limit", "calc_drive_voltage_headroom",
        "calc_max_cg_height_ratio", "calc_required_friction", "calc_tipover_deceleration_limit",
        "calc_traction_deceleration_limit",
    ),
    "motors": (
        "calc_contact_force_rate", "calc_copper_resistance_factor", "calc_first_order_temperature",
        "calc_first_order_time_to_temperature", "calc_inertia_matched_ratio", "calc_peak_normalized_response",
        "calc_periodic_burst_peak_rise", "calc_voltage_limited_speed",
    ),
    "robotics.perception": (
        "calc_3dgs_memory_footprint", "calc_free_space_expiry", "calc_linear_invalidation_horizon", "calc_octree_depth",
        "calc_spatial_information_age_displacement", "calc_sphere_scan_cells", "calc_target_evidence_horizon",
        "calc_teleop_ingestion_budget", "calc_tracked_evidence_horizon", "calc_tsdf_voxel_grid_budget",
        "calc_voxel_quantization_error",
    ),
    "robotics.control": (
        "calc_action_chunk_streaming_amortization", "calc_axi_fifo_contention", "calc_canfd_bus_utilization",
        "calc_canfd_frame_bits", "calc_cbf_qp_orthogonal_projection", "calc_chunk_renewal_schedule",
        "calc_ethercat_cycle_time", "calc_phase_lag_total", "calc_response_time_bound",
        "calc_temporal_ensemble_weights", "calc_watchdog_lease_bound",
    ),
    "robotics.actuation": (
        "calc_alpha_power_gate_delay_stretch", "calc_coasting_contact_peak_force", "calc_contact_force",
        "calc_contact_yield_deadline", "calc_inductive_voltage_droop", "calc_inverted_pendulum_fall_time",
        "calc_kinetic_energy", "calc_passive_compliance_stiffness_bound", "calc_quasistatic_spill_acceleration",
        "calc_quintic_blend_duration", "calc_reduced_mass", "calc_reflected_inertia",
        "calc_seam_acceleration_torque_jump", "calc_transient_contact_speed_limit", "calc_transient_impact_force",
        "calc_tripwire_contact_force_accumulation", "calc_voltage_droop",
    ),
    "robotics.estimation": (
        "calc_belief_error_bound", "calc_inertial_coast_errors", "calc_quadratic_invalidation_horizon",
        "calc_scalar_kalman_update",
    ),
    "robotics.stopping": (
        "calc_braking_time", "calc_c2_stop_suffix", "calc_latch_contact_stopping_profile",
        "calc_max_permitted_velocity", "calc_safe_stopping_distance", "calc_scurve_max_permitted_velocity",
        "calc_scurve_rest_to_rest_time", "calc_scurve_stop_distance", "calc_scurve_stop_time",
        "calc_stopping_crossover_speed", "calc_travel_between_speeds",
    ),
    "robotics.assurance": (
        "calc_clopper_pearson_lower_bound", "calc_clopper_pearson_zero_failure_bound",
        "calc_empirical_testing_exposure", "calc_rule_of_three_bound", "calc_rule_of_three_trials",
        "calc_shielded_system_hazard_rate", "calc_zero_failure_mission_count", "calc_zero_failure_rate_upper_bound",
        "calc_zero_failure_sample_size",
    ),
}
