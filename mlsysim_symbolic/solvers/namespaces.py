"""mlsysim's registry namespaces over our registries: ``Models.Language.Llama3_8B``, ``Hardware.Cloud.A100``.

Each group lists the entries of ``derivations/workloads.toml`` (by their ``registry`` field) or
``derivations/hardware.toml`` (by their ``category`` field) under mlsysim 0.3.0's group names, so code
written against mlsysim reads the same.  An entry we do not have is refused by name, with close matches;
nothing is invented.

>>> from mlsysim_symbolic.solvers import Hardware, Models
>>> Models.Language.Llama3_8B.parameters
<Quantity(8.03e+09, 'param')>
>>> Hardware.Cloud.A100.name
'NVIDIA A100'
>>> Models.Language.Llama3_9B
Traceback (most recent call last):
...
mlsysim_symbolic.solvers.namespaces.UnknownEntryError: Models.Language has no entry 'Llama3_9B'; did you mean 'Llama3_8B', ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import UnknownNameError, did_you_mean
from ..registry import Entry, hardware, workloads

#: mlsysim 0.3.0's group of ``Models`` -> the ``registry`` field of our workload entries.
MODEL_GROUPS: dict[str, str] = {
    "Language": "language", "Vision": "vision", "Tiny": "tiny", "Recommendation": "recommendation",
    "StateSpace": "statespace", "GenerativeVision": "generativevision", "Embodied": "embodied",
}

#: mlsysim 0.3.0's group of ``Hardware`` -> the ``category`` field of our hardware entries.  mlsysim's
#: ``Hardware.Embodied`` lists the very devices of ``Hardware.Edge`` (the edge registry under a second name).
HARDWARE_GROUPS: dict[str, str] = {
    "Cloud": "cloud", "Edge": "edge", "Embodied": "edge", "Mobile": "mobile", "Tiny": "tiny", "Workstation": "workstation",
}


class UnknownEntryError(UnknownNameError, AttributeError):
    """A group or entry the namespace does not have: an :class:`UnknownNameError` and the ``AttributeError``
    an attribute lookup raises (so ``hasattr`` and ``getattr(..., default)`` keep working)."""


class Group:
    """One group of a namespace (``Models.Language``): its entries as attributes, read from the registry."""

    def __init__(self, label: str, entries: Callable[[], Mapping[str, Entry]], field: str, value: str) -> None:
        self._label, self._entries, self._field, self._value = label, entries, field, value

    def _members(self) -> dict[str, Entry]:
        registry = self._entries()
        return {k: registry[k] for k in registry if getattr(registry[k], self._field, None) == self._value}

    def __getattr__(self, key: str) -> Entry:
        if key.startswith("_"):
            raise AttributeError(key)
        members = self._members()
        if key in members:
            return members[key]
        raise UnknownEntryError(f"{self._label} has no entry {key!r}" + did_you_mean(key, list(members))
                                + f" Entries: {', '.join(members)}")

    def list(self) -> list[str]:
        """The keys of the group's entries, in registry order."""
        return list(self._members())

    def __dir__(self) -> list[str]:
        return [*self._members(), "list"]

    def __repr__(self) -> str:
        return f"<{self._label}: {', '.join(self._members())}>"


class Namespace:
    """A namespace of groups (``Models``, ``Hardware``)."""

    def __init__(self, label: str, groups: Mapping[str, str], entries: Callable[[], Mapping[str, Entry]], field: str) -> None:
        self._label = label
        self._groups = {g: Group(f"{label}.{g}", entries, field, v) for g, v in groups.items()}

    def __getattr__(self, group: str) -> Group:
        if group.startswith("_"):
            raise AttributeError(group)
        if group in self._groups:
            return self._groups[group]
        raise UnknownEntryError(f"{self._label} has no group {group!r}" + did_you_mean(group, list(self._groups))
                                + f" Groups: {', '.join(self._groups)}")

    def list(self) -> list[str]:
        """The group names."""
        return list(self._groups)

    def __dir__(self) -> list[str]:
        return [*self._groups, "list"]

    def __repr__(self) -> str:
        return f"<{self._label}: {', '.join(self._groups)}>"


def _workloads() -> Any:
    return workloads()


def _hardware() -> Any:
    return hardware()


Models = Namespace("Models", MODEL_GROUPS, _workloads, "registry")
Hardware = Namespace("Hardware", HARDWARE_GROUPS, _hardware, "category")
