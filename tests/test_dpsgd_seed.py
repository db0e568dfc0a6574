"""The DP-SGD per-example gradient scenario, end to end (issue: engine core).

Expected numbers are independent of this code: P·b and P·b·B by hand, with the
parameter counts of the cited papers (DS-CNN 200,000 parameters, MLPerf Tiny KWS
profile; GPT-2 1.5e9 parameters, Radford et al. 2019), which are also the values
mlsysim 0.3.0 returns (KWS 8.0e5 B / 2.048e8 B, GPT-2 6.0e9 B / 1.536e12 B).
"""

import inspect
import math
import pydoc

import pint
import pytest
import sympy

import mlsysim_symbolic
from mlsysim_symbolic import (
    InputError,
    MissingInputError,
    Scenarios,
    UnitError,
    UnknownNameError,
    workloads,
)
from mlsysim_symbolic.units import Q_

EXPECTED = {  # name: (per_example bytes, per_batch bytes), hand-computed: P*4 and P*4*256
    "KWS": (200_000 * 4, 200_000 * 4 * 256),
    "GPT-2": (1.5e9 * 4, 1.5e9 * 4 * 256),
}


@pytest.fixture(scope="module")
def s():
    return Scenarios.DpSgdPerExampleGradients


@pytest.mark.parametrize("model", EXPECTED)
def test_values(s, model):
    per_example, per_batch = EXPECTED[model]
    assert s.per_example(model).to("byte").magnitude == pytest.approx(per_example, rel=1e-12)   # bytes for one example
    assert s.per_batch(model).to("B").magnitude == pytest.approx(per_batch, rel=1e-12)
    assert str(s.per_batch(model).units) == "B"
    assert str(s.per_example(model).units) == "B"   # mlsysim's unit; the equation is checked in B/sample


def test_published_values_literally(s):
    assert s.per_example("KWS").magnitude == 8.0e5
    assert s.per_batch("KWS").magnitude == 2.048e8
    assert s.per_example("GPT-2").magnitude == 6.0e9
    assert s.per_batch("GPT-2").magnitude == 1.536e12


def test_the_named_instance(s):
    assert s.name == "Per-example FP32 gradients for the KWS DS-CNN and GPT-2 at batch 256"
    assert list(s.models) == ["KWS", "GPT-2"]
    assert s.models["KWS"].name == "DS-CNN (KWS)"
    assert s.models["GPT-2"].parameters == Q_(1.5e9, "param")
    assert s.batch_size == Q_(256, "sample")
    assert s.bytes_per_param.to("B/param").magnitude == 4


def test_equations(s):
    P, b, B = sympy.symbols("P b B", positive=True)
    expanded = s.expression("per_batch", expand=True)
    assert sympy.simplify(expanded - sympy.Symbol("B", integer=True, positive=True) * sympy.Symbol("P", positive=True) * sympy.Symbol("b", positive=True)) == 0
    eq = s.equation("per_batch")
    assert isinstance(eq, sympy.Eq)
    assert str(eq.lhs) == "M_batch"
    assert str(s.expression("per_batch")) == "B*M_example"
    assert str(s.expression("per_batch", expand=True)) == "B*P*b"


def test_symbols_carry_assumptions_and_units(s):
    t = s.type
    B = t.variable("batch_size")
    assert B.symbol.is_integer and B.symbol.is_positive
    assert str(B.unit) == "sample"
    P = t.variable("P")
    assert P.symbol.is_positive and P.meaning.startswith("parameters of the named model") and str(P.unit) == "param/sample"
    assert str(t.variable("bytes_per_param").unit) == "B/param"
    assert t.variable("per_batch").latex == r"M_{\mathrm{batch}}"


def test_keyword_signature_and_help():
    cls = mlsysim_symbolic.PerExampleGradientScenario
    sig = inspect.signature(cls)
    params = sig.parameters
    assert list(params)[:3] == ["models", "batch_size", "bytes_per_param"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())
    # an input without a default shows the outputs that need it
    assert repr(params["batch_size"].default) == "<needed by per_batch>"
    assert repr(params["models"].default) == "<needed by per_example, per_batch>"
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    for heading in ("Equation", "Assumptions", "Excludes", "Derivation"):
        assert heading in text
    assert "per_batch: M_batch = B*M_example = B*P*b" in text


