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
uses, the lines of their headers) is read by :mod:`mlsysim_symbolic.sources`, which
keeps it in a cache in the user's cache directory the way Python keeps bytecode
(checked against each file's content or modification time and size; a stale or
malformed entry is ignored and rewritten; nothing in it is ever executed).  Beside it,
:mod:`mlsysim_symbolic.plan_cache` keeps each planned output's definitions and compiled
function, named by a hash of the declarations and the code.  Set
``MLSYSIM_SYMBOLIC_CACHE=off`` to disable both, or to a folder to move both.

>>> from mlsysim_symbolic import Scenarios
>>> Scenarios.DpSgdPerExampleGradients.name
'Per-example FP32 gradients for the KWS DS-CNN and GPT-2 at batch 256'
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from . import type_cache
from .errors import DerivationError, InputError, MlsysimSymbolicError, UnknownNameError
from .paths import derivations_dir
from .plan_cache import declaration_digest, type_digest
from .registry import clusters, fabrics, grids, hardware, nodes, workloads
from .scenario import Scenario, scenario_class
from .sources import REGISTRY_FILES, Source, Structure, read_all, read_path
from .spec import ScenarioType, kind_of
from .spec.kinds import ObjectKind, WorkloadKind

_BUILD_LOCK = threading.RLock()


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
                 source: Source | None = None) -> None:
        self.key = key
        self.type_name = type_name
        self.family = family
        self.path = path
        self.line = line
        self._source = source
        self._details: tuple[str, str, str, dict[str, Any]] | None = (
            None if source is not None else (key if name is None else name, description, notes, dict(inputs or {})))

    @classmethod
    def declared_in(cls, key: str, type_name: str, family: str, path: str, line: int | None, source: Source) -> NamedScenario:
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



# ---------------------------------------------------------------------- the catalog
class _Entry:
    """One type of the catalog: its metadata, its source, and (once built) its ScenarioType and class."""

    __slots__ = ("_info", "building", "cls", "family", "index", "name", "source", "stype")

    def __init__(self, name: str, source: Source) -> None:
        self.name = name
        self.source = source
        self.index = source.type_names.index(name)
        self.family = source.type_families()[self.index] if not source.uniform else source.family
        self._info: TypeInfo | None = None   # made when asked for: a catalog of thousands of types makes few
        self.stype: ScenarioType | None = None
        self.cls: type[Scenario] | None = None
        self.building = False

    @property
    def info(self) -> TypeInfo:
        if self._info is None:
            src, i = self.source, self.index
            self._info = TypeInfo(self.name, self.family, src.summary(self.name), src.where, src.type_line(i), src.type_uses(i))
        return self._info


def _entry_of(source: Source, name: str) -> _Entry:
    """The entry of type ``name`` of ``source``, made on first use and kept by the source (catalogs sharing it share it)."""
    entry = source.entries.get(name)
    if entry is None:
        entry = source.entries[name] = _Entry(name, source)
    return entry


