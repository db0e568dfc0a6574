"""The ``mlsysim-symbolic`` command line.

    mlsysim-symbolic list [--family F] [--json]
    mlsysim-symbolic show NAME|TYPE [--markdown]
    mlsysim-symbolic eval NAME [--model M] [--set input=value ...] [--arg argument=value ...] [--json]
    mlsysim-symbolic latex [NAME|TYPE] [--model M] [--siunitx] [--sig N] [--prefix decimal|binary] [--document] [--family F] [-o FILE]
    mlsysim-symbolic sensitivity NAME OUTPUT [--model M] [--arg argument=value ...] [--json]
    mlsysim-symbolic solve NAME OUTPUT INPUT TARGET [--model M] [--sense <=|>=] [--arg argument=value ...] [--json]
    mlsysim-symbolic docs OUT_DIR [NAME|TYPE ...] [--family F]
    mlsysim-symbolic check [PATH]

Errors go to standard error with exit code 2 and name the bad argument (``check``:
exit code 1 and the file, line and reason of the first problem in the catalog);
``main`` returns the exit code (it never calls ``sys.exit`` itself).

>>> main(["solve", "DpSgdPerExampleGradients", "per_batch", "batch_size", "80 GB", "--model", "GPT-2"])
batch_size = 13  (exact 13.33 sample; per_batch <= 80 GB at GPT-2; closed form B = M_batch/(P*b); integer input: floor keeps per_batch <= target)
0
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pint

from . import paper
from . import printing as latex
from .catalog import Catalog, catalog, load_derivations
from .docs import markdown_page, write_docs
from .errors import DerivationError, InputError, MlsysimSymbolicError, UnknownNameError, closest
from .printing import LatexConfig, escape_text
from .units import Q_, parse_quantity

PROG = "mlsysim-symbolic"


class CliError(Exception):
    """A bad command-line argument: printed to stderr, exit code 2."""


def _catalog() -> Catalog:
    return catalog()


def _scenario(name: str) -> Any:
    cat = _catalog()
    if name not in cat.declared:
        hint = closest(name, list(cat.declared), n=5)
        raise CliError(f"NAME: unknown scenario {name!r}" + (f"; closest: {', '.join(hint)}" if hint else "") + f" (see '{PROG} list')")
    return cat.scenario(name)


def _is_type(name: str) -> bool:
    """Whether NAME is a scenario type rather than a named scenario (a named scenario wins a tie)."""
    cat = _catalog()
    if name in cat.declared:
        return False
    if name in cat.info:
        return True
    hint = closest(name, [*cat.declared, *cat.info], n=5)
    raise CliError(f"NAME: unknown scenario or scenario type {name!r}" + (f"; closest: {', '.join(hint)}" if hint else "") + f" (see '{PROG} list')")


def _family(family: str | None) -> None:
    if family is None:
        return
    families = _catalog().families
    if family not in families:
        hint = closest(family, list(families))
        raise CliError(f"--family: unknown family {family!r}; known: {', '.join(sorted(families))}" + (f" (closest: {', '.join(hint)})" if hint else ""))


def _output(s: Any, output: str, arguments: dict[str, Any] | None = None, *, label: str = "OUTPUT") -> Any:
    outputs = s.type.outputs
    if output not in outputs:
        hint = closest(output, list(outputs))
        raise CliError(f"{label}: {s.key if hasattr(s, 'key') else s.type.name} has no output {output!r}; outputs: {', '.join(outputs)}"
                       + (f" (closest: {', '.join(hint)})" if hint else ""))
    spec = outputs[output]
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
    return var.default is not None or bool(var.extra.get("default_input"))


def _arguments(s: Any, pairs: Sequence[str]) -> dict[str, Any]:
    """``--arg name=value`` pairs, checked against the arguments of the scenario's type."""
    arguments = _parse_sets(pairs, option="--arg", example="--arg tau=600s")
    known = s.type.arguments
    for name in arguments:
        if name not in known:
            hint = closest(name, list(known))
            raise CliError(f"--arg: unknown argument {name!r}; "
                           + (f"arguments: {', '.join(known)}" if known else f"{s.type.name} has no method outputs")
                           + (f" (closest: {', '.join(hint)})" if hint else ""))
    return arguments


def _match_key(known: Sequence[Any], model: str, what: str) -> Any:
    for k in known:
        if str(k) == model:
            return k
    hint = closest(model, [str(k) for k in known])
    raise CliError(f"--model: unknown {what} key {model!r}; known: {', '.join(map(str, known))}" + (f" (closest: {', '.join(hint)})" if hint else ""))


