"""A use whose inputs are bound to outputs of ours and to a scenario input of ours: the composed outputs, their
derivatives and sensitivities reach through our outputs to our leaves, and the use keeps its nested result view
(the used type's result at the values bound).

The small derivation below is a stopping budget: a site states a clear distance and a base delay, and its margin is a
tenth of the clear distance; a takeover waits out a human response on top of the site's delay, so the used budget's
delay is an output of ours.  Every value is a hand computation (constant-deceleration kinematics: delay travel v·τ,
braking travel v²/(2a)), never our own output read back.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mlsysim_symbolic import DerivationError, load_derivations

USER = """
[types.Site]
summary = "A site: its clear distance, its base delay, and a margin of a tenth of the clear distance."
[types.Site.inputs.clear]
symbol = "D"
unit = "m"
[types.Site.inputs.base_delay]
symbol = "tau_0"
unit = "ms"
[types.Site.outputs.margin]
symbol = "delta"
unit = "m"
equation = "D / 10"

[types.Stop]
summary = "A machine at speed v stops after a delay: v·τ + v²/(2a) against the site's clear distance less its margin."
[types.Stop.inputs.speed]
symbol = "v"
unit = "m/s"
[types.Stop.inputs.delay]
symbol = "tau"
unit = "ms"
[types.Stop.inputs.decel]
symbol = "a"
unit = "m/s**2"
[types.Stop.inputs.site]
kind = "scenario"
type = "Site"
[types.Stop.outputs.travel]
symbol = "d"
unit = "m"
equation = "v * tau + v**2 / (2 * a)"
[types.Stop.outputs.spare]
symbol = "s"
unit = "m"
equation = "site.clear - site.margin - d"
[types.Stop.result]
name = "StopResult"
fields = ["speed", "delay", "travel", "spare"]

[types.Takeover]
summary = "A takeover waited out before the machine's own stop: the stop at the site's delay plus the takeover."
[types.Takeover.inputs.site]
kind = "scenario"
type = "Site"
[types.Takeover.inputs.speed]
symbol = "v"
unit = "m/s"
[types.Takeover.inputs.takeover]
symbol = "T"
unit = "ms"
[types.Takeover.inputs.decel]
symbol = "a"
unit = "m/s**2"
[types.Takeover.uses.machine]
type = "Stop"
bind = { speed = "speed", decel = "decel", site = "site", delay = "site_delay" }
[types.Takeover.uses.waited]
type = "Stop"
bind = { speed = "speed", decel = "decel", site = "site", delay = "total_delay" }
[types.Takeover.outputs.site_delay]
symbol = "tau_s"
unit = "ms"
equation = "site.base_delay"
[types.Takeover.outputs.total_delay]
symbol = "tau_T"
unit = "ms"
equation = "tau_s + T"
[types.Takeover.outputs.left]
symbol = "L"
unit = "m"
equation = "waited.spare"
[types.Takeover.outputs.lost]
symbol = "x"
unit = "m"
equation = "machine.spare - waited.spare"
[types.Takeover.result]
name = "TakeoverResult"
fields = ["machine", "waited", "left", "waited_travel"]
from = { waited_travel = "waited.travel" }

[types.Ladder]
summary = "The takeover at several longer waits: a row per key, the base takeover plus that key's extra wait."
[types.Ladder.inputs.base]
kind = "scenario"
type = "Takeover"
[types.Ladder.inputs.extra]
kind = "map"
symbol = "t_x"
unit = "ms"
index = "row"
[types.Ladder.outputs.takeovers]
symbol = "T_row"
unit = "ms"
style = "dict"
equation = "base.takeover + t_x"
[types.Ladder.result]
name = "LadderResult"
fields = ["rows"]
variants = { rows = { of = "base", set = { takeover = "takeovers" } } }

