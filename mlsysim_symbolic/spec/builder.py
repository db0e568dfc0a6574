"""Building a scenario type from its declaration, in short steps a reader takes in at one screen.

:class:`TypeBuilder` reads the notes, the inputs (each by its kind), the arguments, the composed
types, the output variables and then every equation: parsed through the whitelisted parser,
dimension-checked from the declared units alone, and refused on a cycle between outputs, all
before any number is used.  Every refusal is a :class:`~mlsysim_symbolic.errors.DerivationError`
naming the file, the line and the type.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import sympy

from ..dimensions import check_equation
from ..errors import DerivationError, DimensionError, EquationError, InputError, UnitError
from ..parse import parse_equation
from ..variables import Variable
from .compose import Composition
from .definitions import STYLES, Branch, OutputSpec
from .kinds import kind_of, read_input
from .reader import OUTPUT_FIELDS, check_fields, check_name, check_type_table, read_reference, read_variable

if TYPE_CHECKING:
    from .types import ScenarioType

Locate = Callable[..., "int | None"]

#: Names a declared input, argument or output may not take: the members every scenario needs.  The accessors
#: (``sensitivity``, ``sweeps``, ``inverse``, ``tex``) and the flat aliases (``solve``, ``latex`` ...) are not
#: reserved: a declared output of the same name takes their place on that type (mlsysim's privacy types have an
#: output called ``sensitivity``), and the analysis stays reachable through its module's functions.
RESERVED = frozenset({
    "type", "planner", "name", "description", "key", "inputs", "outputs", "evaluate", "values", "variant", "keys",
    "expression", "equation", "self", "cls",
})


class TypeBuilder:
    """Fills a new :class:`ScenarioType` from a ``[types.NAME]`` mapping, one step per part."""

    def __init__(self, target: ScenarioType, data: Mapping[str, Any], *, family: str = "", path: str | None = None,
                 locate: Locate | None = None, types: Mapping[str, ScenarioType] | None = None) -> None:
        self.t = target
        self.data = data
        self.family = family
        self.path = path
        self.locate = locate
        self.types = types or {}
        self.names: dict[str, Any] = {}                      # name -> SymPy object, for the parser
        self.owners: dict[str, tuple[str, tuple[str, ...]]] = {}   # NFKC name -> (declaration, where)
        self.out_vars: dict[str, Variable] = {}

    def fail(self, reason: str, *keys: str) -> DerivationError:
        line = self.locate(*keys) if self.locate else None
        return DerivationError(reason, path=self.path, line=line, scenario=self.t.name)

    def build(self) -> ScenarioType:
        check_type_table(self.data, self.fail)
        self.read_notes()
        self.read_inputs()
        self.read_arguments()
        self.uses = Composition(self.t, self.data.get("uses") or {}, self.types, self.fail)
        self.read_output_variables()
        self.read_equations()
        self.t.check_cycles(self.fail)
        self.settle_styles()
        return self.t

    # ------------------------------------------------------------------ names
    def claim(self, key: str, owner: str, where: tuple[str, ...], value: Any, hint: str = "") -> None:
        """Reserve ``key`` (compared after NFKC normalisation, as Python's parser reads the equations) for ``owner``."""
        norm = unicodedata.normalize("NFKC", key)
        if norm in self.owners and self.owners[norm][0] != owner:
            first, first_where = self.owners[norm]
            line = self.locate(*first_where) if self.locate else None
            also = f" (line {line})" if line else ""
            raise self.fail(f"name {key!r} of {owner} is already declared by {first}{also}{hint}", *where)
        self.owners[norm] = (owner, where)
        if value is not None:
            self.names[key] = value
            self.names[norm] = value

    def claim_variable(self, var: Variable, owner: str, where: tuple[str, ...]) -> None:
        for key in dict.fromkeys((var.name, var.symbol.name)):
            hint = ("; two inputs reading one attribute need a 'name' for its symbol"
                    if var.role == "attribute" and key == var.name and key != var.symbol.name else "")
            self.claim(key, owner, where, var.symbol, hint)

    # ------------------------------------------------------------------ steps
    def read_notes(self) -> None:
        d, t = self.data, self.t
        t.family = str(d.get("family", self.family))
        t.summary = str(d.get("summary", ""))
        t.description = str(d.get("description", ""))
        t.equation_note = str(d.get("equation_note", ""))
        t.assumptions = tuple(str(a) for a in d.get("assumptions", ()))
        t.excludes = tuple(str(a) for a in d.get("excludes", ()))
        t.derivation = str(d.get("derivation", ""))
        try:
            t.references = tuple(read_reference(r) for r in d.get("references", ()))
        except InputError as exc:
            raise self.fail(str(exc), "references") from None

    def read_inputs(self) -> None:
        t = self.t
        for in_name, raw in (self.data.get("inputs") or {}).items():
            where = ("inputs", in_name)
            try:
                check_name(in_name, "input", RESERVED)
                spec = read_input(in_name, raw)
            except (InputError, UnitError, EquationError) as exc:
                raise self.fail(f"input {in_name}: {exc}", *where) from None
            t.inputs[in_name] = spec
            index = spec.index if kind_of(spec).keyed else None
            if spec.variable is not None:
                self.claim_variable(spec.variable, f"input {in_name}", where)
                t.add_leaf(spec.variable, in_name, index)
            for var in spec.attributes.values():
                self.claim_variable(var, f"input {in_name}", where)
                t.add_leaf(var, in_name, spec.index)
            if spec.index:
                t.index_inputs.setdefault(spec.index, []).append(in_name)

    def read_arguments(self) -> None:
        t = self.t
        for arg_name, raw in (self.data.get("arguments") or {}).items():
            where = ("arguments", arg_name)
            try:
                check_name(arg_name, "argument", RESERVED)
                var = read_variable(arg_name, raw, role="argument")
            except (InputError, UnitError) as exc:
                raise self.fail(f"argument {arg_name}: {exc}", *where) from None
            source = var.extra.get("default_input")
            if source is not None:   # an omitted argument takes this input's value (mlsysim's f(x=None) -> self.x)
                spec = t.inputs.get(source)
                if spec is None or spec.kind != "quantity" or spec.variable is None:
                    raise self.fail(f"argument {arg_name}: default_input {source!r} is not a quantity input", *where)
                if spec.variable.unit.dimensionality != var.unit.dimensionality:
                    raise self.fail(f"argument {arg_name}: default_input {source} is in {spec.variable.unit_text} but the "
                                    f"argument is in {var.unit_text}: they disagree in dimension", *where)
            t.arguments[arg_name] = var
            self.claim_variable(var, f"argument {arg_name}", where)
            t.add_leaf(var, arg_name, None)

    def read_output_variables(self) -> None:
        for use in self.uses.names:
            self.claim(use, f"uses.{use}", ("uses", use), None)
        raw_outputs = self.data.get("outputs") or {}
        if not raw_outputs:
            raise self.fail("declares no outputs", "outputs")
        for out_name, raw in raw_outputs.items():
            where = ("outputs", out_name)
            if not isinstance(raw, Mapping):
                raise self.fail(f"output {out_name} must be a table", *where)
            try:
                check_name(out_name, "output", RESERVED)
                check_fields(raw, OUTPUT_FIELDS, f"output {out_name}")
                fields = {k: raw[k] for k in ("symbol", "unit", "latex", "integer") if k in raw}
                var = read_variable(out_name, fields | {"meaning": raw.get("doc", "")}, role="output", domain="(-inf, inf)")
            except (InputError, UnitError) as exc:
                raise self.fail(f"output {out_name}: {exc}", *where) from None
            if "unit" not in raw:
                raise self.fail(f"output {out_name} declares no unit", *where)
            self.out_vars[out_name] = var
            self.claim_variable(var, f"output {out_name}", where)
            self.t.output_symbols[var.symbol] = out_name
        for index in self.t.index_inputs:
            if index not in self.names:
                self.names[index] = sympy.Symbol(index, integer=True, positive=True)

    def reduce(self, kind: str, inner: Any, index: str) -> Any:
        """A ``sum``/``prod`` (or ``*_upto``) node over the keys of ``index``."""
        t = self.t
        if index not in t.index_inputs:
            raise EquationError(f"{kind}(..., {index}): {index!r} is not an index; indices: {', '.join(t.index_inputs) or 'none'}")
        dummy = sympy.Symbol(index, integer=True, positive=True)
        t.reductions[dummy] = index
        node = sympy.Sum if kind.startswith("sum") else sympy.Product
        if kind.endswith("_upto"):
            # over the keys up to and including this one, in the keyed input's order: an output keyed by `index`
            # whose upper limit n_index (the key's position, 1 for the first) is a keyed leaf
            return node(inner, (dummy, 1, t.position(index).symbol))
        return node(inner, (dummy, 1, sympy.Symbol(f"N_{index}", integer=True, positive=True)))

    def equation_items(self, out_name: str, raw: Mapping[str, Any]) -> list[tuple[str | None, str]]:
        """The (choice value, text) forms of an output's equation, checked against its ``choice``."""
        where = ("outputs", out_name)
        equation, choice = raw.get("equation"), raw.get("choice")
        if choice is not None and not isinstance(choice, str):
            raise self.fail(f"output {out_name}: choice must be the name of a choice input, got {choice!r}", *where)
        if isinstance(equation, str):
            items: list[tuple[str | None, str]] = [(None, equation)]
        elif isinstance(equation, list) and equation and all(isinstance(e, str) for e in equation):
            items = [(None, e) for e in equation]
        elif isinstance(equation, Mapping) and equation and choice:
            items = [(str(k), v) for k, v in equation.items()]
        else:
            raise self.fail(f"output {out_name}: equation must be text, a list of alternatives, or a table by the value of 'choice'", *where)
        if choice is not None:
            options = self.choice_options(choice)
            if not options:
                raise self.fail(f"output {out_name}: choice {choice!r} is not a choice input or argument", *where)
            missing = [o for o in options if o not in dict(items)]
            if missing:
                raise self.fail(f"output {out_name}: no equation for {choice} = {', '.join(missing)}", *where)
        return items

    def choice_options(self, choice: str) -> tuple[str, ...]:
        spec = self.t.inputs.get(choice)
        if spec is not None and spec.kind == "choice":
            return spec.options
        if choice in self.t.arguments:
            return tuple(self.t.arguments[choice].extra.get("options", ()))
        return ()

    def read_equations(self) -> None:
        t = self.t
        units = {sym: var.unit for sym, var in t.leaves.items()}
        units.update({var.symbol: var.unit for var in self.out_vars.values()})
        self.uses.units = units
        self.uses.taken = set(self.names)
        for out_name, raw in (self.data.get("outputs") or {}).items():
            var = self.out_vars[out_name]
            branches = tuple(self.branch(out_name, var, when, text, units) for when, text in self.equation_items(out_name, raw))
            style = str(raw.get("style", ""))
            if style and style not in STYLES:
                raise self.fail(f"output {out_name}: style must be one of {', '.join(STYLES)}", "outputs", out_name)
            t.outputs[out_name] = OutputSpec(name=out_name, variable=var, branches=branches, doc=str(raw.get("doc", "")),
                                             style=style, choice=raw.get("choice"))

    def branch(self, out_name: str, var: Variable, when: str | None, text: Any, units: Mapping[Any, Any]) -> Branch:
        where = ("outputs", out_name)
        if not isinstance(text, str):
            raise self.fail(f"output {out_name}: equation must be text", *where)
        try:
            expr = parse_equation(text, self.names, reduce=self.reduce, attributes=self.uses)
        except EquationError as exc:
            raise self.fail(f"output {out_name}: {exc} in {text!r}", *where) from None
        try:
            check_equation(expr, var.unit, units, output=out_name)
        except DimensionError as exc:
            raise self.fail(f"output {out_name}: {exc}", *where) from None
        return Branch(expr=expr, text=text, when=when)

    def settle_styles(self) -> None:
        """Each output's keys (indices), free arguments and style (property, method or dict)."""
        t = self.t
        keyed_memo: dict[str, bool] = {}
        for out_name, out in list(t.outputs.items()):
            leaves = t.leaf_symbols(out_name) if t.may_be_keyed(out_name, keyed_memo) else set()
            every_leaf, choices_used = t.closure(out_name)
            args = tuple(a for a, v in t.arguments.items() if v.symbol in every_leaf or a in choices_used)
            indices = tuple(dict.fromkeys(t.leaf_index[s] for s in leaves if s in t.leaf_index))
            style = out.style or ("method" if (indices or args) else "property")
            if style == "property" and (indices or args):
                raise self.fail(f"output {out_name}: depends on {', '.join([*indices, *args])}, so it cannot be a property",
                                "outputs", out_name)
            key_params = tuple("name" if t.inputs[t.index_inputs[i][0]].kind == "workloads" else i for i in indices)
            t.outputs[out_name] = OutputSpec(
                name=out.name, variable=out.variable, branches=out.branches, doc=out.doc,
                style=style, choice=out.choice, arguments=args, indices=indices, key_params=key_params)
