"""The floors hold: imports run one way, and no two packages of geniusbot import each other.

A game's rules <- its picture (and ``render/``) <- ``storage`` <- ``host`` <- the front ends
(``cogs/`` and the bot, ``console/``) <- the launcher (``cli.py``, ``commands/``); ``config`` is
read by every floor and imports nothing of geniusbot (CONTRIBUTING.md, "How the house is laid
out"). The graph is built from the source with :mod:`ast`: every import counts, at the top of a
module or in a function, and those made for the type checker only (``if TYPE_CHECKING:``) too.

A package is ``geniusbot.<first component>`` (``geniusbot.host``, ``geniusbot.cli``), but a game's
picture modules (``games/<game>/picture*.py``, see :func:`geniusbot.conformance.purity.is_picture`)
are a floor of their own, ``pictures``: a picture draws with ``render``, and ``render`` reads the
rules API (the registry, ``Outcome``), never a picture.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import geniusbot
from geniusbot.conformance.purity import is_picture

PACKAGE = Path(geniusbot.__file__).parent

#: The floor of a game's picture modules.
PICTURES = "pictures"

#: What each floor may not import (directly; the cycle check catches the roundabout ways).
FORBIDDEN = {
    "config": {"*"},
    # The words are the floor below every other: a game's rules make messages.
    "words": {"*"},
    "games": {"render", PICTURES, "storage", "host", "cogs", "console", "commands", "cli", "bot"},
    "render": {PICTURES, "storage", "host", "cogs", "console", "commands", "cli", "bot"},
    "storage": {"host", "cogs", "console", "commands", "cli", "bot", "practice", "archive", "cluster"},
    "host": {"cogs", "console", "commands", "cli", "bot", "practice", "archive", "cluster"},
    "cogs": {"commands", "cli"},
    "console": {"commands", "cli", "cogs", "bot"},
    "bot": {"commands", "cli"},
    "commands": {"cli"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if "migrations" not in path.parts}


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


def floor(module: str, path: Path) -> str:
    """The floor (package) of ``module``: ``geniusbot.<first component>``, or ``pictures``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "geniusbot"
    if parts[1] == "games" and len(parts) >= 4 and is_picture(path):
        return PICTURES
    return parts[1]


def import_graph() -> dict[str, dict[str, set[str]]]:
    """``{floor: {floor it imports: {"module -> module", ...}}}``, between different floors."""
    modules = _modules()
    graph: dict[str, dict[str, set[str]]] = {}
    for name, path in modules.items():
        here = floor(name, path)
        graph.setdefault(here, {})
        for target in _imported(name, path):
            if not target.startswith("geniusbot"):
                continue
            while target not in modules and "." in target:  # a name in a module: that module
                target = target.rpartition(".")[0]
            if target not in modules:
                continue
            there = floor(target, modules[target])
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


def test_a_picture_is_a_floor_of_its_own_and_the_rules_are_not():
    games = PACKAGE / "games"
    assert floor("geniusbot.games.tictacfive.picture", games / "tictacfive" / "picture.py") == PICTURES
    assert floor("geniusbot.games.tictacfive.rules", games / "tictacfive" / "rules.py") == "games"
    assert floor("geniusbot.games.base", games / "base.py") == "games"
    assert "render" in GRAPH[PICTURES] and "render" not in GRAPH["games"]
