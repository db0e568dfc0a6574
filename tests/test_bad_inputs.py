"""Bad input at every public entry point gives a named error that names the bad value.

One table per entry point: each row is a kind of bad input (missing, unknown, wrong unit,
negative, zero where a divisor, non-integer where integer, NaN, infinity, a string that is
not a quantity, a wrong type) and the error it must raise: our ``InputError``/``UnitError``
(ValueError), ``MissingInputError`` (TypeError), ``UnknownNameError`` (KeyError), or
``DerivationError`` for files; the message must name the offending input, argument or value.
The CLI rows must exit 2 with the bad argument named on standard error.
"""

from __future__ import annotations

import math

import pytest

from mlsysim_symbolic import (
    DerivationError,
    InputError,
    MissingInputError,
    MlsysimSymbolicError,
    Scenarios,
    UnitError,
    UnknownNameError,
    hardware,
    load_derivations,
    workloads,
)
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.cli import main
from mlsysim_symbolic.units import Q_, parse_quantity

NAN, INF = math.nan, math.inf
CLS = catalog().classes["PerExampleGradientScenario"]
GOOD = {"models": {"GPT-2": "GPT2"}, "batch_size": 256, "bytes_per_param": "4 B/param"}
S = Scenarios.DpSgdPerExampleGradients                 # per_batch(name), per_example(name)
CKPT = Scenarios.Gpt3CheckpointInterval10K             # waste_at(tau), miss_penalty(factor)
KNEE = Scenarios.VisionBatchingKnee                    # service_time(batch_size): an integer argument
ACT = Scenarios.Gpt3ActivationsMicrobatch1             # activations(strategy): a choice argument
SDC = Scenarios.SdcExposure100K                        # event_rate in [0, 1): a divisor of steps_between


def without(key):
    return {k: v for k, v in GOOD.items() if k != key}


def call(fn, *args, **kwargs):
    return lambda: fn(*args, **kwargs)


