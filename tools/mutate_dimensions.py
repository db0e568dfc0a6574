"""Mutation test of the dimension check: plant unit mistakes in every equation of ``derivations/``.

For every branch of every output of every scenario type, the script plants mistakes:

- ``unit``: one symbol of the equation declared in another dimension (bytes as seconds, a rate as
  a plain count, a count as bytes ...), as a wrong ``unit =`` line in the file would;
- ``drop``: one factor of a product removed (a bandwidth, a time, a byte width forgotten);
- ``extra``: the equation (or one term of a sum) multiplied by a time or divided by a bandwidth;
- ``add-bytes``: a bytes term added to the equation or to one sum (bytes added to a count);
- ``swap``: a denominator moved to the numerator (``a / b`` written ``a * b``), or the whole
  equation inverted;
- ``kind-swap``: one counted kind of a symbol's declared unit replaced by another (``B/param``
  declared ``B/token``, ``token/sample`` declared ``token/request``, ``param`` declared ``token``:
  N and D swapped), as a slip between parameters, tokens, samples and requests would;
- ``kind-drop``: one counted kind left out of a declared unit (``flop/(param·token)`` declared
  ``flop/param``: the per token forgotten; ``token/sample`` declared ``token``);
- ``kind-symbol``: two symbols that count different kinds exchanged in the equation (``r * N``
  written ``r * D``: parameters and tokens swapped where they are used).

Each mutant is classified by an independent oracle, which evaluates the tree with pint
Quantities (a random magnitude and the declared unit for each symbol): a mutant *changes the
dimension* when pint finds its terms inconsistent or its result in another dimension than the
declared unit.  A mutant is *caught* when the dimension check refuses it:
``mlsysim_symbolic.dimensions.check_equation`` with the type's unit map, and, with ``--load``,
``ScenarioType.from_mapping`` on the type's table from the file with the mutated equation text
or ``unit`` (the load path of ``load_derivations``).

    python tools/mutate_dimensions.py            # check_equation on every mutant
    python tools/mutate_dimensions.py --load all # and the load path on every mutant (slower)
    python tools/mutate_dimensions.py --type PerExampleGradientScenario   # one type (repeatable)

Exit status 1 when a dimension-changing mutant escapes.
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import re
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pint
import sympy

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mlsysim_symbolic import reductions, special  # noqa: E402
from mlsysim_symbolic.catalog import catalog  # noqa: E402
from mlsysim_symbolic.dimensions import check_equation  # noqa: E402
from mlsysim_symbolic.errors import DerivationError, DimensionError  # noqa: E402
from mlsysim_symbolic.paths import derivations_dir  # noqa: E402
from mlsysim_symbolic.sources import REGISTRY_FILES  # noqa: E402
from mlsysim_symbolic.spec import ScenarioType  # noqa: E402
from mlsysim_symbolic.units import COUNTED_KINDS, parse_unit, ureg  # noqa: E402

COUNTED_DIMS = {dim for dim, _, _ in COUNTED_KINDS.values()}

#: For a symbol in a unit of this dimension, the units a planted mistake declares it in instead.
OTHER_UNITS = ["s", "B", "flop", "B/s", "flop/s", "param", "J", "USD"]
TIME = sympy.Symbol("t_mutant", positive=True)
BANDWIDTH = sympy.Symbol("BW_mutant", positive=True)
BYTES = sympy.Symbol("M_mutant", positive=True)
EXTRA_UNITS = {TIME: parse_unit("s"), BANDWIDTH: parse_unit("B/s"), BYTES: parse_unit("B")}
EXTRA_INPUTS = {"t_mutant": {"unit": "s"}, "BW_mutant": {"unit": "B/s"}, "M_mutant": {"unit": "B"}}


@dataclass
class Mutant:
    type_name: str
    output: str
    branch: int
    kind: str
    what: str
    expr: sympy.Expr
    units: dict[sympy.Symbol, pint.Unit]
    unit_edit: tuple[sympy.Symbol, str] | None = None   # (symbol, new unit text) for a ``unit`` mutant
    changes: bool = False
    caught: bool = False
    loaded: bool | None = None                          # None: not tried on the load path
    note: str = ""


@dataclass
class Summary:
    made: int = 0
    changing: int = 0
    caught: int = 0
    caught_consistent: int = 0
    load_tried: int = 0
    load_refused: int = 0
    by_kind: Counter = field(default_factory=Counter)
    escaped: list[Mutant] = field(default_factory=list)
    load_escaped: list[Mutant] = field(default_factory=list)
    originals: int = 0
    originals_consistent: int = 0
    printer_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


# ---------------------------------------------------------------------- the oracle: pint arithmetic
class Inconsistent(Exception):
    """The terms of a tree disagree in dimension (pint says so)."""


#: What the oracle takes a special function's value to be: any dimensionless number that no sum of the catalog's
#: constants cancels (the dimension is all it reads).
SPECIAL_VALUE = 0.7390851332151607


def _dimensionless(q: Any, what: str) -> float:
    if isinstance(q, pint.Quantity):
        if q.dimensionality:
            raise Inconsistent(f"{what} of {q.units}")
        return float(q.to("").magnitude)
    return float(q)


def _same(values: list[Any], what: str) -> Any:
    """Values that must share a dimension (a literal 0 is zero in every unit); the first non-zero one."""
    dims = set()
    first = None
    for v in values:
        if not isinstance(v, pint.Quantity) and v == 0:
            continue
        dims.add(v.dimensionality if isinstance(v, pint.Quantity) else ureg.dimensionless.dimensionality)
        first = v if first is None else first
    if len(dims) > 1:
        raise Inconsistent(what)
    return first if first is not None else 0


def pint_value(expr: Any, env: Mapping[sympy.Symbol, Any]) -> Any:
    """``expr`` evaluated with pint Quantities; raises :class:`Inconsistent` where pint finds a dimension clash."""
    try:
        return _eval(expr, env)
    except pint.DimensionalityError as exc:
        raise Inconsistent(str(exc)) from None


def _eval(expr: Any, env: Mapping[sympy.Symbol, Any]) -> Any:
    if isinstance(expr, sympy.Symbol):
        return env[expr]
    if isinstance(expr, (sympy.Number, sympy.NumberSymbol)):
        return float(expr)
    if isinstance(expr, sympy.Add):
        total = None
        for a in expr.args:
            v = _eval(a, env)
            total = v if total is None else total + v
        return total
    if isinstance(expr, sympy.Mul):
        out: Any = 1.0
        for a in expr.args:
            out = out * _eval(a, env)
        return out
    if isinstance(expr, sympy.Pow):
        base, exponent = _eval(expr.base, env), _eval(expr.exp, env)
        e = _dimensionless(exponent, "an exponent")
        if isinstance(base, pint.Quantity) and base.dimensionality and not expr.exp.is_Rational:
            raise Inconsistent("a dimensional base to a symbolic power")
        if expr.exp.is_Rational:
            e = sympy.Rational(expr.exp)
            e = int(e) if e.is_Integer else float(e)
        try:
            return base ** e
        except ZeroDivisionError:   # a term that cancels to 0 (x - x): only its unit matters here
            return (ureg.Quantity(1.0, base.units) if isinstance(base, pint.Quantity) else 1.0) ** e
    if isinstance(expr, (sympy.Max, sympy.Min)):
        return _same([_eval(a, env) for a in expr.args], "max/min arguments")
    if isinstance(expr, (sympy.floor, sympy.ceiling)):
        inner = _eval(expr.args[0], env)
        if isinstance(inner, pint.Quantity) and inner.dimensionality and all(
                d in COUNTED_DIMS and p > 0 for d, p in inner.dimensionality.items()):
            return ureg.Quantity(abs(inner.magnitude) + 1.0, inner.units)   # whole counted things (floor of 2.5 requests)
        return abs(_dimensionless(inner, "floor/ceil")) + 1.0   # dimensionless; never 0
    if isinstance(expr, (sympy.log, sympy.exp)):
        args = [_dimensionless(_eval(a, env), "log/exp") for a in expr.args]
        if isinstance(expr, sympy.exp):
            return math.exp(min(args[0], 50.0))
        return math.log(abs(args[0]) + 1e-300)   # only its dimension matters
    if isinstance(expr, (sympy.cos, sympy.sin, sympy.acos)):   # dimensionless in and out
        _dimensionless(_eval(expr.args[0], env), f"{type(expr).__name__}()")
        return 0.5
    if isinstance(expr, special.CLASSES):   # erf, erfinv, gamma, binomial ...: dimensionless in and out
        for a in expr.args:
            _dimensionless(_eval(a, env), f"{type(expr).__name__}()")
        # not 1: 1 - gammainc(c, a) would cancel to a bare 0, which pint adds to any dimension (pi_c in s escaped)
        return SPECIAL_VALUE
    if isinstance(expr, sympy.Abs):
        return abs(_eval(expr.args[0], env))
    if isinstance(expr, sympy.Piecewise):
        for _, cond in expr.args:
            _condition(cond, env)
        return _same([_eval(v, env) for v, _ in expr.args], "piecewise branches")
    if isinstance(expr, (reductions.ArgMax, reductions.ArgMin)):   # a key's position: dimensionless
        _eval(expr.function, {**env, **{lim[0]: 1.0 for lim in expr.limits}})
        return 1.0
    if isinstance(expr, reductions.FirstFitDecreasing):   # bin loads: the sizes' dimension, the capacity's too
        value = _eval(expr.function, {**env, expr.limits[0][0]: 1.0})
        return _same([value, _eval(expr.limits[1][2], env)], "first_fit_decreasing sizes and capacity")
    if isinstance(expr, (reductions.Maximum, reductions.Minimum, reductions.Earliest, reductions.Related)):
        # the largest/smallest term, a sum over related keys, an earliest start (a sum of terms): the term's dimension
        return _eval(expr.function, {**env, **{lim[0]: 1.0 for lim in expr.limits}})
    if isinstance(expr, (sympy.Sum, sympy.Product)):
        inner_env = {**env, **{lim[0]: 1.0 for lim in expr.limits}}
        value = _eval(expr.function, inner_env)
        if isinstance(expr, sympy.Product):
            return _dimensionless(value, "a product over an index")
        return value
    raise Inconsistent(f"no rule for {type(expr).__name__}")


def _condition(cond: Any, env: Mapping[sympy.Symbol, Any]) -> None:
    if cond in (sympy.true, sympy.false, True, False):
        return
    if isinstance(cond, (sympy.And, sympy.Or, sympy.Not)):
        for a in cond.args:
            _condition(a, env)
        return
    if isinstance(cond, sympy.core.relational.Relational):
        _same([_eval(a, env) for a in cond.args], "the sides of a comparison")
        return
    raise Inconsistent(f"condition {cond}")


def changes_dimension(expr: Any, units: Mapping[sympy.Symbol, pint.Unit], declared: pint.Unit, seed: int = 0) -> bool:
    """The oracle: True when pint finds ``expr`` inconsistent or in another dimension than ``declared``."""
    rng = random.Random(seed)
    env = {s: ureg.Quantity(rng.uniform(1.5, 2.5), u) for s, u in units.items()}
    for s in expr.free_symbols:
        env.setdefault(s, ureg.Quantity(rng.uniform(1.5, 2.5), ureg.dimensionless))   # reduction dummies and counts
    try:
        value = pint_value(expr, env)
    except Inconsistent:
        return True
    dim = value.dimensionality if isinstance(value, pint.Quantity) else ureg.dimensionless.dimensionality
    if not isinstance(value, pint.Quantity) and value == 0:
        return False     # a mutant that folded to 0 is zero in every unit
    return dim != declared.dimensionality


# ---------------------------------------------------------------------- planting mistakes
def _other_units(unit: pint.Unit) -> list[str]:
    """Two wrong units for a symbol declared in ``unit``: another dimension, and the same one times a time."""
    others = [u for u in OTHER_UNITS if parse_unit(u).dimensionality != unit.dimensionality]
    short = f"{unit:~C}"
    times = f"({short}) * s" if short else "s"
    return [others[hash(str(unit)) % len(others)], times]


def _unit_text(unit: pint.Unit) -> str:
    """Unit text that :func:`parse_unit` reads back (``byte**1*token**-1``), for a mutated unit."""
    return "*".join(f"{name}**{power:g}" for name, power in unit._units.items()) or "1"


def _kind_mutations(unit: pint.Unit) -> Iterator[tuple[str, str]]:
    """(what, unit text) for each counted kind of ``unit`` swapped for each other kind, and left out."""
    for name, power in unit._units.items():
        if name not in COUNTED_KINDS:
            continue
        for other in COUNTED_KINDS:
            if other != name:
                yield f"{name} swapped for {other}", _unit_text(unit / ureg.Unit(name) ** power * ureg.Unit(other) ** power)
        yield f"{name} left out", _unit_text(unit / ureg.Unit(name) ** power)


def _counted_of(unit: pint.Unit) -> dict[str, float]:
    return {d: p for d, p in unit.dimensionality.items() if d in COUNTED_DIMS}


def _replace_node(expr: Any, target: Any, replacement: Any) -> Any:
    """``expr`` with the one subtree ``target`` (by identity of position) replaced."""
    if expr is target:
        return replacement
    if not expr.args:
        return expr
    new_args = [_replace_node(a, target, replacement) for a in expr.args]
    if all(n is o for n, o in zip(new_args, expr.args)):
        return expr
    return expr.func(*new_args)


def _nodes(expr: Any) -> list[Any]:
    out = []

    def walk(node: Any) -> None:
        out.append(node)
        for a in node.args:
            walk(a)

    walk(expr)
    return out


def plant(stype: ScenarioType, output: str, index: int, expr: sympy.Expr) -> Iterator[Mutant]:
    units = dict(stype.unit_map)
    base = dict(units)
    base.update(EXTRA_UNITS)

    def mutant(kind: str, what: str, new: Any, new_units: dict | None = None, edit: Any = None) -> Mutant:
        return Mutant(stype.name, output, index, kind, what, new, new_units or base, edit)

    # unit: one symbol in a wrong unit
    for sym in sorted(expr.free_symbols, key=lambda s: s.name):
        if sym not in units:
            continue     # reduction dummies and their counts carry no declared unit
        for text in _other_units(units[sym]):
            changed = dict(base)
            changed[sym] = parse_unit(text)
            yield mutant("unit", f"{sym} declared in {text} instead of {units[sym]:~C}", expr, changed, (sym, text))
        for what, text in _kind_mutations(units[sym]):   # counted kinds: parameters, tokens, samples, requests
            changed = dict(base)
            changed[sym] = parse_unit(text)
            kind = "kind-drop" if what.endswith("left out") else "kind-swap"
            yield mutant(kind, f"{sym} in {units[sym]:~C}: {what} ({text})", expr, changed, (sym, text))
    counted = sorted((sym for sym in expr.free_symbols if sym in units and _counted_of(units[sym])), key=lambda x: x.name)
    for i, a in enumerate(counted):   # kind-symbol: two symbols of different counted kinds exchanged
        for b in counted[i + 1:]:
            if _counted_of(units[a]) != _counted_of(units[b]):
                yield mutant("kind-symbol", f"{a} ({units[a]:~C}) and {b} ({units[b]:~C}) exchanged",
                             expr.xreplace({a: b, b: a}))
    nodes = _nodes(expr)
    for node in nodes:
        if isinstance(node, sympy.Mul) and len(node.args) >= 2:
            for a in node.args:
                if a.free_symbols:   # drop: a factor forgotten
                    rest = [x for x in node.args if x is not a]
                    yield mutant("drop", f"factor {a} dropped from {node}", _replace_node(expr, node, sympy.Mul(*rest)))
        if isinstance(node, sympy.Pow) and node.exp.is_Number and node.exp < 0 and node.base.free_symbols:   # swap
            yield mutant("swap", f"{node.base} moved to the numerator", _replace_node(expr, node, node.base ** (-node.exp)))
        if isinstance(node, sympy.Add):
            term = node.args[0]
            yield mutant("add-bytes", f"bytes added to the sum {node}", _replace_node(expr, node, node + BYTES))
            yield mutant("extra", f"term {term} times a time", _replace_node(expr, node, sympy.Add(term * TIME, *node.args[1:])))
    yield mutant("add-bytes", "bytes added to the equation", expr + BYTES)
    yield mutant("extra", "the equation times a time", expr * TIME)
    yield mutant("extra", "the equation over a bandwidth", expr / BANDWIDTH)
    if expr.free_symbols and not (isinstance(expr, sympy.Number)):
        yield mutant("swap", "the equation inverted", 1 / expr)


# ---------------------------------------------------------------------- equation text (the load path)
class Unprintable(Exception):
    pass


def to_text(expr: Any, stype: ScenarioType) -> str:
    """``expr`` in the equation language of derivation files (the inverse of the parser)."""
    proxies = {s: v.name for s, v in stype.composed_variables.items()}
    proxies.update({s: v.name for s, v in stype.leaves.items() if v.scenario_input})   # input.output

    def p(e: Any) -> str:
        if isinstance(e, sympy.Symbol):
            return proxies.get(e, e.name)
        if isinstance(e, sympy.Integer):
            return f"({int(e)})"
        if isinstance(e, sympy.Rational):
            return f"({e.p} / {e.q})"
        if isinstance(e, sympy.Float):
            return f"({float(e)!r})"
        if e is sympy.E:
            return "exp(1)"
        if e is sympy.pi:   # gamma(1/2) = sqrt(pi) (a normal density's 1/sqrt(2 pi))
            return "(gamma(1 / 2) ** 2)"
        if isinstance(e, sympy.Add):
            return "(" + " + ".join(p(a) for a in e.args) + ")"
        if isinstance(e, sympy.Mul):
            return "(" + " * ".join(p(a) for a in e.args) + ")"
        if isinstance(e, sympy.Pow):
            return f"({p(e.base)} ** {p(e.exp)})"
        if isinstance(e, (sympy.Max, sympy.Min)):
            return f"{'max' if isinstance(e, sympy.Max) else 'min'}({', '.join(p(a) for a in e.args)})"
        names = {sympy.floor: "floor", sympy.ceiling: "ceil", sympy.log: "log", sympy.exp: "exp", sympy.Abs: "abs",
                 sympy.erf: "erf", sympy.erfc: "erfc", sympy.erfinv: "erfinv", sympy.gamma: "gamma", sympy.binomial: "binomial",
                 sympy.LambertW: "lambertw", sympy.asin: "asin", sympy.cos: "cos", sympy.sin: "sin", sympy.acos: "acos",
                 special.gammainc: "gammainc", special.gammaincinv: "gammaincinv", special.betainc: "betainc",
                 special.betaincinv: "betaincinv", sympy.loggamma: "loggamma"}   # special.loggamma is a SymPy loggamma
        for cls, name in names.items():
            if isinstance(e, cls):
                return f"{name}({', '.join(p(a) for a in e.args)})"
        if isinstance(e, sympy.Piecewise):
            parts = []
            for value, cond in e.args[:-1]:
                parts += [p(value), c(cond)]
            if e.args[-1][1] is not sympy.true:
                raise Unprintable("a piecewise without an otherwise value")
            return f"piecewise({', '.join([*parts, p(e.args[-1][0])])})"
        if isinstance(e, reductions.FirstFitDecreasing):
            index = stype.reductions.get(e.limits[0][0], e.limits[0][0].name)
            return f"first_fit_decreasing({p(e.function)}, {p(e.limits[1][2])}, {index})"
        if isinstance(e, (reductions.Earliest, reductions.Related)):   # over a relation input, or its inverse
            relation = e.limits[1][0].name.removeprefix("R_")
            name = {reductions.Earliest: "earliest", reductions.RelatedSum: "sum", reductions.RelatedMaximum: "maximum",
                    reductions.RelatedMinimum: "minimum"}[type(e)]
            return f"{name}({p(e.function)}, {relation})"
        if isinstance(e, (sympy.Sum, sympy.Product, reductions.Maximum, reductions.Minimum)):
            dummy = e.limits[0][0]
            index = stype.reductions.get(dummy, dummy.name)
            name = {sympy.Sum: "sum", sympy.Product: "prod", reductions.Maximum: "maximum", reductions.Minimum: "minimum"}[type(e)]
            limit = e.limits[0]
            if len(limit) == 3 and limit[2] in stype.positions:   # a running sum (its upper limit the key's position)
                name += "_upto"
            return f"{name}({p(e.function)}, {index})"
        raise Unprintable(type(e).__name__)

    def c(cond: Any) -> str:
        ops = {sympy.core.relational.StrictLessThan: "<", sympy.core.relational.LessThan: "<=",
               sympy.core.relational.StrictGreaterThan: ">", sympy.core.relational.GreaterThan: ">="}
        for cls, op in ops.items():
            if isinstance(cond, cls):
                return f"({p(cond.lhs)} {op} {p(cond.rhs)})"
        if isinstance(cond, (sympy.And, sympy.Or)):
            return "(" + (" and " if isinstance(cond, sympy.And) else " or ").join(c(a) for a in cond.args) + ")"
        if isinstance(cond, sympy.Not):
            return f"(not {c(cond.args[0])})"
        raise Unprintable(type(cond).__name__)

    return p(expr)


def raw_types() -> dict[str, Mapping[str, Any]]:
    """Each type's ``[types.NAME]`` table, as read from its derivation file."""
    out: dict[str, Mapping[str, Any]] = {}
    for path in sorted(derivations_dir().glob("*.toml")):
        if path.name in REGISTRY_FILES:
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        out.update(data.get("types", {}))
    return out


