"""Fuzzing the equation parser and the derivation loader with more than 10,000 generated inputs.

Inputs: random token soup, a grammar of Python expressions (allowed and forbidden constructs:
attributes, subscripts, lambdas, comprehensions, f-strings, walrus, conditionals, calls with
keywords and stars), random unicode text with null bytes and newlines, deep nesting, huge
literals and exponents, very long lines, a fixed corpus of escape attempts, and derivation
files with the fuzzed equation inside or with their structure mutated (wrong types, odd units,
domains, symbols, defaults, kinds, raw text damage).

Each input must either parse to a tree made only of whitelisted SymPy node types (or, for a file,
load), or be refused with our :class:`EquationError` / :class:`DerivationError`.  Nothing may
run code: ``os.system``, ``os.popen``, ``subprocess.Popen``, file removal and writing ``open``
are replaced by sentinels that record any call, and the payloads of the escape attempts would
set a canary (``builtins.FUZZ_CANARY``, or this module's ``CANARY``) that must stay untouched.
Every input is timed (under 1 s of CPU each, garbage collection paused); a 10 s SIGALRM guard turns
a hang into a failure.
"""

from __future__ import annotations

import builtins
import functools
import gc
import json
import math
import os
import re
import shutil
import signal
import subprocess
import time
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlsysim_symbolic import DerivationError, EquationError, InputError, load_derivations
from mlsysim_symbolic.catalog import catalog
from mlsysim_symbolic.parse import parse_equation
from mlsysim_symbolic.spec import RESERVED
from mlsysim_symbolic.spec.reader import MAX_DEPTH, check_depth
from mlsysim_symbolic.variables import LATEX_COMMANDS, check_latex

pytestmark = [
    pytest.mark.filterwarnings("ignore:Generating overly large repr"),   # hypothesis, on the long corpus strings
    # one worker runs the whole module (``--dist loadgroup``): test_zz counts every input the module generated
    pytest.mark.xdist_group("fuzz"),
]

LIMIT = 1.0          # seconds per input
CANARY: list = []    # a payload that ran would append to it
COUNTS: Counter = Counter()

# ---------------------------------------------------------------------- what the parser may give back
ALLOWED = (
    sympy.Symbol, sympy.Rational, sympy.NumberSymbol, sympy.Add, sympy.Mul, sympy.Pow, sympy.Max, sympy.Min,
    sympy.floor, sympy.ceiling, sympy.log, sympy.exp, sympy.Abs, sympy.Piecewise, sympy.functions.elementary.piecewise.ExprCondPair,
    sympy.core.relational.StrictLessThan, sympy.core.relational.LessThan, sympy.core.relational.StrictGreaterThan,
    sympy.core.relational.GreaterThan, sympy.And, sympy.Or, sympy.Not, sympy.logic.boolalg.BooleanTrue,
    sympy.logic.boolalg.BooleanFalse, sympy.logic.boolalg.ITE, sympy.Sum, sympy.Product, sympy.Tuple,
)

P = sympy.Symbol("P", positive=True)
b = sympy.Symbol("b", positive=True)
B = sympy.Symbol("B", positive=True, integer=True)
M = sympy.Symbol("M", positive=True)
t = sympy.Symbol("t", positive=True)
k = sympy.Symbol("k", positive=True, integer=True)
NAMES = {"P": P, "b": b, "B": B, "M": M, "t": t, "k": k, "params": P}
ATTRIBUTES = {("sub", "out"): sympy.Symbol("M_sub", positive=True)}


def reduce(kind: str, inner: Any, index: str) -> Any:
    if index != "k":
        raise EquationError(f"{index!r} is not an index")
    cls = sympy.Sum if kind == "sum" else sympy.Product
    return cls(inner, (k, 1, sympy.Symbol("N_k", positive=True, integer=True)))


def whitelisted(expr: Any) -> None:
    for node in sympy.preorder_traversal(expr):
        assert isinstance(node, ALLOWED), f"{type(node).__name__} ({node}) in {expr}"


# ---------------------------------------------------------------------- sentinels and the hang guard
class Hang(BaseException):
    """Raised by the alarm when one input runs far over the limit."""


CALLS: list[tuple[str, Any]] = []     # sentinel calls: must stay empty
_REAL_OPEN = builtins.open


def _sentinel(name: str) -> Any:
    def record(*args: Any, **kwargs: Any) -> None:
        CALLS.append((name, args))
        raise AssertionError(f"{name} was called with {args!r}")

    return record


def _guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
    if any(c in mode for c in "wax+"):
        CALLS.append(("open for writing", (file, mode)))
        raise AssertionError(f"open({file!r}, {mode!r}) for writing")
    return _REAL_OPEN(file, mode, *args, **kwargs)


GUARDED = [(module, name, _sentinel(f"{module.__name__}.{name}"))
           for module, names in ((os, ("system", "popen", "remove", "unlink", "rmdir", "execv", "execve", "fork", "kill")),
                                 (subprocess, ("Popen", "run", "call", "check_call", "check_output")),
                                 (shutil, ("rmtree",)))
           for name in names if hasattr(module, name)] + [(builtins, "open", _guarded_open)]


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang()


@pytest.fixture
def sentinels():
    """Checks, after the test, that no sentinel was called and no canary touched."""
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    yield CALLS
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)
    assert not CALLS, CALLS
    assert not hasattr(builtins, "FUZZ_CANARY"), "a payload ran: builtins.FUZZ_CANARY was set"
    assert CANARY == [], "a payload ran: CANARY was touched"


def load_and_check(path: Any) -> Any:
    """Read a derivation file and build and check every type and named scenario in it (types build lazily)."""
    return load_derivations(path).check()


