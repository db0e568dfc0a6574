"""Scenario types as data: inputs, arguments, outputs and notes, built from a mapping.

A :class:`ScenarioType` is what a ``[types.NAME]`` table of a derivation file
declares.  Building one parses every equation through the whitelisted parser,
checks every equation's dimensions from the declared units alone, and refuses
cycles between outputs, all before any number is used.

>>> t = ScenarioType.from_mapping("Bytes", {
...     "summary": "Bytes of P parameters at b bytes each.",
...     "inputs": {"params": {"symbol": "P", "unit": "param"}, "width": {"symbol": "b", "unit": "B/param"}},
...     "outputs": {"size": {"symbol": "W", "unit": "B", "equation": "P * b"}}})
>>> t.expression("size")
P*b
>>> ScenarioType.from_mapping("Bad", {
...     "inputs": {"m": {"unit": "B"}, "t": {"unit": "s"}},
...     "outputs": {"y": {"unit": "B", "equation": "m + t"}}})
Traceback (most recent call last):
...
mlsysim_symbolic.errors.DerivationError: <derivations>: Bad: output y: equation for y: terms disagree in dimension: m is in B ([information]: bytes) but t is in s ([time]: seconds)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pint
import sympy

from .dimensions import check_equation
from .errors import DerivationError, DimensionError, EquationError, InputError, MlsysimSymbolicError, UnitError
from .parse import parse_equation
from .registry import HARDWARE_FIELDS, WORKLOAD_FIELDS
from .units import parse_quantity
from .variables import Variable

INPUT_KINDS = ("quantity", "choice", "workload", "workloads", "hardware", "map", "list")
OBJECT_KINDS = ("workload", "workloads", "hardware")
KEYED_KINDS = ("workloads", "map", "list")
STYLES = ("property", "method", "dict")

Locate = Callable[..., "int | None"]


@dataclass(frozen=True)
class InputSpec:
    """One constructor input of a scenario type."""

    name: str
    kind: str
    meaning: str = ""
    required: bool = True
    default: Any = None
    variable: Variable | None = None            # quantity, map and list inputs
    options: tuple[str, ...] = ()               # choice inputs
    index: str | None = None                    # keyed inputs
    attributes: Mapping[str, Variable] = field(default_factory=dict)  # object inputs: symbol -> variable

    @property
    def annotation(self) -> str:
        return {
            "quantity": "int" if self.variable is not None and self.variable.integer else "Quantity",
            "choice": "str",
            "workload": "Workload",
            "workloads": "Dict[str, Workload]",
            "hardware": "Hardware",
            "map": "Dict[str, Quantity]",
            "list": "List[Quantity]",
        }[self.kind]


@dataclass(frozen=True)
class Branch:
    """One form of an output's equation: chosen by a choice value, or the first whose inputs are set."""

    expr: sympy.Expr
    text: str
    when: str | None = None      # the choice value selecting this branch


@dataclass(frozen=True)
class OutputSpec:
    """One output of a scenario type."""

    name: str
    variable: Variable
    branches: tuple[Branch, ...]
    doc: str = ""
    style: str = "property"
    choice: str | None = None          # input or argument whose value picks the branch
    arguments: tuple[str, ...] = ()    # free arguments of a method, in order
    indices: tuple[str, ...] = ()      # indices the output is keyed by (first branch)
    key_params: tuple[str, ...] = ()   # parameter names of the keys of a method output


@dataclass(frozen=True)
class Reference:
    """A citation: text, with an optional section and URL."""

    text: str
    section: str = ""
    url: str = ""

    def __str__(self) -> str:
        out = self.text + (f", {self.section}" if self.section else "")
        return out + (f" <{self.url}>" if self.url else "")


def _symbol_names(var: Variable) -> tuple[str, ...]:
    return (var.name, var.symbol.name)