def _set_unit(raw: dict, stype: ScenarioType, sym: sympy.Symbol, text: str) -> bool:
    """Write ``unit = text`` where ``sym`` is declared in the type's table; False if it is declared elsewhere."""
    if sym in stype.leaf_input:
        source = stype.leaf_input[sym]
        if source in stype.arguments:
            raw["arguments"][source]["unit"] = text
            raw["arguments"][source].pop("default", None)
            return True
        spec = stype.inputs[source]
        table = raw["inputs"][source]
        if spec.kind in ("flag", "key"):   # a flag, or a key's indicator, is 1 or 0 by declaration: no unit to change
            return False
        if spec.variable is not None and spec.variable.symbol == sym:
            table["unit"] = text
            table.pop("default", None)   # so that the equation check, not the default's unit, is what refuses it
            return True
        for key, var in spec.attributes.items():
            if var.symbol == sym:
                table["symbols"][key]["unit"] = text
                return True
    if sym in stype.output_symbols:
        raw["outputs"][stype.output_symbols[sym]]["unit"] = text
        return True
    return False   # a composed output: its unit is declared by the other type


class _Others(Mapping):
    """The types a rebuilt type may compose: the ones being mutated, then the catalog's (built only when a ``uses`` or
    scenario input names one), never the type itself."""

    def __init__(self, types: Mapping[str, ScenarioType], name: str) -> None:
        self._types, self._name = types, name

    def __getitem__(self, key: str) -> ScenarioType:
        if key == self._name:
            raise KeyError(key)
        if key in self._types:
            return self._types[key]
        return catalog().types[key]

    def __contains__(self, key: object) -> bool:
        return key != self._name and (key in self._types or key in catalog().types)

    def __iter__(self) -> Iterator[str]:
        return (n for n in dict.fromkeys([*self._types, *catalog().types]) if n != self._name)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def load_refuses(m: Mutant, stype: ScenarioType, raw: Mapping[str, Any], types: Mapping[str, ScenarioType]) -> bool | None:
    """Build the type from its table with the mistake planted; True if refused with a DerivationError, None if not expressible."""
    mutated = copy.deepcopy(dict(raw))
    if m.unit_edit is not None:
        if not _set_unit(mutated, stype, *m.unit_edit):
            return None
    else:
        try:
            text = to_text(m.expr, stype)
        except Unprintable:
            return None
        out = mutated["outputs"][m.output]
        equation = out["equation"]
        if isinstance(equation, str):
            out["equation"] = text
        elif isinstance(equation, list):
            equation[m.branch] = text
        else:
            key = list(equation)[m.branch]
            equation[key] = text
        mutated["inputs"] = {**mutated.get("inputs", {}), **EXTRA_INPUTS}
    try:
        ScenarioType.from_mapping(stype.name, mutated, family=stype.family, types=_Others(types, stype.name))
    except DerivationError as exc:
        m.note = str(exc)
        return is_dimension_refusal(m.note)   # refused for its dimension, not for anything else
    return False