class _Built(Mapping):
    """A catalog's types, classes or metadata (``info``) by name: the names come from the files' structure; a type or
    class is built on first access, a :class:`TypeInfo` made (its summary read) when first asked for."""

    def __init__(self, catalog: Catalog, what: str) -> None:
        self._catalog = catalog
        self._what = what

    def __getitem__(self, name: str) -> Any:
        src = self._catalog._entries.get(name)
        if src is None:
            raise KeyError(name)
        if self._what == "info":
            return _entry_of(src, name).info
        entry = self._catalog._built(name)
        return entry.stype if self._what == "types" else entry.cls

    def __contains__(self, name: object) -> bool:
        return name in self._catalog._entries

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._catalog._entries))

    def __len__(self) -> int:
        return len(self._catalog._entries)

    def __repr__(self) -> str:
        return f"<{len(self)} {self._what}, {'read' if self._what == 'info' else 'built'} on first access>"


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
        self._entries: dict[str, Source] = {}   # each type's file; its entry is made when first asked for
        self._declared: dict[str, NamedScenario] = {}
        self._pending: list[Structure] = []   # files whose named scenarios are not objects yet
        self._early: dict[str, NamedScenario] = {}   # rows made objects one by one, before the rest
        self._families: dict[str, list[str]] = {}
        self._pending_families: list[Structure] = []   # files whose family lists are not split yet
        self.titles: dict[str, str] = {}
        self._instances: dict[str, Any] = {}
        self.types: Mapping[str, ScenarioType] = _Built(self, "types")
        self.classes: Mapping[str, type[Scenario]] = _Built(self, "classes")
        self._info: Mapping[str, TypeInfo] = _Built(self, "info")
        #: A whole catalog's own registries (a copy of ``derivations/``), by input kind and system table: its named
        #: scenarios bind the entries their text names here.  Empty for the shipped catalog and a user's files.
        self.registries: dict[str, Any] = {}
        #: A whole catalog's ``applications.toml`` (mlsysim's application scenarios as data), if it has one.
        self.applications_path: Path | None = None

    # ------------------------------------------------------------------ metadata (no build)
    @property
    def declared(self) -> dict[str, NamedScenario]:
        """The named scenarios as declared, by key (made from the files' rows when first asked for)."""
        if self._pending:
            make = NamedScenario.declared_in
            early = self._early   # made one by one before (the same objects: a scenario's binding may hold them)
            with _no_collection():   # thousands of objects that all live on
                for src in chain.from_iterable(structure.sources for structure in self._pending):
                    family, where, line = src.family, src.where, src.scenario_line
                    self._declared.update({key: early.get(key) or make(key, type_name, family, where, line(i), src)
                                           for i, (key, type_name) in enumerate(zip(src.scenario_keys, src.scenario_types))})
            self._pending, self._early = [], {}
        return self._declared

    @declared.setter
    def declared(self, value: dict[str, NamedScenario]) -> None:
        self._declared, self._pending, self._early = value, [], {}

    def _declare(self, key: str) -> None:
        """Make the one named scenario ``key`` an object, if it is still a row (the others stay rows)."""
        if not self._pending or key in self._declared or key in self._early:
            return
        for structure in self._pending:   # a scan at C speed (no index of thousands of keys for one lookup)
            try:
                src = structure.scenario_source(structure.scenario_keys.index(key))
            except ValueError:
                continue
            i = src.scenario_keys.index(key)
            self._early[key] = NamedScenario.declared_in(key, src.scenario_types[i], src.family, src.where, src.scenario_line(i), src)
            return

    @property
    def families(self) -> dict[str, list[str]]:
        """Family -> the names of its types, in file order (split from the files' structure when first asked for)."""
        if self._pending_families:
            for structure in self._pending_families:
                for family, names in structure.family_lists().items():
                    self._families.setdefault(family, []).extend(names)
            self._pending_families = []
        return self._families

    @property
    def info(self) -> Mapping[str, TypeInfo]:
        """Every type of this catalog by name, as metadata (nothing is built; a summary is read when asked for).

        >>> catalog().info["ZeroShardingScenario"].summary.split(",")[0]
        'Per-device training state of a model at each ZeRO stage over N devices'
        """
        return self._info

    @property
    def built(self) -> list[str]:
        """The names of this catalog's types built so far (each is built on first use).

        >>> cat = load_derivations(derivations_dir() / "dp.toml")
        >>> before = cat.built
        >>> _ = cat.scenario("DpSgdPerExampleGradients")
        >>> before, cat.built
        ([], ['PerExampleGradientScenario'])
        """
        return [name for name, src in self._entries.items() if (e := src.entries.get(name)) is not None and e.cls is not None]

    def scenarios_of(self, type_name: str) -> list[str]:
        """The keys of the named scenarios of type ``type_name``, in declaration order (no build).

        >>> catalog().scenarios_of("ZeroShardingScenario")
        ['Llama2_7B_ZeroStages64', 'Gpt3Zero3On64']
        """
        return [k for k, d in self.declared.items() if d.type_name == type_name]

    def _entry(self, name: str) -> _Entry | None:
        src = self._entries.get(name)
        if src is not None:
            return _entry_of(src, name)
        return self._known._entry(name) if self._known is not None else None

    def _keys(self) -> set[str]:
        """The keys of every named scenario of this catalog, made into no object (its files' rows read as they are)."""
        keys = set(self._declared) | set(self._early)
        for structure in self._pending:
            keys.update(structure.scenario_keys)
        return keys

    def _all_names(self) -> list[str]:
        names = list(self._known._all_names()) if self._known is not None else []
        known = set(names)   # once: a set per name made this quadratic (3 ms a call for a ten-fold catalog)
        return names + [n for n in self._entries if n not in known]

    def _sources(self) -> list[Source]:
        """The files this catalog's own types and named scenarios come from (no named scenario made for it)."""
        sources = {id(src): src for src in self._entries.values()}
        sources.update({id(src): src for structure in self._pending for src in structure.sources})
        sources.update({id(d._source): d._source for d in (*self._declared.values(), *self._early.values()) if d._source is not None})
        return list(sources.values())

    def _add(self, entry: _Entry) -> None:
        self._entries[entry.name] = entry.source
        self.families.setdefault(entry.family, []).append(entry.name)

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
                digests = [(name, declaration_digest(name, src.family, raw))]   # the digest keys its plans on disk
                for dep in entry.info.uses:   # dependency order: what this type composes is built first
                    if self._entry(dep) is not None:
                        digests.append((dep, type_digest(self._built(dep, (*trail, name)).stype)))
                find = _Resolver(self, (*trail, name))
                key = type_cache.entry_key(name, digests) if all(d for _, d in digests) else None
                stype = type_cache.read(key, self, find.__getitem__) if key is not None else None
                if stype is None:
                    stype = ScenarioType.from_mapping(   # frozen once built: who names its scenarios and its hash given here
                        name, raw, family=src.family, path=src.where, types=find,
                        locate=lambda *keys, n=name, s=src: s.locate("types", n, *keys),
                        resolver=self, digest=digests[0][1])
                    if key is not None:
                        type_cache.write(key, stype, self, find.__getitem__)
                try:
                    cls = scenario_class(stype)
                except MlsysimSymbolicError as exc:
                    raise DerivationError(str(exc), path=src.where, line=entry.info.line, scenario=name) from None
                if self is not _CATALOG and not _is_shipped(src.where):   # a user's file: found again by its text
                    cls._origin = TypeOrigin(self, name, cls)
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
            raise UnknownNameError("scenario type", name, self._all_names(), listed=False)
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
            raise UnknownNameError("scenario", key, self.declared, note="(mlsysim-symbolic list shows the catalog)",
                                   listed=False)
        d = d or self.declared[key]
        cls = self.type_class(d.type_name)
        try:
            inputs = self._own_entries(cls, d.inputs) if self.registries else d.inputs
            instance = cls(name=d.name, description=d.description, **inputs)
        except (MlsysimSymbolicError, TypeError, ValueError) as exc:
            raise DerivationError(f"scenario {key} ({d.type_name}): {exc}", path=d.path, line=d.line, scenario=key) from None
        instance.key = key
        self._instances[key] = instance
        return instance

    def _own_entries(self, cls: type[Scenario], inputs: dict[str, Any]) -> dict[str, Any]:
        """``inputs`` with each registry key (a workload's, a device's, a grid's) replaced by the entry of this
        catalog's own registry: a copy of ``derivations/`` prices its named scenarios with its own registry files."""
        found = dict(inputs)
        for name, value in inputs.items():
            spec = cls._type.inputs.get(name)
            kind = kind_of(spec) if spec is not None else None
            if not isinstance(kind, ObjectKind):   # a registry input: a workload (or a table of them), a device, a grid
                continue
            registry = self.registries.get("workload" if isinstance(kind, WorkloadKind) else kind.name)
            if registry is None:
                continue
            try:
                if kind.keyed and isinstance(value, Mapping):
                    found[name] = {k: registry[v] if isinstance(v, str) else v for k, v in value.items()}
                elif isinstance(value, str):
                    found[name] = registry[value]
            except UnknownNameError as exc:
                raise exc.within(name) from None
        return found

    def named_of(self, type_name: str, key: str) -> Any:
        """The named scenario ``key``, which must be of type ``type_name`` (a scenario input bound by name).

        >>> catalog().named_of("ActivationMemoryScenario", "Gpt3ActivationsMicrobatch1").type.name
        'ActivationMemoryScenario'
        """
        d = self.declared.get(key)
        known = self._known
        if d is None and known is not None and type_name not in self._entries and key in known.declared:
            return known.named_of(type_name, key)   # a file loaded alone names the shipped scenarios of shipped types
        if d is None:
            raise UnknownNameError(f"{type_name} scenario", key, self.scenarios_of(type_name))
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
        # every registry entry made now (each is otherwise made when first asked for): a bad field fails the check
        for registry in (self.registries or {"workload": workloads(), "hardware": hardware(), "grid": grids()}).values():
            dict(registry.items())
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
                raise UnknownNameError("scenario type", name, self._all_names(), listed=False)
            sub._add(entry)
            sub.titles.setdefault(entry.info.family, self.titles.get(entry.info.family, entry.info.family))
        sub.declared = {k: d for k, d in self.declared.items() if d.type_name in sub._entries}
        sub._instances = self._instances
        return sub

    def merge(self, other: Catalog) -> None:
        """Add the types and named scenarios of ``other`` (a name declared in both is refused)."""
        for name, src in other._entries.items():
            if name in self._entries:
                raise DerivationError(f"scenario type {name} is declared twice", path=src.where,
                                      line=_entry_of(src, name).info.line, scenario=name)
        for key, d in other.declared.items():
            if key in self.declared:
                raise DerivationError(f"named scenario {key} is declared twice", path=d.path, line=d.line, scenario=key)
        for name, src in other._entries.items():
            self._add(_entry_of(src, name))
        self.declared.update(other.declared)
        self.titles.update(other.titles)
        self._instances.update(other._instances)

    def __repr__(self) -> str:
        built = len(self.built)
        return f"<Catalog: {len(self._entries)} types ({built} built), {len(self.declared)} named scenarios>"


