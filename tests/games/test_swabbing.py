"""Deck Swabbing scenarios, read like the rule text: the plain task, then each anomaly, then the
combinations that touch each other."""

from __future__ import annotations

import pytest

from geniusbot.games import (
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    OptionError,
    load,
    new_game,
)
from geniusbot.games.allhands.swabbing import (
    SQUARES,
    WHITE,
    DeckSwabbing,
    Snipe,
    Swab,
    generate_numbers,
    is_permutation_line,
    neighbours,
    parse_anomalies,
    pyramid_value,
    region_fills,
    white_regions,
)
from tests.games.swabbing_helpers import colours, make, parse_numbers, play, pt

# A pocket in the top-left corner: C5 C6 closes off A6 A7 B6 B7 C7 (five tiles); C4 C5 would
# leave A6 A7 B6 B7 C6 C7 (six tiles) open.
POCKET = """
7 . . . # . . .
6 . . . # . . .
5 # # . # . . .
4 . . . . . . .
3 . . . . . . .
2 . . . . . . .
1 . . . . . . .
"""

# Only rows 7 and 1 are white (seven tiles each); rows 2-6 are shared 17 / 17 with one black.
TWO_ROWS = """
7 . . . . . . .
6 X X X X X X X
5 X X X X X X X
4 X X X # O O O
3 O O O O O O O
2 O O O O O O O
1 . . . . . . .
"""

# One white pair left (F1 G1); p1 has 24 tiles, p2 22, one black.
LAST_PAIR = """
7 X X X X X X X
6 X X X X X X X
5 X X X X X X X
4 X X X # O O O
3 O O O O O O O
2 O O O O O O O
1 O O O O O . .
"""


def refuses(game: DeckSwabbing, text: str, seat: str, *, private: bool = False, error=GameError) -> str:
    """The message that refuses ``text``, after checking that the refusal changed nothing."""
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.submit(text, seat, private=private)
    assert game.to_dict() == before
    return str(caught.value)


# --------------------------------------------------------------------------- the task as written


def test_the_board_starts_all_white_and_the_starter_moves_first():
    game = new_game("swabbing", seed=3)
    assert colours(game, "white") == [str(p) for p in sorted(SQUARES, key=lambda p: (p.col, p.row))]
    assert game.to_move() == ("p1",)
    assert new_game("swabbing", starter="p2").to_move() == ("p2",)
    view = game.view()
    assert view["phase"] == "move" and view["turn"] == "p1" and view["sniper"] is None
    assert view["numbers"] is None and view["values"] is None and view["hook"] is None


def test_a_move_colours_two_side_by_side_white_tiles_black_and_passes_the_turn():
    game = make()
    move, events = game.submit("c4, C3", "p1")
    assert move == Swab("p1", ("C3", "C4")) and move.text() == "C3 C4"
    assert colours(game, "black") == ["C3", "C4"]
    assert game.to_move() == ("p2",)
    assert game.view()["last_move"] == "C3 C4"
    assert events[0].kind == "move" and events[0].data["tiles"] == ["C3", "C4"]
    game.submit("D3 E3", "p2")
    assert colours(game, "black") == ["C3", "C4", "D3", "E3"]
    assert game.to_move() == ("p1",)


@pytest.mark.parametrize("text", ["c3 c4", "C3-C4", "C3,C4", "C4 C3", "c3 and c4", " C3  C4 "])
def test_a_pair_may_be_written_freely_and_is_recorded_sorted(text):
    assert make().parse_move(text, "p1") == Swab("p1", ("C3", "C4"))


