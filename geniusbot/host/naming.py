"""How the host names a match's game, and the players in a sentence stored before words were data.

Everything the host says now is a message (:mod:`geniusbot.words`): its seats are
:class:`~geniusbot.words.Seat` arguments, named by the renderer (``Words(language, names)``), and
no text is read for seat ids. What is left for seats is :func:`legacy_name_seats`
(:func:`geniusbot.words.stored.stored_english_named`, which the pictures' banners use too), for one
kind of old data only: a sentence the store kept as plain English with seat ids before the games
made their endings of messages (a match's stored result, an outcome of an old saved state).
Nothing new goes through it.
"""

from __future__ import annotations

import functools
from typing import Any

from ..words import Words
from ..words.stored import stored_english_named as legacy_name_seats

__all__ = ["game_title", "legacy_name_seats", "match_words"]


@functools.lru_cache(maxsize=1024)
def match_words(language: str, names: tuple[tuple[str, str], ...]) -> Words:
    """The renderer of a match's words in ``language``, naming the seats by ``names`` ((seat,
    name) pairs): one a language and set of names, made once and never changed, since an action
    says a dozen lines and each renderer works out anew how to name the seats."""
    return Words(language, dict(names))


def game_title(game: Any) -> str:
    """How the room names a match's game: its title, and its rule set only when the game has
    several ("Nim (misère)", but "Nim" for a game of one rule set: a lone rule set is noise)."""
    return f"{game.title} ({game.variant})" if len(type(game).variants) > 1 else game.title
