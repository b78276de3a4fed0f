"""Tic-Tac-Five positions for the tactics tests: a few built by hand, many from play-outs."""

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


#: Hand-made positions: (black, white, to move, the fewest fours of a VCF, or None).
PUZZLES: list[tuple[str, str, str, int | None]] = [
    # An open four at once.
    ("H8 I8 J8", "H9 I9", "black", 1),
    # A split four then the gap: H8 I8 K8 (four at J8? no: G8 or L8 would be fours too).
    ("H8 I8 K8 H10 H11", "G8 H9 A1 A2", "black", 1),
    # Two fours in a row: a four on the column, its block makes no five, then an open four.
    ("E5 F6 G7 E9 E10 E11", "D4 A1 A3 O15 N15", "black", None),
    # Nothing: scattered stones.
    ("A1 C3 M12", "O15 B14 H8", "black", None),
]
