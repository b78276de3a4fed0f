"""Tic-Tac-Five properties: random playouts, round trips, random text, and the double-three check
against a reference written straight from the pattern definitions in docs/rules/tictacfive.md
(ruling 14)."""

from __future__ import annotations

from itertools import cycle

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import GameError, NotYourTurnError, load, new_game
from geniusbot.games.grid import Point
from geniusbot.games.tictacfive.rules import Place, TicTacFive

COLUMNS = "ABCDEFGHIJKLMNO"
ALL_POINTS = [f"{COLUMNS[col]}{row + 1}" for row in range(15) for col in range(15)]
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
FAST = settings(max_examples=60, deadline=None)


# --------------------------------------------------------------------------- the reference


def reference_legal(stones: dict[tuple[int, int], str], at: tuple[int, int], colour: str) -> bool:
    """Whether ``colour`` may place on the empty ``at``, by matching windows of the line.

    Each line through ``at`` is read as eleven characters centred on it: ``X`` the mover's
    stones (the new one included), ``.`` empty, ``O`` the opponent or off the board.
    five: a window of five X through the centre. four: one more X somewhere makes such a
    window. open three (if not a four): one more X somewhere makes a window ``.XXXX.`` whose
    four X include the centre and the added stone.
    """
    threes = 0
    for dc, dr in DIRECTIONS:
        line = []
        for k in range(-5, 6):
            c, r = at[0] + k * dc, at[1] + k * dr
            if k == 0:
                line.append("X")
            elif not (0 <= c < 15 and 0 <= r < 15):
                line.append("O")
            else:
                owner = stones.get((c, r))
                line.append("." if owner is None else "X" if owner == colour else "O")
        text = "".join(line)

        def five_through_centre(s: str) -> bool:
            return any(s[i : i + 5] == "XXXXX" for i in range(1, 6))

        if five_through_centre(text):
            return True
        empties = [i for i, ch in enumerate(text) if ch == "."]
        if any(five_through_centre(text[:e] + "X" + text[e + 1 :]) for e in empties):
            continue  # a four, not a three
        for e in empties:
            filled = text[:e] + "X" + text[e + 1 :]
            if any(filled[s : s + 6] == ".XXXX." and s < 5 < s + 5 and s < e < s + 5 for s in range(0, 6)):
                threes += 1
                break
    return threes < 2


def loaded(stones: dict[tuple[int, int], str], colour: str, phase: str = "play") -> TicTacFive:
    return load(
        {
            "game": "tictacfive",
            "variant": "standard",
            "seed": 0,
            "options": {},
            "outcome": None,
            "state": {
                "phase": phase,
                "stones": [[str(Point(c, r)), owner] for (c, r), owner in stones.items()],
                "colors": {"p1": "black", "p2": "white"},
                "next_color": colour,
                "winning_line": None,
            },
        }
    )


# A crowded 9 x 9 patch in a corner or the middle: many threes, fours, edges and blocks.
cells = st.sampled_from([None, None, "black", "black", "black", "white"])
patches = st.tuples(
    st.lists(cells, min_size=81, max_size=81),
    st.sampled_from([0, 3, 6]),
    st.sampled_from([0, 3, 6]),
    st.sampled_from(["black", "white"]),
)


