r"""The declared references as a bibliography: one ``\bibitem`` per distinct work, cited where a type is printed.

A reference is a work (its text and URL) and the part of it a type relies on (its
section).  The work is one bibliography entry, keyed by a hash of its text and URL so the
same work cited by two types is one entry under one key; the section goes into the
citation (``\cite[\S 3.1]{ref:...}``).  Every piece of declared text is escaped.

>>> from mlsysim_symbolic.spec import Reference
>>> r = Reference("Kaplan et al. (2020), Scaling Laws", "§2.1", "https://arxiv.org/abs/2001.08361")
>>> print(citation(r))
\cite[\S{}2.1]{ref:266284df51}
>>> print(bibliography([r, Reference("Kaplan et al. (2020), Scaling Laws", "§3", "https://arxiv.org/abs/2001.08361")]))
\begin{thebibliography}{9}
\bibitem{ref:266284df51} Kaplan et al. (2020), Scaling Laws. \url{https://arxiv.org/abs/2001.08361}
\end{thebibliography}
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from .text import breakable_text, escape_text, url

_BRACKETS = re.compile(r"[\[\]]")

__all__ = ["bibliography", "citation", "citation_key", "works"]


def citation_key(reference: Any) -> str:
    """The bibliography key of a reference's work (its text and URL): ``ref:`` and ten hex digits of their hash.

    >>> from mlsysim_symbolic.spec import Reference
    >>> citation_key(Reference("A", "§1")) == citation_key(Reference("A", "§2")) != citation_key(Reference("B"))
    True
    """
    digest = hashlib.sha1(f"{reference.text}\n{reference.url}".encode()).hexdigest()
    return f"ref:{digest[:10]}"


def citation(reference: Any) -> str:
    r"""``\cite`` of a reference's work, its section (escaped, each bracket braced) as the citation's note.

    A bracket of the note is braced (``{]}``): LaTeX reads the note up to the first bare ``]``, and a note braced
    whole loses its braces on the way through ``\cite``'s own macros.
    """
    note = f"[{_BRACKETS.sub(lambda m: '{' + m.group(0) + '}', escape_text(reference.section))}]" if reference.section else ""
    return rf"\cite{note}{{{citation_key(reference)}}}"


def works(references: Iterable[Any]) -> list[Any]:
    """The distinct works of ``references`` (by text and URL), in order of first citation."""
    seen: dict[str, Any] = {}
    for r in references:
        seen.setdefault(citation_key(r), r)
    return list(seen.values())


def bibliography(references: Iterable[Any]) -> str:
    r"""A ``thebibliography`` with one ``\bibitem`` per distinct work of ``references`` (empty text when none)."""
    entries = works(references)
    if not entries:
        return ""
    items = [rf"\bibitem{{{citation_key(r)}}} {breakable_text(r.text)}" + ("" if r.text.rstrip().endswith((".", "?", "!")) else ".")
             + (rf" \url{{{url(r.url)}}}" if r.url else "") for r in entries]
    return "\\begin{thebibliography}{" + "9" * len(str(len(entries))) + "}\n" + "\n".join(items) + "\n\\end{thebibliography}"
