"""A board is shown once per action: the games' texts say what happened, the host shows the board
(a picture with the texts as its caption, or a text board), so no grid appears twice."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot.console import run_console
from geniusbot.games.allhands.swabbing import board_text
from geniusbot.games.allhands.tiles import grid_text
from geniusbot.host.match import Host
from geniusbot.host.transport import RecordingTransport
from geniusbot.storage import Store
from tests.host.support import FakeTime
from tests.host.test_allhands_hosting import start
from tests.manualtime import ManualTime


def _row(text: str) -> str:
    """The top row of a text grid (``7 . . . . . . .``), which a copy of the grid always carries."""
    return text.splitlines()[0]


def _count(texts: list[str], needle: str) -> int:
    return sum(t.count(needle) for t in texts)


async def _console(tmp_path: Path, game: str, lines: list[str]) -> str:
    out = io.StringIO()
    await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        seed=1,
    )
    return out.getvalue()


# ---- the console -------------------------------------------------------------------------------


async def test_the_console_prints_the_swabbing_board_once_at_the_start_and_once_a_move(tmp_path):
    out = await _console(tmp_path, "deckswabbing", ["p1: C3 C4", "quit"])
    before, _, after = out.partition("p1 colours C3 C4 black.")
    assert after, out
    white = board_text(dict.fromkeys(_all_squares(), "white"))
    assert before.count(_row(white)) == 1, before  # the opening board, once
    assert "Deck Swabbing: the board is all white." in before
    # The move's board (C3 C4 black, row 7 still white): once, after the move's line.
    assert after.count(_row(white)) == 1, after
    assert after.count("3 . . # . . . .") == 1 and after.count("4 . . # . . . .") == 1, after


async def test_the_console_prints_the_memory_grid_once(tmp_path):
    out = await _console(tmp_path, "tiles", ["quit"])
    top = [line for line in out.splitlines() if line.strip().startswith("7 ")]
    assert len(top) == 1, out  # one grid, the text board's
    assert out.count("Memorize the grid: it is shown for 30 seconds") == 1
    assert out.count("Memorize") == 1, out  # said once: not again under the picture or in the board


async def test_all_hands_tile_decklaration_at_the_console_says_memorize_once(tmp_path):
    out = await _console(tmp_path, "allhands", ["quit"])
    assert out.count("Memorize") == 1, out


def _all_squares():
    from geniusbot.games.allhands.swabbing import SQUARES

    return SQUARES


# ---- the host's room, pictures on and off ------------------------------------------------------


@pytest.mark.parametrize("pictures", [False, True])
async def test_a_swabbing_move_shows_its_board_once(
    store: Store, transport: RecordingTransport, clock: FakeTime, pictures
):
    host = Host(store, transport, now=clock, pictures=pictures, heartbeat=0)
    match_id = await start(host, "deckswabbing")
    game = host.matches[match_id].game
    opening = [s for s in transport.sent if s.op in ("post", "picture")]
    mark = len(transport.sent)
    assert (await host.submit(match_id, "p1", "C3 C4")).ok
    move = [s for s in transport.sent[mark:] if s.op in ("post", "picture")]
    for sent in (opening, move):
        texts = [s.text for s in sent]
        pictures_sent = [s for s in sent if s.op == "picture"]
        if pictures:
            # The picture is the board; no text copy rides in its caption or beside it.
            assert len(pictures_sent) == 1 and _count(texts, "1 . . . . . . .") == 0, texts
        else:
            assert not pictures_sent and _count(texts, "1 . . . . . . .") == 1, texts
    said = [s.text for s in move]
    assert any("Alice colours C3 C4 black." in t and "Score: Alice 0, Bob 0 tiles." in t for t in said), said
    if not pictures:
        assert _count(said, board_text(game.board)) == 1, said


@pytest.mark.parametrize("pictures", [False, True])
async def test_the_tiles_start_shows_the_grid_once(
    store: Store, transport: RecordingTransport, clock: FakeTime, pictures
):
    host = Host(store, transport, now=clock, pictures=pictures, heartbeat=0)
    match_id = await start(host, "tiles")
    game = host.matches[match_id].game
    sent = [s for s in transport.sent if s.op in ("post", "picture")]
    texts = [s.text for s in sent]
    rows = grid_text(game.original).splitlines()[:-1]
    pictured = [s for s in sent if s.op == "picture"]
    if pictures:
        assert len(pictured) == 1 and not any(row in t for row in rows for t in texts), texts
    else:
        assert not pictured and _count(texts, grid_text(game.original)) == 1, texts
    assert _count(texts, "Memorize the grid: it is shown for 30 seconds, then hidden for good. No notes!") == 1
    assert _count(texts, "Memorize") == 1, texts  # the room says it once


@pytest.mark.parametrize("pictures", [False, True])
async def test_the_tiles_end_shows_the_grid_once(
    store: Store, transport: RecordingTransport, clock: FakeTime, pictures
):
    host = Host(store, transport, now=clock, pictures=pictures, heartbeat=0)
    match_id = await start(host, "tiles")
    game = host.matches[match_id].game
    assert (await host.command(match_id, "close window")).ok
    assert game.phase == "call"
    caller = game.to_move()[0]
    assert (await host.submit(match_id, caller, "call red")).ok
    declarer = game.to_move()[0]
    wrong = next(p for p, c in game.grid.items() if c not in ("red", "black"))
    mark = len(transport.sent)
    assert (await host.submit(match_id, declarer, f"{wrong} red")).ok
    assert game.is_over
    sent = [s for s in transport.sent[mark:] if s.op in ("post", "picture")]
    texts = [s.text for s in sent]
    top = grid_text(game.grid, game.marks).splitlines()[0]
    assert not any("The grid as it was" in t for t in texts), texts
    if pictures:
        # The picture is the finished grid; its caption carries no text copy.
        assert [s.op for s in sent] == ["picture"] and _count(texts, top) == 0, texts
    else:
        assert _count(texts, top) == 1, texts
    assert any(f"{wrong} as red" in t for t in texts), texts
