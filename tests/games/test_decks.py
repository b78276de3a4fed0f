"""Dueling Decks, scenario by scenario, in the words of the rule text (seed 001, Task 2)."""

from __future__ import annotations

import pytest

from geniusbot.games import (
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    OptionError,
    get_game,
    load,
    new_game,
)
from geniusbot.games.allhands.decks import (
    ANOMALIES,
    Create,
    DuelingDecks,
    Play,
    board_text,
    deal_prizes,
    parse_anomalies,
    pick_your_prize_value,
)

from .decks_helpers import both, make, points, refused, send

# --------------------------------------------------------------------------- the start


def test_each_player_starts_with_50_power_no_points_and_an_empty_hand():
    view = make().view()
    assert view["power"] == {"p1": 50, "p2": 50}
    assert view["points"] == {"p1": 0, "p2": 0}
    assert view["hands"] == {"p1": [], "p2": []}
    assert view["phase"] == "create" and view["round"] == 1 and view["rounds"] == 7
    assert view["to_move"] == ["p1", "p2"] and view["deck_size"] == 2


def test_seven_prize_cards_4_to_10_are_shuffled_from_the_seed_and_shown_in_order():
    game = new_game("decks", seed=42)
    assert sorted(game.view()["prizes"]) == [4, 5, 6, 7, 8, 9, 10]
    assert game.view()["prizes"] == deal_prizes(42) == new_game("decks", seed=42).view()["prizes"]
    assert game.view()["prize"] == game.view()["prizes"][0]
    orders = {tuple(deal_prizes(seed)) for seed in range(20)}
    assert len(orders) > 10
    text = game.opening_events()[0].text
    assert text.startswith("The prize cards, in order: " + ", ".join(map(str, deal_prizes(42))))


def test_the_game_is_registered_under_its_name():
    assert get_game("decks") is DuelingDecks
    assert get_game("Dueling Decks") is DuelingDecks


# --------------------------------------------------------------------------- options


def test_anomalies_are_read_from_the_option_in_any_spelling():
    assert parse_anomalies("") == parse_anomalies("none") == ()
    assert parse_anomalies("Pick Your Prize, backup") == ("backup", "pick-your-prize")
    assert parse_anomalies("revolution;overshadow darkness") == ("darkness", "overshadow", "revolution")
    assert parse_anomalies(",".join(ANOMALIES)) == ANOMALIES


@pytest.mark.parametrize(
    ("option", "text", "fragment"),
    [
        ("anomalies", "chain", "another task"),
        ("anomalies", "jokers", "no anomaly"),
        ("tiebreak", "p3", "p1 or p2"),
        ("starter", "whoever", "p1 or p2"),
    ],
)
def test_bad_options_are_refused_with_the_choices(option, text, fragment):
    with pytest.raises(OptionError) as caught:
        DuelingDecks.new(seed=1, **{option: text})
    assert fragment in str(caught.value)


def test_overshadow_or_revolution_makes_the_deck_three_cards_and_both_still_three():
    assert make("overshadow").view()["deck_size"] == 3
    assert make("revolution").view()["deck_size"] == 3
    assert make("overshadow, revolution").view()["deck_size"] == 3
    assert make("backup, darkness, pick-your-prize").view()["deck_size"] == 2


# --------------------------------------------------------------------------- creating cards


def test_created_cards_cost_their_value_in_power_and_then_show_in_the_public_hands():
    game = make()
    events = both(game, "create 15 20", "create 30")
    view = game.view()
    assert view["power"] == {"p1": 15, "p2": 20}
    assert view["hands"] == {"p1": [20, 15], "p2": [30]}
    assert view["created"] == [{"round": 1, "cards": {"p1": [20, 15], "p2": [30]}}]
    assert view["phase"] == "play" and view["to_move"] == ["p1", "p2"]
    created = [e for e in events if e.kind == "created"]
    assert created and created[0].public and "p1 creates 20, 15; p2 creates 30" in created[0].text


def test_a_player_may_spend_power_down_to_exactly_zero_but_never_below():
    game = make()
    assert refused(game, "create 30 21", "p1", error=IllegalMoveError) == (
        "You have 50 power left and 30 + 21 = 51 would take you below 0; create cards worth at most 50 in all."
    )
    # One card is named as a card, not summed with itself ("60 = 60").
    assert refused(game, "create 60", "p1", error=IllegalMoveError) == (
        "You have 50 power left and a card of 60 would take you below 0; create cards worth at most 50 in all."
    )
    both(game, "create 30 20", "create none")
    assert game.view()["power"] == {"p1": 0, "p2": 50}
    assert game.view()["hands"]["p2"] == []