def timed(fn: Any, *args: Any) -> tuple[str, Any]:
    """Run one input with the sentinels in place and under the 1 s limit: ('ok', result) or ('refused', error).

    Any other exception propagates (and fails the test)."""
    saved = [(module, name, getattr(module, name)) for module, name, _ in GUARDED]
    for module, name, replacement in GUARDED:
        setattr(module, name, replacement)
    signal.setitimer(signal.ITIMER_REAL, 10 * LIMIT)
    gc.disable()                      # a collection of the whole heap is not the input's cost
    start = time.process_time()       # CPU seconds of this process: other processes on the machine do not count
    try:
        try:
            outcome = ("ok", fn(*args))
        except (EquationError, DerivationError) as exc:
            outcome = ("refused", exc)
    except Hang:
        raise AssertionError(f"input ran over {10 * LIMIT} s: {args!r:.300}") from None
    finally:
        elapsed = time.process_time() - start
        gc.enable()
        signal.setitimer(signal.ITIMER_REAL, 0)
        for module, name, original in saved:
            setattr(module, name, original)
    if elapsed > SLOWEST[0]:
        SLOWEST[:] = [elapsed, _describe(args)]
    assert elapsed < LIMIT, f"{elapsed:.2f} s on {_describe(args)}"
    return outcome


SLOWEST: list = [0.0, ""]


def _describe(args: tuple) -> str:
    """An input for a message: the text, or the content of the file."""
    if args and isinstance(args[0], Path):
        try:
            return f"{args[0]}:\n{args[0].read_text(encoding='utf-8', errors='replace')[:1500]}"
        except OSError:
            return str(args[0])
    return f"{args!r:.300}"


def check_equation_text(text: str) -> None:
    kind, value = timed(lambda s: parse_equation(s, NAMES, attributes=ATTRIBUTES, reduce=reduce), text)
    if kind == "ok":
        whitelisted(value)
    COUNTS[f"parse {kind}"] += 1


# ---------------------------------------------------------------------- the fixed corpus of attacks
PAYLOAD = "__import__('builtins').setattr(__import__('builtins'), 'FUZZ_CANARY', 1)"
ATTACKS = [
    "__import__('os').system('touch /tmp/pwned')",
    PAYLOAD,
    f"({PAYLOAD}) + P",
    f"max(P, {PAYLOAD})",
    f"piecewise(P, {PAYLOAD}, b)",
    "__import__('sys').modules['tests.test_fuzz'].CANARY.append(1)",
    "__import__('sys').modules['test_fuzz'].CANARY.append(1)",
    "().__class__.__base__.__subclasses__()",
    "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Popen'][0](['true'])",
    "P.__class__.__mro__[-1].__subclasses__()",
    "P.__init__.__globals__['__builtins__']['exec']('import os')",
    "P.func.__globals__",
    "b.__dict__", "P.__reduce__()", "P.subs", "P.evalf()", "sub.out.__class__", "sub.__class__", "sub.out",
    "getattr(P, '__class__')", "eval('1')", "exec('1')", "compile('1', 'f', 'eval')", "open('/tmp/x', 'w')",
    "globals()", "locals()", "vars()", "dir()", "help()", "breakpoint()", "input()", "print(1)", "type(P)",
    "lambda: P", "(lambda: P)()", "(lambda x: x)(P)", "[P for P in b]", "{P for P in b}", "{P: b for P in b}",
    "(P for P in b)", "f'{P}'", "f\"{__import__('os').system('x')}\"", "f'{P!r:>{b}}'", "(x := P)", "(P := 1)",
    "P if b else M", "P[0]", "P[0:1]", "P[...]", "{}", "[]", "()", "(P,)", "{P}", "P, b", "*P", "**P", "P @ b", "P // b",
    "P % b", "P << b", "P >> b", "P & b", "P | b", "P ^ b", "~P", "not P", "P and b", "P or b", "P == b", "P != b",
    "P is b", "P in b", "P < b", "'abc'", "b'abc'", "None", "True", "False", "...", "1j", "P * 1j", "0x10", "0o7", "0b1",
    "1_000", "nan", "inf", "1e308 * 1e308", "1e-400", "1e999", "9" * 40, "9" * 41, "9" * 5000, "0." + "1" * 60,
    "2 ** 64", "2 ** 65", "P ** 64", "P ** 65", "P ** -65", "P ** 1e10", "10 ** 40 ** 2", "(2 ** 64) ** 64",
    "((2 ** 64) ** 64) ** 64", "(((2 ** 64) ** 64) ** 64) ** 64", "floor(exp(10 ** 40))", "exp(exp(exp(10)))",
    "ceil(exp(1000))", "exp(1000) * P", "log(0)", "log(-1)", "sqrt(-1)", "sqrt(-P)", "log(1, 1)", "log(P, 1)",
    "(-8) ** (1 / 3)", "P * (-1) ** P", "0 ** -1", "1 / 0", "P / (b - b)", "max(P)", "min()", "sqrt()", "sqrt(P, b)",
    "log(P, b, M)", "log2()", "ceil(P, b)", "piecewise()", "piecewise(P, b)", "piecewise(P, P < b)",
    "piecewise(P, P < b, b, b)", "piecewise(P, P < b, (P > b) and (b < M), b)", "piecewise(P, not (P < b), b)",
    "sum(P)", "sum(P, q)", "sum(P, P)", "sum(P, k + 1)", "prod(P * k, k)", "sum(sum(P, k), k)", "max(P, b, key=abs)",
    "max(*[P, b])", "abs(x=P)", "sqrt(**{'x': P})", "P.real", "P.__add__(b)", "(P).__class__",
    "P\n+ b", "P\r", "P\x00", "\x00", "P \\\n + b", "# comment", "P # comment", "P; import os", "import os",
    "del P", "assert P", "yield P", "await P", "async def f(): pass", "def f(): pass", "class A: pass",
    "if P: b", "while True: pass", "for i in b: pass", "with P: pass", "raise P", "return P", "global P", "P = 1",
    "P += 1", "ℙ", "ℙ * 𝐛", "π", "µ", "P\u200b", "ｅｘｅｃ('1')", "\u202eP", "P" * 5000, "P+" * 1999 + "P",
    "P+" * 2001 + "P", "(" * 61 + "P" + ")" * 61, "(" * 59 + "P" + ")" * 59, "(" * 1000 + "P" + ")" * 1000,
    "-" * 3000 + "P", "+" * 3000 + "P", "not " * 500 + "P", "sqrt(" * 100 + "P" + ")" * 100, "P" + " ** P" * 200,
    "[" * 500 + "]" * 500, "max(P, " * 70 + "b" + ")" * 70, "P " * 3000, "",
    " ", "\t", "\n", "P\n", "\ufeffP",
]


