"""The base of the solvers: one mlsysim solver is a catalog type, a table of its arguments, and a result name.

A solver declares, as data, the scenario type it binds (``type_name``), mlsysim's ``solve(...)`` arguments in
mlsysim's order with mlsysim's defaults (:class:`Arg`: the input of ours each one binds, or that it is accepted
only at its default because the path it selects is not ported, or that mlsysim itself ignores it), and the name
of mlsysim's result class (which must be the type's ``[types.T.result]`` view).  ``solve`` binds the arguments to
a scenario of that type and returns a :class:`SolverResult`: the type's result view (mlsysim's field names and
values) that also carries ``.scenario``, so every field has its equation, LaTeX, derivative, sweep and inverse
solve (``r.ref(field)``, the output reference scenarios hand out).  No arithmetic happens here: every number is an
output of the checked type.

>>> from mlsysim_symbolic.solvers import SingleNodeModel
>>> r = SingleNodeModel().solve("ResNet50", "A100", batch_size=1)
>>> r.bottleneck, r.feasible
('Compute', True)
>>> r.equation("latency")
Eq(T, t_o + Max(t_c, t_m))
"""

from __future__ import annotations

import dataclasses
import functools
import html
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pint

from ..catalog import catalog
from ..errors import (
    InputError,
    OutOfMemoryError,
    UnexpectedNameError,
    call_error,
    did_you_mean,
)
from ..output_ref import OutputRef, analysis_surface
from ..results import ResultView, result_layout
from ..scenario import Scenario
from ..spec import ACCESSORS, RESULT_MEMBERS
from ..units import shown
from .workload_kinds import TRANSFORMERS, WORKLOADS, check_fields, check_kinds, declared_workloads

__all__ = ["REQUIRED", "TRANSFORMERS", "WORKLOADS", "Arg", "OutOfMemoryError", "Solver", "SolverResult"]

#: The default of an argument mlsysim requires.
REQUIRED = inspect.Parameter.empty
#: ``Arg.none`` markers: ``None`` is refused (mlsysim raises for it), or read as the argument's default (mlsysim
#: accepts it and gives the default's result).  Any other ``none`` is the value ``None`` stands for (mlsysim's
#: ``if sequence_parallel:`` reads None as False).
NONE_REFUSED = "<None refused>"
NONE_IS_DEFAULT = "<None is the default>"


@dataclass(frozen=True)
class Arg:
    """One argument of mlsysim's ``solve``, in mlsysim's order and with mlsysim's default.

    ``to`` names the input of the type it binds (default: the same name).  ``fixed`` means only the default is
    accepted (another value selects a path of mlsysim's that the type does not port; ``note`` says which), and
    ``ignored`` that mlsysim reads it only on such a path, so any value gives the same result (it is not bound).
    ``lower`` lower-cases a text value as mlsysim does (``"FP16"`` is ``"fp16"``).  ``kinds`` limits a workload to
    entries of those classes (mlsysim's ``TransformerWorkload`` ...), naming the others' refusal
    (:class:`~mlsysim_symbolic.errors.WorkloadKindError`, ``note`` saying why); every argument that binds a workload
    must declare it (:data:`WORKLOADS` where the equations describe any; within its type's input's ``kinds``), see
    :mod:`.workload_kinds`.  ``raises`` marks mlsysim's
    ``raise_errors``: when true, a configuration whose ``Solver.feasible`` predicate is false raises
    :class:`OutOfMemoryError` (mlsysim's ``OOMError``).  ``convert`` maps the value to several inputs at once
    (mlsysim's ``Fleet`` to the node count, the device and the devices per node its solver reads); ``indirect``
    that it binds no input itself but is read by the solver's :meth:`Solver.adjust` (mlsysim's ``grid``, taken as
    the datacenter when none is given).  ``aliases`` maps other names mlsysim knows for a choice argument to the
    option of ours that prices them alike (its CheckpointModel saves 4 B/param for every optimizer but adam).

    A text value of an argument bound to a choice input must be one of the input's options or an alias: any other
    name (``"bogus"``, ``" adam"``) is refused by name, listing the known ones, never read as a fallback option.

    ``None`` for an argument whose default is not None is refused by name where mlsysim raises for it (``none``
    :data:`NONE_REFUSED`, the default); ``none`` says otherwise where mlsysim accepts it.
    """

    name: str
    default: Any = REQUIRED
    to: str | None = None
    fixed: bool = False
    ignored: bool = False
    lower: bool = False
    kinds: tuple[str, ...] = ()
    raises: bool = False
    note: str = ""
    convert: Callable[[Any], Mapping[str, Any]] | None = None
    indirect: bool = False
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    none: Any = NONE_REFUSED

    @functools.cached_property
    def input(self) -> str | None:   # read on every call of every argument: found once
        """The input of ours this argument binds (``None`` for fixed, ignored and ``raises`` arguments)."""
        return None if (self.fixed or self.ignored or self.raises or self.indirect) else (self.to or self.name)


