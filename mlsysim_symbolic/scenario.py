"""Scenarios: a scenario type with its inputs bound to values.

A scenario type becomes a Python class (:func:`scenario_class`) whose keyword
constructor takes the type's inputs, whose outputs are properties (or methods,
for outputs keyed by a model name or taking an argument), and whose docstring is
the type's reference page.  Instances are immutable: :meth:`Scenario.variant`
returns a changed copy.

One output is an :class:`~mlsysim_symbolic.output_ref.OutputRef`, ``s.ref("per_batch")``: its value, equation,
LaTeX, derivative, sweep, inverse solve and sensitivities, the same object solver results and evaluation levels
hand out.  The analyses of the whole scenario are accessors, one per analysis module, as pandas' ``.plot`` is:
``s.sensitivity.sobol(...)``, ``s.sweeps.grid(...)``, ``s.inverse.solve(...)``, ``s.tex.substituted(...)``.  The
flat forms (``s.diff(output, wrt)``, ``s.sweep``, ``s.solve``, ``s.latex`` ...) are forwards to the output
reference, installed from one table (:data:`~mlsysim_symbolic.spec.surface.ACCESSORS`); a type that declares an
input or output of a reserved name (:data:`~mlsysim_symbolic.spec.RESERVED`) is refused when it is loaded.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import pint
import sympy

from . import printing as latex_module
from .errors import InputError, MissingInputError, call_error
from .output_ref import OutputRef, analysis_surface
from .plan import NeededBy, Planner, needed_by, thawed
from .registry import Entry
from .results import ResultView, input_value
from .sensitivity import SensitivityAccessor
from .solve import InverseAccessor
from .spec import CORE_MEMBERS, RESERVED, OutputSpec, ScenarioType, clash, type_docstring
from .sweep import SweepAccessor


class _ScenarioMeta(type):
    """Builds a scenario type's reference page (its ``__doc__``) only when someone reads it."""

    @property
    def __doc__(cls) -> str | None:  # type: ignore[override]
        t = cls.__dict__.get("_type")
        if t is None:
            return cls.__dict__.get("_base_doc")
        cached = cls.__dict__.get("_doc_cache")
        if cached is None:
            cached = type_docstring(t)
            type.__setattr__(cls, "_doc_cache", cached)
        return cached


class _InstanceDoc:
    """Gives instances their type's (lazily built) reference page as ``__doc__``."""

    def __get__(self, obj: Any, owner: type) -> str | None:
        return _ScenarioMeta.__doc__.__get__(owner)  # type: ignore[attr-defined]


class TexAccessor:
    """LaTeX of one scenario: ``s.tex.equation(...)``, ``s.tex.substituted(...)``, ``s.tex.align()``, ``s.tex.symbols()``."""

    def __init__(self, scenario: Scenario) -> None:
        self._s = scenario

    def equation(self, output: str, *, expand: bool = False, **options: Any) -> Any:
        """The equation of ``output`` as LaTeX."""
        return latex_module.equation(self._s, output, expand=expand, **options)

    def substituted(self, output: str, *keys: Any, **options: Any) -> Any:
        """Equation = numbers = result for ``output``."""
        return latex_module.substituted(self._s, output, *keys, **options)

    def align(self, *keys: Any, **options: Any) -> Any:
        """Every output as one ``align`` block."""
        return latex_module.align(self._s, *keys, **options)

    def symbols(self, output: str | None = None) -> Any:
        """The symbol table of ``output`` (or of every output)."""
        return latex_module.symbol_table(self._s, output)


