"""Arm's Length, rule by rule: scenario tests that read like the rule text (seed 003, docs/rules/armslength.md).

Positions are drawn as pictures, row 8 at the top and column A on the left, like the board:
``R``/``B`` are red and blue stones; in the end-of-turn tests ``M`` is the mover's colour and ``O``
the opponent's, so that each test runs with the mover on red and on blue.
"""

import copy
import json
import random
from dataclasses import dataclass

import pytest

from geniusbot.games import (
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    OptionError,
    get_game,
    load,
)
from geniusbot.games.armslength.rules import (
    ArmsLength,
    Choose,
    Place,
    deciding_placements,
    draw_layout,
    generate_layout,
    mirror,
    parse_layout,
)
from geniusbot.games.grid import NEIGHBOURS, Point

EMPTY = ["........"] * 8


def layout(picture: list[str], *, mover: str = "red") -> str:
    """The ``setup`` option for a picture (row 8 first); ``M``/``O`` are the mover's/opponent's."""
    assert len(picture) == 8 and all(len(row) == 8 for row in picture)
    other = "blue" if mover == "red" else "red"
    colours = {"R": "red", "B": "blue", "M": mover, "O": other}
    squares: dict[str, list[str]] = {"red": [], "blue": []}
    for i, row in enumerate(picture):
        for col, char in enumerate(row):
            if char != ".":
                squares[colours[char]].append(f"{'ABCDEFGH'[col]}{8 - i}")
    if not squares["red"] and not squares["blue"]:
        return "none"
    return "; ".join(f"{c} {' '.join(s)}" for c, s in squares.items() if s)


def picture_of(game: ArmsLength, *, mover: str | None = None) -> list[str]:
    """The board of ``game`` as a picture (``M``/``O`` when ``mover`` names the mover's colour)."""
    stones = game.view()["stones"]
    chars = {"red": "R", "blue": "B"}
    if mover:
        chars = {mover: "M", ("blue" if mover == "red" else "red"): "O"}
    return ["".join(chars.get(stones.get(f"{'ABCDEFGH'[c]}{r}"), ".") for c in range(8)) for r in range(8, 0, -1)]


def game_from(picture: list[str], *, p1_color: str = "red", knocked_off: dict | None = None) -> ArmsLength:
    """A game with exactly the stones of ``picture``, p1 to move with ``p1_color``."""
    game = ArmsLength.new(seed=0, setup=layout(picture, mover=p1_color), p1_color=p1_color)
    if knocked_off:
        state = game.state_dict()
        state["knocked_off"] = dict(knocked_off)
        game.load_state(state)
    return game


# --------------------------------------------------------------------------- the board, notation


def test_the_game_is_registered_under_its_name_and_title():
    assert get_game("armslength") is ArmsLength
    assert get_game("Arm's Length") is ArmsLength
    assert get_game("DM7A") is ArmsLength
    assert ArmsLength.title == "Arm's Length"


def test_a_square_is_written_case_insensitively_and_read_back_canonically():
    game = game_from(EMPTY)
    move = game.parse_move(" e4 ", "p1")
    assert move == Place("p1", "E4")
    assert move.text() == "E4"
    assert Choose("p1", "red", "first").text() == "red first"


def test_the_board_is_eight_by_eight():
    game = game_from(EMPTY)
    assert game.view()["size"] == 8
    assert len(list(game.legal_moves())) == 64
    game.parse_move("H8", "p1")
    game.parse_move("A1", "p1")
    with pytest.raises(MalformedMoveError, match="off the board"):
        game.parse_move("I1", "p1")
    with pytest.raises(MalformedMoveError, match="off the board"):
        game.parse_move("A9", "p1")


# --------------------------------------------------------------------------- pushes


