"""A game may name the moves worth searching (``Game.search_moves``) where there are too many to
list. Deck Swabbing under Linear has thousands a turn (any white tiles of one row or column):
it offers each line's white tiles, each run of them side by side and each tile alone, those
that colour most for the mover first."""

from __future__ import annotations

import pytest

from geniusbot.games.allhands.swabbing import FOCUS, DeckSwabbing
from geniusbot.practice import Budget, Knowledge, choose

from ..games.swabbing_helpers import colours, play


def _after_row_two(seed: int = 7, anomalies: str = "linear") -> DeckSwabbing:
    """p1 has coloured row 2 black: row 1 is a white region of seven, rows 3-7 one of 35, and
    p2 is to move."""
    game = DeckSwabbing.new(seed=seed, anomalies=anomalies)
    play(game, "A2 B2 C2 D2 E2 F2 G2")
    return game


def _coloured(game: DeckSwabbing, text: str) -> int:
    trial = game.copy()
    seat = trial.turn
    trial.submit(text, seat)
    return len(colours(trial, seat))


def test_linear_offers_the_move_that_colours_most_first_and_only_legal_moves():
    game = _after_row_two()
    moves = game.search_moves(game.turn)
    assert moves is not None and 1 < len(moves) <= FOCUS
    assert all(game.is_legal(move) for move in moves)
    best = max(_coloured(game, move.text()) for move in game.legal_moves(game.turn))
    assert _coloured(game, moves[0].text()) == best


def test_without_linear_every_move_is_searched():
    game = DeckSwabbing.new(seed=7)
    play(game, "A2 B2")
    assert game.search_moves(game.turn) is None


@pytest.mark.parametrize("seed", range(6))
def test_the_practice_opponent_takes_tiles_when_a_move_colours_some(seed):
    game = _after_row_two(seed)
    seat = game.turn
    knowledge = Knowledge(game.name, game.variant, {"anomalies": "linear"}, seat, [game.view(seat)])
    choice = choose(knowledge, Budget(32), seed=seed)
    assert _coloured(game, choice.text) > 0, choice.text


def test_what_a_game_names_does_not_depend_on_an_earlier_game_with_the_same_board():
    # The named moves are kept per position in the process; Unique's numbers decide which
    # regions fill, so they are part of the position.
    plain, unique = _after_row_two(), _after_row_two(anomalies="linear,unique")
    assert plain.board == unique.board
    assert plain._focus(None) != unique._focus(None)
    plain.search_moves(plain.turn)
    moves = unique.search_moves(unique.turn)
    assert moves is not None and [m.text() for m in moves] == [" ".join(t) for t in unique._focus(None)]
