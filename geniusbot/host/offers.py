"""Choice offers: when the seat to move picks one of a few named options, which ones to offer.

A transport may offer them as it can (Discord: a button each, in the room or, for a sealed
answer, in the player's DM; the console: the options named in its help). Nothing here holds
rules: the options are the game's own legal moves, exactly as a player could type them, and a
choice is a phase the game declares (``Game.choosing``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from geniusbot.games import Game

#: An offer holds at most this many options (Discord shows at most 25 buttons on a message, 5
#: rows of 5); a choice with more is typed.
MAX_OPTIONS = 25
#: A choice's options are named in its text only when they are this few and this short together
#: ("black / white"); otherwise the buttons show them (and the board above often names them too).
LISTED_OPTIONS = 3
LISTED_OPTIONS_CHARS = 40


def choice_offer(game: Game, view: Mapping[str, Any] | None = None) -> tuple[str, list[str]] | None:
    """``(seat, texts)`` when the seat to move picks one of a few named options now, in the
    room, else ``None``. ``view``: the public view of now, when the caller has it (the host's
    :class:`~geniusbot.host.board.Views` of the action), so that it is not built again.

    The texts are the game's own legal moves, exactly as a player could type them.
    """
    if game.is_over:
        return None
    movers = game.to_move()
    if len(movers) != 1:
        return None
    if not game.choosing(view):
        return None
    texts: list[str] = []
    for move in game.legal_moves(movers[0]):
        if game.is_private(move):
            return None  # a button press is seen by the room; private answers go by DM
        text = move.text()
        if text not in texts:
            texts.append(text)
        if len(texts) > MAX_OPTIONS:
            return None
    return (movers[0], texts) if len(texts) >= 2 else None


def private_choice_offers(game: Game, view: Mapping[str, Any] | None = None) -> dict[str, list[str]]:
    """Seat -> texts for each seat that answers a sealed question privately now with one of a
    few options (a question every seat answers privately), else nothing. ``view``: the public
    view of now, as :func:`choice_offer` takes it.

    The texts are the game's own legal moves, all private, exactly as the player could send them.
    """
    if game.is_over or not game.choosing(view):
        return {}
    offers: dict[str, list[str]] = {}
    for seat in game.to_move():
        texts: list[str] = []
        for move in game.legal_moves(seat):
            if not game.is_private(move) or len(texts) >= MAX_OPTIONS:
                texts = []
                break
            if move.text() not in texts:
                texts.append(move.text())
        if len(texts) >= 2:
            offers[seat] = texts
    return offers


def listing(texts: list[str] | tuple[str, ...]) -> str | None:
    """The options named in a choice's text (``black / white``) when they are few and short
    enough to read at a glance, else ``None``."""
    joined = " / ".join(texts)
    return joined if len(texts) <= LISTED_OPTIONS and len(joined) <= LISTED_OPTIONS_CHARS else None


#: A list of moves offered holds at most this many (Discord shows 25); the typed text narrows it.
MAX_SUGGESTIONS = 25
#: How many legal moves an autocomplete looks through at the most (it must answer within Discord's
#: three seconds, and a game of sealed card plays has thousands).
MAX_SCANNED = 5000


def suggestions(game: Game, seat: str, typed: str, *, seed: int = 0) -> list[str]:
    """The moves ``seat`` may make now whose text starts with what it typed (case aside), worked
    out from the seat's own view: the game itself where every view shows all
    (``perfect_information``), else a twin built from the seat's view alone (``Game.twin``); a game
    with hidden information and no twin offers none, so nothing hidden reaches the list."""
    if game.is_over or seat not in game.to_move():
        return []
    source = game if type(game).perfect_information else game.twin(seat, seed)
    if source is None:
        return []
    wanted = typed.strip().casefold()
    texts = (move.text() for move in itertools.islice(source.legal_moves(seat), MAX_SCANNED))
    found = (text for text in dict.fromkeys(texts) if text.casefold().startswith(wanted))
    return list(itertools.islice(found, MAX_SUGGESTIONS))