def test_a_hand_holds_at_most_the_deck_size_and_cards_cannot_be_discarded():
    game = make()
    message = refused(game, "create 1 2 3", "p1", error=IllegalMoveError)
    assert "at most 2 cards" in message
    both(game, "create 10 5", "create 10")
    both(game, "play 10", "play none")  # p1 wins 10 with 10 against nothing
    assert game.view()["hands"] == {"p1": [5], "p2": [10]}
    assert "create at most 1 card" in refused(game, "create 3 3", "p1", error=IllegalMoveError)
    both(game, "create 7", "create 1")
    assert game.view()["hands"] == {"p1": [7, 5], "p2": [10, 1]}


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("create 0", IllegalMoveError, "at least 1"),
        ("create 2.5", MalformedMoveError, "whole numbers"),
        ("create -5", MalformedMoveError, "not a move"),
        ("create 99999999999999999999999999", IllegalMoveError, "50 power left"),
        ("create", MalformedMoveError, "create none"),
        ("create ten", MalformedMoveError, "not a card value"),
        ("create 10 backup 3", MalformedMoveError, "when you play"),
        ("20 15", MalformedMoveError, "Start with create or play"),
        ("play 20", IllegalMoveError, "create phase"),
    ],
)
def test_malformed_or_impossible_creations_are_refused_with_what_to_send(text, error, fragment):
    game = make()
    assert fragment in refused(game, text, "p1", error=error)


def test_creations_read_in_any_order_and_with_commas():
    game = make()
    assert game.parse_move("create 5, 20", "p1", private=True) == Create("p1", (20, 5))
    assert game.parse_move("CREATE 20 and 5.", "p1", private=True) == Create("p1", (20, 5))
    assert game.parse_move("create none", "p1", private=True) == Create("p1", ())
    assert Create("p1", (20, 5)).text() == "create 20 5" and Create("p1", ()).text() == "create none"


def test_creating_twice_is_allowed_as_two_equal_cards():
    game = make()
    both(game, "create 20 20", "create none")
    assert game.view()["hands"]["p1"] == [20, 20] and game.view()["power"]["p1"] == 10


# --------------------------------------------------------------------------- sealed submissions


def test_creations_and_plays_are_sent_by_direct_message_only():
    game = make()
    assert "direct message" in refused(game, "create 20", "p1", private=False, error=IllegalMoveError)
    both(game, "create 20", "create 20")
    assert "direct message" in refused(game, "play 20", "p2", private=False, error=IllegalMoveError)


def test_the_first_submission_of_a_phase_stands_and_a_second_is_refused():
    game = make()
    send(game, "p1", "create 20")
    message = refused(game, "create 30", "p1", error=NotYourTurnError)
    assert "already sent your creations" in message and "first one stands" in message
    assert game.to_move() == ("p2",)
    send(game, "p2", "create 5")
    assert game.view()["hands"]["p1"] == [20]


def test_simultaneous_submissions_give_the_same_result_in_either_order():
    scripts = [
        ("create 20 15", "create 30 5"),
        ("play 20", "play 30"),
        ("create 10", "create none"),
        ("play 15 10", "play 5"),
    ]
    games = {}
    for first in ("p1", "p2"):
        game = make("backup, overshadow")
        for p1, p2 in scripts:
            both(game, p1, p2, first=first)
        games[first] = game
    assert games["p1"].to_dict() == games["p2"].to_dict()
    assert games["p1"].view() == games["p2"].view()


def test_a_seat_with_its_submission_in_leaves_the_seats_to_move():
    game = make()
    send(game, "p2", "create 10")
    assert game.to_move() == ("p1",)
    assert list(game.legal_moves("p2")) == []
    assert game.view()["submitted"] == {"p1": False, "p2": True}


# --------------------------------------------------------------------------- rounds