# ---------------------------------------------------------------------- the table
# (entry point, bad input, the call, the error class, words the message must contain)
CASES = [
    # scenario-type constructors
    # an input without a default is needed only where an output uses it (per_example does not use batch_size)
    ("constructor", "missing", call(lambda: CLS(**without("batch_size")).per_batch("GPT-2")), MissingInputError,
     ["per_batch", "batch_size", "sample"]),
    ("constructor", "unknown input", call(CLS, **GOOD, batchsize=3), UnknownNameError, ["batchsize", "batch_size"]),
    ("constructor", "unknown model", call(CLS, **{**GOOD, "models": {"x": "NoSuchModel"}}), UnknownNameError, ["NoSuchModel"]),
    ("constructor", "wrong unit", call(CLS, **{**GOOD, "bytes_per_param": "4 s"}), UnitError, ["bytes_per_param", "B/param"]),
    ("constructor", "wrong unit (Quantity)", call(CLS, **{**GOOD, "bytes_per_param": Q_(4, "J")}), UnitError, ["bytes_per_param"]),
    ("constructor", "negative", call(CLS, **{**GOOD, "batch_size": -1}), InputError, ["batch_size", "-1"]),
    ("constructor", "zero (a divisor)", call(CLS, **{**GOOD, "batch_size": 0}), InputError, ["batch_size", "(0, inf)"]),
    ("constructor", "non-integer", call(CLS, **{**GOOD, "batch_size": 2.5}), InputError, ["batch_size", "whole"]),
    ("constructor", "NaN", call(CLS, **{**GOOD, "bytes_per_param": NAN}), InputError, ["bytes_per_param", "finite"]),
    ("constructor", "NaN text", call(CLS, **{**GOOD, "bytes_per_param": "nan B"}), InputError, ["bytes_per_param"]),
    ("constructor", "infinity", call(CLS, **{**GOOD, "batch_size": INF}), InputError, ["batch_size"]),
    ("constructor", "infinity text", call(CLS, **{**GOOD, "bytes_per_param": "inf B"}), InputError, ["bytes_per_param"]),
    ("constructor", "not a quantity", call(CLS, **{**GOOD, "bytes_per_param": "four bytes"}), InputError, ["bytes_per_param", "four bytes"]),
    ("constructor", "unknown unit", call(CLS, **{**GOOD, "bytes_per_param": "4 furlong"}), UnitError, ["bytes_per_param", "furlong"]),
    ("constructor", "wrong type", call(CLS, **{**GOOD, "batch_size": [1]}), InputError, ["batch_size"]),
    ("constructor", "bool", call(CLS, **{**GOOD, "batch_size": True}), InputError, ["batch_size"]),
    ("constructor", "infinite in its unit", call(catalog().classes["LittlesLawScenario"], arrival_rate="1 request/s",
     time_in_system="1e305 h", batch_size=1, batch_service_time="1 ms"), InputError, ["time_in_system", "finite"]),
    ("constructor", "beyond float64 in base units", lambda: Scenarios.Llama2_70BPrecisionDividendGqaTp8.variant(
        hbm_per_accelerator="1e300 GB"), InputError, ["hbm_per_accelerator", "float64"]),
    # output methods: keys and arguments
    ("output key", "unknown key", call(S.per_batch, "NoSuchModel"), UnknownNameError, ["NoSuchModel", "GPT-2"]),
    ("output key", "missing key", call(S.per_batch), MissingInputError, ["per_batch", "name"]),
    ("output key", "extra key", call(S.per_batch, "GPT-2", "KWS"), UnknownNameError, ["per_batch"]),
    ("output key", "unknown output", call(S.evaluate, "per_batc", "GPT-2"), UnknownNameError, ["per_batc", "per_batch"]),
    ("output argument", "missing", call(CKPT.waste_at), MissingInputError, ["waste_at", "tau"]),
    ("output argument", "unknown", call(CKPT.waste_at, tau="1 h", tau2=3), UnknownNameError, ["tau2"]),
    ("output argument", "wrong unit", call(CKPT.waste_at, tau="1 GB"), UnitError, ["tau"]),
    ("output argument", "negative", call(CKPT.waste_at, tau=-1), InputError, ["tau"]),
    ("output argument", "zero (a divisor)", call(CKPT.waste_at, tau=0), InputError, ["tau"]),
    ("output argument", "NaN", call(CKPT.waste_at, tau=NAN), InputError, ["tau", "finite"]),
    ("output argument", "infinity", call(CKPT.waste_at, tau=INF), InputError, ["tau"]),
    ("output argument", "not a quantity", call(CKPT.waste_at, tau="soon"), InputError, ["tau", "soon"]),
    ("output argument", "non-integer", call(KNEE.service_time, batch_size=2.5), InputError, ["batch_size", "whole"]),
    ("output argument", "unknown choice", call(ACT.activations, strategy="bogus"), InputError, ["strategy", "bogus"]),
    ("output", "zero where a divisor (domain allows 0)", lambda: SDC.variant(event_rate=0).steps_between, InputError,
     ["steps_between", "event_rate = 0", "division by zero"]),
    # variant
    ("variant", "unknown input", call(S.variant, batchsize=3), UnknownNameError, ["batchsize"]),
    ("variant", "wrong unit", call(S.variant, bytes_per_param="4 s"), UnitError, ["bytes_per_param"]),
    ("variant", "negative", call(S.variant, batch_size=-8), InputError, ["batch_size"]),
    ("variant", "non-integer", call(S.variant, batch_size=8.5), InputError, ["batch_size"]),
    ("variant", "NaN", call(S.variant, batch_size=NAN), InputError, ["batch_size"]),
    ("variant", "infinity", call(S.variant, bytes_per_param=INF), InputError, ["bytes_per_param"]),
    ("variant", "not a quantity", call(S.variant, bytes_per_param="lots"), InputError, ["bytes_per_param", "lots"]),
    # solve
    ("solve", "unknown output", call(S.solve, "per_batc", "batch_size", "80 GB", "GPT-2"), UnknownNameError, ["per_batc"]),
    ("solve", "unknown input", call(S.solve, "per_batch", "batchsize", "80 GB", "GPT-2"), UnknownNameError, ["batchsize"]),
    ("solve", "missing key", call(S.solve, "per_batch", "batch_size", "80 GB"), MissingInputError, ["per_batch"]),
    ("solve", "wrong unit", call(S.solve, "per_batch", "batch_size", "80 s", "GPT-2"), UnitError, ["target", "80 s"]),
    ("solve", "negative", call(S.solve, "per_batch", "batch_size", "-80 GB", "GPT-2"), InputError, ["batch_size"]),
    ("solve", "zero", call(S.solve, "per_batch", "batch_size", "0 GB", "GPT-2"), InputError, ["batch_size"]),
    ("solve", "NaN", call(S.solve, "per_batch", "batch_size", NAN, "GPT-2"), InputError, ["target"]),
    ("solve", "infinity", call(S.solve, "per_batch", "batch_size", Q_(INF, "GB"), "GPT-2"), InputError, ["target"]),
    ("solve", "not a quantity", call(S.solve, "per_batch", "batch_size", "lots", "GPT-2"), InputError, ["target", "lots"]),
    ("solve", "bad sense", call(S.solve, "per_batch", "batch_size", "80 GB", "GPT-2", sense="<>"), InputError, ["sense"]),
    # sweep
    ("sweep", "no inputs", call(S.sweep, "per_batch", "GPT-2"), InputError, ["sweep"]),
    ("sweep", "unknown input", call(S.sweep, "per_batch", "GPT-2", batchsize=[1]), UnknownNameError, ["batchsize"]),
    ("sweep", "unknown key", call(S.sweep, "per_batch", "NoSuchModel", batch_size=[1]), UnknownNameError, ["NoSuchModel"]),
    ("sweep", "wrong unit", call(S.sweep, "per_batch", "GPT-2", bytes_per_param=Q_([1, 2], "s")), UnitError, ["bytes_per_param"]),
    ("sweep", "wrong unit (text)", call(S.sweep, "per_batch", "GPT-2", bytes_per_param=["4 s"]), UnitError, ["bytes_per_param"]),
    ("sweep", "negative", call(S.sweep, "per_batch", "GPT-2", batch_size=[-1, 2]), InputError, ["batch_size"]),
    ("sweep", "zero", call(S.sweep, "per_batch", "GPT-2", batch_size=range(0, 4)), InputError, ["batch_size"]),
    ("sweep", "non-integer", call(S.sweep, "per_batch", "GPT-2", batch_size=[1.5]), InputError, ["batch_size", "whole"]),
    ("sweep", "NaN", call(S.sweep, "per_batch", "GPT-2", batch_size=[NAN]), InputError, ["batch_size", "finite"]),
    ("sweep", "infinity", call(S.sweep, "per_batch", "GPT-2", bytes_per_param=[1, INF]), InputError, ["bytes_per_param"]),
    ("sweep", "not a quantity", call(S.sweep, "per_batch", "GPT-2", bytes_per_param=["lots"]), InputError, ["bytes_per_param", "lots"]),
    ("sweep", "strings", call(S.sweep, "per_batch", "GPT-2", batch_size=["a", "b"]), InputError, ["batch_size"]),
    ("sweep", "empty", call(S.sweep, "per_batch", "GPT-2", batch_size=[]), InputError, ["batch_size"]),
    ("sweep", "bad backend", call(S.sweep, "per_batch", "GPT-2", backend="gpu", batch_size=[1]), InputError, ["backend", "gpu"]),
    # reduce_sweep
    ("reduce_sweep", "unknown reduction", call(S.reduce_sweep, "per_batch", "GPT-2", reduce="median", batch_size=[1]), InputError, ["median"]),
    ("reduce_sweep", "missing limit", call(S.reduce_sweep, "per_batch", "GPT-2", reduce="feasible", batch_size=[1]), InputError, ["limit"]),
    ("reduce_sweep", "wrong unit", call(S.reduce_sweep, "per_batch", "GPT-2", reduce="feasible", limit="80 s", batch_size=[1]), UnitError, ["limit"]),
    ("reduce_sweep", "NaN limit", call(S.reduce_sweep, "per_batch", "GPT-2", reduce="feasible", limit=NAN, batch_size=[1]), InputError, ["limit"]),
    ("reduce_sweep", "infinite limit", call(S.reduce_sweep, "per_batch", "GPT-2", reduce="feasible", limit=Q_(INF, "GB"), batch_size=[1]), InputError, ["limit"]),
    ("reduce_sweep", "not a quantity", call(S.reduce_sweep, "per_batch", "GPT-2", reduce="feasible", limit="lots", batch_size=[1]), InputError, ["limit", "lots"]),
    ("reduce_sweep", "zero chunk", call(S.reduce_sweep, "per_batch", "GPT-2", chunk=0, batch_size=[1]), InputError, ["chunk"]),
    ("reduce_sweep", "non-integer chunk", call(S.reduce_sweep, "per_batch", "GPT-2", chunk="big", batch_size=[1]), InputError, ["chunk"]),
    ("reduce_sweep", "unknown input", call(S.reduce_sweep, "per_batch", "GPT-2", batchsize=[1]), UnknownNameError, ["batchsize"]),
    ("reduce_sweep", "negative", call(S.reduce_sweep, "per_batch", "GPT-2", batch_size=[-1]), InputError, ["batch_size"]),
    # one_at_a_time
    ("one_at_a_time", "zero pct", call(S.one_at_a_time, "per_batch", "GPT-2", pct=0), InputError, ["pct"]),
    ("one_at_a_time", "NaN pct", call(S.one_at_a_time, "per_batch", "GPT-2", pct=NAN), InputError, ["pct"]),
    ("one_at_a_time", "unknown input", call(S.one_at_a_time, "per_batch", "GPT-2", inputs=["batchsize"]), UnknownNameError, ["batchsize"]),
    ("one_at_a_time", "unknown range", call(S.one_at_a_time, "per_batch", "GPT-2", ranges={"batchsize": (1, 2)}), InputError, ["batchsize"]),
    ("one_at_a_time", "wrong unit", call(S.one_at_a_time, "per_batch", "GPT-2", ranges={"bytes_per_param": ("1 s", "2 s")}), UnitError, ["bytes_per_param"]),
    ("one_at_a_time", "NaN range", call(S.one_at_a_time, "per_batch", "GPT-2", ranges={"batch_size": (NAN, 2)}), InputError, ["batch_size"]),
    ("one_at_a_time", "not a quantity", call(S.one_at_a_time, "per_batch", "GPT-2", ranges={"bytes_per_param": ("x", "2 B")}), InputError, ["bytes_per_param"]),
    ("one_at_a_time", "missing key", call(S.one_at_a_time, "per_batch"), MissingInputError, ["per_batch"]),
    # sobol and morris
    ("sobol", "no ranges", call(S.sobol, "per_batch", "GPT-2", ranges={}), InputError, ["ranges"]),
    ("sobol", "unknown input", call(S.sobol, "per_batch", "GPT-2", ranges={"batchsize": (1, 2)}), UnknownNameError, ["batchsize"]),
    ("sobol", "wrong unit", call(S.sobol, "per_batch", "GPT-2", ranges={"bytes_per_param": ("1 s", "2 s")}), UnitError, ["bytes_per_param"]),
    ("sobol", "NaN", call(S.sobol, "per_batch", "GPT-2", ranges={"batch_size": (1, NAN)}), InputError, ["batch_size"]),
    ("sobol", "infinity", call(S.sobol, "per_batch", "GPT-2", ranges={"batch_size": (1, INF)}), InputError, ["batch_size"]),
    ("sobol", "low above high", call(S.sobol, "per_batch", "GPT-2", ranges={"batch_size": (8, 2)}), InputError, ["batch_size"]),
    ("sobol", "negative", call(S.sobol, "per_batch", "GPT-2", ranges={"batch_size": (-8, 2)}), InputError, ["batch_size"]),
    ("morris", "no ranges", call(S.morris, "per_batch", "GPT-2", ranges={}), InputError, ["ranges"]),
    ("morris", "not a quantity", call(S.morris, "per_batch", "GPT-2", ranges={"bytes_per_param": ("lots", "2 B")}), InputError, ["bytes_per_param"]),
    ("morris", "unknown input", call(S.morris, "per_batch", "GPT-2", ranges={"batchsize": (1, 2)}), UnknownNameError, ["batchsize"]),
    # uncertainty
    ("uncertainty", "no inputs", call(S.uncertainty, "per_batch", "GPT-2", inputs={}), InputError, ["inputs"]),
    ("uncertainty", "unknown input", call(S.uncertainty, "per_batch", "GPT-2", inputs={"batchsize": (1, 2)}), UnknownNameError, ["batchsize"]),
    ("uncertainty", "wrong unit", call(S.uncertainty, "per_batch", "GPT-2", inputs={"bytes_per_param": ("normal", "4 s", "1 s")}), UnitError, ["bytes_per_param"]),
    ("uncertainty", "NaN", call(S.uncertainty, "per_batch", "GPT-2", inputs={"batch_size": ("normal", NAN, 1)}), InputError, ["batch_size"]),
    ("uncertainty", "negative sd", call(S.uncertainty, "per_batch", "GPT-2", inputs={"batch_size": ("normal", 256, -1)}), InputError, ["batch_size"]),
    ("uncertainty", "wrong parameter count", call(S.uncertainty, "per_batch", "GPT-2", inputs={"batch_size": (1, 2, 3, 4)}), InputError, ["batch_size"]),
    ("uncertainty", "samples", call(S.uncertainty, "per_batch", "GPT-2", inputs={"batch_size": (1, 2)}, samples=1), InputError, ["samples"]),
    # registries and quantities
    ("workloads()", "unknown", lambda: workloads()["NoSuchModel"], UnknownNameError, ["NoSuchModel", "GPT2"]),
    ("hardware()", "unknown", lambda: hardware()["NoSuchChip"], UnknownNameError, ["NoSuchChip", "H100"]),
    ("size_in_bytes", "wrong unit", lambda: workloads()["GPT2"].size_in_bytes("4 s"), UnitError, ["bytes_per_param"]),
    ("size_in_bytes", "not a quantity", lambda: workloads()["GPT2"].size_in_bytes("lots"), InputError, ["bytes_per_param", "lots"]),
    ("size_in_bytes", "NaN", lambda: workloads()["GPT2"].size_in_bytes(NAN), InputError, ["bytes_per_param"]),
    ("size_in_bytes", "negative", lambda: workloads()["GPT2"].size_in_bytes(-2), InputError, ["bytes_per_param"]),
    ("Scenarios[...]", "unknown", lambda: Scenarios["NoSuchScenario"], UnknownNameError, ["NoSuchScenario"]),
    ("parse_quantity", "not a quantity", call(parse_quantity, "four bytes"), InputError, ["four bytes"]),
    ("parse_quantity", "unknown unit", call(parse_quantity, "4 furlong"), UnitError, ["furlong"]),
    ("parse_quantity", "empty", call(parse_quantity, ""), InputError, ["''"]),
    ("parse_quantity", "NaN", call(parse_quantity, "nan B"), InputError, ["nan B", "finite"]),
    ("parse_quantity", "infinity", call(parse_quantity, "-inf s"), InputError, ["-inf s", "finite"]),
    ("parse_quantity", "not text", call(parse_quantity, 4), InputError, ["4", "text"]),
    ("parse_quantity", "odd unit text", call(parse_quantity, "4 B**"), UnitError, ["B**"]),
]


