"""The store: everything the host keeps, behind a small async API.

The host calls a :class:`Store` and gets back plain frozen dataclasses (:mod:`.values`). One
call is one transaction (:mod:`.transactions`), retried on transient failures (:mod:`.retry`).
The methods come in groups, one module per group of tables: :mod:`.matches` (matches, seats and
the action log, with the optimistic version check), :mod:`.timers`, :mod:`.messages`,
:mod:`.guilds`, and :mod:`.imports` (a whole match from an imported record); :class:`Store`
composes them and opens the database.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import URL, Connection

from geniusbot.words import say

from . import models as m
from .db import create_engine, upgrade
from .guilds import GuildStore
from .imports import ImportStore
from .matches import MatchStore
from .messages import MessageStore
from .ratings import RatingStore
from .timers import TimerStore
from .tournaments import TournamentStore


class Store(MatchStore, TimerStore, MessageStore, GuildStore, ImportStore, RatingStore, TournamentStore):
    """The repository of matches, actions, timers, posted messages and guild settings.

    Build one with :meth:`open` (from a URL; it upgrades the schema by default) or from an
    engine. ``now`` is the clock used for timestamps the caller does not give; ``sleep`` is the
    pause between retries (tests inject both, so nothing waits for real time).

    Every transaction is a plain function of a synchronous SQLAlchemy :class:`Connection`. On
    SQLite the store runs it whole (begin, work, commit) in a thread of its own, on a
    synchronous engine of the same file: one hand-over between the event loop and the thread per
    transaction, where aiosqlite needs one per statement, cursor and commit. On PostgreSQL it
    runs through the async engine (``run_sync``), whose driver talks to the server itself.
    """

    @classmethod
    async def open(
        cls,
        url: str | URL,
        *,
        migrate: bool = True,
        busy_timeout_ms: int | None = None,
        engine_options: dict[str, Any] | None = None,
        **options: Any,
    ) -> Store:
        """A store on the database at ``url``, upgraded to the newest schema unless ``migrate`` is false.

        ``engine_options`` go to :func:`~geniusbot.storage.db.create_engine`, ``options`` to
        :class:`Store` (``now``, ``sleep``, ``retries``...).
        """
        engine_options = dict(engine_options or {})
        if busy_timeout_ms is not None:
            engine_options["busy_timeout_ms"] = busy_timeout_ms
        engine = create_engine(url, **engine_options)
        try:
            store = cls(engine, **options)
        except BaseException:
            await engine.dispose()
            raise
        try:
            if migrate:
                # Retried like any write: another process may hold SQLite's write lock for
                # longer than the busy timeout. A try whose COMMIT broke is simply redone, as
                # Alembic applies only the revisions the database does not have yet.
                await store._retrying(lambda _state: upgrade(engine), what=say("upgrading the schema"))
        except BaseException:
            await store.close()
            raise
        return store

    async def counts(self) -> dict[str, int]:
        """How many rows each table holds."""

        def work(conn: Connection) -> dict[str, int]:
            out = {}
            for table in m.Base.metadata.sorted_tables:
                out[table.name] = (conn.execute(select(func.count()).select_from(table))).scalar_one()
            return out

        return await self._transaction(work, write=False, what=say("counting rows"))
