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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import sympy

from ..dimensions import check_condition, check_equation, unit_of
from ..errors import DerivationError, DimensionError, EquationError, InputError, UnitError
from ..parse import parse_equation
from ..reductions import (
    CAPACITY,
    NODES,
    ArgMax,
    ArgMin,
    Earliest,
    FirstFitDecreasing,
    Maximum,
    Minimum,
    RelatedMaximum,
    RelatedMinimum,
    RelatedSum,
)
from ..units import parse_unit, point_unit
from ..variables import Variable
from .compose import Composition
from .definitions import LABEL_RULES, STYLES, Branch, OutputSpec, ResultSpec
from .keyed_scenarios import declaration_error as some_keys_declaration_error
from .kinds import (
    ChoiceKind,
    ListKind,
    MapKind,
    QuantityKind,
    ScenarioKind,
    ScenariosKind,
    WorkloadsKind,
    kind_of,
    read_input,
)
from .outputs import OutputKind, output_kind
from .reader import (
    OUTPUT_FIELDS,
    RESULT_FIELDS,
    check_fields,
    check_name,
    check_type_table,
    read_reference,
    read_table,
    read_variable,
)
from .result_sources import Declared, OutputSource, source_of
from .stated import declaration_error as stated_declaration_error
from .surface import ACCESSORS, RESERVED, result_clash

if TYPE_CHECKING:
    from .types import ScenarioType

