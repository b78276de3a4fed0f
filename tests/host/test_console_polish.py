"""The console as a new user meets it: what `geniusbot play` says and does at each rough edge a
first trial found (rule-set names, --help, quitting, moves after the end, help and rules, timed
windows, private acknowledgements, bad options, the log)."""

from __future__ import annotations

import io
import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot import cli
from geniusbot.cli import main
from geniusbot.host.console import run_console
from geniusbot.host.timers import ManualTime


async def play(tmp_path: Path, lines: list[str], game: str = "tictacfive", **kw) -> tuple[int, str]:
    out = io.StringIO()
    kw.setdefault("seed", 1)
    code = await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        **kw,
    )
    return code, out.getvalue()


# ---- timed windows ------------------------------------------------------------------------------


async def test_close_window_ends_the_memory_grid_at_once_and_the_export_says_so(tmp_path):
    code, out = await play(tmp_path, ["p1: call red", "close window", "p1: call red", "close window", "export", "quit"], "tiles")
    assert code == 0
    before, _, after = out.partition("Time is up: the grid is hidden.")
    assert after, out
    assert "p1: The grid is on show: memorize it." in before  # nobody moves while the grid is shown
    assert "ok p1: call red" in after
    assert "No timed phase is running, so there is no window to close." in after
    assert "host: close window" in after  # the record carries it, as a record's host line
    # The boards that showed the grid went with it.
    assert "(message 2 deleted)" in before + after


async def test_a_sealed_move_is_acknowledged_once(tmp_path):
    _, out = await play(tmp_path, ["p1 (dm): create 20 15", "quit"], "decks", clock="none")
    private = [line for line in out.splitlines() if line.startswith("[to p1 only]")]
    assert "[to p1 only] Taken: create 20 15." in private
    assert not [line for line in private if "Sealed" in line or "sealed" in line.split(":")[0]]


# ---- the log ------------------------------------------------------------------------------------


@pytest.fixture
def launcher(monkeypatch, tmp_path):
    """``geniusbot`` run in-process in an empty directory; the logging it set up is undone after."""
    for name in ("LOG_LEVEL", "DATABASE_URL", "GENIUSBOT_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    root, alembic = logging.getLogger(), logging.getLogger("alembic")
    saved = (list(root.handlers), root.level, alembic.level, getattr(cli.configure_logging, "done", False))
    yield
    for handler in root.handlers[:]:
        if handler not in saved[0]:
            root.removeHandler(handler)
    root.setLevel(saved[1])
    alembic.setLevel(saved[2])
    cli.configure_logging.done = saved[3]


@pytest.mark.parametrize("level, heard", [("INFO", False), ("DEBUG", True)])
def test_migrations_are_quiet_unless_debugging(launcher, tmp_path, caplog, level, heard):
    caplog.set_level(logging.DEBUG)  # whatever reaches the root's handlers is captured
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    assert main(["--log-level", level, "db", "upgrade", "--url", url]) == 0
    said = [r.getMessage() for r in caplog.records if r.name.startswith("alembic")]
    assert any("Running upgrade" in m for m in said) == heard, said
    assert any("Context impl" in m for m in said) == heard, said
