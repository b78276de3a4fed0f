"""Tile Decklaration, scenario by scenario, in the words of the rule text (seed 001, Task 1)."""

from __future__ import annotations

import pytest

from geniusbot.games import (
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    OptionError,
    Window,
    get_game,
    load,
    new_game,
)
from geniusbot.games.allhands.tiles import (
    ANOMALIES,
    Call,
    Declare,
    TileDecklaration,
    generate_grid,
    parse_anomalies,
)

from .tiles_helpers import BANDS, RAINBOW, STRIPES, counts, make, parse_grid, play


def refused(game, text, seat, *, private=False, error=GameError):
    """Submitting ``text`` is refused with ``error`` and changes nothing; returns the message."""
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.submit(text, seat, private=private)
    assert game.to_dict() == before
    return str(caught.value)


# --------------------------------------------------------------------------- the grid


def test_the_grid_is_7_by_7_with_16_of_each_colour_and_a_black_centre():
    game = new_game("tiles", seed=123)
    grid = game.view()["grid"]
    assert len(grid) == 49 and grid["D4"] == "black"
    assert sorted(c for c in grid.values() if c != "black") == sorted(["red", "blue", "green"] * 16)


def test_the_grid_comes_from_the_seed():
    assert new_game("tiles", seed=5).view()["grid"] == new_game("tiles", seed=5).view()["grid"]
    assert new_game("tiles", seed=5).view()["grid"] != new_game("tiles", seed=6).view()["grid"]


def test_rainbow_has_six_colours_eight_tiles_each():
    game = new_game("tiles", seed=9, anomalies="rainbow")
    grid = game.view()["grid"]
    assert game.view()["palette"] == ["red", "orange", "yellow", "green", "blue", "purple"]
    assert counts({k: v for k, v in generate_grid(9, tuple(game.palette)).items()}) == {c: 8 for c in game.palette}
    assert grid["D4"] == "black" and len(grid) == 49


def test_the_game_is_registered_under_its_name():
    assert get_game("tiles") is TileDecklaration
    assert get_game("Tile Decklaration") is TileDecklaration


# --------------------------------------------------------------------------- options


def test_anomalies_are_read_from_the_option_in_any_spelling():
    assert parse_anomalies("") == ()
    assert parse_anomalies("none") == ()
    assert parse_anomalies("Rectangle Adverse, chain") == ("chain", "rectangle-adverse")
    assert parse_anomalies("landmine,implode,rainbow") == ("implode", "landmine", "rainbow")
    assert parse_anomalies(",".join(ANOMALIES)) == ANOMALIES
    assert parse_anomalies("rainbow rectangle adverse chain") == ("chain", "rainbow", "rectangle-adverse")
    assert parse_anomalies("chain, chain") == ("chain",)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"anomalies": "chian"}, "no anomaly"),
        ({"anomalies": "chain, backup"}, "another task"),
        ({"starter": "p3"}, "p1 or p2"),
        ({"tiebreak": "both"}, "p1 or p2"),
        ({"grid": "x"}, "takes no option"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options, says):
    with pytest.raises(OptionError, match=says):
        new_game("tiles", seed=1, **options)


# --------------------------------------------------------------------------- memorize, then hide


def test_players_have_30_seconds_to_look_at_the_grid_and_no_one_moves_meanwhile():
    game = new_game("tiles", seed=3)
    assert game.window() == Window("memorize", 30)
    assert game.to_move() == ()
    for seat in (None, "p1", "p2"):
        assert game.view(seat)["grid"] == game.view()["grid"] is not None
    message = refused(game, "call red", "p1", error=NotYourTurnError)
    assert "memorize" in message


def test_the_grid_is_posted_with_the_opening_event_and_deleted_after_30_seconds():
    game = new_game("tiles", seed=3)
    (event,) = game.opening_events()
    assert event.public and event.kind == "reveal"
    assert event.data["grid"] == game.view()["grid"]
    assert event.delete_after == 30