def test_notes_as_data(s):
    assert s.assumptions == ("Each example retains a separate dense full-parameter gradient at the selected precision.",)
    assert "ghost clipping" in s.excludes and "a differential-privacy guarantee" in s.excludes
    assert s.derivation == "Declared scenario accounting rather than a fitted empirical law."
    assert any("Abadi" in str(r) for r in s.references)


def test_constructor_and_input_forms():
    cls = mlsysim_symbolic.PerExampleGradientScenario
    gpt2 = workloads()["GPT2"]
    for bpp in (Q_(2, "B/param"), 2, "2 B/param", "2 byte/param", "16 bit/param", "fp16", "bf16"):   # bytes per parameter
        s = cls(models={"GPT-2": gpt2}, batch_size=8, bytes_per_param=bpp)
        assert s.per_batch("GPT-2").magnitude == pytest.approx(1.5e9 * 2 * 8, rel=1e-15), bpp


def test_variant_returns_a_changed_copy(s):
    v = s.variant(batch_size=1024, bytes_per_param="2 B/param")
    assert v.per_batch("GPT-2").magnitude == pytest.approx(1.5e9 * 2 * 1024)
    assert s.per_batch("GPT-2").magnitude == 1.536e12          # the original is unchanged
    assert v.variant().per_batch("KWS") == v.per_batch("KWS")   # unchanged inputs give identical values
    assert type(v) is type(s)


def test_registry_provenance():
    reg = workloads()
    ds = reg["DS_CNN"]
    assert ds.parameters == Q_(200_000, "param")
    assert ds.source.url == "https://github.com/mlcommons/tiny"
    gpt2 = reg["GPT2"]
    assert gpt2.source.ref.startswith("Radford et al. (2019)")
    assert gpt2.source.url.endswith("language_models_are_unsupervised_multitask_learners.pdf")
    assert gpt2.size_in_bytes("4 B/param") == Q_(6e9, "B")
    assert gpt2.size_in_bytes("fp16") == Q_(3e9, "B")
    assert reg["GPT-2 (1.5B)"] is gpt2
    with pytest.raises(KeyError, match="GPT2"):
        reg["GPT-5"]


def test_symbolic_operations(s):
    B, P, b = (s.type.variable(n).symbol for n in ("batch_size", "P", "bytes_per_param"))
    assert s.diff("per_batch", "batch_size") == P * b
    assert s.diff("per_batch", "bytes_per_param") == B * P
    assert s.simplify("per_batch") == B * P * b
    rows = s.elasticities("per_batch", "GPT-2")
    assert {r.input for r in rows} == {"batch_size", "bytes_per_param", "parameters"}
    for r in rows:
        assert r.expression == 1                     # a monomial: every elasticity is exactly 1
        assert r.value == pytest.approx(1.0, rel=1e-12)
    by_name = {r.input: r for r in rows}
    assert by_name["batch_size"].derivative_value.to("B/sample").magnitude == pytest.approx(1.5e9 * 4)


def test_latex(s):
    assert str(s.latex("per_batch", values=False)) == r"M_{\mathrm{batch}} = M_{\mathrm{example}} B"
    assert str(s.latex("per_batch", "GPT-2")) == (
        r"M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B/param} \cdot 256 = 1.536\,\mathrm{TB}"
    )
    assert str(s.latex("per_example", "KWS")) == r"M_{\mathrm{example}} = P b = 200000 \cdot 4\,\mathrm{B/param} = 800\,\mathrm{kB/sample}"
    table = s.symbol_table("per_batch")
    assert ("B", "examples per step", r"\mathrm{sample}") in table.rows
    assert ("b", "gradient bytes per parameter", r"\mathrm{B/param}") in table.rows
    assert s.latex("per_batch", "GPT-2")._repr_latex_().startswith("$$")
    assert r"\begin{aligned}" in s._repr_latex_()
    assert "<table>" in table._repr_html_()


