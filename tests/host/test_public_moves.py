"""Through the real host and database: in a game whose moves are made in the game room
(Tic-Tac-Five, Arm's Length, Tightwire), a move sent by DM is refused, privately, with the line
that says to type it in the room, and changes nothing; and a record's timeout of a seat whose
clock is not running is refused when the record is imported, as the adjudicator rules it."""

from __future__ import annotations

import pytest

from geniusbot.adjudicate import adjudicate_text
from geniusbot.games import IN_THE_ROOM, load
from geniusbot.host.imports import ImportRefused, import_text
from geniusbot.host.match import Host
from geniusbot.host.replay import export_record
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.support import FakeTime

ROOM = 700
PLAYERS = [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]


@pytest.mark.parametrize(
    ("game", "move"), [("tictacfive", "H8"), ("armslength", "E5"), ("tightwire", "draw B5-B4 and move")]
)
async def test_a_move_sent_by_dm_in_a_game_whose_moves_are_public_is_refused_and_told_to_type_it_in_the_room(
    store: Store, transport: RecordingTransport, clock: FakeTime, game: str, move: str
):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    started = await host.start_match(game, players=PLAYERS, seed=1, clock="none", channel_id=ROOM)
    assert started.ok, started.message
    match_id = started.match_id
    before = (await host.load(match_id)).game.to_dict()
    mark = len(transport.sent)

    reply = await host.private_message(11, move)

    assert reply.status == "rejected" and reply.belongs_private is False
    assert reply.message == IN_THE_ROOM
    said = transport.sent[mark:]
    assert [(s.op, s.to, s.text) for s in said] == [("private", "p1", IN_THE_ROOM)]  # the room hears nothing
    assert (await host.load(match_id)).game.to_dict() == before
    logged = (await store.actions(match_id))[-1]
    assert (logged.accepted, logged.private, logged.text, logged.error) == (False, True, move, IN_THE_ROOM)
    # Typed in the room, the same move is taken.
    assert (await host.room_message(ROOM, 11, move)).ok


async def test_an_imported_timeout_of_a_seat_whose_clock_is_not_running_is_refused_and_p2_does_not_lose(store):
    text = '[Game "tictacfive"]\nhost: timeout p2\np1: H8\n'
    why = "p2's clock is not running (waiting for p1), so p2 cannot run out of time now."
    with pytest.raises(ImportRefused) as refused:
        await import_text(store, text, strict=True)
    assert str(refused.value).startswith(f"Line 2 is refused ('host: timeout p2'): {why} Nothing was imported")
    assert (await store.counts())["matches"] == 0
    # Kept as refused (not strict): logged as the bot logs a refused submission; p2 has not lost.
    kept = await import_text(store, text)
    log = await store.actions(kept.match_id)
    assert [(a.seat, a.kind, a.text, a.accepted, a.error, a.line) for a in log[1:]] == [
        ("host", "move", "timeout p2", False, why, 2),
        ("p1", "move", "H8", True, None, 3),
    ]
    assert (await store.get_match(kept.match_id)).status == "paused"
    assert "host: timeout p2 {at=" in await export_record(store, kept.match_id)
    # As the import rules it: the timeout refused, p2 has not lost and H8 is taken after it.
    ruling = adjudicate_text(text)
    assert [(a.text, a.error) for a in ruling.actions if not a.accepted] == [("timeout p2", why)]
    assert ruling.outcome is None and ruling.game.view()["last_move"] == "H8"
    # Without the refused line the record imports, paused, with H8 played.
    match_id = (await import_text(store, '[Game "tictacfive"]\np1: H8\n')).match_id
    imported = await store.get_match(match_id)
    assert imported.status == "paused" and imported.result is None
    assert load(imported.state).view()["last_move"] == "H8"
