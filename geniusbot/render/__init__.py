"""Pictures of a game's view: pure functions from ``Game.view(seat)`` to PNG bytes.

:func:`render_view` picks the renderer by ``view["game"]``. Renderers only read the view (the
same JSON-ready dict a seat may see), so a picture never shows more than that seat may know.
Output is deterministic: the same view, names, clocks and title give the same bytes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from .common import encode_png

__all__ = ["has_renderer", "render_image", "render_view", "renderers"]

# game name -> module in this package with a ``render(view, *, players, clocks, title)``
_MODULES: dict[str, str] = {
    "tictacfive": "tictacfive",
    "armslength": "armslength",
    "tightwire": "tightwire",
    "tiles": "tiles",
    "decks": "decks",
    "swabbing": "swabbing",
    "allhands": "allhands",
}

Renderer = Callable[..., Image.Image]


def _renderer(game: str) -> Renderer | None:
    module_name = _MODULES.get(game)
    if module_name is None:
        return None
    try:
        module = importlib.import_module(f"{__name__}.{module_name}")
    except ModuleNotFoundError as error:
        # A renderer still being written is "no renderer", not a crash; a missing dependency
        # inside a written renderer is a real error.
        if error.name == f"{__name__}.{module_name}":
            return None
        raise
    return getattr(module, "render", None)


def renderers() -> list[str]:
    """The names of the games that have a renderer."""
    return [name for name in _MODULES if _renderer(name) is not None]


def has_renderer(game_name: str) -> bool:
    """Whether :func:`render_view` can draw views of ``game_name``."""
    return _renderer(game_name) is not None


def render_image(
    view: Mapping[str, Any],
    *,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The picture of ``view`` as a Pillow palette image (before PNG encoding)."""
    game = str(view.get("game"))
    renderer = _renderer(game)
    if renderer is None:
        raise KeyError(f"There is no renderer for the game {game!r}.")
    return renderer(view, players=players, clocks=clocks, title=title)


def render_view(
    view: Mapping[str, Any],
    *,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> bytes:
    """The PNG bytes of ``view`` (a dict from ``Game.view``), drawn by its game's renderer.

    ``players`` maps seats to display names, ``clocks`` maps seats to a short string the host
    has formatted (shown beside each name); ``title`` heads the picture. Raises ``KeyError`` for a
    game without a renderer (ask :func:`has_renderer` first).
    """
    return encode_png(render_image(view, players=players, clocks=clocks, title=title))
