"""Tic-Tac-Five positions for the tactics tests: built from stones, or played by the rules' play-out policy."""

from __future__ import annotations

import random

from geniusbot.games import Game, get_game


def position(black: str, white: str, to_move: str) -> Game:
    """A game in play with these stones (points separated by spaces) and ``to_move`` next."""
    game = get_game("tictacfive").new(seed=0)
    stones = [[p, "black"] for p in black.split()] + [[p, "white"] for p in white.split()]
    game.load_state(
        {
            "phase": "play",
            "stones": stones,
            "colors": {"p1": "black", "p2": "white"},
            "next_color": to_move,
            "winning_line": None,
        }
    )
    return game


def played(seed: int, stones: int) -> Game | None:
    """A game the rules' play-out policy has played to ``stones`` stones (``None``: it ended first)."""
    game = get_game("tictacfive").new(seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.view()["move_number"] < stones:
        seat = game.to_move()[0]
        move = game.rollout_move(seat, rng)
        assert move is not None
        game.play(move)
    return None if game.is_over else game
