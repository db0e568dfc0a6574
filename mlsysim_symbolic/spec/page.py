"""The plain-text reference page of a scenario type: the docstring ``help()`` shows.

Each page follows the shape of a scenario specification: summary, Equation, Assumptions,
Excludes, Derivation, References, Inputs (each described by its kind), Arguments and Outputs.
"""

from __future__ import annotations

import sympy

from .kinds import kind_of
from .types import ScenarioType


def bullets(items: tuple[str, ...] | list[str]) -> str:
    """Items as a Markdown/plain-text bullet list (``- (none declared)`` when empty)."""
    return "\n".join(f"- {item}" for item in items) if items else "- (none declared)"


def _equation_lines(t: ScenarioType) -> list[str]:
    lines = []
    for name, out in t.outputs.items():
        expr = out.branches[0].expr
        line = f"{name}: {out.variable.symbol} = {sympy.sstr(expr)}"
        full = t.expand(name)
        if full != expr:
            line += f" = {sympy.sstr(full)}"
        if len(out.branches) > 1:
            line += "  (other forms: " + "; ".join(f"{b.when or 'else'}: {b.text}" for b in out.branches[1:]) + ")"
        lines.append(f"{line}  [{out.variable.unit_text}]")
    return lines


def _input_lines(t: ScenarioType) -> list[str]:
    lines = []
    for spec in t.inputs.values():
        req = "required" if spec.required else f"default {spec.default!r}"
        lines.append(f"{spec.name} : {spec.annotation} ({req}) — {spec.meaning}")
        lines += kind_of(spec).describe(spec)
    return lines


def type_docstring(t: ScenarioType) -> str:
    """The plain-text reference page of scenario type ``t``.

    >>> t = ScenarioType.from_mapping("Bytes", {"summary": "Bytes of P parameters.",
    ...     "inputs": {"params": {"symbol": "P", "unit": "param"}, "width": {"symbol": "b", "unit": "B/param"}},
    ...     "outputs": {"size": {"symbol": "W", "unit": "B", "equation": "P * b", "doc": "stored bytes"}}})
    >>> print(type_docstring(t).splitlines()[6])
    size: W = P*b  [B]
    """
    lines = [f"{t.name} — {t.family} scenarios." if t.family else t.name, ""]
    if t.summary:
        lines += [t.summary, ""]
    lines += ["Equation", "--------", *_equation_lines(t)]
    if t.equation_note:
        lines += ["", t.equation_note]
    lines += ["", "Assumptions", "-----------", bullets(list(t.assumptions)), "",
              "Excludes", "--------", bullets(list(t.excludes)), "",
              "Derivation", "----------", t.derivation or "(none declared)", ""]
    if t.references:
        lines += ["References", "----------", bullets([str(r) for r in t.references]), ""]
    lines += ["Inputs", "------", *_input_lines(t)]
    if t.arguments:
        lines += ["", "Arguments", "---------"]
        lines += [f"{v.name} : symbol {v.symbol}, unit {v.unit_text} — {v.meaning}" for v in t.arguments.values()]
    lines += ["", "Outputs", "-------"]
    for name, out in t.outputs.items():
        params = [*out.key_params, *out.arguments]
        call = f"{name}({', '.join(params)})" if out.style == "method" else name
        lines.append(f"{call} -> {out.variable.unit_text}: {out.doc}")
    return "\n".join(lines)
