"""A board in words for who cannot see its picture (``host.board.described``, a board's alt text):
a game's ``describe`` sentences with the text board's footer, or the text board itself."""

from __future__ import annotations

from geniusbot.games import get_game
from geniusbot.host import board
from geniusbot.words import PSEUDO, Words, unsaid


def test_a_stone_game_says_each_colours_stones_in_reading_order_then_the_footer() -> None:
    game = get_game("tictacfive").new(seed=1)
    for point in ("H8", "A1", "I9"):
        game.submit(point, "p1")
    said = board.described(game.view(), words=Words(names={"p1": "alice", "p2": "bob"}))
    assert said == "black stones: I9, H8\nwhite stones: A1\nlast move I9 | to move: bob"


def test_arms_length_says_its_colours_and_none_for_a_colour_without_stones() -> None:
    game = get_game("armslength").new(seed=1, p1_color="red")
    lines = board.described(game.view()).split("\n")
    assert lines[0].startswith("red stones: ") and lines[1].startswith("blue stones: ")
    assert lines[-1].startswith("p1 red, p2 blue")


def test_a_game_without_a_description_is_described_by_its_text_board() -> None:
    view = get_game("tightwire").new(seed=1).view()
    assert board.described(view) == board.text_board(view)


def test_the_description_is_words_of_the_catalogue() -> None:
    game = get_game("tictacfive").new(seed=1)
    game.submit("H8", "p1")
    said = board.described(game.view(), words=Words(PSEUDO))
    assert said and not any(c.isalpha() and c.isascii() for c in unsaid(said).replace("H8", ""))
