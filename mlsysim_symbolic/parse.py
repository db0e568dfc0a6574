"""Equation text to a SymPy tree, through a whitelist over Python's ``ast``.

Accepted: numbers, declared names, ``+ - * / **``, unary minus, parentheses,
comparisons and ``and``/``or``/``not`` inside ``piecewise`` conditions, the named
functions in :data:`FUNCTIONS`, and ``sub.output`` where ``sub`` is a declared
sub-scenario.  Nothing else: no attribute access on other names, no calls of
other names, no subscripts, lambdas, comprehensions or strings.  The text is
never given to ``eval``, ``exec`` or ``sympify``.

>>> import sympy
>>> P, b, B = sympy.symbols("P b B", positive=True)
>>> parse_equation("P * b * B", {"P": P, "b": b, "B": B})
B*P*b
>>> parse_equation("ceil(P / b)", {"P": P, "b": b})
ceiling(P/b)
>>> parse_equation("__import__('os')", {})
Traceback (most recent call last):
...
mlsysim_symbolic.errors.EquationError: '__import__' is not an allowed function; allowed: abs, acos, asin, betainc, betaincinv, binomial, ceil, cos, earliest, erf, erfc, erfinv, exact_quotient, exp, first_fit_decreasing, floor, gamma, gammainc, gammaincinv, lambertw, log, log10, log2, loggamma, max, maximum, min, minimum, normal_cdf, normal_ppf, piecewise, prod, prod_upto, sin, sqrt, sum, sum_upto
"""

from __future__ import annotations

import ast
import math
import re
import unicodedata
import warnings
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from . import special
from .errors import EquationError

MAX_TEXT = 4000          # characters of one equation
MAX_DEPTH = 60           # nesting depth of the tree
MAX_NODES = 2000         # nodes of the tree
MAX_EXPONENT = 64        # |literal exponent| allowed in ``**``
MAX_DIGITS = 40          # digits of a numeric literal
MAX_CONSTANT_BITS = 1400  # bits of a constant the tree may hold (about 420 digits): (2**64)**64**64 is refused, not computed

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: sympy.Lt,
    ast.LtE: sympy.Le,
    ast.Gt: sympy.Gt,
    ast.GtE: sympy.Ge,
}


def _piecewise(*args: Any) -> sympy.Expr:
    if len(args) % 2 != 1:
        raise EquationError(
            "piecewise takes value, condition pairs and a final otherwise value: piecewise(v1, c1, v2, c2, ..., otherwise)"
        )
    pairs = []
    for value, cond in zip(args[0:-1:2], args[1:-1:2]):
        if not isinstance(cond, (sympy.core.relational.Relational, sympy.And, sympy.Or, sympy.Not)) and cond not in (sympy.true, sympy.false):
            raise EquationError(f"piecewise condition {cond} is not a comparison")
        pairs.append((value, cond))
    pairs.append((args[-1], True))
    return sympy.Piecewise(*pairs)


