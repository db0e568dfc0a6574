"""No LaTeX injection (issue 13): symbol LaTeX keeps to a small grammar, all scenario text is escaped everywhere.

A derivation file is data: a symbol's ``latex = '\\input{FILE}'`` must not put a local file
into a compiled PDF, and a newline in a scenario name must not end the ``%`` comment that
names it.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from mlsysim_symbolic import DerivationError, InputError, load_derivations, paper
from mlsysim_symbolic import printing as L
from mlsysim_symbolic.spec import ScenarioType
from mlsysim_symbolic.variables import check_latex

EVIL_LATEX = [
    r"\input{/etc/hostname}",
    r"\write18{touch /tmp/pwned}",
    r"\immediate\write18{id}",
    r"\def\x{\input{/etc/hostname}}",
    r"\catcode`\^=7",
    r"^^5cinput{/etc/hostname}",
    r"x^^5c",
    r"\text{\input{/etc/hostname}}",
    r"\mathrm{x}}\input{/etc/hostname}{",
    r"x_{\mathrm{a}",
    r"\openout1=pwned",
    r"\csname input\endcsname{/etc/hostname}",
    r"x % comment",
    r"$x$",
    r"a & b",
    r"x \\ y",
    "x\ny",
    "λ",
]

GOOD_LATEX = [r"\tau^{*}", r"A_{\mathrm{sc},\ell}", r"m_{1/2}", r"B_{\max}'", r"\hat{\theta}_{k}", r"\operatorname{MTBF}",
              r"T_{\mathrm{down,yr}}", r"\text{GPU hours}", r"\bar{x} + 1"]


def _type(latex: str) -> ScenarioType:
    return ScenarioType.from_mapping("Evil", {
        "inputs": {"size": {"symbol": "s", "unit": "B", "latex": latex}},
        "outputs": {"twice": {"symbol": "t", "unit": "B", "equation": "2 * s"}}})


@pytest.mark.parametrize("latex", EVIL_LATEX)
def test_unsafe_symbol_latex_is_refused_at_load_naming_the_symbol(latex):
    with pytest.raises(DerivationError, match=r"Evil: input size: symbol s: latex"):
        _type(latex)


@pytest.mark.parametrize("latex", GOOD_LATEX)
def test_math_symbol_names_are_accepted(latex):
    assert check_latex(latex) == latex
    assert _type(latex).leaves[next(iter(_type(latex).leaves))].latex == latex


def test_the_refusal_says_why():
    with pytest.raises(InputError, match=r"uses \\input, which is not a math command"):
        check_latex(r"\input{x}", symbol="x")
    with pytest.raises(InputError, match=r"\^\^ \(a TeX character code\)"):
        check_latex("^^5c")
    with pytest.raises(InputError, match="closes a brace it did not open"):
        check_latex("x}")
    with pytest.raises(InputError, match="leaves a brace open"):
        check_latex("x_{1")
    with pytest.raises(InputError, match="character '%'"):
        check_latex("x%")


def test_an_output_latex_is_checked_too():
    with pytest.raises(DerivationError, match=r"output twice: symbol t: latex"):
        ScenarioType.from_mapping("Evil", {
            "inputs": {"size": {"symbol": "s", "unit": "B"}},
            "outputs": {"twice": {"symbol": "t", "unit": "B", "equation": "2 * s", "latex": r"\input{/etc/hostname}"}}})


EVIL_FILE = textwrap.dedent(r'''
    family = "evil"
    title = "Evil\ntitle \\input{/etc/hostname}"

    [types.EvilScenario]
    summary = "Summary with \\input{/etc/hostname} and 100% of # & _ ~ ^^5c"
    assumptions = ["line one\n\nline two \\write18{id}"]
    references = [ { text = "Ref }\\input{/etc/hostname}", url = "https://x.org/a}\\input{/etc/hostname}{b" } ]

    [types.EvilScenario.inputs.size]
    symbol = "s"
    unit = "B"
    meaning = "bytes\n\\input{/etc/hostname}"

    [types.EvilScenario.outputs.twice]
    symbol = "t"
    unit = "B"
    equation = "2 * s"
    doc = "twice\n\\input{/etc/hostname}"

    [scenarios.EvilNamed]
    type = "EvilScenario"
    name = "Line one\n\\input{/etc/hostname}\n% not a comment"
    description = "desc\n\n\\input{/etc/hostname}"
    notes = "notes \\input{/etc/hostname}"
    inputs.size = "4 B"
''')


@pytest.fixture()
def evil(tmp_path):
    path = tmp_path / "evil.toml"
    path.write_text(EVIL_FILE, encoding="utf-8")
    return load_derivations(path)


def _no_live_input(text: str) -> None:
    """Every ``\\input`` of ``text`` is escaped prose or inside a one-line comment, never a command."""
    for line in text.splitlines():
        code = re.split(r"(?<!\\)%", line, maxsplit=1)[0]      # the line without its comment
        assert not re.search(r"(?<![A-Za-z$])\\(input|write18)\b", code), line


def test_a_newline_in_a_name_stays_inside_its_comment(evil):
    s = evil.scenario("EvilNamed")
    text = paper.fragment(s)
    lines = text.splitlines()
    assert lines[1] == r"% Line one \input{/etc/hostname} % not a comment"
    _no_live_input(text)


def test_the_document_escapes_every_piece_of_scenario_text(evil):
    text = paper.document(evil)
    _no_live_input(text)
    assert "% scenario EvilNamed: Line one \\input{/etc/hostname} % not a comment" in text.splitlines()
    assert r"\paragraph{EvilNamed} Line one $\backslash$input\{/etc/hostname\} \% not a comment." in text
    assert r"\url{https://x.org/a%7D%5Cinput%7B/etc/hostname%7D%7Bb}" in text
    assert r"\item line one  line two $\backslash$write18\{id\}" in text.splitlines()   # a blank line in text ends no paragraph
    assert r"\part{Evil title $\backslash$input\{/etc/hostname\}}" in text.splitlines()
    table = L.symbol_table(evil.scenario("EvilNamed")).to_latex()
    assert r"$s$ & bytes $\backslash$input\{/etc/hostname\} & $\mathrm{B}$ \\" in table


@pytest.mark.tex
def test_the_evil_document_compiles_without_reading_the_file(evil, tmp_path):
    pdf = paper.compile_pdf(paper.document(evil), tmp_path / "build", name="evil")
    log = pdf.with_suffix(".log").read_text(errors="replace")
    assert "(/etc/hostname" not in log                      # TeX logs every file it opens as "(path"


@pytest.mark.parametrize("text,expected", [
    ("GPT-2", r"\text{GPT-2}"),
    ("a}\\input{x}", r"\text{a\}$\backslash$input\{x\}}"),
    ("two\nlines", r"\text{two lines}"),
    ("KWS", r"\mathrm{KWS}"),
])
def test_keys_in_subscripts_are_escaped(text, expected):
    assert L.key_text(text) == expected


def test_key_notes_labels_and_comments_are_escaped():
    assert L.Row("x", ("a}\n\\input{y}",), ("x", "1")).key_note() == r"\quad \text{(a\} $\backslash$input\{y\})}"
    assert L.label("eq", "T}\\input{x}", "out put") == "eq:T--input-x-:out-put"
    assert L.comment("a\rb\nc\u2028d\x0ce") == "a b c d e"
    assert L.escape_text("a\n\nb") == "a  b"
