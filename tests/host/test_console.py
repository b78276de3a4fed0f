"""The console: a match typed (or piped) line by line through the real host and database."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest

from geniusbot.cli import main
from geniusbot.commands.play import parse_options
from geniusbot.console import run_console
from tests.manualtime import ManualTime


async def play(tmp_path, lines: str, game: str = "tictacfive", **kw) -> tuple[int, str]:
    out = io.StringIO()
    code = await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        seed=1,
        stdin=io.StringIO(lines),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        **kw,
    )
    return code, out.getvalue()


async def test_a_piped_game_is_played_and_acknowledged(tmp_path):
    code, out = await play(
        tmp_path, "p1: H8\np1: h8\np2: H9\np1: H9\np1: H10\np2: black\nstatus\nresign p2\nexport\nquit\n"
    )
    assert code == 0
    assert out.count("ok p1:") == 3 and "ok p2: black" in out
    assert "p1: H8 is taken; choose an empty point." in out
    assert "p2: It is not your turn; waiting for p1." in out
    assert "p1 places black on H8." in out  # the console's players are p1 and p2: the game's own words
    assert "Match #1: Tic-Tac-Five, live." in out
    assert "Result: p2 wins." in out or "Result: p1 wins." in out
    assert "host: resign p2" in out
    assert " 8  . . . . . . . X" in out  # the text board, row 8 with H8 (last move marked otherwise)


async def test_unknown_lines_and_commands_get_help(tmp_path):
    code, out = await play(tmp_path, "hello\nresign\np3: H8\np1: # just chatting\nhelp\n")
    assert code == 0
    assert "I did not understand 'hello'" in out
    assert "Say who resigns: resign p1 or resign p2." in out
    assert "'p3' is not a seat of match #1; its seats are p1, p2." in out
    assert "(ignored)" in out


async def test_private_lines_and_pause(tmp_path):
    code, out = await play(tmp_path, "pause\np1: H8\nresume\np1 (dm): H8\nquit\n")
    assert "The host paused the match; the clocks are stopped." in out
    assert "p1: The match is paused" in out
    # Tic-Tac-Five's moves are made in the room: a DM'd one is refused, privately, and told how.
    assert "ok p1 (dm): H8" not in out and "ok p1: H8" not in out


async def test_a_dm_in_a_game_whose_moves_are_made_in_the_room_is_refused_and_told_to_type_it_there(tmp_path):
    code, out = await play(tmp_path, "p1 (dm): H8\np1: H8\nquit\n")
    assert code == 0
    assert "Type your move in the game room, not by direct message" in out
    # Both lines of the private refusal are marked as p1's alone, the console's hint too.
    assert "[to p1 only] At the console a move made in the room is typed as 'p1: H8'." in out
    refusal = [line for line in out.splitlines() if "Type your move in the game room" in line or "typed as" in line]
    assert len(refusal) == 2 and all(line.startswith("[to p1 only] ") for line in refusal), refusal
    assert "ok p1 (dm): H8" not in out
    assert "ok p1: H8" in out  # the refused DM changed nothing: the same move in the room is taken


async def test_the_next_run_resumes_the_match_unless_new(tmp_path):
    await play(tmp_path, "p1: H8\nquit\n")
    _, out = await play(tmp_path, "p1: H9\nquit\n")
    assert "Resuming match #1" in out and "ok p1: H9" in out
    _, out = await play(tmp_path, "p1: H8\nquit\n", new=True)
    assert "Match #2" in out and "ok p1: H8" in out


@pytest.mark.parametrize(
    "game, kw, message",
    [
        ("chess", {}, "There is no game called 'chess'"),
        ("tictacfive", {"clock": "soon"}, "is not a time control"),
        ("armslength", {"options": {"p1_color": "green"}}, "green"),
    ],
)
async def test_bad_options_exit_2_with_a_sentence(tmp_path, game, kw, message):
    code, out = await play(tmp_path, "", game, **kw)
    assert code == 2 and message in out


def test_option_pairs():
    assert parse_options(["p1_color=blue", "Setup = red A1"]) == {"p1_color": "blue", "setup": "red A1"}
    with pytest.raises(ValueError, match="name=value"):
        parse_options(["blue"])


def test_the_launcher_lists_play(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "--clock SPEC" in capsys.readouterr().out


async def test_a_private_picture_is_saved_and_its_caption_marked_for_its_seat(tmp_path):
    from geniusbot.console.transport import ConsoleTransport
    from geniusbot.host.transport import Player

    out = io.StringIO()
    transport = ConsoleTransport(out, tmp_path / "boards")
    await transport.send_private_picture(
        Player("p2"), b"\x89PNG fake", filename="match1-p2.png", text="Your view of match #1."
    )
    [saved] = (tmp_path / "boards").iterdir()
    assert saved.read_bytes() == b"\x89PNG fake" and saved.name.startswith("match1-p2")
    assert out.getvalue() == f"[to p2 only] Your view of match #1. (saved to {saved})\n"


async def test_a_private_view_on_the_console_is_printed_as_text_as_well(tmp_path):
    code, out = await play(tmp_path, "p1 (dm): create 30\nquit\n", game="decks", boards_dir=tmp_path / "b")
    assert code == 0 and "ok p1 (dm): create 30" in out
    # Both seats sit at one keyboard: p1's own view is saved as a picture and printed as text.
    assert "[to p1 only] Your view of match #1 (only you can see this). (saved to " in out
    assert "[to p1 only] Your view of match #1:\n" in out
    assert "[to p2 only] Your view" not in out
    assert any(p.name.startswith("match1-p1") for p in (tmp_path / "b").iterdir())
