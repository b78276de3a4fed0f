"""The base of :class:`~geniusbot.storage.store.Store`: its engines, and one retried transaction per call.

Every transaction is a plain function of a synchronous SQLAlchemy :class:`Connection`. On SQLite
it runs whole (begin, work, commit) in a thread of the store's own, on a synchronous engine of
the same file: one hand-over between the event loop and the thread per transaction, where
aiosqlite needs one per statement, cursor and commit. On PostgreSQL it runs through the async
engine (``run_sync``), whose driver talks to the server itself. The table groups of the store
(:mod:`.matches`, :mod:`.timers`, :mod:`.messages`, :mod:`.guilds`) build on this class.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool

from geniusbot.words import Message

from .db import WRITE_OPTION, sqlite_sync_engine
from .queueing import PriorityQueue
from .retry import (
    DEFAULT_BACKOFF,
    DEFAULT_MAX_BACKOFF,
    DEFAULT_RETRIES,
    AmbiguousCommit,
    RetryState,
    is_transient,
    retry_transient,
)
from .rows import aware, utcnow

T = TypeVar("T")


class Transactions:
    """An engine and the way the store runs a transaction on it: retried, and queued by priority
    (:mod:`.queueing`) behind the store's other writers on SQLite, for a pooled connection on
    PostgreSQL.

    ``now`` is the clock used for timestamps the caller does not give; ``sleep`` is the pause
    between retries (tests inject both, so nothing waits for real time).
    """

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        now: Callable[[], datetime] = utcnow,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        max_backoff: float = DEFAULT_MAX_BACKOFF,
    ) -> None:
        self.engine = engine
        self._now = now
        self._sleep = sleep
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        # Where transactions queue, by priority (see .queueing). SQLite has one writer at a
        # time: queuing this process's writers here costs nothing, whereas letting them collide
        # on the file lock puts them in SQLite's busy handler, which polls with sleeps of up to
        # 100 ms. PostgreSQL has its pool's connections: a transaction queues here for one
        # rather than in the pool, which hands them out in the order asked.
        self._writers: PriorityQueue | None = None
        self._connections: PriorityQueue | None = None
        if engine.dialect.name == "sqlite":
            self._writers = PriorityQueue(1)
        elif (places := pool_places(engine)) is not None:
            self._connections = PriorityQueue(places)
        # SQLite: the engine and the one thread every transaction runs in (see _in_thread).
        self._sqlite: Engine | None = None
        self._thread: ThreadPoolExecutor | None = None
        if engine.dialect.name == "sqlite":
            self._sqlite = sqlite_sync_engine(engine)
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="geniusbot-sqlite")
        self._closed = False

    async def close(self) -> None:
        """Close every pooled connection (and the SQLite thread). The store is unusable afterwards."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None and self._sqlite is not None:
            # In the thread, after whatever transaction is still running there.
            await asyncio.get_running_loop().run_in_executor(self._thread, self._sqlite.dispose)
            self._thread.shutdown(wait=False)
        await self.engine.dispose()

    @property
    def sync_engine(self) -> Engine:
        """The synchronous engine the transactions run on: SQLite's own, or the async engine's
        (PostgreSQL). Its events (``commit``, ``before_cursor_execute``...) see every transaction."""
        return self._sqlite if self._sqlite is not None else self.engine.sync_engine

    @property
    def transaction_queue(self) -> PriorityQueue | None:
        """Where this store's transactions queue by priority: SQLite's writers (one place), or
        PostgreSQL's connections (as many places as the pool has); ``None`` when they never queue."""
        return self._writers if self._writers is not None else self._connections

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def now(self) -> datetime:
        """The store's idea of the current time (aware UTC)."""
        return aware(self._now())

    async def _transaction(
        self,
        work: Callable[[Connection], T],
        *,
        write: bool,
        what: Message,
        verify: Callable[[Connection], T | None] | None = None,
    ) -> T:
        """Run ``work`` in one transaction, retrying transient failures.

        ``verify`` is asked, before a retry that follows a failed COMMIT, whether the first try
        landed after all; if it returns a value, that is the result and nothing is redone.
        Both are plain functions of a synchronous :class:`Connection` (no awaiting inside).
        """

        def attempt_on(conn: Connection, state: RetryState) -> T:
            if write:
                conn = conn.execution_options(**{WRITE_OPTION: True})
            if state.ambiguous and verify is not None:
                with conn.begin():
                    found = verify(conn)
                if found is not None:
                    return found
            state.ambiguous = False
            trans = conn.begin()
            try:
                result = work(conn)
            except BaseException:
                trans.rollback()
                raise
            try:
                trans.commit()
            except DBAPIError as error:
                if write and is_transient(error):
                    raise AmbiguousCommit() from error
                raise
            return result

        sqlite = self._sqlite

        if sqlite is not None:

            def attempt_in_thread(state: RetryState) -> T:
                with sqlite.connect() as conn:
                    return attempt_on(conn, state)

            async def attempt(state: RetryState) -> T:
                async with self._turn(self._writers if write else None):
                    return await self._in_thread(lambda: attempt_in_thread(state))

        else:

            async def attempt(state: RetryState) -> T:
                async with self._turn(self._connections), self.engine.connect() as conn:
                    return await conn.run_sync(attempt_on, state)

        return await self._retrying(attempt, what=what)

    async def _in_thread(self, call: Callable[[], T]) -> T:
        """``call()`` in the store's SQLite thread: one hand-over there and one back."""
        assert self._thread is not None
        future = asyncio.get_running_loop().run_in_executor(self._thread, call)
        # A caller cancelled while its transaction runs (or waits) in the thread must not leave
        # the store and the caller disagreeing: the thread goes on, and may commit. So the
        # cancellation waits for the thread's outcome (a commit that happened is then on disk
        # and visible to the next read, and the write lock is held until then), and is let
        # through only after it; the caller sees CancelledError either way.
        cancelled: asyncio.CancelledError | None = None
        while not future.done():
            try:
                await asyncio.shield(future)
            except asyncio.CancelledError as error:
                cancelled = error
            except Exception:
                pass  # the call's own error, raised below
        if cancelled is not None:
            if not future.cancelled():
                future.exception()  # retrieved: the caller is gone, nobody else will look
            raise cancelled
        return future.result()

    async def _retrying(self, attempt: Callable[[RetryState], Awaitable[T]], *, what: Message) -> T:
        """:func:`retry_transient` with this store's retries, backoff and sleep."""
        return await retry_transient(
            attempt,
            what=what,
            retries=self.retries,
            backoff=self.backoff,
            max_backoff=self.max_backoff,
            sleep=self._sleep,
        )

    @staticmethod
    def _turn(queue: PriorityQueue | None) -> contextlib.AbstractAsyncContextManager[Any]:
        return contextlib.nullcontext() if queue is None else queue.turn()


def pool_places(engine: AsyncEngine) -> int | None:
    """How many connections ``engine``'s pool hands out at most; ``None`` when it has no bound
    (no queue to wait in) or is not a queue pool."""
    pool = engine.pool
    if not isinstance(pool, QueuePool):
        return None
    overflow = int(getattr(pool, "_max_overflow", 0))  # QueuePool keeps it with no public accessor
    return None if overflow < 0 else pool.size() + overflow
