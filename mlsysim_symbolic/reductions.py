"""Reductions over the keys of an index, as SymPy nodes: ``sum``, ``prod``, ``maximum``, ``minimum``, ``argmax``.

``sum(expr, k)`` and ``prod(expr, k)`` are SymPy's own :class:`~sympy.Sum` and :class:`~sympy.Product`.
The largest and smallest term over the keys (``maximum(cost, region)``, mlsysim's ``max(d.values())``) and
which key gives it (a label: ``lowest = argmin(intensity, grid)``, mlsysim's ``min(d, key=d.get)``) are
the nodes here: they keep the index as a bound variable like a sum does, are dimension-checked like one,
print as ``\\max_{k}``, and the plan writes them out over the bound keys as SymPy's ``Max``/``Min`` (so
derivatives and compilation are the existing ones) or, for an argmax, as a piecewise choice of the key's
position.

>>> import sympy
>>> k, n, x = sympy.Symbol("k", integer=True, positive=True), sympy.Symbol("N_k", integer=True, positive=True), sympy.Symbol("x")
>>> Maximum(2 * x, (k, 1, n)).function
2*x
>>> isinstance(Minimum(x, (k, 1, n)), NODES)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits


class KeyReduction(ExprWithLimits):
    """A reduction over the keys of one index (``limits`` = ((k, 1, N_k),)), written out by the plan."""

    #: the SymPy function the written-out terms go into
    combine: Any = None


class Maximum(KeyReduction):
    """``maximum(expr, k)``: the largest term over the keys of ``k`` (``Max`` of the terms once written out)."""

    combine = sympy.Max


class Minimum(KeyReduction):
    """``minimum(expr, k)``: the smallest term over the keys of ``k`` (``Min`` of the terms once written out)."""

    combine = sympy.Min


class ArgMax(KeyReduction):
    """The position (0 for the first key) of the largest term over the keys of ``k``: a label's tree."""

    strict = sympy.Gt
    wins = sympy.Ge


class ArgMin(KeyReduction):
    """The position (0 for the first key) of the smallest term over the keys of ``k``: a label's tree."""

    strict = sympy.Lt
    wins = sympy.Le


class Earliest(KeyReduction):
    """``earliest(w, relation)``: each key's earliest start over an acyclic graph whose edges ``relation`` lists (each
    key's predecessors, listed before it), every key taking ``w``: ``S_i = max over j in relation(i) of (S_j + w_j)``,
    0 for a key with none (the critical path method's forward pass).  Limits ``((k, 1, n_k), (R_relation, 0, 0))``: keyed
    by ``k`` through its position leaf, the relation named by the second; the plan writes it out over the bound graph.
    """


class FirstFitDecreasing(KeyReduction):
    """``first_fit_decreasing(w, C, k)``: keyed by ``k``, at the key in position ``b`` the load of bin ``b`` when every
    key's size ``w`` is placed largest first into the first bin whose load plus the size is at most ``C`` (0 past the
    last bin used; at most as many bins as keys).  Limits ``((k, 1, n_k), (capacity, 0, C))``: keyed by ``k`` through
    its position leaf, the capacity the second limit's upper bound; the plan writes it out as one
    :class:`mlsysim_symbolic.packing.first_fit_load` per bin.

    >>> k, n, w, C = sympy.Symbol("k", integer=True, positive=True), sympy.Symbol("n_k", integer=True, positive=True), sympy.Symbol("w"), sympy.Symbol("C")
    >>> sorted(FirstFitDecreasing(w, (k, 1, n), (CAPACITY, 0, C)).free_symbols, key=str)
    [C, n_k, w]
    """


#: The bound symbol of a first-fit reduction's capacity limit.
CAPACITY = sympy.Symbol("capacity_of_bins")


class Related(KeyReduction):
    """A reduction over the keys a relation lists for each key (``sum(w, predecessors)``), or over the keys listing
    it (its declared ``inverse``: ``minimum(S_o, successors)``): keyed by the relation's index through its position
    leaf, the body taken at each related key.  Limits ``((k, 1, n_i), (R_relation, 0, 0))``, ``k`` the body's index
    (the relation's or a mirror of it), ``n_i`` the position leaf of the relation's index; written out by the plan
    over the bound graph.  Over no key a sum is 0 and a largest or smallest term has no value (NaN: refused)."""

    empty: Any = sympy.nan


class RelatedSum(Related):
    """``sum(expr, relation)``."""

    combine = sympy.Add
    empty = sympy.Integer(0)


class RelatedMaximum(Related):
    """``maximum(expr, relation)``."""

    combine = sympy.Max


class RelatedMinimum(Related):
    """``minimum(expr, relation)``."""

    combine = sympy.Min


#: Every reduction node: what is summed, multiplied or compared over an index's keys.
NODES = (sympy.Sum, sympy.Product, KeyReduction)


def write_out(node: Any, terms: Sequence[sympy.Expr]) -> sympy.Expr:
    """The reduction ``node`` over its terms (one per key, in the keys' order).

    >>> a, b = sympy.symbols("a b")
    >>> write_out(Maximum(a, (sympy.Symbol("k"), 1, 2)), [a, b])
    Max(a, b)
    >>> write_out(ArgMin(a, (sympy.Symbol("k"), 1, 2)), [a, b])
    Piecewise((0, a <= b), (1, True))
    """
    if isinstance(node, sympy.Sum):
        return sympy.Add(*terms)
    if isinstance(node, sympy.Product):
        return sympy.Mul(*terms)
    if isinstance(node, (ArgMax, ArgMin)):   # ties go to the earlier key, like a label's cases
        pieces = []
        for i, term in enumerate(terms[:-1]):
            beats = [node.strict(term, o) if j < i else node.wins(term, o) for j, o in enumerate(terms) if j != i]
            pieces.append((sympy.Integer(i), sympy.And(*beats)))
        return sympy.Piecewise(*pieces, (sympy.Integer(len(terms) - 1), True)) if pieces else sympy.Integer(0)
    return node.combine(*terms)
