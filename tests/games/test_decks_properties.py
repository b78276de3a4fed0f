"""Dueling Decks properties: random tasks with every combination of anomalies, played to the end.

Random tasks mix random legal submissions (half of them typed as text), "nothing" submissions
and timeouts. At every step the invariants of the rules hold, the state round-trips through plain
JSON, and random text is refused only with a GameError that changes nothing.
"""

from __future__ import annotations

import itertools
import json
import random
import string

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import GameError, load
from geniusbot.games.allhands.decks import ANOMALIES, Create, DuelingDecks, Play

from .test_decks_hidden import outside_p1

COMBINATIONS = [",".join(c) for n in range(len(ANOMALIES) + 1) for c in itertools.combinations(ANOMALIES, n)]
SETTINGS = settings(max_examples=40, deadline=None)


def random_move(game: DuelingDecks, seat: str, rng: random.Random):
    """A legal submission for ``seat``, drawn directly (listing every creation is slow): often
    modest (a card or two, or nothing), sometimes spending the power left."""
    if game.phase == "create":
        room, power = game.deck_size - len(game.hands[seat]), game.power[seat]
        cards = []
        for _ in range(rng.randrange(room + 1)):
            left = power - sum(cards)
            if left < 1:
                break
            cap = left if rng.random() < 0.3 else min(left, 12)
            cards.append(rng.randint(1, cap))
        return Create(seat, tuple(sorted(cards, reverse=True)))
    cards = [v for v in game.hands[seat] if rng.random() < 0.6]
    backup = 0
    if game.backups_left[seat] and rng.random() < 0.4:
        backup = rng.randint(1, 3)
    return Play(seat, tuple(cards), backup)


def check_invariants(game: DuelingDecks) -> None:
    size = game.deck_size
    for seat in game.seats:
        created = sum(sum(c["cards"][seat]) for c in game.created)
        assert game.power[seat] == 50 - created >= 0
        assert len(game.hands[seat]) <= size
        assert game.hands[seat] == sorted(game.hands[seat], reverse=True)
        assert 0 <= game.backups_left[seat] <= (2 if game.has("backup") else 0)
    # Every prize goes out whole: to one seat, or split in halves.
    assert sum(game.points.values()) == sum(2 * entry["prize"] for entry in game.history)
    assert len(game.history) <= 7 and len(game.created) <= 7
    if game.is_over:
        assert game.to_move() == () and game.phase == "over"
    else:
        assert game.to_move(), "a running task names nobody to move"
    data = game.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert load(data) == game
    for seat in (None, *game.seats):
        view = game.view(seat)
        assert json.loads(json.dumps(view)) == view


def check_result(game: DuelingDecks) -> None:
    outcome, result = game.outcome(), game.result
    assert outcome is not None and outcome.winner in game.seats and result is not None
    winner, loser = outcome.winner, "p2" if outcome.winner == "p1" else "p1"
    goal = 50  # 25 points in halves
    if result["reason"] == "reached-25":
        assert game.points[winner] >= goal > game.points[loser]
    elif result["reason"] == "both-25":
        assert min(game.points.values()) >= goal and result["tiebreak"] == winner
        assert game.has("pick-your-prize")  # 49 points in all cannot make two 25s
    else:
        assert result["reason"] == "prizes-used" and len(game.history) == 7
        assert max(game.points.values()) < goal
        if not game.has("pick-your-prize"):
            assert game.points == {"p1": 49, "p2": 49}  # 49 points go out: 24.5 each (ruling 8)
        assert game.points[winner] > game.points[loser] or (
            game.points[winner] == game.points[loser] and result["tiebreak"] == winner
        )


def noise(rng: random.Random, texts: list[str]) -> str:
    """Text a player might send: a legal text bent out of shape, or noise."""
    if not texts or rng.random() < 0.3:
        alphabet = string.ascii_letters + string.digits + " -,.;+&()٣éß漢"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 16)))
    text = rng.choice(texts)
    choice = rng.randrange(5)
    if choice == 0:
        return text.upper()
    if choice == 1:
        return text[: rng.randrange(len(text) + 1)]
    if choice == 2:
        return text + rng.choice([" 0", " 99", " backup", " backup 9", " none", "9999999", ".5"])
    if choice == 3:
        cut = rng.randrange(len(text) + 1)
        return text[:cut] + rng.choice(string.printable) + text[cut:]
    return " ".join(reversed(text.split()))


def play_out(game: DuelingDecks, rng: random.Random, *, garbage: bool = False) -> DuelingDecks:
    for _ in range(60):
        check_invariants(game)
        if game.is_over:
            break
        seat = rng.choice(game.to_move())
        if garbage:
            texts = [m.text() for m in itertools.islice(game.legal_moves(seat), 30)]
            for _ in range(3):
                before = game.to_dict()
                text, who = noise(rng, texts), rng.choice(game.seats)
                try:
                    move = game.parse_move(text, who, private=rng.random() < 0.8)
                except GameError:
                    pass
                else:
                    assert move.seat == who and game.is_legal(move)
                assert game.to_dict() == before
        if rng.random() < 0.1:
            game.timeout(seat)
            continue
        move = random_move(game, seat, rng)
        if rng.random() < 0.5:
            assert game.parse_move(move.text(), seat, private=True) == move
        game.play(move)
    assert game.is_over, "a task must end within its seven rounds"
    check_result(game)
    return game


