"""All Hands On Deck, rule by rule: the task order, points per play, first to 23, the anomaly
selection of each play, the items, and the task games built from the match's history."""

from __future__ import annotations

import itertools

import pytest

from geniusbot.games import (
    EventKind,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    OptionError,
    get_game,
    load,
)
from geniusbot.games.allhands.final import (
    PLAYS_TOTAL,
    TARGET,
    AllHandsOnDeck,
    active_count,
    parse_items,
    points_for,
    task_for,
    time_of,
)

from .allhands_helpers import make, play_to, send, skip_selection, win_task


def refused(game, seat, text, *, private=False, error=GameError) -> str:
    """The message ``text`` is refused with; the state is unchanged."""
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.parse_move(text, seat, private=private)
    assert game.to_dict() == before
    return str(caught.value)


def kinds(events):
    return [e.kind for e in events]


# --------------------------------------------------------------------------- the match


def test_the_game_is_registered_under_its_name():
    assert get_game("allhands") is AllHandsOnDeck
    assert get_game("All Hands On Deck") is AllHandsOnDeck
    assert AllHandsOnDeck.title == "All Hands On Deck"


def test_tasks_run_1_2_3_1_2_3_and_the_kth_play_of_a_task_is_worth_k():
    assert [task_for(n) for n in range(1, 16)] == ["tiles", "decks", "swabbing"] * 5
    assert [time_of(n) for n in range(1, 16)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
    assert [points_for(k) for k in range(1, 6)] == [1, 2, 3, 4, 5]
    assert points_for(3, all_ins=2) == 7
    assert [active_count(k) for k in range(1, 6)] == [0, 1, 2, 2, 3]
    assert (PLAYS_TOTAL, TARGET) == (15, 23)


def test_the_first_play_is_tile_decklaration_as_written_and_its_first_caller_is_the_first_option():
    game = make()
    assert game.phase == "task" and game.current_task == "tiles" and game.task.anomalies == ()
    assert game.task.starter == "p1"
    assert game.window() is not None and game.window().kind == "memorize" and game.to_move() == ()
    assert make(first="p2").task.starter == "p2"


def test_someone_always_reaches_23_within_the_15_plays():
    # 3 x (1+2+3+4+5) = 45 points are shared out, and 22 + 22 = 44 < 45: every way the fifteen
    # plays can go has a first seat to 23 at or before the last play (All-In only adds points).
    worth = [points_for(time_of(n)) for n in range(1, PLAYS_TOTAL + 1)]
    assert sum(worth) == 45
    latest = 0
    for winners in itertools.product((0, 1), repeat=PLAYS_TOTAL):
        points = [0, 0]
        for n, (seat, value) in enumerate(zip(winners, worth, strict=True), start=1):
            points[seat] += value
            if points[seat] >= TARGET:
                latest = max(latest, n)
                break
        else:
            pytest.fail(f"nobody reaches 23 in {winners}")
    assert latest == PLAYS_TOTAL  # the fifteenth play can be needed, never a sixteenth


def test_points_go_to_the_winner_of_each_play_and_the_first_to_23_wins_the_match():
    game = make()
    play_to(game, 20, ["p1"] * 11)
    assert [p["points"] for p in game.plays] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]
    assert game.is_over and game.outcome().winner == "p1" and game.points == {"p1": 26, "p2": 0}
    assert game.result == {"winner": "p1", "points": {"p1": 26, "p2": 0}, "reason": "target"}
    assert game.view()["current"] is None and game.view()["task"] is None
    with pytest.raises(NotYourTurnError, match="match is over"):
        game.parse_move("ban chain", "p1")


