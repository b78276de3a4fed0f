"""The hot writes' statements, built once with typed bound parameters, and the dicts of values
they are executed with.

A move's commit and the timer writes run constantly; building their statements anew each time
costs SQLAlchemy more than the database's own work (coercing every element, then computing a
cache key). So they are built once, with bound parameters typed as their columns (the JSON and
UTC-time columns keep their conversions), and executed with a dict of values.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, select, text, update
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError

from . import models as m
from .errors import storage_fault
from .rows import aware, db_text, json_or_none, kept_name
from .values import NewAction, SeatInfo, TimerRecord


def _param(column: Any, name: str | None = None) -> Any:
    return bindparam(f"p_{name or column.name}", type_=column.type)


# The mapped classes' tables, as the Table objects they are (``__table__`` is typed as a FromClause).
_MATCHES = cast(Table, m.Match.__table__)
_ACTIONS = cast(Table, m.Action.__table__)
_TIMERS = cast(Table, m.Timer.__table__)
_MATCH_COLUMNS = _MATCHES.c
_ACTION_COLUMNS = _ACTIONS.c
_TIMER_COLUMNS = _TIMERS.c

INSERT_ACTION = insert(_ACTIONS).values({column: _param(column) for column in _ACTION_COLUMNS})
"""One row of the log; parameters ``p_<column>`` for every column."""

MATCH_VERSION = select(_MATCH_COLUMNS.version).where(_MATCH_COLUMNS.id == _param(_MATCH_COLUMNS.id))
"""A match's version (parameter ``p_id``): why a commit changed no row."""

NEXT_SEQ = (
    update(_MATCHES)
    .where(_MATCH_COLUMNS.id == _param(_MATCH_COLUMNS.id))
    .values(last_seq=_MATCH_COLUMNS.last_seq + 1)
    .returning(_MATCH_COLUMNS.last_seq)
)
"""Takes the next ``seq`` of a match's log (parameter ``p_id``) and returns it."""

SUBMISSION_SEQ = select(_ACTION_COLUMNS.seq).where(
    _ACTION_COLUMNS.match_id == _param(_ACTION_COLUMNS.match_id), _ACTION_COLUMNS.key == _param(_ACTION_COLUMNS.key)
)
"""The seq of the taken action of one submission (parameters ``p_match_id``, ``p_key``), if any."""

LOCK_MATCH = (
    select(_MATCH_COLUMNS.version, _MATCH_COLUMNS.last_seq)
    .where(_MATCH_COLUMNS.id == _param(_MATCH_COLUMNS.id))
    .with_for_update()
)
"""A match's version and last seq, its row locked (parameter ``p_id``): on PostgreSQL a commit of
it still in flight (its connection gone, its COMMIT on the way) is waited for, never read past.
(SQLite needs no more than the write lock the transaction takes at its start.)"""

LOCK_WAIT = text("SET LOCAL lock_timeout = '5s'")
"""PostgreSQL, before :data:`LOCK_MATCH`: a transaction whose connection died silently may hold
the row until the server notices; waiting more than 5 s for it is a transient failure (55P03),
retried, and in the end "not known yet", never a hang."""

SNAPSHOT_FIELDS = ("state", "clock", "host", "status", "result", "action")
"""Which parts of the snapshot a commit may replace; a statement is kept per combination."""

_COMMIT_UPDATES: dict[tuple[bool, ...], Any] = {}


