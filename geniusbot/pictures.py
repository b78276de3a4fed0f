"""The door to every game's picture: which games have one, and a view drawn with its game's.

A game's picture lives in its own package (``Game.picture`` names it, ``"module:function"``);
:func:`render_view` draws a view with the picture of ``view["game"]``. Pictures only read the view
(the same JSON-ready dict a seat may see), so a picture never shows more than that seat may know.
Output is deterministic: the same view, words (language and names), clocks and title give the
same bytes.

This module sits above both the games (the registry) and :mod:`geniusbot.render` (the drawing
toolkit the pictures share, which reads no game): the host, the archive and the checks draw
through it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from PIL import Image

from geniusbot.games import OptionError, get_game, registry
from geniusbot.render import png
from geniusbot.render.fonts import follow_font
from geniusbot.render.layout import card_words
from geniusbot.words import ENGLISH, Words

__all__ = ["has_renderer", "render_image", "render_view", "renderers"]

#: A picture: ``draw(view, *, words, clocks, title)`` -> a Pillow image; ``words`` (a
#: :class:`~geniusbot.words.Words`) says every word it draws and names the seats.
Picture = Callable[..., Image.Image]


@cache
def _load(reference: str) -> Picture:
    module_name, _, function = reference.partition(":")
    picture: Picture = getattr(importlib.import_module(module_name), function)
    # The picture's package caches backgrounds and sprites with text on them: a new font empties them.
    follow_font(module_name.rpartition(".")[0] or module_name)
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
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The picture of ``view`` as a Pillow palette image (before PNG encoding)."""
    game = str(view.get("game"))
    picture = _picture(game)
    if picture is None:
        raise KeyError(f"There is no picture for the game {game!r}.")
    return picture(view, words=_card_words(words, players), clocks=clocks, title=title)


def render_view(
    view: Mapping[str, Any],
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> bytes:
    """The PNG bytes of ``view`` (a dict from ``Game.view``), drawn by its game's renderer.

    ``words`` is the language the picture speaks (English without it) and names the seats;
    ``players`` maps seats to display names where the caller has them as typed (they name the
    seats then, as the card's font can draw them). ``clocks`` maps seats to a short string the
    host has formatted (shown beside each name); ``title`` heads the picture, said already. Raises
    ``KeyError`` for a game without a renderer (ask :func:`has_renderer` first).
    """
    return png.encode_png(render_image(view, words=words, players=players, clocks=clocks, title=title))


def _card_words(words: Words | None, players: Mapping[str, str] | None) -> Words:
    """The words a picture speaks with: ``words``' language, the seats named by ``players`` if
    given, else by ``words``' names (:func:`geniusbot.render.layout.card_words`)."""
    language = words.language if words is not None else ENGLISH
    names = players if players is not None or words is None else words.names
    return card_words(language, names)