def test_the_seed_example_a_stone_on_g5_with_neighbours_in_all_eight_directions():
    # Around G5: H4 H5 H6 have the edge behind them, F5 is blocked by E5, G6 by G7,
    # and F4, F6, G4 have an empty square behind them.
    game = game_from(
        [
            "........",
            "......B.",
            ".....RBB",
            "....BR.R",
            ".....BRB",
            "........",
            "........",
            "........",
        ]
    )
    events = game.play(game.parse_move("G5", "p1"))
    assert picture_of(game) == [
        "........",
        "....R.B.",
        "......B.",
        "....BRR.",
        "........",
        "....B.R.",
        "........",
        "........",
    ]
    # Red pushed its own H5 off: it counts against red, whoever pushed.
    assert game.view()["knocked_off"] == {"red": 1, "blue": 2}
    assert sorted(map(tuple, (p.values() for p in game.view()["pushes"]))) == sorted(
        [
            ("F4", "E3", "blue"),
            ("F6", "E7", "red"),
            ("G4", "G3", "red"),
            ("H4", None, "blue"),
            ("H5", None, "red"),
            ("H6", None, "blue"),
        ]
    )
    assert "Knocked off" in events[0].text and events[0].public
    assert not game.is_over


@pytest.mark.parametrize("dc, dr", NEIGHBOURS)
def test_a_neighbour_in_each_of_the_eight_directions_moves_one_square_straight_away(dc, dr):
    placed = Point(3, 3)  # D4
    neighbour, behind = placed.offset(dc, dr), placed.offset(2 * dc, 2 * dr)
    game = ArmsLength.new(seed=0, setup=f"blue {neighbour}")
    game.play(game.parse_move("D4", "p1"))
    assert game.view()["stones"] == {"D4": "red", str(behind): "blue"}
    assert game.view()["pushes"] == [{"from": str(neighbour), "to": str(behind), "color": "blue"}]


@pytest.mark.parametrize("dc, dr", NEIGHBOURS)
def test_a_neighbour_with_the_edge_behind_it_in_each_direction_is_knocked_off(dc, dr):
    placed = Point({1: 6, -1: 1, 0: 3}[dc], {1: 6, -1: 1, 0: 3}[dr])
    neighbour = placed.offset(dc, dr)
    game = ArmsLength.new(seed=0, setup=f"blue {neighbour}")
    game.play(game.parse_move(str(placed), "p1"))
    assert game.view()["stones"] == {str(placed): "red"}
    assert game.view()["knocked_off"] == {"red": 0, "blue": 1}
    assert game.view()["pushes"] == [{"from": str(neighbour), "to": None, "color": "blue"}]


def test_a_stone_with_another_stone_behind_it_does_not_move():
    game = game_from(
        [
            "........",
            "........",
            "........",
            "........",
            "....BR..",
            "........",
            "........",
            "........",
        ]
    )
    game.play(game.parse_move("D4", "p1"))
    assert game.view()["stones"] == {"D4": "red", "E4": "blue", "F4": "red"}
    assert game.view()["pushes"] == []


def test_a_pushed_stone_pushes_nothing_further():
    # E4 slides to F4 and stops there; G4, two squares beyond, stays where it is.
    game = game_from(
        [
            "........",
            "........",
            "........",
            "........",
            "....B.R.",
            "........",
            "........",
            "........",
        ]
    )
    game.play(game.parse_move("D4", "p1"))
    assert game.view()["stones"] == {"D4": "red", "F4": "blue", "G4": "red"}


def test_all_eight_neighbours_are_pushed_at_once():
    game = game_from(
        [
            "........",
            "........",
            "........",
            "..RBR...",
            "..B.B...",
            "..RBR...",
            "........",
            "........",
        ]
    )
    game.play(game.parse_move("D4", "p1"))
    assert picture_of(game) == [
        "........",
        "........",
        ".R.B.R..",
        "........",
        ".B.R.B..",
        "........",
        ".R.B.R..",
        "........",
    ]
    assert len(game.view()["pushes"]) == 8


def test_a_diagonal_push_is_blocked_like_a_straight_one():
    # C5 has B6 behind it on the diagonal and stays; D5 has D6 free and E5 has F6 free: they move.
    game = game_from(
        [
            "........",
            "........",
            ".R......",
            "..BRB...",
            "........",
            "........",
            "........",
            "........",
        ]
    )
    game.play(game.parse_move("D4", "p1"))
    assert picture_of(game) == [
        "........",
        "........",
        ".R.R.B..",
        "..B.....",
        "...R....",
        "........",
        "........",
        "........",
    ]


# --------------------------------------------------------------------------- end of turn


MOVERS = pytest.mark.parametrize("mover", ["red", "blue"])

