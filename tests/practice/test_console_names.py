"""A practice match at the console names each seat one way in every line it prints: the
opponent's seat is "bot" in the events, the status and the text board alike."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

from geniusbot.console import run_console
from tests.manualtime import ManualTime


async def _play(tmp_path: Path, game: str, lines: list[str]) -> str:
    out = io.StringIO()
    code = await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        seed=3,
        bot=("p2", "easy"),
    )
    assert code == 0, out.getvalue()
    return out.getvalue()


def _stray(out: str) -> list[str]:
    """The lines that call the opponent's seat p2, past what it quotes ('p1: H8' shows how a
    move is typed, with the seat id) and what says which seat it plays ("bot (p2)", "plays p2")."""
    said = (re.sub(r"'[^']*'", "", line).replace("(p2)", "").replace("plays p2.", "") for line in out.splitlines())
    return [line for line in said if re.search(r"\bp2\b", line)]


async def test_the_text_board_names_the_opponents_seat_as_the_events_do(tmp_path: Path) -> None:
    out = await _play(tmp_path, "allhands", ["status", "quit"])
    assert "Points: p1 0, bot 0 (first to 23)." in out
    assert not _stray(out)


async def test_a_gomoku_board_says_whom_it_waits_for_by_name(tmp_path: Path) -> None:
    out = await _play(tmp_path, "tictacfive", ["p1: H8", "status", "quit"])
    assert not _stray(out)
