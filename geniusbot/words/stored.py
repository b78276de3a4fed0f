"""Sentences stored as plain English before words were data, and the one way their seats are named.

A match that ended before the games made their endings of messages kept its result as English
with seat ids in it ("p1 makes five in a row ... and wins"). Such a sentence is old data: it is
said as it was stored, with each seat id replaced by the player's name, here and nowhere else (the
host's result lines and the pictures' banners alike). Nothing new goes through it: a sentence
said now is a :class:`~geniusbot.words.Message`, its seats named by
:class:`~geniusbot.words.Words`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from .render import spoken_names

#: A quotation: what the player typed, as a refusal quotes it ("'p1: H8' is not a point"), or
#: notation to type (`first`). A quote opens after no letter or digit and closes before none, so
#: the apostrophes of "p1's move" quote nothing.
_QUOTED = r"`[^`\n]*`|(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)\"[^\"\n]*\"(?!\w)"


@functools.lru_cache(maxsize=256)
def _pattern(seats: tuple[str, ...]) -> re.Pattern[str]:
    # Longest first, so that a seat id that starts another ("p1", "p12") finds its own word.
    alternatives = "|".join(re.escape(seat) for seat in sorted(seats, key=len, reverse=True))
    return re.compile(rf"(?P<quoted>{_QUOTED})|\b(?P<seat>{alternatives})\b")


def with_spoken_names(text: str, spoken: Mapping[str, str]) -> str:
    """``text``, a stored plain-English sentence, with each whole-word seat id of ``spoken`` (seat
    -> what it is called, as :func:`~geniusbot.words.spoken_names` gives it) replaced once; a
    quotation stays as written. ``spoken`` empty: the text as it is."""
    if not spoken or not text:
        return text
    return _pattern(tuple(spoken)).sub(lambda found: found["quoted"] or spoken[found["seat"]], text)


def stored_english_named(text: str, names: Mapping[str, str]) -> str:
    """A stored plain-English sentence with each whole-word seat id replaced by the player's name.

    ``names`` maps each seat of the match to its player's display name (an empty name, or the
    seat id itself, means the seat has none). The match is case-sensitive and whole-word: "p1"
    and "p1's" are the seat p1 ("alice", "alice's"), "p10", "P1" (a coordinate) and
    ``p1_color`` are not. When no seat has a real name the text is returned unchanged; when two
    players share a name, or a name reads as another seat's id, every seat becomes the label
    form "alice (p1)". Each seat id is replaced once (a name is never read again). A quotation,
    in quotes or backticks, stays as written: it is what a player typed or is to type.
    """
    return with_spoken_names(text, spoken_names(names))
