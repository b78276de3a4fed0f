"""The tactics search of Tic-Tac-Five (``forced_win``) against a separate brute-force solver.

The brute force (``bruteforce.py``) looks at every window of five points; the game's search
walks the rules' own line reading with a transposition table. On every position both must agree
on whether a win by continuous fours exists within the depth, and every line the game's search
gives must replay as one under the brute force's reading.
"""

from __future__ import annotations

import random

import pytest

from . import bruteforce as brute
from .positions import played, position

DEPTH = 4


def _stones(game):
    return {brute.cell(p): c for p, c in game.view()["stones"].items()}


def _played():
    for seed in range(40):
        for stones in (14, 22, 30, 40, 50):
            game = played(seed, stones)
            if game is not None:
                yield game


def _positions():
    yield from _played()
    # Stones strewn on a 7 x 7 patch: wins that take several fours are common there.
    rng = random.Random(3)
    patch = [f"{col}{row}" for col in "EFGHIJK" for row in range(5, 12)]
    for _ in range(200):
        strewn = rng.sample(patch, 16)
        yield position(" ".join(strewn[:8]), " ".join(strewn[8:]), rng.choice(("black", "white")))


@pytest.mark.slow
def test_every_forced_win_the_brute_force_finds_and_no_other():
    found = deeper = 0
    for game in _positions():
        colour = game.view()["next_color"]
        expected = brute.vcf(_stones(game), colour, DEPTH)
        win = game.forced_win(DEPTH, 0)
        assert (win is None) == (expected is None), (game.view()["stones"], colour, expected, win)
        if win is not None:
            assert win.exact and win.seat == game.to_move()[0]
            assert brute.replays(_stones(game), colour, list(win.moves)), win.moves
            assert win.threats <= DEPTH
            found += 1
            deeper += win.threats >= 2
    # The set is not trivial: wins at once, and wins that take several fours.
    assert found >= 15 and deeper >= 5


def test_a_block_the_defender_may_not_take_is_no_block():
    # Black's four on the diagonal leaves one point, H8, which would make a double three of
    # white's (row F8 G8 H8, column H6 H7 H8): white may not take it, so the four wins.
    black, white = "D4 E5 F6 A15", "C3 F8 G8 H6 H7"
    game = position(black, white, "black")
    win = game.forced_win(1, 0)
    assert win is not None and win.moves == ("G7", "-", "H8")
    assert brute.vcf(_stones(game), "black", 1) is not None
    # Without white's column, H8 is an ordinary block, and one four wins nothing.
    fair = position(black, "C3 F8 G8 H7 A1", "black")
    assert fair.forced_win(1, 0) is None
    assert brute.vcf(_stones(fair), "black", 1) is None


@pytest.mark.parametrize(
    ("black", "white", "fours"),
    [
        ("H8 I8 J8", "H9 I9", 1),  # an open four: two fives
        ("E6 H8 J9 J7 J10 F6 E8 K7", "J11 H5 I6 H6 K8 G8 I8 K11", 3),  # three fours, then five
        ("A1 C3 M12", "O15 B14 H8", None),
    ],
)
def test_puzzles(black, white, fours):
    game = position(black, white, "black")
    stones = _stones(game)
    if fours is None:
        assert game.forced_win(DEPTH, 0) is None and brute.vcf(stones, "black", DEPTH) is None
        return
    assert game.forced_win(fours - 1, 0) is None and brute.vcf(stones, "black", fours - 1) is None
    win = game.forced_win(fours, 0)
    assert win is not None and brute.replays(stones, "black", list(win.moves))


def test_a_defender_five_comes_first():
    # Black could play fours, but white has a five to make: black must block it, and the
    # block is no four, so there is no VCF.
    game = position("H8 I8 J8 C3", "A1 A2 A3 A4 O15", "black")
    assert game.forced_win(DEPTH, 0) is None
    assert brute.vcf(_stones(game), "black", DEPTH) is None


@pytest.mark.slow
def test_a_win_by_threes_is_one_a_pass_would_lose():
    wins = 0
    for game in _played():
        if game.forced_win(DEPTH, 0) is not None:
            continue
        win = game.forced_win(DEPTH, 2)
        if win is None:
            continue
        wins += 1
        assert not win.exact
        colour = game.view()["next_color"]
        stones = {**_stones(game), brute.cell(win.first): colour}
        # Were the defender to pass after the first threat, continuous fours win.
        assert brute.vcf(stones, colour, DEPTH) is not None
    assert wins >= 1