def _assemble(structure: Structure, known: Catalog | None = None) -> Catalog:
    """A catalog of the files of ``structure`` from their structure alone; the checks across files run here, as set
    operations over every name at once (a catalog of thousands of types makes no object per type or scenario)."""
    cat = Catalog(known)
    cat.titles.update(structure.titles)
    names = structure.type_names
    known_names = set(known._all_names()) if known is not None else set()
    if not structure.distinct or not known_names.isdisjoint(names):
        seen: set[str] = set()
        for src in structure.sources:   # find the first, by file and line
            for i, name in enumerate(src.type_names):
                if name in known_names or name in seen:
                    raise DerivationError(f"scenario type {name} is declared twice", path=src.where, line=src.type_line(i),
                                          scenario=name)
                seen.add(name)
    entries = cat._entries
    entries.update(zip(names, structure.type_sources))   # each entry is made when first asked for
    cat._pending_families.append(structure)
    keys = structure.scenario_keys
    known_keys = known._keys() if known is not None else set()
    if structure.distinct and known_keys.isdisjoint(keys) and known_names.issuperset(structure.foreign_types):
        cat._pending = [structure]   # sound: made into objects when asked for
        return cat
    declared = cat._declared   # a problem: find the first, by file and line
    for src in structure.sources:
        for i, (key, type_name) in enumerate(zip(src.scenario_keys, src.scenario_types)):
            line = src.scenario_line(i)
            if type_name not in entries and cat._entry(type_name) is None:
                raise DerivationError(UnknownNameError("scenario type", type_name, cat._all_names(), listed=False),
                                      path=src.where, line=line, scenario=key)
            if key in declared or key in known_keys:
                raise DerivationError(f"named scenario {key} is declared twice", path=src.where, line=line, scenario=key)
            declared[key] = NamedScenario.declared_in(key, type_name, src.family, src.where, line, src)
    return cat


