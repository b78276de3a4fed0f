"""Tic-Tac-Five scenarios, one per rule of seed 002 and per ruling (docs/rules/tictacfive.md)."""

from __future__ import annotations

import pytest

from geniusbot.games import (
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    get_game,
    load,
    new_game,
)
from geniusbot.games.grid import Point, parse_point
from geniusbot.games.tictacfive.rules import ChooseColour, Place, TicTacFive

COLUMNS = "ABCDEFGHIJKLMNO"


def pt(text: str) -> Point:
    return parse_point(text, 15, 15)


def position(black: str = "", white: str = "", *, to_move: str = "black", phase: str = "play") -> TicTacFive:
    """A game in the play phase, p1 black and p2 white, with the stones given as 'H8 J8 ...'."""
    stones = [[p, "black"] for p in black.split()] + [[p, "white"] for p in white.split()]
    colours = {"p1": "black", "p2": "white"} if phase == "play" else {"p1": None, "p2": None}
    data = {
        "game": "tictacfive",
        "variant": "standard",
        "seed": 0,
        "options": {},
        "outcome": None,
        "state": {"phase": phase, "stones": stones, "colors": colours, "next_color": to_move, "winning_line": None},
    }
    return load(data)


def row_position(pattern: str, *, row: int = 8, colour: str = "black") -> tuple[TicTacFive, Point]:
    """Row ``row`` drawn as a pattern, plus a solid open three in the column of the point to try.

    In the pattern, ``?`` is the point to try, ``X`` the mover's stones, ``O`` the opponent's,
    ``.`` empty; a leading ``|`` puts the pattern against the A edge, otherwise ``?`` lands on
    column H. The mover also holds the two points below ``?`` (rows row-2 and row-1) with the
    column open above and below, so ``?`` makes an open three in its column: it is a forbidden
    double three exactly when the row pattern makes an open three too.
    """
    if pattern.startswith("|"):
        pattern, first = pattern[1:], 0
    else:
        first = 7 - pattern.index("?")
    own, other = [], []
    target = None
    for offset, char in enumerate(pattern):
        name = f"{COLUMNS[first + offset]}{row}"
        if char == "X":
            own.append(name)
        elif char == "O":
            other.append(name)
        elif char == "?":
            target = pt(name)
    assert target is not None
    column = COLUMNS[target.col]
    own += [f"{column}{row - 2}", f"{column}{row - 1}"]
    black, white = (own, other) if colour == "black" else (other, own)
    return position(" ".join(black), " ".join(white), to_move=colour), target


def mover(game: TicTacFive) -> str:
    return game.to_move()[0]


def refused_unchanged(game: TicTacFive, text: str, seat: str, error: type[GameError]) -> str:
    """Submit ``text`` and check it is refused with ``error`` and leaves the game as it was."""
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.submit(text, seat)
    assert game.to_dict() == before
    return str(caught.value)


# --------------------------------------------------------------------------- registry, notation


def test_the_game_is_registered_by_name_title_and_the_gomoku_alias():
    assert get_game("tictacfive") is TicTacFive
    assert get_game("Tic-Tac-Five") is TicTacFive
    assert get_game("gomoku") is TicTacFive
    assert TicTacFive.title == "Tic-Tac-Five"


def test_points_and_colours_are_read_case_insensitively_with_spaces_around():
    game = new_game("tictacfive")
    assert game.parse_move("  h8 ", "p1") == Place("p1", Point(7, 7))
    assert game.parse_move("O15", "p1").text() == "O15"
    assert game.parse_move("i9", "p1").text() == "I9"  # the letter I is a column
    for text in ("h8", "h9", "j8"):
        game.submit(text, "p1")
    assert game.parse_move(" BLACK ", "p2") == ChooseColour("p2", "black")
    assert game.parse_move("White", "p2").text() == "white"


# --------------------------------------------------------------------------- the opening


