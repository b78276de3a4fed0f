"""Tile Decklaration keeps its secrets: the grid is seen for 30 seconds and then by no one until the
task ends (no notes!), mines are seen by their owner only until they go off, and nothing a seat
can see or be told depends on what it may not see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import GameError
from geniusbot.games.allhands.tiles import TILES, TileDecklaration

from .test_tiles_properties import COMBOS, choose, pt, texts
from .tiles_helpers import make, play


def test_no_view_holds_the_grid_between_the_window_and_the_end():
    game = make(anomalies="landmine,implode", marks="A1 B2 C3")
    for phase_moves in (None, "mines"):
        for seat in (None, "p1", "p2"):
            view = game.view(seat)
            assert view["grid"] is None and view["original_grid"] is None
            # Nor anywhere else in the view: no square's colour but the declared ones.
            assert "green" not in json.dumps(view["declared"])
        if phase_moves:
            game.submit("mines A1 B1 C1 D1 E1", "p1", private=True)
            game.submit("mines A7 B7 C7 D7 E7", "p2", private=True)
    play(game, "call red", "A7 red")
    for seat in (None, "p1", "p2"):
        assert game.view(seat)["grid"] is None
    game.resign("p2")
    for seat in (None, "p1", "p2"):
        assert game.view(seat)["grid"] is not None and game.view(seat)["original_grid"] is not None


def test_the_implode_marks_appear_only_when_the_grid_is_hidden():
    game = TileDecklaration.new(seed=2, anomalies="implode")
    assert all(game.view(s)["marks"] == [] for s in (None, "p1", "p2"))
    game.close_window()
    assert all(len(game.view(s)["marks"]) == 15 for s in (None, "p1", "p2"))


def test_a_mine_is_public_only_once_it_goes_off():
    game = make(anomalies="landmine")
    events = game.submit("mines A7 B7 C7 D7 E7", "p1", private=True)[1]
    events += game.submit("mines A1 B1 C1 D1 E1", "p2", private=True)[1]
    assert all("A7" not in e.text and "tiles" not in e.data for e in events if e.public)
    events = play(game, "call red", "A7 red")
    assert game.view()["exploded"] == [{"tile": "A7", "owners": ["p1"]}]
    assert game.view("p2")["mines"] == ["A1", "B1", "C1", "D1", "E1"]
    assert game.view()["mines"] is None and game.view("p1")["mines"] == ["A7", "B7", "C7", "D7", "E7"]


def hidden_twin(game: TileDecklaration, rng: random.Random, seat: str, focus: str = "") -> TileDecklaration:
    """A copy that differs from ``game`` only in what ``seat`` may not see: the colours of two
    undeclared tiles swapped (``focus`` among them, if it names one), and the opponent's
    unexploded mines moved (onto ``focus`` if it can)."""
    twin = game.copy()
    named = {pt(d["tile"]) for d in game.declared}
    free = [t for t in TILES if t not in named]
    a, b = rng.sample(free, 2)
    if focus and pt(focus) in free:
        a = pt(focus)
        others = [t for t in free if game.grid[t] != game.grid[a]]
        b = rng.choice(others) if others else b
    for grid in (twin.original, twin.grid):
        grid[a], grid[b] = grid[b], grid[a]
    opponent = "p2" if seat == "p1" else "p1"
    mines = twin.mines.sealed_by(opponent)
    if mines:
        moved = rng.sample([t for t in free if t != a], len(mines) - 1) + [a]
        mines[:] = sorted(moved, key=lambda p: (p.col, p.row))
    return twin


def advance(game: TileDecklaration, rng: random.Random, steps: int) -> None:
    game.close_window()
    for _ in range(steps):
        if game.is_over:
            return
        if game.window() is not None and rng.random() < 0.3:
            game.close_window()
            continue
        move, who = choose(game, rng, 0.0, timeouts=False)
        game.play(move)


SQUARES = [f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8)]
COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"]
submissions = st.one_of(
    texts,
    st.builds(lambda t, c: f"{t} {c}", st.sampled_from(SQUARES), st.sampled_from(COLOURS)),
    st.builds(lambda c: f"call {c}", st.sampled_from(COLOURS)),
    st.builds(lambda ts: "mines " + " ".join(ts), st.lists(st.sampled_from(SQUARES), min_size=4, max_size=6)),
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    combo=st.sampled_from(COMBOS),
    steps=st.integers(0, 20),
    to_move=st.booleans(),
    text=submissions,
    private=st.booleans(),
)
def test_nothing_a_seat_sees_or_is_told_depends_on_what_it_may_not_see(seed, combo, steps, to_move, text, private):
    rng = random.Random(seed)
    game = TileDecklaration.new(seed=seed, anomalies=combo)
    advance(game, rng, steps)
    if game.is_over:
        return
    movers = game.to_move()
    seat = movers[0] if to_move and movers else rng.choice(["p1", "p2"])
    focus = next((w for w in text.upper().split() if w in SQUARES), "")
    twin = hidden_twin(game, rng, seat, focus)
    assert twin.view(seat) == game.view(seat)
    assert twin.view(None) == game.view(None)
    # The same submission gets the same answer on both: a refusal never tells a colour or a mine.
    answers = []
    for g in (game, twin):
        try:
            answers.append(g.parse_move(text, seat, private=private))
        except GameError as error:
            answers.append((type(error), str(error)))
    assert answers[0] == answers[1]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), combo=st.sampled_from(COMBOS))
def test_events_carry_the_grid_only_when_it_is_shown_and_mines_only_to_their_owner(seed, combo):
    rng = random.Random(seed)
    game = TileDecklaration.new(seed=seed, anomalies=combo)
    (opening,) = game.opening_events()
    assert opening.kind == "reveal" and opening.data["grid"] == game.view()["grid"]
    events = list(game.close_window())
    while not game.is_over:
        if game.window() is not None and rng.random() < 0.3:
            events += game.close_window()
            continue
        move, who = choose(game, rng, 0.05, timeouts=False)
        new = game.play(move)
        if game.is_over:
            *running, end, reveal = new
            assert end.kind == "end" and reveal.kind == "final-grid" and reveal.public
            assert reveal.data["grid"] == game.view()["grid"]
            new = running
        events += new
    for event in events:
        assert "grid" not in event.data
        if event.kind == "sealed":
            assert event.seats == frozenset({event.data["seat"]})
        if event.public:
            assert "tiles" not in event.data
        else:
            assert len(event.seats) == 1
    exploded = {e["tile"] for e in game.view()["exploded"]}
    landmine_events = [e for e in events if e.kind == "landmine"]
    assert all(e.public and e.data["tile"] in exploded for e in landmine_events)
