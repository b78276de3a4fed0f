"""Who serves a shard: one PostgreSQL session advisory lock per shard, held on a connection of
its own (the *lock session*) for as long as the process serves it.

``pg_try_advisory_lock(PROJECT_KEY, shard_id)`` succeeds for one session at a time, so two
processes can never both own a shard, however they are configured. A process whose shards are
held waits, polling, until every lock it wants is free (the owner stopped, or died: PostgreSQL
releases a session's locks when its connection closes) and then takes over.

The lock session is watched: it is pinged every ``ping_every`` seconds, and a ping that fails
or takes longer than ``ping_timeout``, or the connection closing, calls ``on_lost`` at once (the
bot stops the process there: see ``docs/bot.md``, "Several processes"). While it serves, the
server ends the lock session once it has been silent for ``silent_timeout`` seconds
(``idle_session_timeout``, which the pings keep from firing), so an owner that does not answer
(frozen, or cut off) holds its shards that long at most.

**The fence.** Every database session of a process of several is named after the process
(``geniusbot#<token> <role>``), and opens only while the process's lock session lives
(:meth:`ShardLocks.check_session`, run on each new connection). A process that takes shards ends,
before it serves them, every session of a process whose lock session is gone
(:meth:`ShardLocks.fence`), waiting until each has ended (its transaction rolled back, its row
locks freed). A session of a stopped owner is so either ended before the new owner serves, or
was opened after the owner's lock session ended, which its check refuses: no commit of a stopped
owner lands after the new owner serves, and the new owner waits on none of its row locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from geniusbot.storage.shards import Shards

log = logging.getLogger(__name__)

#: The first key of every shard's advisory lock ("geni"); the second is the shard id.
PROJECT_KEY = 0x67656E69
#: The first key of the layout lock ("genj"), held shared by every process with its shard count
#: as the second key (0: a process without SHARD_COUNT, serving every match), so processes that
#: would split the guilds differently never run together. ``(LAYOUT_KEY, -1)`` serialises the check.
LAYOUT_KEY = 0x67656E6A

_OTHER_LAYOUTS = """
SELECT DISTINCT objid::bigint AS count FROM pg_locks
WHERE locktype = 'advisory' AND classid::bigint = $1 AND objsubid = 2 AND granted
  AND pid <> pg_backend_pid() AND objid::bigint NOT IN ($2, 4294967295)
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""


async def close_quietly(conn: Any) -> None:
    """Close a lock connection, whatever state it is in (a broken one is gone already)."""
    with contextlib.suppress(Exception):
        await conn.close(timeout=5)


async def stop_watch(task: asyncio.Task[None] | None) -> None:
    """Cancel a lock's watch task and wait for it to end."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class LayoutConflict(Exception):
    """Processes with another shard count (or none) run on this database."""

    def __init__(self, mine: int, theirs: int) -> None:
        def said(count: int) -> str:
            return "no SHARD_COUNT (one process serving every match)" if count == 0 else f"SHARD_COUNT={count}"

        super().__init__(
            f"another bot process runs on this database with {said(theirs)}, and this one has {said(mine)}; "
            "they would both serve some servers' matches. Give every process of one database the same "
            "SHARD_COUNT, or stop the others first."
        )


async def claim_layout(conn: Any, count: int) -> None:
    """Hold the layout lock of ``count`` shards (0: no shard settings) on ``conn``, for as long
    as the connection lives; :class:`LayoutConflict` if a process of another count holds one."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1::int, -1)", LAYOUT_KEY)
        others = await conn.fetch(_OTHER_LAYOUTS, LAYOUT_KEY, count)
        if others:
            raise LayoutConflict(count, int(others[0]["count"]))
        await conn.execute("SELECT pg_advisory_lock_shared($1::int, $2::int)", LAYOUT_KEY, count)


#: The second key of the lock held by the one process without shard settings (shard ids are >= 0).
SOLE_KEY = -1


