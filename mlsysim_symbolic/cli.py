"""The ``mlsysim-symbolic`` command line.

    mlsysim-symbolic list [--family F] [--json]
    mlsysim-symbolic show NAME
    mlsysim-symbolic eval NAME [--model M] [--set input=value ...] [--json]
    mlsysim-symbolic latex NAME [--siunitx]
    mlsysim-symbolic sensitivity NAME OUTPUT [--model M] [--json]

Errors go to standard error with exit code 2 and name the bad argument.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import pint

from .errors import MlsysimSymbolicError, UnknownNameError, closest


class CliError(Exception):
    """A bad command-line argument: printed to stderr, exit code 2."""


def _catalog() -> Any:
    from .catalog import catalog

    return catalog()


def _scenario(name: str) -> Any:
    cat = _catalog()
    if name not in cat.declared:
        hint = closest(name, list(cat.declared), n=5)
        raise CliError(f"unknown scenario {name!r}" + (f"; closest: {', '.join(hint)}" if hint else "") + " (see 'mlsysim-symbolic list')")
    return cat.scenario(name)


def _key(scenario: Any, model: str | None) -> tuple[Any, ...]:
    keys = scenario.keys()
    if not keys:
        if model:
            raise CliError(f"--model: scenario {scenario.key} has no keyed inputs")
        return ()
    if model is None:
        return (keys[0],)
    for k in keys:
        if str(k) == model:
            return (k,)
    raise CliError(f"--model: unknown key {model!r}; known: {', '.join(map(str, keys))}")


def _quantity_json(q: Any) -> Any:
    if isinstance(q, pint.Quantity):
        return {"value": q.magnitude, "unit": f"{q.units:~C}" or "1"}
    if isinstance(q, dict):
        return {str(k): _quantity_json(v) for k, v in q.items()}
    return q


def cmd_list(args: argparse.Namespace) -> int:
    cat = _catalog()
    families = cat.families
    if args.family and args.family not in families:
        hint = closest(args.family, list(families))
        raise CliError(f"--family: unknown family {args.family!r}; known: {', '.join(sorted(families))}" + (f" (closest: {', '.join(hint)})" if hint else ""))
    if args.json:
        out = {}
        for fam, types in sorted(families.items()):
            if args.family and fam != args.family:
                continue
            out[fam] = {t: [k for k, d in cat.declared.items() if d.type_name == t] for t in types}
        print(json.dumps(out, indent=2))
        return 0
    for fam, types in sorted(families.items()):
        if args.family and fam != args.family:
            continue
        print(f"{fam} ({len(types)} types)")
        for t in types:
            names = [k for k, d in cat.declared.items() if d.type_name == t]
            print(f"  {t}: {cat.types[t].summary}")
            for k in names:
                print(f"    - {k}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from . import latex

    s = _scenario(args.name)
    keys = s.keys()
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
            value = s._member(name)
        except MlsysimSymbolicError as exc:
            print(f"{name}: not applicable ({exc})")
            continue
        if isinstance(value, dict):
            for k, v in value.items():
                print(f"{name}[{k}] = {v:~.6g}" if isinstance(v, pint.Quantity) else f"{name}[{k}] = {v}")
        else:
            print(f"{name} = {value:~.6g}")
    print()
    print("LaTeX")
    print("-----")
    for name, out in s.type.outputs.items():
        if out.arguments:
            continue
        use = keys[:1] if out.indices else []
        for k in (keys if out.indices else [None]):
            try:
                print(latex.substituted(s, name, *([k] if k is not None else [])))
            except MlsysimSymbolicError:
                break
        del use
    return 0


def _parse_sets(pairs: Sequence[str]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(f"--set: {pair!r} is not input=value")
        k, v = pair.split("=", 1)
        k = k.strip()
        v = v.strip()
        try:
            changes[k] = int(v)
        except ValueError:
            try:
                changes[k] = float(v)
            except ValueError:
                changes[k] = v
    return changes


def cmd_eval(args: argparse.Namespace) -> int:
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
    keys = _key(s, args.model)
    values = {}
    for name, out in s.type.outputs.items():
        if out.arguments:
            continue
        try:
            if out.style == "dict":
                values[name] = s._member(name)
            else:
                values[name] = s.evaluate(name, *keys[: len(out.indices)])
        except MlsysimSymbolicError:
            continue
    if args.json:
        print(json.dumps({"scenario": args.name, "key": keys[0] if keys else None, "values": _quantity_json(values)}, indent=2, default=str))
        return 0
    for name, v in values.items():
        print(f"{name} = {v:~.6g}" if isinstance(v, pint.Quantity) else f"{name} = {_quantity_json(v)}")
    return 0


def cmd_latex(args: argparse.Namespace) -> int:
    from . import latex

    s = _scenario(args.name)
    config = latex.LatexConfig(siunitx=args.siunitx)
    keys = _key(s, args.model)
    print(latex.align(s, *keys, config=config))
    return 0


def cmd_sensitivity(args: argparse.Namespace) -> int:
    s = _scenario(args.name)
    if args.output not in s.type.outputs:
        hint = closest(args.output, list(s.type.outputs))
        raise CliError(f"OUTPUT: {args.name} has no output {args.output!r}; outputs: {', '.join(s.type.outputs)}" + (f" (closest: {', '.join(hint)})" if hint else ""))
    keys = _key(s, args.model)
    rows = s.elasticities(args.output, *keys[: len(s.type.outputs[args.output].indices)])
    if args.json:
        print(json.dumps([{"input": r.input, "symbol": str(r.symbol), "elasticity": str(r.expression), "value": r.value} for r in rows], indent=2))
        return 0
    for r in rows:
        print(f"{r.input:>28s}  {str(r.symbol):>10s}  {r.value:+.4f}   {r.expression}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mlsysim-symbolic", description="ML-systems equations as SymPy trees with units.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("list", help="list the catalog by family")
    p.add_argument("--family", help="only this family")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("show", help="a scenario's reference page, values and LaTeX")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("eval", help="evaluate every output of a scenario")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--model", help="the key (model name) of keyed outputs")
    p.add_argument("--set", action="append", metavar="INPUT=VALUE", help="change an input (repeatable), e.g. --set batch_size=1024")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_eval)
    p = sub.add_parser("latex", help="LaTeX for a scenario")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--model", help="the key (model name) of keyed outputs")
    p.add_argument("--siunitx", action="store_true", help="units as siunitx \\qty{}{}")
    p.set_defaults(func=cmd_latex)
    p = sub.add_parser("sensitivity", help="elasticities of an output, ranked")
    p.add_argument("name", metavar="NAME")
    p.add_argument("output", metavar="OUTPUT")
    p.add_argument("--model", help="the key (model name) of keyed outputs")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_sensitivity)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"mlsysim-symbolic {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (MlsysimSymbolicError, UnknownNameError) as exc:
        print(f"mlsysim-symbolic {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