def test_a_finished_task_is_scored_announced_and_the_next_play_set_up():
    game = make()
    events = win_task(game, "p2")
    order = kinds(events)
    assert order.index("task-end") < order.index("score") < order.index("bout") < order.index("anomalies")
    score = next(e for e in events if e.kind == "score")
    assert score.public and score.data["winner"] == "p2" and score.data["points"] == 1
    assert score.text == "p2 wins play 1 (Tile Decklaration) and scores 1. Score: p1 0, p2 1."
    # The next play's announcement, right below, does not say the score again.
    bout = next(e for e in events if e.kind == "bout")
    assert bout.text == "Play 2 of 15: Dueling Decks, its 1st play, worth 1 point."
    # A match on the default clocks takes Dueling Decks' own clock for the play.
    assert bout.data["clock"] == "30s+1m"
    # The task's own end is not the match's end.
    assert "end" not in kinds(events) and "task-end" in kinds(events)
    assert game.play_no == 2 and game.current_task == "decks" and game.phase == "task"
    assert game.plays[0] | {"reason": None} == {
        "play": 1,
        "task": "tiles",
        "time": 1,
        "anomalies": [],
        "bans": [],
        "override": None,
        "all_in": [],
        "winner": "p2",
        "points": 1,
        "reason": None,
    }


# --------------------------------------------------------------------------- the task games' options


def test_the_task_games_are_built_from_the_history():
    game = make(first="p2")
    win_task(game, "p1")  # play 1, tiles
    # Dueling Decks, first play: its own tie-break rule.
    assert game.task.option_values == {"anomalies": ""}
    win_task(game, "p2")  # play 2, decks
    # Deck Swabbing: the loser of the previous task moves first; first play: a tie goes to the
    # player that most recently scored (the winner of the previous task).
    assert game.task.option_values == {"anomalies": "", "starter": "p1", "tiebreak": "p2"}
    win_task(game, "p1")  # play 3
    skip_selection(game)
    # Tile Decklaration: the winner of the last task calls first.
    assert game.task.starter == "p1" and game.task.option_values["starter"] == "p1"
    win_task(game, "p2")  # play 4
    skip_selection(game)
    # Dueling Decks, second play: a tie goes to the loser of its previous play (play 2: p1).
    assert game.task.option_values["tiebreak"] == "p1"
    win_task(game, "p1")  # play 5
    skip_selection(game)
    # Deck Swabbing, second play: the loser of play 5 moves first; a tie goes to the loser of play 3.
    assert game.task.option_values["starter"] == "p2" and game.task.option_values["tiebreak"] == "p2"


def test_each_play_gets_its_own_seed_and_the_match_is_the_same_from_the_same_seed():
    a, b = make(seed=5), make(seed=5)
    assert a == b and a.task.seed == b.task.seed
    assert make(seed=6).task.seed != a.task.seed
    win_task(a, "p1")
    win_task(b, "p1")
    assert a == b and a.task.seed != make(seed=5).task.seed


# --------------------------------------------------------------------------- the anomaly selection


def test_second_play_bans_alternate_from_the_five_until_one_remains_the_previous_winner_first():
    game = make()
    play_to(game, 4, "p1 p1 p2")
    assert game.phase == "ban" and game.to_move() == ("p2",) and game.bans_left == 4
    assert game.pool == ["chain", "implode", "landmine", "rainbow", "rectangle-adverse"]
    bans = [("p2", "rainbow"), ("p1", "chain"), ("p2", "landmine"), ("p1", "implode")]
    for seat, anomaly in bans:
        assert game.to_move() == (seat,)
        events = send(game, seat, f"ban {anomaly}")
        assert events[0].kind == "ban" and events[0].public
    assert game.phase == "task" and game.task.anomalies == ("rectangle-adverse",)
    assert [(b["seat"], b["anomaly"]) for b in game.bans] == bans
    assert game.view()["current"]["anomalies"] == ["rectangle-adverse"]


def test_third_play_bans_alternate_from_the_four_unplayed_until_two_remain():
    game = make()
    play_to(game, 7, "p1 p2 p1 p1 p2 p2")  # play 4 leaves rectangle-adverse (the first open is banned)
    assert game.plays[3]["anomalies"] == ["rectangle-adverse"]
    assert game.phase == "ban" and game.to_move() == ("p2",) and game.bans_left == 2
    assert game.pool == ["chain", "implode", "landmine", "rainbow"]
    assert "played before" in refused(game, "p2", "ban rectangle adverse")
    send(game, "p2", "ban landmine")
    assert game.to_move() == ("p1",)
    send(game, "p1", "ban Chain")
    assert game.task.anomalies == ("implode", "rainbow")


