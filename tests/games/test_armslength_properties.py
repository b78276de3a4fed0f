"""Arm's Length under random play: games end cleanly, stones are never lost or doubled, state
round-trips, and no text makes the parser do anything but answer or raise a GameError."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import GameError, load
from geniusbot.games.armslength.rules import COLOURS, ArmsLength, Place, fours, generate_layout, mirror
from geniusbot.games.grid import Point

SETTINGS = settings(max_examples=60, deadline=None)

option_sets = st.one_of(
    st.just({}),
    st.sampled_from([{"p1_color": "red"}, {"p1_color": "blue"}, {"dmo": "p1"}, {"dmo": "p2"}]),
    st.just({"setup": "none"}),
    st.just({"setup": "red D4 E5 D5; blue E4 C3", "dmo": "p2"}),
)


def counts(game: ArmsLength) -> dict[str, int]:
    stones = game.view()["stones"]
    return {c: sum(1 for v in stones.values() if v == c) for c in COLOURS}


def check_invariants(game: ArmsLength, start: dict[str, int], placed: dict[str, int]) -> None:
    view = game.view()
    # Each colour: on the board + knocked off = pre-placed + placed (stones are never in hand).
    on_board = counts(game)
    for colour in COLOURS:
        assert on_board[colour] + view["knocked_off"][colour] == start[colour] + placed[colour]
    # One stone per square, every one on the board and of a colour.
    squares = [Point(ord(s[0]) - 65, int(s[1:]) - 1) for s in view["stones"]]
    assert len(set(squares)) == len(squares) == len(view["stones"])
    assert all(0 <= p.col < 8 and 0 <= p.row < 8 for p in squares)
    assert set(view["stones"].values()) <= set(COLOURS)
    assert view["move_number"] == sum(placed.values())
    # While the game runs nobody has four or ten knocked off; the fours shown belong to the end.
    if not game.is_over:
        assert view["fours"] == []
        assert max(view["knocked_off"].values()) < 10
        assert view["outcome"] is None and len(view["to_move"]) == 1
    else:
        assert view["to_move"] == [] and view["phase"] == "over"


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, rng_seed=st.integers(0, 2**32))
def test_random_playouts_end_cleanly_and_keep_every_stone_accounted_for(seed, options, rng_seed):
    rng = random.Random(rng_seed)
    game = ArmsLength.new(seed=seed, **options)
    start = counts(game)
    placed = {c: 0 for c in COLOURS}
    for _ in range(200):
        if game.is_over:
            break
        check_invariants(game, start, placed)
        if game.view()["phase"] == "choice" and rng.random() < 0.3:
            game.timeout(game.to_move()[0])
            continue
        moves = list(game.legal_moves())
        assert moves, "a running game always has a legal move"
        move = rng.choice(moves)
        assert game.is_legal(move)
        colour = game.view()["colors"].get(move.seat)
        game.play(move)
        if isinstance(move, Place):
            placed[colour] += 1
    assert game.is_over, "every game ends: each turn adds a stone and knock-offs are bounded"
    check_invariants(game, start, placed)
    if game.outcome().winner is None:
        assert len(game.view()["stones"]) == 64


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, rng_seed=st.integers(0, 2**32), stop=st.integers(0, 80))
def test_state_round_trips_at_any_point_and_plays_on_the_same(seed, options, rng_seed, stop):
    rng = random.Random(rng_seed)
    game = ArmsLength.new(seed=seed, **options)
    for _ in range(stop):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves())))
    copy = load(json.loads(json.dumps(game.to_dict())))
    assert copy == game and copy.view() == game.view()
    for _ in range(5):
        if game.is_over:
            break
        move = rng.choice(list(game.legal_moves()))
        assert game.play(move) == copy.play(move)
    assert copy == game


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, text=st.text(max_size=20), seat=st.sampled_from(["p1", "p2"]))
def test_any_text_is_a_legal_move_or_a_game_error_and_changes_nothing(seed, options, text, seat):
    game = ArmsLength.new(seed=seed, **options)
    before = game.to_dict()
    try:
        move = game.parse_move(text, seat)
    except GameError as error:
        assert str(error).endswith(".")
    else:
        assert game.is_legal(move)
        assert game.parse_move(move.text(), seat) == move
    assert game.to_dict() == before


@SETTINGS
@given(text=st.text(alphabet="redbluREDBLUA1H8 ;,x9", max_size=24))
def test_any_setup_text_gives_a_game_or_an_option_error(text):
    try:
        game = ArmsLength.new(seed=0, setup=text)
    except GameError:
        return
    assert not game.view()["fours"]
    assert len(game.view()["stones"]) < 64


@settings(max_examples=200, deadline=None)
@given(seed=st.integers())
def test_generated_layouts_are_point_symmetric_and_start_with_no_four(seed):
    stones = generate_layout(seed)
    assert len(stones) == 8 and not fours(stones)
    assert all(stones[mirror(p)] == ("blue" if c == "red" else "red") for p, c in stones.items())
    assert generate_layout(seed) == stones
