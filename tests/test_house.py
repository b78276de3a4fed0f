"""The house keeps its shape: a game's knowledge lives in its package, and no module grows into
one that does several jobs.

* Nothing outside a game's package names the game: not its registry name, its title, its
  aliases, its rule sets' own names, nor its package (in code, comments or docstrings). The
  host, the store, the cogs and the drawing toolkit read what the game declares.
* No module of geniusbot is over about 600 lines, but one game's rules.
* No code in geniusbot parses the result sentence it made (``outcome.reason`` is said, never
  searched).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import geniusbot
from geniusbot.games import registry

PACKAGE = Path(geniusbot.__file__).parent
GAMES = PACKAGE / "games"
#: A module may be this long; a game's rules may be longer (one game's rules are one job).
MAX_LINES = 600


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def _package_of(cls: type) -> Path | None:
    """The folder of the game's package, when it is one of geniusbot's own."""
    module = cls.__module__.split(".")
    if module[:2] != ["geniusbot", "games"] or len(module) < 3:
        return None
    return GAMES / module[2]


def _words(cls: type) -> set[str]:
    """How a reader would find the game by name: its title, its package, its rule sets' own names,
    its aliases and its registry name (but a name or alias that is an everyday word, such as
    "decks" or "tiles", which its title covers)."""
    words = {cls.title, *cls.variant_aliases}  # type: ignore[attr-defined]
    words |= {w for w in (cls.name, *cls.aliases) if w.lower() not in EVERYDAY_WORDS}  # type: ignore[attr-defined]
    package = _package_of(cls)
    if package is not None:
        words.add(package.name)
    return {w for w in words if len(w) >= 4}


#: Registry names and aliases that are words a module uses for other things.
EVERYDAY_WORDS = {"decks", "tiles", "tile", "deck", "dueling"}


def _pattern(word: str) -> re.Pattern[str]:
    return re.compile(
        r"(?<![A-Za-z0-9_])" + re.escape(word).replace(r"\ ", r"[\s_-]?") + r"(?![A-Za-z0-9_])", re.IGNORECASE
    )


BUILT_IN = {name: cls for name, cls in registry().items() if _package_of(cls) is not None}


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_no_module_outside_a_games_package_names_that_game(name):
    cls = BUILT_IN[name]
    home = _package_of(cls)
    assert home is not None
    patterns = [_pattern(word) for word in _words(cls)]
    found = []
    for path in _sources():
        if path.is_relative_to(home):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in patterns:
                if pattern.search(line):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_no_module_is_over_the_line_limit_but_a_games_rules():
    long = []
    for path in _sources():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        rules = path.is_relative_to(GAMES) and path.parent != GAMES and not path.name.startswith("picture")
        if lines > MAX_LINES and not rules:
            long.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines")
    assert not long, "\n".join(long)


# The result sentence is said; it is never searched, sliced or compared by its words.
_READS_A_SENTENCE = re.compile(r"\.reason\b[^\n]*\.(?:startswith|endswith|find|index|split)\(|\bin\s+[\w.]*reason\b")


def test_no_code_reads_the_result_sentence_back():
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _READS_A_SENTENCE.search(line) or "without_verdict" in line:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_checks_find_what_they_look_for(tmp_path):
    """The patterns above are not vacuous: each finds the thing it forbids."""
    cls = BUILT_IN["tictacfive"]
    assert any(_pattern(w).search("# Tic-Tac-Five's board is wooden") for w in _words(cls))
    assert any(_pattern(w).search("if game == 'tictacfive':") for w in _words(cls))
    assert not any(_pattern(w).search("a five in a row") for w in _words(cls))
    assert _READS_A_SENTENCE.search('if outcome.reason.startswith(f"{seat} ran out of time"):')
    assert _READS_A_SENTENCE.search('if "win" in reason.lower():')
    assert not _READS_A_SENTENCE.search("await self._post(live, outcome.reason)")


# Names the games already publish, which records and stored games carry: an option (a record
# header) and the keys of the views (declared in each game's view.py), and Pillow's own API.
_PUBLISHED_COLOR_NAMES = {"p1_color", "getcolors"}


def test_one_spelling_of_colour_in_names():
    """Identifiers say "colour"; only the option and view keys already published say "color"."""
    import io
    import tokenize

    found = []
    for path in _sources():
        if path.name == "view.py":  # a view's keys, which stored games and records carry
            continue
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            named = token.type == tokenize.NAME and "color" in token.string.lower()
            if named and token.string not in _PUBLISHED_COLOR_NAMES:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{token.start[0]}: {token.string}")
    assert not found, "\n".join(found)


def test_geniusbot_ships_its_types_and_mypy_checks_the_example_plug_in_strictly():
    # A plug-in type-checks against geniusbot's own annotations (PEP 561's py.typed marker in the
    # package and its package data), not against Any; the house checks the example as an author would.
    import tomllib

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert (PACKAGE / "py.typed").is_file()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["geniusbot"]
    mypy = project["tool"]["mypy"]
    assert mypy["strict"] is True
    assert set(mypy["files"]) == {"geniusbot", "examples/blackwhite/src"}