def test_the_higher_sum_scores_the_prize_and_played_cards_are_discarded():
    game = make(prizes=(8, 9, 10, 7, 6, 5, 4))
    both(game, "create 20 15", "create 30 5")
    events = both(game, "play 20 15", "play 30")
    assert points(game) == {"p1": 8, "p2": 0}
    assert game.view()["hands"] == {"p1": [], "p2": [5]}
    last = game.view()["history"][-1]
    assert last["sums"] == {"p1": 35, "p2": 30} and last["winner"] == "p1" and last["prize"] == 8
    assert last["plays"]["p1"] == {"cards": [20, 15], "backup": 0}
    round_event = next(e for e in events if e.kind == "round")
    assert round_event.public and round_event.text == (
        "Round 1, prize 8: p1 played 20, 15 = 35; p2 played 30 = 30; p1 wins the round. Points: p1 8, p2 0."
    )
    assert game.view()["phase"] == "create" and game.view()["round"] == 2 and game.view()["prize"] == 9


def test_a_player_may_keep_cards_for_later_rounds():
    game = make()
    both(game, "create 20 15", "create 10")
    both(game, "play 15", "play 10")
    assert game.view()["hands"] == {"p1": [20], "p2": []}


def test_equal_sums_split_the_prize_allowing_halves():
    game = make(prizes=(7, 9, 10, 8, 6, 5, 4))
    both(game, "create 20", "create 20")
    both(game, "play 20", "play 20")
    assert points(game) == {"p1": 3.5, "p2": 3.5}
    assert game.view()["history"][-1]["winner"] is None


def test_playing_nothing_against_nothing_splits_the_prize():
    game = make()
    both(game, "create 5", "create 5")
    both(game, "play none", "play none")
    assert points(game) == {"p1": 5, "p2": 5}


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("play 30", IllegalMoveError, "no 30 in your hand"),
        ("play 20 20", IllegalMoveError, "only 1 card of 20"),
        ("play", MalformedMoveError, "play none"),
        ("play 20 backup 3", IllegalMoveError, "Backup is not active"),
        ("create 5", IllegalMoveError, "play phase"),
        ("play 20 or so", MalformedMoveError, "not a card value"),
    ],
)
def test_plays_must_come_from_the_hand(text, error, fragment):
    game = make()
    both(game, "create 20 15", "create 10")
    assert fragment in refused(game, text, "p1", error=error)


def test_plays_read_in_any_order():
    game = make()
    both(game, "create 20 15", "create 10")
    assert game.parse_move("play 15 20", "p1", private=True) == Play("p1", (20, 15), 0)
    assert game.parse_move("play none", "p1", private=True) == Play("p1", (), 0)
    assert Play("p1", (20, 15), 0).text() == "play 20 15" and Play("p1", (), 0).text() == "play none"


# --------------------------------------------------------------------------- the end


def test_the_first_player_to_reach_25_wins_at_once():
    game = make()  # prizes 10, 9, 8 ...
    both(game, "create 10 10", "create 1 1")
    both(game, "play 10", "play 1")
    both(game, "create none", "create none")  # hands: p1 [10], p2 [1]
    both(game, "play 10", "play 1")
    assert points(game) == {"p1": 19, "p2": 0}
    both(game, "create 10", "create 1")
    events = both(game, "play 10", "play 1")
    assert game.outcome().winner == "p1"
    assert points(game) == {"p1": 27, "p2": 0}
    assert game.view()["result"] == {"reason": "reached-25", "tiebreak": None}
    assert game.to_move() == () and "p1 reached 25 points" in events[-1].text
    assert "over" in refused(game, "create 5", "p2", error=NotYourTurnError)


def test_equal_scores_after_seven_prizes_go_to_the_tiebreak_option():
    for tiebreak in ("p1", "p2"):
        game = make(prizes=(10, 9, 8, 7, 6, 5, 4), tiebreak=tiebreak)
        both(game, "create 25", "create 25")
        both(game, "play 25", "play 25")  # split 10: 5 - 5
        both(game, "create 20", "create 20")
        both(game, "play 20", "play 20")  # split 9: 9.5 - 9.5
        both(game, "create 5", "create 5")
        both(game, "play 5", "play 5")  # split 8: 13.5 - 13.5
        # No power, no cards: the remaining rounds split on their own: 17, 20, 22.5, 24.5.
        assert game.is_over and game.view()["power"] == {"p1": 0, "p2": 0}
        assert points(game) == {"p1": 24.5, "p2": 24.5}
        assert game.outcome().winner == tiebreak
        assert game.view()["result"] == {"reason": "prizes-used", "tiebreak": tiebreak}


def test_without_pick_your_prize_nobody_can_reach_25_at_the_same_time():
    # The seven prizes are worth 49 in all, so two scores of 25 need Pick Your Prize.
    assert sum(deal_prizes(3)) == 49 < 2 * 25