@pytest.mark.parametrize(
    ("text", "error", "says"),
    [
        ("C3 D4", IllegalMoveError, "not side by side"),  # diagonal
        ("C3 C5", IllegalMoveError, "not side by side"),
        ("C3 C3", IllegalMoveError, "twice"),
        ("C3", MalformedMoveError, "exactly two"),
        ("C3 C4 C5", MalformedMoveError, "exactly two"),
        ("C3 H3", MalformedMoveError, "off the board"),
        ("C0 C1", MalformedMoveError, "off the board"),
        ("hello", MalformedMoveError, "not a tile"),
        ("", MalformedMoveError, "write the white tiles"),
        ("snipe D4", IllegalMoveError, "no Snipe"),
        ("C3 C4 @", MalformedMoveError, "not a move"),
    ],
)
def test_a_malformed_or_illegal_move_is_refused_with_a_sentence_and_changes_nothing(text, error, says):
    message = refuses(make(), text, "p1", error=error)
    assert says in message and message.endswith(".")


def test_a_tile_that_is_not_white_cannot_be_coloured():
    game = make(POCKET)
    assert "already black" in refuses(game, "D6 E6", "p1")
    game.board[pt("E6")] = "p2"
    assert "already p2's colour" in refuses(game, "E5 E6", "p1")


def test_only_the_seat_to_move_moves_and_moves_are_typed_in_the_room():
    game = make()
    assert "not your turn" in refuses(game, "C3 C4", "p2", error=NotYourTurnError)
    assert "game room" in refuses(game, "C3 C4", "p1", private=True)


def test_a_region_of_five_or_fewer_white_tiles_takes_the_movers_colour():
    game = make(POCKET)
    events = play(game, "C5 C6")
    assert colours(game, "p1") == ["A6", "A7", "B6", "B7", "C7"]
    assert "5 tiles take p1's colour" in events[0].text
    assert game.view()["history"][-1]["filled"] == ["A6", "A7", "B6", "B7", "C7"]
    assert game.view()["tiles"] == {"p1": 5, "p2": 0}


def test_a_region_of_six_white_tiles_stays_white():
    game = make(POCKET)
    play(game, "C4 C5")
    assert colours(game, "p1") == []
    assert {"A6", "A7", "B6", "B7", "C6", "C7"} <= set(colours(game, "white"))


def test_every_small_region_is_filled_at_once():
    # D1 E1 splits row 1 into A1-C1 and F1-G1, both small: p2 moves and takes both.
    game = make(
        """
7 . . . . . . .
6 . . . . . . .
5 . . . . . . .
4 . . . . . . .
3 . . . . . . .
2 # # # # # # #
1 . . . . . . .
""",
        starter="p2",
    )
    play(game, "D1 E1")
    assert colours(game, "p2") == ["A1", "B1", "C1", "F1", "G1"]
    assert colours(game, "p1") == []


def test_the_task_ends_when_no_pair_is_left_and_most_tiles_wins():
    game = make(LAST_PAIR, starter="p2")
    events = play(game, "F1 G1")
    assert game.is_over and game.to_move() == ()
    assert game.outcome().winner == "p1"  # 24 tiles to 22, though p2 moved last
    assert "p1 wins the task, 24 tiles to 22" in events[-1].text
    assert game.view()["result"] == {"reason": "no-move", "scores": {"p1": 24, "p2": 22}, "tiebreak": None}
    assert "over" in refuses(game, "A1 A2", "p1", error=NotYourTurnError)


def test_the_last_move_may_fill_the_last_region():
    game = make(TWO_ROWS)
    play(game, "A7 B7", "A1 B1")
    assert game.is_over
    assert colours(game, "white") == []
    assert game.view()["tiles"] == {"p1": 22, "p2": 22}


def test_a_tie_goes_to_the_tiebreak_seat():
    for tiebreak in ("p1", "p2"):
        game = make(TWO_ROWS, tiebreak=tiebreak)
        play(game, "A7 B7", "A1 B1")
        assert game.outcome().winner == tiebreak
        assert game.view()["result"]["tiebreak"] == tiebreak
        assert "A tie at 22 tiles each goes to" in game.outcome().reason


def test_without_a_tiebreak_option_a_tie_goes_to_the_seat_that_most_recently_scored():
    # p2 starts: p2 fills C7-G7, then p1 fills C1-G1 and is the last to score.
    game = make(TWO_ROWS, starter="p2")
    assert game.view()["tiebreak"] == "p2"
    play(game, "A7 B7")
    assert game.view()["tiebreak"] == "p2"
    play(game, "A1 B1")
    assert game.outcome().winner == "p1" and game.view()["result"]["tiebreak"] == "p1"


