"""The family's shared anomaly names and the anomaly-list reader."""

import pytest

from geniusbot.games import OptionError
from geniusbot.games.allhands.common import (
    TASK_ANOMALIES,
    TASKS,
    anomaly_name,
    parse_anomalies,
    split_anomaly_words,
    task_of,
)


def test_each_task_has_five_anomalies_and_no_name_is_shared():
    assert TASKS == ("tiles", "decks", "swabbing")
    names = [n for task in TASKS for n in TASK_ANOMALIES[task]]
    assert all(len(TASK_ANOMALIES[t]) == 5 for t in TASKS)
    assert len(set(names)) == 15
    assert all(task_of(n) == t for t in TASKS for n in TASK_ANOMALIES[t])
    assert task_of("Pick Your Prize") == "decks" and task_of("nonsense") is None


@pytest.mark.parametrize(
    ("text", "task", "expected"),
    [
        ("", "tiles", ()),
        ("none", "decks", ()),
        ("Rectangle Adverse, chain", "tiles", ("chain", "rectangle-adverse")),
        ("rainbow rectangle adverse chain", "tiles", ("chain", "rainbow", "rectangle-adverse")),
        ("chain, chain", "tiles", ("chain",)),
        ("Pick Your Prize; backup", "decks", ("backup", "pick-your-prize")),
        ("pickyourprize darkness", "decks", ("darkness", "pick-your-prize")),
        ("pick_your-prize", "decks", ("pick-your-prize",)),
        ("Snipe, HOOK", "swabbing", ("hook", "snipe")),
    ],
)
def test_lists_are_read_in_any_spelling_and_given_in_the_texts_order(text, task, expected):
    assert parse_anomalies(text, task) == expected


def test_another_tasks_anomaly_is_refused_naming_its_task():
    with pytest.raises(OptionError, match=r"another task \(Dueling Decks\); Tile Decklaration takes"):
        parse_anomalies("chain, backup", "tiles")
    with pytest.raises(OptionError, match="another task"):
        parse_anomalies("pick your prize", "swabbing")


def test_an_unknown_name_is_refused_with_the_tasks_names():
    with pytest.raises(OptionError, match="Tile Decklaration has no anomaly 'chian'; choose from: chain, implode"):
        parse_anomalies("chian", "tiles")
    with pytest.raises(OptionError, match="no task"):
        parse_anomalies("chain", "chess")


def test_one_name_and_the_split_words():
    assert anomaly_name(" Rectangle_Adverse ", "tiles") == "rectangle-adverse"
    assert split_anomaly_words("pick your prize, none revolution") == ["pick-your-prize", "revolution"]