def test_fixed_corpus_of_attacks(sentinels):
    for text in ATTACKS:
        check_equation_text(text)
    assert COUNTS["parse refused"] > 150


@pytest.mark.parametrize("text, reason", [
    ("__import__('os')", "not an allowed function"),
    ("__import__('os').system('x')", "only named functions may be called"),
    ("P.__class__", "attribute access"),
    ("[c for c in ().__class__.__base__.__subclasses__()]", "ListComp is not allowed"),
    ("f'{P}'", "JoinedStr is not allowed"),
    ("(x := P)", "NamedExpr is not allowed"),
    ("lambda: P", "Lambda is not allowed"),
    ("sqrt(-1)", "not a real number"),                       # SymPy's I
    ("log(-1)", "not a real number"),                        # I*pi
    ("(-8) ** (1 / 3)", "not a real number"),                # a complex cube root
    ("sqrt(-P)", "not a finite real value"),                 # I*sqrt(P)
    ("log(1, 1)", "not a"),                                  # nan
    ("log(0)", "not a real number"),                         # zoo
    ("exp(1000) * P", "not a finite float64 number"),       # overflows when evaluated
    ("floor(exp(10 ** 40))", "not a finite float64 number"),  # SymPy would hang computing its integer part
    ("((2 ** 64) ** 64) ** 64", "more than 1400 bits"),      # a 79,000-digit integer that cannot even be printed
    ("*".join(["10 ** 40"] * 40), "more than 1400 bits"),
    ("max(" + ",".join(["-P"] * 1000) + ")", "more than 2000 nodes"),
    ("P" + "+P" * 2000, "longer than 4000 characters"),
    ("-" * 70 + "P", "nests deeper"),
    ("P\x00", "single line"),
])
def test_attacks_and_non_values_are_refused_with_a_reason(sentinels, text, reason):
    kind, error = timed(lambda s: parse_equation(s, NAMES, attributes=ATTRIBUTES, reduce=reduce), text)
    assert kind == "refused" and reason in str(error), (kind, str(error))


def test_fixed_corpus_through_the_loader(sentinels, tmp_path):
    catalog()
    for i, text in enumerate(ATTACKS):
        path = tmp_path / f"attack{i}.toml"
        path.write_text(equation_file(text), encoding="utf-8")
        kind, _ = timed(load_and_check, path)
        COUNTS[f"load {kind}"] += 1


# ---------------------------------------------------------------------- generated equation text
NAME_TOKENS = ["P", "b", "B", "M", "t", "k", "params", "sub", "sub.out", "q", "x", "_", "__import__", "__class__",
               "__builtins__", "__subclasses__", "__globals__", "eval", "exec", "open", "os", "sys", "globals", "getattr",
               "type", "object", "compile", "CANARY", "None", "True", "lambda", "ℙ", "π", "é", "Ｐ"]
NUMBER_TOKENS = ["0", "1", "2", "0.5", "64", "65", "1e308", "1e-400", "1e999", "9" * 41, "0x10", "1_000", "1j", "-1", "3.14"]
OPERATORS = ["+", "-", "*", "/", "**", "//", "%", "@", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=",
             " is ", " in ", " and ", " or ", " if ", " else ", " for ", ":=", ",", ":", ".", ";", "="]
FUNCTIONS = ["max", "min", "sqrt", "log", "log2", "log10", "exp", "ceil", "floor", "abs", "piecewise", "sum", "prod",
             "print", "__import__", "eval", "getattr"]
PUNCTUATION = ["(", ")", "[", "]", "{", "}", "'", '"', "f'", "b'", "\\", "#", "\n", "\x00", "...", "*", "**", "~", "not ",
               "lambda ", " ", "\t", "\u200b", "\U0001F600"]
TOKENS = NAME_TOKENS + NUMBER_TOKENS + OPERATORS + FUNCTIONS + PUNCTUATION

token_soup = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
spaced_soup = st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join)

atoms = st.one_of(st.sampled_from(NAME_TOKENS), st.sampled_from(NUMBER_TOKENS),
                  st.integers(-10**45, 10**45).map(str), st.floats(allow_nan=False).map(repr))


def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binop = st.tuples(inner, st.sampled_from(OPERATORS[:20]), inner).map(lambda p: f"{p[0]} {p[1]} {p[2]}")
    call = st.tuples(st.sampled_from(FUNCTIONS), st.lists(inner, max_size=5)).map(lambda p: f"{p[0]}({', '.join(p[1])})")
    wrappers = st.sampled_from([
        "({})", "-{}", "+{}", "not {}", "~{}", "{}.__class__", "{}.real", "{}[0]", "{}[1:2]", "lambda: {}", "(lambda x: {})(P)",
        "[{} for x in P]", "{{x: {} for x in P}}", "({} for x in P)", "f'{{{}}}'", "(x := {})", "{} if P else b", "*{}",
        "max({}, key=abs)", "abs(x={})", "piecewise({}, P < b, b)", "piecewise(P, {}, b)", "sum({}, k)", "prod({}, k)",
        "{} ** 64", "{} ** 65", "{} ** -1", "log({}, 2)", "({},)", "[{}]", "{{{}}}", "'{}'", "sub.{}", "{} < P",
        "(P < {}) and (b > {})",
    ])
    wrapped = st.tuples(wrappers, inner).map(lambda p: p[0].replace("{}", p[1]) if p[0].count("{}") > 1 else p[0].format(p[1]))
    return st.one_of(binop, call, wrapped)


