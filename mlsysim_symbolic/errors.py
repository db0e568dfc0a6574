"""Errors raised by mlsysim_symbolic: every error class of the package, each carrying its data.

Each error names the input, equation or file that caused it and what was expected.  They subclass the builtin
exception a Python user would expect (``ValueError``, ``TypeError``, ``KeyError``) so ordinary ``except`` clauses
work.  As pint's errors do, an error of a name, an input or a unit keeps its parts as fields (``exc.name``,
``exc.known``, ``exc.expected`` ...) and writes its message from them only when it is shown (``__str__``): code
that handles an error reads its class and fields, never its text.  Every error round-trips through ``pickle``
(a worker process's error reaches its parent whole).

>>> import pickle
>>> e = UnknownNameError("input", "batch_sise", ["batch_size", "models"], owner="PerExampleGradientScenario")
>>> print(e)
PerExampleGradientScenario: unknown input 'batch_sise'; did you mean 'batch_size'? Known: batch_size, models
>>> again = pickle.loads(pickle.dumps(e))
>>> (type(again), again.name, again.known, str(again) == str(e))
(<class 'mlsysim_symbolic.errors.UnknownNameError'>, 'batch_sise', ('batch_size', 'models'), True)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, ClassVar

#: At most this many known names are listed after ``Known:`` (a catalog has hundreds of scenarios).
MAX_LISTED = 30


def _restore(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """An error rebuilt from its class, ``args`` and fields, without calling its ``__init__`` (for ``pickle``)."""
    error = cls.__new__(cls)
    BaseException.__init__(error, *args)
    error.__dict__.update(state)
    return error


class MlsysimSymbolicError(Exception):
    """Base class of every error raised on purpose by this package.

    A plain one carries its message (``args[0]``); a subclass with fields sets them in ``__init__`` and writes its
    message in ``__str__``.  Any of them may carry ``option``, the command-line option or argument that gave the bad
    value (set by the CLI, which prints ``option: message``).
    """

    #: What the error is said of, outermost first (an option, an argument, a field): shown before the message.
    context: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "".join(f"{c}: " for c in self.context) + self.render()

    def render(self) -> str:
        """The message from the error's fields (a plain error: the message it was given)."""
        return BaseException.__str__(self)   # not KeyError's, which shows the repr

    def within(self, owner: str) -> MlsysimSymbolicError:
        """The same error, said of ``owner`` (the argument, field or option that held the bad value).

        >>> print(UnknownNameError("hardware", "H1000", ["H100"]).within("fleet.accelerator"))
        fleet.accelerator: unknown hardware 'H1000'; did you mean 'H100'? Known: H100
        >>> print(InputError("must be positive").within("batch_size").within("--set"))
        --set: batch_size: must be positive
        """
        error = copy.copy(self)
        error.context = (owner, *self.context)
        return error

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (type(self), self.args, dict(self.__dict__))


class InputError(MlsysimSymbolicError, ValueError):
    """An input value is out of range, not finite, not an integer, or not a quantity."""


class InputTypeError(InputError, TypeError):
    """An input of the wrong Python type (a number where text is read): a ``TypeError`` where mlsysim raises one."""


class UnitError(InputError):
    """An input or unit has the wrong dimensionality, or a unit is unknown."""


class UndefinedUnitError(UnitError):
    """A unit text the unit registry does not define (pint's ``UndefinedUnitError``): ``unit`` is the text,
    ``name`` the input or option it was given for (if any), ``reason`` what is wrong with it.

    >>> print(UndefinedUnitError("furlongs", name="TARGET"))
    TARGET: unknown unit 'furlongs': not in the mlsysim_symbolic unit registry
    """

    def __init__(self, unit: str, *, name: str = "", reason: str = "not in the mlsysim_symbolic unit registry") -> None:
        super().__init__(unit)
        self.unit, self.name, self.reason = unit, name, reason

    def render(self) -> str:
        return f"{self.name}: " * bool(self.name) + f"unknown unit {self.unit!r}: {self.reason}"


