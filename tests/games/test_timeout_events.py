"""A timeout that does not end the game is said by an event of kind ``timeout`` naming its seat as
data (``EventKind.TIMEOUT``), so a host finds it by its kind, never by its words."""

from __future__ import annotations

from geniusbot.games import EventKind, Termination, get_game
from tests.games.allhands_helpers import make, play_to, win_task


def test_the_timeout_kind_is_a_kind_every_host_understands():
    assert EventKind.TIMEOUT == "timeout" and EventKind("timeout") is EventKind.TIMEOUT


def test_dueling_decks_says_a_seat_that_ran_out_of_time_by_a_timeout_event():
    game = get_game("decks").new(seed=3)
    [event, *_] = game.timeout("p1")
    assert event.kind == EventKind.TIMEOUT and event.data["seat"] == "p1" and event.public
    assert event.text.startswith("p1 ran out of time")


def test_arms_lengths_choice_drawn_by_lot_is_the_dmos_timeout():
    game = get_game("armslength").new(seed=0, dmo="p2")
    [event] = game.timeout("p2")
    assert event.kind == EventKind.TIMEOUT and event.data["seat"] == "p2" and event.data["by_lot"] is True
    assert event.text.startswith("p2 ran out of time")


def test_a_timeout_that_ends_the_game_is_its_end_with_the_seat_as_data():
    game = get_game("tictacfive").new(seed=0)
    [event] = game.timeout("p1")
    assert event.kind == EventKind.END
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.TIME and outcome.data["seat"] == "p1"


def test_deck_swabbing_lost_on_time_names_the_seat_in_its_outcome():
    game = get_game("swabbing").new(seed=0)
    [mover] = game.to_move()
    game.timeout(mover)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.TIME and outcome.data["seat"] == mover


def test_all_hands_says_a_task_lost_on_time_as_the_seats_timeout_and_keeps_its_end_as_data():
    game = make()
    events = win_task(game, "p2")  # p1 lets its clock run out in the first task
    [said] = [e for e in events if e.kind == EventKind.TIMEOUT and e.data["seat"] == "p1"]
    assert said.public and said.text.startswith("p1 ran out of time") and said.data["play"] == 1
    [end] = [e for e in events if e.kind == "task-end"]
    assert end.text == "" and end.data["termination"] == "time" and end.data["play"] == 1


def test_all_hands_says_a_ban_or_an_override_decided_by_the_clock_as_a_timeout():
    game = make()
    play_to(game, 4, "p1 p1 p1")
    [ban, *_] = game.timeout("p1")
    assert ban.kind == EventKind.TIMEOUT and ban.data["seat"] == "p1" and ban.data["timeout"] is True


def test_all_hands_says_an_override_passed_on_time_as_a_timeout():
    game = make(items="p2 override")
    play_to(game, 4, "p1 p1 p1")
    [passed, *_] = game.timeout("p2")
    assert passed.kind == EventKind.TIMEOUT and passed.data["seat"] == "p2" and passed.data["used"] is False
