"""What a timer delivery costs the database: the rows it reads and writes, on SQLite and PostgreSQL.

A store that counts its calls (the real store underneath) shows the round trips; a manual clock
drives the dispatcher, so nothing waits for real time.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from geniusbot.host.match import CLOCK_TIMER, HEARTBEAT_TIMER, Host
from geniusbot.host.timers import TimerDispatcher
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store, TimerRecord
from tests.manualtime import ManualTime

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)

COUNTED = (
    "due_and_next",
    "due_timers",
    "next_timer",
    "timers",
    "add_timer",
    "replace_timer",
    "delete_timer",
    "postpone_timer",
    "commit_action",
)


class Counting(Store):
    """The real store, counting the calls that reach the database."""

    def __init__(self, engine) -> None:
        super().__init__(engine)
        self.calls: Counter[str] = Counter()

    def __getattribute__(self, name: str):
        attribute = super().__getattribute__(name)
        if name in COUNTED:
            super().__getattribute__("calls")[name] += 1
        return attribute


@pytest.fixture
async def counting(store: Store) -> Counting:
    return Counting(store.engine)


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(T0)


async def test_due_and_next_reads_the_due_timers_and_the_first_after_them(store: Store):
    for kind, seconds in [("b", 20), ("a", 10), ("c", 30), ("a2", 10)]:
        await store.add_timer(kind, T0 + timedelta(seconds=seconds))
    due, upcoming = await store.due_and_next(T0 + timedelta(seconds=20))
    assert [t.kind for t in due] == ["a", "a2", "b"] and upcoming is not None and upcoming.kind == "c"
    due, upcoming = await store.due_and_next(T0 + timedelta(seconds=20), limit=2)
    assert [t.kind for t in due] == ["a", "a2"] and upcoming is None  # a full batch: read again
    due, upcoming = await store.due_and_next(T0)
    assert due == [] and upcoming.kind == "a"
    due, upcoming = await store.due_and_next(T0 + timedelta(hours=1))
    assert len(due) == 4 and upcoming is None


async def test_replace_timer_adds_the_new_row_and_deletes_only_the_delivered_one(store: Store):
    delivered = await store.add_timer("clock", T0, payload={"n": 1})
    new, gone = await store.replace_timer(delivered, "clock", T0 + timedelta(seconds=30), payload={"n": 2})
    assert gone and new.id != delivered.id
    assert [(t.id, t.payload) for t in await store.timers()] == [(new.id, {"n": 2})]
    # The delivered row is gone already: a second replacement adds and deletes nothing else.
    again, gone = await store.replace_timer(delivered, "window", T0 + timedelta(seconds=40))
    assert not gone and {t.id for t in await store.timers()} == {new.id, again.id}


async def test_a_commit_can_take_its_delivered_timer_with_it(store: Store):
    match = await store.create_match(game="g", seats=[], state={"n": 0})
    delivered = await store.add_timer("clock", T0, match_id=match.id)
    other = await store.add_timer("clock", T0 + timedelta(seconds=5), match_id=match.id)
    await store.commit_action(match.id, match.version, None, state={"n": 1}, done_timer=delivered)
    assert [t.id for t in await store.timers()] == [other.id]


async def test_postponing_a_delivered_row_leaves_a_newer_row_with_its_id_alone(store: Store):
    delivered = await store.add_timer("clock", T0)
    assert await store.delete_timer(delivered.id)
    newer = await store.add_timer("window", T0 + timedelta(seconds=30))
    assert not await store.postpone_timer(newer.id, T0 + timedelta(seconds=99), delivered=delivered)
    [row] = await store.timers()
    assert row.due_at == T0 + timedelta(seconds=30) and row.attempts == 0


async def test_a_delivery_that_rearms_costs_one_read_and_one_write(counting: Counting, clock: ManualTime):
    async def rearm(timer: TimerRecord) -> bool:
        await counting.replace_timer(timer, "clock", timer.due_at + timedelta(seconds=30))
        dispatcher.wake(timer.due_at + timedelta(seconds=30))
        return True

    dispatcher = TimerDispatcher(counting, rearm, time=clock)
    await counting.add_timer("clock", T0 + timedelta(seconds=10))
    dispatcher.start()
    try:
        await dispatcher.settle()
        counting.calls.clear()
        clock.advance(10)
        await dispatcher.settle()
        assert counting.calls == Counter({"due_and_next": 1, "replace_timer": 1})
        # The next sleep ends at the replacement, which this pass's read did not see.
        assert clock.sleepers == [T0 + timedelta(seconds=40)]
        clock.advance(30)
        await dispatcher.settle()
        assert [t.due_at for t in await counting.timers()] == [T0 + timedelta(seconds=70)]
    finally:
        await dispatcher.stop()


async def test_a_callback_that_leaves_its_row_has_it_deleted_by_the_dispatcher(counting: Counting, clock: ManualTime):
    seen: list[int] = []

    async def note(timer: TimerRecord) -> None:
        seen.append(timer.id)

    dispatcher = TimerDispatcher(counting, note, time=clock)
    await counting.add_timer("x", T0)
    dispatcher.start()
    try:
        await dispatcher.settle()
        assert len(seen) == 1 and await counting.timers() == []
        assert counting.calls["delete_timer"] == 1
    finally:
        await dispatcher.stop()


def players() -> list[Player]:
    return [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]


async def test_the_host_rearms_a_warning_in_the_write_that_deletes_it(counting: Counting):
    now = [T0.timestamp()]
    host = Host(counting, RecordingTransport(), now=lambda: now[0], pictures=False, heartbeat=0)
    match_id = (await host.start_match("tictacfive", players=players(), seed=1, clock="60s")).match_id
    [warning] = await counting.timers(match_id)
    now[0] = warning.due_at.timestamp()
    counting.calls.clear()
    assert await host.on_timer(warning) is True  # the dispatcher has nothing left to delete
    assert counting.calls == Counter({"replace_timer": 1})
    [nxt] = await counting.timers(match_id)
    assert nxt.id != warning.id and nxt.kind == CLOCK_TIMER and nxt.due_at > warning.due_at
    assert "30 s left" in host.transport.sent[-1].text


async def test_the_host_deletes_the_timer_that_ends_a_match_in_the_ending_commit(counting: Counting):
    now = [T0.timestamp()]
    host = Host(counting, RecordingTransport(), now=lambda: now[0], pictures=False, heartbeat=0)
    match_id = (await host.start_match("tictacfive", players=players(), seed=1, clock="60s")).match_id
    for _ in range(3):  # the 30 s and 10 s warnings, then the expiry, each at its time
        [row] = await counting.timers(match_id)
        now[0] = row.due_at.timestamp()
        counting.calls.clear()
        assert await host.on_timer(row) is True
    assert now[0] == T0.timestamp() + 60
    assert counting.calls["commit_action"] == 1 and counting.calls["delete_timer"] == 0
    assert await counting.timers(match_id) == []
    assert (await counting.get_match(match_id)).status == "finished"


async def test_a_heartbeat_replaces_its_own_row(counting: Counting):
    now = [T0.timestamp()]
    host = Host(counting, RecordingTransport(), now=lambda: now[0], pictures=False)
    await host.recover()
    [beat] = await counting.timers(None)
    now[0] += 5
    assert await host.on_timer(beat) is True
    [after] = await counting.timers(None)
    assert after.kind == HEARTBEAT_TIMER and after.id != beat.id and after.payload["alive_at"] == now[0]
