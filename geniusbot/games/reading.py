"""How the rules read what a player typed: :func:`typed`, the one reading of a typed move, and
:func:`notation_words`, the words of a move's text (named in :mod:`geniusbot.games.base` too)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# A token: letter-and-digit runs joined by one ' or - ("all-in", "B5-C3"), joined in code (memory).
_RUN = re.compile(r"[^\W_]+")
_WORD = re.compile(r"[a-z'\-]+")  # on a token: letters alone, the joins between them


def _tokens(text: str) -> Iterator[str]:
    start = end = -1
    for run in _RUN.finditer(text):
        if end < 0 or run.start() != end + 1 or text[end] not in "'-":
            if end >= 0:
                yield text[start:end]
            start = run.start()
        end = run.end()
    if end >= 0:
        yield text[start:end]


def typed(text: str) -> str:
    """``text`` as the rules read what a player typed: in Unicode's NFKC form, so the full-width
    letters and digits a Korean or Japanese keyboard types (``Ｈ８``, ``ｂｌａｃｋ``) are the
    ASCII ones (``H8``, ``black``). The one reading of a typed move: the host passes every
    submission through it, the record reader every move line, so a game's parser never sees
    the full-width forms."""
    if text.isascii():
        return text  # ASCII is its own NFKC form (and nearly every move is ASCII)
    return unicodedata.normalize("NFKC", text)


def notation_words(text: str) -> list[str]:
    """The words of ``text``, lower case, in order: its tokens of letters alone (``use``,
    ``all-in``, ``pick-your-prize``); tokens with a digit (``H8``, ``B5-C3``, ``20``, ``1st``)
    are coordinates or numbers, not words."""
    return [token for token in _tokens(text.lower()) if _WORD.fullmatch(token)]
