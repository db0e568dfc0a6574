"""The compiled document of each family, as a reviewer reads it (issue 37): code names upright, long equations broken
(never shrunk), every form of an output with its condition, a table of contents, hyperlinks and a bibliography of the
declared references, a few worked examples per type, and no line sticking out of the page by more than 10 pt.

The expected LaTeX of the name and breaking tables is written out by hand; the bibliography's entry count is the
number of distinct (text, URL) pairs of the family's declarations, counted here.  The tests marked ``tex`` compile
with pdflatex (skipped without it; ``.ci/run`` installs it and runs every family with ``-m tex --thorough``); the
README's command compiles one family, the thorough tier all of them.
"""

from __future__ import annotations

import re

import pytest

from mlsysim_symbolic import paper
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.code_names import code_name_latex
from mlsysim_symbolic.printing.breaking import name_wide, wrap
from mlsysim_symbolic.printing.citations import bibliography, citation, citation_key
from mlsysim_symbolic.printing.prose_math import find_formulas, prose_math
from mlsysim_symbolic.spec import Reference
from mlsysim_symbolic.variables import Variable, check_latex

#: The widest overfull line a family's compiled document may have, in points (issue 37).
OVERFULL_PT = 10.0
#: The family the README's command compiles (small: the thorough tier compiles every family).
SAMPLE_FAMILY = "dp"

# ---------------------------------------------------------------------------------------------------- code names

NAMES = [   # (code name, LaTeX a physicist writes): words upright, one-letter names italic with word subscripts upright
    ("update_time", r"\mathrm{update\_time}"),
    ("fan_in", r"\mathrm{fan\_in}"),
    ("flops_bih", r"\mathrm{flops\_bih}"),
    ("activations", r"\mathrm{activations}"),
    ("BW", r"\mathrm{BW}"),
    ("BW_0", r"\mathrm{BW}_{0}"),
    ("n_kv", r"n_{\mathrm{kv}}"),
    ("d_model", r"d_{\mathrm{model}}"),
    ("T_svc_d", r"T_{\mathrm{svc},d}"),
    ("C_6ND", r"C_{\mathrm{6ND}}"),
    ("d_h", "d_{h}"),
    ("W16", "W_{16}"),
    ("p0", "p_{0}"),
    ("h", "h"),
    ("alpha", r"\alpha"),
    ("lamda_cc", r"\lambda_{\mathrm{cc}}"),
    ("Delta_T", r"\Delta_{T}"),
]


