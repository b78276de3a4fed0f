"""The practice opponent's tactics: in positions of random games it never misses a move that
wins at once (Tic-Tac-Five's five, Arm's Length's four, Tightwire's winning capture), in
Tic-Tac-Five it stops the opponent's five, and at ``hard`` in Arm's Length it never leaves the
other seat a move that wins at once when it need not; at ``hard`` it answers every threat of a
set of Tic-Tac-Five positions (below)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from geniusbot.games import other_seat
from geniusbot.practice import LEVELS, Budget, choose

from .positions import Match

# Every legal move of many random positions is tried on a copy.
pytestmark = pytest.mark.slow

#: The level ``hard`` as it plays, less its clock: its iterations alone.
HARD = dataclasses.replace(LEVELS["hard"], seconds=None)


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


def _loses_at_once(match: Match, text: str, seat: str) -> bool:
    """Whether the other seat, after ``seat`` plays ``text``, has a move that wins at once."""
    after = match.game.copy()
    after.submit(text, seat)
    if after.is_over or after.to_move() != (other_seat(seat),):
        return False
    for reply in after.legal_moves(other_seat(seat)):
        trial = after.copy()
        trial.play(reply)
        outcome = trial.outcome()
        if outcome is not None and outcome.winner == reply.seat:
            return True
    return False


def test_armslength_hard_leaves_no_win_at_once_when_it_need_not():
    found = 0
    for seed in range(3):
        match, rng = Match("armslength", None, {}, seed), random.Random(seed)
        for number, seat in enumerate(match.positions(rng, limit=120)):
            moves = [m.text() for m in match.game.legal_moves(seat)] if number % 3 == 0 else []
            if not moves or len(moves) > 54 or any(_wins(match, text, seat) for text in moves):
                continue
            losing = {text for text in moves if _loses_at_once(match, text, seat)}
            if losing and len(losing) < len(moves):
                found += 1
                choice = choose(match.knowledge(seat), HARD, seed=seed)
                assert choice.text not in losing, (seed, number, choice.text)
    assert found >= 5


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


# --------------------------------------------------------------------------- Tic-Tac-Five's threats
#
# Each tactic: the stones of the side to move (``own``, the engine at ``hard``) and of the other
# side, and every move that answers. The answers are worked out by hand from the rules
# (docs/rules/tictacfive.md), not by the engine's own threat code. Every tactic is played with
# the engine holding black and white, as p1 and as p2 (the colour chosen at the swap), on
# several seeds.

#: Stones far from the play (at most two in any line of five), to even the counts of the colours.
_FILLERS = {
    "own": ["A15", "E15", "I15", "M15", "C12", "G12", "K12", "O12", "A9", "O6"],
    "other": ["B13", "F13", "J13", "N13", "D10", "L10", "A5", "O3", "A1", "O1"],
}

TACTICS: dict[str, tuple[list[str], list[str], set[str]]] = {
    # name: (own stones, the other's stones, the answers)
    "open three on an empty edge (F3 G3 H3)": ([], ["F3", "G3", "H3"], {"E3", "I3"}),
    "open three in the middle": ([], ["G8", "H8", "I8"], {"F8", "J8"}),
    "open three on a diagonal": ([], ["F6", "G7", "H8"], {"E5", "I9"}),
    "split three in a row": ([], ["G8", "H8", "J8"], {"F8", "I8", "K8"}),
    "split three in a column": ([], ["H5", "H6", "H8"], {"H4", "H7", "H9"}),
    "a four": (["C4"], ["D4", "E4", "F4", "G4"], {"H4"}),
    "a split four": ([], ["D4", "E4", "G4", "H4"], {"F4"}),
    # H7 would make a four (H7-H10, H11 is blocked) and an open three (F7 G7 H7): a four-three.
    "a four-three to come": (["H11"], ["H8", "H9", "H10", "F7", "G7"], {"H7", "H6", "E7", "I7"}),
    # E3 would be a double three for the side to move (E3 E5 E6 up, C5 D4 E3 down a falling
    # diagonal), so only I3 stops the open three.
    "an open three whose answer is forbidden": (["E5", "E6", "C5", "D4"], ["F3", "G3", "H3"], {"I3"}),
    # Both sides have an open three: the side to move makes its open four first.
    "its own open three first": (["G10", "H10", "I10"], ["F3", "G3", "H3"], {"F10", "J10"}),
    # The other's four comes before its own open three.
    "a four before its own open three": (["G10", "H10", "I10", "C4"], ["D4", "E4", "F4", "G4"], {"H4"}),
    # G4 makes two fours at once (D4-G4 blocked at C4, G4-G7 blocked at G8).
    "its own double four": (["D4", "E4", "F4", "G5", "G6", "G7"], ["C4", "G8"], {"G4"}),
}


def _tactic_match(own: list[str], other: list[str], colour: str, seat: str, seed: int) -> Match:
    """A game with ``own`` stones of ``colour`` and ``other`` of the other colour, ``colour`` to
    move and held by ``seat`` (p2 chose at the swap), built by legal moves from the start."""
    other_colour = "white" if colour == "black" else "black"
    stones = {colour: list(own), other_colour: list(other)}
    # Black moves when the counts are equal, white when black has one more.
    want = {"black": 0, "white": 1}[colour]
    fillers = {colour: list(_FILLERS["own"]), other_colour: list(_FILLERS["other"])}
    while len(stones["black"]) - len(stones["white"]) != want or len(stones["black"]) < 2:
        short = "white" if len(stones["black"]) - len(stones["white"]) > want else "black"
        stones[short].append(fillers[short].pop(0))
    # Fillers first (they threaten nothing), the tactic's own stones last.
    order = {c: sorted(stones[c], key=lambda p: p not in _FILLERS["own"] + _FILLERS["other"]) for c in stones}
    match = Match("tictacfive", None, {}, seed)
    p2_takes = colour if seat == "p2" else other_colour
    sequence = [("black", 0), ("white", 0), ("black", 1), ("choice", 0)]
    sequence += [pair for i in range(1, 20) for pair in (("white", i), ("black", i + 1))]
    for colour_now, index in sequence:
        game = match.game
        mover = game.to_move()[0]
        if colour_now == "choice":
            match.play(p2_takes, mover, False)
            continue
        if index >= len(order[colour_now]):
            break
        match.play(order[colour_now][index], mover, False)
    assert match.game.view(None)["next_color"] == colour and match.game.to_move() == (seat,)
    assert sorted(match.game.view(None)["stones"]) == sorted(stones["black"] + stones["white"])
    return match


@pytest.mark.parametrize("name", sorted(TACTICS))
@pytest.mark.parametrize(("colour", "seat"), [("black", "p1"), ("white", "p2"), ("black", "p2"), ("white", "p1")])
def test_tictacfive_hard_answers_every_threat(name, colour, seat):
    own, other, answers = TACTICS[name]
    match = _tactic_match(own, other, colour, seat, seed=0)
    for seed in range(3):
        choice = choose(match.knowledge(seat), HARD, seed=seed)
        assert choice.text in answers, (name, colour, seat, seed, choice.text)


def test_tictacfive_hard_stops_a_new_players_line_on_the_edge():
    """Issue 29's game: p1 opens F3 (black), H8, G3; p2 (the engine) takes white, and p1 plays on
    along row 3, H3, I3, J3, E3, D3 (each while it is free), and never makes five."""
    for seed in range(5):
        match = Match("tictacfive", None, {}, seed)
        for text in ("F3", "H8", "G3", "white"):
            match.play(text, match.game.to_move()[0], False)
        plan = ["H3", "I3", "J3", "E3", "D3", "K3", "C3"]
        while not match.game.is_over:
            seat = match.game.to_move()[0]
            if seat == "p2":
                choice = choose(match.knowledge(seat), HARD, seed=seed)
                match.play(choice.text, seat, False)
                continue
            free = [p for p in plan if p not in match.game.view(None)["stones"]]
            if not free:
                break
            match.play(free[0], seat, False)
        outcome = match.game.outcome()
        assert outcome is None or outcome.winner != "p1", (seed, match.game.view(None)["stones"])
