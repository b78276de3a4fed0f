"""Deck Swabbing properties: random playouts with every combination of anomalies to the end, the
move generator against the parser, round trips, records, and any text refused cleanly."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.adjudicate import adjudicate
from geniusbot.games import GameError, load
from geniusbot.games.allhands.swabbing import (
    ANOMALIES,
    SQUARES,
    WHITE,
    DeckSwabbing,
    Snipe,
    neighbours,
    pyramid_value,
    region_fills,
    white_regions,
)
from geniusbot.record import format_record, parse_record, record_from_game

POINTS = {str(p): p for p in SQUARES}
COMBINATIONS = [
    ",".join(combo) for size in range(len(ANOMALIES) + 1) for combo in itertools.combinations(ANOMALIES, size)
]


def check_position(game: DeckSwabbing) -> None:
    """What must hold between turns, whatever the anomalies."""
    board = game.board
    assert set(board) == set(SQUARES)
    # Regions that qualify are filled at once, so none is left waiting.
    assert not any(region_fills(r, game.numbers) for r in white_regions(board))
    scores = game.scores()
    for seat in game.seats:
        owned = [p for p in SQUARES if board[p] == seat]
        expected = sum(map(pyramid_value, owned)) if game.has("pyramid") else len(owned)
        assert scores[seat] == expected
    # The task runs exactly while a white tile is left (a lone white tile is always filled, and
    # any larger region holds a pair).
    whites = [p for p in SQUARES if board[p] == WHITE]
    if not game.is_over:
        assert whites and game.has_legal_move()
    elif game.result["reason"] == "no-move":
        assert not whites
    data = game.to_dict()
    assert json.loads(json.dumps(data)) == data and load(data) == game
    for seat in (None, *game.seats):
        view = game.view(seat)
        assert json.loads(json.dumps(view)) == view
    assert game.view(None)["sealed"] is None


def check_generator_against_parser(game: DeckSwabbing, rng: random.Random) -> None:
    """Every text the generator offers parses to itself; a sample of other tile sets parses
    exactly when the generator offers it."""
    mover = game.turn
    if mover not in game.to_move():
        return
    private = game.has("snipe")
    legal = {m.text() for m in game.legal_moves(mover)}
    assert legal
    for text in rng.sample(sorted(legal), min(15, len(legal))):
        assert game.parse_move(text, mover, private=private).text() == text
    squares = list(SQUARES)
    for _ in range(60):
        tiles = rng.sample(squares, rng.choice((1, 2, 2, 2, 3)))
        text = " ".join(str(p) for p in sorted(tiles, key=lambda p: (p.col, p.row)))
        try:
            game.parse_move(text, mover, private=private)
        except GameError:
            assert text not in legal
        else:
            assert text in legal


def play_out(anomalies: str, seed: int, *, oracle: bool) -> tuple[DeckSwabbing, DeckSwabbing, list]:
    rng = random.Random(f"swabbing:{anomalies}:{seed}")
    options = {"anomalies": anomalies} if anomalies else {}
    game = DeckSwabbing.new(seed=seed, starter=rng.choice(("p1", "p2")), **options)
    start = game.copy()
    lines: list = []
    for _ in range(80):
        check_position(game)
        if game.is_over:
            break
        if oracle and rng.random() < 0.3:
            check_generator_against_parser(game, rng)
        movers = game.to_move()
        seat = rng.choice(movers)
        if seat != game.turn and rng.random() < 0.15:
            game.timeout(seat)  # a sniper out of time: no snipe, no loss
            lines.append(("host", f"timeout {seat}", False))
            assert game.result is None or game.result["reason"] == "no-move"
            continue
        before, played = dict(game.board), len(game.history)
        hook = game.hook_zone() if game.has("hook") and game.hook_binds() else None
        moves = list(game.legal_moves(seat))
        move = rng.choice(moves)
        if hook is not None and seat == game.turn:
            assert set(move.tiles) & {str(p) for p in hook}
        game.play(move)
        lines.append((seat, move.text(), game.is_private(move)))
        if len(game.history) > played:
            entry = game.history[-1]
            assert entry["tiles"] and all(before[POINTS[s]] == WHITE for s in entry["tiles"])
            # Filled tiles touch no white tile: counting them as "placed" for Hook would change nothing.
            for square in entry["filled"]:
                assert all(game.board[n] != WHITE for n in neighbours(POINTS[square]))
    assert game.is_over, "a task always ends: every move colours at least one white tile"
    return start, game, lines


@pytest.mark.parametrize("anomalies", COMBINATIONS)
def test_random_playouts_with_every_combination_end_cleanly(anomalies):
    start, game, lines = play_out(anomalies, 1, oracle=True)
    outcome = game.outcome()
    scores = game.scores()
    assert game.result["scores"] == scores
    if scores["p1"] == scores["p2"]:
        assert outcome.winner == game.tiebreak_seat() == game.result["tiebreak"]
    else:
        assert outcome.winner == max(scores, key=scores.get) and game.result["tiebreak"] is None
    assert list(game.legal_moves()) == [] and game.to_move() == ()
    # The record replays through the adjudicator to the same game.
    record = record_from_game(start, lines)
    result = adjudicate(parse_record(format_record(record)))
    assert [a.error for a in result.actions if not a.accepted] == []
    assert result.game == game


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(COMBINATIONS), st.integers(0, 10_000))
def test_random_playouts_keep_the_invariants(anomalies, seed):
    play_out(anomalies, seed, oracle=False)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(COMBINATIONS), st.integers(0, 10_000), st.integers(0, 12))
def test_snipe_answers_first_or_second_play_the_same_turn(anomalies, seed, steps):
    if "snipe" not in anomalies:
        anomalies = (anomalies + ",snipe").strip(",")
    rng = random.Random(seed)
    game = DeckSwabbing.new(seed=seed, anomalies=anomalies)
    for _ in range(steps):
        if game.is_over:
            return
        for seat in game.to_move():
            game.play(rng.choice(list(game.legal_moves(seat))))
    if game.is_over:
        return
    move = rng.choice(list(game.legal_moves(game.turn)))
    snipe = rng.choice(list(game.legal_moves(game.sniper)))
    assert isinstance(snipe, Snipe)
    first, second = game.copy(), game.copy()
    first.play(move)
    first.play(snipe)
    second.play(snipe)
    second.play(move)
    assert first == second


def _sealed() -> DeckSwabbing:
    game = DeckSwabbing.new(seed=2, anomalies="snipe,hook,linear")
    game.submit("C3 C4", "p1", private=True)
    game.submit("snipe D4", "p2", private=True)
    game.submit("C5 C7", "p2", private=True)  # the next turn: p2's move sealed, p1 to answer
    return game


GAMES = [DeckSwabbing.new(seed=2, anomalies=a) for a in ("", "snipe", "linear,hook", "unique,pyramid,snipe")]
GAMES.append(_sealed())


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(GAMES))), st.text(max_size=30), st.sampled_from(("p1", "p2", "p3")), st.booleans())
def test_any_text_is_a_legal_move_or_a_game_error_and_changes_nothing(index, text, seat, private):
    game = GAMES[index]
    before = game.to_dict()
    try:
        move = game.parse_move(text, seat, private=private)
    except GameError as error:
        assert str(error).strip()
    else:
        assert move.seat == seat and game.is_legal(move)
    assert game.to_dict() == before


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(COMBINATIONS), st.integers(0, 10_000), st.text(max_size=20))
def test_any_anomaly_text_makes_a_game_or_an_option_error(anomalies, seed, noise):
    for text in (anomalies, anomalies.upper().replace(",", ", "), noise, anomalies + "," + noise):
        try:
            game = DeckSwabbing.new(seed=seed, anomalies=text)
        except GameError:
            continue
        assert set(game.anomalies) <= set(ANOMALIES)
        assert load(game.to_dict()) == game
