"""One output of one scenario as an object: its value and every analysis of it, wherever it was handed out.

An :class:`OutputRef` is (scenario, output name[, keys]).  Scenarios, solver results and evaluation levels hand
out the same object (``s.ref("per_batch")``, ``result.ref("latency")``, ``level.ref("latency")``), so the value,
equation, LaTeX, derivative, sweep, inverse solve and sensitivities of an output are one surface whoever computed
it.  Each method delegates to the analysis modules (:mod:`.symbolic`, :mod:`.sweep`, :mod:`.solve`,
:mod:`.sensitivity`, :mod:`.printing`); nothing is computed here.

The flat forms of earlier versions (``s.diff(output, wrt)``, ``result.solve(field, input, target)`` ...) are
:class:`Forward` descriptors, installed once per owner class by :func:`analysis_surface` from the one table of
accessor names (:data:`~mlsysim_symbolic.spec.surface.ACCESSORS`), which is also the table the type builder
refuses declared names against.

>>> from mlsysim_symbolic import Scenarios
>>> per_batch = Scenarios.DpSgdPerExampleGradients.ref("per_batch", "GPT-2")
>>> per_batch
OutputRef(DpSgdPerExampleGradients, 'per_batch', 'GPT-2')
>>> per_batch.value.to("TB")
<Quantity(1.536, 'terabyte')>
>>> per_batch.equation(expand=True)
Eq(M_batch, B*P*b)
>>> per_batch.diff("batch_size")
P*b
>>> per_batch.solve("batch_size", "80 GB").value
13
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import sympy

from . import printing as latex_module
from . import symbolic
from .plan import Analysable
from .sensitivity import SensitivityAccessor
from .solve import InverseAccessor
from .spec.surface import ACCESSORS
from .sweep import SweepAccessor

__all__ = ["Forward", "OutputRef", "analysis_surface"]


class OutputRef:
    """One output of one scenario (with the keys that pick a keyed value): its value and its analyses.

    Every method takes what the flat form took after the output name (``keys`` given here are added after the
    reference's own).

    >>> from mlsysim_symbolic import Scenarios
    >>> r = Scenarios.DpSgdPerExampleGradients.ref("per_batch")
    >>> print(r.latex(values=False))
    M_{\\mathrm{batch}} = M_{\\mathrm{example}} B
    >>> [e.input for e in r.elasticities("GPT-2")]
    ['batch_size', 'bytes_per_param', 'parameters']
    """

    __slots__ = ("scenario", "name", "keys")

    scenario: Any
    name: str
    keys: tuple[Any, ...]

    def __init__(self, scenario: Analysable, name: str, *keys: Any) -> None:
        scenario.type.output(name)   # an unknown name is refused here, with the outputs it might have meant
        object.__setattr__(self, "scenario", scenario)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "keys", keys)

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError("OutputRef is immutable")

    def __repr__(self) -> str:
        keys = "".join(f", {k!r}" for k in self.keys)
        scenario = getattr(self.scenario, "key", None) or self.scenario.type.name   # a catalog scenario by its key
        return f"OutputRef({scenario}, {self.name!r}{keys})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, OutputRef) and other.scenario is self.scenario and other.name == self.name
                and other.keys == self.keys)

    def __hash__(self) -> int:
        return hash((id(self.scenario), self.name, self.keys))

    def __reduce__(self) -> tuple[Any, ...]:
        return OutputRef, (self.scenario, self.name, *self.keys)

    # ------------------------------------------------------------------ values
    @property
    def value(self) -> Any:
        """The value (a Quantity; a dict by key for a keyed output without keys), as reading the member gives."""
        return self.scenario.planner.member(self.name, self.keys)

    def evaluate(self, *keys: Any, **arguments: Any) -> Any:
        """The value at more keys or with the free arguments of a method output."""
        return self.scenario.planner.evaluate(self.name, *self.keys, *keys, **arguments)

    def symbol_values(self, *keys: Any, **arguments: Any) -> dict[sympy.Symbol, Any]:
        """The value of each leaf symbol as a Quantity in its declared unit."""
        return self.scenario.planner.symbol_values(self.name, *self.keys, *keys, **arguments)

    # ------------------------------------------------------------------ symbolic
    def expression(self, expand: bool = False) -> sympy.Expr:
        """The tree (over inputs and earlier outputs; over inputs only with ``expand``)."""
        return self.scenario.planner.expression(self.name, expand=expand)

    def equation(self, expand: bool = False) -> sympy.Eq:
        """``Eq(output_symbol, tree)``."""
        out = self.scenario.type.output(self.name)
        return sympy.Eq(out.variable.symbol, self.expression(expand=expand), evaluate=False)

    def simplify(self) -> sympy.Expr:
        """``sympy.simplify`` of the expanded tree."""
        symbolic.check_expandable(self.scenario, self.name, "simplify")
        return sympy.simplify(self.expression(expand=True))

    def diff(self, wrt: str | sympy.Symbol) -> sympy.Expr:
        """∂output/∂wrt, symbolically (``wrt`` names an input or its symbol)."""
        return symbolic.diff(self.scenario, self.name, wrt)

    def elasticities(self, *keys: Any, **arguments: Any) -> list[symbolic.Elasticity]:
        """∂ln y/∂ln x for every input x: symbolic and at the scenario's values, ranked."""
        return symbolic.elasticities(self.scenario, self.name, *self.keys, *keys, **arguments)

    # ------------------------------------------------------------------ sensitivity
    def local_sensitivity(self, *keys: Any, **arguments: Any) -> Any:
        """Local sensitivities (``sensitivity.local``)."""
        return SensitivityAccessor(self.scenario).local(self.name, *self.keys, *keys, **arguments)

    sensitivity = local_sensitivity

    def one_at_a_time(self, *keys: Any, **options: Any) -> Any:
        """``sensitivity.one_at_a_time``."""
        return SensitivityAccessor(self.scenario).one_at_a_time(self.name, *self.keys, *keys, **options)

    def tornado(self, *keys: Any, **options: Any) -> Any:
        """``sensitivity.tornado``."""
        return SensitivityAccessor(self.scenario).tornado(self.name, *self.keys, *keys, **options)

    def sobol(self, *keys: Any, ranges: Mapping[str, Any], **options: Any) -> Any:
        """``sensitivity.sobol``."""
        return SensitivityAccessor(self.scenario).sobol(self.name, *self.keys, *keys, ranges=ranges, **options)

    def morris(self, *keys: Any, ranges: Mapping[str, Any], **options: Any) -> Any:
        """``sensitivity.morris``."""
        return SensitivityAccessor(self.scenario).morris(self.name, *self.keys, *keys, ranges=ranges, **options)

    def uncertainty(self, *keys: Any, inputs: Mapping[str, Any], **options: Any) -> Any:
        """``sensitivity.uncertainty``."""
        return SensitivityAccessor(self.scenario).uncertainty(self.name, *self.keys, *keys, inputs=inputs, **options)

    # ------------------------------------------------------------------ sweeps and inverse questions
    def sweep(self, *keys: Any, **inputs: Any) -> Any:
        """The output over arrays of inputs (``sweeps.grid``: ``batch_size=range(1, 65)``)."""
        return SweepAccessor(self.scenario).grid(self.name, *self.keys, *keys, **inputs)

    def reduce_sweep(self, *keys: Any, **options: Any) -> Any:
        """``sweeps.reduce``: chunked min/max/feasible region."""
        return SweepAccessor(self.scenario).reduce(self.name, *self.keys, *keys, **options)

    def solve(self, input: str, target: Any = None, *keys: Any, **options: Any) -> Any:
        """The value of ``input`` that brings the output to ``target`` (for a predicate, where it stops holding)."""
        return InverseAccessor(self.scenario).solve(self.name, input, target, *self.keys, *keys, **options)

    def optimum(self, input: str, *keys: Any, **options: Any) -> Any:
        """``inverse.optimum``: the input that minimises (or maximises) the output."""
        return InverseAccessor(self.scenario).optimum(self.name, input, *self.keys, *keys, **options)

    # ------------------------------------------------------------------ LaTeX
    def latex(self, *keys: Any, values: bool = True, **options: Any) -> Any:
        """LaTeX: equation = numbers = result (the equation alone with ``values=False``)."""
        if values:
            return latex_module.substituted(self.scenario, self.name, *self.keys, *keys, **options)
        return latex_module.equation(self.scenario, self.name, **options)

    def symbol_table(self) -> Any:
        """The symbol table of the output."""
        return latex_module.symbol_table(self.scenario, self.name)


#: Forwards that also answer without an output name: for the whole scenario.
_WHOLE: dict[str, Callable[..., Any]] = {
    "latex": lambda scenario, *keys, values=True, **options: latex_module.align(scenario, *keys, **options),
    "symbol_table": lambda scenario: latex_module.symbol_table(scenario, None),
}


class Forward:
    """A flat accessor: ``owner.NAME(output, *args, **options)`` is ``owner.ref(output).METHOD(*args, **options)``.

    The owner class gives ``ref(output) -> OutputRef``; ``whole(owner)`` is the scenario a call without an output
    (``latex()``, ``symbol_table()``) works on, or None where there is no single one.
    """

    def __init__(self, name: str, method: str, whole: Callable[[Any], Any]) -> None:
        self.name, self.method, self.whole = name, method, whole
        target = getattr(OutputRef, method)
        self.__doc__ = f"``{name}(output, ...)`` is ``ref(output).{method}(...)``: " + (target.__doc__ or "")
        rest = list(inspect.signature(target).parameters.values())[1:]   # the method's own, after self
        output = inspect.Parameter("output", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                   default=None if name in _WHOLE else inspect.Parameter.empty)
        self.signature = inspect.Signature([output, *rest])

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        bound = functools.partial(self.call, obj)
        bound.__signature__ = self.signature  # type: ignore[attr-defined]
        bound.__doc__ = self.__doc__
        return bound

    def call(self, obj: Any, output: str | None = None, *args: Any, **options: Any) -> Any:
        if output is None:
            whole = _WHOLE.get(self.name)
            scenario = self.whole(obj)
            if whole is None or scenario is None:
                raise TypeError(f"{type(obj).__name__}.{self.name}() needs the name of an output")
            return whole(scenario, *args, **options)
        return getattr(obj.ref(output), self.method)(*args, **options)


Owner = TypeVar("Owner", bound=type)


def analysis_surface(whole: Callable[[Any], Any], members: frozenset[str]) -> Callable[[Owner], Owner]:
    """Class decorator: install every forward of :data:`ACCESSORS` on an owner that defines ``ref``.

    ``members`` are the owner's other public names, from :mod:`.spec.surface` (what a declaration or result field
    may not take).  A forward the class defines itself, or a public member in neither table, is a conflict in our
    own code, refused when the module is imported: the tables the builder refuses names against stay complete.
    """
    def install(cls: Owner) -> Owner:
        if "ref" not in cls.__dict__:
            raise TypeError(f"{cls.__name__} hands out no OutputRef (define ref)")
        for name, method in ACCESSORS.items():
            if method is None:
                continue
            if name in cls.__dict__:
                raise TypeError(f"{cls.__name__}.{name} is a registered analysis accessor; define it on OutputRef")
            setattr(cls, name, Forward(name, method, whole))
        unlisted = sorted(n for n in vars(cls) if not n.startswith("_") and n not in members and n not in ACCESSORS)
        if unlisted:
            raise TypeError(f"{cls.__name__}: public members not in its table ({', '.join(unlisted)}); list them "
                            "(spec.surface), so no declaration can take their names")
        return cls
    return install
