"""Paper export and reference pages: the whole catalog as a LaTeX document compiled by a real engine.

The document of every scenario type is compiled once in plain mode and once with siunitx
(``pdflatex -halt-on-error -interaction=nonstopmode``); any LaTeX error fails the test, and so
does a line more than 10 pt wider than the page (an overfull hbox in the log; issue 37).
Debian's texlive (texlive-latex-base, texlive-latex-recommended, texlive-science) provides
pdflatex, amsmath and siunitx; ``.ci/run`` installs them when missing.  The compiling tests carry
the marker ``tex`` (``python -m pytest -m tex`` runs them alone): without pdflatex they are skipped
(``tests/conftest.py``), unless ``MLSYSIM_REQUIRE_TEX=1`` (as ``.ci/run``'s second phase sets) makes a
missing pdflatex, or any skip of a ``tex`` test, a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from mlsysim_symbolic import Scenarios, UnknownNameError, paper
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.docs import markdown_index, markdown_page, write_docs
from mlsysim_symbolic.printing import LatexConfig
from mlsysim_symbolic.printing import preamble as siunitx_preamble

PDFLATEX = shutil.which("pdflatex")
NEEDS_TEX = "pdflatex is not installed: install texlive-latex-base texlive-latex-recommended texlive-science, or run .ci/run"
#: The widest overfull line the document may have, in points.
OVERFULL_PT = 10.0


def need_tex(engine: str | None = PDFLATEX) -> None:
    """Skip (or, with ``MLSYSIM_REQUIRE_TEX=1``, fail) when ``engine`` is not installed."""
    if engine:
        return
    if os.environ.get("MLSYSIM_REQUIRE_TEX") == "1":
        pytest.fail(NEEDS_TEX + " (MLSYSIM_REQUIRE_TEX=1 requires it)")
    pytest.skip(NEEDS_TEX)


def overfull(log: str) -> list[tuple[float, str]]:
    """Every overfull hbox of a pdflatex log: (points too wide, the log line)."""
    return [(float(m.group(1)), m.group(0)) for m in re.finditer(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\).*$", log, re.MULTILINE)]


def test_a_missing_engine_skips_unless_tex_is_required(monkeypatch):
    monkeypatch.delenv("MLSYSIM_REQUIRE_TEX", raising=False)
    with pytest.raises(pytest.skip.Exception, match="texlive-latex-base"):
        need_tex(None)
    monkeypatch.setenv("MLSYSIM_REQUIRE_TEX", "1")
    with pytest.raises(pytest.fail.Exception, match="MLSYSIM_REQUIRE_TEX=1"):
        need_tex(None)
    need_tex("/usr/bin/pdflatex")            # installed: neither


def test_overfull_lines_are_read_from_the_log():
    log = ("Overfull \\hbox (1500.2pt too wide) detected at line 726\n[]\n"
           "Overfull \\hbox (3.5pt too wide) in paragraph at lines 1--2\nUnderfull \\hbox (badness 10000)\n")
    assert [w for w, _ in overfull(log)] == [1500.2, 3.5]


def _build_and_compile(mode: str, folder) -> dict:
    start = time.perf_counter()
    source = paper.document(config=LatexConfig(siunitx=(mode == "siunitx")))
    built = time.perf_counter()
    pdf = paper.compile_pdf(source, folder / mode, name=f"catalog-{mode}")
    return {"source": source, "pdf": pdf, "log": pdf.with_suffix(".log").read_text(errors="replace"),
            "build_s": built - start, "compile_s": time.perf_counter() - built}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """The catalog document in both modes, each built and compiled once (the two compile side by side)."""
    need_tex()
    folder = tmp_path_factory.mktemp("paper")
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = {mode: pool.submit(_build_and_compile, mode, folder) for mode in ("plain", "siunitx")}
        return {mode: job.result() for mode, job in jobs.items()}


@pytest.mark.tex
@pytest.mark.parametrize("mode", ["plain", "siunitx"])
def test_the_catalog_document_compiles(compiled, mode):
    result = compiled[mode]
    pdf, log = result["pdf"], result["log"]
    assert pdf.exists() and pdf.stat().st_size > 100_000
    assert not re.search(r"^! ", log, re.MULTILINE), "a LaTeX error in the log"
    assert "Undefined control sequence" not in log and "Emergency stop" not in log
    pages = re.search(r"Output written on .*\((\d+) pages", log)
    assert pages and int(pages.group(1)) > 50
    wide = [line for points, line in overfull(log) if points > OVERFULL_PT]
    assert not wide, f"lines wider than the page by more than {OVERFULL_PT} pt: {wide[:5]}"
    print(f"{mode}: built in {result['build_s']:.1f} s, compiled in {result['compile_s']:.1f} s, {pages.group(1)} pages")


@pytest.mark.tex
def test_the_document_has_one_section_per_type(compiled):
    cat = catalog()
    for mode in ("plain", "siunitx"):
        source = compiled[mode]["source"]
        sections = re.findall(r"^\\section\{(.+)\}$", source, re.MULTILINE)
        assert sorted(s.replace(r"\_", "_") for s in sections) == sorted(cat.types)
        assert source.count(r"\part{") == len(cat.families)
        for heading in ("Equations", "Symbols", "Assumptions", "Excludes", "Derivation", "References", "Examples"):
            assert source.count(rf"\subsection*{{{heading}}}") == len(cat.types), heading   # every type has a named scenario
        flat = source.replace(r"\allowbreak{}", "")
        for key in cat.declared:   # every named scenario has its paragraph, or (past the first few of its type) its name
            escaped = key.replace('_', chr(92) + '_')
            assert rf"\paragraph{{{escaped}}}" in source or rf"\texttt{{{escaped}}}" in flat, key
    plain, si = compiled["plain"]["source"], compiled["siunitx"]["source"]
    assert r"\qty{" not in plain and r"\usepackage{siunitx}" not in plain
    assert r"\qty{1.536}{\tera\byte}" in si and r"\DeclareSIUnit{\flop}{FLOP}" in si
    assert r"1.536\,\mathrm{TB}" in plain


@pytest.mark.tex
def test_a_fragment_compiles_in_a_paper_with_the_documented_preamble(tmp_path):
    need_tex()
    s = Scenarios.AlphaBetaHdrNdrSmallMessage
    body = "\n".join([paper.fragment(s, config=LatexConfig(siunitx=True)),
                      paper.fragment(Scenarios.DpSgdPerExampleGradients, "GPT-2", config=LatexConfig(prefix="binary", sig=3))])
    source = "\n".join([r"\documentclass{article}", r"\usepackage{amsmath}", siunitx_preamble(),
                        r"\begin{document}", body, r"\end{document}"])
    pdf = paper.compile_pdf(source, tmp_path, name="fragment")
    assert pdf.exists()
    assert r"\qty{1.7}{\micro\second} & & \text{(NDR, small)}" in body
    assert r"= 1.4\,\mathrm{TiB} & & \text{(GPT-2)}" in body


@pytest.mark.tex
def test_a_latex_error_fails_with_the_log(tmp_path):
    need_tex()
    with pytest.raises(paper.LatexCompileError, match="Undefined control sequence"):
        paper.compile_pdf("\\documentclass{article}\n\\begin{document}\n$\\nosuchmacro$\n\\end{document}\n", tmp_path)


def test_fragment_shape():
    text = paper.fragment(Scenarios.DpSgdPerExampleGradients)
    lines = text.splitlines()
    assert lines[0] == "% mlsysim-symbolic: DpSgdPerExampleGradients (PerExampleGradientScenario)"
    assert lines[3] == r"\begin{align*}" and lines[-1] == r"\end{align*}"
    assert len(lines) == 4 + 4 + 1          # header, 2 outputs x 2 models, end
    assert "% needs \\usepackage{amsmath}" in text and "siunitx" not in text
    assert "siunitx" in paper.fragment(Scenarios.DpSgdPerExampleGradients, config=LatexConfig(siunitx=True)).splitlines()[2]


def test_long_lines_break_at_each_equals_sign():
    section = paper.type_section(catalog().types["ServingScenario"])
    assert "\n&= " in section                # the serving lines are long: one side per line
    short = paper.type_section(catalog().types["PerExampleGradientScenario"])
    assert "\n&= " not in short


def test_document_of_a_family_and_of_chosen_types():
    text = paper.document(family="reliability")
    assert text.count(r"\section{") == len(catalog().families["reliability"]) and text.count(r"\part{") == 1
    one = paper.document(types=["PerExampleGradientScenario"], scenarios=["DpSgdPerExampleGradients"], title="One")
    assert one.count(r"\section{") == 1 and r"\title{One}" in one
    with pytest.raises(UnknownNameError, match="unknown family 'reliabilty'; did you mean 'reliability'"):
        paper.document(family="reliabilty")


def test_compile_reports_a_missing_engine(tmp_path):
    with pytest.raises(paper.LatexCompileError, match="not installed"):
        paper.compile_pdf("x", tmp_path, engine="no-such-latex-engine")


# ---------------------------------------------------------------------- Markdown reference pages
SECTIONS = ["## Equation", "## Assumptions", "## Excludes", "## Derivation", "## References", "## Examples", "## Attributes", "## Methods"]


@pytest.mark.xdist_group("docs_site")
def test_write_docs_writes_a_page_per_type_and_an_index(docs_site, site_types):
    """The Markdown reference of the catalog: read from the docs site the session builds once (its reference folder is
    ``write_docs``'s output; writing it again here doubled the suite's costliest render).  The README's command's
    site holds a sample of types (every family); the thorough tier's every type; both the solver and application pages
    and a page per family."""
    site, written = docs_site
    tmp_path = site / "reference"
    paths = [p for p in written if p.parent == tmp_path and p.suffix == ".md"]
    cat = catalog()
    families = {f"family_{f}.md" for f, members in cat.families.items() if set(members) & set(site_types)}
    assert {p.name for p in paths} == {f"{t}.md" for t in site_types} | {"index.md", "solvers.md", "applications.md"} | families
    index = (tmp_path / "index.md").read_text()
    assert "[solvers](solvers.md)" in index and "[applications](applications.md)" in index   # in every build
    for fam, types in cat.families.items():
        assert f"## {cat.titles[fam]} (`{fam}`)" in index   # every family has a type in the sample
        for t in types:
            assert (f"[{t}]({t}.md)" in index) == (t in site_types)
    for name in site_types:
        t = cat.types[name]
        page = (tmp_path / f"{name}.md").read_text()
        headings = [line for line in page.splitlines() if line.startswith("## ")]
        assert headings == SECTIONS, name
        assert page.startswith(f"# {name}\n")
        attributes = page.split("## Attributes")[1].split("## Methods")[0]
        assert attributes.count("\n| `") == len(t.inputs) + len(t.arguments), name
        methods = page.split("## Methods")[1]
        assert methods.count("\n### `") == len(t.outputs), name
        for key in (k for k, d in cat.declared.items() if d.type_name == name):
            assert f"### {key}\n" in page


@pytest.mark.thorough
@pytest.mark.xdist_group("docs_site")
def test_every_type_has_its_reference_page_in_the_thorough_site(docs_site, site_types):
    """The checks above over every type's page (the thorough tier's site holds them all)."""
    assert site_types == sorted(catalog().types)
    test_write_docs_writes_a_page_per_type_and_an_index(docs_site, site_types)


def test_markdown_page_content():
    page = markdown_page("PerExampleGradientScenario")
    assert "$$M_{\\mathrm{batch}} = M_{\\mathrm{example}} B = P b B$$" in page
    assert "| `batch_size` | `int` | $\\mathrm{sample}$ | required | examples per step |" in page
    assert "### `per_batch(name)` → B" in page
    assert r"M_{\mathrm{batch}} &= M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B/param} \cdot 256 = 1.536\,\mathrm{TB}\quad \text{(GPT-2)}" in page
    assert "[Abadi et al. (2016)" in page and "(https://arxiv.org/abs/1607.00133)" in page
    choice = markdown_page("ClusterTrainingTimeScenario")
    assert "When `peak_precision = fp32`: $R = R_{p}$" in choice
    assert "| `flops_per_param_token` | `Quantity` |" in choice and "`6 flop/param/token`" in choice
    with pytest.raises(UnknownNameError, match="PerExampleGradientScenario"):
        markdown_page("PerExampleGradientScenari")


def test_markdown_index_of_one_family():
    text = markdown_index(family="dp")
    assert "(`dp`)" in text and "(`training`)" not in text
    with pytest.raises(UnknownNameError, match="family"):
        write_docs("/nonexistent-never-written", family="nope")


def test_solver_page_lists_every_solver_argument_and_field_with_its_equation(tmp_path):
    """The solvers page: each solver's signature is mlsysim's (its arguments in order), each result field names
    the output behind it, and that output's equation is the one the type prints."""
    import inspect

    from mlsysim_symbolic.printing import type_equations
    from mlsysim_symbolic.solvers.pages import applications_markdown, solvers, solvers_markdown

    page = solvers_markdown()
    assert len(solvers()) >= 17
    for solver in solvers():
        section = page.split(f"## `{solver.__name__}`\n")[1].split("\n## ")[0]
        names = list(inspect.signature(solver.solve).parameters)[1:]
        rows = [section.index(f"| `{n}` |") for n in names]   # each argument has its row, in mlsysim's order
        assert rows == sorted(rows), solver.__name__
        t = catalog().types[solver.type_name]
        for field, source, name in t.result.fields:
            fields_table = section.split("| field | from | equation |")[1]   # an argument may share a field's name
            row = next(line for line in fields_table.splitlines() if line.startswith(f"| `{field}` |"))
            if source in ("output", "member"):
                first = type_equations(t, name)[0][1]
                assert f"output `{name}`" in row and str(first).replace("|", "\\|") in row, (solver.__name__, field)
    apps = applications_markdown()
    for key in ("ChatbotServing", "FrontierTraining", "SmartDoorbellResponsiveChime"):
        assert f"| `{key}` |" in apps