class UnscaledUnitError(UnitError):
    """A unit that does not convert by a factor (pint's offset and logarithmic units: ``degC``, ``dB``) where a unit
    is declared or converted: ``unit`` is the text, ``parts`` the units in it that do not scale.

    >>> print(UnscaledUnitError("degC/s", ["degree_Celsius"]))
    unit 'degC/s' does not convert by a factor (degree_Celsius): declare kelvin (a difference in K or delta_degC), give a temperature point alone ('25 degC', read as 298.15 K), and a gain as its ratio, not in dB
    """

    def __init__(self, unit: str, parts: list[str]) -> None:
        super().__init__(unit)
        self.unit, self.parts = unit, list(parts)

    def render(self) -> str:
        return (f"unit {self.unit!r} does not convert by a factor ({', '.join(self.parts)}): declare kelvin (a "
                f"difference in K or delta_degC), give a temperature point alone ('25 degC', read as 298.15 K), and a "
                f"gain as its ratio, not in dB")


class DimensionalityError(UnitError):
    """A value whose dimension is not the one expected (pint's ``DimensionalityError``).

    Fields: ``name`` (the input, argument or option), ``got`` (the value, with its unit described), ``expected``
    (the unit expected, described), ``dimensions`` (the value's and the expected dimension, when shown), ``what``
    (the output the value is a bound of, for a target) and ``note``.

    >>> print(DimensionalityError("batch_size", "256 token (tokens)", "sample (samples)", dimensions=("[token]", "[sample]")))
    batch_size expects sample (samples); got 256 token (tokens): dimension [token], not [sample]
    >>> print(DimensionalityError("TARGET", "80 s ([time])", "B ([information])", what="per_batch"))
    TARGET: per_batch is in B ([information]); got 80 s ([time])
    """

    def __init__(self, name: str, got: str, expected: str, *, dimensions: tuple[str, str] | None = None, what: str = "",
                 note: str = "") -> None:
        super().__init__(name)
        self.name, self.got, self.expected, self.dimensions, self.what, self.note = name, got, expected, dimensions, what, note

    def render(self) -> str:
        if self.what:
            text = f"{self.name}: {self.what} is in {self.expected}; got {self.got}"
        else:
            text = f"{self.name} expects {self.expected}; got {self.got}"
        if self.dimensions:
            text += f": dimension {self.dimensions[0]}, not {self.dimensions[1]}"
        return text + (f" {self.note}" if self.note else "")


def _hint(name: object, known: tuple[str, ...]) -> str:
    hint = closest(str(name), known)
    return f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""


def _listed(text: str, known: tuple[str, ...], quoted: bool = False) -> str:
    """``text`` and the known names: ``... 'x'? Known: a, b`` after a hint, ``... 'x'. Known: a, b`` without one
    (``quoted``: each name as its ``repr``, for data such as a model key that may hold spaces or commas)."""
    if not known:
        return text
    shown = ", ".join(map(repr, known[:MAX_LISTED]) if quoted else known[:MAX_LISTED]) + (f", ... ({len(known)} in all)" if len(known) > MAX_LISTED else "")
    return f"{text}{'' if text.endswith('?') else '.'} Known: {shown}"