class AnotherSoleProcess(Exception):
    """Another process without shard settings runs on this database."""

    def __init__(self) -> None:
        super().__init__(
            "another bot process without shard settings runs on this database, so this one does not start "
            "(both would serve every match, and deliver the same timers and clock warnings). Stop the other "
            "process first; to run several, give each the same SHARD_COUNT and its own SHARD_IDS."
        )


class SoleProcessLock:
    """The locks of a process without shard settings on PostgreSQL: the layout lock of count 0,
    so that it never runs beside processes that split the shards, and ``(PROJECT_KEY, SOLE_KEY)``
    alone, so that two such processes never run together (:class:`AnotherSoleProcess`).

    The connection is pinged every ``ping_every`` seconds. When it is lost (a PostgreSQL restart,
    a broken network) the locks are taken again as soon as the server answers, every
    ``retry_every`` seconds meanwhile, so a lone bot rides through an outage of its database; if
    another process took them in between, ``on_lost`` is called (the bot stops there)."""

    def __init__(
        self,
        url: str,
        *,
        on_lost: Callable[[str], Any] | None = None,
        ping_every: float = 1.0,
        ping_timeout: float = 3.0,
        retry_every: float = 1.0,
    ) -> None:
        self.url = url
        self.on_lost = on_lost
        self.ping_every = ping_every
        self.ping_timeout = ping_timeout
        self.retry_every = retry_every
        self._conn: Any = None
        self._watch: asyncio.Task[None] | None = None
        self._closing = False

    async def _take(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        conn = await asyncpg.connect(
            asyncpg_dsn(self.url), timeout=10, server_settings={"application_name": "geniusbot every shard"}
        )
        try:
            await claim_layout(conn, 0)
            if not await conn.fetchval("SELECT pg_try_advisory_lock($1::int, $2::int)", PROJECT_KEY, SOLE_KEY):
                raise AnotherSoleProcess()
        except BaseException:
            await close_quietly(conn)
            raise
        self._conn = conn

    async def acquire(self) -> None:
        """Take the locks, or :class:`AnotherSoleProcess` / :class:`LayoutConflict` (nothing kept)."""
        await self._take()
        log.info("serving every match of this database (no shard settings; holding its lock)")
        self._watch = asyncio.create_task(self._watching(), name="geniusbot-sole-lock")

    async def _watching(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.ping_every)
            try:
                await self._conn.fetchval("SELECT 1", timeout=self.ping_timeout)
                continue
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("lost the lock of the one process of this database (%s); taking it again", error)
            await self._drop()
            while not self._closing:
                try:
                    await self._take()
                except (AnotherSoleProcess, LayoutConflict):
                    if self.on_lost is not None:
                        self.on_lost(
                            "lost the lock of the one process of this database, and another bot process took it"
                        )
                    return
                except asyncio.CancelledError:
                    raise
                except Exception:
                    await asyncio.sleep(self.retry_every)
                else:
                    log.info("took the lock of the one process of this database again")
                    break

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await close_quietly(conn)

    async def close(self) -> None:
        self._closing = True
        task, self._watch = self._watch, None
        await stop_watch(task)
        await self._drop()


class StandbyStopped(Exception):
    """The process was stopped while it waited, as a standby, for its shards."""


class SessionFenced(ConnectionError):
    """A new database session of a process whose lock session is gone (it no longer owns its shards)."""


def asyncpg_dsn(url: str) -> str:
    """The plain ``postgresql://`` DSN asyncpg takes, for a SQLAlchemy URL."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


#: The server ends a serving lock session silent for this long (seconds): a live owner pings it every
#: half second, one that is frozen or cut off does not, and a standby takes its shards.
SILENT_TIMEOUT = 3.0

#: Whether the lock session ``$1`` (a backend pid) started at ``$2`` still holds its layout lock.
_LOCK_SESSION_ALIVE = """
SELECT EXISTS (
  SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.pid = $1 AND a.backend_start = $2 AND l.locktype = 'advisory' AND l.granted
    AND l.classid::bigint = $3 AND l.objsubid = 2
)
"""

#: The sessions of processes of several whose lock session is gone: every session named
#: ``geniusbot#<token> ...`` (but a lock session, which holds locks or is about to) whose token
#: no session holding a layout lock has.
_ORPHANS = """
WITH named AS (
  SELECT pid, application_name, substring(application_name FROM '^geniusbot#([0-9a-f]+) ') AS token
  FROM pg_stat_activity WHERE datname = current_database()
), live AS (
  SELECT n.token FROM pg_locks l JOIN named n ON n.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = $1 AND l.objsubid = 2
)
SELECT pid, application_name FROM named
WHERE token IS NOT NULL AND application_name NOT LIKE 'geniusbot#% lock %' AND pid <> pg_backend_pid()
  AND token NOT IN (SELECT token FROM live WHERE token IS NOT NULL)
"""


class ShardLocks:
    """The advisory locks of ``shards`` on the database at ``url`` (a SQLAlchemy PostgreSQL URL),
    and the fence of the process's other sessions (see the module's docstring)."""

    def __init__(
        self,
        url: str,
        shards: Shards,
        *,
        on_lost: Callable[[str], Any],
        poll: float = 0.25,
        ping_every: float = 0.5,
        ping_timeout: float = 3.0,
        silent_timeout: float = SILENT_TIMEOUT,
        fence_wait: float = 5.0,
        keepalive_idle: int = 10,
        keepalive_interval: int = 3,
    ) -> None:
        self.url = url
        self.shards = shards
        self.on_lost = on_lost
        self.poll = poll
        self.ping_every = ping_every
        self.ping_timeout = ping_timeout
        self.silent_timeout = silent_timeout
        self.fence_wait = fence_wait
        self.keepalive = (keepalive_idle, keepalive_interval)
        #: Names this process's sessions on the server (``geniusbot#<token> <role>``).
        self.token = secrets.token_hex(4)
        self.held: set[int] = set()
        #: Whether the process waits for its shards (another process holds one of them).
        self.waiting = False
        self._conn: Any = None
        self._session: tuple[int, Any] | None = None  # the lock session's pid and start
        self._watch: asyncio.Task[None] | None = None
        self._closing = False

    def application_name(self, role: str) -> str:
        """The ``application_name`` of this process's session of ``role`` (``store``, ``inbox``)."""
        return f"geniusbot#{self.token} {role}"[:63]

    async def _connect(self) -> Any:
        import asyncpg

        from geniusbot.storage.db import pg_server_settings

        idle, interval = self.keepalive
        settings = pg_server_settings(self.application_name(f"lock shards {self.shards}"))
        settings.update(tcp_keepalives_idle=str(idle), tcp_keepalives_interval=str(interval))
        conn = await asyncpg.connect(asyncpg_dsn(self.url), timeout=10, server_settings=settings)
        conn.add_termination_listener(self._terminated)
        return conn

    async def connect(self) -> None:
        """Open the lock session and take the layout lock (:class:`LayoutConflict` if processes
        of another shard count run): the process's other sessions may open from here on."""
        if self._conn is not None:
            return
        self._conn = await self._connect()
        try:
            await claim_layout(self._conn, self.shards.count)
            row = await self._conn.fetchrow(
                "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"
            )
        except BaseException:
            await self._release()
            raise
        self._session = (int(row["pid"]), row["backend_start"])

    async def check_session(self, conn: Any) -> None:
        """Run on each new session of this process (``conn``, an asyncpg connection): it may be
        used only while the lock session lives; else the process has lost its shards
        (``on_lost``) and :class:`SessionFenced` is raised."""
        if self._session is None:
            raise SessionFenced("the lock session is not open")
        pid, started = self._session
        if not await conn.fetchval(_LOCK_SESSION_ALIVE, pid, started, LAYOUT_KEY):
            self._lost("a new database session found the lock session gone")
            raise SessionFenced("the lock session of this process is gone")

    async def acquire(self, *, standby: bool = False, one_of: bool = False) -> Shards:
        """Take the shards' locks and return the shards now served (kept in :attr:`shards`).

        Every shard's lock at once, or with ``one_of`` the lock of any one of the shards: the
        process serves the first that frees. While another process holds them it waits, polling
        (``standby``: as it was told to; else it says so at WARNING first). A lock is never kept
        while the process waits for others, so no shard is held unserved. :meth:`close`
        meanwhile ends the wait with :class:`StandbyStopped`. Once taken, the lock session is
        given its silence timeout and the sessions of stopped owners are ended (:meth:`fence`)."""
        try:
            await self.connect()
        except BaseException:
            await self._release()
            raise
        wanted = sorted(self.shards.ids)
        announced = False
        while True:
            if self._closing:
                raise StandbyStopped()
            taken: list[int] = []
            try:
                for shard in wanted:
                    if await self._conn.fetchval("SELECT pg_try_advisory_lock($1::int, $2::int)", PROJECT_KEY, shard):
                        taken.append(shard)
                        if one_of:
                            break
                if taken and (one_of or len(taken) == len(wanted)):
                    break
                for shard in taken:  # not all of them: let go until they are all free
                    await self._conn.fetchval("SELECT pg_advisory_unlock($1::int, $2::int)", PROJECT_KEY, shard)
            except Exception:
                if self._closing:  # close() took the connection away
                    raise StandbyStopped() from None
                raise
            if not announced:
                self.waiting = announced = True
                which = "any of shard(s)" if one_of else "shard(s)"
                listed = ", ".join(map(str, wanted))
                if not standby:
                    missing = ", ".join(str(s) for s in wanted if s not in taken)
                    log.warning(
                        "shard(s) %s of %d are served by another bot process on this database, so this one waits "
                        "as a standby and takes them over when it stops (two processes never serve one shard; "
                        "give this process other SHARD_IDS to serve others now)",
                        missing,
                        self.shards.count,
                    )
                log.info("standby: waiting for %s %s, served by another process", which, listed)
            await asyncio.sleep(self.poll)
        self.held = set(taken)
        self.shards = Shards.of(self.shards.count, taken)
        try:
            await self._conn.execute(f"SET idle_session_timeout = {int(self.silent_timeout * 1000)}")
            await self.fence()
        except BaseException:
            await self._release()
            raise
        self.waiting = False
        log.info("serving shard(s) %s (holding their locks)", self.shards)
        self._watch = asyncio.create_task(self._watching(), name="geniusbot-shard-locks")
        return self.shards

    async def fence(self) -> int:
        """End every session of a process whose lock session is gone, each waited for until it
        has ended (its transaction rolled back, its locks freed); return how many."""
        ended = 0
        for row in await self._conn.fetch(_ORPHANS, LAYOUT_KEY):
            gone = await self._conn.fetchval(
                "SELECT pg_terminate_backend($1, $2)", row["pid"], int(self.fence_wait * 1000)
            )
            log.warning(
                "ended the database session %d (%s) of a process that lost its shards%s",
                row["pid"],
                row["application_name"],
                "" if gone else f"; it had not ended after {self.fence_wait:.0f} s",
            )
            ended += 1
        return ended

    async def _watching(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.ping_every)
            try:
                await self._conn.fetchval("SELECT 1", timeout=self.ping_timeout)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._lost(f"the lock connection failed a check ({type(error).__name__}: {error})")
                return

    def _terminated(self, _conn: Any) -> None:
        self._lost("the lock connection closed")

    def _lost(self, why: str) -> None:
        if self._closing:
            return
        self._closing = True
        self.on_lost(f"lost the locks of shard(s) {self.shards}: {why}")

    async def _release(self) -> None:
        conn, self._conn = self._conn, None
        self.held.clear()
        if conn is not None:
            conn.remove_termination_listener(self._terminated)  # a close of our own is no loss
            await close_quietly(conn)

    async def close(self) -> None:
        """Release the locks (closing their connection) and stop watching."""
        self._closing = True
        task, self._watch = self._watch, None
        await stop_watch(task)
        await self._release()
