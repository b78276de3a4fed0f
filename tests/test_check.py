"""``geniusbot check GAME`` and ``geniusbot new-game NAME``, as a plug-in's author meets them.

The example plug-in passes every check; the skeleton ``new-game`` writes passes them too, loaded
from its folder (``module:Class``), and installed for real; games broken on purpose (made from
the skeleton, a line of it changed) fail with exit 1 and a sentence that names the check, what
was wrong and what to do; an unknown game or check exits 2 with a sentence.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from geniusbot import newgame
from geniusbot.cli import main
from geniusbot.conformance.checks import CHECK_NAMES
from geniusbot.games import registry
from tests.test_plugin_install import can_build_without_isolation

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def forget_the_skeletons_modules(tmp_path: Path):
    """A skeleton imported from ``tmp_path`` is forgotten after its test: left in
    ``sys.modules``, its name would read as a Python module already to a later test's new-game
    on the same worker, and a later skeleton of the same name would be the earlier one's code."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if str(getattr(sys.modules[name], "__file__", None) or "").startswith(str(tmp_path)):
            del sys.modules[name]


def skeleton(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, *changes: tuple[str, str]) -> Path:
    """The skeleton of ``name`` written into ``tmp_path``, each ``(old, new)`` of ``changes`` made
    to its rules, and its ``src`` on the path; the folder."""
    folder = tmp_path / name
    newgame.write(name, folder)
    rules = folder / "src" / name / "rules.py"
    text = rules.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    rules.write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder / "src"))
    return folder


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
@pytest.mark.skipif("blackwhite" not in registry(), reason="the example game is not installed")
def test_the_example_plug_in_passes_every_check(capsys):
    code, out, err = check(capsys, "blackwhite")
    assert code == 0, out + err
    assert (
        out.splitlines()[0] == "Checking Black and White (blackwhite; rule sets: standard) against the game contract."
    )
    assert [line.split()[:2] for line in out.splitlines()[1:-1]] == [["ok", name] for name in CHECK_NAMES]
    assert out.splitlines()[-1] == f"blackwhite passes every check ({len(CHECK_NAMES)})."
    assert err == ""


def test_an_unknown_game_exits_2_with_a_sentence(capsys):
    code, out, err = check(capsys, "chess")
    assert code == 2 and out == ""
    assert err.startswith("geniusbot check: There is no game called 'chess'; choose one of: ")
    assert "tictacfive" in err and "module:Class" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["nosuchmodule:Game"], "'nosuchmodule' cannot be imported"),
        (["os.path:join"], "os.path:join is not a Game subclass"),
        (["tictacfive", "--only", "speed"], "there is no check called 'speed'; the checks are declaration, "),
        (["tictacfive", "--option", "colour"], "--option 'colour' needs the form name=value"),
        (["tictacfive", "--option", "colour=red"], "--option: Tic-Tac-Five takes no option 'colour'"),
    ],
)
def test_a_game_or_an_argument_that_cannot_be_used_exits_2(capsys, argv, said):
    code, out, err = check(capsys, *argv)
    assert code == 2 and said in err and len(err.splitlines()) == 1


