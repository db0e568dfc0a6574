"""Texts made once: a reference page or a document section of a type is a function of objects that do not change once
built (the type, the catalog that names its scenarios, those scenarios) and of hashable options, and the docs site,
the command line and the paper each ask for the same ones (a test session wrote every page five times: issue 30).

>>> calls = []
>>> owner = object()
>>> kept((owner,), "page", lambda: calls.append(1) or "text"), kept((owner,), "page", lambda: calls.append(1) or "text")
('text', 'text')
>>> len(calls)
1
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

#: (ids of the owners, options) -> (the owners, kept so that an id is never reused under us; the text).
_KEPT: dict[tuple[tuple[int, ...], Hashable], tuple[tuple[Any, ...], str]] = {}
_KEPT_MAX = 4096


#: The printed forms of one output's lines (a small store of its own: the lines of a keyed output are made one after
#: another, and thousands of forms must not push the pages out of ``_KEPT``).
_FORMS: dict[tuple[tuple[int, ...], Hashable], tuple[tuple[Any, ...], str]] = {}


def kept(owners: tuple[Any, ...], options: Hashable, make: Callable[[], str], *, form: bool = False) -> str:
    """``make()``, made once per ``owners`` (by identity) and ``options`` (by value) in a process (``form``: a
    printed form of one output, kept in a store of its own)."""
    store = _FORMS if form else _KEPT
    key = (tuple(map(id, owners)), options)
    hit = store.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], owners)):
        return hit[1]
    text = make()
    if len(store) >= _KEPT_MAX:
        store.clear()
    store[key] = (owners, text)
    return text