def test_p1_places_the_three_opening_stones_black_white_black():
    game = new_game("tictacfive")
    (opening,) = game.opening_events()
    assert opening.public and opening.text == (
        "p1 places the three opening stones, black, white, black (a point is written like H8)."
    )
    seen = []
    for text in ("H8", "H9", "J8"):
        view = game.view()
        assert (view["phase"], view["to_move"]) == ("opening", ["p1"])
        seen.append(view["next_color"])
        _, events = game.submit(text, "p1")
    assert seen == ["black", "white", "black"]
    assert game.opening_events() == []  # said once, at the start
    # The choice itself (black / white) is put by the host, with buttons; the game says what it decides.
    assert events[-1].text == (
        "The three opening stones are down. p2 now chooses a colour; whoever takes white places the fourth stone."
    )
    view = game.view()
    assert view["stones"] == {"H8": "black", "H9": "white", "J8": "black"}
    assert (view["phase"], view["to_move"], view["next_color"]) == ("choice", ["p2"], None)
    assert view["colors"] == {"p1": None, "p2": None}


def test_p2_may_not_place_an_opening_stone():
    game = new_game("tictacfive")
    message = refused_unchanged(game, "H8", "p2", NotYourTurnError)
    assert "p1" in message


def test_p2_taking_white_places_the_fourth_stone_then_play_alternates():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    _, events = game.submit("white", "p2")
    assert game.view()["colors"] == {"p1": "black", "p2": "white"}
    # Who moves next is the host's "To move:" line; the event says why (white places the fourth stone).
    assert events[-1].text == "p2 takes white and places the fourth stone; p1 plays black."
    assert (game.to_move(), game.view()["next_color"]) == (("p2",), "white")
    game.submit("G7", "p2")
    assert game.view()["stones"]["G7"] == "white"
    assert (game.to_move(), game.view()["next_color"]) == (("p1",), "black")
    game.submit("K8", "p1")
    assert (game.to_move(), game.view()["next_color"]) == (("p2",), "white")


def test_p2_taking_black_makes_p1_white_and_p1_places_the_fourth_stone():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    _, events = game.submit("black", "p2")
    assert events[-1].text == "p2 takes black; p1 plays white and places the fourth stone."
    assert game.view()["colors"] == {"p1": "white", "p2": "black"}
    assert (game.to_move(), game.view()["next_color"]) == (("p1",), "white")
    refused_unchanged(game, "G7", "p2", NotYourTurnError)
    game.submit("G7", "p1")
    assert game.view()["stones"]["G7"] == "white"
    assert (game.to_move(), game.view()["next_color"]) == (("p2",), "black")
    game.submit("K8", "p2")
    assert game.view()["stones"]["K8"] == "black"
    assert game.view()["move_number"] == 5


# --------------------------------------------------------------------------- five in a row


@pytest.mark.parametrize(
    ("four", "fifth", "line"),
    [
        ("D8 E8 F8 G8", "H8", ["D8", "E8", "F8", "G8", "H8"]),  # row
        ("H4 H5 H7 H8", "H6", ["H4", "H5", "H6", "H7", "H8"]),  # column, filled in the middle
        ("C3 D4 E5 F6", "G7", ["C3", "D4", "E5", "F6", "G7"]),  # rising diagonal
        ("B14 C13 E11 F10", "D12", ["B14", "C13", "D12", "E11", "F10"]),  # falling diagonal
    ],
)
def test_five_in_a_row_in_each_direction_wins(four, fifth, line):
    game = position(four, "A1 A3 A5 A7", to_move="black")
    _, events = game.submit(fifth, "p1")
    assert game.outcome().winner == "p1"
    assert game.view()["winning_line"] == line
    assert game.view()["phase"] == "over"
    assert events[-1].kind == "end" and "five in a row" in events[-1].text


def test_five_in_two_lines_at_once_shows_the_row():
    game = position("D8 E8 F8 G8 H4 H5 H6 H7", "A1 A3 A5 A7 A9 A11 A13 A15", to_move="black")
    game.submit("H8", "p1")
    assert game.view()["winning_line"] == ["D8", "E8", "F8", "G8", "H8"]


def test_white_wins_with_five_too():
    game = position("A1 A3 A5 A7 C9", "K2 K3 K4 K5", to_move="white")
    game.submit("K6", "p2")
    assert game.outcome().winner == "p2"
    assert game.view()["winning_line"] == ["K2", "K3", "K4", "K5", "K6"]


