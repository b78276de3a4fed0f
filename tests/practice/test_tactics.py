"""The practice opponent's tactics, in positions of random games: it never misses a move that
wins at once (Tic-Tac-Five's five, Arm's Length's four, Tightwire's winning capture), and in
Tic-Tac-Five it stops the opponent's five."""

from __future__ import annotations

import random

import pytest

from geniusbot.games import other_seat
from geniusbot.practice import Budget, choose

from .positions import Match

# Every legal move of many random positions is tried on a copy.
pytestmark = pytest.mark.slow


def _wins(match: Match, text: str, seat: str) -> bool:
    trial = match.game.copy()
    trial.submit(text, seat)
    outcome = trial.outcome()
    return outcome is not None and outcome.winner == seat


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        ("tictacfive", None),
        ("armslength", None),
        ("tightwire", "classic"),
        ("tightwire", "influx"),
        ("tightwire", "fate"),
    ],
)
def test_it_takes_a_move_that_wins_at_once(name, variant):
    found = 0
    for seed in range(12):
        match, rng = Match(name, variant, {}, seed), random.Random(seed)
        for seat in match.positions(rng, limit=150):
            winning = [m.text() for m in match.game.legal_moves(seat) if _wins(match, m.text(), seat)]
            if winning:
                found += 1
                choice = choose(match.knowledge(seat), Budget(5), seed=seed)
                assert _wins(match, choice.text, seat), (choice.text, winning)
    assert found >= 3


def test_tictacfive_it_stops_the_opponents_five():
    found = 0
    for seed in range(12):
        match, rng = Match("tictacfive", None, {}, seed), random.Random(seed)
        for seat in match.positions(rng, limit=150):
            game = match.game
            if game.view(None)["phase"] != "play":
                continue
            if any(_wins(match, m.text(), seat) for m in game.legal_moves(seat)):
                continue
            # The points where the opponent would make five, were it to move now.
            threats = [m.text() for m in game.legal_moves(seat) if _five_for(match, m.text(), other_seat(seat))]
            if len(threats) == 1:
                found += 1
                choice = choose(match.knowledge(seat), Budget(5), seed=seed)
                assert choice.text == threats[0]
    assert found >= 3


def _five_for(match: Match, point: str, seat: str) -> bool:
    """Whether ``seat``'s stone on ``point`` would make five (the colours swapped for the trial)."""
    view = match.game.view(None)
    colour = view["colors"][seat]
    line = dict(view["stones"])
    line[point] = colour
    from geniusbot.games.grid import parse_point

    target = parse_point(point, 15, 15)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = target.col + sign * dc, target.row + sign * dr
            while 0 <= c < 15 and 0 <= r < 15 and line.get(f"{chr(65 + c)}{r + 1}") == colour:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 5:
            return True
    return False
