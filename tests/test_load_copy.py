"""``load_derivations`` reads every file the package ships: a copy of ``derivations/`` loads whole (types, named
scenarios, registries, applications) and gives the shipped catalog's values, which agree with hand computations
and with mlsysim 0.3.0."""

from __future__ import annotations

import math
import shutil

import pint
import pytest

from mlsysim_symbolic.catalog import catalog, load_derivations
from mlsysim_symbolic.errors import DerivationError, MissingInputError, MlsysimSymbolicError
from mlsysim_symbolic.paths import derivations_dir
from mlsysim_symbolic.solvers.applications import read_applications
from mlsysim_symbolic.sources import REGISTRY_FILES

N_SAMPLE = 30


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("copy") / "derivations"
    shutil.copytree(derivations_dir(), folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    return folder


@pytest.fixture(scope="module")
def loaded(copy):
    return load_derivations(copy)


def _sample(cat) -> list[str]:
    """``N_SAMPLE`` named scenarios spread across the families: one per family in turn, each family's in order."""
    by_family = {f: [k for t in types for k in cat.scenarios_of(t)] for f, types in sorted(cat.families.items())}
    chosen: list[str] = []
    while len(chosen) < N_SAMPLE and any(by_family.values()):
        for keys in by_family.values():
            if keys and len(chosen) < N_SAMPLE:
                chosen.append(keys.pop(len(keys) // 2))
    return chosen


def _values(s) -> dict[str, object]:
    """Every output of a named scenario that has a value (methods and outputs of unset inputs left out)."""
    out = {}
    for name, spec in s.type.outputs.items():
        if spec.arguments:
            continue
        try:
            out[name] = s.planner.member(name)
        except MissingInputError:
            continue
        except MlsysimSymbolicError as exc:   # no value (an overflow ...): the same refusal on both sides
            out[name] = type(exc)
    return out


def test_the_copy_loads_every_file(copy, loaded):
    shipped = catalog()
    assert set(loaded.declared) == set(shipped.declared) and set(loaded.info) == set(shipped.info)
    assert loaded.families == shipped.families
    assert sorted(loaded.registries) == ["clusters", "fabrics", "grid", "hardware", "nodes", "workload"]
    assert loaded.applications_path == copy / "applications.toml"
    assert {p.name for p in copy.glob("*.toml")} >= REGISTRY_FILES   # every registry file is there, and read


def test_a_sample_of_named_scenarios_has_the_shipped_values(loaded):
    shipped = catalog()
    keys = _sample(loaded)
    families = {loaded.info[loaded.declared[k].type_name].family for k in keys}
    assert len(keys) == N_SAMPLE and len(families) >= 10, families
    compared = 0
    for key in keys:
        ours, theirs = _values(loaded.scenario(key)), _values(shipped.scenario(key))
        assert ours.keys() == theirs.keys(), key
        for name, value in ours.items():
            assert value == theirs[name] or repr(value) == repr(theirs[name]), (key, name, value, theirs[name])
            compared += 1
    assert compared > N_SAMPLE


def test_hand_computations(loaded):
    """Values of the copy worked by hand."""
    dp = loaded.scenario("DpSgdPerExampleGradients")
    assert dp.per_batch("GPT-2").to("B").magnitude == pytest.approx(256 * 1.5e9 * 4, rel=1e-12)   # B * P * b
    ckpt = loaded.scenario("Gpt3CheckpointInterval10K")
    assert ckpt.checkpoint_bytes.to("B").magnitude == pytest.approx(175e9 * 14, rel=1e-12)
    assert ckpt.t_write.to("s").magnitude == pytest.approx(175e9 * 14 / 100e9, rel=1e-12)
    assert ckpt.interval.to("s").magnitude == pytest.approx(math.sqrt(2 * 24.5 * 3.87 * 3600), rel=1e-12)   # Young


def test_the_copy_prices_with_its_own_registry(tmp_path):
    """A copy's registries bind its named scenarios: GPT-2 at 3e9 parameters doubles its per-example gradients."""
    folder = tmp_path / "derivations"
    shutil.copytree(derivations_dir(), folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    text = (folder / "workloads.toml").read_text(encoding="utf-8")
    assert text.count('parameters = "1.5e9 param"') == 1
    (folder / "workloads.toml").write_text(text.replace('parameters = "1.5e9 param"', 'parameters = "3e9 param"'), encoding="utf-8")
    changed = load_derivations(folder).scenario("DpSgdPerExampleGradients")
    assert changed.per_batch("GPT-2").to("B").magnitude == pytest.approx(256 * 3e9 * 4, rel=1e-12)
    assert catalog().scenario("DpSgdPerExampleGradients").per_batch("GPT-2").to("B").magnitude == pytest.approx(256 * 1.5e9 * 4)


def test_a_registry_file_alone_loads_its_registry(copy):
    assert load_derivations(copy / "applications.toml").applications_path == copy / "applications.toml"
    grids = load_derivations(copy / "grids.toml")
    assert list(grids.registries) == ["grid"] and not grids.info


def test_a_copy_joins_the_shipped_catalog_only_when_asked_and_then_is_refused(copy):
    with pytest.raises(DerivationError, match="declared twice"):
        load_derivations(copy, standalone=False)


def _metrics(evaluation) -> list[tuple[str, str, dict]]:
    return [(level.level_name, level.status, level.metrics) for level in evaluation.levels]


def _close(a, b) -> bool:
    if isinstance(a, pint.Quantity):
        return isinstance(b, pint.Quantity) and math.isclose(a.to(b.units).magnitude, b.magnitude, rel_tol=1e-9)
    if isinstance(a, float):
        return math.isclose(a, b, rel_tol=1e-9)
    return a == b


def test_the_copy_applications_evaluate_as_the_shipped_and_as_mlsysim(loaded):
    ours = read_applications(loaded.applications_path)
    shipped = read_applications(derivations_dir() / "applications.toml")
    assert list(ours) == list(shipped)
    for key in ("KeywordSpotting", "ChatbotServing", "SmartDoorbell"):
        assert _metrics(ours[key].evaluate()) == _metrics(shipped[key].evaluate()), key
    mlsysim = pytest.importorskip("mlsysim")
    theirs = mlsysim.Scenarios.KeywordSpotting.evaluate()
    levels = [theirs.feasibility, theirs.performance, theirs.macro]
    for (name, status, metrics), ref in zip(_metrics(ours["KeywordSpotting"].evaluate()), levels):
        assert status == ref.status, name
        assert metrics.keys() == ref.metrics.keys(), name
        for metric, value in metrics.items():
            assert _close(value, ref.metrics[metric]), (name, metric, value, ref.metrics[metric])