def test_a_tie_with_nobody_ever_scoring_goes_to_p2():
    game = make(
        """
7 . . . . . . .
6 # # # # # # #
5 # # # # # # #
4 # # # # # # #
3 # # # # # # #
2 # # # # # # #
1 # # # # # # #
""",
        anomalies="linear",
    )
    play(game, "A7 B7 C7 D7 E7 F7 G7")
    assert game.is_over and game.view()["tiles"] == {"p1": 0, "p2": 0}
    assert game.outcome().winner == "p2"


def test_running_out_of_time_loses_the_task():
    game = make()
    play(game, "C3 C4")
    events = game.timeout("p2")
    assert game.outcome().winner == "p1" and "p2 ran out of time" in events[-1].text
    assert game.view()["result"]["reason"] == "timeout"
    assert game.timeout("p1") == []  # over: nothing more happens


def test_a_timeout_of_a_seat_not_to_move_does_nothing():
    game = make()
    before = game.to_dict()
    assert game.timeout("p2") == []
    assert game.to_dict() == before


def test_resigning_ends_the_task():
    game = make()
    game.resign("p1")
    assert game.outcome().winner == "p2" and game.view()["result"]["reason"] == "resign"


def test_regions_are_orthogonally_connected():
    # A diagonal touch does not join regions: A1 and B2 stay apart.
    game = make("""
7 # # # # # # #
6 # # # # # # #
5 # # # # # # #
4 # # # # # # #
3 # # . . . . .
2 # . # . . . .
1 . # . . . . .
""")
    regions = white_regions(game.board)
    assert [pt("A1")] in regions and [pt("B2")] in regions


# --------------------------------------------------------------------------- options


def test_anomalies_are_read_by_name_and_others_refused():
    assert parse_anomalies("Snipe, HOOK") == ("hook", "snipe")
    assert parse_anomalies("linear pyramid") == ("linear", "pyramid")
    assert parse_anomalies("none") == () == parse_anomalies("")
    with pytest.raises(OptionError, match="another task"):
        parse_anomalies("hook, chain")
    with pytest.raises(OptionError, match="no anomaly"):
        parse_anomalies("hooks")


@pytest.mark.parametrize("option", ["starter", "tiebreak"])
def test_starter_and_tiebreak_are_seats(option):
    with pytest.raises(OptionError, match="p1 or p2"):
        DeckSwabbing.new(**{option: "p3"})


# --------------------------------------------------------------------------- Hook


def test_hook_leaves_the_first_move_free_then_binds_to_the_tiles_just_placed():
    game = make(anomalies="hook")
    assert game.view()["hook"] == {"from": [], "lifted": False}
    play(game, "A1 A2")
    assert game.view()["hook"] == {"from": ["A1", "A2"], "lifted": False}
    message = refuses(game, "F6 F7", "p2")
    assert "Hook" in message and "A1 A2" in message and "A3 B1 B2" in message
    assert "Hook" in refuses(game, "B3 C3", "p2")  # B3 is only diagonal to A2
    play(game, "B2 C2")
    assert game.view()["hook"]["from"] == ["B2", "C2"]
    assert "Hook" in refuses(game, "A3 A4", "p1")  # next to the older A2, not to B2 C2


def test_hook_counts_only_the_previous_move_not_the_tiles_it_filled():
    # C5 C6 fills the corner pocket; no white tile can touch a filled tile, so only C5 C6 bind.
    game = make(POCKET, anomalies="hook")
    play(game, "C5 C6")
    assert game.view()["hook"]["from"] == ["C5", "C6"]
    filled = [pt(s) for s in colours(game, "p1")]
    assert all(game.board[n] != "white" for p in filled for n in neighbours(p))
    moves = list(game.legal_moves("p2"))
    assert moves and all("C4" in m.tiles for m in moves)
    assert "Hook" in refuses(game, "F2 G2", "p2")


