"""Clocks that read but overflow (``--clock 300000000000s``, a number of 309 digits, a record's
``TimeControl``) are refused where the spec is read, in a sentence that says the bound: 24 hours
an amount, 100 byo-yomi periods. Nothing is started or stored with them."""

from __future__ import annotations

import pytest

from geniusbot.cli import EXIT_USAGE, main
from geniusbot.host.clock import MAX_AMOUNT_MS, MAX_PERIODS, ClockTooLong, TimeControl
from tests.cli_support import clean_cli, run_geniusbot

BOUND = "each time in a time control may be at most 24 hours (24h, 1440m or 86400s)."
HUGE = "1" + "0" * 308 + "s"  # a float of it is 1e308; in milliseconds, infinity


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("300000000000s", f"'300000000000s' is longer than a clock may give: {BOUND}"),
        ("86401s", f"'86401s' is longer than a clock may give: {BOUND}"),
        ("60s+25h", f"'25h' in '60s+25h' is longer than a clock may give: {BOUND}"),
        ("60s+5m/1441m", f"'1441m' in '60s+5m/1441m' is longer than a clock may give: {BOUND}"),
        (HUGE, f"'100000000000000000000000... (310 characters)' is longer than a clock may give: {BOUND}"),
        ("5x" + "9" * 400 + "s", "is longer than a clock may give"),
        ("101x60s", "'101x60s' has 101 periods; a byo-yomi clock may have at most 100, such as 5x60s."),
        ("9" * 5000 + "x60s", "periods; a byo-yomi clock may have at most 100, such as 5x60s."),
    ],
)
def test_a_clock_past_the_bound_is_refused_saying_the_bound(spec, said):
    with pytest.raises(ClockTooLong) as refused:
        TimeControl.parse(spec)
    assert said in str(refused.value) and len(str(refused.value)) < 300


def test_the_bound_itself_is_a_clock():
    assert TimeControl.parse("24h").per_move_ms == MAX_AMOUNT_MS == TimeControl.parse("86400s").per_move_ms
    assert TimeControl.parse(f"{MAX_PERIODS}x24h").periods == MAX_PERIODS
    assert TimeControl.parse("60s+24h/24h").reserve_ms == MAX_AMOUNT_MS


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["300000000000s", HUGE])
def test_play_refuses_such_a_clock_before_anything_is_stored(tmp_path, spec):
    db = tmp_path / "console.sqlite3"
    done = run_geniusbot(tmp_path, "play", "tictacfive", "--clock", spec, "--db", str(db), stdin="p1: H8\nquit\n")
    assert done.returncode == EXIT_USAGE, done.stderr
    said = done.stdout + done.stderr
    assert "--clock: " in said and "is longer than a clock may give" in said and BOUND in said
    assert "Traceback" not in done.stdout + done.stderr and not db.exists()


@pytest.mark.parametrize("spec", ["300000000000s", HUGE])
def test_import_keeps_the_games_own_clock_saying_why_the_records_was_refused(tmp_path, capsys, spec):
    record = tmp_path / "long-clock.txt"
    record.write_text(f'[Game "tictacfive"]\n[TimeControl "{spec}"]\n\np1: H8\n', encoding="utf-8")
    assert main(["import", str(record), "--db", str(tmp_path / "archive.sqlite3")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "the match is paused" in out
    assert f"Note: The TimeControl header is refused: '{spec[:24]}" in out and BOUND in out
    assert "The match keeps the game's own, 60s+5m." in out
    capsys.readouterr()
    # The paused match resumes on that clock at the console.
    done = run_geniusbot(tmp_path, "play", "tictacfive", "--db", str(tmp_path / "archive.sqlite3"), stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "Resuming match #1" in done.stdout and "Traceback" not in done.stdout + done.stderr