def test_fourth_play_takes_the_two_unplayed_automatically():
    game = make()
    play_to(game, 10, "p1 p2 p1 p2 p1 p2 p1 p2 p1")
    assert game.plays[3]["anomalies"] == ["rectangle-adverse"]
    assert game.plays[6]["anomalies"] == ["landmine", "rainbow"]
    # No ban, no question: the task is already running with the two left.
    assert game.phase == "task" and game.task.anomalies == ("chain", "implode")
    assert game.bans == [] and game.view()["current"]["pool"] == []


def test_fifth_play_each_bans_one_of_all_five_and_three_are_active():
    game = make()
    play_to(game, 13, "p1 p2 p1 p2 p1 p2 p1 p2 p1 p2 p1 p2")
    assert game.points == {"p1": 14, "p2": 16} and not game.is_over
    assert game.phase == "ban" and game.to_move() == ("p2",) and game.bans_left == 2
    assert len(game.pool) == 5  # played anomalies may be banned (or kept) again
    send(game, "p2", "ban chain")
    send(game, "p1", "ban rectangle-adverse")
    assert game.task.anomalies == ("implode", "landmine", "rainbow")
    assert game.view()["current"]["worth"] == 5


def test_a_ban_is_refused_with_a_reason_and_changes_nothing():
    game = make()
    play_to(game, 4, "p1 p1 p1")
    assert "not your turn" in refused(game, "p2", "ban chain", error=NotYourTurnError)
    assert "Dueling Decks" in refused(game, "p1", "ban backup", error=IllegalMoveError)
    assert "write ban and an anomaly" in refused(game, "p1", "ban chian", error=MalformedMoveError)
    assert "game room" in refused(game, "p1", "ban chain", private=True, error=IllegalMoveError)
    assert "before the first ban" in refused(game, "p1", "use override chain", error=IllegalMoveError)
    send(game, "p1", "chain")  # the word ban may be left out
    assert "already banned" in refused(game, "p2", "ban chain", error=IllegalMoveError)
    assert game.pool == ["implode", "landmine", "rainbow", "rectangle-adverse"]


def test_a_seat_out_of_time_in_the_ban_phase_has_an_open_anomaly_banned_for_it_at_random():
    game = make()
    play_to(game, 4, "p1 p1 p1")
    twin = game.copy()
    events = game.timeout("p1")
    # The ban says the seat's timeout: a timeout event (the host says it once, as its timeout line).
    assert events[0].kind == EventKind.TIMEOUT and events[0].data["seat"] == "p1"
    assert events[0].data["timeout"] and events[0].data["anomaly"] not in game.pool
    assert "ran out of time" in events[0].text
    assert len(game.pool) == 4 and game.to_move() == ("p2",)
    assert twin.timeout("p1") == events and twin == game  # drawn from the seed
    assert game.timeout("p1") == []  # not to move


# --------------------------------------------------------------------------- All-In