def italic_runs(latex: str) -> list[str]:
    r"""Runs of two or more letters set in math italic: what is left of ``latex`` once upright groups (``\mathrm``,
    ``\text``, ``\operatorname``, labels, environment names) and command names are taken out."""
    text = latex
    while True:
        m = re.search(r"\\(?:mathrm|text|textrm|texttt|operatorname\*?|label|begin|end|mathit)\{", text)
        if m is None:
            break
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[:m.start()] + " " + text[i:]
    text = re.sub(r"\\[A-Za-z]+", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


@pytest.mark.parametrize("name,expected", NAMES, ids=[n for n, _ in NAMES])
def test_a_code_name_prints_upright_or_as_a_letter_with_upright_subscripts(name, expected):
    assert code_name_latex(name) == expected
    assert check_latex(expected) == expected                           # the safe grammar takes it (``\_`` included)
    assert Variable.make(name, unit="s").latex == expected            # a variable that declares no latex gets it
    assert not italic_runs(expected)


def test_a_declared_symbol_keeps_its_declared_latex():
    t = catalog().types["TrainingStateFitScenario"]
    assert t.outputs["update_time"].variable.latex == r"\mathrm{update\_time}"     # declares none
    assert t.outputs["update_traffic"].variable.latex == r"V_{\mathrm{upd}}"        # declares V_{\mathrm{upd}}


@pytest.mark.thorough   # every type of the catalog built (12 s): the README's command checks the training document's
def test_no_symbol_of_the_catalog_that_declares_no_latex_is_an_italic_run():
    runs = {}
    for t in catalog().types.values():
        for var in [*t.leaves.values(), *t.composed_variables.values(), *(o.variable for o in t.outputs.values())]:
            if var.latex == code_name_latex(var.symbol.name) and italic_runs(var.latex):
                runs[f"{t.name}.{var.name}"] = var.latex
    assert not runs


def test_the_training_document_has_no_code_name_in_math_italic():
    source = paper.document(family="training")
    for old in ("update_{time}", "fan_{in}", "fan_{out}", "flops_{bih}", "adapter_{saved}", "is_{loss}"):
        assert old not in source, old
    assert r"\mathrm{update\_time} &= \frac{V_{\mathrm{upd}}}{\mathrm{BW}}" in source


# ---------------------------------------------------------------------------------------------------- breaking

BREAKS = [   # (side, line width, the side with names, [(name, definition)])
    (r"2 \left(x + y + z\right) w", 6, r"2 \langle 1\rangle w", [(r"\langle 1\rangle", "x + y + z")]),
    (r"\frac{a + b + c + d}{e}", 8, r"\frac{\langle 1\rangle}{e}", [(r"\langle 1\rangle", "a + b + c + d")]),
    (r"b + 2 \left(\begin{cases} m + n + o & \text{for}\: x > 0 \\ v & \text{otherwise} \end{cases}\right)", 12,
     r"b + 2 \langle 1\rangle",
     [(r"\langle 1\rangle", r"\begin{cases} m + n + o & \text{for}\: x > 0 \\ v & \text{otherwise} \end{cases}")]),
    (r"\max\left(a + b + c, d\right) e", 9, r"\langle 1\rangle e", [(r"\langle 1\rangle", r"\max\left(a + b + c, d\right)")]),
    ("a + b", 4, "a + b", []),   # cut at its sign: nothing to name
]


@pytest.mark.parametrize("side,limit,named,definitions", BREAKS, ids=[str(i) for i in range(len(BREAKS))])
def test_a_wide_term_is_named_and_defined_on_lines_of_its_own(side, limit, named, definitions):
    assert name_wide(side, limit) == (named, definitions)
    assert wrap(named, limit) is not None


def test_no_family_document_resizes_and_every_case_keeps_its_condition():
    source = paper.document(family="data")
    assert r"\resizebox" not in source
    rows = [row for block in re.findall(r"\\begin\{cases\}(.*?)\\end\{cases\}", source, re.DOTALL) for row in block.split("\\\\")]
    assert rows and all("&" in row for row in rows)
    # each form of an output picked as the first whose inputs are set says when (the last: otherwise), on the note's
    # second row (a long note in one row would squeeze every equation of the block)
    assert r"h &= h_{0} & & \text{hit,} \label{eq:TieredCacheScenario:hit} \\" + "\n" + r"& & \text{if $h_{0}$ is set} \notag" in source
    assert r"h &= \frac{C_{\mathrm{hot}}}{S_{\mathrm{corpus}}} & & \text{hit,} \label{eq:TieredCacheScenario:hit:1} \\" + "\n" \
        + r"& & \text{otherwise} \notag" in source
    assert r"& & \text{if $B_{\mathrm{hot}}$, $B_{\mathrm{miss}}$} \notag" + " \\\\\n" + r"& & \text{are set} \notag" in source
    cat = catalog()
    for name in cat.families["data"]:
        t = cat.types[name]
        section = paper.type_section(t, cat)
        forms = sum(len(out.branches) for out in t.outputs.values() if len(out.branches) > 1 and out.kind.numeric and out.choice is None)
        conditions = len(re.findall(r"& & \\text\{(?:if |otherwise\})", section))
        assert conditions == forms, (name, conditions, forms)


# ---------------------------------------------------------------------------------------------------- prose formulas

PROSE = [   # (declared prose, LaTeX): NAME = FORMULA as maths, as written, the rest escaped prose
    ("so N_opt = sqrt(C / (6 r)) and D_opt = r N_opt.",
     r"so $N_{\mathrm{opt}} = \sqrt{C / \left(6 r\right)}$ and $D_{\mathrm{opt}} = r N_{\mathrm{opt}}$."),
    ("q = 1 - (1 - p)^k of tasks", r"$q = 1 - \left(1 - p\right)^{k}$ of tasks"),
    ("R = H·S0 + D·H(H − 1)/2, fresh", r"$R = H S_{0} + D H \left(H - 1\right) / 2$, fresh"),
    ("I = 2/b whatever the corpus", r"$I = 2 / b$ whatever the corpus"),
    ("T = max(t_c, t_m) + ceil(n/2)·3·4", r"$T = \max\left(t_{c}, t_{m}\right) + \left\lceil n / 2 \right\rceil \cdot 3 \cdot 4$"),
    ("t = 1e-3 s + 2E/t_s", r"$t = 1 \times 10^{-3} s + 2 E / t_{s}$"),
    ("with n = k as stated", "with n = k as stated"),                                       # one operand: prose
    ("L = P(bad) I, the loss", "L = P(bad) I, the loss"),                                   # a word inside: prose
    ("IDF = ln(1 + x)", "IDF = ln(1 + x)"),                                                 # not the parser's function
    ("x = __import__('os') 50% $", r"x = \_\_import\_\_('os') 50\% \$"),                   # never run, escaped
]


@pytest.mark.parametrize("text,expected", PROSE, ids=[str(i) for i in range(len(PROSE))])
def test_a_formula_in_prose_is_set_as_maths(text, expected):
    assert prose_math(text).replace(r"\allowbreak{}", "") == expected


def test_a_prose_formula_uses_the_declared_latex_of_the_types_symbols():
    assert prose_math("so C = 6 N D here", {"C": r"C_{\mathrm{train}}", "N": "N", "D": "D"}) == r"so $C_{\mathrm{train}} = 6 N D$ here"
    assert [f[2] for f in find_formulas("a = b + c; d = e")] == ["a"]


def test_the_document_sets_the_derivations_formulas_as_maths():
    section = paper.type_section(catalog().types["ScalingModelScenario"])
    assert "N\\_opt = sqrt" not in section and r"$N_{\mathrm{opt}} = \sqrt{C / \left(6 r\right)}$" in section


# ---------------------------------------------------------------------------------------------------- references

def test_the_bibliography_has_one_entry_per_distinct_work_and_each_type_cites_its_references():
    cat = catalog()
    source = paper.document(family="training")
    declared = [r for name in cat.families["training"] for r in cat.types[name].references]
    distinct = {(r.text, r.url) for r in declared}
    entries = re.findall(r"^\\bibitem\{([^}]*)\}", source, re.MULTILINE)
    assert len(entries) == len(distinct) == len(set(entries)) > 5
    cited = set(re.findall(r"(?<!\\bibitem)\{(ref:[0-9a-f]{10})\}", source))
    assert cited == set(entries)                                   # every entry cited, every citation an entry
    for name in cat.families["training"]:
        section = paper.type_section(cat.types[name], cat)
        references = section.split(r"\subsection*{References}")[1].split(r"\subsection*{Examples}")[0]
        assert references.count(r"\cite") == len(cat.types[name].references), name
    assert r"\tableofcontents" in source and r"\usepackage{hyperref}" in source
    assert source.index(r"\usepackage{hyperref}") > source.index(r"\usepackage{amsmath")   # hyperref last


def test_reference_text_is_escaped_in_the_citation_and_the_entry():
    evil = Reference(r"\input{/etc/hostname} 50% of $x$ #1 ~ ^", r"§3 ]}{\x", "https://x.org/a b}{")
    cite, entry = citation(evil), bibliography([evil])
    assert r"\input" not in cite + entry and "$x$" not in entry
    assert r"50\% of \$x\$ \#1" in entry and r"\url{https://x.org/a%20b%7D%7B}" in entry
    assert cite == r"\cite[\S{}3 {]}\}\{$\backslash$x]{" + citation_key(evil) + "}"   # its bracket braced: ends nothing
    assert bibliography([]) == ""


# ---------------------------------------------------------------------------------------------------- examples

def test_worked_examples_are_capped_per_type_and_the_rest_named_for_the_site():
    cat = catalog()
    source = paper.document(family="training")
    assert paper.EXAMPLES_PER_TYPE == 3
    for name in cat.families["training"]:
        declared = [k for k, d in cat.declared.items() if d.type_name == name]
        section = source.split(rf"\section{{{name}}}")[1].split(r"\section{")[0]
        worked = re.findall(r"^% scenario (\S+):", section, re.MULTILINE)
        assert worked == declared[:3], name
        for key in declared[3:]:
            assert rf"\texttt{{{key.replace('_', chr(92) + '_')}}}" in section.replace(r"\allowbreak{}", "")
        assert ("Further examples" in section) == (len(declared) > 3)
    everything = paper.type_section(cat.types["ClusterTrainingTimeScenario"], cat, examples=None)
    assert everything.count("% scenario ") == sum(d.type_name == "ClusterTrainingTimeScenario" for d in cat.declared.values()) > 3
    with pytest.raises(ValueError, match="examples"):
        paper.type_section(cat.types["ClusterTrainingTimeScenario"], cat, examples=-1)


# ---------------------------------------------------------------------------------------------------- compiled

def _compiled_family(family: str, tmp_path) -> tuple[str, str, str]:
    source = paper.document(family=family)
    pdf = paper.compile_pdf(source, tmp_path, name=family)
    return source, pdf.with_suffix(".log").read_text(errors="replace"), pdf.with_suffix(".toc").read_text(errors="replace")


def _check_compiled(family: str, source: str, log: str, toc: str) -> None:
    cat = catalog()
    assert r"\resizebox" not in source
    assert not re.search(r"^! ", log, re.MULTILINE), "a LaTeX error in the log"
    wide = [m.group(0) for m in re.finditer(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\).*$", log, re.MULTILINE)
            if float(m.group(1)) > OVERFULL_PT]
    assert not wide, f"{family}: lines wider than the page by more than {OVERFULL_PT} pt: {wide[:5]}"
    assert "undefined" not in " ".join(re.findall(r"^LaTeX Warning: .*$", log, re.MULTILINE)), "an undefined citation or reference"
    assert r"\tableofcontents" in source and r"\usepackage{hyperref}" in source
    assert toc.count(r"\contentsline {section}") == len(cat.families[family])           # the contents list every type
    distinct = {(r.text, r.url) for name in cat.families[family] for r in cat.types[name].references}
    assert len(re.findall(r"^\\bibitem\{", source, re.MULTILINE)) == len(distinct)


@pytest.mark.tex
def test_the_sample_family_compiles_with_contents_bibliography_and_no_wide_line(tmp_path):
    _check_compiled(SAMPLE_FAMILY, *_compiled_family(SAMPLE_FAMILY, tmp_path))


@pytest.mark.tex
@pytest.mark.thorough
@pytest.mark.parametrize("family", sorted(set(catalog().families) - {SAMPLE_FAMILY}))
def test_every_family_compiles_with_contents_bibliography_and_no_wide_line(family, tmp_path):
    _check_compiled(family, *_compiled_family(family, tmp_path))