@pytest.mark.parametrize("tiebreak", ["p1", "p2"])
def test_both_reaching_25_in_one_split_goes_to_the_tiebreak_option(tiebreak):
    game = make("pick-your-prize", tiebreak=tiebreak)
    both(game, "create 2", "create 1")
    both(game, "play 2", "play 1")  # p1 wins a prize of 2 outright
    both(game, "create 46", "create 46")
    both(game, "play 46", "play 46")  # a split of 46: 25 - 23
    assert game.outcome().winner == "p1" and game.view()["result"]["reason"] == "reached-25"
    game = make("pick-your-prize", tiebreak=tiebreak)
    both(game, "create 50", "create 50")
    events = both(game, "play 50", "play 50")  # a split of 50: both reach 25 at once
    assert points(game) == {"p1": 25, "p2": 25}
    assert game.outcome().winner == tiebreak
    assert game.view()["result"] == {"reason": "both-25", "tiebreak": tiebreak}
    assert "Both reached 25 points at once" in events[-1].text


def test_a_double_25_without_the_option_goes_to_the_most_recent_round_won():
    game = make("pick-your-prize")
    both(game, "create 1", "create 2")
    both(game, "play 1", "play 2")  # p2 wins ceil(1.5) = 2 outright
    both(game, "create 2", "create 1")
    both(game, "play 2", "play 1")  # p1 wins 2 outright: the most recent round won
    both(game, "create 46", "create 46")
    events = both(game, "play 46", "play 46")  # a split of 46: both pass 25 at once
    assert points(game) == {"p1": 25, "p2": 25}
    assert game.outcome().winner == "p1"
    assert game.view()["result"] == {"reason": "both-25", "tiebreak": "p1"}
    assert "most recent round won (round 2)" in events[-1].text


def test_a_double_25_with_no_round_ever_won_goes_to_p2():
    game = make("pick-your-prize")
    both(game, "create 50", "create 50")
    both(game, "play 50", "play 50")
    assert points(game) == {"p1": 25, "p2": 25}
    assert game.outcome().winner == "p2"
    assert game.view()["result"] == {"reason": "both-25", "tiebreak": "p2"}


def test_a_split_on_the_last_prize_that_takes_one_seat_to_25_wins_for_it():
    game = make()  # 10, 9, 8, 7, 6, 5, 4
    both(game, "create 1", "create 2")
    both(game, "play 1", "play 2")  # p2 10
    both(game, "create 2", "create 1")
    both(game, "play 2", "play 1")  # p1 9
    for _ in range(4):
        both(game, "create 1", "create 1")
        both(game, "play 1", "play 1")  # splits of 8, 7, 6, 5
    assert points(game) == {"p1": 22, "p2": 23}
    both(game, "create 1", "create 1")
    both(game, "play 1", "play 1")  # split 4
    assert game.is_over and points(game) == {"p1": 24, "p2": 25}
    assert game.outcome().winner == "p2" and game.view()["result"]["reason"] == "reached-25"


def test_after_seven_prizes_with_nobody_at_25_the_higher_score_wins():
    # Without Pick Your Prize the 49 points all go out, so nobody at 25 means 24.5 each; with
    # it, a prize with no card played is worth nothing.
    game = make("pick-your-prize")
    events = both(game, "create 1", "create none")
    send(game, "p1", "play 1")  # p2 has no card: p1 wins a prize of 1
    for _ in range(6):
        events = both(game, "create none", "create none")  # then nobody plays: prizes of 0
    assert game.is_over and points(game) == {"p1": 1, "p2": 0}
    assert game.outcome().winner == "p1"
    assert game.view()["result"] == {"reason": "prizes-used", "tiebreak": None}
    assert "All seven prizes are used" in events[-1].text


def test_equal_scores_after_seven_prizes_go_to_the_last_round_won():
    game = make()  # 10, 9, 8, 7, 6, 5, 4
    both(game, "create 2", "create 1")
    both(game, "play 2", "play 1")  # p1 10
    both(game, "create 1", "create 2")
    both(game, "play 1", "play 2")  # p2 9
    both(game, "create 1", "create 1")
    both(game, "play none", "play 1")  # p2 8: 10 - 17
    both(game, "create none", "create 1")
    both(game, "play 1", "play none")  # p1 7: 17 - 17 (p1 the most recent round won)
    for _ in range(3):
        both(game, "create 1", "create 1")
        both(game, "play 1", "play 1")  # splits 6, 5, 4: 24.5 each... 17 + 7.5 = 24.5
    assert game.is_over and points(game) == {"p1": 24.5, "p2": 24.5}
    assert game.outcome().winner == "p1"
    assert game.view()["result"] == {"reason": "prizes-used", "tiebreak": "p1"}
    # A create phase came before each of the seven rounds, and none after the last.
    assert [c["round"] for c in game.view()["created"]] == [1, 2, 3, 4, 5, 6, 7]
    assert len(game.view()["history"]) == 7


