"""Reference pages of scenario types: the docstring ``help()`` shows, and Markdown pages; and the docs site.

Each page follows the shape of a scenario specification: summary, Equation,
Assumptions, Excludes, Derivation, References, Inputs and Outputs (plain text,
:func:`~mlsysim_symbolic.spec.page.type_docstring`); the Markdown page (:func:`markdown_page`) adds Examples
(the named scenarios with their substituted lines), Attributes and Methods, with
LaTeX math.  :func:`write_docs` writes one page per type and an index.

:func:`build_site` writes a browsable site: the reference pages (Markdown and HTML), the notebooks of
``notebooks/`` executed and converted to HTML with their figures, and an ``index.html`` linking
everything.  From a shell: ``python -m mlsysim_symbolic.docs OUT_DIR`` or ``python tools/build_site.py OUT_DIR``.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .printing import format_unit, type_equations
from .printing import rows as latex_rows
from .printing.kept import kept
from .spec.page import bullets

if TYPE_CHECKING:
    from .catalog import Catalog
    from .spec import InputSpec, ScenarioType


# ---------------------------------------------------------------------- Markdown reference pages
def _prose(text: str) -> str:
    r"""Declared prose as Markdown: a dollar sign in it is an amount ("$0.01 an image"), never a maths delimiter, so
    it is escaped (``\$``, which Markdown shows as ``$``; :func:`markdown_html` keeps the escape for MathJax).  The
    derivation files write maths in equations, never in prose.

    >>> _prose("scoring at $0.01 an image and labels at $0.50")
    'scoring at \\$0.01 an image and labels at \\$0.50'
    """
    return str(text).replace("$", r"\$")


def _md(text: str) -> str:
    """Text for a Markdown table cell (pipes and newlines escaped): maths (a unit) or :func:`_prose`."""
    return str(text).replace("|", "&#124;").replace("\n", " ")


def _default_text(spec: InputSpec) -> str:
    if spec.required:
        return "required"
    if spec.default is None:
        return "optional (unset)"
    return f"`{spec.default}`"


def _input_unit(spec: InputSpec) -> str:
    if spec.variable is not None:
        unit = format_unit(spec.variable.unit)
        return f"${unit}$" if unit else "1"
    if spec.attributes:
        parts = []
        for v in spec.attributes.values():
            unit = format_unit(v.unit)
            parts.append(f"${v.latex}$ = `{v.reads.field if v.reads else v.name}`" + (f" [${unit}$]" if unit else ""))
        return "; ".join(parts)
    if spec.options:
        return "one of " + ", ".join(f"`{o}`" for o in spec.options)
    return ""


def _named(t: ScenarioType, cat: Catalog | None) -> list[str]:
    if cat is None:
        return []
    return [k for k, d in cat.declared.items() if d.type_name == t.name]


def markdown_page(t: ScenarioType | str, catalog: Catalog | None = None, *, examples: bool = True) -> str:
    """The Markdown reference page of scenario type ``t`` (LaTeX math in ``$...$``).

    Sections: summary, Equation, Assumptions, Excludes, Derivation, References,
    Examples (the named scenarios of the type with their substituted lines),
    Attributes (inputs with type, unit, default) and Methods (each output with its equation).
    ``catalog`` defaults to the shipped catalog; ``t`` may be a type or its name.

    >>> page = markdown_page("PerExampleGradientScenario")
    >>> [line for line in page.splitlines() if line.startswith("## ")]
    ['## Equation', '## Assumptions', '## Excludes', '## Derivation', '## References', '## Examples', '## Attributes', '## Methods']
    >>> "$$M_{\\\\mathrm{batch}} = M_{\\\\mathrm{example}} B = P b B$$" in page
    True
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    if isinstance(t, str):
        if t not in cat.types:
            from .errors import UnknownNameError

            raise UnknownNameError("scenario type", t, cat.types, listed=False)
        t = cat.types[t]
    named = _named(t, cat) if examples else []
    return kept((t, cat), ("markdown page", tuple(named)), lambda: _markdown_page(t, cat, named))