def test_an_overline_of_six_or_more_wins():
    game = position("C8 D8 E8 F8 H8", "A1 A3 A5 A7 A9", to_move="black")
    game.submit("G8", "p1")
    assert game.outcome().winner == "p1"
    assert game.view()["winning_line"] == ["C8", "D8", "E8", "F8", "G8", "H8"]
    assert "six in a row" in game.outcome().reason


def test_five_at_the_edge_of_the_board_wins():
    game = position("K15 L15 M15 N15", "A1 A3 A5 A7", to_move="black")
    game.submit("O15", "p1")
    assert game.view()["winning_line"] == ["K15", "L15", "M15", "N15", "O15"]


def test_four_in_a_row_does_not_win():
    game = position("D8 E8 F8", "A1 A3 A5", to_move="black")
    game.submit("G8", "p1")
    assert game.outcome() is None
    assert game.to_move() == ("p2",)


# --------------------------------------------------------------------------- open threes


@pytest.mark.parametrize(
    "pattern",
    [
        "..XX?..",  # solid .XXX., the new stone at an end
        "..X?X..",  # solid, the new stone in the middle
        "..?XX..",  # solid, the new stone at the other end
        "..XX?.O",  # an opponent two points away still leaves room on the left
        ".X.X?.",  # split .X.XX.
        ".?.XX.",  # split .X.XX., the new stone alone
        ".X.?X.",  # split .X.XX., the new stone next to the gap
        ".XX.?.",  # split .XX.X., the new stone alone
        ".X?.X.",  # split .XX.X.
        ".?X.X.",  # split .XX.X., the new stone at the end
        "X..XX?..",  # an own stone beyond an end still leaves .XXXX. open (ruling 2)
    ],
)
def test_every_open_three_shape_with_another_three_is_a_forbidden_double_three(pattern):
    game, target = row_position(pattern)
    message = refused_unchanged(game, str(target), mover(game), IllegalMoveError)
    assert f"{target} would make two open threes" in message
    assert "row and column" in message and "choose another point" in message


@pytest.mark.parametrize(
    "pattern",
    [
        "O.XX?.O",  # O.XXX.O: neither extension gives an open four (docs/rules/tictacfive.md, ruling 14)
        "OXX?..",  # blocked by the opponent at one end, touching
        "..XX?O",  # blocked by the opponent at the other end
        "|XX?..",  # blocked by the edge
        "|.XX?.O",  # one end at the edge, the other end blocked: no open four either way
        "OX.X?.O",  # split three boxed in: filling the gap leaves no empty end
        "..X.?.X..",  # three stones with two gaps are no three at all
    ],
)
def test_a_blocked_three_is_no_open_three(pattern):
    game, target = row_position(pattern)
    game.submit(str(target), mover(game))
    assert game.view()["stones"][str(target)] == "black"


def test_an_edge_three_with_room_for_an_open_four_is_open():
    """|.XXX.. : filling the point away from the edge gives .XXXX. with both ends on the board."""
    game, target = row_position("|.XX?..")
    refused_unchanged(game, str(target), mover(game), IllegalMoveError)


def test_a_line_holding_a_four_counts_as_a_four_not_a_three():
    """X.XXX.. is a four (the gap makes five) although XXX.. beside it looks like a three."""
    game, target = row_position("X.XX?..")
    game.submit(str(target), mover(game))
    assert game.view()["stones"][str(target)] == "black"
    # The same line without the far stone is an open three, and the move is refused.
    game, target = row_position("..XX?..")
    refused_unchanged(game, str(target), mover(game), IllegalMoveError)


def test_an_open_four_with_an_open_three_is_allowed():
    game, target = row_position(".XX?X..")
    game.submit(str(target), mover(game))
    assert game.outcome() is None


def test_a_four_four_is_allowed():
    game = position("E8 F8 G8 H5 H6 H7", "A1 A3 A5 A7 A9 A11", to_move="black")
    game.submit("H8", "p1")
    assert game.outcome() is None and game.view()["stones"]["H8"] == "black"


def test_three_open_threes_are_named_in_the_refusal():
    # Row .XX?.., column (H6 H7 from the helper) and rising diagonal F6 G7.
    game = position("F8 G8 H6 H7 F6 G7", "A1 A3 A5 A7 A9 A11", to_move="black")
    message = refused_unchanged(game, "H8", "p1", IllegalMoveError)
    assert message == (
        "H8 would make three open threes at once (H8: row, column and rising diagonal), "
        "a forbidden double three; choose another point."
    )


