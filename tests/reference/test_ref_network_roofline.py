"""mlsysim 0.3.0's ``NetworkRooflineModel`` against ours (issue 35), field by field, at mlsysim's own objects.

No named scenario of mlsysim calls it, so each call here is made live on both sides with the same arguments:
mlsysim's registry models and clusters (its ``Fleet`` objects passed to ours as mlsysim's code passes them), our
named scenario, and seeded draws over models of every family, clusters, precisions (in any letter case on fleets
whose accelerator's rate does not depend on it) and efficiencies.  Numbers at 1e-9 in mlsysim's unit, labels and
booleans exactly; where mlsysim raises, ours raises a ValueError too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mlsysim_symbolic.catalog import catalog

from .compare import assert_same

#: (models namespace, model), cluster, keyword arguments: fixed by hand, each path of the bottleneck.
FIXED = [
    (("Language", "Llama3_70B"), "Research_256", {}),                                     # network-bound by 10^7
    (("Language", "GPT3"), "Mega_100K", {"precision": "bf16", "efficiency": 0.4}),
    (("Vision", "ResNet50"), "Lab_64_A100", {"precision": "fp32", "efficiency": 1.0}),
    (("Tiny", "DS_CNN"), "Training_1K_B200", {"precision": "int8"}),
    (("Language", "Llama3_8B"), "Frontier_8K", {"precision": "fp8", "efficiency": 1e-9}),  # the least efficiency mlsysim takes
    (("Language", "Llama3_8B"), "Frontier_8K", {"precision": "FP16"}),   # H100 states no fp16 entry: both take the peak
]
PRECISIONS = ["fp16", "bf16", "fp32", "tf32", "fp8", "int8", "int4", "FP16", "Bf16"]
DRAWS = 12


def _compare(theirs: Any, ours: Any, label: str) -> int:
    fields = [f for f in type(theirs).model_fields if f != "constraint_trace"]
    assert list(ours.fields) == fields, f"{label}: fields {list(ours.fields)} vs {fields}"
    for field in fields:
        assert_same(getattr(ours, field), getattr(theirs, field), f"{label}.{field}")
    return len(fields)


def _both(model: Any, fleet: Any, kwargs: dict[str, Any]) -> tuple[Any, Any]:
    from mlsysim.engine.solvers import NetworkRooflineModel as Theirs

    from mlsysim_symbolic.solvers import NetworkRooflineModel as Ours

    return Theirs().solve(model, fleet, **kwargs), Ours().solve(model, fleet, **kwargs)


@pytest.mark.parametrize("model,cluster,kwargs", FIXED, ids=[f"{m[1]}-{c}-{k.get('precision', '')}" for m, c, k in FIXED])
def test_network_roofline_equals_mlsysim(model: tuple[str, str], cluster: str, kwargs: dict[str, Any]) -> None:
    import mlsysim

    theirs, ours = _both(getattr(getattr(mlsysim.Models, model[0]), model[1]), getattr(mlsysim.Systems.Clusters, cluster), kwargs)
    assert _compare(theirs, ours, f"{model[1]} on {cluster}") == 17


def test_the_named_scenario_is_mlsysims_research_cluster_call() -> None:
    """Llama3_70BResearch256NetworkRoofline states Research_256's fleet by hand (derivations/solvers_network.toml)."""
    import mlsysim
    from mlsysim.engine.solvers import NetworkRooflineModel as Theirs

    theirs = Theirs().solve(mlsysim.Models.Language.Llama3_70B, mlsysim.Systems.Clusters.Research_256)
    assert _compare(theirs, catalog().scenario("Llama3_70BResearch256NetworkRoofline").result, "named") == 17


def _models() -> list[Any]:
    import mlsysim

    found = []
    for family in ("Language", "Vision", "Tiny", "Recommendation", "StateSpace", "GenerativeVision"):
        space = getattr(mlsysim.Models, family)
        found += [getattr(space, k) for k in sorted(dir(space)) if not k.startswith("_") and k != "list"
                  and getattr(getattr(space, k), "parameters", None) is not None]
    return found


def _clusters() -> list[Any]:
    import mlsysim

    space = mlsysim.Systems.Clusters
    return [getattr(space, k) for k in sorted(dir(space)) if not k.startswith("_") and k != "list"]


def _case_blind(fleet: Any) -> bool:
    """mlsysim looks the rate up by the precision as written, ours by its lower case: the same on an accelerator
    whose precision_flops entries, where stated, equal its peak under every upper-case spelling drawn here."""
    compute = fleet.node.accelerator.compute
    table = compute.precision_flops or {}
    return all(table.get(p.lower(), compute.peak_flops) == compute.peak_flops for p in PRECISIONS if p != p.lower())


def test_network_roofline_equals_mlsysim_at_drawn_configurations() -> None:
    """Seeded draws: a model of any family with a parameter count, a cluster, a precision and an efficiency."""
    rng = random.Random(35)
    models, clusters = _models(), _clusters()
    compared = 0
    for i in range(DRAWS):
        model, fleet = rng.choice(models), rng.choice(clusters)
        precision = rng.choice([p for p in PRECISIONS if p == p.lower() or _case_blind(fleet)])
        kwargs = {"precision": precision, "efficiency": rng.choice([1e-9, 0.05, 0.33, 0.5, 0.9, 1.0])}
        theirs, ours = _both(model, fleet, kwargs)
        compared += _compare(theirs, ours, f"draw {i}: {model.name} on {fleet.name} {kwargs}")
    assert compared == 17 * DRAWS


@pytest.mark.parametrize("kwargs", [{"efficiency": 0.0}, {"efficiency": 1.5}, {"precision": "fp64"}, {"precision": "int2"}])
def test_where_mlsysim_raises_ours_raises_a_value_error(kwargs: dict[str, Any]) -> None:
    import mlsysim
    from mlsysim.engine.solvers import NetworkRooflineModel as Theirs

    from mlsysim_symbolic.solvers import NetworkRooflineModel as Ours

    args = (mlsysim.Models.Language.Llama3_8B, mlsysim.Systems.Clusters.Research_256)
    with pytest.raises(ValueError):
        Theirs().solve(*args, **kwargs)
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        Ours().solve(*args, **kwargs)


def test_a_capitalised_precision_whose_rate_is_not_the_peak_is_refused_not_answered_otherwise() -> None:
    """mlsysim reads the rate by the text as written: "FP8" on Frontier_8K's H100 (fp8 1979 TFLOP/s, peak 989) takes
    the peak, so its compute ceiling is twice the fp8 one.  Ours refuses that spelling by name (the rate of ours is
    the precision's own) instead of answering with another number."""
    import mlsysim
    from mlsysim.engine.solvers import NetworkRooflineModel as Theirs

    from mlsysim_symbolic.errors import InputError
    from mlsysim_symbolic.solvers import NetworkRooflineModel as Ours

    args = (mlsysim.Models.Language.Llama3_8B, mlsysim.Systems.Clusters.Frontier_8K)
    upper, lower = Theirs().solve(*args, precision="FP8"), Theirs().solve(*args, precision="fp8")
    assert upper.peak_flops_actual.to("TFLOPs/s").magnitude == 989.0 * 8192 * 0.5   # the peak, by hand
    assert lower.peak_flops_actual.to("TFLOPs/s").magnitude == 1979.0 * 8192 * 0.5
    with pytest.raises(InputError, match="precision='FP8'.*write precision='fp8'"):
        Ours().solve(*args, precision="FP8")
