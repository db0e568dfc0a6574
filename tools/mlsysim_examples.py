"""Extract mlsysim 0.3.0's own examples and what each gives when run against mlsysim itself (issue 35).

Three kinds of example are collected, each from mlsysim's installed text (nothing is written by hand):

- ``readme``: the Python code blocks of its README (the PyPI long description, ``mlsysim-0.3.0.dist-info/METADATA``);
  its other code blocks (shell commands of its CLI, a YAML file, a BibTeX entry, text) and its inline ``<kbd>``
  commands of the CLI are listed under ``other`` with their language (``kbd`` for the inline ones);
- ``doctest``: every ``>>>`` example of a docstring of the package's modules (the docstrings are read from the
  source with ``ast``, so a module that cannot be imported here, e.g. one needing marimo, is still read);
- ``docstring``: the code of an ``Example:`` / ``Usage:`` section of a docstring when it parses as Python and calls
  something (a dict literal, a quoted string or ``4.1e9 -> "..."`` is prose about a value, listed under ``other``).

Each example is a list of ``steps`` (a doctest's examples; a block's top-level statements), run in order in one
namespace: a copy of the globals of the module the docstring belongs to (as doctest runs them), or a fresh namespace
for the README.  Per step the file keeps the code, the output the docstring states (``want``), and mlsysim's own
outcome: ``value`` (the value of a step that is an expression, encoded as ``tools/record_mlsysim_calls.py`` encodes
data; a string subclass as its text, an object with ``to_dict()`` as that dict, any other object
``{"object": class}``), ``names`` (the values bound by the step's assignments, encoded the same way), ``stdout``
(what it printed) and ``raises`` (the exception's class and message; the next steps still run, as in doctest).

The file is deterministic (sorted keys, examples in file and line order), so ``--check`` tells whether it is what
this tool writes now.

    python tools/mlsysim_examples.py           # writes tests/reference/data/mlsysim_examples.json
    python tools/mlsysim_examples.py --check   # exit 1 when the file differs from what would be written
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import doctest
import importlib
import io
import json
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_mlsysim_calls import Unwritable, encode  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "reference" / "data" / "mlsysim_examples.json"
#: The section header of a docstring whose indented block may be an example in code ("Example:", "Usage:", "Usage in
#: tutorials:"), and what follows it on its line.
SECTION = re.compile(r"^(?:Examples?|Usage)(?: [a-z ]+)?:(?P<rest>.*)$")
#: The line of a docstring section that starts the output an example states (show.py's "Output:").
OUTPUT_HEADER = "Output:"
_FENCE = re.compile(r"^```(\w*)\s*$")
#: A command of mlsysim's CLI shown inline in the README (``<kbd>mlsysim zoo hardware</kbd>``).
_KBD = re.compile(r"<kbd>(.*?)</kbd>")


def package_dir() -> Path:
    """The directory of the installed mlsysim package."""
    import mlsysim

    return Path(mlsysim.__file__).resolve().parent


def readme_text() -> str:
    """mlsysim's README: the long description in its installed METADATA (after the headers' blank line)."""
    from importlib.metadata import distribution

    metadata = distribution("mlsysim").read_text("METADATA") or ""
    return metadata.split("\n\n", 1)[1] if "\n\n" in metadata else metadata


def readme_blocks(text: str) -> Iterator[tuple[int, str, str]]:
    """(line, language, code) of each fenced code block of ``text``."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opened = _FENCE.match(lines[i].strip())
        if opened is None:
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        yield start, opened.group(1) or "text", "\n".join(body) + "\n"
        i += 1


def readme_commands(text: str) -> Iterator[tuple[int, str]]:
    """(line, command) of each ``<kbd>`` command of ``text`` (its CLI examples outside code blocks)."""
    for number, line in enumerate(text.splitlines(), 1):
        for command in _KBD.findall(line):
            yield number, command


def statement_steps(code: str) -> list[dict[str, Any]]:
    """``code`` cut into its top-level statements (each with its comments dropped), as steps with no stated output."""
    tree = ast.parse(code)
    return [{"code": ast.get_source_segment(code, node) or ast.unparse(node), "want": ""} for node in tree.body]


def docstrings(path: Path, module: str) -> Iterator[tuple[str, int, str]]:
    """(qualified name, line, docstring) of the module's, its classes' and its functions' docstrings, in line order."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}.{child.name}"
                text = ast.get_docstring(child, clean=True)
                if text:
                    yield name, child.body[0].lineno, text
                yield from walk(child, name)

    text = ast.get_docstring(tree, clean=True)
    if text:
        yield module, 1, text
    yield from walk(tree, module)


def sections(text: str) -> Iterator[tuple[str, str, str]]:
    """(header, code, stated output) of each ``Example:``/``Usage:`` section of a docstring: the block indented under
    the header (an inline header's rest of line alone), up to an ``Output:`` line, whose block is the output."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        found = SECTION.match(line.strip())
        if found is None:
            continue
        header, inline = line.strip()[: found.start("rest")], found.group("rest").strip()
        if inline:
            yield header, inline + "\n", ""
            continue
        indent = len(line) - len(line.lstrip())
        block: list[str] = []
        for following in lines[i + 1:]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            block.append(following)
        code, _, output = "\n".join(block).partition(OUTPUT_HEADER)
        yield header, _dedent(code), _dedent(output)


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).strip("\n") + "\n" if text.strip() else ""


