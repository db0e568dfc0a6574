"""The ``mlsysim-symbolic`` command line.

    mlsysim-symbolic list [--family F] [--json]
    mlsysim-symbolic show NAME [--markdown]
    mlsysim-symbolic eval NAME [--model M] [--set input=value ...] [--json]
    mlsysim-symbolic latex [NAME] [--model M] [--siunitx] [--sig N] [--prefix decimal|binary] [--document] [--family F] [-o FILE]
    mlsysim-symbolic sensitivity NAME OUTPUT [--model M] [--json]
    mlsysim-symbolic solve NAME OUTPUT INPUT TARGET [--model M] [--sense <=|>=] [--json]
    mlsysim-symbolic docs OUT_DIR [--family F]

Errors go to standard error with exit code 2 and name the bad argument;
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

from .errors import InputError, MlsysimSymbolicError, UnknownNameError, closest

PROG = "mlsysim-symbolic"


class CliError(Exception):
    """A bad command-line argument: printed to stderr, exit code 2."""


def _catalog() -> Any:
    from .catalog import catalog

    return catalog()


def _scenario(name: str) -> Any:
    cat = _catalog()
    if name not in cat.declared:
        hint = closest(name, list(cat.declared), n=5)
        raise CliError(f"NAME: unknown scenario {name!r}" + (f"; closest: {', '.join(hint)}" if hint else "") + f" (see '{PROG} list')")
    return cat.scenario(name)


def _family(family: str | None) -> None:
    if family is None:
        return
    families = _catalog().families
    if family not in families:
        hint = closest(family, list(families))
        raise CliError(f"--family: unknown family {family!r}; known: {', '.join(sorted(families))}" + (f" (closest: {', '.join(hint)})" if hint else ""))


def _output(s: Any, output: str, *, label: str = "OUTPUT") -> Any:
    outputs = s.type.outputs
    if output not in outputs:
        hint = closest(output, list(outputs))
        raise CliError(f"{label}: {s.key if hasattr(s, 'key') else s.type.name} has no output {output!r}; outputs: {', '.join(outputs)}"
                       + (f" (closest: {', '.join(hint)})" if hint else ""))
    spec = outputs[output]
    if spec.arguments:
        raise CliError(f"{label}: {output} is a method of {', '.join(spec.arguments)}; the command line evaluates outputs without arguments")
    return spec


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
    if args.json:
        _print_json({fam: {"title": cat.titles.get(fam, fam),
                           "types": {t: {"summary": cat.types[t].summary,
                                         "scenarios": [k for k, d in cat.declared.items() if d.type_name == t]} for t in types}}
                     for fam, types in families.items()})
        return 0
    for fam, types in families.items():
        print(f"{fam} ({len(types)} types): {cat.titles.get(fam, fam)}")
        for t in types:
            print(f"  {t}: {cat.types[t].summary}")
            for k in (k for k, d in cat.declared.items() if d.type_name == t):
                print(f"    - {k}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``show``: the reference page of a scenario's type, its values and substituted lines."""
    from . import printing as latex
    from .docs import markdown_page

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