def _key(scenario: Any, model: str | None) -> tuple[Any, ...]:
    """The key of the scenario's first keyed input: ``--model``, or the first one."""
    keys = scenario.keys()
    if not keys:
        if model:
            raise CliError(f"--model: scenario {getattr(scenario, 'key', scenario.type.name)} has no keyed inputs")
        return ()
    if model is None:
        return (keys[0],)
    return (_match_key(keys, model, "model"),)


def _output_keys(s: Any, output: str, model: str | None) -> tuple[Any, ...]:
    """Keys for every index of ``output``: ``--model`` for the first, the first key of each other index."""
    try:
        indices = s.planner.plan(output).indices
    except MlsysimSymbolicError as exc:
        raise CliError(f"OUTPUT: {exc}") from None
    if not indices:
        if model:
            raise CliError(f"--model: output {output} is not keyed")
        return ()
    keys = []
    for i, index in enumerate(indices):
        known = s.keys(index)
        if not known:
            raise CliError(f"OUTPUT: {output} needs keyed input {index!r}, which this scenario does not set")
        keys.append(_match_key(known, model, index) if i == 0 and model else known[0])
    return tuple(keys)


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


def _flat(name: str, value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        out: list[tuple[str, Any]] = []
        for k, v in value.items():
            out += _flat(f"{name}[{k}]", v)
        return out
    return [(name, value)]


def _show_value(v: Any) -> str:
    return f"{v:~.6gP}" if isinstance(v, pint.Quantity) else str(v)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str))