def test_the_grid_is_hidden_and_replaced_by_an_empty_grid():
    game = new_game("tiles", seed=3)
    events = game.close_window()
    assert events[0].kind == "hide"
    assert game.window() is None
    for seat in (None, "p1", "p2"):
        view = game.view(seat)
        assert view["grid"] is None and view["declared"] == []
    assert game.opening_events() == []


def test_the_winner_of_the_last_task_names_the_first_colour():
    assert make(starter="p2").to_move() == ("p2",)
    assert make().to_move() == ("p1",)
    game = make(starter="p2")
    play(game, "call red")
    assert game.to_move() == ("p1",)
    assert game.view()["called"] == "red" and game.view()["caller"] == "p2"


def test_the_first_call_may_be_any_colour_of_the_board_but_not_black():
    game = make()
    assert "Black is never called" in refused(game, "call black", "p1", error=IllegalMoveError)
    assert "no orange" in refused(game, "call orange", "p1", error=IllegalMoveError)
    assert "only a colour" in refused(game, "D5 red", "p1", error=MalformedMoveError)
    refused(game, "call red", "p2", error=NotYourTurnError)
    assert game.submit("red", "p1")[0] == Call("p1", "red")


# --------------------------------------------------------------------------- turns


def test_a_turn_declares_a_tile_of_the_called_colour_and_calls_one_for_the_opponent():
    game = make()
    play(game, "call red")
    move, events = game.submit("A7 blue", "p2")
    assert move == Declare("p2", "A7", "blue")
    assert game.to_move() == ("p1",)
    assert game.view()["declared"] == [{"tile": "A7", "color": "red", "seat": "p2"}]
    assert game.view()["called"] == "blue" and game.view()["last_move"] == "A7 blue"
    assert any("A7: red" in e.text for e in events)
    play(game, "E5 green")
    assert game.to_move() == ("p2",) and game.view()["move_number"] == 2


def test_notation_is_forgiving_about_case_order_spacing_and_initials():
    game = make()
    play(game, "call r")
    assert game.parse_move("a7, BLUE", "p2") == Declare("p2", "A7", "blue")
    assert game.parse_move("blue a7", "p2") == Declare("p2", "A7", "blue")
    assert game.parse_move("declare A 7 and call g", "p2") == Declare("p2", "A7", "green")
    assert "one tile and one colour" in refused(game, "A7", "p2", error=MalformedMoveError)
    assert "one tile and one colour" in refused(game, "A7 B7 red", "p2", error=MalformedMoveError)
    assert "off the board" in refused(game, "H1 red", "p2", error=MalformedMoveError)
    assert "not a colour" in refused(game, "A7 pink", "p2", error=MalformedMoveError)
    refused(game, "A7 red 9", "p2", error=MalformedMoveError)
    refused(game, "", "p2", error=MalformedMoveError)


def test_declaring_a_space_not_of_the_called_colour_loses_at_once():
    game = make()
    play(game, "call red")
    events = play(game, "A1 blue")  # A1 is green
    assert game.outcome().winner == "p1"
    assert "A1 as red, but it is green" in game.outcome().reason
    assert game.view()["loss"] == {"seat": "p2", "rule": "wrong-color", "tile": "A1"}
    assert game.to_move() == () and game.view()["called"] is None
    # The task is over: the grid is revealed in full.
    assert game.view()["grid"] == {str(k): v for k, v in parse_grid(BANDS).items()}
    assert events[-1].kind == "final-grid"


def test_declaring_a_space_named_before_loses_even_if_of_the_called_colour():
    game = make()
    play(game, "call red", "A7 red")
    play(game, "A7 green")
    assert game.outcome().winner == "p2"
    assert game.view()["loss"]["rule"] == "named-before"