def _parse_sets(pairs: Sequence[str]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(f"--set: {pair!r} is not input=value (e.g. --set batch_size=1024)")
        k, v = pair.split("=", 1)
        k = k.strip()
        v = v.strip()
        if not k or not v:
            raise CliError(f"--set: {pair!r} is not input=value (e.g. --set batch_size=1024)")
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
    model = _key(s, args.model)[0] if args.model else None
    values: dict[str, Any] = {}
    for name, out in s.type.outputs.items():
        if out.arguments:
            continue
        try:
            value = s.planner.member(name)
        except (MlsysimSymbolicError, TypeError):
            continue
        if model is not None and isinstance(value, dict) and model in value:
            value = value[model]
        values[name] = value
    if args.json:
        _print_json({"scenario": args.name, "type": s.type.name, "key": model, "set": changes, "values": _quantity_json(values)})
        return 0
    for name, value in values.items():
        for label, v in _flat(name, value):
            print(f"{label} = {_show_value(v)}")
    return 0


def _latex_config(args: argparse.Namespace) -> Any:
    from .printing import LatexConfig

    try:
        return LatexConfig(siunitx=args.siunitx, sig=args.sig, prefix=args.prefix)
    except InputError as exc:
        raise CliError(f"--sig: {exc}") from None


def cmd_latex(args: argparse.Namespace) -> int:
    """``latex``: a scenario's LaTeX fragment, or (``--document``) a complete document of the catalog or a family."""
    from . import paper
    from .printing import escape_text

    config = _latex_config(args)
    if args.family and args.name:
        raise CliError("--family: selects the family of a --document; leave out NAME (or leave out --family)")
    if args.family:
        _family(args.family)
    if args.name is None and not (args.document or args.family):
        raise CliError("NAME: a scenario name is required unless --document (or --family) is given")
    if args.name is not None:
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
    _output(s, args.output)
    keys = _output_keys(s, args.output, args.model)
    rows = s.elasticities(args.output, *keys)
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
    from .units import Q_, parse_quantity

    s = _scenario(args.name)
    spec = _output(s, args.output)
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
        sol = s.solve(args.output, args.input, target_q, *keys, sense=args.sense)
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
    """``docs``: one Markdown reference page per scenario type and an index, into OUT_DIR."""
    from .docs import write_docs

    _family(args.family)
    out = Path(args.out_dir)
    if out.exists() and not out.is_dir():
        raise CliError(f"OUT_DIR: {args.out_dir!r} exists and is not a directory")
    try:
        paths = write_docs(out, _catalog(), family=args.family)
    except OSError as exc:
        raise CliError(f"OUT_DIR: cannot write into {args.out_dir!r}: {exc.strerror}") from None
    print(f"wrote {len(paths) - 1} pages and {paths[-1]}")
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

    p = sub.add_parser("show", help="a scenario's reference page, values and LaTeX",
                       description="Print the reference page of a named scenario's type, its values and its substituted lines.")
    p.add_argument("name", metavar="NAME", help="a named scenario (see 'list')")
    p.add_argument("--markdown", action="store_true", help="print the Markdown reference page instead")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("eval", help="evaluate every output of a scenario", description="Evaluate every output of a named scenario.")
    p.add_argument("name", metavar="NAME", help="a named scenario (see 'list')")
    p.add_argument("--model", help="the key (model name) of keyed outputs (default: every key)")
    p.add_argument("--set", action="append", metavar="INPUT=VALUE", help="change an input (repeatable), e.g. --set batch_size=1024 --set 'bytes_per_param=2 B'")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("latex", help="LaTeX for a scenario, or a document of the catalog",
                       description="Print a LaTeX fragment of a named scenario, or with --document a complete document "
                                   "(one section per scenario type) of the whole catalog or one --family.")
    p.add_argument("name", metavar="NAME", nargs="?", help="a named scenario (optional with --document)")
    p.add_argument("--model", help="only this key (model name) of keyed outputs (default: every key)")
    p.add_argument("--siunitx", action="store_true", help="units as siunitx \\qty{}{} (the document preamble declares the non-SI units)")
    p.add_argument("--sig", type=int, default=4, help="significant figures (default 4)")
    p.add_argument("--prefix", choices=("decimal", "binary"), default="decimal", help="automatic prefixes of results: SI or, for bytes, binary")
    p.add_argument("--document", action="store_true", help="a complete LaTeX document (of NAME's type, the --family, or the whole catalog)")
    p.add_argument("--family", help="with --document: only this family")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(func=cmd_latex)

    p = sub.add_parser("sensitivity", help="elasticities of an output, ranked", description="Elasticities d ln(OUTPUT) / d ln(input), ranked.")
    p.add_argument("name", metavar="NAME", help="a named scenario")
    p.add_argument("output", metavar="OUTPUT", help="one of its outputs")
    p.add_argument("--model", help="the key (model name) of a keyed output (default: the first)")
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
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("docs", help="write the Markdown reference pages", description="Write one Markdown reference page per scenario type and index.md.")
    p.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write into (created if missing)")
    p.add_argument("--family", help="only this family")
    p.set_defaults(func=cmd_docs)
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