# The mover has A2 B2 C2 and places D2 for four (C2 cannot move: B2 is behind it).
# The opponent has F5 F6 F7; D2 pushes its E3 onto F4, which makes its four.
BOTH_FOURS = [
    "........",
    ".....O..",
    ".....O..",
    ".....O..",
    "........",
    "....O...",
    "MMM.....",
    "........",
]


@MOVERS
def test_step_1_both_players_make_four_on_one_turn_and_the_mover_loses(mover):
    game = game_from(BOTH_FOURS, p1_color=mover)
    game.play(game.parse_move("D2", "p1"))
    assert game.outcome().winner == "p2"
    assert "mover loses" in game.outcome().reason
    # A line that has said who wins keeps why: "...; the mover loses."
    assert game.outcome().detail == "Both players have four in a row after p1's move; the mover loses."
    assert sorted(game.view()["fours"]) == [["A2", "B2", "C2", "D2"], ["F4", "F5", "F6", "F7"]]
    assert game.view()["phase"] == "over"
    assert game.to_move() == ()


@MOVERS
def test_step_2_the_mover_makes_four_and_wins(mover):
    game = game_from(
        [
            "........",
            "........",
            "........",
            "........",
            "........",
            "........",
            "MMM.....",
            ".......O",
        ],
        p1_color=mover,
    )
    game.play(game.parse_move("D2", "p1"))
    assert game.outcome().winner == "p1"
    assert game.view()["fours"] == [["A2", "B2", "C2", "D2"]]


def test_step_2_five_in_a_row_counts_as_four_and_is_one_line():
    game = game_from(
        [
            "........",
            "........",
            "........",
            "........",
            "........",
            "........",
            "RR.RR...",
            "........",
        ]
    )
    game.play(game.parse_move("C2", "p1"))
    assert game.outcome().winner == "p1"
    assert game.view()["fours"] == [["A2", "B2", "C2", "D2", "E2"]]


@pytest.mark.parametrize(
    "square, line",
    [("D4", ["A1", "B2", "C3", "D4"]), ("D4", ["D1", "D2", "D3", "D4"]), ("D4", ["D4", "C5", "B6", "A7"])],
)
def test_four_counts_along_columns_and_both_diagonals(square, line):
    # The stone next to D4 has another of the line behind it, so the placement moves none.
    game = ArmsLength.new(seed=0, setup="red " + " ".join(s for s in line if s != square))
    game.play(game.parse_move(square, "p1"))
    assert game.outcome().winner == "p1"
    assert [sorted(x) for x in game.view()["fours"]] == [sorted(line)]


@MOVERS
def test_step_3_the_mover_pushes_the_opponent_into_four_and_the_opponent_wins(mover):
    picture = [row.replace("M", ".") for row in BOTH_FOURS]
    game = game_from(picture, p1_color=mover)
    game.play(game.parse_move("D2", "p1"))
    assert game.outcome().winner == "p2"
    assert game.view()["fours"] == [["F4", "F5", "F6", "F7"]]


@MOVERS
def test_four_beats_the_movers_own_10th_stone_knocked_off(mover):
    # D2 makes the mover's four and pushes the mover's own E1 off the board: its 10th.
    game = game_from(
        [
            "........",
            "........",
            "........",
            "........",
            "........",
            "........",
            "MMM.....",
            "....M...",
        ],
        p1_color=mover,
        knocked_off={mover: 9, "blue" if mover == "red" else "red": 0},
    )
    game.play(game.parse_move("D2", "p1"))
    assert game.view()["knocked_off"][mover] == 10
    assert game.outcome().winner == "p1"


@MOVERS
def test_the_opponents_four_beats_the_opponents_own_10th_stone_knocked_off(mover):
    # D2 pushes E3 onto F4 (the opponent's four) and D1 off the board (the opponent's 10th).
    other = "blue" if mover == "red" else "red"
    picture = [row.replace("M", ".") for row in BOTH_FOURS]
    picture[7] = "...O...."
    game = game_from(picture, p1_color=mover, knocked_off={mover: 0, other: 9})
    game.play(game.parse_move("D2", "p1"))
    assert game.view()["knocked_off"][other] == 10
    assert game.outcome().winner == "p2"


# B2 pushes A1 and A2 over the edge: A1 is the mover's, A2 the opponent's.
EDGE = [
    "........",
    "........",
    "........",
    "........",
    "........",
    "........",
    "O.......",
    "M.......",
]


