"""The ``mlsysim-symbolic`` command line.

    mlsysim-symbolic --version
    mlsysim-symbolic list [--family F] [--json]
    mlsysim-symbolic show NAME|TYPE [--markdown]
    mlsysim-symbolic eval NAME [--model M] [--set input=value ...] [--arg argument=value ...] [--json]
    mlsysim-symbolic latex [NAME|TYPE] [--model M] [--siunitx] [--sig N] [--prefix decimal|binary] [--document] [--family F] [-o FILE]
    mlsysim-symbolic sensitivity NAME OUTPUT [--model KEY ...] [--arg argument=value ...] [--json]
    mlsysim-symbolic solve NAME OUTPUT INPUT [TARGET] [--model KEY ...] [--sense <=|>=] [--arg argument=value ...] [--json]
    mlsysim-symbolic docs OUT_DIR [NAME|TYPE ...] [--family F] [--site]
    mlsysim-symbolic check [PATH]

Tables (``list``, ``eval``, ``show``'s values, ``sensitivity``, ``solve``) start with a header line
naming each column, with the unit in the name where the column has one unit.

Exit codes: 0 on success; 2 on a bad argument (standard error names it and what was expected);
1 when a well-formed question has no answer or the work failed (``solve`` with an infeasible
target, ``check`` with a problem in the catalog, a ``docs --site`` build that cannot run).
``main`` returns the exit code (it never calls ``sys.exit`` itself).

>>> main(["solve", "DpSgdPerExampleGradients", "per_batch", "batch_size", "80 GB", "--model", "GPT-2"])
input       value (sample)  exact (sample)  constraint          at     method                         note
batch_size  13              13.33           per_batch <= 80 GB  GPT-2  closed form B = M_batch/(P*b)  integer input: floor keeps per_batch <= target
0
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import pint

from . import __version__, paper
from . import printing as latex
from .catalog import Catalog, catalog, load_derivations
from .docs import build_site, markdown_page, write_docs
from .errors import (
    CommandLineError,
    DerivationError,
    DimensionalityError,
    FloatRangeError,
    InfeasibleError,
    InputError,
    MissingInputError,
    MlsysimSymbolicError,
    NoAnswerError,
    UnexpectedNameError,
    UnknownKeyError,
    UnknownNameError,
)
from .printing import LatexConfig, escape_text
from .spec.kinds import QuantityKind, kind_of
from .units import Q_, parse_quantity

PROG = "mlsysim-symbolic"

# what reading a value may raise besides this package's own errors: pint's, an overflowing unit factor,
# a conversion that Python refuses (caught only around the parsing of --set, --arg and TARGET values)
_VALUE_ERRORS = (pint.errors.PintError, OverflowError, ValueError, TypeError, ZeroDivisionError, ArithmeticError)


#: A bad command-line argument that no library call refuses (exit status 2); kept under its old name.
CliError = CommandLineError
#: A well-formed command with no answer or whose work failed (exit status 1); kept under its old name.
CliFailure = NoAnswerError

#: The exit status of each error class and the words before its message on standard error: the first class the
#: error is an instance of decides (``main`` is the one place that reads it).  A library error said of an option
#: (``exc.within("--set")``) keeps its class, so its status, and prints ``--set: <its message>``.
EXIT_STATUS: tuple[tuple[type[MlsysimSymbolicError], int, str], ...] = (
    (NoAnswerError, 1, ""),          # a well-formed question with no answer, a failed check or site build
    (InfeasibleError, 1, ""),        # no value of the input meets the target
    (MlsysimSymbolicError, 2, "error: "),   # a bad argument: the error names it and what was expected
)


def _catalog() -> Catalog:
    return catalog()


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, OverflowError):
        return "a number beyond float64"
    return text or type(exc).__name__


def _application(name: str) -> Any:
    """The application scenario (mlsysim's ``Scenario``, registered on ``Scenarios`` by the solvers layer) of that
    name, or None: the CLI finds every name ``Scenarios`` finds."""
    if name in _catalog().declared:
        return None
    from .catalog import Scenarios
    from .solvers import Application  # registers the application scenarios on Scenarios

    try:
        found = Scenarios[name]
    except (UnknownNameError, KeyError):
        return None
    return found if isinstance(found, Application) else None


def _scenario(name: str) -> Any:
    cat = _catalog()
    if name not in cat.declared:
        if _application(name) is not None:
            raise CliError(f"NAME: {name!r} is an application scenario (mlsysim's Scenario: a workload on a system, "
                           f"evaluated in three levels), not a scenario of outputs; '{PROG} show {name}' and "
                           f"'{PROG} eval {name}' give its evaluation")
    try:
        return cat.scenario(name)
    except UnknownNameError as exc:   # the hint reaches the application scenarios too
        raise UnknownNameError(exc.what, name, [*exc.known, *_applications()], note=f"(see '{PROG} list')",
                               listed=False).within("NAME") from None


def _application_page(name: str, app: Any, *, as_json: bool = False) -> int:
    """``show``/``eval`` of an application scenario: its workload, system and constraints, and its evaluation's
    three levels (mlsysim's ``Scenario.evaluate()`` at batch 1, fp16), each level's status, summary and metrics."""
    try:
        evaluation = app.evaluate()
    except MlsysimSymbolicError as exc:
        raise CliFailure(f"{name}: the evaluation has no value: {exc}") from None
    system = app.resolved_system
    facts = {"workload": getattr(app.workload, "key", app.workload), "system": getattr(system, "key", app.system),
             "distributed": app.is_distributed, "sla_latency": app.sla_latency, "data_rate": app.data_rate,
             "power_budget": app.power_budget, "target_accuracy": app.target_accuracy}
    if as_json:
        _print_json({"scenario": name, "application": True, "name": app.name, "description": app.description,
                     **{k: _quantity_json(v) if hasattr(v, "units") else v for k, v in facts.items()},
                     "evaluation": {level.level_name: {"status": level.status, "summary": level.summary,
                                                       "metrics": _quantity_json(level.metrics)}
                                    for level in evaluation.levels}, "passed_all": evaluation.passed_all})
        return 0
    print(f"{name}: {app.name}")
    if app.description:
        print(f"  {app.description}")
    print()
    print("Application scenario (mlsysim's Scenario): " + ", ".join(f"{k} {v}" for k, v in facts.items() if v is not None))
    print()
    print("Evaluation (batch_size 1, fp16)")
    print("-------------------------------")
    print(_table(["level", "status", "summary"], [(lv.level_name, lv.status, lv.summary) for lv in evaluation.levels]))
    print()
    values: dict[str, Any] = {}
    for level in evaluation.levels:
        for metric, value in level.metrics.items():
            if value is not None:
                values[f"{level.level_name.lower()}.{metric}"] = value
    _print_values(values)
    return 0


def _is_type(name: str) -> bool:
    """Whether NAME is a scenario type rather than a named scenario (a named scenario wins a tie)."""
    cat = _catalog()
    if name in cat.declared:
        return False
    if name in cat.info:
        return True
    if _application(name) is not None:
        _scenario(name)   # refused there, by name, as an application scenario
    raise UnknownNameError("scenario or scenario type", name, [*cat.declared, *cat.info, *_applications()],
                           note=f"(see '{PROG} list')", listed=False).within("NAME")


def _applications() -> list[str]:
    """The keys of the application scenarios (for the hints of an unknown NAME)."""
    from .solvers import Applications

    return list(Applications)


def _family(family: str | None) -> None:
    if family is None:
        return
    families = _catalog().families
    if family not in families:
        raise UnknownNameError("family", family, sorted(families)).within("--family")


def _output(s: Any, output: str, arguments: dict[str, Any] | None = None, *, label: str = "OUTPUT") -> Any:
    try:
        spec = s.type.output(output)
    except UnknownNameError as exc:
        raise exc.within(label) from None
    arguments = arguments or {}
    missing = [a for a in spec.arguments if a not in arguments and not _optional_argument(s, a)]
    if missing:
        raise CliError(f"{label}: {output} is a method of {', '.join(spec.arguments)}; give "
                       + " ".join(f"--arg {a}=VALUE" for a in missing))
    extra = [a for a in arguments if a not in spec.arguments]
    if extra:
        raise CliError(f"--arg: {output} takes no argument {extra[0]!r}"
                       + (f"; its arguments: {', '.join(spec.arguments)}" if spec.arguments else "; it has no arguments"))
    return spec


def _optional_argument(s: Any, name: str) -> bool:
    """Whether argument ``name`` may be left out (it has a default, or defaults to an input)."""
    var = s.type.arguments[name]
    return var.default is not None or bool(var.default_input)


def _check_value(var: Any, name: str, value: Any, option: str) -> None:
    """Refuse a ``--set``/``--arg`` value its variable cannot take, naming it and what was expected (exit 2)."""
    try:
        var.check(value, label=name)
    except MlsysimSymbolicError as exc:
        raise exc.within(option) from None
    except _VALUE_ERRORS as exc:   # a package function should have raised a named error: reported, not a traceback
        raise CliError(f"{option}: {name}: cannot read {value!r} as a value in {var.unit_text} ({_one_line(exc)})") from None


def _arguments(s: Any, pairs: Sequence[str]) -> dict[str, Any]:
    """``--arg name=value`` pairs, checked against the arguments of the scenario's type and their units."""
    arguments = _parse_sets(pairs, option="--arg", example="--arg tau=600s")
    known = s.type.arguments
    for name, value in arguments.items():
        if name not in known:
            raise UnexpectedNameError("argument", name, known, owner=s.type.name,
                                      note="" if known else "(it has no method outputs)").within("--arg")
        options = known[name].options
        if options and value not in options:
            raise CliError(f"--arg: {name} must be one of {', '.join(map(repr, options))}, got {value!r}")
        if not options:
            _check_value(known[name], name, value, "--arg")
    return arguments


def _match_key(known: Sequence[Any], model: str, what: str) -> Any:
    for k in known:
        if str(k) == model:
            return k
    raise UnknownKeyError(f"{what} key", model, known).within("--model")


def _key(scenario: Any, model: str | None) -> tuple[Any, ...]:
    """The key of the scenario's first keyed input given by ``--model`` (``eval`` and ``latex``: without it, every key)."""
    keys = scenario.keys()
    if not keys:
        if model:
            raise CliError(f"--model: scenario {getattr(scenario, 'key', scenario.type.name)} has no keyed inputs")
        return ()
    if model is None:
        return ()
    return (_match_key(keys, model, "model"),)


def _output_keys(s: Any, output: str, models: Sequence[str] | None) -> tuple[Any, ...]:
    """One key per index of ``output``: the ``--model`` given for it, or its only key.

    An index with more than one key and no ``--model`` is refused with its keys listed (exit 2): the
    first key is never picked silently.
    """
    models = list(models or [])
    try:
        indices = s.planner.plan(output).indices
    except MlsysimSymbolicError as exc:
        raise exc.within("OUTPUT") from None
    if not indices:
        if models:
            raise CliError(f"--model: output {output} is not keyed")
        return ()
    if len(models) > len(indices):
        raise CliError(f"--model: {output} is keyed by {' and '.join(indices)}, so it takes {len(indices)} --model "
                       f"(one per index, in that order); got {len(models)}")
    keys = []
    for i, index in enumerate(indices):
        known = s.keys(index)
        if not known:
            raise CliError(f"OUTPUT: {output} needs keyed input {index!r}, which this scenario does not set")
        if i < len(models):
            keys.append(_match_key(known, models[i], index))
        elif len(known) == 1:
            keys.append(known[0])
        elif i == 0:
            raise CliError(f"--model: {output} has one value per {index} key ({', '.join(map(str, known))}); "
                           f"choose one with --model, e.g. --model {known[-1]}")
        else:
            raise CliError(f"--model: {output} is keyed by {' and '.join(indices)}; give a {_ordinal(i + 1)} --model for {index}: "
                           f"one of {', '.join(map(str, known))}")
    return tuple(keys)


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third"}.get(n, f"{n}th")


def _number_json(x: Any) -> Any:
    if hasattr(x, "item") and not isinstance(x, (int, float)):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


def _quantity_json(q: Any) -> Any:
    if isinstance(q, pint.Quantity):
        return {"value": _number_json(q.magnitude), "unit": f"{q.units:~C}" or "1"}
    if isinstance(q, dict):
        return {str(k): _quantity_json(v) for k, v in q.items()}
    return _number_json(q)


def _leaves(value: Any, keys: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Each value of a (possibly nested, by key) result with its keys."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*keys, k))
    else:
        yield keys, value


def _number_text(x: Any) -> str:
    if hasattr(x, "item") and not isinstance(x, (int, float, bool)):
        x = x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    return f"{x:.6g}"


def _unit_text(q: pint.Quantity) -> str:
    return f"{q.units:~P}" or "1"


def _value_cells(v: Any) -> tuple[str, str]:
    """A value as (number, unit) table cells; an answer (a predicate's bool, a label) has no unit."""
    if isinstance(v, pint.Quantity):
        return _number_text(v.magnitude), _unit_text(v)
    return _number_text(v), ""


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, right: Collection[int] = ()) -> str:
    """Rows under a header line, columns two spaces apart (``right``: the columns aligned right); no trailing blanks.

    >>> print(_table(["name", "value (B)"], [["a", 1], ["bb", 22]], right={1}))
    name  value (B)
    a             1
    bb           22
    """
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h), *(len(row[i]) for row in cells)]) for i, h in enumerate(headers)]

    def line(row: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip()

    return "\n".join([line(list(headers)), *(line(row) for row in cells)])


def _print_values(values: dict[str, Any]) -> None:
    """``eval`` and ``show``: one row per output (per key of a keyed output): output, key, value, unit."""
    rows = [(name, ", ".join(map(str, keys)), *_value_cells(v)) for name, value in values.items() for keys, v in _leaves(value)]
    keyed = any(row[1] for row in rows)
    headers = ["output", "key", "value", "unit"] if keyed else ["output", "value", "unit"]
    print(_table(headers, [row if keyed else (row[0], *row[2:]) for row in rows]))


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str))