def test_declaring_the_black_centre_loses_it_is_never_of_the_called_colour():
    game = make()
    play(game, "call blue")
    play(game, "D4 red")
    assert game.outcome().winner == "p1"
    assert "it is black" in game.outcome().reason


def test_calling_a_colour_with_no_valid_space_left_loses():
    game = make()
    play(game, "call green")
    greens = ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "A2", "B2", "C2", "D2", "E2", "F2", "G2", "F3"]
    for tile in greens:
        play(game, f"{tile} green")
    assert game.view()["called"] == "green" and not game.is_over
    declarer = game.to_move()[0]
    play(game, "G3 green")  # the 16th and last green
    assert game.outcome().winner != declarer
    assert game.view()["loss"] == {"seat": declarer, "rule": "no-valid-tile", "tile": None}
    assert "no green tile" in game.outcome().reason


def test_the_player_who_declares_the_last_tile_cannot_call_a_valid_colour_and_loses():
    grid = parse_grid(BANDS)
    tiles = sorted((p for p, c in grid.items() if c != "black"), key=lambda p: (grid[p], p))
    game = make()
    play(game, f"call {grid[tiles[0]]}")
    for here, after in zip(tiles, tiles[1:]):
        play(game, f"{here} {grid[after]}")
    assert not game.is_over and game.view()["move_number"] == 47
    last = game.to_move()[0]
    play(game, f"{tiles[-1]} red")
    assert game.outcome().winner != last and game.view()["loss"]["rule"] == "no-valid-tile"
    assert game.view()["move_number"] == 48


def test_a_player_who_runs_out_of_time_loses_the_task():
    game = make()
    play(game, "call red")
    assert game.timeout("p1") == []  # not p1's turn: its clock is not running
    events = game.timeout("p2")
    assert game.outcome().winner == "p1" and "ran out of time" in game.outcome().reason
    assert game.view()["loss"]["rule"] == "timeout" and events[-1].kind == "final-grid"


def test_the_first_caller_out_of_time_loses_too():
    game = make(starter="p2")
    game.timeout("p2")
    assert game.outcome().winner == "p1"


def test_no_clock_runs_while_the_grid_is_on_show():
    game = new_game("tiles", seed=1)
    assert game.timeout("p1") == [] and not game.is_over


def test_declarations_are_typed_in_the_room():
    game = make()
    play(game, "call red")
    assert "game room" in refused(game, "A7 blue", "p2", private=True, error=IllegalMoveError)


def test_resigning_ends_the_task_and_reveals_the_grid():
    game = make()
    game.resign("p1")
    assert game.outcome().winner == "p2" and game.view()["grid"] is not None


def test_a_move_after_the_end_is_refused():
    game = make()
    game.resign("p1")
    refused(game, "call red", "p1", error=NotYourTurnError)
    assert list(game.legal_moves()) == []


def test_play_refuses_a_hand_built_move_that_the_text_would_not_give():
    game = make()
    before = game.to_dict()
    with pytest.raises(MalformedMoveError):
        game.play(Declare("p1", "A7", "red"))  # p1 must call first
    assert game.to_dict() == before
    play(game, "call red")
    before = game.to_dict()
    with pytest.raises(IllegalMoveError):
        game.play(Declare("p2", "a7", "red"))  # not canonical: not what any text gives
    with pytest.raises(GameError):
        game.play(Call("p2", "red"))
    assert game.to_dict() == before


def test_tiebreak_is_taken_and_kept_but_changes_nothing():
    game = make(tiebreak="p1")
    assert game.tiebreak == "p1"
    assert load(game.to_dict()).tiebreak == "p1"


# --------------------------------------------------------------------------- Chain


def test_chain_the_first_colour_must_match_a_tile_around_the_black_centre():
    game = make(anomalies="chain")  # all eight tiles around D4 are blue
    play(game, "call red")
    assert game.outcome().winner == "p2"
    assert game.view()["loss"] == {"seat": "p1", "rule": "no-valid-tile", "tile": None}
    assert "next to D4" in game.outcome().reason


