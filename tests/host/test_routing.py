"""The host's routing of room messages, for every front end: table talk is told from a move and a
command's name gets its hint whether or not the match is in memory; and the public queries the
front ends read instead of the host's cache (a room's match, a member's seat, a result line)."""

from __future__ import annotations

import pytest

from geniusbot.host.match import ABORTED_RESULT, Host, ReplyStatus
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import MatchNotFound, Store
from tests.host.support import FakeTime

ROOM = 700


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False)


async def start(host: Host, game: str = "tictacfive") -> int:
    players = [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]
    reply = await host.start_match(game, players=players, seed=5, channel_id=ROOM, guild_id=1)
    assert reply.ok, reply.message
    assert reply.match_id is not None
    return reply.match_id


@pytest.mark.parametrize("held", [True, False], ids=["in memory", "not in memory"])
async def test_table_talk_is_not_refused_as_a_move_whether_or_not_the_match_is_held(
    store: Store, transport: RecordingTransport, clock: FakeTime, held: bool
) -> None:
    first = Host(store, transport, now=clock, pictures=False)
    match_id = await start(first)
    # Not in memory: another process's host (or this one after a restart) reads it from the store.
    host = first if held else Host(store, transport, now=clock, pictures=False)
    assert (host.held(match_id) is not None) is held
    version = (await store.get_match(match_id)).version
    transport.clear()
    for user in (11, 22):
        for text in ("gg nice", "gg", "nice move", "lol"):
            reply = await host.room_message(ROOM, user, text)
            assert reply.status == ReplyStatus.IGNORED and reply.match_id == match_id, (user, text, reply)
    assert transport.room_texts() == []  # no refusal said
    assert (await store.get_match(match_id)).version == version
    assert [a.kind for a in await store.actions(match_id)] == ["start"]  # nothing logged as refused
    # A move attempt still goes to the game: out of turn, answered.
    reply = await host.room_message(ROOM, 22, "H8")
    assert reply.status == ReplyStatus.REJECTED and transport.room_texts() == [
        "Bob (p2): It is not your turn; waiting for Alice."
    ]


async def test_a_commands_name_gets_its_hint_in_the_room_as_the_transport_writes_it(
    store: Store, clock: FakeTime
) -> None:
    slash = RecordingTransport(command_prefix="/")
    host = Host(store, slash, now=clock, pictures=False)
    match_id = await start(host)
    slash.clear()
    reply = await host.room_message(ROOM, 11, "resign")
    assert reply.hint and reply.status == ReplyStatus.REJECTED and not reply.ok
    assert slash.room_texts() == ["Alice (p1): to resign, use /resign."] == [reply.message]
    # The console names the seat that resigns (one keyboard types for every seat).
    bare = RecordingTransport()
    console = Host(store, bare, now=clock, pictures=False, hint_seats=True)
    reply = await console.room_move(match_id, "p2", "Resign!")
    assert bare.room_texts() == ["Bob (p2): to resign, use 'resign p2'."]
    assert (await store.get_match(match_id)).status == "live"  # nothing changed
    # Someone who plays in no match of the room: nothing, not even a hint.
    slash.clear()
    assert (await host.room_message(ROOM, 33, "resign")).status == ReplyStatus.IGNORED
    assert slash.room_texts() == []


async def test_the_queries_say_a_rooms_match_a_members_seat_and_a_result_line(
    host: Host, store: Store, transport: RecordingTransport, clock: FakeTime
) -> None:
    match_id = await start(host)
    live = host.match_in(ROOM)
    assert live is not None and live.id == match_id and host.match_in(ROOM + 1) is None
    assert [m.id for m in host.matches_of(22)] == [match_id] and host.matches_of(33) == []
    assert [m.id for m in host.unfinished()] == [match_id]
    assert await host.seat_of(match_id, 22) == "p2" and await host.seat_of(match_id, 33) is None
    # From the store for a match this host does not hold.
    other = Host(store, RecordingTransport(), now=clock, pictures=False)
    assert other.held(match_id) is None
    assert {s: p.label for s, p in (await other.players(match_id)).items()} == {"p1": "Alice (p1)", "p2": "Bob (p2)"}
    with pytest.raises(MatchNotFound):
        await other.players(match_id + 99)
    assert (await host.command(match_id, "resign", seat="p2")).ok
    assert host.match_in(ROOM) is None and host.unfinished() == []
    record = await store.get_match(match_id)
    line = host.result_line(record)
    assert line == "Result: Alice (p1) wins. Bob resigned."
    assert any(line in said for said in transport.room_texts())  # as the room read it under the board
    aborted = await start(host)
    assert (await host.command(aborted, "abort")).ok
    assert host.result_line(await store.get_match(aborted)) == ABORTED_RESULT


async def test_quiet_returns_once_the_input_being_handled_is_done(host: Host) -> None:
    match_id = await start(host)
    await host.quiet(match_id)  # nothing being handled: at once
    await host.quiet(match_id + 99)  # a match not held: at once


async def test_subscribers_hear_of_a_match_a_restart_resumed(store: Store, clock: FakeTime) -> None:
    host = Host(store, RecordingTransport(), now=clock, pictures=False)
    match_id = await start(host)
    again = Host(store, RecordingTransport(), now=clock, pictures=False)
    heard: list[int] = []
    unsubscribe = again.subscribe(heard.append)
    failing = again.subscribe(lambda _: 1 / 0)  # a listener that fails does not stop the others
    assert await again.recover() == [match_id]
    assert heard == [match_id]
    unsubscribe()
    failing()
    again.changed(match_id)
    assert heard == [match_id]
