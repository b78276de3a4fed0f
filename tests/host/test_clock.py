"""The clock model: every time control of the rule texts, fed with injected times."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.host.clock import (
    Clock,
    ClockSpecError,
    TimeControl,
    format_duration,
    preset,
)

T0 = 1_800_000_000.0


def clock(spec: str) -> Clock:
    c = Clock.new(TimeControl.parse(spec))
    c.start("p1", T0)
    return c


# ---- specs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, per_move, reserve, block, periods",
    [
        ("60s", 60_000, 0, 0, 0),
        ("60s+5m", 60_000, 300_000, 0, 0),
        ("90s+5m/10s", 90_000, 300_000, 10_000, 0),
        ("5x60s", 60_000, 240_000, 60_000, 5),
        ("1m", 60_000, 0, 0, 0),
        (" 60 S + 5 M ", 60_000, 300_000, 0, 0),
        ("0s+5m", 0, 300_000, 0, 0),
    ],
)
def test_specs_parse(spec, per_move, reserve, block, periods):
    tc = TimeControl.parse(spec)
    assert (tc.per_move_ms, tc.reserve_ms, tc.block_ms, tc.periods) == (per_move, reserve, block, periods)
    assert TimeControl.parse(tc.spec()) == tc


def test_bout_reset_and_none():
    assert TimeControl.parse("30s+1m@bout").reset_each_bout
    assert TimeControl.parse("none").untimed


@pytest.mark.parametrize("bad", ["", "fast", "60x", "60s+", "60s+5m/0s", "0x60s", "0s", "+5m", "5m+soon"])
def test_bad_specs_say_what_to_write(bad):
    with pytest.raises(ClockSpecError) as err:
        TimeControl.parse(bad)
    assert "such as" in str(err.value) or "write" in str(err.value) or "longer" in str(err.value)


def test_presets_follow_the_rule_texts():
    assert preset("tightwire", "classic").spec() == "60s"
    assert preset("tightwire", "influx").spec() == "5x60s"
    assert preset("tightwire", "fate").spec() == "90s+5m/10s"
    assert preset("armslength").spec() == "60s+5m"
    assert preset("tictacfive").spec() == "60s+5m"
    assert preset("decks").spec() == "30s+60s"
    assert preset("tiles").spec() == "30s"


# ---- per move ------------------------------------------------------------------------------


def test_simple_per_move_expires_after_the_allowance():
    c = clock("60s")
    assert c.deadline("p1") == T0 + 60
    assert not c.expired("p1", T0 + 59.999)
    assert c.expired("p1", T0 + 60)
    charge = c.stop("p1", T0 + 59)
    assert not charge.flagged and charge.reserve_ms == 0
    c.start("p1", T0 + 100)
    assert c.deadline("p1") == T0 + 160  # fresh allowance each move


def test_continuous_reserve_pays_the_overrun_exactly():
    c = clock("60s+5m")
    assert c.deadline("p1") == T0 + 360
    left = c.remaining("p1", T0 + 75.5)
    assert left.in_reserve and left.move_ms == 0 and left.reserve_ms == 284_500
    charge = c.stop("p1", T0 + 75.5)
    assert charge.reserve_ms == 15_500
    assert c.seats["p1"].reserve_ms == 284_500
    c.start("p1", T0 + 200)
    assert c.deadline("p1") == T0 + 200 + 60 + 284.5


def test_blocked_reserve_charges_whole_blocks():
    c = clock("90s+5m/10s")
    left = c.remaining("p1", T0 + 91)
    assert left.reserve_ms == 290_000 and left.move_ms == 9_000  # one block taken, 9 s of it left
    assert c.stop("p1", T0 + 91).reserve_ms == 10_000
    c.start("p1", T0 + 100)
    assert c.stop("p1", T0 + 100 + 90 + 20).reserve_ms == 20_000  # exactly two blocks
    c.start("p1", T0 + 300)
    assert c.stop("p1", T0 + 300 + 90 + 20.001).reserve_ms == 30_000
    assert c.seats["p1"].reserve_ms == 240_000


def test_blocked_reserve_runs_out_and_flags():
    c = clock("90s+5m/10s")
    assert c.deadline("p1") == T0 + 390
    assert c.expired("p1", T0 + 390)
    charge = c.stop("p1", T0 + 390)
    assert charge.flagged and c.seats["p1"].reserve_ms == 0


def test_byoyomi_a_move_inside_its_period_keeps_it():
    c = clock("5x60s")
    assert c.remaining("p1", T0).periods_left == 5
    c.stop("p1", T0 + 59)
    assert c.remaining("p1", T0 + 60).periods_left == 5
    c.start("p1", T0 + 100)
    left = c.remaining("p1", T0 + 100 + 61)
    assert left.periods_left == 4 and left.move_ms == 59_000
    c.stop("p1", T0 + 100 + 130)  # two periods lost
    assert c.remaining("p1", T0 + 300).periods_left == 3
    c.start("p1", T0 + 300)
    assert c.deadline("p1") == T0 + 300 + 180  # three periods left
    assert c.display("p1", T0 + 300) == "1:00 (3 periods)"


def test_reserve_reset_each_bout():
    c = clock("30s+1m@bout")
    c.stop("p1", T0 + 80)
    assert c.seats["p1"].reserve_ms == 10_000
    c.reset_reserves()
    assert c.seats["p1"].reserve_ms == 60_000
    plain = clock("30s+1m")
    plain.stop("p1", T0 + 80)
    plain.reset_reserves()
    assert plain.seats["p1"].reserve_ms == 10_000


def test_clock_item_extra_is_spent_after_the_reserve():
    c = clock("30s")
    c.add_extra("p1", 180_000)
    assert c.deadline("p1") == T0 + 210
    charge = c.stop("p1", T0 + 45)
    assert charge.extra_ms == 15_000 and not charge.flagged
    assert c.seats["p1"].extra_ms == 165_000
    c.start("p1", T0 + 100)
    assert c.display("p1", T0 + 100) == "0:30 +2:45 extra"


def test_pause_freezes_and_resume_continues():
    c = clock("60s+5m")
    c.pause(T0 + 20)
    assert c.deadline("p1") is None
    assert c.remaining("p1", T0 + 1000).move_ms == 40_000
    c.resume(T0 + 1000)
    assert c.deadline("p1") == T0 + 1000 + 340
    assert c.stop("p1", T0 + 1000 + 50).reserve_ms == 10_000


def test_a_turn_started_while_paused_waits_for_resume():
    c = Clock.new(TimeControl.parse("60s"))
    c.pause(T0)
    c.start("p2", T0)
    assert c.deadline("p2") is None
    c.resume(T0 + 500)
    assert c.deadline("p2") == T0 + 560


def test_give_back_an_outage():
    c = clock("60s")
    c.give_back(3600)
    assert c.deadline("p1") == T0 + 3660


def test_simultaneous_phase_runs_both_clocks():
    c = Clock.new(TimeControl.parse("30s+1m"))
    c.sync(["p1", "p2"], T0)
    assert c.running() == ("p1", "p2")
    c.stop("p1", T0 + 10)
    assert c.next_deadline() == (T0 + 90, "p2")
    c.sync([], T0 + 40)
    assert c.seats["p2"].reserve_ms == 50_000


def test_alerts_warn_at_30_and_10_seconds_and_mark_overtime():
    c = clock("60s+5m")
    kinds = [(a.kind, a.at - T0, a.seconds) for a in c.alerts(T0)]
    assert kinds == [("overtime", 60, 0), ("warning", 330, 30), ("warning", 350, 10), ("expiry", 360, 0)]
    late = [a.kind for a in c.alerts(T0 + 340)]
    assert late == ["warning", "expiry"]


def test_byoyomi_announces_each_period_used_up():
    c = clock("3x60s")
    kinds = [(a.kind, a.at - T0) for a in c.alerts(T0) if a.kind != "warning"]
    assert kinds == [("period", 60), ("period", 120), ("expiry", 180)]
    assert c.remaining("p1", T0 + 60).periods_left == 3  # a move at the boundary keeps its period
    assert c.remaining("p1", T0 + 60.001).periods_left == 2


def test_untimed_clock_has_no_deadline():
    c = Clock.new(TimeControl.parse("none"))
    c.start("p1", T0)
    assert c.deadline("p1") is None and c.alerts(T0) == [] and c.display("p1", T0) == ""
    assert not c.stop("p1", T0 + 10**6).flagged


def test_format_duration_rounds_up():
    assert format_duration(0) == "0:00"
    assert format_duration(1) == "0:01"
    assert format_duration(61_000) == "1:01"
    assert format_duration(3_600_000) == "1:00:00"


# ---- properties ----------------------------------------------------------------------------

specs = st.sampled_from(["60s", "60s+5m", "90s+5m/10s", "5x60s", "30s+1m@bout", "0s+5m"])


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    specs,
    st.lists(
        st.tuples(
            st.sampled_from(["p1", "p2"]),
            st.sampled_from(["start", "stop", "pause", "resume", "extra"]),
            st.floats(0, 200),
        ),
        max_size=25,
    ),
)
def test_serialisation_round_trips_and_the_deadline_is_when_time_hits_zero(spec, steps):
    c = Clock.new(TimeControl.parse(spec))
    now = T0
    for seat, op, dt in steps:
        now += round(dt, 3)
        if op == "start":
            c.start(seat, now)
        elif op == "stop":
            c.stop(seat, now)
        elif op == "pause":
            c.pause(now)
        elif op == "resume":
            c.resume(now)
        else:
            c.add_extra(seat, 1000)
        assert c.seats[seat].reserve_ms >= 0 and c.seats[seat].extra_ms >= 0
        assert Clock.from_dict(json.loads(json.dumps(c.to_dict()))) == c
        for s in ("p1", "p2"):
            d = c.deadline(s)
            if d is not None:
                assert c.remaining(s, d).total_ms == 0
                assert c.remaining(s, now).total_ms >= c.remaining(s, now + 1).total_ms


def test_tic_tac_five_plays_sixty_seconds_a_move_with_five_minutes_of_reserve():
    # docs/rules/tictacfive.md, ruling 11: the text has no clock; the bot uses Arm's Length's.
    assert preset("tictacfive").spec() == "60s+5m"


def test_the_time_control_reads_after_clock_in_the_first_line():
    # "Match #1: ... Clock: 60 s a move, then a 5:00 reserve." / "Clock: none." (not "Clock: no clock.")
    assert TimeControl.parse("60s+5m").describe() == "60 s a move, then a 5:00 reserve"
    assert TimeControl.parse("none").describe() == "none"


def test_a_bad_duration_is_named_once_and_the_fix_is_given():
    with pytest.raises(ClockSpecError) as whole:
        TimeControl.parse("forever")
    assert str(whole.value) == (
        "'forever' is not a duration; write a number with s or m, such as 60s or 5m (or none for no clock)."
    )
    with pytest.raises(ClockSpecError) as part:
        TimeControl.parse("60s+lots")
    assert str(part.value).startswith("'lots' in '60s+lots' is not a duration;")