def test_chain_the_first_declaration_touches_the_black_centre():
    game = make(anomalies="chain")
    play(game, "call blue")
    assert game.view()["chain_from"] == "D4"
    assert "next to the black centre D4" in refused(game, "D2 blue", "p2", error=IllegalMoveError)
    play(game, "C3 green")  # C3 is blue; now p1 must declare green next to C3
    assert game.view()["chain_from"] == "C3"
    assert {"tile": "C3", "color": "blue", "seat": "p2"} in game.view()["declared"]


def test_chain_later_declarations_touch_the_opponents_previous_tile():
    game = make(anomalies="chain")
    play(game, "call blue", "E3 green")  # p2 declares E3; greens next to E3: F2 E2 D2
    assert "next to E3" in refused(game, "A1 red", "p1", error=IllegalMoveError)
    play(game, "F2 green")  # diagonal is adjacent
    assert game.view()["chain_from"] == "F2" and not game.is_over
    play(game, "G3 blue")  # blue next to G3: F4 G4
    assert not game.is_over and game.to_move() == ("p1",)


def test_chain_calling_a_colour_the_opponent_cannot_say_next_to_the_tile_loses_the_caller():
    game = make(anomalies="chain")
    play(game, "call blue")
    play(game, "C5 green")  # green exists, but none touches C5 (B6 C6 D6 red, B4 D4.., B5 red)
    assert game.outcome().winner == "p1"
    assert "no green tile next to C5" in game.outcome().reason


def test_chain_the_last_declared_tile_is_not_next_to_itself_so_it_is_refused():
    game = make(anomalies="chain")
    play(game, "call blue", "C3 blue")
    assert "next to C3" in refused(game, "C3 blue", "p1", error=IllegalMoveError)


def test_chain_a_named_tile_next_to_the_last_one_still_loses_as_named_before():
    game = make(anomalies="chain")
    play(game, "call blue", "C3 blue", "D3 blue")
    play(game, "C3 red")
    assert game.view()["loss"]["rule"] == "named-before"


# --------------------------------------------------------------------------- Implode


STRIPES_MARKS = "A1 B1 A2 A3 D6 G7"


def test_implode_marks_fifteen_tiles_once_the_grid_is_hidden_and_never_the_centre():
    game = new_game("tiles", seed=11, anomalies="implode")
    assert game.view()["marks"] == []  # not while the grid is on show
    events = game.close_window()
    marks = game.view()["marks"]
    assert len(set(marks)) == 15 and "D4" not in marks
    assert any(e.kind == "implode" and e.data["marks"] == marks for e in events)
    assert game.view("p1")["marks"] == game.view("p2")["marks"] == marks


def test_implode_takes_the_most_frequent_orthogonal_neighbour_colour_of_the_original_grid():
    game = make(STRIPES, marks=STRIPES_MARKS, anomalies="implode")
    grid = game.grid
    from geniusbot.games.grid import Point

    def at(square):
        return grid[Point(ord(square[0]) - 65, int(square[1]) - 1)]

    # A1 (red): neighbours B1 and A2 were both blue. B1 and A2 implode too, but only the colours
    # before the switch count.
    assert at("A1") == "blue"
    # B1 (blue): A1 red, C1 green, B2 green -> green. A2 (blue): A1 red, A3 green, B2 green -> green.
    assert at("B1") == "green" and at("A2") == "green"
    # A3 (green): A2 blue, A4 red, B3 red -> red.
    assert at("A3") == "red"
    # D6 (green): two red and two blue neighbours: a tie keeps the colour.
    assert at("D6") == "green"
    # G7 (red): F7 green, G6 green -> green.
    assert at("G7") == "green"
    # Unmarked tiles keep theirs.
    assert at("B2") == "green" and at("C1") == "green"


