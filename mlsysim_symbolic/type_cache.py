"""Built scenario types on disk: a type read back, not built again, as Python keeps bytecode.

Building a type (parsing its equations, checking their dimensions, composing the types it uses) is most of a
fresh interpreter's first solve once the plan cache holds its compiled plans.  What a build produces depends only
on the type's declaration, the declarations of the types it reaches (``uses`` and scenario inputs, recursively),
and this code.  So the built :class:`~mlsysim_symbolic.spec.types.ScenarioType` is stored in a folder beside the
plan cache, one file per type, named by a SHA-256 of all of that (:func:`entry_key`); an edited declaration or
another version of the code makes another name, so a stale entry is never read.

What is stored is the type alone: the types it composes are written as their names and found again through the
catalog that reads the entry (built or read in their turn), and the catalog itself (the type's resolver) as a
mark that the reader replaces by itself.  SymPy trees are rebuilt node by node without SymPy's evaluation, as the
plan cache rebuilds them (:class:`~mlsysim_symbolic.plan_cache.TreeUnpickler`); besides SymPy's nodes, an entry may
name only the plain data classes of :data:`ADMITTED` (the spec's records, our units, a float), whose constructors assign fields and read no text as code.  Any other global refuses the entry, which
is then ignored, as is a missing, unreadable or malformed one (the type is built again and the entry rewritten).
Before an entry is written it is read back and compared with the type it was made from.
``MLSYSIM_SYMBOLIC_CACHE=off`` disables it with the other caches.

>>> from mlsysim_symbolic.catalog import catalog
>>> stype = catalog().types["PerExampleGradientScenario"]
>>> back = loads(dumps(stype, stype.resolver), stype.resolver)
>>> back.expression("per_batch") == stype.expression("per_batch"), back.resolver is stype.resolver
(True, True)
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import sympy

from .errors import NotCachedError
from .plan_cache import TreePickler, TreeUnpickler, code_fingerprint
from .sources import atomic_write, cache_dir
from .spec.types import ScenarioType
from .variables import NestedSymbol

#: Version of what an entry holds; bump it when the pickled shape changes.
FORMAT = 1

#: The globals an entry may name besides SymPy's node classes: plain records whose constructors only assign what
#: they are given (no file read, no text parsed as code), the readers this package's own classes pickle through
#: (a unit by its container in this package's registry; an output kind and a result source by name, from their
#: tables), and built-in value types.
ADMITTED: frozenset[tuple[str, str]] = frozenset({
    ("builtins", "float"),
    ("pint.util", "UnitsContainer"), ("pint.util", "udict"),
    ("mlsysim_symbolic.units", "_unit_from_pickle"),
    ("mlsysim_symbolic.spec.outputs", "output_kind"),
    ("mlsysim_symbolic.spec.result_sources", "source_named"),
    ("mlsysim_symbolic.type_cache", "_nested"), ("mlsysim_symbolic.type_cache", "_nested_state"),
    ("mlsysim_symbolic.spec.types", "ScenarioType"),
    ("mlsysim_symbolic.spec.definitions", "Branch"), ("mlsysim_symbolic.spec.definitions", "InputSpec"),
    ("mlsysim_symbolic.spec.definitions", "OutputSpec"), ("mlsysim_symbolic.spec.definitions", "Reference"),
    ("mlsysim_symbolic.spec.definitions", "ResultSpec"),
    ("mlsysim_symbolic.variables", "AttributeRead"), ("mlsysim_symbolic.variables", "Domain"),
    ("mlsysim_symbolic.variables", "ScenarioOutput"), ("mlsysim_symbolic.variables", "Variable"),
})

#: Mark of the catalog a type names its scenarios through (its resolver), replaced by the reader's catalog.
_RESOLVER = "resolver"


def _nested(base: sympy.Symbol, scope: str) -> NestedSymbol:
    """A nested symbol as stored: its name and assumptions from its base, its variable set by :func:`_nested_state`
    (the variable holds the symbol, so it is set after the symbol exists)."""
    if not isinstance(base, sympy.Symbol) or type(scope) is not str:
        raise pickle.UnpicklingError("not a nested symbol this cache wrote")
    obj = sympy.Symbol.__xnew__(NestedSymbol, f"{scope}.{base.name}", **base.assumptions0)
    obj.base, obj.scope, obj.variable = base, scope, None
    return obj


def _nested_state(obj: NestedSymbol, state: Any) -> None:
    if not isinstance(obj, NestedSymbol) or type(state) is not dict or set(state) != {"variable"}:
        raise pickle.UnpicklingError("not a nested symbol this cache wrote")
    obj.variable = state["variable"]


class _Pickler(TreePickler):
    """The plan cache's tree pickler, with a type's composed types and its catalog written as marks."""

    def __init__(self, file: io.BytesIO, root: ScenarioType, resolver: Any) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.root, self.resolver = root, resolver

    def persistent_id(self, obj: Any) -> Any:
        if obj is self.resolver and obj is not None:
            return _RESOLVER
        if isinstance(obj, ScenarioType) and obj is not self.root:
            return ("type", obj.name)
        if callable(getattr(obj, "named_of", None)) and not isinstance(obj, type):
            raise NotCachedError(obj)   # another catalog than the type's own: not stored
        return None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, NestedSymbol):
            return _nested, (obj.base, obj.scope), {"variable": obj.variable}, None, None, _nested_state
        return super().reducer_override(obj)


class _Unpickler(TreeUnpickler):
    def __init__(self, file: io.BytesIO, resolver: Any, find_type: Callable[[str], ScenarioType]) -> None:
        super().__init__(file)
        self.resolver, self.find_type = resolver, find_type

    def persistent_load(self, pid: Any) -> Any:
        if pid == _RESOLVER:
            return self.resolver
        if type(pid) is tuple and len(pid) == 2 and pid[0] == "type" and type(pid[1]) is str:
            return self.find_type(pid[1])
        raise pickle.UnpicklingError(f"{pid!r} is not a mark this cache writes")

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in ADMITTED:
            return pickle.Unpickler.find_class(self, module, name)
        return super().find_class(module, name)


def dumps(stype: ScenarioType, resolver: Any) -> bytes:
    """``stype`` pickled with its composed types as names and ``resolver`` (its catalog) as a mark.

    Raises :class:`~mlsysim_symbolic.errors.NotCachedError` for a type this cache does not store."""
    buffer = io.BytesIO()
    _Pickler(buffer, stype, resolver).dump(stype)
    return buffer.getvalue()


def loads(data: bytes, resolver: Any, find_type: Callable[[str], ScenarioType] | None = None) -> ScenarioType:
    """What :func:`dumps` wrote, its marks replaced: the catalog by ``resolver``, a composed type by
    ``find_type(name)`` (by default, the type of that name the resolver, a catalog, builds).

    >>> import pickle, os
    >>> loads(pickle.dumps(os.getcwd), None)
    Traceback (most recent call last):
    ...
    _pickle.UnpicklingError: posix.getcwd is not read from the plan cache
    """
    if find_type is None:
        find_type = resolver.types.__getitem__ if resolver is not None else {}.__getitem__
    found = _Unpickler(io.BytesIO(data), resolver, find_type).load()
    if type(found) is not ScenarioType:
        raise pickle.UnpicklingError("not a type this cache wrote")
    return found


# ---------------------------------------------------------------------- keys and entries
def entry_key(name: str, digests: Iterable[tuple[str, str]]) -> str:
    """The name of the entry of type ``name``, from the declaration digests of it and of every type it reaches
    (``(type name, digest)`` pairs) and this code's fingerprint.

    >>> entry_key("T", [("T", "a")]) == entry_key("T", [("T", "b")])
    False
    """
    text = repr((FORMAT, code_fingerprint(), name, tuple(sorted(digests))))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def folder() -> Path | None:
    """The folder of the type cache (beside the structure and plan caches), or None when caching is off."""
    structure = cache_dir()
    return None if structure is None else structure.parent / f"types-v{FORMAT}"


def read(key: str, resolver: Any, find_type: Callable[[str], ScenarioType]) -> ScenarioType | None:
    """The type stored under ``key``, or None (no entry, or one unreadable, malformed or of another key)."""
    where = folder()
    if where is None:
        return None
    try:
        data = (where / f"{key}.pickle").read_bytes()
        stored_key, size = data[:64].decode("ascii"), len(data) - 64
        if stored_key != key or size <= 0:
            return None
        return loads(data[64:], resolver, find_type)
    except Exception:   # noqa: BLE001 - any damage to the file: ignored, the type is built again
        return None


def write(key: str, stype: ScenarioType, resolver: Any, find_type: Callable[[str], ScenarioType]) -> bool:
    """Store ``stype`` under ``key`` (whole, then renamed into place) when it reads back as the type it was made
    from; False when not stored."""
    where = folder()
    if where is None:
        return False
    try:
        data = dumps(stype, resolver)
        if not same_type(loads(data, resolver, find_type), stype):
            return False
        atomic_write(where / f"{key}.pickle", key.encode("ascii") + data)
    except (NotCachedError, OSError, pickle.PicklingError, pickle.UnpicklingError, RecursionError, TypeError,
            AttributeError, ValueError):
        return False
    return True


def same_type(a: ScenarioType, b: ScenarioType) -> bool:
    """Whether two built types declare the same inputs, arguments and outputs with the same trees and units (what a
    type read back must be to replace the one built)."""
    return (a.name == b.name and a.inputs == b.inputs and a.arguments == b.arguments and a.outputs == b.outputs
            and a.leaves == b.leaves and a.composed == b.composed and a.members == b.members
            and a.result == b.result and a.uses == b.uses
            and {k: (t.name, binds) for k, (t, binds) in a.use_binds.items()}
            == {k: (t.name, binds) for k, (t, binds) in b.use_binds.items()})
