"""The console in the pseudo-language (``geniusbot play --language qps``): the console's own lines
(what it says of table talk, a line it does not understand, a long line, leaving) come from the
catalogue. The host's lines and the text boards are checked by their own tests."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from geniusbot.console import run_console
from geniusbot.words import PSEUDO
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
