"""The catalog waves: every mlsysim 0.3.0 scenario class of each wave's domains (issues 15-18).

Read from ``mlsysim-classes-by-domain.md`` (the survey of mlsysim 0.3.0's 575 classes that maps the waves);
kept here as data so the coverage test runs from a clean checkout.
"""

from __future__ import annotations

DOMAINS: dict[str, tuple[str, ...]] = {
    "training_memory": (
        "ActivationMemoryScenario", "AlignmentMemoryScenario", "LowRankUpdateScenario", "MaterializedScoresScenario",
        "PerExampleGradientScenario", "ResidualAdapterScenario", "SelfContainedReplicaScenario",
        "TrainingStateFitScenario", "TrainingStateScenario", "UpdateWorkingSetScenario", "ZeroShardingScenario",
    ),
    "training_compute": (
        "AllocationGrowthScenario", "ClusterTrainingTimeScenario", "EpochOverheadScenario", "FleetMfuScenario",
        "MlpTrainingStepScenario", "PowerLawScenario", "PretrainingAmortizationScenario", "PublishedRunScenario",
        "SustainedThroughputScenario", "TrainingRunScenario",
    ),
    "distributed_comm": (
        "AllReduceScheduleScenario", "AllToAllDispatchScenario", "AlphaBetaScenario", "BandwidthDelayScenario",
        "CompressionPaybackScenario", "CompressionRunScenario", "DataParallelIntensityScenario",
        "DataParallelScaleOutScenario", "ErrorFeedbackScenario", "FatTreeScenario", "FederatedUplinkScenario",
        "GradientSyncScenario", "HierarchicalAllReduceScenario", "HopPathScenario", "IncastScenario",
        "LinkBuildoutScenario", "MessageFusionScenario", "NicSharingScenario", "OverlapBudgetScenario",
        "OversubscriptionScenario", "ParallelLayoutScenario", "PipelineScheduleScenario", "ResidualShareScenario",
        "RingAttentionScenario", "RingTraceScenario", "ScalingOverheadScenario", "SilentSlowdownScenario",
        "SlowdownDiagnosisScenario", "StrongScalingPairScenario", "SyncStrategyScenario",
        "TensorParallelLayerScenario", "TensorParallelScenario", "TensorParallelSpeedupScenario", "TorusScenario",
        "TransferScenario",
    ),
    "hardware_arch_kernels": (
        "AcceleratedFractionScenario", "AcceleratorGenerationsScenario", "AcceleratorPodScenario",
        "ActivationLogicCostScenario", "AmdahlScenario", "AttentionTilingScenario", "CompilationPaybackScenario",
        "CompileBreakevenScenario", "ConvBnReluFusionScenario", "ConvLayerScenario", "CrossEntropyScenario",
        "DenseLayerScenario", "DenseNetworkScenario", "DenseScalingSweepScenario", "EfficiencyClaimGapScenario",
        "ElementwiseIntensityScenario", "ElementwiseOpScenario", "EmbeddingTableScenario",
        "FrameRateHeadroomScenario", "GradientChainScenario", "GrowthGapScenario", "HostDispatchScenario",
        "IronLawScenario", "JacobianScenario", "KernelFusionScenario", "KernelShareScenario", "LayerStackScenario",
        "MatmulTileScenario", "MemoryRoundTripScenario", "OperationEnergyComparisonScenario",
        "PackedQkvProjectionScenario", "ParadigmCostScenario", "ParameterBandwidthGrowthScenario",
        "PeakRatioRangeScenario", "PipelineSpeedupScenario", "QuantizationGridScenario", "RecurrentStepScenario",
        "RooflinePointScenario", "SystolicReuseEnergyScenario", "TransformerBlockScenario",
    ),
    "serving_inference": (
        "BatchCapChoiceScenario", "BatchDispatchScenario", "BatchWindowScenario", "BatchingKneeScenario",
        "ChunkedPrefillScenario", "ColdStartScenario", "ContextGrowthScenario", "ContextMemoryCrossingScenario",
        "DecodeBudgetScenario", "DecodeScenario", "EmbeddingGatherScenario", "ExpertWeightTrafficScenario",
        "FixedBatchScheduleScenario", "FrameCompressionScenario", "HostAcceleratorBoardScenario",
        "KvAdmissionScenario", "KvAttentionDesignScenario", "KvBlockSharingScenario", "KvDecodeBatchScenario",
        "KvFootprintScenario", "KvForkCopyScenario", "KvResidencyArchetypeScenario", "LittlesLawScenario",
        "MM1CapacityPlanScenario", "MM1ServiceSpeedupScenario", "MeanVersusTailScenario", "NoisyNeighborScenario",
        "OffloadDeadlineScenario", "PagedAllocationScenario", "PausedKvStateScenario", "PrecisionDividendScenario",
        "PrecomputeVersusOnDemandScenario", "PrefixRebuildScenario", "PrefixSharingScenario", "PropagationScenario",
        "QuantizedDeploymentProfileScenario", "ReasoningLatencyScenario", "ReplicaStartupScenario",
        "RequestZonesScenario", "ServingScenario", "ServingTaxScenario", "SingleAcceleratorLlmServiceScenario",
        "SingleNodeInferenceScenario", "SparseFlashFitScenario", "SpeculativeRoundScenario",
        "SpeedupCompositionScenario", "StagedCompressionScenario", "TailEventRateScenario", "TrafficSurgeScenario",
        "WeightOnlyQuantizationScenario", "WeightReadScenario", "WeightedRoutingScenario", "WorkLatencyGapScenario",
    ),
    "fleet_scheduling": (
        "DiurnalLendingScenario", "DominantShareScenario", "ElasticResizeScenario", "NodePackingScenario",
        "QueueWaitScenario", "QuotaLendingScenario", "SchedulingSnapshotScenario", "ServingConsolidationScenario",
    ),
    "edge_deployment": (
        "DailyUploadScenario", "SensorUplinkScenario", "WakeWordFleetScenario",
    ),
    "reliability_checkpointing": (
        "AvailabilityScenario", "BulkheadAdmissionScenario", "CheckpointIntervalScenario", "CheckpointStormScenario",
        "CheckpointTraceScenario", "ClusterExpansionScenario", "ComponentExposureScenario",
        "DiagnosticCoverageScenario", "FailureIntervalScenario", "FailureIntervalSweepScenario",
        "FloatBitFlipScenario", "GoodputScenario", "GroupCommitScenario", "HealthProbeScenario", "HotSpareScenario",
        "OutageScenario", "PreemptionTaxScenario", "RecoveryBudgetScenario", "RetryAmplificationScenario",
        "RetryJitterScenario", "RuntimeGoodputScenario", "SdcExposureScenario", "SeriesFailureScenario",
        "SnapshotVolumeScenario", "StragglerCostScenario", "TieredCheckpointScenario",
    ),
    "data_storage": (
        "AcceleratorInputFeedScenario", "ActiveLearningBudgetScenario", "ActiveLearningRoundsScenario",
        "AgreementDriftScenario", "AnnotatorAgreementScenario", "BatchVersusStreamingIngestScenario",
        "BudgetMatchedLabelingScenario", "CodecEpochScenario", "ColumnProjectionScenario", "CompressedReadScenario",
        "CoresetRunScenario", "CorpusRepetitionScenario", "CorpusTierScenario", "CoverageFloorScenario",
        "CurriculumScheduleScenario", "DataBudgetScenario", "DataEchoingScenario", "DataScalingReturnScenario",
        "DataStallScenario", "DuplicateRemovalScenario", "FeatureHistoryScenario", "FeatureLookupScenario",
        "HostInputPipelineScenario", "HostIoCpuScenario", "InformationComputeRatioScenario", "InputDemandScenario",
        "LabelGranularityScenario", "LabelingVersusTrainingScenario", "LaborEffortScenario", "MinHashBandingScenario",
        "ObjectStorageBillScenario", "PersonalizationStorageScenario", "PrefetchDepthScenario",
        "RetentionCostScenario", "SelectionBudgetScenario", "SemiSupervisedCostScenario", "SequencePackingScenario",
        "ShardPackagingScenario", "StorageFootprintScenario", "StreamVsStageScenario", "SyntheticFootprintScenario",
        "TieredCacheScenario", "TokenizedBatchFeedScenario", "TraceVolumeScenario",
    ),
    "power_sustainability": (
        "BatchEnergyPerImageScenario", "BatteryBudgetScenario", "CarbonPricedPlacementScenario",
        "CascadeEnergyScenario", "CoolingScenario", "DataMovementEnergyScenario", "DemandReboundScenario",
        "DevelopmentSweepScenario", "DutyCycledPowerScenario", "EmbodiedPaybackScenario",
        "EnergyPerInferenceScenario", "FacilityPowerScenario", "GridPlacementScenario", "OffloadEnergyScenario",
        "OperationalCarbonScenario", "PeriodicInferencePowerScenario", "PowerTransientScenario",
        "PueRetrofitScenario", "RepeatedWorkEnergyScenario", "RunFootprintScenario", "ServiceLifeExtensionScenario",
        "ServingCrossoverScenario", "ThermalCeilingScenario", "TokenEnergyScenario", "WaterUseScenario",
    ),
    "economics": (
        "AutomationBreakevenScenario", "BatchServingCostScenario", "ClickLossScenario", "CloudEdgeCostScenario",
        "DataCostBreakdownScenario", "IdleCapacityCostScenario", "LifecycleTcoScenario",
        "OptimizationPaybackScenario", "OwnVsRentScenario", "PlatformBenefitScenario", "RevenueRegressionScenario",
        "RunAmortizationScenario", "ServiceLifecycleCostScenario", "ServingCostScenario",
        "ServingInstanceCostScenario", "SpotEffectiveCostScenario", "SpotRunScenario", "TrainingCampaignCostScenario",
        "UtilizationGainScenario", "UtilizationLossScenario",
    ),
    "responsible_ai_security": (
        "AccuracyFrontierScenario", "AdversarialTrainingPassesScenario", "AutomationBiasScenario",
        "BiasFeedbackScenario", "CertifiedRadiusScenario", "ConstraintAccuracyCostScenario",
        "DataParallelAttackSurfaceScenario", "DecisionChainScenario", "DisclosurePenaltyScenario", "DpSgdRunScenario",
        "DpTrainingPlanScenario", "EncryptedInferenceLatencyScenario", "EqualOpportunityPriceScenario",
        "EventRetentionScenario", "ExplanationLoadScenario", "ExplanationLogScenario", "ExplorationExposureScenario",
        "ExposureConcentrationScenario", "GroupConfusionScenario", "InjectionExposureScenario",
        "InlineOverheadScenario", "LaplaceMeanReleaseScenario", "MembershipAuditScenario", "OutputShapingScenario",
        "PolicyComparisonScenario", "PreferenceLabelBudgetScenario", "ProportionGapTestScenario",
        "ProtectedMemoryFitScenario", "QueryExtractionBudgetScenario", "ReviewStaffingScenario",
        "SampledDecisionMonitorScenario", "ShardedUnlearningScenario", "SubgroupEvaluationBudgetScenario",
        "SubgroupSampleScenario", "ThroughputCostScenario",
    ),
}

WAVES: dict[int, tuple[str, ...]] = {
    15: ('training_memory', 'training_compute', 'distributed_comm', 'hardware_arch_kernels'),
    16: ('serving_inference', 'fleet_scheduling', 'edge_deployment'),
    17: ('reliability_checkpointing', 'data_storage'),
    18: ('power_sustainability', 'economics', 'responsible_ai_security'),
}