@analysis_surface(whole=lambda scenario: scenario, members=CORE_MEMBERS)
class Scenario(metaclass=_ScenarioMeta):
    """Base class of every scenario type's class.  See the type's own docstring."""

    _base_doc = "Base class of every scenario type's class.  See the type's own docstring."
    _type: ScenarioType
    __slots__ = ("_planner", "name", "description", "key", "__weakref__")

    def __init__(self, *, name: str | None = None, description: str | None = None, **inputs: Any) -> None:
        object.__setattr__(self, "_planner", Planner(self._type, inputs))
        object.__setattr__(self, "name", name if name is not None else self._type.name)
        object.__setattr__(self, "description", description if description is not None else self._type.summary)
        object.__setattr__(self, "key", None)

    def __setattr__(self, attr: str, value: Any) -> None:
        if attr == "key" and getattr(self, "key", None) is None:   # the catalog names its scenarios once
            object.__setattr__(self, attr, value)
            return
        raise AttributeError(f"{type(self).__name__} is immutable: use .variant({attr}=...) for a changed copy")

    def __delattr__(self, attr: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __copy__(self) -> Scenario:
        return self   # immutable: a copy is the scenario itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Scenario:
        return self

    def __reduce__(self) -> Any:
        # rebuilt from the class and the given inputs: compiled functions are not pickled, they are rebuilt; the class of a
        # type read from a user's file goes as its origin (the file texts), which another process reads again
        cls = type(self)
        return (_rebuild, (cls.__dict__.get("_origin", cls), thawed(self._planner.given), self.name, self.description, self.key))

    # ------------------------------------------------------------------ the plan and the values
    @property
    def planner(self) -> Planner:
        """The public plan of this scenario (trees, compiled functions, bound values), for analyses."""
        return self._planner

    @property
    def type(self) -> ScenarioType:
        """The scenario type this scenario binds."""
        return self._type

    @property
    def inputs(self) -> Mapping[str, Any]:
        """The bound inputs, by name, in their declared units (read-only)."""
        return self._planner.inputs

    @property
    def outputs(self) -> list[str]:
        """The names of the outputs."""
        return list(self._type.outputs)

    def evaluate(self, output: str, *keys: Any, **arguments: Any) -> pint.Quantity:
        """The value of ``output`` as a pint Quantity in its declared unit.

        ``keys`` select the model (or other key) of a keyed output; ``arguments``
        give the free arguments of a method output.
        """
        return self._planner.evaluate(output, *keys, **arguments)

    def values(self, *keys: Any) -> dict[str, Any]:
        """Every output that can be evaluated without arguments, as ``{name: Quantity}``."""
        out: dict[str, Any] = {}
        for name, spec in self._type.outputs.items():
            if spec.arguments:
                continue
            try:
                out[name] = self._planner.member(name, keys)
            except MissingInputError:
                continue
        return out

    def keys(self, index: str | None = None) -> list[Any]:
        """The keys of a keyed input (the first one when ``index`` is not given)."""
        if index is None:
            if not self._type.index_inputs:
                return []
            index = next(iter(self._type.index_inputs))
        return self._planner.keys(index) or []

    def variant(self, **changes: Any) -> Scenario:
        """A copy with some inputs (or ``name``/``description``) changed.

        A table of fields for a workload or hardware input changes those fields of the bound entry.

        >>> from mlsysim_symbolic import Scenarios
        >>> s = Scenarios.DpSgdPerExampleGradients.variant(batch_size=1024, bytes_per_param="2 B/param")
        >>> s.per_batch("GPT-2")
        <Quantity(3.072e+12, 'byte')>
        """
        name = changes.pop("name", self.name)
        description = changes.pop("description", self.description)
        return type(self)(name=name, description=description, **self._planner.changed(changes))

    # ------------------------------------------------------------------ one output
    def ref(self, output: str, *keys: Any) -> OutputRef:
        """The output ``output`` (at ``keys``) as an object: its value and every analysis of it.

        >>> from mlsysim_symbolic import Scenarios
        >>> Scenarios.DpSgdPerExampleGradients.ref("per_batch").diff("batch_size")
        P*b
        """
        return OutputRef(self, output, *keys)

    @property
    def result(self) -> ResultView:
        """mlsysim's result object for this scenario: its field names and values (types that declare one)."""
        spec = self._type.result
        if spec is None:
            raise AttributeError(f"{self._type.name} has no result view (its mlsysim class has no result object); "
                                 f"read the outputs: {', '.join(self._type.outputs)}")
        return ResultView(spec, self._planner)

    # ------------------------------------------------------------------ accessors
    @property
    def sensitivity(self) -> SensitivityAccessor:
        """Sensitivity analyses: ``local``, ``one_at_a_time``, ``tornado``, ``sobol``, ``morris``, ``uncertainty``."""
        return SensitivityAccessor(self)

    @property
    def sweeps(self) -> SweepAccessor:
        """Sweeps: ``grid`` (an output over arrays of inputs) and ``reduce`` (chunked min/max/feasible region)."""
        return SweepAccessor(self)

    @property
    def inverse(self) -> InverseAccessor:
        """Inverse questions: ``solve`` (the input that makes an output hit a target) and ``optimum``."""
        return InverseAccessor(self)

    @property
    def tex(self) -> TexAccessor:
        """LaTeX: ``equation``, ``substituted``, ``align``, ``symbols``."""
        return TexAccessor(self)

    # ------------------------------------------------------------------ facts of the type
    @property
    def assumptions(self) -> tuple[str, ...]:
        return self._type.assumptions

    @property
    def excludes(self) -> tuple[str, ...]:
        return self._type.excludes

    @property
    def derivation(self) -> str:
        return self._type.derivation

    @property
    def references(self) -> tuple[Any, ...]:
        return self._type.references

    # expression, equation, simplify, diff, elasticities, local_sensitivity, one_at_a_time, tornado, sobol, morris,
    # uncertainty, sweep, reduce_sweep, solve, optimum, symbol_values, latex, symbol_table: forwards to self.ref(output),
    # installed by @analysis_surface from spec.surface.ACCESSORS

    def _repr_latex_(self) -> str:
        return latex_module.align(self)._repr_latex_()

    def __repr__(self) -> str:
        shown = []
        for k, v in self._planner.inputs.items():
            if v is None:
                continue
            if isinstance(v, Mapping):
                v = "{" + ", ".join(f"{kk!r}: {getattr(vv, 'name', vv)}" for kk, vv in v.items()) + "}"
            elif isinstance(v, Entry):
                v = v.name
            elif isinstance(v, pint.Quantity):
                v = f"{v:~C}"
            shown.append(f"{k}={v}")
        return f"{type(self).__name__}(name={self.name!r}, {', '.join(shown)})"


def _rebuild(cls: type[Scenario], given: dict[str, Any], name: str, description: str, key: str | None) -> Scenario:
    scenario = cls(name=name, description=description, **{k: v for k, v in given.items() if v is not None})
    if key is not None:
        scenario.key = key
    return scenario


# ---------------------------------------------------------------------- class factory
def _output_member(spec: OutputSpec, stype: ScenarioType) -> Any:
    name = spec.name
    text = f"{spec.doc}\n\nEquation: {spec.variable.symbol} = {sympy.sstr(stype.expression(name))}  [{spec.variable.unit_text}]"
    if spec.style in ("property", "dict", "list"):
        def getter(self: Scenario) -> Any:
            return self._planner.member(name)

        getter.__doc__ = text
        getter.__name__ = name
        return property(getter)

    key_params = list(spec.key_params)
    n_keys = len(key_params)
    simple = not spec.arguments and not spec.peers

    def method(self: Scenario, *args: Any, **kwargs: Any) -> Any:
        if simple and not kwargs and len(args) == n_keys:
            return self._planner.evaluate(name, *args)
        try:
            bound = sig.bind(self, *args, **kwargs)
        except TypeError:
            raise call_error(sig, (self, *args), kwargs, f"{stype.name}.{name}()") from None
        values = dict(bound.arguments)
        values.pop("self")
        peers = {p: values.pop(p) for p in spec.peers}   # the other scenario(s) of this call, bound like any input
        planner = self.variant(**peers)._planner if peers else self._planner
        keys = tuple(values.pop(k) for k in key_params)
        return planner.evaluate(name, *keys, **values)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in spec.peers]
    params += [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD) for k in key_params]
    params += [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 default=None if stype.arguments[a].default_input else inspect.Parameter.empty)
               for a in spec.arguments]
    sig = inspect.Signature(params)
    method.__signature__ = sig  # type: ignore[attr-defined]
    method.__name__ = name
    method.__qualname__ = f"{stype.name}.{name}"
    method.__doc__ = text
    return method


