"""The catalog: derivation files read into scenario types, classes and named scenarios, lazily.

Every ``*.toml`` file in ``derivations/`` (other than the workload and hardware
registries) holds one family of scenario types and named scenarios.

Reading the catalog reads only what lists it: each file's TOML syntax and its
structure (known top-level keys, tables where tables belong, type names that are
identifiers, no name declared twice, every named scenario of a known type with
known fields).  Those checks are cheap and run eagerly, for the shipped catalog and
for :func:`load_derivations` alike.  A *type* is parsed, dimension-checked and
compiled into its class the first time it is used (its class requested, a named
scenario of it bound, its page shown), then kept; the types it composes (``uses``)
are built first, on demand (a cycle is refused with the file and line).  A named
scenario is bound on first access.  :meth:`Catalog.check` (``mlsysim-symbolic check``)
builds every type and binds every named scenario now; a problem is reported with
the file, the line, the scenario and the reason.

What listing needs (names, families, summaries, which type each named scenario
uses, the lines of their headers) is kept in a cache in the user's cache directory,
the way Python keeps hash-based bytecode: one entry per file (named by a hash of its
path), holding the SHA-256 of the bytes it was made from; an entry whose hash differs
from the file's (a stale one) or that is malformed is ignored and rewritten, and an
entry holds JSON data only (nothing in it is ever executed).  Set
``MLSYSIM_SYMBOLIC_CACHE=off`` to disable it, or to a folder to move it.

>>> from mlsysim_symbolic import Scenarios
>>> Scenarios.DpSgdPerExampleGradients.name
'Per-example FP32 gradients for the KWS DS-CNN and GPT-2 at batch 256'
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import importlib.util
import json
import marshal
import os
import re
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, repeat
from operator import indexOf, itemgetter
from pathlib import Path
from typing import Any, NamedTuple

from .errors import DerivationError, InputError, MlsysimSymbolicError, UnknownNameError, closest, did_you_mean
from .paths import derivations_dir
from .scenario import Scenario, scenario_class
from .spec import ScenarioType
from .spec.reader import MAX_DEPTH, check_depth

REGISTRY_FILES = {"workloads.toml", "hardware.toml", "grids.toml"}
#: Version of what the cache holds; entries of another version are never read.
CACHE_FORMAT = 9   # 4: a scenario input's type is a dependency; 5: files keyed by source_hash; 6: not its own; 7: bundles
#                    by stat; 8: bundles without summaries; 9: rows as tuples
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER = re.compile(r"^\s*\[\s*(types|scenarios)\.([A-Za-z0-9_-]+)\s*[.\]]")
_SCENARIO_FIELDS = {"type", "name", "description", "inputs", "notes"}
_BUILD_LOCK = threading.RLock()


class _Locator:
    """Finds the line of a key in a TOML text (tomllib keeps no positions)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def headers(self) -> dict[str, int]:
        """The line of the first header of every ``[types.NAME...]`` and ``[scenarios.NAME...]``, in one pass."""
        found: dict[str, int] = {}
        for i, line in enumerate(self.lines):
            m = _HEADER.match(line)
            if m:
                found.setdefault(f"{m.group(1)}.{m.group(2)}", i + 1)
        return found

    def find(self, table: str, name: str, *keys: str) -> int | None:
        header = re.compile(rf"^\s*\[\s*{re.escape(table)}\.{re.escape(name)}(\.|\s*\])")
        start = next((i for i, line in enumerate(self.lines) if header.match(line)), None)
        if start is None:
            return None
        best = start
        for key in keys:
            pattern = re.compile(rf"^\s*(\[[^\]]*\b{re.escape(key)}\b[^\]]*\]|\"?{re.escape(key)}\"?\s*=)")
            end = next((j for j in range(best + 1, len(self.lines)) if re.match(rf"^\s*\[\s*{re.escape(table)}\.(?!{re.escape(name)}\b)", self.lines[j])), len(self.lines))
            hit = next((j for j in range(best, end) if pattern.match(self.lines[j])), None)
            if hit is None:
                break
            best = hit
        return best + 1


class TypeInfo(NamedTuple):
    """What the catalog knows of a scenario type before building it (read from the file's structure).

    >>> from mlsysim_symbolic.catalog import catalog
    >>> info = catalog().info["DpSgdStepMemoryScenario"]
    >>> info.family, info.uses
    ('dp', ('PerExampleGradientScenario', 'DpSgdOptimizerStateScenario', 'DpSgdActivationScenario'))
    """

    name: str
    family: str
    summary: str
    path: str | None
    line: int | None
    uses: tuple[str, ...] = ()    # the types it composes (a tuple: a catalog of 500 types makes 500 of these)