# ---------------------------------------------------------------------- commands
def cmd_list(args: argparse.Namespace) -> int:
    """``list``: the catalog by family: a row per family (its title), per type (its summary), per named scenario (its name)."""
    cat = _catalog()
    _family(args.family)
    families = {f: types for f, types in sorted(cat.families.items()) if not args.family or f == args.family}
    info = cat.info   # metadata only: listing builds no type
    if args.json:
        _print_json({fam: {"title": cat.titles.get(fam, fam),
                           "types": {t: {"summary": info[t].summary, "scenarios": cat.scenarios_of(t)} for t in types}}
                     for fam, types in families.items()})
        return 0
    rows = []
    for fam, types in families.items():
        rows.append((fam, "", "", f"{cat.titles.get(fam, fam)} ({len(types)} types)"))
        for t in types:
            rows.append((fam, t, "", info[t].summary))
            rows += [(fam, t, k, cat.declared[k].name) for k in cat.scenarios_of(t)]
    print(_table(["family", "type", "scenario", "summary"], rows))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``show``: the reference page of a type, or of a named scenario's type with its values and substituted lines
    (of an application scenario: its evaluation's levels)."""
    app = _application(args.name)
    if app is not None:
        if args.markdown:
            raise CliError(f"--markdown: {args.name} is an application scenario; it has no reference page of its own")
        return _application_page(args.name, app)
    if _is_type(args.name):
        cat = _catalog()
        cls = cat.classes[args.name]
        if args.markdown:
            print(markdown_page(cat.types[args.name], cat), end="")
        else:
            print(cls.__doc__)
            named = cat.scenarios_of(args.name)
            if named:
                print()
                print("Named scenarios: " + ", ".join(named))
        return 0
    s = _scenario(args.name)
    if args.markdown:
        print(markdown_page(s.type, _catalog()), end="")
        return 0
    print(f"{args.name}: {s.name}")
    if s.description:
        print(f"  {s.description}")
    print()
    print(type(s).__doc__)
    print()
    print("Values")
    print("------")
    values: dict[str, Any] = {}
    for name, out in s.type.outputs.items():
        if out.arguments:
            values[f"{name}(...)"] = f"a method of {', '.join(out.arguments)}"
            continue
        try:
            values[name] = s.planner.member(name)
        except (MlsysimSymbolicError, TypeError) as exc:
            values[name] = f"not applicable ({exc})"
    _print_values(values)
    print()
    print("LaTeX")
    print("-----")
    for row in latex.rows(s, all_keys=True):
        print(" = ".join(row.parts) + (f"    ({', '.join(map(str, row.keys))})" if row.keys else ""))
    return 0


def _parse_sets(pairs: Sequence[str], *, option: str = "--set", example: str = "--set batch_size=1024") -> dict[str, Any]:
    """``name=value`` pairs: whole numbers, then other numbers, else the text (a quantity such as ``2 B``).

    >>> _parse_sets(["batch_size=1024", "bytes_per_param=2 B"])
    {'batch_size': 1024, 'bytes_per_param': '2 B'}
    """
    what = "input" if option == "--set" else "argument"
    changes: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(f"{option}: {pair!r} is not {what}=value (e.g. {example})")
        k, v = pair.split("=", 1)
        k = k.strip()
        v = v.strip()
        if not k or not v:
            raise CliError(f"{option}: {pair!r} is not {what}=value (e.g. {example})")
        if k in changes:
            raise CliError(f"{option}: {k} is given twice")
        try:
            changes[k] = int(v)
        except ValueError:   # not a whole number (or more digits than int() reads)
            try:
                changes[k] = float(v)
            except ValueError:
                changes[k] = v
    return changes


def _variant(s: Any, changes: dict[str, Any]) -> Any:
    """The scenario with ``--set`` changes: each quantity checked against its input first, so a bad one is named."""
    inputs = s.type.inputs
    for name, value in changes.items():
        spec = inputs.get(name)   # an unknown name: refused by the scenario itself, below
        if spec is not None and type(kind_of(spec)) is QuantityKind and spec.variable is not None:
            _check_value(spec.variable, name, value, "--set")
    try:
        return s.variant(**changes)
    except MlsysimSymbolicError as exc:
        raise exc.within("--set") from None
    except _VALUE_ERRORS as exc:
        names = ", ".join(f"{k}={v!r}" for k, v in changes.items())
        raise CliError(f"--set: cannot use {names} ({_one_line(exc)})") from None


def cmd_eval(args: argparse.Namespace) -> int:
    """``eval``: every output of a scenario (keyed outputs at ``--model``, or for every key); of an application
    scenario, its evaluation's levels and metrics."""
    app = _application(args.name)
    if app is not None:
        if args.set or args.arg or args.model:
            raise CliError(f"--set/--arg/--model: {args.name} is an application scenario; it is evaluated as declared")
        return _application_page(args.name, app, as_json=args.json)
    s = _scenario(args.name)
    changes = _parse_sets(args.set or [])
    if changes:
        s = _variant(s, changes)
    arguments = _arguments(s, args.arg or [])
    used = {a for out in s.type.outputs.values() for a in out.arguments if a in arguments}
    if set(arguments) - used:
        raise CliError(f"--arg: no output of {s.type.name} takes {sorted(set(arguments) - used)[0]!r}")
    model = _key(s, args.model)[0] if args.model else None
    values: dict[str, Any] = {}
    for name, out in s.type.outputs.items():
        if out.arguments:
            given = {a: arguments[a] for a in out.arguments if a in arguments}
            if not given or any(a not in given and not _optional_argument(s, a) for a in out.arguments):
                continue   # a method: evaluated when --arg gives its arguments
            try:
                value = _method_value(s, name, given)
            except MissingInputError:
                continue   # needs an input this scenario does not set: not an output of it
            except FloatRangeError as exc:
                raise CliFailure(f"output {name!r} has no float64 value: {exc}") from None
            except InputError as exc:
                raise exc.within("--arg") from None
        else:
            try:
                value = s.planner.member(name)
            except MissingInputError:
                continue   # needs an input this scenario does not set: not an output of it
            except MlsysimSymbolicError as exc:   # an overflow, a value out of range: never a row silently left out
                raise CliFailure(f"output {name!r} has no value: {exc}") from None
        if model is not None and isinstance(value, dict) and model in value:
            value = {model: value[model]}
        values[name] = value
    if args.json:
        shown = {k: (v[model] if model is not None and isinstance(v, dict) and model in v else v) for k, v in values.items()}
        _print_json({"scenario": args.name, "type": s.type.name, "key": model, "set": changes,
                     "arguments": arguments, "values": _quantity_json(shown)})
        return 0
    _print_values(values)
    return 0


def _method_value(s: Any, name: str, arguments: dict[str, Any]) -> Any:
    """A method output at ``arguments``: a Quantity, or a dict by key (nested for two indices) when keyed."""
    indices = s.planner.plan(name).indices

    def at(prefix: tuple[Any, ...]) -> Any:
        if len(prefix) == len(indices):
            return s.evaluate(name, *prefix, **arguments)
        return {k: at((*prefix, k)) for k in s.keys(indices[len(prefix)])}

    return at(())


def _latex_config(args: argparse.Namespace) -> Any:
    try:
        return LatexConfig(siunitx=args.siunitx, sig=args.sig, prefix=args.prefix)
    except InputError as exc:
        raise exc.within("--sig") from None


def cmd_latex(args: argparse.Namespace) -> int:
    """``latex``: a scenario's (or a type's) LaTeX, or (``--document``) a complete document of the catalog or a family."""
    config = _latex_config(args)
    if args.family and args.name:
        raise CliError("--family: selects the family of a --document; leave out NAME (or leave out --family)")
    if args.family:
        _family(args.family)
    if args.name is None and not (args.document or args.family):
        raise CliError("NAME: a scenario name is required unless --document (or --family) is given")
    if args.output and not Path(args.output).resolve().parent.is_dir():   # before a document that takes a minute
        raise CliError(f"--output: cannot write {args.output!r}: No such file or directory")
    if args.name is not None and _is_type(args.name):
        if args.model:
            raise CliError("--model: needs a named scenario, not a scenario type")
        cat = _catalog()
        if args.document:
            text = paper.document(cat, config=config, types=[args.name], title=escape_text(args.name))
        else:
            text = paper.type_section(cat.types[args.name], cat, config=config)
    elif args.name is not None:
        s = _scenario(args.name)
        keys = _key(s, args.model)
        if args.document:
            text = paper.document(_catalog(), config=config, types=[s.type.name], scenarios=[args.name],
                                  title=f"{escape_text(args.name)}: {escape_text(s.name)}")
        else:
            text = paper.fragment(s, *keys, config=config)
    else:
        if args.model:
            raise CliError("--model: needs a scenario NAME")
        text = paper.document(_catalog(), family=args.family, config=config)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"--output: cannot write {args.output!r}: {exc.strerror}") from None
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    return 0


