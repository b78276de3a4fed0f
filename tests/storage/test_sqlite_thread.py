"""On SQLite a transaction of the store is one hand-over to its database thread, and a caller
cancelled meanwhile learns nothing false: what the thread committed is there."""

from __future__ import annotations

import asyncio
import threading

import aiosqlite.core
import pytest
from sqlalchemy import event

from geniusbot.storage import NewAction, SeatInfo, Store


class CountingSubmissions:
    """Counts the calls handed to the store's SQLite thread (the real thread still runs them)."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        thread = store._thread
        assert thread is not None
        real = thread.submit

        def submit(fn, /, *args, **kwargs):
            self.count += 1
            return real(fn, *args, **kwargs)

        thread.submit = submit  # type: ignore[method-assign]


@pytest.fixture
async def sqlite_store(sqlite_db_url: str):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        yield store
    finally:
        await store.close()


async def test_a_commit_is_one_hop_to_the_sqlite_thread(sqlite_store: Store, monkeypatch):
    store = sqlite_store
    match = await store.create_match(game="g", seats=[SeatInfo("p1", "a"), SeatInfo("p2", "b")], state={"n": 0})
    aiosqlite_calls: list[str] = []
    real_execute = aiosqlite.core.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        aiosqlite_calls.append(getattr(fn, "__name__", repr(fn)))
        return await real_execute(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.core.Connection, "_execute", counted)
    hops = CountingSubmissions(store)
    committed = await store.commit_action(
        match.id, 0, NewAction("move", "H8", seat="p1"), state={"n": 1}, clock={"p1": 1}, host={"x": 1}
    )
    assert (committed.seq, committed.version) == (1, 1)
    assert hops.count == 1
    got = await store.get_match(match.id)  # a read (two statements) is one hop too
    assert hops.count == 2 and got.version == 1 and got.state == {"n": 1}
    assert aiosqlite_calls == []  # nothing of it went through aiosqlite's own thread


async def test_a_cancelled_commit_that_landed_is_seen_and_the_caller_is_cancelled(sqlite_store: Store):
    store = sqlite_store
    match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={"n": 0})
    reached, release = threading.Event(), threading.Event()

    def hold(conn) -> None:  # the thread, at its COMMIT, waits for the test
        reached.set()
        assert release.wait(30), "the test never released the commit"

    event.listen(store.sync_engine, "commit", hold)
    try:
        task = asyncio.create_task(store.commit_action(match.id, 0, NewAction("move", "H8", seat="p1"), state={"n": 1}))
        assert await asyncio.to_thread(reached.wait, 30)
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not task.done()  # the cancellation waits for the thread's outcome
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        release.set()
        event.remove(store.sync_engine, "commit", hold)
    got = await store.get_match(match.id)
    assert got.version == 1 and got.state == {"n": 1}
    assert [a.text for a in await store.actions(match.id)] == ["H8"]


async def test_a_commit_cancelled_while_queued_for_the_thread_still_runs(sqlite_store: Store):
    # The thread is busy with another call; the commit waits in its queue when the caller goes.
    store = sqlite_store
    match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={"n": 0})
    busy, release = threading.Event(), threading.Event()

    def occupy() -> None:
        busy.set()
        assert release.wait(30)

    assert store._thread is not None
    blocker = store._thread.submit(occupy)
    try:
        assert await asyncio.to_thread(busy.wait, 30)
        hops = CountingSubmissions(store)
        task = asyncio.create_task(store.commit_action(match.id, 0, NewAction("move", "H8", seat="p1"), state={"n": 1}))
        for _ in range(100):
            if hops.count:
                break
            await asyncio.sleep(0)
        assert hops.count == 1  # the commit is queued behind the busy call
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not task.done()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        release.set()
        blocker.result(30)
    got = await store.get_match(match.id)
    assert got.version == 1 and [a.text for a in await store.actions(match.id)] == ["H8"]


async def test_close_waits_for_the_thread_and_is_idempotent(sqlite_db_url: str):
    store = await Store.open(sqlite_db_url, migrate=False)
    await store.create_match(game="g", seats=[], state={})
    thread = store._thread
    await store.close()
    await store.close()
    assert thread is not None and thread._shutdown