@pytest.mark.slow
@SETTINGS
@given(combo=st.sampled_from(COMBINATIONS), seed=st.integers(0, 10**6), choices=st.randoms(use_true_random=False))
def test_random_tasks_with_any_anomalies_keep_the_invariants_and_end(combo, seed, choices):
    play_out(DuelingDecks.new(seed=seed, anomalies=combo), choices)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(combo=st.sampled_from(COMBINATIONS), choices=st.randoms(use_true_random=False))
def test_random_text_is_refused_only_with_a_game_error_that_changes_nothing(combo, choices):
    play_out(DuelingDecks.new(seed=5, anomalies=combo), choices, garbage=True)


@pytest.mark.slow
def test_every_combination_plays_to_the_end():
    for index, combo in enumerate(COMBINATIONS):
        play_out(DuelingDecks.new(seed=index, anomalies=combo), random.Random(index))


@pytest.mark.slow
@SETTINGS
@given(combo=st.sampled_from(COMBINATIONS), choices=st.randoms(use_true_random=False))
def test_simultaneous_submissions_in_either_order_give_the_same_task(combo, choices):
    game = DuelingDecks.new(seed=11, anomalies=combo)
    while not game.is_over:
        movers = game.to_move()
        if len(movers) < 2:
            game.play(random_move(game, movers[0], choices))
            continue
        a, b = random_move(game, "p1", choices), random_move(game, "p2", choices)
        one, two = game.copy(), game.copy()
        one.play(a)
        one.play(b)
        two.play(b)
        two.play(a)
        assert one.to_dict() == two.to_dict()
        for seat in (None, "p1", "p2"):
            assert one.view(seat) == two.view(seat)
        game = one


@pytest.mark.slow
@SETTINGS
@given(combo=st.sampled_from(COMBINATIONS), choices=st.randoms(use_true_random=False))
def test_a_sealed_submission_changes_nothing_the_room_or_the_opponent_sees(combo, choices):
    game = DuelingDecks.new(seed=13, anomalies=combo)
    while not game.is_over:
        movers = game.to_move()
        if "p1" in movers and "p2" in movers:
            a, b = random_move(game, "p1", choices), random_move(game, "p1", choices)
            one, two = game.copy(), game.copy()
            assert outside_p1(one, one.play(a)) == outside_p1(two, two.play(b))
        game.play(random_move(game, choices.choice(movers), choices))


def test_the_random_moves_are_legal_and_cover_both_kinds():
    for anomalies in ("backup", "revolution"):
        game = DuelingDecks.new(seed=2, anomalies=anomalies)
        rng = random.Random(2)
        kinds = set()
        while not game.is_over:
            seat = game.to_move()[0]
            legal = set(game.legal_moves(seat))
            for _ in range(20):
                assert random_move(game, seat, rng) in legal
            move = random_move(game, seat, rng)
            kinds.add(type(move))
            game.play(move)
        assert kinds == {Create, Play}


DARK_COMBINATIONS = [c for c in COMBINATIONS if "darkness" in c]


@pytest.mark.slow
@SETTINGS
@given(combo=st.sampled_from(DARK_COMBINATIONS), choices=st.randoms(use_true_random=False))
def test_under_darkness_no_play_reaches_the_room_or_the_opponent_before_the_end(combo, choices):
    game = DuelingDecks.new(seed=17, anomalies=combo)
    pyp = game.has("pick-your-prize")
    while not game.is_over:
        seat = choices.choice(game.to_move())
        events = game.timeout(seat) if choices.random() < 0.1 else game.play(random_move(game, seat, choices))
        ended = game.is_over
        for event in events:
            if event.public and not (ended and event.kind in ("reveal", "end")):
                assert not {"plays", "sums", "counted", "cards"} & set(event.data) or event.kind == "created"
                assert not pyp or not {"prize", "points"} & set(event.data)
            if not event.public:
                assert len(event.seats) == 1
        if ended:
            break
        for viewer in (None, "p1", "p2"):
            view = game.view(viewer)
            for other in ("p1", "p2"):
                if other == viewer:
                    continue
                assert view["hands"][other] is None
                assert all(entry["plays"][other] is None for entry in view["history"])
                if view["backups_left"] is not None:
                    assert view["backups_left"][other] is None
            assert all(entry["sums"] is None and entry["counted"] is None for entry in view["history"])
            if pyp:
                assert view["points"] == {"p1": None, "p2": None}
                assert all(entry["prize"] is None and entry["points"] is None for entry in view["history"])
    # Then everything shows.
    view = game.view(None)
    assert all(entry["plays"]["p1"] is not None and entry["sums"] is not None for entry in view["history"])
    assert None not in view["points"].values()
