"""The text boards a person reads in the console (and in a room with no pictures): a diagram and
sentences for every game, never JSON, and never anything its view hides."""

from __future__ import annotations

import pytest

from geniusbot.conformance.texts import check_text_boards
from geniusbot.games import new_game, registry
from geniusbot.games.allhands.decks import board_text as decks_board_text
from geniusbot.host.board import text_board
from geniusbot.words import Words


def grid_rows(text: str) -> dict[int, list[str]]:
    """Row number -> the cells of a 7 x 7 diagram in ``text`` (the first one)."""
    rows: dict[int, list[str]] = {}
    for line in text.splitlines():
        head, _, rest = line.partition(" ")
        if head.isdigit() and 1 <= int(head) <= 7 and int(head) not in rows and len(rest.split()) == 7:
            rows[int(head)] = rest.split()
        if len(rows) == 7:
            break
    return rows


def cell(rows: dict[int, list[str]], square: str) -> str:
    return rows[int(square[1:])][ord(square[0]) - ord("A")]


def right(game, move) -> bool:
    """Whether ``move`` keeps the task going (a declaration of the wrong colour is legal, and loses)."""
    trial = game.copy()
    trial.play(move)
    return not trial.is_over


def tiles_in_play(**options: str):
    game = new_game("tiles", seed=11, **options)
    game.close_window()  # the 30 s are up: the grid is hidden
    game.submit("call red", "p1")
    return game


def test_a_hidden_tiles_grid_shows_question_marks_the_black_centre_and_the_declared_tiles():
    game = tiles_in_play()
    move = next(m for m in game.legal_moves() if right(game, m))
    game.play(move)
    tile, colour = game.view()["declared"][-1]["tile"], game.view()["declared"][-1]["color"]
    assert move.text().startswith(tile)
    public = text_board(game.view(None))
    rows = grid_rows(public)
    assert cell(rows, "D4") == "*"
    assert cell(rows, tile) == colour[0].upper()
    hidden = [f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8) if f"{c}{r}" not in ("D4", tile)]
    assert all(cell(rows, square) == "?" for square in hidden)
    assert "1 tile declared." in public and "? hidden" in public
    assert f"p1 declares a {game.view()['called']} tile (called by p2), then calls a colour." in public


def test_the_tiles_board_gives_a_called_orange_its_article():
    game = tiles_in_play()
    game.play(next(m for m in game.legal_moves() if right(game, m)))
    assert "p1 declares an orange tile (called by p2)" in text_board(dict(game.view(None), called="orange"))


def test_the_memory_grid_is_drawn_while_it_may_be_seen_and_again_at_the_end():
    game = new_game("tiles", seed=11)
    shown = game.view(None)["grid"]
    rows = grid_rows(text_board(game.view(None)))
    assert cell(rows, "D4") == "*" and cell(rows, "A1") == shown["A1"][0].upper()
    # The board has no memorize line of its own: the host says the window (once) around it.
    assert "Memorize" not in text_board(game.view(None))
    game.close_window()
    game.resign("p2")
    rows = grid_rows(text_board(game.view(None)))
    assert "?" not in "".join("".join(r) for r in rows.values())


def test_a_landmine_owner_sees_its_own_mines_and_nobody_else_does():
    game = new_game("tiles", seed=11, anomalies="landmine")
    game.close_window()
    game.submit("mines A7 B6 C5 E2 F1", "p1", private=True)
    assert "Your mines: A7 B6 C5 E2 F1." in text_board(game.view("p1"))
    for seat in (None, "p2"):
        assert "A7" not in text_board(game.view(seat))
    assert "waiting for p2." in text_board(game.view(None))


def test_dueling_decks_reads_as_the_games_own_text_board():
    game = new_game("decks", seed=4)
    for seat in ("p1", "p2"):
        game.play(next(iter(game.legal_moves(seat))))
    view = game.view(None)
    assert text_board(view).startswith(decks_board_text(view))


def test_deck_swabbing_draws_its_board_and_the_score():
    game = new_game("swabbing", seed=2)
    game.submit("C3 C4", "p1")
    text = text_board(game.view(None))
    rows = grid_rows(text)
    assert cell(rows, "C3") == "#" and cell(rows, "C4") == "#" and cell(rows, "D4") == "."
    assert "p2 colours two white tiles black." in text
    assert "Score (tiles): p1 0, p2 0" in text


def test_all_hands_on_deck_shows_the_scoreboard_line_then_the_tasks_board():
    game = new_game("allhands", seed=5)
    text = text_board(game.view(None))
    assert text.splitlines()[0] == (
        "Play 1 of 15: Tile Decklaration (1st time, worth 1); anomalies: none. Points: p1 0, p2 0 (first to 23)."
    )
    assert "0 tiles declared." in text and "*" in text and "Memorize" not in text


def test_an_untimed_match_has_no_clocks_in_its_footer():
    view = new_game("tictacfive", seed=1).view(None)
    assert text_board(view, clocks={"p1": "", "p2": ""}).splitlines()[-1] == "to move: p1"
    assert text_board(view, clocks={"p1": "0:59", "p2": "1:00"}).endswith("to move: p1 | clocks: p1 0:59, p2 1:00")


