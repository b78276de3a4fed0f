"""Crash tests of the memory grid: the console host of Tile Decklaration in a real subprocess,
killed with SIGKILL in the gaps around posting the grid, or inside its memorize window, and
restarted over the same database (SQLite and PostgreSQL).

The kill points are the test-only ``GENIUSBOT_TEST_KILL_AT`` boundaries
(:data:`geniusbot.host.deadlines.KILL_AT_ENV`): the process kills itself right after a timed
message's intent is written (nothing posted), or right after the message is posted (its id not
yet written). Time is injected through ``GENIUSBOT_TEST_TIME_FILE``, so the test moves the
clock by writing a number, never by sleeping.

A grid posted before a crash must go at its 30 s of wall time (at once on the return when that
moment has passed), with the memorize window: it never outlives its window by more than the
time the bot was down, and play goes on when it is gone.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from geniusbot.host.deadlines import KILL_AT_ENV
from geniusbot.storage import Store

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_800_000_000.0
WAIT = 30  # seconds to wait for the child's answer (a bound on a busy machine, not a sleep)
EARLIER = "(deleted: a message from an earlier run)"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


class Console:
    """One ``geniusbot play tiles`` process and a reader thread for its output."""

    def __init__(self, tmp: Path, db: str, kill_at: str | None = None) -> None:
        env = {
            **os.environ,
            "GENIUSBOT_TEST_TIME_FILE": str(tmp / "now"),
            "GENIUSBOT_DATA_DIR": str(tmp),
            "PYTHONPATH": str(ROOT),
            "LOG_LEVEL": "WARNING",
        }
        env.pop(KILL_AT_ENV, None)
        if kill_at is not None:
            env[KILL_AT_ENV] = kill_at
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "geniusbot", "play", "tiles", "--seed", "1", "--db", db],
            cwd=tmp,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, predicate) -> str:
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no such line; output so far: {self.seen[-30:]}") from None
            if line is None:
                raise AssertionError(f"the console ended; output: {self.seen[-30:]}")
            self.seen.append(line)
            if predicate(line):
                return line

    def died(self) -> list[str]:
        """Wait for the process to end (it killed itself); all it printed."""
        assert self.proc.wait(timeout=WAIT) == -signal.SIGKILL
        while (line := self.lines.get(timeout=WAIT)) is not None:
            self.seen.append(line)
        return self.seen

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=WAIT)

    def quit(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=WAIT)


def set_time(tmp: Path, t: float) -> None:
    part = tmp / "now.tmp"
    part.write_text(repr(t))
    part.replace(tmp / "now")  # atomic: the child never reads half a number


def database(request: pytest.FixtureRequest, backend: str, tmp: Path) -> str:
    if backend == "postgres":
        return request.getfixturevalue("postgres_db_url")
    return f"sqlite+aiosqlite:///{tmp / 'console.db'}"


async def still_to_delete(url: str) -> list:
    store = await Store.open(url, migrate=False)
    try:
        return await store.messages_to_delete()
    finally:
        await store.close()


#: Each gap: the kill point, how many timed messages were (or may have been) posted by then, a
#: line the console printed before dying (if any), and how long the bot stays down. The grid's
#: timed messages are, in order: the opening line, the board's picture (no caption here), the
#: text board.
GAPS = [
    ("message-intent:1", 1, None, 10),
    ("message-posted:1", 1, "Memorize the grid: it is shown for 30 seconds", 45),
    ("message-posted:3", 3, "0 tiles declared.", 10),
]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("kill_at", "posted", "printed", "down"), GAPS)
async def test_a_grid_posted_just_before_a_crash_goes_at_its_time(
    request, tmp_path, backend, kill_at, posted, printed, down
):
    db = database(request, backend, tmp_path)
    set_time(tmp_path, T0)
    first = Console(tmp_path, db, kill_at=kill_at)
    output = first.died()
    if printed is not None:
        assert any(line.startswith(printed) for line in output), output
    else:
        assert not any(line.startswith("Memorize the grid") for line in output), output

    set_time(tmp_path, T0 + down)
    second = Console(tmp_path, db)
    second.expect(lambda line: line.startswith("Resuming match #1"))
    back = second.expect(lambda line: line.startswith("The bot is back after"))
    before_back = second.seen[:-1]
    if down < 30:
        # Inside the window: its time ran on, the grid still goes at T0 + 30.
        assert back.endswith("but not the window's time (what it shows stayed on show): it closes in 20 s."), back
        assert EARLIER not in before_back
        set_time(tmp_path, T0 + 30)
        second.expect(lambda line: line == "Time is up: the grid is hidden.")
        # The earlier run's messages, and the board this run showed again (picture, text).
        while len(deletions(second)) < posted + 2:
            second.expect(lambda line: line.startswith("(deleted: "))
    else:
        # Its time passed while the bot was down: the grid went first, then the window closed.
        assert before_back.count(EARLIER) == posted, before_back
        assert back.endswith("its time ran out meanwhile, so it closes now."), back
        second.expect(lambda line: line == "Time is up: the grid is hidden.")
    second.send("p1: red")  # play goes on once the grid is gone
    second.expect(lambda line: line.startswith("ok p1: "))
    second.quit()
    assert deletions(second).count(EARLIER) == posted  # each message of the earlier run, once
    assert await still_to_delete(db) == []


def deletions(console: Console) -> list[str]:
    return [line for line in console.seen if line.startswith("(deleted: ")]


def wait_for_heartbeat(tmp: Path, alive_at: float) -> None:
    """Wait (bounded) until the child has noted that it was alive at ``alive_at``."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with sqlite3.connect(tmp / "console.db") as db:
            beats = db.execute("SELECT payload FROM timers WHERE kind = 'heartbeat'").fetchall()
        if any(json.loads(p)["alive_at"] >= alive_at for (p,) in beats):
            return
        time.sleep(0.02)  # waiting on the child process, not on game time
    raise AssertionError("the console wrote no heartbeat")


@pytest.mark.slow
async def test_a_restart_inside_the_memorize_window_ends_it_when_the_grid_goes(tmp_path):
    db = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    set_time(tmp_path, T0)
    first = Console(tmp_path, db)
    first.expect(lambda line: line.startswith("Match #1: Tile Decklaration"))
    first.expect(lambda line: line.startswith("No move is taken right now"))  # the grid is up
    set_time(tmp_path, T0 + 8)
    wait_for_heartbeat(tmp_path, T0 + 8)
    first.kill()  # 8 s into the window

    set_time(tmp_path, T0 + 18)  # back 10 s later
    second = Console(tmp_path, db)
    back = second.expect(lambda line: line.startswith("The bot is back after"))
    assert back == (
        "The bot is back after 0:10; the clocks were stopped meanwhile, but not the window's time "
        "(what it shows stayed on show): it closes in 12 s."
    )
    second.expect(lambda line: line == "Memorize the grid: it is hidden in 12 s.")  # the board again
    second.expect(lambda line: line.startswith("No move is taken right now"))
    set_time(tmp_path, T0 + 30)  # the grid's 30 s of wall time: it goes, and the window with it
    second.expect(lambda line: line == "Time is up: the grid is hidden.")
    while len(deletions(second)) < 3 + 2:  # the first run's three, the board shown again
        second.expect(lambda line: line.startswith("(deleted: "))
    assert deletions(second).count(EARLIER) == 3
    set_time(tmp_path, T0 + 31)
    second.send("p1: red")
    second.expect(lambda line: line.startswith("ok p1: "))
    assert not [line for line in second.seen if "The grid is on show" in line]
    second.quit()
    assert await still_to_delete(db) == []