Locate = Callable[..., "int | None"]


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
        self.own_upto: list[tuple[str, str]] = []   # (list input, output of this type its upto names): checked last
        self.names: dict[str, Any] = {}                      # name -> SymPy object, for the parser
        self.owners: dict[str, tuple[str, tuple[str, ...]]] = {}   # NFKC name -> (declaration, where)
        self.out_vars: dict[str, Variable] = {}
        self.out_kinds: dict[str, OutputKind] = {}

    def fail(self, reason: str, *keys: str) -> DerivationError:
        line = self.locate(*keys) if self.locate else None
        return DerivationError(reason, path=self.path, line=line, scenario=self.t.name)

    def build(self) -> ScenarioType:
        check_type_table(self.data, self.fail)
        self.read_notes()
        self.read_inputs()
        self.read_arguments()
        raw_outputs = self.data.get("outputs")
        self.uses = Composition(self.t, self.data.get("uses") or {}, self.types, self.fail,
                                parse=lambda text: parse_equation(text, self.names),
                                outputs=frozenset(raw_outputs) if isinstance(raw_outputs, Mapping) else frozenset())
        self.read_output_variables()
        self.read_equations()
        self.t.check_cycles(self.fail)
        self.settle_styles()
        self.read_members()
        self.read_result()
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
            if isinstance(kind_of(spec), (ScenarioKind, ScenariosKind)):   # a scenario, or a table of them
                spec = self.scenario_input(in_name, spec)
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
            for _, var, derived_index in spec.derived:   # a rows input's row and column numbers (spec/rows.py)
                self.claim_variable(var, f"input {in_name}", where)
                t.add_leaf(var, in_name, derived_index)
                if derived_index != spec.index:
                    t.index_inputs.setdefault(derived_index, []).append(in_name)
        for in_name, spec in t.inputs.items():
            if spec.mirrors is not None:
                self.check_mirror(in_name, spec)
            problem = (stated_declaration_error(t.inputs, in_name, lambda s: kind_of(s).holds_values)   # spec/stated.py
                       or some_keys_declaration_error(t.inputs, in_name))   # some_keys (spec/keyed_scenarios.py)
            if problem:
                raise self.fail(f"input {in_name}: {problem}", "inputs", in_name)
            gate = t.inputs.get(spec.only_with) if spec.only_with else None
            if spec.only_with and (gate is None or gate.only_with or spec.only_with == in_name):
                raise self.fail(f"input {in_name}: only_with {spec.only_with!r} must name another input of the type "
                                "that is not itself read only with a third", "inputs", in_name)
            if spec.upto is not None:
                head, _, tail = spec.upto.partition(".")
                target = t.inputs.get(head)
                if target is None and not tail and head != in_name and head in (self.data.get("outputs") or {}):
                    self.own_upto.append((in_name, head))   # an output of this type: checked once the outputs are read
                    continue
                kind = kind_of(target) if target is not None else None
                whole = type(kind) is QuantityKind and target.variable is not None and target.variable.integer
                if head == in_name or not (whole and not tail or isinstance(kind, ScenarioKind) and tail):
                    raise self.fail(f"input {in_name}: upto {spec.upto!r} must name a whole-number (integer) quantity input "
                                    "of the type, or a scenario input's output (\"trajectory.horizon\")", "inputs", in_name)

    def check_mirror(self, in_name: str, spec: Any) -> None:
        """A mirror (``mirrors = "x"``) repeats keyed input x, declared before it, under an index of its own: same kind,
        unit and keys (``positions``, ``start``, ``upto``), so the one value given binds both."""
        t = self.t
        names = list(t.inputs)
        target = t.inputs.get(spec.mirrors)
        if target is not None and target.variable is not None and (
                target.variable.unit.dimensionality != spec.variable.unit.dimensionality):
            raise self.fail(f"input {in_name}: mirrors {spec.mirrors}, but {spec.variable.unit_text} and "
                            f"{target.variable.unit_text} disagree in dimension", "inputs", in_name)
        same = (target is not None and names.index(spec.mirrors) < names.index(in_name) and target.mirrors is None
                and kind_of(target) is kind_of(spec) and isinstance(kind_of(target), (MapKind, ListKind))
                and target.variable.unit_text == spec.variable.unit_text and target.variable.integer == spec.variable.integer
                and (target.positions, target.start, target.upto) == (spec.positions, spec.start, spec.upto)
                and (target.type_name, target.output, target.some_keys) == (spec.type_name, spec.output, spec.some_keys))
        if not same:
            raise self.fail(f"input {in_name}: mirrors {spec.mirrors!r} must name a map or list input declared before it "
                            "(not itself a mirror) of the same kind, unit, integer flag, positions, start, upto (and type, output "
                            "and some_keys)",
                            "inputs", in_name)
        if spec.index == target.index:
            raise self.fail(f"input {in_name}: a mirror needs an index of its own (not {spec.index!r}, the index of "
                            f"{spec.mirrors})", "inputs", in_name)

    def scenario_input(self, in_name: str, spec: Any) -> Any:
        """A scenario input's type (built before this one) and its links to our choice inputs, checked."""
        where = ("inputs", in_name)
        own = spec.type_name == self.t.name   # another scenario of this very type (trade_ratio(other)): its earlier outputs
        if own and not spec.argument:
            raise self.fail(f"input {in_name}: a scenario of this type ({self.t.name}) can only be an argument "
                            "(argument = true: given to each call of the outputs that use it)", *where)
        sub = self.t if own else self.types.get(spec.type_name)
        if own and spec.links:
            raise self.fail(f"input {in_name}: a scenario of this type takes no links", *where)
        if sub is None:
            raise self.fail(f"input {in_name}: unknown scenario type {spec.type_name!r}", *where)
        for argument, choice in spec.links.items():
            options = sub.arguments[argument].options if argument in sub.arguments else ()
            if not options:
                raise self.fail(f"input {in_name}: {spec.type_name} has no choice argument {argument!r} to link", *where)
            ours = self.t.inputs.get(choice)
            if ours is None or not isinstance(kind_of(ours), ChoiceKind) or set(options) - set(ours.options):
                raise self.fail(f"input {in_name}: link {argument} -> {choice!r} needs a choice input declared before it "
                                f"with the options {', '.join(options)}", *where)
        return replace(spec, sub_type=sub)

    def read_arguments(self) -> None:
        t = self.t
        for arg_name, raw in (self.data.get("arguments") or {}).items():
            where = ("arguments", arg_name)
            try:
                check_name(arg_name, "argument", RESERVED)
                var = read_variable(arg_name, raw, role="argument")
            except (InputError, UnitError) as exc:
                raise self.fail(f"argument {arg_name}: {exc}", *where) from None
            source = var.default_input
            if source is not None:   # an omitted argument takes this input's value (mlsysim's f(x=None) -> self.x)
                spec = t.inputs.get(source)
                if spec is None or type(kind_of(spec)) is not QuantityKind or spec.variable is None:
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
                kind = output_kind(str(raw.get("kind", "quantity")))
            except InputError as exc:
                raise self.fail(f"output {out_name}: {exc}", *where) from None
            try:
                check_name(out_name, "output", RESERVED - self.shadowed(out_name, raw))
                check_fields(raw, OUTPUT_FIELDS, f"output {out_name}")
                fields = {k: raw[k] for k in ("symbol", "unit", "counted", "latex", "integer") if k in raw}
                if not kind.has_unit and "latex" not in raw:   # an answer is named upright: \mathrm{fits}
                    fields["latex"] = r"\mathrm{" + out_name.replace("_", r"\ ") + "}"   # meets_target: \mathrm{meets\ target}
                var = read_variable(out_name, fields | {"meaning": raw.get("doc", "")}, role="output", domain="(-inf, inf)")
            except (InputError, UnitError) as exc:
                raise self.fail(f"output {out_name}: {exc}", *where) from None
            if kind.has_unit and "unit" not in raw:
                raise self.fail(f"output {out_name} declares no unit", *where)
            if not kind.has_unit and "unit" in raw:
                raise self.fail(f"output {out_name}: a {kind} has no unit (it is a {kind.shape})", *where)
            self.out_kinds[out_name] = kind
            self.out_vars[out_name] = var
            self.claim_variable(var, f"output {out_name}", where)
            self.t.output_symbols[var.symbol] = out_name
        for index in self.t.index_inputs:
            if index not in self.names:
                self.names[index] = sympy.Symbol(index, integer=True, positive=True)

    def shadowed(self, out_name: str, raw: Mapping[str, Any]) -> frozenset[str]:
        """The accessor an output declares it takes the name of (``shadows_accessor = true``: mlsysim's class has a
        member of that name), else nothing; the flag on any other output is refused."""
        flag = raw.get("shadows_accessor")
        if flag is None or flag is False:
            return frozenset()
        namespaces = [n for n, method in ACCESSORS.items() if method is None and n != "ref"]
        if flag is not True or out_name not in namespaces:
            raise InputError(f"shadows_accessor = true is only for an output named as a namespace accessor "
                             f"({', '.join(namespaces)})")
        return frozenset({out_name})

    def reduce(self, kind: str, inner: Any, index: str) -> Any:
        """A ``sum``/``prod`` (or ``*_upto``), ``maximum``/``minimum`` or ``argmax``/``argmin`` node over the keys of
        ``index``."""
        t = self.t
        # reductions with a builder of their own: first-fit placement over an index, a relation's forward pass
        special = {"first_fit_decreasing": self.first_fit, "earliest": self.earliest}.get(kind)
        if special is not None:
            return special(inner, index)
        related = self.relation_named(index)
        if related is not None:
            return self.related(kind, inner, index, related)
        if index not in t.index_inputs:
            raise EquationError(f"{kind}(..., {index}): {index!r} is not an index; indices: {', '.join(t.index_inputs) or 'none'}")
        dummy = sympy.Symbol(index, integer=True, positive=True)
        position = sympy.Symbol(f"n_{index}", integer=True, positive=True)
        if position in t.positions and inner.has(position):
            # sum(sum_upto(1, k), k) left the outer sum out (the output came out keyed by k, 1, 2, 3 for 1 + 2 + 3):
            # a wrong number, so a *_upto reduction inside another over its index is refused
            raise EquationError(f"{kind}(..., {index}) contains a *_upto reduction over {index!r}; reduce over its "
                                f"keys through an output keyed by {index!r} instead")
        t.reductions[dummy] = index
        node = {"sum": sympy.Sum, "prod": sympy.Product, "maximum": Maximum, "minimum": Minimum,
                "argmax": ArgMax, "argmin": ArgMin}[kind.removesuffix("_upto")]
        if kind.endswith("_upto"):
            # over the keys up to and including this one, in the keyed input's order: an output keyed by `index`
            # whose upper limit n_index (the key's position, 1 for the first) is a keyed leaf
            return node(inner, (dummy, 1, t.position(index).symbol))
        return node(inner, (dummy, 1, sympy.Symbol(f"N_{index}", integer=True, positive=True)))

    def relation_named(self, name: str) -> Any:
        """The relation input a reduction names (by its own name, or by its declared ``inverse``), else None."""
        for spec in self.t.inputs.values():
            if spec.relates is not None and name in (spec.name, spec.inverse):
                return spec
        return None

    def relation_indices(self, spec: Any) -> set[str]:
        """The indices a relation's reductions may read: the keys it relates, and any index mirroring them."""
        t = self.t
        return {spec.relates} | {s.index for s in t.inputs.values()
                                 if s.mirrors and s.mirrors in t.inputs and t.inputs[s.mirrors].index == spec.relates}

    def related(self, kind: str, inner: Any, name: str, spec: Any) -> Any:
        """``sum``/``maximum``/``minimum(expr, relation)``: over the keys a relation lists for each key (or, named by
        its ``inverse``, the keys listing it), keyed by the relation's index; the body is taken at each related key
        through a mirror of that index where it reads one (the relation's own index then stays at the key itself),
        else through that index.  Written out by the plan."""
        t = self.t
        node = {"sum": RelatedSum, "maximum": RelatedMaximum, "minimum": RelatedMinimum}.get(kind)
        if node is None:
            raise EquationError(f"{kind}(..., {name}): over a relation only sum, maximum and minimum are declared")
        if inner.has(*NODES):
            raise EquationError(f"{kind}(..., {name}): the body may not hold another reduction; got {inner}")
        dummy = sympy.Symbol(spec.relates, integer=True, positive=True)
        t.reductions[dummy] = spec.relates
        return node(inner, (dummy, 1, t.position(spec.relates).symbol), (sympy.Symbol(f"R_{name}"), 0, 0))

    def earliest(self, inner: Any, relation: str) -> Any:
        """``earliest(w, relation)``: keyed by the index ``relation`` relates, whose keyed leaves ``w`` reads (that
        index, or one mirroring its keys), through that index's position leaf; written out by the plan."""
        t = self.t
        spec = t.inputs.get(relation)
        if spec is None or spec.relates is None:
            relations = [n for n, s in t.inputs.items() if s.relates is not None]
            raise EquationError(f"earliest(w, {relation}): {relation!r} is not a relation input; relations: "
                                f"{', '.join(relations) or 'none'}")
        indices = {t.leaf_index[s] for s in inner.free_symbols if s in t.leaf_index and s not in t.positions}
        if inner.has(*NODES) or len(indices) != 1 or not indices <= self.relation_indices(spec):
            raise EquationError(f"earliest(w, {relation}): w must be a term of inputs keyed by one index, the keys "
                                f"{relation} relates or a mirror of them ({', '.join(sorted(self.relation_indices(spec)))}), "
                                f"without a reduction inside; got {inner}")
        (index,) = indices
        dummy = sympy.Symbol(index, integer=True, positive=True)
        t.reductions[dummy] = index
        return Earliest(inner, (dummy, 1, t.position(index).symbol), (sympy.Symbol(f"R_{relation}"), 0, 0))

    def first_fit(self, sizes_and_capacity: Any, index: str) -> Any:
        """``first_fit_decreasing(w, C, k)``: keyed by ``k`` through its position leaf (bin b at the key in position
        b), ``w`` a term of inputs keyed by ``k`` alone without a reduction inside, ``C`` a term without keyed leaves;
        written out by the plan as one first-fit load per bin."""
        t = self.t
        sizes, capacity = sizes_and_capacity.args
        if index not in t.index_inputs:
            raise EquationError(f"first_fit_decreasing(w, C, {index}): {index!r} is not an index; indices: "
                                f"{', '.join(t.index_inputs) or 'none'}")
        indices = {t.leaf_index[s] for s in sizes.free_symbols if s in t.leaf_index and s not in t.positions}
        if sizes.has(*NODES) or indices != {index} or sizes.has(*t.positions):
            raise EquationError(f"first_fit_decreasing(w, C, {index}): w must be a term of inputs keyed by {index!r} "
                                f"alone, without a reduction inside; got {sizes}")
        if capacity.has(*NODES) or any(s in t.leaf_index for s in capacity.free_symbols):
            raise EquationError(f"first_fit_decreasing(w, C, {index}): the capacity C must be a term of inputs without "
                                f"keys; got {capacity}")
        dummy = sympy.Symbol(index, integer=True, positive=True)
        t.reductions[dummy] = index
        return FirstFitDecreasing(sizes, (dummy, 1, t.position(index).symbol), (CAPACITY, 0, capacity))

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
        if spec is not None and isinstance(kind_of(spec), ChoiceKind):
            return spec.options
        if choice in self.t.arguments:
            return self.t.arguments[choice].options
        return ()

    def read_equations(self) -> None:
        t = self.t
        units = {sym: var.unit for sym, var in t.leaves.items()}
        units.update({var.symbol: var.unit for var in self.out_vars.values()})
        self.uses.units = units
        self.uses.taken = set(self.names)
        self.uses.bind_outputs(self.out_vars, self.out_kinds)   # a used input bound to an output of ours
        for out_name, raw in (self.data.get("outputs") or {}).items():
            var = self.out_vars[out_name]
            kind = self.out_kinds[out_name]
            branches, cases = kind.read(self, out_name, raw, var, units)
            style = str(raw.get("style", ""))
            if style and style not in STYLES:
                raise self.fail(f"output {out_name}: style must be one of {', '.join(STYLES)}", "outputs", out_name)
            t.outputs[out_name] = OutputSpec(name=out_name, variable=var, branches=branches, doc=str(raw.get("doc", "")),
                                             shadows=raw.get("shadows_accessor") is True, keep=str(raw.get("keep", "")),
                                             refused_unless=str(raw.get("refused_unless", "")),
                                             style=style, choice=raw.get("choice"), kind=kind, cases=cases,
                                             rule=kind.declared(raw, "rule"), over=kind.declared(raw, "over"))
        self.refuse_uses_of_conditions()
        self.uses.check_output_binds(t)

    def parse(self, out_name: str, text: Any, *, condition: bool = False) -> sympy.Expr:
        if not isinstance(text, str):
            raise self.fail(f"output {out_name}: equation must be text", "outputs", out_name)
        try:
            return parse_equation(text, self.names, reduce=self.reduce, attributes=self.uses, condition=condition)
        except EquationError as exc:
            raise self.fail(f"output {out_name}: {exc} in {text!r}", "outputs", out_name) from None

    def predicate(self, out_name: str, raw: Mapping[str, Any], units: Mapping[Any, Any]) -> tuple[Branch, ...]:
        """A yes/no output: a comparison whose two sides share a dimension (``fits = "total <= capacity"``), or a
        list of them, the first whose inputs are set ("1 < 0" as the last: false when no device is given)."""
        if "cases" in raw or "choice" in raw:
            raise self.fail(f"output {out_name}: a predicate is a comparison ('equation'), without cases or choice", "outputs", out_name)
        texts = raw.get("equation")
        texts = texts if isinstance(texts, list) and texts else [texts]
        branches = []
        for text in texts:
            expr = self.parse(out_name, text, condition=True)
            try:
                check_condition(expr, units, output=out_name)
            except DimensionError as exc:
                raise self.fail(f"output {out_name}: {exc}", "outputs", out_name) from None
            branches.append(Branch(expr=expr, text=text))
        return tuple(branches)

    def label(self, out_name: str, raw: Mapping[str, Any], units: Mapping[Any, Any]) -> tuple[Branch, tuple[tuple[str, sympy.Expr], ...]]:
        """The name of the largest (``argmax``) or smallest (``argmin``) of named terms of one dimension; a tie
        goes to the case declared first."""
        where = ("outputs", out_name)
        table, rule = raw.get("cases"), str(raw.get("rule", "argmax"))
        if "equation" in raw or not isinstance(table, Mapping) or len(table) < 2:
            raise self.fail(f"output {out_name}: a label declares 'cases', a table of at least two names -> terms", *where)
        if rule not in LABEL_RULES:
            raise self.fail(f"output {out_name}: rule must be one of {', '.join(LABEL_RULES)}, got {rule!r}", *where)
        cases = tuple((str(label), self.parse(out_name, text)) for label, text in table.items())
        try:
            first = unit_of(cases[0][1], units)
            for label, term in cases[1:]:
                check_equation(term, first, units, output=f"{out_name} ({label})")
        except DimensionError as exc:
            raise self.fail(f"output {out_name}: the cases must share one dimension: {exc}", *where) from None
        wins = sympy.Ge if rule == "argmax" else sympy.Le          # ties go to the earlier case
        strictly = sympy.Gt if rule == "argmax" else sympy.Lt
        pieces = []
        for i, (_, term) in enumerate(cases[:-1]):
            others = [strictly(term, o) if j < i else wins(term, o) for j, (_, o) in enumerate(cases) if j != i]
            pieces.append((sympy.Integer(i), sympy.And(*others)))
        expr = sympy.Piecewise(*pieces, (sympy.Integer(len(cases) - 1), True))
        text = f"{rule}(" + ", ".join(f"{label}: {table[label]}" for label, _ in cases) + ")"
        return Branch(expr=expr, text=text), cases

    def keyed_label(self, out_name: str, raw: Mapping[str, Any], units: Mapping[Any, Any]) -> Branch:
        """The key of an index whose term is largest (``argmax``) or smallest (``argmin``): mlsysim's
        ``min(intensity, key=intensity.get)``; a tie goes to the earlier key."""
        where = ("outputs", out_name)
        index, text, rule = raw.get("over"), raw.get("term"), str(raw.get("rule", "argmax"))
        if "cases" in raw or "equation" in raw or not isinstance(text, str):
            raise self.fail(f"output {out_name}: a label over keys declares 'over' (an index) and 'term' (an equation of "
                            "its keyed inputs), without 'cases' or 'equation'", *where)
        if rule not in LABEL_RULES:
            raise self.fail(f"output {out_name}: rule must be one of {', '.join(LABEL_RULES)}, got {rule!r}", *where)
        if index not in self.t.index_inputs:
            raise self.fail(f"output {out_name}: over = {index!r} is not an index; indices: "
                            f"{', '.join(self.t.index_inputs) or 'none'}", *where)
        term = self.parse(out_name, text)
        expr = self.reduce(rule, term, str(index))
        try:
            unit_of(expr, units)
        except DimensionError as exc:
            raise self.fail(f"output {out_name}: {exc}", *where) from None
        return Branch(expr=expr, text=f"{rule}({text}, {index})")

    def refuse_uses_of_conditions(self) -> None:
        """A predicate or label output is an answer, not a number: no equation may compute with it."""
        special = {self.out_vars[n].symbol: n for n, k in self.out_kinds.items() if not k.numeric}
        for out in self.t.outputs.values():
            for branch in out.branches:
                used = [special[s] for s in branch.expr.free_symbols if s in special]
                if used:
                    raise self.fail(f"output {out.name}: uses the {self.out_kinds[used[0]]} {used[0]}, which has no numeric value",
                                    "outputs", out.name)

    def branch(self, out_name: str, var: Variable, when: str | None, text: Any, units: Mapping[Any, Any]) -> Branch:
        where = ("outputs", out_name)
        expr = self.parse(out_name, text)
        try:
            check_equation(expr, var.unit, units, output=out_name)
        except DimensionError as exc:
            raise self.fail(f"output {out_name}: {exc}", *where) from None
        return Branch(expr=expr, text=text, when=when)

    def read_members(self) -> None:
        """Tuples of outputs under one name (mlsysim's ``detection_window`` -> ``(earliest, latest)``): each part an
        output of this type, or a member declared before (a tuple of tuples, mlsysim's list of states), all taking the
        same arguments and keys, so the member is called as they are."""
        t = self.t
        for name, raw in (self.data.get("members") or {}).items():
            where = ("members", name)
            try:
                check_name(name, "member", RESERVED)
                check_fields(read_table(raw, f"member {name}"), frozenset({"parts", "doc"}), f"member {name}")
            except InputError as exc:
                raise self.fail(str(exc), *where) from None
            if name in t.outputs or name in t.inputs or name in t.arguments:
                raise self.fail(f"member {name}: the name is already an output, input or argument", *where)
            parts = raw.get("parts")
            if not isinstance(parts, list) or len(parts) < 2 or not all(
                    isinstance(p, str) and (p in t.outputs or p in t.members) for p in parts):
                raise self.fail(f"member {name}: 'parts' must list two or more outputs of this type (or members declared "
                                f"before it, for a tuple of tuples); outputs: {', '.join(t.outputs)}", *where)
            leaves = [o for p in parts for o in (t.member_outputs(p) if p in t.members else (p,))]
            shapes = {(t.outputs[p].style, t.outputs[p].arguments, t.outputs[p].key_params, t.outputs[p].peers) for p in leaves}
            if len(shapes) != 1:
                raise self.fail(f"member {name}: its parts must be called alike (the same style, arguments and keys)", *where)
            t.members[name] = (tuple(parts), str(raw.get("doc", "")))

    def read_result(self) -> None:
        """The result view: each field shows a same-named output (without keys' arguments), an output named in
        ``from``, or else echoes a same-named input (mlsysim's results repeat some inputs)."""
        raw = self.data.get("result")
        if raw is None:
            return
        self.t.result = self.result_spec(raw, ("result",))

    def result_spec(self, raw: Any, where: tuple[str, ...]) -> ResultSpec:
        """One result view (``result``, or a nested one under ``result.views.FIELD``): its fields and their sources."""
        t = self.t
        try:
            check_fields(read_table(raw, ".".join(where)), RESULT_FIELDS, ".".join(where))
        except InputError as exc:
            raise self.fail(str(exc), *where) from None
        names, renames = raw.get("fields"), raw.get("from") or {}
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or not isinstance(renames, Mapping):
            raise self.fail("result: 'fields' must be a list of names and 'from' a table of field -> output, input "
                            "or input.field (a field of a registry input)", *where)
        hidden = [(n, result_clash(n)) for n in names if where == ("result",) and result_clash(n)]
        if hidden:
            raise self.fail(f"result field {hidden[0][0]!r} would be hidden by {hidden[0][1]}; rename the field", *where)
        tables = raw.get("tables") or {}
        if not isinstance(tables, Mapping) or not all(isinstance(v, Mapping) for v in tables.values()) or set(tables) - set(names):
            raise self.fail("result.tables must be a table of result fields -> a table of key -> output or input", *where)
        for field, table in tables.items():
            for key, source in table.items():
                out = t.outputs.get(str(source))
                if not (str(source) in t.inputs or (out is not None and not out.arguments)):
                    raise self.fail(f"result.tables.{field}.{key}: {source!r} is neither an input nor an output "
                                    "without arguments", *where)
        views = raw.get("views") or {}
        if not isinstance(views, Mapping) or set(views) - set(names):
            raise self.fail("result.views must be a table of result fields -> a nested result view", *where)
        nested = tuple((field, self.result_spec(view, (*where, "views", field))) for field, view in views.items())
        variants = self.result_variants(raw.get("variants") or {}, names, where)
        row_views = self.result_row_views(raw.get("row_views") or {}, names, views, where)
        row_keys = self.result_row_keys(raw.get("row_keys") or {}, row_views, where)
        fields = []
        declared = Declared(views, tables, self.uses.replaced, dict(variants), dict(row_views))
        for field in names:
            source = str(renames.get(field, field))
            found = source_of(t, field, source, declared)   # a view, a table, a member, an output ... (spec/result_sources.py)
            if found is not None:
                fields.append((field, found, found.named(field, source)))
            else:
                raise self.fail(f"result field {field!r} is neither an output without arguments, an input, a field of a "
                                f"registry input (input.field) nor a used type with a result view; name its source in result.from",
                                *where)
        unknown = sorted(set(renames) - set(names))
        if unknown:
            raise self.fail(f"result.from names fields that are not in result.fields: {', '.join(unknown)}", *where)
        plain = raw.get("plain") or {}
        if not isinstance(plain, Mapping) or set(plain) - set(names):
            raise self.fail("result.plain must be a table of result fields -> the unit mlsysim states them in", *where)
        try:
            for unit in plain.values():
                parse_unit(str(unit))
        except UnitError as exc:
            raise self.fail(f"result.plain: {exc}", *where) from None
        points = raw.get("points") or {}
        if not isinstance(points, Mapping) or set(points) - set(names) or set(points) & set(plain):
            raise self.fail("result.points must be a table of result fields (not in result.plain) -> the offset unit "
                            "mlsysim states the temperature in ('degC')", *where)
        for field, unit in points.items():
            out = t.outputs.get(dict((f, n) for f, _, n in fields)[field])
            try:
                offset = point_unit(str(unit))
            except UnitError as exc:
                raise self.fail(f"result.points.{field}: {exc}", *where) from None
            if out is None or out.arguments or out.variable.unit.dimensionality != offset.dimensionality:
                raise self.fail(f"result.points.{field}: not an output without arguments of the dimension of {unit}", *where)
        unset = raw.get("unset_when") or {}
        if not isinstance(unset, Mapping) or set(unset) - set(names):
            raise self.fail("result.unset_when must be a table of result fields -> a predicate output", *where)
        for field, predicate in unset.items():
            out = t.outputs.get(str(predicate))
            if out is None or not out.kind.condition or out.arguments:
                raise self.fail(f"result.unset_when.{field}: {predicate!r} is not a predicate output without arguments", *where)
        infinite = raw.get("infinite_when") or {}
        if not isinstance(infinite, Mapping) or set(infinite) - set(names) or set(infinite) & set(unset):
            raise self.fail("result.infinite_when must be a table of result fields (not in result.unset_when) -> a "
                            "predicate output", *where)
        shown_by = {f: (s, n) for f, s, n in fields}
        for field, predicate in infinite.items():
            out = t.outputs.get(str(predicate))
            if out is None or not out.kind.condition or out.arguments:
                raise self.fail(f"result.infinite_when.{field}: {predicate!r} is not a predicate output without arguments",
                                *where)
            source, name = shown_by[field]
            shown = t.outputs.get(name)
            if not isinstance(source, OutputSource) or shown is None or shown.arguments or shown.indices or not shown.kind.numeric \
                    or not shown.refused_unless:
                raise self.fail(f"result.infinite_when.{field}: not a field showing a number output without arguments or "
                                "keys that declares refused_unless (it must have no value of its own where the field is "
                                "infinite)", *where)
        counts = raw.get("counts") or []
        if not isinstance(counts, list) or not set(map(str, counts)) <= set(names):
            raise self.fail("result.counts must be a list of result fields (mlsysim's Quantities of its count)", *where)
        lists = raw.get("lists") or []
        if not isinstance(lists, list) or not set(map(str, lists)) <= set(names):
            raise self.fail("result.lists must be a list of result fields (keyed outputs mlsysim returns as a list)", *where)
        shows = {f: n for f, _, n in fields}
        for field in map(str, lists):   # a keyed output, or a member of keyed parts (a list of tuples)
            out = t.outputs.get(t.member_outputs(shows[field])[0] if shows[field] in t.members else shows[field])
            if out is None or not out.indices:
                raise self.fail(f"result.lists.{field}: not a keyed output (or member of keyed outputs) without arguments",
                                *where)
        quantities = raw.get("quantities") or []
        if not isinstance(quantities, list) or not all(t.outputs.get(shows.get(str(f), "")) is not None for f in quantities):
            raise self.fail("result.quantities must be a list of result fields that show outputs (mlsysim's Quantities "
                            "of a counted unit, such as its token)", *where)
        tuples = raw.get("tuples") or {}
        if not isinstance(tuples, Mapping) or set(tuples) - set(names) or set(tuples) & set(map(str, lists)):
            raise self.fail("result.tuples must be a table of result fields (not in result.lists) -> the index whose "
                            "keys mlsysim gives as a tuple", *where)
        for field, index in tuples.items():
            out = t.outputs.get(shows[field])
            if out is None or out.arguments or len(out.indices) != 2 or str(index) not in out.indices:
                raise self.fail(f"result.tuples.{field}: not an output without arguments keyed by {index!r} and one "
                                "other index", *where)
        sets = raw.get("sets") or {}
        if not isinstance(sets, Mapping) or set(sets) - set(names) or set(sets) & set(tuples):
            raise self.fail("result.sets must be a table of result fields (not in result.tuples) -> the index whose "
                            "keys mlsysim gives as a set", *where)
        for field, index in sets.items():
            out = t.outputs.get(shows[field])
            if out is None or out.arguments or len(out.indices) != 2 or str(index) not in out.indices or out.kind.numeric:
                raise self.fail(f"result.sets.{field}: not a predicate output without arguments keyed by {index!r} and "
                                "one other index", *where)
        ranked = raw.get("ranked") or []
        if not isinstance(ranked, list) or not set(map(str, ranked)) <= set(names):
            raise self.fail("result.ranked must be a list of result fields (dict fields mlsysim orders by value)", *where)
        for field in map(str, ranked):
            out = t.outputs.get(shows[field])
            if out is None or out.arguments or len(out.indices) != 1 or not out.kind.numeric or field in lists:
                raise self.fail(f"result.ranked.{field}: not a number output keyed by one index, without arguments, "
                                "shown as a dict", *where)
        return ResultSpec(str(raw.get("name", f"{t.name}Result")), tuple(fields), tuple((k, str(v)) for k, v in plain.items()),
                          tuple((k, str(v)) for k, v in unset.items()),
                          tuple((k, tuple((kk, str(vv)) for kk, vv in v.items())) for k, v in tables.items()),
                          tuple(map(str, counts)), nested, tuple(map(str, lists)),
                          tuple(map(str, quantities)), tuple((k, str(v)) for k, v in tuples.items()),
                          tuple(map(str, ranked)), tuple((k, str(v)) for k, v in sets.items()), variants, row_views,
                          row_keys, points=tuple((k, str(v)) for k, v in points.items()),
                          infinite_when=tuple((k, str(v)) for k, v in infinite.items()))

    def result_row_keys(self, raw: Any, row_views: tuple[tuple[str, ResultSpec], ...],
                        where: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """``row_keys = { rows = "pitch_key" }``: the row views of a field shown as a dict keyed by that output's value at
        each row's key (a number output keyed by the rows' index); ``row_keys = { rows = "workload" }``, naming the rows'
        index itself, keys the dict by the index's own keys (mlsysim's ``{name: row for name in workloads}``)."""
        views = dict(row_views)
        if not isinstance(raw, Mapping) or set(raw) - set(views):
            raise self.fail("result.row_keys must be a table of row_views fields -> a keyed output naming each row", *where)
        for field, name in raw.items():
            out = self.t.outputs.get(str(name))
            keyed = {self.t.outputs[o].indices for _, s, o in views[field].fields
                     if str(s) == "output" and self.t.outputs[o].indices}
            if out is None and (str(name),) in keyed:
                continue   # the rows' own index: the dict's keys are its keys
            if out is None or out.arguments or not out.kind.numeric or (out.indices,) != tuple(keyed):
                raise self.fail(f"result.row_keys.{field}: {name!r} is not a number output keyed by the rows' index",
                                *where, "row_keys")
        return tuple((str(k), str(v)) for k, v in raw.items())

    def result_row_views(self, raw: Any, names: list[str], views: Any, where: tuple[str, ...]) -> tuple[tuple[str, ResultSpec], ...]:
        """``row_views = { rows = { name, fields, from, ... } }``: a list field of nested views, one per key of one index
        in key order, each field an output keyed by that index alone or the same in every row (an output without keys,
        or an input's echo): mlsysim's list of row results."""
        if not isinstance(raw, Mapping) or set(raw) - set(names) or set(raw) & set(views):
            raise self.fail("result.row_views must be a table of result fields (not in result.views) -> a nested result "
                            "view over outputs keyed by one index", *where)
        out = []
        for field, view in raw.items():
            at = (*where, "row_views", field)
            spec = self.result_spec(view, at)
            indices = set()
            for name, source, ours in spec.fields:
                result = self.t.outputs.get(ours)
                if str(source) == "input" or (str(source) == "output" and result is not None and not result.indices):
                    continue   # the same in every row
                if str(source) != "output" or result is None or result.arguments or len(result.indices) != 1:
                    raise self.fail(f"result.row_views.{field}: field {name!r} shows neither an output keyed by one "
                                    "index, an output without keys nor an input", *at)
                indices.add(result.indices[0])
            if len(indices) != 1:
                raise self.fail(f"result.row_views.{field}: its keyed outputs must be keyed by one and the same index "
                                f"(they are keyed by {', '.join(sorted(indices)) or 'none'})", *at)
            out.append((str(field), spec))
        return tuple(out)

    def result_variants(self, raw: Any, names: list[str], where: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
        """``variants = { rows = { of = "base", set = { takeover = "ladder_takeover" } } }``: a dict field of the scenario
        input ``of``'s result, one per key, at a variant whose inputs take that key's value of keyed outputs of ours
        (all keyed by one index, each of the input's dimension)."""
        t = self.t
        if not isinstance(raw, Mapping) or set(raw) - set(names):
            raise self.fail("result.variants must be a table of result fields -> { of = scenario input, set = { its "
                            "input = our keyed output } }", *where)
        out: list[tuple[str, Any]] = []
        for field, table in raw.items():
            at = (*where, "variants", field)
            if not isinstance(table, Mapping) or set(table) != {"of", "set"} or not isinstance(table["set"], Mapping) \
                    or not table["set"]:
                raise self.fail(f"result.variants.{field} must be {{ of = a scenario input, set = {{ its input = our "
                                "keyed output, ... }} }}", *at)
            of = str(table["of"])
            spec = t.inputs.get(of)
            if spec is None or not kind_of(spec).nests or spec.sub_type is None or spec.sub_type.result is None:
                raise self.fail(f"result.variants.{field}: {of!r} is not a scenario input whose type has a result view", *at)
            indices = set()
            for used, ours in table["set"].items():
                given = spec.sub_type.inputs.get(str(used))
                result = t.outputs.get(str(ours))
                if given is None or given.variable is None:
                    raise self.fail(f"result.variants.{field}: {spec.sub_type.name} has no quantity input {used!r}", *at)
                if result is None or result.arguments or len(result.indices) != 1 or not result.kind.numeric \
                        or result.style == "list":
                    raise self.fail(f"result.variants.{field}: {ours!r} is not a number output keyed by one index, "
                                    "without arguments", *at)
                if result.variable.unit.dimensionality != given.variable.unit.dimensionality:
                    raise self.fail(f"result.variants.{field}: {ours} is in {result.variable.unit_text} but "
                                    f"{spec.sub_type.name}.{used} is in {given.variable.unit_text}", *at)
                indices.add(result.indices[0])
            if len(indices) != 1:
                raise self.fail(f"result.variants.{field}: the outputs set must be keyed by one and the same index", *at)
            out.append((str(field), (of, tuple((str(u), str(o)) for u, o in table["set"].items()))))
        return tuple(out)

    def settle_styles(self) -> None:
        """Each output's keys (indices), free arguments and style (property, method, dict or list)."""
        t = self.t
        keyed_memo: dict[str, bool] = {}
        for out_name, out in list(t.outputs.items()):
            leaves = t.leaf_symbols(out_name) if t.may_be_keyed(out_name, keyed_memo) else set()
            every_leaf, choices_used = t.closure(out_name)
            args = tuple(a for a, v in t.arguments.items() if v.symbol in every_leaf or a in choices_used)
            # in the planner's order (leaves by name, plan/planning.py), so a method's key parameters and its keys agree
            indices = tuple(dict.fromkeys(t.leaf_index[s] for s in sorted(leaves, key=lambda s: s.name) if s in t.leaf_index))
            style = out.style or ("method" if (indices or args) else "property")
            if style == "property" and (indices or args):
                raise self.fail(f"output {out_name}: depends on {', '.join([*indices, *args])}, so it cannot be a property",
                                "outputs", out_name)
            if style == "list" and (len(indices) != 1 or args):   # mlsysim's list of one value per key, in key order
                raise self.fail(f"output {out_name}: style list shows one value per key of one index, without arguments; "
                                f"it depends on {', '.join([*indices, *args]) or 'no index'}", "outputs", out_name)
            key_params = tuple("name" if isinstance(kind_of(t.inputs[t.index_inputs[i][0]]), WorkloadsKind) else i for i in indices)
            used = {t.leaves[s].scenario_input for s in every_leaf if s in t.leaves}
            peers = tuple(n for n, spec in t.inputs.items() if spec.argument and n in used)
            if peers and out.style in ("property", "dict", "list"):
                raise self.fail(f"output {out_name}: takes the scenario {', '.join(peers)} per call, so it is a method",
                                "outputs", out_name)
            style = "method" if peers else style
            t.outputs[out_name] = replace(out, style=style, arguments=args, indices=indices, key_params=key_params, peers=peers)
        for in_name, head in self.own_upto:
            self.check_own_upto(in_name, head)
        for out_name, out in t.outputs.items():
            if out.keep:
                self.check_keep(out_name, out)
            guard = t.outputs.get(out.refused_unless) if out.refused_unless else None
            if out.refused_unless and (guard is None or not guard.kind.condition or guard.indices or guard.arguments
                                       or guard.peers or guard.refused_unless or out_name == out.refused_unless):
                raise self.fail(f"output {out_name}: refused_unless must name a predicate output without keys or "
                                f"arguments (and no guard of its own); got {out.refused_unless!r}", "outputs", out_name)

    def check_own_upto(self, in_name: str, head: str) -> None:
        """``upto = "n_levels"`` naming an output of this type: a number without keys, arguments or peers that does
        not read the list it counts (its keys, their positions, or an output keyed by them), so binding can evaluate
        it before the list is used (mlsysim's ``range(1, n_levels + 1)`` where the count is computed)."""
        t = self.t
        out = t.outputs[head]
        index = t.inputs[in_name].index or in_name
        leaves, _ = t.closure(head)
        reduces = any(isinstance(node, NODES) and index in {str(limit[0]) for limit in node.limits}
                      for node in sympy.preorder_traversal(t.expand(head)))   # sum(1, index): the count of its keys
        reads_list = reduces or any(t.leaf_index.get(s) == index or t.positions.get(s) == index for s in leaves)
        if not out.kind.numeric or out.indices or out.arguments or out.peers or reads_list:
            raise self.fail(f"input {in_name}: upto {head!r} names an output of the type, which must be a number without "
                            "keys or arguments that does not read the list it counts", "inputs", in_name)

    def check_keep(self, out_name: str, out: OutputSpec) -> None:
        """``keep = "predicate"``: a keyed output without arguments whose dict (or list) holds only the keys where that
        predicate output, keyed by the same indices, holds (mlsysim's ``{n: ... for n in sizes if n > 1}``, or the
        used buffers' loads as a list)."""
        pred = self.t.outputs.get(out.keep)
        if not out.indices or out.arguments or out.peers or out.style not in ("dict", "list"):
            raise self.fail(f"output {out_name}: keep is for a keyed output without arguments, read as a dict "
                            "or a list (style = \"dict\" or \"list\")", "outputs", out_name)
        if pred is None or not pred.kind.condition or pred.indices != out.indices or pred.arguments or pred.peers:
            raise self.fail(f"output {out_name}: keep must name a predicate output keyed by {', '.join(out.indices)} "
                            f"(and nothing else); got {out.keep!r}", "outputs", out_name)