def test_a_falling_diagonal_three_counts():
    # Column H6 H7 and falling diagonal F10 G9 through H8.
    game = position("H6 H7 F10 G9", "A1 A3 A5 A7", to_move="black")
    message = refused_unchanged(game, "H8", "p1", IllegalMoveError)
    assert "(H8: column and falling diagonal)" in message


def test_double_three_is_forbidden_for_white_too():
    game, target = row_position("..XX?..", colour="white")
    assert mover(game) == "p2"
    message = refused_unchanged(game, str(target), "p2", IllegalMoveError)
    assert "row and column" in message


def test_a_single_open_three_is_allowed():
    game, target = row_position("O.XX?.O")  # only the column makes a three
    game.submit(str(target), mover(game))
    game = position("F8 G8", "A1 A3", to_move="black")
    game.submit("H8", "p1")
    assert game.view()["stones"]["H8"] == "black"


def test_only_threes_through_the_new_stone_count():
    # Open threes already on the board (row 3, column J) do not make H8's single row three a double.
    game = position("C3 D3 E3 J7 J8 J9 F8 G8", "A1 A5 A7 A9 A11 A13 A15 O1", to_move="black")
    game.submit("H8", "p1")
    assert game.view()["stones"]["H8"] == "black"


def test_the_opponents_threes_do_not_count():
    # White's threes through H8 (row and column) say nothing about a black stone there.
    game = position("A1 A3 A5 A7", "F8 G8 H6 H7", to_move="black")
    game.submit("H8", "p1")
    assert game.view()["stones"]["H8"] == "black"


def test_no_recursion_a_three_counts_even_if_its_completing_points_are_forbidden():
    """H8 makes a row three F8 G8 H8 (completed at E8 or I8) and a column three H6 H7 H8. E8 and
    I8 are double threes of their own (column and rising diagonal), before and after H8, so a
    recursive check would call the row three false; the rulings say not to look, so H8 is refused."""
    black = "F8 G8 H6 H7 E6 E7 C6 D7 I6 I7 G6"
    white = "A1 A3 A5 A7 A9 A11 A13 A15 O1 O3 O5"
    game = position(black, white, to_move="black")
    after = position(black + " H8", white + " O7", to_move="black")
    for completing in ("E8", "I8"):
        assert not game.is_legal(Place("p1", pt(completing)))
        assert not after.is_legal(Place("p1", pt(completing)))
    message = refused_unchanged(game, "H8", "p1", IllegalMoveError)
    assert "(H8: row and column)" in message


def test_five_wins_even_when_it_also_makes_a_double_three():
    # Row D8-G8 plus H8 makes five; column H6 H7 and rising diagonal F6 G7 make two open threes.
    game = position("D8 E8 F8 G8 H6 H7 F6 G7", "A1 A3 A5 A7 A9 A11 A13 A15", to_move="black")
    assert game.is_legal(Place("p1", pt("H8")))
    assert Place("p1", pt("H8")) in game.legal_moves()
    game.submit("H8", "p1")
    assert game.outcome().winner == "p1"
    assert game.view()["winning_line"] == ["D8", "E8", "F8", "G8", "H8"]


def test_the_double_three_check_also_applies_to_opening_stones():
    """In a real opening p1 has at most two black stones down, so no double three can arise
    (two threes in two lines need four other stones of the colour). The check is not skipped
    in the opening, though: on a loaded opening position with more stones it refuses."""
    game = position("F8 G8 H6 H7", "", to_move="black", phase="opening")
    assert game.to_move() == ("p1",)
    message = refused_unchanged(game, "H8", "p1", IllegalMoveError)
    assert "row and column" in message


# --------------------------------------------------------------------------- the draw