def load_file(path: str | Path, *, known: Catalog | None = None) -> Catalog:
    """Read one derivation file (its types build on first use); raise :class:`DerivationError` on a structural problem.

    Types it composes (``uses``) may come from ``known`` (by default the shipped catalog).
    """
    if known is None:
        known = _others(path)
    return _assemble(read_all([os.fspath(path)]), known)


def _others(*paths: str | Path) -> Catalog:
    """The shipped catalog without the types and scenarios of ``paths`` (so a shipped file can be re-loaded)."""
    base = catalog()
    shipped = {os.path.basename(src.where) for src in base._sources()}
    # only a file named as a shipped one can be one (a folder of user files costs no path resolution)
    skip = {str(Path(p).resolve()) for p in map(os.fspath, paths) if p.rpartition(os.sep)[2] in shipped}
    if not skip:
        return base
    resolved = {src.where: str(Path(src.where).resolve()) for src in base._sources()}
    others = Catalog()
    for name, src in base._entries.items():
        if resolved[src.where] not in skip:
            others._add(_entry_of(src, name))
    others.declared = {k: d for k, d in base.declared.items() if d.path is None or resolved.get(d.path, d.path) not in skip}
    others.titles = dict(base.titles)
    return others


def is_whole_catalog(path: str | Path) -> bool:
    """Whether ``path`` is a folder holding a whole catalog (a copy of ``derivations/``: it has ``workloads.toml``)."""
    return os.path.isdir(path) and os.path.isfile(os.path.join(path, "workloads.toml"))