@MOVERS
def test_step_4_both_players_lose_their_10th_stone_on_one_turn_and_the_mover_loses(mover):
    other = "blue" if mover == "red" else "red"
    game = game_from(EDGE, p1_color=mover, knocked_off={mover: 9, other: 9})
    game.play(game.parse_move("B2", "p1"))
    assert game.view()["knocked_off"] == {"red": 10, "blue": 10}
    assert game.outcome().winner == "p2"
    assert "mover loses" in game.outcome().reason
    assert game.outcome().detail == "Both players had their 10th stone knocked off on p1's move; the mover loses."


@MOVERS
def test_step_5_the_opponents_10th_stone_knocked_off_wins_for_the_mover(mover):
    other = "blue" if mover == "red" else "red"
    game = game_from(EDGE, p1_color=mover, knocked_off={mover: 8, other: 9})
    game.play(game.parse_move("B2", "p1"))
    assert game.view()["knocked_off"] == {mover: 9, other: 10}
    assert game.outcome().winner == "p1"


@MOVERS
def test_step_6_the_movers_own_10th_stone_knocked_off_wins_for_the_opponent(mover):
    other = "blue" if mover == "red" else "red"
    game = game_from(EDGE, p1_color=mover, knocked_off={mover: 9, other: 8})
    game.play(game.parse_move("B2", "p1"))
    assert game.view()["knocked_off"] == {mover: 10, other: 9}
    assert game.outcome().winner == "p2"


def test_nine_stones_knocked_off_do_not_end_the_game():
    game = game_from(EDGE, knocked_off={"red": 8, "blue": 8})
    game.play(game.parse_move("B2", "p1"))
    assert game.view()["knocked_off"] == {"red": 9, "blue": 9}
    assert not game.is_over
    assert game.to_move() == ("p2",)


# A board of red and blue pairs with no four anywhere; D4 (red in the pattern) is left empty.
FULL_BUT_D4 = [
    "RRBBRRBB",
    "BBRRBBRR",
    "RRBBRRBB",
    "BBRRBBRR",
    "RRB.RRBB",
    "BBRRBBRR",
    "RRBBRRBB",
    "BBRRBBRR",
]


def test_a_full_board_with_no_four_is_a_draw():
    game = game_from(FULL_BUT_D4)
    assert list(game.legal_moves()) == [Place("p1", "D4")]
    game.play(game.parse_move("D4", "p1"))
    assert game.view()["pushes"] == []  # every neighbour has a stone behind it
    assert game.outcome().winner is None
    assert "draw" in game.outcome().reason


def test_players_alternate_and_the_move_number_counts_placements():
    game = game_from(EMPTY)
    game.submit("A1", "p1")
    assert game.to_move() == ("p2",)
    with pytest.raises(NotYourTurnError):
        game.parse_move("H8", "p1")
    game.submit("H8", "p2")
    view = game.view()
    assert view["stones"] == {"A1": "red", "H8": "blue"}
    assert view["move_number"] == 2 and view["last_move"] == "H8"
    assert view["to_move"] == ["p1"]


# --------------------------------------------------------------------------- set-up


def test_a_generated_layout_has_four_stones_a_colour_in_point_symmetry():
    for seed in range(50):
        stones = generate_layout(seed)
        red = [p for p, c in stones.items() if c == "red"]
        blue = [p for p, c in stones.items() if c == "blue"]
        assert len(red) == 4 and len(blue) == 4
        assert sorted(mirror(p) for p in red) == sorted(blue)


def test_a_generated_layout_is_the_same_for_a_seed_and_differs_across_seeds():
    assert ArmsLength.new(seed=7).view() == ArmsLength.new(seed=7).view()
    layouts = {json.dumps(ArmsLength.new(seed=s).view()["stones"], sort_keys=True) for s in range(20)}
    assert len(layouts) == 20


@pytest.mark.slow
def test_a_generated_layout_never_starts_with_a_four():
    from geniusbot.games.armslength.rules import fours

    assert all(not fours(generate_layout(seed)) for seed in range(2000))


def first_placements_that_end_the_game(game: ArmsLength) -> list[str]:
    """Every first placement that ends ``game`` (each one played on a copy, as the host plays it)."""
    ending = []
    for move in list(game.legal_moves()):
        trial = copy.deepcopy(game)
        trial.play(move)
        if trial.is_over:
            ending.append(move.text())
    return ending