def test_all_in_is_asked_by_direct_message_once_the_anomalies_are_chosen():
    game = make(items="p1 all-in; p2 all-in")
    # The first play has its (empty) selection at once, so the match opens with the question.
    assert game.phase == "items" and game.to_move() == ("p1", "p2") and game.task is None
    assert "use all-in" in game.opening_events()[-1].text
    assert "direct message" in refused(game, "p1", "use all-in", error=IllegalMoveError)
    events = send(game, "p1", "use all-in", private=True)
    assert game.opening_events() == []  # the match has begun
    assert [(e.kind, e.seats) for e in events] == [("sealed", frozenset({"p1"})), ("submitted", None)]
    assert game.view("p1")["sealed"] == "use all-in"
    assert game.view()["sealed"] is None and game.view("p2")["sealed"] is None
    assert game.view()["current"]["all_in"] == {"answered": {"p1": True, "p2": False}, "used": []}
    assert "already answered" in refused(game, "p1", "pass", private=True, error=NotYourTurnError)
    events = send(game, "p2", "All In", private=True)
    assert next(e for e in events if e.kind == "all-in").data == {"used": ["p1", "p2"]}
    assert game.phase == "task" and game.current_task == "tiles"
    events = win_task(game, "p2")
    # Both used it: each adds 2 to the winner of the play.
    assert game.points == {"p1": 0, "p2": 5} and game.plays[0]["all_in"] == ["p1", "p2"]
    assert "scores 5 (1 + 4 All-In)" in next(e for e in events if e.kind == "score").text
    # Each All-In is used once: nobody is asked again.
    assert game.view()["items"]["p1"]["all_in"] == 0 and game.phase == "task"


def test_all_in_kept_is_asked_again_and_a_holder_alone_is_asked():
    game = make(items="p2 all-in")
    assert game.to_move() == ("p2",)
    assert "hold no All-In" in refused(game, "p1", "use all-in", private=True, error=NotYourTurnError)
    events = game.timeout("p2")  # out of time: the item is kept
    assert "keeps it" in events[0].text and game.phase == "task"
    win_task(game, "p1")
    assert game.phase == "items" and game.to_move() == ("p2",)
    send(game, "p2", "use all-in", private=True)
    win_task(game, "p2")
    assert game.points == {"p1": 1, "p2": 3}
    assert game.phase == "task"  # no All-In left to ask about


def test_all_in_answers_are_words_a_player_would_send():
    game = make(items="p1 all-in")
    for text in ("use all-in", "ALL-IN", "allin", "use allin", "yes"):
        assert game.parse_move(text, "p1", private=True).use is True
    for text in ("pass", "no", "keep"):
        assert game.parse_move(text, "p1", private=True).use is False
    # A word that is no answer is told what to send: here, in the DM it came by, or by DM from the room.
    assert refused(game, "p1", "maybe", private=True, error=MalformedMoveError) == (
        "'maybe' is not an answer; send use all-in or pass here."
    )
    assert refused(game, "p1", "maybe", error=MalformedMoveError) == (
        "'maybe' is not an answer; send use all-in or pass by direct message."
    )


# --------------------------------------------------------------------------- Override


def test_override_is_offered_before_the_bans_of_a_second_to_fourth_play_previous_winner_first():
    game = make(items="p1 override; p2 override")
    assert game.phase == "task"  # first plays: no Override
    play_to(game, 4, "p1 p1 p2")
    assert game.phase == "override" and game.to_move() == ("p2",)
    assert "game room" in refused(game, "p2", "pass", private=True, error=IllegalMoveError)
    send(game, "p2", "pass")
    assert game.phase == "override" and game.to_move() == ("p1",)
    assert "exactly 1" in refused(game, "p1", "use override chain rainbow", error=IllegalMoveError)
    twice = refused(game, "p1", "use override chain chain", error=IllegalMoveError)
    assert twice == "chain is named twice; pick 1 anomaly."
    assert "Dueling Decks" in refused(game, "p1", "use override backup", error=IllegalMoveError)
    assert "not an anomaly" in refused(game, "p1", "use override chian", error=MalformedMoveError)
    events = send(game, "p1", "use override Rectangle Adverse")
    assert "p1 uses the Override" in events[0].text
    assert game.phase == "task" and game.task.anomalies == ("rectangle-adverse",) and game.bans == []
    assert game.view()["items"] == {
        "p1": {"all_in": 0, "override": 1, "clock": False},
        "p2": {"all_in": 0, "override": 2, "clock": False},
    }
    assert game.view()["current"]["override"] == {"asked": None, "by": "p1"}


def test_if_both_want_the_override_the_previous_winner_has_it_and_the_other_keeps_its_use():
    game = make(items="p1 override; p2 override")
    play_to(game, 4, "p1 p1 p1")
    send(game, "p1", "use override chain")
    assert game.phase == "task" and game.override_left == {"p1": 1, "p2": 2}


