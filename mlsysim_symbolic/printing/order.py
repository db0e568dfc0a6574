"""The author's order of symbols: first appearance in the declared equation text, outputs inlined.

SymPy sorts the factors of ``2 * L * n_kv * d_h * b_kv`` alphabetically; a paper prints
them as written.  :func:`symbol_order` reads the text of an output's equation (every
form of it) and, where the text names an earlier output, that output's text in turn, and
numbers the symbols as they first appear; :mod:`.printer` sorts by it.

>>> from mlsysim_symbolic import Scenarios
>>> t = Scenarios.Gpt3CheckpointInterval10K.type
>>> [s.name for s in symbol_order(t, "interval")]
['delta', 'delta_w', 'S_ckpt', 'P', 'b', 'B_w', 'M']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import sympy

if TYPE_CHECKING:
    from ..spec import ScenarioType

__all__ = ["symbol_order"]

_TOKEN = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _names(t: ScenarioType) -> dict[str, sympy.Symbol]:
    names: dict[str, sympy.Symbol] = {}
    variables = [*t.leaves.values(), *t.arguments.values(), *t.composed_variables.values()]
    for var in variables:
        names.setdefault(var.name, var.symbol)
        names.setdefault(var.symbol.name, var.symbol)
    return names


def symbol_order(t: ScenarioType, output: str) -> dict[sympy.Symbol, int]:
    """Each symbol of ``output``'s equation (and of the outputs it names, inlined) by its first position in the text."""
    names = _names(t)
    outputs: dict[str, str] = {}
    for name, out in t.outputs.items():
        outputs.setdefault(name, name)
        outputs.setdefault(out.variable.symbol.name, name)
    order: dict[sympy.Symbol, int] = {}
    visited: set[str] = set()

    def add(sym: sympy.Symbol) -> None:
        order.setdefault(sym, len(order))

    def visit(name: str) -> None:
        if name in visited:
            return
        visited.add(name)
        for branch in t.outputs[name].branches:
            for token in _TOKEN.findall(branch.text):
                if token in outputs:
                    add(t.outputs[outputs[token]].variable.symbol)
                    visit(outputs[token])
                elif token in names:
                    sym = names[token]
                    add(sym)
                    if sym in t.composed:   # a used type's output: its leaves in the tree's order
                        for node in _preorder(t.composed[sym]):
                            if isinstance(node, sympy.Symbol) and node in t.leaves:
                                add(node)

    visit(output)
    return order


def _preorder(expr: sympy.Basic) -> Iterator[sympy.Basic]:
    """``expr``'s nodes in preorder, the arguments of a ``Max`` or ``Min`` by their text: SymPy keeps those as a set
    and orders them by a key that can tie, so their order (and every symbol order read from it) followed the
    process's string hashes, and one equation printed two ways in two processes."""
    yield expr
    args = expr.args
    if isinstance(expr, (sympy.Max, sympy.Min)):
        args = tuple(sorted(args, key=str))
    for arg in args:
        yield from _preorder(arg)