# --------------------------------------------------------------------------- timeouts and skips


def test_a_seat_whose_time_runs_out_creates_nothing():
    game = make()
    send(game, "p2", "create 20")
    events = game.timeout("p1")
    assert any(e.kind == "timeout" and "creates nothing" in e.text for e in events)
    assert game.view()["hands"] == {"p1": [], "p2": [20]} and game.view()["phase"] == "play"


def test_a_seat_whose_time_runs_out_plays_nothing_and_keeps_its_cards():
    game = make()
    both(game, "create 20", "create 5")
    game.timeout("p1")
    assert game.to_move() == ("p2",)
    send(game, "p2", "play 5")
    assert points(game) == {"p1": 0, "p2": 10} and game.view()["hands"]["p1"] == [20]


def test_a_timeout_of_a_seat_not_to_move_changes_nothing():
    game = make()
    send(game, "p1", "create 20")
    before = game.to_dict()
    assert game.timeout("p1") == []
    assert game.to_dict() == before


def test_a_seat_with_a_full_hand_is_not_asked_to_create():
    game = make()
    both(game, "create 20 10", "create 5")
    both(game, "play none", "play 5")
    assert game.to_move() == ("p2",)  # p1 holds 2 cards: nothing to create
    assert "nothing to create" in refused(game, "create 1", "p1", error=NotYourTurnError)
    send(game, "p2", "create none")
    assert game.view()["phase"] == "play"


def test_a_seat_with_no_card_is_not_asked_to_play():
    game = make()
    events = both(game, "create 20", "create none")
    assert game.to_move() == ("p1",)
    assert any(e.kind == "skipped" and "p2 has no card to play" in e.text for e in events)
    send(game, "p1", "play 20")
    assert points(game) == {"p1": 10, "p2": 0}


def test_under_darkness_a_full_or_empty_hand_does_not_skip_a_seat():
    game = make("darkness")
    both(game, "create 20 10", "create none")
    assert game.to_move() == ("p1", "p2")  # p2 has no card, but the room must not learn it
    both(game, "play none", "play none")
    assert game.to_move() == ("p1", "p2")  # p1's hand is full, but nobody else knows that
    assert "full" in refused(game, "create 1", "p1", error=IllegalMoveError)
    both(game, "create none", "create none")


def test_a_timeout_is_public_even_under_darkness():
    game = make("darkness")
    both(game, "create 20", "create 20")
    events = game.timeout("p1")
    assert [e.public for e in events if e.kind == "timeout"] == [True]
    assert "p1 ran out of time and plays nothing" in events[0].text


def test_with_no_power_and_no_cards_left_the_remaining_rounds_split_on_their_own():
    game = make()
    both(game, "create 25 25", "create 25 25")
    both(game, "play 25 25", "play 25 25")  # split 10
    assert game.is_over
    assert points(game) == {"p1": 24.5, "p2": 24.5}
    assert game.outcome().winner == "p2"  # no round won outright: p2
    assert [h["winner"] for h in game.view()["history"]] == [None] * 7


# --------------------------------------------------------------------------- Backup


def test_backup_adds_up_to_3_to_the_sum_without_a_card_at_most_twice():
    game = make("backup")
    both(game, "create 10", "create 12")
    both(game, "play 10 backup 3", "play 12")  # 13 against 12
    assert points(game) == {"p1": 10, "p2": 0}
    assert game.view()["power"]["p1"] == 40  # Backup costs no power
    assert game.view()["backups_left"] == {"p1": 1, "p2": 2}
    both(game, "create 1", "create 1")
    both(game, "play backup 2", "play 1")  # a Backup with no card: 2 against 1
    assert points(game) == {"p1": 19, "p2": 0}
    assert game.view()["hands"]["p1"] == [1]
    both(game, "create none", "create none")
    assert "used Backup 2 times" in refused(game, "play 1 backup 1", "p1", error=IllegalMoveError)


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("play 10 backup 4", IllegalMoveError, "1 to 3"),
        ("play 10 backup 0", IllegalMoveError, "1 to 3"),
        ("play 10 backup", MalformedMoveError, "Backup last"),
        ("play backup 3 10", MalformedMoveError, "Backup last"),
    ],
)
def test_backup_amounts_are_1_to_3_written_last(text, error, fragment):
    game = make("backup")
    both(game, "create 10", "create 10")
    assert fragment in refused(game, text, "p1", error=error)