def _one(name: str, fn: Callable[[Any], Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        if len(args) != 1:
            raise EquationError(f"{name}() takes exactly one argument, got {len(args)}")
        return fn(args[0])

    return call


def _at_least_two(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        if len(args) < 2:
            raise EquationError(f"{name}() takes at least two arguments, got {len(args)}")
        return fn(*args)

    return call


_COUNT_WORDS = {2: "two", 3: "three"}


def _exactly(n: int, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        if len(args) != n:
            raise EquationError(f"{name}() takes exactly {_COUNT_WORDS[n]} arguments, got {len(args)}")
        return fn(*args)

    return call


def _log(*args: Any) -> Any:
    if len(args) == 1:
        return sympy.log(args[0])
    if len(args) == 2:
        return sympy.log(args[0], args[1])
    raise EquationError(f"log() takes one or two arguments, got {len(args)}")


#: Whitelisted functions of the equation language, by their name in derivation text.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "max": _at_least_two("max", sympy.Max),
    "min": _at_least_two("min", sympy.Min),
    "sqrt": _one("sqrt", sympy.sqrt),
    "log": _log,
    "log2": _one("log2", lambda x: sympy.log(x, 2)),
    "log10": _one("log10", lambda x: sympy.log(x, 10)),
    "exp": _one("exp", sympy.exp),
    "ceil": _one("ceil", sympy.ceiling),
    "floor": _one("floor", sympy.floor),
    "abs": _one("abs", sympy.Abs),
    # trigonometric (dimensionless argument, radians): the real root of a cubic with three real roots
    "cos": _one("cos", sympy.cos),
    "sin": _one("sin", sympy.sin),   # sin(x) itself: sqrt(1 - cos(x)**2) loses digits for small x (1 - cos**2 cancels)
    "acos": _one("acos", sympy.acos),
    "piecewise": _piecewise,
    # tier B: special functions (dimensionless argument and value), SymPy's own classes
    "erf": _one("erf", sympy.erf),
    "erfc": _one("erfc", sympy.erfc),
    "erfinv": _one("erfinv", sympy.erfinv),
    "normal_cdf": _one("normal_cdf", lambda x: (1 + sympy.erf(x / sympy.sqrt(2))) / 2),
    "normal_ppf": _one("normal_ppf", lambda p: sympy.sqrt(2) * sympy.erfinv(2 * p - 1)),
    "gamma": _one("gamma", sympy.gamma),
    # ln Γ(x) (SciPy gammaln, math.lgamma): ratios of factorials past float64 (F!/(F − Nw)! at F = 1000) as a difference
    "loggamma": _one("loggamma", special.loggamma),
    "binomial": _exactly(2, "binomial", sympy.binomial),
    "lambertw": _one("lambertw", sympy.LambertW),
    "asin": _one("asin", sympy.asin),
    "gammainc": _exactly(2, "gammainc", special.gammainc),
    "gammaincinv": _exactly(2, "gammaincinv", special.gammaincinv),
    "betainc": _exactly(3, "betainc", special.betainc),
    "betaincinv": _exactly(3, "betaincinv", special.betaincinv),
    # a/b where b divides a (a geometric sum's (c^(d+1) - 1)/(c - 1)): exact integer division on ints past 2^53
    "exact_quotient": _exactly(2, "exact_quotient", special.exact_quotient),
}
#: Reductions over the keys of an index: ``sum(expr, k)`` and ``prod(expr, k)``.
REDUCTIONS = ("sum", "prod", "sum_upto", "prod_upto", "maximum", "minimum", "earliest", "first_fit_decreasing")
ALLOWED_CALLS = tuple(sorted([*FUNCTIONS, *REDUCTIONS]))


class _Builder:
    def __init__(
        self,
        names: Mapping[str, Any],
        attributes: Mapping[tuple[str, str], Any] | None,
        reduce: Callable[[str, Any, str], Any] | None,
    ):
        self.names = names
        self.attributes = attributes if attributes is not None else {}
        self.reduce = reduce
        self.nodes = 0

    def build(self, node: ast.AST, depth: int = 0, condition: bool = False) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise EquationError(f"equation has more than {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise EquationError(f"equation nests deeper than {MAX_DEPTH} levels")
        d = depth + 1
        if isinstance(node, ast.Expression):
            return self.build(node.body, d, condition=condition)
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            if node.id not in self.names:
                raise EquationError(f"unknown name {node.id!r}")
            return self.names[node.id]
        if isinstance(node, ast.BinOp):
            left = self.build(node.left, d)
            right = self.build(node.right, d)
            if isinstance(node.op, ast.Pow):
                return _finite_constant(self.power(left, right))
            op = _BINOPS.get(type(node.op))
            if op is None:
                raise EquationError(f"operator {type(node.op).__name__} is not allowed; use + - * / **")
            if isinstance(node.op, ast.Div) and right == 0:
                raise EquationError("division by zero")
            return op(left, right)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                return -self.build(node.operand, d)
            if isinstance(node.op, ast.UAdd):
                return self.build(node.operand, d)
            if isinstance(node.op, ast.Not) and condition:
                return sympy.Not(self.build(node.operand, d, condition=True))
            raise EquationError(f"unary operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.Compare):
            if not condition:
                raise EquationError("comparisons are allowed only as conditions inside piecewise(...)")
            result = []
            left = self.build(node.left, d)
            for op, comparator in zip(node.ops, node.comparators):
                cmp = _COMPARE.get(type(op))
                if cmp is None:
                    raise EquationError(f"comparison {type(op).__name__} is not allowed; use < <= > >=")
                right = self.build(comparator, d)
                result.append(cmp(left, right))
                left = right
            return sympy.And(*result) if len(result) > 1 else result[0]
        if isinstance(node, ast.BoolOp):
            if not condition:
                raise EquationError("'and'/'or' are allowed only in conditions inside piecewise(...)")
            values = [self.build(v, d, condition=True) for v in node.values]
            return sympy.And(*values) if isinstance(node.op, ast.And) else sympy.Or(*values)
        if isinstance(node, ast.Call):
            return _finite_constant(self.call(node, d))
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and (node.value.id, node.attr) in self.attributes:
                return self.attributes[(node.value.id, node.attr)]
            raise EquationError(f"attribute access '.{node.attr}' is not allowed here")
        raise EquationError(f"{type(node).__name__} is not allowed in an equation")

    def constant(self, value: Any) -> sympy.Expr:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise EquationError(f"constant {value!r} is not a number")
        if isinstance(value, int):
            if len(str(abs(value))) > MAX_DIGITS:
                raise EquationError(f"number literal has more than {MAX_DIGITS} digits")
            return sympy.Integer(value)
        if value != value or value in (float("inf"), float("-inf")):
            raise EquationError("number literal is not finite")
        frac = Fraction(repr(value))
        if len(str(frac.denominator)) > MAX_DIGITS or len(str(frac.numerator)) > MAX_DIGITS:
            raise EquationError(f"number literal has more than {MAX_DIGITS} digits")
        return sympy.Rational(frac.numerator, frac.denominator)

    def power(self, base: Any, exponent: Any) -> Any:
        if isinstance(exponent, sympy.Number) and abs(exponent) > MAX_EXPONENT:
            raise EquationError(f"exponent {exponent} is larger than {MAX_EXPONENT} in magnitude")
        if isinstance(base, sympy.Number) and isinstance(exponent, sympy.Number):
            if base == 0 and exponent < 0:
                raise EquationError("zero raised to a negative power")
            if isinstance(base, sympy.Rational) and _bits(base) * abs(exponent) > MAX_CONSTANT_BITS:
                raise EquationError(f"the constant power {base}**{exponent} has more than {MAX_CONSTANT_BITS} bits")
        return sympy.Pow(base, exponent)

    def call(self, node: ast.Call, depth: int) -> Any:
        if not isinstance(node.func, ast.Name):
            raise EquationError("only named functions may be called; calls of attributes or expressions are not allowed")
        name = node.func.id
        if node.keywords:
            raise EquationError(f"{name}() takes no keyword arguments")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise EquationError(f"{name}() takes no starred arguments")
        if name in REDUCTIONS:
            if self.reduce is None:
                raise EquationError(f"{name}(expr, index) is allowed only in a scenario type with keyed inputs")
            if name == "first_fit_decreasing":   # sizes, a capacity, an index: first_fit_decreasing(w, C, k)
                if len(node.args) != 3 or not isinstance(node.args[2], ast.Name):
                    raise EquationError(f"{name}() takes the sizes, the capacity and an index name: {name}(w, C, k)")
                sizes, capacity = self.build(node.args[0], depth), self.build(node.args[1], depth)
                return self.reduce(name, sympy.Tuple(sizes, capacity), node.args[2].id)
            if len(node.args) != 2 or not isinstance(node.args[1], ast.Name):
                raise EquationError(f"{name}() takes an expression and an index name: {name}(expr, k)")
            inner = self.build(node.args[0], depth)
            return self.reduce(name, inner, node.args[1].id)
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise EquationError(f"{name!r} is not an allowed function; allowed: {', '.join(ALLOWED_CALLS)}")
        if name == "piecewise":
            args = []
            for i, a in enumerate(node.args):
                is_condition = i % 2 == 1 and i != len(node.args) - 1
                args.append(self.build(a, depth, condition=is_condition))
            return fn(*args)
        return fn(*[self.build(a, depth) for a in node.args])


def parse_equation(
    text: str,
    names: Mapping[str, Any],
    *,
    attributes: Mapping[tuple[str, str], Any] | None = None,
    reduce: Callable[[str, Any, str], Any] | None = None,
    condition: bool = False,
) -> sympy.Expr:
    """Parse equation ``text`` into a SymPy expression over ``names``.

    With ``condition=True`` the text is a condition (a predicate output: ``total <= capacity``,
    ``and``/``or``/``not`` of comparisons) and the result is a SymPy relation, not a value.

    ``names`` maps each allowed name to its SymPy object; ``attributes`` maps
    ``(sub_scenario, output)`` pairs to expressions (composition); ``reduce``
    builds ``sum(expr, k)``/``prod(expr, k)`` nodes.  Raises
    :class:`~mlsysim_symbolic.errors.EquationError` with the reason otherwise.
    """
    if not isinstance(text, str):
        raise EquationError(f"equation must be text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise EquationError(f"equation is longer than {MAX_TEXT} characters")
    if "\n" in text.strip() or "\r" in text or "\x00" in text:
        raise EquationError("equation must be a single line")
    _refuse_non_ascii(text, names)
    try:
        with warnings.catch_warnings():   # Python's own SyntaxWarnings ('invalid decimal literal' ...) are not the user's concern
            warnings.simplefilter("ignore")
            tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise EquationError(f"syntax error: {exc.msg} at column {exc.offset}") from None
    except (RecursionError, MemoryError, ValueError):
        raise EquationError("equation is too deeply nested to parse") from None
    try:
        result = _Builder(names, attributes, reduce).build(tree, condition=condition)
    except RecursionError:
        raise EquationError("equation is too deeply nested") from None
    except (TypeError, ValueError, AttributeError, ZeroDivisionError, OverflowError) as exc:
        if isinstance(exc, EquationError):
            raise
        raise EquationError(f"not a valid expression: {exc}") from None
    if condition:
        if result in (sympy.true, sympy.false):   # a comparison of constants: the fallback of a predicate ("1 < 0")
            return result
        if not isinstance(result, (sympy.core.relational.Relational, sympy.And, sympy.Or, sympy.Not)):
            raise EquationError("a predicate must be a comparison such as 'total <= capacity'")
        for side in result.atoms(sympy.core.relational.Relational):
            for arg in side.args:
                _check_real_and_finite(arg)
        return result
    if isinstance(result, sympy.logic.boolalg.Boolean) and not isinstance(result, sympy.Expr):
        raise EquationError("an equation must give a value, not a condition")
    if not isinstance(result, sympy.Expr):
        raise EquationError("an equation must give a value")
    _check_real_and_finite(result)
    return result


_WORD = re.compile(r"\w+")
#: Greek and Cyrillic letters drawn like an ASCII letter, which NFKC leaves as they are (a few common ones; any other
#: character outside ASCII is refused all the same, by code point and name).
_HOMOGLYPHS = str.maketrans({"\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y",
                             "\u0445": "x", "\u0456": "i", "\u0458": "j", "\u0455": "s", "\u0501": "d", "\u03bf": "o",
                             "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0397": "H", "\u039a": "K", "\u039c": "M",
                             "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a7": "X", "\u0410": "A",
                             "\u0412": "B", "\u0415": "E", "\u041c": "M", "\u041d": "H", "\u041e": "O", "\u0420": "P",
                             "\u0421": "C", "\u0422": "T", "\u0425": "X"})


def _refuse_non_ascii(text: str, names: Mapping[str, Any]) -> None:
    """Refuse a character outside ASCII, naming its code point and what it looks like.

    Python reads identifiers NFKC-normalised (PEP 3131): ``ſ`` (long s) or a math-bold letter would silently be
    read as the ASCII input it folds to.  Every name of the equation language is ASCII, so such a character is a
    look-alike (or a typo) and is refused, never folded.

    >>> parse_equation("2 * \u017f", {"s": sympy.Symbol("s")})
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.EquationError: character U+017F LATIN SMALL LETTER LONG S at column 5 (in 'ſ') looks like 's', the input 's'; equation text (names, operators, numbers) must be ASCII
    """
    if text.isascii():
        return
    for column, char in enumerate(text, 1):
        if char.isascii():
            continue
        word = next((m.group() for m in _WORD.finditer(text) if m.start() < column <= m.end()), char)
        folded = unicodedata.normalize("NFKC", word).translate(_HOMOGLYPHS)
        if not folded.isascii():   # a letter with a mark (é): the base letters, if they are ASCII
            folded = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
        name = unicodedata.name(char, "unnamed character")
        looks = ""
        if folded.isascii() and folded != word:
            looks = f" looks like {folded!r}" + (f", the input {folded!r}" if folded in names else "")
        raise EquationError(f"character U+{ord(char):04X} {name} at column {column} (in {word!r}){looks}; "
                            "equation text (names, operators, numbers) must be ASCII")


_APPROX: dict[type, Callable[..., float]] = {
    sympy.exp: math.exp, sympy.log: math.log, sympy.floor: math.floor, sympy.ceiling: math.ceil, sympy.Abs: abs,
    sympy.Max: max, sympy.Min: min, sympy.erf: math.erf, sympy.erfc: math.erfc, sympy.gamma: math.gamma, sympy.loggamma: math.lgamma, sympy.asin: math.asin,
    sympy.cos: math.cos, sympy.sin: math.sin, sympy.acos: math.acos,
}


def _approx(expr: Any) -> float:
    """A float value of a constant tree, with ``math`` functions (never SymPy's arbitrary precision, which can hang)."""
    if isinstance(expr, sympy.Rational):
        return float(expr.p) / float(expr.q) if expr.q != 1 else float(expr.p)
    if isinstance(expr, sympy.NumberSymbol):
        return float(expr)
    if isinstance(expr, sympy.Add):
        return math.fsum(_approx(a) for a in expr.args)
    if isinstance(expr, sympy.Mul):
        return math.prod(_approx(a) for a in expr.args)
    if isinstance(expr, sympy.Pow):
        return math.pow(_approx(expr.base), _approx(expr.exp))
    for kind, fn in _APPROX.items():
        if isinstance(expr, kind):
            return float(fn(*(_approx(a) for a in expr.args)))
    return float(expr)


def _finite_constant(value: Any) -> Any:
    """Refuse a constant part of an equation that overflows float64 (``exp(1000)``, ``floor(exp(10**40))``)."""
    if isinstance(value, sympy.Expr) and not isinstance(value, sympy.Rational) and not value.free_symbols:
        try:
            approx = _approx(value)
        except (ValueError, TypeError):   # math.pow(-8, 1/3), I*pi from log(-1): no real value
            raise EquationError(f"the constant {sympy.sstr(value)[:60]} is not a real number") from None
        except (OverflowError, ZeroDivisionError):
            approx = math.inf
        if not math.isfinite(approx):
            raise EquationError(f"the constant {sympy.sstr(value)[:60]} is not a finite float64 number")
    return value


def _bits(number: sympy.Rational) -> int:
    return max(int(number.p).bit_length(), int(number.q).bit_length())


def _check_real_and_finite(expr: sympy.Expr) -> None:
    """Refuse trees that SymPy has already made non-real or non-finite, and constants too large to print.

    ``sqrt(-1)`` is ``I``, ``log(0)`` is ``zoo``, ``log(1, 1)`` is ``nan`` and ``(-8)**(1/3)`` is a
    complex root: none is a quantity, and the compiled path would fail on them only when called.
    """
    bad = expr.atoms(sympy.core.numbers.ImaginaryUnit, sympy.core.numbers.ComplexInfinity, sympy.core.numbers.Infinity,
                      sympy.core.numbers.NegativeInfinity, sympy.core.numbers.NaN)
    if bad:
        raise EquationError(f"the equation is not a finite real value: it contains {', '.join(sorted(map(str, bad)))}")
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Rational) and _bits(node) > MAX_CONSTANT_BITS:
            raise EquationError(f"a constant of the equation has more than {MAX_CONSTANT_BITS} bits")
        if (isinstance(node, sympy.Pow) and isinstance(node.base, sympy.Number) and node.base.is_negative
                and not node.exp.is_integer):
            raise EquationError(f"{node} is not real: a negative number to a fractional power")
