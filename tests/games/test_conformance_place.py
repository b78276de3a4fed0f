"""Conformance over every registered game (the plug-ins too): moves sent to the wrong place, and
timeouts of clocks that are not running.

* A move is made where the game says: a legal move sent the other way (a room move by DM, a
  sealed move in the room) is refused with :class:`WrongPlaceError`, whose ``private`` says
  where it belongs, and changes nothing.
* Only a running clock runs out: a record's ``host: timeout p2`` while p2 is not to move (or
  while a timed window is open, when no clock runs) is rejected by the adjudicator and changes
  nothing; a timeout of a seat to move is taken.
"""

from __future__ import annotations

import itertools
import random

import pytest

from geniusbot.adjudicate import rule_on
from geniusbot.games import SEATS, Game, WrongPlaceError, registry
from geniusbot.storage.record import RecordLine

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant}") for name, cls in registry().items() for variant in cls.variants
]
STEPS = 60
LEGAL_CAP = 200


def positions(cls: type[Game], variant: str, seed: int):
    """The positions of a seeded random game, to its end or :data:`STEPS` moves."""
    rng = random.Random(f"place:{cls.name}:{variant}:{seed}")
    game = cls.new(seed=seed, variant=variant)
    for _ in range(STEPS):
        if game.is_over:
            return
        yield game
        if not game.to_move():
            game.close_window()
            continue
        game.play(rng.choice(list(itertools.islice(game.legal_moves(), LEGAL_CAP))))


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_a_legal_move_sent_to_the_wrong_place_is_refused_and_says_where_it_belongs(name, variant):
    cls = registry()[name]
    checked = 0
    for seed in (1, 2):
        for game in positions(cls, variant, seed):
            before = game.to_dict()
            for move in itertools.islice(game.legal_moves(), 12):
                belongs = game.is_private(move)
                with pytest.raises(WrongPlaceError) as refused:
                    game.parse_move(move.text(), move.seat, private=not belongs)
                assert refused.value.private is belongs, f"{move.text()!r}: said to belong elsewhere"
                assert str(refused.value), "the refusal says what to do"
                checked += 1
            assert game.to_dict() == before
    assert checked


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_a_timeout_is_taken_only_for_a_seat_whose_clock_runs(name, variant):
    cls = registry()[name]
    refused = taken = 0
    for seed in (1, 2):
        for game in positions(cls, variant, seed):
            for seat in SEATS:
                copy = game.copy()
                error = rule_on(copy, RecordLine(0, "host", False, f"timeout {seat}"))
                running = game.window() is None and seat in game.to_move()
                if running:
                    assert error is None, f"the timeout of {seat}, to move, was refused: {error}"
                    taken += 1
                else:
                    assert error is not None and "clock is not running" in error, (
                        f"{seat} is not to move ({game.to_move()}, window {game.window()}), yet its timeout was taken"
                    )
                    assert copy == game, "a refused timeout changed the game"
                    refused += 1
    assert refused and taken
