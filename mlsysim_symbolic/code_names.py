r"""A code name (``update_time``, ``n_kv``, ``W16``) as the LaTeX of a symbol that declares none.

SymPy sets ``update_time`` as ``update_{time}``: an italic run of letters that reads as a
product (u·p·d·a·t·e) with an italic subscript.  A name made of one letter (or a Greek
letter's name) and subscripts keeps its letter italic and sets each word of its subscript
upright (``n_{\mathrm{kv}}``); any other name is a word, set upright whole
(``\mathrm{update\_time}``), with trailing one-letter or digit subscripts kept as
subscripts (``\mathrm{BW}_{0}``).

>>> [code_name_latex(n) for n in ("update_time", "n_kv", "W16", "lambda_cc", "BW_0", "T_svc_d", "h")]
['\\mathrm{update\\_time}', 'n_{\\mathrm{kv}}', 'W_{16}', '\\lambda_{\\mathrm{cc}}', '\\mathrm{BW}_{0}', 'T_{\\mathrm{svc},d}', 'h']
"""

from __future__ import annotations

import re

__all__ = ["GREEK_NAMES", "code_name_latex"]

#: Names read as a Greek letter (SymPy's spellings too: ``lamda`` is λ, as ``lambda`` is a Python keyword).
GREEK_NAMES = {
    **{g: g for g in (
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "mu", "nu", "xi",
        "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "varepsilon", "vartheta", "varphi",
        "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega")},
    "lamda": "lambda", "Lamda": "Lambda", "lambda": "lambda",
}
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TRAILING_DIGITS = re.compile(r"([A-Za-z]+?)(\d+)")


def _letter(part: str) -> str | None:
    """One letter, or a Greek letter's name, as LaTeX; None for a word."""
    if len(part) == 1 and part.isalpha():
        return part
    if part in GREEK_NAMES:
        return "\\" + GREEK_NAMES[part]
    return None


def _subscript(part: str) -> str:
    """One part of a subscript: digits, a letter or a Greek letter as they are, a word upright."""
    if part.isdigit():
        return part
    return _letter(part) or r"\mathrm{" + part + "}"


def code_name_latex(name: str) -> str:
    r"""The LaTeX of the code name ``name``: a letter with upright word subscripts, or an upright word.

    A name that is not an ASCII identifier (or has an empty part, ``a__b``) is set upright whole, its underscores
    escaped (any other character is left for :func:`~mlsysim_symbolic.variables.check_latex` to judge).

    >>> code_name_latex("fan_in"), code_name_latex("C_6ND"), code_name_latex("alpha0"), code_name_latex("x__y")
    ('\\mathrm{fan\\_in}', 'C_{\\mathrm{6ND}}', '\\alpha_{0}', '\\mathrm{x\\_\\_y}')
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a code name must be non-empty text, got {name!r}")
    parts = name.split("_")
    if not _IDENTIFIER.fullmatch(name) or not all(parts):
        return r"\mathrm{" + name.replace("_", r"\_") + "}"
    head, subs = parts[0], parts[1:]
    digits = _TRAILING_DIGITS.fullmatch(head)
    if digits and _letter(digits.group(1)) is not None:
        head, subs = digits.group(1), [digits.group(2), *subs]
    letter = _letter(head)
    if letter is not None:
        return letter + (f"_{{{','.join(_subscript(s) for s in subs)}}}" if subs else "")
    short = [s for s in subs if s.isdigit() or len(s) == 1]
    if short == subs and subs:   # an upright word with letter or digit subscripts: BW_0
        return rf"\mathrm{{{head}}}_{{{','.join(subs)}}}"
    return r"\mathrm{" + name.replace("_", r"\_") + "}"
