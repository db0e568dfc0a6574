"""Walking SymPy trees as the shared graphs they are: every distinct subtree visited once.

A composed output's tree, and more so the tuple of its derivatives, repeats the same subtrees many times
(each use of an earlier output is a copy of its whole tree; a derivative by the product rule copies the rest
of a product into every term).  SymPy's ``Basic.replace`` and ``Basic.has`` walk every copy: for the gradient
of a distributed training step that is 18 million visits where a few thousand distinct nodes exist.  The walks
here remember what they found at each distinct subtree (SymPy nodes hash by structure, and cache their hash), so
their cost grows with the distinct nodes, not with the expanded tree.

>>> import sympy
>>> x, y = sympy.symbols("x y", positive=True)
>>> tree = sympy.floor(x / y) * sympy.log(x + 1) + sympy.log(x + 1) ** 2
>>> sorted(t.__name__ for t in node_types(tree) if t.__module__.startswith("sympy.functions"))
['floor', 'log']
>>> replace_nodes(tree, lambda n: isinstance(n, sympy.log), lambda n: sympy.Symbol("L"))
L**2 + L*floor(x/y)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import sympy


def node_types(expr: Any) -> frozenset[type]:
    """The classes of every node of ``expr`` (as ``expr.has(cls)`` would find them), each distinct subtree once."""
    seen: set[Any] = set()
    found: set[type] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        found.add(type(node))
        stack.extend(getattr(node, "args", ()))
    return frozenset(found)


def has_type(expr: Any, *classes: type) -> bool:
    """``expr.has(*classes)`` for classes (not subexpressions), each distinct subtree visited once."""
    return any(issubclass(t, classes) for t in node_types(expr))


def replace_nodes(expr: Any, query: Callable[[Any], Any], value: Callable[[Any], Any]) -> Any:
    """``expr.replace(query, value)`` with callables (bottom up: a node's arguments first, then the node as
    rebuilt from them), computing each distinct subtree once."""
    memo: dict[Any, Any] = {}

    def walk(node: Any) -> Any:
        try:
            return memo[node]
        except KeyError:
            pass
        except TypeError:   # an unhashable leaf (none in a SymPy tree): walked as SymPy would
            return node
        out = node
        args = getattr(node, "args", None)
        if args:
            new = tuple(walk(a) for a in args)
            if any(n is not a for n, a in zip(new, args)) and new != args:
                out = node.func(*new)
        if args is not None and query(out):
            replaced = value(out)
            if replaced is not None and replaced != out:
                out = replaced
        memo[node] = out
        return out

    return walk(expr)


_BASIC_SLOTS = frozenset({"_mhash", "_args", "_assumptions", "__weakref__"})

#: What a node's constructor keeps beside its arguments (``LatticeOp``'s and ``FiniteSet``'s sets of arguments, a
#: function's numbers of arguments), each a node or a set of nodes; a node holding anything else is not rebuilt raw.
NODE_STATE = frozenset({"_argset", "_args_set", "nargs"})


@cache
def plain_node(cls: type) -> bool | None:
    """Whether a node of ``cls`` is its class and arguments alone (None: those and its ``is_commutative``; False: it
    keeps more, or pickles its own way, and is not rebuilt raw)."""
    if cls.__reduce_ex__ is not sympy.Basic.__reduce_ex__ or cls.__getnewargs__ is not sympy.Basic.__getnewargs__ \
            or cls.__getstate__ is not sympy.Basic.__getstate__:
        return False
    slots: set[str] = set()
    for k in cls.__mro__:
        own = getattr(k, "__slots__", ())
        slots.update((own,) if isinstance(own, str) else own)
    extra = slots - _BASIC_SLOTS
    if extra == {"is_commutative"}:
        return None
    return not extra


def state_ok(state: Any) -> bool:
    """Whether ``state`` (a node's ``__dict__``) holds only :data:`NODE_STATE`, each a node or a set of nodes."""
    return type(state) is dict and set(state) <= NODE_STATE and all(
        isinstance(v, sympy.Basic) or (type(v) in (set, frozenset) and all(isinstance(a, sympy.Basic) for a in v))
        for v in state.values())


def raw_node(cls: type, args: tuple[Any, ...], commutative: bool | None, state: dict[str, Any] | None) -> Any:
    """A node of ``cls`` with ``args`` as given, without its constructor (which would simplify them again), with
    its ``is_commutative`` and what its constructor kept beside them (``Max``'s set of arguments, which printing
    reads)."""
    obj = sympy.Basic.__new__(cls, *args)
    if commutative is not None:
        obj.is_commutative = commutative
    if state:
        obj.__dict__.update(state)
    return obj


def rename_symbols(expr: Any, rename: Mapping[Any, Any]) -> Any:
    """``expr.xreplace(rename)`` for a renaming of symbols into symbols of the same assumptions, without SymPy's
    evaluation: every node is rebuilt as it stands (the same operation on the renamed arguments has the same value
    and assumptions, so there is nothing to simplify), each distinct subtree once.  A node that keeps more than its
    arguments (see :func:`plain_node`) is built by its constructor.

    >>> x, y, d = sympy.symbols("x y d", positive=True)
    >>> tree = sympy.Max(x, 2 * d) + sympy.Piecewise((d, x > d), (y, True))
    >>> renamed = rename_symbols(tree, {d: sympy.Symbol("e", positive=True)})
    >>> renamed.free_symbols == {x, y, sympy.Symbol("e", positive=True)}
    True
    >>> rename_symbols(renamed, {sympy.Symbol("e", positive=True): d}) == tree   # as it was, node for node
    True
    """
    memo: dict[Any, Any] = dict(rename)

    def walk(node: Any) -> Any:
        hit = memo.get(node)
        if hit is not None:
            return hit
        args = getattr(node, "_args", ())
        if not args or isinstance(node, sympy.Atom):
            memo[node] = node
            return node
        new = tuple(walk(a) for a in args)
        if all(n is a for n, a in zip(new, args)):
            out = node
        else:
            plain = plain_node(type(node))
            state = getattr(node, "__dict__", None) or None
            if plain is False or (state is not None and not state_ok(state)):
                out = node.func(*new)
            else:
                if state is not None:   # the sets of arguments, renamed
                    state = {k: (type(v)(walk(a) for a in v) if isinstance(v, (set, frozenset)) else walk(v))
                             for k, v in state.items()}
                out = raw_node(type(node), new, node.is_commutative if plain is None else None, state)
        memo[node] = out
        return out

    return walk(expr)


__all__ = ["NODE_STATE", "has_type", "node_types", "plain_node", "raw_node", "rename_symbols", "replace_nodes",
           "state_ok"]