@pytest.mark.slow
@FAST
@given(patches)
def test_legality_matches_the_reference_on_crowded_boards(patch):
    contents, left, bottom, colour = patch
    stones = {(left + i % 9, bottom + i // 9): owner for i, owner in enumerate(contents) if owner is not None}
    game = loaded(stones, colour)
    seat = game.to_move()[0]
    legal = {move.point for move in game.legal_moves()}
    forbidden = set(game.view()["forbidden"])
    for col in range(15):
        for row in range(15):
            if (col, row) in stones:
                continue
            expected = reference_legal(stones, (col, row), colour)
            assert game.is_legal(Place(seat, Point(col, row))) == expected, (Point(col, row), colour)
            assert (Point(col, row) in legal) == expected
            assert (str(Point(col, row)) in forbidden) != expected  # the view marks what is refused


@pytest.mark.slow
@FAST
@given(patches)
def test_the_first_empty_point_in_reading_order_is_always_legal(patch):
    """Why no pass rule is needed: an open three needs empty points on both sides of the new stone."""
    contents, left, bottom, colour = patch
    stones = {(left + i % 9, bottom + i // 9): owner for i, owner in enumerate(contents) if owner is not None}
    game = loaded(stones, colour)
    first = next(Point(c, r) for r in range(15) for c in range(15) if (c, r) not in stones)
    assert game.is_legal(Place(game.to_move()[0], first))


# --------------------------------------------------------------------------- random playouts


def play_out(order: list[int], choice: str, noise: list[str]) -> tuple[TicTacFive, int]:
    """Try the points in ``order`` one by one (with some noise typed in between); count the stones."""
    game = new_game("tictacfive", seed=1)
    placed = 0
    tries = cycle(order)  # a point refused as a double three may be taken later
    noisy = iter(noise)
    while not game.is_over:
        seat = game.to_move()[0]
        junk = next(noisy, None)
        if junk is not None:
            before = game.to_dict()
            try:
                game.parse_move(junk, seat)
            except GameError:
                assert game.to_dict() == before
        if game.phase == "choice":
            game.submit(choice, seat)
            continue
        text = ALL_POINTS[next(tries)]
        try:
            move = game.parse_move(text, seat)
        except GameError:
            continue
        game.play(move)
        placed += 1
        stones = game.view()["stones"]
        blacks = sum(1 for colour in stones.values() if colour == "black")
        assert len(stones) == placed == game.view()["move_number"]
        assert blacks - (placed - blacks) in (0, 1)  # black first, then strict alternation
    return game, placed


playouts = st.tuples(
    st.permutations(range(225)),
    st.sampled_from(["black", "white"]),
    st.lists(st.sampled_from(["black", "white", "H8", "Q1", "h 8", "", "A15", "pass"]), max_size=40),
)


@pytest.mark.slow
@FAST
@given(playouts)
def test_random_games_play_to_an_end_and_keep_their_counts(playout):
    game, placed = play_out(*playout)
    outcome = game.outcome()
    view = game.view()
    assert view["phase"] == "over" and view["to_move"] == [] and view["next_color"] is None
    if outcome.winner is None:
        assert placed == 225 and view["winning_line"] is None
    else:
        line = [Point(COLUMNS.index(p[0]), int(p[1:]) - 1) for p in view["winning_line"]]
        assert len(line) >= 5 and view["last_move"] in view["winning_line"]
        steps = {(b.col - a.col, b.row - a.row) for a, b in zip(line, line[1:])}
        assert len(steps) == 1 and steps <= set(DIRECTIONS)
        assert {view["stones"][p] for p in view["winning_line"]} == {view["colors"][outcome.winner]}
    for seat in ("p1", "p2"):
        for text in ("black", "A1", "zz"):
            try:
                game.parse_move(text, seat)
            except NotYourTurnError:
                pass
            else:  # pragma: no cover - the assertion explains the failure
                raise AssertionError(f"a finished game took {text!r} from {seat}")
    assert list(game.legal_moves()) == []
    assert load(game.to_dict()) == game


@pytest.mark.slow
@FAST
@given(playouts, st.integers(min_value=0, max_value=60))
def test_a_game_saved_midway_loads_equal_and_plays_on_identically(playout, stop):
    order, choice, _ = playout
    game = new_game("tictacfive", seed=3)
    record = []
    tries = cycle(order)
    while not game.is_over and len(record) < stop:
        seat = game.to_move()[0]
        text = choice if game.phase == "choice" else ALL_POINTS[next(tries)]
        try:
            game.submit(text, seat)
            record.append(text)
        except GameError:
            continue
    copy = load(game.to_dict())
    assert copy == game and copy.view() == game.view()
    if not game.is_over:
        assert list(copy.legal_moves()) == list(game.legal_moves())
        move = next(iter(game.legal_moves()))
        assert copy.play(move) == game.play(move)
        assert copy == game


@FAST
@given(st.text(max_size=12), st.integers(min_value=0, max_value=3))
def test_random_text_is_refused_only_with_game_errors(text, stones):
    game = new_game("tictacfive")
    for point in ("H8", "H9", "J8")[:stones]:
        game.submit(point, "p1")
    before = game.to_dict()
    for seat in ("p1", "p2", "p3"):
        try:
            move = game.parse_move(text, seat)
        except GameError as error:
            assert str(error).endswith(".")
        else:
            assert game.is_legal(move) and game.parse_move(move.text(), seat) == move
        assert game.to_dict() == before


@FAST
@given(st.lists(st.sampled_from(ALL_POINTS), min_size=3, max_size=3, unique=True))
def test_any_three_distinct_opening_points_are_accepted(points):
    game = new_game("tictacfive")
    for point in points:
        game.submit(point, "p1")
    assert game.view()["stones"] == dict(zip(points, ("black", "white", "black")))
    assert game.phase == "choice"
