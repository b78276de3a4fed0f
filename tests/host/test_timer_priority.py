"""A due timer goes ahead of a queue of match starts, on SQLite and PostgreSQL.

Where the store's transactions queue (SQLite's one writer, PostgreSQL's connections), the test
holds every place, so that what follows queues: a burst of starts, then a clock that runs out.
The places are then given back one by one, and the store's real transactions land in the order
the queue lets them in. A manual clock drives the dispatcher; nothing waits for real time.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta

import pytest

from geniusbot.host.match import Host
from geniusbot.host.timers import TimerDispatcher
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Priority, Store, priority
from geniusbot.storage.queueing import PriorityQueue
from tests.manualtime import ManualTime

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
STARTS = 5


class Landing(Store):
    """The real store, noting each match's creation and each commit as it lands."""

    def __init__(self, engine, **options) -> None:
        super().__init__(engine, **options)
        self.landed: list[str] = []

    async def create_match(self, **kwargs):
        record = await super().create_match(**kwargs)
        self.landed.append("start")
        return record

    async def commit_action(self, match_id, version, action, **kwargs):
        committed = await super().commit_action(match_id, version, action, **kwargs)
        self.landed.append(action.kind)
        return committed


async def until(condition, what: str) -> None:
    """Let the loop (and the store's thread) run until ``condition()`` holds; no timing involved."""
    for _ in range(200_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
async def landing(db_url: str):
    opened = await Landing.open(db_url, migrate=False)
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_due_timer_lands_before_a_queue_of_starts(landing: Landing):
    clock = ManualTime(T0)
    dispatcher = TimerDispatcher(landing, lambda timer: host.on_timer(timer), time=clock)
    host = Host(landing, RecordingTransport(), now=lambda: clock.now().timestamp(), boards=False, wake=dispatcher.wake)
    dispatcher.start()
    held = contextlib.AsyncExitStack()
    try:
        reply = await host.start_match("tictacfive", players=[Player("p1", 1), Player("p2", 2)], seed=1, clock="60s")
        assert reply.ok, reply.message
        await dispatcher.settle()
        landing.landed.clear()
        queue = landing.transaction_queue
        assert isinstance(queue, PriorityQueue)
        # Every place but one is held to the end (on PostgreSQL the queue has as many places as
        # the pool has connections), so that one transaction runs at a time; the last place is
        # held too until everything below has queued.
        for _ in range(queue.places - 1):
            await held.enter_async_context(queue.turn())
        last = queue.turn()
        await last.__aenter__()
        starts = [
            asyncio.create_task(
                host.start_match(
                    "tictacfive",
                    players=[Player("p1", 10 * n + 1), Player("p2", 10 * n + 2)],
                    seed=n,
                    channel_id=1000 + n,
                )
            )
            for n in range(STARTS)
        ]
        await until(lambda: queue.waiting == STARTS, "the starts queue")
        clock.set(T0 + timedelta(seconds=61))  # p1's clock has run out
        # The dispatcher's pass queues too: its read on PostgreSQL, the timeout's commit on
        # SQLite (whose reads do not queue).
        await until(lambda: queue.waiting == STARTS + 1, "the due timer queues behind the starts")
        await last.__aexit__(None, None, None)
        await dispatcher.settle()
        results = await asyncio.gather(*starts)
        assert all(r.ok for r in results), [r.message for r in results]
        # The timeout lands before any start is through (on PostgreSQL, where the pass's read
        # queues too, a start's first transaction may run between that read and the commit).
        first, *rest = landing.landed
        assert first == "timeout" and sorted(rest) == ["start"] * (2 * STARTS), landing.landed
    finally:
        await held.aclose()
        await dispatcher.stop()


async def test_the_queue_lets_in_by_priority_then_in_order():
    queue = PriorityQueue(1)
    order: list[str] = []

    async def take(name: str, level: Priority) -> None:
        with priority(level):
            async with queue.turn():
                order.append(name)

    async with queue.turn():
        tasks = [
            asyncio.create_task(take(name, level))
            for name, level in [
                ("start 1", Priority.LOW),
                ("move 1", Priority.NORMAL),
                ("start 2", Priority.LOW),
                ("timer 1", Priority.HIGH),
                ("move 2", Priority.NORMAL),
                ("timer 2", Priority.HIGH),
            ]
        ]
        await until(lambda: queue.waiting == len(tasks), "everyone queues")
    await asyncio.gather(*tasks)
    assert order == ["timer 1", "timer 2", "move 1", "move 2", "start 1", "start 2"]


async def test_the_queue_without_priorities_lets_in_as_they_came():
    queue = PriorityQueue(1, by_priority=False)
    order: list[str] = []

    async def take(name: str, level: Priority) -> None:
        with priority(level):
            async with queue.turn():
                order.append(name)

    async with queue.turn():
        tasks = []
        for name, level in [("start 1", Priority.LOW), ("move 1", Priority.NORMAL), ("timer 1", Priority.HIGH)]:
            tasks.append(asyncio.create_task(take(name, level)))
            await until(lambda: queue.waiting == len(tasks), f"{name} queues")
    await asyncio.gather(*tasks)
    assert order == ["start 1", "move 1", "timer 1"]


async def test_a_waiter_cancelled_gives_its_place_on():
    queue = PriorityQueue(1)
    entered: list[str] = []

    async def take(name: str) -> None:
        async with queue.turn():
            entered.append(name)

    async with queue.turn():
        first = asyncio.create_task(take("first"))
        second = asyncio.create_task(take("second"))
        await until(lambda: queue.waiting == 2, "both queue")
        first.cancel()
        await until(lambda: queue.waiting == 1, "the cancelled one leaves the queue")
    await second
    assert entered == ["second"]
    with pytest.raises(asyncio.CancelledError):
        await first
    # Given its place at the moment it was cancelled: the place goes on, none is lost.
    async with queue.turn():
        late = asyncio.create_task(take("late"))
        await until(lambda: queue.waiting == 1, "it queues")
    late.cancel()  # the place was handed to it; cancelled before it ran
    with pytest.raises(asyncio.CancelledError):
        await late
    async with asyncio.timeout(5):  # a bound, not a timing: a lost place would hang here
        async with queue.turn():
            entered.append("after")
    assert entered == ["second", "after"] and queue.waiting == 0


class Holding(Store):
    """The real store, whose match creations wait for the test to let them go."""

    def __init__(self, engine, **options) -> None:
        super().__init__(engine, **options)
        self.entered = 0
        self.go = asyncio.Event()

    async def create_match(self, **kwargs):
        self.entered += 1
        await self.go.wait()
        return await super().create_match(**kwargs)


async def test_a_burst_of_starts_takes_its_turns_a_few_at_a_time(db_url: str):
    store = await Holding.open(db_url, migrate=False)
    host = Host(store, RecordingTransport(), boards=False, starts_at_once=2)
    try:
        starts = [
            asyncio.create_task(
                host.start_match(
                    "tictacfive", players=[Player("p1", 10 * n + 1, "A"), Player("p2", 10 * n + 2, "B")], channel_id=n
                )
            )
            for n in range(1, STARTS + 1)
        ]
        await until(lambda: store.entered == 2, "two starts reach the store")
        for _ in range(1000):
            await asyncio.sleep(0)
        assert store.entered == 2  # the other starts wait at the gate, doing no work
        store.go.set()
        replies = await asyncio.gather(*starts)
        assert all(reply.ok for reply in replies) and store.entered == STARTS
    finally:
        await store.close()