def test_override_may_not_repeat_a_combination_and_a_fourth_play_may_then_need_a_ban():
    game = make(items="p1 override")
    play_to(game, 4, "p1 p1 p1")
    send(game, "p1", "use override chain")  # play 4: chain
    play_to(game, 7, "p2 p2 p2")
    assert game.to_move() == ("p1",)  # p1 holds it, though p2 won the last play
    send(game, "p1", "use override rainbow, chain")  # play 7: chain and rainbow (a new pair)
    assert game.task.anomalies == ("chain", "rainbow") and game.override_left["p1"] == 0
    play_to(game, 10, "p1 p1 p2")
    # Three unplayed are left (implode, landmine, rectangle-adverse): one ban, the previous winner's.
    assert game.phase == "ban" and game.to_move() == ("p2",) and game.bans_left == 1
    send(game, "p2", "ban landmine")
    assert game.task.anomalies == ("implode", "rectangle-adverse")


def test_a_played_combination_is_refused_and_fifth_plays_have_no_override():
    game = make(items="p1 override; p2 override")
    play_to(game, 4, "p1 p1 p1")
    send(game, "p1", "use override chain")
    play_to(game, 7, "p1 p1 p1")
    send(game, "p1", "use override chain rainbow")
    play_to(game, 10, "p2 p2 p2")
    assert game.to_move() == ("p2",)
    assert "before" in refused(game, "p2", "use override rainbow chain", error=IllegalMoveError)
    send(game, "p2", "pass")
    assert game.phase == "ban"  # p1 has used both of its uses: not asked
    assert game.override_left == {"p1": 0, "p2": 2}
    send(game, "p2", "ban implode")
    play_to(game, 13, "p2 p1 p1")
    assert game.phase == "ban" and not game.is_over  # fifth play: straight to the bans


def test_override_out_of_time_passes():
    game = make(items="p2 override")
    play_to(game, 4, "p1 p1 p1")
    events = game.timeout("p2")
    assert "ran out of time, so passes" in events[0].text and game.phase == "ban"
    assert game.override_left["p2"] == 2


# --------------------------------------------------------------------------- Clock and options


def test_the_clock_is_recorded_and_shown_for_the_hosts_clock():
    game = make(items="p1: clock, all in; p2 override clock")
    assert game.clock_holders() == ("p1", "p2")
    assert game.view()["items"]["p1"] == {"all_in": 1, "override": 0, "clock": True}
    assert make().clock_holders() == ()


def test_items_are_read_in_the_ways_a_host_writes_them():
    assert parse_items("") == parse_items("none") == {"p1": (), "p2": ()}
    assert parse_items("p1 all-in clock; p2 override") == {"p1": ("all-in", "clock"), "p2": ("override",)}
    assert parse_items("P2: Override, All In\np1 allin") == {"p1": ("all-in",), "p2": ("all-in", "override")}


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"first": "p3"}, "p1 or p2"),
        ({"items": "p1 sword"}, "no item 'sword'"),
        ({"items": "clock"}, "Say whose item clock is"),
        ({"items": "p1 clock, clock"}, "twice"),
        ({"rounds": "3"}, "takes no option"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options, says):
    with pytest.raises(OptionError, match=says):
        make(**options)


# --------------------------------------------------------------------------- the task inside


def test_the_task_is_delegated_to_and_its_events_come_out_unchanged_but_for_the_play():
    game = make()
    opening = game.opening_events()
    assert [e.kind for e in opening][:2] == ["match", "bout"]
    reveal = next(e for e in opening if e.kind == "reveal")
    assert reveal.public and reveal.delete_after == 30 and len(reveal.data["grid"]) == 49
    assert reveal.data["task"] == "tiles" and reveal.data["play"] == 1
    for seat in (None, "p1", "p2"):
        assert game.view(seat)["task"] == game.task.view(seat)
    hide = game.close_window()
    assert [e.kind for e in hide][0] == "hide"
    assert game.to_move() == ("p1",) and game.view()["last_move"] is None
    send(game, "p1", "call red")
    assert game.last_move == "call red" and game.task.called == "red"
    with pytest.raises(GameError):
        game.parse_move("ban chain", "p2")


