"""The review's best move (a bench's player): a win taken, a four blocked, the same move every time."""

from __future__ import annotations

from geniusbot.analysis import Effort, best_move

from .positions import position

QUICK = Effort(candidates=4, playouts=2)


def test_it_takes_a_win_in_one():
    # Black has four in a row, H8 to K8, with one end blocked: L8 makes five.
    game = position("H8 I8 J8 K8 C3", "G8 A1 A2 O15", "black")
    move = best_move(game, "p1", QUICK)
    assert move.text() == "L8"
    game.play(move)
    assert game.is_over


def test_it_blocks_a_four():
    # White has four in a row, H8 to K8, G8 blocked by black: white's five is at L8.
    game = position("G8 C3 D12 M3", "H8 I8 J8 K8", "black")
    assert best_move(game, "p1", QUICK).text() == "L8"


def test_the_same_game_and_effort_give_the_same_move():
    # No forced win either way: the candidates are sampled and valued by play-outs.
    game = position("H8 I9 G10", "H9 I8 J7", "black")
    assert game.forced_win() is None
    seat = "p1"
    first = best_move(game, seat, Effort(candidates=6, playouts=4, seed=5))
    assert all(best_move(game, seat, Effort(candidates=6, playouts=4, seed=5)) == first for _ in range(2))
