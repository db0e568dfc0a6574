"""Paper-ready LaTeX (issue 14), table-driven: each row renders one thing and compares it with a string written by hand.

Rows cover scientific notation past the prefixes that read well (10^23 FLOP), SI prefixes up to
quetta (6 ZB), a declared GiB output kept in GiB in Python, LaTeX, siunitx and Markdown, one
radical for a product of square roots (Young's interval), the declared order of terms, a symbol
table whose meaning holds a floor division, and energy per bit written pJ/bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from mlsysim_symbolic import InputError, Scenarios
from mlsysim_symbolic import printing as L
from mlsysim_symbolic.docs import markdown_page
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import ScenarioType
from mlsysim_symbolic.units import Q_

#: A tiny type for numbers no named scenario reaches: GPT-3-scale training compute, a 6 ZB corpus, a GiB output.
SCALE = ScenarioType.from_mapping("PaperScale", {
    "inputs": {
        "params": {"symbol": "P", "unit": "param", "meaning": "parameters"},
        "tokens": {"symbol": "D", "unit": "token", "meaning": "training tokens"},
        "flops_per": {"symbol": "c", "unit": "flop/param/token", "default": 6, "meaning": "FLOP per parameter per token"},
        "corpus": {"symbol": "V", "unit": "B", "meaning": "corpus bytes"},
        "hbm": {"symbol": "H", "unit": "GiB", "meaning": "memory per device"},
    },
    "outputs": {
        "compute": {"symbol": "C", "unit": "flop", "equation": "c * P * D"},
        "stored": {"symbol": "S_c", "latex": "S_{c}", "unit": "B", "equation": "V * 1"},
        "memory": {"symbol": "M", "unit": "GiB", "equation": "2 * H"},
        "larger": {"symbol": "X", "unit": "B", "equation": "max(V, H)"},
    }})
GPT3 = scenario_class(SCALE)(name="GPT-3 scale", params=1.75e11, tokens=3e11, corpus="6e21 B", hbm="8 GiB")


@dataclass(frozen=True)
class Case:
    id: str
    render: Callable[[], str]
    expected: str


CASES = [
    # ---- scientific notation beyond the prefixes that read well for FLOP (exa); prefixes to quetta for bytes
    Case("1e23 FLOP", lambda: L.format_quantity(Q_(1e23, "flop"), compact=True), r"10^{23}\,\mathrm{FLOP}"),
    Case("5.88e23 FLOP", lambda: L.format_quantity(Q_(5.88e23, "flop"), L.LatexConfig(sig=3), compact=True),
         r"5.88 \times 10^{23}\,\mathrm{FLOP}"),
    Case("5.88e23 FLOP siunitx", lambda: L.format_quantity(Q_(5.88e23, "flop"), L.LatexConfig(siunitx=True), compact=True),
         r"\qty{5.88e23}{\flop}"),
    Case("4e18 FLOP is exa", lambda: L.format_quantity(Q_(4e18, "flop"), compact=True), r"4\,\mathrm{EFLOP}"),
    Case("training compute", lambda: L.substituted(GPT3, "compute"),
         r"C = c P D = 6\,\mathrm{FLOP/(param\cdot token)} \cdot 1.75 \times 10^{11} \cdot 3 \times 10^{11} = 3.15 \times 10^{23}\,\mathrm{FLOP}"),
    Case("6e21 B", lambda: L.format_quantity(Q_(6e21, "B"), compact=True), r"6\,\mathrm{ZB}"),
    Case("6e21 B siunitx", lambda: L.format_quantity(Q_(6e21, "B"), L.LatexConfig(siunitx=True), compact=True), r"\qty{6}{\zetta\byte}"),
    Case("3e27 B", lambda: L.format_quantity(Q_(3e27, "B"), compact=True), r"3\,\mathrm{RB}"),
    Case("2e30 B siunitx", lambda: L.format_quantity(Q_(2e30, "B"), L.LatexConfig(siunitx=True), compact=True), r"\qty{2}{\quetta\byte}"),
    Case("5e33 B beyond quetta", lambda: L.format_quantity(Q_(5e33, "B"), compact=True), r"5 \times 10^{33}\,\mathrm{B}"),
    Case("prefixes capped at exa", lambda: L.format_quantity(Q_(6e21, "B"), L.LatexConfig(prefixes=(-12, 18)), compact=True),
         r"6 \times 10^{21}\,\mathrm{B}"),
    Case("positional range widened", lambda: L.format_quantity(Q_(1.5e7, "h"), L.LatexConfig(positional=(1e-3, 1e9))),
         r"15000000\,\mathrm{h}"),
    Case("corpus line", lambda: L.substituted(GPT3, "stored"), r"S_{c} = V = 6 \times 10^{21}\,\mathrm{B} = 6\,\mathrm{ZB}"),
    # ---- a declared GiB output stays GiB (16.0 GiB in Python), binary in siunitx too
    Case("GiB output", lambda: L.substituted(GPT3, "memory"), r"M = 2 H = 2 \cdot 8\,\mathrm{GiB} = 16\,\mathrm{GiB}"),
    Case("GiB output siunitx", lambda: L.substituted(GPT3, "memory", siunitx=True),
         r"M = 2 H = 2 \cdot \qty{8}{\gibi\byte} = \qty{16}{\gibi\byte}"),
    Case("GiB result", lambda: L.result(Scenarios.Llama3_70BLongContextAdmissionDgxH100, "hbm_total"), r"640\,\mathrm{GiB}"),
    Case("GiB result siunitx", lambda: L.result(Scenarios.Llama3_70BLongContextAdmissionDgxH100, "hbm_total", siunitx=True),
         r"\qty{640}{\gibi\byte}"),
    Case("GiB beyond 1000 moves among binary prefixes", lambda: L.format_quantity(Q_(2048, "GiB"), compact=True), r"2\,\mathrm{TiB}"),
    Case("GiB asked for in decimal", lambda: L.format_quantity(Q_(16, "GiB"), L.LatexConfig(prefix="decimal"), compact=True),
         r"17.18\,\mathrm{GB}"),
    # ---- one radical for a product of square roots
    Case("Young's interval", lambda: L.equation(Scenarios.Gpt3CheckpointInterval10K, "interval"), r"\tau^{*} = \sqrt{2 \delta M}"),
    Case("Young's interval expanded", lambda: L.equation(Scenarios.Gpt3CheckpointInterval10K, "interval", expand=True),
         r"\tau^{*} = \sqrt{\frac{2 P b M}{B_{w}}}"),
    Case("roots in numerator and denominator", lambda: L.equation(Scenarios.Gpt3CheckpointInterval10K, "write_share", expand=True),
         r"W_{\mathrm{write}} = \frac{\sqrt{2 P b}}{2 \sqrt{B_{w} M}}"),
    # ---- terms in the order of the equation text ("2 * L * n_kv * d_h * b_kv", "(1 - a) * D", "lam * W")
    Case("KV bytes per token", lambda: L.equation(Scenarios.Llama3_70BLongContextAdmissionDgxH100, "kv_per_token"),
         r"m_{t} = n_{V} L n_{kv} d_{h} b_{kv}"),   # n_V = 2 vectors (K and V) per token, declared as a counted constant
    Case("KV bytes per token, numbers in the same order", lambda: L.substituted(Scenarios.Llama3_70BLongContextAdmissionDgxH100, "kv_per_token"),
         r"m_{t} = n_{V} L n_{kv} d_{h} b_{kv} = n_{V} L n_{kv} \left\lfloor \frac{h}{a} \right\rfloor b_{kv}"
         r" = 2 \cdot 80 \cdot 8 \cdot \left\lfloor \frac{8192}{64} \right\rfloor \cdot 2\,\mathrm{B} = 327.7\,\mathrm{kB/token}"),
    Case("downtime", lambda: L.equation(Scenarios.FourNinesAvailability10K, "downtime"), r"T_{\mathrm{down}} = \left(1 - a\right) D"),
    Case("max in declared order", lambda: L.equation(GPT3, "larger"), r"X = \max\left(V, H\right)"),   # SymPy sorts: H, V
    Case("Little's law", lambda: L.equation(Scenarios.VisionServingLittlesLaw, "in_flight"), r"L = \lambda W"),
    # ---- symbol tables: a floor division reads as math, a bit as bit
    Case("floor division in a meaning", lambda: [r for r in L.symbol_table(Scenarios.Llama3_70B_ServingH100).to_latex().splitlines()
                                                  if r.startswith("$d_{h}$")][0],
         r"$d_{h}$ & head width of the KV cache (head\_dim or $\lfloor$hidden\_dim / heads$\rfloor$) & $\mathrm{count}$ \\"),
    Case("floor division in Markdown", lambda: [r for r in L.symbol_table(Scenarios.Llama3_70B_ServingH100).to_markdown().splitlines()
                                                 if r.startswith("| $d_{h}$")][0],
         "| $d_{h}$ | head width of the KV cache (head_dim or ⌊hidden_dim / heads⌋) | $\\mathrm{count}$ |"),
    Case("pJ/bit in a symbol table", lambda: [r for r in L.symbol_table(Scenarios.Gpt3GradientSync).rows if r[0] == r"e_{\mathrm{bit}}"][0][2],
         r"\mathrm{pJ/bit}"),
    Case("pJ/bit in a substituted line", lambda: L.substituted(Scenarios.Gpt3GradientSync, "energy_per_step"),
         r"E_{\mathrm{step}} = V e_{\mathrm{bit}} = k_{\mathrm{ring}} P b_{\mathrm{fp16}} e_{\mathrm{bit}}"
         r" = 2 \cdot 1.75 \times 10^{11} \cdot 2\,\mathrm{B/param} \cdot 35\,\mathrm{pJ/bit} = 196\,\mathrm{J}"),
    Case("pJ/bit siunitx", lambda: L.format_unit("pJ/bit", siunitx=True), r"\unit{\pico\joule\per\bit}"),
    Case("Gbit/s", lambda: L.format_unit("Gbit/s"), r"\mathrm{Gbit/s}"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_paper_ready(case):
    assert str(case.render()) == case.expected


def test_a_gib_output_reads_the_same_in_python_latex_siunitx_and_markdown():
    s = Scenarios.Llama3_70BLongContextAdmissionDgxH100
    assert f"{s.hbm_total.units:~C}" == "GiB" and s.hbm_total.magnitude == 640    # Python
    page = markdown_page("KvAdmissionScenario")
    assert r"M_{\mathrm{HBM}} &= n H = 8 \cdot 80\,\mathrm{GiB} = 640\,\mathrm{GiB}" in page   # Markdown


def test_symbol_order_follows_the_text_with_outputs_inlined():
    t = Scenarios.Gpt3CheckpointInterval10K.type
    order = L.symbol_order(t, "interval")            # "sqrt(2 * delta * M)", delta = "S_ckpt / B_w", S_ckpt = "P * b"
    names = [s.name for s in sorted(order, key=order.get)]
    assert names.index("delta") < names.index("M") and names.index("P") < names.index("b") < names.index("B_w") < names.index("M")


def test_a_long_expanded_form_falls_back_to_the_intermediate_outputs():
    s = Scenarios.Gpt3CheckpointInterval10K
    full = L.substituted_parts(s, "write_share")
    short = L.substituted_parts(s, "write_share", expanded_limit=3)
    assert len(full) == 5 and full[2] == r"\frac{\sqrt{2 P b}}{2 \sqrt{B_{w} M}}"
    # delta = 24.5 s, tau* = 826.2 s (Young's interval, by hand: sqrt(2 * 3.87 h * 24.5 s)): the declared form with their values
    assert short == [r"W_{\mathrm{write}}", r"\frac{\delta}{\tau^{*}}", r"\frac{24.5\,\mathrm{s}}{826.2\,\mathrm{s}}", "0.02965"]


def test_config_fields_are_checked():
    with pytest.raises(InputError, match="prefixes"):
        L.LatexConfig(prefixes=(-12, 31))
    with pytest.raises(InputError, match="positional"):
        L.LatexConfig(positional=(1e-3, 0.5))


def test_equations_are_numbered_with_labels_from_the_declarations():
    from mlsysim_symbolic import paper
    from mlsysim_symbolic.catalog import catalog

    section = paper.type_section(catalog().types["PerExampleGradientScenario"])
    equations = section.split(r"\subsection*{Equations}")[1].split(r"\subsection*{Symbols}")[0]
    assert equations.strip().startswith(r"\begin{align}")
    assert (r"M_{\mathrm{batch}} &= M_{\mathrm{example}} B = P b B & & \text{per\_batch} "
            r"\label{eq:PerExampleGradientScenario:per-batch}") in equations
    choice = paper.type_section(catalog().types["ClusterTrainingTimeScenario"])
    assert r"\label{eq:ClusterTrainingTimeScenario:peak-rate:fp32}" in choice     # a form chosen by a value
    assert L.equation_label(Scenarios.Gpt3CheckpointInterval10K.type, "interval") == "eq:CheckpointIntervalScenario:interval"


def test_a_long_side_breaks_at_its_signs_and_an_unbreakable_one_is_named_or_left_out():
    from mlsysim_symbolic.paper import _lines

    assert _lines("y", ["a + b + c", "1 + 2 + 3", "6"], width=6) == ["y &= a + b", r"&\quad + c", "&= 1 + 2", r"&\quad + 3", "&= 6"]
    wide = r"\frac{" + " + ".join("x" * 3 for _ in range(30)) + "}{2}"
    lines = _lines("y", ["a", wide, "6"], width=20)             # the middle side cannot be cut: left out
    assert lines == ["y &= a = 6"]
    named = _lines("y", [wide, "6"], width=20, tag=r"\label{eq:y}")   # the first side: its numerator named, never scaled
    assert named[0] == r"y &= \frac{\langle 1\rangle}{2} \label{eq:y}"
    assert named[1] == r"&= 6 \notag"
    assert named[2] == r"\intertext{where} \langle 1\rangle &= xxx + xxx + xxx + xxx \notag"
    rest = [line.removeprefix(r"&\quad ").removesuffix(r" \notag") for line in named[3:]]
    assert " ".join(["xxx + xxx + xxx + xxx", *rest]) == " + ".join(["xxx"] * 30)   # the numerator, whole, in order
    assert not any("resizebox" in line for line in named)