def commit_update(replaced: tuple[bool, ...]) -> Any:
    """The snapshot update of :meth:`Store.commit_action` for one combination of replaced fields
    (flags in the order of :data:`SNAPSHOT_FIELDS`): parameters ``p_id``, ``p_expected``,
    ``p_updated_at`` and one ``p_<column>`` per replaced column."""
    statement = _COMMIT_UPDATES.get(replaced)
    if statement is None:
        c = _MATCH_COLUMNS
        state, clock, host, status, result, action = replaced
        values: dict[Any, Any] = {c.version: c.version + 1, c.updated_at: _param(c.updated_at)}
        for column, given in ((c.state, state), (c.clock, clock), (c.host, host)):
            if given:
                values[column] = _param(column)
        if status:
            values[c.status] = _param(c.status)
            values[c.finished_at] = _param(c.finished_at)
        if result:
            values[c.winner] = _param(c.winner)
            values[c.reason] = _param(c.reason)
            values[c.termination] = _param(c.termination)
            values[c.outcome] = _param(c.outcome)
        if action:
            values[c.last_seq] = c.last_seq + 1
        statement = (
            update(_MATCHES)
            .where(c.id == _param(c.id), c.version == _param(c.version, "expected"))
            .values(values)
            .returning(c.version, c.last_seq)
        )
        _COMMIT_UPDATES[replaced] = statement
    return statement


_LOGGED_COMMITS: dict[tuple[bool, ...], Any] = {}


def logged_commit(replaced: tuple[bool, ...]) -> Any:
    """PostgreSQL: :func:`commit_update` (``replaced`` with the action flag set) and the log row of
    its action as one statement, so one round trip to the server instead of two. The update is a
    data-modifying ``WITH``; the log row's ``seq`` is the ``last_seq`` it returns, so a stale
    version (no row updated) logs nothing; the statement returns the update's row, or none.
    Parameters: those of :func:`commit_update` and of :data:`INSERT_ACTION` but ``p_seq``.
    (SQLite has no data-modifying ``WITH``; its two statements cost no round trip anyway.)"""
    statement = _LOGGED_COMMITS.get(replaced)
    if statement is None:
        if not replaced[-1]:
            raise ValueError("a logged commit has an action")
        updated = commit_update(replaced).cte("committed")
        columns = list(_ACTION_COLUMNS)
        row = select(*[updated.c.last_seq if c is _ACTION_COLUMNS.seq else _param(c) for c in columns])
        logged = insert(_ACTIONS).from_select([c.name for c in columns], row).cte("logged")
        statement = select(updated.c.version, updated.c.last_seq).add_cte(logged)
        _LOGGED_COMMITS[replaced] = statement
    return statement


def action_params(
    match_id: int, seq: int, action: NewAction, at: datetime, *, accepted: bool, error: str | None = None
) -> dict[str, Any]:
    """The parameters of :data:`INSERT_ACTION` for one logged action: a taken one keeps its
    submission key, a refused one none (the same submission may be refused again)."""
    return {
        "p_match_id": match_id,
        "p_seq": seq,
        "p_seat": action.seat,
        "p_kind": action.kind,
        "p_text": db_text(action.text),
        "p_private": action.private,
        "p_accepted": accepted,
        "p_error": db_text(error),
        "p_at": at,
        "p_clocks": json_or_none(action.clocks),
        "p_key": action.key if accepted else None,
        "p_line": action.line,
    }


def _timer_key() -> list[Any]:
    """Conditions matching one delivered timer row and no other (parameters ``p_id``, ``p_kind``,
    ``p_due_at``): SQLite gives a deleted row's id to the next new row, so the id alone could
    name a newer timer."""
    c = _TIMER_COLUMNS
    return [c.id == _param(c.id), c.kind == _param(c.kind), c.due_at == _param(c.due_at)]


def exact_params(timer: TimerRecord) -> dict[str, Any]:
    """The parameters of :data:`DELETE_EXACT_TIMER` (and the exact postpone) for one delivered row."""
    return {"p_id": timer.id, "p_kind": timer.kind, "p_due_at": aware(timer.due_at)}


