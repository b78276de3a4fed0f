"""Crash test: the console host in a real subprocess, killed with SIGKILL mid-match, restarted.

Time is injected through the file named by ``GENIUSBOT_TEST_TIME_FILE`` (the console's test-only
time source), so the test moves the match clock by writing a number, never by sleeping. After
every restart, every acknowledged action must be in the store, in order, and the clocks must be
what the moves cost (the outage given back).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.host.consoleproc import T0, WAIT, Console, set_time, wait_for_heartbeat


def tictacfive(tmp: Path) -> Console:
    """A Tic-Tac-Five console with a clock, over a SQLite file in ``tmp``."""
    db = f"sqlite+aiosqlite:///{tmp / 'console.db'}"
    return Console(tmp, ["tictacfive", "--seed", "1", "--clock", "60s+5m", "--db", db, "--boards", str(tmp / "boards")])


def stored(tmp: Path) -> tuple[list[tuple[str, str]], dict]:
    with sqlite3.connect(tmp / "console.db") as db:
        actions = db.execute("SELECT seat, text FROM actions WHERE accepted AND kind = 'move' ORDER BY seq").fetchall()
        (clock,) = db.execute("SELECT clock FROM matches").fetchone()
    return [tuple(a) for a in actions], json.loads(clock)


def clocks_now(console: Console) -> str:
    console.send("status")
    line = console.expect(lambda line: "Clocks: " in line)
    return line.split("Clocks: ", 1)[1].rstrip(".")


@pytest.mark.slow
def test_sigkill_at_several_moments_loses_nothing_acknowledged(tmp_path):
    t = T0
    set_time(tmp_path, t)
    acked: list[tuple[str, str]] = []

    console = tictacfive(tmp_path)
    console.expect(lambda line: line.startswith("Type a move"))
    # Killed right after the start, before any move.
    console.kill()

    t += 500
    set_time(tmp_path, t)
    console = tictacfive(tmp_path)
    console.expect(lambda line: line.startswith("Resuming match #1"))
    console.expect(lambda line: "back after" in line)
    for seat, text, think in [("p1", "H8", 10), ("p1", "H9", 75), ("p1", "H10", 5)]:
        t += think
        set_time(tmp_path, t)
        console.move(seat, text)
        acked.append((seat, text))
    # Killed right after an acknowledgement.
    console.kill()
    actions, clock = stored(tmp_path)
    assert actions == acked
    assert clock["seats"]["p1"]["reserve_ms"] == 285_000  # the 75 s move cost 15 s of reserve

    t += 3600
    set_time(tmp_path, t)
    console = tictacfive(tmp_path)
    console.expect(lambda line: "back after 1:00:00" in line)
    actions, clock = stored(tmp_path)
    assert actions == acked
    # p2's turn began at the last commit; the hour down is given back, so it has all its time.
    assert clocks_now(console) == "p1 1:00 +4:45, p2 1:00 +5:00"
    # p2 thinks 30 s, then the bot dies again before anything was committed.
    t += 30
    set_time(tmp_path, t)
    wait_for_heartbeat(tmp_path, t)
    console.kill()

    t += 500
    set_time(tmp_path, t)
    console = tictacfive(tmp_path)
    console.expect(lambda line: "back after 8:20" in line)
    assert clocks_now(console) == "p1 1:00 +4:45, p2 0:30 +5:00"  # both outages given back
    t += 20
    set_time(tmp_path, t)
    console.move("p2", "white")
    _, clock = stored(tmp_path)
    assert clock["seats"]["p2"]["reserve_ms"] == 300_000  # 50 s of thinking: inside the minute
    acked.append(("p2", "white"))
    # Killed with a move sent but its answer not read: it may or may not have landed.
    t += 3
    set_time(tmp_path, t)
    console.send("p2: G9")
    console.kill()

    actions, _ = stored(tmp_path)
    assert actions[: len(acked)] == acked
    assert actions in (acked, acked + [("p2", "G9")])
    landed = actions == acked + [("p2", "G9")]

    t += 100
    set_time(tmp_path, t)
    console = tictacfive(tmp_path)
    console.expect(lambda line: "back after" in line)
    if not landed:
        console.move("p2", "G9")
    acked.append(("p2", "G9"))
    t += 61 + 300  # p1 runs out of move time and reserve: the console's timer rules it
    set_time(tmp_path, t)
    console.expect(lambda line: "ran out of time" in line)
    console.send("export")
    console.expect(lambda line: line.startswith("host: timeout p1"))
    console.send("quit")
    console.proc.wait(timeout=WAIT)
    actions, clock = stored(tmp_path)
    assert actions == acked
    assert clock["seats"]["p1"]["reserve_ms"] == 0
