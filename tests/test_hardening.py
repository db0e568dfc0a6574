"""Issue 13, "no silent wrong number": one row per numbered item, each asserting the named error (class and
words) or a value computed by hand outside the code (the arithmetic is in the row's comment).

Also here: a property test of random chains of outputs against a plain-Python recurrence, and a scenario
evaluated on Dask's distributed scheduler (two worker processes) giving the in-process values.
"""

from __future__ import annotations

import math
import pickle
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlsysim_symbolic import DerivationError, InputError, Scenarios, load_derivations
from mlsysim_symbolic.cli import main
from mlsysim_symbolic.errors import InfeasibleError, UnknownNameError
from mlsysim_symbolic.spec.reader import check_depth

S = Scenarios.DpSgdPerExampleGradients   # GPT-2: 1.5e9 params, 4 B/param, batch 256


def load_text(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    catalog = load_derivations(path)
    catalog.check()   # types build lazily: build and check them all now
    return catalog


TWO_INPUTS = """
[types.T.inputs.params]
symbol = "{a}"
unit = "1"
[types.T.inputs.tokens]
symbol = "{b}"
{extra}unit = "1"
[types.T.outputs.C]
unit = "1"
equation = "params * tokens"
"""


TWO_WORKLOADS = """
[types.T.inputs.m1]
kind = "workload"
symbols.P = {{ attribute = "parameters" }}
[types.T.inputs.m2]
kind = "workload"
symbols.Q = {{ attribute = "parameters"{name} }}
[types.T.outputs.C]
unit = "param"
equation = "P + Q"
[scenarios.S]
type = "T"
inputs.m1 = "GPT2"
inputs.m2 = "GPT3"
"""


def _file(tmp_path: Path, text: str) -> Any:
    return lambda: load_text(tmp_path, text)


def _rows(tmp_path: Path) -> list[tuple[str, Any, Any, tuple[str, ...]]]:
    """(item, thunk, expected error class or value, words the message must hold)."""
    chain = chain_text([0] * 40, 1e-3)
    return [
        # 1: two inputs with one symbol; a full-width look-alike (NFKC N); a workload attribute vs an input
        ("1 same symbol", _file(tmp_path, TWO_INPUTS.format(a="N", b="N", extra="")), DerivationError,
         ("'N' of input tokens is already declared by input params", "line 2")),
        ("1 NFKC look-alike", _file(tmp_path, TWO_INPUTS.format(a="N", b="\uff2e", extra='latex = "M"\n')), DerivationError,
         ("already declared by input params",)),
        ("1 attribute vs input", _file(tmp_path, """
[types.T.inputs.model]
kind = "workload"
symbols.P = { attribute = "parameters" }
[types.T.inputs.p]
symbol = "P"
unit = "param"
[types.T.outputs.C]
unit = "param"
equation = "P + p"
"""), DerivationError, ("'P' of input p is already declared by input model",)),
        ("1 one attribute, two workloads", _file(tmp_path, TWO_WORKLOADS.format(name="")), DerivationError,
         ("'parameters' of input m2 is already declared by input m1", "need a 'name'")),
        # with a name: GPT-2's 1.5e9 + GPT-3's 175e9 parameters = 176.5e9
        ("1 two workloads named apart", lambda: load_text(tmp_path, TWO_WORKLOADS.format(name=', name = "draft_parameters"'))
         .scenario("S").C.magnitude, 176.5e9, ()),
        # 2: a typo in an inline workload field
        ("2 inline typo", lambda: S.variant(models={"X": {"name": "x", "parameters": 1e9, "kv_head": 8}}),
         UnknownNameError, ("kv_head", "kv_heads")),
        # 3: a named scenario's keyed input cannot be changed in place
        ("3 read-only", lambda: S.models.__setitem__("GPT-2", "GPT3"), TypeError, ("read-only", "variant")),
        # a given dict copied: changing it afterwards leaves the scenario at GPT-2, 1.5e9 * 4 B * 256 = 1.536e12 B
        ("3 given copied", lambda: _given_dict_copied(), 1.536e12, ()),
        # 4: 1e300 samples * 1.5e9 params * 1e10 B = 1.5e319 B > 1.8e308; 10**400 samples; a 1e300 TB target
        ("4 result overflow", lambda: S.variant(batch_size=10**300, bytes_per_param="1e10 B/param").per_batch("GPT-2"),
         InputError, ("per_batch", "overflows float64", "batch_size = 1e+300")),
        ("4 huge integer", lambda: S.variant(batch_size=10**400), InputError, ("batch_size", "beyond float64")),
        ("4 huge target", lambda: S.solve("per_batch", "batch_size", "1e300 TB", "GPT-2"), InputError, ("beyond float64",)),
        ("4 latex", lambda: S.variant(batch_size=10**300, bytes_per_param="1e10 B/param").latex("per_batch", "GPT-2"),
         InputError, ("overflows float64",)),
        ("4 sweep", lambda: S.sweep("per_batch", "GPT-2", batch_size=[1.0, 1e300], bytes_per_param="1e10 B/param"),
         InputError, ("per_batch overflows float64", "batch_size = 1e+300")),
        ("4 one-at-a-time", lambda: S.variant(batch_size=10**298, bytes_per_param="1e10 B/param").one_at_a_time("per_batch", "GPT-2"),
         InputError, ("overflows float64",)),
        ("4 uncertainty", lambda: S.variant(bytes_per_param="1e10 B/param").uncertainty(
            "per_batch", "GPT-2", inputs={"batch_size": (10**297, 10**299)}), InputError, ("overflows float64",)),
        # 5: at batch 1, GPT-2 needs 1.5e9 * 4 B = 6 GB > 1 GB
        ("5 infeasible", lambda: S.solve("per_batch", "batch_size", "1 GB", "GPT-2"), InfeasibleError,
         ("batch_size = 1", "6 GB")),
        # 5 (value): 80e9 B / (1.5e9 * 4 B) = 13.33 -> 13 samples fit
        ("5 largest batch", lambda: S.solve("per_batch", "batch_size", "80 GB", "GPT-2").value, 13, ()),
        # 6: tp_size = 1 steps to 2 at least, never to 1.1; Monte Carlo draws stay whole and in the domain
        # 6: batch 1 +-10 % would be 0.9..1.1: whole steps make it 1..2 (up only: 0 is no batch); rows are ranked by
        #    the extent drawn (6e9 B, above bytes_per_param's 5.4e9..6.6e9 B), so it is first, and the note says so
        ("6 whole steps", lambda: _oat_at_batch_one(), (1, 2, 6e9, True, "inputs ±10 %; batch_size 1 → 2 sample"), ()),
        ("6 truncated draws", lambda: S.uncertainty("per_batch", "GPT-2", inputs={"batch_size": ("normal", 2, 5)},
                                                    samples=2000).notes, "__notes__", ("redrawn", "rounded to whole")),
        # 7: o_i = (o_{i-1} + x)(o_{i-1} + 1), o_0 = x = 1e-3, forty times (recurrence in plain Python below)
        ("7 chain of 40", lambda: _eval_chain(chain, 40), _recurrence([0] * 40, 1e-3), ()),
        # the x at which o_40 reaches its value at x = 1e-3 is 1e-3; the linear mean at the mean of (5e-4, 1.5e-3) is o_40(1e-3)
        ("7 solve on 40", lambda: _chain(chain).solve("o40", "x", _recurrence([0] * 40, 1e-3)).exact.magnitude, 1e-3, ()),
        ("7 uncertainty on 40", lambda: _chain(chain).uncertainty("o40", inputs={"x": (5e-4, 1.5e-3)}, samples=1000)
         .linear_mean.magnitude, _recurrence([0] * 40, 1e-3), ()),
        ("7 one-at-a-time on 40", lambda: _chain(chain).one_at_a_time("o40").records[0]["output_high"].magnitude,
         _recurrence([0] * 40, 1.1e-3), ()),
        # elasticity x dO/dx / O against a central difference of the plain-Python recurrence (h = 1e-9)
        ("7 elasticity on 40", lambda: _chain(chain).elasticities("o40")[0].value,
         (_recurrence([0] * 40, 1e-3 + 1e-9) - _recurrence([0] * 40, 1e-3 - 1e-9)) / 2e-9 * 1e-3 / _recurrence([0] * 40, 1e-3),
         ("rel=1e-5",)),
        ("7 diff on 40", lambda: _chain(chain).diff("o40", "x"), InputError, ("too many to differentiate symbolically",)),
        ("7 symbol table of 40", lambda: "o_{40}" in str(_chain(chain).tex.symbols("o40")), True, ()),
        ("7 expanded form of 40", lambda: _chain(chain).tex.equation("o40", expand=True), InputError, ("too many to print",)),
        # 8: a latex field that reads a file
        ("8 latex injection", _file(tmp_path, TWO_INPUTS.format(a="N", b="M", extra='latex = "\\\\input{/etc/passwd}"\n')),
         DerivationError, ("\\input", "not a math command")),
        # 9: names that clash with the Scenario's own attributes, and deep nesting
        ("9 name", _file(tmp_path, TWO_INPUTS.replace("inputs.tokens", "inputs.name").format(a="N", b="M", extra="")),
         DerivationError, ("'name' is reserved",)),
        ("9 _type", _file(tmp_path, TWO_INPUTS.replace("inputs.tokens", "inputs._type").format(a="N", b="M", extra="")),
         DerivationError, ("'_type' must be an identifier that starts with a letter",)),
        ("9 depth", lambda: check_depth(tomllib.loads("x = " + "[" * 40 + "]" * 40)), InputError, ("nested deeper than 32",)),
        # 10: malformed analysis requests
        ("10 range of three", lambda: S.one_at_a_time("per_batch", "GPT-2", ranges={"batch_size": (1, 2, 3)}),
         InputError, ("ranges['batch_size']", "(low, high)")),
        ("10 sobol n=0", lambda: S.sobol("per_batch", "GPT-2", ranges={"batch_size": (1, 512)}, n=0), InputError, ("n must be",)),
        ("10 triangular mode", lambda: S.uncertainty("per_batch", "GPT-2", inputs={"batch_size": ("triangular", 1, 256, 100)}),
         InputError, ("mode", "between low and high")),
        ("10 lognormal unit", lambda: S.uncertainty("per_batch", "GPT-2", inputs={"batch_size": ("lognormal", 256, "0.5 B")}),
         InputError, ("lognormal sigma",)),
        ("10 unknown distribution", lambda: S.uncertainty("per_batch", "GPT-2", inputs={"batch_size": ("foo", 1, 2)}),
         InputError, ("unknown distribution 'foo'",)),
        ("10 unit beyond float64", lambda: Scenarios.Llama2_7BKvAt2048Tokens.variant(kv_share="1 GB^1000/B^1000"),
         InputError, ("kv_share", "beyond float64")),
        ("10 list key", lambda: S.per_batch(["GPT-2"]), UnknownNameError, ("a key must be a name",)),
        # 11: pickled after a first evaluation: batch 8 * 1.5e9 * 4 B = 4.8e10 B
        ("11 pickle", lambda: _pickled_value(), 4.8e10, ()),
    ]


def _given_dict_copied() -> float:
    models = {"GPT-2": "GPT2"}
    s = S.variant(models=models)
    models["GPT-2"] = "GPT3"
    return s.per_batch("GPT-2").to("B").magnitude


def _oat_at_batch_one() -> tuple[Any, ...]:
    table = S.variant(batch_size=1).one_at_a_time("per_batch", "GPT-2")
    records = table.records
    row = next(r for r in records if r["input"] == "batch_size")
    return (row["low"].magnitude, row["high"].magnitude, pytest.approx(row["extent"].to("B").magnitude, rel=1e-9),
            records[0]["input"] == "batch_size", table.note)


def _pickled_value() -> float:
    s = S.variant(batch_size=8)
    s.per_batch("GPT-2")
    return pickle.loads(pickle.dumps(s)).per_batch("GPT-2").to("B").magnitude


def chain_text(shapes: list[int], x: float) -> str:
    """A type whose output o_i is built on o_{i-1} in one of three shapes; o_0 is the input x."""
    forms = ["({p} + x) * ({p} + 1)", "{p} * x + {p}", "sqrt({p} * {p} + x)"]
    lines = ['[types.Chain.inputs.x]\nunit = "1"\n']
    prev = "x"
    for i, shape in enumerate(shapes, start=1):
        lines.append(f'[types.Chain.outputs.o{i}]\nunit = "1"\nequation = "{forms[shape].format(p=prev)}"\n')
        prev = f"o{i}"
    lines.append(f'[scenarios.C]\ntype = "Chain"\ninputs.x = {x!r}\n')
    return "\n".join(lines)


def _recurrence(shapes: list[int], x: float) -> float:
    o = x
    for shape in shapes:
        o = (o + x) * (o + 1) if shape == 0 else o * x + o if shape == 1 else math.sqrt(o * o + x)
    return o


_CHAIN_DIR: list[Path] = []


def _chain(text: str) -> Any:
    path = _CHAIN_DIR[0] / f"chain{abs(hash(text))}.toml"
    path.write_text(text, encoding="utf-8")
    return load_derivations(path).scenario("C")


def _eval_chain(text: str, n: int) -> float:
    return getattr(_chain(text), f"o{n}").magnitude


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("hardening")
    _CHAIN_DIR[:] = [tmp]
    return {r[0]: r for r in _rows(tmp)}


ITEMS = [r[0] for r in _rows(Path("/nonexistent"))]


def test_every_numbered_item_has_a_row():
    assert {int(name.split()[0]) for name in ITEMS} == set(range(1, 12))


@pytest.mark.parametrize("item", ITEMS)
def test_no_silent_wrong_number(rows, item):
    _, thunk, expected, words = rows[item]
    if isinstance(expected, type) and issubclass(expected, BaseException):
        with pytest.raises(expected) as info:
            thunk()
        for w in words:
            assert w in str(info.value), (w, str(info.value))
        assert "Traceback" not in str(info.value)
    elif expected == "__notes__":
        notes = " ".join(thunk())
        for w in words:
            assert w in notes, (w, notes)
    elif isinstance(expected, float):
        assert thunk() == pytest.approx(expected, rel=1e-5 if "rel=1e-5" in words else 1e-9)
    else:
        assert thunk() == expected


def test_cli_set_with_a_unit_beyond_float64_exits_2_without_a_traceback(capsys):
    code = main(["eval", "Llama2_7BKvAt2048Tokens", "--set", "kv_share=1 GB^1000/B^1000"])
    out, err = capsys.readouterr()
    assert code == 2 and "kv_share" in err and "beyond float64" in err and "Traceback" not in out + err


# ---------------------------------------------------------------------- random chains of outputs
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shapes=st.lists(st.integers(0, 2), min_size=1, max_size=40), x=st.sampled_from([1e-3, 2e-3, 5e-4]))
def test_random_chains_match_the_recurrence_and_print(tmp_path, shapes, x):
    path = tmp_path / "chain.toml"
    path.write_text(chain_text(shapes, x), encoding="utf-8")
    s = load_derivations(path).scenario("C")
    n = len(shapes)
    expected = _recurrence(shapes, x)
    if not math.isfinite(expected):   # o -> o**2 from o > 1 on: a long chain can leave float64, and must say so
        with pytest.raises(InputError, match="overflows float64"):
            getattr(s, f"o{n}")
        return
    assert getattr(s, f"o{n}").magnitude == pytest.approx(expected, rel=1e-9)
    tex = s.latex(f"o{n}")
    assert tex.startswith(f"o_{{{n}}} = ") and "\\infty" not in tex
    swept = s.sweep(f"o{n}", x=[x, x / 2]).values.magnitude
    assert list(swept) == pytest.approx([expected, _recurrence(shapes, x / 2)], rel=1e-9)


def test_a_chain_that_leaves_float64_says_so(tmp_path):
    # sqrt(1e-3 + 1e-3) = 0.0447 then o -> (o + x)(o + 1) squares o once o > 1: 1e308 is passed within 40 steps
    shapes = [2] + [0] * 39
    assert not math.isfinite(_recurrence(shapes, 1e-3))
    test_random_chains_match_the_recurrence_and_print.hypothesis.inner_test(tmp_path, shapes, 1e-3)
