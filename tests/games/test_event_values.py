"""An event is a value: frozen, compared by what it says and carries, copied with changes, and
pickled with a game's state; its English is made from its message when something reads it."""

from __future__ import annotations

import pickle

import pytest

from geniusbot.games import Event, EventKind
from geniusbot.words import Seat, say


def passes(seat: str = "p1") -> Event:
    return Event.of(say("{seat} passes.", seat=Seat(seat)), kind=EventKind.INFO, data={"seat": seat})


def test_an_event_made_of_a_message_reads_as_its_english_with_the_seat_ids():
    event = passes()
    assert event.text == "p1 passes."
    assert event.said == say("{seat} passes.", seat=Seat("p1"))


def test_events_compare_by_text_seats_kind_data_and_deletion_not_by_message():
    assert passes() == Event("p1 passes.", None, EventKind.INFO, {"seat": "p1"})
    assert passes() != passes("p2")
    assert passes() != Event("p1 passes.", frozenset({"p1"}), EventKind.INFO, {"seat": "p1"})
    assert passes() != Event("p1 passes.", None, EventKind.END, {"seat": "p1"})


def test_an_event_is_frozen():
    event = passes()
    with pytest.raises(AttributeError):
        event.kind = EventKind.END
    with pytest.raises(AttributeError):
        del event.data
    assert event.kind == EventKind.INFO


def test_replace_copies_with_changes_and_refuses_a_field_it_lacks():
    event = passes()
    timed = event.replace(kind=EventKind.TIMEOUT, data={"seat": "p1", "late": True})
    assert (timed.text, timed.kind, timed.data) == ("p1 passes.", EventKind.TIMEOUT, {"seat": "p1", "late": True})
    assert event.kind == EventKind.INFO and event.data == {"seat": "p1"}
    with pytest.raises(TypeError, match="no field 'colour'"):
        event.replace(colour="red")


def test_an_event_pickles_to_an_equal_one_that_keeps_its_message():
    event = passes()
    copy = pickle.loads(pickle.dumps(event))
    assert copy == event and copy.said == event.said and copy.text == "p1 passes."
