"""The choices a game offers (as buttons on Discord): the game's own legal moves, when the seat to
move picks one of a few named options; and the rule that names them in the choice's text only
when they are few and short."""

from __future__ import annotations

from geniusbot.games import new_game
from geniusbot.host.offers import choice_offer, listing, private_choice_offers
from tests.games.allhands_helpers import make, win_task


def test_choices_come_from_the_games_own_legal_moves() -> None:
    game = new_game("tictacfive")
    assert choice_offer(game) is None
    for point in ("H8", "H9", "I8"):
        game.submit(point, "p1")
    assert choice_offer(game) == ("p2", ["black", "white"])
    game.submit("white", "p2")
    assert choice_offer(game) is None
    arms = new_game("armslength", setup="none", dmo="p1")
    assert choice_offer(arms) == ("p1", ["red first", "red second", "blue first", "blue second"])
    assert choice_offer(new_game("armslength", setup="none")) is None
    fate = new_game("tightwire", variant="fate")
    seat, texts = choice_offer(fate)
    assert seat == "p1" and len(texts) == 3 and all(t.startswith("pick ") for t in texts)
    fate.submit(texts[0], "p1")
    assert choice_offer(fate)[0] == "p2" and len(choice_offer(fate)[1]) == 2
    # A colour call, alone or as the running task of a final match.
    tiles = new_game("tiles", seed=3)
    assert choice_offer(tiles) is None  # the memorize window: nobody moves
    tiles.close_window()
    assert choice_offer(tiles) == ("p1", ["call red", "call blue", "call green"])
    final = new_game("allhands", seed=3)
    final.close_window()
    assert choice_offer(final) == ("p1", ["call red", "call blue", "call green"])
    # Declaring a tile is not a choice of a few named options.
    tiles.submit("call red", "p1")
    assert choice_offer(tiles) is None


def test_a_sealed_question_is_offered_to_each_seat_it_asks() -> None:
    game = new_game("tictacfive")
    assert private_choice_offers(game) == {}  # a public move is no sealed answer


def test_a_choice_is_told_from_the_next_by_the_games_choice_key() -> None:
    game = new_game("tictacfive")
    for point in ("H8", "H9", "I8"):
        game.submit(point, "p1")
    assert game.choice_key() == game.choice_key(game.view(None)) == ("choice",)  # by default, the phase
    # A kept All-In asked again in a later play: the same answers, a new question.
    final = make(items="p2 all-in")
    asked = {"p2": ["use all-in", "pass"]}
    assert private_choice_offers(final) == asked and final.choice_key(final.view(None)) == ("items", 1)
    final.timeout("p2")  # the item is kept
    win_task(final, "p1")
    assert private_choice_offers(final) == asked and final.choice_key(final.view(None)) == ("items", 2)


def test_the_options_are_listed_only_when_few_and_short() -> None:
    assert listing(["black", "white"]) == "black / white"
    assert listing(["call red", "call blue", "call green"]) == "call red / call blue / call green"
    assert listing(["red first", "red second", "blue first", "blue second"]) is None  # four
    assert listing(["pick turn order", "pick extra slack", "pick woven revive"]) is None  # 54 characters
