"""The archive keeps what the host refused, and finds a match (issue 29, parts 4 and 5), through the
real commands: ``geniusbot import`` keeps a record's refused lines where they happened (``--strict``
refuses the record), imports a folder or a zip file with one line of outcome each; ``replay``
writes the GIF and the page of every shipped example, refused lines and all, from the file and from
the database; the export writes each refused line where it stood; ``geniusbot archive list``
filters and pages, in English and in the pseudo-language."""

from __future__ import annotations

import asyncio
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from geniusbot.adjudicate import adjudicate_text
from geniusbot.cli import EXIT_USAGE, main
from geniusbot.host.replay import export_record
from geniusbot.record import parse_record
from geniusbot.storage import Store
from geniusbot.words import unsaid
from tests.cli_support import clean_cli

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "geniusbot" / "examples").glob("*.txt"))
RECORDS = REPO / "tests" / "records"


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


async def exported(url: str, match_id: int) -> str:
    store = await Store.open(url)
    try:
        return await export_record(store, match_id)
    finally:
        await store.close()


def test_a_record_with_a_refused_line_imports_replays_and_exports_with_the_refusal_where_it_happened(tmp_path, capsys):
    db = tmp_path / "archive.sqlite3"
    file = RECORDS / "tictacfive-refused.txt"
    assert main(["import", str(file), "--db", str(db), "--strict"]) == EXIT_USAGE
    assert "Line 14 is refused ('p2: F9')" in capsys.readouterr().err and not db.exists()
    assert main(["import", str(file), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Imported the record as match #1 (Tic-Tac-Five: Minji vs Hana), 8 line(s).")
    assert out.rstrip().endswith("1 refused line is kept where it happened, as refused (line 14).")
    text = asyncio.run(exported(f"sqlite+aiosqlite:///{db}", 1))
    lines = [line for line in text.splitlines() if line and not line.startswith("[")]
    assert lines[7].startswith("p2: F9 {at=") and lines[7].endswith(
        "}  # refused: It is not your turn; waiting for p1."
    )
    assert [line.split(" {")[0] for line in lines] == [
        f"{l.seat}: {l.text}" for l in parse_record(file.read_text()).lines
    ]
    # The GIF (it used to be refused) and the page, from the file and from the database.
    assert main(["replay", str(file), "--gif", str(tmp_path / "f.gif")]) == 0
    assert Image.open(tmp_path / "f.gif").n_frames == 9
    assert main(["replay", str(file), "--html", str(tmp_path / "f.html")]) == 0
    page = (tmp_path / "f.html").read_text(encoding="utf-8")
    assert 'class="refused">Then refused, line 14: Hana (p2): F9 (It is not your turn; waiting for p1.)' in page
    capsys.readouterr()


@pytest.mark.slow
def test_every_shipped_example_refused_lines_and_all_imports_and_replays(tmp_path, capsys):
    db = tmp_path / "archive.sqlite3"
    url = f"sqlite+aiosqlite:///{db}"
    for number, example in enumerate(EXAMPLES, start=1):
        ruling = adjudicate_text(example.read_text(encoding="utf-8"))
        refused = [a for a in ruling.actions if not a.accepted]
        assert refused, example
        assert main(["import", str(example), "--db", str(db), "--guild", "5"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"Imported the record as match #{number} ("), out
        assert f"{len(refused)} refused line" in out
        record = asyncio.run(exported(url, number))
        assert record.count("  # refused: ") == len(refused)
        assert main(["replay", "--match", str(number), "--db", str(db), "--html", str(tmp_path / "m.html")]) == 0
        page = (tmp_path / "m.html").read_text(encoding="utf-8")
        assert page.count('class="refused">Then refused, line ') == len(refused)
        if example.stem != "swabbing":  # no board picture: its GIF is refused, as for any record of it
            assert main(["replay", "--match", str(number), "--db", str(db), "--gif", str(tmp_path / "m.gif")]) == 0
            assert Image.open(tmp_path / "m.gif").n_frames == len(ruling.actions) - len(refused) + 1
        capsys.readouterr()


def test_a_folder_and_a_zip_of_records_import_with_one_line_each(tmp_path, capsys):
    folder = tmp_path / "records"
    (folder / "more").mkdir(parents=True)
    (folder / "a.txt").write_bytes((RECORDS / "tictacfive-refused.txt").read_bytes())
    (folder / "more" / "b.txt").write_bytes((REPO / "geniusbot" / "examples" / "tiles.txt").read_bytes())
    (folder / "notes.md").write_text("not a record")
    db = tmp_path / "archive.sqlite3"
    assert main(["import", str(folder), "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 1)[0] for line in lines[:2]] == ["a.txt", str(Path("more") / "b.txt")]
    assert lines[0].startswith("a.txt: Imported the record as match #1") and "match #2" in lines[1]
    assert lines[2] == "2 of 2 records stored."
    # Again: each is recognised (stored already), still exit 0.
    assert main(["import", str(folder), "--db", str(db)]) == 0
    assert (
        capsys.readouterr().out.splitlines()[0]
        == "a.txt: This record was already imported as match #1; nothing was stored."
    )
    # A zip with a bad record and --strict: one line each, the count, exit 2.
    archive = tmp_path / "records.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(RECORDS / "tictacfive.txt", "good.txt")
        zipped.writestr("bad.txt", '[Game "parcheesi"]\n')
        zipped.write(RECORDS / "tictacfive-refused.txt", "dir/refused.txt")
        zipped.writestr("dir/", "")
        zipped.writestr("readme.md", "x")
    other = tmp_path / "other.sqlite3"
    assert main(["import", str(archive), "--db", str(other), "--strict"]) == EXIT_USAGE
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bad.txt: line 1: There is no game called 'parcheesi'")
    assert lines[1].startswith("dir/refused.txt: Line 14 is refused ('p2: F9')")
    assert lines[2].startswith("good.txt: Imported the record as match #1 (")
    assert lines[3] == "1 of 3 records stored." and len(lines) == 4
    # Not a zip, and a folder with no record: one sentence, exit 2.
    (tmp_path / "fake.zip").write_text("nope")
    assert main(["import", str(tmp_path / "fake.zip"), "--db", str(other)]) == EXIT_USAGE
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["import", str(tmp_path / "empty"), "--db", str(other)]) == EXIT_USAGE
    assert "holds no record (*.txt)" in capsys.readouterr().err


def test_archive_list_filters_and_pages(tmp_path, capsys):
    db = tmp_path / "archive.sqlite3"
    folder = tmp_path / "records"
    folder.mkdir()
    for example in EXAMPLES:
        (folder / example.name).write_bytes(example.read_bytes())
    assert main(["import", str(folder), "--db", str(db), "--guild", "5"]) == 0
    capsys.readouterr()

    def listed(*filters: str) -> list[str]:
        assert main(["archive", "list", "--db", str(db), *filters]) == 0
        return capsys.readouterr().out.splitlines()

    everything = listed()
    assert len(everything) == len(EXAMPLES) + 1 and everything[-1] == f"Page 1 of 1 ({len(EXAMPLES)} matches found)."
    assert everything[0].startswith(f"#{len(EXAMPLES)} ")  # newest first
    assert listed("--game", "Tightwire", "--rule-set", "influx")[0].startswith(
        "#8 Tightwire (influx): Hyerin vs Taejun"
    )
    assert listed("--player", "Minji")[:-1] == [line for line in everything if "Minji" in line]
    assert listed("--result", "p2")[-1] == "Page 1 of 1 (2 matches found)."
    assert listed("--guild", "6") == ["No ended match matches that.", "Page 1 of 1 (0 matches found)."]
    assert listed("--tournament", "The Genius, season 3") == [
        "No ended match matches that.",
        "Page 1 of 1 (0 matches found).",
    ]
    today = everything[0].rsplit("(", 1)[1].rstrip(")")
    assert len(listed("--since", today, "--until", today)) == len(EXAMPLES) + 1
    assert listed("--until", "2000-01-01")[-1] == "Page 1 of 1 (0 matches found)."
    pages = [listed("--per-page", "4", "--page", str(n)) for n in (1, 2, 3)]
    assert [p[-1] for p in pages] == [f"Page {n} of 3 ({len(EXAMPLES)} matches found)." for n in (1, 2, 3)]
    assert [line for p in pages for line in p[:-1]] == everything[:-1]
    for bad, said in (
        (["--page", "4", "--per-page", "4"], "There is no page 4: the matches found fill 3."),
        (["--since", "yesterday"], "--since is a day written YYYY-MM-DD, such as 2026-12-07, not 'yesterday'."),
        (["--game", "chess"], "There is no game called 'chess'"),
        (["--per-page", "500"], "--page is 1 or more and --per-page 1 to 100; not 1 and 500."),
    ):
        assert main(["archive", "list", "--db", str(db), *bad]) == EXIT_USAGE
        out, err = capsys.readouterr()
        assert not out and err.startswith(f"geniusbot archive list: {said}"), err


def test_archive_list_and_a_folders_import_speak_the_pseudo_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GENIUSBOT_LANGUAGE", "qps")
    db = tmp_path / "archive.sqlite3"
    assert main(["import", str(REPO / "geniusbot" / "examples" / "tictacfive.txt"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["archive", "list", "--db", str(db), "--player", "Hyunmin"]) == 0
    assert main(["archive", "list", "--db", str(db), "--result", "draw"]) == 0
    assert main(["archive", "list", "--db", str(db), "--page", "2"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out and err
    for line in (out + err).splitlines():
        assert not re.sub(r"[^A-Za-z]", "", unsaid(line)), f"not from the catalogue: {line!r}"
