"""LaTeX math for Markdown: inline ``$...$``, display ``$$...$$``, and fragments joined into one Markdown text.

>>> fmt_math(r"\\frac{a}{b}"), fmt_display_math("E = mc^2"), fmt_text("Peak ", fmt_math("x"), " at ", 3)
('$\\\\frac{a}{b}$', '$$E = mc^2$$', 'Peak $x$ at 3')
"""

from __future__ import annotations

from typing import Any

from .markdown import MarkdownStr

__all__ = ["fmt_display_math", "fmt_math", "fmt_text"]


def fmt_math(expression: Any) -> MarkdownStr:
    """``expression`` as inline math, ``$expression$``.

    >>> fmt_math(2)._repr_markdown_()
    '$2$'
    """
    return MarkdownStr(f"${expression}$")


def fmt_display_math(expression: Any) -> MarkdownStr:
    """``expression`` as display math, ``$$expression$$``.

    >>> fmt_display_math("x")
    '$$x$$'
    """
    return MarkdownStr(f"$${expression}$$")


def fmt_text(*parts: Any) -> MarkdownStr:
    """The parts (formatted fragments and literal text, each as its ``str``) joined into one Markdown text.

    >>> fmt_text(), fmt_text("a", "b")
    ('', 'ab')
    """
    return MarkdownStr("".join(str(part) for part in parts))