def cmd_sensitivity(args: argparse.Namespace) -> int:
    """``sensitivity``: elasticities of one output, ranked by magnitude."""
    s = _scenario(args.name)
    arguments = _arguments(s, args.arg or [])
    _output(s, args.output, arguments)
    keys = _output_keys(s, args.output, args.model)
    try:
        rows = s.elasticities(args.output, *keys, **arguments)
    except InputError as exc:
        raise exc.within("--arg") from None
    if args.json:
        _print_json({"scenario": args.name, "output": args.output, "keys": list(keys),
                     "elasticities": [{"input": r.input, "symbol": str(r.symbol), "elasticity": str(r.expression), "value": _number_json(r.value),
                                       "derivative": str(r.derivative), "derivative_value": _quantity_json(r.derivative_value)} for r in rows]})
        return 0
    table = [(r.input, str(r.symbol), f"{r.value:+.4f}", *_value_cells(r.derivative_value), str(r.expression)) for r in rows]
    print(_table(["input", "symbol", "elasticity", f"d {args.output}/d input", "unit", "elasticity formula"], table, right={2, 3}))
    return 0


def _solve_target(s: Any, args: argparse.Namespace, spec: Any) -> tuple[Any, str]:
    """``solve``'s TARGET as a Quantity in OUTPUT's dimension, and as shown (a predicate has none: ``None``)."""
    output = args.output
    if spec.kind.condition:
        if args.target is not None:
            raise CliError(f"TARGET: {output} is a predicate (true or false), so it takes no target: "
                           f"'{PROG} solve {args.name} {output} {args.input}' finds the {args.input} where it starts or stops holding")
        if args.sense is not None:
            raise CliError(f"--sense: {output} is a predicate; solve finds where it holds, so leave out --sense")
        return None, f"{output} holds"
    if not spec.kind.numeric:
        raise CliError(f"OUTPUT: {output} is a {spec.kind} (a name, not a number); solve takes a quantity or a predicate output")
    var = spec.variable
    if args.target is None:
        raise CliError(f"TARGET: {output} is a quantity in {var.unit_text}: give the target, e.g. '{PROG} solve {args.name} {output} "
                       f"{args.input} \"10 {var.unit_text}\"'")
    try:
        number: float | None = float(args.target)
    except ValueError:
        number = None
    if number is not None:
        if not math.isfinite(number):
            raise CliError(f"TARGET: must be finite, got {args.target!r}")
        if not var.unit.dimensionless:
            raise CliError(f"TARGET: target {args.target} needs a unit, e.g. '{args.target} {var.unit_text}' "
                           f"({output} is in {var.unit_text}; only a plain-number output takes a bare number)")
        return Q_(number, var.unit), args.target
    try:
        target = parse_quantity(args.target, name="TARGET")   # its errors name TARGET
        if target.dimensionality != var.unit.dimensionality:
            raise DimensionalityError("TARGET", f"{args.target!r} ({target.units.dimensionality or 'dimensionless'})",
                                      f"{var.unit_text} ({var.unit.dimensionality})", what=output)
        finite = math.isfinite(float(target.to(var.unit).magnitude))
    except MlsysimSymbolicError:
        raise
    except _VALUE_ERRORS as exc:   # units.parse_quantity should have raised an InputError
        raise CliError(f"TARGET: cannot read {args.target!r} as a quantity in {var.unit_text} ({_one_line(exc)})") from None
    if not finite:
        raise CliError(f"TARGET: must be finite, got {args.target!r}")
    return target, f"{output} {args.sense or '<='} {args.target}"


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve``: the value of INPUT at which OUTPUT reaches TARGET (integers rounded on the feasible side); a
    predicate OUTPUT takes no TARGET: the INPUT where it starts or stops holding."""
    s = _scenario(args.name)
    arguments = _arguments(s, args.arg or [])
    spec = _output(s, args.output, arguments)
    inputs = _plan_inputs(s, args.output)
    if args.input not in inputs:
        raise UnknownNameError("input", args.input, inputs, owner=args.output).within("INPUT")
    target, constraint = _solve_target(s, args, spec)
    keys = _output_keys(s, args.output, args.model)
    sense = None if target is None else (args.sense or "<=")
    try:
        sol = s.solve(args.output, args.input, target, *keys, sense=sense, **arguments)
    except InfeasibleError:
        raise   # exit status 1 (EXIT_STATUS): a well-formed question with no answer
    except MlsysimSymbolicError as exc:
        raise exc.within("no solution") from None
    if args.json:
        _print_json({"scenario": args.name, "output": args.output, "input": args.input,
                     "target": None if target is None else _quantity_json(target),
                     "sense": sense, "keys": list(keys), "value": _quantity_json(sol.value), "exact": _quantity_json(sol.exact),
                     "expression": None if sol.expression is None else str(sol.expression), "method": sol.method, "note": sol.note})
        return 0
    unit = _unit_text(sol.exact)
    value = sol.value.magnitude if isinstance(sol.value, pint.Quantity) else sol.value
    method = f"closed form {sol.symbol} = {sol.expression}" if sol.expression is not None else sol.method
    headers = ["input", f"value ({unit})", f"exact ({unit})", "constraint"]
    row = [args.input, _number_text(value), f"{sol.exact.magnitude:.4g}", constraint]
    if keys:
        headers.append("at")
        row.append(", ".join(map(str, keys)))
    headers.append("method")
    row.append(method)
    if sol.note:
        headers.append("note")
        row.append(sol.note)
    print(_table(headers, [row]))
    return 0


def _plan_inputs(s: Any, output: str) -> list[str]:
    t = s.type
    names = []
    for sym in s.planner.plan(output).args:
        var = t.leaves.get(sym)
        if var is not None and t.leaf_input.get(sym) not in t.arguments:
            names.append(var.name)
    return sorted(set(names))


def cmd_docs(args: argparse.Namespace) -> int:
    """``docs``: one Markdown reference page per scenario type (or per TYPE given) and an index, into OUT_DIR;
    with ``--site`` the docs site (reference pages as HTML, the notebooks executed, an index.html)."""
    _family(args.family)
    out = Path(args.out_dir)
    if out.exists() and not out.is_dir():
        raise CliError(f"OUT_DIR: {args.out_dir!r} exists and is not a directory")
    cat = _catalog()
    if args.names:
        if args.family:
            raise CliError("--family: selects the pages of a family; leave out NAME (or leave out --family)")
        chosen = [n if _is_type(n) else cat.declared[n].type_name for n in args.names]
        cat = cat.subset(list(dict.fromkeys(chosen)))
    if args.site:
        if args.family:
            cat = cat.subset(list(cat.families[args.family]))
        try:
            paths = build_site(out, catalog=cat)
        except ModuleNotFoundError as exc:
            raise CliFailure(f"--site: {exc}") from None
        except OSError as exc:
            raise CliFailure(f"--site: cannot build the site in {args.out_dir!r}: {exc}") from None
        print(f"wrote {len(paths)} files; open {paths[-1]}")
        return 0
    try:
        paths = write_docs(out, cat, family=args.family)
    except OSError as exc:
        raise CliError(f"OUT_DIR: cannot write into {args.out_dir!r}: {exc.strerror}") from None
    print(f"wrote {len(paths) - 1} pages and {paths[-1]}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """``check``: build every type and bind every named scenario (of the catalog, or of PATH); exit 1 on the first problem."""
    path = Path(args.path) if args.path else None
    try:
        # a folder with its own workloads.toml is a whole catalog (a copy of derivations/): checked on its own
        cat = _catalog() if path is None else load_derivations(path)
        report = cat.check()
    except DerivationError as exc:
        raise NoAnswerError(exc) from None   # a problem in the catalog: exit status 1, the file, line and reason
    where = args.path or "the shipped catalog"
    print(f"{where}: {report}")
    return 0


# ---------------------------------------------------------------------- the parser
def _examples(*lines: str) -> str:
    """An ``--help`` epilog: each example command (indented two spaces, so tests can find and run it) and what it answers."""
    return "examples:\n" + "\n".join(f"  {line}" if line.startswith(PROG) else f"      {line}" for line in lines)


EXIT_CODES = "exit status: 0 success; 1 no answer (an infeasible solve target, a failed check or site build); 2 a bad argument"


def _sub(sub: Any, name: str, help: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """A command whose description is wrapped by paragraph (a newline starts one) and whose epilog is kept as written."""
    text = "\n".join(textwrap.fill(paragraph, 88) for paragraph in description.split("\n"))
    return sub.add_parser(name, help=help, description=text, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (each has ``--help`` with examples).

    >>> args = build_parser().parse_args(["solve", "DpSgdPerExampleGradients", "per_batch", "batch_size", "80 GB", "--sense", ">="])
    >>> args.command, args.target, args.sense
    ('solve', '80 GB', '>=')
    """
    parser = argparse.ArgumentParser(
        prog=PROG, description="ML-systems equations as SymPy trees with units: numbers, LaTeX and sensitivities.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_examples(f"{PROG} list --family dp", "the DP-SGD family: its types and named scenarios",
                         f"{PROG} solve DpSgdPerExampleGradients per_batch batch_size '80 GB' --model GPT-2",
                         "the largest GPT-2 batch whose per-example gradients fit in 80 GB: 13") + "\n\n" + EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_reading(sub)
    _add_analysis(sub)
    _add_writing(sub)
    return parser


