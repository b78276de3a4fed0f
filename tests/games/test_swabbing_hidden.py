"""Deck Swabbing hidden information: under Snipe a sealed move and a sealed snipe reach only the
seat that sent them until the turn is played, and no answer to the other seat depends on them."""

from __future__ import annotations

import json

import pytest

from geniusbot.games import Event, GameError
from tests.games.swabbing_helpers import make, play

SNIPES = ("snipe none", "snipe D4", "snipe G7", "snipe C4")
MOVES = ("C3 C4", "A1 B1", "F6 F7")


def public_part(events: list[Event], reader: str | None) -> list[tuple[str, str, str]]:
    """What ``reader`` (``None``: the room) is told: the events addressed to everyone or to it."""
    return [
        (e.kind, e.text, json.dumps(dict(e.data), sort_keys=True))
        for e in events
        if e.seats is None or (reader is not None and reader in e.seats)
    ]


def test_a_sealed_snipe_is_in_the_snipers_view_only():
    room, mover_views, told = set(), set(), set()
    for snipe in SNIPES:
        game = make(anomalies="snipe")
        events = game.submit(snipe, "p2", private=True)[1]
        assert game.view("p2")["sealed"] == snipe
        assert game.view("p2")["submitted"] == {"p1": False, "p2": True}
        room.add(json.dumps(game.view(None), sort_keys=True))
        mover_views.add(json.dumps(game.view("p1"), sort_keys=True))
        told.add(repr(public_part(events, "p1")) + repr(public_part(events, None)))
        for event in events:
            if snipe.split()[1] in event.text or event.data.get("snipe"):
                assert event.seats == frozenset({"p2"})
    # Whatever p2 sniped, the room and p1 see and hear exactly the same thing.
    assert len(room) == len(mover_views) == len(told) == 1


def test_a_sealed_move_is_in_the_movers_view_only():
    room, sniper_views, told = set(), set(), set()
    for move in MOVES:
        game = make(anomalies="snipe")
        events = game.submit(move, "p1", private=True)[1]
        assert game.view("p1")["sealed"] == move
        assert all(v == "white" for v in game.view(None)["board"].values())
        room.add(json.dumps(game.view(None), sort_keys=True))
        sniper_views.add(json.dumps(game.view("p2"), sort_keys=True))
        told.add(repr(public_part(events, "p2")) + repr(public_part(events, None)))
    assert len(room) == len(sniper_views) == len(told) == 1


@pytest.mark.parametrize("move", MOVES)
def test_the_sniper_is_never_refused_because_of_the_sealed_move(move):
    # A snipe on a tile the mover has sealed is taken like any other (it is then ignored).
    for snipe in SNIPES:
        game = make(anomalies="snipe")
        game.submit(move, "p1", private=True)
        assert game.parse_move(snipe, "p2", private=True).text() == snipe
        for text in ("C3 C4", "snipe Z9", "snipe", "hello"):
            with pytest.raises(GameError) as sealed:
                game.parse_move(text, "p2", private=True)
            with pytest.raises(GameError) as fresh:
                make(anomalies="snipe").parse_move(text, "p2", private=True)
            assert str(sealed.value) == str(fresh.value)


@pytest.mark.parametrize("snipe", SNIPES)
def test_the_mover_is_never_refused_because_of_the_sealed_snipe(snipe):
    game = make(anomalies="snipe, hook")
    game.submit(snipe, "p2", private=True)
    fresh = make(anomalies="snipe, hook")
    assert sorted(m.text() for m in game.legal_moves("p1")) == sorted(m.text() for m in fresh.legal_moves("p1"))
    assert game.parse_move("C4 D4", "p1", private=True).text() == "C4 D4"


def test_once_played_the_snipe_is_public():
    game = make(anomalies="snipe")
    events = play(game, "snipe G7", "C3 C4")
    move_event = next(e for e in events if e.kind == "move")
    assert move_event.public and "sniped G7" in move_event.text and move_event.data["snipe"] == "G7"
    assert game.view(None)["history"][-1]["snipe"] == "G7"
    assert game.view(None)["board"]["G7"] == "black"
    assert game.view("p2")["sealed"] is None  # a new turn: nothing sealed yet


def test_the_stored_game_keeps_what_the_views_hide():
    game = make(anomalies="snipe")
    game.submit("snipe D4", "p2", private=True)
    assert game.to_dict()["state"]["sealed_snipe"] == "D4"
    assert game.view(None)["sealed"] is None and game.view("p1")["sealed"] is None