#: Phrases of the dimension check's refusals (``dimensions.py``).
DIMENSION_WORDS = ("disagree in dimension", "but the declared unit is", "needs a dimensionless argument",
                   "a dimensional base needs", "a power with a symbolic exponent")
USES_BINDING = re.compile(r"uses\.\w+: \w+ is in .+ but \w+ is in ")   # a composed type's input bound in another dimension


def is_dimension_refusal(message: str) -> bool:
    return any(word in message for word in DIMENSION_WORDS) or bool(USES_BINDING.search(message))


def printed_types_load(types: Mapping[str, ScenarioType], raws: Mapping[str, Any]) -> list[str]:
    """The control of the load path: every type rebuilt with every equation printed by :func:`to_text` loads.

    Returns the types that fail (so a refusal of a mutant is due to its mistake, not to the printer)."""
    failures = []
    for name, stype in types.items():
        if name not in raws:
            continue
        raw = copy.deepcopy(dict(raws[name]))
        for output, out in stype.outputs.items():
            if out.kind != "quantity":   # predicates and labels: compared terms, mutated through the outputs they compare
                continue
            table = raw["outputs"][output]
            texts = [to_text(b.expr, stype) for b in out.branches]
            if isinstance(table["equation"], str):
                table["equation"] = texts[0]
            elif isinstance(table["equation"], list):
                table["equation"] = texts
            else:
                table["equation"] = dict(zip(table["equation"], texts))
        try:
            ScenarioType.from_mapping(name, raw, family=stype.family, types=_Others(types, name))
        except DerivationError as exc:
            failures.append(f"{name}: {exc}")
    return failures


