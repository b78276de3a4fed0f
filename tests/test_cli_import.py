"""``geniusbot import FILE [--guild ID] [--db URL]`` (archive issue, item 1): a record of each game
becomes an archived match whose export has the record's moves and result; the same record twice
is recognised; a paused import is resumed by ``geniusbot play``; a file that cannot be read, is
not UTF-8, is too large, names an unknown game or has a refused line exits 2 and stores nothing."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate_text
from geniusbot.cli import EXIT_USAGE, main
from geniusbot.host.replay import export_record
from geniusbot.record import parse_record, read_result
from geniusbot.record.file import MAX_RECORD_BYTES
from geniusbot.storage import Store
from tests.cli_support import clean_cli, run_geniusbot

REPO = Path(__file__).resolve().parent.parent
RECORDS = REPO / "tests" / "records"
WHOLE = sorted(p for p in RECORDS.glob("*.txt") if p.stem.rsplit("-", 1)[-1] not in ("unfinished", "refused"))


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


def moves(text: str) -> list[tuple[str | None, bool, str]]:
    return [(line.seat, line.private, line.text) for line in parse_record(text).lines]


async def exported(url: str, match_id: int) -> tuple[str, dict[str, int]]:
    store = await Store.open(url)
    try:
        return await export_record(store, match_id), await store.counts()
    finally:
        await store.close()


def test_a_record_of_each_game_is_imported_once_and_exports_the_same(tmp_path, capsys):
    db = tmp_path / "archive.sqlite3"
    url = f"sqlite+aiosqlite:///{db}"
    for number, path in enumerate(WHOLE, start=1):
        assert main(["import", str(path), "--db", str(db), "--guild", "5"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"Imported the record as match #{number} ("), out
        text = path.read_text(encoding="utf-8")
        record, _ = asyncio.run(exported(url, number))
        assert moves(record) == moves(text)
        winner = adjudicate_text(text).outcome.winner
        assert read_result(parse_record(record).header("Result")) == winner
    assert main(["import", str(WHOLE[0]), "--db", str(db), "--guild", "5"]) == 0
    assert capsys.readouterr().out == "This record was already imported as match #1; nothing was stored.\n"
    _, counts = asyncio.run(exported(url, 1))
    assert counts["matches"] == len(WHOLE)


def test_with_guild_the_record_goes_to_the_bots_database(tmp_path, capsys, monkeypatch):
    db = tmp_path / "bot.sqlite3"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{db}")
    assert main(["import", str(RECORDS / "tiles.txt"), "--guild", "42"]) == 0
    assert capsys.readouterr().out.startswith("Imported the record as match #1 (")
    store_record, _ = asyncio.run(exported(f"sqlite+aiosqlite:///{db}", 1))
    assert parse_record(store_record).header("Game") == "tiles"
    assert not (tmp_path / "data" / "console.sqlite3").exists()


def test_with_guild_and_no_database_url_the_record_goes_to_the_bots_default_file(tmp_path, capsys):
    assert main(["import", str(RECORDS / "tiles.txt"), "--guild", "42"]) == 0
    assert capsys.readouterr().out.startswith("Imported the record as match #1 (")
    assert (tmp_path / "data" / "geniusbot.sqlite3").exists()
    assert not (tmp_path / "data" / "console.sqlite3").exists()


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "geniusbot import: cannot read 'missing.txt': No such file or directory.\n"),
        (
            "p1: H8 \u00e9".encode("latin-1"),
            "geniusbot import: The file 'bad.txt' is not UTF-8 text; save it as UTF-8 (plain text) and import it again.\n",
        ),
        (
            b"#" * (MAX_RECORD_BYTES + 1),
            "geniusbot import: The file 'bad.txt' is 1024 KiB; a record file may be at most 1024 KiB (1 MiB). "
            "Give the record of one match.\n",
        ),
        (
            b'[Game "parcheesi"]\np1: e4\n',
            "geniusbot import: bad.txt: line 1: There is no game called 'parcheesi'; choose one of: ",
        ),
        (
            (RECORDS / "tictacfive-refused.txt").read_bytes(),
            "geniusbot import: Line 14 is refused ('p2: F9'): It is not your turn; waiting for p1. "
            "Nothing was imported; correct or remove that line and import the record again.\n",
        ),
    ],
    ids=["unreadable", "not-utf8", "too-large", "unknown-game", "refused-line"],
)
def test_a_bad_file_exits_2_with_one_sentence_and_stores_nothing(tmp_path, capsys, content, said):
    name = "missing.txt" if content is None else "bad.txt"
    if content is not None:
        (tmp_path / name).write_bytes(content)
    # --strict: a refused line refuses the record (without it, it is kept as refused: test_cli_archive.py)
    assert main(["import", name, "--strict", "--db", str(tmp_path / "archive.sqlite3")]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(said) and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert not (tmp_path / "archive.sqlite3").exists()
    assert not (tmp_path / "data").exists()


def test_a_paused_import_is_resumed_by_play_and_played_on(tmp_path):
    def geniusbot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return run_geniusbot(tmp_path, *args, stdin=stdin)

    done = geniusbot("import", str(RECORDS / "tictacfive-unfinished.txt"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "Imported the record as match #1 (Tic-Tac-Five: Jiwoo vs Sora), 7 line(s). The record stops before "
        "the end, so the match is paused; 'geniusbot play tictacfive' resumes it to play on.\n"
    )
    played = geniusbot("play", "tictacfive", stdin="resume\np1: J9\np2: F9\nquit\n")
    assert played.returncode == 0, played.stderr
    assert "Resuming match #1 (tictacfive)" in played.stdout
    assert "ok p1: J9" in played.stdout and "ok p2: F9" in played.stdout
