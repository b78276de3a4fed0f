"""Black and White scenarios: one per rule and per ruling of the package's README, in its words."""

from __future__ import annotations

import re

import pytest
from blackwhite import BlackAndWhite
from blackwhite.rules import BlackAndWhiteEvent, Tile, colour

from geniusbot.games import (
    EventKind,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    Termination,
    WrongPlaceError,
    get_game,
    load,
)


def game() -> BlackAndWhite:
    return BlackAndWhite.new(seed=0)


def rounds(g: BlackAndWhite, *pairs: tuple[int, int]) -> list:
    """Play whole rounds, p1's tile then p2's, each sent privately; the events of the last tile."""
    events: list = []
    for p1, p2 in pairs:
        g.submit(f"play {p1}", "p1", private=True)
        events = g.submit(f"play {p2}", "p2", private=True)[1]
    return events


def round_said(events: list):
    """The room's announcement of a resolved round among ``events``."""
    [said] = [e for e in events if e.kind == BlackAndWhiteEvent.ROUND]
    return said


# ---- rule 1: nine tiles, 0 to 8, even black and odd white ------------------------------------


def test_each_player_holds_nine_tiles_0_to_8_even_black_odd_white():
    g = game()
    assert g.view("p1")["hand"] == list(range(9)) == g.view("p2")["hand"]
    assert [colour(t) for t in range(9)] == ["black", "white"] * 4 + ["black"]
    assert g.view(None)["left"] == {"p1": {"black": 5, "white": 4}, "p2": {"black": 5, "white": 4}}


# ---- rule 2: nine rounds, both at once, privately; a played tile is gone --------------------


def test_both_players_play_at_the_same_time():
    g = game()
    assert g.to_move() == ("p1", "p2")
    g.submit("play 3", "p1", private=True)
    assert g.to_move() == ("p2",)
    g.submit("play 5", "p2", private=True)
    assert g.to_move() == ("p1", "p2") and g.round == 2


def test_either_player_may_send_first():
    g = game()
    g.submit("play 5", "p2", private=True)
    events = g.submit("play 3", "p1", private=True)[1]
    assert any(e.kind == BlackAndWhiteEvent.ROUND for e in events)


def test_a_tile_played_is_gone():
    g = game()
    rounds(g, (4, 4))
    assert 4 not in g.view("p1")["hand"]
    with pytest.raises(
        IllegalMoveError, match="You have played your 4 already; play one of your tiles left: 0, 1, 2, 3, 5"
    ):
        g.parse_move("play 4", "p1", private=True)


def test_a_sealed_tile_is_confirmed_to_its_sender_alone():
    g = game()
    _, events = g.submit("play 6", "p1", private=True)
    sealed, said = events
    assert sealed.kind == EventKind.SEALED and sealed.seats == frozenset({"p1"}) and sealed.text == "Sealed: play 6."
    assert said.public and said.text == "p1 has played a tile." and "6" not in said.text


# ---- rule 3: the colours and the round's winner are told; the higher tile wins ---------------


def test_the_higher_tile_wins_the_round_and_the_room_is_told_the_colours():
    g = game()
    event = round_said(rounds(g, (3, 6)))
    assert event.public and event.kind == BlackAndWhiteEvent.ROUND
    assert event.text == "Round 1: p1 played white, p2 played black; p2 wins the round. Score: p1 0, p2 1."
    assert event.data == {
        "round": 1,
        "colors": {"p1": "white", "p2": "black"},
        "winner": "p2",
        "scores": {"p1": 0, "p2": 1},
    }


def test_equal_tiles_score_nobody():
    g = game()
    event = round_said(rounds(g, (5, 5)))
    assert "the tiles are equal and nobody scores" in event.text
    assert g.scores() == {"p1": 0, "p2": 0} and g.view()["rounds"] == [{"p1": "white", "p2": "white", "winner": None}]


# ---- rule 4: the numbers stay secret while the game runs ---------------------------------------


def test_the_room_never_sees_a_number_while_the_game_runs():
    g, twin = game(), game()
    rounds(g, (3, 6), (8, 0))
    rounds(twin, (1, 6), (6, 0))  # p1's other tiles: the same colours, the same winners
    g.submit("play 2", "p1", private=True)
    twin.submit("play 4", "p1", private=True)
    assert g.view(None) == twin.view(None)
    assert g.view("p2") == twin.view("p2")  # nor does the opponent
    assert g.view("p1")["sealed"] == 2 and g.view("p1")["mine"] == [3, 8]