def is_code(code: str) -> bool:
    """The block parses as Python and calls something (not a literal or prose about a value)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.Call) for node in ast.walk(tree))


def collect() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """mlsysim's examples (to run) and its other code blocks and example sections (listed, not run)."""
    examples: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    for line, language, code in readme_blocks(readme_text()):
        where = {"source": "README (mlsysim-0.3.0.dist-info/METADATA)", "line": line}
        if language == "python":
            examples.append({"id": f"readme:{line}", "kind": "readme", "module": None, "object": "README",
                             **where, "code": code, "steps": statement_steps(code)})
        else:
            other.append({"kind": "readme", "language": language, **where, "code": code})
    for line, command in readme_commands(readme_text()):
        other.append({"kind": "readme", "language": "kbd", "source": "README (mlsysim-0.3.0.dist-info/METADATA)",
                      "line": line, "code": command + "\n"})
    root = package_dir()
    parser = doctest.DocTestParser()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent)
        module = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
        for name, line, text in docstrings(path, module):
            where = {"source": relative.as_posix(), "object": name, "line": line, "module": module}
            steps = [{"code": e.source, "want": e.want} for e in parser.get_examples(text, name)]
            if steps:
                examples.append({"id": f"doctest:{name}", "kind": "doctest", **where,
                                 "code": "".join(s["code"] for s in steps), "steps": steps})
            for header, code, output in sections(text):
                if ">>>" in code:
                    continue   # its doctest examples are collected above
                if is_code(code):
                    steps = statement_steps(code)
                    if output:
                        steps[-1]["want"] = output
                    examples.append({"id": f"docstring:{name}", "kind": "docstring", **where, "code": code,
                                     "steps": steps})
                else:
                    other.append({"kind": "docstring", "language": "prose", **where, "code": code, "header": header})
    return examples, other


def value_data(value: Any) -> Any:
    """A value as data: text for a string subclass, ``to_dict()`` for an object that has it, else as
    ``record_mlsysim_calls.encode`` writes it or ``{"object": class}``."""
    if isinstance(value, str):
        return str(value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict) and not isinstance(value, type):
        return {"to_dict": value_data(to_dict())}
    if isinstance(value, dict) and type(value) is dict:
        return {"dict": [[value_data(k), value_data(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        items = [value_data(v) for v in value]
        return items if isinstance(value, list) else {"tuple": items}
    try:
        return encode(value)
    except Unwritable:
        return {"object": type(value).__name__}


def bound_names(code: str) -> list[str]:
    """The names a step's top-level assignments bind, in order."""
    names: list[str] = []
    for node in ast.parse(code).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    return names


def run_step(code: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """One step run in ``namespace``: its value (an expression's), the names it bound, what it printed, or what it
    raised."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
    printed = io.StringIO()
    outcome: dict[str, Any] = {}
    try:
        with contextlib.redirect_stdout(printed), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(body, "<example>", "exec"), namespace)  # noqa: S102 - mlsysim's own example text, run against mlsysim
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<example>", "eval"), namespace)  # noqa: S307
                outcome["value"] = value_data(value)
    except Exception as exc:  # noqa: BLE001 - the example's outcome is what it raised
        outcome["raises"] = {"type": type(exc).__name__, "message": str(exc).splitlines()[0] if str(exc) else ""}
    outcome["names"] = {name: value_data(namespace[name]) for name in bound_names(code) if name in namespace}
    outcome["stdout"] = printed.getvalue()
    return outcome


def namespace_of(module: str | None) -> dict[str, Any]:
    """A copy of the module's globals (as doctest runs a docstring's examples), or a fresh namespace; raises what the
    module's import raises."""
    if module is None:
        return {"__name__": "__example__"}
    return dict(vars(importlib.import_module(module)))


def run_example(example: dict[str, Any]) -> list[dict[str, Any]]:
    """mlsysim's outcome of each step of one example; a step that raised does not stop the next (as doctest runs
    them); where the module cannot be imported every step carries the import's exception."""
    try:
        namespace = namespace_of(example["module"])
    except Exception as exc:  # noqa: BLE001 - a module this machine cannot import (its optional dependency missing)
        failed = {"raises": {"type": type(exc).__name__, "message": str(exc)}, "names": {}, "stdout": ""}
        return [dict(failed) for _ in example["steps"]]
    return [run_step(step["code"], namespace) for step in example["steps"]]


def recording() -> dict[str, Any]:
    """The whole file's data."""
    import mlsysim

    examples, other = collect()
    for example in examples:
        for step, outcome in zip(example["steps"], run_example(example)):
            step["mlsysim"] = outcome
    return {"mlsysim": mlsysim.__version__, "examples": examples, "other": other}


def text(data: dict[str, Any]) -> str:
    """The file's text (deterministic)."""
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file written (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not what would be written")
    args = parser.parse_args(argv)
    data = recording()
    written = text(data)
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == written
        print(f"{args.out.name}: {'up to date' if same else 'differs from what this tool writes'}")
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(written, encoding="utf-8")
    steps = sum(len(e["steps"]) for e in data["examples"])
    print(f"{len(data['examples'])} examples ({steps} steps), {len(data['other'])} other blocks; wrote {args.out.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
