"""Compiled numeric evaluation of output trees.

Each output tree is compiled once (``sympy.lambdify``) and cached; a call then
costs a Python function call, not a ``subs``/``evalf`` walk.  Inputs enter in
base units (byte, second, flop, ...) so that every term of a sum is coherent
whatever units the inputs were given in; the result leaves in the base unit of
its dimension and is scaled once to the declared unit.

>>> import sympy
>>> P, b = sympy.symbols("P b", positive=True)
>>> f = compile_tree(P * b, (P, b))
>>> f(1.5e9, 4)
6000000000.0
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np
import pint
import sympy
from sympy.functions.elementary.piecewise import ExprCondPair
from sympy.printing.pycode import PythonCodePrinter

from . import packing, special
from .treewalk import has_type, node_types, rename_symbols, replace_nodes
from .units import Q_

#: Relative distance from a whole number within which ``floor``/``ceil`` take the whole number (a few ulps).
SNAP = 4 * sys.float_info.epsilon


def _floor(x: float) -> int:
    """``math.floor``, except that a value within a few ulps of a whole number is that number.

    Inputs are decimals (80 GB, 9 ms) that floats hold only to an ulp, so a quotient meant to be
    exactly 10 can arrive as 9.999999999999998; ``floor`` would then count one item too few.
    """
    if isinstance(x, int):
        return x
    n = round(x)
    return n if abs(x - n) <= SNAP * abs(x) else math.floor(x)


def _ceil(x: float) -> int:
    """``math.ceil`` with the same snapping as :func:`_floor` (1000 / 999.9999999999999 replicas is 1, not 2)."""
    if isinstance(x, int):
        return x
    n = round(x)
    return n if abs(x - n) <= SNAP * abs(x) else math.ceil(x)


def _floor_array(x: Any) -> Any:
    n = np.rint(x)
    return np.where(np.abs(x - n) <= SNAP * np.abs(x), n, np.floor(x))


def _ceil_array(x: Any) -> Any:
    n = np.rint(x)
    return np.where(np.abs(x - n) <= SNAP * np.abs(x), n, np.ceil(x))


def _heaviside(x: float, at_zero: float = 0.5) -> float:
    """SymPy's Heaviside (1/2 at 0), called as a function: printed as code, SymPy rewrites it as a piecewise of its
    argument, and where that argument holds a piecewise whose conditions common-subexpression elimination has
    named, the rewrite keeps its first branch only (a roofline's derivative read the offload bandwidth on every
    path: sympy 1.14)."""
    return 0.0 if x < 0 else float(at_zero) if x == 0 else 1.0


def _heaviside_array(x: Any, at_zero: Any = 0.5) -> Any:
    return np.heaviside(x, at_zero)


_MATH_MODULE = [{"ceiling": _ceil, "floor": _floor, "Max": max, "Min": min, "Heaviside": _heaviside}, "math"]


class log2(sympy.Function):  # noqa: N801 - named as the function it compiles to
    """log(x)/log(2), compiled to ``math.log2``/``numpy.log2`` so that exact powers of two stay exact."""


def _exact_log2(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite ``log(x)/log(2)`` (SymPy's form of log2) as :class:`log2` before compiling.

    ``math.log(2**29)/math.log(2)`` is 29.000000000000004, so ``ceil(log2(n))`` would be
    one too high at exact powers of two; ``math.log2`` is exact there.
    """
    inv = sympy.Pow(sympy.log(2), -1)

    def rewrite(node: Any) -> Any:
        if isinstance(node, sympy.Mul) and inv in node.args:
            logs = [a for a in node.args if isinstance(a, sympy.log)]
            if logs:
                rest = [a for a in node.args if a != inv and a != logs[0]]
                return sympy.Mul(log2(logs[0].args[0]), *rest)
        return node

    return replace_nodes(expr, lambda n: isinstance(n, sympy.Mul) and inv in n.args, rewrite)


