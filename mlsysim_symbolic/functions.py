"""mlsysim's function face: every ``calc_*`` formula as a callable backed by a declared, checked equation.

mlsysim 0.3.0 exposes its back-of-envelope formulas as plain functions (``calc_ring_allreduce_time(message_bytes,
n_gpus, bandwidth_bytes_s, latency_s)``).  Here each is declared in a *function table*
(``derivations/functions/<family>.toml``, ``[functions.calc_x]``: its arguments in mlsysim's order as inputs, its
equations as outputs, what it returns) and built, on first use, as a small scenario type through the same parser,
dimension check and compiler as the catalog's types.  The :class:`Function` object is called as mlsysim's function
is (same names, order and defaults; the value in mlsysim's unit) and answers for its equation:

>>> from mlsysim_symbolic import calc_ring_allreduce_time
>>> calc_ring_allreduce_time("1 GB", 8, "100 GB/s", "5 us")
<Quantity(0.01757, 'second')>
>>> calc_ring_allreduce_time.equation()
Eq(T_ring, M*(2*N - 2)/(N*beta) + alpha*(2*N - 2))
>>> calc_ring_allreduce_time.diff("latency_s")
2*N - 2

One function of each family, its value, equation and derivative:

>>> from mlsysim_symbolic import calc_kv_cache_size                                   # memory
>>> calc_kv_cache_size(32, 8, 128, 4096, 4)
<Quantity(2147483648, 'byte')>
>>> calc_kv_cache_size.equation()
Eq(M_kv, B_req*H*L*S*b_kv*d*n_kv)
>>> calc_kv_cache_size.diff("seq_len")
B_req*H*L*b_kv*d*n_kv
>>> from mlsysim_symbolic import calc_mm1_time_in_system                              # serving
>>> calc_mm1_time_in_system("20 ms", 0.8).to("ms")
<Quantity(100.0, 'millisecond')>
>>> calc_mm1_time_in_system.equation(), calc_mm1_time_in_system.diff("utilization")
(Eq(W, S/(1 - rho)), S/(rho - 1)**2)
>>> from mlsysim_symbolic import calc_transformer_training_flops                       # transformer
>>> calc_transformer_training_flops(70e9, 1.4e12)
<Quantity(5.88e+23, 'flop')>
>>> calc_transformer_training_flops.diff("n_tokens")
Piecewise((P*k_8, activation_checkpointing > 0), (P*k_6, True))
>>> from mlsysim_symbolic import calc_compute_optimal_allocation                       # scaling
>>> calc_compute_optimal_allocation(5.76e23, 20, 6)
(69282032302.75508, 1385640646055.102)
>>> calc_compute_optimal_allocation.equation(), calc_compute_optimal_allocation.diff("budget_flops")
(Eq(N, sqrt(C)/(sqrt(k)*sqrt(r))), 1/(2*sqrt(C)*sqrt(k)*sqrt(r)))
>>> from mlsysim_symbolic import calc_amdahls_speedup                                  # performance
>>> calc_amdahls_speedup(0.9, 10)
5.263157894736843
>>> calc_amdahls_speedup.equation(), calc_amdahls_speedup.diff("s")
(Eq(S_A, 1/(-p + p/s + 1)), p/(p + s*(1 - p))**2)
>>> from mlsysim_symbolic import calc_kinetic_energy                                   # robotics.actuation
>>> calc_kinetic_energy("2 kg", "3 m/s")
<Quantity(9.0, 'joule')>
>>> calc_kinetic_energy.equation(), calc_kinetic_energy.diff("velocity")
(Eq(E_k, m*v**2/2), m*v)
>>> from mlsysim_symbolic import calc_safe_stopping_distance                           # robotics.stopping
>>> calc_safe_stopping_distance("1.5 m/s", "0.2 s", "2 m/s**2", loc_margin="10 cm")
<Quantity(0.9625, 'meter')>
>>> calc_safe_stopping_distance.equation(), calc_safe_stopping_distance.diff("max_deceleration")
(Eq(d_stop, m_loc + m_phys + tau*v + v**2/(2*a)), -v**2/(2*a**2))
>>> from mlsysim_symbolic import calc_scalar_kalman_update                             # robotics.estimation
>>> calc_scalar_kalman_update("4 m**2", "1 m**2")
(0.8, <Quantity(0.8, 'meter ** 2')>)
>>> calc_scalar_kalman_update.equation(), calc_scalar_kalman_update.diff("prior_variance")
(Eq(g, P/(P + R)), R/(P + R)**2)
>>> from mlsysim_symbolic import calc_chi2_gate                                        # statistics
>>> calc_chi2_gate(0.95, 3)
7.814727903251179
>>> calc_chi2_gate.equation()
Eq(g, 2*gammaincinv(n_dim/2, c_g))
>>> calc_chi2_gate.diff("confidence")
2*exp(gammaincinv(n_dim/2, c_g))*gamma(n_dim/2)*gammaincinv(n_dim/2, c_g)**(1 - n_dim/2)
>>> from mlsysim_symbolic import calc_symmetric_scale                                  # numerics
>>> calc_symmetric_scale(2.54, 8)
0.02
>>> calc_symmetric_scale.equation(), calc_symmetric_scale.diff("max_abs")
(Eq(s, x_absmax/q_smax), 2/(2**b - 2))
>>> from mlsysim_symbolic import calc_young_daly_interval                              # reliability
>>> calc_young_daly_interval(50, 10_000)
<Quantity(1000.0, 'second')>
>>> calc_young_daly_interval.equation(), calc_young_daly_interval.diff("checkpoint_cost_s")
(Eq(tau_star, sqrt(2)*sqrt(M)*sqrt(delta)), sqrt(2)*sqrt(M)/(2*sqrt(delta)))
>>> from mlsysim_symbolic import calc_cross_entropy                                    # neural
>>> calc_cross_entropy(0.25)
1.3862943611198906
>>> calc_cross_entropy.equation(), calc_cross_entropy.diff("p_correct")
(Eq(L_CE, -log(p)), -1/p)
>>> from mlsysim_symbolic import calc_append_only_context                              # agents
>>> calc_append_only_context(8000, 1500, 90)
(141500, 6727500)
>>> calc_append_only_context.equation("cumulative"), calc_append_only_context.diff("turns", output="cumulative")
(Eq(R, H*delta*(H - 1)/2 + H*s_0), H*delta - delta/2 + s_0)
>>> from mlsysim_symbolic import calc_response_time_bound                               # robotics.control
>>> calc_response_time_bound("10 us", "5 us", "20 us")
{'response': <Quantity(35.0, 'microsecond')>}
>>> calc_response_time_bound("10 us", "5 us", "20 us", "50 us")["blocking_limit"]
<Quantity(20.0, 'microsecond')>
>>> calc_response_time_bound.equation("blocking_limit"), calc_response_time_bound.diff("interference", "blocking_limit")
(Eq(B_max, -C_wc + D - I_hp), -1)
>>> from mlsysim_symbolic import calc_tracked_evidence_horizon                          # robotics.perception
>>> calc_tracked_evidence_horizon("10 mm", "2 mm", "0.5 m/s**2")
<Quantity(178.885438, 'millisecond')>
>>> calc_tracked_evidence_horizon.equation()
Eq(tau_ev, sqrt(-2*e_0 + 2*r_tol)/sqrt(a_slip))
>>> calc_tracked_evidence_horizon.diff("slip_acceleration")
-sqrt(-2*e_0 + 2*r_tol)/(2*a_slip**(3/2))
>>> from mlsysim_symbolic import calc_empirical_testing_exposure                        # robotics.assurance
>>> calc_empirical_testing_exposure("1e-6 1/h")
<Quantity(2995732.27, 'hour')>
>>> calc_empirical_testing_exposure.equation(), calc_empirical_testing_exposure.diff("confidence")
(Eq(T, -log(1 - C)/lambda_t), -1/(lambda_t*(C - 1)))
>>> from mlsysim_symbolic import calc_partition_elapsed                                # coordination
>>> calc_partition_elapsed(4, 0.9, 0.01)
0.355
>>> calc_partition_elapsed.equation(), calc_partition_elapsed.diff("workers")
(Eq(T_N, c*(N - 1) - p + 1 + p/N), c - p/N**2)
>>> from mlsysim_symbolic import calc_copper_resistance_factor                         # motors
>>> calc_copper_resistance_factor("373.15 K", "0.00393 1/K", "293.15 K")   # copper at 100 °C over 20 °C
1.3144
>>> calc_copper_resistance_factor.equation(), calc_copper_resistance_factor.diff("temperature")
(Eq(r_T, alpha_Cu*(T - T_0) + 1), alpha_Cu)
>>> from mlsysim_symbolic import calc_traction_deceleration_limit                      # drivetrain
>>> calc_traction_deceleration_limit(0.5, 0.7)
<Quantity(3.4323275, 'meter / second ** 2')>
>>> calc_traction_deceleration_limit.equation(), calc_traction_deceleration_limit.diff("drive_load_share")
(Eq(a_trac, g_0*mu*phi), g_0*mu)

Names load lazily: importing the package reads no function table; ``mlsysim_symbolic.calc_x`` reads the tables'
names once and builds ``calc_x`` the first time it is asked for.
"""

