"""A long-running host lets go of a match once it is over and its end is announced.

A bot runs for months and hosts thousands of matches: ``Host.matches`` (and its loading locks)
holds the live and paused ones only. A finished or aborted match is read from the store when
asked about again, and answers as before; its durable timers (a grid's deletion) still run.
Real databases (SQLite and PostgreSQL), an injected clock, a recording transport.
"""

from __future__ import annotations

import asyncio

import pytest

from geniusbot.host.match import DELETE_TIMER, Host
from geniusbot.host.transport import RecordingTransport

from .sealedbid import registered
from .test_match import fire_due, host, start  # noqa: F401 - host: a fixture


def held(host: Host, match_id: int) -> bool:
    """Whether the host keeps anything of the match in memory."""
    return match_id in host.matches or match_id in host.cache.loading


async def assert_over_and_answers(host: Host, transport: RecordingTransport, match_id: int, status: str) -> None:
    """Let go of, yet a status request and a late submission get the right answers, from the store."""
    assert not held(host, match_id)
    reply = await host.command(match_id, "status")
    assert reply.ok and f"Match #{match_id}: " in reply.message and f", {status}." in reply.message
    transport.clear()
    reply = await host.submit(match_id, "p1", "H8", private=True)
    assert reply.status == "rejected" and reply.message == "This match is over; no more moves are taken."
    assert transport.private_texts("p1") == ["This match is over; no more moves are taken."]
    assert (await host.command(match_id, "pause")).message == f"Match #{match_id} is over already."
    # Reading it did not bring it back for good.
    assert not held(host, match_id)
    assert (await host.load(match_id)).status == status
    assert not held(host, match_id)


async def test_a_win_by_moves_lets_go_of_the_match(host, transport, clock):
    with registered():
        match_id = await start(host, "sealedbid", clock="30s")
        for _ in range(2):
            assert match_id in host.matches  # live: kept between moves
            assert (await host.submit(match_id, "p1", "bid 9", private=True)).ok
            assert (await host.submit(match_id, "p2", "bid 0", private=True)).ok
        record = await host.store.get_match(match_id)
        assert record.status == "finished" and record.result.winner == "p1"
        assert any("p1" in t and "wins" in t for t in transport.room_texts())  # the end was announced
        await assert_over_and_answers(host, transport, match_id, "finished")


async def test_a_resignation_lets_go_of_the_match(host, transport):
    match_id = await start(host)
    assert (await host.submit(match_id, "p1", "H8")).ok
    assert match_id in host.matches
    assert (await host.command(match_id, "resign", seat="p2")).ok
    assert (await host.store.get_match(match_id)).result.winner == "p1"
    await assert_over_and_answers(host, transport, match_id, "finished")


async def test_an_abort_lets_go_of_the_match(host, transport):
    match_id = await start(host)
    assert (await host.command(match_id, "abort")).ok
    assert (await host.store.get_match(match_id)).status == "aborted"
    await assert_over_and_answers(host, transport, match_id, "aborted")


async def test_a_timeout_by_the_timer_lets_go_of_the_match(host, transport, clock):
    match_id = await start(host, clock="60s")
    clock.advance(60)
    await fire_due(host, clock)
    record = await host.store.get_match(match_id)
    assert record.status == "finished" and record.result.winner == "p2"
    assert any("ran out of time" in t for t in transport.room_texts())
    await assert_over_and_answers(host, transport, match_id, "finished")


async def test_a_timeout_found_by_a_late_move_lets_go_of_the_match(host, transport, clock):
    match_id = await start(host, clock="60s")
    clock.advance(61)
    reply = await host.submit(match_id, "p1", "H8")
    assert reply.status == "rejected" and "Time ran out" in reply.message
    await assert_over_and_answers(host, transport, match_id, "finished")


async def test_a_timer_of_a_match_over_and_let_go_finds_it_over_and_keeps_nothing(host, transport, clock):
    match_id = await start(host, clock="60s")
    assert (await host.command(match_id, "resign", seat="p1")).ok
    assert not held(host, match_id)
    clock.advance(30)  # the clock row armed before the end falls due
    transport.clear()
    assert await fire_due(host, clock) == 1
    assert transport.sent == [] and await host.store.timers(match_id) == []
    assert not held(host, match_id)


