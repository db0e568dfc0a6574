"""Errors as data: every error class lives in ``errors.py``, carries its fields, writes its own message and
round-trips through ``pickle``; no code decides anything by reading an exception's text."""

from __future__ import annotations

import ast
import inspect
import pickle
from pathlib import Path

import pytest

import mlsysim_symbolic
from mlsysim_symbolic import errors
from mlsysim_symbolic.errors import (
    DerivationError,
    DimensionalityError,
    FormatError,
    FormatTypeError,
    MissingInputError,
    MlsysimSymbolicError,
    UndefinedUnitError,
    UnexpectedNameError,
    UnknownEntryError,
    UnknownKeyError,
    UnknownNameError,
    UnscaledUnitError,
)

PACKAGE = Path(mlsysim_symbolic.__file__).parent

#: One instance of each error class of errors.py, built from its fields (a plain one from a message).
SAMPLES: dict[type, MlsysimSymbolicError] = {
    UnknownNameError: UnknownNameError("input", "batch_sise", ["batch_size", "models"], owner="T"),
    UnexpectedNameError: UnexpectedNameError("argument", "tua", ["tau"], owner="T.waste_at()", note="(a note)"),
    UnknownEntryError: UnknownEntryError("entry", "Llama3_9B", ["Llama3_8B"], owner="Models.Language"),
    UnknownKeyError: UnknownKeyError("models key", "GPT-3", ["KWS", "GPT-2"]),
    MissingInputError: MissingInputError("T.total", ["tokens"], options=["a", "b"]),
    UndefinedUnitError: UndefinedUnitError("furlongs", name="TARGET"),
    DimensionalityError: DimensionalityError("TARGET", "80 s", "B", what="per_batch"),
    UnscaledUnitError: UnscaledUnitError("dB", ["decibel"]),
    DerivationError: DerivationError("unknown name 'q'", path="tiny.toml", line=4, scenario="Tiny"),
    FormatError: FormatError("fmt_percent", "expects a 0-1 ratio, got 85.0"),
    FormatTypeError: FormatTypeError("fmt_qty", "requires a pint Quantity, got float"),
}


def _error_classes() -> list[type]:
    return [c for c in vars(errors).values()
            if isinstance(c, type) and issubclass(c, MlsysimSymbolicError) and c.__module__ == errors.__name__]


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: c.__name__)
def test_every_error_round_trips_through_pickle(cls):
    error = SAMPLES.get(cls) or cls("a message naming the input")
    error = error.within("--set")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is cls
    assert str(again) == str(error) and str(error).startswith("--set: ")
    assert again.__dict__ == error.__dict__ and again.args == error.args


def test_every_error_class_of_the_package_is_in_errors_py():
    """Other modules may re-export an error class (for compatibility), never define one."""
    defined = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and (b.id.endswith("Error") or b.id in ("Exception", "InputError"))
                    for b in node.bases) and not node.name.startswith("_"):
                defined.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert not defined, defined


def test_fields_not_text():
    e = UnknownNameError("field", "kv_head", ["kv_heads", "layers"], owner="Llama3_8B")
    assert (e.what, e.name, e.known, e.owner) == ("field", "kv_head", ("kv_heads", "layers"), "Llama3_8B")
    assert str(e) == "Llama3_8B: unknown field 'kv_head'; did you mean 'kv_heads'? Known: kv_heads, layers"
    assert e.args == ("kv_head",)   # a KeyError's args hold the key
    m = MissingInputError("T.total", ["tokens"])
    assert m.names == ("tokens",) and str(m) == "T.total needs input 'tokens', which this scenario does not set"
    assert str(MissingInputError("a plain message")) == "a plain message"


def test_a_long_known_list_is_cut():
    e = UnknownNameError("scenario", "x", [f"S{i}" for i in range(100)])
    assert str(e).endswith(", ... (100 in all)") and "S29" in str(e) and "S30," not in str(e)


def test_one_hint_format():
    """The hint reads ``; did you mean 'a', 'b'?`` everywhere: no other wording is written by the package."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for needle in ("closest: ", "(closest", "Closest"):
            if needle in text:
                found.append(f"{path.relative_to(PACKAGE)}: {needle!r}")
    assert not found, found


def test_bind_errors_are_found_from_the_signature():
    from mlsysim_symbolic import Scenarios

    s = Scenarios.Gpt3CheckpointInterval10K
    with pytest.raises(UnexpectedNameError) as info:
        s.waste_at(tua=600)
    assert info.value.name == "tua" and "tau" in info.value.known and "did you mean 'tau'" in str(info.value)
    with pytest.raises(MissingInputError) as missing:
        s.waste_at()
    assert missing.value.names == ("tau",)


def _texts_of_exceptions(tree: ast.AST) -> list[tuple[int, str]]:
    """Where ``str(e)`` (``e`` bound by an ``except ... as e``), ``e.args[...]`` or ``format(e)`` is compared
    (``in``, ``==``, ``!=``) or searched (``startswith``, ``endswith``, ``find``, ``count``, ``split`` ...)."""
    names = {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}

    def is_text(node: ast.AST) -> bool:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("str", "repr", "format"):
            return any(isinstance(a, ast.Name) and a.id in names for a in node.args)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "args":
            return isinstance(node.value.value, ast.Name) and node.value.value.id in names
        if isinstance(node, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) and v.value.id in names
                       for v in node.values)
        return False

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)) for op in node.ops):
            if any(is_text(part) for part in (node.left, *node.comparators)):
                found.append((node.lineno, ast.unparse(node)))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_text(node.func.value)
              and (node.func.attr in ("startswith", "endswith", "find", "rfind", "index", "count", "rsplit", "partition",
                                      "rpartition") or node.func.attr == "split" and node.args)):   # split(): spaces only
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_code_decides_by_the_text_of_an_exception():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(PACKAGE)}:{line}: {code}" for line, code in _texts_of_exceptions(tree)]
    assert not found, "decided by an exception's text:\n" + "\n".join(found)


def test_the_scan_finds_what_it_looks_for():
    code = inspect.cleandoc('''
        try:
            pass
        except TypeError as exc:
            a = "missing" in str(exc)
            b = str(exc).startswith("TARGET")
            c = exc.args[0] == "x"
            d = str(exc).rsplit("'", 2)[-2]
            e = " ".join(str(exc).split())   # shown on one line: not a decision
        ''')
    assert [line for line, _ in _texts_of_exceptions(ast.parse(code))] == [4, 5, 6, 7]
