"""How the host names a match's game, and the players in a sentence stored before words were data.

Everything the host says now is a message (:mod:`geniusbot.words`): its seats are
:class:`~geniusbot.words.Seat` arguments, named by the renderer (``Words(language, names)``), and
no text is read for seat ids. What is left here for seats is :func:`legacy_name_seats`, for one
kind of old data only: a sentence the store kept as plain English with seat ids before the games
made their endings of messages (a match's stored result, an outcome of an old saved state).
Nothing new goes through it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from ..words import spoken_names

#: A quotation: what the player typed, as a refusal quotes it ("'p1: H8' is not a point"), or
#: notation to type (`first`). A quote opens after no letter or digit and closes before none, so
#: the apostrophes of "p1's move" quote nothing.
_QUOTED = r"`[^`\n]*`|(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)\"[^\"\n]*\"(?!\w)"


def game_title(game: Any) -> str:
    """How the room names a match's game: its title, and its rule set only when the game has
    several ("Nim (misère)", but "Nim" for a game of one rule set: a lone rule set is noise)."""
    return f"{game.title} ({game.variant})" if len(type(game).variants) > 1 else game.title


@functools.lru_cache(maxsize=256)
def _spoken(pairs: tuple[tuple[str, str], ...]) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """What each seat id becomes, and the pattern that finds the seat ids (``None``: no change)."""
    names = dict(pairs)
    spoken = spoken_names(names)
    if not spoken:
        return {}, None
    # Longest first, so that a seat id that starts another ("p1", "p12") finds its own word.
    alternatives = "|".join(re.escape(seat) for seat in sorted(names, key=len, reverse=True))
    return spoken, re.compile(rf"(?P<quoted>{_QUOTED})|\b(?P<seat>{alternatives})\b")


def legacy_name_seats(text: str, names: Mapping[str, str]) -> str:
    """A stored plain-English sentence (a result kept before messages) with each whole-word seat id
    replaced by the player's name, for the players to read. Only for such old data: a sentence
    said now is a message, its seats named by :class:`~geniusbot.words.Words`.

    ``names`` maps each seat of the match to its player's display name (an empty name, or the
    seat id itself, means the seat has none). The match is case-sensitive and whole-word: "p1"
    and "p1's" are the seat p1 ("alice", "alice's"), "p10", "P1" (a coordinate) and
    ``p1_color`` are not. When no seat has a real name the text is returned unchanged; when two
    players share a name, or a name reads as another seat's id, every seat becomes the label
    form "alice (p1)". Each seat id is replaced once (a name is never read again). A quotation,
    in quotes or backticks, stays as written: it is what a player typed or is to type.
    """
    spoken, pattern = _spoken(tuple(sorted(names.items())))
    if pattern is None or not text:
        return text
    return pattern.sub(lambda found: found["quoted"] or spoken[found["seat"]], text)