def load_derivations(path: str | Path | None = None, *, register: bool = False, standalone: bool | None = None) -> Catalog:
    """Read a derivation file or folder the way the shipped catalog is read.

    The structural checks run now; each type is built (parsed, dimension-checked,
    compiled) on first use, and :meth:`Catalog.check` builds and checks them all.
    Types of the shipped catalog may be composed (``uses``) and may not be declared
    again, unless ``standalone=True``: then the files are a catalog of their own and
    compose only each other.  A folder holding a whole catalog (a copy of
    ``derivations/``, with its ``workloads.toml``) is standalone unless ``standalone=False``
    or ``register=True``: every file the package ships is read from it, its registries
    (``workloads``, ``hardware``, ``grids``, ``systems``) bind its named scenarios
    (:attr:`Catalog.registries`) and its ``applications.toml`` is
    :attr:`Catalog.applications_path`.  A registry file alone gives its registry and no
    types.  With ``register=True`` the files' types and scenarios join :data:`Scenarios`.

    >>> cat = load_derivations(derivations_dir() / "dp.toml")
    >>> sorted(cat.info), cat.check().types
    (['PerExampleGradientScenario'], 1)
    >>> sorted(load_derivations(derivations_dir() / "grids.toml").registries)
    ['grid']
    """
    if path is None:
        return catalog()
    if standalone is None:
        standalone = not register and is_whole_catalog(path)
    if standalone and register:
        raise ValueError("a standalone catalog cannot join the shipped one (register=True)")
    if os.path.basename(path) in REGISTRY_FILES and os.path.isfile(path):
        result = Catalog(catalog())
        _attach_registries(result, Path(path).parent, only=os.path.basename(path))
        return result
    with _no_collection():
        files, structure = read_path(path)
        result = _assemble(structure, None if standalone else _others(*files))
    if standalone and os.path.isdir(path):
        _attach_registries(result, Path(path))
    if register:
        catalog().merge(result)
    return result


def _attach_registries(cat: Catalog, folder: Path, only: str | None = None) -> None:
    """Read the registry files of ``folder`` (or the one named ``only``) into ``cat``: each is checked now (a
    :class:`DerivationError` names the file, entry and reason), as the shipped ones are on first use."""
    def wanted(name: str) -> bool:
        return (only is None or only == name) and (folder / name).is_file()

    hardware_path = str(folder / "hardware.toml") if (folder / "hardware.toml").is_file() else None
    if wanted("workloads.toml"):
        cat.registries["workload"] = workloads(str(folder / "workloads.toml"))
    if wanted("hardware.toml"):
        cat.registries["hardware"] = hardware(str(folder / "hardware.toml"))
    if wanted("grids.toml"):
        cat.registries["grid"] = grids(str(folder / "grids.toml"))
    if wanted("systems.toml"):
        systems = str(folder / "systems.toml")
        cat.registries.update(fabrics=fabrics(systems), nodes=nodes(systems, hardware_path),
                              clusters=clusters(systems, hardware_path))
    if wanted("applications.toml"):
        cat.applications_path = folder / "applications.toml"


