"""Start-up fit for a command that rules a file (issue 12, item 6): ``geniusbot adjudicate`` and
``geniusbot --help`` import only what they use, and the registry loads only the game it is asked
for. (How long it takes is measured by bench/bench_startup.py, never asserted here.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "geniusbot" / "examples"

#: What a command that rules a text file has no use for.
HEAVY = ("pydantic", "pydantic_settings", "discord", "sqlalchemy", "asyncio", "PIL", "aiohttp", "alembic")

# Runs the launcher as `geniusbot ARGS...` would, then prints the modules it left loaded.
WRAPPER = """
import json, sys
from geniusbot.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def loaded(tmp_path: Path, *args: str) -> tuple[int, set[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "FONT_PATH", "DATABASE_URL")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], set(report["modules"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


@pytest.mark.parametrize("example", ["tictacfive.txt", "tiles.txt", "threadsoffate.txt"])
def test_adjudicate_imports_no_settings_database_discord_event_loop_or_pillow(tmp_path, example):
    code, modules = loaded(tmp_path, "adjudicate", str(EXAMPLES / example))
    assert code == 0
    assert heavy(modules) == []
    assert "geniusbot.config" not in modules and "geniusbot.console" not in modules


def test_adjudicate_loads_only_the_game_of_its_record(tmp_path):
    code, modules = loaded(tmp_path, "adjudicate", str(EXAMPLES / "tictacfive.txt"))
    assert code == 0
    games = {m.split(".")[2] for m in modules if m.startswith("geniusbot.games.") and m.count(".") >= 2}
    assert games == {"base", "errors", "events", "grid", "outcome", "reading", "tictacfive"}
    assert "blackwhite" not in modules  # the example plug-in is not loaded either


def test_help_imports_no_heavy_module_and_no_game(tmp_path):
    code, modules = loaded(tmp_path, "--help")
    assert code == 0
    assert heavy(modules) == []
    assert not [m for m in modules if m.startswith("geniusbot.games")]


def test_help_lists_play_as_the_consoles_own_parser_does():
    from geniusbot.cli import build_parser
    from geniusbot.commands.play import help_line
    from geniusbot.words import Words

    # `geniusbot --help` (play's line only) reads as with play's own parser (which loads the games).
    full = build_parser(None)
    light = build_parser(["adjudicate", "x.txt"])
    assert light.format_help() == full.format_help()
    assert Words()(help_line()) in full.format_help()


def test_play_help_still_lists_the_games(capsys):
    from geniusbot.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "tictacfive" in out and "threadsoffate" in out


def test_adjudicate_reads_log_level_from_dotenv_without_pydantic(tmp_path, monkeypatch, capsys):
    from geniusbot.cli import light_setting, main

    monkeypatch.delenv("LOG_LEVEL", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("# settings\nexport LOG_LEVEL='warning'  # quiet\nDISCORD_TOKEN=x\n")
    assert light_setting("LOG_LEVEL") == "warning"
    (tmp_path / ".env").write_text("LOG_LEVEL=LOUD\n")
    (tmp_path / "m.txt").write_text((EXAMPLES / "tictacfive.txt").read_text())
    assert main(["adjudicate", "m.txt"]) == 2
    assert "LOG_LEVEL must be one of" in capsys.readouterr().err
    monkeypatch.setenv("LOG_LEVEL", "error")  # the environment wins over .env
    assert light_setting("LOG_LEVEL") == "error"
