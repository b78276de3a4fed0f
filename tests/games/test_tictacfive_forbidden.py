"""Tic-Tac-Five's forbidden points: the view's ``forbidden`` lists the empty points the next stone
may not take because of the double three, and the text board marks them (docs/rules/tictacfive.md,
ruling 16)."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime

import pytest

from geniusbot.console import run_console
from geniusbot.games import GameError, IllegalMoveError, load, new_game
from geniusbot.games.tictacfive.rules import FORBIDDEN_MARK, Place, TicTacFive
from geniusbot.words import Message, Words
from tests.games.test_tictacfive import COLUMNS, position, pt
from tests.manualtime import ManualTime

ALL_POINTS = [f"{COLUMNS[col]}{row + 1}" for row in range(15) for col in range(15)]

# Black's F6 H6 (row 6) and G7 G8 (column G): G6 makes an open three in both, a double three.
SQUARE = "F6 H6 G7 G8"


def refused_for_double_three(game: TicTacFive) -> list[str]:
    """The empty points, in reading order, whose stone the rules refuse as a double three."""
    seat = game.to_move()[0]
    stones = game.view()["stones"]
    refused = []
    for text in ALL_POINTS:
        if text in stones:
            continue
        try:
            game.parse_move(text, seat)
        except IllegalMoveError as error:
            assert "double three" in str(error), str(error)
            refused.append(text)
    return refused


def test_the_view_lists_the_points_the_double_three_forbids_to_the_stone_to_place():
    game = position(SQUARE, "A1 A3", to_move="black")
    forbidden = game.view()["forbidden"]
    assert "G6" in forbidden
    assert forbidden == refused_for_double_three(game)
    with pytest.raises(IllegalMoveError, match="double three"):
        game.parse_move("G6", "p1")


def test_the_points_are_in_reading_order_from_a1():
    game = position("F6 H6 G7 G8 J10 L10 K11 K12", "A1 A3 A5 A7", to_move="black")
    forbidden = game.view()["forbidden"]
    assert {"G6", "K10"} <= set(forbidden)
    assert forbidden == sorted(forbidden, key=lambda p: (int(p[1:]), COLUMNS.index(p[0])))


def test_only_the_stone_to_place_now_has_its_points_listed():
    # The same black shape with white to move: white may play G6, so nothing is marked.
    game = position(SQUARE, "A1 A3 A5", to_move="white")
    assert game.view()["forbidden"] == []
    assert game.is_legal(Place(game.to_move()[0], pt("G6")))


def test_white_has_its_own_forbidden_points_when_white_is_to_move():
    game = position("A1 A3 A5", SQUARE, to_move="white")
    assert "G6" in game.view()["forbidden"]
    assert game.view()["forbidden"] == refused_for_double_three(game)


def test_a_point_that_makes_five_is_not_marked_even_with_a_double_three():
    # H8 makes five in row 8 and two open threes (column H, rising diagonal F6 G7): it wins.
    game = position("D8 E8 F8 G8 H6 H7 F6 G7", "A1 A3 A5 A7 A9 A11 A13 A15", to_move="black")
    assert "H8" not in game.view()["forbidden"]
    assert game.view()["forbidden"] == refused_for_double_three(game)


def test_nothing_is_marked_at_the_colour_choice():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        game.submit(text, "p1")
    assert game.phase == "choice"
    assert game.view()["forbidden"] == []


def test_the_opening_stones_are_checked_too_so_a_loaded_opening_shows_its_marks():
    """Ruling 5: a real opening never has a double three, but the check is the same."""
    game = position("F8 G8 H6 H7", "", to_move="black", phase="opening")
    assert game.view()["forbidden"] == ["H8"] == refused_for_double_three(game)


def test_a_real_opening_never_shows_a_mark():
    game = new_game("tictacfive")
    for text in ("H8", "H9", "J8"):
        assert game.view()["forbidden"] == []
        game.submit(text, "p1")


def test_nothing_is_marked_once_the_game_is_over():
    game = position(SQUARE, "A1 A3", to_move="black")
    game.timeout("p1")
    assert game.is_over and game.view()["forbidden"] == []


def test_a_stone_placed_changes_the_marks_at_once():
    game = position(SQUARE, "A1 A3", to_move="white")
    assert game.view()["forbidden"] == []
    game.submit("O15", game.to_move()[0])  # now black to move: G6 is forbidden to black
    assert "G6" in game.view()["forbidden"]
    game.submit("F5", game.to_move()[0])  # black F5 (legal) keeps the square; white to move
    assert game.view()["forbidden"] == refused_for_double_three(game)


def test_a_game_loaded_over_another_shows_the_loaded_positions_marks():
    game = position("A1 A3 A5 A7", "O1 O3 O5 O7", to_move="black")
    assert game.view()["forbidden"] == []
    other = position("F6 H6 G7 G8", "O1 O3 O5 O7", to_move="black")  # as many stones, black to move
    game.load_state(other.state_dict())
    assert game.view()["forbidden"] == other.view()["forbidden"] != []
    assert load(game.to_dict()).view() == game.view()


# --------------------------------------------------------------------------- random games


def close_point(rng: random.Random, stones: dict[str, str]) -> str:
    """A point next to (within two of) a stone already down, or any point: close play makes the
    threes, fours and double threes of real games."""
    if not stones or rng.random() < 0.1:
        return rng.choice(ALL_POINTS)
    base = rng.choice(list(stones))
    col = min(14, max(0, COLUMNS.index(base[0]) + rng.randint(-2, 2)))
    row = min(15, max(1, int(base[1:]) + rng.randint(-2, 2)))
    return f"{COLUMNS[col]}{row}"


def test_in_random_games_the_marks_are_exactly_the_points_is_legal_refuses():
    """At every position of random legal games: while stones are placed (the opening and play),
    the marked points are exactly the empty points where ``is_legal`` refuses the stone to
    place, every one of them refused as a double three; at the colour choice and at the end,
    none. The positions with marks are counted, so the test cannot pass on empty lists alone."""
    positions = marked = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = new_game("tictacfive", seed=seed)
        while not game.is_over:
            view = game.view()
            seat = game.to_move()[0]
            positions += 1
            if game.phase == "choice":
                assert view["forbidden"] == []
                game.submit(rng.choice(["black", "white"]), seat)
                continue
            empty = [p for p in ALL_POINTS if p not in view["stones"]]
            refused = [p for p in empty if not game.is_legal(Place(seat, pt(p)))]
            assert view["forbidden"] == refused == refused_for_double_three(game)
            marked += bool(refused)
            while True:  # a close point that is legal (a taken or forbidden one is tried again)
                try:
                    game.submit(close_point(rng, view["stones"]), seat)
                    break
                except GameError:
                    continue
        assert game.view()["forbidden"] == []
    assert positions > 150 and marked >= 20, (positions, marked)


# --------------------------------------------------------------------------- the text board


def test_the_text_board_marks_forbidden_points_and_says_what_the_mark_means():
    game = position(SQUARE, "A1 A3", to_move="black")
    board = TicTacFive.text_board(game.view())
    assert board is not None
    lines = [Words()(line) if isinstance(line, Message) else line for line in board]
    row6 = next(line for line in lines if line.startswith(" 6 "))
    cells = row6[3:].split()
    assert cells[COLUMNS.index("G")] == FORBIDDEN_MARK == "*"
    assert (cells[COLUMNS.index("F")], cells[COLUMNS.index("H")]) == ("X", "X")
    marked = {
        f"{COLUMNS[col]}{line[:2].strip()}"
        for line in lines[1:16]
        for col, cell in enumerate(line[3:].split())
        if cell == FORBIDDEN_MARK
    }
    assert marked == set(game.view()["forbidden"])
    assert lines[-1] == "* black may not play here: a double three"


def test_a_text_board_without_forbidden_points_has_no_mark_and_no_legend():
    game = position(SQUARE, "A1 A3", to_move="white")
    lines = TicTacFive.text_board(game.view())
    assert lines is not None and all(isinstance(line, str) for line in lines)  # the grid alone: drawing lines
    assert not any(FORBIDDEN_MARK in line for line in lines)
    assert len(lines) == 17  # the letters, fifteen rows, the letters


async def test_the_console_board_shows_the_marks_and_their_legend(tmp_path):
    """``geniusbot play tictacfive``: the board printed after each move marks black's G6 once
    black's F6 H6 G7 G8 are down, says what ``*`` means, and G6 is then refused."""
    moves = ["p1: F6", "p1: O15", "p1: H6", "p2: black", "p1: O13", "p2: G7", "p1: O11", "p2: G8", "p1: A1"]
    out = io.StringIO()
    code = await run_console(
        "tictacfive",
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        seed=1,
        stdin=io.StringIO("\n".join([*moves, "p2: G6", "quit"]) + "\n"),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
    )
    text = out.getvalue()
    assert code == 0
    last_board = text[text.rindex("ok p2: G8") :]
    assert " 6  . . . . . X * X . . . . . . ." in last_board
    assert "\n* black may not play here: a double three\n" in last_board
    assert text.count("may not play here") == 1  # no earlier board had a mark
    assert "p2: G6 would make two open threes at once" in text
