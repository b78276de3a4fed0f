"""All Hands On Deck, whole matches at random: random bans, Overrides, All-Ins, timeouts and task
moves to the end, with the match's invariants checked at every step; round trips through the
saved state and the written record; any text is a move or a GameError that changes nothing."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.adjudicate import adjudicate
from geniusbot.games import SEATS, GameError, load, other_seat
from geniusbot.games.allhands.common import TASK_ANOMALIES
from geniusbot.games.allhands.final import TARGET, active_count, override_allowed, points_for
from geniusbot.record import format_record, parse_record, record_from_game

from .allhands_helpers import make, step

ITEMS = ["", "p1 all-in", "p1 all-in override clock; p2 all-in override", "p2 override clock", "p1 override; p2 all-in"]
SETTINGS = settings(max_examples=25, deadline=None)


def check_step(game) -> None:
    """Invariants of every position of a match."""
    movers = game.to_move()
    assert set(movers) <= set(SEATS)
    for seat in SEATS:
        if seat not in movers:
            assert next(game.legal_moves(seat), None) is None
    if game.is_over:
        assert movers == () and game.window() is None
    elif game.window() is None:
        assert movers and next(game.legal_moves(), None) is not None
    assert game.points == {s: sum(p["points"] for p in game.plays if p["winner"] == s) for s in SEATS}
    for seat in (None, *SEATS):
        view = game.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert view["task"] == (game.task.view(seat) if game.phase == "task" else None)
        assert view["points"] == game.points
        if seat is None:
            assert view["sealed"] is None


def check_history(game) -> None:
    """What the finished plays say about the rules of selection, items and points."""
    played: dict[str, list[frozenset[str]]] = {t: [] for t in TASK_ANOMALIES}
    previous_winner = game.first
    all_ins = {s: 0 for s in SEATS}
    overrides = {s: 0 for s in SEATS}
    for play in game.plays:
        task, time, chosen = play["task"], play["time"], play["anomalies"]
        assert len(chosen) == active_count(time) and set(chosen) <= set(TASK_ANOMALIES[task])
        before = played[task]
        if play["override"]:
            overrides[play["override"]] += 1
            assert override_allowed(time) and frozenset(chosen) not in before and play["bans"] == []
        else:
            unplayed = set(TASK_ANOMALIES[task]) - set().union(*before) if before else set(TASK_ANOMALIES[task])
            if time in (3, 4):
                assert set(chosen) <= unplayed
            bans = [b["anomaly"] for b in play["bans"]]
            pool = set(TASK_ANOMALIES[task]) if time in (2, 5) else (unplayed if time > 1 else set())
            assert set(chosen) == pool - set(bans) and len(set(bans)) == len(bans)
            # The previous play's winner bans first, then the players alternate.
            assert [b["seat"] for b in play["bans"]] == [
                previous_winner if i % 2 == 0 else other_seat(previous_winner) for i in range(len(bans))
            ]
        for seat in play["all_in"]:
            all_ins[seat] += 1
        assert play["points"] == points_for(time, len(play["all_in"]))
        played[task].append(frozenset(chosen))
        previous_winner = play["winner"]
    assert all(all_ins[s] <= int("all-in" in game.given[s]) for s in SEATS)
    assert all(overrides[s] <= (2 if "override" in game.given[s] else 0) for s in SEATS)
    reached = [s for s in SEATS if game.points[s] >= TARGET]
    if game.is_over and game.result["reason"] == "target":
        assert reached == [game.outcome().winner]
        # Nobody had 23 before the last play.
        last = game.plays[-1]
        assert game.points[last["winner"]] - last["points"] < TARGET
    else:
        assert reached == []


def play_match(seed: int, items: str, first: str, *, checks: bool = True, lines: list | None = None):
    rng = random.Random(f"allhands:{seed}:{items}:{first}")
    game = make(seed=seed, items=items, first=first)
    for n in range(3000):
        if checks and (n % 3 == 0 or game.phase != "task"):
            check_step(game)
        if game.is_over:
            break
        kind, seat, text, private, _ = step(game, rng)
        if lines is not None:
            lines.append(("host", text, False) if kind != "move" else (seat, text, private))
        if checks and n % 25 == 0:
            assert load(game.to_dict()) == game
    assert game.is_over
    check_step(game)
    check_history(game)
    return game


# Each example is a whole match (15 plays, some 500 steps, the invariants checked at every third):
# the slowest property test of the games (8 s at 25 examples). Twelve keep every item set and first
# seat drawn; the 12 matches of the next test and the conformance suite's play more whole matches.
@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), items=st.sampled_from(ITEMS), first=st.sampled_from(SEATS))
def test_random_matches_run_to_a_winner_at_23_keeping_every_rule(seed, items, first):
    game = play_match(seed, items, first)
    assert game.outcome().winner in SEATS
    assert load(json.loads(json.dumps(game.to_dict()))) == game


@pytest.mark.slow
def test_every_phase_and_item_is_reached_by_the_random_matches():
    seen_phases, used = set(), {"override": 0, "all_in": 0, "timeout_ban": 0}
    for seed in range(12):
        game = play_match(seed, ITEMS[2], SEATS[seed % 2], checks=False)
        for play in game.plays:
            used["override"] += bool(play["override"])
            used["all_in"] += len(play["all_in"])
            used["timeout_ban"] += sum(b["timeout"] for b in play["bans"])
            seen_phases.add(play["time"])
    assert seen_phases == {1, 2, 3, 4, 5}
    assert all(count > 0 for count in used.values()), used


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), items=st.sampled_from(ITEMS))
def test_the_record_of_a_match_replays_to_the_same_match(seed, items):
    lines: list = []
    game = play_match(seed, items, "p1", checks=False, lines=lines)
    start = make(seed=seed, items=items, first="p1")
    record = record_from_game(start, lines)
    assert any(private for _, _, private in lines)  # "p1 (dm): ..." lines are in it
    result = adjudicate(parse_record(format_record(record)))
    assert [a.error for a in result.actions if not a.accepted] == []
    assert result.game == game


def texts_for(game, rng: random.Random) -> list[str]:
    words = [
        "ban",
        "use",
        "override",
        "all-in",
        "pass",
        "chain",
        "backup",
        "hook",
        "rectangle adverse",
        "pick your prize",
        "play",
        "create",
        "mines",
        "call",
        "snipe",
        "none",
        "D4",
        "A1",
        "20",
        "red",
    ]
    legal = [m.text() for m, _ in zip(game.legal_moves(), range(30), strict=False)]
    out = []
    for _ in range(12):
        kind = rng.randrange(3)
        if kind == 0 and legal:
            text = rng.choice(legal)
            out.append(text[: rng.randrange(len(text) + 1)] + rng.choice(["", " x", "9", ","]))
        elif kind == 1:
            out.append(" ".join(rng.choice(words) for _ in range(rng.randrange(1, 5))))
        else:
            out.append("".join(rng.choice("abcxyz -,;:!é漢0123456789") for _ in range(rng.randrange(12))))
    return out


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 120), items=st.sampled_from(ITEMS))
def test_any_text_is_a_legal_move_or_a_game_error_that_changes_nothing(seed, stop, items):
    rng = random.Random(seed)
    game = make(seed=seed, items=items)
    for _ in range(stop):
        if game.is_over:
            break
        step(game, rng)
    before = game.to_dict()
    for text in texts_for(game, rng):
        for seat in SEATS:
            for private in (False, True):
                try:
                    move = game.parse_move(text, seat, private=private)
                except GameError as error:
                    assert str(error).strip()
                    continue
                assert move.seat == seat and game.is_legal(move)
    assert game.to_dict() == before


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 150))
def test_the_same_moves_from_the_same_seed_give_the_same_match(seed, stop):
    rng = random.Random(seed)
    game = make(seed=seed, items=ITEMS[2])
    lines = []
    for _ in range(stop):
        if game.is_over:
            break
        kind, seat, text, private, _ = step(game, rng)
        lines.append((kind, seat, text, private))
    again = make(seed=seed, items=ITEMS[2])
    for kind, seat, text, private in lines:
        if kind == "window":
            again.close_window()
        elif kind == "timeout":
            again.timeout(seat)
        else:
            again.submit(text, seat, private=private)
    assert again == game