grammar = st.recursive(atoms, extend, max_leaves=12)


def extend_valid(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Only constructs the language allows, with the right number of arguments (so most of these parse)."""
    binop = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(lambda p: f"({p[0]}) {p[1]} ({p[2]})")
    one = st.tuples(st.sampled_from(["sqrt", "log", "log2", "log10", "exp", "ceil", "floor", "abs", "-", "+"]), inner).map(
        lambda p: f"{p[0]}({p[1]})")
    many = st.tuples(st.sampled_from(["max", "min", "log"]), inner, inner).map(lambda p: f"{p[0]}({p[1]}, {p[2]})")
    cond = st.tuples(inner, st.sampled_from(["<", "<=", ">", ">="]), inner).map(lambda p: f"{p[0]} {p[1]} {p[2]}")
    conds = st.one_of(cond, st.tuples(cond, st.sampled_from([" and ", " or "]), cond).map("".join), cond.map("not ({})".format))
    piece = st.tuples(inner, conds, inner).map(lambda p: f"piecewise({p[0]}, {p[1]}, {p[2]})")
    reduction = st.tuples(st.sampled_from(["sum", "prod"]), inner).map(lambda p: f"{p[0]}({p[1]} * k, k)")
    return st.one_of(binop, one, many, piece, reduction, inner.map("sub.out * ({})".format))


valid_atoms = st.one_of(st.sampled_from(["P", "b", "B", "M", "t", "k", "params", "2", "0.5", "64", "1e-9", "1e30", "3"]),
                        st.integers(-10**6, 10**6).map(str), st.floats(1e-30, 1e30).map(repr))
valid_grammar = st.recursive(valid_atoms, extend_valid, max_leaves=10)
random_text = st.text(max_size=120)
nested = st.tuples(st.sampled_from(["({})", "-{}", "sqrt({})", "[{}]", "max(P, {})", "not {}", "{} ** P", "floor({})",
                                    "piecewise({}, P < b, b)", "f'{{{}}}'", "abs({})"]),
                   st.integers(1, 400)).map(lambda p: _nest(*p))
long_lines = st.tuples(st.sampled_from(["P + ", "P * ", "9", "(P) ", "max(P, b) + ", "ℙ", "\x00", " "]),
                       st.integers(100, 4500)).map(lambda p: p[0] * p[1] + "P")


def _nest(template: str, depth: int) -> str:
    text = "P"
    for _ in range(depth):
        text = template.replace("{}", text, 1) if "{{" in template else template.format(text)
    return text


equations = st.one_of(token_soup, spaced_soup, grammar, valid_grammar, valid_grammar, random_text, nested, long_lines)
SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                       HealthCheck.function_scoped_fixture])


@settings(max_examples=4000, **SETTINGS)
@given(text=equations)
def test_generated_equations(sentinels, text):
    check_equation_text(text)


# ---------------------------------------------------------------------- the derivation loader
def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value == math.inf else "-inf" if value == -math.inf else repr(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def toml_key(key: str) -> str:
    return key if key and all(c.isalnum() or c in "_-" for c in key) and key.isascii() else json.dumps(key, ensure_ascii=False)


def to_toml(data: dict) -> str:
    """A nested dict as TOML: one [table] per dict of dicts, inline tables below that."""
    lines: list[str] = []

    def table(prefix: list[str], body: dict) -> None:
        scalars = {k: v for k, v in body.items() if not (isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()))}
        tables = {k: v for k, v in body.items() if k not in scalars}
        if prefix and (scalars or not tables):
            lines.append("[" + ".".join(toml_key(p) for p in prefix) + "]")
        for key, value in scalars.items():
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
        for key, value in tables.items():
            table([*prefix, key], value)

    table([], data)
    return "\n".join(lines) + "\n"


def base_file(equation: str = "P * b") -> dict:
    return {
        "title": "fuzz",
        "types": {"Fuzz": {
            "summary": "fuzzed",
            "inputs": {"params": {"symbol": "P", "unit": "param"}, "width": {"symbol": "b", "unit": "B/param"},
                       "count": {"symbol": "B", "unit": "sample", "integer": True, "default": 8}},
            "outputs": {"size": {"unit": "B", "equation": equation}},
        }},
        "scenarios": {"FuzzOne": {"type": "Fuzz", "inputs": {"params": 1e9, "width": "2 B/param"}}},
    }


def equation_file(text: str) -> str:
    return to_toml(base_file(text))


PATHS = [("types", "Fuzz", "summary"), ("types", "Fuzz", "inputs", "params", "unit"), ("types", "Fuzz", "inputs", "params", "symbol"),
         ("types", "Fuzz", "inputs", "params", "domain"), ("types", "Fuzz", "inputs", "params", "default"),
         ("types", "Fuzz", "inputs", "params", "kind"), ("types", "Fuzz", "inputs", "params", "integer"),
         ("types", "Fuzz", "inputs", "params", "options"), ("types", "Fuzz", "inputs", "params", "index"),
         ("types", "Fuzz", "inputs", "params", "symbols"), ("types", "Fuzz", "inputs", "width", "latex"),
         ("types", "Fuzz", "inputs", "count", "integer"), ("types", "Fuzz", "inputs", "count", "default"),
         ("types", "Fuzz", "inputs", "new"), ("types", "Fuzz", "outputs", "size", "unit"),
         ("types", "Fuzz", "outputs", "size", "equation"), ("types", "Fuzz", "outputs", "size", "style"),
         ("types", "Fuzz", "outputs", "size", "choice"), ("types", "Fuzz", "outputs", "size", "symbol"),
         ("types", "Fuzz", "outputs", "size", "integer"), ("types", "Fuzz", "outputs", "other"),
         ("types", "Fuzz", "arguments", "x"), ("types", "Fuzz", "uses", "u"), ("types", "Fuzz", "references"),
         ("types", "Fuzz", "family"), ("types", "Fuzz", "assumptions"), ("types", "Fuzz", "unknown_field"),
         ("types", "Fuzz"), ("types", "Bad name"), ("types", "Other", "outputs"), ("scenarios", "FuzzOne", "type"),
         ("scenarios", "FuzzOne", "inputs", "params"), ("scenarios", "FuzzOne", "inputs", "width"),
         ("scenarios", "FuzzOne", "inputs", "count"), ("scenarios", "FuzzOne", "inputs", "nope"),
         ("scenarios", "FuzzOne", "inputs"), ("scenarios", "FuzzOne", "name"), ("scenarios", "FuzzOne", "extra"),
         ("scenarios", "Two"), ("family",), ("title",), ("extra_top",), ("types",), ("scenarios",)]
VALUES = st.one_of(
    st.sampled_from(["", "B", "B/param", "GB", "1", "count", "furlong", "B**1000", "B ** 2", "1/0", "__import__('os')",
                     "(0, inf)", "[0, 1]", "(1, 0)", "[nan, 1]", "(0, 1e400)", "garbage", "2 B", "4 B/param", "-1 B/param",
                     "nan B/param", "inf B/param", "0 B/param", "1e309 B/param", "fp16", "x", "P", "P * b", "__class__",
                     "lambda", "P P", "π", "property", "method", "dict", "choice", "map", "list", "workload", "workloads",
                     "hardware", "quantity", "GPT2", "H100", "Fuzz", "PerExampleGradientScenario", "size"]),
    st.integers(-2**70, 2**70), st.floats(), st.booleans(),
    st.lists(st.one_of(st.integers(-5, 5), st.sampled_from(["a", "B", "P"])), max_size=4),
    st.dictionaries(st.sampled_from(["unit", "symbol", "equation", "type", "bind", "attribute", "text", "kind", "x"]),
                    st.one_of(st.sampled_from(["B", "P", "P * b", "Fuzz", "parameters", "{}"]), st.integers(-3, 3),
                              st.dictionaries(st.sampled_from(["params", "x"]), st.sampled_from(["params", "P"]), max_size=2)),
                    max_size=3),
    equations,
)


def set_path(data: dict, path: tuple, value: Any) -> None:
    node = data
    for key in path[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    node[path[-1]] = value


@settings(max_examples=600, **SETTINGS)
@given(text=equations)
def test_generated_equations_through_the_loader(sentinels, tmp_path, text):
    path = tmp_path / "fuzz.toml"
    path.write_text(equation_file(text), encoding="utf-8")
    kind, _ = timed(load_and_check, path)
    COUNTS[f"load {kind}"] += 1


@settings(max_examples=600, **SETTINGS)
@given(mutations=st.lists(st.tuples(st.sampled_from(PATHS), VALUES), min_size=1, max_size=4))
def test_mutated_derivation_files(sentinels, tmp_path, mutations):
    data = base_file()
    for p, value in mutations:
        set_path(data, p, value)
    path = tmp_path / "mutated.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    kind, _ = timed(load_and_check, path)
    COUNTS[f"load {kind}"] += 1


@settings(max_examples=500, **SETTINGS)
@given(cut=st.integers(0, 2000), insert=st.text(max_size=20), at=st.integers(0, 2000), drop=st.integers(0, 40))
def test_damaged_derivation_text(sentinels, tmp_path, cut, insert, at, drop):
    text = equation_file("P * b")
    lines = text.splitlines(keepends=True)
    if lines:
        del lines[drop % len(lines)]
    text = "".join(lines)
    text = text[:at] + insert + text[at:]
    text = text[:cut] if cut < len(text) else text
    path = tmp_path / "damaged.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    kind, _ = timed(load_and_check, path)
    COUNTS[f"load {kind}"] += 1


# ---------------------------------------------------------------------- names: collisions, reserved names, look-alikes
# Names and symbols drawn from a small pool so that collisions are frequent: ASCII names, the Scenario's reserved
# names, leading underscores, and Unicode look-alikes that NFKC (Python's parser) reads as N or P.
LOOKALIKES = ["\uff2e", "\U0001d40d", "\u2115", "\uff30", "\u2119", "\U0001d40f"]   # Ｎ 𝐍 ℕ Ｐ ℙ 𝐏
NAME_POOL = ["params", "tokens", "width", "N", "P", "b", "n", "name", "self", "type", "keys", "description", "values",
             "cls", "_type", "_values", "__slots__", "parameters", *LOOKALIKES[:2]]
SYMBOL_POOL = ["N", "P", "b", "n", "k", "M_x", *LOOKALIKES]
declaration = st.tuples(st.sampled_from(["input", "output", "argument"]), st.sampled_from(NAME_POOL),
                        st.one_of(st.none(), st.sampled_from(SYMBOL_POOL)))


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def expected_outcome(decls: list[tuple[str, str, str | None]], workload_symbol: str | None) -> str:
    """'refused' when a name is not an ASCII identifier, is reserved, or two declarations share a name or symbol
    after NFKC; 'ok' (it loads) when none of that holds and every symbol is ASCII; else 'either' (a non-ASCII symbol
    with its default latex is refused for its latex)."""
    owners: list[set[str]] = []
    for _role, name, symbol in decls:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or name in RESERVED:
            return "refused"
        owners.append({_nfkc(name), _nfkc(symbol or name)})
    if workload_symbol is not None:
        owners.append({"parameters", _nfkc(workload_symbol)})
    names = [n for o in owners for n in o]
    if len(names) != len(set(names)):
        return "refused"
    symbols = [sym for _, _, sym in decls if sym] + ([workload_symbol] if workload_symbol else [])
    return "ok" if all(sym.isascii() for sym in symbols) else "either"


def names_file(decls: list[tuple[str, str, str | None]], workload_symbol: str | None) -> str:
    lines = []
    for role, name, symbol in decls:
        table = {"input": "inputs", "output": "outputs", "argument": "arguments"}[role]
        lines.append(f"[types.Names.{table}.{toml_key(name)}]")
        if symbol is not None:
            lines.append(f"symbol = {json.dumps(symbol, ensure_ascii=False)}")
        lines.append('unit = "1"')
        if role == "output":
            lines.append('equation = "2"')
    if workload_symbol is not None:
        lines.append("[types.Names.inputs.model]")
        lines.append('kind = "workload"')
        lines.append(f"symbols.{toml_key(workload_symbol)} = {{ attribute = \"parameters\" }}")
    if not any(role == "output" for role, _, _ in decls):
        lines += ["[types.Names.outputs.answer]", 'unit = "1"', 'equation = "3"']
    return "\n".join(lines) + "\n"


@settings(max_examples=600, **SETTINGS)
@given(decls=st.lists(declaration, min_size=1, max_size=4, unique_by=lambda d: (d[0], d[1])),
       workload_symbol=st.one_of(st.none(), st.sampled_from(SYMBOL_POOL)))
def test_name_collisions_reserved_names_and_lookalikes(sentinels, tmp_path, decls, workload_symbol):
    if any(d[1] == "answer" for d in decls) or len({d[1] for d in decls}) < len(decls):
        return   # one name in two tables is a TOML-level duplicate only in the same table; keep the oracle simple
    path = tmp_path / "names.toml"
    path.write_text(names_file(decls, workload_symbol), encoding="utf-8")
    kind, error = timed(load_and_check, path)
    expected = expected_outcome(decls, workload_symbol)
    assert expected == "either" or kind == expected, (decls, workload_symbol, kind, error)
    COUNTS[f"names {kind}"] += 1


# ---------------------------------------------------------------------- latex fields
DANGEROUS = ["\\input", "\\write18", "\\write", "\\def", "\\edef", "\\gdef", "\\catcode", "\\csname", "\\endcsname",
             "\\immediate", "\\openout", "\\openin", "\\read", "\\include", "\\usepackage", "\\newcommand",
             "\\renewcommand", "\\let", "\\expandafter", "\\makeatletter", "\\special", "\\directlua", "\\lowercase",
             "\\uppercase", "\\string", "\\jobname", "\\endinput", "\\begin", "\\end", "\\verb", "\\url", "\\href"]
FORBIDDEN = ("\\input", "\\write", "\\def", "\\catcode", "^^")
LATEX_TOKENS = (["\\" + c for c in sorted(LATEX_COMMANDS)[:40]] + DANGEROUS + ["\\,", "\\;", "\\!", "\\ ", "\\\\", "\\",
                "\\^", "\\_", "\\{", "\\%", "{", "}", "^", "^^", "^^5c", "^^M", "_", "%", "#", "$", "&", "~", "'", "|",
                "x", "M", "1", " ", "(", ")", "[", "]", "=", "<", "!", "\n", "\x00", "é", "\u200b", "Ｎ", "@", "`", '"'])
latex_texts = st.one_of(st.lists(st.sampled_from(LATEX_TOKENS), max_size=12).map("".join),
                        st.text(alphabet="\\{}^_%#$&~abcinputwrdefcatcodeM1 @", max_size=30),
                        st.tuples(st.sampled_from(DANGEROUS), st.sampled_from(["{x}", "x", "18{ls}", "\\x{}", ""])).map("".join))


def grammar_accepts(latex: str) -> bool:
    """The grammar of derivations/README.md, written again here independently of ``check_latex``."""
    if "^^" in latex:
        return False
    depth, at = 0, 0
    plain = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_^{} ',./*+-()|=<>![]")
    while at < len(latex):
        ch = latex[at]
        if ch == "\\":
            m = re.match(r"[A-Za-z]+", latex[at + 1:])
            if m:
                if m.group(0) not in LATEX_COMMANDS:
                    return False
                at += 1 + m.end()
                continue
            if at + 1 < len(latex) and latex[at + 1] in ",;:! _":   # spacing commands, the escaped underscore
                at += 2
                continue
            return False
        if ch not in plain:
            return False
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
        at += 1
    return depth == 0


@settings(max_examples=2000, **SETTINGS)
@given(latex=latex_texts)
def test_latex_fields_accepted_only_by_the_grammar(sentinels, latex):
    kind, _ = timed(_check_latex_outcome, latex)
    accepted = kind == "ok"
    assert accepted == grammar_accepts(latex), (latex, accepted)
    if accepted:
        assert not any(bad in latex for bad in FORBIDDEN), latex
    COUNTS[f"latex {'accepted' if accepted else 'refused'}"] += 1


def _check_latex_outcome(latex: str) -> str:
    try:
        return check_latex(latex, symbol="x")
    except InputError as exc:   # the loader turns it into a DerivationError naming the file; here: 'refused'
        raise EquationError(str(exc)) from None


@settings(max_examples=300, **SETTINGS)
@given(latex=latex_texts)
def test_latex_fields_through_the_loader(sentinels, tmp_path, latex):
    data = base_file()
    data["types"]["Fuzz"]["inputs"]["width"]["latex"] = latex
    path = tmp_path / "latex.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    kind, _ = timed(load_and_check, path)
    assert (kind == "ok") == grammar_accepts(latex), latex
    COUNTS[f"load latex {kind}"] += 1


# ---------------------------------------------------------------------- nesting depth
nestings = st.tuples(st.sampled_from(["{{ x = {} }}", "[{}]", "[1, {}]", "{{ a = 1, b = {} }}"]), st.integers(1, 120))


@settings(max_examples=300, **SETTINGS)
@given(nesting=nestings, where=st.sampled_from(["scenario", "type"]))
def test_nested_values_in_derivation_files(sentinels, tmp_path, nesting, where):
    template, depth = nesting
    value = "1"
    for _ in range(depth):
        value = template.format(value)
    text = equation_file("P * b")
    text += (f"[scenarios.Deep]\ntype = \"Fuzz\"\ninputs.params = {value}\n" if where == "scenario"
             else f"[types.Deep]\nassumptions = [{value}]\n[types.Deep.outputs.y]\nunit = \"1\"\nequation = \"2\"\n")
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    kind, _ = timed(load_and_check, path)   # loads or is refused by name: no RecursionError, no other exception
    COUNTS[f"nesting {kind}"] += 1


@settings(max_examples=200, **SETTINGS)
@given(depth=st.integers(0, 5000), kinds=st.lists(st.sampled_from(["table", "array"]), min_size=1, max_size=3))
def test_check_depth_refuses_exactly_beyond_the_limit(depth, kinds):
    data: Any = 1
    for i in range(depth):
        data = {"k": data} if kinds[i % len(kinds)] == "table" else [data]
    if depth > MAX_DEPTH:
        with pytest.raises(InputError, match="nested deeper than"):
            check_depth(data)
    else:
        check_depth(data)
    COUNTS["check_depth"] += 1


def test_deeply_nested_file_is_a_derivation_error(tmp_path):
    path = tmp_path / "deeper.toml"
    path.write_text(equation_file("P * b") + "[scenarios.Deep]\ntype = \"Fuzz\"\ninputs.params = "
                    + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    with pytest.raises(DerivationError, match="nested"):
        load_derivations(path)


# ---------------------------------------------------------------------- issue 28: registry mutation
def _registry_entries() -> list[tuple[str, str]]:
    from mlsysim_symbolic.registry import clusters, fabrics, grids, hardware, nodes, workloads

    loaders = {"workloads": workloads, "hardware": hardware, "grids": grids, "fabrics": fabrics, "nodes": nodes,
               "clusters": clusters}
    return [(kind, key) for kind, load in loaders.items() for key in list(load())[:6]]


REGISTRY_ENTRIES = _registry_entries()
FIELD_NAMES = sorted({"parameters", "memory_bandwidth", "count", "pue", "latency", "nics_per_node", "kv_heads",
                      "peak_flops", "name", "key", "source", "fields", "info", "node", "fabric", "accelerator",
                      "carbon_intensity", "bandwidth", "__dict__", "schema", "total_accelerators"})
mutation = st.sampled_from(["setattr", "delattr", "setitem", "delitem", "pop", "update", "setdefault", "clear",
                            "ior", "info setitem", "namespace setattr", "registry setattr"])
any_value = st.one_of(st.none(), st.integers(-10**6, 10**6), st.floats(allow_nan=True), st.text(max_size=12),
                      st.sampled_from(["1 GB/s", "64", "0.5", "-1 W"]))


def _load_entry(kind: str, key: str) -> Any:
    from mlsysim_symbolic import registry

    return getattr(registry, kind)()[key]


def _snapshot(entry: Any) -> str:
    return repr(sorted((k, repr(v)) for k, v in {**entry.fields, **{f"info.{k}": v for k, v in entry.info.items()}}.items()))


@settings(max_examples=600, **SETTINGS)
@given(where=st.sampled_from(REGISTRY_ENTRIES), name=st.one_of(st.sampled_from(FIELD_NAMES), st.text(min_size=1, max_size=10)),
       how=mutation, value=any_value)
def test_registry_entries_cannot_be_changed_in_place(where, name, how, value):
    """Every way of changing a shared entry (or its registry, or a namespace group) in place raises
    FrozenEntryError naming the entry and with_fields, and leaves the entry as the registry read it."""
    from mlsysim_symbolic.errors import FrozenEntryError
    from mlsysim_symbolic.registry import clusters, fabrics, grids, hardware, nodes, workloads
    from mlsysim_symbolic.solvers import Systems

    kind, key = where
    entry = _load_entry(kind, key)
    before = _snapshot(entry)
    registry = {"workloads": workloads, "hardware": hardware, "grids": grids, "fabrics": fabrics, "nodes": nodes,
                "clusters": clusters}[kind]()
    actions = {
        "setattr": lambda: setattr(entry, name, value), "delattr": lambda: delattr(entry, name),
        "setitem": lambda: entry.fields.__setitem__(name, value), "delitem": lambda: entry.fields.__delitem__(name),
        "pop": lambda: entry.fields.pop(name), "update": lambda: entry.fields.update({name: value}),
        "setdefault": lambda: entry.fields.setdefault(name, value), "clear": lambda: entry.fields.clear(),
        "ior": lambda: entry.fields.__ior__({name: value}), "info setitem": lambda: entry.info.__setitem__(name, value),
        "namespace setattr": lambda: setattr(Systems.Clusters, name, value) if not name.startswith("_") else None,
        "registry setattr": lambda: setattr(registry, name, value) if not name.startswith("_") else None,
    }
    try:
        actions[how]()
    except FrozenEntryError as exc:
        assert "read-only" in str(exc), exc
        if how not in ("namespace setattr", "registry setattr"):
            assert repr(key) in str(exc) and "with_fields" in str(exc), exc
        COUNTS["registry mutation refused"] += 1
    else:
        assert name.startswith("_") and how in ("namespace setattr", "registry setattr"), (how, name)
        COUNTS["registry mutation private"] += 1
    assert _snapshot(_load_entry(kind, key)) == before


# ---------------------------------------------------------------------- issue 28: non-ASCII look-alikes
def _lookalikes() -> dict[str, str]:
    """Every character outside ASCII that NFKC folds to one ASCII letter (long s, math bold, full-width ...)."""
    found: dict[str, str] = {}
    for code in range(0x80, 0x1F800):
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char)
        if len(folded) == 1 and folded.isascii() and folded.isalpha():
            found[char] = folded
    return found


LOOKALIKE_LETTERS = _lookalikes()
ascii_equation = st.sampled_from(["P * b", "2 * P", "max(P, b) + M", "sqrt(P * t)", "P / b - M", "ceil(P / b)",
                                  "piecewise(P, P < b, M)", "log(P) * t"])


@settings(max_examples=1200, **SETTINGS)
@given(text=ascii_equation, at=st.integers(0, 40), char=st.one_of(st.sampled_from(sorted(LOOKALIKE_LETTERS)),
                                                                   st.characters(min_codepoint=0x80, max_codepoint=0x2FFFF)))
def test_non_ascii_lookalikes_refused_with_code_point(sentinels, text, at, char):
    """A character outside ASCII anywhere in an equation (in place of a letter or inserted) is refused, naming its
    code point; one that folds to an ASCII letter names that letter.  Never read as the ASCII input."""
    letters = [i for i, c in enumerate(text) if c.isalpha()]
    i = letters[at % len(letters)]
    mutated = text[:i] + char + text[i + 1:] if at % 2 else text[:i] + char + text[i:]
    kind, value = timed(lambda s: parse_equation(s, NAMES, attributes=ATTRIBUTES, reduce=reduce), mutated)
    assert kind == "refused", (mutated, value)
    assert f"U+{ord(char):04X}" in str(value), (mutated, value)
    if char in LOOKALIKE_LETTERS and unicodedata.normalize("NFKC", char) != char:
        assert "looks like" in str(value), (mutated, value)
    COUNTS["lookalike refused"] += 1


# ---------------------------------------------------------------------- issue 28: targets without a unit
@functools.cache
def _output_units() -> list[str]:
    """The units the catalog's quantity outputs return (read when the test first runs: collecting builds no type)."""
    cat = catalog()
    units = set()
    for name in list(cat.info)[:400]:
        for out in cat.types[name].outputs.values():
            if out.kind == "quantity" and out.variable is not None:
                units.add(str(out.variable.outer_unit))
    return sorted(units)


OUTPUT_UNITS = st.deferred(lambda: st.sampled_from(_output_units()))
bare_number = st.one_of(st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False, width=64))


