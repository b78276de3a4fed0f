"""The store's timers: durable deadlines (the ``timers`` table), written with the prebuilt
statements of :mod:`.statements` since the host arms and clears them constantly."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.engine import Connection

from geniusbot.words import say

from . import models as m
from .rows import UNSET, aware, check_length, timer_from_row
from .statements import DELETE_EXACT_TIMER, DELETE_TIMER, INSERT_TIMER, POSTPONE_TIMER, exact_params
from .transactions import Transactions
from .values import TimerRecord


class TimerStore(Transactions):
    """The durable timers: one transaction per call."""

    def timer_scope(self) -> ColumnElement[bool] | None:
        """SQL: the ``timers`` rows this store serves, which :meth:`due_and_next` delivers and
        :meth:`timers` lists (``None``: all of them). A store of some matches only (one console's,
        a process's shards) narrows it."""
        return None

    @property
    def heartbeat_payload(self) -> dict[str, int]:
        """What a heartbeat row written through this store carries besides the host's own:
        nothing (one console's store names the match it is kept for)."""
        return {}

    async def add_timer(
        self,
        kind: str,
        due_at: datetime,
        *,
        match_id: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> TimerRecord:
        """Store a deadline and return it (with its id)."""
        check_length("timer kind", kind, 32)
        due_at = aware(due_at)
        data = dict(payload or {})
        params = {"p_match_id": match_id, "p_kind": kind, "p_due_at": due_at, "p_payload": data}

        def work(conn: Connection) -> TimerRecord:
            timer_id = conn.execute(INSERT_TIMER, params).scalar_one()
            return TimerRecord(timer_id, match_id, kind, due_at, data, 0)

        return await self._transaction(work, write=True, what=say("adding a timer"))

    async def replace_timer(
        self,
        delivered: TimerRecord,
        kind: str,
        due_at: datetime,
        *,
        match_id: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> tuple[TimerRecord, bool]:
        """Add a timer and delete the delivered row ``delivered`` (that very row), in one
        transaction: a re-armed deadline costs one write instead of two. Returns the new timer
        and whether the delivered row was still there (and is now gone).

        The new row is inserted first, so it never takes the delivered row's id.
        """
        check_length("timer kind", kind, 32)
        due_at = aware(due_at)
        data = dict(payload or {})
        params = {"p_match_id": match_id, "p_kind": kind, "p_due_at": due_at, "p_payload": data}
        delivered_params = exact_params(delivered)

        def work(conn: Connection) -> tuple[TimerRecord, bool]:
            timer_id = conn.execute(INSERT_TIMER, params).scalar_one()
            gone = conn.execute(DELETE_EXACT_TIMER, delivered_params).rowcount > 0
            return TimerRecord(timer_id, match_id, kind, due_at, data, 0), gone

        return await self._transaction(work, write=True, what=say("replacing a timer"))

    async def delete_timer(self, timer_id: int, *, kind: str | None = None, due_at: datetime | None = None) -> bool:
        """Remove one timer; ``False`` if it was already gone.

        With ``kind`` and ``due_at`` (a delivered :class:`TimerRecord`'s), only that very row goes:
        SQLite gives a deleted row's id to the next new row, so a timer deleted and replaced while
        it was being delivered must not take its replacement with it.
        """
        statement = DELETE_TIMER[kind is not None, due_at is not None]
        params: dict[str, Any] = {"p_id": timer_id}
        if kind is not None:
            params["p_kind"] = kind
        if due_at is not None:
            params["p_due_at"] = aware(due_at)

        def work(conn: Connection) -> bool:
            return conn.execute(statement, params).rowcount > 0

        return await self._transaction(work, write=True, what=say("deleting a timer"))

    async def postpone_timer(self, timer_id: int, due_at: datetime, *, delivered: TimerRecord | None = None) -> bool:
        """Move a timer to ``due_at`` and count one failed delivery; ``False`` if it is gone.

        With ``delivered`` (the row as it was delivered), only that very row is moved.
        """
        due_at = aware(due_at)
        statement = POSTPONE_TIMER[delivered is not None]
        params: dict[str, Any] = exact_params(delivered) if delivered is not None else {"p_id": timer_id}
        params["p_new_due_at"] = due_at

        def work(conn: Connection) -> bool:
            return conn.execute(statement, params).rowcount > 0

        return await self._transaction(work, write=True, what=say("postponing a timer"))

    async def next_timer(self) -> TimerRecord | None:
        """The earliest timer (ties: the oldest), or ``None``."""

        def work(conn: Connection) -> TimerRecord | None:
            row = (conn.execute(select(m.Timer.__table__).order_by(m.Timer.due_at, m.Timer.id).limit(1))).first()
            return None if row is None else timer_from_row(row)

        return await self._transaction(work, write=False, what=say("reading the next timer"))

    async def due_timers(self, now: datetime, *, limit: int | None = None) -> list[TimerRecord]:
        """The timers due at or before ``now``, earliest first."""
        now = aware(now)

        def work(conn: Connection) -> list[TimerRecord]:
            query = select(m.Timer.__table__).where(m.Timer.due_at <= now).order_by(m.Timer.due_at, m.Timer.id)
            if limit is not None:
                query = query.limit(limit)
            return [timer_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what=say("reading due timers"))

    async def due_and_next(self, now: datetime, *, limit: int = 100) -> tuple[list[TimerRecord], TimerRecord | None]:
        """The timers due at or before ``now`` (at most ``limit``, earliest first) and the first
        one after them, in one read: what a dispatcher's pass needs.

        The next one is ``None`` when there is none, or when ``limit`` due timers were found (read
        again after delivering them).
        """
        now = aware(now)
        query = select(m.Timer.__table__).order_by(m.Timer.due_at, m.Timer.id).limit(limit + 1)
        scope = self.timer_scope()
        if scope is not None:
            query = query.where(scope)

        def work(conn: Connection) -> tuple[list[TimerRecord], TimerRecord | None]:
            rows = [timer_from_row(row) for row in (conn.execute(query)).all()]
            due = [t for t in rows if t.due_at <= now][:limit]
            later = [t for t in rows if t.due_at > now]
            return due, (later[0] if later and len(due) < limit else None)

        return await self._transaction(work, write=False, what=say("reading due timers"))

    async def timers(self, match_id: int | None = UNSET) -> list[TimerRecord]:
        """Every timer this store serves (:meth:`timer_scope`), earliest first; with ``match_id``,
        only that match's (``None``: no match's), whoever serves it."""
        query = select(m.Timer.__table__).order_by(m.Timer.due_at, m.Timer.id)
        scope = self.timer_scope()
        if match_id is None:
            query = query.where(m.Timer.match_id.is_(None))
        elif match_id is not UNSET:
            query = query.where(m.Timer.match_id == match_id)
        elif scope is not None:
            query = query.where(scope)

        def work(conn: Connection) -> list[TimerRecord]:
            return [timer_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what=say("reading timers"))