# ---------------------------------------------------------------------- the run
def run(load: str = "none", sample_every: int = 10, types: Mapping[str, ScenarioType] | None = None) -> Summary:
    """Plant mistakes in every equation; ``load`` is ``none``, ``sample`` (every ``sample_every``-th mutant) or ``all``."""
    start = time.perf_counter()
    types = dict(types or catalog().types)
    raws = raw_types() if load != "none" else {}
    summary = Summary()
    if raws:
        summary.printer_failures = printed_types_load(types, raws)
    n = 0
    for name, stype in types.items():
        for output, out in stype.outputs.items():
            if out.kind != "quantity":   # a predicate or label compares outputs that are mutated themselves
                continue
            declared = out.variable.unit
            for index, branch in enumerate(out.branches):
                summary.originals += 1
                if not changes_dimension(branch.expr, stype.unit_map, declared):
                    summary.originals_consistent += 1
                for m in plant(stype, output, index, branch.expr):
                    n += 1
                    summary.made += 1
                    summary.by_kind[m.kind, "made"] += 1
                    m.changes = changes_dimension(m.expr, m.units, declared, seed=n)
                    try:
                        check_equation(m.expr, declared, m.units, output=output)
                    except DimensionError:
                        m.caught = True
                    if m.changes:
                        summary.changing += 1
                        summary.by_kind[m.kind, "changing"] += 1
                        if m.caught:
                            summary.caught += 1
                            summary.by_kind[m.kind, "caught"] += 1
                        else:
                            summary.escaped.append(m)
                    elif m.caught:
                        summary.caught_consistent += 1
                    if m.changes and (load == "all" or (load == "sample" and n % sample_every == 0)) and name in raws:
                        m.loaded = load_refuses(m, stype, raws[name], types)
                        if m.loaded is not None:
                            summary.load_tried += 1
                            summary.load_refused += int(m.loaded)
                            if not m.loaded:
                                summary.load_escaped.append(m)
    summary.seconds = time.perf_counter() - start
    return summary