def _add_reading(sub: Any) -> None:
    """``list``, ``show``, ``eval`` and ``latex``."""
    p = _sub(sub, "list", "list the catalog by family", "List the scenario types and named scenarios, by family: a table of "
             "family, type, scenario and summary (a family's title, a type's summary, a named scenario's name).",
             _examples(f"{PROG} list", "every family, type and named scenario",
                       f"{PROG} list --family dp --json", "one family as JSON"))
    p.add_argument("--family", help="only this family")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)

    p = _sub(sub, "show", "a scenario's (or a type's) reference page, values and LaTeX",
             "Print the reference page of a scenario type, or of a named scenario's type with its values "
             "(a table of output, key, value and unit) and its substituted lines.",
             _examples(f"{PROG} show DpSgdPerExampleGradients", "the page, values and LaTeX of a named scenario",
                       f"{PROG} show ZeroShardingScenario --markdown", "a type's reference page as Markdown"))
    p.add_argument("name", metavar="NAME", help="a named scenario or a scenario type (see 'list')")
    p.add_argument("--markdown", action="store_true", help="print the Markdown reference page instead")
    p.set_defaults(func=cmd_show)

    p = _sub(sub, "eval", "evaluate every output of a scenario",
             "Evaluate every output of a named scenario: a table of output, key (of keyed outputs), value and unit.",
             _examples(f"{PROG} eval DpSgdPerExampleGradients --model GPT-2", "every output at GPT-2 (per_batch = 1.536e+12 B)",
                       f"{PROG} eval DpSgdPerExampleGradients --set batch_size=1024 --set 'bytes_per_param=2 B/param'",
                       "with a larger batch in half precision, for every model",
                       f"{PROG} eval Gpt3CheckpointInterval10K --arg tau=600s", "a method output too: waste_at(tau) at tau = 600 s"))
    p.add_argument("name", metavar="NAME", help="a named scenario (see 'list')")
    p.add_argument("--model", help="the key (model name) of keyed outputs (default: every key)")
    p.add_argument("--set", action="append", metavar="INPUT=VALUE", help="change an input (repeatable), e.g. --set batch_size=1024 --set 'bytes_per_param=2 B'")
    p.add_argument("--arg", action="append", metavar="ARGUMENT=VALUE",
                   help="an argument of method outputs (repeatable), e.g. --arg tau=600s: the methods it completes are evaluated too")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_eval)

    p = _sub(sub, "latex", "LaTeX for a scenario, or a document of the catalog",
             "Print a LaTeX fragment of a named scenario, or with --document a complete document "
             "(one section per scenario type) of the whole catalog or one --family.",
             _examples(f"{PROG} latex DpSgdPerExampleGradients --model GPT-2 --siunitx", "one scenario's align* block at GPT-2, units as siunitx",
                       f"{PROG} latex --document --family dp -o dp.tex", "a complete document of the DP-SGD family, for pdflatex"))
    p.add_argument("name", metavar="NAME", nargs="?", help="a named scenario or a scenario type (optional with --document)")
    p.add_argument("--model", help="only this key (model name) of keyed outputs (default: every key)")
    p.add_argument("--siunitx", action="store_true", help="units as siunitx \\qty{}{} (the document preamble declares the non-SI units)")
    p.add_argument("--sig", type=int, default=4, help="significant figures (default 4)")
    p.add_argument("--prefix", choices=("decimal", "binary"), default=None, help="prefixes of results: SI or, for bytes, binary (default: as each output declares)")
    p.add_argument("--document", action="store_true", help="a complete LaTeX document (of NAME's type, the --family, or the whole catalog)")
    p.add_argument("--family", help="with --document: only this family")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(func=cmd_latex)


