"""The floors hold: imports run one way, and no two packages of geniusbot import each other.

``words/`` and ``render/`` (the drawing toolkit) <- the games (their rules and their pictures)
<- ``pictures`` (the door to a game's picture) and ``record`` (the match record) <- ``storage``
<- ``host`` <- the front ends (``cogs/`` and the bot, ``console/``) <- the launcher (``cli.py``,
``commands/``); ``config`` is read by every floor and imports nothing of geniusbot
(CONTRIBUTING.md, "How the house is laid out"). The graph is built from the source with :mod:`ast`: every import counts, at the top of a
module or in a function, and those made for the type checker only (``if TYPE_CHECKING:``) too.

A package is ``geniusbot.<first component>`` (``geniusbot.host``, ``geniusbot.cli``), with no
exception: a game's picture modules (``games/<game>/picture*.py``) are part of ``games``. A picture
draws with ``render``, so ``render`` reads no game (not the registry, not ``Outcome``); the rules
never import ``render`` either, which :mod:`geniusbot.conformance.purity` checks module by module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import geniusbot

PACKAGE = Path(geniusbot.__file__).parent

#: What each floor may not import (directly; the cycle check catches the roundabout ways).
FORBIDDEN = {
    "config": {"*"},
    # The rating arithmetic is a floor of its own: Glicko-2 and nothing of the bot.
    "ratings": {"*"},
    # The tournament formats are a floor of their own: the pairing library and nothing of the bot.
    "tournaments": {"*"},
    # The words are the floor below every other: a game's rules make messages.
    "words": {"*"},
    # The drawing toolkit reads no game: a game's pictures draw with it.
    "render": {"games", "pictures", "storage", "host", "cogs", "console", "commands", "cli", "bot"},
    "games": {"pictures", "storage", "host", "cogs", "console", "commands", "cli", "bot"},
    # The door to the games' pictures, which the host and the archive draw through.
    "pictures": {"storage", "host", "cogs", "console", "commands", "cli", "bot", "practice", "archive", "cluster"},
    # The record (its format, the host-line grammar, an action applied to a game) reads the rules
    # API and the words; everything that keeps or plays matches reads it.
    "record": {
        *("render", "pictures", "storage", "host", "adjudicate", "archive", "practice", "conformance", "cluster"),
        *("newgame", "health", "cogs", "console", "commands", "cli", "bot", "discord_transport", "__main__"),
    },
    # The engine review is pure: the games, the record, the practice engine, the words and the drawing kit.
    "analysis": {"storage", "host", "cogs", "console", "commands", "cli", "bot", "archive", "cluster"},
    "storage": {"host", "cogs", "console", "commands", "cli", "bot", "practice", "archive", "cluster", "analysis"},
    "host": {"cogs", "console", "commands", "cli", "bot", "practice", "archive", "cluster"},
    "cogs": {"commands", "cli"},
    "console": {"commands", "cli", "cogs", "bot"},
    "bot": {"commands", "cli"},
    "commands": {"cli"},
}


def _module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {
        _module_name(path, package): path for path in sorted(package.rglob("*.py")) if "migrations" not in path.parts
    }


def _imported(name: str, path: Path) -> Iterator[str]:
    """The geniusbot modules (or names in them) ``path`` imports, absolute, wherever in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield module
            # `from geniusbot.host import board` imports the module geniusbot.host.board.
            yield from (f"{module}.{alias.name}" for alias in node.names)


def floor(module: str) -> str:
    """The floor (package) of ``module``: ``geniusbot.<first component>``, a picture's too."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "geniusbot"


def import_graph(package: Path = PACKAGE) -> dict[str, dict[str, set[str]]]:
    """``{floor: {floor it imports: {"module -> module", ...}}}``, between different floors."""
    modules = _modules(package)
    graph: dict[str, dict[str, set[str]]] = {}
    for name, path in modules.items():
        here = floor(name)
        graph.setdefault(here, {})
        for target in _imported(name, path):
            if not target.startswith("geniusbot"):
                continue
            while target not in modules and "." in target:  # a name in a module: that module
                target = target.rpartition(".")[0]
            if target not in modules:
                continue
            there = floor(target)
            if there != here and there != "geniusbot":  # the package's own __init__ (the version)
                graph[here].setdefault(there, set()).add(f"{name} -> {target}")
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected sets of floors larger than one (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, {})):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


GRAPH = import_graph()


def _said(edges: dict[str, set[str]], floors: set[str]) -> list[str]:
    return sorted(line for there, lines in edges.items() if there in floors for line in lines)


def test_no_two_floors_import_each_other():
    found = cycles(GRAPH)
    imports = [line for group in found for a in group for b in group if a != b for line in GRAPH[a].get(b, ())]
    assert found == [], f"import cycles between packages: {found}; the imports: {sorted(imports)}"


@pytest.mark.parametrize("here", sorted(FORBIDDEN))
def test_a_floor_imports_nothing_above_it(here):
    edges = GRAPH.get(here, {})
    banned = set(edges) if "*" in FORBIDDEN[here] else FORBIDDEN[here]
    assert _said(edges, banned) == []


def test_the_check_sees_an_import_in_a_function_and_for_the_type_checker(tmp_path):
    source = tmp_path / "geniusbot" / "storage"
    source.mkdir(parents=True)
    (source / "x.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from geniusbot.host.match import Host\n"
        "def f():\n    from ..cli import main\n    from geniusbot.host import board\n",
        encoding="utf-8",
    )
    assert set(_imported("geniusbot.storage.x", source / "x.py")) >= {
        "geniusbot.host.match",
        "geniusbot.cli",
        "geniusbot.cli.main",
        "geniusbot.host.board",
    }


def test_cycles_are_found():
    graph = {"a": {"b": {"a.x -> b.y"}}, "b": {"c": {"b.y -> c.z"}}, "c": {"a": {"c.z -> a.x"}}, "d": {"a": set()}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_a_picture_is_part_of_the_games_and_render_reads_no_game():
    assert floor("geniusbot.games.tictacfive.picture") == "games"
    assert floor("geniusbot.games.allhands.picture_tiles") == "games"
    assert "render" in GRAPH["games"] and "games" not in GRAPH["render"]


def test_the_cycle_through_a_picture_is_found(tmp_path):
    # A picture draws with render; were render to read the games again (the registry, Outcome),
    # even for the type checker only, the two would import each other.
    package = tmp_path / "geniusbot"
    for folder in (package / "games" / "tictacfive", package / "render"):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "games" / "outcome.py").write_text("class Outcome: ...\n", encoding="utf-8")
    picture = package / "games" / "tictacfive" / "picture.py"
    picture.write_text("from geniusbot.render.layout import outcome_line\n", encoding="utf-8")
    layout = package / "render" / "layout.py"
    layout.write_text("def outcome_line(): ...\n", encoding="utf-8")
    assert cycles(import_graph(package)) == []
    layout.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from geniusbot.games.outcome import Outcome\n",
        encoding="utf-8",
    )
    graph = import_graph(package)
    assert cycles(graph) == [["games", "render"]]
    assert graph["render"]["games"] == {"geniusbot.render.layout -> geniusbot.games.outcome"}
