"""Ctrl-C at the console in a real terminal: a ``geniusbot play`` process on a pseudo-terminal,
interrupted while its reader waits for a line, leaves as the README says (exit 130 and the
sentence saying how to come back), never with an aborted interpreter."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # a bound on a busy machine, not a sleep


def _read_until(fd: int, wanted: bytes | None, seen: bytes) -> bytes:
    """What the terminal shows, read until ``wanted`` appears (``None``: until it closes)."""
    deadline = time.monotonic() + WAIT
    while wanted is None or wanted not in seen:
        assert time.monotonic() < deadline, seen.decode("utf-8", "replace")[-2000:]
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal closed: the process has ended
                break
            if not chunk:
                break
            seen += chunk
    return seen


def _blocked_reading_stdin(pid: int) -> bool:
    """Whether one of the process's threads is in the system call ``read`` on descriptor 0."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            call = (task / "syscall").read_text().split()
        except OSError:
            continue
        if call[:2] == ["0", "0x0"]:
            return True
    return False


def _interrupted_console(tmp_path: Path) -> tuple[int, str]:
    env = {**os.environ, "GENIUSBOT_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("LOG_LEVEL", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the console, its terminal the pseudo-terminal
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "geniusbot", "play", "tictacfive", "--seed", "3"], env)
    try:
        seen = _read_until(fd, b"Type a move as", b"")
        os.write(fd, b"status\n")
        seen = _read_until(fd, b"Match #1: Tic-Tac-Five, live.", seen)
        deadline = time.monotonic() + WAIT
        while not _blocked_reading_stdin(pid):  # waiting on the child, not on game time
            assert time.monotonic() < deadline, "the console never waited for input"
            time.sleep(0.01)
        os.kill(pid, signal.SIGINT)
        seen = _read_until(fd, None, seen)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")


def test_ctrl_c_while_the_console_waits_for_a_line_in_a_terminal_exits_130_with_the_sentence(tmp_path):
    for attempt in range(3):
        code, text = _interrupted_console(tmp_path)
        assert "Fatal Python error" not in text, text[-2000:]
        assert "Traceback" not in text, text[-2000:]
        assert code == 130, (attempt, text[-2000:])
        assert "Leaving match #1; 'geniusbot play tictacfive' with the same --db resumes it." in text