def test_backup_text_round_trips():
    game = make("backup")
    both(game, "create 10", "create 10")
    for text in ("play 10 backup 3", "play backup 1", "play none backup 2"):
        move = game.parse_move(text, "p1", private=True)
        assert game.parse_move(move.text(), "p1", private=True) == move
    assert game.parse_move("play none backup 2", "p1", private=True) == Play("p1", (), 2)
    assert Play("p1", (), 2).text() == "play backup 2"


def test_a_seat_with_backup_left_but_no_card_is_still_asked_to_play():
    game = make("backup")
    both(game, "create 20", "create none")
    assert game.to_move() == ("p1", "p2")
    both(game, "play 20", "play backup 3")
    assert points(game) == {"p1": 10, "p2": 0}


# --------------------------------------------------------------------------- Overshadow


def test_overshadow_a_played_x_makes_every_played_x_minus_1_count_nothing():
    game = make("overshadow")
    both(game, "create 10 9", "create 10")
    both(game, "play 10 9", "play 10")  # p1's 9 is shadowed by a 10 (both sides): 10 - 10
    last = game.view()["history"][-1]
    assert last["counted"] == {"p1": [10, 0], "p2": [10]} and last["winner"] is None


def test_overshadow_works_across_the_table():
    game = make("overshadow")
    both(game, "create 20", "create 21")
    both(game, "play 20", "play 21")
    assert game.view()["history"][-1]["sums"] == {"p1": 0, "p2": 21}
    game = make("overshadow")
    both(game, "create 12", "create 13 1")
    both(game, "play 12", "play 1")  # no 13 played: 12 counts in full
    assert game.view()["history"][-1]["sums"] == {"p1": 12, "p2": 1}


def test_overshadow_chains_a_shadowed_card_still_shadows_the_one_below():
    game = make("overshadow")
    both(game, "create 5 4 3", "create 1")
    both(game, "play 5 4 3", "play 1")
    assert game.view()["history"][-1]["counted"]["p1"] == [5, 0, 0]


def test_overshadow_hits_every_copy():
    game = make("overshadow")
    both(game, "create 8 8 9", "create 16")
    both(game, "play 9 8 8", "play 16")
    assert game.view()["history"][-1]["sums"] == {"p1": 9, "p2": 16}


# --------------------------------------------------------------------------- Revolution


def test_revolution_the_highest_card_played_adds_only_a_tenth():
    game = make("revolution")
    both(game, "create 20", "create 5")
    both(game, "play 20", "play 5")  # 0.1 against 5
    last = game.view()["history"][-1]
    assert last["sums"] == {"p1": 0.1, "p2": 5} and last["winner"] == "p2"


def test_revolution_counts_each_copy_of_the_highest_on_both_sides():
    game = make("revolution")
    both(game, "create 9 9 2", "create 9 3")
    both(game, "play 9 9 2", "play 9 3")
    last = game.view()["history"][-1]
    assert last["counted"] == {"p1": [0.1, 0.1, 2], "p2": [0.1, 3]}
    assert last["sums"] == {"p1": 2.2, "p2": 3.1} and last["winner"] == "p2"


def test_revolution_decimal_sums_compare_exactly():
    game = make("revolution")
    both(game, "create 7 7 7", "create 7 1")
    # 0.1 * 3 against 0.1 + ... a float would make 0.1 + 0.1 + 0.1 differ from 0.3
    both(game, "play 7 7 7", "play 7")
    assert game.view()["history"][-1]["sums"] == {"p1": 0.3, "p2": 0.1}


def test_revolution_a_lone_card_is_the_highest():
    game = make("revolution")
    both(game, "create 30", "create none")
    send(game, "p1", "play 30")
    assert game.view()["history"][-1]["sums"] == {"p1": 0.1, "p2": 0}
    assert points(game) == {"p1": 10, "p2": 0}


