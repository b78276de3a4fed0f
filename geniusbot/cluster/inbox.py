"""Direct messages across processes: Discord sends every DM (and every press of a button in a DM)
to shard 0 only, so the process of shard 0 receives those of matches other processes own.

The receiving process writes the submission into the ``inbox`` table (its match, seat, text and
idempotency key: the Discord message or interaction id) and PostgreSQL announces it with NOTIFY
on :data:`~geniusbot.storage.cluster.INBOX_CHANNEL`. Each owner LISTENs on a connection of its
own; on a notice for one of its shards, at its start, and every ``sweep`` seconds in any case,
it takes its rows one at a time, oldest first (``FOR UPDATE SKIP LOCKED``), applies each through
the host with the row's key, and deletes it in the same transaction that held it. A row whose
key is in the match's log already (taken before a crash that left the row) is deleted unapplied,
so nothing is applied twice; a row for an owner that is down waits for the next owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from geniusbot.storage.shards import Shards

from .ownership import ShardLocks, asyncpg_dsn, close_quietly, stop_watch

log = logging.getLogger(__name__)

DM, PRESS = "dm", "press"


@dataclass(frozen=True)
class InboxItem:
    """One handed-over submission, as the owner applies it."""

    id: int
    shard: int
    match_id: int
    user_id: int
    seat: str
    kind: str
    text: str
    key: str
    reply: dict[str, Any] | None


Apply = Callable[[InboxItem], Awaitable[None]]

_TAKE = (
    "SELECT id, shard, match_id, user_id, seat, kind, text, key, reply::text AS reply FROM inbox "
    "WHERE shard = ANY($1::int[]) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED"
)


class Inbox:
    """The owner's side: LISTEN, and drain the rows of ``shards`` through ``apply``. With
    ``locks`` (the process's :class:`ShardLocks`), the connection is one of the process's fenced
    sessions: named after it, and checked to open only while its lock session lives."""

    def __init__(
        self,
        url: str,
        shards: Shards,
        apply: Apply,
        *,
        sweep: float = 10.0,
        retry: float = 2.0,
        locks: ShardLocks | None = None,
    ) -> None:
        self.url = url
        self.locks = locks
        self.shards = shards
        self.apply = apply
        self.sweep = sweep
        self.retry = retry
        self.applied = 0
        self._conn: Any = None
        self._kick = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect, LISTEN, and drain what waits already (rows written while no owner ran)."""
        await self._connect()
        self._kick.set()
        self._task = asyncio.create_task(self._run(), name="geniusbot-inbox")

    async def _connect(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        from geniusbot.storage.cluster import INBOX_CHANNEL
        from geniusbot.storage.db import pg_server_settings

        name = self.locks.application_name("inbox") if self.locks else f"geniusbot inbox {self.shards}"
        conn = await asyncpg.connect(asyncpg_dsn(self.url), timeout=10, server_settings=pg_server_settings(name))
        try:
            if self.locks is not None:
                await self.locks.check_session(conn)
            await conn.add_listener(INBOX_CHANNEL, self._notified)
        except BaseException:
            await close_quietly(conn)
            raise
        self._conn = conn

    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        with contextlib.suppress(ValueError):
            if int(payload) in self.shards.ids:
                self._kick.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), self.sweep)
            self._kick.clear()
            try:
                await self.drain()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self._conn is None or self._conn.is_closed():
                    # Expected (a server restart; a new owner's fence, the process stopping next):
                    # one line, no traceback.
                    log.warning(
                        "inbox: the listening connection is closed (%s: %s); connecting again in %.0f s",
                        type(error).__name__,
                        error,
                        self.retry,
                    )
                else:
                    log.exception("inbox: draining failed; trying again in %.0f s", self.retry)
                await asyncio.sleep(self.retry)
                self._kick.set()
                if self._conn is None or self._conn.is_closed():
                    # The listening connection broke: a new one (notices missed meanwhile are
                    # made up for by the drain that follows).
                    with contextlib.suppress(Exception):
                        await self._connect()

    async def drain(self) -> int:
        """Apply every row of the owned shards, one transaction each; return how many."""
        import json

        done = 0
        while True:
            if self._conn is None or self._conn.is_closed():
                raise ConnectionError("the inbox connection is closed")
            async with self._conn.transaction():
                row = await self._conn.fetchrow(_TAKE, sorted(self.shards.ids))
                if row is None:
                    return done
                item = InboxItem(
                    row["id"],
                    row["shard"],
                    row["match_id"],
                    row["user_id"],
                    row["seat"],
                    row["kind"],
                    row["text"],
                    row["key"],
                    json.loads(row["reply"]) if row["reply"] else None,
                )
                await self.apply(item)
                await self._conn.execute("DELETE FROM inbox WHERE id = $1", item.id)
            done += 1
            self.applied += 1

    async def close(self) -> None:
        """Stop listening (a row being applied is left for the next owner, whole)."""
        task, self._task = self._task, None
        await stop_watch(task)
        conn, self._conn = self._conn, None
        if conn is not None:
            await close_quietly(conn)