def test_hook_is_lifted_for_a_move_when_no_move_can_touch_the_tiles_just_placed():
    # A3 A4 leaves A1 A2 and A5-A7 as small regions: filled, so nothing white touches A3 or A4.
    game = make(
        """
7 . # . . . . .
6 . # . . . . .
5 . # . . . . .
4 . # . . . . .
3 . # . . . . .
2 . # . . . . .
1 . # . . . . .
""",
        anomalies="hook",
    )
    play(game, "A3 A4")
    assert colours(game, "p1") == ["A1", "A2", "A5", "A6", "A7"]
    assert game.view()["hook"] == {"from": ["A3", "A4"], "lifted": True}
    play(game, "F6 F7")  # far from A3 A4: allowed, since no move could touch them
    assert game.view()["hook"] == {"from": ["F6", "F7"], "lifted": False}
    assert "Hook" in refuses(game, "C1 D1", "p1")


def test_hook_under_linear_needs_one_tile_next_to_the_last_placement():
    game = make(anomalies="hook, linear", recent="D4")
    game.board[pt("D4")] = "black"
    play(game, "D5 D7")  # D5 touches D4; D7 rides along in the same column
    assert game.view()["hook"]["from"] == ["D5", "D7"]
    assert "Hook" in refuses(game, "A1 B1 C1", "p2")
    play(game, "C7 E7")  # touches D7 only


# --------------------------------------------------------------------------- Linear


def test_linear_colours_any_white_tiles_of_one_row_or_one_column():
    game = make(POCKET, anomalies="linear")
    assert game.parse_move("C6 C3 c4", "p1") == Swab("p1", ("C3", "C4", "C6"))
    assert game.parse_move("A4 G4 C4", "p1").text() == "A4 C4 G4"
    assert game.parse_move("E2", "p1").text() == "E2"
    # Not necessarily touching: a black tile may lie between them.
    assert game.parse_move("E5 C5 G5", "p1").text() == "C5 E5 G5"  # D5 is black
    play(game, "A4 B4 G4")
    assert colours(game, "black")[:3] == ["A4", "A5", "B4"]


def test_linear_refuses_tiles_off_one_line_and_tiles_that_are_not_white():
    game = make(POCKET, anomalies="linear")
    assert "one row or one column" in refuses(game, "C3 D4", "p1")
    assert "one row or one column" in refuses(game, "C3 C4 D4", "p1")
    assert "already black" in refuses(game, "D3 D4 D5", "p1")
    assert "twice" in refuses(game, "C3 C3", "p1")


def test_without_linear_gaps_and_single_tiles_are_refused():
    game = make()
    assert "exactly two" in refuses(game, "C3 C4 C6", "p1")
    assert "exactly two" in refuses(game, "C3", "p1")


def test_linear_single_tiles_left_between_are_filled_for_the_mover():
    game = make(TWO_ROWS, anomalies="linear")
    play(game, "A7 C7 E7 G7")
    # B7, D7 and F7 are left alone: three regions of one tile each, all p1's.
    assert {"B7", "D7", "F7"} <= set(colours(game, "p1")) and game.view()["tiles"]["p1"] == 20


def test_under_linear_the_task_ends_when_no_white_tile_is_left():
    # Under Linear a lone white tile is still a move, so the end is "no legal move": no white left.
    game = make(TWO_ROWS, anomalies="linear")
    assert game.has_legal_move()
    play(game, "A7 B7 C7 D7 E7 F7 G7")
    assert not game.is_over
    play(game, "D1")
    assert game.is_over and "No white tile is left" in game.outcome().reason
    assert game.view()["tiles"] == {"p1": 17, "p2": 23}


# --------------------------------------------------------------------------- Pyramid


