"""Paper export: a scenario as a LaTeX fragment, the catalog (or a family) as a complete document.

:func:`fragment` is what ``mlsysim-symbolic latex NAME`` prints: the substituted
lines of every output of one named scenario, ready to ``\\input`` into a paper whose
preamble has :func:`preamble`.  :func:`document` is ``--document``: one
``\\section`` per scenario type with its equations, symbol table, assumptions,
excludes, derivation, references and the substituted lines of its named
scenarios.  :func:`compile_pdf` runs ``pdflatex`` and fails on any LaTeX error.

>>> from mlsysim_symbolic import Scenarios
>>> print(fragment(Scenarios.DpSgdPerExampleGradients, "GPT-2"))
% mlsysim-symbolic: DpSgdPerExampleGradients (PerExampleGradientScenario)
% Per-example FP32 gradients for the KWS DS-CNN and GPT-2 at batch 256
% needs \\usepackage{amsmath}
\\begin{align*}
M_{\\mathrm{example}} &= P b = 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B/param} = 6\\,\\mathrm{GB/sample} & & \\text{(GPT-2)} \\\\
M_{\\mathrm{batch}} &= M_{\\mathrm{example}} B = P b B = 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B/param} \\cdot 256 = 1.536\\,\\mathrm{TB} & & \\text{(GPT-2)}
\\end{align*}
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputError, LatexCompileError, UnknownNameError
from .printing import (
    LatexConfig,
    Row,
    breakable_text,
    comment,
    equation_label,
    escape_text,
    label,
    printed_length,
    rows,
    symbol_table,
    type_equations,
    type_names,
)
from .printing import preamble as siunitx_preamble
from .printing.breaking import name_wide, split_list, wrap
from .printing.breaking import width as line_width
from .printing.citations import bibliography, citation
from .printing.kept import kept
from .printing.prose_math import prose_math

if TYPE_CHECKING:
    from .catalog import Catalog
    from .scenario import Scenario
    from .spec import ScenarioType

#: Where a long CamelCase scenario name may break: before each capital that follows a small letter or a digit.
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

#: Printed characters kept free between an equation and its note (``align`` spaces its column pairs apart).
NOTE_GAP = 4

#: The widest row of an equation's note (its output's name, its condition), in printed characters: a longer note
#: continues on the next rows, so that one long name does not narrow every equation of its block.
NOTE_ROW = 16
#: A left side wider than this (printed characters) gets an ``align`` of its own: the right sides of an ``align``
#: all start after its widest left side.
LONG_LHS = 12

#: Named scenarios worked in full per type in the document; the others are named and left to the documentation site.
EXAMPLES_PER_TYPE = 3

#: Lines wider than this (printed characters, roughly: see :func:`printed_length`) break at each ``=`` (long sides at ``+``/``-``).
BREAK_AT = 80



def preamble(*, siunitx: bool = False) -> str:
    r"""The preamble of :func:`document`: amsmath, longtable, array, url, hyperref (and siunitx with its ``\DeclareSIUnit`` macros).

    >>> "siunitx" in preamble(), r"\DeclareSIUnit{\param}{param}" in preamble(siunitx=True)
    (False, True)
    """
    lines = [
        r"\usepackage[utf8]{inputenc}",
        r"\usepackage[margin=2cm]{geometry}",
        r"\usepackage{amsmath,amssymb}",
        r"\usepackage{longtable,array}",
        r"\usepackage{url}",
        r"\usepackage{graphicx}",
        r"\usepackage{xcolor}",
        r"\allowdisplaybreaks",
        r"\setlength{\emergencystretch}{3em}",
    ]
    if siunitx:
        lines.append(siunitx_preamble())
    lines += [   # hyperref last, as its manual asks
        r"\usepackage{hyperref}",
        r"\hypersetup{colorlinks=true, linkcolor=blue!50!black, citecolor=green!40!black, urlcolor=blue!60!black,"
        r" pdftitle={mlsysim\_symbolic}}",
    ]
    return "\n".join(lines)


def _lines(lhs: str, sides: list[str], note: str = "", tag: str | None = None, *, width: int = BREAK_AT,
           keep_last: bool = True, reserve: int | None = None, lhs_width: int | None = None,
           more_notes: tuple[str, ...] = ()) -> list[str]:
    r"""The lines of one equation in an ``align``: ``lhs &= a = b`` on one line when it fits, else a side per line.

    A long side is cut at its ``+``/``-`` signs; a side after the first (the expanded form, the
    numbers; the last one too unless ``keep_last``, the result) that cannot be cut to fit is left out.  ``note`` goes to the right (``\text{(GPT-2)}``); ``tag`` (a
    ``\label``) numbers the first line and ``\notag`` the others.  ``reserve`` is the width of the
    widest note of the block (an ``align`` sets every note right of its widest equation), ``lhs_width`` that of
    its widest left side (the right sides start after it); with a note, :data:`NOTE_GAP` more is kept free for
    the space ``align`` puts between its columns.  ``more_notes`` continue the note on the following rows (a
    long note in rows keeps the note column, and so every equation of the block, from being squeezed).

    >>> _lines("y", ["a + b", "1 + 2", "3"], r"\text{(k)}")
    ['y &= a + b = 1 + 2 = 3 & & \\text{(k)}']
    >>> _lines("y", ["a"], r"\text{y,}", r"\label{y}", more_notes=(r"\text{if $a$ is set}",))
    ['y &= a & & \\text{y,} \\label{y}', '& & \\text{if $a$ is set} \\notag']
    >>> _lines("y", ["a + b", "1 + 2", "3"], width=5)
    ['y &= a + b', '&= 1 + 2', '&= 3']
    """
    width -= ((printed_length(note) if reserve is None else reserve) + (printed_length(lhs) // 2 if lhs_width is None else lhs_width)
              + (NOTE_GAP if note else 0))
    last = len(sides) - 1 if keep_last else -1
    kept = [side for i, side in enumerate(sides) if i in (0, last) or wrap(side, width) is not None]
    end = (f" & & {note}" if note else "") + (f" {tag}" if tag else "")
    one = f"{lhs} &= {' = '.join(kept)}"
    if line_width(one) <= width:
        return _noted([one + end], (), more_notes, tag)
    out, named = [], []
    for i, side in enumerate(kept):
        wrapped = wrap(side, width)
        if wrapped is None:   # one term wider than the line (a case analysis in a product): its wide subterms named
            side, more = name_wide(side, width, first=len(named) + 1)
            named += more
            wrapped = wrap(side, width) or split_list(side, width) or [side]
        for j, piece in enumerate(wrapped):
            out.append(((f"{lhs} &= " if i == 0 else "&= ") if j == 0 else r"&\quad ") + piece)
    defs = []
    for k, (name, definition) in enumerate(named):   # the names' definitions, on lines of their own
        for j, piece in enumerate(wrap(definition, width) or split_list(definition, width) or [definition]):
            defs.append(((r"\intertext{where} " if k == 0 else "") + f"{name} &= " if j == 0 else r"&\quad ") + piece)
    out[0] += end
    return _noted(out, defs, more_notes, tag)


def _noted(rows: list[str], defs: list[str], more_notes: tuple[str, ...], tag: str | None) -> list[str]:
    """``rows`` with ``more_notes`` on their second row on (rows of their own past the last), then ``defs``;
    every row after the first ``\notag`` when the first is numbered."""
    rows = list(rows)
    for k, note in enumerate(more_notes, start=1):
        if k < len(rows):
            rows[k] += f" & & {note}"
        else:
            rows.append(f"& & {note}")
    rows += defs
    if tag:
        rows[1:] = [line + r" \notag" for line in rows[1:]]
    return rows


def _align_lines(found: list[Row], *, break_long: bool = True) -> list[str]:
    """``align*`` lines: ``lhs &= a = b = result``, or, when long (and ``break_long``), broken as :func:`_lines` does."""
    lines = []
    notes = [rf"\text{{({escape_text(', '.join(map(str, r.keys)))})}}" if r.keys else "" for r in found]
    reserve = max((printed_length(n) for n in notes), default=0)
    lhs_width = max((printed_length(r.parts[0]) for r in found), default=0)
    for r, note in zip(found, notes):
        if break_long:
            lines.extend(_lines(r.parts[0], list(r.parts[1:]), note, reserve=reserve, lhs_width=lhs_width))
        else:
            lines.append(f"{r.parts[0]} &= {' = '.join(r.parts[1:])}" + (f" & & {note}" if note else ""))
    return lines


def _align(lines: list[str], *, numbered: bool = False) -> str:
    env = "align" if numbered else "align*"
    return f"\\begin{{{env}}}\n" + " \\\\\n".join(lines) + f"\n\\end{{{env}}}"


def _prose(text: str, names: dict[str, str] | None = None) -> str:
    """Escaped prose that may break after ``_``, ``/`` and ``.`` inside long identifiers and paths; with ``names``
    (a type's symbols: code name -> LaTeX), each ``NAME = FORMULA`` in it set as maths (:func:`prose_math`)."""
    return breakable_text(text) if names is None else prose_math(text, names)


def fragment(scenario: Scenario, *keys: Any, config: LatexConfig | None = None, all_keys: bool | None = None,
             break_long: bool = False) -> str:
    """A standalone LaTeX fragment of one scenario: an ``align*`` with one line per output (and key).

    With no ``keys`` every key of a keyed output is shown (``all_keys``); with ``keys``, only those.
    The leading comments name the scenario and the packages the fragment needs.

    >>> from mlsysim_symbolic import Scenarios
    >>> print(fragment(Scenarios.Gpt3CheckpointInterval10K, config=LatexConfig(siunitx=True, sig=3)).splitlines()[4])
    S_{\\mathrm{ckpt}} &= P b = \\num{1.75e11} \\cdot \\qty{14}{\\byte\\per\\param} = \\qty{2.45}{\\tera\\byte} \\\\
    """
    config = config or LatexConfig()
    found = rows(scenario, *keys, config=config, all_keys=not keys if all_keys is None else all_keys)
    key = getattr(scenario, "key", scenario.type.name)
    head = [f"% mlsysim-symbolic: {comment(key)} ({comment(scenario.type.name)})", f"% {comment(scenario.name)}".rstrip()]
    needs = r"\usepackage{amsmath}" + (r", \usepackage{siunitx} and the \DeclareSIUnit lines of mlsysim_symbolic.printing.preamble()" if config.siunitx else "")
    head.append(f"% needs {needs}")
    if not found:
        return "\n".join(head) + "\n% (every output needs an argument or an unset input)\n"
    return "\n".join(head) + "\n" + _align(_align_lines(found, break_long=break_long)) + "\n"


def _itemize(items: Iterable[str]) -> str:
    items = list(items)
    if not items:
        return r"\emph{(none declared)}"
    return "\\begin{itemize}\n" + "\n".join(f"\\item {i}" for i in items) + "\n\\end{itemize}"


def _reference(r: Any) -> str:
    """A reference where a type is printed: its work cited (entry of the bibliography), the section as the note."""
    return citation(r)


def _note_rows(words: list[str], *, sep: str = "", limit: int = NOTE_ROW) -> list[str]:
    r"""``\text`` rows of the note column: ``words`` (already LaTeX) packed, joined by ``sep``, into rows of at most
    ``limit`` printed characters (a longer word alone on its row).

    >>> _note_rows(["damped\\_", "exceeds\\_", "joint\\_", "limit"])
    ['\\text{damped\\_exceeds\\_}', '\\text{joint\\_limit}']
    """
    rows: list[str] = []
    for word in words:
        if rows and printed_length(rows[-1] + sep + word) <= limit:
            rows[-1] += sep + word
        else:
            rows.append(word)
    return [rf"\text{{{row}}}" for row in rows]


def _form_notes(t: ScenarioType, name: str, count: int) -> list[str]:
    """The condition of each form of an output chosen as the first whose inputs are set: ``if $h_{0}$ is set`` for
    each form but the last (the symbols it reads that no later form reads), ``otherwise`` for the last."""
    names = type_names(t)
    branches = t.output(name).branches
    if count == 1 or len(branches) != count:
        return [""] * count
    notes = []
    for i, branch in enumerate(branches):
        if i == count - 1:
            notes.append("otherwise")
            continue
        later = set().union(*(b.expr.free_symbols for b in branches[i + 1:]))
        own = sorted((s for s in branch.expr.free_symbols - later if s in names), key=lambda s: branch.text.find(s.name))
        shown = ", ".join(f"${names[s]}$" for s in own)
        notes.append(f"if {shown} {'is' if len(own) == 1 else 'are'} set" if own else "if its inputs are set")
    return notes


def type_section(t: ScenarioType, catalog: Catalog | None = None, *, config: LatexConfig | None = None,
                 scenarios: Iterable[str] | None = None, examples: int | None = EXAMPLES_PER_TYPE) -> str:
    """One ``\\section`` of the document: a scenario type and the substituted lines of its named scenarios.

    The first ``examples`` named scenarios are worked in full (all of them with None); the others are named
    and left to the type's page of the documentation site.

    >>> from mlsysim_symbolic.catalog import catalog
    >>> text = type_section(catalog().types["LowRankUpdateScenario"])
    >>> [line for line in text.splitlines() if line.startswith("\\\\s")][:3]
    ['\\\\section{LowRankUpdateScenario}', '\\\\subsection*{Equations}', '\\\\subsection*{Symbols}']
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    config = config or LatexConfig()
    named = list(scenarios) if scenarios is not None else [k for k, d in cat.declared.items() if d.type_name == t.name]
    if examples is not None and (isinstance(examples, bool) or not isinstance(examples, int) or examples < 0):
        raise InputError(f"examples: expected a whole number of worked examples per type (0 or more) or None, got {examples!r}")
    return kept((t, cat), ("type section", config, tuple(named), examples), lambda: _type_section(t, cat, config, named, examples))


def _type_section(t: ScenarioType, cat: Catalog, config: LatexConfig, named: list[str], examples: int | None) -> str:
    out = [rf"\section{{{escape_text(t.name)}}}", rf"\label{{{label('type', t.name)}}}"]
    symbols = {sym.name: latex for sym, latex in type_names(t).items()}
    if t.summary:
        out.append(_prose(t.summary, symbols))
    if t.description:
        out.append("\n" + _prose(t.description, symbols))

    out.append(r"\subsection*{Equations}")
    forms = []
    for name, spec in t.outputs.items():
        declared = type_equations(t, name)
        conditions = _form_notes(t, name, len(declared)) if spec.choice is None else [""] * len(declared)
        for i, (when, text) in enumerate(declared):
            lhs, _, rhs = text.partition(" = ")
            condition = f"{escape_text(spec.choice or '')} = {escape_text(when)}" if when else conditions[i]
            words = [escape_text(w) for w in re.findall(r"[^_]+_?|_", name)]
            words[-1] += "," if condition else ""
            notes = _note_rows(words) + (_note_rows(re.findall(r"(?:\$[^$]*\$|[^\s$])+", condition), sep=" ") if condition else [])
            tag = rf"\label{{{equation_label(t, name, when if when else (str(i) if i else None))}}}"
            forms.append((lhs, rhs.split(" = "), notes, tag))
    blocks: list[list[Any]] = []
    for form in forms:   # a long left side in a block of its own: the right sides of a block start after its widest
        if not blocks or printed_length(form[0]) > LONG_LHS or printed_length(blocks[-1][-1][0]) > LONG_LHS:
            blocks.append([])
        blocks[-1].append(form)
    for block in blocks:
        reserve = max((printed_length(n) for f in block for n in f[2]), default=0)
        lhs_width = max((printed_length(f[0]) for f in block), default=0)
        eq_lines = [line for lhs, sides, notes, tag in block
                    for line in _lines(lhs, sides, notes[0], tag, keep_last=False, width=BREAK_AT - 10, reserve=reserve,
                                       lhs_width=lhs_width, more_notes=tuple(notes[1:]))]
        out.append(_align(eq_lines, numbered=True))
    if t.equation_note:
        out.append(_prose(t.equation_note, symbols))

    if named:
        table = symbol_table(cat.scenario(named[0]))
        out.append(r"\subsection*{Symbols}")
        out.append("{\\small\n" + table.to_latex(siunitx=config.siunitx, longtable=True) + "\n}")
    out += [r"\subsection*{Assumptions}", _itemize(_prose(a, symbols) for a in t.assumptions),
            r"\subsection*{Excludes}", _itemize(_prose(e, symbols) for e in t.excludes),
            r"\subsection*{Derivation}", _prose(t.derivation, symbols) if t.derivation else r"\emph{(none declared)}",
            r"\subsection*{References}", _itemize(_reference(r) for r in t.references)]
    shown, rest = (named, []) if examples is None else (named[:examples], named[examples:])

    out.append(r"\subsection*{Examples}")
    if not named:
        out.append(r"\emph{(no named scenarios)}")
    for key in shown:
        d = cat.declared[key]
        out.append(f"% scenario {comment(key)}: {comment(d.name)}")
        out.append(rf"\paragraph{{{escape_text(key)}}} {escape_text(d.name)}.")
        if d.description:
            out.append(_prose(d.description, symbols))
        if d.notes:
            out.append(r"\emph{Notes:} " + _prose(d.notes, symbols))
        found = rows(cat.scenario(key), config=config, all_keys=True)
        if found:
            out.append("{\\small\n" + _align(_align_lines(found)) + "\n}")
        else:
            out.append(r"\emph{(every output needs an argument or an unset input)}")
    if rest:
        listed = ", ".join(r"\texttt{" + _CAMEL.sub(r"\\allowbreak{}", _prose(k)) + "}" for k in rest)
        out.append(rf"\paragraph{{Further examples}} {len(rest)} more named scenario{'s' if len(rest) > 1 else ''} of this type"
                   rf" ({listed}) {'are' if len(rest) > 1 else 'is'} worked in full on the type's page of the documentation"
                   rf" site (\texttt{{{_prose(t.name)}.html}}, written by \texttt{{mlsysim-symbolic docs}}).")
    return "\n".join(out) + "\n"


def document(catalog: Catalog | None = None, *, family: str | None = None, config: LatexConfig | None = None,
             title: str | None = None, types: Iterable[str] | None = None, scenarios: Iterable[str] | None = None,
             examples: int | None = EXAMPLES_PER_TYPE) -> str:
    """A complete LaTeX document: one ``\\section`` per scenario type (of ``family``, or the named ``types``).

    ``scenarios`` limits the examples to those named scenarios, ``examples`` the number worked in
    full per type (:func:`type_section`).  ``config.siunitx`` selects siunitx units (and adds
    siunitx to the preamble).  The document has a table of contents and a bibliography of the
    declared references of its types, each cited in its type's section; compile it twice
    (:func:`compile_pdf` does) for the contents and the citations.

    >>> text = document(family="training", types=["LowRankUpdateScenario"])
    >>> text.startswith(r"\\documentclass"), text.count(r"\\section{"), text.rstrip().endswith(r"\\end{document}")
    (True, 1, True)
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    config = config or LatexConfig()
    if family is not None and family not in cat.families:
        raise UnknownNameError("family", family, sorted(cat.families))
    wanted = set(types) if types is not None else None
    chosen = set(scenarios) if scenarios is not None else None
    body, cited = [], []
    for fam in sorted(cat.families):
        if family is not None and fam != family:
            continue
        names = [n for n in cat.families[fam] if wanted is None or n in wanted]
        if not names:
            continue
        body.append(rf"\part{{{escape_text(cat.titles.get(fam, fam))}}}")
        for name in names:
            named = None if chosen is None else [k for k, d in cat.declared.items() if d.type_name == name and k in chosen]
            body.append(type_section(cat.types[name], cat, config=config, scenarios=named, examples=examples))
            cited += cat.types[name].references
    if title is None:
        title = "mlsysim\\_symbolic: the equations of machine-learning systems" + (f" ({escape_text(cat.titles.get(family, family))})" if family else "")
    return "\n".join([
        r"\documentclass[10pt]{article}",
        preamble(siunitx=config.siunitx),
        rf"\title{{{title}}}",
        r"\date{}",
        r"\begin{document}",
        r"\sloppy",
        r"\maketitle",
        r"\tableofcontents",
        *body,
        bibliography(cited),
        r"\end{document}",
        "",
    ])


def compile_pdf(source: str, directory: str | Path | None = None, *, name: str = "paper", engine: str = "pdflatex",
                timeout: float = 300, passes: int | None = None) -> Path:
    """Compile LaTeX ``source`` with ``engine`` (``-halt-on-error -interaction=nonstopmode``); return the PDF path.

    ``passes`` runs of the engine (default: two when the source has a table of contents, citations or
    references, whose numbers the first run writes to the ``.aux``/``.toc`` files for the second; else one).

    Raises :class:`LatexCompileError` with the first error of the log when the engine fails,
    writes no PDF, or is not installed.  ``directory`` defaults to a new temporary folder.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     pdf = compile_pdf("\\\\documentclass{article}\\n\\\\begin{document}\\n$x = 1$\\n\\\\end{document}\\n", folder)
    ...     pdf.name, pdf.exists()
    ('paper.pdf', True)
    """
    exe = shutil.which(engine)
    if exe is None:
        raise LatexCompileError(f"{engine} is not installed (Debian: apt-get install texlive-latex-base texlive-latex-recommended texlive-science)")
    folder = Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="mlsysim-latex-"))
    folder.mkdir(parents=True, exist_ok=True)
    tex = folder / f"{name}.tex"
    tex.write_text(source, encoding="utf-8")
    if passes is None:
        passes = 2 if any(m in source for m in (r"\tableofcontents", r"\cite", r"\ref{", r"\eqref{")) else 1
    if isinstance(passes, bool) or not isinstance(passes, int) or passes < 1:
        raise InputError(f"passes: expected a whole number of engine runs (1 or more), got {passes!r}")
    for _ in range(passes):
        proc = subprocess.run([exe, "-halt-on-error", "-interaction=nonstopmode", "-file-line-error", tex.name],
                              cwd=folder, capture_output=True, text=True, errors="replace", timeout=timeout)
        if proc.returncode != 0:
            break
    pdf = folder / f"{name}.pdf"
    if proc.returncode != 0 or not pdf.exists():
        log = proc.stdout.splitlines()
        first = next((i for i, line in enumerate(log) if re.match(r"^(! |\S+\.tex:\d+: )", line)), max(0, len(log) - 20))
        excerpt = "\n".join(log[first: first + 12])
        raise LatexCompileError(f"{engine} failed on {tex} (exit {proc.returncode}):\n{excerpt}")
    return pdf


__all__ = ["BREAK_AT", "EXAMPLES_PER_TYPE", "LatexCompileError", "compile_pdf", "document", "fragment", "preamble", "type_section"]