class ScenarioType:
    """A declared scenario type: inputs, arguments, outputs (SymPy trees with units) and notes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.family = ""
        self.summary = ""
        self.description = ""
        self.equation_note = ""
        self.assumptions: tuple[str, ...] = ()
        self.excludes: tuple[str, ...] = ()
        self.derivation = ""
        self.references: tuple[Reference, ...] = ()
        self.inputs: dict[str, InputSpec] = {}
        self.arguments: dict[str, Variable] = {}
        self.outputs: dict[str, OutputSpec] = {}
        self.leaves: dict[sympy.Symbol, Variable] = {}        # every leaf symbol
        self.leaf_input: dict[sympy.Symbol, str] = {}          # leaf -> the input (or argument) it comes from
        self.leaf_index: dict[sympy.Symbol, str] = {}          # leaf -> its index, for keyed leaves
        self.output_symbols: dict[sympy.Symbol, str] = {}
        self.index_inputs: dict[str, list[str]] = {}           # index -> keyed inputs sharing it
        self.reductions: dict[sympy.Symbol, str] = {}           # reduction dummy -> index
        self.positions: dict[sympy.Symbol, str] = {}            # position leaf n_k of a *_upto reduction -> index
        self.source_path: str | None = None
        self.uses: dict[str, str] = {}                          # composed sub-type by its local name
        self.composed: dict[sympy.Symbol, sympy.Expr] = {}      # symbol of a composed output -> its tree over our leaves
        self.composed_variables: dict[sympy.Symbol, Variable] = {}
        self._expanded: dict[tuple[str, tuple[tuple[str, str], ...]], sympy.Expr] = {}
        self._compiled: dict[Any, Any] = {}

    # ------------------------------------------------------------------ building
    @classmethod
    def from_mapping(
        cls,
        name: str,
        data: Mapping[str, Any],
        *,
        family: str = "",
        path: str | None = None,
        locate: Locate | None = None,
        types: Mapping[str, ScenarioType] | None = None,
    ) -> ScenarioType:
        """Build and check a scenario type from a ``[types.NAME]`` mapping.

        ``types`` holds the already-built types that a ``uses`` table may compose.  Whatever is
        wrong with the mapping, the error is a :class:`DerivationError` naming the type.
        """
        try:
            return cls._from_mapping(name, data, family=family, path=path, locate=locate, types=types)
        except DerivationError:
            raise
        except (MlsysimSymbolicError, TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
            # a value of the wrong shape that no specific check names (a number where a table belongs ...)
            line = locate() if locate else None
            raise DerivationError(f"malformed declaration: {exc}", path=path, line=line, scenario=name) from None

    @classmethod
    def _from_mapping(
        cls,
        name: str,
        data: Mapping[str, Any],
        *,
        family: str = "",
        path: str | None = None,
        locate: Locate | None = None,
        types: Mapping[str, ScenarioType] | None = None,
    ) -> ScenarioType:
        self = cls(name)
        self.source_path = path

        def fail(reason: str, *keys: str) -> DerivationError:
            line = locate(*keys) if locate else None
            return DerivationError(reason, path=path, line=line, scenario=name)

        known = {"family", "summary", "description", "equation_note", "assumptions", "excludes",
                 "derivation", "references", "inputs", "arguments", "outputs", "uses"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise fail(f"unknown field(s) {', '.join(unknown)}; expected some of {', '.join(sorted(known))}", unknown[0])
        for key in ("inputs", "arguments", "outputs", "uses"):
            if not isinstance(data.get(key) or {}, Mapping):
                raise fail(f"'{key}' must be a table, got {type(data[key]).__name__}", key)
        for key in ("assumptions", "excludes", "references"):
            if not isinstance(data.get(key, ()), (list, tuple)):
                raise fail(f"'{key}' must be a list, got {type(data[key]).__name__}", key)
        self.family = str(data.get("family", family))
        self.summary = str(data.get("summary", ""))
        self.description = str(data.get("description", ""))
        self.equation_note = str(data.get("equation_note", ""))
        self.assumptions = tuple(str(a) for a in data.get("assumptions", ()))
        self.excludes = tuple(str(a) for a in data.get("excludes", ()))
        self.derivation = str(data.get("derivation", ""))
        self.references = tuple(_reference(r) for r in data.get("references", ()))

        names: dict[str, Any] = {}

        def claim(key: str, value: Any, where: tuple[str, ...]) -> None:
            if key in names and names[key] is not value:
                raise fail(f"name {key!r} is declared twice", *where)
            names[key] = value

        for in_name, raw in (data.get("inputs") or {}).items():
            try:
                spec = self._input(in_name, raw)
            except (InputError, UnitError, EquationError) as exc:
                raise fail(f"input {in_name}: {exc}", "inputs", in_name) from None
            self.inputs[in_name] = spec
            if spec.variable is not None:
                for key in _symbol_names(spec.variable):
                    claim(key, spec.variable.symbol, ("inputs", in_name))
                self._add_leaf(spec.variable, in_name, spec.index if spec.kind in KEYED_KINDS else None)
            for var in spec.attributes.values():
                for key in _symbol_names(var):
                    claim(key, var.symbol, ("inputs", in_name))
                self._add_leaf(var, in_name, spec.index)
            if spec.index:
                self.index_inputs.setdefault(spec.index, []).append(in_name)
        for arg_name, raw in (data.get("arguments") or {}).items():
            try:
                var = _variable(arg_name, raw, role="argument")
            except (InputError, UnitError) as exc:
                raise fail(f"argument {arg_name}: {exc}", "arguments", arg_name) from None
            source = var.extra.get("default_input")
            if source is not None:   # an omitted argument takes this input's value (mlsysim's f(x=None) -> self.x)
                spec = self.inputs.get(source)
                if spec is None or spec.kind != "quantity" or spec.variable is None:
                    raise fail(f"argument {arg_name}: default_input {source!r} is not a quantity input", "arguments", arg_name)
                if spec.variable.unit.dimensionality != var.unit.dimensionality:
                    raise fail(f"argument {arg_name}: default_input {source} is in {spec.variable.unit_text} but the argument "
                               f"is in {var.unit_text}: they disagree in dimension", "arguments", arg_name)
            self.arguments[arg_name] = var
            for key in _symbol_names(var):
                claim(key, var.symbol, ("arguments", arg_name))
            self._add_leaf(var, arg_name, None)

        uses = _Uses(self, data.get("uses") or {}, types or {}, fail)
        for key in uses.names:
            claim(key, None, ("uses", key))
            names.pop(key, None)

        raw_outputs = data.get("outputs") or {}
        if not raw_outputs:
            raise fail("declares no outputs", "outputs")
        out_vars: dict[str, Variable] = {}
        for out_name, raw in raw_outputs.items():
            if not isinstance(raw, Mapping):
                raise fail(f"output {out_name} must be a table", "outputs", out_name)
            try:
                var = _variable(out_name, {k: raw[k] for k in ("symbol", "unit", "latex", "integer") if k in raw} | {"meaning": raw.get("doc", "")}, role="output", domain="(-inf, inf)")
            except (InputError, UnitError) as exc:
                raise fail(f"output {out_name}: {exc}", "outputs", out_name) from None
            if "unit" not in raw:
                raise fail(f"output {out_name} declares no unit", "outputs", out_name)
            out_vars[out_name] = var
            for key in _symbol_names(var):
                claim(key, var.symbol, ("outputs", out_name))
            self.output_symbols[var.symbol] = out_name

        for index in self.index_inputs:
            if index not in names:
                names[index] = sympy.Symbol(index, integer=True, positive=True)

        def reduce(kind: str, inner: Any, index: str) -> Any:
            if index not in self.index_inputs:
                raise EquationError(f"{kind}(..., {index}): {index!r} is not an index; indices: {', '.join(self.index_inputs) or 'none'}")
            dummy = sympy.Symbol(index, integer=True, positive=True)
            self.reductions[dummy] = index
            cls_ = sympy.Sum if kind.startswith("sum") else sympy.Product
            if kind.endswith("_upto"):
                # over the keys up to and including this one, in the keyed input's order: an output keyed by `index`
                # whose upper limit n_index (the key's position, 1 for the first) is a keyed leaf
                return cls_(inner, (dummy, 1, self._position(index).symbol))
            count = sympy.Symbol(f"N_{index}", integer=True, positive=True)
            return cls_(inner, (dummy, 1, count))

        units = {sym: var.unit for sym, var in self.leaves.items()}
        units.update({var.symbol: var.unit for var in out_vars.values()})
        uses.units = units
        uses.taken = set(names)
        for out_name, raw in raw_outputs.items():
            var = out_vars[out_name]
            equation = raw.get("equation")
            choice = raw.get("choice")
            if choice is not None and not isinstance(choice, str):
                raise fail(f"output {out_name}: choice must be the name of a choice input, got {choice!r}", "outputs", out_name)
            branches: list[Branch] = []
            if isinstance(equation, str):
                items: list[tuple[str | None, str]] = [(None, equation)]
            elif isinstance(equation, list) and equation and all(isinstance(e, str) for e in equation):
                items = [(None, e) for e in equation]
            elif isinstance(equation, Mapping) and equation and choice:
                items = [(str(k), v) for k, v in equation.items()]
            else:
                raise fail(
                    f"output {out_name}: equation must be text, a list of alternatives, or a table by the value of 'choice'",
                    "outputs", out_name)
            if choice is not None:
                spec = self.inputs.get(choice)
                options = spec.options if spec is not None and spec.kind == "choice" else None
                if options is None and choice in self.arguments:
                    options = tuple(self.arguments[choice].extra.get("options", ()))
                if not options:
                    raise fail(f"output {out_name}: choice {choice!r} is not a choice input or argument", "outputs", out_name)
                missing = [o for o in options if o not in dict(items)]
                if missing:
                    raise fail(f"output {out_name}: no equation for {choice} = {', '.join(missing)}", "outputs", out_name)
            for when, text in items:
                if not isinstance(text, str):
                    raise fail(f"output {out_name}: equation must be text", "outputs", out_name)
                try:
                    expr = parse_equation(text, names, reduce=reduce, attributes=uses)
                except EquationError as exc:
                    raise fail(f"output {out_name}: {exc} in {text!r}", "outputs", out_name) from None
                try:
                    check_equation(expr, var.unit, units, output=out_name)
                except DimensionError as exc:
                    raise fail(f"output {out_name}: {exc}", "outputs", out_name) from None
                branches.append(Branch(expr=expr, text=text, when=when))
            style = str(raw.get("style", ""))
            if style and style not in STYLES:
                raise fail(f"output {out_name}: style must be one of {', '.join(STYLES)}", "outputs", out_name)
            self.outputs[out_name] = OutputSpec(
                name=out_name, variable=var, branches=tuple(branches), doc=str(raw.get("doc", "")),
                style=style, choice=choice)
        self._check_cycles(fail)
        keyed_memo: dict[str, bool] = {}
        for out_name, out in list(self.outputs.items()):
            leaves = self._leaf_symbols(out_name) if self._may_be_keyed(out_name, keyed_memo) else set()
            every_leaf, choices_used = self._closure(out_name)
            args = tuple(a for a, v in self.arguments.items() if v.symbol in every_leaf or a in choices_used)
            indices = tuple(dict.fromkeys(self.leaf_index[s] for s in leaves if s in self.leaf_index))
            style = out.style or ("method" if (indices or args) else "property")
            if style == "property" and (indices or args):
                raise fail(f"output {out_name}: depends on {', '.join([*indices, *args])}, so it cannot be a property", "outputs", out_name)
            key_params = tuple(
                "name" if self.inputs[self.index_inputs[i][0]].kind == "workloads" else i for i in indices)
            self.outputs[out_name] = OutputSpec(
                name=out.name, variable=out.variable, branches=out.branches, doc=out.doc,
                style=style, choice=out.choice, arguments=args, indices=indices, key_params=key_params)
        return self

    def _closure(self, name: str) -> tuple[set[sympy.Symbol], set[str]]:
        """Leaves of every branch of ``name`` and of the outputs it uses, and the choices it depends on."""
        leaves: set[sympy.Symbol] = set()
        choices: set[str] = set()
        seen: set[str] = set()

        def visit(n: str) -> None:
            if n in seen:
                return
            seen.add(n)
            out = self.outputs[n]
            if out.choice is not None:
                choices.add(out.choice)
            for b in out.branches:
                for sym in b.expr.free_symbols:
                    if sym in self.output_symbols:
                        visit(self.output_symbols[sym])
                    elif sym in self.composed:
                        leaves.update(self.composed[sym].free_symbols)
                    elif sym in self.leaves:
                        leaves.add(sym)

        visit(name)
        return leaves, choices

    def _add_leaf(self, var: Variable, source: str, index: str | None) -> None:
        self.leaves[var.symbol] = var
        self.leaf_input[var.symbol] = source
        if index:
            self.leaf_index[var.symbol] = index

    def _input(self, name: str, raw: Any) -> InputSpec:
        if not isinstance(raw, Mapping):
            raise InputError("must be a table")
        kind = str(raw.get("kind", "quantity"))
        if kind not in INPUT_KINDS:
            raise InputError(f"kind {kind!r} is not one of {', '.join(INPUT_KINDS)}")
        meaning = str(raw.get("meaning", ""))
        required = bool(raw.get("required", "default" not in raw))
        default = raw.get("default")
        index = str(raw.get("index", name)) if kind in KEYED_KINDS else None
        if kind == "choice":
            if not isinstance(raw.get("options", ()), (list, tuple)):
                raise InputError("'options' must be a list of names")
            options = tuple(str(o) for o in raw.get("options", ()))
            if not options:
                raise InputError("a choice input needs 'options'")
            if default is not None and default not in options:
                raise InputError(f"default {default!r} is not one of the options {options}")
            return InputSpec(name, kind, meaning, required, default, options=options)
        if kind in OBJECT_KINDS:
            schema = HARDWARE_FIELDS if kind == "hardware" else WORKLOAD_FIELDS
            attributes: dict[str, Variable] = {}
            for sym_name, attr in (raw.get("symbols") or {}).items():
                if not isinstance(attr, Mapping) or "attribute" not in attr:
                    raise InputError(f"symbol {sym_name} needs an 'attribute' (a field of the {kind})")
                paths = attr["attribute"]
                paths = [paths] if isinstance(paths, str) else list(paths)
                first = paths[0].split(".")[0]
                unit, meaning_default, integer = schema.get(first, (attr.get("unit"), "", False))
                if "unit" in attr:
                    unit = attr["unit"]
                if unit is None:
                    raise InputError(f"symbol {sym_name}: field {first!r} has no known unit; declare 'unit'")
                extra = {"paths": tuple(paths), "fallback": attr.get("fallback"), "default": attr.get("default"), "counted": attr.get("counted")}
                label = str(attr.get("name", first if "{" not in paths[0] else sym_name))
                attributes[sym_name] = Variable.make(
                    label, symbol=attr.get("symbol", sym_name), unit=unit, latex=attr.get("latex"),
                    meaning=str(attr.get("meaning", meaning_default)), integer=bool(attr.get("integer", integer)),
                    domain=attr.get("domain"), role="attribute", extra=extra)
            return InputSpec(name, kind, meaning, required, default, index=index, attributes=attributes)
        var = _variable(name, raw, role="input")
        if default is not None and kind == "quantity":
            var.check(default)
        return InputSpec(name, kind, meaning or var.meaning, required, default, variable=var, index=index)

    def _check_cycles(self, fail: Callable[..., DerivationError]) -> None:
        state: dict[str, int] = {}

        def visit(name: str, trail: list[str]) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                cycle = trail[trail.index(name):] + [name]
                raise fail(f"outputs form a cycle: {' -> '.join(cycle)}", "outputs", name)
            state[name] = 1
            for dep in self._direct_outputs(name):
                visit(dep, trail + [name])
            state[name] = 2

        for name in self.outputs:
            visit(name, [])

    # ------------------------------------------------------------------ queries
    def _direct_outputs(self, name: str) -> list[str]:
        deps: list[str] = []
        for branch in self.outputs[name].branches:
            for sym in branch.expr.free_symbols:
                if sym in self.output_symbols and self.output_symbols[sym] not in deps:
                    deps.append(self.output_symbols[sym])
        return deps

    def _leaf_symbols(self, name: str, choices: Mapping[str, str] | None = None) -> set[sympy.Symbol]:
        """Leaves of output ``name`` outside any ``sum``/``prod`` (those inside are reduced away; a ``*_upto``
        reduction leaves its position symbol, so the output stays keyed by that index)."""
        expr = self.expand(name, choices)
        if expr.has(sympy.Sum, sympy.Product):
            expr = expr.replace(lambda e: isinstance(e, (sympy.Sum, sympy.Product)), self._reduced_away)
        return {s for s in expr.free_symbols if s in self.leaves}

    def _reduced_away(self, node: Any) -> Any:
        upper = node.limits[0][2]
        return upper if upper in self.positions else sympy.Integer(1)

    def _position(self, index: str) -> Variable:
        """The keyed leaf n_index: the position of each key of ``index`` (1 for the first)."""
        sym = sympy.Symbol(f"n_{index}", integer=True, positive=True)
        if sym not in self.positions:
            var = Variable.make(f"{index}_position", symbol=sym.name, unit="count", integer=True,
                                meaning=f"position of the key among the {index} keys (1 for the first)", role="position")
            self.positions[var.symbol] = index
            self._add_leaf(var, self.index_inputs[index][0], index)
        return self.leaves[sym]

    def _may_be_keyed(self, name: str, memo: dict[str, bool] | None = None) -> bool:
        """Whether output ``name`` can have keyed leaves outside sums, found by walking the outputs it uses.

        A cheap superset test (no expanded tree is built): when False, :meth:`_leaf_symbols` has no
        keyed leaf either, and loading skips expanding the output (a fifth of the catalog's load time).
        """
        memo = {} if memo is None else memo
        if name in memo:
            return memo[name]
        memo[name] = False
        found = False
        for branch in self.outputs[name].branches[:1]:
            expr = branch.expr
            if expr.has(sympy.Sum, sympy.Product):
                expr = expr.replace(lambda e: isinstance(e, (sympy.Sum, sympy.Product)), self._reduced_away)
            for sym in expr.free_symbols:
                if sym in self.leaf_index or sym in self.composed:
                    found = True
                elif sym in self.output_symbols:
                    found = found or self._may_be_keyed(self.output_symbols[sym], memo)
        memo[name] = found
        return found

    def branch(self, name: str, choices: Mapping[str, str] | None = None, available: Callable[[sympy.Expr], bool] | None = None) -> Branch:
        """The branch of output ``name`` picked by ``choices`` (or the first one available)."""
        out = self.outputs[name]
        if out.choice is not None and choices and out.choice in choices:
            for b in out.branches:
                if b.when == choices[out.choice]:
                    return b
        if available is not None and len(out.branches) > 1 and out.choice is None:
            for b in out.branches:
                if available(b.expr):
                    return b
        return out.branches[0]

    def expand(self, name: str, choices: Mapping[str, str] | None = None, available: Callable[[sympy.Expr], bool] | None = None) -> sympy.Expr:
        """Output ``name`` as a tree of leaf inputs only (earlier outputs substituted)."""
        key = (name, tuple(sorted((choices or {}).items()))) if available is None else None
        if key is not None and key in self._expanded:
            return self._expanded[key]
        expr = self.branch(name, choices, available).expr
        subs = {}
        for sym in expr.free_symbols:
            if sym in self.output_symbols:
                subs[sym] = self.expand(self.output_symbols[sym], choices, available)
            elif sym in self.composed:
                subs[sym] = self.composed[sym]
        result = expr.xreplace(subs) if subs else expr
        if key is not None:
            self._expanded[key] = result
        return result

    def expression(self, name: str, expand: bool = False) -> sympy.Expr:
        """The tree of output ``name``: over inputs and earlier outputs, or over inputs only."""
        self._require_output(name)
        return self.expand(name) if expand else self.outputs[name].branches[0].expr

    def equation(self, name: str, expand: bool = False) -> sympy.Eq:
        """``Eq(output_symbol, tree)`` for output ``name``."""
        self._require_output(name)
        return sympy.Eq(self.outputs[name].variable.symbol, self.expression(name, expand=expand), evaluate=False)

    def variable(self, name: str) -> Variable:
        """The variable (input, attribute symbol, argument or output) called ``name``."""
        for var in [*self.leaves.values(), *(o.variable for o in self.outputs.values())]:
            if name in (var.name, var.symbol.name):
                return var
        for spec in self.inputs.values():
            if spec.name == name and spec.variable is not None:
                return spec.variable
        from .errors import UnknownNameError, closest

        known = sorted({v.name for v in self.leaves.values()} | set(self.outputs))
        hint = closest(name, known)
        raise UnknownNameError(
            f"{self.name} has no input or output {name!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else "")
            + f" Known: {', '.join(known)}")

    def output(self, name: str) -> OutputSpec:
        """The declared output ``name`` (an :class:`UnknownNameError` with close names otherwise)."""
        return self._require_output(name)

    def _require_output(self, name: str) -> OutputSpec:
        if name not in self.outputs:
            from .errors import UnknownNameError, closest

            hint = closest(name, list(self.outputs))
            raise UnknownNameError(
                f"{self.name} has no output {name!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else "")
                + f" Outputs: {', '.join(self.outputs)}")
        return self.outputs[name]

    @property
    def unit_map(self) -> dict[sympy.Symbol, pint.Unit]:
        units = {sym: var.unit for sym, var in self.leaves.items()}
        units.update({sym: var.unit for sym, var in self.composed_variables.items()})
        units.update({o.variable.symbol: o.variable.unit for o in self.outputs.values()})
        return units

    def __repr__(self) -> str:
        return f"<ScenarioType {self.name} ({self.family}): {len(self.inputs)} inputs, {len(self.outputs)} outputs>"


def _variable(name: str, raw: Any, *, role: str, domain: str | None = None) -> Variable:
    if not isinstance(raw, Mapping):
        raise InputError("must be a table")
    allowed = {"kind", "symbol", "unit", "meaning", "latex", "integer", "domain", "default", "required", "index", "options", "doc"}
    if role == "argument":
        allowed.add("default_input")
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(unknown)}")
    for key in ("symbol", "latex", "domain", "unit"):
        if key in raw and not isinstance(raw[key], str):
            raise InputError(f"'{key}' must be text, got {raw[key]!r}")
    if "options" in raw and not isinstance(raw["options"], (list, tuple)):
        raise InputError("'options' must be a list of names")
    extra: dict[str, Any] = {"options": tuple(raw["options"])} if "options" in raw else {}
    if "default_input" in raw:
        extra["default_input"] = str(raw["default_input"])
    return Variable.make(
        name,
        symbol=raw.get("symbol"),
        unit=str(raw.get("unit", "")),
        meaning=str(raw.get("meaning", "")),
        latex=raw.get("latex"),
        integer=bool(raw.get("integer", False)),
        domain=raw.get("domain", domain),
        default=raw.get("default"),
        required="default" not in raw and raw.get("required", True),
        role=role,
        extra=extra,
    )


def _reference(raw: Any) -> Reference:
    if isinstance(raw, str):
        return Reference(raw)
    if isinstance(raw, Mapping):
        return Reference(str(raw.get("text", "")), str(raw.get("section", "")), str(raw.get("url", "")))
    raise InputError(f"reference {raw!r} must be text or a table with 'text', 'section', 'url'")


def default_quantity(var: Variable, value: Any) -> Any:
    """A declared default read as a quantity in the variable's unit."""
    if isinstance(value, str):
        return parse_quantity(value, name=var.name)
    return value


class _Uses(Mapping):
    """The outputs of composed types, as ``(use, output) -> expression`` for the parser.

    A ``[types.T.uses.NAME]`` table names another type and binds each of that type's
    inputs it needs to an input of T (``bind = { sub_input = "t_input" }``).  The
    composed output is the other type's tree with its symbols replaced by T's, so
    ``expression(..., expand=True)`` reaches T's leaves.
    """

    def __init__(self, owner: ScenarioType, raw: Mapping[str, Any], types: Mapping[str, ScenarioType], fail: Callable[..., DerivationError]):
        self.owner = owner
        self.fail = fail
        self.subs: dict[str, tuple[ScenarioType, dict[sympy.Symbol, sympy.Symbol], dict[str, str]]] = {}
        self.names = list(raw)
        self.proxies: dict[tuple[str, str], sympy.Symbol] = {}
        self.taken: set[str] = set()
        self.units: dict[sympy.Symbol, pint.Unit] = {}
        for use, spec in raw.items():
            if not isinstance(spec, Mapping) or "type" not in spec:
                raise fail(f"uses.{use} needs a 'type'", "uses", use)
            type_name = str(spec["type"])
            if type_name not in types:
                raise fail(f"uses.{use}: unknown scenario type {type_name!r}", "uses", use)
            sub = types[type_name]
            bind = dict(spec.get("bind") or {})
            mapping: dict[sympy.Symbol, sympy.Symbol] = {}
            choice_map: dict[str, str] = {}
            for sub_in, parent_in in bind.items():
                if sub_in not in sub.inputs:
                    raise fail(f"uses.{use}: {type_name} has no input {sub_in!r}; inputs: {', '.join(sub.inputs)}", "uses", use)
                if parent_in not in owner.inputs:
                    raise fail(f"uses.{use}: binds {sub_in} to {parent_in!r}, which is not an input of {owner.name}", "uses", use)
                self._bind(use, sub.inputs[sub_in], owner.inputs[parent_in], mapping, choice_map)
            owner.uses[use] = type_name
            self.subs[use] = (sub, mapping, choice_map)

    def _bind(self, use: str, sub: InputSpec, parent: InputSpec, mapping: dict, choice_map: dict) -> None:
        if sub.kind != parent.kind:
            raise self.fail(f"uses.{use}: cannot bind {sub.kind} input {sub.name} to {parent.kind} input {parent.name}", "uses", use)
        if sub.kind == "choice":
            if set(sub.options) - set(parent.options):
                raise self.fail(f"uses.{use}: choice {parent.name} lacks options {sorted(set(sub.options) - set(parent.options))} of {sub.name}", "uses", use)
            choice_map[sub.name] = parent.name
            return
        if sub.variable is not None and parent.variable is not None:
            if sub.variable.unit.dimensionality != parent.variable.unit.dimensionality:
                raise self.fail(
                    f"uses.{use}: {sub.name} is in {sub.variable.unit_text} but {parent.name} is in {parent.variable.unit_text}", "uses", use)
            mapping[sub.variable.symbol] = parent.variable.symbol
        for var in sub.attributes.values():
            match = next((v for v in parent.attributes.values()   # the same field read in the same unit (param, or param/sample)
                          if v.extra["paths"] == var.extra["paths"] and v.unit.dimensionality == var.unit.dimensionality), None)
            if match is None:
                raise self.fail(
                    f"uses.{use}: {parent.name} declares no symbol for {var.extra['paths'][0]} in {var.unit_text} "
                    f"(needed for {sub.name}.{var.symbol})", "uses", use)
            mapping[var.symbol] = match.symbol
        if sub.index and parent.index:
            mapping[sympy.Symbol(sub.index, integer=True, positive=True)] = sympy.Symbol(parent.index, integer=True, positive=True)
            mapping[sympy.Symbol(f"N_{sub.index}", integer=True, positive=True)] = sympy.Symbol(f"N_{parent.index}", integer=True, positive=True)

    # Mapping protocol for the parser
    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and len(key) == 2 and key[0] in self.subs

    def __getitem__(self, key: tuple[str, str]) -> sympy.Expr:
        use, output = key
        sub, mapping, choice_map = self.subs[use]
        if output not in sub.outputs:
            raise EquationError(f"{use} ({sub.name}) has no output {output!r}; outputs: {', '.join(sub.outputs)}")
        out = sub.outputs[output]
        if out.arguments:
            raise EquationError(f"{use}.{output} takes arguments ({', '.join(out.arguments)}); only outputs without arguments compose")
        if out.choice is not None:
            raise EquationError(f"{use}.{output} depends on the choice {out.choice}; compose one without a choice")
        expr = sub.expand(output)
        for dummy in sub.reductions:
            if dummy in mapping:
                self.owner.reductions[mapping[dummy]] = mapping[dummy].name
        unbound = sorted(str(s) for s in expr.free_symbols if s in sub.leaves and s not in mapping)
        if unbound:
            names = sorted({sub.leaf_input[s] for s in expr.free_symbols if s in sub.leaves and s not in mapping})
            raise EquationError(f"{use}.{output} needs {sub.name} input(s) {', '.join(names)} ({', '.join(unbound)}), which uses.{use}.bind does not bind")
        proxy_key = (use, output)
        if proxy_key not in self.proxies:
            name = out.variable.symbol.name
            taken = {v.symbol.name for v in self.owner.leaves.values()} | {str(k) for k in self.taken}
            proxy = sympy.Symbol(name if name not in taken else f"{name}_{use}", real=True)
            self.taken.add(proxy.name)
            self.proxies[proxy_key] = proxy
            self.owner.composed[proxy] = expr.xreplace(mapping)
            self.owner.composed_variables[proxy] = Variable(
                name=f"{use}.{output}", symbol=proxy, unit=out.variable.unit, meaning=out.doc or out.variable.meaning,
                latex=out.variable.latex, role="composed")
            self.units[proxy] = out.variable.unit
        return self.proxies[proxy_key]

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0
