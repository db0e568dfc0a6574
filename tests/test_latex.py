"""LaTeX of the catalog, table-driven (issue: LaTeX for papers, reference pages, notebooks and the command line).

Every output of thirteen scenario types, equation() and substituted() compared with strings
written by hand from the declared equations (derivations/*.toml) and the inputs of the named
scenarios.  Each row also carries the result computed by hand from those inputs (plain Python
arithmetic, not this package); the test checks the package's value against it and that the
number printed at the end of the expected line is that hand value to 4 significant figures.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from mlsysim_symbolic import InputError, MissingInputError, Scenarios, UnitError, UnknownNameError
from mlsysim_symbolic import printing as L
from mlsysim_symbolic import printing as SI
from mlsysim_symbolic.units import Q_


@dataclass(frozen=True)
class Row:
    scenario: str
    output: str
    equation: str
    substituted: str
    hand: float                 # the result by hand, in `unit`
    unit: str                   # the unit the line shows the result in ("" for a plain number)
    keys: tuple[Any, ...] = ()
    arguments: dict[str, Any] = field(default_factory=dict)
    variant: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.scenario}.{self.output}"


# Inputs used below (from derivations/*.toml and workloads.toml):
#   DpSgdPerExampleGradients: P(KWS) = 200,000, P(GPT-2) = 1.5e9, B = 256, b = 4 B/param
#   TransformerLayerRank4Update: d_in = d_out = 768, r = 4 (+ b = 2 B/param in a variant)
#   ChinchillaComputeDoubling: m = 2, e = 0.5;  KaplanTenPercentLowerLoss: alpha = 0.05, r = 0.1 (+ m = 10)
#   GpuFailuresTraining10K: m = 50,000 h, N = 10,000, T_run = 14 d, T_day = 1 d
#   FourNinesAvailability10K: a = 0.9999, N = 10,000, k = 1, T_yr = 365 d
#   VisionServingLittlesLaw: lambda = 1000 request/s, W = 100 ms, B = 8, t_b = 80 ms, u = 0.8
#   Cifar10DpSgdRun: N = 50,000, B = 4000, E = 60;  OpacusResNet18PhysicalBatches: P = 1.17e7, B = 512, m = 128, b = 4 B
#   GPipeFourStageWalkthrough: p = 4, m = 4;  SalaryMeanLaplaceRelease: Delta = 200,000 USD, eps = 1, n_s = 100
#   AlphaBetaHdrNdrSmallMessage: alpha = 1.5 us, beta(HDR) = 25 GB/s, n(small) = 10,000 B
#   Gpt3CheckpointInterval10K: M = 3.87 h, P = 1.75e11, b = 14 B/param, B_w = 100 GB/s
_H = 3600.0
_DELTA = 1.75e11 * 14 / 100e9                                  # checkpoint write time, s
_TAU = math.sqrt(2 * 3.87 * _H * _DELTA)                       # Young's interval, s
_P18 = r"1.17 \times 10^{7}"
_SQRT = r"\sqrt{2 \cdot 1.75 \times 10^{11} \cdot 14\,\mathrm{B/param}}"                  # sqrt(2 P b) with numbers
_ROOT = r"\sqrt{100\,\mathrm{GB/s} \cdot 3.87\,\mathrm{h}}"                              # sqrt(B_w M) with numbers

ROWS = [
    # ---- training: PerExampleGradientScenario
    Row("DpSgdPerExampleGradients", "per_example", r"M_{\mathrm{example}} = P b",
        r"M_{\mathrm{example}} = P b = 200000 \cdot 4\,\mathrm{B/param} = 800\,\mathrm{kB/sample}", 200_000 * 4 / 1e3, "kB/sample", ("KWS",)),
    Row("DpSgdPerExampleGradients", "per_batch", r"M_{\mathrm{batch}} = M_{\mathrm{example}} B",
        r"M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = 1.5 \times 10^{9} \cdot 4\,\mathrm{B/param} \cdot 256 = 1.536\,\mathrm{TB}",
        256 * 1.5e9 * 4 / 1e12, "TB", ("GPT-2",)),
    # ---- training: LowRankUpdateScenario
    # k_p = 1 param per matrix entry (params_per_entry) turns the shape into parameters
    Row("TransformerLayerRank4Update", "full_params", r"P_{\mathrm{full}} = k_{p} d_{\mathrm{in}} d_{\mathrm{out}}",
        r"P_{\mathrm{full}} = k_{p} d_{\mathrm{in}} d_{\mathrm{out}} = 1 \cdot 768 \cdot 768 = 589824\,\mathrm{param}", 768 * 768, "param"),
    Row("TransformerLayerRank4Update", "update_params", r"P_{r} = k_{p} r \left(d_{\mathrm{in}} + d_{\mathrm{out}}\right)",
        r"P_{r} = k_{p} r \left(d_{\mathrm{in}} + d_{\mathrm{out}}\right) = 1 \cdot 4 \cdot \left(768 + 768\right) = 6144\,\mathrm{param}", 4 * (768 + 768), "param"),
    Row("TransformerLayerRank4Update", "reduction", r"\mathrm{reduction} = 1 - \frac{P_{r}}{P_{\mathrm{full}}}",
        r"\mathrm{reduction} = 1 - \frac{P_{r}}{P_{\mathrm{full}}} = 1 - \frac{r \left(d_{\mathrm{in}} + d_{\mathrm{out}}\right)}{d_{\mathrm{in}} d_{\mathrm{out}}}"
        r" = 1 - \frac{4 \cdot \left(768 + 768\right)}{768 \cdot 768} = 0.9896", 1 - 4 * 1536 / 768**2, ""),
    Row("TransformerLayerRank4Update", "compression", r"\mathrm{compression} = \frac{P_{\mathrm{full}}}{P_{r}}",
        r"\mathrm{compression} = \frac{P_{\mathrm{full}}}{P_{r}} = \frac{d_{\mathrm{in}} d_{\mathrm{out}}}{\left(d_{\mathrm{in}} + d_{\mathrm{out}}\right) r}"
        r" = \frac{768 \cdot 768}{\left(768 + 768\right) \cdot 4} = 96", 768**2 / (4 * 1536), ""),
    Row("TransformerLayerRank4Update", "full_bytes", r"\mathrm{full\_bytes} = P_{\mathrm{full}} b",
        r"\mathrm{full\_bytes} = P_{\mathrm{full}} b = k_{p} d_{\mathrm{in}} d_{\mathrm{out}} b = 1 \cdot 768 \cdot 768 \cdot 2\,\mathrm{B/param} = 1.18\,\mathrm{MB}",
        2 * 768 * 768 / 1e6, "MB", variant={"bytes_per_param": "2 B/param"}),
    Row("TransformerLayerRank4Update", "update_bytes", r"\mathrm{update\_bytes} = P_{r} b",
        r"\mathrm{update\_bytes} = P_{r} b = k_{p} r \left(d_{\mathrm{in}} + d_{\mathrm{out}}\right) b = 1 \cdot 4 \cdot \left(768 + 768\right) \cdot 2\,\mathrm{B/param} = 12.29\,\mathrm{kB}",
        2 * 4 * 1536 / 1e3, "kB", variant={"bytes_per_param": "2 B/param"}),
    # ---- training: AllocationGrowthScenario
    Row("ChinchillaComputeDoubling", "growth", r"g = m^{e} - 1", r"g = m^{e} - 1 = 2^{0.5} - 1 = 0.4142", 2**0.5 - 1, ""),
    # ---- training: PowerLawScenario (resource_multiple set in a variant)
    Row("KaplanTenPercentLowerLoss", "multiple_factor", r"\phi = m^{- \alpha}", r"\phi = m^{- \alpha} = 10^{- 0.05} = 0.8913",
        10**-0.05, "", variant={"resource_multiple": 10}),
    Row("KaplanTenPercentLowerLoss", "multiple_reduction", r"\rho = 1 - \phi",
        r"\rho = 1 - \phi = 1 - m^{- \alpha} = 1 - 10^{- 0.05} = 0.1087", 1 - 10**-0.05, "", variant={"resource_multiple": 10}),
    Row("KaplanTenPercentLowerLoss", "halving_multiple", r"m_{1/2} = 2^{\frac{1}{\alpha}}",
        r"m_{1/2} = 2^{\frac{1}{\alpha}} = 2^{\frac{1}{0.05}} = 1.049 \times 10^{6}", 2**20, ""),
    Row("KaplanTenPercentLowerLoss", "reduction_multiple", r"m_{r} = \left(\frac{1}{1 - r}\right)^{\frac{1}{\alpha}}",
        r"m_{r} = \left(\frac{1}{1 - r}\right)^{\frac{1}{\alpha}} = \left(\frac{1}{1 - 0.1}\right)^{\frac{1}{0.05}} = 8.225", (1 / 0.9) ** 20, ""),
    # ---- reliability: FailureIntervalScenario
    Row("GpuFailuresTraining10K", "interval", r"\mathrm{MTBF} = \frac{m}{N}",
        r"\mathrm{MTBF} = \frac{m}{N} = \frac{50000\,\mathrm{h}}{10000} = 5\,\mathrm{h}", 50_000 / 10_000, "h"),
    Row("GpuFailuresTraining10K", "expected_failures", r"n_{\mathrm{fail}} = \frac{T_{\mathrm{run}}}{\mathrm{MTBF}}",
        r"n_{\mathrm{fail}} = \frac{T_{\mathrm{run}}}{\mathrm{MTBF}} = \frac{T_{\mathrm{run}} N}{m} = \frac{14\,\mathrm{d} \cdot 10000}{50000\,\mathrm{h}} = 67.2",
        14 * 24 / 5, ""),
    Row("GpuFailuresTraining10K", "failures_per_day", r"f_{\mathrm{day}} = \frac{T_{\mathrm{day}}}{\mathrm{MTBF}}",
        r"f_{\mathrm{day}} = \frac{T_{\mathrm{day}}}{\mathrm{MTBF}} = \frac{T_{\mathrm{day}} N}{m} = \frac{1\,\mathrm{d} \cdot 10000}{50000\,\mathrm{h}} = 4.8",
        24 / 5, ""),
    # ---- reliability: AvailabilityScenario (two outputs are methods of an argument)
    Row("FourNinesAvailability10K", "all_up", r"A_{\mathrm{all}} = a^{N}", r"A_{\mathrm{all}} = a^{N} = 0.9999^{10000} = 0.3679", 0.9999**10_000, ""),
    Row("FourNinesAvailability10K", "required_availability", r"a_{\mathrm{req}} = A_{\mathrm{target}}^{\frac{1}{N}}",
        r"a_{\mathrm{req}} = A_{\mathrm{target}}^{\frac{1}{N}} = 0.5^{\frac{1}{10000}} = 0.9999", 0.5 ** (1 / 10_000), "",
        arguments={"all_up_target": 0.5}),
    Row("FourNinesAvailability10K", "downtime", r"T_{\mathrm{down}} = \left(1 - a\right) D",
        r"T_{\mathrm{down}} = \left(1 - a\right) D = \left(1 - 0.9999\right) \cdot 720\,\mathrm{h} = 0.072\,\mathrm{h}", 30 * 24 * 1e-4, "h",
        arguments={"interval": "30 d"}),
    Row("FourNinesAvailability10K", "downtime_per_year", r"T_{\mathrm{down,yr}} = \left(1 - a\right) T_{\mathrm{yr}}",
        r"T_{\mathrm{down,yr}} = \left(1 - a\right) T_{\mathrm{yr}} = \left(1 - 0.9999\right) \cdot 365\,\mathrm{d} = 52.56\,\mathrm{min}",
        365 * 24 * 60 * 1e-4, "min"),
    Row("FourNinesAvailability10K", "any_up", r"A_{\mathrm{any}} = 1 - \left(1 - a\right)^{k}",
        r"A_{\mathrm{any}} = 1 - \left(1 - a\right)^{k} = 1 - \left(1 - 0.9999\right)^{1} = 0.9999", 0.9999, ""),
    Row("FourNinesAvailability10K", "replicated_downtime_per_year", r"T_{\mathrm{down,rep}} = \left(1 - A_{\mathrm{any}}\right) T_{\mathrm{yr}}",
        r"T_{\mathrm{down,rep}} = \left(1 - A_{\mathrm{any}}\right) T_{\mathrm{yr}} = \left(1 - a\right)^{k} T_{\mathrm{yr}}"
        r" = \left(1 - 0.9999\right)^{1} \cdot 365\,\mathrm{d} = 52.56\,\mathrm{min}", 365 * 24 * 60 * 1e-4, "min"),
    # ---- serving: LittlesLawScenario (ceil, and counts printed without a unit)
    Row("VisionServingLittlesLaw", "in_flight", r"L = \lambda W",
        r"L = \lambda W = 1000\,\mathrm{request/s} \cdot 100\,\mathrm{ms} = 100\,\mathrm{request}", 0.1 * 1000, "request"),
    Row("VisionServingLittlesLaw", "replica_throughput", r"\mu = \frac{B}{t_{b}}",
        r"\mu = \frac{B}{t_{b}} = \frac{8}{80\,\mathrm{ms}} = 100\,\mathrm{request/s}", 8 / 0.08, "request/s"),
    Row("VisionServingLittlesLaw", "throughput_floor", r"N_{\mathrm{floor}} = \left\lceil \frac{\lambda}{\mu} \right\rceil",
        r"N_{\mathrm{floor}} = \left\lceil \frac{\lambda}{\mu} \right\rceil = \left\lceil \frac{\lambda t_{b}}{B} \right\rceil"
        r" = \left\lceil \frac{1000\,\mathrm{request/s} \cdot 80\,\mathrm{ms}}{8} \right\rceil = 10", math.ceil(1000 * 0.08 / 8), ""),
    Row("VisionServingLittlesLaw", "replicas_needed", r"N_{\mathrm{rep}} = \left\lceil \frac{\lambda}{u \mu} \right\rceil",
        r"N_{\mathrm{rep}} = \left\lceil \frac{\lambda}{u \mu} \right\rceil = \left\lceil \frac{\lambda t_{b}}{u B} \right\rceil"
        r" = \left\lceil \frac{1000\,\mathrm{request/s} \cdot 80\,\mathrm{ms}}{0.8 \cdot 8} \right\rceil = 13", math.ceil(1000 * 0.08 / (8 * 0.8)), ""),
    Row("VisionServingLittlesLaw", "executing_positions", r"P_{\mathrm{exec}} = N_{\mathrm{rep}} B",
        r"P_{\mathrm{exec}} = N_{\mathrm{rep}} B = \left\lceil \frac{\lambda t_{b}}{u B} \right\rceil B"
        r" = \left\lceil \frac{1000\,\mathrm{request/s} \cdot 80\,\mathrm{ms}}{0.8 \cdot 8} \right\rceil \cdot 8 = 104\,\mathrm{request}", 8 * 13, "request"),
    Row("VisionServingLittlesLaw", "mean_executing", r"L_{\mathrm{exec}} = \lambda t_{b}",
        r"L_{\mathrm{exec}} = \lambda t_{b} = 1000\,\mathrm{request/s} \cdot 80\,\mathrm{ms} = 80\,\mathrm{request}", 1000 * 0.08, "request"),
    Row("VisionServingLittlesLaw", "service_utilization", r"\rho = \frac{\lambda}{N_{\mathrm{rep}} \mu}",
        r"\rho = \frac{\lambda}{N_{\mathrm{rep}} \mu} = \frac{\lambda t_{b}}{\left\lceil \frac{\lambda t_{b}}{u B} \right\rceil B}"
        r" = \frac{1000\,\mathrm{request/s} \cdot 80\,\mathrm{ms}}{\left\lceil \frac{1000\,\mathrm{request/s} \cdot 80\,\mathrm{ms}}{0.8 \cdot 8} \right\rceil \cdot 8} = 0.7692",
        80 / (8 * 13), ""),
    # ---- dp: DpSgdRunScenario (floor)
    Row("Cifar10DpSgdRun", "sampling_rate", r"q = \frac{B}{N}", r"q = \frac{B}{N} = \frac{4000}{50000} = 0.08", 4000 / 50_000, ""),
    Row("Cifar10DpSgdRun", "steps", r"T = \left\lfloor \frac{E N}{B} \right\rfloor",
        r"T = \left\lfloor \frac{E N}{B} \right\rfloor = \left\lfloor \frac{60 \cdot 50000}{4000} \right\rfloor = 750\,\mathrm{step}", 60 * 50_000 // 4000, "step"),
    # ---- dp: MicrobatchedDpSgdScenario (composed outputs, keyed by model)
    Row("OpacusResNet18PhysicalBatches", "per_microbatch", r"M_{\mathrm{micro}} = M_{\mathrm{example}} m",
        rf"M_{{\mathrm{{micro}}}} = M_{{\mathrm{{example}}}} m = P b m = {_P18} \cdot 4\,\mathrm{{B/param}} \cdot 128 = 5.99\,\mathrm{{GB}}",
        1.17e7 * 4 * 128 / 1e9, "GB", ("ResNet-18",)),
    Row("OpacusResNet18PhysicalBatches", "naive_per_batch", r"M_{\mathrm{naive}} = M_{\mathrm{batch}}",
        rf"M_{{\mathrm{{naive}}}} = M_{{\mathrm{{batch}}}} = P b B = {_P18} \cdot 4\,\mathrm{{B/param}} \cdot 512 = 23.96\,\mathrm{{GB}}",
        512 * 1.17e7 * 4 / 1e9, "GB", ("ResNet-18",)),
    Row("OpacusResNet18PhysicalBatches", "num_microbatches", r"n_{\mathrm{micro}} = \left\lceil \frac{B}{m} \right\rceil",
        r"n_{\mathrm{micro}} = \left\lceil \frac{B}{m} \right\rceil = \left\lceil \frac{512}{128} \right\rceil = 4", 512 // 128, ""),
    Row("OpacusResNet18PhysicalBatches", "reduction", r"r_{\mathrm{micro}} = \frac{B}{m}",
        r"r_{\mathrm{micro}} = \frac{B}{m} = \frac{512}{128} = 4", 512 / 128, ""),
    # ---- distributed: PipelineScheduleScenario
    Row("GPipeFourStageWalkthrough", "fill_slots", r"n_{\mathrm{fill}} = p - 1", r"n_{\mathrm{fill}} = p - 1 = 4 - 1 = 3", 3, ""),
    Row("GPipeFourStageWalkthrough", "phase_slots", r"n_{\mathrm{phase}} = m + p - 1", r"n_{\mathrm{phase}} = m + p - 1 = 4 + 4 - 1 = 7", 7, ""),
    Row("GPipeFourStageWalkthrough", "bubble", r"b = \frac{n_{\mathrm{fill}}}{n_{\mathrm{phase}}}",
        r"b = \frac{n_{\mathrm{fill}}}{n_{\mathrm{phase}}} = \frac{p - 1}{p + m - 1} = \frac{4 - 1}{4 + 4 - 1} = 0.4286", 3 / 7, ""),
    Row("GPipeFourStageWalkthrough", "slots", r"n_{\mathrm{slots}} = 2 n_{\mathrm{phase}}",
        r"n_{\mathrm{slots}} = 2 n_{\mathrm{phase}} = 2 m + 2 p - 2 = 2 \cdot 4 + 2 \cdot 4 - 2 = 14", 2 * 7, ""),
    Row("GPipeFourStageWalkthrough", "idle_slots", r"n_{\mathrm{idle}} = 2 n_{\mathrm{fill}}",
        r"n_{\mathrm{idle}} = 2 n_{\mathrm{fill}} = 2 p - 2 = 2 \cdot 4 - 2 = 6", 2 * 3, ""),
    Row("GPipeFourStageWalkthrough", "microbatches_for_bubble", r"m^{*} = \frac{\left(p - 1\right) \left(1 - b^{*}\right)}{b^{*}}",
        r"m^{*} = \frac{\left(p - 1\right) \left(1 - b^{*}\right)}{b^{*}} = \frac{\left(4 - 1\right) \cdot \left(1 - 0.1\right)}{0.1} = 27",
        0.9 * 3 / 0.1, "", arguments={"target": 0.1}),
    # ---- dp: LaplaceMeanReleaseScenario (currency is never prefixed)
    Row("SalaryMeanLaplaceRelease", "sensitivity", r"S = \Delta", r"S = \Delta = 200000\,\mathrm{USD}", 200_000, "USD"),
    Row("SalaryMeanLaplaceRelease", "noise_scale", r"b = \frac{S}{\varepsilon}",
        r"b = \frac{S}{\varepsilon} = \frac{\Delta}{\varepsilon} = \frac{200000\,\mathrm{USD}}{1} = 200000\,\mathrm{USD}", 200_000 / 1, "USD"),
    Row("SalaryMeanLaplaceRelease", "mean_error", r"e_{\mathrm{mean}} = \frac{b}{n_{q}}",
        r"e_{\mathrm{mean}} = \frac{b}{n_{q}} = \frac{\Delta}{\varepsilon n_{q}} = \frac{200000\,\mathrm{USD}}{1 \cdot 1000} = 200\,\mathrm{USD}",
        200_000 / 1000, "USD", arguments={"size": 1000}),
    Row("SalaryMeanLaplaceRelease", "small_group_error", r"e_{\mathrm{small}} = \frac{b}{n_{s}}",
        r"e_{\mathrm{small}} = \frac{b}{n_{s}} = \frac{\Delta}{\varepsilon n_{s}} = \frac{200000\,\mathrm{USD}}{1 \cdot 100} = 2000\,\mathrm{USD}",
        200_000 / 100, "USD"),
    # ---- distributed: AlphaBetaScenario (outputs keyed by two indices)
    Row("AlphaBetaHdrNdrSmallMessage", "times", r"T = \alpha + \frac{n}{\beta}",
        r"T = \alpha + \frac{n}{\beta} = 1.5 \times 10^{-6}\,\mathrm{s} + \frac{10000\,\mathrm{B}}{2.5 \times 10^{10}\,\mathrm{B/s}} = 1.9\,\mathrm{\mu s}",
        (1.5e-6 + 10_000 / 25e9) * 1e6, "us", ("HDR", "small")),
    Row("AlphaBetaHdrNdrSmallMessage", "transmission_times", r"T_{\mathrm{wire}} = \frac{n}{\beta}",
        r"T_{\mathrm{wire}} = \frac{n}{\beta} = \frac{10000\,\mathrm{B}}{2.5 \times 10^{10}\,\mathrm{B/s}} = 400\,\mathrm{ns}", 10_000 / 25e9 * 1e9, "ns",
        ("HDR", "small")),
    Row("AlphaBetaHdrNdrSmallMessage", "crossovers", r"n^{*} = \alpha \beta",
        r"n^{*} = \alpha \beta = 1.5 \times 10^{-6}\,\mathrm{s} \cdot 2.5 \times 10^{10}\,\mathrm{B/s} = 37.5\,\mathrm{kB}", 1.5e-6 * 25e9 / 1e3, "kB", ("HDR",)),
    # ---- reliability: CheckpointIntervalScenario (square roots; two methods of an argument)
    Row("Gpt3CheckpointInterval10K", "checkpoint_bytes", r"S_{\mathrm{ckpt}} = P b",
        r"S_{\mathrm{ckpt}} = P b = 1.75 \times 10^{11} \cdot 14\,\mathrm{B/param} = 2.45\,\mathrm{TB}", 1.75e11 * 14 / 1e12, "TB"),
    Row("Gpt3CheckpointInterval10K", "t_write", r"\delta = \frac{S_{\mathrm{ckpt}}}{B_{w}}",
        r"\delta = \frac{S_{\mathrm{ckpt}}}{B_{w}} = \frac{P b}{B_{w}} = \frac{1.75 \times 10^{11} \cdot 14\,\mathrm{B/param}}{100\,\mathrm{GB/s}} = 24.5\,\mathrm{s}", _DELTA, "s"),
    Row("Gpt3CheckpointInterval10K", "interval", r"\tau^{*} = \sqrt{2 \delta M}",
        r"\tau^{*} = \sqrt{2 \delta M} = \sqrt{\frac{2 P b M}{B_{w}}}"
        r" = \sqrt{\frac{2 \cdot 1.75 \times 10^{11} \cdot 14\,\mathrm{B/param} \cdot 3.87\,\mathrm{h}}{100\,\mathrm{GB/s}}} = 826.2\,\mathrm{s}", _TAU, "s"),
    Row("Gpt3CheckpointInterval10K", "write_share", r"W_{\mathrm{write}} = \frac{\delta}{\tau^{*}}",
        r"W_{\mathrm{write}} = \frac{\delta}{\tau^{*}} = \frac{\sqrt{2 P b}}{2 \sqrt{B_{w} M}}"
        rf" = \frac{{{_SQRT}}}{{2 \cdot {_ROOT}}} = 0.02965", _DELTA / _TAU, ""),
    Row("Gpt3CheckpointInterval10K", "rework_share", r"W_{\mathrm{rework}} = \frac{\tau^{*}}{2 M}",
        r"W_{\mathrm{rework}} = \frac{\tau^{*}}{2 M} = \frac{\sqrt{2 P b}}{2 \sqrt{B_{w} M}}"
        rf" = \frac{{{_SQRT}}}{{2 \cdot {_ROOT}}} = 0.02965", _TAU / (2 * 3.87 * _H), ""),
    Row("Gpt3CheckpointInterval10K", "waste", r"W^{*} = W_{\mathrm{write}} + W_{\mathrm{rework}}",
        r"W^{*} = W_{\mathrm{write}} + W_{\mathrm{rework}} = \sqrt{\frac{2 P b}{B_{w} M}}"
        r" = \sqrt{\frac{2 \cdot 1.75 \times 10^{11} \cdot 14\,\mathrm{B/param}}{100\,\mathrm{GB/s} \cdot 3.87\,\mathrm{h}}} = 0.0593", 2 * _DELTA / _TAU, ""),
    Row("Gpt3CheckpointInterval10K", "waste_at", r"W(\tau) = \frac{\delta}{\tau} + \frac{\tau}{2 M}",
        r"W(\tau) = \frac{\delta}{\tau} + \frac{\tau}{2 M} = \frac{P b}{B_{w} \tau} + \frac{\tau}{2 M}"
        r" = \frac{1.75 \times 10^{11} \cdot 14\,\mathrm{B/param}}{100\,\mathrm{GB/s} \cdot 900\,\mathrm{s}} + \frac{900\,\mathrm{s}}{2 \cdot 3.87\,\mathrm{h}} = 0.05952",
        _DELTA / 900 + 900 / (2 * 3.87 * _H), "", arguments={"tau": "15 min"}),
    Row("Gpt3CheckpointInterval10K", "miss_penalty", r"\Pi_{\mathrm{miss}} = -1 + \frac{\frac{\delta}{x \tau^{*}} + \frac{x \tau^{*}}{2 M}}{W^{*}}",
        r"\Pi_{\mathrm{miss}} = -1 + \frac{\frac{\delta}{x \tau^{*}} + \frac{x \tau^{*}}{2 M}}{W^{*}}"
        r" = \frac{\left(\frac{\sqrt{2 P b} x}{2 \sqrt{B_{w} M}} + \frac{\sqrt{2 P b}}{2 \sqrt{B_{w} M} x}\right) \sqrt{2 B_{w} M}}{2 \sqrt{P b}} - 1"
        rf" = \frac{{\left(\frac{{{_SQRT} \cdot 2}}{{2 \cdot {_ROOT}}} + \frac{{{_SQRT}}}{{2 \cdot {_ROOT} \cdot 2}}\right)"
        r" \cdot \sqrt{2 \cdot 100\,\mathrm{GB/s} \cdot 3.87\,\mathrm{h}}}{2 \cdot \sqrt{1.75 \times 10^{11} \cdot 14\,\mathrm{B/param}}} - 1 = 0.25",
        (2 + 1 / 2) / 2 - 1, "", arguments={"factor": 2}),   # (x + 1/x)/2 - 1 at x = 2
]


def _scenario(row: Row) -> Any:
    s = Scenarios[row.scenario]
    return s.variant(**row.variant) if row.variant else s


def test_the_table_covers_every_output_of_at_least_ten_types():
    types: dict[str, set[str]] = {}
    for row in ROWS:
        types.setdefault(Scenarios[row.scenario].type.name, set()).add(row.output)
    assert len(types) >= 10
    for name, outputs in types.items():
        declared = set(Scenarios.types()[name].outputs)
        assert outputs == declared, f"{name}: the table misses {sorted(declared - outputs)}"
    assert len({r.id for r in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_equation(row):
    assert str(L.equation(_scenario(row), row.output)) == row.equation


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_substituted(row):
    assert str(L.substituted(_scenario(row), row.output, *row.keys, **row.arguments)) == row.substituted


def _shown_number(text: str) -> float:
    """The number at the end of a substituted line: ``1.536`` of ``= 1.536\\,\\mathrm{TB}``, ``1.049 \\times 10^{6}``."""
    tail = text.rsplit(" = ", 1)[1].split(r"\,")[0]
    m = re.fullmatch(r"(-?[\d.]+)(?: \\times 10\^\{(-?\d+)\})?", tail)
    assert m, tail
    return float(m.group(1)) * 10 ** int(m.group(2) or 0)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_hand_value_matches_the_package_and_the_printed_number(row):
    scenario = _scenario(row)
    # the line prints the equation's unit (counted kinds included); the value returned is in its outer unit
    value = scenario.type.output(row.output).variable.inward(scenario.evaluate(row.output, *row.keys, **row.arguments))
    assert value.to(row.unit or "dimensionless").magnitude == pytest.approx(row.hand, rel=1e-9)
    exact = float(row.hand).is_integer() and abs(row.hand) < 10**6     # whole numbers below a million print in full
    assert _shown_number(row.substituted) == pytest.approx(row.hand if exact else float(f"{row.hand:.4g}"), rel=1e-12)
    if row.unit and row.unit not in ("param", "request", "step"):
        assert row.substituted.endswith(r"\mathrm{" + {"us": r"\mu s"}.get(row.unit, row.unit) + "}")


# ---------------------------------------------------------------------- siunitx
SIUNITX_ROWS = [  # (scenario, output, keys, options, expected), written by hand
    ("DpSgdPerExampleGradients", "per_batch", ("GPT-2",), {},
     r"M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = \num{1.5e9} \cdot \qty{4}{\byte\per\param} \cdot \num{256} = \qty{1.536}{\tera\byte}"),
    ("DpSgdPerExampleGradients", "per_batch", ("GPT-2",), {"prefix": "binary", "sig": 3},
     r"M_{\mathrm{batch}} = M_{\mathrm{example}} B = P b B = \num{1.5e9} \cdot \qty{4}{\byte\per\param} \cdot \num{256} = \qty{1.4}{\tebi\byte}"),
    ("AlphaBetaHdrNdrSmallMessage", "times", ("NDR", "small"), {},
     r"T = \alpha + \frac{n}{\beta} = \qty{1.5e-6}{\second} + \frac{\qty{10000}{\byte}}{\qty{5e10}{\byte\per\second}} = \qty{1.7}{\micro\second}"),
    ("AlphaBetaHdrNdrSmallMessage", "crossovers", ("NDR",), {"unit": "kB", "sig": 2},
     r"n^{*} = \alpha \beta = \qty{1.5e-6}{\second} \cdot \qty{5e10}{\byte\per\second} = \qty{75}{\kilo\byte}"),
    ("VisionServingLittlesLaw", "replica_throughput", (), {},
     r"\mu = \frac{B}{t_{b}} = \frac{\num{8}}{\qty{80}{\milli\second}} = \qty{100}{\request\per\second}"),
    ("SalaryMeanLaplaceRelease", "small_group_error", (), {},
     r"e_{\mathrm{small}} = \frac{b}{n_{s}} = \frac{\Delta}{\varepsilon n_{s}} = \frac{\qty{200000}{\USD}}{\num{1} \cdot \num{100}} = \qty{2000}{\USD}"),
    ("GpuFailuresTraining10K", "interval", (), {}, r"\mathrm{MTBF} = \frac{m}{N} = \frac{\qty{50000}{\hour}}{\num{10000}} = \qty{5}{\hour}"),
]


@pytest.mark.parametrize("key,output,keys,options,expected", SIUNITX_ROWS, ids=[f"{r[0]}.{r[1]}.{i}" for i, r in enumerate(SIUNITX_ROWS)])
def test_substituted_siunitx(key, output, keys, options, expected):
    assert str(L.substituted(Scenarios[key], output, *keys, siunitx=True, **options)) == expected


@pytest.mark.parametrize("unit,expected", [
    ("TB", r"\tera\byte"), ("GiB", r"\gibi\byte"), ("KiB", r"\kibi\byte"), ("TiB/s", r"\tebi\byte\per\second"),
    ("TFLOP/s", r"\tera\flop\per\second"), ("B/param", r"\byte\per\param"), ("ms", r"\milli\second"), ("us", r"\micro\second"),
    ("kWh", r"\kilo\watt\hour"), ("pJ/bit", r"\pico\joule\per\bit"), ("MHz", r"\mega\hertz"), ("km", r"\kilo\meter"), ("g", r"\gram"),
    ("USD/h", r"\USD\per\hour"), ("token/s", r"\token\per\second"), ("EB", r"\exa\byte"), ("B^2", r"\byte\tothe{2}"),
    ("1/s^2", r"\per\second\tothe{2}"), ("W", r"\watt"), ("percent", r"\percent"), ("", ""), ("V", r"\volt"),
])
def test_siunitx_units(unit, expected):
    assert SI.siunitx_unit(unit) == expected


def test_siunitx_unknown_units_fall_back_to_text():
    from mlsysim_symbolic.units import ureg

    # a unit with no siunitx macro and no declaration
    assert SI.siunitx_unit(ureg.Unit("op")) == r"\text{OP}"
    assert SI.siunitx_unit(ureg.Unit("quettabyte")) == r"\quetta\byte"        # siunitx 3.2 has quetta and ronna
    assert SI.siunitx_unit(ureg.Unit("kelvin") / ureg.Unit("ppm")) == r"\kelvin\per\ppm"


def test_siunitx_quantities_and_numbers():
    si = SI.SiunitxStyle()
    assert si.quantity(Q_(1.536, "TB")) == r"\qty{1.536}{\tera\byte}"
    assert si.quantity(Q_(1.5e9, "param"), drop_counts=True) == r"\num{1.5e9}"
    assert si.quantity(Q_(4, "B/param"), drop_counts=True) == r"\qty{4}{\byte}"
    assert SI.SiunitxStyle(L.LatexConfig(sig=3)).quantity(Q_(3.14159e-7, "s")) == r"\qty{3.14e-7}{\second}"
    assert si.quantity(Q_(float("nan"), "s")) == r"\mathrm{NaN}"
    assert si.quantity(Q_(float("-inf"), "s")) == r"-\infty"
    assert SI.siunitx_number(123456789, 4) == "1.235e8"
    assert SI.siunitx_number(-0.5) == "-0.5"


def test_preamble_declares_every_non_si_macro():
    text = SI.preamble()
    for macro, shown in SI.DECLARED_UNITS.values():
        assert f"\\DeclareSIUnit{{{macro}}}{{{shown}}}" in text
    assert r"\sisetup{per-mode=symbol}" in text


# ---------------------------------------------------------------------- numbers, prefixes, display units
@pytest.mark.parametrize("x,sig,expected", [
    (256, 4, "256"), (200_000, 4, "200000"), (1_500_000, 4, r"1.5 \times 10^{6}"), (1.5e9, 4, r"1.5 \times 10^{9}"),
    (0.0296524, 4, "0.02965"), (0.0004, 4, r"4 \times 10^{-4}"), (999.96, 4, "1000"), (9.9996e8, 4, r"10^{9}"),
    (123456.7, 2, "120000"), (123456.7, 6, "123457"), (3.14159, 2, "3.1"), (-2.5e-7, 3, r"-2.5 \times 10^{-7}"), (0, 4, "0"), (True, 4, "1"),
])
def test_format_number(x, sig, expected):
    assert L.format_number(x, sig) == expected


@pytest.mark.parametrize("q,config,expected", [
    (Q_(1.536e12, "B"), L.LatexConfig(), r"1.536\,\mathrm{TB}"),
    (Q_(1.536e12, "B"), L.LatexConfig(prefix="binary"), r"1.397\,\mathrm{TiB}"),   # 1.536e12 / 2**40 = 1.3970
    (Q_(1.536e12, "B"), L.LatexConfig(unit="GB", sig=2), r"1500\,\mathrm{GB}"),
    (Q_(3 * 2**30, "B"), L.LatexConfig(prefix="binary"), r"3\,\mathrm{GiB}"),
    (Q_(999, "B"), L.LatexConfig(prefix="binary"), r"999\,\mathrm{B}"),
    (Q_(0.5, "B"), L.LatexConfig(), r"0.5\,\mathrm{B}"),                             # no millibytes
    (Q_(9.89e14, "FLOP/s"), L.LatexConfig(), r"989\,\mathrm{TFLOP/s}"),
    (Q_(2.5e-5, "s"), L.LatexConfig(), r"25\,\mathrm{\mu s}"),
    (Q_(86_400, "s"), L.LatexConfig(), r"86400\,\mathrm{s}"),                         # seconds are never multiplied (no ks)
    (Q_(86_400, "s"), L.LatexConfig(unit="h"), r"24\,\mathrm{h}"),
    (Q_(5000, "h"), L.LatexConfig(), r"5000\,\mathrm{h}"),                            # hours keep their unit
    (Q_(3370, "USD"), L.LatexConfig(), r"3370\,\mathrm{USD}"),                        # currency is never prefixed
    (Q_(5.898e5, "Wh"), L.LatexConfig(), r"589.8\,\mathrm{kWh}"),
    (Q_(1500, "B/param"), L.LatexConfig(), r"1.5\,\mathrm{kB/param}"),
    (Q_(2e-5, "1/h"), L.LatexConfig(), r"2 \times 10^{-5}\,\mathrm{1/h}"),           # nothing in the numerator: kept
    (Q_(0.25, ""), L.LatexConfig(), "0.25"),
])
def test_result_units_prefixes_and_significant_figures(q, config, expected):
    assert L.format_quantity(q, config, compact=True) == expected


def test_result_of_a_scenario():
    s = Scenarios.DpSgdPerExampleGradients
    assert L.result(s, "per_batch", "GPT-2") == r"1.536\,\mathrm{TB}"
    assert L.result(s, "per_batch", "GPT-2", prefix="binary", sig=3) == r"1.4\,\mathrm{TiB}"
    assert L.result(s, "per_batch", "KWS", unit="MiB", sig=5) == r"195.31\,\mathrm{MiB}"   # 2.048e8 / 2**20 = 195.3125
    assert L.result(s, "per_batch", "GPT-2", siunitx=True, unit="GB") == r"\qty{1536}{\giga\byte}"
    config = L.LatexConfig(unit="MB/sample", sig=3)   # per-example bytes are bytes per sample
    assert L.substituted(s, "per_example", "GPT-2", config=config).endswith(r"= 6000\,\mathrm{MB/sample}")
    assert L.substituted(s, "per_example", "KWS", config=config).endswith(r"= 0.8\,\mathrm{MB/sample}")
    assert L.substituted(s, "per_example", "KWS", unit="GB/sample").endswith(r"= 8 \times 10^{-4}\,\mathrm{GB/sample}")


def test_expand_false_leaves_out_the_expanded_symbols():
    s = Scenarios.DpSgdPerExampleGradients
    assert L.substituted(s, "per_batch", "KWS", expand=False) == (
        r"M_{\mathrm{batch}} = M_{\mathrm{example}} B = 200000 \cdot 4\,\mathrm{B/param} \cdot 256 = 204.8\,\mathrm{MB}")


def test_config_is_checked():
    with pytest.raises(InputError, match="prefix"):
        L.LatexConfig(prefix="SI")
    with pytest.raises(InputError, match="sig"):
        L.LatexConfig(sig=0)
    with pytest.raises(UnitError, match="furlong"):
        L.LatexConfig(unit="furlong")
    with pytest.raises(UnitError, match="unit"):
        L.result(Scenarios.DpSgdPerExampleGradients, "per_batch", "GPT-2", unit="s")


def test_errors_name_the_output_key_and_argument():
    s = Scenarios.DpSgdPerExampleGradients
    with pytest.raises(UnknownNameError, match="per_batch"):
        L.substituted(s, "per_batchh", "GPT-2")
    with pytest.raises(UnknownNameError, match="GPT-2"):
        L.substituted(s, "per_batch", "GPT-3")
    with pytest.raises(TypeError, match="needs a key"):       # a key missing: named, not a bare KeyError
        L.substituted(Scenarios.AlphaBetaHdrNdrSmallMessage, "times", "HDR")
    with pytest.raises(MissingInputError, match="tau"):
        L.substituted(Scenarios.Gpt3CheckpointInterval10K, "waste_at")


# ---------------------------------------------------------------------- sums over keyed inputs, align, tables, escaping
def test_sum_over_a_keyed_input_prints_per_key_symbols():
    s = Scenarios.FullSystemFailures10K
    assert L.equation(s, "device_rate") == r"\lambda_{\mathrm{dev}} = \sum_{\text{component}} \frac{c}{d \mathrm{MTTF}}"   # "c / d / MTTF"
    text = L.substituted(s, "device_rate")
    assert r"\frac{c_{\mathrm{gpu}}}{d \mathrm{MTTF}_{\mathrm{gpu}}}" in text
    assert r"\frac{8}{8 \cdot 50000\,\mathrm{h}}" in text
    # by hand: (0/100000 + 8/200000 + 1/150000 + 8/50000) / 8 per hour = 2.583e-5 /h
    assert text.endswith(rf"= {L.format_number((8 / 200_000 + 1 / 150_000 + 8 / 50_000) / 8)}\,\mathrm{{1/h}}")


@pytest.mark.parametrize("latex,key,expected", [
    (r"M_{\mathrm{example}}", r"\mathrm{KWS}", r"M_{\mathrm{example}, \mathrm{KWS}}"),
    ("d_h", "x", "d_{h, x}"),
    (r"\mathrm{MTTF}", "k", r"\mathrm{MTTF}_{k}"),
    (r"\tau^{*}", "k", r"\tau^{*}_{k}"),
])
def test_key_joins_the_subscript(latex, key, expected):
    assert L.with_subscript(latex, key) == expected


def test_align_has_one_line_per_output_and_key():
    s = Scenarios.DpSgdPerExampleGradients
    block = L.align(s)
    lines = block.splitlines()
    assert lines[0] == r"\begin{aligned}" and lines[-1] == r"\end{aligned}"
    assert len(lines) == 2 + 4                                     # 2 outputs x 2 models
    assert lines[1].startswith(r"M_{\mathrm{example}} &= P b = 200000") and lines[1].endswith(r"\text{(KWS)} \\")
    one = L.align(s, "GPT-2").splitlines()
    assert len(one) == 4 and all(r"\text{(GPT-2)}" in line for line in one[1:3])
    first = L.align(s, all_keys=False).splitlines()
    assert len(first) == 4 and r"\text{(KWS)}" in first[1]
    assert block._repr_latex_() == f"$$ {block} $$"


def test_align_leaves_out_outputs_that_need_an_argument_or_an_unset_input():
    s = Scenarios.KaplanTenPercentLowerLoss           # resource_multiple unset: two outputs cannot be evaluated
    text = L.align(s)
    assert r"m_{1/2}" in text and r"m_{r}" in text and r"\phi" not in text
    assert L.align(Scenarios.VisionBatchingKnee).count("&=") == 1   # only the knee needs no batch-size argument


def test_symbol_table():
    s = Scenarios.DpSgdPerExampleGradients
    table = s.symbol_table()
    assert [r[0] for r in table.rows] == ["P", "B", "b", r"M_{\mathrm{example}}", r"M_{\mathrm{batch}}"]
    tex = table.to_latex()
    assert tex.startswith(r"\begin{tabular}{lll}") and r"$b$ & gradient bytes per parameter & $\mathrm{B/param}$ \\" in tex
    si = table.to_latex(siunitx=True, longtable=True)
    assert si.startswith(r"\begin{longtable}") and r"$\unit{\byte\per\param}$" in si
    assert "| $P$ | parameters of the named model (one gradient of them per example) | $\\mathrm{param/sample}$ |" in table.to_markdown()
    assert table.to_records()[1] == {"symbol": "B", "meaning": "examples per step", "unit": r"\mathrm{sample}"}


def test_escape_text_survives_pdflatex_specials():
    assert L.escape_text("a_b & 5% #1 {x} ~ ^ $") == r"a\_b \& 5\% \#1 \{x\} \~{} \^{} \$"
    assert L.escape_text("≤ × · — ε") == r"$\le$ $\times$ $\cdot$ --- $\varepsilon$"
    assert L.escape_text("☃") == "[U+2603]"


def test_a_primed_symbol_raised_to_a_power_is_braced():
    """x'^{2} is a double superscript to TeX (the catalog document failed on sigma'_max^D); {x'}^{2} is not."""
    import sympy

    from mlsysim_symbolic.printing.printer import SymbolPrinter

    x, d = sympy.symbols("x D")
    assert SymbolPrinter({x: r"\sigma'_{\max}", d: "D"}).doprint(x**d) == r"{\sigma'_{\max}}^{D}"


# ---------------------------------------------------------------------- an input as a substituted line shows it
@pytest.mark.parametrize("value,unit,expected", [   # (written by hand: the declared unit, counted kinds kept where it has a dimension)
    (4, "B/param", r"4\,\mathrm{B/param}"),
    (1000, "request/s", r"1000\,\mathrm{request/s}"),
    (6, "FLOP/param/token", r"6\,\mathrm{FLOP/(param\cdot token)}"),
    (3.87, "h", r"3.87\,\mathrm{h}"),
    (1.5e9, "param", r"1.5 \times 10^{9}"),            # a count of a counted kind alone: the bare number
    (1.5e9, "param/sample", r"1.5 \times 10^{9}"),
    (768, "count", "768"),
    (0.8, "", "0.8"),
])
def test_a_substituted_input_keeps_its_declared_unit(value, unit, expected):
    from mlsysim_symbolic.printing.config import DEFAULT
    from mlsysim_symbolic.printing.equations import leaf_text

    assert leaf_text(Q_(value, unit or "dimensionless"), DEFAULT) == expected
