"""The formatters' return type: a ``str`` that Jupyter and Quarto insert as raw Markdown.

Quarto escapes the commas and points of a plain ``str`` (``2,039.4`` becomes ``2\\,039\\.4``, which inside
``$...$`` reads as LaTeX spacing); an object with ``_repr_markdown_`` is inserted verbatim.  As mlsysim's
``MarkdownStr``, every ``str`` operation still works.

>>> text = MarkdownStr("2,039.4 GB")
>>> text._repr_markdown_(), isinstance(text, str), text + "!"
('2,039.4 GB', True, '2,039.4 GB!')
"""

from __future__ import annotations

__all__ = ["MarkdownStr"]


class MarkdownStr(str):
    """A string that notebooks (Jupyter, Quarto) render as Markdown, unescaped."""

    __slots__ = ()

    def _repr_markdown_(self) -> str:
        """The text itself, as Markdown."""
        return str.__str__(self)