def test_implode_marks_are_fifteen_coloured_tiles_for_any_seed():
    from geniusbot.games.allhands.tiles import draw_marks

    for seed in range(200):
        marks = draw_marks(seed)
        assert len(set(marks)) == 15 and all(str(p) != "D4" for p in marks)
    assert draw_marks(5) == draw_marks(5) and draw_marks(5) != draw_marks(6)


def test_implode_next_to_the_black_centre_only_the_coloured_neighbours_decide():
    # D5 (blue in STRIPES): C5 red, E5 green, D6 green, and D4 black -> green.
    # C4 (green): B4 blue, C5 red, C3 blue, D4 black -> blue.
    game = make(STRIPES, marks="D5 C4", anomalies="implode")
    from geniusbot.games.grid import Point

    assert game.grid[Point(3, 4)] == "green" and game.grid[Point(2, 3)] == "blue"


def test_implode_a_marked_tile_must_be_declared_in_its_new_colour():
    game = make(STRIPES, marks=STRIPES_MARKS, anomalies="implode")
    play(game, "call blue", "A1 red")  # A1 was red, now blue
    assert game.view()["declared"][0] == {"tile": "A1", "color": "blue", "seat": "p2"}
    play(game, "G7 red")  # G7 was red, now green
    assert game.view()["loss"] == {"seat": "p1", "rule": "wrong-color", "tile": "G7"}
    view = game.view()
    assert view["grid"]["G7"] == "green" and view["original_grid"]["G7"] == "red"
    assert view["marks"] == STRIPES_MARKS.split()


def test_without_implode_there_are_no_marks_and_no_original_grid():
    game = make()
    assert game.view()["marks"] == []
    game.resign("p1")
    assert game.view()["original_grid"] is None


# --------------------------------------------------------------------------- Landmine


def mined(grid=BANDS, p1="A7 B7 C7 D7 E7", p2="A1 B1 C1 D1 E1", **options):
    game = make(grid, anomalies=options.pop("anomalies", "landmine"), **options)
    if p1:
        game.submit(f"mines {p1}", "p1", private=True)
    if p2:
        game.submit(f"mines {p2}", "p2", private=True)
    if game.window() is not None:
        game.close_window()
    return game


def test_landmine_right_after_hiding_both_players_have_30_seconds_to_send_five_tiles_privately():
    game = make(anomalies="landmine")
    assert game.window() == Window("landmines", 30)
    assert game.to_move() == ("p1", "p2") and game.view()["grid"] is None
    assert "direct message" in refused(game, "mines A1 B1 C1 D1 E1", "p1", error=IllegalMoveError)
    assert "direct message" in refused(game, "call red", "p1", error=IllegalMoveError)
    assert "five different" in refused(game, "mines A1 A1 C1 D1 E1", "p1", private=True)
    assert "exactly five" in refused(game, "mines A1 B1 C1 D1", "p1", private=True)
    assert "exactly five" in refused(game, "A1 B1 C1 D1 E1 F1", "p1", private=True)
    assert "black centre" in refused(game, "mines A1 B1 C1 D1 D4", "p1", private=True)
    assert "five different" in refused(game, "mines A1 B1 C1 D1 red", "p1", private=True)
    move, events = game.submit("e1 d1 c1 b1 a1", "p1", private=True)
    assert move.text() == "mines A1 B1 C1 D1 E1"
    assert game.to_move() == ("p2",) and game.window() == Window("landmines", 30)
    assert "first submission stands" in refused(game, "mines A2 B2 C2 D2 E2", "p1", private=True)
    private = [e for e in events if not e.public]
    assert private and all(e.seats == frozenset({"p1"}) for e in private)
    assert all("A1" not in e.text for e in events if e.public)


def test_landmine_the_calls_start_once_both_have_sent_their_mines():
    game = make(anomalies="landmine")
    game.submit("mines A1 B1 C1 D1 E1", "p1", private=True)
    game.submit("mines A1 B2 C2 D2 E2", "p2", private=True)
    assert game.window() is None and game.to_move() == ("p1",) and game.view()["phase"] == "call"