def test_a_layout_that_one_placement_would_decide_is_drawn_again():
    # Seed 12's first draw: red E2 E3 E4, so red on E1 (or E5) makes four at once.
    first_draw = draw_layout(random.Random("12:layout"))
    assert [first_draw[Point(4, row)] for row in (1, 2, 3)] == ["red"] * 3
    assert ("red", "E1") in deciding_placements(first_draw)
    game = ArmsLength.new(seed=12)  # p1 plays red and moves first
    assert game.view()["stones"] != {str(p): c for p, c in first_draw.items()}
    assert first_placements_that_end_the_game(game) == []
    game.play(game.parse_move("E1", "p1"))
    assert not game.is_over


@pytest.mark.parametrize("choice", ["red first", "red second", "blue first", "blue second"])
def test_whatever_the_dmo_chooses_no_first_placement_ends_a_generated_game(choice):
    for seed in (12, 67, 167):  # seeds whose first draw let a first placement make four
        game = ArmsLength.new(seed=seed, dmo="p1")
        game.play(game.parse_move(choice, "p1"))
        assert first_placements_that_end_the_game(game) == []


def test_the_pre_placed_stones_are_shown_before_play_and_before_the_dmo_choice():
    game = ArmsLength.new(seed=3, dmo="p1")
    assert game.view()["phase"] == "choice"
    assert game.view()["stones"] == {str(p): c for p, c in generate_layout(3).items()}


def test_an_explicit_layout_is_read_case_insensitively_and_need_not_be_symmetric():
    game = ArmsLength.new(seed=0, setup="RED c3, f6;Blue F3 ; red a1")
    assert game.view()["stones"] == {"A1": "red", "C3": "red", "F3": "blue", "F6": "red"}
    assert ArmsLength.new(seed=0, setup="none").view()["stones"] == {}
    assert parse_layout("blue H8") == {Point(7, 7): "blue"}


@pytest.mark.parametrize(
    "setup, message",
    [
        ("green C3", "must start with a colour"),
        ("C3 F6", "must start with a colour"),
        ("red I3", "off the board"),
        ("red C", "not a point"),
        ("red C3; blue c3", "names C3 twice"),
        ("red A1 B2 C3 D4", "already has four in a row"),
        (";", "names no stones"),
        ("blue H1 H2 H3 H4 H5; red A1", "already has four in a row"),
    ],
)
def test_a_bad_layout_is_refused_with_a_message_that_says_what_to_write(setup, message):
    with pytest.raises(OptionError, match=message):
        ArmsLength.new(seed=0, setup=setup)


def test_a_layout_that_fills_the_board_is_refused():
    full = layout([row.replace(".", "B") for row in FULL_BUT_D4])
    with pytest.raises(OptionError, match="leave at least one square empty"):
        ArmsLength.new(seed=0, setup=full)


def test_p1_color_sets_p1s_colour_and_p1_moves_first():
    game = ArmsLength.new(seed=0, setup="none", p1_color="Blue")
    view = game.view()
    assert view["colors"] == {"p1": "blue", "p2": "red"}
    assert view["first"] == "p1" and view["to_move"] == ["p1"] and view["dmo"] is None
    game.submit("D4", "p1")
    assert game.view()["stones"] == {"D4": "blue"}
    assert ArmsLength.new(seed=0).view()["colors"] == {"p1": "red", "p2": "blue"}


