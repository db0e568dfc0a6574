"""Agents and LLM applications, group E (the agent harness, flow control and queueing of model calls, sandbox
envelopes, serial episodes, coordination laws) against mlsysim 0.3.0: every public member of every named scenario
(see members.py); result fields are compared by test_ref_results.py."""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=(
        "ApprovalEscrowScenario",
        "BoundedLiabilityAdmissionScenario",
        "CreditWindowScenario",
        "DeficitRoundRobinScenario",
        "EnvelopeAmortizationScenario",
        "KingmanQueueScenario",
        "ModelPollingScenario",
        "SerialEpisodeScenario",
        "SpeculativeEpisodeScenario",
        "StagingBurstScenario",
        "SyscallTaxScenario",
        "TrajectoryAdmissionScenario",
        "VerifierPoolScenario",
        "WorkspaceProvisioningScenario",
        "ReferencePassingScenario",
    ),
    not_ported={},
    skipped={},
    method_args={
        ("KingmanQueueScenario", "wait_at"): [{"utilization": 0.0}, {"utilization": 0.5}, {"utilization": 0.7},
                                              {"utilization": 0.95}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)


def test_kingman_is_exact_for_mm1() -> None:
    """With Poisson arrivals and exponential service (c_a^2 = c_s^2 = 1) Kingman's formula is the M/M/1 mean wait in
    queue W_q = rho / (1 - rho) E[S] (Kleinrock 1975, Queueing Systems vol. 1, §3.2): at rho = 0.5 one service time,
    at rho = 0.9 nine."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("BurstyModelServerQueuePrice").variant(arrival_scv=1.0, service_scv=1.0)
    assert abs(s.wait_at(0.5).to("s").magnitude - 1.0) < 1e-12
    assert abs(s.wait_at(0.9).to("s").magnitude - 9.0) < 1e-9
    assert abs(float(s.unit_wait_utilization) - 0.5) < 1e-12


def test_amdahl_web_server_example() -> None:
    """Hennessy and Patterson, Computer Architecture: A Quantitative Approach (5th ed., §1.9, Amdahl's law): a
    processor 10 times faster on computation that is busy 40 % of the time gives an overall speedup of
    1 / (0.6 + 0.4 / 10) = 1.56; with the computation instant the bound is 1 / 0.6."""
    from mlsysim_symbolic.catalog import catalog

    s = catalog().scenario("SerialRepairEpisode").variant(
        model_intervals={"compute": "40 s"}, tests="60 s", lifecycle_intervals={"none": "0 s"},
        runtime_intervals={"none": "0 s"}, model_speedup=10.0)
    assert round(float(s.speedup), 2) == 1.56
    assert abs(float(s.speedup) - 1 / 0.64) < 1e-12
    assert abs(float(s.limiting_speedup) - 1 / 0.6) < 1e-12
