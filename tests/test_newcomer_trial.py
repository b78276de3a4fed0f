"""The first hour of a newcomer, as a trial: ``geniusbot play GAME`` at the console of every game
and rule set (the plug-in too), each fed through standard input every bad line a newcomer types
(help and rules, a seat with nothing after its colon, table talk, control characters, bytes that
are not UTF-8, a 100,000-character line, moves off the board, on a taken point, out of turn and
gibberish), then ended by the end of the input, or by Ctrl-C; and the launcher's other mistakes
(an unwritable --boards folder, a plain --db path, DATABASE_URL and --url that are paths,
adjudicate from standard input). No traceback ever appears, and every exit code is the README's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from geniusbot.games import get_game, new_game, registry
from geniusbot.host.hints import example_move

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent


def every_rule_set() -> list[tuple[str, str]]:
    return [(name, variant) for name in sorted(registry()) for variant in get_game(name).variants]


def environ(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "DATABASE_URL", "FONT_PATH")}
    env.update(PYTHONPATH=str(REPO), GENIUSBOT_DATA_DIR=str(tmp_path / "data"), **extra)
    return env


def geniusbot(tmp_path: Path, *args: str, stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "geniusbot", *args],
        cwd=tmp_path,
        env=environ(tmp_path, **env),
        input=stdin,
        capture_output=True,
        timeout=180,
    )


def no_traceback(done: subprocess.CompletedProcess[bytes]) -> str:
    text = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text[-3000:]
    assert "Error:" not in done.stderr.decode("utf-8", "replace"), text[-3000:]
    return text


def first_move(name: str, variant: str) -> str:
    """A move legal once the game's opening window (if any) has closed, as help offers it."""
    game = new_game(name, seed=7, variant=variant)
    if game.window() is not None and not game.to_move():
        game.close_window()
    example = example_move(game)
    assert example is not None
    return example


def bad_lines(name: str, variant: str) -> list[bytes]:
    move = first_move(name, variant)
    seat = move.split(":")[0].split()[0]
    other = "p2" if seat == "p1" else "p1"
    text = [
        "help",
        "rules",
        "rules tiles",
        "rules decks",
        "rules swabbing",
        "rules nothing-such",
        "p1:",
        "p2 (dm):   ",
        "p3: H8",
        "p1: gg",
        "close window",
        "p1: \x07\x1b[2J\x00 H8 \x7f",
        "\x1b[A\x1b[B",
        f"{seat}: Z99",
        f"{seat}: A0",
        f"{seat}: asdf qwerty !!",
        f"{other}: {move.partition(': ')[2]}",
        move,
        move,
        move.replace(seat, other, 1),
        "status",
        "help",
        "p1: resign",
        "resign p3",
        "pause",
        "pause",
        "resume",
        "resume",
        "export",
    ]
    lines = [line.encode() for line in text]
    lines[12:12] = [b"\xff\xfe bad \xc3(", b"x" * 100_000, b"p1: " + b"A1 " * 40_000]
    return lines


@pytest.mark.parametrize(("name", "variant"), every_rule_set())
def test_every_bad_line_at_every_games_console_gets_a_sentence_and_no_traceback(tmp_path, name, variant):
    script = b"\n".join(bad_lines(name, variant)) + b"\n"  # and then the input ends, without quit
    done = geniusbot(tmp_path, "play", name, "--variant", variant, "--seed", "7", "--new", stdin=script)
    text = no_traceback(done)
    assert done.returncode == 0, text[-3000:]
    assert "That line is not UTF-8 text, so it cannot be read; nothing was taken." in text
    assert "That line is 100,000 characters long" in text
    assert "Nothing follows 'p1:'; write the move after the colon." in text
    assert "There is no game 'nothing-such'" in text
    assert "with the same --db resumes it." in text or "which is over" in text


def test_after_every_bad_line_the_match_resumes(tmp_path):
    script = b"\n".join(bad_lines("tiles", "standard")) + b"\n"
    done = geniusbot(tmp_path, "play", "tiles", "--seed", "7", stdin=script)
    assert done.returncode == 0, no_traceback(done)
    again = geniusbot(tmp_path, "play", "tiles", stdin=b"status\nquit\n")
    assert again.returncode == 0 and "Resuming match #1" in no_traceback(again)
    # What only a new match takes is said to be left out, not silently dropped.
    asked = geniusbot(
        tmp_path, "play", "tiles", "--clock", "10s", "--level", "hard", "--bot-seat", "p1", stdin=b"quit\n"
    )
    assert asked.returncode == 0
    assert (
        "Match #1 goes on as it was set up, so --clock 10s, --level hard and --bot-seat p1 are left out; "
        "add --new to start a match with them."
    ) in no_traceback(asked)


