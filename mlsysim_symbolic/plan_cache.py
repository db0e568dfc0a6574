"""The plan cache on disk: an output's chain of definitions, kept across processes as Python keeps bytecode.

Planning an output (picking branches, substituting composed outputs, writing keyed sums out) runs SymPy's
automatic simplification over every tree, which is most of the time of a fresh interpreter's first solve.  What
it produces depends only on the type's declaration (and those it composes), the presence signature of the
scenario (which leaves are set, the keys, the choices), the output, and this code.  So the chain, and the source
``sympy.lambdify`` generated for its scalar function, are stored in a folder beside the structure cache
(:func:`mlsysim_symbolic.sources.cache_dir`), two files per plan, named by a SHA-256 of all of that: the
declarations' content, the package's version, source files and registries, SymPy's and Python's versions.  An
edited derivation file or another version of the code makes another name, so a stale entry is never read.

Definitions are pickled SymPy trees that this package wrote, rebuilt node by node without SymPy's evaluation (a
tree read back is the tree written, not a re-simplified one), each checked equal to what it was made from before
it is written, and read by an unpickler that finds nothing but SymPy's classes, our symbols and the rebuilding
function (no other callable, no node constructor that could sympify text); a function's source runs only where every global name it reads stands for what it stood for when
stored.  Entries are written whole then renamed into place.  A missing, unreadable or malformed entry is ignored
(the plan is built again and the entry rewritten).  ``MLSYSIM_SYMBOLIC_CACHE=off`` disables it with the structure
cache; ``MLSYSIM_SYMBOLIC_CACHE=<folder>`` moves both.

>>> import sympy
>>> x, y = sympy.symbols("x y", positive=True)
>>> tree = sympy.Max(x, 2 * y) + sympy.ceiling(x / y)
>>> loads(dumps(((x, tree),))) == ((x, tree),)
True
"""

from __future__ import annotations

import hashlib
import io
import json
import linecache
import pickle
import sys
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

import sympy

from .errors import NotCachedError
from .paths import derivations_dir
from .sources import REGISTRY_FILES, atomic_write, cache_dir
from .treewalk import plain_node, raw_node, state_ok
from .variables import NestedSymbol

#: Version of what an entry holds; bump it when the pickled shape changes.
FORMAT = 2   # 2: a node's instance attributes (Max's _argset) kept

Definitions = tuple[tuple[sympy.Symbol, sympy.Expr], ...]

class _NodeClass:
    """A node class as :func:`loads` hands it out: only :func:`_rebuild` takes it, so no constructor of a node class
    (some of which sympify their arguments) is ever called on what an entry holds."""

    __slots__ = ("cls",)

    def __init__(self, cls: type[sympy.Basic]) -> None:
        self.cls = cls


def _rebuild(cls: Any, args: tuple[Any, ...], commutative: Any, state: dict[str, Any] | None = None) -> sympy.Basic:
    """A node from its class and arguments, as written (SymPy's constructors would simplify it again), with what its
    constructor kept beside them (``Max``'s set of arguments, which its printing reads)."""
    if isinstance(cls, _NodeClass):
        cls = cls.cls
    if not (isinstance(cls, type) and issubclass(cls, sympy.Basic)) or type(args) is not tuple \
            or not all(isinstance(a, sympy.Basic) for a in args) or commutative not in (None, True, False) \
            or (state is not None and not state_ok(state)):
        raise pickle.UnpicklingError("not a node this cache wrote")
    return raw_node(cls, args, commutative, state)


#: Our modules that define SymPy node classes (symbols of keyed and nested leaves; the bounded reductions; special
#: functions such as gammaincinv; first-fit decreasing's bin loads).
_OUR_NODES = frozenset({"mlsysim_symbolic.variables", "mlsysim_symbolic.reductions", "mlsysim_symbolic.special",
                        "mlsysim_symbolic.packing"})


