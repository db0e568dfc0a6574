"""Derivation files as sources: each file's structure read, checked and cached; its bodies read on demand.

Reading a derivation file for the catalog reads only its *structure*: its family and
title, its type names (with their families, header lines and the types they compose)
and its named scenarios' keys (with their types and header lines).  The eager checks
run here: valid TOML, known top-level keys, tables where tables belong, type names
that are identifiers, named scenarios with a type and known fields.  A type's body
and a named scenario's inputs are read when first asked for.

The structure is cached in the user's cache folder the way Python caches bytecode:

- one entry per file, named by a hash of its path, holding the hash of the bytes it
  was made from (``importlib.util.source_hash``, as hash-based ``.pyc`` files); a stale
  or malformed entry is ignored and rewritten.  Entries hold JSON data only.
- one *bundle* per set of files read together (a folder), checked by each file's
  modification time and size (as a timestamp ``.pyc`` is), so nothing is read or
  hashed on a warm start.  It is kept with :mod:`marshal` (the ``.pyc`` format) as a
  few strings per file (names joined, lines packed), which are split at C speed: a
  catalog of thousands of types makes no object per row until one is asked for.

Nothing in the cache is ever executed.  ``MLSYSIM_SYMBOLIC_CACHE=off`` disables it;
set to a folder, it moves it.

>>> from mlsysim_symbolic.paths import derivations_dir
>>> src = read_one(derivations_dir() / "dp.toml")
>>> src.family, src.type_names
('dp', ['PerExampleGradientScenario'])
>>> src.scenario_keys[:1], src.scenario_line(0)
(['DpSgdPerExampleGradients'], 49)
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import marshal
import os
import re
import sys
import tempfile
import tomllib
from array import array
from collections.abc import Mapping
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

from .errors import DerivationError, InputError
from .spec.reader import MAX_DEPTH, check_depth

REGISTRY_FILES = {"workloads.toml", "hardware.toml", "grids.toml", "systems.toml", "applications.toml"}
#: Version of what the cache holds; entries of another version are never read.
CACHE_FORMAT = 10   # 4: a scenario input's type is a dependency; 5: files keyed by source_hash; 6: not its own; 7: bundles
#                     by stat; 8: bundles without summaries; 9: rows as tuples; 10: columns (joined names, packed lines)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER = re.compile(r"^\s*\[\s*(types|scenarios)\.([A-Za-z0-9_-]+)\s*[.\]]")
_SCENARIO_FIELDS = {"type", "name", "description", "inputs", "notes"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SEP, _USES_SEP = "\x00", "\x1f"   # between rows; between the types one type composes (control characters: refused in names)
_NO_LINE = -1
#: The structure of one file as columns: (type names, type families ("" when all are the file's), type lines (packed),
#: the types each type composes, scenario keys, scenario types, scenario lines (packed)); names joined by _SEP.
Columns = tuple[str, str, bytes, str, str, str, bytes]


class Locator:
    """Finds the line of a key in a TOML text (tomllib keeps no positions).

    >>> Locator("[types.A]\\nx = 1\\n[types.A.inputs.n]\\nunit = '1'\\n").find("types", "A", "inputs", "n")
    3
    """

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


# ---------------------------------------------------------------------- the cache folder and per-file entries
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


def _place(*paths: str | Path) -> str:
    """The cache entry name of a file (or of a set of files): a hash of the absolute path(s), as __pycache__ is per source."""
    return hashlib.sha256("\n".join(map(os.path.abspath, paths)).encode("utf-8", "surrogatepass")).hexdigest()[:32]


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


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` whole to a temporary file beside ``path`` and rename it into place (as a ``.pyc`` is), so a
    reader never sees half an entry (the structure, plan and type caches all write this way)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _cache_write(place: str, part: str, digest: str, data: Any) -> None:
    """Store ``part`` of the file(s) at ``place`` with the digest of the content it was made from."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        text = json.dumps({"digest": digest, "data": data}, ensure_ascii=False, separators=(",", ":"))
        atomic_write(folder / f"{place}.{part}.json", text.encode("utf-8"))
    except (OSError, TypeError, ValueError, RecursionError):   # read-only home, or TOML values JSON cannot hold
        return


# ---------------------------------------------------------------------- one file
def _packed(lines: list[int | None]) -> bytes:
    return array("q", [_NO_LINE if x is None else x for x in lines]).tobytes()


def _joined(names: list[str]) -> str:
    return _SEP.join(names)