#: A worked example's display blocks hold at most this many lines and this many characters of TeX (one longer line
#: stands alone): a reader scrolls one short block at a time, and MathJax typesets each within its default buffer.
EXAMPLE_BLOCK_ROWS = 6
EXAMPLE_BLOCK_CHARS = 2000


def example_blocks(rows: list[str], max_rows: int = EXAMPLE_BLOCK_ROWS,
                   max_chars: int = EXAMPLE_BLOCK_CHARS) -> list[list[str]]:
    """A worked example's aligned lines cut into display blocks, in order, of at most ``max_rows`` lines and
    ``max_chars`` characters each (a line longer than that is a block of its own).

    >>> example_blocks(["a &= 1", "b &= 2", "c &= 3"], max_rows=2)
    [['a &= 1', 'b &= 2'], ['c &= 3']]
    >>> [len(b) for b in example_blocks(["x" * 30, "y" * 5, "z" * 5], max_chars=20)]
    [1, 2]
    """
    blocks: list[list[str]] = []
    size = 0
    for row in rows:
        if not blocks or len(blocks[-1]) >= max_rows or size + len(row) > max_chars:
            blocks.append([])
            size = 0
        blocks[-1].append(row)
        size += len(row)
    return blocks


def _markdown_page(t: ScenarioType, cat: Catalog, named: list[str]) -> str:
    title = cat.titles.get(t.family, t.family)
    lines = [f"# {t.name}", ""]
    if t.family:
        lines += [f"*Family:* `{t.family}` ({title})", ""]
    if t.summary:
        lines += [_prose(t.summary), ""]
    if t.description:
        lines += [_prose(t.description), ""]

    lines += ["## Equation", ""]
    for name in t.outputs:
        for i, (when, text) in enumerate(type_equations(t, name)):
            label = f"`{name}`" + (f" when `{t.outputs[name].choice} = {when}`" if when else (" otherwise (when an input of the form above is unset)" if i else ""))
            lines += [f"{label}:", "", f"$${text}$$", ""]
    if t.equation_note:
        lines += [_prose(t.equation_note), ""]

    lines += ["## Assumptions", "", bullets([_prose(a) for a in t.assumptions]), "",
              "## Excludes", "", bullets([_prose(e) for e in t.excludes]), "",
              "## Derivation", "", _prose(t.derivation) if t.derivation else "(none declared)", "",
              "## References", ""]
    refs = []
    for r in t.references:
        text = _prose(r.text + (f", {r.section}" if r.section else ""))
        refs.append(f"[{text}]({r.url})" if r.url else text)
    lines += [bullets(refs), ""]

    lines += ["## Examples", ""]
    if not named:
        lines += ["(no named scenarios)", ""]
    for key in named:
        d = cat.declared[key]
        lines += [f'<a id="{key}"></a>', "", f"### {key}", "", f"**{_prose(d.name)}**", ""]   # the index links each one here
        if d.description:
            lines += [_prose(d.description), ""]
        if d.notes:
            lines += [f"*Notes:* {_prose(d.notes)}", ""]
        lines += ["```python", "from mlsysim_symbolic import Scenarios", f"s = Scenarios.{key}", "```", ""]
        scenario = cat.scenario(key)
        rows = [f"{r.parts[0]} &= {' = '.join(r.parts[1:])}{r.key_note()}" for r in latex_rows(scenario, all_keys=True)]
        for chunk in example_blocks(rows):
            lines += ["$$\n\\begin{aligned}\n" + " \\\\\n".join(chunk) + "\n\\end{aligned}\n$$", ""]

    lines += ["## Attributes", "", "| Name | Type | Unit | Default | Meaning |", "|---|---|---|---|---|"]
    for spec in t.inputs.values():
        lines.append(f"| `{spec.name}` | `{spec.annotation}` | {_md(_input_unit(spec))} | {_md(_default_text(spec))} | {_md(_prose(spec.meaning))} |")
    for v in t.arguments.values():
        unit = format_unit(v.unit)
        lines.append(f"| `{v.name}` (argument) | `Quantity` | {f'${unit}$' if unit else '1'} | required | {_md(_prose(v.meaning))} |")
    lines.append("")

    lines += ["## Methods", ""]
    for name, out in t.outputs.items():
        params = [*out.key_params, *out.arguments]
        call = f"{name}({', '.join(params)})" if out.style == "method" else name
        kind = {"property": "property", "dict": "property, a dict by key", "list": "property, a list in key order",
                "method": "method"}[out.style]
        lines += [f"### `{call}` → {out.variable.unit_text}", "", f"*{kind}.* {_prose(out.doc)}".rstrip(), ""]
        for i, (when, text) in enumerate(type_equations(t, name)):
            prefix = f"When `{out.choice} = {when}`: " if when else ("Otherwise: " if i else "")
            lines += [f"{prefix}$${text}$$" if not prefix else f"{prefix}${text}$", ""]
    return "\n".join(lines).rstrip() + "\n"