_CATALOG: Catalog | None = None


def _is_shipped(where: str) -> bool:
    return os.path.dirname(os.path.abspath(where)) == os.path.abspath(derivations_dir())


class TypeOrigin:
    """Where the class of a type read from a user's files comes from, for pickling: that catalog's file texts and the
    type's name.  A pickled scenario of such a type reduces its class to them, and another process (or this one, from
    a cache keyed by the texts' hash) reads them again."""

    __slots__ = ("catalog", "name", "cls")

    def __init__(self, catalog: Catalog, name: str, cls: type[Scenario]) -> None:
        self.catalog, self.name, self.cls = catalog, name, cls

    def __reduce__(self) -> tuple[Any, ...]:
        texts = []
        for src in sorted(self.catalog._sources(), key=lambda s: s.where):
            data = Path(src.where).read_bytes()
            texts.append((os.path.basename(src.where), data))
        return _loaded_type_class, (tuple(texts), self.catalog._known is None, self.name)


_LOADED: dict[str, Catalog] = {}


def _loaded_type_class(texts: tuple[tuple[str, bytes], ...], standalone: bool, name: str) -> type[Scenario]:
    """The class of type ``name`` from derivation files given as (file name, content): read once per content, from a
    private folder that lives as long as the process."""
    import atexit
    import hashlib
    import shutil
    import tempfile

    digest = hashlib.sha256(repr((texts, standalone)).encode("utf-8", "surrogatepass")).hexdigest()
    cat = _LOADED.get(digest)
    if cat is None:
        folder = tempfile.mkdtemp(prefix="mlsysim-symbolic-loaded-")
        atexit.register(shutil.rmtree, folder, True)
        for file_name, data in texts:
            Path(folder, os.path.basename(file_name)).write_bytes(data)
        target = folder if len(texts) > 1 else os.path.join(folder, os.path.basename(texts[0][0]))
        cat = _LOADED[digest] = load_derivations(target, standalone=standalone)
    return cat.type_class(name)


def catalog() -> Catalog:
    """The shipped catalog, read once (its types build on first use)."""
    global _CATALOG
    if _CATALOG is None:
        with _no_collection():
            _CATALOG = _assemble(read_path(derivations_dir())[1])
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

    def __init__(self) -> None:
        self._extensions: list[Mapping[str, Any]] = []
        self._elsewhere: tuple[Any, dict[str, Mapping[str, Any]]] = (None, {})

    def extend(self, scenarios: Mapping[str, Any]) -> None:
        """Make another mapping of scenarios reachable here by key and attribute, after the named scenarios of
        the catalog (a higher layer registers its own: mlsysim's application scenarios, ``Scenarios.ChatbotServing``).
        They are not listed, counted or iterated with the catalog's named scenarios."""
        self._extensions.append(scenarios)

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except UnknownNameError as exc:
            raise AttributeError(str(exc)) from None

    def __getitem__(self, key: str) -> Any:
        cat = catalog()
        if self._elsewhere[0] is not cat:   # keys this catalog has not, found in an extension (no did-you-mean each time)
            self._elsewhere = (cat, {})
        elsewhere = self._elsewhere[1]
        if key in elsewhere:
            return elsewhere[key][key]
        try:
            return cat.scenario(key)
        except UnknownNameError:
            for extension in self._extensions:
                if key in extension:
                    elsewhere[key] = extension
                    return extension[key]
            raise

    def __contains__(self, key: object) -> bool:
        return key in catalog().declared

    def __iter__(self) -> Iterator[str]:
        return iter(catalog().declared)

    def __len__(self) -> int:
        return len(catalog().declared)

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *catalog().declared, *(k for e in self._extensions for k in e)]

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