@settings(max_examples=800, **SETTINGS)
@given(unit=OUTPUT_UNITS, number=bare_number)
def test_bare_number_needs_a_unit_exactly_when_the_output_has_one(unit, number):
    """The one rule for a target, limit or bound: a bare number is refused (naming the output and its unit) for an
    output with a unit, and taken as the value for a dimensionless one."""
    from mlsysim_symbolic.errors import UnitError
    from mlsysim_symbolic.units import output_bound, parse_unit

    u = parse_unit(unit)
    if u.dimensionless:
        assert output_bound(number, u, output="y").magnitude == number
        COUNTS["bare target dimensionless"] += 1
    else:
        with pytest.raises(UnitError, match=r"y is in .*give one"):
            output_bound(number, u, output="y")
        COUNTS["bare target refused"] += 1


@settings(max_examples=150, **SETTINGS)
@given(number=st.one_of(st.integers(1, 10**6), st.floats(1e-3, 1e15)), reduce_=st.booleans())
def test_bare_targets_through_solve_and_reduce_sweep(number, reduce_):
    from mlsysim_symbolic import Scenarios
    from mlsysim_symbolic.errors import UnitError

    s = Scenarios.DpSgdPerExampleGradients
    with pytest.raises(UnitError, match="per_batch is in B"):
        if reduce_:
            s.reduce_sweep("per_batch", "GPT-2", reduce="feasible", limit=number, batch_size=range(1, 9))
        else:
            s.solve("per_batch", "batch_size", number, "GPT-2")
    COUNTS["bare target through solve/reduce"] += 1


