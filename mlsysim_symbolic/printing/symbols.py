r"""Symbol tables: each symbol of a scenario with its meaning (as the declaration states it) and unit.

Meanings read as prose a physicist writes: Python operators in them become math
(``hidden_dim // heads`` reads ``⌊hidden_dim / heads⌋``); units are written as in a
paper (``pJ/bit``).

>>> from mlsysim_symbolic import Scenarios
>>> t = symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example")
>>> t.rows[0]
('P', 'parameters of the named model (one gradient of them per example)', '\\mathrm{param/sample}')
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import reductions
from .quantities import format_unit
from .text import escape_text, prose

if TYPE_CHECKING:
    from ..scenario import Scenario

__all__ = ["SymbolTable", "breakable_symbol", "symbol_table"]


#: The columns of the ``longtable`` form: each a paragraph of its own width (package ``array``), so that a long
#: unit or symbol wraps in its column instead of pushing the table past the margin.
_LONG_COLUMNS = "".join(rf">{{\raggedright\arraybackslash}}p{{{share}\linewidth}}" for share in (0.17, 0.53, 0.2))


_CODE_NAME = re.compile(r"\\mathrm\{([A-Za-z0-9]+(?:\\[_ ][A-Za-z0-9]+)+)\}")


def breakable_symbol(latex: str) -> str:
    r"""``latex`` with each upright name (``\mathrm{tp\_activations}``) allowed to break after its underscores and spaces:
    TeX breaks no line inside one ``\mathrm`` group, so a long name would stick out of a narrow column.

    >>> breakable_symbol(r"\mathrm{tp\_per\_device} + x_{\mathrm{in}}")
    '\\mathrm{tp\\_}\\allowbreak\\mathrm{per\\_}\\allowbreak\\mathrm{device} + x_{\\mathrm{in}}'
    """
    def split(m: re.Match[str]) -> str:
        parts = re.split(r"(?<=\\[_ ])", m.group(1))   # each word with the separator after it
        return r"\allowbreak".join(rf"\mathrm{{{p}}}" for p in parts)

    return _CODE_NAME.sub(split, latex)


def _math(text: str) -> str:
    return f"${text}$" if text else "1"


@dataclass(frozen=True)
class SymbolTable:
    """Rows of (symbol LaTeX, meaning, unit LaTeX) for a scenario's symbols."""

    rows: tuple[tuple[str, str, str], ...]
    siunitx_units: tuple[str, ...] = ()

    def to_latex(self, *, siunitx: bool = False, longtable: bool = False) -> str:
        """A ``tabular`` (or ``longtable``, whose wrapping columns need ``array``) of symbol, meaning and unit; meanings
        are escaped for pdflatex.

        >>> from mlsysim_symbolic import Scenarios
        >>> print(symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example").to_latex(siunitx=True).splitlines()[4])
        $P$ & parameters of the named model (one gradient of them per example) & $\\unit{\\param\\per\\sample}$ \\\\
        """
        units = self.siunitx_units if siunitx and self.siunitx_units else tuple(r[2] for r in self.rows)
        body = " \\\\\n".join(f"${breakable_symbol(s) if longtable else s}$ & {escape_text(m)} & {_math(u)}"
                                for (s, m, _), u in zip(self.rows, units))
        env = "longtable" if longtable else "tabular"
        spec = _LONG_COLUMNS if longtable else "lll"
        return (f"\\begin{{{env}}}{{{spec}}}\n\\hline\nSymbol & Meaning & Unit \\\\\n\\hline\n" + body
                + (" \\\\\n" if body else "") + f"\\hline\n\\end{{{env}}}")

    def to_records(self) -> list[dict[str, str]]:
        """The rows as ``{"symbol", "meaning", "unit"}`` dicts.

        >>> from mlsysim_symbolic import Scenarios
        >>> symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example").to_records()[1]
        {'symbol': 'b', 'meaning': 'gradient bytes per parameter', 'unit': '\\\\mathrm{B/param}'}
        """
        return [{"symbol": s, "meaning": m, "unit": u} for s, m, u in self.rows]

    def to_markdown(self) -> str:
        """A Markdown table with ``$...$`` math.

        >>> from mlsysim_symbolic import Scenarios
        >>> print(symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example").to_markdown().splitlines()[2])
        | $P$ | parameters of the named model (one gradient of them per example) | $\\mathrm{param/sample}$ |
        """
        lines = ["| Symbol | Meaning | Unit |", "|---|---|---|"]
        for s, m, u in self.rows:
            lines.append(f"| ${s}$ | {m.replace('|', '&#124;').replace(chr(10), ' ')} | {_math(u)} |")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        cells = "".join(f"<tr><td>${s}$</td><td>{html.escape(m)}</td><td>{_math(u)}</td></tr>" for s, m, u in self.rows)
        return f"<table><thead><tr><th>Symbol</th><th>Meaning</th><th>Unit</th></tr></thead><tbody>{cells}</tbody></table>"

    def __str__(self) -> str:
        return self.to_latex()


def symbol_table(scenario: Scenario, output: str | None = None) -> SymbolTable:
    """The symbols of ``output`` (or of all outputs) with meaning and unit; an output's symbols in its declared order.

    >>> from mlsysim_symbolic import Scenarios
    >>> [row[0] for row in symbol_table(Scenarios.DpSgdPerExampleGradients, "per_example").rows]
    ['P', 'b', 'M_{\\\\mathrm{example}}']
    """
    t = scenario.type
    variables = [*t.leaves.values(), *t.composed_variables.values(), *(o.variable for o in t.outputs.values())]
    if output is not None:
        wanted = _symbols_in(scenario.expression(output, expand=True)) | set(scenario.expression(output).free_symbols)
        wanted.add(t.output(output).variable.symbol)
        variables = [v for v in variables if v.symbol in wanted]
    rows, si_units, seen = [], [], set()
    for var in variables:
        if var.symbol in seen:
            continue
        seen.add(var.symbol)
        rows.append((var.latex, prose(var.meaning or var.name.replace("_", " ")), format_unit(var.unit)))
        si_units.append(format_unit(var.unit, siunitx=True))
    return SymbolTable(tuple(rows), tuple(si_units))


def _symbols_in(expr: Any) -> set[Any]:
    """The symbols of ``expr``, each shared subtree visited once (SymPy's ``free_symbols`` walks the tree, which
    for outputs built on each other is 2**n nodes); a sum or product gives its free symbols, not its bound index."""
    seen: set[int] = set()
    found: set[Any] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, reductions.NODES):
            found |= node.free_symbols
        elif getattr(node, "is_Symbol", False):
            found.add(node)
        else:
            stack.extend(getattr(node, "args", ()))
    return found