class NamedScenario:
    """A named scenario as declared: its type and inputs (bound on first use).

    ``name``, ``description``, ``notes`` and ``inputs`` are read from the file (or the cache)
    when first asked for: listing needs only the key and the type.
    """

    __slots__ = ("_details", "_source", "family", "key", "line", "path", "type_name")

    def __init__(self, key: str, type_name: str, name: str | None = None, description: str = "", inputs: dict[str, Any] | None = None,
                 family: str = "", path: str | None = None, line: int | None = None, notes: str = "", *,
                 source: _Source | None = None) -> None:
        self.key = key
        self.type_name = type_name
        self.family = family
        self.path = path
        self.line = line
        self._source = source
        self._details: tuple[str, str, str, dict[str, Any]] | None = (
            None if source is not None else (key if name is None else name, description, notes, dict(inputs or {})))

    @classmethod
    def declared_in(cls, key: str, type_name: str, family: str, path: str, line: int | None, source: _Source) -> NamedScenario:
        """A named scenario of a file, its details read when first asked for (the fast path of reading a catalog)."""
        self = object.__new__(cls)
        self.key, self.type_name, self.family, self.path, self.line = key, type_name, family, path, line
        self._source, self._details = source, None
        return self

    def _get(self) -> tuple[str, str, str, dict[str, Any]]:
        if self._details is None:
            assert self._source is not None
            self._details = self._source.scenario_details(self.key)
        return self._details

    @property
    def name(self) -> str:
        return self._get()[0]

    @property
    def description(self) -> str:
        return self._get()[1]

    @property
    def notes(self) -> str:
        return self._get()[2]

    @property
    def inputs(self) -> dict[str, Any]:
        return self._get()[3]

    def __repr__(self) -> str:
        return f"NamedScenario({self.key!r}, type {self.type_name}, {self.path}:{self.line})"


@dataclass(frozen=True)
class CheckReport:
    """What :meth:`Catalog.check` built: the number of types and named scenarios, and the seconds it took."""

    types: int
    scenarios: int
    seconds: float

    def __str__(self) -> str:
        return f"{self.types} types, {self.scenarios} named scenarios checked in {self.seconds:.2f} s"


