"""The launcher: sub-commands, exit codes, and one run through a real subprocess."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from geniusbot import cli
from geniusbot.cli import build_parser, main

REPO = Path(__file__).resolve().parent.parent
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

GOOD = """\
[Game "armslength"]
[Setup "red A1 B1 C1; blue A8 B8 C8"]
p1: E5
p2: E5   # taken: rejected, and still exit 0
p2: H1
p1: D1
"""


@pytest.fixture(autouse=True)
def restore_logging():
    # main() sets up logging for the process; give the next test the logging it had before.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    done = getattr(cli.configure_logging, "done", False)
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    cli.configure_logging.done = done


@pytest.fixture(autouse=True)
def clean_directory(monkeypatch, tmp_path):
    # The launcher reads ./.env and the environment; keep both out of the way.
    for name in (
        "LOG_LEVEL",
        "DATABASE_URL",
        "GENIUSBOT_DATA_DIR",
        "DISCORD_API_BASE_URL",
        "DISCORD_GATEWAY_URL",
        "FONT_PATH",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def write(tmp_path: Path, text: str | bytes, name: str = "match.txt") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_help_lists_the_sub_commands(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    assert "adjudicate" in capsys.readouterr().out


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: geniusbot" in capsys.readouterr().out


def test_every_listed_command_has_a_handler_that_resolves():
    parser = build_parser()
    args = parser.parse_args(["adjudicate", "x.txt"])
    assert args.handler == "geniusbot.commands.adjudicate:command"


def test_adjudicate_prints_the_table_and_exits_0_whatever_the_verdicts(tmp_path, capsys):
    assert main(["adjudicate", write(tmp_path, GOOD)]) == 0
    out = capsys.readouterr()
    assert "rejected: E5 is taken; choose an empty square." in out.out
    assert "Result: p1 wins." in out.out
    assert out.err == ""


def test_adjudicate_json(tmp_path, capsys):
    assert main(["adjudicate", write(tmp_path, GOOD), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "armslength"
    assert [a["accepted"] for a in data["actions"]] == [True, False, True, True]
    assert data["outcome"]["winner"] == "p1"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        ("directory", "cannot read"),
        (b'[Game "armslength"]\np1: \xff\xfe\n', "not UTF-8"),
        ('[Game "chess"]\np1: e4\n', "There is no game called 'chess'"),
        ("[Game armslength]\np1: E4\n", 'line 1: a header is written [Name "value"]'),
        ('[Game "armslength"]\n[Setup "red Z9"]\np1: E4\n', "line 2: the headers describe no game"),
        ('[Game "armslength"]\n[Colour "red"]\n', "Arm's Length takes no header [Colour]"),
        ("p1: E4\n", 'no [Game "..."] header'),
    ],
)
def test_adjudicate_exits_2_with_one_line_on_stderr_when_the_file_cannot_be_read(tmp_path, capsys, content, words):
    if content is None:
        path = str(tmp_path / "missing.txt")
    elif content == "directory":
        path = str(tmp_path)
    else:
        path = write(tmp_path, content)
    assert main(["adjudicate", path]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and out.err.startswith("geniusbot adjudicate: ")
    assert words in out.err


def test_bad_settings_exit_2_with_a_message(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    assert main(["adjudicate", write(tmp_path, GOOD)]) == 2
    assert "LOG_LEVEL must be one of" in capsys.readouterr().err


def test_a_bad_font_path_exits_2_with_the_reason(monkeypatch, tmp_path, capsys):
    # A command that reads the settings (adjudicate draws no picture and reads only LOG_LEVEL).
    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, _add_ping])
    monkeypatch.setenv("FONT_PATH", str(tmp_path / "NotoSansCJK-Regular.ttc"))
    assert main(["ping"]) == 2
    err = capsys.readouterr().err
    assert "FONT_PATH: there is no file at" in err and "NotoSansCJK-Regular.ttc" in err
    assert main(["adjudicate", write(tmp_path, GOOD)]) == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "FONT_PATH: there is no file at"),
        ("a text file, not a font", "is not a font Pillow can read"),
    ],
)
def test_a_bad_font_path_is_refused_with_the_reason(monkeypatch, tmp_path, capsys, content, words):
    # Refused as the settings read (the settings take the path; the launcher asks the renderer).
    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, _add_ping])
    path = tmp_path / "font.ttf"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    monkeypatch.setenv("FONT_PATH", str(path))
    assert main(["ping"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("geniusbot: the settings cannot be read (font_path: Value error, FONT_PATH: ")
    assert words in err and err.endswith("); fix the environment or .env.\n") and err.count("\n") == 1


@pytest.mark.skipif(not DEJAVU.is_file(), reason=f"no DejaVu Sans at {DEJAVU} on this machine")
def test_the_font_path_setting_is_what_the_pictures_use(monkeypatch, tmp_path, capsys):
    from geniusbot.render import fonts as common

    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, _add_ping])
    monkeypatch.setenv("FONT_PATH", str(DEJAVU))
    try:
        assert main(["ping"]) == 3
        assert common.font_path() == str(DEJAVU.resolve())
        assert common.font(30).getname()[0] == "DejaVu Sans"
    finally:
        common.configure_font(None)


def test_a_bad_log_level_option_exits_2(tmp_path, capsys):
    assert main(["--log-level", "chatty", "adjudicate", write(tmp_path, GOOD)]) == 2
    assert "--log-level must be one of" in capsys.readouterr().err


@pytest.mark.slow
def test_python_dash_m_geniusbot_adjudicate_json_in_a_real_subprocess(tmp_path):
    path = write(tmp_path, GOOD)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("LOG_LEVEL", None)
    done = subprocess.run(
        [sys.executable, "-m", "geniusbot", "adjudicate", path, "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"game", "actions", "outcome"}
    assert data["actions"][1] == {
        "line": 4,
        "seat": "p2",
        "text": "E5",
        "accepted": False,
        "error": "E5 is taken; choose an empty square.",
    }
    assert data["outcome"]["winner"] == "p1"
    missing = subprocess.run(
        [sys.executable, "-m", "geniusbot", "adjudicate", str(tmp_path / "nope.txt")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and missing.stdout == "" and missing.stderr.count("\n") == 1


def test_logging_is_set_up_once_at_the_level_asked(tmp_path, monkeypatch):
    root = logging.getLogger()
    cli.configure_logging.done = False
    monkeypatch.setattr(root, "handlers", [])  # start from a process with no logging set up
    path = write(tmp_path, GOOD)
    assert main(["--log-level", "warning", "adjudicate", path]) == 0
    assert root.level == logging.WARNING and len(root.handlers) == 1
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    assert main(["adjudicate", path]) == 0
    assert root.level == logging.DEBUG and len(root.handlers) == 1


async def ping_command(args) -> int:
    """A coroutine handler, as the bot's own commands will be."""
    print(f"pong {args.times} {args.settings.log_level}")
    return 3


def _add_ping(commands) -> None:
    parser = commands.add_parser("ping", help="answer pong")
    parser.add_argument("--times", type=int, default=1)
    parser.set_defaults(handler="tests.test_cli:ping_command")


def test_a_new_sub_command_is_one_function_in_commands_and_a_coroutine_handler_is_run(monkeypatch, capsys):
    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, _add_ping])
    assert main(["ping", "--times", "2"]) == 3
    assert capsys.readouterr().out == "pong 2 INFO\n"
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "answer pong" in capsys.readouterr().out
