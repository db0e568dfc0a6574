"""The catalog: derivation files loaded into scenario types, classes and named scenarios.

Every ``*.toml`` file in ``derivations/`` (other than the workload and hardware
registries) holds one family of scenario types and named scenarios.  Loading
checks every equation (whitelisted parse, dimensions, cycles) and binds every
named scenario (known inputs, units, ranges); a problem is reported with the
file, the line, the scenario and the reason.

>>> from mlsysim_symbolic import Scenarios
>>> Scenarios.DpSgdPerExampleGradients.name
'Per-example FP32 gradients for the KWS DS-CNN and GPT-2 at batch 256'
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import DerivationError, MlsysimSymbolicError, UnknownNameError, closest
from .paths import derivations_dir
from .scenario import scenario_class
from .spec import ScenarioType

REGISTRY_FILES = {"workloads.toml", "hardware.toml"}


class _Locator:
    """Finds the line of a key in a TOML text (tomllib keeps no positions)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()

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


@dataclass
class NamedScenario:
    """A named scenario as declared: its type and inputs (bound on first use)."""

    key: str
    type_name: str
    name: str
    description: str
    inputs: dict[str, Any]
    family: str
    path: str | None = None
    line: int | None = None
    notes: str = ""


@dataclass
class Catalog:
    """Scenario types, their classes and the named scenarios of one or more derivation files."""

    types: dict[str, ScenarioType] = field(default_factory=dict)
    classes: dict[str, type] = field(default_factory=dict)
    declared: dict[str, NamedScenario] = field(default_factory=dict)
    families: dict[str, list[str]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    _instances: dict[str, Any] = field(default_factory=dict)

    def scenario(self, key: str) -> Any:
        """The named scenario ``key``, bound (cached: scenarios are immutable)."""
        if key in self._instances:
            return self._instances[key]
        if key not in self.declared:
            hint = closest(key, list(self.declared))
            raise UnknownNameError(
                f"unknown scenario {key!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else "")
                + " (mlsysim-symbolic list shows the catalog)")
        d = self.declared[key]
        cls = self.classes[d.type_name]
        try:
            instance = cls(name=d.name, description=d.description, **d.inputs)
        except (MlsysimSymbolicError, TypeError, ValueError) as exc:
            raise DerivationError(f"scenario {key} ({d.type_name}): {exc}", path=d.path, line=d.line, scenario=key) from None
        instance.key = key
        self._instances[key] = instance
        return instance

    def merge(self, other: Catalog) -> None:
        for name in other.types:
            if name in self.types:
                raise DerivationError(f"scenario type {name} is declared twice", path=other.types[name].source_path, scenario=name)
        for key in other.declared:
            if key in self.declared:
                raise DerivationError(f"named scenario {key} is declared twice", path=other.declared[key].path, scenario=key)
        self.types.update(other.types)
        self.classes.update(other.classes)
        self.declared.update(other.declared)
        for fam, names in other.families.items():
            self.families.setdefault(fam, []).extend(names)
        self.titles.update(other.titles)


@dataclass
class _Source:
    """One derivation file, read and parsed as TOML, not yet built."""

    path: Path
    data: dict[str, Any]
    locator: _Locator
    family: str


def _read(path: str | Path) -> _Source:
    path = Path(path)
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DerivationError(f"cannot read the file: {exc.strerror}", path=where) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise DerivationError(f"not valid TOML: {exc}", path=where, line=int(m.group(1)) if m else None) from None
    allowed = {"family", "title", "types", "scenarios"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise DerivationError(f"unknown top-level key(s) {', '.join(extra)}; expected {', '.join(sorted(allowed))}", path=where)
    for table in ("types", "scenarios"):
        if not isinstance(data.get(table, {}), Mapping):
            raise DerivationError(f"'{table}' must be a table", path=where)
    return _Source(path, data, _Locator(text), str(data.get("family", path.stem)))


def _build(sources: list[_Source], known: Catalog | None = None) -> Catalog:
    """Build the types of ``sources`` (in the order their ``uses`` require), then bind their named scenarios."""
    catalog = Catalog()
    pending: dict[str, tuple[_Source, Mapping[str, Any]]] = {}
    for src in sources:
        catalog.titles[src.family] = str(src.data.get("title", src.family))
        for type_name, raw in (src.data.get("types") or {}).items():
            where = str(src.path)
            line = src.locator.find("types", type_name)
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", type_name):
                raise DerivationError(f"type name {type_name!r} is not an identifier", path=where, line=line, scenario=type_name)
            if type_name in pending or (known is not None and type_name in known.types):
                raise DerivationError(f"scenario type {type_name} is declared twice", path=where, line=line, scenario=type_name)
            if not isinstance(raw, Mapping):
                raise DerivationError("a type must be a table", path=where, line=line, scenario=type_name)
            pending[type_name] = (src, raw)
    available: dict[str, ScenarioType] = dict(known.types) if known else {}
    state: dict[str, int] = {}

    def build(type_name: str, trail: tuple[str, ...]) -> None:
        if state.get(type_name) == 2:
            return
        src, raw = pending[type_name]
        where = str(src.path)
        if state.get(type_name) == 1:
            raise DerivationError(f"types compose each other in a cycle: {' -> '.join((*trail, type_name))}",
                                  path=where, line=src.locator.find("types", type_name, "uses"), scenario=type_name)
        state[type_name] = 1
        uses = raw.get("uses") or {}
        if isinstance(uses, Mapping):
            for use in uses.values():
                dep = use.get("type") if isinstance(use, Mapping) else None
                if isinstance(dep, str) and dep in pending:
                    build(dep, (*trail, type_name))
        stype = ScenarioType.from_mapping(
            type_name, raw, family=src.family, path=where, types=available,
            locate=lambda *keys, n=type_name, loc=src.locator: loc.find("types", n, *keys))
        try:
            cls = scenario_class(stype)
        except MlsysimSymbolicError as exc:
            raise DerivationError(str(exc), path=where, line=src.locator.find("types", type_name), scenario=type_name) from None
        available[type_name] = stype
        catalog.types[type_name] = stype
        catalog.classes[type_name] = cls
        state[type_name] = 2

    for type_name in pending:
        build(type_name, ())
    for type_name in pending:
        catalog.families.setdefault(catalog.types[type_name].family, []).append(type_name)

    all_classes = {**(known.classes if known else {}), **catalog.classes}
    for src in sources:
        where = str(src.path)
        for key, raw in (src.data.get("scenarios") or {}).items():
            line = src.locator.find("scenarios", key)
            if not isinstance(raw, Mapping) or "type" not in raw:
                raise DerivationError("a named scenario needs a 'type'", path=where, line=line, scenario=key)
            type_name = str(raw["type"])
            if type_name not in all_classes:
                hint = closest(type_name, list(all_classes))
                raise DerivationError(
                    f"unknown scenario type {type_name!r}" + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""),
                    path=where, line=line, scenario=key)
            if key in catalog.declared or (known is not None and key in known.declared):
                raise DerivationError(f"named scenario {key} is declared twice", path=where, line=line, scenario=key)
            extra_keys = sorted(set(raw) - {"type", "name", "description", "inputs", "notes"})
            if extra_keys:
                raise DerivationError(f"unknown field(s) {', '.join(extra_keys)}; inputs go under [scenarios.{key}.inputs]",
                                      path=where, line=line, scenario=key)
            inputs = raw.get("inputs") or {}
            if not isinstance(inputs, Mapping):
                raise DerivationError("'inputs' must be a table", path=where, line=line, scenario=key)
            catalog.declared[key] = NamedScenario(
                key=key, type_name=type_name, name=str(raw.get("name", key)), description=str(raw.get("description", "")),
                inputs=dict(inputs), family=src.family, path=where, line=line, notes=str(raw.get("notes", "")))
    view = Catalog(types={**(known.types if known else {}), **catalog.types}, classes=all_classes, declared=catalog.declared)
    for key in catalog.declared:
        catalog._instances[key] = view.scenario(key)   # binds and validates every named scenario at load
    return catalog


def load_file(path: str | Path, *, known: Catalog | None = None) -> Catalog:
    """Load one derivation file, checking everything; raise :class:`DerivationError` on the first problem.

    Types it composes (``uses``) may come from ``known`` (by default the shipped catalog).
    """
    if known is None:
        known = _others(Path(path))
    return _build([_read(path)], known)


def _others(*paths: Path) -> Catalog:
    """The shipped catalog without the types and scenarios of ``paths`` (so a shipped file can be re-loaded)."""
    base = catalog()
    skip = {str(p.resolve()) for p in paths}
    resolved: dict[str, str] = {}   # a dozen source files, not one resolve() per type and scenario

    def kept(path: str | None) -> bool:
        if path is None:
            return True
        if path not in resolved:
            resolved[path] = str(Path(path).resolve())
        return resolved[path] not in skip

    types = {n: t for n, t in base.types.items() if kept(t.source_path)}
    declared = {k: d for k, d in base.declared.items() if kept(d.path)}
    return Catalog(types=types, classes={n: base.classes[n] for n in types}, declared=declared)


def load_derivations(path: str | Path | None = None, *, register: bool = False) -> Catalog:
    """Load a derivation file or folder with the same checks as the shipped catalog.

    Types of the shipped catalog may be composed (``uses``).  With ``register=True``
    the file's types and scenarios join :data:`Scenarios`.
    """
    if path is None:
        return catalog()
    path = Path(path)
    files = sorted(p for p in path.glob("*.toml") if p.name not in REGISTRY_FILES) if path.is_dir() else [path]
    base = catalog()
    result = _build([_read(f) for f in files], _others(*files))
    if register:
        base.merge(result)
        base._instances.update(result._instances)
        _register_classes(result)
    return result


_CATALOG: Catalog | None = None


def catalog() -> Catalog:
    """The shipped catalog, loaded once."""
    global _CATALOG
    if _CATALOG is None:
        files = [f for f in sorted(derivations_dir().glob("*.toml")) if f.name not in REGISTRY_FILES]
        _CATALOG = _build([_read(f) for f in files])
        _register_classes(_CATALOG)
    return _CATALOG


def _register_classes(cat: Catalog) -> None:
    import sys

    module = sys.modules.get("mlsysim_symbolic.scenarios")
    if module is not None:
        for name, cls in cat.classes.items():
            setattr(module, name, cls)


class _ScenarioRegistry:
    """Named scenarios by attribute (``Scenarios.DpSgdPerExampleGradients``) or by key.

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
        """The scenario types (of one family when given)."""
        return {n: t for n, t in catalog().types.items() if family is None or t.family == family}

    def families(self) -> dict[str, list[str]]:
        """Family -> names of its scenario types."""
        return {k: list(v) for k, v in catalog().families.items()}

    def __repr__(self) -> str:
        return f"<Scenarios: {len(catalog().declared)} named scenarios of {len(catalog().types)} types>"


#: The registry of named scenarios.
Scenarios = _ScenarioRegistry()
