"""Shared helpers for the Dueling Decks tests: games with a known prize order, sealed pairs."""

from __future__ import annotations

import pytest

from geniusbot.games import GameError
from geniusbot.games.allhands.decks import DuelingDecks

#: A prize order that reads easily in tests: 10 first, down to 4.
DESCENDING = (10, 9, 8, 7, 6, 5, 4)


def make(anomalies: str = "", prizes=DESCENDING, seed: int = 1, **options: str) -> DuelingDecks:
    """A new task with the prize order fixed (the seed's own order is tested on its own)."""
    game = DuelingDecks.new(seed=seed, anomalies=anomalies, **options)
    game.prizes = list(prizes)
    return game


def send(game: DuelingDecks, seat: str, text: str):
    """``seat`` sends ``text`` by direct message; the events."""
    return game.submit(text, seat, private=True)[1]


def both(game: DuelingDecks, p1: str, p2: str, *, first: str = "p1"):
    """Both seats send their sealed submissions (``first`` sends first); all the events."""
    order = [("p1", p1), ("p2", p2)] if first == "p1" else [("p2", p2), ("p1", p1)]
    events = []
    for seat, text in order:
        events += send(game, seat, text)
    return events


def refused(game, text, seat, *, private=True, error=GameError) -> str:
    """Submitting ``text`` is refused with ``error`` and changes nothing; returns the message."""
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.submit(text, seat, private=private)
    assert game.to_dict() == before
    return str(caught.value)


def points(game: DuelingDecks) -> dict:
    """The points as the public view gives them."""
    return game.view()["points"]