def test_evaluation_is_compiled_once(s, monkeypatch):
    fresh = s.variant(batch_size=128)
    fresh.per_batch("GPT-2")
    calls = []
    real = sympy.lambdify
    monkeypatch.setattr(sympy, "lambdify", lambda *a, **k: calls.append(1) or real(*a, **k))

    def no_subs(*a, **k):
        raise AssertionError("evaluation walked the tree with subs")

    monkeypatch.setattr(sympy.Basic, "subs", no_subs)
    monkeypatch.setattr(sympy.core.evalf.EvalfMixin, "evalf", no_subs)
    for batch in (1, 2, 3):
        other = s.variant(batch_size=batch)
        assert other.per_batch("GPT-2").magnitude == 1.5e9 * 4 * batch
    assert calls == []   # the compiled function is shared by every scenario of the type


# ---------------------------------------------------------------------- bad input
@pytest.fixture(scope="module")
def cls():
    return mlsysim_symbolic.PerExampleGradientScenario


GOOD = {"models": {"GPT-2": "GPT2"}, "batch_size": 8, "bytes_per_param": "4 B/param"}


def test_unknown_model_name_lists_known(s):
    with pytest.raises(KeyError) as info:
        s.per_batch("GPT-3")
    assert "'KWS'" in str(info.value) and "'GPT-2'" in str(info.value)
    assert isinstance(info.value, UnknownNameError)


def test_unknown_workload_in_models_lists_known(cls):
    with pytest.raises(KeyError) as info:
        cls(**{**GOOD, "models": {"x": "GPT-7"}})
    assert "GPT2" in str(info.value) and "models" in str(info.value)


def test_wrong_unit_names_input_and_expected_unit(cls):
    with pytest.raises(UnitError) as info:
        cls(**{**GOOD, "bytes_per_param": "4 s"})
    msg = str(info.value)
    assert "bytes_per_param" in msg and "B/param" in msg and "[time]" in msg
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [0, -1, 2.5, -0.5])
def test_bad_batch_size(cls, bad):
    with pytest.raises(ValueError, match="batch_size"):
        cls(**{**GOOD, "batch_size": bad})


@pytest.mark.parametrize("name", ["models", "batch_size", "bytes_per_param"])
def test_missing_input_names_it(cls, name):
    """An input without a default is needed when an output that uses it is read: the error names both."""
    scenario = cls(**{k: v for k, v in GOOD.items() if k != name})
    with pytest.raises(TypeError, match=name) as info:
        scenario.per_batch("KWS")
    assert isinstance(info.value, MissingInputError)
    assert "per_batch" in str(info.value)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "nan B", "inf B", Q_(math.nan, "B")])
def test_nan_and_infinity(cls, bad):
    with pytest.raises(ValueError, match="bytes_per_param"):
        cls(**{**GOOD, "bytes_per_param": bad})
    if not isinstance(bad, (str, pint.Quantity)):
        with pytest.raises(ValueError, match="batch_size"):
            cls(**{**GOOD, "batch_size": bad})


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("bytes_per_param", "four bytes", ["bytes_per_param", "not a quantity"]),
        ("bytes_per_param", "4 furlong", ["bytes_per_param", "unknown unit"]),
        ("bytes_per_param", [4], ["bytes_per_param"]),
        ("batch_size", "256 s", ["batch_size", "sample"]),
        ("batch_size", True, ["batch_size"]),
        ("models", {}, ["models"]),
        ("models", "GPT2", ["models"]),
        ("models", {"x": 3}, ["models"]),
    ],
)
def test_other_bad_inputs_are_named(cls, field, value, words):
    with pytest.raises((ValueError, TypeError, KeyError)) as info:
        cls(**{**GOOD, field: value})
    for w in words:
        assert w in str(info.value)
    assert isinstance(info.value, mlsysim_symbolic.MlsysimSymbolicError)


def test_unexpected_input_is_named(cls):
    with pytest.raises(TypeError, match="batchsize"):
        cls(**GOOD, batchsize=3)


def test_unknown_output_and_input_names(s):
    with pytest.raises(KeyError, match="per_batch"):
        s.equation("per_batc")
    with pytest.raises(KeyError, match="batch_size"):
        s.diff("per_batch", "batch")


def test_errors_subclass_builtin_types():
    assert issubclass(InputError, ValueError)
    assert issubclass(MissingInputError, TypeError)
    assert issubclass(UnknownNameError, KeyError)
