"""A game may end in a way no common termination names: it declares its own endings
(``Game.terminations``, a ``StrEnum`` of its package), ends with one, and the saved game and the
stored match keep it, as they keep the common ones."""

from __future__ import annotations

from enum import StrEnum

from geniusbot.games import Event, Outcome, Termination
from geniusbot.games.outcome import termination_of
from geniusbot.games.tictacfive.rules import TicTacFive
from geniusbot.storage import Result


class Ending(StrEnum):
    CHECKMATE = "checkmate"


class Conceding(TicTacFive):
    """Tic-Tac-Five whose resignation is declared, for the test, as an ending of its own."""

    terminations = Ending

    def resign(self, seat: str) -> list[Event]:
        return self.end("p2" if seat == "p1" else "p1", Ending.CHECKMATE, f"{seat} is mated")


def test_a_games_own_ending_is_kept_through_a_save():
    game = Conceding.new(seed=1)
    game.resign("p1")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Ending.CHECKMATE
    assert outcome.to_dict()["termination"] == "checkmate"
    again = Conceding.from_dict(game.to_dict())
    assert again.outcome() == outcome and again.outcome().termination is Ending.CHECKMATE
    assert Result.of(outcome).termination == "checkmate"  # what a stored match keeps


def test_an_ending_is_read_back_as_the_common_one_or_the_games_own():
    assert termination_of("line") is Termination.LINE
    assert termination_of("checkmate", Ending) is Ending.CHECKMATE
    # Read without the game that declared it (a plug-in no longer installed): its ending unknown.
    assert termination_of("checkmate") is Termination.OTHER
    saved = {"winner": "p1", "termination": "checkmate", "how": "p2 is mated", "verdict": "; p1 wins"}
    assert Outcome.from_dict(saved, Ending).termination is Ending.CHECKMATE
    assert Outcome.from_dict(saved).reason == "p2 is mated; p1 wins."
