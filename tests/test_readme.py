"""README.md stays true: its commands are the ones CI runs, and it names every game."""

from __future__ import annotations

from pathlib import Path

from geniusbot.games import registry

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")

MAIN_JOB = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/geniusbot run"
TESTS = 'python3 -m venv .venv && .venv/bin/pip install -q -e ".[dev]" -e examples/blackwhite && .venv/bin/python -m pytest -q'
# The setup a contributor runs (CONTRIBUTING.md) and CI's install before its checks.
SETUP = 'python3 -m venv .venv && .venv/bin/pip install -q -e ".[dev]" -e examples/blackwhite'


def test_the_two_commands_are_single_lines_of_the_readme():
    lines = README.splitlines()
    assert MAIN_JOB in lines and TESTS in lines


def test_the_test_command_is_the_one_ci_runs_word_for_word():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert TESTS in ci


def test_the_setup_line_is_the_one_ci_installs_with_before_its_checks():
    contributing = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8").splitlines()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert SETUP in contributing and SETUP in ci
    assert TESTS.startswith(SETUP + " && ")


def test_the_example_game_the_test_command_installs_is_there_with_its_tests():
    # The test command installs the example plug-in, and pytest collects its tests with geniusbot's.
    import tomllib

    assert (REPO / "examples" / "blackwhite" / "pyproject.toml").is_file()
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "examples/blackwhite/tests" in config["tool"]["pytest"]["ini_options"]["testpaths"]


def test_the_example_the_readme_adjudicates_exists():
    assert ".venv/bin/geniusbot adjudicate geniusbot/examples/tictacfive.txt" in README.splitlines()
    assert (REPO / "geniusbot" / "examples" / "tictacfive.txt").is_file()


def test_every_document_the_readme_points_to_exists():
    import re

    for path in re.findall(r"`((?:docs|bench)/[\w./-]+\.md)`", README):
        assert (REPO / path).is_file(), path


def test_the_readme_names_every_registered_game():
    missing = [name for name, cls in registry().items() if f"`{name}`" not in README or cls.title not in README]
    assert missing == []
