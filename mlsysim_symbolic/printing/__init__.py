r"""LaTeX for scenarios, following SymPy's printer pattern: one printer per job, one style per unit notation.

Modules: :mod:`.config` (the frozen :class:`LatexConfig`), :mod:`.text` (escaping every
piece of scenario text), :mod:`.numbers` (significant figures, scientific notation),
:mod:`.units` (unit symbols, a result's prefix), :mod:`.base` with :mod:`.mathrm` and
:mod:`.siunitx` (one formatter per unit style), :mod:`.quantities`, :mod:`.order` (the
author's term order), :mod:`.printer` (:class:`SymbolPrinter` and its substituting
subclass :class:`ValuePrinter`), :mod:`.equations` (equations, substituted lines,
results, align blocks, labels) and :mod:`.symbols` (symbol tables); for the paper, :mod:`.breaking`
(long equations broken to the line, wide subterms named), :mod:`.citations` (the declared references as
a bibliography) and :mod:`.prose_math` (formulas written in prose set as maths).

>>> from mlsysim_symbolic import Scenarios
>>> print(substituted(Scenarios.DpSgdPerExampleGradients, "per_batch", "GPT-2"))
M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B/param} \cdot 256 = 1.536\,\mathrm{TB}
"""

from __future__ import annotations

from .base import UnitStyle
from .config import DEFAULT, Latex, LatexConfig, split_options
from .equations import (
    SKIPPED,
    Row,
    align,
    equation,
    equation_label,
    printed_length,
    result,
    rows,
    substituted,
    substituted_parts,
    type_equations,
    type_names,
)
from .mathrm import MathrmStyle
from .numbers import format_number, split_number
from .order import symbol_order
from .printer import Radical, SymbolPrinter, ValuePrinter, arrange, with_subscript
from .quantities import format_quantity, format_unit, style
from .siunitx import DECLARED_UNITS, PREFIX_MACROS, SI_MACROS, SiunitxStyle, preamble, siunitx_number, siunitx_unit
from .symbols import SymbolTable, symbol_table
from .text import breakable_text, comment, escape_text, key_text, label, prose, url
from .units import COUNT_UNITS, PREFIX_LIMITS, PREFIXABLE, compact_quantity, result_quantity, unit_symbol

__all__ = [
    "COUNT_UNITS", "DECLARED_UNITS", "DEFAULT", "PREFIXABLE", "PREFIX_LIMITS", "PREFIX_MACROS", "SI_MACROS", "SKIPPED",
    "Latex", "LatexConfig", "MathrmStyle", "Radical", "Row", "SiunitxStyle", "SymbolPrinter", "SymbolTable", "UnitStyle",
    "ValuePrinter", "align", "arrange", "breakable_text", "comment", "compact_quantity", "equation", "equation_label", "escape_text",
    "format_number", "format_quantity", "format_unit", "key_text", "label", "preamble", "printed_length", "prose",
    "result", "result_quantity", "rows", "siunitx_number", "siunitx_unit", "split_number", "split_options", "style",
    "substituted", "substituted_parts", "symbol_order", "symbol_table", "type_equations", "type_names", "unit_symbol",
    "url", "with_subscript",
]
