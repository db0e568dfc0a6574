"""Scenario types as data: definitions, the readers of each table, input kinds, the builder and composition.

- :mod:`.definitions`: frozen dataclasses (:class:`InputSpec`, :class:`OutputSpec`, :class:`Branch`, :class:`Reference`);
- :mod:`.reader`: the field whitelists of every table;
- :mod:`.kinds`: one class per input kind (read, bind, describe), in the table :data:`KINDS`;
- :mod:`.compose`: ``uses`` tables (another type's outputs as symbols);
- :mod:`.builder`: :class:`TypeBuilder`, the steps from a mapping to a checked type;
- :mod:`.types`: :class:`ScenarioType` and its queries;
- :mod:`.page`: the plain-text reference page;
- :mod:`.surface`: the names a scenario's class keeps (core members and the analysis accessors), one table.
"""

from __future__ import annotations

from .builder import TypeBuilder
from .definitions import Branch, InputSpec, OutputSpec, Reference, ResultSpec
from .kinds import KINDS, Bound, InputKind, kind_of
from .page import type_docstring
from .surface import ACCESSORS, CORE_MEMBERS, RESERVED, RESULT_MEMBERS, clash, result_clash
from .types import ScenarioType

__all__ = ["ACCESSORS", "CORE_MEMBERS", "KINDS", "RESERVED", "Bound", "Branch", "InputKind", "InputSpec", "OutputSpec", "Reference", "ResultSpec", "ScenarioType",
           "RESULT_MEMBERS", "TypeBuilder", "clash", "kind_of", "result_clash", "type_docstring"]
