"""The store of one console (``geniusbot play``): the same store, whose start-up and timer reads
see only the match it plays.

Several consoles may share one database (the default ``console.sqlite3``), each playing its own
match, and a match left with ``quit`` waits there, its clocks stopped, until a console takes it
up again. Once :attr:`ConsoleStore.match_id` is set, this store reads, in SQL: the timers of that
match and the heartbeats whose payload names it (``{"match": id}``), the messages of that match
left to delete, and that match among the unfinished ones. So one console never delivers another
match's clocks or deletions, nor replaces another console's heartbeat: the time a match waits
unplayed is measured by its own console's last heartbeat, and given back when it is resumed.
Everything else (a match by id, the list of matches a console may resume) reads the whole
database. Without :attr:`ConsoleStore.match_id` it is the plain :class:`~geniusbot.storage.Store`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, and_, or_, select
from sqlalchemy.engine import Connection

from . import models as m
from .rows import UNSET, aware, timer_from_row
from .store import Store
from .values import MatchRecord, PostedMessage, TimerRecord

#: The key of a heartbeat's payload naming the console match it is kept for.
MATCH_KEY = "match"


def match_timers(match_id: int) -> ColumnElement[bool]:
    """SQL: a ``timers`` row is ``match_id``'s (its own, or a heartbeat whose payload names it)."""
    return or_(
        m.Timer.match_id == match_id,
        and_(m.Timer.match_id.is_(None), m.Timer.payload[MATCH_KEY].as_integer() == match_id),
    )


class ConsoleStore(Store):
    """A :class:`Store` whose start-up and timer reads are those of one match."""

    #: The match this console plays; ``None``: every match (the plain store's reads).
    match_id: int | None = None

    @property
    def heartbeat_payload(self) -> dict[str, int]:
        """What a heartbeat written through this store carries: the match it is kept for."""
        return {} if self.match_id is None else {MATCH_KEY: self.match_id}

    async def live_matches(self, *, include_paused: bool = True) -> list[MatchRecord]:
        """The console's match if it is unfinished (every unfinished match before it is chosen)."""
        found = await super().live_matches(include_paused=include_paused)
        return found if self.match_id is None else [r for r in found if r.id == self.match_id]

    async def due_and_next(self, now: datetime, *, limit: int = 100) -> tuple[list[TimerRecord], TimerRecord | None]:
        """:meth:`Store.due_and_next` among the console match's timers."""
        match_id = self.match_id
        if match_id is None:
            return await super().due_and_next(now, limit=limit)
        now = aware(now)
        query = (
            select(m.Timer.__table__)
            .where(match_timers(match_id))
            .order_by(m.Timer.due_at, m.Timer.id)
            .limit(limit + 1)
        )

        def work(conn: Connection) -> tuple[list[TimerRecord], TimerRecord | None]:
            rows = [timer_from_row(row) for row in (conn.execute(query)).all()]
            due = [t for t in rows if t.due_at <= now][:limit]
            later = [t for t in rows if t.due_at > now]
            return due, (later[0] if later and len(due) < limit else None)

        return await self._transaction(work, write=False, what="reading the match's due timers")

    async def timers(self, match_id: int | None = UNSET) -> list[TimerRecord]:
        """Every timer of the console match (a given match's: as the plain store has them)."""
        mine = self.match_id
        if mine is None or match_id is not UNSET:
            return await super().timers(match_id)

        def work(conn: Connection) -> list[TimerRecord]:
            query = select(m.Timer.__table__).where(match_timers(mine)).order_by(m.Timer.due_at, m.Timer.id)
            return [timer_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what="reading the match's timers")

    async def messages_to_delete(self, before: datetime | None = None) -> list[PostedMessage]:
        """The console match's messages still to be deleted."""
        found = await super().messages_to_delete(before)
        return found if self.match_id is None else [r for r in found if r.match_id == self.match_id]