def test_landmine_none_given_means_none_placed():
    game = make(anomalies="landmine")
    game.submit("mines A1 B1 C1 D1 E1", "p1", private=True)
    events = game.close_window()
    assert game.view("p2")["mines"] == [] and game.view("p1")["mines"] == ["A1", "B1", "C1", "D1", "E1"]
    assert any("p2 sent no mines" in e.text for e in events)
    assert game.to_move() == ("p1",)


def test_landmine_a_seat_out_of_time_in_the_window_places_none_and_does_not_lose():
    game = make(anomalies="landmine")
    game.timeout("p2")
    assert not game.is_over and game.view("p2")["mines"] == [] and game.to_move() == ("p1",)
    game.timeout("p1")
    assert not game.is_over and game.view()["phase"] == "call"


def test_landmine_mines_are_in_their_owners_view_only():
    game = mined()
    assert game.view("p1")["mines"] == ["A7", "B7", "C7", "D7", "E7"]
    assert game.view("p2")["mines"] == ["A1", "B1", "C1", "D1", "E1"]
    assert game.view()["mines"] is None
    assert game.view()["mines_sent"] == {"p1": True, "p2": True}


def test_landmine_declaring_a_mined_tile_makes_the_declarer_move_again_in_the_colour_they_named():
    game = mined()
    play(game, "call red")
    events = play(game, "A7 green")  # p1's mine on A7: p2 declares again, a green tile
    assert game.to_move() == ("p2",) and game.view()["called"] == "green"
    assert game.view()["must_move_again"] and game.view()["caller"] == "p2"
    assert game.view()["exploded"] == [{"tile": "A7", "owners": ["p1"]}]
    assert any(e.kind == "landmine" and e.public for e in events)
    play(game, "G1 red")  # no mine on G1: p1 to declare red
    assert game.to_move() == ("p1",) and not game.view()["must_move_again"]


def test_landmine_a_mine_of_either_player_counts_even_ones_own():
    game = mined()
    play(game, "call green")
    play(game, "A1 red")  # p2's own mine
    assert game.to_move() == ("p2",) and game.view()["called"] == "red"
    play(game, "B7 green")  # p1's mine: p2 again, green
    assert game.to_move() == ("p2",) and game.view()["called"] == "green"
    play(game, "B1 blue")  # p2's own again
    assert game.to_move() == ("p2",) and [e["tile"] for e in game.view()["exploded"]] == ["A1", "B7", "B1"]


def test_landmine_both_players_mines_on_one_tile_go_off_together():
    game = mined(p1="G7 B7 C7 D7 E7", p2="G7 B1 C1 D1 E1")
    play(game, "call red", "G7 blue")
    assert game.view()["exploded"] == [{"tile": "G7", "owners": ["p1", "p2"]}]
    assert game.to_move() == ("p2",)


def test_landmine_the_move_again_can_still_lose():
    game = mined()
    play(game, "call red", "A7 green", "A6 red")  # A6 is red, green was called
    assert game.view()["loss"] == {"seat": "p2", "rule": "wrong-color", "tile": "A6"}


def test_landmine_the_call_made_on_a_mined_tile_is_judged_like_any_call():
    game = mined(anomalies="landmine,chain", p1="D6 B7 C7 D7 E7")
    play(game, "call blue", "D5 red")
    play(game, "D6 green")  # a mine on D6, but no green touches D6: p1 loses on its call
    assert game.view()["loss"] == {"seat": "p1", "rule": "no-valid-tile", "tile": None}
    assert game.view()["exploded"] == [{"tile": "D6", "owners": ["p1"]}]