def test_pyramid_values_ring_by_ring():
    assert pyramid_value(pt("D4")) == 4
    assert pyramid_value(pt("C3")) == pyramid_value(pt("E5")) == pyramid_value(pt("D5")) == 3
    assert pyramid_value(pt("B2")) == pyramid_value(pt("F4")) == 2
    assert pyramid_value(pt("A1")) == pyramid_value(pt("G4")) == pyramid_value(pt("D7")) == 1
    counts = {v: sum(1 for p in SQUARES if pyramid_value(p) == v) for v in (1, 2, 3, 4)}
    assert counts == {4: 1, 3: 8, 2: 16, 1: 24}


PYRAMID_END = """
7 X X X X X X X
6 X # # # # # X
5 X # O O O # X
4 X # O O O # X
3 X # O O O # X
2 X # # # # # X
1 X X X X X . .
"""


def test_pyramid_most_points_wins_not_most_tiles():
    game = make(PYRAMID_END, anomalies="pyramid", starter="p2")
    play(game, "F1 G1")
    # p1: 22 outer tiles (22 points); p2: 9 centre tiles (4 + 8 * 3 = 28 points).
    assert game.view()["tiles"] == {"p1": 22, "p2": 9}
    assert game.view()["scores"] == {"p1": 22, "p2": 28}
    assert game.outcome().winner == "p2" and "28 points to 22" in game.outcome().reason
    assert game.view()["values"]["D4"] == 4


def test_without_pyramid_the_same_board_goes_to_the_most_tiles():
    game = make(PYRAMID_END, starter="p2")
    play(game, "F1 G1")
    assert game.outcome().winner == "p1"


def test_a_pyramid_tie_in_points_goes_to_the_tiebreak_seat():
    # p1: 22 outer tiles (1 each) and B6 C6 D6 (2 each) = 28; p2: the centre nine = 28.
    game = make(
        """
7 X X X X X X X
6 X X X X # # X
5 X # O O O # X
4 X # O O O # X
3 X # O O O # X
2 X # # # # # X
1 X X X X X . .
""",
        anomalies="pyramid",
        tiebreak="p1",
    )
    assert game.scores() == {"p1": 28, "p2": 28} and game.tile_counts() == {"p1": 25, "p2": 9}
    play(game, "F1 G1")
    assert game.outcome().winner == "p1" and game.view()["result"]["tiebreak"] == "p1"
    assert "A tie at 28 points each" in game.outcome().reason


# --------------------------------------------------------------------------- Snipe


def test_snipe_puts_both_seats_to_move_and_moves_go_by_direct_message():
    game = make(anomalies="snipe")
    assert game.to_move() == ("p1", "p2") and game.view()["sniper"] == "p2"
    assert "direct message" in refuses(game, "C3 C4", "p1")
    assert "direct message" in refuses(game, "snipe D4", "p2")
    assert "only snipe" in refuses(game, "C3 C4", "p2", private=True)
    assert refuses(game, "snipe D4", "p1", private=True) == (
        "It is your own move: you snipe only on your opponent's turn. Name two side-by-side white tiles, such as C3 C4."
    )
    assert game.is_private(Swab("p1", ("C3", "C4"))) and game.is_private(Snipe("p2", "D4"))


def test_snipe_and_move_are_sealed_until_both_are_in_then_played_together():
    game = make(anomalies="snipe")
    game.submit("C3 C4", "p1", private=True)
    assert colours(game, "black") == [] and game.to_move() == ("p2",)
    assert game.view()["submitted"] == {"p1": True, "p2": False}
    events = game.submit("snipe F6", "p2", private=True)[1]
    assert colours(game, "black") == ["C3", "C4", "F6"]
    assert game.to_move() == ("p2", "p1") and game.turn == "p2"
    entry = game.view()["history"][-1]
    assert entry == {"seat": "p1", "tiles": ["C3", "C4"], "snipe": "F6", "snipe_ignored": False, "filled": []}
    assert "p2 sniped F6" in events[-2].text


def test_the_order_of_the_sealed_submissions_does_not_matter():
    first, second = make(POCKET, anomalies="snipe"), make(POCKET, anomalies="snipe")
    first.submit("C4 D4", "p1", private=True)
    first.submit("snipe C6", "p2", private=True)
    second.submit("snipe C6", "p2", private=True)
    second.submit("D4 C4", "p1", private=True)
    assert first.to_dict() == second.to_dict()