from __future__ import annotations

import functools
import inspect
import math
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pint
import sympy

from .errors import DerivationError, InputError, UnknownNameError
from .output_ref import OutputRef
from .paths import derivations_dir
from .reductions import NODES
from .scenario import Scenario, scenario_class
from .sources import Locator
from .spec import ScenarioType, kind_of
from .spec.kinds import KeyedKind, QuantityKind
from .spec.stated import states_unit
from .symbolic import tidy
from .units import ureg

__all__ = ["Function", "function", "function_names", "functions_dir"]

#: The fields of a ``[functions.NAME]`` table: a type's prose and its inputs and outputs, and what a call returns.
FUNCTION_FIELDS = frozenset({"summary", "description", "equation_note", "assumptions", "excludes", "derivation",
                             "references", "inputs", "outputs", "members", "returns", "returns_as",
                             "keyword_only", "returns_like", "argument_names", "returns_with"})
#: How a returned output leaves: a Quantity in its unit, a plain float or int, ``number`` (an int where every
#: argument the output reads is an int, else a float: Python's arithmetic of ``+ - * //``), ``same`` (a Quantity
#: where an argument it reads came in as one, else a float: mlsysim's duck-typed arithmetic with a true division) or
#: ``same_number`` (a Quantity likewise, else as ``number``), or ``stated`` (an output in the unit the call states, a
#: ``unit = "stated"`` input's: a Quantity in that unit, its bare magnitude where the values came in as plain numbers,
#: mlsysim's arithmetic on whatever it is given).  A dict or list output leaves value by value.
RETURNS_AS = frozenset({"quantity", "float", "int", "number", "same", "same_number", "bool", "label", "stated"})
_LOCK = threading.RLock()


