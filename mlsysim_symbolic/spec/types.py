"""Scenario types: what a ``[types.NAME]`` table declares, and the questions asked of it.

A :class:`ScenarioType` holds inputs, arguments and outputs (SymPy trees with units) and
the notes of its reference page.  :meth:`ScenarioType.from_mapping` builds and checks one
(:mod:`~mlsysim_symbolic.spec.builder`); the rest answers questions: which branch, the
tree expanded to the leaves, which leaves and keys an output reaches.

A built type is frozen: whatever its builder's caller adds (the :class:`Resolver` of named
scenarios, the hash of its declaration) is passed to :meth:`ScenarioType.from_mapping`, and
later attribute writes are refused (the plan layer keeps its caches outside the type).

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
from typing import Any, Protocol, runtime_checkable

import pint
import sympy

from .. import reductions
from ..errors import DerivationError, FrozenTypeError, MlsysimSymbolicError, UnknownNameError
from ..variables import Variable
from .builder import Locate, TypeBuilder
from .definitions import Branch, InputSpec, OutputSpec, Reference, ResultSpec


@runtime_checkable
class Resolver(Protocol):
    """Who built a type and can name its scenarios: a scenario input given by name is looked up here (a catalog)."""

    def named_of(self, type_name: str, key: str) -> Any:
        """The named scenario ``key``, of type ``type_name``."""
        ...


class ScenarioType:
    """A declared scenario type: inputs, arguments, outputs (SymPy trees with units) and notes.

    Frozen once built (:meth:`from_mapping`): setting an attribute afterwards raises :class:`FrozenTypeError`
    (the containers it holds are the builder's, and the memo of expanded trees is its own).

    >>> t = ScenarioType.from_mapping("T", {"inputs": {"x": {"unit": "s"}}, "outputs": {"y": {"unit": "s", "equation": "x"}}})
    >>> t.summary = "changed"
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.FrozenTypeError: ScenarioType T is frozen once built: summary cannot be set
    """

    _frozen = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen:
            raise FrozenTypeError(f"ScenarioType {self.name} is frozen once built: {name} cannot be set")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self._frozen:
            raise FrozenTypeError(f"ScenarioType {self.name} is frozen once built: {name} cannot be deleted")
        object.__delattr__(self, name)

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
        self.use_binds: dict[str, tuple[ScenarioType, dict[str, str]]] = {}   # local name -> (sub-type, its input -> ours)
        self.composed: dict[sympy.Symbol, sympy.Expr] = {}      # symbol of a composed output -> its tree over our leaves
        # symbol of a composed output -> (used type, its output, its symbols -> ours, its choices -> ours): a scenario
        # re-expands the used output at its own choices, through the alternatives its bound values make available
        # (the tree above is the first bound form at the first options)
        self.composed_forms: dict[sympy.Symbol, tuple[ScenarioType, str, dict[sympy.Symbol, sympy.Symbol], dict[str, str]]] = {}
        self.composed_variables: dict[sympy.Symbol, Variable] = {}
        self._expanded: dict[tuple[str, tuple[tuple[str, str], ...]], sympy.Expr] = {}
        self.result: ResultSpec | None = None                   # the result view, where mlsysim's class has one
        self.resolver: Resolver | None = None                    # who names this type's scenarios (its catalog), if any
        self.declaration_digest: str | None = None               # hash of the declaration read (from a catalog): keys plans on disk
        self.members: dict[str, tuple[tuple[str, ...], str]] = {}  # a tuple of outputs (or of members declared before) under one name: (parts, doc)

    @classmethod
    def from_mapping(cls, name: str, data: Mapping[str, Any], *, family: str = "", path: str | None = None,
                     locate: Locate | None = None, types: Mapping[str, ScenarioType] | None = None,
                     resolver: Resolver | None = None, digest: str | None = None) -> ScenarioType:
        """Build and check a scenario type from a ``[types.NAME]`` mapping, then freeze it.

        ``types`` holds the already-built types that a ``uses`` table may compose; ``resolver`` names the
        scenarios of this type (a scenario input given by name; none: a name is refused) and ``digest`` is the
        hash of the declaration (none: its plans are not kept on disk), both from the catalog reading it.
        Whatever is wrong with the mapping, the error is a :class:`DerivationError` naming the type.
        """
        self = cls(name)
        self.source_path = path
        self.resolver = resolver
        self.declaration_digest = digest
        try:
            built = TypeBuilder(self, data, family=family, path=path, locate=locate, types=types).build()
        except DerivationError:
            raise
        except (MlsysimSymbolicError, TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
            # a value of the wrong shape that no specific check names (a number where a table belongs ...)
            line = locate() if locate else None
            raise DerivationError(f"malformed declaration: {exc}", path=path, line=line, scenario=name) from None
        built._frozen = True
        return built

    # ------------------------------------------------------------------ queries
    def closure(self, name: str) -> tuple[set[sympy.Symbol], set[str]]:
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
                        found = set(self.composed[sym].free_symbols)
                        if sym in self.composed_forms:   # and the leaves of the used output's other alternatives
                            sub, output, mapping, _ = self.composed_forms[sym]
                            for s in sub.closure(output)[0]:   # a replaced leaf stands for an expression
                                if s in mapping:
                                    found.update(mapping[s].free_symbols)
                        for s in found:   # a used input bound to an output of ours: that output's leaves
                            if s in self.output_symbols:
                                visit(self.output_symbols[s])
                            else:
                                leaves.add(s)
                    elif sym in self.leaves:
                        leaves.add(sym)

        visit(name)
        return leaves, choices

    def add_leaf(self, var: Variable, source: str, index: str | None) -> None:
        """Record a leaf symbol, the input it comes from and its index (keyed leaves)."""
        self.leaves[var.symbol] = var
        self.leaf_input[var.symbol] = source
        if index:
            self.leaf_index[var.symbol] = index

    def check_cycles(self, fail: Callable[..., DerivationError]) -> None:
        """Refuse outputs that use each other in a circle (``fail`` builds the error)."""
        state: dict[str, int] = {}

        def visit(name: str, trail: list[str]) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                cycle = trail[trail.index(name):] + [name]
                raise fail(f"outputs form a cycle: {' -> '.join(cycle)}", "outputs", name)
            state[name] = 1
            for dep in self.direct_outputs(name):
                visit(dep, trail + [name])
            state[name] = 2

        for name in self.outputs:
            visit(name, [])

    # ------------------------------------------------------------------ queries
    def direct_outputs(self, name: str) -> list[str]:
        """The outputs ``name`` reads: in its equations, and through a used type's output whose inputs are bound to
        outputs of ours (``bind = { delay = "total_delay" }``)."""
        deps: list[str] = []
        for branch in self.outputs[name].branches:
            for sym in branch.expr.free_symbols:
                for dep in ((sym,) if sym not in self.composed else self.composed_reads(sym)):
                    if dep in self.output_symbols and self.output_symbols[dep] not in deps:
                        deps.append(self.output_symbols[dep])
        return deps

    def composed_reads(self, sym: sympy.Symbol) -> tuple[sympy.Symbol, ...]:
        """The symbols of ours a composed output's tree can read, through every alternative of the used output."""
        found = set(self.composed[sym].free_symbols)
        if sym in self.composed_forms:
            _, _, mapping, _ = self.composed_forms[sym]
            for value in mapping.values():
                found.update(value.free_symbols)
        return tuple(sorted(found, key=str))

    def leaf_symbols(self, name: str, choices: Mapping[str, str] | None = None) -> set[sympy.Symbol]:
        """Leaves of output ``name`` outside any ``sum``/``prod`` (those inside are reduced away; a ``*_upto``
        reduction leaves its position symbol, so the output stays keyed by that index)."""
        expr = self.expand(name, choices)
        if expr.has(*reductions.NODES):
            expr = expr.replace(lambda e: isinstance(e, reductions.NODES), self.reduced_away)
        return {s for s in expr.free_symbols if s in self.leaves}

    def reduced_away(self, node: Any) -> Any:
        """What a reduction leaves of its keyed leaves: its position leaf (``*_upto``), else an unknown standing for
        its value (not 1: ``t - t*sum(s, k)`` would cancel to 0 and hide the keyed ``t``), a function of the body's
        leaves keyed by other indexes and of its outputs, which the reduction does not reduce (``sum(piecewise(g, t <= j,
        0), step)`` stays keyed by j's index)."""
        upper = node.limits[0][2]
        if isinstance(node, (reductions.Earliest, reductions.Related)):   # keyed by the position's index; kept as a
            return sympy.Function("reduced")(upper)                       # term (n > 1/2 would fold to True)
        if isinstance(node, reductions.FirstFitDecreasing):   # keyed by the position's index, and reads the capacity
            return sympy.Function("reduced")(upper, node.limits[1][2])
        if upper in self.positions:
            return upper
        reduced = {str(limit[0]) for limit in node.limits}   # a sum of a sum may be one Sum with two limits
        kept = sorted((s for s in node.function.free_symbols
                       if (s in self.leaf_index and self.leaf_index[s] not in reduced) or s in self.output_symbols), key=str)
        return sympy.Function("reduced")(*kept) if kept else sympy.Dummy("reduced")

    def position(self, index: str) -> Variable:
        """The keyed leaf n_index: the position of each key of ``index`` (1 for the first)."""
        sym = sympy.Symbol(f"n_{index}", integer=True, positive=True)
        if sym not in self.positions:
            var = Variable.make(f"{index}_position", symbol=sym.name, unit="count", integer=True,
                                meaning=f"position of the key among the {index} keys (1 for the first)", role="position")
            self.positions[var.symbol] = index
            self.add_leaf(var, self.index_inputs[index][0], index)
        return self.leaves[sym]

    def may_be_keyed(self, name: str, memo: dict[str, bool] | None = None) -> bool:
        """Whether output ``name`` can have keyed leaves outside sums, found by walking the outputs it uses.

        A cheap superset test (no expanded tree is built): when False, :meth:`leaf_symbols` has no
        keyed leaf either, and loading skips expanding the output (a fifth of the catalog's load time).
        """
        memo = {} if memo is None else memo
        if name in memo:
            return memo[name]
        memo[name] = False
        found = False
        for branch in self.outputs[name].branches[:1]:
            expr = branch.expr
            if expr.has(*reductions.NODES):
                expr = expr.replace(lambda e: isinstance(e, reductions.NODES), self.reduced_away)
            for sym in expr.free_symbols:
                if sym in self.leaf_index:
                    found = True
                elif sym in self.composed:   # a used type's output: keyed only if a leaf (or an output) it maps to is
                    found = found or any(s in self.leaf_index or (s in self.output_symbols and self.may_be_keyed(
                        self.output_symbols[s], memo)) for s in self.composed[sym].free_symbols)
                elif sym in self.output_symbols:
                    found = found or self.may_be_keyed(self.output_symbols[sym], memo)
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

    def expand(self, name: str, choices: Mapping[str, str] | None = None, available: Callable[[sympy.Expr], bool] | None = None,
               composed: Callable[[sympy.Symbol], sympy.Expr] | None = None) -> sympy.Expr:
        """Output ``name`` as a tree of leaf inputs only (earlier outputs substituted; a used type's output by
        ``composed``, a scenario's form of it, else its first bound form)."""
        key = (name, tuple(sorted((choices or {}).items()))) if available is None and composed is None else None
        if key is not None and key in self._expanded:
            return self._expanded[key]
        expr = self.branch(name, choices, available).expr
        subs = {}
        for sym in expr.free_symbols:
            if sym in self.output_symbols:
                subs[sym] = self.expand(self.output_symbols[sym], choices, available, composed)
            elif sym in self.composed:
                tree = composed(sym) if composed is not None else self.composed[sym]
                # a used input bound to an output of ours: that output's tree too
                inner = {s: self.expand(self.output_symbols[s], choices, available, composed)
                         for s in tree.free_symbols if s in self.output_symbols}
                subs[sym] = tree.xreplace(inner) if inner else tree
        result = expr.xreplace(subs) if subs else expr
        if key is not None:
            self._expanded[key] = result
        return result

    def expression(self, name: str, expand: bool = False) -> sympy.Expr:
        """The tree of output ``name``: over inputs and earlier outputs, or over inputs only."""
        self.output(name)
        return self.expand(name) if expand else self.outputs[name].branches[0].expr

    def equation(self, name: str, expand: bool = False) -> sympy.Eq:
        """``Eq(output_symbol, tree)`` for output ``name``."""
        self.output(name)
        return sympy.Eq(self.outputs[name].variable.symbol, self.expression(name, expand=expand), evaluate=False)

    def variable(self, name: str) -> Variable:
        """The variable (input, attribute symbol, argument or output) called ``name``."""
        for var in [*self.leaves.values(), *(o.variable for o in self.outputs.values())]:
            if name in (var.name, var.symbol.name):
                return var
        for spec in self.inputs.values():
            if spec.name == name and spec.variable is not None:
                return spec.variable
        known = sorted({v.name for v in self.leaves.values()} | set(self.outputs))
        raise UnknownNameError("input or output", name, known, owner=self.name)

    def member_outputs(self, name: str) -> tuple[str, ...]:
        """The outputs a tuple member reads, in order: a part that is itself a member (mlsysim's list of
        ``(settled, reserved, free)`` states) gives its own outputs."""
        return tuple(o for p in self.members[name][0] for o in (self.member_outputs(p) if p in self.members else (p,)))

    def output(self, name: str) -> OutputSpec:
        """The declared output ``name`` (an :class:`UnknownNameError` with the close names otherwise)."""
        if name not in self.outputs:
            raise UnknownNameError("output", name, self.outputs, owner=self.name)
        return self.outputs[name]

    @property
    def unit_map(self) -> dict[sympy.Symbol, pint.Unit]:
        units = {sym: var.unit for sym, var in self.leaves.items()}
        units.update({sym: var.unit for sym, var in self.composed_variables.items()})
        units.update({o.variable.symbol: o.variable.unit for o in self.outputs.values()})
        return units

    def __repr__(self) -> str:
        return f"<ScenarioType {self.name} ({self.family}): {len(self.inputs)} inputs, {len(self.outputs)} outputs>"