def markdown_index(catalog: Catalog | None = None, *, family: str | None = None,
                   types: Collection[str] | None = None) -> str:
    """``index.md``: every scenario type (of ``family``, or among ``types``, when given), grouped by family, linked to
    its page.

    >>> print(markdown_index().splitlines()[0])
    # mlsysim_symbolic scenario types
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    if family is None:
        lines = ["# mlsysim_symbolic scenario types", "",
                 f"{len(cat.types)} scenario types and {len(cat.declared)} named scenarios, by family.", ""]
    else:   # a family's own page: its title, and what its types are
        named = sum(1 for d in cat.declared.values() if d.type_name in cat.families.get(family, ()))
        lines = [f"# {cat.titles.get(family, family)}", "",
                 f"{len(cat.families.get(family, ()))} scenario types and {named} named scenarios of the family "
                 f"`{family}`; the [index](index.md) lists every family.", ""]
    for fam in sorted(cat.families):
        if family is not None and fam != family:
            continue
        members = [name for name in cat.families[fam] if types is None or name in types]
        if not members:
            continue
        lines += [f"## {cat.titles.get(fam, fam)} (`{fam}`)", "", "| Type | Summary | Named scenarios |", "|---|---|---|"]
        for name in members:
            t = cat.types[name]
            named = ", ".join(f"[`{k}`]({name}.md#{k})" for k in _named(t, cat))
            lines.append(f"| [{name}]({name}.md) | {_md(_prose(t.summary))} | {named} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_docs(out_dir: str | Path, catalog: Catalog | None = None, *, family: str | None = None,
               types: Collection[str] | None = None) -> list[Path]:
    """Write one Markdown page per scenario type (of ``family``, or among ``types``, when given) and ``index.md`` into
    ``out_dir``; for the whole shipped catalog also ``solvers.md`` and ``applications.md``
    (:mod:`mlsysim_symbolic.solvers.pages`).

    Returns the paths written, the index last.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = write_docs(d, family="reliability")
    ...     sorted(p.name for p in paths)[:2], paths[-1].name
    (['AvailabilityScenario.md', 'BulkheadAdmissionScenario.md'], 'index.md')
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    if family is not None and family not in cat.families:
        from .errors import UnknownNameError

        raise UnknownNameError("family", family, sorted(cat.families))
    unknown = sorted(set(types or ()) - set(cat.types))
    if unknown:
        from .errors import UnknownNameError

        raise UnknownNameError("scenario type", unknown[0], sorted(cat.types))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, t in cat.types.items():
        if (family is not None and t.family != family) or (types is not None and name not in types):
            continue
        path = out / f"{name}.md"
        path.write_text(markdown_page(t, cat), encoding="utf-8")
        written.append(path)
    index_text = markdown_index(cat, family=family, types=types)
    if cat is shipped() and family is None:   # the shipped catalog: the solvers and applications composed of it (in a
        # sampled build, too: their links to the types left out of the sample are the only ones without a page)
        from .solvers.pages import applications_markdown, solvers_markdown

        for name, text in (("solvers.md", solvers_markdown()), ("applications.md", applications_markdown())):
            (out / name).write_text(text, encoding="utf-8")
            written.append(out / name)
        index_text += ("\nmlsysim's analytic solvers, as compositions of these types: [solvers](solvers.md); its "
                       "application scenarios, evaluated in three levels: [applications](applications.md).\n")
    index = out / "index.md"
    index.write_text(index_text, encoding="utf-8")
    written.append(index)
    return written