def full_board_but(last: str) -> TicTacFive:
    """Every point filled except ``last``, with no five anywhere: pairs of a colour along each
    row (BBWWBB...), the colours swapped from one row to the next, so no line holds more than
    two stones of a colour in a row."""
    black, white = [], []
    for row in range(15):
        for col in range(15):
            name = f"{COLUMNS[col]}{row + 1}"
            if name != last:
                (black if (col // 2 + row) % 2 == 0 else white).append(name)
    colour_of_last = "black" if (pt(last).col // 2 + pt(last).row) % 2 == 0 else "white"
    return position(" ".join(black), " ".join(white), to_move=colour_of_last)


def test_a_full_board_with_no_five_is_a_draw():
    game = full_board_but("H8")
    assert game.view()["move_number"] == 224
    assert list(game.legal_moves()) == [Place(mover(game), pt("H8"))]
    _, events = game.submit("H8", mover(game))
    assert game.outcome().winner is None
    assert events[-1].kind == "end" and "draw" in events[-1].text
    view = game.view()
    assert (view["phase"], view["to_move"], view["next_color"], view["move_number"]) == ("over", [], None, 225)
    assert view["winning_line"] is None


def test_a_game_played_legally_from_the_empty_board_can_fill_it_and_draw():
    """Each colour fills its points of the no-five fill in reading order, every stone legal."""
    todo = {"black": [], "white": []}
    for row in range(15):
        for col in range(15):
            todo["black" if (col // 2 + row) % 2 == 0 else "white"].append(f"{COLUMNS[col]}{row + 1}")
    game = new_game("tictacfive")
    while not game.is_over:
        if game.phase == "choice":
            game.submit("white", "p2")
        else:
            game.submit(todo[game.view()["next_color"]].pop(0), mover(game))
    assert game.outcome().winner is None and game.view()["move_number"] == 225
    assert todo == {"black": [], "white": []}


def test_the_last_point_making_five_wins_rather_than_draws():
    game = full_board_but("O15")
    # Rebuild the top row so that O15 completes five for the colour to move there.
    data = game.to_dict()
    colour = data["state"]["next_color"]
    stones = [s for s in data["state"]["stones"] if s[0] not in {"K15", "L15", "M15", "N15"}]
    stones += [[p, colour] for p in ("K15", "L15", "M15", "N15")]
    data["state"]["stones"] = stones
    game = load(data)
    game.submit("O15", mover(game))
    assert game.outcome().winner == mover_of(colour, game)


def mover_of(colour: str, game: TicTacFive) -> str:
    return "p1" if game.view()["colors"]["p1"] == colour else "p2"


# --------------------------------------------------------------------------- errors and refusals


def test_a_taken_point_is_refused_and_changes_nothing():
    game = position("H8", "H9", to_move="black")
    assert refused_unchanged(game, "h9", "p1", IllegalMoveError) == "H9 is taken; choose an empty point."
    assert refused_unchanged(game, "H8", "p1", IllegalMoveError) == "H8 is taken; choose an empty point."


@pytest.mark.parametrize("text", ["", "hello", "H", "8", "H8 H9", "P3", "H16", "H0", "Z1", "8H", "blak"])
def test_text_that_is_no_point_is_malformed(text):
    game = position("H8", "H9", to_move="black")
    message = refused_unchanged(game, text, "p1", MalformedMoveError)
    assert "A-O" in message and "1-15" in message


def test_a_colour_typed_when_a_point_is_expected_is_refused():
    game = new_game("tictacfive")
    message = refused_unchanged(game, "black", "p1", IllegalMoveError)
    assert message == (
        "The colours are chosen after the opening stones; now place the black stone: type a point such as H8."
    )
    game = position("H8", "H9", to_move="black")
    assert "type a point" in refused_unchanged(game, "White", "p1", IllegalMoveError)


def test_a_point_typed_when_a_colour_is_expected_is_refused():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    assert refused_unchanged(game, "K10", "p2", IllegalMoveError) == "Choose a colour first: type black or white."
    assert refused_unchanged(game, "H8", "p2", IllegalMoveError) == "Choose a colour first: type black or white."
    assert (
        refused_unchanged(game, "purple", "p2", MalformedMoveError) == "'purple' is not a colour; type black or white."
    )
    assert refused_unchanged(game, "P3", "p2", MalformedMoveError) == "'P3' is not a colour; type black or white."
    refused_unchanged(game, "black", "p1", NotYourTurnError)


def test_the_wrong_seat_and_an_unknown_seat_are_refused_before_the_text_is_read():
    game = position("H8", "H9", to_move="black")
    refused_unchanged(game, "nonsense", "p2", NotYourTurnError)
    refused_unchanged(game, "J9", "p2", NotYourTurnError)
    refused_unchanged(game, "J9", "p3", NotYourTurnError)


def test_a_finished_game_accepts_no_move():
    game = position("D8 E8 F8 G8", "A1 A3 A5 A7", to_move="black")
    game.submit("H8", "p1")
    for seat in ("p1", "p2"):
        message = refused_unchanged(game, "J9", seat, NotYourTurnError)
        assert message == "The game is over; no more moves are taken."
    assert list(game.legal_moves()) == []


def test_play_refuses_an_illegal_move_the_same_way_and_changes_nothing():
    game, target = row_position("..XX?..")
    before = game.to_dict()
    for move, error in [
        (Place("p1", target), IllegalMoveError),
        (Place("p1", pt("H6")), IllegalMoveError),
        (Place("p2", pt("A15")), NotYourTurnError),
        (ChooseColour("p1", "white"), IllegalMoveError),
    ]:
        with pytest.raises(error):
            game.play(move)
        assert game.to_dict() == before


def test_a_move_read_before_the_position_changed_is_ruled_on_the_position_it_is_played_in():
    # The rules check a point once when they read it; a move played after the game was loaded
    # into another position is checked again there.
    game = new_game("tictacfive", seed=7)
    later = new_game("tictacfive", seed=7)
    later.submit("H8", "p1")
    later.submit("H9", "p1")
    later.submit("J8", "p1")
    later.submit("black", "p2")
    later.submit("H7", "p1")  # white takes H7; p2 (black) to move
    later.submit("A1", "p2")
    move = game.parse_move("H7", "p1")  # H7 is free on the empty board
    game.load_state(later.state_dict())
    with pytest.raises(IllegalMoveError, match="H7 is taken"):
        game.play(move)
    assert game.to_dict() == later.to_dict()


# --------------------------------------------------------------------------- legal moves, view, timeout


def test_legal_moves_leave_out_taken_points_and_double_threes():
    game, target = row_position("..XX?..")
    moves = list(game.legal_moves())
    points = {move.point for move in moves}
    assert len(points) == len(moves) == 225 - 4 - 1
    assert target not in points and pt("H6") not in points
    assert all(move.seat == "p1" for move in moves)
    assert list(game.legal_moves("p2")) == []


def test_legal_moves_at_the_choice_are_the_two_colours():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    assert list(game.legal_moves()) == [ChooseColour("p2", "black"), ChooseColour("p2", "white")]
    assert all(game.is_legal(move) for move in game.legal_moves())


def test_the_view_has_exactly_the_renderers_shape_and_is_the_same_for_every_seat():
    game = new_game("tictacfive")
    view = game.view()
    assert view == {
        "game": "tictacfive",
        "variant": "standard",
        "to_move": ["p1"],
        "outcome": None,
        "size": 15,
        "phase": "opening",
        "stones": {},
        "last_move": None,
        "colors": {"p1": None, "p2": None},
        "next_color": "black",
        "opening_stones": 3,
        "move_number": 0,
        "winning_line": None,
        "forbidden": [],
    }
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    game.submit("black", "p2")
    assert game.view()["last_move"] == "J8"  # the last stone placed, not the colour choice
    game.submit("A1", "p1")
    assert game.view("p1") == game.view("p2") == game.view(None) == game.view()
    assert game.view()["last_move"] == "A1"
    assert game.view()["move_number"] == 4


def test_a_timeout_loses_even_at_the_colour_choice():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    events = game.timeout("p2")
    assert game.outcome().winner == "p1"
    assert events[0].kind == "end"
    view = game.view()
    assert (view["phase"], view["to_move"], view["next_color"]) == ("over", [], None)
    refused_unchanged(game, "black", "p2", NotYourTurnError)


def test_a_saved_game_loads_equal_and_plays_on_the_same():
    game = new_game("tictacfive", seed=7)
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    game.submit("black", "p2")
    game.submit("G7", "p1")
    copy = load(game.to_dict())
    assert copy == game and copy.view() == game.view()
    game.submit("K8", "p2")
    copy.submit("K8", "p2")
    assert copy == game


def test_a_malformed_saved_state_is_refused():
    data = position("H8", "H9").to_dict()
    data["state"]["stones"].append(["H8", "white"])
    with pytest.raises(GameError):
        load(data)