def _step_derivatives(expr: sympy.Expr) -> sympy.Expr:
    """The derivative of ``floor``/``ceil`` (SymPy leaves it unevaluated) as 0, its value away from the steps.

    ``diff(floor(x/y), x)`` is ``Subs(Derivative(floor(_xi), _xi), _xi, x/y)/y``, which no printer compiles;
    elasticities and uncertainty of an output with a floor or ceil need it as a number.
    """
    def is_step(node: Any) -> bool:
        return isinstance(node, sympy.Derivative) and isinstance(node.expr, (sympy.floor, sympy.ceiling))

    expr = replace_nodes(expr, lambda n: isinstance(n, sympy.Subs) and is_step(n.expr), lambda n: sympy.Integer(0))
    return replace_nodes(expr, is_step, lambda n: sympy.Integer(0))


class pow1pm1(sympy.Function):  # noqa: N801 - named as the function it compiles to
    """``(1 + u)**e - 1``, compiled as ``expm1(e*log1p(u))`` so that no digits cancel when ``(1 + u)**e`` is near 1
    (on ints, with a whole exponent, Python's exact power: ``_pow1pm1(2, 64) == 3**64 - 1``)."""


def _pow1pm1(u: float, e: float) -> float:
    if isinstance(u, int) and isinstance(e, int) and e >= 0:   # whole numbers: Python's exact integer power
        return (1 + u) ** e - 1
    try:
        return math.expm1(e * math.log1p(u))
    except (ValueError, OverflowError):   # u = -1 (a zero base) or an overflow: the plain form says what it is
        return (1 + u) ** e - 1


def _pow1pm1_array(u: Any, e: Any) -> Any:
    with np.errstate(divide="ignore"):
        return np.expm1(e * np.log1p(u))


