"""A move whose COMMIT landed but whose answer was lost, the server away past the retries.

The connection is broken for real: a TCP proxy between asyncpg and the PostgreSQL server
(``tests/host/pgcutter.py``) lets the COMMIT reach the server, swallows its answer, drops the
connection and refuses new ones until the test brings it back. The host must never say such a
move was not taken: it says that it does not know yet, and once the database answers it finds
the move by its submission key and announces it as taken (or, had it not landed, says so).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.pgcutter import CommitCutter
from tests.host.sealedbid import registered
from tests.host.support import FakeTime

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def no_pause(seconds: float) -> None:
    """The store's pause between retries: none (the retries run out at once)."""


class Gate:
    """The host's pause between its tries to find out whether a move landed: each returns only
    when the test lets it (:meth:`one_try`), or at once once the gate is :meth:`open`."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.paused = asyncio.Event()
        self.opened = False
        self._release: asyncio.Future[None] | None = None

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        if self.opened:
            return
        self._release = asyncio.get_running_loop().create_future()
        self.paused.set()
        await self._release

    def _let_go(self) -> None:
        self.paused.clear()
        if self._release is not None and not self._release.done():
            self._release.set_result(None)

    async def one_try(self) -> None:
        """Let the host try once; return once it pauses again (that try could not tell)."""
        await asyncio.wait_for(self.paused.wait(), 30)
        self._let_go()
        await asyncio.wait_for(self.paused.wait(), 30)

    def open(self) -> None:
        self.opened = True
        self._let_go()


@pytest.fixture
async def cutter(postgres_db_url: str) -> AsyncIterator[CommitCutter]:
    proxy = CommitCutter(postgres_db_url)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.close()


@pytest.fixture
async def direct(postgres_db_url: str) -> AsyncIterator[Store]:
    """The same database, straight to the server: what is really in it."""
    store = await Store.open(postgres_db_url, migrate=False)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def proxied(cutter: CommitCutter, postgres_db_url: str) -> AsyncIterator[Store]:
    store = await Store.open(cutter.url(postgres_db_url), migrate=False, sleep=no_pause)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def gate() -> Gate:
    return Gate()


@pytest.fixture
def host(proxied: Store, transport: RecordingTransport, clock: FakeTime, gate: Gate) -> Host:
    return Host(proxied, transport, now=clock, pictures=False, heartbeat=0, sleep=gate)


async def start(host: Host) -> int:
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "alice"), Player("p2", 22, "bob")], seed=5, channel_id=7, clock="none"
    )
    assert reply.ok, reply.message
    return reply.match_id


async def taken(store: Store, match_id: int) -> list[tuple[str | None, str, str | None]]:
    return [(a.seat, a.text, a.key) for a in await store.actions(match_id, accepted_only=True) if a.kind == "move"]


async def test_a_move_saved_but_unanswered_is_announced_as_taken_once_the_database_is_back(
    host, transport, cutter, direct, gate
):
    match_id = await start(host)
    settled: list[int] = []
    host.subscribe(settled.append)  # the bot refreshes the match's buttons then
    transport.clear()
    cutter.cut_next_commit(lands=True)
    reply = await host.submit(match_id, "p1", "H8", key="discord:1001")
    assert cutter.cut.is_set()
    # The move is in the log; nobody can say so yet, and nobody says it was not taken.
    assert await taken(direct, match_id) == [("p1", "H8", "discord:1001")]
    assert reply.status == "unavailable"
    assert transport.room_texts() == [
        "alice (p1): The bot lost touch with its database while saving that move, so it does not know yet "
        "whether the move was taken; it will say here as soon as the database answers."
    ]
    # A try while the server is still away finds out nothing and says nothing.
    await gate.one_try()
    assert len(transport.room_texts()) == 1 and settled == []
    # The server is back: the move is found by its key and announced as a taken move is.
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    said = transport.room_texts()[1:]
    assert said[0] == "alice (p1): your move H8 was saved after all; it stands."
    assert said[1] == "alice places black on H8."  # the move's own announcement, then its board
    assert " 8  . . . . . . . x" in said[2] and "last move H8" in said[2]
    assert not any("not taken" in text for text in transport.room_texts())
    assert settled == [match_id]
    live = host.matches[match_id]
    assert live.version == (await direct.get_match(match_id)).version
    # The same submission again: taken already, and not taken twice.
    transport.clear()
    again = await host.submit(match_id, "p1", "H8", key="discord:1001")
    assert again.status == "rejected" and again.message == "That move was taken already; it is not taken twice."
    assert transport.room_texts() == [f"alice (p1): {again.message}"]
    assert await taken(direct, match_id) == [("p1", "H8", "discord:1001")]
    # The match goes on from the move that landed.
    assert (await host.submit(match_id, "p1", "H9", key="discord:1002")).ok
    assert await taken(direct, match_id) == [("p1", "H8", "discord:1001"), ("p1", "H9", "discord:1002")]


async def test_the_next_submission_finds_out_first_and_is_ruled_on_the_match_as_it_is(
    host, transport, cutter, direct, gate
):
    match_id = await start(host)
    cutter.cut_next_commit(lands=True)
    await host.submit(match_id, "p1", "H8", key="discord:2001")
    await cutter.come_back()
    transport.clear()
    # Before the host's own next try, the player sends the move again (a new message): the
    # earlier one is found taken and announced first; the new one is then ruled on the board it left.
    reply = await host.submit(match_id, "p1", "H8", key="discord:2002")
    said = transport.room_texts()
    assert said[0] == "alice (p1): your move H8 was saved after all; it stands."
    assert reply.status == "rejected" and "taken" in reply.message  # H8 holds a stone now
    assert said[-1] == f"alice (p1): {reply.message}"
    assert not any("not taken" in text or "match changed" in text for text in said)
    assert await taken(direct, match_id) == [("p1", "H8", "discord:2001")]
    gate.open()
    await host.confirmations()  # nothing left to find out
    assert gate.delays == [2.0]


async def test_while_the_database_is_still_away_a_resend_is_told_the_same(host, transport, cutter, direct, gate):
    match_id = await start(host)
    cutter.cut_next_commit(lands=True)
    await host.submit(match_id, "p1", "H8", key="discord:3001")
    transport.clear()
    same = await host.submit(match_id, "p1", "H8", key="discord:3001")
    other = await host.submit(match_id, "p2", "H9", key="discord:3002")
    assert same.status == other.status == "unavailable"
    assert "does not know yet whether the move was taken" in same.message
    assert other.message == (
        "The bot is still waiting for its database to say whether alice (p1)'s last move was saved, "
        "so that was not taken; send it again once the bot has said."
    )
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    assert "alice (p1): your move H8 was saved after all; it stands." in transport.room_texts()
    assert await taken(direct, match_id) == [("p1", "H8", "discord:3001")]


async def test_a_commit_that_did_not_land_is_said_not_taken_only_once_that_is_known(
    host, transport, cutter, direct, gate
):
    match_id = await start(host)
    transport.clear()
    cutter.cut_next_commit(lands=False)  # the COMMIT never reaches the server
    reply = await host.submit(match_id, "p1", "H8", key="discord:4001")
    assert reply.status == "unavailable" and "does not know yet" in reply.message
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    assert (
        transport.room_texts()[-1]
        == "alice (p1): Your move H8 was not saved after all, so it was not taken; send it again."
    )
    assert await taken(direct, match_id) == []
    assert (await host.submit(match_id, "p1", "H8", key="discord:4002")).ok
    assert await taken(direct, match_id) == [("p1", "H8", "discord:4002")]


async def test_a_private_move_saved_but_unanswered_is_confirmed_privately(host, transport, cutter, direct, gate):
    with registered():
        reply = await host.start_match(
            "sealedbid", players=[Player("p1", 11, "alice"), Player("p2", 22, "bob")], seed=5, clock="none"
        )
        assert reply.ok, reply.message
        transport.clear()
        cutter.cut_next_commit(lands=True)
        reply = await host.private_message(11, "bid 7", key="discord:5001")
        assert reply.status == "unavailable" and "does not know yet" in reply.message
        assert transport.private_texts("p1") == [reply.message] and transport.room_texts() == []
        await cutter.come_back()
        gate.open()
        await host.confirmations()
        assert "Taken: bid 7 (it was saved after all)." in transport.private_texts("p1")
        assert not any("7" in text for text in transport.room_texts())  # the bid stays sealed
        assert (await host.private_message(22, "bid 3", key="discord:5002")).ok
        assert "Bids revealed: alice 7, bob 3." in transport.room_texts()
        assert [a.key for a in await direct.actions(reply.match_id, accepted_only=True) if a.seat] == [
            "discord:5001",
            "discord:5002",
        ]


async def test_a_command_waiting_behind_an_unconfirmed_move_finds_it_first(host, transport, cutter, direct, gate):
    match_id = await start(host)
    cutter.cut_next_commit(lands=True)
    await host.submit(match_id, "p1", "H8", key="discord:6001")
    await cutter.come_back()
    transport.clear()
    # The host pauses before the bot's own next try: the move is found and said first; the
    # pause is then ruled on the match as it is, with the move.
    reply = await host.command(match_id, "pause")
    assert reply.ok
    assert transport.room_texts()[0] == "alice (p1): your move H8 was saved after all; it stands."
    assert transport.room_texts()[-1] == "The host paused the match."
    record = await direct.get_match(match_id)
    assert record.status == "paused" and await taken(direct, match_id) == [("p1", "H8", "discord:6001")]
    gate.open()
    await host.confirmations()


async def test_the_time_a_saved_move_waited_to_be_confirmed_is_given_back(proxied, cutter, direct, gate):
    clock = FakeTime()
    transport = RecordingTransport()
    host = Host(proxied, transport, now=clock, pictures=False, heartbeat=0, sleep=gate)
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "alice"), Player("p2", 22, "bob")], seed=5, channel_id=7, clock="60s"
    )
    match_id = reply.match_id
    clock.advance(10)
    cutter.cut_next_commit(lands=True)
    await host.submit(match_id, "p1", "H8", key="discord:7001")
    clock.advance(100)  # nobody sees the move meanwhile: more than a whole move's time
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    # alice places the next opening stone: her new turn began when the move was said, not before.
    assert transport.room_texts()[-1].endswith("\nTo move: alice (p1) 1:00.")
    clock.advance(30)
    assert (await host.submit(match_id, "p1", "H9", key="discord:7002")).ok
    assert await taken(direct, match_id) == [("p1", "H8", "discord:7001"), ("p1", "H9", "discord:7002")]
