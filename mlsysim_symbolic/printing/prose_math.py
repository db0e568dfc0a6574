r"""Formulas written in prose (``N_opt = sqrt(C / (k r))`` in a type's notes) set as maths in the document.

Detection is conservative, by design: prose mixes words and formulas freely (``L = P(bad) I``,
``IDF = ln(1 + ...)``), and no rule tells them apart everywhere.  A formula is taken only
where the text reads ``NAME = FORMULA`` with

- ``NAME`` a symbol of the type (by its code name) or shaped like one: a letter or a Greek
  letter's name, digits, an optional ``_subscript`` (``N_opt``, ``k1``, ``eps_FA``);
- ``FORMULA`` the longest run after ``=`` of such names, numbers, ``+ - * / ^ **``, ``·``,
  ``×``, ``−``, parentheses, and calls of the parser's functions (``sqrt``, ``min``, ...),
  juxtaposition read as a product (``k r``), cut back until the package's safe parser
  (:func:`mlsysim_symbolic.parse.parse_equation`, a whitelist over Python's ``ast``: the text
  is never given to ``eval`` or ``sympify``) accepts it; it must hold an operator or a call
  (``n = k`` stays prose).

Everything else stays prose, escaped (:func:`~mlsysim_symbolic.printing.text.breakable_text`).
A formula is set as the author wrote it, token by token (no algebra reorders it): declared
symbols by their LaTeX, other names by :func:`~mlsysim_symbolic.code_names.code_name_latex`,
products by juxtaposition, ``/`` as an inline slash.

>>> print(prose_math("the optimum N_opt = sqrt(C / (k r)); with n = k as stated"))
the optimum $N_{\mathrm{opt}} = \sqrt{C / \left(k r\right)}$; with n = k as stated
>>> print(prose_math("q = 1 - (1 - p)^k. A check", {"q": r"q_{\mathrm{pass}}"}))
$q_{\mathrm{pass}} = 1 - \left(1 - p\right)^{k}$. A check
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import sympy

from ..code_names import GREEK_NAMES, code_name_latex
from ..errors import EquationError
from ..parse import FUNCTIONS, parse_equation
from .text import breakable_text

__all__ = ["find_formulas", "prose_math"]

#: Characters of prose read as operators inside a formula (one character for one, so positions are kept).
_OPERATORS = str.maketrans({"·": "*", "×": "*", "−": "-", "⋅": "*"})
_TOKEN = re.compile(r"\s+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[A-Za-z][A-Za-z0-9_]*|\*\*|[-+*/^(),]")
_SYMBOL_SHAPE = re.compile(r"([A-Za-z]|[A-Za-z]+(?=\d|_|$))\d*(?:_[A-Za-z0-9]+)?")
_LHS = re.compile(r"(?<![\w.^*/+\-=<>!])([A-Za-z][A-Za-z0-9_]*)\s*=(?![=<>])\s*")
#: Functions set as LaTeX operators in a prose formula (the parser's others print as ``\operatorname{name}``).
_FUNCTION_LATEX = {"min": r"\min", "max": r"\max", "log": r"\log", "exp": r"\exp", "sin": r"\sin", "cos": r"\cos"}
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)(?:[eE]([-+]?\d+))?")


def _symbol_like(name: str, names: Mapping[str, str]) -> bool:
    """A declared symbol's code name, or a name shaped like a symbol (``N_opt``, ``k1``, ``eps_FA``)."""
    if name in names:
        return True
    m = _SYMBOL_SHAPE.fullmatch(name)
    return bool(m) and (len(m.group(1)) == 1 or m.group(1) in GREEK_NAMES or m.group(1) == "eps")


def _tokens(text: str, at: int, names: Mapping[str, str]) -> list[tuple[str, int]]:
    """The tokens of the formula run starting at ``at``: (token, end index), stopping at the first that is not one."""
    out: list[tuple[str, int]] = []
    depth = 0
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None:
            break
        tok = m.group(0)
        if tok[0].isalpha():
            call = tok in FUNCTIONS and text[m.end():m.end() + 1] == "("
            if not call and not _symbol_like(tok, names):
                break
        elif tok == "(":
            depth += 1
        elif tok == ")":
            if depth == 0:
                break
            depth -= 1
        elif tok == "," and depth == 0:
            break
        out.append((tok, m.end()))
        at = m.end()
    return out


def _python(tokens: list[str]) -> str:
    """The formula as Python: ``^`` as ``**``, a product written as juxtaposition (``k r``, ``2 (a + b)``) with ``*``."""
    out: list[str] = []
    last = ""
    for tok in tokens:
        if tok.isspace():
            continue
        operand_start = tok[0].isalnum() or tok == "("
        if out and operand_start and (last[0].isalnum() or last == ")") and not (last in FUNCTIONS and tok == "("):
            out.append("*")
        out.append("**" if tok == "^" else tok)
        last = tok
    return " ".join(out)