def test_the_footer_says_what_each_seat_plays_as_by_the_games_legend_once_it_is_settled():
    game = new_game("tictacfive", seed=1)
    for text, seat in (("H8", "p1"), ("J8", "p1"), ("H9", "p1")):
        game.submit(text, seat)
    assert game.legend(game.view(None)) == {}  # p2 has not chosen the colours yet
    assert text_board(game.view(None)).splitlines()[-1] == "last move H9 | to move: p2"
    game.submit("white", "p2")
    assert {seat: Words()(colour) for seat, colour in game.legend(game.view(None)).items()} == {
        "p1": "black",
        "p2": "white",
    }
    assert text_board(game.view(None)).splitlines()[-1] == "p1 black, p2 white | last move H9 | to move: p2"


def test_a_game_without_a_legend_has_none_in_its_footer_whatever_its_view_holds():
    view = {**new_game("decks", seed=1).view(None)}
    view["colors"] = {"p1": "red", "p2": "blue"}  # a key of the game's own: the host reads none
    assert "p1 red" not in text_board(view).splitlines()[-1]


@pytest.mark.parametrize("name", sorted(registry()))
def test_no_game_is_ever_shown_as_json(name):
    # Every view (the room's, each seat's) of random games: the check of `geniusbot check GAME`.
    check_text_boards(registry()[name])


# The classic example record (geniusbot/examples/tightwire-classic.txt) up to Orange's slack line.
TIGHTWIRE_MOVES = [
    "p1 draw B5-B4 and move",
    "p2 draw D1-D2 and move",
    "p1 draw B4-B3 and move",
    "p2 draw A1-B3",
    "p1 draw A1-D5",
    "p2 draw B1-B2 and move",
    "p1 draw A5-A4 and move",
    "p2 draw D2-C3 and move",
    "p1 draw D5-D4 and move",
    "p2 revive E3",
    "p1 draw B3-C4 and move",
    "p2 draw C3-D4",
    "p1 draw E5-D2 and move",
    "p2 revive C2",
    "p1 draw A4-A3 and move",
    "p2 draw C2-D2",
    "p1 slack C2-D4",
]


def test_a_tightwire_board_draws_every_line_and_names_the_longer_ones():
    game = new_game("tightwire", seed=0, p1_color="orange")
    for line in TIGHTWIRE_MOVES:
        seat, text = line.split(" ", 1)
        game.submit(text, seat)
    assert text_board(game.view(None)) == "\n".join(
        [
            "    A   B   C   D   E",
            " 5  .   .   .   .   .",
            "    |   |     / |  |",
            " 4  .   .   O/  o  |.",
            "    |   | / / //  |",
            " 3  O   . / . / .|  B",
            "       //    /\\  |",
            " 2  . //B   .---O   .",
            "     // |       |",
            " 1  .   .   .   .   B",
            "    A   B   C   D   E",
            "Longer lines, traced above: A1-B3, A1-D5, D2-E5, C2-D4 (slack).",
            "O orange, B blue, . an empty dot; lower case: the dots of the last action.",
            "Off the board, to be revived: 1 blue.",
            "Slack line unused: p2.",
            "p1 orange, p2 blue | last move slack C2-D4 | to move: p2",
        ]
    )


@pytest.mark.parametrize("line", ["A1-B3", "C1-G2", "D7-E3", "A5-C6", "B6-E7", "F1-G5"])
def test_a_longer_line_is_traced_on_the_board_it_is_listed_under(line):
    # The board listed "Longer lines: ..." under a drawing that did not show them.
    setup = "orange A7 C5; blue A1 G1"
    bare = text_board(new_game("tightwire", seed=0, board="large7", setup=setup).view(None)).splitlines()
    drawn = text_board(
        new_game("tightwire", seed=0, board="large7", setup=f"{setup}; lines {line}").view(None)
    ).splitlines()
    grid = slice(1, 14)  # the 7 rows of dots and the 6 rows between them
    assert f"Longer lines, traced above: {line}." in drawn
    width = max(len(row) for row in drawn[grid] + bare[grid])
    changed = [
        (y, x) for y in range(1, 14) for x in range(width) if bare[y].ljust(width)[x] != drawn[y].ljust(width)[x]
    ]
    assert changed and all(drawn[y][x] in "/\\|~" for y, x in changed)
    # The trace runs from one end's row to the other's: every row of the canvas between them has a mark.
    a, b = line.split("-")
    rows = sorted(2 * (7 - int(dot[1:])) + 1 for dot in (a, b))  # the text rows of the two dots
    marked = {y for y, _ in changed}
    assert all(y in marked for y in range(rows[0] + 1, rows[1])) or rows[0] == rows[1]
    assert drawn[grid] != bare[grid]


def test_a_slack_line_across_a_neighbouring_line_is_drawn_as_a_cross_and_named_below():
    game = new_game("tightwire", seed=0, board="large7", setup="orange A7 C5; blue A1 G1; lines B2-C3 A7-B7")
    game.submit("slack B3-C2", "p1")
    text = text_board(game.view(None))
    rows = text.splitlines()
    assert rows[0] == "    A   B   C   D   E   F   G" and rows[1] == " 7  O---.   .   .   .   .   ."
    assert rows[rows.index(" 3  .   .   .   .   .   .   .") + 1] == "          X"
    assert "Slack lines drawn above: B3-C2." in text and "Longer lines" not in text


def test_a_threads_of_fate_draft_board_names_the_items_still_to_pick():
    game = new_game("tightwire", seed=0, variant="fate")
    assert "Items still to pick: Turn Order, Extra Slack Thread, Woven Revive." in text_board(game.view(None))
    game.submit("pick woven revive", "p1")
    text = text_board(game.view(None))
    assert (
        "Items still to pick: Turn Order, Extra Slack Thread." in text
        and "Items held: p1 Woven Revive; p2 none." in text
    )