@pytest.mark.parametrize("name", sorted(registry()))
def test_ctrl_c_at_every_games_console_leaves_with_130_and_no_traceback(tmp_path, name):
    process = subprocess.Popen(
        [sys.executable, "-m", "geniusbot", "play", name, "--seed", "3"],
        cwd=tmp_path,
        env=environ(tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"help\n")
    process.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 120
    while b"Type a move as" not in seen and b"No move is taken" not in seen and time.monotonic() < deadline:
        seen += process.stdout.readline()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    text = (seen + out + err).decode("utf-8", "replace")
    assert "Traceback" not in text, text[-3000:]
    assert process.returncode == 130, text[-3000:]
    assert "with the same --db" in text


def test_the_launchers_other_mistakes_end_in_a_sentence_and_the_readmes_exit_codes(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    # A --boards folder that cannot be written (under a file, so that even root cannot): 2.
    done = geniusbot(tmp_path, "play", "tictacfive", "--boards", str(blocker / "boards"), stdin=b"quit\n")
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, no_traceback(done)
    # A plain path for --db is a SQLite file: 0.
    done = geniusbot(tmp_path, "play", "tictacfive", "--db", str(tmp_path / "some" / "file.db"), stdin=b"p1: H8\n")
    assert done.returncode == 0 and b"ok p1: H8" in done.stdout, no_traceback(done)
    # DATABASE_URL and --url that are paths are SQLite files too (README: a path or a URL): 0.
    done = geniusbot(tmp_path, "db", "upgrade", DATABASE_URL="notaurl")
    assert done.returncode == 0 and (tmp_path / "notaurl").is_file(), no_traceback(done)
    done = geniusbot(tmp_path, "db", "upgrade", "--url", str(tmp_path / "x" / "file.db"))
    assert done.returncode == 0 and (tmp_path / "x" / "file.db").is_file(), no_traceback(done)
    # A URL that is none: 2, one line.
    done = geniusbot(tmp_path, "db", "upgrade", DATABASE_URL="mysql://u@h/db")
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, no_traceback(done)
    # A contradicting --variant, an unknown one: 2, one line.
    for argv in (["threadsoffate", "--variant", "classic"], ["tightwire", "--variant", "nope"]):
        done = geniusbot(tmp_path, "play", *argv, stdin=b"quit\n")
        assert done.returncode == 2 and done.stderr.count(b"\n") == 1, no_traceback(done)
    # adjudicate - reads the record from standard input: 0 whatever the verdicts; 2 unreadable.
    record = (REPO / "geniusbot" / "examples" / "tictacfive.txt").read_bytes()
    done = geniusbot(tmp_path, "adjudicate", "-", stdin=record)
    assert done.returncode == 0 and b"lines accepted." in done.stdout, no_traceback(done)
    for junk in (b"", b"\xff\xfe\n", b'[Game "nothing"]\np1: H8\n', b"p1: H8\n" * 3):
        done = geniusbot(tmp_path, "adjudicate", "-", stdin=junk)
        assert done.returncode == 2 and done.stderr.count(b"\n") == 1, no_traceback(done)


@pytest.mark.parametrize("url", ["sqlite+aiosqlite:///", "sqlite:///:memory:", "sqlite://", "mysql://u@h/db"])
def test_a_database_that_keeps_nothing_or_cannot_be_used_is_refused_by_every_command(tmp_path, url):
    """An in-memory SQLite database keeps nothing (it used to end 'play' with exit 1 and an SQL
    dump, and 'db upgrade' with "up to date (revision None)"), and a URL of a database geniusbot
    cannot use is refused by 'play --db' as by 'db upgrade' and DATABASE_URL: 2, one sentence."""
    for args, env in (
        (["play", "tictacfive", "--db", url], {}),
        (["db", "upgrade", "--url", url], {}),
        (["db", "upgrade"], {"DATABASE_URL": url}),
    ):
        done = geniusbot(tmp_path, *args, stdin=b"p1: H8\nquit\n", **env)
        err = done.stderr.decode()
        assert done.returncode == 2 and err.count("\n") == 1, no_traceback(done)
        assert ("in-memory SQLite database, which keeps nothing" in err) == ("mysql" not in url), err
        assert "data/geniusbot.sqlite3" in err and done.stdout == b""