def _parsed(tokens: list[str]) -> sympy.Expr | None:
    """The formula's tree from the safe parser, or None if it refuses the text (or it is not a formula: one operand)."""
    words = [t for t in tokens if not t.isspace()]
    operands = [t for t in words if t[0].isalnum() and t not in FUNCTIONS]
    if len(operands) < 2 and not any(t in FUNCTIONS for t in words):
        return None
    text = _python(tokens)
    found = {t: sympy.Symbol(t) for t in words if t[0].isalpha() and t not in FUNCTIONS}
    try:
        expr = parse_equation(text, found)
    except (EquationError, ValueError, TypeError, ArithmeticError):
        return None
    return expr if isinstance(expr, sympy.Basic) and not expr.is_Number else None


def find_formulas(text: str, names: Mapping[str, str] | None = None) -> list[tuple[int, int, str, list[str]]]:
    """Each ``NAME = FORMULA`` of ``text`` that the safe parser accepts: (start, end, name, the formula's tokens).

    >>> find_formulas("so I = 2/b whatever")
    [(3, 10, 'I', ['2', '/', 'b'])]
    """
    names = names or {}
    text_ops = str(text).translate(_OPERATORS)
    found = []
    at = 0
    while True:
        m = _LHS.search(text_ops, at)
        if m is None:
            break
        at = m.end()
        if not _symbol_like(m.group(1), names):
            continue
        tokens = _tokens(text_ops, m.end(), names)
        while tokens:   # the longest prefix the parser accepts, ending on an operand
            while tokens and (tokens[-1][0].isspace() or tokens[-1][0] in "+-*/^(,"):
                tokens.pop()
            expr = _parsed([t for t, _ in tokens]) if tokens else None
            if expr is not None:
                found.append((m.start(1), tokens[-1][1], m.group(1), [t for t, _ in tokens if not t.isspace()]))
                at = tokens[-1][1]
                break
            if tokens:
                tokens.pop()
    return found


def _closing(tokens: list[str], at: int) -> int:
    """The index of the ``)`` matching the ``(`` at ``at``."""
    depth = 0
    for i in range(at, len(tokens)):
        depth += {"(": 1, ")": -1}.get(tokens[i], 0)
        if depth == 0:
            return i
    return len(tokens) - 1


def _number(token: str) -> str:
    m = _NUMBER.fullmatch(token)
    if m is None or m.group(2) is None:
        return token
    return rf"{m.group(1)} \times 10^{{{int(m.group(2))}}}"


def _latex(tokens: list[str], names: Mapping[str, str]) -> str:
    r"""The formula as the author wrote it, token by token (no algebra: the parser only vouched for it): names by
    their LaTeX, products by juxtaposition (``\cdot`` before a number), ``^`` as a superscript, ``sqrt`` as a
    radical, ``ceil``/``floor`` as brackets, other calls as operators; ``/`` stays a slash (inline maths)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in FUNCTIONS and i + 1 < len(tokens) and tokens[i + 1] == "(":
            end = _closing(tokens, i + 1)
            inner = _latex(tokens[i + 2:end], names)
            brackets = {"sqrt": (r"\sqrt{", "}"), "ceil": (r"\left\lceil ", r" \right\rceil"),
                        "floor": (r"\left\lfloor ", r" \right\rfloor")}
            head, tail = brackets.get(tok, (_FUNCTION_LATEX.get(tok, rf"\operatorname{{{tok}}}") + r"\left(", r"\right)"))
            piece, i = head + inner + tail, end + 1
        elif tok == "(":
            end = _closing(tokens, i)
            piece, i = r"\left(" + _latex(tokens[i + 1:end], names) + r"\right)", end + 1
        elif tok in ("^", "**"):
            if i + 1 < len(tokens) and tokens[i + 1] == "(":
                end = _closing(tokens, i + 1)
                exponent, i = _latex(tokens[i + 2:end], names), end + 1
            else:
                exponent, i = _latex(tokens[i + 1:i + 2], names), i + 2
            out.append(f"^{{{exponent}}}")
            continue
        elif tok == "*":
            i += 1
            continue
        elif tok in "+-/,":
            piece, i = {"+": " + ", "-": " - ", "/": " / ", ",": ", "}[tok], i + 1
            out.append(piece)
            continue
        elif tok[0].isdigit():
            piece, i = _number(tok), i + 1
        else:
            piece, i = names.get(tok) or code_name_latex(tok), i + 1
        if out and not out[-1].endswith(" ") and not out[-1].endswith("("):
            out.append(r" \cdot " if piece[:1].isdigit() else " ")   # a number after a factor: 2 \cdot 3, x \cdot 2
        out.append(piece)
    return "".join(out).strip()


def prose_math(text: str, names: Mapping[str, str] | None = None) -> str:
    r"""``text`` as text-mode LaTeX: prose escaped, each ``NAME = FORMULA`` (:func:`find_formulas`) as ``$...$``.

    ``names`` maps a symbol's code name to its declared LaTeX (a type's symbols); other names print
    as :func:`~mlsysim_symbolic.code_names.code_name_latex` makes them.
    """
    names = dict(names or {})
    out, last = [], 0
    for start, end, lhs, tokens in find_formulas(text, names):
        rhs = _latex(tokens, names)
        out += [breakable_text(str(text)[last:start]), f"${names.get(lhs) or code_name_latex(lhs)} = {rhs}$"]
        last = end
    out.append(breakable_text(str(text)[last:]))
    return "".join(out)
