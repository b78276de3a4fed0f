"""The replay page in the pseudo-language (``geniusbot replay --html OUT --language qps``): what a
reader of the page reads (its visible text, the controls' labels and titles, the board's text,
the move list, the status, clock and result lines, and the words the script puts on the page)
comes from the catalogue; tag names, CSS and the script's identifiers are not words. A player's
name, a move and a game's title are said as they are, inside the message that names them.

Not here: a game's text board (the page shows it for a game without a picture, or a long match),
whose words are the board's own (docs/words.md)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from geniusbot.archive import page, page_steps
from geniusbot.archive.page import html_command
from geniusbot.archive.page_steps import match_steps, record_steps
from geniusbot.host.imports import import_text
from geniusbot.record import parse_record
from geniusbot.storage import Practice, Store
from geniusbot.words import PSEUDO, Words, unsaid

RECORDS = Path(__file__).resolve().parents[1] / "records"
#: The attributes whose values a person reads (or hears, with a screen reader), and those the
#: script shows (a template it fills in).
READ_ATTRIBUTES = ("title", "alt", "aria-label", "data-said", "data-play", "data-pause")


class Reading(HTMLParser):
    """What a person reads of a page: its text outside scripts, styles and the text board, the
    attributes above, and the JSON data's sentences (``t``, ``c``, ``r`` of each step)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.read: list[str] = []
        self.lang = ""
        self._skip: str | None = None
        self._script = ""
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = str(found.get("lang"))
        self.read += [str(found[name]) for name in READ_ATTRIBUTES if found.get(name)]
        if tag in ("script", "style", "pre"):
            self._skip, self._script = tag, str(found.get("id") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == self._skip:
            self._skip = None

    def handle_data(self, data: str) -> None:
        if self._skip is None:
            if data.strip():
                self.read.append(data.strip())
        elif self._skip == "script" and self._script == "steps":
            self.read += [value for step in json.loads(data) for key, value in step.items() if key in "tcr" and value]


def unread_letters(text: str) -> list[str]:
    """Each thing a person reads of the page whose letters did not all come from a message."""
    reading = Reading(text)
    assert reading.lang == PSEUDO
    return [said for said in reading.read if re.sub(r"[^A-Za-z]", "", unsaid(said))]


@pytest.mark.parametrize("name", ["tictacfive", "tiles", "decks"])
def test_a_pages_words_come_from_the_catalogue(name: str):
    match = record_steps(parse_record((RECORDS / f"{name}.txt").read_text(encoding="utf-8")), language=PSEUDO)
    text = page.page_of(match)
    assert not unread_letters(text)
    reading = Reading(text).read
    assert "⟦Ṕĺáý⟧" in reading and "⟦Ḿóṽéś⟧" in reading and "⟦Ƒíŕśţ (Ĥóḿé)⟧" in reading
    assert "⟦Śţéṕ {step} óƒ {last}: {what}⟧" in reading and "⟦Ţĥé ƀóáŕđ áţ śţéṕ {step}⟧" in reading
    # English as it was: the same page in English reads the words it always read.
    english = page.page_of(record_steps(parse_record((RECORDS / f"{name}.txt").read_text(encoding="utf-8"))))
    for words in (
        'aria-label="First">&#xAB;<span class="word"> First</span>',
        "<h2>Moves</h2>",
        'alt="The board at step 0"',
    ):
        assert words in english


def test_a_long_matchs_note_and_its_steps_come_from_the_catalogue(monkeypatch: pytest.MonkeyPatch):
    from tests.archive.longrecord import long_record

    monkeypatch.setattr(page_steps, "PICTURE_STEPS", 10)
    match = record_steps(parse_record(long_record(12)), language=PSEUDO)
    assert match.note.startswith("⟦Ţĥíś ḿáţçĥ íś ţóó ĺóñĝ ƒóŕ á ṕíçţúŕé óƒ éṽéŕý śţéṕ")
    assert not unread_letters(page.page_of(match))


async def test_a_stored_matchs_page_and_the_commands_lines_come_from_the_catalogue(tmp_path: Path, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path / 'archive.sqlite3'}"
    store = await Store.open(url)
    try:
        finished = (await import_text(store, (RECORDS / "tiles.txt").read_text(encoding="utf-8"))).match_id
        paused = (
            await import_text(store, (RECORDS / "tictacfive-unfinished.txt").read_text(encoding="utf-8"))
        ).match_id
        stored = await match_steps(store, finished, language=PSEUDO)
        assert stored.title == f"⟦Ḿáţçĥ #{finished}, Tile Decklaration: ⟦Eunji ṽś Doyoon⟧⟧"
    finally:
        await store.close()
    # A practice match's title names it so, in the page's language; its record's header in English.
    assert Words(PSEUDO)(Practice("p2", "normal").said()) == "⟦ṕŕáçţíçé (ƀóţ áţ normal)⟧"
    assert Practice("p2", "normal").describe() == "practice (bot at normal)"
    out = tmp_path / "match.html"
    args = page.build_parser().parse_args(
        ["--match", str(finished), "--db", url, "--html", str(out), "--language", "qps"]
    )
    assert await html_command(args) == 0
    assert not unread_letters(out.read_text(encoding="utf-8"))
    lines = capsys.readouterr().out
    assert lines.startswith(f"⟦Ŵŕóţé {out} (") and not re.sub(r"[^A-Za-z]", "", unsaid(lines))
    # What the command says when it writes nothing.
    for argv in (
        ["--match", str(paused), "--db", url],
        ["--match", "99", "--db", url],
        ["--match", "1"],
        ["--match", "1", "--db", str(tmp_path / "none.sqlite3")],
        [],
    ):
        args = page.build_parser().parse_args([*argv, "--html", str(tmp_path / "no.html"), "--language", "qps"])
        assert await html_command(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("⟦geniusbot replay: ⟦") and not re.sub(r"[^A-Za-z]", "", unsaid(err)), err
    assert not (tmp_path / "no.html").exists()