# ---------------------------------------------------------------------- the docs site
NOTEBOOKS = ("quickstart", "sensitivity", "new_scenario", "solvers")
SITE_EXTRA = 'pip install -e ".[test]"'
#: The site's own MathJax (3.2.2, TeX in, SVG out, every TeX extension: ``assets/mathjax/README.md``), copied into
#: ``assets/`` of the site and loaded by a relative path from every page and notebook: nothing from the network.
MATHJAX_FILE = Path(__file__).resolve().parent / "assets" / "mathjax" / "tex-svg-full.js"
#: TeX input's buffer for macro expansion: MathJax's default (5 kB) gave up ("internal buffer size exceeded") on the
#: worked examples of the largest types; 1 MB lets every page of the catalog render.
MATHJAX_BUFFER = 1024 * 1024
NBCONVERT_TEMPLATES = Path(__file__).resolve().parent / "assets" / "nbconvert"


def mathjax(up: str = "") -> str:
    """The script tags loading the site's MathJax from ``{up}assets/mathjax/`` (relative: the site works offline).

    >>> print(mathjax("../"))   # doctest: +NORMALIZE_WHITESPACE
    <script>window.MathJax = {tex: {inlineMath: [["$", "$"]], displayMath: [["$$", "$$"]], processEscapes: true,
    maxBuffer: 1048576}, svg: {fontCache: "global"}};</script>
    <script defer src="../assets/mathjax/tex-svg-full.js"></script>
    """
    return ('<script>window.MathJax = {tex: {inlineMath: [["$", "$"]], displayMath: [["$$", "$$"]], processEscapes: true, '
            f'maxBuffer: {MATHJAX_BUFFER}}}, svg: {{fontCache: "global"}}}};</script>\n'
            f'<script defer src="{up}assets/mathjax/{MATHJAX_FILE.name}"></script>')


STYLE = ("body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;vertical-align:top}"
         "pre{background:#f6f8fa;padding:.6rem;overflow-x:auto}code{background:#f6f8fa}"
         'mjx-container[display="true"]{overflow-x:auto;overflow-y:hidden}')   # a wide line scrolls in its column


def notebooks_dir(start: str | Path | None = None) -> Path:
    """The ``notebooks/`` folder of a source checkout: beside the package, or under ``start`` (default: the
    working directory).  A wheel does not ship the notebooks, so an installed copy raises a clear error.

    >>> sorted(p.stem for p in notebooks_dir().glob("*.ipynb"))
    ['new_scenario', 'quickstart', 'sensitivity', 'solvers']
    """
    here = Path(__file__).resolve().parent
    candidates = [here.parent / "notebooks", Path(start if start is not None else Path.cwd()) / "notebooks"]
    for folder in candidates:
        if all((folder / f"{name}.ipynb").is_file() for name in NOTEBOOKS):
            return folder
    raise FileNotFoundError(
        "cannot find the notebooks/ folder (looked in " + ", ".join(str(c) for c in candidates) + "): the notebooks are part "
        "of the source repository, not of an installed wheel; build the site from a checkout "
        "(git clone ...; pip install -e \".[test]\") or pass notebooks=PATH")


def _page(title: str, body: str, *, up: str = "") -> str:
    """A standalone HTML page with MathJax for the ``$...$`` math of the reference pages."""
    nav = f'<p><a href="{up}index.html">&larr; mlsysim_symbolic documentation</a></p>' if up else ""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>\n"
            f"<style>{STYLE}</style>\n{mathjax(up)}</head>\n<body>{nav}\n{body}\n</body></html>\n")


_DOLLAR = "MLSYSIMESCAPEDDOLLAR"   # a word Markdown leaves as it is


