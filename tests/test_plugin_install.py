"""A game installed from outside geniusbot, end to end: the example package (examples/blackwhite)
is installed for real (``pip install --target``, not editable) into a directory of its own, and
``geniusbot`` subprocesses that have that directory on ``PYTHONPATH`` rule a record of the game
and play a whole match of it at the console, clock and pictures included. Without it (off the
path, or deleted) the game is unknown and the built-in games play on: the plug-in leaves nothing
behind.

The subprocesses run in a copy of this environment without the example: the test environment has
it installed too (editable, so the suites cover it), and here it must come from the directory
alone. The copy is a directory of links to this environment's site-packages, all but the
example's files, that an interpreter started with ``-S`` (no site-packages of its own) adds as its
only site directory.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

# One worker builds the install (the module's fixture) and runs every test of it.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("plugin_install")]

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "blackwhite"
RECORD = EXAMPLE / "records" / "blackwhite.txt"
# Names of the example's own files in a site-packages directory (an editable install's too).
_THE_EXAMPLE = re.compile(r"(?i)^(__editable__[._]+)?(geniusbot[_-]blackwhite|blackwhite)\b")

# A launcher that is `geniusbot ...` in an interpreter whose only site directory is the copy.
LAUNCH = (
    "import runpy, site, sys; site.addsitedir(sys.argv.pop(1)); "
    "runpy.run_module('geniusbot', run_name='__main__', alter_sys=True)"
)
WHERE = "import site, sys; site.addsitedir(sys.argv[1]); import blackwhite; print(blackwhite.__file__)"

# A whole match: a tile typed in the room (refused), then nine rounds by DM; p1 wins 5 rounds to 3.
MATCH = [
    "p1: play 4",
    *(
        f"{seat} (dm): play {tile}"
        for pair in [(4, 6), (8, 7), (0, 8), (7, 5), (3, 3), (2, 4), (6, 2), (5, 1), (1, 0)]
        for seat, tile in zip(("p1", "p2"), pair)
    ),
    "status",
    "export",
    "quit",
]


def mirror_without_the_example(into: Path) -> Path:
    """A site directory of links to this environment's packages, the example's left out."""
    into.mkdir()
    for directory in map(Path, site.getsitepackages()):
        if not directory.is_dir():
            continue
        for entry in directory.iterdir():
            if not _THE_EXAMPLE.match(entry.name) and not (into / entry.name).exists():
                (into / entry.name).symlink_to(entry)
    return into


def can_build_without_isolation() -> bool:
    """Whether this environment builds a wheel by itself: setuptools 70.1 or later has
    bdist_wheel in it; an older one needs the wheel package (a new venv of Python 3.11 has neither)."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    from importlib.metadata import version

    major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """(the example's install directory, the environment without it, a scratch directory)."""
    root = tmp_path_factory.mktemp("plugin")
    target = root / "target"
    # Built from a copy: setuptools builds in the source tree (build/), which stays as it is.
    source = shutil.copytree(
        EXAMPLE, root / "source", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    # A real install, not an editable one, of the example alone. Built here when this environment
    # can build it (no index needed); else pip builds it in isolation, fetching setuptools.
    isolation = ["--no-build-isolation", "--no-index"] if can_build_without_isolation() else []
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", *isolation, "--target", str(target), str(source)],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert done.returncode == 0, done.stderr
    return target, mirror_without_the_example(root / "site"), root


def geniusbot(
    outside, *args: str, plugin: Path | bool = True, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``geniusbot *args`` with the install on ``PYTHONPATH`` (``plugin``: another directory, or none)."""
    target, mirror, root = outside
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["GENIUSBOT_DATA_DIR"] = str(root / "data")
    if plugin:
        env["PYTHONPATH"] = str(target if plugin is True else plugin)
    return subprocess.run(
        [sys.executable, "-S", "-c", LAUNCH, str(mirror), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=120,
    )


def test_the_install_is_a_real_one_in_its_own_directory(outside):
    target, mirror, root = outside
    assert (target / "blackwhite" / "rules.py").is_file() and (target / "blackwhite" / "picture.py").is_file()
    [dist_info] = target.glob("geniusbot_blackwhite-*.dist-info")
    assert "blackwhite = blackwhite:BlackAndWhite" in (dist_info / "entry_points.txt").read_text()
    env = {**os.environ, "PYTHONPATH": str(target)}
    found = subprocess.run(
        [sys.executable, "-S", "-c", WHERE, str(mirror)], capture_output=True, text=True, env=env, cwd=root
    )
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).is_relative_to(target)


def test_adjudicate_rules_a_record_of_the_installed_game(outside):
    done = geniusbot(outside, "adjudicate", str(RECORD))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Black and White (blackwhite), rule set standard, seed 0")
    assert "rejected: Send your tile to me privately (by direct message), not in the game room: tiles are sealed." in (
        done.stdout
    )
    assert "18 of 22 lines accepted." in done.stdout
    assert (
        "Result: p1 wins. p1 won 5 rounds to 3; p1 wins." in done.stdout
    )  # a referee's report: the game's sentence whole
    assert "Note:" not in done.stdout  # the record's Result header agrees with the replay
    judged = geniusbot(outside, "adjudicate", "--json", str(RECORD))
    assert '"termination": "points"' in judged.stdout and '"winner": "p1"' in judged.stdout


def test_a_whole_match_of_the_installed_game_is_played_at_the_console_with_a_clock(outside):
    target, mirror, root = outside
    boards = root / "boards"
    done = geniusbot(
        outside,
        "play",
        "blackwhite",
        "--seed",
        "0",
        "--clock",
        "30s+2m",
        "--db",
        str(root / "console.sqlite3"),
        "--boards",
        str(boards),
        "--new",
        stdin="\n".join(MATCH) + "\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Match #1: Black and White, p1 vs p2. Clock: 30 s a move, then a 2:00 reserve.\n")
    assert "p1: Send your tile to me privately (by direct message), not in the game room: tiles are sealed." in out
    assert out.count("ok p1 (dm): play") == 9 and out.count("ok p2 (dm): play") == 9
    assert "Round 1: p1 played black, p2 played black; p2 wins the round. Score: p1 0, p2 1." in out
    assert "The tiles, round by round: p1 4 8 0 7 3 2 6 5 1; p2 6 7 8 5 3 4 2 1 0." in out
    assert "Result: p1 wins. p1 won 5 rounds to 3." in out
    assert '[Result "p1"]' in out and '[TimeControl "30s+2m"]' in out and "p2 (dm): play 0 {at=" in out
    # The plug-in's picture drew every board: the room's and each seat's own.
    pictures = sorted(boards.glob("*.png"))
    assert pictures and all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in pictures)
    assert any(p.name.startswith("match1-p1") for p in pictures)


def test_without_the_install_the_game_is_unknown_and_the_others_play_on(outside):
    target, mirror, root = outside
    removed = root / "removed"
    shutil.copytree(target, removed)
    assert geniusbot(outside, "adjudicate", str(RECORD), plugin=removed).returncode == 0
    # Removing the install is deleting its directory: nothing else held it.
    shutil.rmtree(removed)
    for plugin in (False, removed):
        judged = geniusbot(outside, "adjudicate", str(RECORD), plugin=plugin)
        assert judged.returncode == 2
        assert "There is no game called 'blackwhite'" in judged.stderr
        assert "blackwhite" not in judged.stderr.split("choose one of:")[-1]
        played = geniusbot(outside, "play", "blackwhite", "--db", str(root / "gone.sqlite3"), plugin=plugin, stdin="")
        assert played.returncode == 2 and "There is no game called 'blackwhite'" in played.stdout + played.stderr
        builtin = geniusbot(
            outside, "adjudicate", str(REPO / "geniusbot" / "examples" / "tictacfive.txt"), plugin=plugin
        )
        assert builtin.returncode == 0 and "Result: p1 wins." in builtin.stdout
