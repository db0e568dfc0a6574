"""mlsysim's solver Models declared as data: ``derivations/models/models.toml`` made into :class:`~.base.Solver` classes.

Each ``[[model]]`` entry names mlsysim's Model class, the catalog type one solve binds, mlsysim's result class and
mlsysim's ``solve`` arguments in its order with its defaults.  The classes are made once, when first asked for
(:func:`declared_solvers`), each a real subclass of :class:`~.base.Solver` named as mlsysim's:

>>> from mlsysim_symbolic.solvers import AcceptedTaskCostModel
>>> AcceptedTaskCostModel.__name__, AcceptedTaskCostModel.type_name
('AcceptedTaskCostModel', 'AcceptedTaskCostScenario')
>>> r = AcceptedTaskCostModel().solve("2 USD", "3 USD", 0.5, token_price_cut=0.2)
>>> r.cost_per_accepted, round(r.break_even_acceptance, 6)
(10.0, 0.543478)
>>> r.equation("cost_per_accepted")
Eq(C_eff, C_a/p_acc)

An argument's keys: no ``default`` (required), ``default_none = true`` (None), ``default`` (a number, bool or text;
with ``unit`` a Quantity, with ``tuple = true`` a tuple), ``to`` (the input it binds when its name differs) and
``kinds`` (the workload classes it takes: a list, or a name of :data:`KIND_SETS`).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import DerivationError, UnknownEntryError
from ..paths import derivations_dir
from ..units import Q_
from .base import REQUIRED, Arg, Solver
from .workload_kinds import TRANSFORMERS, WORKLOADS

__all__ = ["KIND_SETS", "declared_solver", "declared_solvers", "make_solver", "model_names", "models_path", "read_models"]

#: Names a table may give for ``kinds``: the workload classes they stand for.
KIND_SETS: dict[str, tuple[str, ...]] = {"workloads": WORKLOADS, "transformers": TRANSFORMERS}
#: The keys an entry and an argument may have.
ENTRY_KEYS = frozenset({"name", "type", "result", "arguments"})
ARGUMENT_KEYS = frozenset({"name", "default", "default_none", "unit", "tuple", "to", "kinds"})


def models_path() -> Path:
    """The table of declared Models (``derivations/models/models.toml``).

    >>> models_path().relative_to(models_path().parents[2]).as_posix()
    'derivations/models/models.toml'
    """
    return derivations_dir() / "models" / "models.toml"


@functools.cache
def _entries() -> dict[str, Mapping[str, Any]]:
    """The table's entries by Model name (read once)."""
    return read_models(models_path())


def read_models(path: Path) -> dict[str, Mapping[str, Any]]:
    """The entries of a table of Models by name, each with exactly the keys of :data:`ENTRY_KEYS` (a file that is not
    TOML, an entry with a missing or unknown key, or a name declared twice is refused, naming the file).

    >>> sorted(read_models(models_path())["AmdahlModel"])
    ['arguments', 'name', 'result', 'type']
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DerivationError(f"not valid TOML: {exc}", path=str(path)) from None
    found: dict[str, Mapping[str, Any]] = {}
    for entry in data.get("model", ()):
        extra = sorted(set(entry) - ENTRY_KEYS)
        missing = sorted(ENTRY_KEYS - set(entry))
        if extra or missing:
            raise DerivationError(f"model {entry.get('name', '?')!r}: unknown key(s) {extra}, missing {missing}; "
                                  f"expected {sorted(ENTRY_KEYS)}", path=str(path))
        if entry["name"] in found:
            raise DerivationError(f"model {entry['name']!r} is declared twice", path=str(path))
        found[entry["name"]] = entry
    return found


def model_names() -> tuple[str, ...]:
    """The declared Models' names, in the table's order (reading the table only; no class is made).

    >>> "AcceptedTaskCostModel" in model_names()
    True
    """
    return tuple(_entries())


def _default(raw: Mapping[str, Any]) -> Any:
    """An argument's default from its table data (a number, bool, text, None, tuple or Quantity)."""
    if raw.get("default_none"):
        return None
    if "default" not in raw:
        return REQUIRED
    value = raw["default"]
    if "unit" in raw:
        return Q_(value, raw["unit"])
    return tuple(value) if raw.get("tuple") else value


def _kinds(model: str, raw: Mapping[str, Any]) -> tuple[str, ...]:
    kinds = raw.get("kinds", ())
    if isinstance(kinds, str):
        if kinds not in KIND_SETS:
            raise DerivationError(f"model {model!r}, argument {raw['name']!r}: kinds {kinds!r} is not one of "
                                  f"{sorted(KIND_SETS)} (or give a list of workload classes)", path=str(models_path()))
        return KIND_SETS[kinds]
    return tuple(kinds)


def _argument(model: str, raw: Mapping[str, Any]) -> Arg:
    extra = sorted(set(raw) - ARGUMENT_KEYS)
    if extra or "name" not in raw:
        raise DerivationError(f"model {model!r}: argument {raw.get('name', '?')!r} has unknown key(s) {extra} "
                              f"(expected {sorted(ARGUMENT_KEYS)}, name required)", path=str(models_path()))
    return Arg(raw["name"], _default(raw), to=raw.get("to"), kinds=_kinds(model, raw))


def make_solver(entry: Mapping[str, Any]) -> type[Solver]:
    """The :class:`~.base.Solver` subclass one table entry declares (an argument with an unknown key, or ``kinds``
    naming no set of :data:`KIND_SETS`, is refused by name).

    >>> cls = make_solver({"name": "M", "type": "AmdahlScenario", "result": "AmdahlResult",
    ...                    "arguments": [{"name": "n", "kinds": "transformers"}]})
    >>> cls.__name__, cls.arguments[0].kinds
    ('M', ('TransformerWorkload', 'SparseTransformerWorkload'))
    """
    name = entry["name"]
    body = {"type_name": entry["type"], "result_name": entry["result"],
            "arguments": tuple(_argument(name, a) for a in entry["arguments"]),
            "__doc__": f"mlsysim's ``{name}`` (declared in derivations/models/models.toml): binds ``{entry['type']}`` "
                       f"and returns its ``{entry['result']}`` fields with ``.scenario``.",
            "__module__": __name__.rpartition(".")[0]}   # found there by name (pickle, repr): the package exports it
    return type(name, (Solver,), body)


@functools.cache
def declared_solvers() -> dict[str, type[Solver]]:
    """Every declared Model's class, by name (made once, on first use).

    >>> issubclass(declared_solvers()["AcceptedTaskCostModel"], Solver)
    True
    """
    return {name: make_solver(entry) for name, entry in _entries().items()}


def declared_solver(name: str) -> type[Solver]:
    """One declared Model's class by mlsysim's name (an unknown name refused, naming the known ones).

    >>> declared_solver("AcceptedTaskCostModel").result_name
    'AcceptedTaskCostResult'
    """
    found = declared_solvers().get(name)
    if found is None:
        raise UnknownEntryError("declared model", name, model_names())
    return found