def markdown_html(text: str) -> str:
    """Markdown (with ``$...$`` math kept for MathJax) as an HTML fragment; links to ``X.md`` become ``X.html``.

    >>> markdown_html("See [the page](PerExampleGradientScenario.md), $P b$.")
    '<p>See <a href="PerExampleGradientScenario.html">the page</a>, $P b$.</p>\\n'
    """
    try:
        from nbconvert.filters.markdown import markdown2html
    except ImportError as exc:
        raise ModuleNotFoundError(f"the docs site needs nbconvert: {SITE_EXTRA}", name="nbconvert") from exc
    # an escaped dollar (an amount in prose, \$) is kept escaped through Markdown, which would unescape it, for
    # MathJax, which shows \$ as a dollar sign and never opens maths on it
    text = text.replace("\\$", _DOLLAR)
    out = re.sub(r'href="([A-Za-z0-9_./-]+)\.md(#[A-Za-z0-9_-]+)?"', r'href="\1.html\2"', markdown2html(text))
    return out.replace(_DOLLAR, "\\$")


def _notebook_title(nb: object, fallback: str) -> str:
    for cell in getattr(nb, "cells", []):
        if cell.cell_type == "markdown":
            first = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
            if first.startswith("# "):
                return first[2:].strip()
    return fallback


def run_notebook(path: str | Path, *, timeout: int = 600, kernel_name: str = "python3") -> object:
    """Execute the notebook at ``path`` top to bottom (nbclient, in its own folder) and return the executed
    notebook; a cell that raises stops the run with an error naming the notebook."""
    try:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
    except ImportError as exc:
        raise ModuleNotFoundError(f"executing notebooks needs nbclient and nbformat: {SITE_EXTRA}", name="nbclient") from exc
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel_name, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as exc:
        raise RuntimeError(f"notebook {path.name} failed while building the docs site:\n{exc}") from exc
    return nb


