"""The count of values compared with mlsysim 0.3.0, for the terminal summary (``tests/conftest.py`` prints it).

Every comparison of the reference tests ends in one of three helpers of ``compare.py`` and ``members.py``: a
number or Quantity in :func:`compare.assert_close`; None, a boolean or a label in :func:`members.equal` or
:func:`compare.assert_same`.  :func:`install` wraps those three in place (before the test modules import them,
from ``tests/reference/conftest.py``) so that each leaf compared is counted once, whatever the test's shape: a
test per value or one test per named scenario comparing them all.  The comparisons themselves are unchanged.
"""

from __future__ import annotations

import functools
from typing import Any

#: values compared with mlsysim in this process
COMPARED = {"values": 0}

_EXACT = (type(None), bool, str)


def _counted(fn: Any, *, leaf: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(ours: Any, theirs: Any, *args: Any, **kwargs: Any) -> Any:
        result = fn(ours, theirs, *args, **kwargs)
        if leaf(theirs):
            COMPARED["values"] += 1
        return result

    wrapper.__wrapped_for_counting__ = True
    return wrapper


def install() -> None:
    """Wrap the comparison helpers in place (once): numbers counted by ``assert_close``, exact leaves by the others."""
    from . import compare, members

    if getattr(compare.assert_close, "__wrapped_for_counting__", False):
        return
    compare.assert_close = _counted(compare.assert_close, leaf=lambda theirs: True)
    compare.assert_same = _counted(compare.assert_same, leaf=lambda theirs: isinstance(theirs, _EXACT))
    members.assert_close = compare.assert_close
    members.equal = _counted(members.equal, leaf=lambda theirs: isinstance(theirs, _EXACT))
