"""Reference pages of scenario types: the docstring ``help()`` shows.

Each page follows the shape of a scenario specification: summary, Equation,
Assumptions, Excludes, Derivation, References, Inputs and Outputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy

if TYPE_CHECKING:
    from .spec import ScenarioType


def _bullets(items: tuple[str, ...] | list[str]) -> str:
    return "\n".join(f"- {item}" for item in items) if items else "- (none declared)"


def type_docstring(t: ScenarioType) -> str:
    """The plain-text reference page of scenario type ``t``."""
    lines = [f"{t.name} — {t.family} scenarios." if t.family else t.name, ""]
    if t.summary:
        lines += [t.summary, ""]
    lines += ["Equation", "--------"]
    for name, out in t.outputs.items():
        sym = out.variable.symbol
        expr = out.branches[0].expr
        lhs = f"{name}: {sym} = {sympy.sstr(expr)}"
        full = t.expand(name)
        if full != expr:
            lhs += f" = {sympy.sstr(full)}"
        if len(out.branches) > 1:
            alts = "; ".join(f"{b.when or 'else'}: {b.text}" for b in out.branches[1:])
            lhs += f"  (other forms: {alts})"
        lines.append(f"{lhs}  [{out.variable.unit_text}]")
    if t.equation_note:
        lines += ["", t.equation_note]
    lines += ["", "Assumptions", "-----------", _bullets(list(t.assumptions)), "",
              "Excludes", "--------", _bullets(list(t.excludes)), "",
              "Derivation", "----------", t.derivation or "(none declared)", ""]
    if t.references:
        lines += ["References", "----------", _bullets([str(r) for r in t.references]), ""]
    lines += ["Inputs", "------"]
    for spec in t.inputs.values():
        req = "required" if spec.required else f"default {spec.default!r}"
        lines.append(f"{spec.name} : {spec.annotation} ({req}) — {spec.meaning}")
        if spec.variable is not None:
            v = spec.variable
            lines.append(f"    symbol {v.symbol}, unit {v.unit_text}, domain {v.domain}")
        for v in spec.attributes.values():
            lines.append(f"    symbol {v.symbol} = {v.extra['paths'][0]} [{v.unit_text}] — {v.meaning}")
        if spec.options:
            lines.append(f"    one of {', '.join(spec.options)}")
    if t.arguments:
        lines += ["", "Arguments", "---------"]
        for v in t.arguments.values():
            lines.append(f"{v.name} : symbol {v.symbol}, unit {v.unit_text} — {v.meaning}")
    lines += ["", "Outputs", "-------"]
    for name, out in t.outputs.items():
        call = name
        params = [*out.key_params, *out.arguments]
        if out.style == "method":
            call = f"{name}({', '.join(params)})"
        lines.append(f"{call} -> {out.variable.unit_text}: {out.doc}")
    return "\n".join(lines)
