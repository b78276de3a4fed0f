"""The moves a front end offers a seat as it types (``/move``'s autocomplete): the legal ones now,
from the seat's own view alone."""

from __future__ import annotations

from geniusbot.games import get_game
from geniusbot.host.offers import MAX_SUGGESTIONS, suggestions


def test_the_legal_points_that_start_with_what_is_typed_and_only_to_the_seat_to_move() -> None:
    game = get_game("tictacfive").new(seed=1)
    assert suggestions(game, "p1", "h1") == ["H1", "H10", "H11", "H12", "H13", "H14", "H15"]
    assert len(suggestions(game, "p1", "")) == MAX_SUGGESTIONS
    assert suggestions(game, "p2", "H") == []
    game.submit("H8", "p1")
    assert "H8" not in suggestions(game, "p1", "H")


def test_a_game_with_hidden_information_offers_what_the_seat_can_know() -> None:
    decks = get_game("decks").new(seed=3)
    assert "create 49 1" in suggestions(decks, "p1", "create 49")
    # Black and White hides its tiles and builds no twin from a seat's view: no list at all.
    assert suggestions(get_game("blackwhite").new(seed=3), "p1", "") == []