class UnknownNameError(MlsysimSymbolicError, KeyError):
    """A name (model, scenario, input, output, key) that is not known.

    Fields: ``what`` (the kind of name: ``"input"``, ``"scenario"``, ``"field"`` ...), ``name`` (as given),
    ``known`` (the names that are), ``owner`` (what has no such name: a type, an entry, an argument) and ``note``
    (any advice).  The message, in the one hint format of the package::

        <owner>: unknown <what> 'name'; did you mean 'x', 'y'? (<note>) Known: a, b, c

    (``. Known:`` when no known name is close; ``listed=False`` leaves the list out, for hundreds of names.)

    >>> print(UnknownNameError("family", "trainig", ["dp", "training"]))
    unknown family 'trainig'; did you mean 'training'? Known: dp, training
    >>> print(UnknownNameError("group", "Storage", ["Fabrics", "Nodes"], owner="Systems"))
    Systems: unknown group 'Storage'. Known: Fabrics, Nodes
    """

    verb = "unknown"
    quoted: ClassVar[bool] = False   # the known names listed as their repr (keys: data, not identifiers)

    def __init__(self, what: str, name: Any, known: Iterable[Any] = (), *, owner: str = "", note: str = "",
                 listed: bool = True) -> None:
        super().__init__(name)
        self.what, self.name, self.owner, self.note, self.listed = what, name, owner, note, listed
        self.known = tuple(map(str, known))

    def render(self) -> str:
        head = f"{self.owner}: " if self.owner else ""
        text = f"{head}{self.verb} {self.what} {self.name!r}" + _hint(self.name, self.known)
        if self.note:
            text += f" {self.note}" if self.note.startswith("(") else f"; {self.note}"
        return _listed(text, self.known, self.quoted) if self.listed else text

class UnknownKeyError(UnknownNameError):
    """A key of a keyed input (a model's name in a table of models) that the scenario does not have: the known keys
    are listed as written, quoted (a key is data: ``'GPT-2'``, ``'Llama 3, 8B'``).

    >>> print(UnknownKeyError("models key", "GPT-3", ["KWS", "GPT-2"]))
    unknown models key 'GPT-3'; did you mean 'GPT-2'? Known: 'KWS', 'GPT-2'
    """

    quoted = True


class UnexpectedNameError(UnknownNameError, TypeError):
    """An unexpected input, argument or key: an :class:`UnknownNameError` naming it, and the ``TypeError``
    Python raises for an unexpected argument (so ``except TypeError`` keeps working).

    >>> print(UnexpectedNameError("argument", "tua", ["tau", "factor"], owner="waste_at()"))
    waste_at(): unexpected argument 'tua'; did you mean 'tau'? Known: tau, factor
    """

    verb = "unexpected"


class UnknownEntryError(UnknownNameError, AttributeError):
    """A group or entry a namespace (``Models``, ``Hardware`` ...) does not have: an :class:`UnknownNameError`
    and the ``AttributeError`` an attribute lookup raises (so ``hasattr`` and ``getattr(..., default)`` keep
    working)."""


class MissingInputError(MlsysimSymbolicError, TypeError):
    """A required input was not given.

    Fields: ``owner`` (the output or call that needs it), ``names`` (the inputs or arguments missing), ``what``
    (``"input"``, ``"argument"``, ``"a key for"`` ...), ``options`` (the values it may take, if known) and
    ``reason`` (why it is missing).  A plain message is accepted too (``MissingInputError("text")``).

    >>> print(MissingInputError("KvFootprintScenario.total", ["tokens"]))
    KvFootprintScenario.total needs input 'tokens', which this scenario does not set
    """

    def __init__(self, owner: str, names: Iterable[str] | None = None, *, what: str = "input",
                 options: Iterable[Any] = (), reason: str = "which this scenario does not set") -> None:
        super().__init__(owner)
        self.owner, self.what, self.reason = owner, what, reason
        self.names = None if names is None else tuple(names)
        self.options = tuple(options)

    def render(self) -> str:
        if self.names is None:   # a plain message
            return str(self.owner)
        text = f"{self.owner} needs {self.what} {', '.join(map(repr, self.names))}"
        if self.options:
            text += f" (one of {', '.join(map(repr, self.options))})"
        return text + (f", {self.reason}" if self.reason else "")


class WorkloadKindError(InputError, TypeError):
    """A workload of a kind the solver's equations do not describe (a CNN given to transformer serving): the
    ``ValueError`` of a bad input and the ``TypeError`` of an object of the wrong type.  The message names the
    argument, the workload, its kind and the kinds the solver takes."""


class WorkloadFieldError(WorkloadKindError, MissingInputError):
    """A workload of a kind the solver takes that does not state a field its equations read (a model without
    ``layers`` given to training memory); also a :class:`MissingInputError`.  The message names the workload, the
    missing fields and the result fields that need them."""


