"""What the three tasks of All Hands On Deck share (``geniusbot.games.allhands.task``): the same
three options, read and refused in the same words, stored under the same keys, and the words
of a lost task."""

from __future__ import annotations

import pytest

from geniusbot.games import NotYourTurnError, OptionError, load
from geniusbot.games.allhands.common import TASK_ANOMALIES
from geniusbot.games.allhands.decks import DuelingDecks
from geniusbot.games.allhands.swabbing import DeckSwabbing
from geniusbot.games.allhands.task import AllHandsTask
from geniusbot.games.allhands.tiles import TileDecklaration
from geniusbot.words import Words

TASKS = [TileDecklaration, DuelingDecks, DeckSwabbing]


@pytest.mark.parametrize("cls", TASKS, ids=lambda c: c.name)
def test_every_task_takes_its_anomalies_a_starter_and_a_tiebreak(cls: type[AllHandsTask]):
    assert issubclass(cls, AllHandsTask) and list(cls.options) == ["anomalies", "starter", "tiebreak"]
    assert cls.options["anomalies"] == f"comma-separated: {', '.join(TASK_ANOMALIES[cls.name])} (default none)"
    names = TASK_ANOMALIES[cls.name]
    game = cls.new(seed=3, anomalies=f"{names[-1]}, {names[0].upper()}", starter="P2", tiebreak=" p1 ")
    assert game.anomalies == (names[0], names[-1]) and game.has(names[0]) and not game.has(names[1])
    assert (game.starter, game.tiebreak) == ("p2", "p1")
    stored = game.to_dict()["state"]
    assert list(stored)[:3] == ["anomalies", "starter", "tiebreak"]
    assert (stored["anomalies"], stored["starter"], stored["tiebreak"]) == ([names[0], names[-1]], "p2", "p1")
    again = load(game.to_dict())
    assert (again.anomalies, again.starter, again.tiebreak) == (game.anomalies, "p2", "p1")


@pytest.mark.parametrize("cls", TASKS, ids=lambda c: c.name)
def test_the_defaults_are_p1_to_start_and_the_tasks_own_tiebreak(cls: type[AllHandsTask]):
    game = cls.new(seed=3)
    assert game.anomalies == () and game.starter == "p1"
    assert game.tiebreak == ("p2" if cls is TileDecklaration else None)


@pytest.mark.parametrize("cls", TASKS, ids=lambda c: c.name)
@pytest.mark.parametrize(
    ("option", "said"),
    [
        ({"starter": "p3"}, "The starter must be p1 or p2, not 'p3'."),
        ({"tiebreak": "nobody"}, "The tiebreak must be p1 or p2, not 'nobody'."),
        ({"anomalies": "jokers"}, "has no anomaly 'jokers'; choose from:"),
    ],
)
def test_a_bad_option_is_refused_in_the_same_words_by_every_task(cls, option, said):
    with pytest.raises(OptionError) as caught:
        cls.new(seed=3, **option)
    assert said in str(caught.value)


@pytest.mark.parametrize("cls", TASKS, ids=lambda c: c.name)
def test_a_resigned_task_is_over_and_says_who_won_it(cls):
    game = cls.new(seed=3)
    events = game.resign("p2")
    assert game.is_over and game.outcome().winner == "p1"
    assert any("p2 resigned; p1 wins the task" in e.text for e in events)
    with pytest.raises(NotYourTurnError, match="The task is over; no more moves are taken."):
        game.parse_move("anything", "p1")


def test_a_lost_task_says_how():
    assert Words()(AllHandsTask.lost_task("p1", by="timeout")) == "p1 ran out of time; p2 wins the task"
    assert Words()(AllHandsTask.lost_task("p2", by="resign")) == "p2 resigned; p1 wins the task"
