"""An outcome made of words as data: the game's sentence is a message, kept with the outcome and
said again in any language; its English (what the record keeps) reads as before."""

from __future__ import annotations

import copy
import pickle

import pytest

from geniusbot.games import Outcome, Termination
from geniusbot.games.armslength.rules import ArmsLength
from geniusbot.games.tictacfive.rules import TicTacFive
from geniusbot.words import PSEUDO, Seat, Words, say


def test_a_resignation_is_a_message_whose_english_reads_as_before():
    game = TicTacFive.new(seed=1)
    [event] = game.resign("p1")
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "p1 resigned; p2 wins." and event.text == outcome.reason
    assert event.said == outcome.said
    assert Words(PSEUDO, {"p1": "ann", "p2": "bo"})(event.said) == "⟦⟦ann ŕéśíĝñéđ⟧⟦; bo ŵíñś⟧.⟧"
    assert Words("en", {"p1": "ann", "p2": "bo"})(outcome.said_detail) == "ann resigned."


def test_the_outcome_keeps_its_words_through_the_store_and_a_copy():
    game = ArmsLength.new(seed=1)
    game.timeout("p2")
    outcome = game.outcome()
    assert outcome is not None and outcome.said is not None
    again = Outcome.from_dict(outcome.to_dict())
    assert again is not None and again.said == outcome.said and again.reason == outcome.reason
    assert pickle.loads(pickle.dumps(outcome)).said == outcome.said
    assert copy.deepcopy(game).outcome() == outcome
    # An outcome stored before it had words still reads, as plain English.
    older = {k: v for k, v in outcome.to_dict().items() if k != "said"}
    plain = Outcome.from_dict(older)
    assert plain is not None and plain.said is None and plain.reason == "p2 ran out of time; p1 wins."


def test_whether_the_sentence_names_the_winner_is_read_from_its_arguments():
    named = Outcome.of("p1", Termination.POINTS, say("{seat} wins the task", seat=Seat("p1")))
    unnamed = Outcome.of("p1", Termination.POINTS, say("{seat} is out of cards", seat=Seat("p2")), say("; p1 wins"))
    assert named.names_winner and named.reason == "p1 wins the task."
    assert not unnamed.names_winner


def test_a_verdict_message_needs_a_message_sentence():
    game = TicTacFive.new(seed=1)
    with pytest.raises(TypeError):
        game.end("p1", Termination.OTHER, "p2 fell asleep", verdict=say("; p1 wins"))