# ---- rule 5: nine rounds, then more points wins; equal points draw ------------------------------


def test_after_nine_rounds_more_points_wins():
    g = game()
    events = rounds(g, (0, 1), (1, 0), (2, 3), (3, 2), (4, 5), (5, 4), (6, 7), (7, 6), (8, 8))
    assert g.is_over and g.round == 9
    outcome = g.outcome()
    assert outcome is not None and outcome.winner is None and outcome.termination == Termination.POINTS
    assert outcome.reason == "p1 and p2 won 4 rounds each; the game is a draw."
    assert events[-1].kind == EventKind.END and events[-1].text == outcome.reason


def test_the_player_with_more_points_wins_after_the_ninth_round():
    g = game()
    rounds(g, (8, 0), (7, 1), (6, 2), (0, 8), (1, 7), (2, 6), (4, 3), (3, 5), (5, 4))
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == "p1"
    assert outcome.reason == "p1 won 5 rounds to 4; p1 wins."
    assert outcome.data == {"scores": {"p1": 5, "p2": 4}, "rounds": 9}


# ---- ruling 1: decided early -------------------------------------------------------------------


def test_the_game_ends_once_a_lead_is_more_than_the_rounds_left():
    g = game()
    rounds(g, (8, 0), (7, 1), (6, 2), (5, 3))
    assert not g.is_over  # 4-0 with 5 left: p2 can still win five
    rounds(g, (4, 5))
    assert not g.is_over  # 4-1 with 4 left: p2 can still draw
    rounds(g, (3, 4))
    assert not g.is_over  # 4-2 with 3 left
    rounds(g, (2, 6))
    assert not g.is_over  # 4-3 with 2 left
    g2 = game()
    rounds(g2, (8, 7), (7, 6), (6, 5), (5, 4), (4, 3))
    assert g2.is_over  # 5-0 with 4 left: decided
    outcome = g2.outcome()
    assert outcome is not None and outcome.winner == "p1"
    assert outcome.reason == "p1 leads 5 rounds to 0 with 4 left to play, more than p2 can make up; p1 wins."


# ---- ruling 2: the reveal -----------------------------------------------------------------------


def test_when_the_game_ends_every_tile_is_shown():
    g = game()
    events = rounds(g, (8, 7), (7, 6), (6, 5), (5, 4), (4, 3))
    reveal = next(e for e in events if e.kind == BlackAndWhiteEvent.REVEAL)
    assert reveal.public and reveal.text == "The tiles, round by round: p1 8 7 6 5 4; p2 7 6 5 4 3."
    assert g.view(None)["tiles"] == {"p1": [8, 7, 6, 5, 4], "p2": [7, 6, 5, 4, 3]}
    assert [e.kind for e in events][-2:] == [BlackAndWhiteEvent.REVEAL, EventKind.END]


# ---- ruling 3: only privately -------------------------------------------------------------------


def test_a_tile_typed_in_the_room_is_refused_and_not_played():
    g = game()
    before = g.to_dict()
    with pytest.raises(WrongPlaceError) as refused:
        g.parse_move("play 4", "p1", private=False)
    assert refused.value.private is True
    assert str(refused.value) == (
        "Send your tile to me privately (by direct message), not in the game room: tiles are sealed."
    )
    assert g.to_dict() == before
    g.submit("play 7", "p1", private=True)  # the tile typed is not binding
    assert g.view("p1")["sealed"] == 7


# ---- ruling 4: the first tile stands --------------------------------------------------------------


def test_a_second_tile_in_the_same_round_is_refused():
    g = game()
    g.submit("play 2", "p1", private=True)
    with pytest.raises(
        NotYourTurnError, match=re.escape("You have played your tile for round 1; the first one stands. Wait for p2.")
    ):
        g.parse_move("play 3", "p1", private=True)


# ---- ruling 5: writing a tile --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["play 4", "PLAY 4", "  play   4 ", "4", "play 4."])
def test_a_tile_is_written_play_and_its_number(text):
    assert game().parse_move(text, "p1", private=True) == Tile("p1", 4)


@pytest.mark.parametrize("text", ["", "play", "play four", "play 4 5", "bid 4", "resign", "status"])
def test_anything_else_is_not_a_tile(text):
    with pytest.raises(
        MalformedMoveError, match=re.escape("Write play and one of your tiles, 0 to 8, such as play 4.")
    ):
        game().parse_move(text, "p1", private=True)


