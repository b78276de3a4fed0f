"""Words as data in every game: random games of every rule set (their openings, moves, closed
windows, timeouts and resignations), their endings and their refusals are messages, whose English
is what the record keeps. The check is ``geniusbot check GAME``'s ``words``, run here on every
registered game, a plug-in too."""

from __future__ import annotations

import pytest

from geniusbot.conformance import CheckFailed, rules
from geniusbot.games import Event, IllegalMoveError, Move, registry
from geniusbot.games.tictacfive.rules import TicTacFive
from geniusbot.words import say

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant}") for name, cls in registry().items() for variant in cls.variants
]


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_every_event_ending_and_refusal_of_random_games_is_a_message(name, variant):
    rules.check_words(registry()[name], variant)


class PlainOpening(TicTacFive):
    """A game whose opening is plain English."""

    def opening_events(self) -> list[Event]:
        return [Event("p1 places the opening stones.")]


class WrongEnglish(TicTacFive):
    """A game whose event's text is not its message's English."""

    def opening_events(self) -> list[Event]:
        return [Event("H8.", said=say("I8."))]


class PlainRefusal(TicTacFive):
    """A game that refuses every text in plain English."""

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        raise IllegalMoveError("No.")


@pytest.mark.parametrize(
    ("cls", "failure"),
    [(PlainOpening, "plain text"), (WrongEnglish, "not its message's English"), (PlainRefusal, "plain text")],
)
def test_the_check_fails_on_plain_text_and_on_text_that_is_not_the_messages_english(cls, failure):
    with pytest.raises(CheckFailed, match=failure):
        rules.check_words(cls, "standard", seeds=(1,))