def _split(joined: str) -> list[str]:
    return joined.split(_SEP) if joined else []


class Source:
    """One derivation file: its structure (as columns, split when first asked for), its type bodies and scenario
    details read on demand."""

    __slots__ = ("_columns", "_keys", "_lines", "_locator", "_names", "_parts", "_summaries", "_types", "digest", "entries",
                 "family", "title", "where")

    def __init__(self, where: str, digest: str, family: str, title: str, columns: Columns,
                 parts: dict[str, dict[str, Any]] | None = None, locator: Locator | None = None,
                 names: list[str] | None = None, keys: list[str] | None = None) -> None:
        self.where = where
        self.digest = digest
        self.family = family
        self.title = title
        self._columns = columns   # a bundle's source: its names and keys given as lists, their columns left empty
        self._names = names
        self._keys = keys
        self._types: list[str] | None = None
        self._lines: list[array | None] = [None, None]
        self._parts = parts
        self._locator = locator
        self._summaries: dict[str, str] | None = None
        #: what the catalog makes of each type when first asked for (kept here, so catalogs sharing the file share it)
        self.entries: dict[str, Any] = {}

    @property
    def path(self) -> Path:
        return Path(self.where)

    # ------------------------------------------------------------------ the columns, row by row
    @property
    def type_names(self) -> list[str]:
        if self._names is None:
            self._names = _split(self._columns[0])
        return self._names

    @property
    def scenario_keys(self) -> list[str]:
        if self._keys is None:
            self._keys = _split(self._columns[4])
        return self._keys

    @property
    def scenario_types(self) -> list[str]:
        if self._types is None:
            self._types = _split(self._columns[5])
        return self._types

    @property
    def uniform(self) -> bool:
        """Whether every type of the file is of the file's family."""
        return not self._columns[1]

    def type_families(self) -> list[str]:
        """The family of each type, in order."""
        return _split(self._columns[1]) if self._columns[1] else [self.family] * len(self.type_names)

    def type_line(self, i: int) -> int | None:
        return self._line(0, i)

    def type_uses(self, i: int) -> tuple[str, ...]:
        uses = _split(self._columns[3])[i] if self._columns[3] else ""
        return tuple(uses.split(_USES_SEP)) if uses else ()

    def scenario_line(self, i: int) -> int | None:
        return self._line(1, i)

    def _line(self, which: int, i: int) -> int | None:
        lines = self._lines[which]
        if lines is None:   # unpacked on first use (one array per file)
            lines = self._lines[which] = array("q")
            lines.frombytes(self._columns[2 if which == 0 else 6])
        return None if lines[i] == _NO_LINE else int(lines[i])

    # ------------------------------------------------------------------ what is read on demand
    def locator(self) -> Locator:
        if self._locator is None:
            try:
                self._locator = Locator(self.path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                self._locator = Locator("")
        return self._locator

    def locate(self, table: str, name: str, *keys: str) -> int | None:
        return self.locator().find(table, name, *keys)

    def _part(self, part: str) -> dict[str, Any]:
        """``types`` (the raw type tables) or ``scenarios`` (name, description, notes, inputs by key)."""
        if self._parts is None:
            self._parts = {}
        if part not in self._parts:
            cached = _cache_read(_place(self.path), part, self.digest)
            if isinstance(cached, dict) and (part != "scenarios" or _valid_details(cached)):
                self._parts[part] = cached
            else:
                data, text = _parse(self.path)
                if _content_hash(text.encode("utf-8")) != self.digest and _digest(self.path) != self.digest:
                    raise DerivationError("the file changed since the catalog was read; load it again", path=self.where)
                self._locator = Locator(text)
                self._parts.update(_parts(data))
        return self._parts[part]

    def summary(self, name: str) -> str:
        """A type's one-line summary, from this file's cached structure (or the file itself)."""
        if self._summaries is None:
            head = _cache_read(_place(self.path), "head", self.digest)
            if not _valid_head(head):
                data, text = _parse(self.path)
                head = _head(self.path, data, Locator(text))
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

    def __repr__(self) -> str:
        return f"<Source {self.where}: {len(self.type_names)} types, {len(self.scenario_keys)} named scenarios>"


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


def _plain(text: str, what: str, where: str, line: int | None, name: str) -> str:
    """``text`` if it is a name (a key, family or type reference): not empty, no control character; else a DerivationError."""
    if not text or _CONTROL.search(text):
        raise DerivationError(f"{what} {text!r} must be a non-empty name without control characters", path=where, line=line,
                              scenario=name)
    return text


def _head(path: Path, data: dict[str, Any], locator: Locator) -> dict[str, Any]:
    """The structure of a parsed file (its eager checks run here), as JSON-able rows."""
    where = str(path)
    allowed = {"family", "title", "types", "scenarios"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise DerivationError(f"unknown top-level key(s) {', '.join(extra)}; expected {', '.join(sorted(allowed))}", path=where)
    for table in ("types", "scenarios"):
        if not isinstance(data.get(table, {}), Mapping):
            raise DerivationError(f"'{table}' must be a table", path=where)
    family = _plain(str(data.get("family", path.stem)), "the family", where, None, "")
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
        deps = [_plain(d, "the composed type", where, line, type_name) for d in deps]
        own = _plain(str(raw.get("family", family)), "the family", where, line, type_name)
        types.append([type_name, own, str(raw.get("summary", "")), line, deps])
    scenarios = []
    for key, raw in (data.get("scenarios") or {}).items():
        line = lines.get(f"scenarios.{key}") or locator.find("scenarios", key)
        _plain(key, "the named scenario", where, line, "")
        if not isinstance(raw, Mapping) or "type" not in raw:
            raise DerivationError("a named scenario needs a 'type'", path=where, line=line, scenario=key)
        extra_keys = sorted(set(raw) - _SCENARIO_FIELDS)
        if extra_keys:
            raise DerivationError(f"unknown field(s) {', '.join(extra_keys)}; inputs go under [scenarios.{key}.inputs]",
                                  path=where, line=line, scenario=key)
        inputs = raw.get("inputs") or {}
        if not isinstance(inputs, Mapping):
            raise DerivationError("'inputs' must be a table", path=where, line=line, scenario=key)
        scenarios.append([key, _plain(str(raw["type"]), "the type", where, line, key), line])
    return {"format": CACHE_FORMAT, "family": family, "title": str(data.get("title", family)), "types": types, "scenarios": scenarios}


def _valid_head(head: Any) -> bool:
    """Whether a cached structure has the shape :func:`_head` writes (anything else is ignored)."""
    if not (isinstance(head, dict) and head.get("format") == CACHE_FORMAT and isinstance(head.get("family"), str)
            and isinstance(head.get("title"), str) and isinstance(head.get("types"), list) and isinstance(head.get("scenarios"), list)):
        return False
    try:   # the shapes _head writes, checked by unpacking (one pass, no generator per row)
        texts = [head["family"]]
        for name, family, summary, line, deps in head["types"]:
            if type(name) is not str or type(family) is not str or type(summary) is not str \
                    or not (line is None or type(line) is int) or type(deps) is not list or any(type(d) is not str for d in deps):
                return False
            texts += [name, family, *deps]
        for key, type_name, line in head["scenarios"]:
            if type(key) is not str or type(type_name) is not str or not (line is None or type(line) is int):
                return False
            texts += [key, type_name]
    except (TypeError, ValueError):   # a row of another length or not a sequence
        return False
    return all(t and not _CONTROL.search(t) for t in texts)   # as _head writes them: the separators cannot occur


def _columns(head: dict[str, Any]) -> Columns:
    """A file's structure (rows, as :func:`_head` writes them) as columns."""
    types, scenarios, family = head["types"], head["scenarios"], head["family"]
    families = [row[1] for row in types]
    return (_joined([row[0] for row in types]), "" if all(f == family for f in families) else _joined(families),
            _packed([row[3] for row in types]), _joined([_USES_SEP.join(row[4]) for row in types]),
            _joined([row[0] for row in scenarios]), _joined([row[1] for row in scenarios]), _packed([row[2] for row in scenarios]))


def _from_head(path: Path, digest: str, head: dict[str, Any], parts: dict[str, dict[str, Any]] | None = None,
               locator: Locator | None = None) -> Source:
    return Source(str(path), digest, head["family"], head["title"], _columns(head), parts, locator)


def read_one(path: str | Path, digest: str | None = None) -> Source:
    """Read one file's structure: from the cache when its content was seen before, else by parsing it."""
    path = Path(path)
    if digest is None:
        digest = _digest_or_fail(path)
    place = _place(path)
    head = _cache_read(place, "head", digest)
    if _valid_head(head):
        return _from_head(path, digest, head)
    data, text = _parse(path)
    locator = Locator(text)
    head = _head(path, data, locator)
    parts = _parts(data)
    for part, value in parts.items():
        _cache_write(place, part, digest, value)
    _cache_write(place, "head", digest, head)
    return _from_head(path, digest, head, parts, locator)


def _digest_or_fail(path: Path) -> str:
    try:
        return _digest(path)
    except OSError as exc:
        raise DerivationError(f"cannot read the file: {exc.strerror}", path=str(path)) from None


# ---------------------------------------------------------------------- several files: one structure, one bundle
class Structure(NamedTuple):
    """What listing needs of a set of files, in file order: their sources, every type with its file, every named
    scenario's key with its file, the types the named scenarios use, the types of each family (joined, split when
    asked for) and each family's title.  Nothing is checked across files here; ``distinct`` says whether the type
    names, and the keys, are each declared once within these files."""

    sources: list[Source]
    type_names: list[str]
    type_sources: list[Source]
    scenario_keys: list[str]
    scenario_files: array          # the index in ``sources`` of each named scenario's file
    foreign_types: list[str]       # the types named scenarios are of that these files do not declare, each once
    families: tuple[tuple[str, bytes], ...]   # each family's types, as indexes into type_names (packed)
    titles: dict[str, str]
    distinct: bool

    def scenario_source(self, i: int) -> Source:
        return self.sources[self.scenario_files[i]]

    def family_lists(self) -> dict[str, list[str]]:
        """Family -> the names of its types, in file order."""
        lists = {}
        for family, packed in self.families:
            index = array("I")
            index.frombytes(packed)
            lists[family] = list(map(self.type_names.__getitem__, index))
        return lists


def _titles(sources: list[Source]) -> dict[str, str]:
    """A family's title: its own file's (reliability.toml), else every file's, in file order."""
    found: dict[str, list[tuple[bool, str]]] = {}
    for src in sources:
        own = src.where.endswith((f"/{src.family}.toml", f"\\{src.family}.toml"))
        found.setdefault(src.family, []).append((own, src.title))
    titles = {}
    for family, pairs in found.items():
        mine = [title for is_own, title in pairs if is_own]
        titles[family] = mine[0] if mine else "; ".join(dict.fromkeys(title for _, title in pairs))
    return titles


def _structure(sources: list[Source]) -> Structure:
    names = [name for src in sources for name in src.type_names]
    keys = [key for src in sources for key in src.scenario_keys]
    families: dict[str, list[int]] = {}
    for i, family in enumerate(family for src in sources for family in src.type_families()):
        families.setdefault(family, []).append(i)
    declared = set(names)
    return Structure(sources, names, [src for src in sources for _ in src.type_names], keys,
                     array("I", [i for i, src in enumerate(sources) for _ in src.scenario_keys]),
                     list(dict.fromkeys(t for src in sources for t in src.scenario_types if t not in declared)),
                     tuple((family, array("I", members).tobytes()) for family, members in families.items()), _titles(sources),
                     len(declared) == len(names) and len(set(keys)) == len(keys))


def read_all(files: list[str], stats: list[os.stat_result] | None = None) -> Structure:
    """Read the structure of several files (absolute paths; ``stats`` their ``os.stat``, when known).  The structure of
    a set of files seen before, unchanged since, is one cache entry (checked by each file's modification time and size,
    as Python's bytecode cache checks a source), read as a few strings split at C speed: no Python work per type or per
    named scenario."""
    if len(files) < 2:
        return _structure([read_one(f, _digest_or_fail(Path(f))) for f in files])
    place = hashlib.sha256("\n".join(files).encode("utf-8", "surrogatepass")).hexdigest()[:32]   # as _place: absolute already
    stamp = _stamp(files, stats)
    found = _bundle_read(place, stamp, files)
    if found is not None:
        return found
    structure = _structure([read_one(f, _digest_or_fail(Path(f))) for f in files])
    _bundle_write(place, stamp, structure)
    return structure


def read_path(path: str | Path) -> tuple[list[str], Structure]:
    """The derivation files of a folder (absolute paths, by name, the registries apart) or the one file given, and
    their structure.  A folder is listed once, and each file's ``stat`` comes with its listing."""
    folder = os.path.abspath(path)
    if not os.path.isdir(folder):
        return [folder], read_all([folder])
    try:
        with os.scandir(folder) as listing:
            entries = sorted((e for e in listing if e.name.endswith(".toml") and e.name not in REGISTRY_FILES),
                             key=attrgetter("name"))
        stats = [e.stat() for e in entries]
    except OSError as exc:
        raise DerivationError(f"cannot read the file: {exc.strerror}", path=exc.filename or folder) from None
    files = [e.path for e in entries]
    return files, read_all(files, stats)


def _stamp(files: list[str], stats: list[os.stat_result] | None = None) -> str:
    """The files' paths, modification times (ns) and sizes: what says they are unchanged since a bundle was made."""
    if stats is None:
        stats = []
        for f in files:
            try:
                stats.append(os.stat(f))
            except OSError as exc:
                raise DerivationError(f"cannot read the file: {exc.strerror}", path=f) from None
    times = array("q", map(attrgetter("st_mtime_ns"), stats))
    sizes = array("q", map(attrgetter("st_size"), stats))
    digest = hashlib.sha256("\n".join(files).encode("utf-8", "surrogatepass"))
    digest.update(times.tobytes())
    digest.update(sizes.tobytes())
    return digest.hexdigest()


def _bundle_read(place: str, stamp: str, wheres: list[str]) -> Structure | None:
    """The structure of the files ``wheres`` from their bundle, if it was made from files with this ``stamp``, else None.
    Anything unexpected in it is ignored (then the files are read again)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        entry = marshal.loads((folder / f"{place}.heads.marshal").read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    try:   # our own file, written whole and renamed into place (as a .pyc): checked for shape and every count
        fmt, order, made_from, rows, names, type_files, keys, key_files, foreign, families, titles, distinct = entry
        if not (fmt == CACHE_FORMAT and order == sys.byteorder and made_from == stamp and type(rows) is list
                and len(rows) == len(wheres) and type(names) is type(keys) is type(foreign) is str
                and type(type_files) is type(key_files) is bytes and type(families) is type(titles) is tuple
                and type(distinct) is bool):
            return None
        type_index, key_index = array("I"), array("I")
        type_index.frombytes(type_files)
        key_index.frombytes(key_files)
        names_list, keys_list = _split(names), _split(keys)
        n_types, n_keys = [row[4] for row in rows], [row[5] for row in rows]
        if not (len(type_index) == len(names_list) == sum(n_types) and len(key_index) == len(keys_list) == sum(n_keys)
                and set(map(_row_shape, rows)) <= {_ROW_SHAPE}):
            return None
        sources, t, k = [], 0, 0
        for where, (digest, family, title, columns, nt, nk) in zip(wheres, rows):
            sources.append(Source(where, digest, family, title, columns, names=names_list[t:t + nt], keys=keys_list[k:k + nk]))
            t, k = t + nt, k + nk
        if max(type_index, default=0) >= len(sources) or max(key_index, default=0) >= len(sources):
            return None
        width = array("I").itemsize
        if not all(type(f) is str and type(packed) is bytes and len(packed) % width == 0 for f, packed in families) \
                or sum(len(packed) for _, packed in families) != width * len(names_list):
            return None
        return Structure(sources, names_list, list(map(sources.__getitem__, type_index)), keys_list, key_index, _split(foreign),
                         families, dict(titles), distinct)
    except (TypeError, ValueError):   # not a tuple of that length, a row of another shape
        return None


_ROW_SHAPE = (str, str, str, (str, str, bytes, str, str, str, bytes), int, int)


def _row_shape(row: Any) -> Any:
    return (*map(type, row[:3]), tuple(map(type, row[3])), *map(type, row[4:])) if type(row) is tuple and len(row) == 6 else None


def _bundle_write(place: str, stamp: str, structure: Structure) -> None:
    folder = cache_dir()
    if folder is None:
        return
    s = structure
    # a file's names and keys are the bundle's own (its columns hold them once, for the whole set of files)
    rows = [(src.digest, src.family, src.title, ("", *src._columns[1:4], "", *src._columns[5:]), len(src.type_names),
             len(src.scenario_keys)) for src in s.sources]
    index = {id(src): i for i, src in enumerate(s.sources)}
    try:
        data = marshal.dumps((CACHE_FORMAT, sys.byteorder, stamp, rows, _joined(s.type_names),
                              array("I", [index[id(src)] for src in s.type_sources]).tobytes(), _joined(s.scenario_keys),
                              s.scenario_files.tobytes(), _joined(s.foreign_types), s.families, tuple(s.titles.items()), s.distinct))
        atomic_write(folder / f"{place}.heads.marshal", data)
    except (OSError, ValueError):   # read-only home; or a value marshal cannot hold
        return