def _tuple_member(name: str, parts: tuple[str, ...], doc: str, stype: ScenarioType) -> Any:
    """A member that is a tuple of outputs (mlsysim's ``(low, high)``), read or called as its parts are."""
    first = stype.outputs[stype.member_outputs(name)[0]]
    text = f"{doc}\n\nThe tuple ({', '.join(parts)})."
    if first.style in ("property", "dict", "list"):
        def getter(self: Scenario) -> tuple[Any, ...]:
            return tuple(getattr(self, p) if p in stype.members else self._planner.member(p) for p in parts)

        getter.__doc__ = text
        getter.__name__ = name
        return property(getter)

    def method(self: Scenario, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        return tuple(getattr(self, p)(*args, **kwargs) for p in parts)

    method.__signature__ = inspect.signature(_output_member(first, stype))  # type: ignore[attr-defined]
    method.__name__ = name
    method.__qualname__ = f"{stype.name}.{name}"
    method.__doc__ = text
    return method


def _signature(stype: ScenarioType) -> inspect.Signature:
    """Keyword-only inputs: a default where declared, else the outputs that need the input."""
    needs = needed_by(stype)
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for spec in sorted(stype.inputs.values(), key=lambda s: not s.required):
        default = NeededBy(needs[spec.name]) if spec.required else spec.default
        params.append(inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=spec.annotation))
    params.append(inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str"))
    params.append(inspect.Parameter("description", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str"))
    return inspect.Signature(params)


def scenario_class(stype: ScenarioType, module: str = "mlsysim_symbolic.scenarios") -> type[Scenario]:
    """The Python class of a scenario type: keyword constructor, outputs as members, reference page as docstring."""
    namespace: dict[str, Any] = {"_type": stype, "__module__": module, "__doc__": _InstanceDoc(), "__slots__": ()}
    for name, spec in stype.outputs.items():
        if name in stype.inputs:
            raise InputError(f"{stype.name}: output name {name!r} clashes with an input")
        if name in RESERVED and not spec.shadows:
            raise InputError(f"{stype.name}: output name {name!r} clashes with {clash(name)}")
        namespace[name] = _output_member(spec, stype)
    for name, (parts, doc) in stype.members.items():
        namespace[name] = _tuple_member(name, parts, doc, stype)
    for in_name in stype.inputs:
        if in_name in RESERVED:
            raise InputError(f"{stype.name}: input name {in_name!r} clashes with {clash(in_name)}")
        namespace[in_name] = property(lambda self, n=in_name: input_value(self._planner, n), doc=stype.inputs[in_name].meaning)

    def __init__(self: Scenario, **kwargs: Any) -> None:
        Scenario.__init__(self, **kwargs)

    __init__.__signature__ = _signature(stype)  # type: ignore[attr-defined]
    __init__.__doc__ = f"Bind the inputs of {stype.name}."
    namespace["__init__"] = __init__
    return type(stype.name, (Scenario,), namespace)
