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


def in_this_repository(cls: type) -> bool:
    """Whether the game's code is in this repository (built in, or the example plug-in): a game
    installed from elsewhere is its own package's to document, not this README's."""
    import sys

    source = getattr(sys.modules.get(cls.__module__), "__file__", None)
    return source is not None and Path(source).resolve().is_relative_to(REPO)


def test_the_readme_names_every_game_of_the_repository():
    ours = {name: cls for name, cls in registry().items() if in_this_repository(cls)}
    assert {"tictacfive", "allhands"} <= set(ours)
    missing = [name for name, cls in ours.items() if f"`{name}`" not in README or cls.title not in README]
    assert missing == []


def test_a_game_installed_from_elsewhere_is_not_the_readmes_to_name(tmp_path, monkeypatch):
    # An outside plug-in (installed into another folder) leaves the README test passing.
    (tmp_path / "elsewhere.py").write_text(
        "from geniusbot.games import Game\nclass Elsewhere(Game):\n    name = 'elsewhere'\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import elsewhere  # type: ignore[import-not-found]

    assert not in_this_repository(elsewhere.Elsewhere)
    assert in_this_repository(registry()["tictacfive"])


def test_the_commands_table_has_a_row_for_every_sub_command():
    from geniusbot.cli import build_parser

    parser = build_parser([])
    names = next(a for a in parser._actions if a.dest == "command").choices
    table = README.split("## The commands and their exit codes", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| `geniusbot ")]
    assert all(any(line.startswith(f"| `geniusbot {name}") for line in rows) for name in names), (sorted(names), rows)
