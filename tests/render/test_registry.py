"""The renderer registry: which games it draws and how it dispatches."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import geniusbot.render
from geniusbot.games import new_game
from geniusbot.pictures import has_renderer, render_image, render_view
from geniusbot.render.palette import PALETTE, PALETTE_ENTRIES
from geniusbot.render.png import encode_png

from .support import decode

RENDER_DIR = Path(geniusbot.render.__file__).parent


@pytest.mark.parametrize("name", ["tictacfive", "armslength", "tightwire"])
def test_games_with_a_renderer_are_known(name):
    assert has_renderer(name)


def test_a_game_without_a_renderer_is_not_known():
    assert not has_renderer("no-such-game")
    with pytest.raises(KeyError):
        render_view({"game": "no-such-game"})


@pytest.mark.parametrize("name", ["tictacfive", "armslength", "tightwire"])
def test_render_view_is_the_png_of_render_image(name):
    view = new_game(name, seed=7).view()
    data = render_view(view, players={"p1": "Ann", "p2": "Ben"}, title="Match 1")
    assert data == encode_png(render_image(view, players={"p1": "Ann", "p2": "Ben"}, title="Match 1"))
    assert decode(data).size == render_image(view).size


def test_the_palette_fits_a_png_palette():
    assert len(PALETTE_ENTRIES) <= 256
    assert len(PALETTE) == 256 * 3


def test_render_imports_no_discord_database_or_asyncio():
    # Renderers are pure functions of a view: nothing that talks to the outside world.
    forbidden = {"discord", "sqlalchemy", "asyncio", "aiosqlite", "asyncpg", "requests", "urllib", "socket"}
    for path in RENDER_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
