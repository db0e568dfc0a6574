"""Data storage and input-pipeline scenarios against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from .members import Wave, wave_tests

WAVE = Wave(
    classes=("AcceleratorInputFeedScenario",),
    not_ported={},
    renamed={},
    skipped={},
    method_args={
        ("AcceleratorInputFeedScenario", "demand"): [
            {"decoded": 0, "rate": "3000 count/s"}, {"decoded": 1, "rate": "3200 count/s"}, {"decoded": 0, "rate": "12000 count/s"}],
        ("AcceleratorInputFeedScenario", "feeding_loss"): [{"decoded": 0}, {"decoded": 1}],
        ("AcceleratorInputFeedScenario", "samples_supplied"): [{"bandwidth": "250 MB/s"}, {"bandwidth": "7 GB/s"}],
        ("AcceleratorInputFeedScenario", "streams_needed"): [
            {"bandwidth": "250 MB/s", "target_rate": "3200 count/s"}, {"bandwidth": "7 GB/s", "target_rate": "12000 count/s"}],
    },
    implicit_units={},
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