def test_landmine_mines_are_sent_only_in_the_window():
    game = mined()
    play(game, "call red")
    assert "window is over" in refused(game, "mines A2 B2 C2 D2 E2", "p2", error=IllegalMoveError)
    assert "window is over" in refused(game, "mines A2 B2 C2 D2 E2", "p2", private=True, error=IllegalMoveError)
    plain = make()
    assert "no landmines" in refused(plain, "mines A2 B2 C2 D2 E2", "p1", private=True, error=IllegalMoveError)


# --------------------------------------------------------------------------- Rainbow


def test_rainbow_calls_and_declarations_use_the_six_colours():
    game = make(RAINBOW, anomalies="rainbow")
    assert "red, orange, yellow, green, blue, purple" in refused(game, "call pink", "p1")
    play(game, "call orange", "B6 purple")
    assert game.view()["declared"] == [{"tile": "B6", "color": "orange", "seat": "p2"}]
    assert game.parse_move("A1 y", "p1") == Declare("p1", "A1", "yellow")
    play(game, "A1 yellow")
    assert game.view()["declared"][-1] == {"tile": "A1", "color": "purple", "seat": "p1"}


def test_a_colour_called_takes_its_article_in_the_turn_line():
    game = make(RAINBOW, anomalies="rainbow")
    assert play(game, "call orange")[-1].text == "p2: declare an orange tile and call a colour."
    play(game, "B6 yellow")
    assert play(game, "C5 orange")[-1].text == "p2: declare an orange tile and call a colour."


# --------------------------------------------------------------------------- Rectangle-Adverse


def test_rectangle_declaring_the_fourth_corner_of_a_rectangle_loses():
    game = make(anomalies="rectangle-adverse")
    play(game, "call red", "A7 red", "G7 green", "A1 green")
    assert not game.is_over
    play(game, "G1 red")  # G1 is green, as called, but closes A1 A7 G7 G1
    assert game.view()["loss"] == {"seat": "p1", "rule": "rectangle", "tile": "G1"}
    assert "rectangle with A1, A7, G7" in game.outcome().reason


def test_rectangle_three_tiles_in_a_line_or_an_l_elsewhere_make_no_rectangle():
    game = make(anomalies="rectangle-adverse")
    play(game, "call red", "A7 red", "B7 red", "C7 red", "A6 red")
    assert not game.is_over  # A7 B7 C7 in a row, A6 under A7: no four corners yet


def test_without_rectangle_adverse_a_rectangle_is_harmless():
    game = make()
    play(game, "call red", "A7 red", "G7 green", "A1 green", "G1 red")
    assert not game.is_over


def rows_one_and_two_declared(anomalies: str):
    """Rainbow grid: row 2 (A2-F2 blue, G2 purple) and A1 (purple) declared; p1 to call."""
    game = make(RAINBOW, anomalies=anomalies)
    play(game, "call blue", "A2 blue", "B2 blue", "C2 blue", "D2 blue", "E2 blue", "F2 purple", "G2 purple")
    assert not game.is_over and game.to_move() == ("p1",) and game.view()["called"] == "purple"
    return game


def test_rectangle_calling_a_colour_that_forces_the_opponent_to_make_a_rectangle_loses():
    game = rows_one_and_two_declared("rainbow,rectangle-adverse")
    # Every purple left (B1-G1) closes a rectangle with A1, A2 and the tile above it.
    play(game, "A1 purple")
    assert game.view()["loss"] == {"seat": "p1", "rule": "forced-rectangle", "tile": None}
    assert "would make a rectangle" in game.outcome().reason


def test_rectangle_calling_a_colour_that_leaves_a_safe_tile_is_fine():
    game = rows_one_and_two_declared("rainbow,rectangle-adverse")
    play(game, "A1 red")
    assert not game.is_over and game.to_move() == ("p2",)


def test_rectangle_forced_calls_count_only_without_the_anomaly():
    game = rows_one_and_two_declared("rainbow")
    play(game, "A1 purple")
    assert not game.is_over


# --------------------------------------------------------------------------- combinations