def test_the_mover_scores_the_regions_the_snipe_creates():
    # p1 plays far away; p2's snipe on C6 cuts the pocket to five tiles: they are p1's.
    game = make(POCKET, anomalies="snipe")
    play(game, "snipe C6", "F2 G2")
    assert colours(game, "p1") == ["A6", "A7", "B6", "B7", "C7"]
    assert colours(game, "p2") == []


def test_a_snipe_on_a_tile_the_mover_also_coloured_is_ignored():
    game = make(anomalies="snipe")
    events = play(game, "snipe C4", "C3 C4")
    assert any("changes nothing" in e.text for e in events if e.kind == "move")
    assert colours(game, "black") == ["C3", "C4"]
    assert game.view()["history"][-1]["snipe_ignored"] is True


def test_snipe_none_and_a_second_submission():
    game = make(anomalies="snipe")
    game.submit("none", "p2", private=True)
    assert game.view()["sealed"] is None
    assert game.view("p2")["sealed"] == "snipe none"
    assert "first answer stands" in refuses(game, "snipe D4", "p2", private=True, error=NotYourTurnError)
    game.submit("C3 C4", "p1", private=True)
    assert colours(game, "black") == ["C3", "C4"]
    game2 = make(anomalies="snipe")
    game2.submit("C3 C4", "p1", private=True)
    assert "first one stands" in refuses(game2, "D3 D4", "p1", private=True, error=NotYourTurnError)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("snipe", "Name one white tile"),
        ("snipe D4 D5", "Name one white tile"),
        ("snipe D4 none", "Name one white tile"),
        ("snipe hello", "Name one white tile"),
    ],
)
def test_a_malformed_snipe_is_refused(text, says):
    assert says in refuses(make(anomalies="snipe"), text, "p2", private=True)


def test_a_snipe_must_be_on_a_white_tile():
    game = make(POCKET, anomalies="snipe")
    assert "not white" in refuses(game, "snipe D7", "p2", private=True)


def test_a_sniper_who_runs_out_of_time_snipes_nothing_and_does_not_lose():
    game = make(anomalies="snipe")
    events = game.timeout("p2")
    assert not game.is_over and game.to_move() == ("p1",)
    assert "snipes nothing" in events[0].text
    game.submit("C3 C4", "p1", private=True)
    assert colours(game, "black") == ["C3", "C4"] and game.to_move() == ("p2", "p1")
    # Once the move is sealed, the sniper's timeout plays the turn.
    game.submit("D3 D4", "p2", private=True)
    game.timeout("p1")
    assert colours(game, "black") == ["C3", "C4", "D3", "D4"] and not game.is_over


def test_a_mover_who_runs_out_of_time_loses_even_with_the_snipe_in():
    game = make(anomalies="snipe")
    game.submit("snipe D4", "p2", private=True)
    game.timeout("p1")
    assert game.outcome().winner == "p2" and colours(game, "black") == []
    assert game.view()["sealed"] is None and game.view("p2")["sealed"] is None


def test_snipe_on_the_last_pair_cannot_stall_the_end():
    # The snipe takes F1 while p2 plays F1 G1: ignored; the board is swabbed and the task ends.
    game = make(LAST_PAIR, anomalies="snipe", starter="p2")
    play(game, "snipe F1", "F1 G1")
    assert game.is_over and game.to_move() == ()


def test_hook_counts_the_snipe_as_placed_last_turn():
    game = make(anomalies="hook, snipe")
    play(game, "snipe G7", "A1 A2")
    assert game.view()["hook"]["from"] == ["A1", "A2", "G7"]
    play(game, "F7 E7")  # p2 touches only its own snipe
    assert game.view()["hook"]["from"] == ["E7", "F7"]


