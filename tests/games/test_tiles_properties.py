"""Tile Decklaration under random play: every anomaly combination plays to its end, the rules
agree with a plain reference reading of the text, state round-trips, and no text makes the parser
do anything but answer or raise a GameError."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import GameError, load
from geniusbot.games.allhands.tiles import ANOMALIES, CENTRE, TILES, Call, Declare, Mines, TileDecklaration
from geniusbot.games.grid import Point

SETTINGS = settings(max_examples=60, deadline=None)
COMBOS = [",".join(c) for n in range(len(ANOMALIES) + 1) for c in itertools.combinations(ANOMALIES, n)]


def pt(square: str) -> Point:
    return Point(ord(square[0]) - 65, int(square[1:]) - 1)


# --------------------------------------------------------------------------- a reference reading


def ref_touches(a: Point, b: Point) -> bool:
    return max(abs(a.col - b.col), abs(a.row - b.row)) == 1


def ref_rectangle(tile: Point, named: list[Point]) -> bool:
    """Some three named tiles make the other corners of an axis-parallel rectangle with ``tile``."""
    taken = set(named)
    same_col = [p for p in taken if p.col == tile.col and p.row != tile.row]
    same_row = [p for p in taken if p.row == tile.row and p.col != tile.col]
    return any(Point(b.col, a.row) in taken for a in same_col for b in same_row)


def ref_call_loses(game: TileDecklaration, colour: str, anchor: Point | None, named: list[Point] | None = None) -> bool:
    """The text: the caller loses if the next declarer has no valid tile of ``color`` (Chain: next to
    ``anchor``), or (Rectangle-Adverse) every such tile closes a rectangle."""
    if named is None:
        named = [pt(d["tile"]) for d in game.declared]
    valid = [
        t for t in TILES if game.grid[t] == colour and t not in named and (anchor is None or ref_touches(t, anchor))
    ]
    if not valid:
        return True
    return "rectangle-adverse" in game.anomalies and all(ref_rectangle(t, named) for t in valid)


# --------------------------------------------------------------------------- a player who remembers


def choose(game: TileDecklaration, rng: random.Random, blunder: float, timeouts: bool = True):
    """A move for the seat to move: mostly one that a perfect memory would make, sometimes any."""
    seat = game.to_move()[0]
    if game.phase == "landmines":
        if timeouts and rng.random() < 0.2:
            return "timeout", seat
        tiles = rng.sample(list(TILES), 5)
        return Mines(seat, tuple(str(p) for p in sorted(tiles, key=lambda p: (p.col, p.row)))), seat
    if timeouts and rng.random() < 0.02:
        return "timeout", seat
    if rng.random() < blunder:
        return rng.choice(list(game.legal_moves(seat))), seat
    chain = "chain" in game.anomalies
    named = [pt(d["tile"]) for d in game.declared]
    if game.phase == "call":
        anchor = CENTRE if chain else None
        calls = [c for c in game.palette if not ref_call_loses(game, c, anchor, named)]
        return Call(seat, rng.choice(calls or list(game.palette))), seat
    anchor = game.chain_from()
    tiles = [
        t
        for t in TILES
        if game.grid[t] == game.called
        and t not in named
        and (anchor is None or ref_touches(t, anchor))
        and not ("rectangle-adverse" in game.anomalies and ref_rectangle(t, named))
    ]
    tile = rng.choice(tiles)
    calls = [c for c in game.palette if not ref_call_loses(game, c, tile if chain else None, named + [tile])]
    return Declare(seat, str(tile), rng.choice(calls or list(game.palette))), seat


def check(game: TileDecklaration) -> None:
    """Invariants of every position."""
    views = {seat: game.view(seat) for seat in (None, "p1", "p2")}
    declared = [pt(d["tile"]) for d in game.declared]
    assert len(set(declared)) == len(declared) and CENTRE not in declared
    for i, d in enumerate(game.declared):
        tile = declared[i]
        assert d["color"] == game.grid[tile]
        if "chain" in game.anomalies:
            assert ref_touches(tile, declared[i - 1] if i else CENTRE)
        if "rectangle-adverse" in game.anomalies:
            assert not ref_rectangle(tile, declared[:i])
    for view in views.values():
        assert view["declared"] == game.declared and view["move_number"] == len(declared)
        if game.is_over:
            assert view["grid"] is not None and view["to_move"] == []
        elif game.phase == "memorize":
            assert view["grid"] is not None and view["marks"] == []
        else:
            assert view["grid"] is None and view["original_grid"] is None
            assert view["marks"] == [str(p) for p in game.marks]
    if "landmine" in game.anomalies:
        assert views[None]["mines"] is None
        for seat in ("p1", "p2"):
            own = game.mines.sealed_by(seat)
            assert views[seat]["mines"] == (None if own is None else [str(p) for p in own])
    else:
        assert all(v["mines"] is None for v in views.values())
    if game.is_over:
        assert game.outcome().winner in ("p1", "p2")
    elif game.phase == "declare":
        # A running declare phase always follows a call that the text lets stand.
        assert not ref_call_loses(game, game.called, game.chain_from())
    # Round trip through JSON.
    again = load(json.loads(json.dumps(game.to_dict())))
    assert again == game and again.view("p1") == views["p1"]


def expected_result(game: TileDecklaration, move) -> str | None:
    """What the text says ``move`` does, read before it is played: the losing rule, ``"mine"``
    (the mover moves again), or ``None`` (the turn passes)."""
    if isinstance(move, Mines):
        return "mines"
    chain = "chain" in game.anomalies
    named = [pt(d["tile"]) for d in game.declared]
    if isinstance(move, Call):
        return "no-valid-or-forced" if ref_call_loses(game, move.colour, CENTRE if chain else None, named) else None
    tile = pt(move.tile)
    if tile in named:
        return "named-before"
    if game.grid[tile] != game.called:
        return "wrong-color"
    if "rectangle-adverse" in game.anomalies and ref_rectangle(tile, named):
        return "rectangle"
    if ref_call_loses(game, move.colour, tile if chain else None, named + [tile]):
        return "no-valid-or-forced"
    return "mine" if any(tile in (game.mines.sealed_by(s) or ()) for s in game.seats) else None


def assert_result(game: TileDecklaration, move, expected: str | None) -> None:
    if expected == "mines":
        return
    if expected is None or expected == "mine":
        assert not game.is_over
        assert game.to_move() == ((move.seat,) if expected == "mine" else (("p2", "p1")[move.seat == "p2"],))
        assert game.called == move.colour and game.must_move_again == (expected == "mine")
        return
    assert game.is_over and game.outcome().winner != move.seat
    if expected == "no-valid-or-forced":
        assert game.loss["rule"] in ("no-valid-tile", "forced-rectangle")
    else:
        assert game.loss == {"seat": move.seat, "rule": expected, "tile": move.tile}


def playout(anomalies: str, seed: int, rng: random.Random, blunder: float = 0.05) -> TileDecklaration:
    game = TileDecklaration.new(seed=seed, anomalies=anomalies, starter=rng.choice(["p1", "p2"]))
    check(game)
    for _ in range(400):
        if game.is_over:
            break
        if game.window() is not None and (game.phase == "memorize" or rng.random() < 0.1):
            game.close_window()
        else:
            move, seat = choose(game, rng, blunder)
            if move == "timeout":
                game.timeout(seat)
            else:
                assert game.is_legal(move)
                expected = expected_result(game, move)
                game.play(move)
                assert_result(game, move, expected)
        check(game)
    assert game.is_over, "every task ends: each turn declares a new tile, and the 48th loses"
    return game


@pytest.mark.parametrize("anomalies", COMBOS)
def test_every_anomaly_combination_plays_to_the_end(anomalies):
    rng = random.Random(anomalies)
    rules = set()
    for seed in range(3):
        game = playout(anomalies, seed, rng, blunder=0.0 if seed == 0 else 0.05)
        rules.add(game.loss["rule"])
    assert rules <= {"named-before", "wrong-color", "rectangle", "no-valid-tile", "forced-rectangle", "timeout"}


@pytest.mark.slow
@SETTINGS
@given(
    seed=st.integers(0, 2**32),
    combo=st.sampled_from(COMBOS),
    rng_seed=st.integers(0, 2**32),
    blunder=st.sampled_from([0.0, 0.05, 0.5]),
)
def test_random_playouts_keep_the_invariants(seed, combo, rng_seed, blunder):
    playout(combo, seed, random.Random(rng_seed), blunder)


def test_a_careful_game_without_anomalies_runs_to_the_48th_tile():
    # Perfect memory on both sides: the player who declares the last tile is the one who loses.
    game = TileDecklaration.new(seed=4)
    game.close_window()
    rng = random.Random(1)
    while not game.is_over:
        move, _ = choose(game, rng, blunder=0.0, timeouts=False)
        game.play(move)
    assert len(game.declared) == 48 and game.loss["rule"] == "no-valid-tile"
    assert game.loss["seat"] == game.declared[-1]["seat"]


@pytest.mark.parametrize("starter", ["p1", "p2"])
@pytest.mark.parametrize("seed", range(4))
def test_without_anomalies_the_starter_loses_every_careful_game_whatever_is_chosen(seed, starter):
    # The starter's opponent declares the 1st, 3rd, ... 47th tiles, the starter the 48th, which
    # loses (ruling 5), and a careful player always has a colour with a valid tile to call before
    # that: no choice of tiles or calls changes the winner between two perfect memories.
    for choices in range(3):
        game = TileDecklaration.new(seed=seed, starter=starter)
        game.close_window()
        rng = random.Random(f"{seed}:{choices}")
        while not game.is_over:
            move, _ = choose(game, rng, blunder=0.0, timeouts=False)
            game.play(move)
        assert len(game.declared) == 48
        assert game.loss["seat"] == starter and game.outcome().winner != starter


# --------------------------------------------------------------------------- round trips


@SETTINGS
@given(
    seed=st.integers(0, 2**32), combo=st.sampled_from(COMBOS), rng_seed=st.integers(0, 2**32), stop=st.integers(0, 60)
)
def test_state_round_trips_at_any_point_and_plays_on_the_same(seed, combo, rng_seed, stop):
    rng = random.Random(rng_seed)
    game = TileDecklaration.new(seed=seed, anomalies=combo)
    for _ in range(stop):
        if game.is_over:
            break
        if game.window() is not None and (game.phase == "memorize" or rng.random() < 0.3):
            game.close_window()
            continue
        move, seat = choose(game, rng, 0.1)
        if move == "timeout":
            game.timeout(seat)
        else:
            game.play(move)
    copy = load(json.loads(json.dumps(game.to_dict())))
    assert copy == game
    assert all(copy.view(s) == game.view(s) for s in (None, "p1", "p2"))
    if not game.is_over:
        if game.window() is not None:
            assert copy.close_window() == game.close_window()
        elif game.to_move():
            move, _ = choose(game, random.Random(rng_seed), 0.1)
            if move != "timeout":
                assert copy.play(move) == game.play(move)
        assert copy == game


# --------------------------------------------------------------------------- any text


texts = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda a, b, c: f"{a} {b} {c}",
        st.sampled_from(["", "call", "mines", "mine", "declare", "D5", "d 5", "H9", "A0", "A10", "12"]),
        st.sampled_from(["", "red", "black", "orange", "b", "k", "A1 B1 C1 D1 E1", "D4", "pink"]),
        st.sampled_from(["", "blue", "G7", "A1 A1", "!", "9", "and"]),
    ),
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 1000),
    combo=st.sampled_from(COMBOS),
    steps=st.integers(0, 12),
    text=texts,
    seat=st.sampled_from(["p1", "p2"]),
    private=st.booleans(),
)
def test_any_text_is_answered_or_refused_with_a_game_error_and_never_changes_the_state(
    seed, combo, steps, text, seat, private
):
    rng = random.Random(seed)
    game = TileDecklaration.new(seed=seed, anomalies=combo)
    for _ in range(steps):
        if game.is_over:
            break
        if game.window() is not None and (game.phase == "memorize" or rng.random() < 0.5):
            game.close_window()
            continue
        move, who = choose(game, rng, 0.0)
        game.timeout(who) if move == "timeout" else game.play(move)
    before = game.to_dict()
    try:
        move = game.parse_move(text, seat, private=private)
    except GameError as error:
        assert str(error).strip()
    else:
        assert game.is_legal(move) and move.seat == seat
        assert game.is_private(move) == private
    assert game.to_dict() == before