@pytest.mark.parametrize("entry, bad, fn, error, words", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_bad_input_gives_a_named_error(entry, bad, fn, error, words):
    with pytest.raises(error) as info:
        fn()
    assert isinstance(info.value, MlsysimSymbolicError)
    for word in words:
        assert word in str(info.value), f"{word!r} not in {str(info.value)!r}"


def test_unknown_names_keep_their_python_types():
    """An unexpected input or argument is an UnknownNameError and also the TypeError Python raises for one."""
    with pytest.raises(TypeError):
        CLS(**GOOD, batchsize=3)
    with pytest.raises(TypeError):
        CKPT.waste_at(tau="1 h", tau2=3)
    with pytest.raises(AttributeError, match="NoSuchScenario"):   # attribute access stays an AttributeError (hasattr works)
        getattr(Scenarios, "NoSuchScenario")  # noqa: B009
    with pytest.raises(AttributeError, match="NoSuchModel"):
        getattr(workloads(), "NoSuchModel")  # noqa: B009


# ---------------------------------------------------------------------- derivation files
FILES = [
    ("missing file", None, "cannot read the file"),
    ("not TOML", "[types.T\nx = 1\n", "not valid TOML"),
    ("unknown type of a scenario", "[scenarios.S]\ntype = 'NoSuchType'\n", "NoSuchType"),
    ("wrong unit in a scenario", """
[types.T.inputs.m]
unit = "B"
[types.T.outputs.y]
unit = "B"
equation = "m"
[scenarios.S]
type = "T"
inputs.m = "4 s"
""", "m expects B (bytes); got 4 s (seconds)"),
    ("negative input in a scenario", """
[types.T.inputs.m]
unit = "B"
[types.T.outputs.y]
unit = "B"
equation = "m"
[scenarios.S]
type = "T"
inputs.m = -4
""", "m: expected a value in (0, inf)"),
    ("NaN input in a scenario", """
[types.T.inputs.m]
unit = "B"
[types.T.outputs.y]
unit = "B"
equation = "m"
[scenarios.S]
type = "T"
inputs.m = nan
""", "finite"),
    ("a symbol that is not text", """
[types.T.inputs.m]
unit = "B"
symbol = 3
[types.T.outputs.y]
unit = "B"
equation = "m"
""", "'symbol' must be text"),
    ("inputs that are not a table", "[types.T]\ninputs = 'x'\n[types.T.outputs.y]\nunit = 'B'\nequation = '1'\n", "must be a table"),
]


@pytest.mark.parametrize("bad, text, words", FILES, ids=[f[0] for f in FILES])
def test_load_derivations_bad_files(tmp_path, bad, text, words):
    path = tmp_path / "bad.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(DerivationError) as info:
        load_derivations(path).check()
    assert words in str(info.value) and str(path) in str(info.value)


# ---------------------------------------------------------------------- the command line
NAME = "DpSgdPerExampleGradients"
CLI = [
    ("list: unknown family", ["list", "--family", "nofamily"], "nofamily"),
    ("show: unknown scenario", ["show", "NoSuchScenario"], "NoSuchScenario"),
    ("eval: unknown scenario", ["eval", "NoSuchScenario"], "NoSuchScenario"),
    ("eval: unknown input", ["eval", NAME, "--set", "batchsize=3"], "batchsize"),
    ("eval: not input=value", ["eval", NAME, "--set", "batch_size"], "batch_size"),
    ("eval: wrong unit", ["eval", NAME, "--set", "bytes_per_param=4 s"], "bytes_per_param"),
    ("eval: negative", ["eval", NAME, "--set", "batch_size=-1"], "batch_size"),
    ("eval: zero", ["eval", NAME, "--set", "batch_size=0"], "batch_size"),
    ("eval: non-integer", ["eval", NAME, "--set", "batch_size=2.5"], "batch_size"),
    ("eval: NaN", ["eval", NAME, "--set", "batch_size=nan"], "batch_size"),
    ("eval: infinity", ["eval", NAME, "--set", "bytes_per_param=inf"], "bytes_per_param"),
    ("eval: not a quantity", ["eval", NAME, "--set", "bytes_per_param=lots"], "bytes_per_param"),
    ("eval: unknown model", ["eval", NAME, "--model", "NoSuchModel"], "NoSuchModel"),
    ("latex: unknown scenario", ["latex", "NoSuchScenario"], "NoSuchScenario"),
    ("latex: unknown model", ["latex", NAME, "--model", "NoSuchModel"], "NoSuchModel"),
    ("sensitivity: unknown scenario", ["sensitivity", "NoSuchScenario", "per_batch"], "NoSuchScenario"),
    ("sensitivity: unknown output", ["sensitivity", NAME, "per_batc"], "per_batc"),
    ("sensitivity: unknown model", ["sensitivity", NAME, "per_batch", "--model", "NoSuchModel"], "NoSuchModel"),
]


@pytest.mark.parametrize("bad, argv, word", CLI, ids=[c[0] for c in CLI])
def test_cli_bad_arguments_exit_2_naming_them(capsys, bad, argv, word):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert word in err and "Traceback" not in err


@pytest.mark.parametrize("argv, word", [(["eval"], "NAME"), (["nosuchcommand"], "nosuchcommand"),
                                        (["eval", NAME, "--nosuchoption"], "--nosuchoption")])
def test_cli_usage_errors_exit_2(capsys, argv, word):
    try:
        code = main(argv)
    except SystemExit as exc:     # argparse's own exit, where main does not catch it
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert "usage" in err and word in err


def test_cli_sensitivity_of_a_floor_output_does_not_crash(capsys):
    """d floor(x)/dx compiles (as 0 away from the steps): the command prints elasticities, exit 0."""
    code = main(["sensitivity", "Llama3_70BAgentContextAdmissionDgxH100", "max_requests"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "+0.0000" in out


def test_a_list_input_with_a_repeated_value_is_refused_not_merged():
    """A list input is keyed by its values: [0.5, 0.5] would silently count once (a wrong number), so it is refused."""
    from mlsysim_symbolic import InputError, Scenarios

    s = Scenarios.Gpt3CheckpointInterval10K
    with pytest.raises(InputError, match=r"miss_factors: the value 0\.5 is given twice.*table of names"):
        s.variant(miss_factors=[0.5, 2.0, 0.5])
    assert list(s.variant(miss_factors=[0.5, 2.0]).miss_factors) == [0.5, 2.0]
