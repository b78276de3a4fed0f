"""The durable timer dispatcher, on SQLite and PostgreSQL, with a manual clock (no real waiting)."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import pytest

from geniusbot.host.timers import SystemTime, TimerDispatcher
from geniusbot.storage import SeatInfo, Store, TimerRecord
from tests.manualtime import ManualTime
from tests.storage.timer_rows import delete_timers

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
SAFETY = 10  # seconds of real time after which a test gives up instead of hanging


class Recorder:
    """An ``on_timer`` callback that records deliveries and fails for the kinds it is told to."""

    def __init__(self, fail: set[str] | None = None, fail_times: int | None = None) -> None:
        self.delivered: list[TimerRecord] = []
        self.failures: list[TimerRecord] = []
        self.fail = fail or set()
        self.fail_times = fail_times
        self.queue: asyncio.Queue[TimerRecord] = asyncio.Queue()

    async def __call__(self, timer: TimerRecord) -> None:
        if timer.kind in self.fail and (self.fail_times is None or len(self.failures) < self.fail_times):
            self.failures.append(timer)
            raise RuntimeError(f"the host could not handle {timer.kind}")
        self.delivered.append(timer)
        self.queue.put_nowait(timer)

    @property
    def kinds(self) -> list[str]:
        return [t.kind for t in self.delivered]


async def add(
    dispatcher: TimerDispatcher,
    kind: str,
    due_at: datetime,
    *,
    match_id: int | None = None,
    payload: dict[str, object] | None = None,
) -> TimerRecord:
    """A timer written as the host writes one: its row in the store, then the dispatcher told
    its due time (``wake``), so that it is awake by then."""
    timer = await dispatcher.store.add_timer(kind, due_at, match_id=match_id, payload=payload)
    dispatcher.wake(timer.due_at)
    return timer


async def add_in(dispatcher: TimerDispatcher, kind: str, seconds: float, **options) -> TimerRecord:
    """:func:`add` a timer due ``seconds`` from the dispatcher's now."""
    return await add(dispatcher, kind, dispatcher.time.now() + timedelta(seconds=seconds), **options)


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(T0)


async def running(store: Store, callback, clock: ManualTime, **options) -> TimerDispatcher:
    dispatcher = TimerDispatcher(store, callback, time=clock, **options)
    dispatcher.start()
    await dispatcher.settle()
    return dispatcher


async def test_timers_fire_in_order_and_not_before_they_are_due(store: Store, clock: ManualTime):
    recorder = Recorder()
    dispatcher = await running(store, recorder, clock)
    try:
        for kind, seconds in [("c", 30), ("a", 10), ("b", 20), ("b2", 20)]:
            await add_in(dispatcher, kind, seconds)
        clock.advance(9.999)
        await dispatcher.settle()
        assert recorder.kinds == []
        clock.advance(0.001)
        await dispatcher.settle()
        assert recorder.kinds == ["a"]
        clock.advance(60)
        await dispatcher.settle()
        assert recorder.kinds == ["a", "b", "b2", "c"]  # ties go in the order they were added
        assert await store.timers() == []
    finally:
        await dispatcher.stop()


async def test_an_earlier_timer_wakes_the_sleeping_dispatcher(store: Store, clock: ManualTime):
    recorder = Recorder()
    await store.add_timer("late", T0 + timedelta(seconds=100))
    dispatcher = await running(store, recorder, clock)
    try:
        assert clock.sleepers == [T0 + timedelta(seconds=100)]
        await add(dispatcher, "early", T0 + timedelta(seconds=10), payload={"seat": "p2"})
        clock.advance(10)
        # No settle(): only the wake-up can make the dispatcher notice the earlier timer.
        timer = await asyncio.wait_for(recorder.queue.get(), SAFETY)
        assert (timer.kind, timer.payload) == ("early", {"seat": "p2"})
        assert recorder.kinds == ["early"]
        await dispatcher.settle()
        assert [t.kind for t in await store.timers()] == ["late"]
    finally:
        await dispatcher.stop()