def test_an_ignored_snipe_adds_nothing_to_hook():
    game = make(anomalies="hook, snipe")
    play(game, "snipe A2", "A1 A2")
    assert game.view()["hook"]["from"] == ["A1", "A2"]


def test_snipe_is_not_bound_by_hook():
    game = make(anomalies="hook, snipe", recent="A1")
    game.board[pt("A1")] = "black"
    game.submit("snipe G7", "p2", private=True)
    assert "Hook" in refuses(game, "F6 F7", "p1", private=True)
    game.submit("A2 A3", "p1", private=True)
    assert "G7" in colours(game, "black")


def test_linear_hook_and_snipe_together():
    game = make(anomalies="linear, hook, snipe")
    play(game, "snipe D1", "A7 C7 E7 G7")
    assert colours(game, "black") == ["A7", "C7", "D1", "E7", "G7"]
    assert game.view()["hook"]["from"] == ["A7", "C7", "D1", "E7", "G7"]
    assert "Hook" in refuses(game, "A3 B3", "p2", private=True)
    play(game, "snipe A1", "C1 C2 C4")
    assert "A1" in colours(game, "black")


# --------------------------------------------------------------------------- Unique

NUMBERS = """
7 1 2 3 4 5 6 6
6 2 3 4 5 6 7 7
5 3 4 5 6 7 1 1
4 4 5 6 7 1 2 2
3 5 6 7 1 2 3 3
2 6 7 1 2 3 4 4
1 7 1 2 3 4 5 5
"""


def test_unique_numbers_are_seven_of_each_with_no_row_or_column_a_full_set():
    for seed in range(40):
        numbers = generate_numbers(seed)
        assert sorted(numbers.values()) == [n for n in range(1, 8) for _ in range(7)]
        assert not is_permutation_line(numbers)
    assert generate_numbers(5) == generate_numbers(5) != generate_numbers(6)
    game = new_game("swabbing", seed=5, anomalies="unique")
    assert game.view()["numbers"] == {str(p): n for p, n in generate_numbers(5).items()}


def test_is_permutation_line_sees_a_full_row_or_column():
    numbers = parse_numbers(NUMBERS)
    assert is_permutation_line(numbers)  # column A reads 1-7 (row 7 does not: 1 2 3 4 5 6 6)
    for col in range(7):
        numbers[pt(f"{chr(65 + col)}7")] = col + 1
        numbers[pt(f"{chr(65 + col)}1")] = 1
    numbers[pt("A1")] = 2
    assert is_permutation_line(numbers)  # row 7 now reads 1-7 and column A no longer does
    for p in SQUARES:
        numbers[p] = 1
    assert not is_permutation_line(numbers)


def test_unique_fills_a_region_with_no_repeated_number_whatever_its_size():
    # Row 7 alone is white: A7-G7 read 1 2 3 4 5 6 6. Colouring F7 G7 leaves A7-E7: 1-5, filled.
    board = """
7 . . . . . . .
6 # # # # # # #
5 . . . . . . .
4 . . . . . . .
3 . . . . . . .
2 . . . . . . .
1 . . . . . . .
"""
    game = make(board, numbers=NUMBERS, anomalies="unique")
    assert region_fills([pt(s) for s in ["A7", "B7", "C7", "D7", "E7", "F7"]], game.numbers)  # six, distinct
    assert not region_fills([pt(s) for s in ["F7", "G7"]], game.numbers)  # two sixes
    play(game, "A7 B7")
    # C7-G7 read 3 4 5 6 6: a repeat, so five tiles stay white (the 5-or-fewer rule is replaced).
    assert colours(game, "p1") == [] and "G7" in colours(game, "white")
    play(game, "F7 G7")
    assert colours(game, "p2") == ["C7", "D7", "E7"]