def test_the_task_keeps_its_secrets_in_the_match_views_and_events():
    game = make(items="")
    play_to(game, 4, "p1 p1 p1")
    for anomaly in ("chain", "implode", "rainbow", "rectangle-adverse"):
        send(game, game.to_move()[0], f"ban {anomaly}")
    assert game.task.anomalies == ("landmine",)
    game.close_window()
    events = send(game, "p1", "mines A1 B1 C1 D1 E1", private=True)
    mine_event = next(e for e in events if e.kind == "sealed")
    assert mine_event.seats == frozenset({"p1"}) and mine_event.data["play"] == 4
    assert game.view()["task"]["mines"] is None and game.view("p2")["task"]["mines"] is None
    assert game.view("p1")["task"]["mines"] == ["A1", "B1", "C1", "D1", "E1"]
    assert game.view()["task"]["grid"] is None
    assert "direct message" in refused(game, "p2", "mines A1 B1 C1 D1 E1", error=GameError)


def test_a_resignation_concedes_the_whole_match_and_ends_the_running_task():
    game = make()
    win_task(game, "p1")
    events = game.resign("p1")
    assert game.is_over and game.outcome().winner == "p2" and game.result["reason"] == "resign"
    assert "task-end" in kinds(events) and kinds(events)[-1] == "end"
    assert game.resign("p2") == []


def test_a_saved_match_reloads_equal_in_every_phase():
    game = make(items="p1 all-in override; p2 all-in override clock")
    seen = set()
    for winner in ["p1", "p2", "p1", "p2", "p1", "p2", "p1"]:
        while game.phase != "task":
            seen.add(game.phase)
            assert load(game.to_dict()) == game
            seat = game.to_move()[0]
            if game.phase == "items":
                send(game, seat, "use all-in" if seat == "p1" else "pass", private=True)
            elif game.phase == "override":
                send(game, seat, "pass")
            else:
                send(game, seat, f"ban {game.pool[-1]}")
        seen.add("task")
        assert load(game.to_dict()) == game
        win_task(game, winner)
    assert seen == {"items", "override", "ban", "task"}
    assert load(game.to_dict()) == game and load(game.to_dict()).view("p1") == game.view("p1")


def test_the_fifteenth_play_can_decide_the_match_and_the_unreachable_fallback_still_ends_it():
    game = make()
    play_to(game, 15, "p1 p2 " * 7)
    assert game.play_no == 15 and game.points == {"p1": 19, "p2": 21} and not game.is_over
    skip_selection(game)
    fallback = game.copy()
    win_task(game, "p1")
    assert game.outcome().winner == "p1" and game.points["p1"] == 24 and game.result["reason"] == "target"
    # Only a state the rules cannot reach (points taken away) gets past the fifteenth play with
    # nobody at 23: the higher score then wins.
    fallback.points = {"p1": 0, "p2": 0}
    win_task(fallback, "p2")
    assert fallback.is_over
    assert fallback.result == {"winner": "p2", "points": {"p1": 0, "p2": 5}, "reason": "plays-used"}


def test_a_sealed_card_typed_in_the_room_is_refused_as_sent_to_the_wrong_place():
    """Dueling Decks' creations are sealed: one typed in the room is refused, and the refusal says,
    as data, that it belongs in a private message (a host tells its users how to send one)."""
    from geniusbot.games import WrongPlaceError, new_game

    game = new_game("decks", seed=3)
    seat = game.to_move()[0]
    with pytest.raises(WrongPlaceError) as refused:
        game.parse_move("create 20 15", seat, private=False)
    assert refused.value.private is True
    assert "direct message" in str(refused.value)
    game.parse_move("create 20 15", seat, private=True)  # the same move, sent privately, is taken
