"""A resend of the same submission (the same key: a Discord message or interaction, a console
line) is answered as taken already and never taken twice, on SQLite and PostgreSQL."""

from __future__ import annotations

import io

from geniusbot.console import run_console
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.sealedbid import registered
from tests.host.support import FakeTime
from tests.manualtime import ManualTime

TAKEN_ALREADY = "That move was taken already; it is not taken twice."


async def start(host: Host, game: str = "tictacfive", **kw) -> int:
    players = [Player("p1", 11, "alice"), Player("p2", 22, "bob")]
    reply = await host.start_match(game, players=players, seed=5, clock="none", **kw)
    assert reply.ok, reply.message
    return reply.match_id


async def moves(store: Store, match_id: int) -> list[tuple[str | None, str, bool, str | None]]:
    return [
        (a.seat, a.text, a.accepted, a.key) for a in await store.actions(match_id) if a.kind not in ("start", "command")
    ]


async def test_a_resent_room_message_is_answered_as_taken_and_not_taken_twice(
    store: Store, transport: RecordingTransport, clock: FakeTime
):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    match_id = await start(host, channel_id=7)
    assert (await host.room_message(7, 11, "H8", key="discord:100")).ok
    transport.clear()
    reply = await host.room_message(7, 11, "H8", key="discord:100")
    assert (reply.status, reply.message) == ("rejected", TAKEN_ALREADY)
    assert transport.room_texts() == [f"alice (p1): {TAKEN_ALREADY}"]  # not "that point is taken"
    assert await moves(store, match_id) == [("p1", "H8", True, "discord:100")]  # the resend is not logged
    # Another message with the same move is another submission: the game rules on it.
    reply = await host.room_message(7, 11, "H8", key="discord:101")
    assert reply.status == "rejected" and reply.message != TAKEN_ALREADY
    assert (await moves(store, match_id))[-1] == ("p1", "H8", False, None)
    # A host started afresh (a restart) knows it too: the store does.
    again = Host(store, RecordingTransport(), now=clock, pictures=False, heartbeat=0)
    assert (await again.submit(match_id, "p1", "H8", key="discord:100")).message == TAKEN_ALREADY
    assert [m for m in await moves(store, match_id) if m[2]] == [("p1", "H8", True, "discord:100")]


async def test_a_resent_private_move_is_answered_privately_as_taken(
    store: Store, transport: RecordingTransport, clock: FakeTime
):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    with registered():
        match_id = await start(host, "sealedbid")
        assert (await host.private_message(11, "bid 7", key="discord:200")).ok
        transport.clear()
        reply = await host.private_message(11, "bid 7", key="discord:200")
        assert (reply.status, reply.message) == ("rejected", TAKEN_ALREADY)
        assert transport.private_texts("p1") == [TAKEN_ALREADY] and transport.room_texts() == []
        assert await moves(store, match_id) == [("p1", "bid 7", True, "discord:200")]


async def test_a_submission_without_a_key_gets_one_of_the_hosts_own(
    store: Store, transport: RecordingTransport, clock: FakeTime
):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    match_id = await start(host)
    assert (await host.submit(match_id, "p1", "H8")).ok
    [(seat, text, accepted, key)] = await moves(store, match_id)
    assert key is not None and key.startswith("host:")


async def test_console_lines_are_keyed_by_run_and_line_unique_across_runs(tmp_path):
    db_url = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"

    async def run(lines: list[str], **kw) -> None:
        await run_console(
            "tictacfive",
            db_url=db_url,
            seed=1,
            stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
            out=io.StringIO(),
            time_source=ManualTime(),
            **kw,
        )

    await run(["p1: H8", "quit"])
    await run(["", "p1: H9", "quit"])  # resumes the match; an empty line counts too
    store = await Store.open(db_url, migrate=False)
    try:
        keys = [key for *_, key in await moves(store, 1)]
    finally:
        await store.close()
    first, second = (key.split(":") for key in keys)
    assert first[0] == second[0] == "console" and first[1] != second[1]
    assert (first[2], second[2]) == ("1", "2")