async def test_a_later_timer_does_not_disturb_the_sleep(store: Store, clock: ManualTime):
    dispatcher = await running(store, Recorder(), clock)
    try:
        await add_in(dispatcher, "soon", 10)
        await dispatcher.settle()
        assert clock.sleepers == [T0 + timedelta(seconds=10)]
        await add_in(dispatcher, "later", 50)
        assert clock.sleepers == [T0 + timedelta(seconds=10)]
    finally:
        await dispatcher.stop()


async def test_timers_survive_a_restart(db_url: str, clock: ManualTime):
    first_store = await Store.open(db_url, migrate=False)
    first = Recorder()
    dispatcher = await running(first_store, first, clock)
    match = await first_store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
    await add_in(dispatcher, "clock", 60, match_id=match.id, payload={"seat": "p1"})
    await add_in(dispatcher, "delete-grid", 30, match_id=match.id, payload={"message_id": 9001})
    await add_in(dispatcher, "later", 3600)
    await dispatcher.stop()
    await first_store.close()
    assert first.delivered == []

    clock.advance(90)  # the bot was down while two of them fell due
    second_store = await Store.open(db_url, migrate=False)
    second = Recorder()
    dispatcher = await running(second_store, second, clock)
    try:
        assert second.kinds == ["delete-grid", "clock"]
        assert second.delivered[1].payload == {"seat": "p1"} and second.delivered[1].match_id == match.id
        assert [t.kind for t in await second_store.timers()] == ["later"]
        clock.advance(3600)
        await dispatcher.settle()
        assert second.kinds == ["delete-grid", "clock", "later"]
    finally:
        await dispatcher.stop()
        await second_store.close()


async def test_a_failing_callback_is_retried_later_and_does_not_stop_the_others(
    store: Store, clock: ManualTime, caplog: pytest.LogCaptureFixture
):
    recorder = Recorder(fail={"broken"}, fail_times=2)
    dispatcher = await running(store, recorder, clock, retry_delay=5, max_retry_delay=300)
    try:
        broken = await add_in(dispatcher, "broken", 10)
        await add_in(dispatcher, "fine", 10)
        await add_in(dispatcher, "also-fine", 11)
        with caplog.at_level(logging.ERROR, logger="geniusbot.host.timers"):
            clock.advance(11)
            await dispatcher.settle()
        assert recorder.kinds == ["fine", "also-fine"]
        assert "the host could not handle broken" in caplog.text
        [kept] = await store.timers()
        assert (kept.id, kept.attempts, kept.due_at) == (broken.id, 1, T0 + timedelta(seconds=16))

        clock.advance(5)  # second failure: the pause doubles
        await dispatcher.settle()
        [kept] = await store.timers()
        assert (kept.attempts, kept.due_at) == (2, T0 + timedelta(seconds=26))

        clock.advance(10)  # third try succeeds: delivered, then deleted
        await dispatcher.settle()
        assert recorder.kinds == ["fine", "also-fine", "broken"]
        assert recorder.delivered[-1].attempts == 2
        assert await store.timers() == []
        assert dispatcher.running
    finally:
        await dispatcher.stop()


async def test_a_timer_whose_callback_was_cut_short_is_delivered_again(db_url: str, clock: ManualTime):
    # At-least-once: the row goes only after the callback returned; a crash mid-callback keeps it.
    store = await Store.open(db_url, migrate=False)
    started = asyncio.Event()

    async def hangs(timer: TimerRecord) -> None:
        started.set()
        await asyncio.Event().wait()

    dispatcher = await running(store, hangs, clock)
    await add_in(dispatcher, "clock", 5)
    clock.advance(5)
    await asyncio.wait_for(started.wait(), SAFETY)
    await dispatcher.stop()  # the bot dies while handling the timer
    assert [t.kind for t in await store.timers()] == ["clock"]

    recorder = Recorder()
    dispatcher = await running(store, recorder, clock)
    try:
        assert recorder.kinds == ["clock"]
        assert await store.timers() == []
    finally:
        await dispatcher.stop()
        await store.close()


