"""A ``geniusbot play`` console in a real subprocess, for the crash tests: a reader thread for its
output, lines sent to its input, SIGKILL, and the test-only time file it reads its clock from.

Time is injected through ``GENIUSBOT_TEST_TIME_FILE`` (the console's test-only time source), so a
test moves the match clock by writing a number with :func:`set_time`, never by sleeping.
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
from collections.abc import Callable, Sequence
from pathlib import Path

from geniusbot.host.deadlines import KILL_AT_ENV

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_800_000_000.0
WAIT = 30  # seconds to wait for the child's answer (a bound on a busy machine, not a sleep)


class Console:
    """One ``geniusbot play ARGS`` process in ``tmp`` and a reader thread for its output.

    ``kill_at`` names a test-only write boundary at which the child kills itself
    (:data:`geniusbot.host.deadlines.KILL_AT_ENV`)."""

    def __init__(self, tmp: Path, args: Sequence[str], kill_at: str | None = None) -> None:
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
            [sys.executable, "-m", "geniusbot", "play", *args],
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

    def expect(self, predicate: Callable[[str], bool]) -> str:
        """The next line the console prints that ``predicate`` accepts (the ones before it are kept
        in ``seen``); fails, with the last lines, when none comes within :data:`WAIT` seconds."""
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

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def move(self, seat: str, text: str) -> None:
        """Send ``seat: text`` and wait for its acknowledgement."""
        self.send(f"{seat}: {text}")
        self.expect(lambda line: line.startswith(f"ok {seat}: "))

    def died(self) -> list[str]:
        """Wait for the process to end (it killed itself); all it printed."""
        assert self.proc.wait(timeout=WAIT) == -signal.SIGKILL
        while (line := self.lines.get(timeout=WAIT)) is not None:
            self.seen.append(line)
        return self.seen

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=WAIT)

    def quit(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=WAIT)


def set_time(tmp: Path, t: float) -> None:
    """Set the console's clock to ``t`` (seconds since the epoch)."""
    part = tmp / "now.tmp"
    part.write_text(repr(t))
    part.replace(tmp / "now")  # atomic: the child never reads half a number


def wait_for_heartbeat(tmp: Path, alive_at: float) -> None:
    """Wait (bounded) until the child, over ``tmp/console.db``, has noted that it was alive at
    ``alive_at``."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with sqlite3.connect(tmp / "console.db") as db:
            beats = db.execute("SELECT payload FROM timers WHERE kind = 'heartbeat'").fetchall()
        if any(json.loads(p)["alive_at"] >= alive_at for (p,) in beats):
            return
        time.sleep(0.02)  # waiting on the child process, not on game time
    raise AssertionError("the console wrote no heartbeat")