def functions_dir() -> Path:
    """The folder of the function tables (``derivations/functions/``)."""
    return derivations_dir() / "functions"


class _Table:
    """One function table file: its family, its text (for line numbers) and its raw functions."""

    def __init__(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DerivationError(f"not valid TOML: {exc}", path=str(path)) from None
        extra = sorted(set(data) - {"family", "title", "module", "functions"})
        if extra:
            raise DerivationError(f"unknown top-level key(s) {', '.join(extra)}; expected family, functions, module, title",
                                  path=str(path))
        self.path = path
        self.family = str(data.get("family", path.stem))
        self.module = str(data.get("module", ""))
        self.functions: Mapping[str, Any] = data.get("functions") or {}
        if not isinstance(self.functions, Mapping):
            raise DerivationError("'functions' must be a table", path=str(path))
        self.locator = Locator(text)


@functools.cache
def _index() -> dict[str, _Table]:
    """Every declared function name -> its table (the files are read once; nothing is built)."""
    found: dict[str, _Table] = {}
    folder = functions_dir()
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        table = _Table(path)
        for name in table.functions:
            if name in found:
                raise DerivationError(f"function {name} is declared twice (also in {found[name].path.name})", path=str(path),
                                      line=table.locator.find("functions", name))
            found[name] = table
    return found


def function_names(family: str | None = None) -> list[str]:
    """The declared function names (of one family when given), in file order.

    >>> "calc_ring_allreduce_time" in function_names("communication")
    True
    """
    return [n for n, t in _index().items() if family is None or t.family == family]


_BUILT: dict[str, Function] = {}


def function(name: str) -> Function:
    """The function ``name``, built on first use (an :class:`UnknownNameError` for a name no table declares)."""
    found = _BUILT.get(name)
    if found is not None:
        return found
    with _LOCK:
        if name not in _BUILT:
            table = _index().get(name)
            if table is None:
                raise UnknownNameError("function", name, sorted(_index()))
            _BUILT[name] = Function(name, table)
        return _BUILT[name]


def _returns(name: str, raw: Mapping[str, Any], outputs: list[str], fail: Any) -> tuple[str | tuple[str, ...] | dict[str, str], Any]:
    returns = raw.get("returns", outputs[-1] if outputs else None)
    parts = (list(returns.values()) if isinstance(returns, Mapping) else list(returns) if isinstance(returns, list)
             else [returns])
    unknown = [p for p in parts if p not in outputs]
    if unknown:
        raise fail(f"returns names {', '.join(map(str, unknown))}, which are not outputs of {name}", "returns")
    shape = dict(returns) if isinstance(returns, Mapping) else tuple(returns) if isinstance(returns, list) else returns
    how = raw.get("returns_as")
    hows = how if isinstance(how, list) else [how] * len(parts)
    if len(hows) != len(parts) or any(h is not None and h not in RETURNS_AS for h in hows):
        raise fail(f"returns_as must be one of {', '.join(sorted(RETURNS_AS))} (or a list of them, one per returned "
                   f"output), got {how!r}", "returns_as")
    return shape, hows


def _each(value: Any) -> list[Any]:
    """An argument's values: a list's, a table's or a table of rows' (every cell), else the argument itself."""
    if isinstance(value, Mapping):
        return [v for item in value.values() for v in _each(item)]
    return [v for item in value for v in _each(item)] if isinstance(value, (list, tuple)) else [value]


def _immutable(default: Any) -> Any:
    """A declared default as mlsysim writes one: a list (a table of rows) as a tuple (of tuples)."""
    return tuple(_immutable(v) for v in default) if isinstance(default, list) else default


def _pinned(tree: sympy.Expr, index_of: Mapping[sympy.Symbol, str],
            reductions: Mapping[sympy.Symbol, str]) -> tuple[sympy.Expr, dict[sympy.Expr, sympy.Symbol]]:
    """``tree`` with each keyed symbol inside a reduction over its own index written as a function of the reduction's
    variable (so simplification cannot take it out of the sum), and the map that writes it back.

    >>> k, n, b = sympy.Symbol("k", integer=True, positive=True), sympy.Symbol("n"), sympy.Symbol("b")
    >>> pinned, restore = _pinned(b * sympy.Sum(n, (k, 1, 3)), {n: "k"}, {k: "k"})
    >>> pinned, sympy.simplify(sympy.Sum(n, (k, 1, 3)))
    (b*Sum(n(k), (k, 1, 3)), n*Sum(1, (k, 1, 3)))
    >>> pinned.xreplace(restore)
    b*Sum(n, (k, 1, 3))
    """
    restore: dict[sympy.Expr, sympy.Symbol] = {}

    def pin(node: Any) -> Any:
        var = node.limits[0][0]
        index = reductions.get(var)
        pins = {s: sympy.Function(s.name)(var) for s in node.function.free_symbols if index is not None
                and index_of.get(s) == index}
        restore.update({v: s for s, v in pins.items()})
        return node.func(node.function.xreplace(pins), *node.limits) if pins else node

    return tree.replace(lambda e: isinstance(e, NODES), pin), restore


def _nested(tree: sympy.Expr) -> bool:
    """Whether ``tree`` holds a reduction inside another (a sum over a table's rows of sums over its cells).

    >>> k, j, x = sympy.Symbol("k", integer=True, positive=True), sympy.Symbol("j", integer=True, positive=True), sympy.Symbol("x")
    >>> _nested(sympy.Sum(x, (k, 1, 3))), _nested(sympy.Sum(sympy.exp(sympy.Sum(x, (j, 1, 2))), (k, 1, 3)))
    (False, True)
    """
    return any(isinstance(node, NODES) and node.function.has(*NODES) for node in sympy.preorder_traversal(tree))


class Function:
    """One of mlsysim's ``calc_*`` formulas: call it for the value; ask it for the equation, LaTeX, derivative, inverse.

    Built from its table as a scenario type whose inputs are the function's arguments (in mlsysim's order) and whose
    outputs are its equations; a call binds the arguments and reads the returned output(s).
    """

    def __init__(self, name: str, table: _Table) -> None:
        raw = table.functions[name]

        def fail(reason: str, *keys: str) -> DerivationError:
            return DerivationError(reason, path=str(table.path), line=table.locator.find("functions", name, *keys),
                                   scenario=name)

        if not isinstance(raw, Mapping):
            raise fail("a function must be a table")
        unknown = sorted(set(raw) - FUNCTION_FIELDS)
        if unknown:
            raise fail(f"unknown field(s) {', '.join(unknown)}; expected some of {', '.join(sorted(FUNCTION_FIELDS))}",
                       unknown[0])
        declaration = {k: v for k, v in raw.items()
                       if k not in ("returns", "returns_as", "keyword_only", "returns_like", "argument_names", "returns_with")}
        self.name = name
        self.family = table.family
        self.module = table.module
        self.type = ScenarioType.from_mapping(name, declaration, family=table.family, path=str(table.path),
                                              locate=lambda *keys: table.locator.find("functions", name, *keys))
        self.cls: type[Scenario] = scenario_class(self.type, module="mlsysim_symbolic.functions")
        self.returns, hows = _returns(name, raw, list(self.type.outputs), fail)
        parts = self._parts()
        self.returns_as = tuple(h or self._default_as(p) for p, h in zip(parts, hows, strict=True))
        self.__name__ = self.__qualname__ = name
        self.__doc__ = self.type.summary
        constants = raw.get("keyword_only", [])
        if not isinstance(constants, list) or any(c not in self.type.inputs or self.type.inputs[c].required for c in constants):
            raise fail("keyword_only lists inputs with defaults (the constants mlsysim keeps in its code), got "
                       f"{constants!r}", "keyword_only")
        ordered = [n for n in self.type.inputs if n not in constants] + list(constants)
        renamed = raw.get("argument_names", {})   # input -> mlsysim's argument name, where that name is reserved here
        if not isinstance(renamed, Mapping) or any(k not in self.type.inputs for k in renamed):
            raise fail(f"argument_names maps inputs of {name} to mlsysim's argument names, got {renamed!r}", "argument_names")
        self._inputs_of = {str(renamed.get(n, n)): n for n in ordered}   # argument name -> input name
        self.__signature__ = inspect.Signature([
            inspect.Parameter(str(renamed.get(n, n)),
                              inspect.Parameter.KEYWORD_ONLY if n in constants else inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              default=inspect.Parameter.empty if spec.required and spec.default is None else _immutable(spec.default))
            for n in ordered for spec in [self.type.inputs[n]]])
        self._quantity_inputs = frozenset(n for n, s in self.type.inputs.items() if isinstance(kind_of(s), QuantityKind))
        numbers = self._quantity_inputs | {n for n, s in self.type.inputs.items() if isinstance(kind_of(s), KeyedKind)}
        self._reaches = {p: frozenset(self.type.leaf_input[x] for x in self.type.expand(p).free_symbols if x in self.type.leaf_input)
                         & numbers for p in parts}   # the arguments each returned output reads (a list: its values)
        with_ = raw.get("returns_with", {})   # dict key -> the optional argument it is returned with (mlsysim's update)
        if with_ and (not isinstance(with_, Mapping) or not isinstance(self.returns, dict)
                      or any(k not in self.returns or v not in self.type.inputs or self.type.inputs[v].required
                             or self.type.inputs[v].default is not None for k, v in with_.items())):
            raise fail(f"returns_with maps keys of the returned dict to optional arguments (default None), got {with_!r}",
                       "returns_with")
        self._returns_with: dict[str, str] = dict(with_)
        self._stating = next((n for n, sp in self.type.inputs.items()   # the input whose values state the unit, if any
                              if sp.variable is not None and states_unit(sp.variable.unit)), None)
        like = raw.get("returns_like")   # the one argument whose type decides (mlsysim's value * fraction * ratio)
        if like is not None:
            if like not in self._quantity_inputs:
                raise fail(f"returns_like names a quantity input of {name}, got {like!r}", "returns_like")
            self._reaches = {p: frozenset({like}) for p in parts}

    def _parts(self) -> list[str]:
        r = self.returns
        return list(r.values()) if isinstance(r, dict) else list(r) if isinstance(r, tuple) else [r]

    def _default_as(self, output: str) -> str:
        out = self.type.outputs[output]
        if not out.kind.numeric:
            return "bool" if out.kind.condition else "label"
        return "float" if ureg.Quantity(1, out.variable.outer_unit).dimensionless else "quantity"

    def __repr__(self) -> str:
        return f"<function {self.name}{self.__signature__} ({self.family}, mlsysim_symbolic)>"

    # ------------------------------------------------------------------ binding
    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any], partial: bool = False) -> dict[str, Any]:
        bound = (self.__signature__.bind_partial if partial else self.__signature__.bind)(*args, **kwargs)
        return {self._inputs_of[k]: v for k, v in bound.arguments.items() if v is not None}

    def _came(self, given: dict[str, Any], output: str, how: str) -> str:
        """What the arguments ``output`` (leaving as ``how``) reads came in as: ``quantity`` (one is a Quantity),
        ``int`` (all are ints, defaults included) or ``float``."""
        if how == "stated" and self._stating is not None:   # the stated values'
            given_values = given.get(self._stating, {})
            values = list(given_values.values() if isinstance(given_values, Mapping) else given_values)
            if any(isinstance(v, (pint.Quantity, str)) for v in values):
                return "quantity"
            return "int" if all(isinstance(v, int) and not isinstance(v, bool) for v in values) else "float"
        names = self._reaches[output]
        defaults = {self._inputs_of[p.name]: p.default for p in self.__signature__.parameters.values()}
        values = [v for n in names for v in _each(given.get(n, defaults[n]))]
        if any(isinstance(v, (pint.Quantity, str)) for v in values):   # a Quantity, or quantity text
            return "quantity"
        return "int" if all(v is None or isinstance(v, int) for v in values) else "float"   # a flag: an int, as Python's

    def scenario(self, *args: Any, **kwargs: Any) -> Scenario:
        """The scenario these arguments bind (its outputs, sensitivities, sweeps and LaTeX all answer); arguments left
        out are unset (an output that needs one says so when it is read)."""
        return self.cls(**self._bind(args, kwargs, partial=True))

    def ref(self, *args: Any, output: str | None = None, **kwargs: Any) -> OutputRef:
        """The returned output (or ``output``) of the scenario these arguments bind, as an :class:`OutputRef`."""
        return self.scenario(*args, **kwargs).ref(output or self._parts()[0])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        given = self._bind(args, kwargs)
        s = self.cls(**given)
        parts = list(zip(self._parts(), self.returns_as, strict=True))
        if isinstance(self.returns, dict):   # a key returned with an optional argument is left out without it
            return {k: self._value(s, given, p, how) for k, (p, how) in zip(self.returns, parts, strict=True)
                    if k not in self._returns_with or self._returns_with[k] in given}
        values = [self._value(s, given, p, how) for p, how in parts]
        return tuple(values) if isinstance(self.returns, tuple) else values[0]

    def _value(self, s: Scenario, given: dict[str, Any], output: str, how: str) -> Any:
        return self._leave(s.planner.member(output, ()), how,
                           self._came(given, output, how) if how in ("number", "same", "same_number", "stated") else "")

    @staticmethod
    def _leave(value: Any, how: str, came: str) -> Any:
        if isinstance(value, dict):   # a keyed output (style = "dict"): each value as the output leaves
            return {k: Function._leave(v, how, came) for k, v in value.items()}
        if isinstance(value, list):   # a keyed output (style = "list"): mlsysim's list, one value per key in key order
            return [Function._leave(v, how, came) for v in value]
        if how in ("bool", "label") or not isinstance(value, pint.Quantity):
            return value
        if how == "stated":   # plain numbers state no unit: plain numbers leave (ints where all came as ints), as mlsysim's
            if not value.unitless:
                return value
            return Function._whole_if(value.magnitude, came == "int")
        if how == "quantity" or (how in ("same", "same_number") and came == "quantity"):
            return value
        magnitude = value.to("").magnitude if value.dimensionless else value.magnitude
        if how == "int":   # a declared whole output (a floor, a ceiling, a count): its float noise rounded away
            return magnitude if type(magnitude) is int else int(round(float(magnitude)))   # an exact int stays exact
        return Function._whole_if(magnitude, how in ("number", "same_number") and came == "int")

    @staticmethod
    def _whole_if(magnitude: Any, ints_came: bool) -> int | float:
        """An int where the arguments came as ints (Python's arithmetic of ints, as mlsysim's) and the value is whole
        but for the float evaluation's last bits (3·2/2 compiled may give 2.999999999999999: within 1e-12 relative); a
        float otherwise, never a truncated or rounded one (1.3 from int costs stays 1.3).

        >>> Function._whole_if(2.999999999999999, True), Function._whole_if(1.3, True), Function._whole_if(3.0, False)
        (3, 1.3, 3.0)
        """
        if ints_came and type(magnitude) is int:   # an exact int (Python's, past 2^53) stays exact
            return magnitude
        number = float(magnitude)
        if not ints_came or not math.isfinite(number):
            return number
        whole = round(number)
        return int(whole) if abs(number - whole) <= 1e-12 * abs(number) else number   # a few ulps of noise, never a fraction

    # ------------------------------------------------------------------ the equation
    def _output(self, output: str | None) -> str:
        name = output or self._parts()[0]
        self.type.output(name)
        return name

    def equation(self, output: str | None = None, expand: bool = False) -> sympy.Eq:
        """``Eq(symbol, tree)`` of the returned output (or ``output``)."""
        name = self._output(output)
        tree = self.type.expand(name) if expand else self.type.outputs[name].branches[0].expr
        return sympy.Eq(self.type.outputs[name].variable.symbol, tree, evaluate=False)

    def diff(self, wrt: str, output: str | None = None) -> sympy.Expr:
        """∂(returned output)/∂``wrt`` symbolically (``wrt`` names an argument or its symbol).

        A list argument's symbol stands for its value at each key of the sums over its index, so differentiation and
        simplification keep it inside them (SymPy alone, seeing a symbol the sum's variable does not bind, would take
        it out: ``n·Σ 1``, the derivative of ``B·Σ n`` in B written as if every width were one number); the derivative
        in a list argument itself moves all its values at once, and one of a sum inside a sum is left unsimplified:

        >>> from mlsysim_symbolic import calc_dense_saved_activations
        >>> calc_dense_saved_activations.diff("batch")
        Sum(n, (position, 1, N_position))
        """
        name = self._output(output)
        leaves = {v.name: s for s, v in self.type.leaves.items()} | {s.name: s for s in self.type.leaves}
        if wrt not in leaves:
            raise UnknownNameError("argument", wrt, sorted(self.type.inputs), owner=self.name)
        tree = self.type.expand(name)
        if _nested(tree):   # a sum inside a sum (a table's cells by row): SymPy's simplify may not end, and rebuilding
            return sympy.diff(tree, leaves[wrt])   # the inner sums would fold a piecewise of the row out of them
        keyed = {s: i for s, i in self.type.leaf_index.items() if s != leaves[wrt]}   # wrt: every value of it at once
        pinned, restore = _pinned(tree, keyed, self.type.reductions)
        return tidy(sympy.diff(pinned, leaves[wrt])).xreplace(restore)

    def latex(self, *args: Any, values: bool = True, output: str | None = None, **kwargs: Any) -> Any:
        """LaTeX of the equation; with arguments, equation = numbers = result (``values=False``: the equation alone)."""
        if not args and not kwargs:
            values = False
        return self.ref(*args, output=output, **kwargs).latex(values=values)

    def solve(self, wrt: str, target: Any, *args: Any, output: str | None = None, **kwargs: Any) -> Any:
        """The value of argument ``wrt`` that brings the returned output to ``target``, the other arguments given
        (``wrt``'s own value, if given, is where the search starts)."""
        if wrt not in self.type.inputs:
            raise InputError(f"{self.name}: solve for one of its arguments ({', '.join(self.type.inputs)}), got {wrt!r}")
        return self.ref(*args, output=output, **kwargs).solve(wrt, target)