# ---------------------------------------------------------------------- issue 28: huge grids
axis_lengths = st.lists(st.one_of(st.integers(1, 50), st.integers(1, 10**6), st.integers(10**6, 10**12)), min_size=1, max_size=2)


@settings(max_examples=600, **SETTINGS)
@given(lengths=axis_lengths, max_bytes=st.one_of(st.none(), st.integers(1, 10**7)), reduce_=st.booleans())
def test_grid_size_guard_refuses_before_allocating(lengths, max_bytes, reduce_):
    """A sweep is refused, naming its size, exactly when its estimate (16 B a point and 8 B a value of each axis;
    a reduce_sweep: its points) passes the limit; below it, it runs (kept small here by the limits drawn)."""
    from mlsysim_symbolic import Scenarios
    from mlsysim_symbolic.sweep import MAX_REDUCE_POINTS, MAX_SWEEP_BYTES

    s = Scenarios.DpSgdPerExampleGradients
    names = ["batch_size", "bytes_per_param"][: len(lengths)]
    axes = {n: range(1, n_ + 1) for n, n_ in zip(names, lengths)}
    points = math.prod(lengths)
    axis_bytes = 8 * sum(lengths)
    limit = MAX_SWEEP_BYTES if max_bytes is None else max_bytes
    if reduce_:
        refused = points > MAX_REDUCE_POINTS or axis_bytes > limit
        small = points <= 10**5 and axis_bytes <= 10**6
    else:
        refused = axis_bytes + 16 * points > limit
        small = points <= 10**5
    if not refused and not small:
        return   # allowed but too large to run here: the estimate is checked above the limit only
    try:
        if reduce_:
            r = s.reduce_sweep("per_batch", "GPT-2", reduce="max", max_bytes=max_bytes, **axes)
            assert r.points == points
        else:
            r = s.sweep("per_batch", "GPT-2", max_bytes=max_bytes, **axes)
            assert r.values.magnitude.size == points
        outcome = "ran"
    except InputError as exc:
        assert f"{points:.3g} points" in str(exc) and ("max_bytes" in str(exc) or "max_points" in str(exc)), exc
        outcome = "refused"
    assert (outcome == "refused") == refused, (lengths, max_bytes, reduce_, outcome)
    COUNTS[f"grid {outcome}"] += 1


def test_zz_at_least_ten_thousand_inputs():
    """Runs last in this module: the generated and fixed inputs above add up to more than 10,000."""
    total = sum(COUNTS.values())
    print(f"\nfuzz inputs: {dict(COUNTS)} total {total}; slowest input {SLOWEST[0]:.3f} s: {SLOWEST[1][:300]!r}")
    if len(COUNTS) < 4:   # the module was run partially (-k): nothing to count
        pytest.skip("run the whole module to count")
    assert total >= 10_000
