"""Reading the tables of a ``[types.NAME]`` declaration: which fields each table may hold, and their shapes.

Every table is read through a whitelist of its fields, so a typo is refused with the
fields that are allowed instead of being ignored.

>>> read_variable("batch_size", {"symbol": "B", "unit": "sample", "integer": True}, role="input").symbol
B
>>> read_variable("batch_size", {"symbl": "B"}, role="input")
Traceback (most recent call last):
...
mlsysim_symbolic.errors.InputError: unknown field(s) symbl; allowed: counted, default, doc, domain, index, integer, kind, latex, meaning, options, required, symbol, unit
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import DerivationError, InputError
from ..units import parse_unit
from ..variables import Variable, check_counted
from .definitions import Reference
from .surface import clash

#: The fields of a ``[types.NAME]`` table.
TYPE_FIELDS = frozenset({"family", "summary", "description", "equation_note", "assumptions", "excludes",
                         "derivation", "references", "inputs", "arguments", "outputs", "uses", "result", "members"})
#: The fields of an input, argument or output variable.
VARIABLE_FIELDS = frozenset({"kind", "symbol", "unit", "counted", "meaning", "latex", "integer", "domain", "default",
                             "required", "index", "options", "doc"})
#: The fields of an output table.
OUTPUT_FIELDS = frozenset({"symbol", "unit", "counted", "latex", "integer", "doc", "equation", "choice", "style", "kind", "cases", "rule",
                           "over", "term", "shadows_accessor", "keep", "refused_unless"})
#: The fields of an attribute symbol of a workload or hardware input.
ATTRIBUTE_FIELDS = frozenset({"attribute", "symbol", "unit", "latex", "meaning", "integer", "domain", "fallback",
                              "default", "name", "counted"})

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

Fail = Callable[..., DerivationError]


def check_name(name: str, what: str, reserved: frozenset[str] = frozenset()) -> None:
    """Refuse a declared name that is not a plain identifier, starts with ``_`` or is reserved.

    >>> check_name("_type", "input")
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: input name '_type' must be an identifier that starts with a letter
    """
    if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
        raise InputError(f"{what} name {name!r} must be an identifier that starts with a letter")
    if name in reserved:
        raise InputError(f"{what} name {name!r} is reserved: it clashes with {clash(name) or 'a Scenario member'}; rename "
                         "the declaration (reserved: see mlsysim_symbolic.spec.surface)")


def check_fields(raw: Mapping[str, Any], allowed: frozenset[str], what: str = "") -> None:
    """Refuse unknown fields of a table, listing the allowed ones."""
    unknown = sorted(set(raw) - allowed)
    if unknown:
        prefix = f"{what}: " if what else ""
        raise InputError(f"{prefix}unknown field(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")


def read_table(raw: Any, what: str) -> Mapping[str, Any]:
    """``raw`` if it is a table (a mapping), else an :class:`InputError`."""
    if not isinstance(raw, Mapping):
        raise InputError(f"{what} must be a table, got {type(raw).__name__}")
    return raw


def read_variable(name: str, raw: Any, *, role: str, domain: str | None = None) -> Variable:
    """A :class:`Variable` from an input, argument or output table."""
    raw = read_table(raw, "a variable")
    allowed = VARIABLE_FIELDS | ({"default_input"} if role == "argument" else frozenset())
    check_fields(raw, allowed)
    for key in ("symbol", "latex", "domain", "unit"):
        if key in raw and not isinstance(raw[key], str):
            raise InputError(f"'{key}' must be text, got {raw[key]!r}")
    if "options" in raw and not isinstance(raw["options"], (list, tuple)):
        raise InputError("'options' must be a list of names")
    if "counted" in raw:   # the counted kinds the outside leaves implicit (an output's value is returned without them)
        check_counted(parse_unit(str(raw.get("unit", ""))), raw["counted"])
    return Variable.make(
        name,
        symbol=raw.get("symbol"),
        unit=str(raw.get("unit", "")),
        meaning=str(raw.get("meaning", "")),
        latex=raw.get("latex"),
        integer=bool(raw.get("integer", False)),
        domain=raw.get("domain", domain),
        default=raw.get("default"),
        required="default" not in raw and raw.get("required", True),
        role=role,
        options=tuple(raw.get("options", ())),
        counted=raw.get("counted"),
        default_input=str(raw["default_input"]) if "default_input" in raw else None,
    )


def read_reference(raw: Any) -> Reference:
    """A reference: text, or a table with ``text``, ``section`` and ``url``."""
    if isinstance(raw, str):
        return Reference(raw)
    if isinstance(raw, Mapping):
        check_fields(raw, frozenset({"text", "section", "url"}), "reference")
        return Reference(str(raw.get("text", "")), str(raw.get("section", "")), str(raw.get("url", "")))
    raise InputError(f"reference {raw!r} must be text or a table with 'text', 'section', 'url'")


def check_type_table(data: Mapping[str, Any], fail: Fail) -> None:
    """The shape of a ``[types.NAME]`` table: known fields, tables where tables belong, lists where lists belong."""
    unknown = sorted(set(data) - TYPE_FIELDS)
    if unknown:
        raise fail(f"unknown field(s) {', '.join(unknown)}; expected some of {', '.join(sorted(TYPE_FIELDS))}", unknown[0])
    for key in ("inputs", "arguments", "outputs", "uses"):
        if not isinstance(data.get(key) or {}, Mapping):
            raise fail(f"'{key}' must be a table, got {type(data[key]).__name__}", key)
    for key in ("assumptions", "excludes", "references"):
        if not isinstance(data.get(key, ()), (list, tuple)):
            raise fail(f"'{key}' must be a list, got {type(data[key]).__name__}", key)


#: The fields of a ``[types.NAME.result]`` table.
RESULT_FIELDS = frozenset({"name", "fields", "from", "plain", "unset_when", "tables", "counts", "views", "lists", "quantities", "tuples", "ranked", "sets",
                           "variants", "row_views", "row_keys", "points", "infinite_when"})
#: The deepest nesting of tables and arrays a derivation file may have (the catalog's own files reach 8).
MAX_DEPTH = 32


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse tables or arrays nested deeper than ``limit`` (walked without recursion, so any depth is safe).

    >>> check_depth({"a": {"b": [1, {"c": 2}]}}, limit=4)
    >>> check_depth({"a": {"b": [1, {"c": 2}]}}, limit=3)
    Traceback (most recent call last):
    ...
    mlsysim_symbolic.errors.InputError: tables or arrays nested deeper than 3 levels (at a.b[1])
    """
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        node, depth, where = stack.pop()
        if isinstance(node, Mapping):
            children = [(v, f"{where}.{k}" if where else str(k)) for k, v in node.items()]
        elif isinstance(node, (list, tuple)):
            children = [(v, f"{where}[{i}]") for i, v in enumerate(node)]
        else:
            continue
        if depth >= limit:
            raise InputError(f"tables or arrays nested deeper than {limit} levels (at {where or 'the top'})")
        stack.extend((v, depth + 1, w) for v, w in children)