@analysis_surface(whole=lambda result: result.scenario, members=RESULT_MEMBERS)
class SolverResult:
    """mlsysim's result of one solve (its field names and values), with the scenario that computed it.

    ``ref(field)`` is the output behind a field as an :class:`~mlsysim_symbolic.output_ref.OutputRef`;
    ``output(field)`` names that output.  The flat forms (``equation``, ``latex``, ``diff``, ``elasticities``,
    ``sweep``, ``solve`` ...) take a field name and forward to ``ref(field)``.
    """

    __slots__ = ("_view", "_sources", "_name", "scenario")

    def __init__(self, scenario: Scenario) -> None:
        spec = scenario.type.result
        assert spec is not None
        object.__setattr__(self, "scenario", scenario)
        object.__setattr__(self, "_view", ResultView(spec, scenario.planner))
        object.__setattr__(self, "_sources", result_layout(spec).sources)
        object.__setattr__(self, "_name", spec.name)

    def __reduce__(self) -> tuple[Any, ...]:
        # the scenario pickles as its class and given inputs; the computed view goes as its values
        return _solver_result_from, (self.scenario, self._view)

    def __getattr__(self, field: str) -> Any:
        if field.startswith("__"):
            raise AttributeError(field)
        if field == "constraint_trace":
            raise AttributeError(f"{self._name}: mlsysim's constraint_trace (prose) is not carried; its facts are "
                                 "fields (feasible) and the scenario's equations")
        return getattr(object.__getattribute__(self, "_view"), field)

    def __setattr__(self, field: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __dir__(self) -> list[str]:
        return [*self._view.fields, "scenario", "output", "ref", *(n for n, m in ACCESSORS.items() if m), "fields",
                "model_dump"]

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self._view)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SolverResult) and self._view == other._view

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._view)

    def _repr_html_(self) -> str:
        rows = []
        for field, value in self._view:
            source, name = self._sources[field]
            where = f"output {name}" if source.equation else f"{source} {name}"
            rows.append(f"<tr><td>{html.escape(field)}</td><td>{_cell(value)}</td><td>{html.escape(where)}</td></tr>")
        return (f"<table><caption>{html.escape(self._name)} ({html.escape(self.scenario.type.name)})</caption>"
                "<tr><th>field</th><th>value</th><th>from</th></tr>" + "".join(rows) + "</table>")

    @property
    def fields(self) -> tuple[str, ...]:
        """mlsysim's field names, in order."""
        return self._view.fields

    def model_dump(self) -> dict[str, Any]:
        """The fields as a dict (as pydantic's ``model_dump``)."""
        return self._view.model_dump()

    def output(self, field: str) -> str:
        """The output of the scenario behind ``field`` (a field that echoes an input has none)."""
        if field not in self._sources:
            raise UnexpectedNameError("field", field, self._sources, owner=self._name)
        source, name = self._sources[field]
        if not source.equation:
            raise InputError(f"{self._name}.{field} repeats the {source} {name!r}; it has no equation")
        return name

    def ref(self, field: str) -> OutputRef:
        """The output behind ``field`` as an object (value, equation, LaTeX, derivative, sweep, solve, sensitivities):
        the same :class:`~mlsysim_symbolic.output_ref.OutputRef` the scenario hands out for that output.

        >>> from mlsysim_symbolic.solvers import SingleNodeModel
        >>> r = SingleNodeModel().solve("ResNet50", "A100", batch_size=1)
        >>> r.ref("latency") == r.scenario.ref("latency")
        True
        """
        return OutputRef(self.scenario, self.output(field))

    # equation, latex, diff, elasticities, sweep, solve ... (field, ...): forwards to self.ref(field), installed by
    # @analysis_surface from spec.surface.ACCESSORS


