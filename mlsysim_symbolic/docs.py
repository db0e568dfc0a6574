"""Reference pages of scenario types: the docstring ``help()`` shows, and Markdown pages.

Each page follows the shape of a scenario specification: summary, Equation,
Assumptions, Excludes, Derivation, References, Inputs and Outputs (plain text,
:func:`~mlsysim_symbolic.spec.page.type_docstring`); the Markdown page (:func:`markdown_page`) adds Examples
(the named scenarios with their substituted lines), Attributes and Methods, with
LaTeX math.  :func:`write_docs` writes one page per type and an index.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .printing import format_unit, type_equations
from .printing import rows as latex_rows
from .spec.page import bullets

if TYPE_CHECKING:
    from .catalog import Catalog
    from .spec import InputSpec, ScenarioType


# ---------------------------------------------------------------------- Markdown reference pages
def _md(text: str) -> str:
    """Prose for a Markdown table cell (pipes and newlines escaped)."""
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
            parts.append(f"${v.latex}$ = `{v.extra['paths'][0]}`" + (f" [${unit}$]" if unit else ""))
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
            from .errors import UnknownNameError, closest

            hint = closest(t, list(cat.types))
            raise UnknownNameError(f"unknown scenario type {t!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""))
        t = cat.types[t]
    title = cat.titles.get(t.family, t.family)
    lines = [f"# {t.name}", ""]
    if t.family:
        lines += [f"*Family:* `{t.family}` ({title})", ""]
    if t.summary:
        lines += [t.summary, ""]
    if t.description:
        lines += [t.description, ""]

    lines += ["## Equation", ""]
    for name in t.outputs:
        for i, (when, text) in enumerate(type_equations(t, name)):
            label = f"`{name}`" + (f" when `{t.outputs[name].choice} = {when}`" if when else (" otherwise (when an input of the form above is unset)" if i else ""))
            lines += [f"{label}:", "", f"$${text}$$", ""]
    if t.equation_note:
        lines += [t.equation_note, ""]

    lines += ["## Assumptions", "", bullets(list(t.assumptions)), "",
              "## Excludes", "", bullets(list(t.excludes)), "",
              "## Derivation", "", t.derivation or "(none declared)", "",
              "## References", ""]
    refs = []
    for r in t.references:
        text = r.text + (f", {r.section}" if r.section else "")
        refs.append(f"[{text}]({r.url})" if r.url else text)
    lines += [bullets(refs), ""]

    lines += ["## Examples", ""]
    named = _named(t, cat) if examples else []
    if not named:
        lines += ["(no named scenarios)", ""]
    for key in named:
        d = cat.declared[key]
        lines += [f"### {key}", "", f"**{d.name}**", ""]
        if d.description:
            lines += [d.description, ""]
        if d.notes:
            lines += [f"*Notes:* {d.notes}", ""]
        lines += ["```python", "from mlsysim_symbolic import Scenarios", f"s = Scenarios.{key}", "```", ""]
        scenario = cat.scenario(key)
        block = latex_rows(scenario, all_keys=True)
        if block:
            body = " \\\\\n".join(f"{r.parts[0]} &= {' = '.join(r.parts[1:])}{r.key_note()}" for r in block)
            lines += ["$$\n\\begin{aligned}\n" + body + "\n\\end{aligned}\n$$", ""]

    lines += ["## Attributes", "", "| Name | Type | Unit | Default | Meaning |", "|---|---|---|---|---|"]
    for spec in t.inputs.values():
        lines.append(f"| `{spec.name}` | `{spec.annotation}` | {_md(_input_unit(spec))} | {_md(_default_text(spec))} | {_md(spec.meaning)} |")
    for v in t.arguments.values():
        unit = format_unit(v.unit)
        lines.append(f"| `{v.name}` (argument) | `Quantity` | {f'${unit}$' if unit else '1'} | required | {_md(v.meaning)} |")
    lines.append("")

    lines += ["## Methods", ""]
    for name, out in t.outputs.items():
        params = [*out.key_params, *out.arguments]
        call = f"{name}({', '.join(params)})" if out.style == "method" else name
        kind = {"property": "property", "dict": "property, a dict by key", "method": "method"}[out.style]
        lines += [f"### `{call}` → {out.variable.unit_text}", "", f"*{kind}.* {out.doc}".rstrip(), ""]
        for i, (when, text) in enumerate(type_equations(t, name)):
            prefix = f"When `{out.choice} = {when}`: " if when else ("Otherwise: " if i else "")
            lines += [f"{prefix}$${text}$$" if not prefix else f"{prefix}${text}$", ""]
    return "\n".join(lines).rstrip() + "\n"


def markdown_index(catalog: Catalog | None = None, *, family: str | None = None) -> str:
    """``index.md``: every scenario type, grouped by family, linked to its page.

    >>> print(markdown_index().splitlines()[0])
    # mlsysim_symbolic scenario types
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    lines = ["# mlsysim_symbolic scenario types", "",
             f"{len(cat.types)} scenario types and {len(cat.declared)} named scenarios, by family.", ""]
    for fam in sorted(cat.families):
        if family is not None and fam != family:
            continue
        lines += [f"## {cat.titles.get(fam, fam)} (`{fam}`)", "", "| Type | Summary | Named scenarios |", "|---|---|---|"]
        for name in cat.families[fam]:
            t = cat.types[name]
            named = ", ".join(f"`{k}`" for k in _named(t, cat))
            lines.append(f"| [{name}]({name}.md) | {_md(t.summary)} | {named} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_docs(out_dir: str | Path, catalog: Catalog | None = None, *, family: str | None = None) -> list[Path]:
    """Write one Markdown page per scenario type (of ``family`` when given) and ``index.md`` into ``out_dir``.

    Returns the paths written, the index last.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = write_docs(d, family="reliability")
    ...     sorted(p.name for p in paths)[:2], paths[-1].name
    (['AvailabilityScenario.md', 'CheckpointIntervalScenario.md'], 'index.md')
    """
    from .catalog import catalog as shipped

    cat = catalog if catalog is not None else shipped()
    if family is not None and family not in cat.families:
        from .errors import UnknownNameError

        raise UnknownNameError(f"unknown family {family!r}; known: {', '.join(sorted(cat.families))}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, t in cat.types.items():
        if family is not None and t.family != family:
            continue
        path = out / f"{name}.md"
        path.write_text(markdown_page(t, cat), encoding="utf-8")
        written.append(path)
    index = out / "index.md"
    index.write_text(markdown_index(cat, family=family), encoding="utf-8")
    written.append(index)
    return written
