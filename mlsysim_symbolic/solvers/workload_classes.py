"""mlsysim's workload classes as ``isinstance`` checks over our registry entries: code written for mlsysim asks
``isinstance(model, TransformerWorkload)`` and gets mlsysim's answer for the same model.

A workload entry (``Models.Language.Llama3_8B``) states mlsysim's class in its ``kind`` field; each class here is an
instance of the entries whose kind is it or one of its subclasses, in mlsysim 0.3.0's hierarchy
(``SparseTransformerWorkload`` is a ``TransformerWorkload``, every class a ``Workload``).  mlsysim's own objects are
recognised by their classes' names, as :mod:`mlsysim_symbolic.interop` recognises them.  The classes are checks, not
constructors: a workload is read from the registry or made with ``Entry.with_fields``.

>>> from mlsysim_symbolic.solvers import Models
>>> isinstance(Models.Language.DeepSeek_V3, TransformerWorkload), isinstance(Models.Vision.ResNet50, TransformerWorkload)
(True, False)
>>> isinstance(Models.Language.DeepSeek_V3, SparseTransformerWorkload), isinstance(Models.Vision.ResNet50, Workload)
(True, True)
>>> TransformerWorkload(name="mine")
Traceback (most recent call last):
...
TypeError: TransformerWorkload is mlsysim's class name as an isinstance check over the registry's workloads; a workload is read from the registry (Models.Language.Llama3_8B) or changed with .with_fields({...})
"""

from __future__ import annotations

from typing import Any

from ..registry import Workload as WorkloadEntry

#: mlsysim 0.3.0's workload classes -> their parent (``mlsysim.models.types``; ``Workload`` is the root).
PARENTS: dict[str, str | None] = {
    "Workload": None, "TransformerWorkload": "Workload", "SparseTransformerWorkload": "TransformerWorkload",
    "CNNWorkload": "Workload", "SSMWorkload": "Workload", "DiffusionWorkload": "Workload", "EmbodiedWorkload": "Workload",
}


def lineage(kind: str) -> tuple[str, ...]:
    """``kind`` and its ancestors in mlsysim's hierarchy (``SparseTransformerWorkload, TransformerWorkload, Workload``)."""
    names: list[str] = []
    current: str | None = kind
    while current is not None:
        names.append(current)
        current = PARENTS.get(current)
    return tuple(names)


class _WorkloadClass(type):
    """The metaclass: ``isinstance(x, C)`` holds when ``x`` is a workload whose mlsysim class is ``C`` or below it."""

    def __instancecheck__(cls, obj: Any) -> bool:
        if isinstance(obj, WorkloadEntry):
            return cls.__name__ in lineage(str(obj.kind or "Workload"))
        names = {c.__name__ for c in type(obj).__mro__}   # mlsysim's own object, by its classes' names
        return cls.__name__ in names and "Workload" in names

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{cls.__name__} is mlsysim's class name as an isinstance check over the registry's workloads; "
                        "a workload is read from the registry (Models.Language.Llama3_8B) or changed with .with_fields({...})")


Workload = _WorkloadClass("Workload", (), {"__doc__": "Any workload (mlsysim's base class)."})
TransformerWorkload = _WorkloadClass("TransformerWorkload", (), {"__doc__": "A transformer (dense or sparse)."})
SparseTransformerWorkload = _WorkloadClass("SparseTransformerWorkload", (), {"__doc__": "A mixture-of-experts transformer."})
CNNWorkload = _WorkloadClass("CNNWorkload", (), {"__doc__": "A convolutional network."})
SSMWorkload = _WorkloadClass("SSMWorkload", (), {"__doc__": "A state-space model."})
DiffusionWorkload = _WorkloadClass("DiffusionWorkload", (), {"__doc__": "A diffusion model."})
EmbodiedWorkload = _WorkloadClass("EmbodiedWorkload", (), {"__doc__": "A vision-language-action or embodied policy."})

#: The classes by name (every one of :data:`PARENTS`).
CLASSES: dict[str, type] = {c.__name__: c for c in (Workload, TransformerWorkload, SparseTransformerWorkload, CNNWorkload,
                                                    SSMWorkload, DiffusionWorkload, EmbodiedWorkload)}

__all__ = ["CLASSES", "PARENTS", "lineage", *CLASSES]
