"""The launcher's commands in the pseudo-language (GENIUSBOT_LANGUAGE=qps, or ``--language qps``):
what ``import``, ``replay``, ``db upgrade``, ``check``, ``new-game`` and the launcher itself say
to whoever runs them comes from the catalogue, run in-process on real SQLite files. A path, a URL,
a game's title and a player's name are said as they are, inside the message that names them.

The record's and the importer's refusals (a record that cannot be read, a refused line) and
``play``'s checks of a game's options are ``test_pseudo_record.py``'s. Not here: a check's failure
text, the conformance suite's diagnosis for the game's developer (docs/words.md)."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import pytest

from geniusbot.cli import EXIT_USAGE, main
from tests.cli_support import clean_cli, store_record
from tests.storage.test_faults import damage

RECORDS = Path(__file__).resolve().parents[1] / "records"
RECORD = RECORDS / "tictacfive.txt"


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("GENIUSBOT_LANGUAGE", "qps")
    yield from clean_cli(monkeypatch, tmp_path)


def said(text: str) -> str:
    """``text`` as long as every letter of it came from a message (else the assertion says which)."""
    from geniusbot.words import unsaid

    for line in text.splitlines():
        assert not re.sub(r"[^A-Za-z]", "", unsaid(line)), f"not from the catalogue: {line!r}"
    return text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, said(out), said(err)


def test_import_says_what_it_stored_and_why_it_stored_nothing(tmp_path: Path, capsys):
    db = str(tmp_path / "archive.sqlite3")
    code, out, err = run(capsys, "import", str(RECORD), "--db", db)
    assert code == 0 and not err
    assert out.startswith("⟦⟦Íḿṕóŕţéđ ţĥé ŕéçóŕđ áś ḿáţçĥ #1 (Tic-Tac-Five: ⟦Hyunmin ṽś Dongmin⟧), 18 ĺíñé(ś)⟧")
    code, out, _ = run(capsys, "import", str(RECORD), "--db", db)
    assert code == 0 and out.startswith("⟦Ţĥíś ŕéçóŕđ ŵáś áĺŕéáđý íḿṕóŕţéđ áś ḿáţçĥ #1")
    code, out, _ = run(capsys, "import", str(RECORDS / "tictacfive-unfinished.txt"), "--db", db)
    assert code == 0 and "'geniusbot play tictacfive'" in out and "ţó ṕĺáý óñ" in out
    # A database that cannot be used, and a --db that is no URL.
    code, _, err = run(capsys, "import", str(RECORD), "--db", "postgresql+nosuchdriver://x/y")
    assert code == EXIT_USAGE and err.startswith("⟦geniusbot import: ⟦")


def test_replay_says_what_it_wrote_and_what_to_fix(tmp_path: Path, capsys):
    page = tmp_path / "page.html"
    code, out, err = run(capsys, "replay", str(RECORD), "--html", str(page))
    assert code == 0 and not err and out.startswith(f"⟦Ŵŕóţé {page} (")
    code, out, err = run(capsys, "replay", str(RECORD), "--gif", str(tmp_path / "match.gif"))
    assert code == 0 and not err and "⟦Ŵŕóţé" in out
    code, _, err = run(capsys, "replay", str(RECORD), "--db", "x.sqlite3", "--gif", str(tmp_path / "x.gif"))
    assert code == EXIT_USAGE and err.startswith("⟦geniusbot replay: ⟦--đƀ ĝóéś ŵíţĥ --ḿáţçĥ")
    db = tmp_path / "archive.sqlite3"
    asyncio.run(store_record(f"sqlite+aiosqlite:///{db}", RECORD.read_text(encoding="utf-8")))
    for output in ("--gif", "--html"):
        code, _, err = run(capsys, "replay", "--match", "9", "--db", str(db), output, str(tmp_path / "out"))
        assert code == EXIT_USAGE and "#9" in err
    code, _, err = run(capsys, "replay", "--match", "1", "--db", str(tmp_path / "none.sqlite3"), "--html", "o.html")
    assert code == EXIT_USAGE and "⟦ţĥéŕé íś ñó đáţáƀáśé ƒíĺé" in err
    code, _, err = run(capsys, "replay", str(RECORD), "--gif", str(tmp_path / "no" / "such" / "dir.gif"))
    assert code == EXIT_USAGE and "⟦çáññóţ ŵŕíţé" in err


def test_replay_of_a_game_without_a_picture_says_so(tmp_path: Path, capsys, monkeypatch):
    from geniusbot.archive import gif

    monkeypatch.setattr(gif, "has_renderer", lambda _game: False)
    code, _, err = run(capsys, "replay", str(RECORD), "--gif", str(tmp_path / "match.gif"))
    assert code == EXIT_USAGE and "'geniusbot adjudicate'" in err and "ĥáś ñó ƀóáŕđ ṕíçţúŕé" in err


def test_db_upgrade_says_what_it_did_and_a_damaged_file(tmp_path: Path, capsys):
    path = tmp_path / "bot.sqlite3"
    code, out, err = run(capsys, "db", "upgrade", "--url", str(path))
    assert code == 0 and not err and out.startswith("⟦Úṕĝŕáđéđ ţĥé đáţáƀáśé áţ")
    code, out, _ = run(capsys, "db", "upgrade", "--url", str(path))
    assert code == 0 and "íś úṕ ţó đáţé" in out
    asyncio.run(store_record(f"sqlite+aiosqlite:///{path}", RECORD.read_text(encoding="utf-8")))
    shutil.copy(path, tmp_path / "damaged.sqlite3")
    damage(tmp_path / "damaged.sqlite3")
    code, _, err = run(capsys, "db", "upgrade", "--url", str(tmp_path / "damaged.sqlite3"))
    assert code == EXIT_USAGE and err.startswith("⟦geniusbot: ⟦⟦⟦Ţĥé ƀóţ'ś đáţáƀáśé ƒíĺé íś đáḿáĝéđ")


def test_check_says_its_report_and_its_refusals(capsys):
    code, out, err = run(capsys, "check", "tictacfive", "--only", "declaration,words")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0].startswith("⟦Çĥéçķíñĝ Tic-Tac-Five (tictacfive; ŕúĺé śéţś: ")
    assert lines[1].startswith("⟦⟦óķ⟧  declaration ") and lines[2].startswith("⟦⟦óķ⟧  words ")
    assert lines[-1] == "⟦tictacfive ṕáśśéś ţĥé 2 óƒ 17 çĥéçķś ŕúñ.⟧"
    for argv in (["nosuchgame"], ["nosuch:Game"], ["tictacfive", "--only", "nosuch"], ["tictacfive", "--option", "x"]):
        code, _, err = run(capsys, "check", *argv)
        assert code == EXIT_USAGE and err.startswith("⟦geniusbot check: ⟦"), err


def test_new_game_says_what_it_wrote_and_what_it_will_not(tmp_path: Path, capsys):
    code, out, err = run(capsys, "new-game", "pebbles", "--dir", str(tmp_path / "pebbles"))
    assert code == 0 and not err and out.startswith("⟦Ŵŕóţé ") and "⟦Ñéxţ: pip install -e" in out
    for argv in (["Pebbles!"], ["tictacfive"], ["json"], ["pebbles", "--dir", str(tmp_path / "pebbles")]):
        code, _, err = run(capsys, "new-game", *argv)
        assert code == EXIT_USAGE and err.startswith("⟦geniusbot new-game: ⟦"), err
    code, _, err = run(capsys, "new-game", "stones", "--title", " ", "--dir", str(tmp_path / "stones"))
    assert code == EXIT_USAGE and "⟦--ţíţĺé íś éḿṕţý" in err


def test_the_launchers_own_lines(capsys, monkeypatch):
    code, _, err = run(capsys, "--log-level", "LOUD", "db", "upgrade", "--url", "x.sqlite3")
    assert code == EXIT_USAGE and err.startswith("⟦geniusbot: ⟦--ĺóĝ-ĺéṽéĺ ḿúśţ ƀé óñé óƒ")
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    code, _, err = run(capsys, "check", "tictacfive")
    assert code == EXIT_USAGE and err.startswith("⟦geniusbot: ⟦ţĥé śéţţíñĝś çáññóţ ƀé ŕéáđ")
    monkeypatch.delenv("LOG_LEVEL")
    monkeypatch.setenv("DATABASE_URL", "")
    monkeypatch.setenv("HEALTH_LOG_SECONDS", "many")  # a setting pydantic refuses
    code, _, err = run(capsys, "db", "upgrade")
    assert code == EXIT_USAGE and err.startswith("⟦geniusbot: ⟦ţĥé śéţţíñĝś çáññóţ ƀé ŕéáđ")


def test_play_says_its_own_refusals_before_the_match(capsys):
    code, _, err = run(capsys, "play", "tictacfive", "--option", "blue")
    assert code == EXIT_USAGE and err.startswith("⟦--óṕţíóñ 'blue' ñééđś ţĥé ƒóŕḿ")
    code, _, err = run(capsys, "play", "tictacfive", "--language", "qps", "--db", "postgresql+nosuchdriver://x/y")
    assert code == EXIT_USAGE and err.startswith("⟦--db ") and "⟦" in err


def help_names() -> re.Pattern[str]:
    """What a command's help shows as it is in every language: the program, the commands', the
    positional arguments' and the checks' names (flags, metavars and choices go by their form)."""
    from geniusbot.conformance.checks import CHECK_NAMES

    names = ["adjudicate", "play", "db", "upgrade", "run", "import", "replay", "archive", "list", "tournament"]
    names += ["export", "analyse", "check", "new-game"]
    names += ["game", "file"]
    names += sorted(CHECK_NAMES, key=len, reverse=True)
    return re.compile(r"python -m geniusbot\.archive\.page|geniusbot|\b(" + "|".join(map(re.escape, names)) + r")\b")


def help_said(text: str) -> None:
    """``text``, a command's ``--help``, as long as every letter of it came from a message but
    the names it shows as they are (flags, metavars, choices, the commands' names)."""
    from geniusbot.words import unsaid

    # argparse wraps a message across lines: the whole text is read at once.
    rest = help_names().sub("", unsaid(text))
    rest = re.sub(r"--?[\w-]+|\b[A-Z][A-Z_=]*\b|\{[^}]*\}", "", rest)
    assert not re.sub(r"[^A-Za-z\n]", "", rest).strip(), f"not from the catalogue: {rest!r}"


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["adjudicate"],
        ["play"],
        ["db"],
        ["db", "upgrade"],
        ["run"],
        ["import"],
        ["replay"],
        ["archive", "list"],
        ["tournament"],
        ["tournament", "export"],
        ["analyse"],
        ["check"],
        ["new-game"],
    ],
)
def test_every_commands_help_is_said_by_the_catalogue(command: list[str], capsys):
    with pytest.raises(SystemExit) as exit:
        main([*command, "--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert "⟦" in out
    help_said(out)


def test_the_standalone_page_commands_help_and_argparses_error_line_are_said_too(capsys):
    from geniusbot.archive import page

    with pytest.raises(SystemExit):
        page.main(["--help"])
    help_said(capsys.readouterr().out)
    with pytest.raises(SystemExit) as exit:
        main(["play"])  # no game: argparse's own refusal, in the catalogue's frame
    assert exit.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert "⟦geniusbot play: ⟦" not in err and "⟦" in err
    help_said(err.replace("the following arguments are required", ""))
