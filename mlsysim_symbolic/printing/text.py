"""Scenario text (names, descriptions, meanings, notes, references, keys) made safe for every LaTeX context.

Nothing a derivation file or a user writes reaches LaTeX as markup: prose is escaped
(:func:`escape_text`), comments cannot end early (:func:`comment`), labels and URLs keep
to a safe alphabet (:func:`label`, :func:`url`).

>>> print(escape_text("\\\\input{/etc/hostname}"))
$\\backslash$input\\{/etc/hostname\\}
>>> print("% " + comment("evil\\n\\\\input{x}"))
% evil \\input{x}
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["breakable_text", "comment", "escape_text", "key_text", "label", "prose", "url"]

_TEXT_ESCAPES = {
    "\\": r"$\backslash$", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\~{}", "^": r"\^{}", "<": "$<$", ">": "$>$", "|": r"$|$",
}
_UNICODE = {
    "×": r"$\times$", "·": r"$\cdot$", "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''",
    "≤": r"$\le$", "≥": r"$\ge$", "≈": r"$\approx$", "≠": r"$\ne$", "∝": r"$\propto$", "→": r"$\rightarrow$",
    "←": r"$\leftarrow$", "↔": r"$\leftrightarrow$", "∞": r"$\infty$", "±": r"$\pm$", "√": r"$\surd$", "∑": r"$\sum$",
    "∂": r"$\partial$", "…": r"\ldots{}", "°": r"\textdegree{}", "µ": r"$\mu$", "²": r"$^{2}$", "³": r"$^{3}$",
    "¹": r"$^{1}$", "⁻": r"$^{-}$", "½": r"$\frac{1}{2}$", "§": r"\S{}", "é": r"\'e", "è": r"\`e", "ö": r'\"o', "ü": r'\"u',
    "ä": r'\"a', "∈": r"$\in$", "≪": r"$\ll$", "≫": r"$\gg$", "⌈": r"$\lceil$", "⌉": r"$\rceil$", "⌊": r"$\lfloor$",
    "⌋": r"$\rfloor$", **{chr(0x2080 + d): f"$_{{{d}}}$" for d in range(10)}, "∗": "*", "′": "'", "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "✓": "yes", "✗": "no",
}
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ζ": "zeta", "η": "eta", "θ": "theta",
    "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta",
    "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
#: Characters that end a line for TeX, a text editor or Python's ``splitlines``: never left in one line of output.
_LINE_BREAKS = re.compile(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def escape_text(text: Any) -> str:
    r"""Prose (a meaning, an assumption, a name, a key) as text-mode LaTeX that pdflatex accepts.

    Specials are escaped, newlines become spaces (no paragraph break inside an argument),
    and common Unicode (Greek letters, ×, ·, ≤, superscripts) becomes LaTeX; any other
    non-ASCII character is written as ``[U+XXXX]`` rather than failing.

    >>> print(escape_text("16 B/param × Ψ, ≤ 5% of α_max"))
    16 B/param $\times$ $\Psi$, $\le$ 5\% of $\alpha$\_max
    >>> print(escape_text("a\n\nb ^^5c"))
    a  b \^{}\^{}5c
    """
    out = []
    for ch in _LINE_BREAKS.sub(" ", str(text)):
        if ch in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[ch])
        elif _CONTROL.match(ch):
            out.append(" ")
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ch in _GREEK:
            out.append(f"$\\{_GREEK[ch]}$")
        else:
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)


def breakable_text(text: Any) -> str:
    r"""Escaped prose (:func:`escape_text`) that may break after ``_``, ``/`` and ``.`` inside long identifiers and paths.

    >>> print(breakable_text("see derivations/training.toml"))
    see derivations/\allowbreak{}training.\allowbreak{}toml
    """
    return re.sub(r"(\\_|[./])(?=[A-Za-z])", r"\1\\allowbreak{}", escape_text(text))


def comment(text: Any) -> str:
    r"""``text`` as the body of one ``%`` comment line: line breaks (and other control characters) become spaces.

    >>> comment("name\r\nend") == "name  end"
    True
    """
    return _CONTROL.sub(" ", _LINE_BREAKS.sub(" ", str(text)))


def label(*parts: Any) -> str:
    r"""A ``\label`` key from declared names: letters, digits, ``.``, ``:`` and ``-`` only, parts joined by ``:``.

    >>> label("eq", "PerExampleGradientScenario", "per_batch"), label("x}\\input{y")
    ('eq:PerExampleGradientScenario:per-batch', 'x--input-y')
    """
    return ":".join(re.sub(r"[^A-Za-z0-9.-]", "-", str(p)) for p in parts if p is not None)


def url(text: Any) -> str:
    r"""A URL for ``\url{..}``: anything outside the URL alphabet (braces, backslashes, ``^``, spaces) percent-encoded.

    >>> url("https://x.org/a b{c}^^5c\\d")
    'https://x.org/a%20b%7Bc%7D%5E%5E5c%5Cd'
    """
    allowed = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]")
    return "".join(ch if allowed.fullmatch(ch) else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in str(text))


def key_text(key: Any) -> str:
    r"""A key in a subscript: ``\mathrm{KWS}`` when alphanumeric, else escaped upright text.

    >>> key_text("GPT2"), key_text("GPT-2"), key_text("a}b")
    ('\\mathrm{GPT2}', '\\text{GPT-2}', '\\text{a\\}b}')
    """
    key = str(key)
    if re.fullmatch(r"[A-Za-z0-9]+", key):
        return rf"\mathrm{{{key}}}"
    return r"\text{" + escape_text(key) + "}"


_FLOOR_DIV = re.compile(r"([A-Za-z_][\w.]*|\d+(?:\.\d+)?)\s*//\s*([A-Za-z_][\w.]*|\d+(?:\.\d+)?)")
_POWER = re.compile(r"([A-Za-z_][\w.]*|\d+(?:\.\d+)?|\))\s*\*\*\s*")


def prose(text: Any) -> str:
    """A meaning as a physicist writes it: Python operators in it (``//``, ``**``, ``<=``, ``!=``) become math signs.

    >>> prose("head width (hidden_dim // heads when not stated)")
    'head width (⌊hidden_dim / heads⌋ when not stated)'
    >>> prose("a ** 2, x <= y, x >= y, x != y")
    'a^2, x ≤ y, x ≥ y, x ≠ y'
    """
    text = _FLOOR_DIV.sub(r"⌊\1 / \2⌋", str(text))
    text = _POWER.sub(r"\1^", text)
    return text.replace("<=", "≤").replace(">=", "≥").replace("!=", "≠")