class UndeclaredKindsError(MlsysimSymbolicError, TypeError):
    """A solver argument binds a workload input but declares no ``kinds`` (a programming error of the solver)."""


class FloatRangeError(InputError):
    """A result outside float64 at the given inputs: an overflow, a NaN, or an underflow to zero (or a subnormal)
    where the exact value is not zero.  The message names the output and the inputs that took it there."""


class InfeasibleError(InputError):
    """An inverse question with no answer: no value of the input meets the target (the message says why)."""


class OutOfMemoryError(InfeasibleError):
    """``raise_errors=True`` and the configuration does not fit (mlsysim's ``OOMError``)."""


class SLAViolation(InputError):
    """The performance level failed: the latency exceeds the SLA (mlsysim's ``SLAViolation``)."""


class FrozenEntryError(MlsysimSymbolicError, AttributeError, TypeError):
    """An attempt to change a shared registry entry in place (an attribute or a field assigned or deleted): the
    message names the entry and points to ``with_fields``, which gives a checked copy.  An ``AttributeError``
    (as a frozen dataclass raises) and the ``TypeError`` a read-only mapping raises."""


class FrozenTypeError(MlsysimSymbolicError, AttributeError):
    """An attribute of a scenario type set or deleted after it was built (a built type is shared and frozen: what
    its catalog adds is given to ``ScenarioType.from_mapping``)."""


class DimensionError(MlsysimSymbolicError, ValueError):
    """An equation whose terms or result disagree in dimension."""


class EquationError(MlsysimSymbolicError, ValueError):
    """Equation text that the whitelisted parser refuses."""


class LatexCompileError(MlsysimSymbolicError, RuntimeError):
    """pdflatex reported an error (or is not installed); the message quotes the log."""


class DerivationError(MlsysimSymbolicError, ValueError):
    """A derivation file that cannot be loaded: names the file, line, scenario and reason.

    >>> print(DerivationError("unknown name 'q'", path="tiny.toml", line=4, scenario="Tiny"))
    tiny.toml:4: Tiny: unknown name 'q'
    """

    def __init__(self, reason: object, *, path: str | None = None, line: int | None = None, scenario: str | None = None):
        super().__init__(reason)
        self.reason = reason   # text, or the error of the package that the file caused (rendered with it)
        self.path = path
        self.line = line
        self.scenario = scenario

    def render(self) -> str:
        where = self.path or "<derivations>"
        if self.line is not None:
            where += f":{self.line}"
        if self.scenario:
            where += f": {self.scenario}"
        return f"{where}: {self.reason}"


class CommandLineError(MlsysimSymbolicError, ValueError):
    """A bad command-line argument that no library call refuses (a missing TARGET, a --model where none is
    keyed): the CLI prints it to standard error and exits with status 2.  ``option`` names the argument."""

    def __init__(self, message: str, *, option: str = "") -> None:
        super().__init__(message)
        self.message, self.option = message, option

    def render(self) -> str:
        return self.message


class FormatError(InputError):
    """A value a ``fmt_*`` formatter refuses to show (mlsysim raises ``ValueError`` there): a non-finite value, a
    display that would hide the value (``0.1`` shown as ``0``), a keyword out of its set.  ``formatter`` names the
    formatter, ``problem`` says what is wrong.

    >>> print(FormatError("fmt_percent", "style must be 'number', 'prose' or 'symbol', got 'word'"))
    fmt_percent: style must be 'number', 'prose' or 'symbol', got 'word'
    """

    def __init__(self, formatter: str, problem: str) -> None:
        super().__init__(formatter, problem)
        self.formatter, self.problem = formatter, problem

    def render(self) -> str:
        return f"{self.formatter}: {self.problem}"


