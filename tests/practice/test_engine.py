"""The practice opponent plays legal moves from what its seat has seen, and the same knowledge and
seed give the same move."""

from __future__ import annotations

import random

import pytest

from geniusbot.games import get_game
from geniusbot.practice import Budget, Knowledge, PracticeError, choose

from .positions import CASES, Match, case_id


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_move_of_the_engine_is_legal_in_random_positions(case):
    name, variant, options = case
    for seed in range(2):
        match, rng = Match(name, variant, options, seed), random.Random(seed)
        for number, seat in enumerate(match.positions(rng, limit=40)):
            if number % 5:
                continue
            choice = choose(match.knowledge(seat), Budget(8), seed=number)
            move = match.game.parse_move(choice.text, seat, private=choice.private)
            assert match.game.is_legal(move)
            assert choice.private == match.game.is_private(move)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if not get_game(c[0]).perfect_information], ids=case_id)
def test_a_determinization_shows_the_seat_the_view_it_saw(case):
    name, variant, options = case
    cls = get_game(name)
    for seed in range(3):
        match, rng = Match(name, variant, options, seed), random.Random(seed)
        for seat in match.positions(rng, limit=30):
            for other in match.game.seats:
                drawn = cls.determinize(
                    other, match.views[other], random.Random(seed), variant=variant or "", **options
                )
                if drawn is None:
                    continue
                seen, shown = match.game.view(other), drawn.view(other)
                task_seen, task_shown = seen.get("task") or seen, shown.get("task") or shown
                if "darkness" in task_seen.get("anomalies", ()):
                    # Dueling Decks' Darkness: the other seat's plays are drawn to give each round's
                    # winner, not its hand ever after; what the seat holds and may do is the same.
                    for key in ("phase", "round", "to_move", "submitted", "sealed"):
                        assert task_shown[key] == task_seen[key], key
                    assert task_shown["hands"][other] == task_seen["hands"][other]
                else:
                    assert shown == seen


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if "landmine" in c[2].get("anomalies", "")], ids=case_id)
def test_two_games_with_the_same_views_get_the_same_move(case):
    """Fair by construction: p2's mines differ between the two games, p1's views do not (until a
    mine goes off), and neither do p1's moves."""
    name, variant, options = case
    compared = 0
    for seed in range(4):
        one, two = Match(name, variant, options, seed), Match(name, variant, options, seed)
        p2_moves = random.Random(seed + 100)
        for _ in range(80):
            if one.game.is_over or one.game.view("p1") != two.game.view("p1"):
                break
            if not one.game.to_move():
                for match in (one, two):
                    match.game.close_window()
                    match.look()
                continue
            seat = one.game.to_move()[0]
            if seat == "p1":
                knowing = [m.knowledge("p1") for m in (one, two)]
                assert knowing[0] == knowing[1]
                choice = choose(knowing[0], Budget(10), seed=seed)
                assert choose(knowing[1], Budget(10), seed=seed) == choice
                compared += 1
                for match in (one, two):
                    match.play(choice.text, "p1", choice.private)
            elif one.game.view(None)["phase"] == "landmines":
                for match, mines in ((one, "mines A1 B1 C1 D1 E1"), (two, "mines A7 B7 C7 D7 E7")):
                    match.play(mines, "p2", True)
            else:
                text, private = one.random_move("p2", p2_moves)
                for match in (one, two):
                    match.play(text, "p2", private)
        assert one.game.state_dict()["mines"] != two.game.state_dict()["mines"]
    assert compared >= 4


def test_knowledge_without_a_view_is_refused_with_a_sentence():
    knowledge = Knowledge("tiles", "standard", {}, "p1", [])
    with pytest.raises(PracticeError, match="seen no view"):
        choose(knowledge, Budget(5))


@pytest.mark.slow
def test_a_final_matchs_determinizations_show_the_seat_its_views_in_every_phase():
    """Bans, the Override, the All-In answers and the three tasks, over whole random matches."""
    name, variant, options = next(c for c in CASES if c[0] == "allhands")
    cls, phases = get_game(name), set()
    for seed in range(2):
        match, rng = Match(name, variant, options, seed), random.Random(seed)
        for _ in match.positions(rng, limit=600):
            view = match.game.view(None)
            phases.add((view["phase"], (view["current"] or {}).get("task")))
            for other in match.game.seats:
                drawn = cls.determinize(other, match.views[other], random.Random(seed), variant="", **options)
                seen = match.game.view(other)
                if drawn is not None and "darkness" not in (seen["task"] or {}).get("anomalies", ()):
                    assert drawn.view(other) == seen
    tasks = ("tiles", "decks", "swabbing")
    assert {(phase, task) for phase in ("ban", "override", "items", "task") for task in tasks} <= phases


def test_a_wall_time_budget_stops_the_search_by_the_injected_clock():
    """The clock is the caller's: each look at it here moves it on 50 ms, so a 1 s budget ends
    the search after a handful of iterations whatever the iteration budget."""
    match = Match("tictacfive", None, {}, 1)
    for text in ("H8", "H9", "I8"):
        match.play(text, "p1", False)
    match.play("black", "p2", False)
    ticks = iter(range(10_000))
    choice = choose(match.knowledge("p1"), Budget(10_000, 1.0), seed=1, now=lambda: next(ticks) * 0.05)
    assert 1 <= choice.iterations < 25
    assert match.game.is_legal(match.game.parse_move(choice.text, "p1"))


def test_a_twin_is_drawn_from_the_seats_view_alone():
    """``Game.twin`` is the game's ``determinize`` given the seat's view of now: a twin shows the
    seat its view, and a twin of the twin (the same view) with the same seed is the same game."""
    game = get_game("tiles").new(seed=3, anomalies="landmine")
    game.close_window()
    for seat, mines in (("p1", "mines A1 B2 C3 E6 G7"), ("p2", "mines A7 B6 F2 G1 G3")):
        game.submit(mines, seat, private=True)
    game.submit("call red", game.to_move()[0])
    seat = game.to_move()[0]
    twin = game.twin(seat, 5)
    assert twin is not None and twin.view(seat) == game.view(seat)
    assert twin != game  # the grid and the other seat's mines are drawn anew
    assert twin.twin(seat, 5) == game.twin(seat, 5)


def test_a_plug_in_game_without_a_determinization_is_refused_with_a_sentence():
    """Black and White (the plug-in example) keeps its tiles hidden and has no hooks: the
    opponent says it cannot play it, and what to do instead."""
    game = get_game("blackwhite").new(seed=1)
    seat = game.to_move()[0]
    knowledge = Knowledge("blackwhite", game.variant, {}, seat, [game.view(seat)])
    with pytest.raises(PracticeError, match="no determinize hook.*two people"):
        choose(knowledge, Budget(5))
