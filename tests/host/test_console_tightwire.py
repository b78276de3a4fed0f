"""Tightwire in the console (``geniusbot play``): each rule set piped in, line by line, to a
result, with its clock preset, a board picture after every accepted action, refusals that change
nothing, and an export that the adjudicator rules to the same result."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate
from geniusbot.console import run_console
from geniusbot.host.clock import preset
from geniusbot.record import parse_record
from tests.host.tightwire_scripts import RESULT, script
from tests.manualtime import ManualTime

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


async def play(tmp_path: Path, lines: list[str], game: str = "tightwire", **kw) -> str:
    out = io.StringIO()
    code = await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        seed=5,
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        boards_dir=tmp_path / "boards",
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        **kw,
    )
    assert code == 0
    return out.getvalue()


def exported(out: str) -> str:
    """The record the console printed for ``export``."""
    start = out.index('[Game "tightwire"]')
    return out[start : out.index("Leaving match", start)]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "influx", "fate"])
async def test_each_rule_set_is_played_to_a_result_and_exported(tmp_path: Path, variant: str) -> None:
    moves = script(variant)
    out = await play(tmp_path, [f"{seat}: {text}" for seat, text in moves] + ["export", "quit"], variant=variant)
    assert f"Match #1: Tightwire ({variant}), p1 vs p2. Clock: {preset('tightwire', variant).describe()}." in out
    assert out.count("\nok p") == len(moves)
    assert f"Result: p1 wins. {RESULT}" in out
    assert out.count("Blue (p2) loses the piece on C3.") == 4  # one of them revived in between
    # The first board and one after every accepted action, each a PNG of its own.
    boards = sorted((tmp_path / "boards").glob("*.png"))
    assert len(boards) == len(moves) + 1
    assert all(path.read_bytes().startswith(PNG_MAGIC) for path in boards)
    assert len({path.read_bytes() for path in boards}) == len(boards)
    record = parse_record(exported(out))
    assert record.header("Variant") == variant and record.header("TimeControl") == preset("tightwire", variant).spec()
    ruled = adjudicate(record)
    assert all(action.accepted for action in ruled.actions) and len(ruled.actions) == len(moves)
    assert ruled.outcome.winner == "p1" and ruled.outcome.reason == RESULT


async def test_refused_lines_say_what_to_write_and_change_nothing(tmp_path: Path) -> None:
    moves = script("classic")
    lines = [f"{seat}: {text}" for seat, text in moves[:3]] + [
        "p2: B2-C3",  # a line alone, or the line and the move?
        "p2: draw B2-C3",
        "p1: draw B4-C3",
        "p2: draw B3-C2",  # crosses B2-C3
        "p2: move B2 B3",  # no line there
        "p1: draw A5-A4",  # not p1's turn
        "p2: jump B2",
        "p2: slack B3-C2",
        "export",
        "quit",
    ]
    out = await play(tmp_path, lines)
    assert (
        "p2: B2-C3 could mean drawing the line alone or drawing it and moving your piece along it; "
        "write 'draw B2-C3' or 'draw B2-C3 and move'." in out
    )
    assert (
        "p2: B3-C2 crosses the line B2-C3; choose another line, or write 'slack B3-C2' to use your slack line." in out
    )
    assert "p2: There is no line between B2 and B3; to draw one write 'draw B2-B3'." in out
    assert "p1: It is not your turn; waiting for p2." in out
    assert "p2: Write a line such as 'draw B5-C3'" in out
    assert "ok p2: slack B3-C2" in out
    record = parse_record(exported(out))
    assert [line.text for line in record.lines] == [
        "draw B5-B4 and move",
        "draw B1-B2 and move",
        "draw D5-D4 and move",
        "draw B2-C3",
        "draw B4-C3",
        "slack B3-C2",
    ]


async def test_a_rule_sets_own_name_plays_that_rule_set(tmp_path: Path) -> None:
    out = await play(
        tmp_path, ["p2: pick turn order", "p1: draw B5-C3", "p1: pick woven revive", "status", "quit"], "threadsoffate"
    )
    assert "Match #1: Tightwire (fate), p1 vs p2. Clock: 90 s a move, then a 5:00 reserve spent in 10 s blocks." in out
    assert "p2: It is not your turn; waiting for p1." in out
    assert (
        "p1: The items are being drafted; write one of 'pick turn order', 'pick extra slack', 'pick woven revive'."
        in out
    )
    assert "ok p1: pick woven revive" in out


@pytest.mark.slow
async def test_asking_for_another_rule_set_starts_it_instead_of_resuming(tmp_path: Path) -> None:
    await play(tmp_path, ["p1: draw B5-C3", "quit"], variant="classic")
    out = await play(tmp_path, ["status", "quit"], variant="influx")
    assert "Resuming" not in out and "Match #2: Tightwire (influx)" in out
    out = await play(tmp_path, ["status", "quit"], "deadlyinflux")
    assert "Resuming match #2 (tightwire)" in out
    out = await play(tmp_path, ["status", "quit"])  # no rule set named: the newest unfinished one
    assert "Resuming match #2 (tightwire)" in out and "Match #2: Tightwire (influx), live." in out
    out = await play(tmp_path, ["status", "quit"], variant="Classic")
    assert "Resuming match #1 (tightwire)" in out and "Match #1: Tightwire (classic), live." in out
