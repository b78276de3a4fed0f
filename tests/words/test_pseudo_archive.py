"""The archive in the pseudo-language: a GIF's captions (each step's action, the clocks, the result)
and a replay page's result line come from the catalogue, the players named. The pictures' own text
(banners, player rows) is the pictures' own; the rest of a page is test_pseudo_page.py's."""

from __future__ import annotations

import re
from pathlib import Path

from geniusbot.archive import gif
from geniusbot.archive.page_steps import record_steps
from geniusbot.archive.steps import from_record
from geniusbot.record import parse_record
from geniusbot.words import PSEUDO, unsaid

RECORDS = Path(__file__).resolve().parents[1] / "records"


def outside_the_catalogue(text: str) -> str:
    """The letters of ``text`` no message said."""
    return re.sub(r"[^A-Za-z]", "", unsaid(text))


def test_a_gifs_captions_are_said_in_the_pseudo_language():
    steps = from_record((RECORDS / "tictacfive.txt").read_bytes(), "tictacfive.txt")
    steps.language = PSEUDO
    shown = list(steps)
    lines = [line for step in shown for line in gif.caption(step, steps)]
    assert lines[0] == "⟦Śţéṕ 0 óƒ 18: ⟦ţĥé śţáŕţ⟧⟧"
    assert gif.caption(shown[-1], steps)[-1] == "⟦⟦Hyunmin (⟦ƀĺáçķ⟧) ḿáķéś ⟦ƒíṽé⟧ íñ á ŕóŵ, H8 ţó L8⟧⟦, áñđ ŵíñś⟧.⟧"
    for line in lines:
        assert not outside_the_catalogue(line), line
    # English is as before, word for word.
    steps.language = "en"
    assert gif.caption(shown[-1], steps)[-1] == "Hyunmin (black) makes five in a row, H8 to L8, and wins."


def test_a_replay_pages_result_is_said_in_the_pseudo_language():
    record = parse_record((RECORDS / "tictacfive.txt").read_text(encoding="utf-8"))
    page = record_steps(record, language=PSEUDO)
    assert page.result == "⟦Ŕéśúĺţ: ⟦⟦Hyunmin (⟦ƀĺáçķ⟧) ḿáķéś ⟦ƒíṽé⟧ íñ á ŕóŵ, H8 ţó L8⟧⟦, áñđ ŵíñś⟧.⟧⟧"
    assert record_steps(record).result == "Result: Hyunmin (black) makes five in a row, H8 to L8, and wins."
