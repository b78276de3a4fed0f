"""The console in the pseudo-language (``geniusbot play --language qps``): the console's own lines
(what it says of table talk, a line it does not understand, a long line, leaving) come from the
catalogue. The host's lines and the text boards are checked by their own tests."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

from geniusbot.console import run_console
from geniusbot.words import PSEUDO, unsaid
from tests.manualtime import ManualTime


async def test_the_consoles_own_lines_are_said_in_the_pseudo_language(tmp_path: Path):
    out = io.StringIO()
    lines = ["p1: H8", "p1: gg", "what now", "p1: " + "x" * 2100, "p2 (dm): H8", "quit"]
    code = await run_console(
        "tictacfive",
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        seed=1,
        clock="none",
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        language=PSEUDO,
    )
    said = out.getvalue()
    assert code == 0
    assert "⟦óķ p1: H8⟧" in said  # the acknowledgement, the move as typed
    assert "⟦(íĝñóŕéđ)⟧" in said  # table talk set aside
    assert "⟦Í đíđ ñóţ úñđéŕśţáñđ 'what now'. " in said  # the typed line as it was
    assert "⟦Ţĥáţ ĺíñé íś 2,104 çĥáŕáçţéŕś ĺóñĝ" in said and "⟦'p1: xxxx" in said
    assert said.rstrip().endswith("⟧") and "⟦Ĺéáṽíñĝ ḿáţçĥ #1; 'geniusbot play tictacfive'" in said
    for english in ("ok p1", "(ignored)", "I did not understand", "characters long", "Leaving match"):
        assert english not in said, f"{english!r} reached the console without the catalogue"


async def test_a_whole_console_session_says_nothing_outside_the_catalogue(tmp_path: Path):
    """Every line a console session prints, in the pseudo-language: the host's lines, the text
    boards (their drawing lines have no word), the help, a private line's mark, a saved picture, a
    deletion, a restart's first line. Outside the brackets no run of two letters is left."""
    time = ManualTime(datetime(2027, 1, 1, tzinfo=UTC))
    db = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    first = ["p1: H8", "p1: H9", "p1: I8", "p2: white", "p2 (dm): A1", "p2: A1", "board", "status", "help"]
    second = ["status", "pause", "resume", "p1: gg", "what now", "rules", "p1: resign", "resign p1", "quit"]
    printed = []
    for lines in (first, second):
        out = io.StringIO()
        code = await run_console(
            "tictacfive",
            db_url=db,
            stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
            out=out,
            seed=1,
            clock="60s",
            time_source=time,
            language=PSEUDO,
            boards_dir=tmp_path / "boards",
        )
        assert code == 0
        printed += out.getvalue().splitlines()
        time.advance(90)  # the console is away; the next run resumes the match
    assert any(str(tmp_path / "boards") in line for line in printed)  # a saved picture was said
    leaks = [line for line in printed if re.search(r"[A-Za-z]{2,}", unsaid(line))]
    assert not leaks, "\n".join(leaks)