async def test_a_live_or_paused_match_is_never_let_go_of(host, clock):
    live = await start(host, clock="60s+5m", channel_id=1)
    paused = await start(host, clock="60s+5m", channel_id=2)
    over = await start(host, clock="60s+5m", channel_id=3)
    assert (await host.command(paused, "pause")).ok
    assert (await host.command(over, "abort")).ok
    for _ in range(3):
        assert (await host.command(live, "status")).ok
        assert (await host.command(paused, "status")).ok
        clock.advance(20)
        await fire_due(host, clock)
        await host.load(live)
        await host.load(paused)
    assert set(host.matches) == {live, paused}
    before = host.matches[live]
    assert (await host.submit(live, "p1", "H8")).ok
    assert host.matches[live] is before  # the same object throughout: never reloaded
    assert (await host.command(paused, "resume")).ok and paused in host.matches


async def test_the_grid_is_still_deleted_after_the_match_ended_and_was_let_go_of(host, transport, clock):
    match_id = await start(host, "tiles", clock="30s")
    due = {t.payload["message_id"] for t in await host.store.timers(match_id) if t.kind == DELETE_TIMER}
    assert due  # the memory grid (and the board showing it) go at 30 s
    clock.advance(10)
    assert (await host.command(match_id, "abort")).ok
    assert not held(host, match_id)
    clock.advance(20)
    await fire_due(host, clock)
    assert {s.message_id for s in transport.sent if s.op == "delete"} == due
    assert await host.store.messages_to_delete() == []
    assert not held(host, match_id)


async def test_a_console_host_that_adopts_nothing_still_deletes_the_grid(store, clock):
    transport = RecordingTransport()
    host = Host(store, transport, now=clock, pictures=False, adopt=False)
    match_id = await start(host, "tiles", clock="30s")
    assert (await host.command(match_id, "resign", seat="p1")).ok
    assert not held(host, match_id)
    clock.advance(30)
    await fire_due(host, clock)
    assert {s.message_id for s in transport.sent if s.op == "delete"}
    assert await host.store.messages_to_delete() == []


async def test_a_submission_waiting_while_the_end_is_announced_is_told_it_is_over(store, clock):
    """The match stays in memory while its end is announced; a move queued meanwhile is refused
    with the right answer, and the match goes once both are done."""

    class Slow(RecordingTransport):
        gate: asyncio.Event | None = None

        async def post(self, room, text):
            if self.gate is not None:
                await self.gate.wait()
            return await super().post(room, text)

    transport = Slow()
    host = Host(store, transport, now=clock, pictures=False)
    match_id = await start(host)
    transport.gate = asyncio.Event()
    resign = asyncio.create_task(host.command(match_id, "resign", seat="p2"))
    for _ in range(50):  # until the resignation is committed and its announcement waits
        await asyncio.sleep(0)
        if (await host.store.get_match(match_id)).status == "finished":
            break
    assert match_id in host.matches  # still announcing its end: kept
    late = asyncio.create_task(host.submit(match_id, "p1", "H8", private=True))
    status = await host.command(match_id, "status")  # answered from memory meanwhile
    assert ", finished." in status.message and match_id in host.matches
    transport.gate.set()
    assert (await resign).ok
    reply = await late
    assert reply.status == "rejected" and reply.message == "This match is over; no more moves are taken."
    assert not held(host, match_id)
    assert any("resign" in t.lower() for t in transport.room_texts())


@pytest.mark.slow
async def test_many_finished_matches_leave_nothing_behind(host, clock):
    for n in range(20):
        match_id = await start(host, channel_id=100 + n)
        assert (await host.command(match_id, "abort" if n % 2 else "resign", seat="p1")).ok
        clock.advance(1)
    assert host.matches == {} and host.cache.loading == {}
    assert len(await host.store.live_matches()) == 0


async def test_a_match_whose_clock_ran_out_before_a_restart_is_ended_by_the_recovery_and_let_go_of(store, clock):
    first = Host(store, RecordingTransport(), now=clock, pictures=False, heartbeat=10)
    await first.recover()  # the first start: the heartbeat begins
    match_id = await start(first, clock="60s")
    # The clock row is lost (never delivered) while the host stays alive past the deadline.
    for row in await store.timers(match_id):
        await store.delete_timer(row.id)
    clock.advance(61)
    await fire_due(first, clock)  # only the heartbeat: alive at T0 + 61
    assert (await store.get_match(match_id)).status == "live"
    transport = RecordingTransport()
    second = Host(store, transport, now=clock, pictures=False, heartbeat=10)
    assert await second.recover() == [match_id]
    record = await store.get_match(match_id)
    assert record.status == "finished" and record.result.winner == "p2"
    assert any("ran out of time" in t for t in transport.room_texts())
    await assert_over_and_answers(second, transport, match_id, "finished")