KINDS = ("unit", "drop", "extra", "add-bytes", "swap", "kind-swap", "kind-drop", "kind-symbol")
COUNTED_MUTATIONS = ("kind-swap", "kind-drop", "kind-symbol")


def report(s: Summary) -> str:
    lines = [f"equations (branches): {s.originals}, consistent by the pint oracle: {s.originals_consistent}",
             f"{'mistake':<10} {'made':>7} {'changing':>9} {'caught':>7}"]
    for kind in KINDS:
        lines.append(f"{kind:<10} {s.by_kind[kind, 'made']:>7} {s.by_kind[kind, 'changing']:>9} {s.by_kind[kind, 'caught']:>7}")
    lines.append(f"{'total':<10} {s.made:>7} {s.changing:>9} {s.caught:>7}")
    counted = [sum(s.by_kind[k, col] for k in COUNTED_MUTATIONS) for col in ("made", "changing", "caught")]
    lines.append(f"counted kinds (param, token, sample, request): {counted[0]} mutants, {counted[1]} change the dimension, "
                 f"{counted[2]} caught")
    lines.append(f"mutants made: {s.made}; dimension-changing: {s.changing}; caught by check_equation: {s.caught}; "
                 f"escaped: {len(s.escaped)}; refused although consistent: {s.caught_consistent}")
    if s.load_tried:
        lines.append(f"load path (ScenarioType.from_mapping on the mutated table): {s.load_refused} of {s.load_tried} "
                     f"refused by the dimension check; control (every equation printed back and reloaded): "
                     f"{'all types load' if not s.printer_failures else s.printer_failures}")
    for m in s.escaped[:20] + s.load_escaped[:20]:
        lines.append(f"ESCAPED {m.type_name}.{m.output}[{m.branch}] {m.kind}: {m.what} {m.note[:200]}")
    lines.append(f"({s.seconds:.1f} s)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", choices=("none", "sample", "all"), default="none",
                        help="also build each mutated type through ScenarioType.from_mapping (the load path)")
    parser.add_argument("--type", action="append", dest="types", metavar="TYPE",
                        help="only this scenario type (repeatable; default: every type of the catalog)")
    args = parser.parse_args(argv)
    types = None
    if args.types:
        known = catalog().types
        unknown = [t for t in args.types if t not in known]
        if unknown:
            parser.error(f"--type: unknown scenario type {', '.join(unknown)}")
        types = {t: known[t] for t in args.types}
    summary = run(args.load, types=types)
    print(report(summary))
    return 1 if summary.escaped or summary.load_escaped or summary.printer_failures else 0


if __name__ == "__main__":
    sys.exit(main())
