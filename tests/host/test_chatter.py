"""The chatter test for a seated player's room message: table talk ("gg", "nice move") is told
apart from a move attempt (a coordinate, a word of the game or a typo of one, a command's name)
by the game's own parser and keywords; a command's name gets a hint naming the command as the
transport's users write it."""

from __future__ import annotations

import itertools

import pytest

from geniusbot.conformance.texts import check_command_names
from geniusbot.games import SEATS, get_game, new_game, registry
from geniusbot.host.chatter import command_hint, is_chatter, looks_like_notation

CHATTER = ("gg", "lol", "hello", "nice move", "hmm", "wow", "ok", "good luck and have fun everyone")


def test_chatter_is_refused_text_with_no_coordinate_no_word_of_the_game_and_no_command() -> None:
    game = new_game("tictacfive")
    for text, seat in itertools.product(CHATTER, SEATS):  # p1 to move, p2 waiting
        assert is_chatter(game, seat, text), (text, seat)
    assert is_chatter(game, "p2", "you will never make five against me")
    for seat in SEATS:
        assert not is_chatter(game, seat, "H8")  # p2: answered as out of turn
        assert not is_chatter(game, seat, "resign")  # a command's name: answered with a hint
        assert not is_chatter(game, seat, "black")  # a word of the game: answered (not now)
    assert not is_chatter(game, "p1", "I will play H8 now I think")  # a coordinate
    assert not is_chatter(game, "p2", "let me put a stone at j10 please")
    for point in ("H8", "H9", "I8"):
        game.submit(point, "p1")
    # At the colour choice: a colour's typo is an attempt; so is anything p2, asked to choose,
    # types (a wrong word is answered with the options); p1's talk is still talk.
    for typo in ("blakc", "whit", "Black!", "purple", *CHATTER):
        assert not is_chatter(game, "p2", typo), typo
    assert all(is_chatter(game, "p1", text) for text in CHATTER)
    # A long sentence is talk even with a game's word in it, as before; a short one is an attempt.
    tight = new_game("tightwire", variant="fate")
    assert not is_chatter(tight, "p1", "pick turn order")
    assert not is_chatter(tight, "p2", "pick turn order")  # out of turn, answered so
    assert is_chatter(tight, "p2", "I would like to pick something nice")
    # "and" joins a move's parts only (classic: no draft, whose chooser is answered whatever it says)
    assert is_chatter(new_game("tightwire"), "p1", "good luck and have fun")


def test_full_width_text_is_read_as_the_ascii_it_stands_for() -> None:
    # A Korean or Japanese keyboard types Ｈ８ for H8: a move, not talk; full-width talk is talk.
    game = new_game("tictacfive")
    assert not is_chatter(game, "p1", "Ｈ８") and not is_chatter(game, "p2", "Ｈ８")
    assert not is_chatter(game, "p1", "ｊ１０ ｐｌｅａｓｅ")
    assert is_chatter(game, "p1", "ｇｇ") and is_chatter(game, "p2", "ｎｉｃｅ ｍｏｖｅ")
    assert command_hint("ｒｅｓｉｇｎ", "/") == "to resign, use /resign."


def test_the_seat_asked_to_choose_in_the_room_is_answered_whatever_it_types() -> None:
    # Arm's Length's DMO choice and Tightwire's draft, as Tic-Tac-Five's colour above; a sealed
    # question answered by DM (All Hands On Deck's All-In) leaves room talk as talk.
    arms = new_game("armslength", seed=1, dmo="p2")
    assert not is_chatter(arms, "p2", "purple") and is_chatter(arms, "p1", "purple")
    tight = new_game("tightwire", variant="fate")
    chooser = tight.to_move()[0]
    assert not is_chatter(tight, chooser, "lol")


def test_a_word_is_an_attempt_only_in_a_game_that_has_it() -> None:
    # "pass" answers All Hands On Deck's Override (here: refused, the grid is on show).
    final, five = new_game("allhands", seed=4), new_game("tictacfive")
    for seat in SEATS:
        assert not is_chatter(final, seat, "pass") and is_chatter(five, seat, "pass")
        assert not is_chatter(final, seat, "ban chain")
        assert all(is_chatter(final, seat, text) for text in CHATTER)
    assert looks_like_notation("B5-C3") and looks_like_notation("/pause")
    assert looks_like_notation("red first", get_game("armslength").keywords)
    assert looks_like_notation("blu first", get_game("armslength").keywords)  # "first"
    assert not looks_like_notation("red first") and not looks_like_notation("what a lovely day today")
    assert not looks_like_notation("all good", get_game("tiles").keywords)  # too short for a typo of call
    assert not looks_like_notation("one sec", get_game("decks").keywords)  # nor of none


def test_a_legal_move_is_never_chatter() -> None:
    # The parser reads a message first: what it takes is a move, whatever its words.
    tiles = new_game("tiles", seed=3)
    tiles.close_window()
    assert not is_chatter(tiles, "p1", "r")  # "call red", abbreviated
    arms = new_game("armslength", setup="none", dmo="p1")
    assert not is_chatter(arms, "p1", "2nd blue")


@pytest.mark.parametrize("name", sorted(registry()))
def test_no_game_takes_a_command_name_as_a_move(name: str) -> None:
    # The premise of the answer below: a command's name is never a move, in any phase (the check
    # of `geniusbot check GAME` called commands).
    check_command_names(registry()[name])


def test_a_hint_names_the_command_as_the_transport_writes_it() -> None:
    assert command_hint("resign", "/") == "to resign, use /resign."
    assert command_hint("/Pause", "/") == "to pause the match, a host uses /pause."
    assert command_hint("help", "/") == "/rules gives the rules and the notation; /status shows the match."
    # The console: commands are typed as named (quoted, to read as such), resign with the seat.
    assert command_hint("resign", "", seat="p1") == "to resign, use 'resign p1'."
    assert command_hint("status?", "") == "to see the match's status, use 'status'."
    assert command_hint("/abort", "") == "to abort the match, a host uses 'abort'."  # a Discord habit
    assert command_hint("help", "") == "'rules' gives the rules and the notation; 'status' shows the match."
    # One prefix at most ("//" starts table talk), and only a command's name alone.
    assert command_hint("//pause", "/") is None
    assert command_hint("resign now", "/") is None and command_hint("gg", "") is None