# --------------------------------------------------------------------------- Pick Your Prize


def test_pick_your_prize_a_prize_is_worth_the_rounded_up_average_card():
    assert pick_your_prize_value([20, 15, 30]) == 22  # 21.67 up
    assert pick_your_prize_value([4, 4]) == 4 and pick_your_prize_value([]) == 0
    game = make("pick-your-prize")
    assert game.view()["prizes"] == [None] * 7 and game.view()["prize"] is None
    both(game, "create 20 15", "create 30")
    events = both(game, "play 20 15", "play 30")
    assert points(game) == {"p1": 22, "p2": 0}
    assert game.view()["history"][-1]["prize"] == 22
    assert "worth 22" in next(e for e in events if e.kind == "round").text


def test_pick_your_prize_with_no_card_played_is_worth_nothing():
    game = make("pick-your-prize, backup")
    both(game, "create 1", "create 1")
    both(game, "play backup 3", "play none")  # Backup is no card: the prize is worth 0
    assert game.view()["history"][-1]["winner"] == "p1"
    assert points(game) == {"p1": 0, "p2": 0}


def test_pick_your_prize_counts_overshadowed_cards_at_face_value():
    game = make("pick-your-prize, overshadow")
    both(game, "create 10 9", "create 1")
    both(game, "play 10 9", "play 1")  # average of 10, 9, 1 = 6.67 -> 7; the 9 adds nothing
    last = game.view()["history"][-1]
    assert last["prize"] == 7 and last["sums"] == {"p1": 10, "p2": 1}


def test_pick_your_prize_with_revolution_uses_the_highest_at_full_value():
    game = make("pick-your-prize, revolution")
    both(game, "create 30", "create 4")
    both(game, "play 30", "play 4")  # 0.1 against 4; the prize is (30 + 4) / 2 = 17
    last = game.view()["history"][-1]
    assert last["prize"] == 17 and last["winner"] == "p2"
    assert points(game) == {"p1": 0, "p2": 17}


# --------------------------------------------------------------------------- combinations


def test_overshadow_and_revolution_together():
    game = make("overshadow, revolution")
    both(game, "create 10 9 5", "create 6 2")
    both(game, "play 10 9 5", "play 6 2")
    # 10 is the highest (0.1), 9 is shadowed by 10, 5 by 6; p2's 6 and 2 count in full.
    last = game.view()["history"][-1]
    assert last["counted"] == {"p1": [0.1, 0, 0], "p2": [6, 2]}
    assert last["winner"] == "p2"


def test_backup_is_no_card_for_revolution_or_overshadow():
    game = make("backup, revolution, overshadow")
    both(game, "create 2", "create 1")
    both(game, "play 2 backup 3", "play 1 backup 2")
    # 2 is the highest card (0.1), 1 is shadowed by 2; the Backups 3 and 2 count in full.
    assert game.view()["history"][-1]["sums"] == {"p1": 3.1, "p2": 2}


def test_all_five_anomalies_together():
    game = make(",".join(ANOMALIES))
    assert game.view()["deck_size"] == 3
    both(game, "create 20 10 9", "create 11 3")
    both(game, "play 20 10 9 backup 3", "play 11 3")
    # 20 is the highest (0.1); 10 is shadowed by 11 and 9 by 10: 0.1 + 3 against 11 + 3.
    # The prize is the average of 20, 10, 9, 11, 3 = 10.6, rounded up.
    last = game.view(None)["history"][-1]
    assert last["winner"] == "p2" and last["sums"] is None and last["prize"] is None
    assert game.history[-1]["sums"] == {"p1": 31, "p2": 140}  # in tenths
    assert game.history[-1]["prize"] == 11 and game.points == {"p1": 0, "p2": 22}  # in halves
    assert load(game.to_dict()) == game


# --------------------------------------------------------------------------- state


def test_a_game_round_trips_through_its_dict_mid_phase():
    game = make("backup, darkness")
    both(game, "create 20 15", "create 30")
    send(game, "p1", "play 20 backup 2")
    copy = load(game.to_dict())
    assert copy == game and copy.view("p1") == game.view("p1")
    send(copy, "p2", "play 30")
    send(game, "p2", "play 30")
    assert copy == game


# --------------------------------------------------------------------------- the text board