# ---------------------------------------------------------------------- the cache
def cache_dir() -> Path | None:
    """The folder of the structure cache (per cache format), or None when ``MLSYSIM_SYMBOLIC_CACHE`` is ``off``.

    >>> import os
    >>> old = os.environ.get("MLSYSIM_SYMBOLIC_CACHE")
    >>> os.environ["MLSYSIM_SYMBOLIC_CACHE"] = "off"
    >>> cache_dir() is None
    True
    >>> _ = os.environ.pop("MLSYSIM_SYMBOLIC_CACHE") if old is None else os.environ.update(MLSYSIM_SYMBOLIC_CACHE=old)
    """
    settings = (os.environ.get("MLSYSIM_SYMBOLIC_CACHE"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("LOCALAPPDATA"))
    if settings not in _CACHE_DIRS:   # a file name per file read: the home folder is looked up once per setting
        env, xdg, local = settings
        if env is not None:
            found = None if env.strip().lower() in {"", "0", "off", "no", "false"} else Path(env) / f"derivations-v{CACHE_FORMAT}"
        else:
            found = Path(xdg or local or str(Path.home() / ".cache")) / "mlsysim_symbolic" / f"derivations-v{CACHE_FORMAT}"
        _CACHE_DIRS[settings] = found
    return _CACHE_DIRS[settings]


_CACHE_DIRS: dict[tuple[str | None, ...], Path | None] = {}


def _place(*paths: Path) -> str:
    """The cache entry name of a file (or of a set of files): a hash of the absolute path(s), as __pycache__ is per source."""
    return hashlib.sha256("\n".join(os.path.abspath(p) for p in paths).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _cache_read(place: str, part: str, digest: str) -> Any:
    """The cached ``part`` of the file(s) at ``place`` if it was made from content with this ``digest``, else None."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        entry = json.loads((folder / f"{place}.{part}.json").read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("digest") != digest:
        return None   # stale (the file changed since) or not ours: ignored
    return entry.get("data")


def _cache_write(place: str, part: str, digest: str, data: Any) -> None:
    """Store ``part`` of the file(s) at ``place`` with the digest of the content it was made from (atomically)."""
    folder = cache_dir()
    if folder is None:
        return
    path = folder / f"{place}.{part}.json"
    try:
        text = json.dumps({"digest": digest, "data": data}, ensure_ascii=False, separators=(",", ":"))
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError, RecursionError):   # read-only home, or TOML values JSON cannot hold
        return


# ---------------------------------------------------------------------- one file
class _Source:
    """One derivation file: its structure read; its type bodies and scenario details read on demand."""

    def __init__(self, path: Path, digest: str, head: dict[str, Any], parts: dict[str, dict[str, Any]] | None = None,
                 locator: _Locator | None = None) -> None:
        self.path = path
        self.where = str(path)
        self.digest = digest
        self.family: str = head["family"]
        self.title: str = head["title"]
        self.head = head
        self._parts: dict[str, dict[str, Any]] = dict(parts or {})
        self._locator = locator
        self._summaries: dict[str, str] | None = None

    def locator(self) -> _Locator:
        if self._locator is None:
            try:
                self._locator = _Locator(self.path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                self._locator = _Locator("")
        return self._locator

    def locate(self, table: str, name: str, *keys: str) -> int | None:
        return self.locator().find(table, name, *keys)

    def _part(self, part: str) -> dict[str, Any]:
        """``types`` (the raw type tables) or ``scenarios`` (name, description, notes, inputs by key)."""
        if part not in self._parts:
            cached = _cache_read(_place(self.path), part, self.digest)
            if isinstance(cached, dict) and (part != "scenarios" or _valid_details(cached)):
                self._parts[part] = cached
            else:
                data, text = _parse(self.path)
                if _content_hash(text.encode("utf-8")) != self.digest and _digest(self.path) != self.digest:
                    raise DerivationError("the file changed since the catalog was read; load it again", path=self.where)
                self._locator = _Locator(text)
                self._parts.update(_parts(data))
        return self._parts[part]

    def summary(self, name: str) -> str:
        """A type's one-line summary, from this file's cached structure (or the file itself)."""
        if self._summaries is None:
            head = _cache_read(_place(self.path), "head", self.digest)
            if not _valid_head(head):
                data, text = _parse(self.path)
                head = _head(self.path, data, _Locator(text))
            self._summaries = {row[0]: row[2] for row in head["types"]}
        return str(self._summaries.get(name, ""))

    def raw_type(self, name: str) -> Mapping[str, Any]:
        raw = self._part("types").get(name)
        if not isinstance(raw, Mapping):
            raise DerivationError("a type must be a table", path=self.where, line=self.locate("types", name), scenario=name)
        return raw

    def scenario_details(self, key: str) -> tuple[str, str, str, dict[str, Any]]:
        name, description, notes, inputs = self._part("scenarios")[key]
        return name, description, notes, inputs


def _parts(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What is read on demand, as JSON-able data: the raw types, and the details of each named scenario."""
    scenarios = {key: [str(raw.get("name", key)), str(raw.get("description", "")), str(raw.get("notes", "")), dict(raw.get("inputs") or {})]
                 for key, raw in (data.get("scenarios") or {}).items()}
    return {"types": dict(data.get("types") or {}), "scenarios": scenarios}


def _valid_details(details: dict[str, Any]) -> bool:
    return all(isinstance(d, list) and len(d) == 4 and all(isinstance(x, str) for x in d[:3]) and isinstance(d[3], dict)
               for d in details.values())


def _digest(path: Path) -> str:
    with open(path, "rb", buffering=0) as f:   # unbuffered: one read of the whole file
        return _content_hash(f.readall())


def _content_hash(content: bytes) -> str:
    """The key of a file's cached structure: the SipHash of its bytes that Python's own hash-based bytecode
    cache uses (``importlib.util.source_hash``), three times faster than SHA-256 on a large catalog."""
    return importlib.util.source_hash(content).hex()


def _parse(path: Path) -> tuple[dict[str, Any], str]:
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DerivationError(f"cannot read the file: {getattr(exc, 'strerror', None) or exc}", path=where) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise DerivationError(f"not valid TOML: {exc}", path=where, line=int(m.group(1)) if m else None) from None
    except RecursionError:   # tomllib recurses into nested arrays and inline tables
        raise DerivationError(f"tables or arrays nested deeper than {MAX_DEPTH} levels", path=where) from None
    try:
        check_depth(data)
    except InputError as exc:
        raise DerivationError(str(exc), path=where) from None
    return data, text


def _head(path: Path, data: dict[str, Any], locator: _Locator) -> dict[str, Any]:
    """The structure of a parsed file (its eager checks run here), as JSON-able data."""
    where = str(path)
    allowed = {"family", "title", "types", "scenarios"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise DerivationError(f"unknown top-level key(s) {', '.join(extra)}; expected {', '.join(sorted(allowed))}", path=where)
    for table in ("types", "scenarios"):
        if not isinstance(data.get(table, {}), Mapping):
            raise DerivationError(f"'{table}' must be a table", path=where)
    family = str(data.get("family", path.stem))
    lines = locator.headers()
    types = []
    for type_name, raw in (data.get("types") or {}).items():
        line = lines.get(f"types.{type_name}") or locator.find("types", type_name)
        if not _IDENTIFIER.fullmatch(type_name):
            raise DerivationError(f"type name {type_name!r} is not an identifier", path=where, line=line, scenario=type_name)
        if not isinstance(raw, Mapping):
            raise DerivationError("a type must be a table", path=where, line=line, scenario=type_name)
        uses = raw.get("uses") or {}
        deps = [u["type"] for u in uses.values() if isinstance(u, Mapping) and isinstance(u.get("type"), str)] if isinstance(uses, Mapping) else []
        inputs = raw.get("inputs") or {}   # a scenario input's type is built first too
        deps += [i["type"] for i in inputs.values() if isinstance(i, Mapping) and i.get("kind") == "scenario"
                 and isinstance(i.get("type"), str) and i["type"] != type_name] if isinstance(inputs, Mapping) else []
        types.append([type_name, str(raw.get("family", family)), str(raw.get("summary", "")), line, deps])
    scenarios = []
    for key, raw in (data.get("scenarios") or {}).items():
        line = lines.get(f"scenarios.{key}") or locator.find("scenarios", key)
        if not isinstance(raw, Mapping) or "type" not in raw:
            raise DerivationError("a named scenario needs a 'type'", path=where, line=line, scenario=key)
        extra_keys = sorted(set(raw) - _SCENARIO_FIELDS)
        if extra_keys:
            raise DerivationError(f"unknown field(s) {', '.join(extra_keys)}; inputs go under [scenarios.{key}.inputs]",
                                  path=where, line=line, scenario=key)
        inputs = raw.get("inputs") or {}
        if not isinstance(inputs, Mapping):
            raise DerivationError("'inputs' must be a table", path=where, line=line, scenario=key)
        scenarios.append([key, str(raw["type"]), line])
    return {"format": CACHE_FORMAT, "family": family, "title": str(data.get("title", family)), "types": types, "scenarios": scenarios}


def _valid_head(head: Any) -> bool:
    """Whether a cached structure has the shape :func:`_head` writes (anything else is ignored)."""
    if not (isinstance(head, dict) and head.get("format") == CACHE_FORMAT and isinstance(head.get("family"), str)
            and isinstance(head.get("title"), str) and isinstance(head.get("types"), list) and isinstance(head.get("scenarios"), list)):
        return False
    try:   # the shapes _head writes, checked by unpacking (one pass, no generator per row)
        for name, family, summary, line, deps in head["types"]:
            if type(name) is not str or type(family) is not str or type(summary) is not str \
                    or not (line is None or type(line) is int) or type(deps) is not list or any(type(d) is not str for d in deps):
                return False
        for key, type_name, line in head["scenarios"]:
            if type(key) is not str or type(type_name) is not str or not (line is None or type(line) is int):
                return False
    except (TypeError, ValueError):   # a row of another length or not a sequence
        return False
    return True


def _read(path: str | Path, digest: str | None = None) -> _Source:
    """Read one file's structure: from the cache when its content was seen before, else by parsing it."""
    path = Path(path)
    if digest is None:
        digest = _digest_or_fail(path)
    place = _place(path)
    head = _cache_read(place, "head", digest)
    if _valid_head(head):
        return _Source(path, digest, head)
    data, text = _parse(path)
    locator = _Locator(text)
    head = _head(path, data, locator)
    parts = _parts(data)
    for part, value in parts.items():
        _cache_write(place, part, digest, value)
    _cache_write(place, "head", digest, head)
    return _Source(path, digest, head, parts, locator)


def _digest_or_fail(path: Path) -> str:
    try:
        return _digest(path)
    except OSError as exc:
        raise DerivationError(f"cannot read the file: {exc.strerror}", path=str(path)) from None


def _read_all(files: list[Path]) -> list[_Source]:
    """Read the structure of several files; the structures of a set of files seen before, unchanged since, are one
    cache entry (checked by each file's modification time and size, as Python's bytecode cache checks a source)."""
    if len(files) < 2:
        return [_read(f, _digest_or_fail(f)) for f in files]
    place, stamp = _place(*files), _stamp(files)
    bundle = _bundle_read(place, stamp)
    if bundle is not None and len(bundle) == len(files):
        return [_Source(f, d, h) for f, (d, h) in zip(files, bundle)]
    sources = [_read(f, _digest_or_fail(f)) for f in files]
    _bundle_write(place, stamp, [(src.digest, _without_summaries(src.head)) for src in sources])
    return sources


def _without_summaries(head: dict[str, Any]) -> dict[str, Any]:
    """A file's structure with each type's summary left out (None): the bundle is read on every import, a summary only
    when a type's metadata is asked for (then from the file's own cache entry)."""
    # rows as tuples: once the collector has seen a tuple of strings and numbers it stops tracking it
    return {**head, "types": [(name, family, None, line, tuple(deps)) for name, family, _, line, deps in head["types"]],
            "scenarios": [tuple(row) for row in head["scenarios"]]}


def _stamp(files: list[Path]) -> str:
    """The files' paths, modification times (ns) and sizes: what says they are unchanged since a bundle was made."""
    parts = []
    folder = os.path.dirname(files[0]) if files else ""
    fd = os.open(folder, os.O_RDONLY) if folder and all(os.path.dirname(f) == folder for f in files) else None
    try:
        for f in files:
            try:   # by name in the open folder: no path lookup per file
                st = os.stat(os.path.basename(f), dir_fd=fd) if fd is not None else os.stat(f)
            except OSError as exc:
                raise DerivationError(f"cannot read the file: {exc.strerror}", path=str(f)) from None
            parts.append(f"{f}\0{st.st_mtime_ns}\0{st.st_size}")   # absolute: _files makes the folder so
    finally:
        if fd is not None:
            os.close(fd)
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _bundle_read(place: str, stamp: str) -> list[tuple[str, dict[str, Any]]] | None:
    """The (digest, structure) of each file of a bundle made from files with this ``stamp``, else None.

    Kept with :mod:`marshal`, the format of Python's own bytecode cache (ten times faster to read than JSON), in this
    package's cache folder; anything unexpected in it is ignored (then the files are read again)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        entry = marshal.loads((folder / f"{place}.heads.marshal").read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not (isinstance(entry, tuple) and len(entry) == 3 and entry[0] == CACHE_FORMAT and entry[1] == stamp
            and isinstance(entry[2], list)):
        return None
    bundle = entry[2]
    try:   # our own file, written whole and renamed into place (as a .pyc): its rows are checked for shape only
        for digest, head in bundle:
            if not (type(digest) is str and type(head) is dict and head.get("format") == CACHE_FORMAT
                    and type(head.get("family")) is str and type(head.get("title")) is str):
                return None
            if not set(map(len, head["types"])) <= {5} or not set(map(len, head["scenarios"])) <= {3}:
                return None
    except (TypeError, ValueError, KeyError):
        return None
    return bundle


def _bundle_write(place: str, stamp: str, bundle: list[tuple[str, dict[str, Any]]]) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        data = marshal.dumps((CACHE_FORMAT, stamp, bundle))
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, folder / f"{place}.heads.marshal")
    except (OSError, ValueError):   # read-only home; or a value marshal cannot hold
        return


# ---------------------------------------------------------------------- the catalog
class _Entry:
    """One type of the catalog: its metadata, its source, and (once built) its ScenarioType and class."""

    __slots__ = ("_info", "building", "cls", "name", "row", "source", "stype")

    def __init__(self, row: list[Any], source: _Source) -> None:
        self.name: str = row[0]
        self.row = row                       # (name, family, summary, line, uses) as the structure holds it
        self._info: TypeInfo | None = None   # made when asked for: a catalog of thousands of types makes few
        self.source = source
        self.stype: ScenarioType | None = None
        self.cls: type[Scenario] | None = None
        self.building = False

    @property
    def info(self) -> TypeInfo:
        if self._info is None:
            name, family, summary, line, deps = self.row
            if summary is None:   # read from a bundle, which leaves summaries out
                summary = self.source.summary(name)
            self._info = TypeInfo(name, family, summary, self.source.where, line, tuple(deps))
        return self._info


class _Built(Mapping):
    """A catalog's types (or classes) by name: the names come from metadata, a value is built on first access."""

    def __init__(self, catalog: Catalog, what: str) -> None:
        self._catalog = catalog
        self._what = what

    def __getitem__(self, name: str) -> Any:
        if name not in self._catalog._entries:
            raise KeyError(name)
        entry = self._catalog._built(name)
        return entry.stype if self._what == "types" else entry.cls

    def __contains__(self, name: object) -> bool:
        return name in self._catalog._entries

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._catalog._entries))

    def __len__(self) -> int:
        return len(self._catalog._entries)

    def __repr__(self) -> str:
        return f"<{len(self)} {self._what}, built on first access>"


class _Resolver(Mapping):
    """The types a type may compose (its catalog's and the known ones), built on demand for ``from_mapping``."""

    def __init__(self, catalog: Catalog, trail: tuple[str, ...]) -> None:
        self._catalog = catalog
        self._trail = trail

    def __getitem__(self, name: str) -> ScenarioType:
        if self._catalog._entry(name) is None:
            raise KeyError(name)
        stype = self._catalog._built(name, self._trail).stype
        assert stype is not None
        return stype

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._catalog._entry(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._catalog._all_names())

    def __len__(self) -> int:
        return len(self._catalog._all_names())


class Catalog:
    """Scenario types, their classes and the named scenarios of one or more derivation files.

    ``types`` and ``classes`` map names to built types and classes (built on first access);
    ``info`` maps names to :class:`TypeInfo` (no build); ``declared`` holds the named
    scenarios as declared; types it does not hold itself are looked up in ``known``.
    """

    def __init__(self, known: Catalog | None = None) -> None:
        self._known = known
        self._entries: dict[str, _Entry] = {}
        self._declared: dict[str, NamedScenario] = {}
        self._pending: list[tuple[_Source, list[Any]]] = []   # files whose named scenarios are not objects yet
        self._early: dict[str, NamedScenario] = {}   # rows made objects one by one, before the rest
        self.families: dict[str, list[str]] = {}
        self.titles: dict[str, str] = {}
        self._instances: dict[str, Any] = {}
        self.types: Mapping[str, ScenarioType] = _Built(self, "types")
        self.classes: Mapping[str, type[Scenario]] = _Built(self, "classes")

    # ------------------------------------------------------------------ metadata (no build)
    @property
    def declared(self) -> dict[str, NamedScenario]:
        """The named scenarios as declared, by key (made from the files' rows when first asked for)."""
        if self._pending:
            make = NamedScenario.declared_in
            early = self._early   # made one by one before (the same objects: a scenario's binding may hold them)
            for src, rows in self._pending:
                family, where = src.family, src.where
                self._declared.update({key: early.get(key) or make(key, type_name, family, where, line, src)
                                       for key, type_name, line in rows})
            self._pending, self._early = [], {}
        return self._declared

    @declared.setter
    def declared(self, value: dict[str, NamedScenario]) -> None:
        self._declared, self._pending, self._early = value, [], {}

    def _declare(self, key: str) -> None:
        """Make the one named scenario ``key`` an object, if it is still a row (the others stay rows)."""
        if not self._pending or key in self._declared or key in self._early:
            return
        for src, rows in self._pending:   # a scan at C speed (no index of thousands of keys for one lookup)
            try:
                _, type_name, line = rows[indexOf(map(itemgetter(0), rows), key)]
            except ValueError:
                continue
            self._early[key] = NamedScenario.declared_in(key, type_name, src.family, src.where, line, src)
            return

    @property
    def info(self) -> dict[str, TypeInfo]:
        """Every type of this catalog by name, as metadata (nothing is built).

        >>> catalog().info["ZeroShardingScenario"].summary.split(",")[0]
        'Per-device training state of a model at each ZeRO stage over N devices'
        """
        return {name: e.info for name, e in self._entries.items()}

    @property
    def built(self) -> list[str]:
        """The names of this catalog's types built so far (each is built on first use).

        >>> cat = load_derivations(derivations_dir() / "dp.toml")
        >>> before = cat.built
        >>> _ = cat.scenario("DpSgdPerExampleGradients")
        >>> before, cat.built
        ([], ['PerExampleGradientScenario'])
        """
        return [name for name, e in self._entries.items() if e.cls is not None]

    def scenarios_of(self, type_name: str) -> list[str]:
        """The keys of the named scenarios of type ``type_name``, in declaration order (no build).

        >>> catalog().scenarios_of("ZeroShardingScenario")
        ['Llama2_7B_ZeroStages64', 'Gpt3Zero3On64']
        """
        return [k for k, d in self.declared.items() if d.type_name == type_name]

    def _entry(self, name: str) -> _Entry | None:
        entry = self._entries.get(name)
        if entry is None and self._known is not None:
            return self._known._entry(name)
        return entry

    def _all_names(self) -> list[str]:
        names = list(self._known._all_names()) if self._known is not None else []
        known = set(names)   # once: a set per name made this quadratic (3 ms a call for a ten-fold catalog)
        return names + [n for n in self._entries if n not in known]

    def _sources(self) -> list[_Source]:
        """The files this catalog's own types and named scenarios come from."""
        sources = {id(e.source): e.source for e in self._entries.values()}
        sources.update({id(d._source): d._source for d in self.declared.values() if d._source is not None})
        return list(sources.values())

    def _add(self, entry: _Entry) -> None:
        self._entries[entry.name] = entry
        self.families.setdefault(entry.row[1], []).append(entry.name)

    # ------------------------------------------------------------------ building
    def _built(self, name: str, trail: tuple[str, ...] = ()) -> _Entry:
        """The entry of ``name`` with its type and class built (its composed types first)."""
        entry = self._entry(name)
        if entry is None:
            raise KeyError(name)
        if entry.cls is not None:
            return entry
        with _BUILD_LOCK:
            if entry.cls is not None:
                return entry
            src = entry.source
            if entry.building:
                raise DerivationError(f"types compose each other in a cycle: {' -> '.join((*trail, name))}",
                                      path=src.where, line=src.locate("types", name, "uses"), scenario=name)
            entry.building = True
            try:
                raw = src.raw_type(name)
                for dep in entry.info.uses:   # dependency order: what this type composes is built first
                    if self._entry(dep) is not None:
                        self._built(dep, (*trail, name))
                stype = ScenarioType.from_mapping(
                    name, raw, family=src.family, path=src.where, types=_Resolver(self, (*trail, name)),
                    locate=lambda *keys, n=name, s=src: s.locate("types", n, *keys))
                try:
                    cls = scenario_class(stype)
                except MlsysimSymbolicError as exc:
                    raise DerivationError(str(exc), path=src.where, line=entry.info.line, scenario=name) from None
                stype.named = functools.partial(self.named_of, name)
                entry.stype, entry.cls = stype, cls
            finally:
                entry.building = False
        return entry

    def type_class(self, name: str) -> type[Scenario]:
        """The class of type ``name`` (of this catalog or a known one), built on first use.

        >>> catalog().type_class("ZeroShardingScenario").__module__
        'mlsysim_symbolic.scenarios'
        """
        if self._entry(name) is None:
            hint = closest(name, self._all_names())
            raise UnknownNameError(f"unknown scenario type {name!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""))
        cls = self._built(name).cls
        assert cls is not None
        return cls

    def scenario(self, key: str) -> Any:
        """The named scenario ``key``, bound on first access (then cached: scenarios are immutable)."""
        if key in self._instances:
            return self._instances[key]
        self._declare(key)
        d = self._declared.get(key) or self._early.get(key)
        if d is None and key not in self.declared:
            hint = closest(key, list(self.declared))
            raise UnknownNameError(
                f"unknown scenario {key!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else "")
                + " (mlsysim-symbolic list shows the catalog)")
        d = d or self.declared[key]
        cls = self.type_class(d.type_name)
        try:
            instance = cls(name=d.name, description=d.description, **d.inputs)
        except (MlsysimSymbolicError, TypeError, ValueError) as exc:
            raise DerivationError(f"scenario {key} ({d.type_name}): {exc}", path=d.path, line=d.line, scenario=key) from None
        instance.key = key
        self._instances[key] = instance
        return instance

    def named_of(self, type_name: str, key: str) -> Any:
        """The named scenario ``key``, which must be of type ``type_name`` (a scenario input bound by name).

        >>> catalog().named_of("ActivationMemoryScenario", "Gpt3ActivationsMicrobatch1").type.name
        'ActivationMemoryScenario'
        """
        d = self.declared.get(key)
        if d is None:
            raise UnknownNameError(f"unknown {type_name} scenario {key!r}{did_you_mean(key, self.scenarios_of(type_name))}; "
                                   f"its named scenarios: {', '.join(self.scenarios_of(type_name)) or 'none'}")
        if d.type_name != type_name:
            raise InputError(f"{key} is a scenario of type {d.type_name}; expected one of type {type_name}")
        return self.scenario(key)

    def check(self) -> CheckReport:
        """Build every type and bind every named scenario now; raise :class:`DerivationError` on the first problem.

        >>> from mlsysim_symbolic.catalog import catalog
        >>> report = catalog().check()
        >>> (report.types, report.scenarios) == (len(catalog().info), len(catalog().declared))
        True
        """
        start = time.perf_counter()
        for name in self._entries:
            self._built(name)
        for key in self.declared:
            self.scenario(key)
        return CheckReport(len(self._entries), len(self.declared), time.perf_counter() - start)

    def subset(self, names: list[str]) -> Catalog:
        """A catalog of only the types ``names`` (and their named scenarios), sharing their built types.

        >>> sub = catalog().subset(["ZeroShardingScenario"])
        >>> list(sub.info), list(sub.declared), sub.families
        (['ZeroShardingScenario'], ['Llama2_7B_ZeroStages64', 'Gpt3Zero3On64'], {'training': ['ZeroShardingScenario']})
        """
        sub = Catalog(known=self)
        for name in names:
            entry = self._entry(name)
            if entry is None:
                raise UnknownNameError(f"unknown scenario type {name!r}")
            sub._add(entry)
            sub.titles.setdefault(entry.info.family, self.titles.get(entry.info.family, entry.info.family))
        sub.declared = {k: d for k, d in self.declared.items() if d.type_name in sub._entries}
        sub._instances = self._instances
        return sub

    def merge(self, other: Catalog) -> None:
        """Add the types and named scenarios of ``other`` (a name declared in both is refused)."""
        for name, entry in other._entries.items():
            if name in self._entries:
                raise DerivationError(f"scenario type {name} is declared twice", path=entry.source.where, line=entry.info.line, scenario=name)
        for key, d in other.declared.items():
            if key in self.declared:
                raise DerivationError(f"named scenario {key} is declared twice", path=d.path, line=d.line, scenario=key)
        for entry in other._entries.values():
            self._add(entry)
        self.declared.update(other.declared)
        self.titles.update(other.titles)
        self._instances.update(other._instances)

    def __repr__(self) -> str:
        built = sum(e.cls is not None for e in self._entries.values())
        return f"<Catalog: {len(self._entries)} types ({built} built), {len(self.declared)} named scenarios>"


def _assemble(sources: list[_Source], known: Catalog | None = None) -> Catalog:
    """A catalog of ``sources`` from their structure alone; the checks across files run here."""
    cat = Catalog(known)
    titles: dict[str, list[tuple[bool, str]]] = {}
    for src in sources:   # a family's title: its own file's (reliability.toml), else every file's, in file order
        own = src.where.endswith((f"/{src.family}.toml", f"\\{src.family}.toml"))
        titles.setdefault(src.family, []).append((own, src.title))
    for family, found in titles.items():
        mine = [title for is_own, title in found if is_own]
        cat.titles[family] = mine[0] if mine else "; ".join(dict.fromkeys(title for _, title in found))
    entries, families = cat._entries, cat.families
    known_names = set(known._all_names()) if known is not None else set()
    for src in sources:   # thousands of rows: checks by set operations, loops in C where the file is uniform
        rows = src.head["types"]
        names = list(map(itemgetter(0), rows))
        if len(set(names)) != len(names) or not entries.keys().isdisjoint(names) or not known_names.isdisjoint(names):
            seen: set[str] = set()
            for row in rows:   # find the first, by line
                if row[0] in entries or row[0] in known_names or row[0] in seen:
                    raise DerivationError(f"scenario type {row[0]} is declared twice", path=src.where, line=row[3],
                                          scenario=row[0])
                seen.add(row[0])
        entries.update(zip(names, map(_Entry, rows, repeat(src))))
        if set(map(itemgetter(1), rows)) <= {src.family}:
            families.setdefault(src.family, []).extend(names)
        else:   # a type that overrides its file's family
            for row in rows:
                families.setdefault(row[1], []).append(row[0])
    known_declared = known.declared if known is not None else {}
    keys = list(chain.from_iterable(map(itemgetter(0), src.head["scenarios"]) for src in sources))
    used = set(chain.from_iterable(map(itemgetter(1), src.head["scenarios"]) for src in sources))
    if len(set(keys)) == len(keys) and not known_declared.keys() & keys and not (used - entries.keys() - known_names):
        cat._pending = [(src, src.head["scenarios"]) for src in sources]   # sound: made into objects when asked for
        return cat
    declared = cat._declared   # a problem: find the first, by file and line
    for src in sources:
        for key, type_name, line in src.head["scenarios"]:
            if type_name not in entries and cat._entry(type_name) is None:
                hint = closest(type_name, cat._all_names())
                raise DerivationError(
                    f"unknown scenario type {type_name!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""),
                    path=src.where, line=line, scenario=key)
            if key in declared or key in known_declared:
                raise DerivationError(f"named scenario {key} is declared twice", path=src.where, line=line, scenario=key)
            declared[key] = NamedScenario.declared_in(key, type_name, src.family, src.where, line, src)
    return cat


def _files(path: Path) -> list[Path]:
    """The derivation files of a folder, by name (the registries apart), or the one file given."""
    if not path.is_dir():
        return [path.absolute()]
    path = path.absolute()
    names = sorted(e.name for e in os.scandir(path) if e.name.endswith(".toml") and e.name not in REGISTRY_FILES)
    return [path / name for name in names]


def load_file(path: str | Path, *, known: Catalog | None = None) -> Catalog:
    """Read one derivation file (its types build on first use); raise :class:`DerivationError` on a structural problem.

    Types it composes (``uses``) may come from ``known`` (by default the shipped catalog).
    """
    if known is None:
        known = _others(Path(path))
    return _assemble(_read_all([Path(path)]), known)


def _others(*paths: Path) -> Catalog:
    """The shipped catalog without the types and scenarios of ``paths`` (so a shipped file can be re-loaded)."""
    base = catalog()
    shipped = {Path(src.where).name for src in base._sources()}
    # only a file named as a shipped one can be one (a folder of user files costs no path resolution)
    skip = {str(p.resolve()) for p in paths if p.name in shipped}
    if not skip:
        return base
    resolved = {src.where: str(Path(src.where).resolve()) for src in base._sources()}
    others = Catalog()
    for entry in base._entries.values():
        if resolved[entry.source.where] not in skip:
            others._add(entry)
    others.declared = {k: d for k, d in base.declared.items() if d.path is None or resolved.get(d.path, d.path) not in skip}
    others.titles = dict(base.titles)
    return others


def load_derivations(path: str | Path | None = None, *, register: bool = False, standalone: bool = False) -> Catalog:
    """Read a derivation file or folder the way the shipped catalog is read.

    The structural checks run now; each type is built (parsed, dimension-checked,
    compiled) on first use, and :meth:`Catalog.check` builds and checks them all.
    Types of the shipped catalog may be composed (``uses``) and may not be declared
    again, unless ``standalone=True``: then the files are a catalog of their own (a
    modified copy of ``derivations/``, say) and compose only each other.  With
    ``register=True`` the files' types and scenarios join :data:`Scenarios`.

    >>> cat = load_derivations(derivations_dir() / "dp.toml")
    >>> sorted(cat.info), cat.check().types
    (['PerExampleGradientScenario'], 1)
    """
    if path is None:
        return catalog()
    files = _files(Path(path))
    if standalone and register:
        raise ValueError("a standalone catalog cannot join the shipped one (register=True)")
    with _no_collection():
        result = _assemble(_read_all(files), None if standalone else _others(*files))
    if register:
        catalog().merge(result)
    return result


_CATALOG: Catalog | None = None


def catalog() -> Catalog:
    """The shipped catalog, read once (its types build on first use)."""
    global _CATALOG
    if _CATALOG is None:
        with _no_collection():
            _CATALOG = _assemble(_read_all(_files(derivations_dir())))
    return _CATALOG


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while a catalog's structure is read: it makes thousands of small objects
    that all live on, and the collections their allocation triggers would scan them again and again (half the read
    time of a ten-fold catalog).  Reference counting still frees what dies; the collector runs again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _ScenarioRegistry:
    """Named scenarios by attribute (``Scenarios.DpSgdPerExampleGradients``) or by key, bound on first access.

    >>> from mlsysim_symbolic import Scenarios
    >>> "DpSgdPerExampleGradients" in Scenarios
    True
    """

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return catalog().scenario(key)
        except UnknownNameError as exc:
            raise AttributeError(str(exc)) from None

    def __getitem__(self, key: str) -> Any:
        return catalog().scenario(key)

    def __contains__(self, key: object) -> bool:
        return key in catalog().declared

    def __iter__(self) -> Iterator[str]:
        return iter(catalog().declared)

    def __len__(self) -> int:
        return len(catalog().declared)

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *catalog().declared]

    def names(self, family: str | None = None) -> list[str]:
        """The keys of the named scenarios (of one family when given)."""
        return [k for k, d in catalog().declared.items() if family is None or d.family == family]

    def types(self, family: str | None = None) -> dict[str, ScenarioType]:
        """The scenario types (of one family when given), built."""
        cat = catalog()
        return {n: cat.types[n] for n, i in cat.info.items() if family is None or i.family == family}

    def families(self) -> dict[str, list[str]]:
        """Family -> names of its scenario types."""
        return {k: list(v) for k, v in catalog().families.items()}

    def list(self, sort_by: str | None = None, reverse: bool = False) -> list[Any]:
        """Every named scenario, bound, in the order of their names (as mlsysim's ``Scenarios.list()``).

        ``sort_by`` sorts by an attribute path instead (``"batch_size"``, ``"type.family"``);
        Quantities sort by their value in base units, missing values as 0.

        >>> from mlsysim_symbolic import Scenarios
        >>> first = Scenarios.list()[0]
        >>> first.key == sorted(Scenarios)[0]
        True
        """
        cat = catalog()
        items = [cat.scenario(k) for k in sorted(cat.declared)]
        if sort_by:
            items.sort(key=lambda s: _sort_value(s, sort_by), reverse=reverse)
        elif reverse:
            items.reverse()
        return items

    def __repr__(self) -> str:
        return f"<Scenarios: {len(catalog().declared)} named scenarios of {len(catalog().info)} types>"


def _sort_value(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = getattr(obj, part, 0)
    if obj is None:
        return 0
    if hasattr(obj, "to_base_units"):
        try:
            return obj.to_base_units().magnitude
        except (MlsysimSymbolicError, ValueError, TypeError, AttributeError):
            pass
    return getattr(obj, "magnitude", obj)


#: The registry of named scenarios.
Scenarios = _ScenarioRegistry()
