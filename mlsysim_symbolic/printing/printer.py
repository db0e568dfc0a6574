r"""The SymPy printers: symbols by their declared LaTeX names, or (:class:`ValuePrinter`) by their values.

Before printing, :func:`arrange` puts the factors and terms of every product and sum in
the order the author wrote them (the order of first appearance of each symbol in the
declared equation text, see :mod:`.order`; SymPy would sort them alphabetically) and
gathers square roots of a product into one radical: SymPy stores
``sqrt(2 * delta * M)`` as ``sqrt(2) sqrt(M) sqrt(delta)``; it prints
``\sqrt{2 \delta M}``.

>>> import sympy
>>> M, d = sympy.symbols("M delta", positive=True)
>>> SymbolPrinter({M: "M", d: r"\delta"}, order={d: 0, M: 1}).doprint(sympy.sqrt(2 * d * M))
'\\sqrt{2 \\delta M}'
>>> ValuePrinter({M: "M", d: r"\delta"}, {M: "3", d: "5"}, order={d: 0, M: 1}).doprint(sympy.sqrt(2 * d * M))
'\\sqrt{2 \\cdot 5 \\cdot 3}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy
from sympy.printing.latex import LatexPrinter

from .. import reductions
from ..variables import KeyedSymbol, NestedSymbol
from .text import escape_text, key_text

__all__ = ["Radical", "SymbolPrinter", "ValuePrinter", "arrange", "with_subscript"]

_LAST = 10**9


class Radical(sympy.Expr):
    """The square root of a product, kept whole for printing (``\\sqrt{2 \\delta M}``): never evaluated."""

    is_commutative = True

    def __new__(cls, inner: sympy.Expr) -> Radical:
        return sympy.Expr.__new__(cls, inner)


def _rank(expr: sympy.Basic, order: Mapping[sympy.Symbol, int]) -> int:
    """The position of the first symbol of ``expr`` in the declared text (numbers and unknown symbols last)."""
    ranks = [order.get(getattr(s, "base", s), order.get(s, _LAST)) for s in expr.free_symbols]
    return min(ranks, default=_LAST)


def _rebuild(expr: sympy.Basic, args: list[sympy.Basic]) -> sympy.Basic:
    if isinstance(expr, reductions.NODES):
        return expr.func(args[0], *expr.limits)
    try:
        return expr.func(*args, evaluate=False)
    except TypeError:   # node types that take no evaluate flag (pairs of a piecewise, tuples)
        return expr.func(*args)


def _radical_factors(args: list[sympy.Basic], order: Mapping[sympy.Symbol, int]) -> list[sympy.Basic]:
    """``args`` with two or more ``sqrt`` factors (and, apart, two or more ``1/sqrt``) gathered into one radical."""
    half = sympy.Rational(1, 2)
    up = [a.base for a in args if a.is_Pow and a.exp == half]
    down = [a.base for a in args if a.is_Pow and a.exp == -half]
    rest = [a for a in args if not (a.is_Pow and a.exp in (half, -half))]

    def inner(bases: list[sympy.Basic]) -> sympy.Expr:
        bases = sorted(bases, key=lambda b: (not b.is_Number, _rank(b, order)))
        return sympy.Mul(*bases, evaluate=False)

    if up and down and not rest:   # only roots: one root of a fraction
        return [Radical(sympy.Mul(inner(up), sympy.Pow(inner(down), -1, evaluate=False), evaluate=False))]
    if len(up) >= 2:
        rest.append(Radical(inner(up)))
    else:
        rest += [sympy.Pow(b, half, evaluate=False) for b in up]
    if len(down) >= 2:
        rest.append(sympy.Pow(Radical(inner(down)), -1, evaluate=False))
    else:
        rest += [sympy.Pow(b, -half, evaluate=False) for b in down]
    return rest


def arrange(expr: sympy.Basic, order: Mapping[sympy.Symbol, int], memo: dict | None = None) -> sympy.Basic:
    """``expr`` unevaluated, factors and terms in declared order, square roots of a product gathered.

    ``memo`` (made per call when not given) arranges a subtree that occurs many times once: an expanded chain
    repeats its earlier outputs' trees.

    >>> import sympy
    >>> a, b, c = sympy.symbols("a b c", positive=True)
    >>> arrange(2 * a * c * b, {c: 0, b: 1, a: 2}).args
    (2, c, b, a)
    >>> arrange(a + b - 1, {b: 0, a: 1}).args
    (b, a, -1)
    """
    if expr.is_Atom or isinstance(expr, Radical):
        return expr
    if memo is None:
        memo = {}
    done = memo.get(expr)
    if done is not None:
        return done
    if expr.is_Mul:
        args = [arrange(a, order, memo) for a in expr.as_ordered_factors()]
        args = _radical_factors(args, order)
        numbers = [a for a in args if a.is_Number]
        rest = sorted((a for a in args if not a.is_Number), key=lambda a: _rank(a, order))
        done = sympy.Mul(*numbers, *rest, evaluate=False)
    elif expr.is_Add:
        terms = expr.as_ordered_terms()
        number_first = terms[0].is_Number

        def key(term: sympy.Basic) -> int:
            if term.is_Number:
                return -1 if number_first else _LAST + 1
            return _rank(term, order)

        done = sympy.Add(*sorted((arrange(t, order, memo) for t in terms), key=key), evaluate=False)
    else:
        done = _rebuild(expr, [arrange(a, order, memo) for a in expr.args])
    memo[expr] = done
    return done


def _top_level_subscript(latex: str) -> int | None:
    """Index of the ``_`` of a final top-level ``_{...}`` of ``latex`` (None when it has none)."""
    if not latex.endswith("}"):
        return None
    depth = 0
    for i in range(len(latex) - 1, -1, -1):
        c = latex[i]
        if c == "}":
            depth += 1
        elif c == "{":
            depth -= 1
            if depth == 0:
                return i - 1 if i >= 1 and latex[i - 1] == "_" else None
    return None


def with_subscript(latex: str, key: str) -> str:
    """``latex`` with ``key`` added to its subscript: ``M_{\\mathrm{example}}`` -> ``M_{\\mathrm{example}, KWS}``.

    >>> with_subscript(r"M_{\\mathrm{example}}", r"\\mathrm{KWS}"), with_subscript("d_h", "x"), with_subscript(r"\\tau^{*}", "k")
    ('M_{\\\\mathrm{example}, \\\\mathrm{KWS}}', 'd_{h, x}', '\\\\tau^{*}_{k}')
    """
    if _top_level_subscript(latex) is not None:
        return f"{latex[:-1]}, {key}}}"
    if len(latex) >= 3 and latex[-2] == "_" and latex[-1].isalnum() and latex[-3] != "\\":
        return f"{latex[:-2]}_{{{latex[-1]}, {key}}}"
    return f"{latex}_{{{key}}}"


def _negative(term: sympy.Basic) -> bool:
    if term.is_Number:
        return bool(term.is_negative)
    return bool(term.is_Mul and term.args and term.args[0].is_Number and term.args[0].is_negative)


def _negate(term: sympy.Basic) -> sympy.Basic:
    """``-term`` without re-sorting an arranged product."""
    if term.is_Number:
        return -term
    coefficient, rest = -term.args[0], list(term.args[1:])
    if coefficient != 1:
        rest.insert(0, coefficient)
    return rest[0] if len(rest) == 1 else sympy.Mul(*rest, evaluate=False)


class SymbolPrinter(LatexPrinter):
    """Prints symbols by their declared LaTeX names, in the declared order of ``order`` (symbol -> position).

    Per-key symbols of an expanded sum (``c_{gpu}``) print as the declared name with the
    key added to its subscript; sums over a keyed input print as ``\\sum_{\\text{index}}``.

    >>> import sympy
    >>> P, b = sympy.symbols("P b")
    >>> SymbolPrinter({P: "P", b: r"b_{\\mathrm{grad}}"}).doprint(P * b)
    'P b_{\\\\mathrm{grad}}'
    """

    def __init__(self, names: Mapping[sympy.Symbol, str], *, order: Mapping[sympy.Symbol, int] | None = None, **settings: Any):
        settings.setdefault("order", "none")
        super().__init__(settings)
        self._names = names
        self._order = dict(order or {})

    def doprint(self, expr: Any) -> str:
        if not isinstance(expr, sympy.Basic):   # a plain number; text is never parsed here
            if isinstance(expr, bool) or not isinstance(expr, (int, float)):
                raise TypeError(f"the printer takes SymPy trees or numbers, got {type(expr).__name__}")
            expr = sympy.Integer(expr) if isinstance(expr, int) else sympy.Float(expr)
        return super().doprint(arrange(expr, self._order))

    def _print_Symbol(self, expr: sympy.Symbol, style: str = "plain") -> str:
        if expr in self._names:
            return self._names[expr]
        if isinstance(expr, KeyedSymbol) and expr.base in self._names:
            return with_subscript(self._names[expr.base], key_text(expr.key))
        if isinstance(expr, NestedSymbol) and expr.variable is not None:   # a symbol of a scenario input: b^{(model)}
            return rf"{{{expr.variable.latex}}}^{{(\mathrm{{{escape_text(expr.scope)}}})}}"
        return super()._print_Symbol(expr, style=style)

    def parenthesize_super(self, s: str) -> str:
        """A symbol raised to a power is braced when its name has a superscript or a prime (``\\sigma'``): ``x'^{2}``
        is a double superscript to TeX, ``{x'}^{2}`` is not."""
        if "^" in s or "'" in s:
            return "{" + s + "}"
        return s

    def _print_Radical(self, expr: Radical) -> str:
        return rf"\sqrt{{{self._print(expr.args[0])}}}"

    def _print_Mul(self, expr: sympy.Mul) -> str:
        if _negative(expr):
            positive = _negate(expr)
            text = self._print(positive)
            return "- " + (rf"\left({text}\right)" if positive.is_Add else text)
        return super()._print_Mul(expr)

    def _print_Add(self, expr: sympy.Add, order: Any = None) -> str:
        tex = ""
        for i, term in enumerate(expr.args):
            if i == 0:
                pass
            elif _negative(term):
                tex += " - "
                term = _negate(term)
            else:
                tex += " + "
            term_tex = self._print(term)
            if self._needs_add_brackets(term):
                term_tex = rf"\left({term_tex}\right)"
            tex += term_tex
        return tex

    def _hprint_variadic_function(self, expr: Any, exp: Any = None) -> str:
        """``\\max`` and ``\\min`` with their arguments in declared order (numbers first, as in ``max(1, x)``); arguments
        whose first declared symbol is the same in SymPy's canonical order, then by their text (a Max keeps its
        arguments as a set, whose order follows the process's string hashes: without it the same equation printed
        two ways in two processes)."""
        args = sorted(expr.args, key=lambda a: (not a.is_Number, _rank(a, self._order), sympy.default_sort_key(a), str(a)))
        tex = rf"\{str(expr.func).lower()}\left({', '.join(self._print(a) for a in args)}\right)"
        return rf"{tex}^{{{exp}}}" if exp is not None else tex

    _print_Max = _print_Min = _hprint_variadic_function

    def _print_ceiling(self, expr: Any, exp: Any = None) -> str:
        return rf"\left\lceil {self._print(expr.args[0])} \right\rceil"

    def _print_floor(self, expr: Any, exp: Any = None) -> str:
        return rf"\left\lfloor {self._print(expr.args[0])} \right\rfloor"

    def _reduction(self, expr: Any, operator: str) -> str:
        body = self._print(expr.function)
        if isinstance(expr.function, sympy.Add):
            body = rf"\left({body}\right)"
        index = escape_text(expr.limits[0][0].name)
        return rf"{operator}_{{\text{{{index}}}}} {body}"

    def _print_Sum(self, expr: Any) -> str:
        return self._reduction(expr, r"\sum")

    def _print_Product(self, expr: Any) -> str:
        return self._reduction(expr, r"\prod")

    def _print_Maximum(self, expr: Any) -> str:
        return self._reduction(expr, r"\max")

    def _print_Minimum(self, expr: Any) -> str:
        return self._reduction(expr, r"\min")

    def _print_ArgMax(self, expr: Any) -> str:
        return self._reduction(expr, r"\operatorname*{arg\,max}")

    def _print_ArgMin(self, expr: Any) -> str:
        return self._reduction(expr, r"\operatorname*{arg\,min}")

    def _related(self, expr: Any, operator: str) -> str:
        """A reduction over the keys a relation lists (``\\min_{\\text{successors}}``): named by the relation."""
        body = self._print(expr.function)
        if isinstance(expr.function, sympy.Add):
            body = rf"\left({body}\right)"
        relation = escape_text(expr.limits[1][0].name.removeprefix("R_"))
        return rf"{operator}_{{\text{{{relation}}}}} {body}"

    def _print_RelatedSum(self, expr: Any) -> str:
        return self._related(expr, r"\sum")

    def _print_RelatedMaximum(self, expr: Any) -> str:
        return self._related(expr, r"\max")

    def _print_RelatedMinimum(self, expr: Any) -> str:
        return self._related(expr, r"\min")

    def _print_FirstFitDecreasing(self, expr: Any) -> str:
        """Bin loads under first-fit decreasing, keyed by the index: FFD_k(w; C)."""
        index = escape_text(expr.limits[0][0].name)
        sizes, capacity = self._print(expr.function), self._print(expr.limits[1][2])
        return rf"\operatorname{{FFD}}_{{\text{{{index}}}}}\left({sizes};\ {capacity}\right)"

    def _print_Earliest(self, expr: Any) -> str:
        relation = escape_text(expr.limits[1][0].name.removeprefix("R_"))
        return rf"\operatorname{{earliest}}_{{\text{{{relation}}}}}\left({self._print(expr.function)}\right)"


class ValuePrinter(SymbolPrinter):
    """Prints each symbol of ``values`` as its value (``4\\,\\mathrm{B}``), products with ``\\cdot``.

    >>> import sympy
    >>> P, b = sympy.symbols("P b")
    >>> ValuePrinter({P: "P", b: "b"}, {P: "1.5", b: r"4\\,\\mathrm{B}"}).doprint(P * b)
    '1.5 \\\\cdot 4\\\\,\\\\mathrm{B}'
    """

    def __init__(self, names: Mapping[sympy.Symbol, str], values: Mapping[sympy.Symbol, str], *,
                 order: Mapping[sympy.Symbol, int] | None = None, **settings: Any):
        settings.setdefault("mul_symbol", "dot")
        super().__init__(names, order=order, **settings)
        self._values = values

    def _print_Symbol(self, expr: sympy.Symbol, style: str = "plain") -> str:
        if expr in self._values:
            return self._values[expr]
        return super()._print_Symbol(expr, style=style)

    def _print_Pow(self, expr: sympy.Pow) -> str:
        base, exp = expr.args
        if isinstance(base, sympy.Symbol) and base in self._values and exp.is_Rational and exp > 0 and exp != sympy.Rational(1, 2):
            return rf"\left({self._values[base]}\right)^{{{self._print(exp)}}}"
        return super()._print_Pow(expr)
