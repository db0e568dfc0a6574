"""Cost accounting: mlsysim's ``WorkloadLeverModel`` over WorkloadLeverScenario (derivations/solvers_levers_queues.toml).

The Solver only reshapes mlsysim's arguments into the type's inputs (a dict of per-workload dicts into one map per
term); every number of the result is an output of the checked type.

>>> from mlsysim_symbolic.solvers import WorkloadLeverModel
>>> r = WorkloadLeverModel().solve({"support": {"model": 0.03, "environment": 0.01, "assessment": 0.01,
...                                             "handoff": 4, "acceptance": 0.85}}, 0.1)
>>> row = r.rows["support"]
>>> round(row.human, 6), row.largest_term, round(row.acceptance_gain, 4)
(0.6, 'human', 0.6559)
>>> r.scenario.equation("human_term")
Eq(H_w, H + h*(1 - p))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError, MissingInputError
from .base import REQUIRED, Arg, Solver

#: The terms every workload of WorkloadLeverModel states (mlsysim reads each as ``w[key]``), by input of ours.
_LEVER_TERMS = ("model", "environment", "assessment", "acceptance")


def lever_inputs(workloads: Any) -> dict[str, Any]:
    """mlsysim's ``{name: {"model": ..., "environment": ..., "assessment": ..., "acceptance": ..., "human" or
    "handoff": ...}}`` as one map per input of WorkloadLeverScenario.  A workload stating a ``handoff`` (not None) is
    charged it per rejected attempt and its ``human`` is not read (0 here), as mlsysim's; one without states
    ``human`` (its handoff is 0).  A missing term is refused by name (mlsysim raises KeyError).

    >>> lever_inputs({"a": {"model": 1, "environment": 2, "assessment": 3, "human": 4, "acceptance": 0.5}})["handoff"]
    {'a': 0}
    """
    if not isinstance(workloads, Mapping):
        raise InputError(f"WorkloadLeverModel.solve(): workloads must be a dict of workload name -> dict of its terms; "
                         f"got {type(workloads).__name__}")
    maps: dict[str, dict[Any, Any]] = {k: {} for k in (*_LEVER_TERMS, "human", "handoff")}
    for name, terms in workloads.items():
        if not isinstance(terms, Mapping):
            raise InputError(f"WorkloadLeverModel.solve(): workloads[{name!r}] must be a dict of its terms; "
                             f"got {type(terms).__name__}")
        handoff = terms.get("handoff")
        wanted = (*_LEVER_TERMS, *(() if handoff is not None else ("human",)))
        missing = [k for k in wanted if k not in terms]
        if missing:
            raise MissingInputError(f"WorkloadLeverModel.solve(): workloads[{name!r}] states no {', '.join(missing)}"
                                    + ("" if handoff is not None or "human" not in missing
                                       else " (a human cost per attempt, or a handoff price per rejected attempt)"))
        for key in _LEVER_TERMS:
            maps[key][name] = terms[key]
        maps["human"][name] = 0 if handoff is not None else terms["human"]
        maps["handoff"][name] = handoff if handoff is not None else 0
    return maps


class WorkloadLeverModel(Solver):
    """mlsysim's ``WorkloadLeverModel``: cost per accepted task by workload and three levers on it
    (``WorkloadLeverResult``, its ``rows`` a dict of ``WorkloadLeverRow`` by workload)."""

    type_name = "WorkloadLeverScenario"
    result_name = "WorkloadLeverResult"
    arguments = (
        Arg("workloads", REQUIRED, convert=lever_inputs),
        Arg("acceptance_gain", REQUIRED),
    )
