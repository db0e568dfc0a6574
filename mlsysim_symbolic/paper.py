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
M_{\\mathrm{example}} &= P b = 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B} = 6\\,\\mathrm{GB/sample} & & \\text{(GPT-2)} \\\\
M_{\\mathrm{batch}} &= B M_{\\mathrm{example}} = B P b = 256 \\cdot 1.5 \\times 10^{9} \\cdot 4\\,\\mathrm{B} = 1.536\\,\\mathrm{TB} & & \\text{(GPT-2)}
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

from . import siunitx as siunitx_module
from .errors import MlsysimSymbolicError, UnknownNameError, closest
from .latex import LatexConfig, Row, escape_text, rows, symbol_table, type_equations

if TYPE_CHECKING:
    from .catalog import Catalog
    from .scenario import Scenario
    from .spec import ScenarioType

#: Substituted lines longer than this (in printed characters, roughly) break at each ``=``.
BREAK_AT = 90


class LatexCompileError(MlsysimSymbolicError, RuntimeError):
    """pdflatex reported an error (or is not installed); the message quotes the log."""


def preamble(*, siunitx: bool = False) -> str:
    r"""The preamble of :func:`document`: amsmath, longtable, url (and siunitx with its ``\DeclareSIUnit`` macros).

    >>> "siunitx" in preamble(), r"\DeclareSIUnit{\param}{param}" in preamble(siunitx=True)
    (False, True)
    """
    lines = [
        r"\usepackage[utf8]{inputenc}",
        r"\usepackage[margin=2cm]{geometry}",
        r"\usepackage{amsmath,amssymb}",
        r"\usepackage{longtable}",
        r"\usepackage{url}",
        r"\allowdisplaybreaks",
        r"\setlength{\emergencystretch}{3em}",
    ]
    if siunitx:
        lines.append(siunitx_module.preamble())
    return "\n".join(lines)


def _printed_length(latex: str) -> int:
    """A rough count of the characters ``latex`` prints (commands, braces and spaces dropped)."""
    text = re.sub(r"\\(?:left|right|mathrm|text|cdot|times|qty|num|unit|quad|,)\b", "", latex)
    text = re.sub(r"\\frac", "", text)
    text = re.sub(r"\\[A-Za-z]+", "x", text)
    return len(re.sub(r"[{}^_&\s\\]", "", text))


def _align_lines(found: list[Row], *, break_long: bool = True) -> list[str]:
    """``align*`` lines: ``lhs &= a = b = result`` or, when long, one ``&= part`` per line."""
    lines = []
    for r in found:
        note = rf" & & \text{{({escape_text(', '.join(map(str, r.keys)))})}}" if r.keys else ""
        rhs = r.parts[1:]
        one = f"{r.parts[0]} &= {' = '.join(rhs)}"
        if not break_long or _printed_length(one) <= BREAK_AT or len(rhs) == 1:
            lines.append(one + note)
            continue
        lines.append(f"{r.parts[0]} &= {rhs[0]}{note}")
        lines.extend(f"&= {p}" for p in rhs[1:])
    return lines


def _align(lines: list[str]) -> str:
    return "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"


def fragment(scenario: Scenario, *keys: Any, config: LatexConfig | None = None, all_keys: bool | None = None,
             break_long: bool = False) -> str:
    """A standalone LaTeX fragment of one scenario: an ``align*`` with one line per output (and key).

    With no ``keys`` every key of a keyed output is shown (``all_keys``); with ``keys``, only those.
    The leading comments name the scenario and the packages the fragment needs.

    >>> from mlsysim_symbolic import Scenarios
    >>> print(fragment(Scenarios.Gpt3CheckpointInterval10K, config=LatexConfig(siunitx=True, sig=3)).splitlines()[4])
    S_{\\mathrm{ckpt}} &= P b = \\num{1.75e11} \\cdot \\qty{14}{\\byte} = \\qty{2.45}{\\tera\\byte} \\\\
    """
    config = config or LatexConfig()
    found = rows(scenario, *keys, config=config, all_keys=not keys if all_keys is None else all_keys)
    key = getattr(scenario, "key", scenario.type.name)
    head = [f"% mlsysim-symbolic: {key} ({scenario.type.name})", f"% {scenario.name}".rstrip()]
    needs = r"\usepackage{amsmath}" + (r", \usepackage{siunitx} and the \DeclareSIUnit lines of mlsysim_symbolic.siunitx.preamble()" if config.siunitx else "")
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
    text = escape_text(r.text + (f", {r.section}" if r.section else ""))
    if r.url:
        url = r.url.replace("\\", "/").replace("{", "%7B").replace("}", "%7D")
        text += rf" \url{{{url}}}"
    return text


