"""Reference pages of the solvers and the application scenarios: what each of mlsysim's calls is composed of.

:func:`solvers_markdown` gives one Markdown page: for each solver, mlsysim's signature, the catalog type it binds
(linked to its reference page), what each argument binds, and each result field with the output behind it and
that output's equation.  :func:`applications_markdown` lists the application scenarios with their workload,
system and SLA, and the metric behind each level.  The docs site writes both beside the type pages.

>>> page = solvers_markdown()
>>> print(page.splitlines()[0])
# mlsysim's analytic solvers
>>> "| `latency_overhead` | output `latency_overhead` | $t_{o} = t_{d} + L t_{L}$ |" in page.splitlines()   # SingleNodeModel's
True
"""

from __future__ import annotations

import inspect

from ..catalog import catalog
from ..printing import type_equations
from .applications import Applications
from .base import REQUIRED, WORKLOADS, Arg, Solver


def _cell(text: object) -> str:
    """Text for a Markdown table cell: pipes escaped, one line."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _binds(arg: Arg) -> str:
    if arg.fixed:
        return f"only the default ({arg.note})" if arg.note else "only the default"
    if arg.ignored:
        return f"ignored ({arg.note})" if arg.note else "ignored, as mlsysim ignores it"
    if arg.raises:
        return "raise an OutOfMemoryError when the configuration does not fit"
    if arg.convert is not None:
        return f"expanded into several inputs ({arg.convert.__doc__ or 'see the solver'})".split("\n")[0]
    if arg.indirect:
        return f"read by the solver ({arg.note})" if arg.note else "read by the solver"
    if arg.kinds and set(arg.kinds) != set(WORKLOADS):   # the workload kinds it takes; others are refused by name
        return f"input `{arg.input}`: {' or '.join(arg.kinds)} only ({arg.note})"
    return f"input `{arg.input}`"


def _signature(solver: type[Solver]) -> str:
    params = []
    for arg in solver.arguments:
        params.append(arg.name if arg.default is REQUIRED else f"{arg.name}={arg.default!r}")
    return f"{solver.__name__}().solve({', '.join(params)})"


def _equation(type_name: str, output: str) -> str:
    forms = type_equations(catalog().types[type_name], output)
    if not forms:
        return ""
    first = f"${forms[0][1]}$"
    return first if len(forms) == 1 else f"{first} (and {len(forms) - 1} more cases: see the type's page)"


def solver_markdown(solver: type[Solver]) -> str:
    """The section of one solver: signature, bound type, arguments and result fields with their equations."""
    t = catalog().types[solver.type_name]
    summary = inspect.getdoc(solver) or ""
    lines = [f'<a id="{solver.__name__.lower()}"></a>', "",   # the anchor the table of solvers links (GitHub's and ours)
             f"## `{solver.__name__}`", "", f"`{_signature(solver)}` → `{solver.result_name}`", "",
             summary.split("\n\n")[0].replace("\n", " "), "",
             f"Composition: [{t.name}]({t.name}.md) — {t.summary}", "",
             "| argument | default | binds |", "|---|---|---|"]
    for arg in solver.arguments:
        default = "required" if arg.default is REQUIRED else f"`{arg.default!r}`"
        lines.append(f"| `{arg.name}` | {_cell(default)} | {_cell(_binds(arg))} |")
    lines += ["", "| field | from | equation |", "|---|---|---|"]
    assert t.result is not None
    for field, source, name in t.result.fields:
        if source.equation:   # an output or a tuple of them
            lines.append(f"| `{field}` | output `{name}` | {_cell(_equation(t.name, name))} |")
        else:
            lines.append(f"| `{field}` | {_cell(source)} `{name}` | |")
    for other in (o for (_, _), o in solver.paths):
        lines += ["", f"Another path: {_cell(other.__name__)} over [{other.type_name}]({other.type_name}.md)."]
    return "\n".join(lines) + "\n"


def solvers() -> list[type[Solver]]:
    """The solvers of :mod:`mlsysim_symbolic.solvers`, in name order."""
    from .. import solvers as package

    found = [getattr(package, n) for n in package.__all__]
    return sorted((s for s in found if isinstance(s, type) and issubclass(s, Solver) and s is not Solver),
                  key=lambda s: s.__name__)


def solvers_markdown() -> str:
    """One page: every solver's section, after an index."""
    items = solvers()
    lines = ["# mlsysim's analytic solvers", "",
             f"{len(items)} solvers, each a composition of a checked scenario type: mlsysim 0.3.0's `solve(...)` "
             "signature, its result fields, and the output and equation behind each field. `Engine.solve` is "
             "`SingleNodeModel().solve`.", "", "| solver | result | type |", "|---|---|---|"]
    lines += [f"| [`{s.__name__}`](#{s.__name__.lower()}) | `{s.result_name}` | [{s.type_name}]({s.type_name}.md) |"
              for s in items]
    lines.append("")
    for s in items:
        lines += [solver_markdown(s)]
    return "\n".join(lines).rstrip() + "\n"


#: The solver and output behind each level's computed metrics (mlsysim's ``Scenario.evaluate``).
LEVELS = (
    ("Feasibility", "`SingleNodeModel` `memory_footprint` <= the device's capacity (`feasible`); "
                    "`DataModel` `is_stalled` when the workload has a data rate"),
    ("Performance", "a device: `SingleNodeModel` `latency`, `throughput`, `bottleneck`; a fleet: `DistributedModel` "
                    "`step_latency_total`, `effective_throughput`, `scaling_efficiency`, `fleet_mfu`, `node_mfu`; "
                    "FAIL when the latency exceeds the SLA"),
    ("Macro", "`EconomicsModel` over 365 days (a device as a one-node fleet): `carbon_footprint_kg`, `tco_usd`"),
)


def applications_markdown() -> str:
    """The application scenarios: workload, system, SLA, and what each evaluation level is made of."""
    lines = ["# mlsysim's application scenarios", "",
             f"{len(Applications)} scenarios of `derivations/applications.toml`, reached as `Scenarios.<key>`; "
             "`evaluate(batch_size=1, precision=\"fp16\")` returns three levels, each metric from a checked type.", "",
             "| level | made of |", "|---|---|"]
    lines += [f"| {name} | {_cell(text)} |" for name, text in LEVELS]
    lines += ["", "| key | name | workload | system | SLA | note |", "|---|---|---|---|---|---|"]
    for key, app in Applications.items():
        sla = "—" if app.sla_latency is None else f"{app.sla_latency:~P}"
        lines.append(f"| `{key}` | {_cell(app.name)} | `{_cell(app.workload)}` | `{_cell(app.system)}` | {sla} | "
                     f"{_cell(app.note)} |")
    return "\n".join(lines) + "\n"