INSERT_TIMER = (
    insert(_TIMERS)
    .values({c: _param(c) for c in (_TIMER_COLUMNS.match_id, _TIMER_COLUMNS.kind, _TIMER_COLUMNS.due_at)})
    .values({_TIMER_COLUMNS.payload: _param(_TIMER_COLUMNS.payload), _TIMER_COLUMNS.attempts: 0})
    .returning(_TIMER_COLUMNS.id)
)
"""A new timer (parameters ``p_match_id``, ``p_kind``, ``p_due_at``, ``p_payload``); returns its id."""

DELETE_EXACT_TIMER = delete(_TIMERS).where(*_timer_key())
"""Deletes one delivered timer row and no other (see :func:`_timer_key`)."""

DELETE_TIMER: dict[tuple[bool, bool], Any] = {
    (by_kind, by_due): delete(_TIMERS).where(
        *[condition for condition, used in zip(_timer_key(), (True, by_kind, by_due), strict=True) if used]
    )
    for by_kind in (False, True)
    for by_due in (False, True)
}
"""Keyed by whether the kind and the due time are matched as well as the id."""

POSTPONE_TIMER: dict[bool, Any] = {
    exact: update(_TIMERS)
    .where(*(_timer_key() if exact else _timer_key()[:1]))
    .values(due_at=bindparam("p_new_due_at", type_=_TIMER_COLUMNS.due_at.type), attempts=_TIMER_COLUMNS.attempts + 1)
    for exact in (False, True)
}
"""Keyed by whether the delivered row is matched exactly (id, kind and due time) or by id."""


def insert_seats(conn: Connection, match_id: int, seats: Sequence[SeatInfo]) -> None:
    """Write a new match's seats (a started match's, an imported one's) in the transaction ``conn``."""
    if seats:
        conn.execute(
            insert(m.Seat),
            [
                {"match_id": match_id, "seat": s.seat, "user_id": s.user_id, "display_name": kept_name(s.display_name)}
                for s in seats
            ],
        )


class OnSQLite:
    """A prebuilt statement compiled once for SQLite and run on the driver's own cursor, in the
    transaction of a :class:`Connection`: a move's commit, where SQLAlchemy's work for each
    statement (an execution context, its parameters typed anew, a result object) costs more than
    SQLite's own. The parameters are converted as SQLAlchemy converts them (the JSON and UTC-time
    columns); an error is raised as SQLAlchemy raises it (a full disk, a read-only or damaged file
    as the :class:`StorageFault` it is; any other as SQLAlchemy's :class:`DBAPIError` of its kind),
    so retries and duplicate keys are told apart as for any statement. No SQLAlchemy event sees it."""

    def __init__(self, statement: Any, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        names = compiled.positiontup or []
        # (name, fixed value, conversion) in the statement's order: a value the statement holds
        # itself (the 1 of ``version + 1``) is fixed, the others come from the values given.
        self.params: list[tuple[str, Any, Callable[[Any], Any] | None]] = [
            (name, compiled.binds[name].value, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
            for name in names
        ]
        self.given = frozenset(name for name in names if name.startswith("p_"))

    def run(self, conn: Connection, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """Execute with ``values`` in ``conn``'s transaction; the first row it returns, if any."""
        params = tuple(
            (convert(value) if convert is not None else value)
            for name, fixed, convert in self.params
            for value in ((values[name] if name in self.given else fixed),)
        )
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(self.sql, params)
            row: tuple[Any, ...] | None = cursor.fetchone()
        except sqlite3.Error as error:
            fault = storage_fault(error)
            if fault is not None:
                raise fault from error
            raise DBAPIError.instance(self.sql, params, error, sqlite3.Error) from error
        finally:
            cursor.close()
        return row


_ON_SQLITE: dict[int, OnSQLite] = {}


def on_sqlite(statement: Any, dialect: Dialect) -> OnSQLite:
    """:class:`OnSQLite` of one of this module's prebuilt statements, compiled once."""
    found = _ON_SQLITE.get(id(statement))
    if found is None:
        found = _ON_SQLITE[id(statement)] = OnSQLite(statement, dialect)
    return found
