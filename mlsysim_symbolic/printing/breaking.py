r"""Long equations broken to the line, never shrunk: at top-level ``+``/``-`` signs, and by naming wide subterms.

:func:`wrap` cuts one side of an equation at its top-level signs into lines of a given
width.  A side with a single term wider than the line (a case analysis inside a
product, a fraction over a long sum) cannot be cut there: :func:`name_wide` then names
its widest subterms ``\langle 1\rangle``, ``\langle 2\rangle``, ... and returns their
definitions, each set on a line of its own (``where`` lines), themselves cut at their
signs.  Widths are printed widths (:func:`width`): a ``cases`` block is as wide as its
widest row, not the sum of its rows.

>>> wrap("a + b - c", 6)
['a + b', '- c']
>>> side, names = name_wide(r"2 \left(x + y + z\right) w", 6)
>>> side, names
('2 \\langle 1\\rangle w', [('\\langle 1\\rangle', 'x + y + z')])
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .equations import printed_length

__all__ = ["Group", "groups", "name_wide", "pieces", "split_list", "width", "wrap"]

_CASES_BEGIN, _CASES_END = r"\begin{cases}", r"\end{cases}"
#: Commands whose brace arguments may be named (``\frac{<long sum>}{b}``).
_ARGUMENT_OF = ("\\frac", "\\dfrac", "\\tfrac", "\\sqrt")
#: What a ``cases`` block adds to its widest row, in printed characters: the brace and the quad between columns.
_CASES_EXTRA = 4
#: A subterm narrower than this (printed characters) is never named: naming it would not shorten the line.
_SMALLEST = 6


def _cases_end(latex: str, at: int) -> int:
    """The index just past the ``\\end{cases}`` matching the ``\\begin{cases}`` at ``at``."""
    depth, i = 0, at
    while i < len(latex):
        if latex.startswith(_CASES_BEGIN, i):
            depth += 1
            i += len(_CASES_BEGIN)
        elif latex.startswith(_CASES_END, i):
            depth -= 1
            i += len(_CASES_END)
            if depth == 0:
                return i
        else:
            i += 1
    return len(latex)


def _rows(body: str) -> list[str]:
    """The rows of a ``cases`` body, split at its own ``\\\\`` (not those of a nested block)."""
    rows, depth, start, i = [], 0, 0, 0
    while i < len(body):
        if body.startswith(r"\begin{", i):
            depth += 1
        elif body.startswith(r"\end{", i):
            depth -= 1
        elif depth == 0 and body.startswith("\\\\", i):
            rows.append(body[start:i])
            i += 2
            start = i
            continue
        i += 1
    rows.append(body[start:])
    return rows


def _cells(row: str) -> list[str]:
    """A ``cases`` row cut at its own ``&`` (not one inside braces or a nested block)."""
    depth = 0
    for i, c in enumerate(row):
        if c in "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "&" and depth == 0 and (i == 0 or row[i - 1] != "\\") and not _inside_block(row, i):
            return [row[:i], row[i + 1:]]
    return [row]


def _inside_block(row: str, at: int) -> bool:
    """Whether index ``at`` of ``row`` is inside a ``\\begin..\\end`` block of it."""
    return row.count(r"\begin{", 0, at) > row.count(r"\end{", 0, at)


def width(latex: str) -> float:
    r"""About how many characters wide ``latex`` prints (:func:`printed_length`), a ``cases`` block as its widest
    value and its widest condition (its two columns).

    >>> width(r"\begin{cases} a + b & \text{for}\: x \\ c & \text{otherwise} \end{cases}") < printed_length(
    ...     r"\begin{cases} a + b & \text{for}\: x \\ c & \text{otherwise} \end{cases}")
    True
    """
    at = latex.find(_CASES_BEGIN)
    if at < 0:
        return printed_length(latex)
    end = _cases_end(latex, at)
    body = latex[at + len(_CASES_BEGIN): end - len(_CASES_END)]
    cells = [_cells(row) for row in _rows(body)]   # a two-column array: its widest value and its widest condition
    widest = max(width(c[0]) for c in cells) + max((width(c[1]) for c in cells if len(c) > 1), default=0) + _CASES_EXTRA
    return printed_length(latex[:at]) + widest + width(latex[end:])


def pieces(side: str) -> list[str]:
    r"""``side`` cut before each ``+`` and ``-`` sign (and ``\wedge``, ``\vee``) outside braces, ``\left..\right`` and
    environments.

    >>> pieces(r"a + \left(b - c\right) - \frac{d + e}{f}")
    ['a', '+ \\left(b - c\\right)', '- \\frac{d + e}{f}']
    """
    cuts, depth, i = [], 0, 0
    while i < len(side):
        if (side.startswith(r"\left", i) and not side[i + 5:i + 6].isalpha()) or side.startswith(r"\begin{", i):
            depth += 1
        elif (side.startswith(r"\right", i) and not side[i + 6:i + 7].isalpha()) or side.startswith(r"\end{", i):
            depth -= 1
        c = side[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and i > 0 and (side[i - 1:i + 2] in (" + ", " - ") or side.startswith((r"\wedge ", r"\vee "), i)):
            cuts.append(i)
        i += 1
    bounds = [0, *cuts, len(side)]
    return [side[x:y].strip() for x, y in zip(bounds, bounds[1:])]


def wrap(side: str, limit: float) -> list[str] | None:
    """``side`` in lines at most ``limit`` wide (:func:`width`), cut at its top-level signs; None if a term is wider."""
    parts = pieces(side)
    if any(width(p) > limit for p in parts):
        return None
    return _packed(parts[0], parts[1:], limit)


def _packed(first: str, rest: list[str], limit: float) -> list[str]:
    """``first`` then each of ``rest`` on the current line while it fits ``limit`` (:func:`width`), else on a new one."""
    lines = [first]
    for part in rest:
        joined = f"{lines[-1]} {part}"
        if width(joined) > limit:
            lines.append(part)
        else:
            lines[-1] = joined
    return lines


@dataclass(frozen=True)
class Group:
    """A subterm that may be named: ``latex[start:end]`` is replaced, ``definition`` is what the name stands for."""

    start: int
    end: int
    definition: str


@dataclass(frozen=True)
class Opening:
    """What a ``\\left`` opens, and so how the group it closes is named: ``named`` whether a name may stand for it,
    ``inner`` whether the name stands for its inside (a parenthesised term) rather than the whole group."""

    named: bool
    inner: bool


PAREN = Opening(named=True, inner=True)          # \left( term \right): the term
DELIMITER = Opening(named=True, inner=False)     # \left\lceil ... \right\rceil: the whole group
CALL = Opening(named=True, inner=False)          # \max\left(a, b\right): the whole call
ARGUMENTS = Opening(named=False, inner=False)    # \operatorname{FFD}_{k}\left(w;\ C\right): neither
BRACE = Opening(named=False, inner=True)         # { ... }: named where it is an argument (of \frac, \sqrt)


_CALL = re.compile(r"\\(?:max|min)\s*$")
_OPERATOR_CALL = re.compile(r"\\operatorname\*?\{[^{}]*\}(?:_\{\\text\{[^{}]*\}\})?\s*$")
_DELIMITER = re.compile(r"\\(?:left|right)(?:\\[A-Za-z]+|\\[{}|]|[()\[\]|./])")


def groups(latex: str) -> list[Group]:
    r"""Every subterm of ``latex`` that a name can stand for: ``\left(..\right)`` groups (named without their
    parentheses), other ``\left..\right`` groups and ``cases`` blocks (named whole), and the arguments of
    ``\frac`` and ``\sqrt``.

    >>> [g.definition for g in groups(r"\frac{a + b}{c} \left\lceil d \right\rceil")]
    ['a + b', 'c', '\\left\\lceil d \\right\\rceil']
    """
    found: list[Group] = []
    stack: list[tuple[Opening, int, int, bool]] = []   # (what opened, start, inner start, an argument that may be named)
    frac_first_ends: set[int] = set()
    i = 0
    while i < len(latex):
        m = _DELIMITER.match(latex, i)
        if m and m.group(0).startswith(r"\left"):
            kind, start = (PAREN if m.group(0) == r"\left(" else DELIMITER), i
            call = _CALL.search(latex, 0, i) if kind is PAREN else None
            if call is not None:   # \max\left(a, b\right) is named whole: its parentheses hold arguments, not a term
                kind, start = CALL, call.start()
            elif kind is PAREN and _OPERATOR_CALL.search(latex, 0, i):
                kind = ARGUMENTS   # \operatorname{FFD}_{k}\left(w;\ C\right): neither the arguments nor the call
            stack.append((kind, start, m.end(), True))
            i = m.end()
            continue
        if m and m.group(0).startswith(r"\right") and stack and stack[-1][0] is not BRACE:
            kind, start, inner, _ = stack.pop()
            if kind.named:
                definition = latex[inner:i].strip() if kind.inner else latex[start:m.end()]
                found.append(Group(start, m.end(), definition))
            i = m.end()
            continue
        if latex.startswith(_CASES_BEGIN, i):
            end = _cases_end(latex, i)
            found.append(Group(i, end, latex[i:end]))
            found.extend(Group(i + len(_CASES_BEGIN) + g.start, i + len(_CASES_BEGIN) + g.end, g.definition)
                         for g in groups(latex[i + len(_CASES_BEGIN): end - len(_CASES_END)]))
            i = end
            continue
        c = latex[i]
        if c == "\\":
            cmd = re.match(r"\\[A-Za-z]+|\\.", latex[i:])
            i += cmd.end() if cmd else 1
            continue
        if c == "{":
            argument = latex[:i].endswith(_ARGUMENT_OF) or i in frac_first_ends
            stack.append((BRACE, i, i + 1, argument))
        elif c == "}" and stack and stack[-1][0] is BRACE:
            _, start, inner, argument = stack.pop()
            if argument:
                found.append(Group(inner, i, latex[inner:i]))
                if latex[:start].endswith(("\\frac", "\\dfrac", "\\tfrac")):
                    frac_first_ends.add(i + 1)
        i += 1
    return found


def name_wide(side: str, limit: float, *, first: int = 1) -> tuple[str, list[tuple[str, str]]]:
    r"""``side`` with subterms named until every line fits ``limit``: (the side, [(name, definition), ...]).

    Each round takes the first text (the side, then the definitions) that :func:`wrap` cannot fit and names,
    within it, its widest subterm that fits the line on its own (else its widest subterm, named in turn).
    A text with no subterm left to name stays as it is.  Names are ``\langle k\rangle`` from ``first`` on.

    >>> name_wide(r"\frac{a + b + c + d}{e}", 8)
    ('\\frac{\\langle 1\\rangle}{e}', [('\\langle 1\\rangle', 'a + b + c + d')])
    """
    texts = [side]
    names: list[str] = []
    while True:
        at = next((k for k, t in enumerate(texts) if wrap(t, limit) is None), None)
        if at is None:
            break
        text = texts[at]
        options = [g for g in groups(text) if (g.start, g.end) != (0, len(text)) and width(text[g.start:g.end]) >= _SMALLEST
                   and g.definition.strip() != text.strip()]
        if not options:
            break
        fitting = [g for g in options if wrap(g.definition, limit) is not None]
        chosen = max(fitting or options, key=lambda g: width(g.definition))
        name = rf"\langle {first + len(names)}\rangle"
        start, end = chosen.start, chosen.end
        before, after = text[:start].rstrip(), text[end:].lstrip()
        if before.endswith(r"\left(") and after.startswith(r"\right)"):   # (cases) named whole: no \left(<name>\right)
            start, end = len(before) - len(r"\left("), len(text) - len(after) + len(r"\right)")
        texts[at] = text[:start] + name + text[end:]
        texts.append(chosen.definition)
        names.append(name)
        if len(names) > 50:   # a runaway: every round shortens a text, so this is a guard, never the rule
            break
    return texts[0], list(zip(names, texts[1:]))


def _list_group(latex: str) -> tuple[int, int, int, int, str] | None:
    r"""The widest top-level ``\left<d> .. \right<d>`` group of ``latex`` with a comma of its own:
    (start, inner start, inner end, end, closing delimiter), or None."""
    best, depth, stack, i = None, 0, [], 0
    while i < len(latex):
        m = _DELIMITER.match(latex, i)
        if m and m.group(0).startswith(r"\left"):
            stack.append((i, m.end()))
            i = m.end()
            continue
        if m and m.group(0).startswith(r"\right") and stack:
            start, inner = stack.pop()
            if not stack and depth == 0 and len(_top_commas(latex[inner:i])) > 1:
                found = (start, inner, i, m.end(), m.group(0)[len(r"\right"):])
                if best is None or found[3] - found[0] > best[3] - best[0]:
                    best = found
            i = m.end()
            continue
        if not stack:
            depth += {"{": 1, "}": -1}.get(latex[i], 0)
        i += 1
    return best


def _top_commas(inner: str) -> list[str]:
    r"""The items of ``inner`` cut at its own commas (each with its comma), outside braces and ``\left..\right``."""
    items, depth, start, i = [], 0, 0, 0
    while i < len(inner):
        m = _DELIMITER.match(inner, i)
        if m:
            depth += 1 if m.group(0).startswith(r"\left") else -1
            i = m.end()
            continue
        c = inner[i]
        if c == "{" or inner.startswith(r"\begin{", i):
            depth += 1
        elif c == "}" or inner.startswith(r"\end{", i):
            depth -= 1
        elif c == "," and depth == 0:
            items.append(inner[start:i + 1])
            start = i + 1
        i += 1
    items.append(inner[start:])
    return [t.strip().removeprefix("\\ ").strip() for t in items if t.strip()]   # (a list's ",\ " spacing dropped)


def split_list(side: str, limit: float) -> list[str] | None:
    r"""``side`` in lines at its widest delimited list (``\max\left(a, b\right)``, a set ``\left\{..\right\}``),
    cut after its commas; each line's delimiters balanced by ``\left.``/``\right.``.  None when ``side`` has no
    such list or it fits one line (an item wider than ``limit`` stays whole, on a line of its own).

    >>> split_list(r"\max\left(a + b, c + d, e\right) f", 12)
    ['\\max\\left(a + b,\\right.', '\\left. c + d, e\\right) f']
    """
    found = _list_group(side)
    if found is None:
        return None
    start, inner, end, stop, closing = found
    opening = side[start:inner]
    items = _top_commas(side[inner:end])
    lines = _packed(side[:start] + opening + items[0], items[1:], limit)
    lines = [line if k == 0 else r"\left. " + line for k, line in enumerate(lines)]
    lines = [line + r"\right." for line in lines[:-1]] + [lines[-1] + r"\right" + closing + side[stop:]]
    return lines if len(lines) > 1 else None
