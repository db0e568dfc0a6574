"""Tests that mirror ``mlsysim_symbolic/sources.py`` (issue 31): a derivation file's structure (``read_one``,
``read_all``, ``read_path``), the structure cache (``cache_dir``, ``MLSYSIM_SYMBOLIC_CACHE``), stale and malformed
entries ignored and rewritten, edits seen, and errors that name the file and line.

Every file here is written by the test, so each expected name, family and line number is read off the text below; the
cache's key of a content is Python's own ``importlib.util.source_hash`` (what the module says it uses).
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from mlsysim_symbolic.errors import DerivationError
from mlsysim_symbolic.sources import CACHE_FORMAT, REGISTRY_FILES, cache_dir, read_all, read_one, read_path

ALPHA = """\
family = "fam"
title = "A title"

[types.AlphaScenario]
summary = "x"

[types.AlphaScenario.inputs.x]
unit = "s"

[types.BetaScenario]
family = "other"
summary = "y"

[scenarios.First]
type = "AlphaScenario"
name = "first"
inputs.x = "1 s"
"""
#                        line numbers in ALPHA: AlphaScenario 4, BetaScenario 10, First 14

GAMMA = """\
family = "fam"
title = "Gamma"

[types.GammaScenario]
summary = "g"

[scenarios.Second]
type = "ForeignScenario"
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A fresh structure cache in a temporary folder."""
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "cache"))
    folder = cache_dir()
    assert folder == tmp_path / "cache" / f"derivations-v{CACHE_FORMAT}"
    return folder


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _head_entry(cache: Path) -> Path:
    heads = list(cache.glob("*.head.json"))
    assert len(heads) == 1, heads
    return heads[0]


# ---------------------------------------------------------------------- cache_dir
@pytest.mark.parametrize("setting", ["off", "OFF", "0", "no", "false", ""])
def test_cache_dir_off(monkeypatch, setting):
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", setting)
    assert cache_dir() is None


def test_cache_dir_follows_the_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "one"))
    assert cache_dir() == tmp_path / "one" / f"derivations-v{CACHE_FORMAT}"
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", str(tmp_path / "two"))
    assert cache_dir() == tmp_path / "two" / f"derivations-v{CACHE_FORMAT}"


def test_cache_off_writes_nothing_and_still_reads(tmp_path, monkeypatch):
    monkeypatch.setenv("MLSYSIM_SYMBOLIC_CACHE", "off")
    src = read_one(_write(tmp_path, "a.toml", ALPHA))
    assert src.type_names == ["AlphaScenario", "BetaScenario"]
    assert [p.name for p in tmp_path.iterdir()] == ["a.toml"]


# ---------------------------------------------------------------------- one file's structure
def test_read_one_structure(tmp_path, cache):
    src = read_one(_write(tmp_path, "a.toml", ALPHA))
    assert (src.family, src.title) == ("fam", "A title")
    assert src.type_names == ["AlphaScenario", "BetaScenario"]
    assert src.type_families() == ["fam", "other"]          # BetaScenario states its own family
    assert (src.type_line(0), src.type_line(1)) == (4, 10)
    assert src.scenario_keys == ["First"] and src.scenario_types == ["AlphaScenario"]
    assert src.scenario_line(0) == 14


def test_bodies_read_on_demand(tmp_path, cache):
    src = read_one(_write(tmp_path, "a.toml", ALPHA))
    assert src.raw_type("AlphaScenario") == {"summary": "x", "inputs": {"x": {"unit": "s"}}}
    assert src.summary("BetaScenario") == "y"
    assert src.scenario_details("First") == ("first", "", "", {"x": "1 s"})


def test_the_same_structure_from_the_cache(tmp_path, cache):
    path = _write(tmp_path, "a.toml", ALPHA)
    first = read_one(path)
    entry = json.loads(_head_entry(cache).read_bytes())
    assert entry["digest"] == importlib.util.source_hash(ALPHA.encode()).hex()
    again = read_one(path)   # from the entry
    assert (again.family, again.type_names, again.scenario_keys, again.scenario_line(0), again.type_line(1)) == \
        (first.family, first.type_names, first.scenario_keys, 14, 10)
    assert again.raw_type("AlphaScenario") == {"summary": "x", "inputs": {"x": {"unit": "s"}}}


# ---------------------------------------------------------------------- stale, malformed, edited
@pytest.mark.parametrize("bad", [
    b"{not json",                                               # malformed
    b"[1, 2, 3]",                                               # JSON, but not an entry
    json.dumps({"digest": "0" * 16, "data": {"family": "stale"}}).encode(),   # the digest of other content
    b"",
])
def test_a_stale_or_malformed_entry_is_ignored_and_rewritten(tmp_path, cache, bad):
    path = _write(tmp_path, "a.toml", ALPHA)
    read_one(path)
    entry = _head_entry(cache)
    entry.write_bytes(bad)
    src = read_one(path)
    assert src.family == "fam" and src.type_names == ["AlphaScenario", "BetaScenario"]
    rewritten = json.loads(entry.read_bytes())
    assert rewritten["digest"] == importlib.util.source_hash(ALPHA.encode()).hex()


def test_a_file_edit_is_seen(tmp_path, cache):
    path = _write(tmp_path, "a.toml", ALPHA)
    assert read_one(path).type_names == ["AlphaScenario", "BetaScenario"]
    edited = ALPHA.replace("BetaScenario", "DeltaScenario")
    path.write_text(edited, encoding="utf-8")
    assert read_one(path).type_names == ["AlphaScenario", "DeltaScenario"]
    assert json.loads(_head_entry(cache).read_bytes())["digest"] == importlib.util.source_hash(edited.encode()).hex()


def test_an_edit_of_one_file_of_a_bundle_is_seen(tmp_path, cache):
    files = [str(_write(tmp_path, "a.toml", ALPHA)), str(_write(tmp_path, "g.toml", GAMMA))]
    assert read_all(files).type_names == ["AlphaScenario", "BetaScenario", "GammaScenario"]
    Path(files[1]).write_text(GAMMA.replace("GammaScenario", "GammaTwoScenario"), encoding="utf-8")
    st = os.stat(files[1])
    os.utime(files[1], ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))   # a later modification time, as an edit gives
    assert read_all(files).type_names == ["AlphaScenario", "BetaScenario", "GammaTwoScenario"]


# ---------------------------------------------------------------------- several files
def test_read_path_of_a_folder(tmp_path, cache):
    _write(tmp_path, "g.toml", GAMMA)
    _write(tmp_path, "a.toml", ALPHA)
    _write(tmp_path, "hardware.toml", "[hardware.X]\nname = 'x'\n")   # a registry: not a derivation file
    _write(tmp_path, "notes.txt", "not toml")
    assert "hardware.toml" in REGISTRY_FILES
    files, st = read_path(tmp_path)
    assert files == [str(tmp_path / "a.toml"), str(tmp_path / "g.toml")]   # by name, the registry apart
    assert st.type_names == ["AlphaScenario", "BetaScenario", "GammaScenario"]
    assert st.scenario_keys == ["First", "Second"]
    assert st.scenario_source(1).where == str(tmp_path / "g.toml")
    assert st.family_lists() == {"fam": ["AlphaScenario", "GammaScenario"], "other": ["BetaScenario"]}
    assert st.foreign_types == ["ForeignScenario"]   # Second's type is declared in neither file
    assert st.distinct
    assert read_path(tmp_path)[1].type_names == st.type_names   # again, from the bundle


def test_read_path_of_one_file(tmp_path, cache):
    path = _write(tmp_path, "a.toml", ALPHA)
    files, st = read_path(path)
    assert files == [str(path)] and st.type_names == ["AlphaScenario", "BetaScenario"]
    assert st.titles == {"fam": "A title"}


def test_a_name_declared_twice_is_not_distinct(tmp_path, cache):
    files = [str(_write(tmp_path, "a.toml", ALPHA)), str(_write(tmp_path, "b.toml", ALPHA))]
    assert not read_all(files).distinct


# ---------------------------------------------------------------------- errors name file and line
@pytest.mark.parametrize("text, line", [
    ('family = "fam"\ntitle = "t"\nx = = 1\n', 3),
    ('family = "fam"\n\n[types.A]\nsummary = "a\n', 4),      # an unterminated string
    ('family = "fam"\n[types.A]\n[types.A]\n', 3),           # a table declared twice
])
def test_malformed_toml_names_file_and_line(tmp_path, cache, text, line):
    path = _write(tmp_path, "bad.toml", text)
    with pytest.raises(DerivationError) as info:
        read_one(path)
    assert info.value.path == str(path) and info.value.line == line
    assert str(path) in info.value.render() and f":{line}:" in info.value.render()
    assert not list(cache.glob("*.json"))   # nothing cached of a file that did not read


def test_a_missing_file_is_named(tmp_path, cache):
    with pytest.raises(DerivationError, match="cannot read the file") as info:
        read_one(tmp_path / "absent.toml")
    assert info.value.path == str(tmp_path / "absent.toml")


@pytest.mark.parametrize("text, what", [
    ('family = "fam"\nsurprise = 1\n', "surprise"),                            # unknown top-level key
    ('family = "fam"\n\n[scenarios.S]\nname = "s"\n', "type"),                 # a named scenario without its type
    ('family = "fam"\n\n[scenarios.S]\ntype = "T"\ncolour = "red"\n', "colour"),   # an unknown scenario field
])
def test_eager_checks_name_the_problem(tmp_path, cache, text, what):
    with pytest.raises(DerivationError, match=what) as info:
        read_one(_write(tmp_path, "bad.toml", text))
    assert info.value.path == str(tmp_path / "bad.toml")
