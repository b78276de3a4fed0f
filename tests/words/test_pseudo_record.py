"""The record's refusals (``RecordUnreadable``, ``RecordError``), the importer's (``ImportRefused``)
and ``play``'s checks of a game's options and clock (``console.check_options``), in the
pseudo-language: reached through the real commands (``adjudicate --language qps``, ``import``,
``replay`` to a GIF and to a page, ``play``, run in-process with GENIUSBOT_LANGUAGE=qps), every
letter of what they say comes from a message. A path, a header's name, what the file holds and
the system's own error text are said as they are, inside the message that quotes them.

Each broken record is first read in English, so that the test knows which refusal it reaches
(``str(error)``, unchanged: ``tests/test_record.py`` holds its texts)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from geniusbot.cli import EXIT_USAGE, main
from geniusbot.host.imports import ImportRefused, prepare
from geniusbot.record import Record, RecordError, RecordLine, format_record
from geniusbot.record.file import MAX_RECORD_BYTES
from geniusbot.words import PSEUDO, Words, unsaid
from tests.cli_support import clean_cli

RECORDS = Path(__file__).resolve().parents[1] / "records"
GAME = '[Game "tictacfive"]\n'

#: A broken record for each of the record's refusals, and what its English says.
BROKEN: dict[str, tuple[str, str]] = {
    "header-after-moves": (GAME + 'p1: H8\n[Seed "1"]\n', "line 3: the header [Seed] comes after the moves"),
    "header-twice": (GAME + GAME, "line 2: the header [Game] is given twice (first on line 1)"),
    "header-form": ("[Game tictacfive]\n", 'line 1: a header is written [Name "value"]'),
    "header-escape": (GAME + '[Event "a\\qb"]\n', "line 2: the header [Event] has an unknown escape \\q;"),
    "after-annotation": (GAME + "p1: H8 {at=1} more\n", "line 2: 'more' follows the {...} annotation;"),
    "annotation-open": (GAME + "p1: H8 {at=1\n", "line 2: the {...} annotation is not closed; end it with '}'."),
    "annotation-form": (GAME + "p1: H8 {at}\n", "line 2: an annotation is written {key=value key=value}"),
    "annotation-value": (GAME + 'p1: H8 {at=a"b}\n', "line 2: the annotation value of at has a '\"';"),
    "annotation-twice": (GAME + "p1: H8 {at=1 at=2}\n", "line 2: the annotation at is given twice; keep one."),
    "quoted-escape": (GAME + 'p1: H8 {note="a\\qb"}\n', "line 2: in a quoted annotation value write"),
    "quoted-open": (GAME + 'p1: H8 {note="ab}\n', "line 2: a quoted annotation value is not closed"),
    "no-game": (
        '[Event "x"]\n',
        'the record has no [Game "..."] header; add one, such as [Game "allhands"] (the games: ',
    ),
    "unknown-game": ('[Game "parcheesi"]\n', "line 1: There is no game called 'parcheesi'"),
    "seed": (GAME + '[Seed "many"]\n', "line 2: the header [Seed] must be a whole number such as 12345, not 'many'."),
    "no-options": (GAME + '[Colour "red"]\n', "line 2: Tic-Tac-Five takes no header [Colour] (it takes: no options)"),
    "header-taken": ('[Game "armslength"]\n[Colour "red"]\n', "(it takes: Setup, P1Color, DMO)"),
    "no-start": (GAME + '[Variant "nosuch"]\n', "line 2: the headers describe no game that can start: Tic-Tac-Five"),
}


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("GENIUSBOT_LANGUAGE", "qps")
    yield from clean_cli(monkeypatch, tmp_path)


def said(text: str) -> str:
    """``text`` as long as every letter of it came from a message (else the assertion says which)."""
    for line in text.splitlines():
        assert not re.sub(r"[^A-Za-z]", "", unsaid(line)), f"not from the catalogue: {line!r}"
    return text


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What the command says on standard error, refusing (exit 2, nothing on standard output)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE and not out and err.endswith("⟧\n"), (code, out, err)
    return said(err)


def every_command(capsys: pytest.CaptureFixture[str], tmp_path: Path, file: str) -> list[str]:
    """The refusals of ``file`` by adjudicate, import, and replay to a GIF and to a page."""
    return [
        refused(capsys, "adjudicate", file, "--language", "qps"),
        refused(capsys, "import", file, "--db", str(tmp_path / "archive.sqlite3")),
        refused(capsys, "replay", file, "--gif", str(tmp_path / "match.gif")),
        refused(capsys, "replay", file, "--html", str(tmp_path / "match.html")),
    ]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_refusal_of_a_broken_record_is_said_by_every_command(name: str, tmp_path: Path, capsys):
    text, english = BROKEN[name]
    with pytest.raises(RecordError) as caught:
        prepare(text)
    assert english in str(caught.value)
    (tmp_path / "broken.txt").write_text(text, encoding="utf-8")
    for err in every_command(capsys, tmp_path, "broken.txt"):
        assert "broken.txt" in err
        if caught.value.line_no is not None:  # the line number, said by the message that says the line
            assert f"⟦ĺíñé {caught.value.line_no}: ⟦" in err


def test_a_file_that_cannot_be_read_is_said_by_every_command(tmp_path: Path, capsys):
    for err in every_command(capsys, tmp_path, "missing.txt"):
        assert "⟦çáññóţ ŕéáđ 'missing.txt': " in err
    (tmp_path / "latin.txt").write_bytes("p1: H8 \u00e9".encode("latin-1"))
    for err in every_command(capsys, tmp_path, "latin.txt"):
        assert "⟦⟦Ţĥé ƒíĺé 'latin.txt'⟧ íś ñóţ ÚŢƑ-8 ţéxţ" in err
    (tmp_path / "big.txt").write_bytes(b"#" * (MAX_RECORD_BYTES + 2048))
    for err in every_command(capsys, tmp_path, "big.txt"):
        assert "⟦⟦Ţĥé ƒíĺé 'big.txt'⟧ íś 1026 ĶíƁ;" in err
    with open(tmp_path / "huge.txt", "wb") as huge:  # sparse: 11 MiB on paper, nothing on disk
        huge.truncate(11 * 2**20)
    for err in every_command(capsys, tmp_path, "huge.txt"):
        assert "⟦⟦Ţĥé ƒíĺé 'huge.txt'⟧ íś 11 ḾíƁ;" in err


def test_standard_input_that_cannot_be_read_is_said(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("#" * (MAX_RECORD_BYTES + 1)))
    assert "⟦⟦Śţáñđáŕđ íñṕúţ⟧ ĥóĺđś ḿóŕé ţĥáñ 1024 ĶíƁ" in refused(capsys, "adjudicate", "-", "--language", "qps")

    class Failing:
        def read(self, _size: int) -> bytes:
            raise OSError(5, "Input/output error")

    class Stdin(io.StringIO):
        buffer = Failing()

    monkeypatch.setattr(sys, "stdin", Stdin())
    err = refused(capsys, "adjudicate", "-", "--language", "qps")
    assert "⟦çáññóţ ŕéáđ śţáñđáŕđ íñṕúţ: Input/output error.⟧" in err


def test_a_refused_line_is_said_by_import_replay_and_the_page(tmp_path: Path, capsys):
    refusal = "⟦Íţ íś ñóţ ýóúŕ ţúŕñ; ŵáíţíñĝ ƒóŕ p1.⟧"
    file = str(RECORDS / "tictacfive-refused.txt")
    db = str(tmp_path / "archive.sqlite3")
    err = refused(capsys, "import", file, "--db", db, "--strict")
    assert err.startswith("⟦geniusbot import: ⟦Ĺíñé 14 íś ŕéƒúśéđ ('p2: F9'): " + refusal)
    # Without --strict it is kept, and said so; a folder's outcome lines and count too.
    assert main(["import", file, "--db", db]) == 0
    out = said(capsys.readouterr().out)
    assert "⟦1 ŕéƒúśéđ ĺíñé íś ķéṕţ ŵĥéŕé íţ ĥáṕṕéñéđ, áś ŕéƒúśéđ (ĺíñé 14).⟧" in out
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.txt").write_bytes((RECORDS / "tictacfive.txt").read_bytes())
    (folder / "b.txt").write_bytes(b'[Game "parcheesi"]\n')
    assert main(["import", str(folder), "--db", db]) == EXIT_USAGE
    lines = said(capsys.readouterr().out).splitlines()
    assert len(lines) == 3 and lines[-1] == "⟦1 óƒ 2 ŕéçóŕđś śţóŕéđ.⟧"
    # The replay's caption and the page say it where it happened.
    from geniusbot.archive import gif
    from geniusbot.archive.page import page_of
    from geniusbot.archive.page_steps import record_steps
    from geniusbot.archive.steps import from_record
    from geniusbot.record import parse_record

    steps = from_record((RECORDS / "tictacfive-refused.txt").read_bytes(), "x.txt")
    steps.language = PSEUDO
    caption = said("\n".join(gif.caption(list(steps)[7], steps)))
    assert "⟦Ţĥéñ ŕéƒúśéđ, ĺíñé 14: " in caption
    page = page_of(record_steps(parse_record(Path(file).read_text(encoding="utf-8")), language=PSEUDO))
    assert "⟦Ţĥéñ ŕéƒúśéđ, ĺíñé 14: " in page


def test_the_importers_refusal_keeps_its_line_and_ruling_as_data():
    text = (RECORDS / "tictacfive-refused.txt").read_text(encoding="utf-8")
    with pytest.raises(ImportRefused) as caught:
        prepare(text, strict=True)
    error = caught.value
    assert (error.line, error.quoted, error.reason) == (14, "p2: F9", "It is not your turn; waiting for p1.")
    assert Words(PSEUDO)(error.said_reason) == "⟦Íţ íś ñóţ ýóúŕ ţúŕñ; ŵáíţíñĝ ƒóŕ p1.⟧"
    assert str(error) == Words()(error.said)
    kept = prepare(text).refused
    assert [(r.line, r.quoted, r.reason) for r in kept.values()] == [(14, "p2: F9", error.reason)]


def test_what_a_record_cannot_be_written_with_is_said():
    pseudo = Words(PSEUDO)
    for record, english in (
        (Record({"Two words": "x"}), "'Two words' cannot be a header name"),
        (Record({"Event": "a\nb"}), "the header [Event] holds a line break"),
        (Record({}, [RecordLine(0, "p1", False, "H8 # not a comment")]), "cannot be written so that it reads back"),
    ):
        with pytest.raises(RecordError) as caught:
            format_record(record)
        assert english in str(caught.value) and str(caught.value) == Words()(caught.value.said)
        assert caught.value.line_no is None
        said(pseudo(caught.value.said))


def test_plays_checks_of_options_and_clock_are_said(capsys):
    for argv, start in (
        (["tictacfive", "--option", "p1_color=red"], "⟦Tic-Tac-Five ţáķéś ñó óṕţíóñ 'p1_color'"),
        (["threadsoffate", "--variant", "influx"], "⟦'threadsoffate' íś ţĥé ŕúĺé śéţ 'fate' óƒ tightwire, "),
        (["tictacfive", "--variant", "nosuch"], "⟦Tic-Tac-Five ĥáś ñó ŕúĺé śéţ 'nosuch'"),
        (["tictacfive", "--clock", "5y"], "⟦--çĺóçķ '5y' íś ñóţ á ţíḿé çóñţŕóĺ"),
        (["tictacfive", "--clock", "99999h"], "⟦--çĺóçķ: ⟦'99999h' íś ĺóñĝéŕ ţĥáñ"),
        (["nosuchgame"], "⟦Ţĥéŕé íś ñó ĝáḿé çáĺĺéđ 'nosuchgame'"),
    ):
        err = refused(capsys, "play", *argv)
        assert err.startswith(start), err


def test_the_importers_notes_are_said(tmp_path: Path, capsys):
    text = (RECORDS / "tictacfive.txt").read_text(encoding="utf-8")
    text = re.sub(r'\[Result "[^"]*"\]', '[Result "draw"]', text)
    (tmp_path / "noted.txt").write_text('[TimeControl "90 s a move"]\n' + text, encoding="utf-8")
    (tmp_path / "long.txt").write_text('[TimeControl "99999h"]\n' + text, encoding="utf-8")
    for file, notes in (
        (
            "noted.txt",
            ("⟦Ţĥé ŢíḿéÇóñţŕóĺ ĥéáđéŕ '90 s a move' íś ñóţ á ţíḿé çóñţŕóĺ", "⟦Ţĥé ŕéçóŕđ'ś Ŕéśúĺţ ĥéáđéŕ śáýś"),
        ),
        ("long.txt", ("⟦Ţĥé ŢíḿéÇóñţŕóĺ ĥéáđéŕ íś ŕéƒúśéđ: ⟦'99999h' íś ĺóñĝéŕ ţĥáñ",)),
    ):
        # A database each: the two records are one match (the same moves and clock).
        code = main(["import", file, "--db", str(tmp_path / f"{Path(file).stem}.sqlite3")])
        out, err = capsys.readouterr()
        assert code == 0 and not err, err
        for note in notes:
            assert "⟦Ñóţé: " + note in said(out), out