def _add_analysis(sub: Any) -> None:
    """``sensitivity`` and ``solve``."""
    p = _sub(sub, "sensitivity", "elasticities of an output, ranked",
             "Elasticities d ln(OUTPUT) / d ln(input), ranked by magnitude: a table of input, symbol, elasticity, the "
             "derivative d OUTPUT/d input with its unit, and the elasticity's formula.\n"
             "A keyed OUTPUT with more than one key needs --model (one per index, in order); with one key it is used.",
             _examples(f"{PROG} sensitivity DpSgdPerExampleGradients per_batch --model GPT-2", "each input moves per_batch one for one (+1)",
                       f"{PROG} sensitivity Gpt3CheckpointInterval10K waste_at --arg tau=600s", "the wasted fraction at a 10-minute interval",
                       f"{PROG} sensitivity AlphaBetaNdrRoce times --model NDR --model shard", "an output keyed by path and message: one --model per index"))
    p.add_argument("name", metavar="NAME", help="a named scenario")
    p.add_argument("output", metavar="OUTPUT", help="one of its outputs")
    p.add_argument("--model", action="append", metavar="KEY",
                   help="the key (model name) of a keyed output; repeat for an output with two indices (required when an index has more than one key)")
    p.add_argument("--arg", action="append", metavar="ARGUMENT=VALUE", help="an argument of a method OUTPUT (repeatable), e.g. --arg tau=600s")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_sensitivity)

    p = _sub(sub, "solve", "the input value at which an output reaches a target",
             "Solve OUTPUT(INPUT) = TARGET for INPUT, symbolically where possible; an integer input is rounded on the side "
             "that keeps OUTPUT --sense TARGET.  TARGET needs a unit unless OUTPUT is a plain number.  A predicate OUTPUT "
             "(kind = \"predicate\", e.g. fits = per_batch <= capacity) takes no TARGET: the answer is where it holds.\n"
             "A keyed OUTPUT with more than one key needs --model (one per index, in order); with one key it is used.\n"
             "An infeasible target exits with status 1 and says why.",
             _examples(f"{PROG} solve DpSgdPerExampleGradients per_batch batch_size '80 GB' --model GPT-2",
                       "the largest GPT-2 batch in 80 GB: 13 (1.5e9 parameters x 4 B each per example)",
                       f"{PROG} solve DpSgdPerExampleGradients per_batch batch_size '1 TB' --model GPT-2 --sense '>='",
                       "the smallest batch that needs at least 1 TB: 167",
                       f"{PROG} solve Gpt3CheckpointInterval10K waste_at mtbf 0.05 --arg tau=600s",
                       "the MTBF at which a 10-minute interval wastes 5%"))
    p.add_argument("name", metavar="NAME", help="a named scenario")
    p.add_argument("output", metavar="OUTPUT", help="one of its outputs")
    p.add_argument("input", metavar="INPUT", help="the input to solve for, e.g. batch_size")
    p.add_argument("target", metavar="TARGET", nargs="?",
                   help="the target of OUTPUT with a unit, e.g. '80 GB' (a bare number only for a plain-number OUTPUT; none for a predicate)")
    p.add_argument("--model", action="append", metavar="KEY",
                   help="the key (model name) of a keyed output; repeat for an output with two indices (required when an index has more than one key)")
    p.add_argument("--sense", choices=("<=", ">="), default=None, help="the constraint OUTPUT <= TARGET (default) or >= TARGET")
    p.add_argument("--arg", action="append", metavar="ARGUMENT=VALUE", help="an argument of a method OUTPUT (repeatable), e.g. --arg factor=2")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_solve)