[types.Speeds]
summary = "The same stop at several speeds: a row per speed, its travel and its spare."
[types.Speeds.inputs.speeds]
kind = "list"
positions = true
start = 0
index = "row"
symbol = "v"
unit = "m/s"
[types.Speeds.inputs.delay]
symbol = "tau"
unit = "ms"
[types.Speeds.inputs.decel]
symbol = "a"
unit = "m/s**2"
[types.Speeds.inputs.clear]
symbol = "D"
unit = "m"
[types.Speeds.outputs.travel]
symbol = "d"
unit = "m"
style = "dict"
equation = "v * tau + v**2 / (2 * a)"
[types.Speeds.outputs.spare]
symbol = "s"
unit = "m"
style = "dict"
equation = "D - d"
[types.Speeds.outputs.room]
symbol = "R"
unit = "m"
equation = "D"
[types.Speeds.result]
name = "SpeedsResult"
fields = ["rows", "room"]
[types.Speeds.result.row_views.rows]
name = "SpeedRow"
fields = ["travel", "spare"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "user.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def scenario(tmp_path: Path, text: str = USER, **changes):
    cat = load_derivations(write(tmp_path, text))
    site = cat.classes["Site"](clear="10 m", base_delay="100 ms")
    inputs = {"site": site, "speed": "2 m/s", "takeover": "400 ms", "decel": "4 m/s**2"} | changes
    return cat.classes["Takeover"](**inputs)


def test_a_used_input_bound_to_our_output_composes_through_it(tmp_path):
    s = scenario(tmp_path)
    # waited: delay 100 + 400 ms = 0.5 s; travel 2 x 0.5 + 2² / (2 x 4) = 1.5 m; spare 10 - 10/10 - 1.5 = 7.5 m
    assert s.left.to("m").magnitude == pytest.approx(7.5, rel=1e-15)
    # machine: delay 0.1 s; travel 0.2 + 0.5 = 0.7 m; spare 8.3 m; the takeover costs v·T = 0.8 m
    assert s.lost.to("m").magnitude == pytest.approx(0.8, rel=1e-12)


def test_derivatives_and_sensitivity_reach_our_leaves_through_the_bound_output(tmp_path):
    s = scenario(tmp_path)
    expanded = s.ref("left").expression(expand=True)
    names = {str(sym) for sym in expanded.free_symbols}
    assert "T" in names and "tau_s" not in names and "tau_T" not in names   # our outputs expanded to our leaves
    # d(left)/d(takeover) = -v (in base units, m/s)
    derivative = s.ref("left").diff("takeover")
    assert float(derivative.subs({sym: 2 for sym in derivative.free_symbols if str(sym) == "v"})) == pytest.approx(-2)
    # the elasticity of left in the takeover: -v·T / left = -2 x 0.4 / 7.5
    table = {e.input: e.value for e in s.ref("left").elasticities()}
    assert table["takeover"] == pytest.approx(-0.8 / 7.5, rel=1e-9)
    # and through the scenario input to the site's own leaves: d(left)/d(site.base_delay) = -v as well,
    # d(left)/d(site.clear) = 1 - 1/10
    assert table["site.base_delay"] == pytest.approx(-2 * 0.1 / 7.5, rel=1e-9)
    assert table["site.clear"] == pytest.approx(0.9 * 10 / 7.5, rel=1e-9)


def test_the_use_keeps_its_nested_result_view_at_the_bound_values(tmp_path):
    r = scenario(tmp_path).result
    assert r.fields == ("machine", "waited", "left", "waited_travel")
    assert repr(r.waited).startswith("StopResult(") and r.waited.fields == ("speed", "delay", "travel", "spare")
    assert r.waited.delay.to("ms").magnitude == pytest.approx(500)      # our output total_delay, echoed as its input
    assert r.waited.travel.to("m").magnitude == pytest.approx(1.5)
    assert r.machine.delay.to("ms").magnitude == pytest.approx(100)
    assert r.machine.spare.to("m").magnitude == pytest.approx(8.3)
    assert r.waited.speed.to("m/s").magnitude == pytest.approx(2)


def test_a_result_field_may_read_one_field_of_a_uses_view(tmp_path):
    r = scenario(tmp_path).result
    assert r.fields[-1] == "waited_travel" and r.waited_travel.to("m").magnitude == pytest.approx(1.5)


def test_a_dict_of_a_scenario_inputs_results_at_a_variant_per_key(tmp_path):
    cat = load_derivations(write(tmp_path, USER))
    base = scenario(tmp_path)
    rows = cat.classes["Ladder"](base=base, extra={"a": "100 ms", "b": "600 ms"}).result.rows
    assert list(rows) == ["a", "b"] and repr(rows["a"]).startswith("TakeoverResult(")
    # a: takeover 400 + 100 ms, so the waited delay is 0.6 s: travel 2 x 0.6 + 0.5 = 1.7 m, left 10 - 1 - 1.7 = 7.3 m
    assert rows["a"].left.to("m").magnitude == pytest.approx(7.3)
    # b: takeover 1000 ms, delay 1.1 s: travel 2.2 + 0.5 = 2.7 m, left 6.3 m; the nested StopResult follows
    assert rows["b"].left.to("m").magnitude == pytest.approx(6.3)
    assert rows["b"].waited.delay.to("ms").magnitude == pytest.approx(1100)
    # the base itself is unchanged
    assert base.left.to("m").magnitude == pytest.approx(7.5)


def test_variants_set_from_an_output_of_another_dimension_is_refused(tmp_path):
    text = USER.replace('equation = "base.takeover + t_x"', 'equation = "base.left + t_x"').replace(
        'symbol = "T_row"\nunit = "ms"', 'symbol = "T_row"\nunit = "m"').replace('symbol = "t_x"\nunit = "ms"',
                                                                             'symbol = "t_x"\nunit = "m"')
    with pytest.raises(DerivationError, match=r"result\.variants\.rows: takeovers is in m but Takeover\.takeover is in ms"):
        load_derivations(write(tmp_path, text)).check()


def test_a_list_of_row_views_one_per_key(tmp_path):
    cat = load_derivations(write(tmp_path, USER))
    r = cat.classes["Speeds"](speeds=["1 m/s", "2 m/s", "1 m/s"], delay="500 ms", decel="4 m/s**2", clear="10 m").result
    assert r.fields == ("rows", "room") and len(r.rows) == 3
    assert repr(r.rows[0]).startswith("SpeedRow(") and r.rows[0].fields == ("travel", "spare")
    # 1 m/s: 0.5 + 1/8 = 0.625 m, spare 9.375 m; 2 m/s: 1 + 4/8 = 1.5 m, spare 8.5 m; the repeated speed repeats its row
    assert [row.travel.to("m").magnitude for row in r.rows] == pytest.approx([0.625, 1.5, 0.625])
    assert [row.spare.to("m").magnitude for row in r.rows] == pytest.approx([9.375, 8.5, 9.375])


def test_row_views_keyed_by_an_outputs_value_and_an_unkeyed_field_in_every_row(tmp_path):
    text = USER.replace('fields = ["travel", "spare"]', 'fields = ["travel", "room"]').replace(
        'fields = ["rows", "room"]', 'fields = ["rows", "room"]\nrow_keys = { rows = "label" }').replace(
        '[types.Speeds.outputs.room]', '[types.Speeds.inputs.unit_speed]\nsymbol = "v_1"\nunit = "m/s"\ndefault = "1 m/s"\n'
        '[types.Speeds.outputs.label]\nunit = "1"\nstyle = "dict"\nequation = "floor(v / v_1 + 1/2)"\n'
        '[types.Speeds.outputs.room]')
    cat = load_derivations(write(tmp_path, text))
    rows = cat.classes["Speeds"](speeds=["1 m/s", "2.4 m/s"], delay="500 ms", decel="4 m/s**2", clear="10 m").result.rows
    # keyed by the speed rounded to whole m/s (ints, as mlsysim's round gives): 1 and 2
    assert list(rows) == [1, 2] and all(type(k) is int for k in rows)
    # 2.4 m/s: 1.2 + 5.76/8 = 1.92 m; the unkeyed room (the clear distance) is the same in every row
    assert rows[2].travel.to("m").magnitude == pytest.approx(1.92)
    assert rows[1].room.to("m").magnitude == rows[2].room.to("m").magnitude == pytest.approx(10)


def test_a_row_view_without_a_keyed_field_is_refused(tmp_path):
    text = USER.replace('fields = ["travel", "spare"]', 'fields = ["room"]')
    with pytest.raises(DerivationError, match=r"result\.row_views\.rows: its keyed outputs must be keyed by one and the same index"):
        load_derivations(write(tmp_path, text)).check()


def test_a_bind_to_an_output_of_another_dimension_is_refused_naming_the_use_and_input(tmp_path):
    text = USER.replace('delay = "total_delay" }', 'delay = "left" }')
    with pytest.raises(DerivationError, match=r"uses\.waited: binds delay \(in ms\) to the output left, which is in m"):
        load_derivations(write(tmp_path, text)).check()


def test_an_output_that_reads_itself_through_a_use_is_a_cycle(tmp_path):
    text = USER.replace('equation = "tau_s + T"', 'equation = "tau_s + T + waited.travel / v"')
    with pytest.raises(DerivationError, match="outputs form a cycle: total_delay -> total_delay"):
        load_derivations(write(tmp_path, text)).check()


def test_a_scenario_input_binds_only_to_one_of_the_same_type(tmp_path):
    text = USER.replace('[types.Takeover.inputs.decel]', '[types.Takeover.inputs.other]\nkind = "scenario"\ntype = "Stop"\n'
                        'required = false\n[types.Takeover.inputs.decel]').replace('site = "site", delay = "total_delay"',
                                                                                    'site = "other", delay = "total_delay"')
    with pytest.raises(DerivationError, match=r"uses\.waited: cannot bind the Site input site to other, a Stop"):
        load_derivations(write(tmp_path, text)).check()


def test_a_bind_to_a_name_that_is_neither_input_nor_output_is_refused(tmp_path):
    text = USER.replace('delay = "total_delay" }', 'delay = "nowhere" }')
    with pytest.raises(DerivationError, match="binds delay to 'nowhere', which is neither an input nor an output of Takeover"):
        load_derivations(write(tmp_path, text)).check()
