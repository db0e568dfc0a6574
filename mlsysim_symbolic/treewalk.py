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

from collections.abc import Callable
from typing import Any


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


__all__ = ["has_type", "node_types", "replace_nodes"]