def test_the_text_board_shows_what_the_view_holds():
    game = make("backup")
    both(game, "create 20 15", "create 30")
    both(game, "play 20 backup 3", "play 30")
    both(game, "create 5", "create none")
    send(game, "p1", "play 15")
    public = board_text(game.view(None))
    assert public.splitlines()[:2] == [
        "Round 2 of 7: play phase, prize 9. Anomalies: backup.",
        "Prizes: 10 [9] 8 7 6 5 4",
    ]
    assert "p1: 0 points, 10 power, hand 15 5, Backup 1 left, sent" in public
    assert "Round 1 (prize 10): p1 20 + backup 3 = 23; p2 30 = 30; p2 wins." in public
    assert "sealed" not in public and "Your sealed play: 15" in board_text(game.view("p1"))
    assert "sealed" not in board_text(game.view("p2"))


def test_the_text_board_under_darkness_marks_what_is_hidden():
    game = make("darkness, pick-your-prize")
    both(game, "create 20 15", "create 10")
    both(game, "play 20", "play 10")
    public = board_text(game.view(None))
    assert "Prizes" not in public
    assert "p1: ? points, 15 power, hand ?" in public
    assert "Round 1 (prize ?): p1 ?; p2 ?; p1 wins." in public
    assert "Round 1 (prize ?): p1 20; p2 ?; p1 wins." in board_text(game.view("p1"))


# --------------------------------------------------------------------------- a record


RECORD = """
[Game "decks"]
[Seed "7"]
[Anomalies "backup, overshadow"]
[Result "p1"]

# Seed 7 deals the prizes 6, 10, 5, 9, 7, 8, 4. Overshadow: hands of 3.
p1: create 20 15             # refused: creations go by direct message
p1 (dm): create 20 15 10
p1 (dm): create 1            # refused: the first creation of the phase stands
p2 (dm): create 21 9
p1 (dm): play 20 backup 3    # the 20 is shadowed by p2's 21: 3
p2 (dm): play 21             # 21: p2 scores 6
p1 (dm): create 5            # p1's power is spent
p2 (dm): create none
p1 (dm): play 15 10          # 25
p2 (dm): play 9 backup 3     # the 9 is shadowed by p1's 10: 3; p1 scores 10
p2 (dm): create 20           # p1 has no power: not asked
host: timeout p1             # p1 plays nothing
p2 (dm): play 20             # p2 scores 5
p1 (dm): play 5 backup 3     # nobody has power: no create phase is asked for
p2 (dm): play backup 3       # p1 scores 9; nothing is left, the 7 and the 8 are split: 26.5
p2 (dm): create 5            # refused: the task is over
"""


def test_a_record_replays_through_the_adjudicator():
    from geniusbot.adjudicate import adjudicate_text

    result = adjudicate_text(RECORD)
    accepted = [a.accepted for a in result.actions]
    assert accepted == [False, True, False] + [True] * 12 + [False]
    assert "direct message" in result.actions[0].error
    assert "first one stands" in result.actions[2].error
    assert result.outcome.winner == "p1"
    view = result.game.view()
    assert view["points"] == {"p1": 26.5, "p2": 18.5}
    assert [h["winner"] for h in view["history"]] == ["p2", "p1", "p2", "p1", None, None]
    assert result.notes == []


def test_a_phase_that_resolves_itself_is_not_announced_as_waiting():
    game = make()
    both(game, "create 30 20", "create 10")
    events = both(game, "play 30", "play none")
    # p1 has no power: skipped, and the next create phase asks only p2.
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["skipped", "phase"] and events[-1].data["seats"] == ["p2"]
    game = make()
    both(game, "create 25 25", "create 25 25")
    events = both(game, "play 25 25", "play 25 25")
    assert [e for e in events if e.kind == "phase"] == []  # everything after resolves itself
    assert game.is_over


def test_a_phase_prompt_leaves_the_time_to_the_clock():
    """The rule gives 30 s a phase, but the time is the clock's to say: a match played without a
    clock must not be told to answer "within 30 seconds" (the host's clock line says the time)."""
    game = new_game("decks", seed=5)
    prompts = [e.text for e in game.opening_events() if "create phase" in e.text]
    seat = game.to_move()[0]
    prompts += [e.text for e in game.play(game.parse_move("create 20", seat, private=True))]
    other = game.to_move()[0]
    prompts += [e.text for e in game.play(game.parse_move("create 20", other, private=True)) if "phase" in e.text]
    assert any("create phase" in t for t in prompts) and any("play phase" in t for t in prompts), prompts
    assert not any("second" in t for t in prompts), prompts
