"""mlsysim 0.3.0 named at the top of a test module, imported on first use: collecting the tests imports nothing of
mlsysim (importing it takes 5 s, most of it reading its notation files), running one does.

``mlsysim = reference("mlsysim")`` or ``H = reference("mlsysim.hardware.registry", "Hardware")``: reading an
attribute or calling it imports the module then.  Classes used in ``isinstance``, ``except`` or as a base are
imported inside the test instead; parametrized data names mlsysim's entries by key (resolved in the test).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any


class reference:  # noqa: N801 (reads as the function it stands for)
    """A module of mlsysim, or a name in one, imported when first used."""

    __slots__ = ("_module", "_name", "_value")

    def __init__(self, module: str, name: str | None = None) -> None:
        self._module, self._name, self._value = module, name, None

    def _target(self) -> Any:
        if self._value is None:
            module = importlib.import_module(self._module)
            self._value = module if self._name is None else getattr(module, self._name)
        return self._value

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):   # pytest reads private names of every module-level object while collecting
            raise AttributeError(attr)
        return getattr(self._target(), attr)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._target()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"reference({self._module!r}{'' if self._name is None else f', {self._name!r}'})"


def entry(path: str) -> Any:
    """mlsysim's registry entry at ``path`` below ``mlsysim`` (``"Models.Vision.ResNet50"``, ``"Hardware.Cloud.A100"``)."""
    value: Any = importlib.import_module("mlsysim")
    for part in path.split("."):
        value = getattr(value, part)
    return value


class mapping(Mapping):  # noqa: N801 (reads as the function it stands for)
    """A mapping made by ``make()`` when first read (a table of mlsysim's registry objects, named at the top of a
    module)."""

    def __init__(self, make: Callable[[], Mapping]) -> None:
        self._make, self._data = make, None

    def _get(self) -> Mapping:
        if self._data is None:
            self._data = dict(self._make())
        return self._data

    def __getitem__(self, key: Any) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())