@pytest.mark.parametrize("text", ["play 9", "play 10", "play 04"])
def test_a_number_that_is_not_a_tile_is_refused(text):
    with pytest.raises(IllegalMoveError, match="There is no tile"):
        game().parse_move(text, "p1", private=True)


# ---- ruling 6: time -------------------------------------------------------------------------------


def test_the_default_clock_is_30_s_a_tile_then_a_2_minute_reserve():
    assert BlackAndWhite.default_clock() == "30s+2m"


def test_a_player_out_of_time_plays_their_lowest_tile_and_does_not_lose():
    g = game()
    rounds(g, (0, 4))
    g.submit("play 5", "p2", private=True)
    events = g.timeout("p1")
    assert not g.is_over
    assert events[0].text == "p1 ran out of time; their lowest tile is played for them."
    assert g.view(None)["rounds"][-1] == {"p1": "white", "p2": "white", "winner": "p2"}  # p1's 1 against 5
    assert g.to_move() == ("p1", "p2") and g.round == 3


def test_a_timeout_of_a_seat_that_has_played_changes_nothing():
    g = game()
    g.submit("play 5", "p1", private=True)
    before = g.to_dict()
    assert g.timeout("p1") == [] and g.to_dict() == before


# ---- ruling 7: resigning ----------------------------------------------------------------------------


def test_resigning_loses_at_once():
    g = game()
    g.submit("play 5", "p1", private=True)
    g.resign("p1")
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == "p2" and outcome.termination == Termination.RESIGNATION
    with pytest.raises(NotYourTurnError, match="The game is over"):
        g.parse_move("play 1", "p2", private=True)


# ---- ruling 8: who saw what ---------------------------------------------------------------------------


def test_the_room_sees_colours_winners_score_counts_and_who_has_played():
    g = game()
    rounds(g, (3, 6))
    g.submit("play 8", "p2", private=True)
    view = g.view(None)
    assert view["rounds"] == [{"p1": "white", "p2": "black", "winner": "p2"}]
    assert view["scores"] == {"p1": 0, "p2": 1} and view["played"] == {"p1": False, "p2": True}
    assert view["left"] == {"p1": {"black": 5, "white": 3}, "p2": {"black": 4, "white": 4}}
    assert "hand" not in view and "tiles" not in view and view["last_move"] is None
    mine = g.view("p2")
    assert mine["hand"] == [0, 1, 2, 3, 4, 5, 7] and mine["sealed"] == 8 and mine["last_move"] == "play 8"


# ---- the host's side: the registry, the saved game -----------------------------------------------------


def test_the_game_is_found_by_its_name_and_aliases():
    assert get_game("blackwhite") is BlackAndWhite
    assert get_game("Black and White") is BlackAndWhite and get_game("black-and-white") is BlackAndWhite


def test_a_saved_game_loads_equal_mid_round():
    g = game()
    rounds(g, (3, 6))
    g.submit("play 8", "p2", private=True)
    assert load(g.to_dict()) == g and load(g.to_dict()).view("p2") == g.view("p2")


def test_the_opening_says_how_to_send_a_tile_and_a_begun_game_opens_with_nothing():
    g = game()
    [opening] = g.opening_events()
    assert opening.text == "Round 1 of 9: each player sends one tile, 0 to 8, to the bot privately, such as play 4."
    g.submit("play 1", "p1", private=True)
    assert g.opening_events() == []


def test_its_korean_ships_with_it_and_names_every_message():
    """The plug-in's own Korean catalogue, read from the installed package: every message of the
    game has its Korean, and a Korean room reads the game's words in Korean."""
    from pathlib import Path

    import blackwhite
    from babel.messages.pofile import read_po

    from geniusbot.words import Seat, Words, say

    locales = Path(blackwhite.__file__).parent / "locales"
    with (locales / "blackwhite.pot").open("rb") as source:
        english = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(source) if m.id}
    with (locales / "ko" / "LC_MESSAGES" / "blackwhite.po").open("rb") as source:
        korean = {m.id if isinstance(m.id, str) else m.id[0]: m for m in read_po(source, locale="ko") if m.id}
    assert english == set(korean)
    assert all(m.string and not m.fuzzy for m in korean.values())
    said = Words("ko", {"p1": "민수"})(say("{seat} has played a tile.", seat=Seat("p1"), domain="blackwhite"))
    assert said.startswith("민수") and said != "민수 has played a tile."
