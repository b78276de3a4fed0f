"""The drawing toolkit the games' pictures share, and the door to every game's picture.

A game's picture lives in its own package (``Game.picture`` names it); :func:`render_view` draws
a view with the picture of ``view["game"]``. Pictures only read the view (the same JSON-ready
dict a seat may see), so a picture never shows more than that seat may know. Output is
deterministic: the same view, names, clocks and title give the same bytes.

What a picture uses, by module:

* :mod:`.palette`: the house palette. Every picture is a palette ("P") image with one fixed
  palette (``COLOURS`` by name, with blend ramps for the colour pairs drawn on each other);
  ``new_canvas`` gives a blank card, ``ink(name)`` a colour's index to draw with, ``rgb(name)``
  its value (what a test reads back).
* :mod:`.fonts`: the boards' font (the FONT_PATH setting, ``configure_font``) and what it can
  draw: ``drawable_text`` and ``drawable_name`` leave out what the font lacks, never a box.
* :mod:`.text`: one line of text, laid out from cached glyphs: ``draw_text`` (centred on a
  line, anchored left, middle or right, on a solid box of its background colour),
  ``text_width``, ``fit_text`` (cut with an ellipsis).
* :mod:`.sprites`: cached pieces of picture. ``smooth_sprite`` paints a stone super-sampled
  onto a known background and maps it onto the palette; ``paste``, ``paste_centred`` and
  ``stamp`` (many at once) put sprites on the card; ``ghost_sprite``, ``arrow`` and
  ``triangle_right`` are the shapes several pictures share.
* :mod:`.grid`: ``coordinate_bands``, the letters above and below a square board and the
  numbers on its sides.
* :mod:`.layout`: the card around the board. The title and two player rows at the top
  (``HEADER_HEIGHT``; ``player_rows`` builds them from the view, ``draw_header`` draws them),
  the status line or the outcome banner at the bottom (``FOOTER_HEIGHT``, ``draw_footer``,
  ``outcome_line``), and the players' names (``seat_name``, ``with_names``).
* :mod:`.png`: the PNG encoder, which reuses the compressed bands a picture shares with the
  pictures before it; :func:`render_view` encodes with it.

A picture caches its static background (board, coordinates) and its sprites with
``functools.lru_cache``, draws the position onto a copy, and ends with the header and footer.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from PIL import Image

from geniusbot.games import OptionError, get_game, registry

from . import png

__all__ = ["has_renderer", "render_image", "render_view", "renderers"]

#: A picture: ``draw(view, *, players, clocks, title)`` -> a Pillow image.
Picture = Callable[..., Image.Image]


@cache
def _load(reference: str) -> Picture:
    module_name, _, function = reference.partition(":")
    picture: Picture = getattr(importlib.import_module(module_name), function)
    return picture


def _picture(game: str) -> Picture | None:
    try:
        reference = get_game(game).picture
    except OptionError:
        return None
    return _load(reference) if reference else None


def renderers() -> list[str]:
    """The names of the games that have a picture."""
    return [name for name, cls in registry().items() if cls.picture]


def has_renderer(game_name: str) -> bool:
    """Whether :func:`render_view` can draw views of ``game_name``."""
    try:
        return bool(get_game(game_name).picture)
    except OptionError:
        return False


def render_image(
    view: Mapping[str, Any],
    *,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The picture of ``view`` as a Pillow palette image (before PNG encoding)."""
    game = str(view.get("game"))
    picture = _picture(game)
    if picture is None:
        raise KeyError(f"There is no picture for the game {game!r}.")
    return picture(view, players=players, clocks=clocks, title=title)


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
    return png.encode_png(render_image(view, players=players, clocks=clocks, title=title))
