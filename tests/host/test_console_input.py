"""The console's line loop at the rough edges of its input: Ctrl-C, the end of the input without
'quit', bytes that are not UTF-8, and a line far longer than any move."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from geniusbot.console import MAX_LINE, UNREADABLE, run_console
from tests.manualtime import ManualTime


async def play(
    tmp_path: Path, stdin, game: str = "tictacfive", out: io.StringIO | None = None, **kw
) -> tuple[int, str]:
    out = io.StringIO() if out is None else out
    kw.setdefault("seed", 1)
    code = await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=stdin,
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        **kw,
    )
    return code, out.getvalue()


def typed(data: bytes) -> io.TextIOWrapper:
    """Standard input as a terminal gives it: bytes under a text stream."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")


async def test_bytes_that_are_not_utf8_are_a_line_the_console_cannot_read(tmp_path):
    code, out = await play(tmp_path, typed(b"p1: \xff\xfe H8\nhelp \xc3\np1: H8\nexport\nquit\n"))
    assert code == 0
    assert out.count(UNREADABLE.text) == 2, out
    assert "Something went wrong" not in out and "\udcff" not in out
    assert "ok p1: H8" in out
    record = out[out.index("[Game ") :]
    assert "\\x" not in record and "H8" in record and record.count("p1:") == 1  # nothing stored for them


async def test_a_text_stream_holding_undecodable_bytes_is_refused_the_same(tmp_path):
    code, out = await play(tmp_path, io.StringIO("p1: \udcff\udcfe\nquit\n"))
    assert code == 0 and UNREADABLE.text in out and "Something went wrong" not in out


async def test_the_end_of_the_input_without_quit_says_how_to_resume(tmp_path):
    code, out = await play(tmp_path, io.StringIO("p1: H8\n"))
    assert code == 0
    assert out.rstrip().endswith("Leaving match #1; 'geniusbot play tictacfive' with the same --db resumes it.")


async def test_a_line_longer_than_any_move_is_refused_and_not_echoed_whole(tmp_path):
    code, out = await play(tmp_path, io.StringIO("x" * 100_000 + "\n" + "y" * 300 + "\nquit\n"))
    assert code == 0
    assert f"That line is 100,000 characters long, more than any move or command ({MAX_LINE:,} at most)" in out
    assert "x" * 61 not in out and "(100,000 characters, cut here)" in out
    # Shorter than that, it is read; a line not understood is still quoted back cut.
    assert "I did not understand 'yyy" in out and "(300 characters, cut here)" in out and "y" * 61 not in out


async def test_ctrl_c_while_waiting_for_a_line_leaves_quietly_saying_how_to_resume(tmp_path):
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    try:
        out = io.StringIO()
        task = asyncio.ensure_future(play(tmp_path, stdin, out=out))
        for _ in range(3000):  # a bound on a busy machine: until the console waits for a line
            await asyncio.sleep(0.01)
            if "Type a move" in out.getvalue() or task.done():
                break
        assert "Type a move" in out.getvalue(), out.getvalue()
        task.cancel()  # what asyncio.run does with a Ctrl-C
        code, out = await asyncio.wait_for(task, 10)
    finally:
        os.close(write)
    assert code == 130
    assert out.rstrip().endswith("Leaving match #1; 'geniusbot play tictacfive' with the same --db resumes it.")


def test_ctrl_c_in_a_real_terminal_session_prints_no_traceback(tmp_path):
    env = {**os.environ, "GENIUSBOT_DATA_DIR": str(tmp_path / "data")}
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "geniusbot", "play", "tictacfive", "--db", str(tmp_path / "c.db")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stdin is not None
        for line in process.stdout:
            if line.startswith("Type a move"):
                break
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "Leaving match #1; 'geniusbot play tictacfive' with the same --db resumes it." in out
    assert process.returncode == 130


async def test_ctrl_c_while_the_match_is_being_set_up_says_so_without_a_traceback(tmp_path, monkeypatch):
    from geniusbot.host.match import Host

    started = asyncio.Event()

    async def slow_recover(self, only=None):
        started.set()
        await asyncio.sleep(3600)

    monkeypatch.setattr(Host, "recover", slow_recover)
    task = asyncio.ensure_future(play(tmp_path, io.StringIO("quit\n")))
    await asyncio.wait_for(started.wait(), 10)
    task.cancel()
    code, out = await asyncio.wait_for(task, 10)
    assert code == 130
    assert out.strip().endswith(
        "\nStopped while the match was being set up; 'geniusbot play tictacfive' with the same --db takes it up again."
    )
    assert "Traceback" not in out