class TreeUnpickler(pickle.Unpickler):
    """Reads only what :class:`TreePickler` writes: SymPy's (and our symbols') classes and :func:`_rebuild`.  An atom's
    class (a symbol by its name and assumptions, a number by its digits, a singleton) is handed out as itself; any
    other node class only wrapped for :func:`_rebuild`; any other global refuses the entry."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "_rebuild"):
            return _rebuild
        if module.split(".", 1)[0] == "sympy" or module in _OUR_NODES:
            found = super().find_class(module, name)
            if isinstance(found, type) and issubclass(found, sympy.Basic):
                if issubclass(found, sympy.Atom) or isinstance(found, sympy.core.singleton.Singleton):
                    return found
                return _NodeClass(found)
        raise pickle.UnpicklingError(f"{module}.{name} is not read from the plan cache")


class TreePickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, NestedSymbol):   # carries its variable (units of another registry): not stored
            raise NotCachedError(obj)
        if isinstance(obj, sympy.Basic) and obj.args and not isinstance(obj, sympy.Atom):
            plain = plain_node(type(obj))
            if plain is False:
                raise NotCachedError(obj)
            state = getattr(obj, "__dict__", None) or None
            if state is not None and not state_ok(state):
                raise NotCachedError(obj)
            return _rebuild, (type(obj), obj._args, obj.is_commutative if plain is None else None, state)   # as stored (LatticeOp.args sorts)
        return NotImplemented


def dumps(value: Any) -> bytes:
    """``value`` (tuples of SymPy trees) pickled so that :func:`loads` rebuilds each node as written.

    Raises :class:`~mlsysim_symbolic.errors.NotCachedError` for a tree this cache does not store."""
    buffer = io.BytesIO()
    TreePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    """What :func:`dumps` wrote (nothing else: see :class:`TreeUnpickler`).

    >>> import pickle, os
    >>> loads(pickle.dumps(os.getcwd))
    Traceback (most recent call last):
    ...
    _pickle.UnpicklingError: posix.getcwd is not read from the plan cache
    """
    return TreeUnpickler(io.BytesIO(data)).load()


# ---------------------------------------------------------------------- keys
@cache
def code_fingerprint() -> str:
    """What else a plan depends on: the package's version, source files and unit definitions, the registries
    (workloads, hardware: the attributes an input reads), SymPy's and Python's versions."""
    from . import __version__

    digest = hashlib.sha256(repr((FORMAT, __version__, sympy.__version__, sys.version_info[:3])).encode())
    package = Path(__file__).resolve().parent
    files = [*sorted(package.rglob("*.py")), *sorted(package.glob("*.txt"))]
    files += [derivations_dir() / name for name in sorted(REGISTRY_FILES)]
    for path in files:
        digest.update(str(path).encode("utf-8", "surrogatepass"))
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0missing")
    return digest.hexdigest()


def type_digest(stype: Any) -> str | None:
    """The content hash of a type's declaration and of every type it builds on (None: not read from a declaration).

    A type a catalog builds carries the hash of its own ``[types.NAME]`` table (``declaration_digest``)."""
    seen: set[int] = set()
    parts: list[str] = []

    def visit(t: Any) -> bool:
        if id(t) in seen:
            return True
        seen.add(id(t))
        own = getattr(t, "declaration_digest", None)
        if own is None:
            return False
        parts.append(f"{t.name}:{own}")
        deps = [sub for sub, _ in t.use_binds.values()]
        deps += [spec.sub_type for spec in t.inputs.values() if getattr(spec, "sub_type", None) is not None]
        return all(visit(d) for d in deps)

    if not visit(stype):
        return None
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def declaration_digest(name: str, family: str, raw: Any) -> str:
    """The hash of one type's declaration as read (its TOML table, which holds its equations).

    >>> declaration_digest("T", "f", {"outputs": {"y": "x"}}) == declaration_digest("T", "f", {"outputs": {"y": "x + 1"}})
    False
    """
    return hashlib.sha256(repr((name, family, raw)).encode("utf-8", "surrogatepass")).hexdigest()


def entry_key(stype: Any, what: Iterable[Any]) -> str | None:
    """The name of the entry of ``what`` (output, choices, stable signature) of type ``stype``; None: not cacheable."""
    digest = type_digest(stype)
    if digest is None:
        return None
    text = repr((code_fingerprint(), digest, stype.name, tuple(what)))
    if " at 0x" in text:   # a key or value printed by identity: not the same in another process
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------- entries
def folder() -> Path | None:
    """The folder of the plan cache (beside the structure cache), or None when caching is off."""
    structure = cache_dir()
    return None if structure is None else structure.parent / f"plans-v{FORMAT}"


def read(key: str) -> Definitions | None:
    """The definitions stored under ``key``, or None (no entry, or one unreadable, malformed or of another key)."""
    where = folder()
    if where is None:
        return None
    try:
        stored_key, definitions = loads((where / f"{key}.pickle").read_bytes())
    except Exception:   # noqa: BLE001 - any damage to the file: ignored, the plan is built again
        return None
    if stored_key != key or type(definitions) is not tuple or not all(
            type(d) is tuple and len(d) == 2 and isinstance(d[0], sympy.Symbol) and isinstance(d[1], sympy.Basic)
            for d in definitions) or not definitions:
        return None
    return definitions


def write(key: str, definitions: Definitions) -> bool:
    """Store ``definitions`` under ``key`` (whole, then renamed into place); False when not stored."""
    where = folder()
    if where is None:
        return False
    try:
        data = dumps((key, definitions))
        if loads(data) != (key, definitions):   # read back exactly as made, or not stored
            return False
        atomic_write(where / f"{key}.pickle", data)
    except (NotCachedError, OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return False
    return True



# ---------------------------------------------------------------------- compiled functions
_MISSING = "<not a global>"
_ERRORS = (ZeroDivisionError, ValueError, OverflowError)   # those a guarded function answers from its slow form


def _describe(value: Any) -> str:
    """What a global name of a compiled function stands for, comparable across processes."""
    if value is _NOT_FOUND:
        return _MISSING
    if isinstance(value, type(sys)):
        return f"module {value.__name__}"
    if hasattr(value, "__qualname__") and hasattr(value, "__module__"):
        return f"{type(value).__name__} {value.__module__}.{value.__qualname__}"
    return f"{type(value).__qualname__} {value!r}"


_NOT_FOUND = object()


def _global_names(code: CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _global_names(const)
    return names


def compiled(key: str, definitions: Definitions, args: tuple[sympy.Symbol, ...],
             make: Callable[[Definitions, tuple[sympy.Symbol, ...]], Callable[..., Any]],
             namespace: Callable[[], dict[str, Any]]) -> Callable[..., Any]:
    """``make(definitions, args)`` (the scalar compiled chain of the plan whose entry is ``key``, with what the plan
    makes of it: its value or its slack), or the same function from the source ``make`` produced for it in an
    earlier process, run in a fresh ``namespace()`` only when every global name it reads stands for what it stood
    for when it was stored.

    >>> import sympy
    >>> from mlsysim_symbolic.evaluate import compile_chain, scalar_namespace
    >>> x, y = sympy.symbols("x y", positive=True)
    >>> compiled("doctest-ceiling", ((y, sympy.ceiling(x / 3)),), (x,), compile_chain, scalar_namespace)(7.0)
    3
    """
    where = folder()
    if where is None:
        return make(definitions, args)
    key = hashlib.sha256(f"{code_fingerprint()}\n{key}".encode()).hexdigest()
    found = _read_function(where / f"{key}.function.json", key, namespace, lambda: make(definitions, args))
    if found is not None:
        return found
    function = make(definitions, args)
    _write_function(where / f"{key}.function.json", key, function)
    return function


def _read_function(path: Path, key: str, namespace: Callable[[], dict[str, Any]],
                   full: Callable[[], Callable[..., Any]]) -> Callable[..., Any] | None:
    try:
        entry = json.loads(path.read_bytes())
        if not (isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("source"), str)
                and isinstance(entry.get("names"), dict) and isinstance(entry.get("guarded"), bool)):
            return None
        space = namespace()
        if any(_describe(space.get(name, _NOT_FOUND)) != described for name, described in entry["names"].items()):
            return None   # a name that stands for something else in this process: compiled again
        filename = f"<lambdifygenerated-cached-{key[:16]}>"
        local: dict[str, Any] = {}
        exec(compile(entry["source"], filename, "exec"), space, local)   # noqa: S102 - source this package generated
        fast = local["_lambdifygenerated"]                                  # (sympy.lambdify), stored under its hash
        if _global_names(fast.__code__) != set(entry["names"]):
            return None
    except Exception:   # noqa: BLE001 - any damage to the entry: compiled again
        return None
    linecache.cache[filename] = (len(entry["source"]), None, entry["source"].splitlines(True), filename)
    if not entry["guarded"]:
        return fast
    slow: list[Callable[..., Any]] = []

    def guarded(*values: Any) -> Any:   # as evaluate's guard: where the fast form fails, the full compile answers
        try:
            return fast(*values)
        except _ERRORS:
            if not slow:
                slow.append(full())
            return slow[0](*values)

    guarded.fast = fast   # type: ignore[attr-defined]
    return guarded


def _write_function(path: Path, key: str, function: Callable[..., Any]) -> None:
    fast = getattr(function, "fast", function)
    code = getattr(fast, "__code__", None)
    if code is None or not code.co_filename.startswith("<lambdifygenerated-") or fast.__name__ != "_lambdifygenerated":
        return
    lines = linecache.cache.get(code.co_filename)
    if lines is None:
        return
    names = {name: _describe(fast.__globals__.get(name, _NOT_FOUND)) for name in sorted(_global_names(code))}
    if any(" at 0x" in described for described in names.values()):
        return   # an object known only by identity: not found again in another process
    entry = {"key": key, "source": "".join(lines[2]), "guarded": fast is not function, "names": names}
    try:
        text = json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass")
        atomic_write(path, text)
    except (OSError, TypeError, ValueError, UnicodeError):
        return
