"""The games' play-out policies (``Game.rollout_move``) keep the promises their docstrings make,
in positions of random games: what a play-out does decides what the search learns."""

from __future__ import annotations

import random

import pytest

from geniusbot.games.tightwire.rules import BLUE, ORANGE, Tightwire

from .positions import Match


def _takes(game: Tightwire, text: str, seat: str) -> bool:
    """Whether ``text`` takes one of the other seat's pieces off the board."""
    enemy = BLUE if game.colours[seat] == ORANGE else ORANGE
    trial = game.copy()
    trial.submit(text, seat)
    return trial.pieces.count(enemy) < game.pieces.count(enemy)


@pytest.mark.parametrize("variant", ["classic", "influx", "fate"])
def test_tightwire_play_outs_take_a_piece_whenever_a_move_along_a_line_takes_one(variant):
    taking = quiet = 0
    for seed in range(6):
        match, rng = Match("tightwire", variant, {}, seed), random.Random(seed)
        for seat in match.positions(rng, limit=120):
            game = match.game
            assert isinstance(game, Tightwire)
            if game.phase != "play":
                continue
            steps = [m.text() for m in game.legal_moves(seat) if m.action == "move"]
            takes = [text for text in steps if _takes(game, text, seat)]
            move = game.rollout_move(seat, random.Random(len(match.actions)))
            if takes:
                taking += 1
                assert move is not None and move.text() in takes, (move, takes)
            else:
                quiet += 1
                assert move is None or game.is_legal(move)
    assert taking >= 5 and quiet >= 20