def _near_one(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite ``1 - b**e`` and ``b**e - 1`` (symbolic ``e``) as :class:`pow1pm1` of ``b - 1``, ``log(1 + u)`` as
    ``log1p(u)``, and another ``(1 + u)**e`` as ``exp(e*log1p(u))``.

    ``1 - (1 - r)**n`` with r = 1e-6 loses five digits to cancellation in floats (the
    probability of at least one event in n trials, 1 - (1 - r) rounding first);
    ``-expm1(n*log1p(-r))`` keeps them, as ``log1p(-r)`` keeps the digits of ``log(1 - r)``
    (which derivatives of such powers contain).  Integer and numeric exponents are left alone.
    """
    from sympy.codegen.cfunctions import expm1, log1p  # (sympy.codegen costs 5 ms to import: only compiling needs it)

    if has_type(expr, sympy.log):
        expr = replace_nodes(
            expr, lambda n: isinstance(n, sympy.log) and isinstance(n.args[0], sympy.Add) and 1 in n.args[0].args,
            lambda n: log1p(sympy.Add(*[a for a in n.args[0].args if a != 1])))
    if not has_type(expr, sympy.Pow, sympy.exp):
        return expr

    def rewrite(node: Any) -> Any:
        for one in (sympy.Integer(1), sympy.Integer(-1)):
            if one not in node.args:
                continue
            for term in node.args:
                power = -one * term   # 1 - b**e has the term -b**e; b**e - 1 has +b**e
                if isinstance(power, sympy.exp):   # 1 - exp(u) is -expm1(u): no cancellation for small u
                    rest = [a for a in node.args if a is not term and a != one]
                    return sympy.Add(*rest, -one * expm1(power.args[0]), evaluate=False)
                if isinstance(power, sympy.Pow) and not power.exp.is_Number and power.base.free_symbols:
                    rest = [a for a in node.args if a is not term and a != one]
                    return sympy.Add(*rest, -one * pow1pm1(power.base - 1, power.exp), evaluate=False)
        return node

    expr = replace_nodes(expr, lambda n: isinstance(n, sympy.Add) and (1 in n.args or -1 in n.args), rewrite)
    # what is left of (1 + u)**e: exp(e*log1p(u)), so (1 - 1e-5)**24576 keeps the digits that 1 - 1e-5 rounds away
    return replace_nodes(
        expr, lambda n: (isinstance(n, sympy.Pow) and not n.exp.is_Number and isinstance(n.base, sympy.Add) and 1 in n.base.args
                   and n.base.free_symbols),
        lambda n: sympy.exp(n.exp * log1p(sympy.Add(*[a for a in n.base.args if a != 1]))))


def compile_tree(expr: sympy.Expr, args: Sequence[sympy.Symbol], *, vector: bool = False) -> Callable[..., Any]:
    """Compile ``expr`` into a Python function of ``args`` (math for scalars, numpy for arrays).

    >>> import sympy
    >>> r, n = sympy.symbols("r n", positive=True)
    >>> compile_tree(1 - (1 - r) ** n, (r, n))(1e-6, 0.5)   # -expm1(n*log1p(-r)): no cancellation
    5.000001250000625e-07
    >>> 1 - (1 - 1e-6) ** 0.5                               # the plain float form
    5.000001249699793e-07
    """
    args, rename = plain_args(args)
    expr = inert_extrema(expr)
    expr = _rewrite(rename_symbols(expr, rename) if rename else expr)
    cse = len(expr.args) > 3
    modules = _modules(vector, expr)
    fast = sympy.lambdify(list(args), expr, modules=modules, cse=cse, docstring_limit=0, printer=_printer(vector, modules))
    if vector or not cse or not has_type(expr, sympy.Piecewise):
        return fast
    return _guarded(fast, expr, args)


def plain_args(args: Sequence[sympy.Symbol]) -> tuple[list[sympy.Symbol], dict[sympy.Symbol, sympy.Symbol]]:
    """``args`` as lambdify takes them without rewriting the tree once per argument, and the renaming it needs.

    One :class:`~sympy.Dummy` among the arguments (a scoped or reduced leaf) makes lambdify replace *every* argument
    by a fresh dummy, one pass over the whole tree (and every common subexpression) per argument: 60 arguments of a
    chain-rule derivative cost RunSplitLeakage's elasticities minutes.  Here each Dummy, or name that is not a Python
    identifier, becomes a plain symbol ``_a<i>`` (same assumptions) in one pass; the others stay as they are.

    >>> x, d = sympy.Symbol("x"), sympy.Dummy("d")
    >>> args, rename = plain_args((x, d))
    >>> args, rename == {d: args[1]}
    ([x, _a1], True)
    """
    taken = {str(a) for a in args}
    rename: dict[sympy.Symbol, sympy.Symbol] = {}
    for i, arg in enumerate(args):
        if isinstance(arg, sympy.Dummy) or not str(arg).isidentifier():
            name = f"_a{i}"
            while name in taken:
                name = "_" + name
            taken.add(name)
            rename[arg] = sympy.Symbol(name, **arg.assumptions0)
    return [rename.get(a, a) for a in args], rename


def _guarded(fast: Callable[..., Any], expr: sympy.Expr, args: Sequence[sympy.Symbol]) -> Callable[..., Any]:
    """``fast`` (with common subexpressions), falling back to the tree compiled without them where ``fast`` fails.

    Common subexpressions are computed before any branch is chosen: lifted out of a piecewise, a branch's ``1/x``
    divides by zero where the other branch holds (``x = 0``).  Without them a large branched tree compiles to very
    long code, so that form is made only when it is needed, and an error it raises too is the tree's own.
    """
    slow: list[Callable[..., Any]] = []

    def guarded(*values: Any) -> Any:
        try:
            return fast(*values)
        except (ZeroDivisionError, ValueError, OverflowError):
            if not slow:
                modules = _modules(False, expr)
                slow.append(sympy.lambdify(list(args), expr, modules=modules, cse=False, docstring_limit=0,
                                           printer=_printer(False, modules)))
            return slow[0](*values)

    guarded.fast = fast   # type: ignore[attr-defined]   # what the plan cache stores (the slow form is made on demand)
    return guarded


@cache
def _scalar_namespace() -> Mapping[str, Any]:
    namespace = sympy.lambdify([], sympy.Integer(0), modules=_modules(False), docstring_limit=0).__globals__
    return MappingProxyType(dict(namespace))


def scalar_namespace() -> dict[str, Any]:
    """A fresh copy of the globals ``sympy.lambdify`` gives a scalar function compiled here (the math module, our
    floor/ceil/log2/special functions, builtins): where the plan cache runs the source it stored of one.

    >>> scalar_namespace()["ceiling"](2.0000000000000004)   # our snapping ceiling, not math.ceil
    2
    """
    return dict(_scalar_namespace())


class _InertMax(sympy.Max):
    """``Max`` as it is compiled: the same node (printed, differentiated and valued as ``Max``), but rebuilt without
    SymPy's search for redundant arguments.  Rebuilding a ``Max`` (lambdify's common subexpressions replace its
    arguments, a rewrite below replaces a node inside it) runs ``_find_localzeros``, which compares every pair of
    arguments through the assumptions system: a fifth of the time of compiling the catalog's gradients."""

    def __new__(cls, *args: Any, **options: Any) -> Any:
        return sympy.Max.__new__(cls, *args, evaluate=False)