class FormatTypeError(MlsysimSymbolicError, TypeError):
    """A ``fmt_*`` formatter given the wrong kind of input (mlsysim raises ``TypeError`` there, pint's
    ``DimensionalityError`` included): a plain number where a Quantity is required, a unit of another dimension,
    an unknown keyword.  Fields as :class:`FormatError`.

    >>> print(FormatTypeError("fmt_qty", "requires a pint Quantity, got float"))
    fmt_qty: requires a pint Quantity, got float
    """

    def __init__(self, formatter: str, problem: str) -> None:
        super().__init__(formatter, problem)
        self.formatter, self.problem = formatter, problem

    def render(self) -> str:
        return f"{self.formatter}: {self.problem}"


class NoAnswerError(MlsysimSymbolicError):
    """A well-formed command with no answer or whose work failed (a failed check, a docs site that cannot be
    built): the CLI prints it to standard error and exits with status 1."""


class NotCachedError(MlsysimSymbolicError):
    """A value the caches on disk do not store (a plan holding a symbol that carries its variable, a type naming
    another catalog): raised while writing an entry, never to a user; the value is simply not stored.
    ``value`` is the part that could not be written."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value

    def render(self) -> str:
        return f"not stored on disk: {type(self.value).__name__} {self.value!r}"


def closest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names closest to ``name`` (for 'did you mean' hints).

    >>> closest("GPT2", ["GPT-2", "GPT3", "KWS"])
    ['GPT-2', 'GPT3']
    """
    import difflib

    lowered = {str(k).lower(): str(k) for k in known}
    hits = difflib.get_close_matches(str(name).lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[h] for h in hits]


def did_you_mean(name: str, known: Iterable[Any]) -> str:
    """``"; did you mean 'a', 'b'?"`` for the known names close to ``name`` (empty when none is close): the one
    hint format, for the messages not yet written by an error class of their own.

    >>> did_you_mean("GPT2", ["GPT-2", "GPT3", "KWS"])
    "; did you mean 'GPT-2', 'GPT3'?"
    """
    return _hint(name, tuple(map(str, known)))


def call_error(signature: Any, args: tuple[Any, ...], kwargs: dict[str, Any], owner: str) -> MlsysimSymbolicError:
    """The error of a call whose arguments ``signature.bind(*args, **kwargs)`` refused, found from the signature
    (never from the text of Python's ``TypeError``): an :class:`UnexpectedNameError` naming an unknown or repeated
    argument, or a :class:`MissingInputError` naming the required ones not given.  A first parameter ``self`` is
    not shown.

    >>> import inspect
    >>> sig = inspect.signature(lambda self, key, tau=None: None)
    >>> print(call_error(sig, (object(),), {"tua": 1}, "Scenario.waste_at()"))
    Scenario.waste_at(): unexpected argument 'tua'; did you mean 'tau'? Known: key, tau
    >>> print(call_error(sig, (object(),), {"tau": 1}, "Scenario.waste_at()"))
    Scenario.waste_at() needs argument 'key'
    """
    import inspect

    params = list(signature.parameters.values())
    known = [p.name for p in params if p.name != "self"]
    positional = [p for p in params if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    kinds = {p.kind for p in params}
    if len(args) > len(positional) and inspect.Parameter.VAR_POSITIONAL not in kinds:
        shown = len(positional) - (bool(positional) and positional[0].name == "self")
        return UnexpectedNameError("positional argument", args[len(positional)], known, owner=owner,
                                   note=f"(it takes {shown} positional arguments)")
    given = {p.name for p in positional[:len(args)]}
    by_name = {p.name: p for p in params if p.kind != inspect.Parameter.POSITIONAL_ONLY}
    for name in kwargs:
        if name not in by_name and inspect.Parameter.VAR_KEYWORD not in kinds:
            return UnexpectedNameError("argument", name, known, owner=owner)
        if name in given:
            return UnexpectedNameError("argument", name, known, owner=owner, note="(given twice: by position and by name)")
    missing = [p.name for p in params if p.default is inspect.Parameter.empty and p.name not in given and p.name not in kwargs
               and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    if missing:
        return MissingInputError(owner, missing, what="argument" if len(missing) == 1 else "arguments", reason="")
    return InputError(f"{owner}: the arguments do not fit its signature {signature}")