def test_help_says_what_every_check_checks(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Exit 0 when every check passes, 1 when one fails, 2 for a game that cannot be found" in out
    for name in CHECK_NAMES:
        assert f" {name} " in out
    assert "end within 1000 actions" in out and "WrongPlaceError" in out and "banner" in out


@pytest.mark.slow
def test_the_skeleton_passes_every_check_loaded_from_its_folder(tmp_path, monkeypatch, capsys):
    skeleton(tmp_path, monkeypatch, "pebbles")
    code, out, err = check(capsys, "pebbles:Pebbles")
    assert code == 0, out + err
    assert out.splitlines()[-1] == f"pebbles passes every check ({len(CHECK_NAMES)})."
    assert "pebbles" not in registry()  # registered for the run only


@pytest.mark.slow
def test_a_game_whose_saved_state_loses_its_turn_fails_random_play_and_says_what_to_do(tmp_path, monkeypatch, capsys):
    skeleton(tmp_path, monkeypatch, "lossy", ('self.turn = str(data["turn"])', "pass"))
    code, out, err = check(capsys, "lossy:Lossy")
    assert code == 1
    assert "FAIL  random-play" in out
    said = " ".join(out.split())
    assert (
        "random-play failed: to_dict() does not load back to an equal game (rule set standard, no options, "
        "seed 1, after 1 actions). To fix: state_dict() gives the whole state as plain JSON data and "
        "load_state() restores all of it." in said
    )
    assert out.splitlines()[-1].startswith("lossy fails ") and "random-play" in out.splitlines()[-1]
    assert err.startswith("geniusbot check: lossy fails ") and "(random-play" in err
    assert "ok    declaration" in out and "ok    purity" in out  # the other checks ran and passed


def test_a_game_that_never_ends_under_random_play_fails_random_play(tmp_path, monkeypatch, capsys):
    skeleton(tmp_path, monkeypatch, "endless", ("self.pile -= move.count", "self.pile -= 0"))
    code, out, err = check(capsys, "endless:Endless", "--only", "random-play")
    assert code == 1
    said = " ".join(out.split())
    assert "random-play failed: the game did not end within 1000 actions of random play" in said
    assert "To fix: a game must end within a bounded number of moves whatever is played" in said


def test_a_view_whose_phase_is_not_over_at_the_end_fails_random_play(tmp_path, monkeypatch, capsys):
    skeleton(tmp_path, monkeypatch, "phaseless", ('"over" if self.is_over else "take"', '"take"'))
    code, out, _ = check(capsys, "phaseless:Phaseless", "--only", "random-play")
    assert code == 1
    said = " ".join(out.split())
    assert "random-play failed: the room's view says the phase 'take' but the game is over" in said
    assert 'To fix: the phase is "over" once the game is over, and only then' in said


def test_a_move_whose_word_is_not_a_keyword_fails_keywords(tmp_path, monkeypatch, capsys):
    skeleton(tmp_path, monkeypatch, "wordless", ('frozenset({"take"})', 'frozenset({"grab"})'))
    code, out, _ = check(capsys, "wordless:Wordless", "--only", "keywords,declaration")
    assert code == 1 and "ok    declaration" in out
    said = " ".join(out.split())
    assert "keywords failed: legal moves use words that are not keywords: 'take' (in 'take " in said
    assert "taken for table talk and ignored" in said


def test_an_exception_the_game_raises_is_a_failure_that_names_its_line(tmp_path, monkeypatch, capsys):
    skeleton(tmp_path, monkeypatch, "crashing", ("self.pile -= move.count", "self.pile -= {}[move.count]"))
    code, out, _ = check(capsys, "crashing:Crashing", "--only", "random-play")
    assert code == 1
    said = " ".join(out.split())
    assert "random-play failed: the game raised KeyError: " in said and " at rules.py:" in said and " in play " in said


@pytest.mark.slow
@pytest.mark.skipif("blackwhite" not in registry(), reason="the example game is not installed")
def test_a_result_sentence_too_long_for_the_banner_fails_picture(tmp_path, monkeypatch, capsys):
    (tmp_path / "wordy.py").write_text(
        "from blackwhite import BlackAndWhite\n"
        "from geniusbot.games import Termination\n\n\n"
        "class Wordy(BlackAndWhite):\n"
        "    name = 'wordy'\n"
        "    aliases = ()\n\n"
        "    def _finish(self, scores, left):\n"
        "        how = 'after nine rounds of tiles played face down, ' * 4 + 'the scores are counted'\n"
        "        return self.end(None, Termination.POINTS, how)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, _ = check(capsys, "wordy:Wordy", "--only", "picture")
    assert code == 1
    said = " ".join(out.split())
    assert "picture failed: the result banner 'Draw: after nine rounds" in said
    assert "does not fit the picture" in said and "shorten the ending's words" in said


# ---- new-game -----------------------------------------------------------------------------------


def test_new_game_writes_a_package_with_its_entry_point_its_game_and_its_tests(tmp_path, capsys):
    folder = tmp_path / "pebbles"
    assert main(["new-game", "pebbles", "--title", "Pebble Pile", "--dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Wrote 5 files in {folder}:")
    assert f"Next: pip install -e {folder} && geniusbot check pebbles" in out
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert written == [
        "README.md",
        "pyproject.toml",
        "src/pebbles/__init__.py",
        "src/pebbles/rules.py",
        "tests/test_pebbles.py",
    ]
    import tomllib

    project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["geniusbot.games"] == {"pebbles": "pebbles:PebblePile"}
    assert project["project"]["description"] == "Pebble Pile, a game for geniusbot."
    rules = (folder / "src" / "pebbles" / "rules.py").read_text(encoding="utf-8")
    assert 'name: ClassVar[str] = "pebbles"' in rules and 'title: ClassVar[str] = "Pebble Pile"' in rules
    assert "class PebblePile(Game):" in rules
    compile(rules, "rules.py", "exec")
    compile((folder / "tests" / "test_pebbles.py").read_text(encoding="utf-8"), "test_pebbles.py", "exec")


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Pebbles", "cannot be a game's name: write 2 to 31 lower-case letters and digits"),
        ("peb-bles", "cannot be a game's name"),
        ("tictacfive", "'tictacfive' is a game already (Tic-Tac-Five)"),
        ("random", "'random' is the name of a Python module already"),
    ],
)
def test_new_game_refuses_a_name_that_cannot_be_a_new_games(tmp_path, capsys, name, said):
    assert main(["new-game", name, "--dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("geniusbot new-game: ") and said in err
    assert not (tmp_path / "out").exists()


def test_new_game_writes_over_nothing(tmp_path, capsys):
    (tmp_path / "pebbles").mkdir()
    (tmp_path / "pebbles" / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new-game", "pebbles", "--dir", str(tmp_path / "pebbles")]) == 2
    assert "is there already" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "pebbles").iterdir()] == ["notes.txt"]


@pytest.mark.slow
def test_the_skeletons_own_tests_pass(tmp_path):
    folder = tmp_path / "pebbles"
    newgame.write("pebbles", folder)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("9 passed"), done.stdout


@pytest.mark.slow
def test_the_skeleton_installed_for_real_passes_geniusbot_check_by_its_name(tmp_path):
    folder, target = tmp_path / "pebbles", tmp_path / "target"
    newgame.write("pebbles", folder)
    # Built here when this environment can (no index needed); else pip builds it in isolation.
    isolation = ["--no-build-isolation", "--no-index"] if can_build_without_isolation() else []
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", *isolation, "--target", str(target), str(folder)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert installed.returncode == 0, installed.stderr
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "PYTHONPATH": str(target)}
    done = subprocess.run(
        [sys.executable, "-m", "geniusbot", "check", "pebbles"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"pebbles passes every check ({len(CHECK_NAMES)})."


@pytest.mark.slow
def test_the_skeleton_type_checks_strictly_against_geniusbots_annotations(tmp_path):
    folder = tmp_path / "pebbles"
    newgame.write("pebbles", folder)
    # MYPYPATH: this checkout's geniusbot, which an editable install hides from mypy behind an import hook.
    env = {**os.environ, "MYPYPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found in 3 source files")
