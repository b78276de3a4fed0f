"""Old data, said explicitly: an outcome stored as plain English before endings were messages is
the one text still named by reading it (``legacy_name_seats``); an event or a refusal of plain
English (a plug-in not made of messages) is said as it is, never read for seats; and whether an
ending names its winner is read from its message alone."""

from __future__ import annotations

import pytest

from geniusbot.games import Event, Outcome, Termination
from geniusbot.host.match import Host
from geniusbot.host.naming import legacy_name_seats
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import Seat, say

PLAYERS = [Player("p1", 1, "alice"), Player("p2", 2, "bob")]


async def started(store: Store) -> tuple[Host, int]:
    host = Host(store, RecordingTransport(), pictures=False, heartbeat=0)
    reply = await host.start_match("tictacfive", players=PLAYERS, seed=3, clock="none")
    assert reply.ok and reply.match_id is not None
    return host, reply.match_id


def test_an_ending_names_its_winner_by_its_message_and_a_plain_one_never():
    named = Outcome.of("p1", Termination.POINTS, say("{seat} wins the task", seat=Seat("p1")))
    assert named.names_winner
    # Plain English (saved before endings were messages): its words are not read.
    assert not Outcome("p1", Termination.OTHER, "p1 wins the task").names_winner
    assert not Outcome.from_dict({"winner": "p1", "reason": "p2 resigned; p1 wins."}).names_winner


@pytest.mark.parametrize(
    ("outcome", "line"),
    [
        # Stored whole (before terminations were kept): the sentence, which says who wins itself.
        (Outcome.from_dict({"winner": "p1", "reason": "p2 resigned; p1 wins."}), "Result: bob resigned; alice wins."),
        # A sentence and its verdict: who wins, then the sentence without it.
        (Outcome("p1", Termination.RESIGNATION, "p2 resigned", "; p1 wins"), "Result: alice (p1) wins. bob resigned."),
        (Outcome(None, Termination.OTHER, "p1 and p2 agreed", "; the game is a draw"), None),
    ],
)
async def test_a_stored_plain_outcome_is_said_with_the_names_from_its_verdict(
    store: Store, monkeypatch: pytest.MonkeyPatch, outcome: Outcome, line: str | None
):
    host, match_id = await started(store)
    live = host.held(match_id)
    assert live is not None
    monkeypatch.setattr(live.game, "outcome", lambda: outcome)
    caption = host.announcer.caption(live, 0.0)
    if line is None:
        assert caption == "Result: a draw. alice and bob agreed; the game is a draw."
    else:
        assert caption == line


async def test_an_event_of_plain_english_is_said_as_it_is(store: Store):
    host, match_id = await started(store)
    live = host.held(match_id)
    assert live is not None
    assert host.announcer.say(live, Event("p1 passes.")) == "p1 passes."  # never read for seats
    assert host.announcer.say(live, Event.of(say("{seat} passes.", seat=Seat("p1")))) == "alice passes."
    timed_out = Event.of(say("{seat} ran out of time.", seat=Seat("p1")))
    assert host.announcer.say(live, timed_out, labelled="p1") == "alice (p1) ran out of time."


def test_the_legacy_naming_is_for_stored_sentences_and_keeps_a_quotation():
    names = {"p1": "alice", "p2": "bob"}
    assert legacy_name_seats("p2 resigned; p1 wins.", names) == "bob resigned; alice wins."
    assert legacy_name_seats("'p1: H8' was refused; p2 wins.", names) == "'p1: H8' was refused; bob wins."