async def test_cancelled_timers_never_fire(store: Store, clock: ManualTime):
    recorder = Recorder()
    dispatcher = await running(store, recorder, clock)
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
        one = await add_in(dispatcher, "one", 10)
        await add_in(dispatcher, "clock", 10, match_id=match.id)
        await add_in(dispatcher, "warning", 10, match_id=match.id)
        await add_in(dispatcher, "window", 10, match_id=match.id)
        assert await store.delete_timer(one.id) is True
        assert await store.delete_timer(one.id) is False
        assert await delete_timers(store, match.id, "warning") == 1
        clock.advance(5)
        await dispatcher.settle()
        assert await delete_timers(store, match.id) == 2
        clock.advance(10)
        await dispatcher.settle()
        assert recorder.delivered == []
    finally:
        await dispatcher.stop()


async def test_timers_written_behind_its_back_are_found_on_wake_or_within_max_sleep(store: Store, clock: ManualTime):
    recorder = Recorder()
    dispatcher = await running(store, recorder, clock, max_sleep=60)
    try:
        assert clock.sleepers == [T0 + timedelta(seconds=60)]  # nothing due: it still looks again
        await store.add_timer("direct", T0 + timedelta(seconds=30))
        clock.advance(30)
        await asyncio.sleep(0)
        assert recorder.delivered == []  # not told, still asleep
        clock.advance(30)
        await asyncio.wait_for(recorder.queue.get(), SAFETY)
        await store.add_timer("direct2", clock.now())
        dispatcher.wake()
        assert (await asyncio.wait_for(recorder.queue.get(), SAFETY)).kind == "direct2"
    finally:
        await dispatcher.stop()


async def test_settle_needs_a_running_dispatcher(store: Store, clock: ManualTime):
    dispatcher = TimerDispatcher(store, Recorder(), time=clock)
    with pytest.raises(RuntimeError, match="not running"):
        await dispatcher.settle()
    dispatcher.start()
    dispatcher.start()  # starting twice keeps one task
    assert dispatcher.running
    await dispatcher.stop()
    await dispatcher.stop()
    assert not dispatcher.running


async def test_run_due_delivers_without_the_task(store: Store, clock: ManualTime):
    recorder = Recorder()
    dispatcher = TimerDispatcher(store, recorder, time=clock, batch=2)
    for n in range(5):
        await store.add_timer(f"t{n}", T0 - timedelta(seconds=5 - n))
    assert (await dispatcher.run_due()).delivered == 5  # more than one batch
    assert recorder.kinds == ["t0", "t1", "t2", "t3", "t4"]


def test_manual_time_moves_only_forward():
    clock = ManualTime(T0)
    assert clock.advance(1.5) == T0 + timedelta(seconds=1.5)
    with pytest.raises(ValueError):
        clock.set(T0)
    with pytest.raises(ValueError):
        ManualTime(datetime(2026, 1, 1))


async def test_system_time_does_not_sleep_for_the_past():
    system = SystemTime()
    now = system.now()
    assert now.tzinfo is not None
    await asyncio.wait_for(system.sleep_until(now - timedelta(hours=1)), 1)


async def test_a_database_outage_does_not_stop_the_dispatcher(sqlite_db_url: str, clock: ManualTime, caplog):
    import sqlite3

    from geniusbot.storage.db import create_engine

    async def no_wait(_delay: float) -> None:
        return None

    store = Store(create_engine(sqlite_db_url, busy_timeout_ms=0), sleep=no_wait, retries=1)
    recorder = Recorder()
    dispatcher = await running(store, recorder, clock, retry_delay=5)
    blocker = sqlite3.connect(sqlite_db_url.split("///", 1)[1], isolation_level=None)
    try:
        await add_in(dispatcher, "clock", 1)
        blocker.execute("BEGIN IMMEDIATE")  # the database is locked from now on
        with caplog.at_level(logging.ERROR, logger="geniusbot.host.timers"):
            clock.advance(1)
            await dispatcher.settle()
        assert recorder.kinds == ["clock"]  # delivered, but its row could not be deleted
        assert "database is unavailable" in caplog.text and dispatcher.running
        blocker.rollback()
        clock.advance(5)
        await dispatcher.settle()
        assert recorder.kinds == ["clock", "clock"]  # at-least-once: delivered again, then deleted
        assert await store.timers() == []
    finally:
        blocker.close()
        await dispatcher.stop()
        await store.close()
