"""Hardware and kernel scenarios (second half) against mlsysim 0.3.0: every public member of every named scenario (see members.py)."""

from .members import Wave, wave_tests

STAGE_NAMES = ("its arguments are stage names (variadic text keys of the map input `stages`); an equation cannot "
               "pick keys of a keyed input by text arguments, and a method argument cannot be keyed")

WAVE = Wave(
    classes=(
        "HostDispatchScenario",
        "PipelineSpeedupScenario",
        "IronLawScenario",
        "RecurrentStepScenario",
        "TransformerBlockScenario",
        "MatmulTileScenario",
    ),
    not_ported={},
    skipped={
        ("PipelineSpeedupScenario", "subtotal"): STAGE_NAMES,
        ("PipelineSpeedupScenario", "share"): STAGE_NAMES,
        ("PipelineSpeedupScenario", "overlapped_share"): STAGE_NAMES,
    },
    method_args={
        ("MatmulTileScenario", "fits"): [{"capacity": "228 KiB"}, {"capacity": "128 KiB"}, {"capacity": "64 KiB"}],
        ("MatmulTileScenario", "row_b_reads"): [{"cells": 128}, {"cells": 7}],
    },
    implicit_units={
        ("MatmulTileScenario", "tile_intensity"): "flop/B",
        ("MatmulTileScenario", "unblocked_intensity"): "flop/B",
        ("MatmulTileScenario", "compulsory_intensity"): "flop/B",
    },
)
test_member_equals_mlsysim, test_every_named_scenario_is_ported, test_every_member_is_covered = wave_tests(WAVE)
