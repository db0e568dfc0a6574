"""Errors raised by mlsysim_symbolic.

Each error names the input, equation or file that caused it and what was
expected.  They subclass the builtin exception a Python user would expect
(``ValueError``, ``TypeError``, ``KeyError``) so ordinary ``except`` clauses work.
"""

from __future__ import annotations


class MlsysimSymbolicError(Exception):
    """Base class of every error raised on purpose by this package."""


class InputError(MlsysimSymbolicError, ValueError):
    """An input value is out of range, not finite, not an integer, or not a quantity."""


class UnitError(InputError):
    """An input or unit has the wrong dimensionality, or a unit is unknown."""


class MissingInputError(MlsysimSymbolicError, TypeError):
    """A required input was not given."""


class UnknownNameError(MlsysimSymbolicError, KeyError):
    """A name (model, scenario, input, output, key) is not known; the message lists the known ones."""

    def __str__(self) -> str:  # KeyError would print the repr of the message
        return str(self.args[0]) if self.args else ""


class UnexpectedNameError(UnknownNameError, TypeError):
    """An unexpected input, argument or key: an :class:`UnknownNameError` naming it, and the ``TypeError``
    Python raises for an unexpected argument (so ``except TypeError`` keeps working)."""


class WorkloadKindError(InputError, TypeError):
    """A workload of a kind the solver's equations do not describe (a CNN given to transformer serving): the
    ``ValueError`` of a bad input and the ``TypeError`` of an object of the wrong type.  The message names the
    argument, the workload, its kind and the kinds the solver takes."""


class WorkloadFieldError(WorkloadKindError, MissingInputError):
    """A workload of a kind the solver takes that does not state a field its equations read (a model without
    ``layers`` given to training memory); also a :class:`MissingInputError`.  The message names the workload, the
    missing fields and the result fields that need them."""


class FloatRangeError(InputError):
    """A result outside float64 at the given inputs: an overflow, a NaN, or an underflow to zero (or a subnormal)
    where the exact value is not zero.  The message names the output and the inputs that took it there."""


class InfeasibleError(InputError):
    """An inverse question with no answer: no value of the input meets the target (the message says why)."""


class FrozenEntryError(MlsysimSymbolicError, AttributeError, TypeError):
    """An attempt to change a shared registry entry in place (an attribute or a field assigned or deleted): the
    message names the entry and points to ``with_fields``, which gives a checked copy.  An ``AttributeError``
    (as a frozen dataclass raises) and the ``TypeError`` a read-only mapping raises."""


class DimensionError(MlsysimSymbolicError, ValueError):
    """An equation whose terms or result disagree in dimension."""


class EquationError(MlsysimSymbolicError, ValueError):
    """Equation text that the whitelisted parser refuses."""


class DerivationError(MlsysimSymbolicError, ValueError):
    """A derivation file that cannot be loaded: names the file, line, scenario and reason."""

    def __init__(self, reason: str, *, path: str | None = None, line: int | None = None, scenario: str | None = None):
        self.reason = reason
        self.path = path
        self.line = line
        self.scenario = scenario
        where = path or "<derivations>"
        if line is not None:
            where += f":{line}"
        if scenario:
            where += f": {scenario}"
        super().__init__(f"{where}: {reason}")


def closest(name: str, known: list[str] | tuple[str, ...], n: int = 3) -> list[str]:
    """The known names closest to ``name`` (for 'did you mean' messages)."""
    import difflib

    lowered = {k.lower(): k for k in known}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[h] for h in hits]


def did_you_mean(name: str, known: list[str] | tuple[str, ...] | object) -> str:
    """``"; did you mean 'a', 'b'?"`` for the known names close to ``name`` (empty when none is close).

    >>> did_you_mean("GPT2", ["GPT-2", "GPT3", "KWS"])
    "; did you mean 'GPT-2', 'GPT3'?"
    """
    hint = closest(str(name), [str(k) for k in known])  # type: ignore[union-attr]
    return f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""
