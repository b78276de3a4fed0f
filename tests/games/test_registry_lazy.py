"""The registry loads one game by its entry point's name, and every game only when it must."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
import geniusbot.games as games
loaded = lambda: sorted(m.split(".")[2] for m in sys.modules if m.startswith("geniusbot.games.") and m.count(".") == 2)
print(games.get_game("Tic-Tac-Five").name, loaded())
print(games.default_variant("tictacfive"), loaded())
print(games.get_game("threadsoffate").name, games.default_variant("threadsoffate"), "tightwire" in loaded())
print(len(games.registry()) >= 7)
try:
    games.get_game("chess")
except games.OptionError as error:
    print(error)
"""


def test_one_game_is_loaded_by_its_name_the_rest_when_a_name_is_not_an_entry_point():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "tictacfive ['base', 'errors', 'events', 'grid', 'outcome', 'reading', 'tictacfive']"
    # A game's own name implies no rule set:
    assert lines[1] == "None ['base', 'errors', 'events', 'grid', 'outcome', 'reading', 'tictacfive']"
    assert lines[2] == "tightwire fate True"  # a rule set's name: every game is asked
    assert lines[3] == "True"
    assert lines[4].startswith("There is no game called 'chess'; choose one of: ") and "tictacfive" in lines[4]