class _InertMin(sympy.Min):
    """``Min`` as it is compiled (see :class:`_InertMax`)."""

    def __new__(cls, *args: Any, **options: Any) -> Any:
        return sympy.Min.__new__(cls, *args, evaluate=False)


_INERT = {sympy.Max: _InertMax, sympy.Min: _InertMin}


def inert_extrema(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with every ``Max``/``Min`` as the inert form compiling rebuilds cheaply (the same value; nothing
    else rebuilt: a piecewise and its conditions keep their branches as they are).

    >>> x, y = sympy.symbols("x y", positive=True)
    >>> e = inert_extrema(sympy.Max(x, 2 * y) + 1)
    >>> [isinstance(a, sympy.Max) for a in e.args], e.xreplace({y: x / 2})   # a repeated argument still goes
    ([False, True], x + 1)
    >>> compile_tree(e, (x, y))(1.0, 3.0)
    7.0
    """
    if not any(t in _INERT for t in node_types(expr)):   # none, or all inert already (compile_tree, then _rewrite)
        return expr
    memo: dict[sympy.Basic, sympy.Basic] = {}

    def walk(node: sympy.Basic) -> sympy.Basic:
        hit = memo.get(node)
        if hit is not None:
            return hit
        args = tuple(walk(a) for a in node.args)
        inert = _INERT.get(type(node))
        memo[node] = out = inert(*args) if inert is not None else _rebuilt(node, args, piecewise=True)
        return out

    return walk(expr)


def _rebuilt(node: sympy.Basic, args: Sequence[sympy.Basic], *, piecewise: bool) -> sympy.Basic:
    """``node`` with ``args``: itself when they are its own; a ``Max``/``Min`` (and, with ``piecewise``, a
    ``Piecewise`` and its pairs, whose constructor folds a piecewise in a condition) without SymPy's search; any other
    node as SymPy builds it."""
    if all(a is b for a, b in zip(args, node.args)):
        return node
    if isinstance(node, (sympy.Max, sympy.Min)):
        return node.func(*args, evaluate=False)
    if piecewise and isinstance(node, (sympy.Piecewise, ExprCondPair)):
        return sympy.Basic.__new__(type(node), *args)
    return node.func(*args)


@lru_cache(maxsize=4096)
def _rewrite(expr: sympy.Expr) -> sympy.Expr:
    """The forms that compile exactly: log2, expm1/log1p near one, zero derivatives of floor/ceil (each rewrite
    walked only where the tree holds the nodes it rewrites).  Kept per tree: the chain-rule derivatives of one output
    (one per input) share its definitions, rewritten once."""
    expr = inert_extrema(expr)
    types = node_types(expr)
    if _any(types, sympy.log):
        expr = _exact_log2(expr)
    if _any(types, sympy.Derivative):
        expr = _step_derivatives(expr)
    return _near_one(expr)


def _any(types: frozenset[type], *classes: type) -> bool:
    return any(issubclass(t, classes) for t in types)


class _Broadcasting:
    """``logical_and``/``logical_or`` whose ``.reduce`` broadcasts its operands: SymPy prints ``And(a, b)`` as
    ``logical_and.reduce((a, b))``, which numpy refuses when one is a scalar and another an array (a condition on a
    fixed input beside one on a swept input: a roofline's 'weights exceed memory' and 'compute beats memory').

    >>> _Broadcasting(np.logical_and).reduce((True, np.array([True, False])))
    array([ True, False])
    """

    def __init__(self, ufunc: Any) -> None:
        self._ufunc = ufunc

    def __call__(self, *args: Any) -> Any:
        return self._ufunc(*args)

    def reduce(self, operands: Sequence[Any]) -> Any:
        result = operands[0]
        for operand in operands[1:]:
            result = self._ufunc(result, operand)
        return np.asarray(result)


_LOGICAL_AND, _LOGICAL_OR = _Broadcasting(np.logical_and), _Broadcasting(np.logical_or)


def _modules(vector: bool, *trees: Any) -> list[Any]:
    uses_special = any(has_type(t, *special.CLASSES) for t in trees if isinstance(t, sympy.Basic))
    if vector:
        extra = special.array_functions() if uses_special else {}
        if any(has_type(t, *packing.CLASSES) for t in trees if isinstance(t, sympy.Basic)):
            extra = {**extra, **packing.ARRAY}   # first-fit decreasing's loads, vectorised
        return [{"log2": np.log2, "pow1pm1": _pow1pm1_array, "floor": _floor_array, "ceiling": _ceil_array,
                 "logical_and": _LOGICAL_AND, "logical_or": _LOGICAL_OR, "Heaviside": _heaviside_array, **extra}, "numpy"]
    return [{**_MATH_MODULE[0], "log2": math.log2, "pow1pm1": _pow1pm1, **special.SCALAR, **packing.SCALAR}, "math"]


class _ScalarPrinter(PythonCodePrinter):
    """lambdify's printer for scalars, printing a condition's if-then-else directly: SymPy's rewrites it as a
    piecewise first, rewriting every Max and Min inside it too (seconds for the composed rooflines' conditions)."""

    def _print_ITE(self, expr: Any) -> str:
        cond, then, other = (self._print(a) for a in expr.args)
        return f"(({then}) if ({cond}) else ({other}))"


def _printer(vector: bool, modules: list[Any]) -> Any:
    """The printer lambdify would choose for ``modules`` (its settings), but :class:`_ScalarPrinter` for scalars."""
    if vector:
        return None
    user_functions = {k: k for m in modules[::-1] if isinstance(m, dict) for k in m}
    user_functions.update({_InertMax.__name__: "Max", _InertMin.__name__: "Min"})   # printed as the nodes they stand for
    return _ScalarPrinter({"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
                           "user_functions": user_functions})


Definition = tuple[sympy.Symbol, sympy.Expr]

#: Expanded trees up to this many nodes compile as one tree; larger chains compile step by step.
INLINE_LIMIT = 5000
#: ... and only while the expanded tree is at most this many times the declarations: a chain of outputs each using
#: the one before several times grows exponentially, and SymPy's construction of such a tree can take minutes (its
#: assumptions ask polynomial root questions of every power); the catalog's chains grow at most ~17x.
INLINE_GROWTH = 20


def declared_size(definitions: Sequence[Definition]) -> int:
    """The node count of a chain's declarations, each over the symbols of the outputs before it.

    >>> import sympy
    >>> x, o1, o2 = sympy.symbols("x o1 o2")
    >>> declared_size([(o1, x + 1), (o2, o1 * (o1 + x))])   # Add(x, 1); Mul(o1, Add(o1, x))
    8
    """
    memo: dict[int, int] = {}

    def size(node: Any) -> int:
        n = memo.get(id(node))
        if n is None:
            n = memo[id(node)] = 1 + sum(size(a) for a in node.args)
        return n

    return sum(size(expr) for _, expr in definitions)


def expanded_size(definitions: Sequence[Definition]) -> int:
    """The node count of the chain's last definition with every earlier one substituted, computed without
    building it (linear in the declarations, though the count may be exponential).

    >>> import sympy
    >>> x, o1, o2 = sympy.symbols("x o1 o2")
    >>> expanded_size([(o1, x + 1), (o2, o1 * (o1 + x))])   # (x + 1)*(x + 1 + x): Mul, Add(x, 1), Add(Add(x, 1), x)
    9
    """
    sizes: dict[sympy.Symbol, int] = {}
    memo: dict[Any, int] = {}

    def size(node: Any) -> int:
        if node in sizes:
            return sizes[node]
        if id(node) in memo:
            return memo[id(node)]
        n = 1 + sum(size(a) for a in node.args)
        memo[id(node)] = n
        return n

    for sym, expr in definitions:
        sizes[sym] = size(expr)
    return sizes[definitions[-1][0]]


# Nodes rebuilt unevaluated when an earlier output is substituted into them: SymPy's Max/Min and Piecewise look for
# redundant arguments and branches on construction (``_find_localzeros`` factors every pair of arguments, a branch's
# condition holding a piecewise is folded and rewritten), which made substituting four composed rooflines take most
# of a minute; the value is the same, only the search is skipped.
def substitute(expr: sympy.Basic, done: Mapping[sympy.Basic, sympy.Basic], memo: dict[sympy.Basic, sympy.Basic], *,
               piecewise: bool = True) -> sympy.Basic:
    """``expr.xreplace(done)`` (arithmetic rebuilt as SymPy rebuilds it, so its cancellations stay), with ``Max``,
    ``Min`` and (``piecewise``) ``Piecewise`` rebuilt unevaluated; shared subtrees are rebuilt once (``memo``, kept
    across a chain).  A tree that SymPy itself works on afterwards (differentiates, solves, folds) takes
    ``piecewise=False``: SymPy's piecewise code assumes no piecewise is left inside a condition, which its
    constructor ensures.

    >>> import sympy
    >>> x, y, o = sympy.symbols("x y o", positive=True)
    >>> substitute(sympy.Max(o, y) + 1 - o, {o: x + 1}, {})
    -x + Max(y, x + 1)
    """
    if expr in done:
        return done[expr]
    if not expr.args:
        return expr
    hit = memo.get(expr)
    if hit is not None:
        return hit
    args = [substitute(a, done, memo, piecewise=piecewise) for a in expr.args]
    memo[expr] = out = _rebuilt(expr, args, piecewise=piecewise)
    return out


def expanded(definitions: Sequence[Definition], *, piecewise: bool = True) -> sympy.Expr:
    """A chain's last output as one tree over its leaves, each definition substituted into the next
    (:func:`substitute`, one memo for the chain).

    >>> x, o1, o2 = sympy.symbols("x o1 o2", positive=True)
    >>> expanded([(o1, x + 1), (o2, sympy.Max(o1, 2 * x))])
    Max(2*x, x + 1)
    """
    done: dict[sympy.Basic, sympy.Basic] = {}
    memo: dict[sympy.Basic, sympy.Basic] = {}
    for sym, expr in definitions:
        done[sym] = substitute(expr, done, memo, piecewise=piecewise) if done else expr
    return done[definitions[-1][0]]


def compile_chain(definitions: Sequence[Definition], args: Sequence[sympy.Symbol], *, vector: bool = False,
                  varying: set[sympy.Symbol] | None = None) -> Callable[..., Any]:
    """Compile a chain of definitions (each output over its leaves and the outputs before it; the last is the
    result) into one function of ``args``: each intermediate is computed once, so the cost grows with the
    declarations, not with the expanded tree (18 outputs built on each other expand to 2**18 terms).

    With ``varying`` (for arrays), the fixed part of each definition is hoisted out as a scalar.

    >>> import sympy
    >>> x, o1, o2 = sympy.symbols("x o1 o2", positive=True)
    >>> f = compile_chain([(o1, (x + 1) * x), (o2, (o1 + x) * (o1 + 1))], (x,))
    >>> f(2.0) == ((6.0 + 2.0) * (6.0 + 1.0))
    True
    """
    *intermediate, (_, result) = definitions
    size = expanded_size(definitions) if intermediate else 0
    if not intermediate or (size <= INLINE_LIMIT and size <= INLINE_GROWTH * declared_size(definitions)):
        # a small chain compiles as one tree: SymPy's own cancellation (1 - (1 - x**k) -> x**k) keeps digits
        # that step-by-step evaluation would lose
        expr = expanded(definitions)
        return compile_tree(expr if varying is None else hoist(expr, varying), args, vector=vector)
    args, plain = plain_args(args)
    rename = {**plain, **{sym: sympy.Symbol(f"_o{i}", **sym.assumptions0) for i, (sym, _) in enumerate(intermediate)}}
    moving = set(varying or ())
    steps = []
    for sym, expr in intermediate:
        if varying is not None:
            if expr.free_symbols & moving:
                moving.add(sym)
                moving.add(rename[sym])
            expr = hoist(expr, moving)
        steps.append((rename[sym], _rewrite(rename_symbols(expr, rename))))
    final = result if varying is None else hoist(result, moving)
    final = _rewrite(rename_symbols(final, rename))
    modules = _modules(vector, final, *(e for _, e in steps))
    return sympy.lambdify(list(args), final, modules=modules, cse=lambda e: (steps, e), docstring_limit=0,
                          printer=_printer(vector, modules))


def gradient_chain(definitions: Sequence[Definition], wrts: Sequence[sympy.Symbol]) -> list[Definition]:
    """The chain of definitions extended with the derivative of its last output with respect to every one of
    ``wrts`` (reverse-mode chain rule, one pass back over the chain): the last definition is the tuple of those
    derivatives, in the order of ``wrts``.

    Each definition is differentiated once in each symbol it reads; the adjoint of an output (the derivative of the
    result in it) is the sum over the outputs that read it of their adjoints times those partials, a definition of
    its own.  The work and the compiled chain grow with the declarations' edges, not with edges times inputs (a
    forward pass carries one derivative per output per input: 60 inputs of a long chain made thousands of
    definitions).  An output the result does not depend on gets no adjoint.

    >>> x, y, o1, o2 = sympy.symbols("x y o1 o2", positive=True)
    >>> chain = gradient_chain([(o1, x**2), (o2, o1 * y)], (x, y))
    >>> compile_chain(chain, (x, y))(3.0, 2.0)    # (d(x**2 y)/dx, d(x**2 y)/dy) at (3, 2)
    (12.0, 9.0)
    """
    definitions = _lifted_extrema(definitions)
    outputs = {sym for sym, _ in definitions}
    wanted = set(wrts)
    chain: list[Definition] = list(definitions[:-1])
    pending: dict[sympy.Symbol, list[sympy.Expr]] = {}   # an output's adjoint, as the terms its readers give
    gradient: dict[sympy.Symbol, list[sympy.Expr]] = {w: [] for w in wrts}
    for n, (sym, expr) in enumerate(reversed(definitions)):
        if n == 0:
            adjoint: sympy.Expr = sympy.Integer(1)
        else:
            terms = pending.pop(sym, None)
            if not terms:
                continue
            adjoint = sympy.Dummy(f"adj_{sym.name}")
            chain.append((adjoint, sympy.Add(*terms)))
        for s in sorted(expr.free_symbols & (outputs | wanted), key=sympy.default_sort_key):
            partial = _partial(expr, s)
            if partial == 0:
                continue
            term = partial if n == 0 else adjoint * partial
            if s in wanted:
                gradient[s].append(term)
            if s in outputs:
                pending.setdefault(s, []).append(term)
    return [*chain, (sympy.Dummy("gradient"), sympy.Tuple(*(sympy.Add(*gradient[w]) for w in wrts)))]


@lru_cache(maxsize=1 << 16)
def _partial(expr: sympy.Expr, s: sympy.Symbol) -> sympy.Expr:
    """∂expr/∂s for :func:`gradient_chain`, kept per (definition, symbol): the composed types of the catalog share
    their definitions (a roofline, a memory footprint), so each is differentiated once per process, not once per
    type that composes it.

    >>> x, y = sympy.symbols("x y", positive=True)
    >>> _partial(sympy.Max(x, 2 * y, evaluate=False), y)
    2*Heaviside(-x + 2*y)
    """
    if isinstance(expr, (sympy.Max, sympy.Min)):   # lifted: its own rule (SymPy's, without re-reducing)
        partial = _extremum_derivative(expr, lambda a: sympy.diff(a, s))
    else:
        partial = sympy.diff(expr, s)
    if partial.has(sympy.Derivative):   # a floor's or ceil's: 0 away from its steps
        partial = _step_derivatives(partial)
    return partial


def _lifted_extrema(definitions: Sequence[Definition]) -> list[Definition]:
    """``definitions`` with every ``Max``/``Min`` node (innermost first) given a definition of its own, its place
    taken by that definition's symbol: the chain rule then passes through each extremum once, by
    :func:`_extremum_derivative`.  SymPy's own derivative of ``Max(a_1, ..., a_n)`` builds ``Max`` of the other
    arguments for each one, and each build compares every pair of arguments (``factor_terms`` over them): a forward
    pass of a schedule of 20 tasks took a minute there.

    >>> x, y, o = sympy.symbols("x y o", positive=True)
    >>> [(str(s)[:1], e) for s, e in _lifted_extrema([(o, 2 * sympy.Max(x, y) + 1)])]
    [('_', Max(x, y)), ('o', 2*_m + 1)]
    """
    out: list[Definition] = []
    made: dict[sympy.Basic, sympy.Symbol] = {}

    def lift(e: sympy.Basic) -> sympy.Basic:
        if e.is_Atom or not e.has(sympy.Max, sympy.Min):
            return e
        args = [lift(a) for a in e.args]
        if isinstance(e, (sympy.Max, sympy.Min)):
            node = e.func(*args, evaluate=False)
            if node not in made:
                made[node] = _extremum_symbol(node, bool(e.is_positive))
                out.append((made[node], node))
            return made[node]
        return e.func(*args) if args != list(e.args) else e

    for sym, expr in definitions:
        out.append((sym, lift(expr)))
    return out


@lru_cache(maxsize=1 << 14)
def _extremum_symbol(node: sympy.Expr, positive: bool) -> sympy.Dummy:
    """The symbol standing for extremum ``node`` in a chain: the same one each time the node is lifted, so the
    definitions that read it are the same trees, differentiated once (:func:`_partial`)."""
    return sympy.Dummy("m", real=True, positive=positive or None)


def _extremum_derivative(node: sympy.Expr, d: Callable[[sympy.Expr], sympy.Expr]) -> sympy.Expr:
    """The derivative of ``Max``/``Min`` ``node`` given each argument's derivative ``d(a)``, as SymPy defines it
    (``Heaviside(a_i - Max(others))`` times ``d(a_i)``, a half at a tie), the other arguments' extremum left
    unevaluated (it is computed numerically, never reduced symbolically).

    >>> x, y = sympy.symbols("x y", positive=True)
    >>> _extremum_derivative(sympy.Max(x, y, evaluate=False), lambda a: sympy.diff(a, x))
    Heaviside(x - y)
    """
    terms = []
    for i, a in enumerate(node.args):
        da = d(a)
        if da == 0:
            continue
        others = node.args[:i] + node.args[i + 1:]
        rest = others[0] if len(others) == 1 else node.func(*others, evaluate=False)
        # unevaluated: Heaviside's own evaluation asks the sign of ``a - rest`` through the assumptions system (a third
        # of the time of the property tests' gradients); it is valued numerically, 1/2 at a tie
        step = sympy.Heaviside(a - rest if isinstance(node, sympy.Max) else rest - a, evaluate=False)
        terms.append(step * da)
    return sympy.Add(*terms)


@cache
def to_base_factor(unit: pint.Unit) -> float | int:
    """The factor taking magnitudes in ``unit`` to the base unit of its dimension."""
    factor = Q_(1, unit).to_base_units().magnitude
    if isinstance(factor, float) and factor.is_integer() and abs(factor) < 2**53:
        return int(factor)
    return factor


def hoist(expr: sympy.Expr, varying: set[sympy.Symbol]) -> sympy.Expr:
    """Group the factors and terms that do not vary so they are computed once, as scalars.

    ``P*b*B`` swept over ``B`` compiles to ``B*(P*b)``: one pass over the array instead of two.

    >>> import sympy
    >>> P, b, B = sympy.symbols("P b B", positive=True)
    >>> hoist(P * b * B, {B}).args
    (P*b, B)
    """
    if not expr.args or not (expr.free_symbols & varying):
        return expr
    if isinstance(expr, (sympy.Mul, sympy.Add)):
        fixed = [a for a in expr.args if not (a.free_symbols & varying)]
        moving = [hoist(a, varying) for a in expr.args if a.free_symbols & varying]
        if fixed and moving:
            return expr.func(expr.func(*fixed), *moving, evaluate=False)
        return expr.func(*moving, evaluate=False)
    if isinstance(expr, sympy.Piecewise):
        return expr
    return expr.func(*[hoist(a, varying) for a in expr.args])


def exact_value(expr: sympy.Expr, values: dict[sympy.Symbol, Any], digits: int = 50) -> float:
    """Evaluate ``expr`` exactly (rationals, ``evalf(digits)``): the reference for the compiled path."""
    subs = {}
    for sym, value in values.items():
        if isinstance(value, float):
            subs[sym] = sympy.Rational(value)
        else:
            subs[sym] = sympy.Integer(value) if isinstance(value, int) else value
    return float(sympy.N(expr.xreplace(subs), digits))