@pytest.mark.parametrize(
    "options, message",
    [
        ({"p1_color": "green"}, "red or blue"),
        ({"dmo": "p3"}, "p1 or p2"),
        ({"dmo": "p1", "p1_color": "red"}, "leave out p1_color"),
        ({"colour": "red"}, "takes no option"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(OptionError, match=message):
        ArmsLength.new(seed=0, **options)


# --------------------------------------------------------------------------- the DMO's choice


def test_with_a_dmo_only_the_dmo_chooses_and_nobody_places_yet():
    game = ArmsLength.new(seed=0, dmo="p2")
    view = game.view()
    assert view["phase"] == "choice" and view["to_move"] == ["p2"]
    assert view["colors"] == {"p1": None, "p2": None} and view["first"] is None and view["dmo"] == "p2"
    with pytest.raises(NotYourTurnError):
        game.parse_move("red first", "p1")
    with pytest.raises(MalformedMoveError) as refused:
        game.parse_move("E4", "p2")
    assert str(refused.value) == (
        "You choose before anyone places: write your colour and turn order, such as red first, red second, "
        "blue first or blue second."
    )
    assert sorted(m.text() for m in game.legal_moves()) == ["blue first", "blue second", "red first", "red second"]


@pytest.mark.parametrize(
    "text, colour, order",
    [
        ("red first", "red", "first"),
        ("First Red", "red", "first"),
        ("blue, second", "blue", "second"),
        ("2nd blue", "blue", "second"),
        ("BLUE 1ST", "blue", "first"),
    ],
)
def test_the_dmo_writes_colour_and_order_in_either_order(text, colour, order):
    game = ArmsLength.new(seed=0, dmo="p1")
    assert game.parse_move(text, "p1") == Choose("p1", colour, order)


@pytest.mark.parametrize("text", ["red", "first", "red blue", "first second", "red first please", ""])
def test_a_choice_needs_exactly_one_colour_and_one_order(text):
    game = ArmsLength.new(seed=0, dmo="p1")
    with pytest.raises(MalformedMoveError, match="red first"):
        game.parse_move(text, "p1")


def test_a_dmo_who_chooses_to_go_second_makes_p1_move_second():
    game = ArmsLength.new(seed=0, setup="none", dmo="p1")
    events = game.play(game.parse_move("red second", "p1"))
    view = game.view()
    assert view["phase"] == "play"
    assert view["colors"] == {"p1": "red", "p2": "blue"}
    assert view["first"] == "p2" and view["to_move"] == ["p2"]
    assert events[0].public and events[0].kind == "phase"
    # The host's "To move:" line names who moves next; the event says why, once.
    assert events[0].text == "p1 (the DMO) chose: p1 plays red and moves second; p2 plays blue."
    game.submit("E4", "p2")
    assert game.view()["stones"] == {"E4": "blue"}
    assert game.to_move() == ("p1",)


def test_a_dmo_choosing_blue_first_gives_the_other_seat_red():
    game = ArmsLength.new(seed=0, setup="none", dmo="p2")
    game.submit("blue first", "p2")
    assert game.view()["colors"] == {"p1": "red", "p2": "blue"}
    assert game.to_move() == ("p2",)
    with pytest.raises(MalformedMoveError, match="settled"):
        game.parse_move("red first", "p2")


def test_the_dmo_out_of_time_gets_a_choice_drawn_from_the_seed_and_announced():
    results = set()
    for seed in range(40):
        game = ArmsLength.new(seed=seed, dmo="p1")
        twin = ArmsLength.new(seed=seed, dmo="p1")
        events = game.timeout("p1")
        assert twin.timeout("p1") == events  # the draw depends on the seed alone
        assert not game.is_over and game.view()["phase"] == "play"
        assert events[0].public and events[0].data["by_lot"] is True
        # It begins as the host's timeout line does ("p1 ran out of time"), so the room hears it once.
        assert events[0].text.startswith(
            "p1 ran out of time to choose as the DMO, so the choice was drawn by lot: p1 plays "
        )
        assert "to move" not in events[0].text
        colour, first = game.view()["colors"]["p1"], game.view()["first"]
        results.add((colour, first))
        assert game.to_move() == (first,)
    assert results == {("red", "p1"), ("red", "p2"), ("blue", "p1"), ("blue", "p2")}


def test_the_other_seats_clock_does_not_run_in_the_choice_phase():
    game = ArmsLength.new(seed=0, dmo="p1")
    before = game.to_dict()
    assert game.timeout("p2") == []
    assert game.to_dict() == before


def test_a_timeout_in_play_loses():
    game = ArmsLength.new(seed=0, dmo="p1")
    game.submit("blue second", "p1")
    game.timeout("p2")
    assert game.outcome().winner == "p1"
    assert game.timeout("p1") == []


# --------------------------------------------------------------------------- refusals


def test_a_taken_square_is_refused_with_what_to_do_next():
    game = ArmsLength.new(seed=0, setup="red E4")
    with pytest.raises(IllegalMoveError, match=r"^E4 is taken; choose an empty square\.$"):
        game.parse_move("e4", "p1")


@pytest.mark.parametrize("text", ["hello", "", "   ", "E", "44", "E4 F5", "red first"])
def test_text_that_is_no_square_is_malformed(text):
    game = ArmsLength.new(seed=0, setup="none")
    with pytest.raises(MalformedMoveError, match="E4|square"):
        game.parse_move(text, "p1")


def test_a_refused_submission_changes_nothing():
    game = ArmsLength.new(seed=5)
    taken = next(iter(game.view()["stones"]))
    before = game.to_dict()
    for text, seat in [(taken, "p1"), ("Z9", "p1"), ("D4", "p2"), ("nonsense", "p1")]:
        with pytest.raises(GameError):
            game.submit(text, seat)
    with pytest.raises(GameError):
        game.play(Place("p1", taken))
    with pytest.raises(GameError):
        game.play(Place("p2", "D4"))
    with pytest.raises(GameError):
        game.play(Place("p1", "d4"))  # not canonical: refused rather than misread
    with pytest.raises(GameError):
        game.play(Choose("p1", "red", "first"))  # no choice phase in this game
    with pytest.raises(GameError):
        game.play(ForeignMove("p1"))
    assert game.to_dict() == before


@dataclass(frozen=True)
class ForeignMove(Move):
    """A move of some other game."""

    def text(self) -> str:
        return "pass"


def test_no_move_is_taken_once_the_game_is_over():
    game = game_from(EDGE, knocked_off={"red": 0, "blue": 9})
    game.submit("B2", "p1")
    assert game.is_over
    with pytest.raises(NotYourTurnError, match="over"):
        game.parse_move("D4", "p2")
    assert list(game.legal_moves()) == []


# --------------------------------------------------------------------------- view, records


def test_the_view_has_exactly_the_renderers_shape_and_is_the_same_for_everyone():
    game = ArmsLength.new(seed=1)
    game.submit("D4", "p1")
    view = game.view()
    assert set(view) == {
        "game",
        "variant",
        "to_move",
        "outcome",
        "size",
        "phase",
        "stones",
        "colors",
        "first",
        "dmo",
        "knocked_off",
        "knockout_limit",
        "last_move",
        "pushes",
        "fours",
        "move_number",
    }
    assert view == game.view("p1") == game.view("p2")
    assert json.loads(json.dumps(view)) == view
    assert view["last_move"] == "D4" and view["move_number"] == 1
    assert view["knockout_limit"] == 10


def test_state_round_trips_through_json_in_every_phase():
    game = ArmsLength.new(seed=2, dmo="p2")
    snapshots = [game.to_dict()]
    game.submit("red second", "p2")
    snapshots.append(game.to_dict())
    for square in ("D4", "E5", "D5"):
        if game.is_over:
            break
        game.submit(
            square if square not in game.view()["stones"] else next(m.text() for m in game.legal_moves()),
            game.to_move()[0],
        )
        snapshots.append(game.to_dict())
    for data in snapshots:
        copy = load(json.loads(json.dumps(data)))
        assert isinstance(copy, ArmsLength)
        assert copy.to_dict() == data
    again = load(game.to_dict())
    assert again == game and again.view() == game.view()


def test_a_setup_of_only_separators_names_no_stones_and_says_how_to_write_one():
    import pytest

    from geniusbot.games import OptionError, new_game

    with pytest.raises(OptionError, match="names no stones"):
        new_game("armslength", setup=", ;")


# --------------------------------------------------------------------------- the opening line


def test_the_opening_line_says_the_colours_and_who_moves_first_or_names_the_dmo():
    # The board shows the stones and whose turn it is; who plays which colour is said once, at the start.
    (event,) = ArmsLength.new(seed=0, p1_color="blue").opening_events()
    assert event.public and event.text == (
        "p1 plays blue and moves first; p2 plays red. Type an empty square, such as E4, to place a stone."
    )
    (event,) = ArmsLength.new(seed=0, dmo="p2").opening_events()
    assert event.text == "p2 is the DMO and chooses a colour and whether to move first or second."
    game = ArmsLength.new(seed=0, setup="none")
    game.submit("E4", "p1")
    assert game.opening_events() == []  # the match has begun


def test_a_placement_is_told_in_the_present_tense_with_its_pushes():
    game = ArmsLength.new(seed=0, setup="red D4")
    (event,) = game.play(game.parse_move("E4", "p1"))
    assert event.text == "p1 (red) places E4. Pushed: D4 to C4."
