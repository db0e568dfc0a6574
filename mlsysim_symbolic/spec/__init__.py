"""Scenario types as data: definitions, the readers of each table, input kinds, the builder and composition.

- :mod:`.definitions`: frozen dataclasses (:class:`InputSpec`, :class:`OutputSpec`, :class:`Branch`, :class:`Reference`);
- :mod:`.reader`: the field whitelists of every table;
- :mod:`.kinds`: one class per input kind (read, bind, describe), in the table :data:`KINDS`;
- :mod:`.outputs`: one class per output kind (read, answer, sweep), in the table :data:`OUTPUT_KINDS`;
- :mod:`.result_sources`: one class per source of a result field (claims, compute), in :data:`RESULT_SOURCES`;
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
from .outputs import OUTPUT_KINDS, OutputKind, output_kind
from .page import type_docstring
from .surface import ACCESSORS, CORE_MEMBERS, RESERVED, RESULT_MEMBERS, clash, result_clash
from .types import Resolver, ScenarioType

__all__ = ["ACCESSORS", "CORE_MEMBERS", "KINDS", "OUTPUT_KINDS", "RESERVED", "RESULT_MEMBERS", "Bound", "Branch", "InputKind",
           "InputSpec", "OutputKind", "OutputSpec", "Reference", "Resolver", "ResultSpec", "ScenarioType", "TypeBuilder", "clash",
           "kind_of", "output_kind", "result_clash", "type_docstring"]