# ---------------------------------------------------------------------- commands
def cmd_list(args: argparse.Namespace) -> int:
    """``list``: the catalog by family (types, summaries, named scenarios)."""
    cat = _catalog()
    _family(args.family)
    families = {f: types for f, types in sorted(cat.families.items()) if not args.family or f == args.family}
    info = cat.info   # metadata only: listing builds no type
    if args.json:
        _print_json({fam: {"title": cat.titles.get(fam, fam),
                           "types": {t: {"summary": info[t].summary, "scenarios": cat.scenarios_of(t)} for t in types}}
                     for fam, types in families.items()})
        return 0
    for fam, types in families.items():
        print(f"{fam} ({len(types)} types): {cat.titles.get(fam, fam)}")
        for t in types:
            print(f"  {t}: {info[t].summary}")
            for k in cat.scenarios_of(t):
                print(f"    - {k}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``show``: the reference page of a type, or of a named scenario's type with its values and substituted lines."""
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
    for name, out in s.type.outputs.items():
        if out.arguments:
            print(f"{name}(...): a method of {', '.join(out.arguments)}")
            continue
        try:
            value = s.planner.member(name)
        except (MlsysimSymbolicError, TypeError) as exc:
            print(f"{name}: not applicable ({exc})")
            continue
        for label, v in _flat(name, value):
            print(f"{label} = {_show_value(v)}")
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
        except ValueError:
            try:
                changes[k] = float(v)
            except ValueError:
                changes[k] = v
    return changes


def cmd_eval(args: argparse.Namespace) -> int:
    """``eval``: every output of a scenario (keyed outputs at ``--model``, or for every key)."""
    s = _scenario(args.name)
    changes = _parse_sets(args.set or [])
    if changes:
        unknown = [k for k in changes if k not in s.type.inputs]
        if unknown:
            hint = closest(unknown[0], list(s.type.inputs))
            raise CliError(f"--set: unknown input {unknown[0]!r}; inputs: {', '.join(s.type.inputs)}" + (f" (closest: {', '.join(hint)})" if hint else ""))
        try:
            s = s.variant(**changes)
        except (MlsysimSymbolicError, TypeError, ValueError) as exc:
            raise CliError(f"--set: {exc}") from None
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
            except InputError as exc:
                raise CliError(f"--arg: {exc}") from None
            except (MlsysimSymbolicError, TypeError):
                continue
        else:
            try:
                value = s.planner.member(name)
            except (MlsysimSymbolicError, TypeError):
                continue
        if model is not None and isinstance(value, dict) and model in value:
            value = value[model]
        values[name] = value
    if args.json:
        _print_json({"scenario": args.name, "type": s.type.name, "key": model, "set": changes,
                     "arguments": arguments, "values": _quantity_json(values)})
        return 0
    for name, value in values.items():
        for label, v in _flat(name, value):
            print(f"{label} = {_show_value(v)}")
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
        raise CliError(f"--sig: {exc}") from None


def cmd_latex(args: argparse.Namespace) -> int:
    """``latex``: a scenario's (or a type's) LaTeX, or (``--document``) a complete document of the catalog or a family."""
    config = _latex_config(args)
    if args.family and args.name:
        raise CliError("--family: selects the family of a --document; leave out NAME (or leave out --family)")
    if args.family:
        _family(args.family)
    if args.name is None and not (args.document or args.family):
        raise CliError("NAME: a scenario name is required unless --document (or --family) is given")
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
        keys = _key(s, args.model) if args.model else ()
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
        raise CliError(f"--arg: {exc}") from None
    if args.json:
        _print_json({"scenario": args.name, "output": args.output, "keys": list(keys),
                     "elasticities": [{"input": r.input, "symbol": str(r.symbol), "elasticity": str(r.expression), "value": _number_json(r.value),
                                       "derivative": str(r.derivative), "derivative_value": _quantity_json(r.derivative_value)} for r in rows]})
        return 0
    for r in rows:
        print(f"{r.input:>28s}  {str(r.symbol):>10s}  {r.value:+.4f}   {r.expression}")
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve``: the value of INPUT at which OUTPUT reaches TARGET (integers rounded on the feasible side)."""
    s = _scenario(args.name)
    arguments = _arguments(s, args.arg or [])
    spec = _output(s, args.output, arguments)
    keys = _output_keys(s, args.output, args.model)
    unit = spec.variable.unit
    try:
        number: float | None = float(args.target)
    except ValueError:
        number = None
    if number is not None:
        target_q = Q_(number, unit)
        shown_target = f"{number:g} {spec.variable.unit_text}"
    else:
        try:
            target_q = parse_quantity(args.target, name="TARGET")
        except InputError as exc:
            raise CliError(str(exc) if str(exc).startswith("TARGET") else f"TARGET: {exc}") from None
        if target_q.dimensionality != unit.dimensionality:
            raise CliError(f"TARGET: {args.output} is in {spec.variable.unit_text} ({unit.dimensionality}); "
                           f"got {args.target!r} ({target_q.units.dimensionality or 'dimensionless'})")
        shown_target = args.target
    if not math.isfinite(float(target_q.magnitude)):
        raise CliError(f"TARGET: must be finite, got {args.target!r}")
    inputs = _plan_inputs(s, args.output)
    if args.input not in inputs:
        hint = closest(args.input, inputs)
        raise CliError(f"INPUT: {args.output} does not depend on {args.input!r}; its inputs: {', '.join(inputs)}" + (f" (closest: {', '.join(hint)})" if hint else ""))
    try:
        sol = s.solve(args.output, args.input, target_q, *keys, sense=args.sense, **arguments)
    except MlsysimSymbolicError as exc:
        raise CliError(f"no solution: {exc}") from None
    where = f" at {', '.join(map(str, keys))}" if keys else ""
    if args.json:
        _print_json({"scenario": args.name, "output": args.output, "input": args.input, "target": _quantity_json(target_q),
                     "sense": args.sense, "keys": list(keys), "value": _quantity_json(sol.value), "exact": _quantity_json(sol.exact),
                     "expression": None if sol.expression is None else str(sol.expression), "method": sol.method, "note": sol.note})
        return 0
    how = f"closed form {sol.symbol} = {sol.expression}" if sol.expression is not None else sol.method
    print(f"{args.input} = {_show_value(sol.value)}  (exact {sol.exact:~.4gP}; {args.output} {args.sense} {shown_target}{where}; {how}"
          + (f"; {sol.note}" if sol.note else "") + ")")
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
    """``docs``: one Markdown reference page per scenario type (or per TYPE given) and an index, into OUT_DIR."""
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
        cat = _catalog() if path is None else load_derivations(path, standalone=(path / "workloads.toml").is_file())
        report = cat.check()
    except DerivationError as exc:
        print(f"{PROG} check: {exc}", file=sys.stderr)
        return 1
    where = args.path or "the shipped catalog"
    print(f"{where}: {report}")
    return 0


# ---------------------------------------------------------------------- the parser
def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (each has ``--help``).

    >>> args = build_parser().parse_args(["solve", "DpSgdPerExampleGradients", "per_batch", "batch_size", "80 GB", "--sense", ">="])
    >>> args.command, args.target, args.sense
    ('solve', '80 GB', '>=')
    """
    parser = argparse.ArgumentParser(prog=PROG, description="ML-systems equations as SymPy trees with units: numbers, LaTeX and sensitivities.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="list the catalog by family", description="List the scenario types and named scenarios, by family.")
    p.add_argument("--family", help="only this family")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="a scenario's (or a type's) reference page, values and LaTeX",
                       description="Print the reference page of a scenario type, or of a named scenario's type with its values "
                                   "and its substituted lines.")
    p.add_argument("name", metavar="NAME", help="a named scenario or a scenario type (see 'list')")
    p.add_argument("--markdown", action="store_true", help="print the Markdown reference page instead")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("eval", help="evaluate every output of a scenario", description="Evaluate every output of a named scenario.")
    p.add_argument("name", metavar="NAME", help="a named scenario (see 'list')")
    p.add_argument("--model", help="the key (model name) of keyed outputs (default: every key)")
    p.add_argument("--set", action="append", metavar="INPUT=VALUE", help="change an input (repeatable), e.g. --set batch_size=1024 --set 'bytes_per_param=2 B'")
    p.add_argument("--arg", action="append", metavar="ARGUMENT=VALUE",
                   help="an argument of method outputs (repeatable), e.g. --arg tau=600s: the methods it completes are evaluated too")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("latex", help="LaTeX for a scenario, or a document of the catalog",
                       description="Print a LaTeX fragment of a named scenario, or with --document a complete document "
                                   "(one section per scenario type) of the whole catalog or one --family.")
    p.add_argument("name", metavar="NAME", nargs="?", help="a named scenario or a scenario type (optional with --document)")
    p.add_argument("--model", help="only this key (model name) of keyed outputs (default: every key)")
    p.add_argument("--siunitx", action="store_true", help="units as siunitx \\qty{}{} (the document preamble declares the non-SI units)")
    p.add_argument("--sig", type=int, default=4, help="significant figures (default 4)")
    p.add_argument("--prefix", choices=("decimal", "binary"), default=None, help="prefixes of results: SI or, for bytes, binary (default: as each output declares)")
    p.add_argument("--document", action="store_true", help="a complete LaTeX document (of NAME's type, the --family, or the whole catalog)")
    p.add_argument("--family", help="with --document: only this family")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(func=cmd_latex)

    p = sub.add_parser("sensitivity", help="elasticities of an output, ranked", description="Elasticities d ln(OUTPUT) / d ln(input), ranked.")
    p.add_argument("name", metavar="NAME", help="a named scenario")
    p.add_argument("output", metavar="OUTPUT", help="one of its outputs")
    p.add_argument("--model", help="the key (model name) of a keyed output (default: the first)")
    p.add_argument("--arg", action="append", metavar="ARGUMENT=VALUE", help="an argument of a method OUTPUT (repeatable), e.g. --arg tau=600s")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_sensitivity)

    p = sub.add_parser("solve", help="the input value at which an output reaches a target",
                       description="Solve OUTPUT(INPUT) = TARGET for INPUT, symbolically where possible; an integer input is "
                                   "rounded on the side that keeps OUTPUT --sense TARGET.")
    p.add_argument("name", metavar="NAME", help="a named scenario")
    p.add_argument("output", metavar="OUTPUT", help="one of its outputs")
    p.add_argument("input", metavar="INPUT", help="the input to solve for, e.g. batch_size")
    p.add_argument("target", metavar="TARGET", help="the target of OUTPUT, e.g. '80 GB' (a bare number is in OUTPUT's unit)")
    p.add_argument("--model", help="the key (model name) of a keyed output (default: the first)")
    p.add_argument("--sense", choices=("<=", ">="), default="<=", help="the constraint OUTPUT <= TARGET (default) or >= TARGET")
    p.add_argument("--arg", action="append", metavar="ARGUMENT=VALUE", help="an argument of a method OUTPUT (repeatable), e.g. --arg factor=2")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("docs", help="write the Markdown reference pages", description="Write one Markdown reference page per scenario type and index.md.")
    p.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write into (created if missing)")
    p.add_argument("names", metavar="NAME", nargs="*", help="only these scenario types (or the types of these named scenarios)")
    p.add_argument("--family", help="only this family")
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("check", help="build and check every type and named scenario",
                       description="Build every scenario type (parse, dimension check, compile) and bind every named scenario, "
                                   "of the shipped catalog or of PATH (a derivation file or folder; a folder holding workloads.toml is a whole "
                                   "catalog, checked on its own). Exit 1 with the file, "
                                   "line and reason of the first problem; otherwise print how many were checked.")
    p.add_argument("path", metavar="PATH", nargs="?", help="a derivation file or folder (default: the shipped catalog)")
    p.set_defaults(func=cmd_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit code (0, or 2 on a bad argument)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:   # argparse: --help (0) or a usage error (2, message already on stderr)
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    try:
        return int(args.func(args) or 0)
    except (CliError, MlsysimSymbolicError, UnknownNameError) as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:   # e.g. piped into head
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the interpreter flushes stdout at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