def test_unique_fills_six_distinct_tiles_that_the_plain_rule_would_leave():
    # The top region is A7-G7 and G6; G6 G7 leaves A7-F7, six tiles reading 1-6.
    board = """
7 . . . . . . .
6 # # # # # # .
5 # # # # # # #
4 . . . . . . .
3 . . . . . . .
2 . . . . . . .
1 . . . . . . .
"""
    unique = make(board, numbers=NUMBERS, anomalies="unique")
    play(unique, "G6 G7")
    assert colours(unique, "p1") == ["A7", "B7", "C7", "D7", "E7", "F7"]
    plain = make(board)
    play(plain, "G6 G7")
    assert colours(plain, "p1") == []


def test_unique_with_snipe_the_mover_takes_the_unique_regions_the_snipe_makes():
    board = """
7 . . . . . . .
6 # # # # # # .
5 # # # # # # #
4 . . . . . . .
3 . . . . . . .
2 . . . . . . .
1 . . . . . . .
"""
    game = make(board, numbers=NUMBERS, anomalies="unique, snipe, pyramid")
    play(game, "snipe G7", "A1 A2")
    # G7 splits off G6 (alone) and A7-F7 (1-6, no repeat): all seven go to the mover, p1.
    assert colours(game, "p1") == ["A7", "B7", "C7", "D7", "E7", "F7", "G6"]
    assert game.view()["scores"] == {"p1": 7, "p2": 0}  # seven outer-ring tiles, 1 point each


def test_unique_with_pyramid_scores_points():
    board = """
7 . . . . . . .
6 # # # # # # #
5 # # # # # # #
4 # # # # # # #
3 # # # # # # #
2 # # # # # # #
1 # # # # # # #
"""
    game = make(board, numbers=NUMBERS, anomalies="unique, pyramid, linear")
    play(game, "G7")
    # A7-F7 are all on the outer ring: 6 points.
    assert game.is_over and game.view()["scores"] == {"p1": 6, "p2": 0}


def test_every_game_round_trips_with_its_numbers_and_sealed_parts():
    game = make(anomalies="unique, snipe, hook")
    game.submit("snipe D4", "p2", private=True)
    copy = load(game.to_dict())
    assert copy == game and copy.numbers == game.numbers and copy.sealed.sealed_by("p2") == Snipe("p2", "D4")


# --------------------------------------------------------------------------- announcements


def test_the_opening_shows_the_board_and_prompts_the_starter():
    events = make(starter="p2").opening_events()
    assert [e.kind for e in events] == ["board", "turn"] and all(e.public for e in events)
    assert "all white" in events[0].text and events[1].data == {"seat": "p2", "sniper": None}
    unique = DeckSwabbing.new(seed=4, anomalies="unique, snipe")
    board, turn = unique.opening_events()
    assert board.data["numbers"] == unique.view()["numbers"]
    assert "direct message" in turn.text and turn.data == {"seat": "p1", "sniper": "p2"}
    game = make()
    play(game, "C3 C4")
    assert game.opening_events() == []


def test_a_single_filled_tile_is_announced_in_the_singular():
    game = make("""
7 . # . . . . .
6 . . . . . . .
5 . . . . . . .
4 . . . . . . .
3 . . . . . . .
2 . . . . . . .
1 . . . . . . .
""")
    events = play(game, "A6 B6")
    assert "1 tile takes p1's colour: A7." in events[0].text
    assert colours(game, "p1") == ["A7"]


def _suggested(text: str) -> list[str]:
    """The tiles a prompt or refusal suggests ("..., such as C3 C4.")."""
    return text.split("such as ", 1)[1].split(".", 1)[0].split()


@pytest.mark.parametrize("options", [{}, {"anomalies": "linear"}, {"anomalies": "hook"}, {"anomalies": "hook, linear"}])
def test_the_prompt_suggests_only_a_move_it_would_accept(options):
    # C3 C4 is black after the first move; the prompt went on suggesting it.
    game = make(**options)
    events = play(game, "C3 C4")
    prompt = next(e.text for e in reversed(events) if e.kind == "turn")
    suggested = _suggested(prompt)
    assert suggested and not {"C3", "C4"} & set(suggested)
    assert all(game.board[pt(s)] == WHITE for s in suggested)
    assert Swab(game.turn, tuple(suggested)) in set(game.legal_moves(game.turn))