def build_reference(out_dir: str | Path, catalog: Catalog | None = None, *, types: Collection[str] | None = None) -> list[Path]:
    """The reference half of the site in ``out_dir``: ``assets/mathjax/`` (the site's one MathJax, :data:`MATHJAX_FILE`)
    and ``reference/``, each page of :func:`write_docs` as Markdown and HTML.  Returns the paths written.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     names = sorted(p.name for p in build_reference(d, types=["PerExampleGradientScenario"]))
    >>> names[:4]
    ['LICENSE', 'PerExampleGradientScenario.html', 'PerExampleGradientScenario.md', 'applications.html']
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    out = Path(out_dir)
    written: list[Path] = []
    assets = out / "assets" / "mathjax"
    assets.mkdir(parents=True, exist_ok=True)
    for shipped_file in (MATHJAX_FILE, MATHJAX_FILE.with_name("LICENSE")):   # the one MathJax of pages and notebooks
        shutil.copyfile(shipped_file, assets / shipped_file.name)
        written.append(assets / shipped_file.name)
    reference = out / "reference"
    pages = write_docs(reference, cat, types=types)
    for fam in sorted(cat.families):   # a page per family: its types, what each answers, its named scenarios
        if any(types is None or n in types for n in cat.families[fam]):
            family_page = reference / f"family_{fam}.md"
            family_page.write_text(markdown_index(cat, family=fam, types=types), encoding="utf-8")
            pages.insert(-1, family_page)
    for md in pages:
        page = md.with_suffix(".html")
        text = md.read_text(encoding="utf-8")
        title = text.splitlines()[0].lstrip("# ").strip() if text else md.stem
        page.write_text(_page(title, markdown_html(text), up="../"), encoding="utf-8")
        written += [md, page]
    return written


def build_site(out_dir: str | Path, *, notebooks: str | Path | None = None, catalog: Catalog | None = None,
               timeout: int = 600, kernel_name: str = "python3", types: Collection[str] | None = None) -> list[Path]:
    """Write the docs site into ``out_dir`` and return the paths written, ``index.html`` last.

    - ``reference/``: one Markdown page per scenario type and its index (:func:`write_docs`), each also as HTML;
    - ``notebooks/``: each notebook of :data:`NOTEBOOKS` executed (outputs and figures kept) as ``.ipynb``
      and converted to ``.html`` with its plots embedded (nbclient and nbconvert, in the ``[test]`` extra);
    - ``index.html``: links to the notebooks and the reference, by family.

    ``notebooks`` is the folder holding the notebooks (default: :func:`notebooks_dir`); ``types`` limits the reference
    to those scenario types (the index then links only their pages).
    """
    try:
        import nbformat
        from nbconvert import HTMLExporter
    except ImportError as exc:
        raise ModuleNotFoundError(f"the docs site needs nbconvert and nbformat: {SITE_EXTRA}", name="nbconvert") from exc
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    source = Path(notebooks) if notebooks is not None else notebooks_dir()
    missing = [name for name in NOTEBOOKS if not (source / f"{name}.ipynb").is_file()]
    if missing:
        raise FileNotFoundError(f"{source}: no {', '.join(f'{m}.ipynb' for m in missing)}")
    out = Path(out_dir)
    written = build_reference(out, cat, types=types)

    folder = out / "notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(template_name="site", extra_template_basedirs=[str(NBCONVERT_TEMPLATES)])
    titles = {}
    for name in NOTEBOOKS:
        nb = run_notebook(source / f"{name}.ipynb", timeout=timeout, kernel_name=kernel_name)
        titles[name] = _notebook_title(nb, name)
        executed = folder / f"{name}.ipynb"
        nbformat.write(nb, executed)
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": titles[name]},
                                                             "site_mathjax": mathjax("../")})
        page = folder / f"{name}.html"
        page.write_text(body, encoding="utf-8")
        written += [executed, page]

    items = "".join(f'<li><a href="notebooks/{n}.html">{html.escape(t)}</a> (<a href="notebooks/{n}.ipynb">executed notebook</a>)</li>'
                    for n, t in titles.items())
    families = "".join(
        f'<li><a href="reference/family_{fam}.html">{html.escape(cat.titles.get(fam, fam))}</a>: '
        + ", ".join(f'<a href="reference/{n}.html">{html.escape(n)}</a>' for n in cat.families[fam] if types is None or n in types)
        + "</li>" for fam in sorted(cat.families) if any(types is None or n in types for n in cat.families[fam]))
    pages = {p.name for p in written}
    composed = "".join(f'<li><a href="reference/{n}.html">{label}</a></li>' for n, label in (
        ("solvers", "mlsysim's analytic solvers, as compositions of the types"),
        ("applications", "mlsysim's application scenarios, evaluated in three levels")) if f"{n}.html" in pages)
    composed = f"<h2>Solvers and applications</h2>\n<ul>{composed}</ul>\n" if composed else ""
    body = (f"<h1>mlsysim_symbolic documentation</h1>\n<p>The back-of-envelope equations of machine-learning systems as "
            f"SymPy expression trees with units: numbers, LaTeX and sensitivities from one declaration.</p>\n"
            f"<h2>Notebooks</h2>\n<p>Executed when this site was built, with their outputs and figures.</p>\n<ul>{items}</ul>\n"
            f"<h2>Reference</h2>\n<p><a href=\"reference/index.html\">{'All ' if types is None else ''}"
            f"{len(cat.types) if types is None else len(types)} scenario types</a> "
            f"and {len(cat.declared)} named scenarios, by family:</p>\n<ul>{families}</ul>\n{composed}")
    index = out / "index.html"
    index.write_text(_page("mlsysim_symbolic documentation", body), encoding="utf-8")
    written.append(index)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mlsysim_symbolic.docs OUT_DIR [--notebooks DIR]``: build the docs site (:func:`build_site`)."""
    parser = argparse.ArgumentParser(prog="python -m mlsysim_symbolic.docs", description=(
        "Build the docs site: reference pages, the notebooks executed and converted to HTML, and an index."))
    parser.add_argument("out_dir", metavar="OUT_DIR", help="folder to write the site into")
    parser.add_argument("--notebooks", help="folder holding the notebooks (default: notebooks/ of the source checkout)")
    args = parser.parse_args(argv)
    try:
        paths = build_site(args.out_dir, notebooks=args.notebooks)
    except (FileNotFoundError, ModuleNotFoundError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(paths)} files; open {paths[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