def _cell(value: Any) -> str:
    """One field's value as HTML: four significant figures, a Quantity's unit typeset (its names are the registry's
    own, so the markup is pint's); a label or flag as its repr.

    >>> from mlsysim_symbolic.units import Q_
    >>> _cell(Q_(0.0525641026, "ms")), _cell(0.046306754009487236), _cell(True), _cell("Compute")
    ('0.05256 ms', '0.04631', 'True', '&#x27;Compute&#x27;')
    """
    if isinstance(value, pint.Quantity) and getattr(value.magnitude, "ndim", 0) == 0:
        return shown(value, "html")
    if isinstance(value, float):
        return f"{value:.4g}"
    return html.escape(repr(value))


def _solver_result_from(scenario: Scenario, view: ResultView) -> SolverResult:
    """A :class:`SolverResult` from its scenario and computed view (how a pickled or copied result comes back)."""
    result = object.__new__(SolverResult)
    spec = scenario.type.result
    assert spec is not None
    object.__setattr__(result, "scenario", scenario)
    object.__setattr__(result, "_view", view)
    object.__setattr__(result, "_sources", result_layout(spec).sources)
    object.__setattr__(result, "_name", spec.name)
    return result


class Solver:
    """Base of the solvers: subclasses declare ``type_name``, ``result_name`` and ``arguments`` (see the module)."""

    #: The catalog type one solve binds.
    type_name: ClassVar[str]
    #: mlsysim's result class name (the type's result view must carry it).
    result_name: ClassVar[str]
    #: mlsysim's ``solve`` arguments, in order.
    arguments: ClassVar[tuple[Arg, ...]]
    #: The predicate output an argument with ``raises`` checks.
    feasible: ClassVar[str] = "feasible"
    #: Predicate outputs that must hold for the arguments to be valid (mlsysim raises ``ValueError`` otherwise).
    requires: ClassVar[tuple[str, ...]] = ()
    #: ``((argument, value), solver)``: where an argument has that value, that solver answers instead (another type
    #: for another path of mlsysim's function: ``Engine.solve(..., is_training=True)``).
    paths: ClassVar[tuple[tuple[tuple[str, Any], type[Solver]], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        params += [inspect.Parameter(a.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=a.default) for a in cls.arguments]
        cls._signature = inspect.Signature(params)
        cls._names = tuple(a.name for a in cls.arguments)
        cls._defaults = {a.name: a.default for a in cls.arguments}

        def solve(self: Solver, *args: Any, **kwargs: Any) -> SolverResult:
            return self._solve(*args, **kwargs)

        solve.__signature__ = cls._signature  # type: ignore[attr-defined]
        solve.__doc__ = (f"mlsysim's ``{cls.__name__}.solve`` over ``{cls.type_name}``: returns its "
                         f"``{cls.result_name}`` fields with ``.scenario``.")
        solve.__qualname__ = f"{cls.__name__}.solve"
        cls.solve = solve  # type: ignore[method-assign]

    def solve(self, *args: Any, **kwargs: Any) -> SolverResult:   # replaced per subclass (its signature is mlsysim's)
        raise NotImplementedError

    @classmethod
    def scenario_type(cls) -> type[Scenario]:
        """The scenario-type class one solve binds (looked up once per solver class)."""
        found = cls.__dict__.get("_scenario_class")
        if found is None:
            found = cls._scenario_class = catalog().classes[cls.type_name]
        return found

    def arguments_of(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """mlsysim's arguments of one call, by name, defaults filled in (a missing or unknown one is refused by name)."""
        names = self._names
        if len(args) <= len(names):   # the common call, bound by a table; anything odd goes through inspect for its error
            values = dict(zip(names, args))
            if not any(k in values or k not in self._defaults for k in kwargs):
                values.update(kwargs)
                for name, default in self._defaults.items():
                    if name not in values:
                        if default is REQUIRED:
                            break
                        values[name] = default
                else:
                    return {n: values[n] for n in names}
        try:
            bound = self._signature.bind(self, *args, **kwargs)
        except TypeError:
            raise call_error(self._signature, (self, *args), kwargs, f"{type(self).__name__}.solve()") from None
        bound.apply_defaults()
        values = dict(bound.arguments)
        values.pop("self")
        return values

    def _path(self, values: dict[str, Any]) -> type[Solver] | None:
        for (name, value), other in self.paths:
            if values[name] is value or values[name] == value:
                return other
        return None

    def scenario(self, *args: Any, **kwargs: Any) -> Scenario:
        """The scenario one ``solve(*args, **kwargs)`` binds (its inputs, before any result is read)."""
        values = self.arguments_of(*args, **kwargs)
        other = self._path(values)
        if other is not None:
            return other().scenario(*args, **kwargs)
        return self._scenario(values)

    def _scenario(self, values: dict[str, Any]) -> Scenario:
        inputs: dict[str, Any] = {}
        for arg in self.arguments:
            value = values[arg.name]
            if arg.fixed:
                if not (value is arg.default or value == arg.default):
                    raise InputError(f"{type(self).__name__}.solve(): {arg.name}={value!r} is not ported "
                                     f"(only the default {arg.default!r}): {arg.note}")
                continue
            if value is None and arg.default is not None and not (arg.ignored or arg.raises):
                if arg.none == NONE_REFUSED:
                    default = "required" if arg.default is REQUIRED else f"default {arg.default!r}"
                    raise InputError(f"{type(self).__name__}.solve(): {arg.name}=None is not a value here (mlsysim raises "
                                     f"for it, or reads it on a path not ported); give a value ({default})")
                value = None if arg.none == NONE_IS_DEFAULT else arg.none
                values[arg.name] = value
            if arg.input is None or value is None:
                continue
            if arg.lower and isinstance(value, str):
                value = value.lower()
            if isinstance(value, str):
                value = self._option(arg, value)
            if arg.convert is not None:
                inputs.update(arg.convert(value))
                continue
            inputs[arg.input] = value   # type: ignore[index]
        self.adjust(values, inputs)
        check_kinds(type(self).__name__, self.bindings()[1], inputs)
        return self.scenario_type()(name=f"{type(self).__name__}.solve", **inputs)

    @classmethod
    def bindings(cls) -> tuple[dict[str, tuple[str, ...]], tuple[tuple[Arg, Any], ...]]:
        """What a solve reads of its type, found once per solver class (not on each call): the options of each
        argument bound to a choice input, and the workload arguments with their input specs (their kinds checked
        against the type's here)."""
        found = cls.__dict__.get("_bindings")
        if found is None:
            stype = catalog().types[cls.type_name]
            options = {a.name: tuple(getattr(stype.inputs.get(a.input or ""), "options", None) or ()) for a in cls.arguments}
            found = (options, declared_workloads(cls.__name__, cls.arguments, stype))
            cls._bindings = found
        return found

    def _option(self, arg: Arg, value: str) -> str:
        """A text value of a choice argument: an option of its input, or an alias of one; any other name refused."""
        options = self.bindings()[0][arg.name]
        if not options:
            return value
        if value in arg.aliases:
            return arg.aliases[value]
        if value not in options:
            known = sorted({*options, *arg.aliases})
            raise InputError(f"{type(self).__name__}.solve(): {arg.name}={value!r} is not a known {arg.name}"
                             + did_you_mean(value.strip(), known) + f" Known: {', '.join(map(repr, known))}")
        return value

    def adjust(self, values: dict[str, Any], inputs: dict[str, Any]) -> None:
        """Where mlsysim reads one argument through another (a fleet's datacenter when none is given), set ``inputs``
        from ``values`` (mlsysim's arguments by name); by default nothing."""

    def _solve(self, *args: Any, **kwargs: Any) -> SolverResult:
        values = self.arguments_of(*args, **kwargs)
        other = self._path(values)
        if other is not None:
            return other().solve(*args, **kwargs)
        scenario = self._scenario(values)
        for predicate in self.requires:
            if not scenario.planner.member(predicate):
                raise InputError(f"{type(self).__name__}.solve(): {predicate} does not hold: "
                                 f"{scenario.type.output(predicate).doc}")
        result = SolverResult(scenario)
        check_fields(type(self).__name__, self.arguments, scenario)
        if any(values[a.name] for a in self.arguments if a.raises) and not scenario.planner.member(self.feasible):
            raise OutOfMemoryError(f"{type(self).__name__}.solve(): the configuration does not fit "
                                   f"({self.feasible} is false: {scenario.type.output(self.feasible).doc})")
        return result
