"""The docs site builds from the repository: reference pages, the four notebooks executed and converted
to HTML with their figures, and an index linking everything."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.docs import NOTEBOOKS, build_site, notebooks_dir


@pytest.fixture(autouse=True, scope="module")
def _notebook_tools():
    """nbformat, nbconvert and nbclient (the [test] extra) imported when the first test here runs, not while
    collecting (they take 2 s to import)."""
    for name in ("nbformat", "nbconvert", "nbclient"):
        pytest.importorskip(name)
IMAGE = re.compile(r'<img[^>]*src="data:image/png;base64,')


@pytest.fixture(scope="module")
def site(docs_site):
    """The site built once per session (``tests/conftest.py``; ``tests/test_notebooks.py`` reads its notebooks)."""
    return docs_site


@pytest.mark.xdist_group("docs_site")
def test_every_reference_page_is_written_as_markdown_and_html(site, site_types):
    """Every page the site was built for (a sample of types in the README's command, every type in the thorough
    tier: ``test_the_thorough_site_has_a_page_for_every_type``)."""
    out, written = site
    assert "PerExampleGradientScenario" in site_types
    for name in [*site_types, "index"]:
        for suffix in (".md", ".html"):
            page = out / "reference" / f"{name}{suffix}"
            assert page in written and page.stat().st_size > 100, page
    page = (out / "reference" / "PerExampleGradientScenario.html").read_text()
    assert "<h2" in page and "M_{\\mathrm{batch}}" in page and "MathJax" in page       # math kept for MathJax
    index = (out / "reference" / "index.html").read_text()
    assert 'href="PerExampleGradientScenario.html"' in index and ".md\"" not in index   # links point at the HTML pages


@pytest.mark.xdist_group("docs_site")
def test_every_notebook_ran_without_error_and_shows_its_figures(site):
    import nbformat

    out, written = site
    for name in NOTEBOOKS:
        page, executed = out / "notebooks" / f"{name}.html", out / "notebooks" / f"{name}.ipynb"
        assert page in written and executed in written
        nb = nbformat.read(executed, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code and all(c.execution_count is not None for c in code), f"{name}: a cell did not run"
        errors = [o for c in code for o in c.outputs if o.output_type == "error"]
        assert not errors, f"{name}: {errors[0].ename}: {errors[0].evalue}"
        text = page.read_text()
        assert len(IMAGE.findall(text)) >= 1, f"{name}: no embedded PNG figure in the HTML"
        assert "jp-OutputArea-output" in text
    sensitivity = (out / "notebooks" / "sensitivity.html").read_text()
    assert len(IMAGE.findall(sensitivity)) >= 3      # tornado, heat map, regime map


@pytest.mark.xdist_group("docs_site")
def test_the_index_links_every_page(site, site_types):
    out, written = site
    index = out / "index.html"
    assert written[-1] == index
    html = index.read_text()
    links = re.findall(r'href="([^"#]+)"', html)
    for name in NOTEBOOKS:
        assert f"notebooks/{name}.html" in links
    assert "reference/index.html" in links
    assert all((out / link).is_file() for link in links), [link for link in links if not (out / link).is_file()]
    # every type page of the site, its index, the solvers and applications pages, and a page per family
    families = {f for f, members in catalog().families.items() if set(members) & set(site_types)}
    assert {f"reference/family_{f}.html" for f in families} <= set(links)
    assert len([link for link in links if link.startswith("reference/")]) == len(site_types) + 3 + len(families)
    assert {"reference/solvers.html", "reference/applications.html"} <= set(links)


#: A tag that makes a browser load something: a script, a stylesheet or an image by address, or a module imported
#: by a script (nbconvert's mermaid loader); a link (``<a href>``) to a reference's web page loads nothing.
LOADS = re.compile(r"""<(?:script|img|iframe)\b[^>]*\bsrc\s*=\s*["']([^"']+)["']|<link\b[^>]*\bhref\s*=\s*["']([^"']+)["']"""
                   r"""|\bimport\(\s*["']([^"']+)["']""", re.IGNORECASE)


@pytest.mark.xdist_group("docs_site")
def test_the_site_loads_nothing_from_the_network(site):
    """Every page and notebook of the site works offline: nothing is loaded from an address (MathJax, require.js and
    mermaid came from CDNs), and the maths comes from the one MathJax shipped with the site, by a relative path."""
    out, written = site
    pages = [p for p in written if p.suffix == ".html"]
    assert len(pages) > 10
    for page in pages:
        text = page.read_text(encoding="utf-8")
        loaded = [next(g for g in m.groups() if g) for m in LOADS.finditer(text)]
        remote = [u for u in loaded if re.match(r"^(?:[a-z]+:)?//", u, re.IGNORECASE) and not u.startswith("data:")]
        assert not remote, f"{page.relative_to(out)} loads {remote}"
        scripts = [u for u in loaded if u.endswith("tex-svg-full.js")]
        assert len(scripts) == 1, f"{page.relative_to(out)}: {scripts}"
        assert (page.parent / scripts[0]).resolve() == (out / "assets" / "mathjax" / "tex-svg-full.js").resolve()
        assert "maxBuffer: 1048576" in text   # the largest worked examples fit MathJax's TeX buffer
    assert (out / "assets" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000
    assert "Apache License" in (out / "assets" / "mathjax" / "LICENSE").read_text()


@pytest.mark.xdist_group("docs_site")
def test_every_link_of_the_site_resolves_and_every_named_scenario_is_linked(site, site_types):
    """Each relative link of every page reaches a page of the site (and its anchor), but for the type pages a sampled
    build leaves out; the reference index links every named scenario of the types it lists to its worked example."""
    out, written = site
    left_out = {f"{t}.html" for t in catalog().types} - {f"{t}.html" for t in site_types}
    for page in (p for p in written if p.suffix == ".html"):
        text = page.read_text(encoding="utf-8")
        for link in re.findall(r'<a\b[^>]*\bhref="([^"]+)"', text):
            if re.match(r"^(?:[a-z]+:|//)", link, re.IGNORECASE):
                continue
            path, _, anchor = link.partition("#")
            target = (page.parent / path).resolve() if path else page
            if not target.is_file():
                assert target.parent == (out / "reference").resolve() and target.name in left_out, \
                    f"{page.relative_to(out)} links {link}"
                continue
            if anchor:
                assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), f"{page.relative_to(out)} links {link}"
    index = (out / "reference" / "index.html").read_text(encoding="utf-8")
    cat = catalog()
    named = [key for key, d in cat.declared.items() if d.type_name in site_types]
    assert named
    for key in named:
        assert f'href="{cat.declared[key].type_name}.html#{key}"' in index, key


@pytest.mark.thorough
@pytest.mark.xdist_group("docs_site")
def test_the_thorough_site_has_a_page_for_every_type(site, site_types):
    """With the thorough tier the session's site holds every type's reference page (the checks above then cover
    them all); the solver and application pages come with the whole catalog."""
    out, written = site
    assert site_types == sorted(catalog().types)
    assert {p.name for p in written if p.parent == out / "reference" and p.suffix == ".md"} == (
        {f"{t}.md" for t in site_types} | {"index.md", "solvers.md", "applications.md"}
        | {f"family_{f}.md" for f in catalog().families})
    for name in site_types:
        page = out / "reference" / f"{name}.html"
        assert page in written and page.stat().st_size > 100, page


def test_without_notebooks_the_error_says_where_they_live(tmp_path):
    with pytest.raises(FileNotFoundError, match="no quickstart.ipynb"):
        build_site(tmp_path / "out", notebooks=tmp_path)
    assert notebooks_dir() == Path(__file__).resolve().parent.parent / "notebooks"


def test_an_installed_copy_without_notebooks_says_so(tmp_path, monkeypatch):
    from mlsysim_symbolic import docs

    monkeypatch.setattr(docs, "__file__", str(tmp_path / "site-packages" / "mlsysim_symbolic" / "docs.py"))
    monkeypatch.chdir(tmp_path)                              # no notebooks/ in the working directory either
    with pytest.raises(FileNotFoundError, match="not of an installed wheel"):
        docs.notebooks_dir(tmp_path)
    assert docs.main([str(tmp_path / "out")]) == 1          # the command reports it as an error, exit status 1


@pytest.mark.xdist_group("docs_site")
def test_the_docs_site_group_is_scheduled_as_one(request):
    """Under pytest-xdist's ``--dist loadgroup`` (pyproject's addopts) a grouped test's id carries its group, which is
    what the scheduler reads to send the group to one worker.  pytest-xdist 3.8 writes it where pytest 9 no longer
    reads it (``Item._nodeid``): the group was split silently and the other worker sat idle on the site's lock for
    45 s of the README's command (hence ``pytest<9`` in the test extra)."""
    import os

    if os.environ.get("PYTEST_XDIST_WORKER") is None or not request.config.getvalue("loadgroup"):
        pytest.skip("runs under pytest-xdist with --dist loadgroup (the README's command)")
    assert request.node.nodeid.endswith("@docs_site"), request.node.nodeid