def type_section(t: ScenarioType, catalog: Catalog | None = None, *, config: LatexConfig | None = None,
                 scenarios: Iterable[str] | None = None) -> str:
    """One ``\\section`` of the document: a scenario type and the substituted lines of its named scenarios.

    >>> from mlsysim_symbolic.catalog import catalog
    >>> text = type_section(catalog().types["LowRankUpdateScenario"])
    >>> [line for line in text.splitlines() if line.startswith("\\\\s")][:3]
    ['\\\\section{LowRankUpdateScenario}', '\\\\subsection*{Equations}', '\\\\subsection*{Symbols}']
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    config = config or LatexConfig()
    named = list(scenarios) if scenarios is not None else [k for k, d in cat.declared.items() if d.type_name == t.name]
    out = [rf"\section{{{escape_text(t.name)}}}", rf"\label{{type:{t.name}}}"]
    if t.summary:
        out.append(escape_text(t.summary))
    if t.description:
        out.append("\n" + escape_text(t.description))

    out.append(r"\subsection*{Equations}")
    eq_lines = []
    for name, spec in t.outputs.items():
        for i, (when, text) in enumerate(type_equations(t, name)):
            lhs, _, rhs = text.partition(" = ")
            label = escape_text(name) + (f", {escape_text(spec.choice or '')} = {escape_text(when)}" if when else (", otherwise" if i else ""))
            eq_lines.append(rf"{lhs} &= {rhs} & & \text{{{label}}}")
    out.append(_align(eq_lines))
    if t.equation_note:
        out.append(escape_text(t.equation_note))

    if named:
        table = symbol_table(cat.scenario(named[0]))
        out.append(r"\subsection*{Symbols}")
        out.append("{\\small\n" + table.to_latex(siunitx=config.siunitx, longtable=True) + "\n}")
    out += [r"\subsection*{Assumptions}", _itemize(escape_text(a) for a in t.assumptions),
            r"\subsection*{Excludes}", _itemize(escape_text(e) for e in t.excludes),
            r"\subsection*{Derivation}", escape_text(t.derivation) if t.derivation else r"\emph{(none declared)}",
            r"\subsection*{References}", _itemize(_reference(r) for r in t.references)]

    out.append(r"\subsection*{Examples}")
    if not named:
        out.append(r"\emph{(no named scenarios)}")
    for key in named:
        d = cat.declared[key]
        out.append(rf"\paragraph{{{escape_text(key)}}} {escape_text(d.name)}.")
        if d.description:
            out.append(escape_text(d.description))
        found = rows(cat.scenario(key), config=config, all_keys=True)
        if found:
            out.append("{\\small\n" + _align(_align_lines(found)) + "\n}")
        else:
            out.append(r"\emph{(every output needs an argument or an unset input)}")
    return "\n".join(out) + "\n"


def document(catalog: Catalog | None = None, *, family: str | None = None, config: LatexConfig | None = None,
             title: str | None = None, types: Iterable[str] | None = None, scenarios: Iterable[str] | None = None) -> str:
    """A complete LaTeX document: one ``\\section`` per scenario type (of ``family``, or the named ``types``).

    ``scenarios`` limits the examples to those named scenarios.  ``config.siunitx``
    selects siunitx units (and adds siunitx to the preamble).

    >>> text = document(family="training", types=["LowRankUpdateScenario"])
    >>> text.startswith(r"\\documentclass"), text.count(r"\\section{"), text.rstrip().endswith(r"\\end{document}")
    (True, 1, True)
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    config = config or LatexConfig()
    if family is not None and family not in cat.families:
        hint = closest(family, list(cat.families))
        raise UnknownNameError(f"unknown family {family!r}; known: {', '.join(sorted(cat.families))}"
                               + (f" (closest: {', '.join(hint)})" if hint else ""))
    wanted = set(types) if types is not None else None
    chosen = set(scenarios) if scenarios is not None else None
    body = []
    for fam in sorted(cat.families):
        if family is not None and fam != family:
            continue
        names = [n for n in cat.families[fam] if wanted is None or n in wanted]
        if not names:
            continue
        body.append(rf"\part{{{escape_text(cat.titles.get(fam, fam))}}}")
        for name in names:
            named = None if chosen is None else [k for k, d in cat.declared.items() if d.type_name == name and k in chosen]
            body.append(type_section(cat.types[name], cat, config=config, scenarios=named))
    if title is None:
        title = "mlsysim\\_symbolic: the equations of machine-learning systems" + (f" ({escape_text(cat.titles.get(family, family))})" if family else "")
    return "\n".join([
        r"\documentclass[10pt]{article}",
        preamble(siunitx=config.siunitx),
        rf"\title{{{title}}}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
        *body,
        r"\end{document}",
        "",
    ])


def compile_pdf(source: str, directory: str | Path | None = None, *, name: str = "paper", engine: str = "pdflatex",
                timeout: float = 300) -> Path:
    """Compile LaTeX ``source`` with ``engine`` (``-halt-on-error -interaction=nonstopmode``); return the PDF path.

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
    proc = subprocess.run([exe, "-halt-on-error", "-interaction=nonstopmode", "-file-line-error", tex.name],
                          cwd=folder, capture_output=True, text=True, errors="replace", timeout=timeout)
    pdf = folder / f"{name}.pdf"
    if proc.returncode != 0 or not pdf.exists():
        log = proc.stdout.splitlines()
        first = next((i for i, line in enumerate(log) if re.match(r"^(! |\S+\.tex:\d+: )", line)), max(0, len(log) - 20))
        excerpt = "\n".join(log[first: first + 12])
        raise LatexCompileError(f"{engine} failed on {tex} (exit {proc.returncode}):\n{excerpt}")
    return pdf


__all__ = ["BREAK_AT", "LatexCompileError", "compile_pdf", "document", "fragment", "preamble", "type_section"]
