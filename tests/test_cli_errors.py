"""No traceback reaches a user of the launcher (issue 12, item 1): database URLs, the --boards
folder, Ctrl-C and an unexpected error each end in one sentence and the launcher's exit codes
(0 done, 1 an unexpected error, 2 a user's mistake, 130 stopped by Ctrl-C)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from geniusbot import cli
from geniusbot.cli import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, EXIT_USAGE, main
from tests.cli_support import clean_cli, run_geniusbot

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path, data_dir=False)


def run(tmp_path: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return run_geniusbot(tmp_path, *args, stdin=stdin, **env)


def one_line(text: str) -> str:
    assert "Traceback" not in text, text
    assert text.count("\n") == 1, text
    return text


# --------------------------------------------------------------------------- database URLs


def test_db_upgrade_takes_a_plain_path_as_play_db_does(tmp_path, capsys):
    path = tmp_path / "some" / "file.db"
    assert main(["db", "upgrade", "--url", str(path)]) == 0
    assert path.is_file()
    assert capsys.readouterr().out.startswith(f"Upgraded the database at sqlite+aiosqlite:///{path}")


def test_a_database_url_setting_that_is_a_plain_name_is_a_sqlite_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "notaurl")
    assert main(["db", "upgrade"]) == 0
    assert (tmp_path / "notaurl").is_file()
    assert main(["db", "upgrade"]) == 0
    assert "is up to date" in capsys.readouterr().out.splitlines()[-1]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://someone:s3cret@host/db", "a URL starting mysql:// is not one geniusbot can use"),
        ("://nothing", "nothing before ://"),
        ("postgresql://someone:s3cret@host:port/db", "cannot be read as a database URL"),
    ],
)
def test_db_upgrade_url_that_is_not_one_says_what_a_url_looks_like(tmp_path, capsys, url, words):
    assert main(["db", "upgrade", "--url", url]) == EXIT_USAGE
    out = capsys.readouterr()
    err = one_line(out.err)
    assert out.out == ""
    assert err.startswith("geniusbot: --url ") and words in err
    assert "postgresql+asyncpg://user:password@host:5432/geniusbot" in err and "data/geniusbot.sqlite3" in err
    assert "s3cret" not in err


def test_a_database_url_setting_that_is_not_one_is_a_settings_mistake_for_every_command(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "http://example.com/db")
    for argv in (["db", "upgrade"], ["run"]):
        assert main(argv) == EXIT_USAGE
        err = one_line(capsys.readouterr().err)
        assert err.startswith("geniusbot: the settings cannot be read (")
        assert "DATABASE_URL must be a SQLite file such as data/geniusbot.sqlite3, or a database URL" in err


def test_db_upgrade_with_a_bad_url_in_a_real_process_prints_one_line(tmp_path):
    done = run(tmp_path, "db", "upgrade", "--url", "mysql://u@h/db")
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr)
    done = run(tmp_path, "db", "upgrade", DATABASE_URL="notaurl")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "notaurl").is_file()


def test_db_upgrade_of_a_database_it_cannot_reach_exits_2_as_run_and_play_do(tmp_path, capsys):
    folder = tmp_path / "a-file"
    folder.write_text("not a folder")
    assert main(["db", "upgrade", "--url", str(folder / "x.db")]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("geniusbot: could not upgrade the database at ") and "Traceback" not in err


# --------------------------------------------------------------------------- Ctrl-C, and a bug


def test_ctrl_c_at_db_upgrade_leaves_quietly(tmp_path, monkeypatch, capsys):
    from geniusbot.storage import db

    async def interrupted(_url):  # as if Ctrl-C were pressed while the database is reached
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.sleep(10)

    monkeypatch.setattr(db, "current_revision", interrupted)
    assert main(["db", "upgrade", "--url", str(tmp_path / "x.db")]) == EXIT_INTERRUPTED
    out = capsys.readouterr()
    assert out.err == "geniusbot db upgrade: stopped (Ctrl-C).\n"


def _boom(args):
    raise RuntimeError("the handler broke")


def _add_boom(commands) -> None:
    commands.add_parser("boom", help="fail").set_defaults(handler="tests.test_cli_errors:_boom")


def test_an_unexpected_error_is_one_line_and_exit_1(monkeypatch, capsys):
    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, _add_boom])
    assert main(["boom"]) == EXIT_ERROR
    err = one_line(capsys.readouterr().err)
    assert err.startswith("geniusbot boom: an unexpected error stopped the command (RuntimeError: the handler broke)")
    assert "--log-level DEBUG" in err


# --------------------------------------------------------------------------- play --boards


def test_an_unwritable_boards_folder_is_refused_before_the_match_starts(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder would go")
    db = tmp_path / "console.sqlite3"
    done = run(tmp_path, "play", "tictacfive", "--db", str(db), "--boards", str(blocker / "boards"), stdin="p1: H8\n")
    assert done.returncode == 2 and done.stdout == ""
    err = one_line(done.stderr)
    assert err.startswith(f"--boards '{blocker / 'boards'}' cannot be written (")
    assert "choose a folder you can write to, or leave --boards out" in err
    assert not db.exists()  # nothing was created, no match was saved


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_boards_folder_is_refused(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        done = run(tmp_path, "play", "tictacfive", "--db", str(tmp_path / "c.sqlite3"), "--boards", str(folder))
    finally:
        folder.chmod(0o700)
    assert done.returncode == 2 and "Permission denied" in one_line(done.stderr)


def test_play_keeps_board_pictures_only_when_asked(tmp_path):
    done = run(tmp_path, "play", "tictacfive", "--db", str(tmp_path / "c.sqlite3"), stdin="p1: H8\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "ok p1: H8" in done.stdout and "saved to" not in done.stdout
    assert not (tmp_path / "data" / "boards").exists()
    assert not list(tmp_path.rglob("*.png"))
    boards = tmp_path / "pictures"
    done = run(
        tmp_path, "play", "tictacfive", "--new", "--db", str(tmp_path / "c.sqlite3"), "--boards", str(boards),
        stdin="p1: H8\nquit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "(board saved to " in done.stdout and list(boards.glob("*.png"))
    assert not list(boards.glob(".geniusbot-*"))  # the write check leaves nothing behind


def test_play_help_says_pictures_are_kept_only_with_boards(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--boards DIR save every board picture as a PNG in DIR (default: no picture is kept)" in out


def test_the_readme_documents_the_exit_codes_the_launcher_uses():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The commands and their exit codes", 1)[1].split("\n## ", 1)[0]
    for code, words in [
        (0, "done"),
        (EXIT_ERROR, "an unexpected error"),
        (EXIT_USAGE, "a mistake the user can fix"),
        (EXIT_INTERRUPTED, "stopped by Ctrl-C"),
    ]:
        assert f"\n| {code} | {words}" in section
    assert "`--boards DIR`" in section and "no picture is kept" in section


# --------------------------------------------------------------------------- a reader that goes away


def run_into_closed_pipe(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``geniusbot ARGS`` in a real process whose standard output is a pipe nobody reads: its
    read end is closed before the process starts, so the first write meets a closed pipe (as
    ``| head`` leaves it once it has its lines)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    environ = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "DATABASE_URL", "FONT_PATH")}
    environ.update(PYTHONPATH=str(REPO), GENIUSBOT_DATA_DIR=str(tmp_path / "data"))
    try:
        return subprocess.run(
            [sys.executable, "-m", "geniusbot", *args],
            cwd=tmp_path,
            env=environ,
            input=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("adjudicate", str(REPO / "geniusbot" / "examples" / "allhands.txt")), ""),
        (("adjudicate", "--json", "-"), (REPO / "geniusbot" / "examples" / "tictacfive.txt").read_text()),
        (("play", "tictacfive", "--db", "console.sqlite3"), "p1: H8\np1: H9\nquit\n"),
    ],
)
def test_output_whose_reader_went_away_ends_quietly_with_141(tmp_path, args, stdin):
    done = run_into_closed_pipe(tmp_path, *args, stdin=stdin)
    assert (done.returncode, done.stderr) == (EXIT_PIPE_CLOSED, "")


def test_the_readme_says_the_exit_code_of_a_closed_pipe():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The commands and their exit codes", 1)[1].split("\n## ", 1)[0]
    assert f"\n| {EXIT_PIPE_CLOSED} | standard output was closed by its reader" in section