def test_a_dollar_amount_in_prose_is_never_read_as_maths():
    """Prose dollars are amounts: ActiveLearningBudgetScenario's description (derivations/agents_*.toml) reads
    "Hosted-model scoring at $0.01 an image and labels at $0.50" and its named scenario is "... on a $50K budget";
    MathJax read the span between two dollars as maths ("scoring at *0.01animageandlabelsat*0.50").  The page keeps
    them escaped (\\$, which Markdown and MathJax show as a dollar sign), and its equations keep their maths."""
    from mlsysim_symbolic.docs import markdown_html, markdown_page

    md = markdown_page("ActiveLearningBudgetScenario")
    page = markdown_html(md)
    for text in (md, page):
        assert r"scoring at \$0.01 an image and labels at \$0.50" in text
        assert r"on a \$50K budget" in text
        assert not re.search(r"(?<!\\)\$(0\.01|0\.50|50K)", text)
    assert "$$" in page   # the equations are still maths


def test_a_long_worked_example_is_cut_into_short_blocks_that_keep_every_line():
    """KvAttentionDesignScenario's worked example was one aligned block of 19 lines, which MathJax refused at its
    default buffer ("internal buffer size exceeded", as on DistributedTrainingStepScenario's nine) and a reader
    could only scroll as a whole.
    Each example is now blocks of at most 6 lines and 2,000 characters (a longer line alone), and together they
    are every line of the example, in order."""
    from mlsysim_symbolic.docs import EXAMPLE_BLOCK_CHARS, EXAMPLE_BLOCK_ROWS, markdown_page
    from mlsysim_symbolic.printing import rows as latex_rows

    cat = catalog()
    md = markdown_page("KvAttentionDesignScenario")
    examples = md.split("## Examples", 1)[1].split("## Attributes", 1)[0]
    sections = examples.split("<a id=")[1:]
    assert sections
    for section in sections:
        key = section.split('"')[1]
        blocks = re.findall(r"\$\$\n\\begin\{aligned\}\n(.*?)\n\\end\{aligned\}\n\$\$", section, flags=re.S)
        lines = [line for b in blocks for line in b.split(" \\\\\n")]
        expected = latex_rows(cat.scenario(key), all_keys=True)
        assert len(lines) == len(expected) > EXAMPLE_BLOCK_ROWS, key
        assert [line.split(" &= ")[0] for line in lines] == [r.parts[0] for r in expected], key
        for b in blocks:
            rows = b.split(" \\\\\n")
            assert len(rows) <= EXAMPLE_BLOCK_ROWS, key
            assert len(rows) == 1 or sum(map(len, rows)) <= EXAMPLE_BLOCK_CHARS, key