def test_chain_and_landmine_the_move_again_touches_the_mined_tile():
    game = mined(anomalies="landmine,chain")
    play(game, "call blue", "D5 red", "D6 red")
    play(game, "D7 red")  # p1's mine on D7: p2 declares again, red, next to D7
    assert game.to_move() == ("p2",) and game.view()["chain_from"] == "D7"
    assert "next to D7" in refused(game, "A7 red", "p2", error=IllegalMoveError)
    play(game, "C6 red")
    assert game.to_move() == ("p1",) and game.view()["chain_from"] == "C6"


def test_chain_and_landmine_a_call_is_judged_from_the_tile_just_declared():
    game = mined(anomalies="landmine,chain")
    play(game, "call blue", "D5 red")
    play(game, "D6 green")  # no green touches D6
    assert game.view()["loss"] == {"seat": "p1", "rule": "no-valid-tile", "tile": None}


def test_chain_and_rectangle_only_the_tiles_next_to_the_last_one_count_for_a_forced_rectangle():
    game = make(anomalies="chain,rectangle-adverse")
    play(game, "call blue", "D3 green", "D2 green")
    # p2 declares E2 and calls blue: the one blue tile next to E2 is E3, which closes D2 D3 E2
    # E3. Blue tiles far away (A3, C5...) would be safe, but Chain rules them out.
    play(game, "E2 blue")
    assert game.view()["loss"] == {"seat": "p2", "rule": "forced-rectangle", "tile": None}
    assert "every blue tile next to E2 would make a rectangle" in game.outcome().reason


def test_chain_and_rectangle_a_safe_tile_next_to_the_last_one_keeps_the_call_valid():
    game = make(anomalies="chain,rectangle-adverse")
    play(game, "call blue", "D3 green", "D2 green", "E2 green")
    assert not game.is_over and game.view()["chain_from"] == "E2"


def test_all_five_anomalies_together_play_to_the_end():
    game = make(STRIPES, marks=STRIPES_MARKS, anomalies=",".join(ANOMALIES))
    assert game.view()["palette"] == ["red", "orange", "yellow", "green", "blue", "purple"]
    game.submit("mines C3 E5 A1 B1 B2", "p1", private=True)
    game.close_window()
    play(game, "call red")
    game.timeout("p2")
    assert game.outcome().winner == "p1"


# --------------------------------------------------------------------------- a record


RECORD = """
[Game "tiles"]
[Seed "7"]
[Anomalies "landmine"]
[Starter "p2"]
[Result "p1"]

# Seed 7 deals:
# 7 G G R R B B G
# 6 G R G B B R B
# 5 B B G B B G R
# 4 R R B * G R G
# 3 B R B B R R G
# 2 R R R G G B G
# 1 G R G B G B R
host: close window           # the grid is hidden; the landmine window opens
p1: call red                 # refused: mines first, and by direct message
p1 (dm): mines A1 B1 C1 D1 E1
p2 (dm): mines C4 A7 B7 F4 G5
p2: call red
p1: A4 blue
p2: C4 green                 # p2's own mine: p2 again, green
p2: C6 red
p1: B1 green                 # p1's own mine: again, green
p1: A1 blue                  # and again, blue
p1: D1 blue                  # and again
p1: F1 red
p2: A4 green                 # named before: p2 loses
p1: G7 red                   # refused: the task is over
"""


def test_a_record_replays_through_the_adjudicator():
    from geniusbot.adjudicate import adjudicate_text

    result = adjudicate_text(RECORD)
    accepted = [a.accepted for a in result.actions]
    assert accepted == [True, False] + [True] * 11 + [False]
    assert "direct message" in result.actions[1].error
    assert result.outcome.winner == "p1" and result.game.loss["rule"] == "named-before"
    assert [e["tile"] for e in result.game.view()["exploded"]] == ["C4", "B1", "A1", "D1"]
    assert result.notes == []