def _add_writing(sub: Any) -> None:
    """``docs`` and ``check``."""
    p = _sub(sub, "docs", "write the Markdown reference pages, or the docs site",
             "Write one Markdown reference page per scenario type and index.md; with --site the docs site: the reference "
             "pages also as HTML, the notebooks executed and converted to HTML, and index.html (needs the [test] extra).",
             _examples(f"{PROG} docs reference --family dp", "the DP-SGD family's pages into reference/",
                       f"{PROG} docs site --site", "the whole site into site/ (executes the notebooks: about a minute)"))
    p.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write into (created if missing)")
    p.add_argument("names", metavar="NAME", nargs="*", help="only these scenario types (or the types of these named scenarios)")
    p.add_argument("--family", help="only this family")
    p.add_argument("--site", action="store_true", help="build the docs site (HTML reference, executed notebooks, index.html)")
    p.set_defaults(func=cmd_docs)

    p = _sub(sub, "check", "build and check every type and named scenario",
             "Build every scenario type (parse, dimension check, compile) and bind every named scenario, "
             "of the shipped catalog or of PATH (a derivation file or folder; a folder holding workloads.toml is a whole "
             "catalog, checked on its own). Exit 1 with the file, "
             "line and reason of the first problem; otherwise print how many were checked.",
             _examples(f"{PROG} check", "the shipped catalog: every type and named scenario"))
    p.add_argument("path", metavar="PATH", nargs="?", help="a derivation file or folder (default: the shipped catalog)")
    p.set_defaults(func=cmd_check)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit code (0; 1 no answer; 2 a bad argument)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:   # argparse: --help, --version (0) or a usage error (2, message already on stderr)
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    try:
        return int(args.func(args) or 0)
    except MlsysimSymbolicError as exc:
        code, words = next((code, words) for cls, code, words in EXIT_STATUS if isinstance(exc, cls))
        print(f"{PROG} {args.command}: {words}{exc}", file=sys.stderr)
        return code
    except BrokenPipeError:   # e.g. piped into head
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the interpreter flushes stdout at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
