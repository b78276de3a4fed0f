"""The match repository: everything the host keeps, behind a small async API.

The host calls a :class:`Store` and gets back plain frozen dataclasses (never ORM objects, which
would tie a caller to a session). One call is one transaction.

Optimistic concurrency: every match has a ``version``. :meth:`Store.commit_action` appends an
action to the log *and* replaces the snapshot (game state, clocks, host data, status, result) in
one transaction, and only if the version is still the one the caller read; otherwise it raises
:class:`StaleVersion` and changes nothing. Refused submissions are logged with
:meth:`Store.append_rejected`; they never touch the snapshot or the version.

Transient failures (SQLite "database is locked", a dropped PostgreSQL connection) are retried a
few times with a growing pause; if they persist, :class:`StorageUnavailable` is raised. A write
whose commit was cut off mid-way is checked on the retry, so an acknowledged write is never
doubled, and a lost one is never reported as done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import and_, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from . import models as m
from .db import WRITE_OPTION, create_engine, sqlite_sync_engine, upgrade

log = logging.getLogger(__name__)

T = TypeVar("T")

# --------------------------------------------------------------------------- errors


class StorageError(Exception):
    """Base of the repository's errors."""


class MatchNotFound(StorageError, LookupError):
    """No match has that id."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no match #{match_id}; check the match number and try again.")
        self.match_id = match_id


class StaleVersion(StorageError):
    """Another writer committed to the match since the caller read it; nothing was written.

    The caller reloads the match (:meth:`Store.get_match`) and decides again.
    """

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"Match #{match_id} changed while this action was being decided "
            f"(expected version {expected}, found {actual}); reload it and try again."
        )
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class RoomBusy(StorageError):
    """The game room already holds an unfinished (live or paused) match."""

    def __init__(self, channel_id: int) -> None:
        super().__init__("A match is already running in this room; finish or abort it first, or use another game room.")
        self.channel_id = channel_id


class StorageUnavailable(StorageError):
    """The database could not be reached (or stayed locked) after several tries."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: ``user_id`` is a Discord user id, ``None`` for a console player."""

    seat: str
    display_name: str
    user_id: int | None = None


@dataclass(frozen=True)
class Result:
    """How a match ended: ``winner`` is a seat or ``None`` (a draw, or an aborted match)."""

    winner: str | None
    reason: str


@dataclass(frozen=True)
class MatchRecord:
    """One match as last committed: its setup, its snapshot, its seats and its result."""

    id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    options: Mapping[str, Any]
    status: str
    state: Mapping[str, Any]
    clock: Mapping[str, Any] | None
    host: Mapping[str, Any] | None
    version: int
    last_seq: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    result: Result | None
    seats: tuple[SeatInfo, ...] = ()

    @property
    def is_unfinished(self) -> bool:
        """Whether the match is live or paused (it still holds its game room)."""
        return self.status in m.UNFINISHED_STATUSES

    def seat_of(self, user_id: int) -> str | None:
        """The seat ``user_id`` holds in this match, if any."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


@dataclass(frozen=True)
class NewAction:
    """An action the host is about to log. ``at`` defaults to the store's clock."""

    kind: str
    text: str
    seat: str | None = None
    private: bool = False
    clocks: Mapping[str, Any] | None = None
    at: datetime | None = None


@dataclass(frozen=True)
class ActionRecord:
    """One logged action: ``seq`` counts from 1 within the match."""

    match_id: int
    seq: int
    seat: str | None
    kind: str
    text: str
    private: bool
    accepted: bool
    error: str | None
    at: datetime
    clocks: Mapping[str, Any] | None


@dataclass(frozen=True)
class Committed:
    """What :meth:`Store.commit_action` wrote: the action's ``seq`` (``None`` if no action was
    given) and the match's new ``version``."""

    seq: int | None
    version: int


@dataclass(frozen=True)
class TimerRecord:
    """A durable deadline. ``attempts`` counts deliveries whose callback failed."""

    id: int
    match_id: int | None
    kind: str
    due_at: datetime
    payload: Mapping[str, Any] = field(default_factory=dict)
    attempts: int = 0


@dataclass(frozen=True)
class PostedMessage:
    """A message the bot posted; ``delete_at`` is when it must go, if ever."""

    id: int
    match_id: int | None
    channel_id: int | None
    message_id: int
    kind: str
    delete_at: datetime | None
    deleted: bool


@dataclass(frozen=True)
class GuildConfig:
    """A guild's settings: the host role and the game rooms (defaults when never set)."""

    guild_id: int
    host_role_id: int | None = None
    game_room_ids: tuple[int, ...] = ()


# --------------------------------------------------------------------------- helpers

_UNSET: Any = object()
"""Leave this field of the snapshot as it is."""


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}; pass a timezone-aware time")
    return value.astimezone(UTC)


_TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "57P01", "57P02", "57P03", "53300"})


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` is worth a retry: a lock, a dropped connection, a restarting server."""
    if isinstance(error, IntegrityError):
        return False
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return True
        text = str(error.orig if error.orig is not None else error).lower()
        if "database is locked" in text or "database table is locked" in text or "busy" in text:
            return True
        orig = error.orig
        sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        if sqlstate is None and orig is not None:
            cause = getattr(orig, "__cause__", None)
            sqlstate = getattr(cause, "sqlstate", None)
        if sqlstate and (sqlstate.startswith("08") or sqlstate in _TRANSIENT_SQLSTATES):
            return True
        for name in ("connection", "closed", "terminat", "reset by peer", "broken pipe"):
            if name in text:
                return True
        return isinstance(orig, OSError | ConnectionError)
    return isinstance(error, OSError | ConnectionError | asyncio.TimeoutError)


def _text(value: str | None) -> str | None:
    # PostgreSQL text cannot hold NUL; both databases get the same visible stand-in so that a log
    # reads the same wherever it is kept.
    return None if value is None else value.replace("\x00", "\ufffd")


DISPLAY_NAME_LENGTH = 100
"""The longest display name kept; longer ones (a console player's, say) are cut, on every database."""


def _name(value: str) -> str:
    return _text(value)[:DISPLAY_NAME_LENGTH]


def _check_length(what: str, value: str | None, limit: int) -> None:
    # SQLite would keep an over-long value and PostgreSQL refuse it; refuse it on both, early.
    if value is not None and len(value) > limit:
        raise ValueError(f"{what} {value[:20]!r}... is longer than {limit} characters")


def _check_action(action: NewAction | None) -> None:
    if action is not None:
        _check_length("action kind", action.kind, 32)
        _check_length("seat", action.seat, 16)


def _json(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


_MATCH_COLUMNS = m.Match.__table__.c


def _match_from_row(row: Any, seats: Iterable[Any]) -> MatchRecord:
    result = None
    if row.status in m.ENDED_STATUSES or row.reason is not None:
        result = Result(row.winner, row.reason or "")
    return MatchRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        variant=row.variant,
        seed=int(row.seed),
        options=row.options or {},
        status=row.status,
        state=row.state,
        clock=row.clock,
        host=row.host,
        version=row.version,
        last_seq=row.last_seq,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        result=result,
        seats=tuple(
            SeatInfo(seat=s.seat, display_name=s.display_name, user_id=s.user_id)
            for s in sorted(seats, key=lambda s: s.seat)
        ),
    )


def _action_from_row(row: Any) -> ActionRecord:
    return ActionRecord(
        match_id=row.match_id,
        seq=row.seq,
        seat=row.seat,
        kind=row.kind,
        text=row.text,
        private=bool(row.private),
        accepted=bool(row.accepted),
        error=row.error,
        at=row.at,
        clocks=row.clocks,
    )


def _timer_from_row(row: Any) -> TimerRecord:
    return TimerRecord(
        id=row.id,
        match_id=row.match_id,
        kind=row.kind,
        due_at=row.due_at,
        payload=row.payload or {},
        attempts=row.attempts,
    )


def _message_from_row(row: Any) -> PostedMessage:
    return PostedMessage(
        id=row.id,
        match_id=row.match_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        kind=row.kind,
        delete_at=row.delete_at,
        deleted=bool(row.deleted),
    )


# ---- the hot writes, built once ----------------------------------------------------------------
#
# A move's commit and the timer writes run constantly; building their statements anew each time
# costs SQLAlchemy more than the database's own work (coercing every element, then computing a
# cache key). So they are built once, with bound parameters typed as their columns (the JSON and
# UTC-time columns keep their conversions), and executed with a dict of values.


def _param(column: Any, name: str | None = None) -> Any:
    return bindparam(f"p_{name or column.name}", type_=column.type)


_ACTION_COLUMNS = m.Action.__table__.c
_TIMER_COLUMNS = m.Timer.__table__.c

_INSERT_ACTION = insert(m.Action.__table__).values({column: _param(column) for column in _ACTION_COLUMNS})
"""One row of the log; parameters ``p_<column>`` for every column."""

_MATCH_VERSION = select(_MATCH_COLUMNS.version).where(_MATCH_COLUMNS.id == _param(_MATCH_COLUMNS.id))

_NEXT_SEQ = (
    update(m.Match.__table__)
    .where(_MATCH_COLUMNS.id == _param(_MATCH_COLUMNS.id))
    .values(last_seq=_MATCH_COLUMNS.last_seq + 1)
    .returning(_MATCH_COLUMNS.last_seq)
)

_SNAPSHOT_FIELDS = ("state", "clock", "host", "status", "result", "action")
"""Which parts of the snapshot a commit may replace; a statement is kept per combination."""

_COMMIT_UPDATES: dict[tuple[bool, ...], Any] = {}


def _commit_update(replaced: tuple[bool, ...]) -> Any:
    """The snapshot update of :meth:`Store.commit_action` for one combination of replaced fields
    (flags in the order of :data:`_SNAPSHOT_FIELDS`): parameters ``p_id``, ``p_expected``,
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
        if action:
            values[c.last_seq] = c.last_seq + 1
        statement = (
            update(m.Match.__table__)
            .where(c.id == _param(c.id), c.version == _param(c.version, "expected"))
            .values(values)
            .returning(c.version, c.last_seq)
        )
        _COMMIT_UPDATES[replaced] = statement
    return statement


def _timer_key() -> list[Any]:
    """Conditions matching one delivered timer row and no other (parameters ``p_id``, ``p_kind``,
    ``p_due_at``): SQLite gives a deleted row's id to the next new row, so the id alone could
    name a newer timer."""
    c = _TIMER_COLUMNS
    return [c.id == _param(c.id), c.kind == _param(c.kind), c.due_at == _param(c.due_at)]


def _exact_params(timer: TimerRecord) -> dict[str, Any]:
    """The parameters of :data:`_DELETE_EXACT_TIMER` (and the exact postpone) for one delivered row."""
    return {"p_id": timer.id, "p_kind": timer.kind, "p_due_at": _aware(timer.due_at)}


def _action_params(
    match_id: int, seq: int, action: NewAction, at: datetime, *, accepted: bool, error: str | None = None
) -> dict[str, Any]:
    """The parameters of :data:`_INSERT_ACTION` for one logged action."""
    return {
        "p_match_id": match_id,
        "p_seq": seq,
        "p_seat": action.seat,
        "p_kind": action.kind,
        "p_text": _text(action.text),
        "p_private": action.private,
        "p_accepted": accepted,
        "p_error": _text(error),
        "p_at": at,
        "p_clocks": _json(action.clocks),
    }


_INSERT_TIMER = (
    insert(m.Timer.__table__)
    .values({c: _param(c) for c in (_TIMER_COLUMNS.match_id, _TIMER_COLUMNS.kind, _TIMER_COLUMNS.due_at)})
    .values({_TIMER_COLUMNS.payload: _param(_TIMER_COLUMNS.payload), _TIMER_COLUMNS.attempts: 0})
    .returning(_TIMER_COLUMNS.id)
)

_DELETE_EXACT_TIMER = delete(m.Timer.__table__).where(*_timer_key())
"""Deletes one delivered timer row and no other (see :func:`_timer_key`)."""

_DELETE_TIMER: dict[tuple[bool, bool], Any] = {
    (by_kind, by_due): delete(m.Timer.__table__).where(
        *[condition for condition, used in zip(_timer_key(), (True, by_kind, by_due), strict=True) if used]
    )
    for by_kind in (False, True)
    for by_due in (False, True)
}
"""Keyed by whether the kind and the due time are matched as well as the id."""

_POSTPONE_TIMER: dict[bool, Any] = {
    exact: update(m.Timer.__table__)
    .where(*(_timer_key() if exact else _timer_key()[:1]))
    .values(due_at=bindparam("p_new_due_at", type_=_TIMER_COLUMNS.due_at.type), attempts=_TIMER_COLUMNS.attempts + 1)
    for exact in (False, True)
}
"""Keyed by whether the delivered row is matched exactly (id, kind and due time) or by id."""


class _Ambiguous(Exception):
    """A write's commit failed in a way that leaves unknown whether it landed."""


DEFAULT_RETRIES = 5
DEFAULT_BACKOFF = 0.05
DEFAULT_MAX_BACKOFF = 2.0


@dataclass
class RetryState:
    """What :func:`retry_transient` tells each try: ``ambiguous`` is true while an earlier try's
    COMMIT broke and no later try has yet found out whether it landed (the try clears it once
    it has checked)."""

    ambiguous: bool = False


async def retry_transient(
    attempt: Callable[[RetryState], Awaitable[T]],
    *,
    what: str,
    retries: int = DEFAULT_RETRIES,
    backoff: float = DEFAULT_BACKOFF,
    max_backoff: float = DEFAULT_MAX_BACKOFF,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Call ``attempt`` until it returns, retrying transient failures (:func:`is_transient`).

    Up to ``retries`` retries, pausing ``backoff`` seconds before the first and doubling up to
    ``max_backoff``; then :class:`StorageUnavailable`. Any other error is raised at once, as it
    is. A try whose COMMIT failed raises :class:`_Ambiguous`; the next tries see
    ``state.ambiguous`` and check whether it landed before redoing it.
    """
    delay = backoff
    last_error: BaseException | None = None
    state = RetryState()
    for number in range(retries + 1):
        if number:
            await sleep(delay)
            delay = min(delay * 2, max_backoff)
        try:
            return await attempt(state)
        except _Ambiguous as error:
            state.ambiguous = True
            last_error = error.__cause__
            log.warning("storage: %s: the commit failed (%s); checking whether it landed", what, last_error)
        except StorageError:
            raise
        except Exception as error:
            if not is_transient(error):
                raise
            last_error = error
            log.warning("storage: %s failed on try %d (%s); retrying", what, number + 1, error)
    # Said plainly when the last try's commit broke: it may have landed, and the caller must
    # reload rather than assume either way.
    landed = " (the last try may have been saved; reload before retrying)" if state.ambiguous else ""
    raise StorageUnavailable(
        f"The database is unavailable ({what} failed {retries + 1} times: {last_error}){landed}; "
        "check that it is running and not locked by another program, then try again."
    ) from last_error


# --------------------------------------------------------------------------- the store


class Store:
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

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        now: Callable[[], datetime] = _utcnow,
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
        # SQLite has one writer at a time. Queuing this process's writers here costs nothing,
        # whereas letting them collide on the file lock puts them in SQLite's busy handler,
        # which polls with sleeps of up to 100 ms.
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        # SQLite: the engine and the one thread every transaction runs in (see _in_thread).
        self._sqlite: Engine | None = None
        self._thread: ThreadPoolExecutor | None = None
        if engine.dialect.name == "sqlite":
            self._sqlite = sqlite_sync_engine(engine)
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="geniusbot-sqlite")
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str | URL,
        *,
        migrate: bool = True,
        busy_timeout_ms: int | None = None,
        **options: Any,
    ) -> Store:
        """A store on the database at ``url``, upgraded to the newest schema unless ``migrate`` is false.

        ``options`` go to :class:`Store` (``now``, ``sleep``, ``retries``...).
        """
        engine_options: dict[str, Any] = {}
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
                await store._retrying(lambda _state: upgrade(engine), what="upgrading the schema")
        except BaseException:
            await store.close()
            raise
        return store

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
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def now(self) -> datetime:
        """The store's idea of the current time (aware UTC)."""
        return _aware(self._now())

    # ---- transactions with retries ---------------------------------------------------------

    async def _transaction(
        self,
        work: Callable[[Connection], T],
        *,
        write: bool,
        what: str,
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
                    raise _Ambiguous() from error
                raise
            return result

        sqlite = self._sqlite

        if sqlite is not None:

            def attempt_in_thread(state: RetryState) -> T:
                with sqlite.connect() as conn:
                    return attempt_on(conn, state)

            async def attempt(state: RetryState) -> T:
                async with self._writer(write):
                    return await self._in_thread(lambda: attempt_in_thread(state))

        else:

            async def attempt(state: RetryState) -> T:
                async with self._writer(write), self.engine.connect() as conn:
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

    async def _retrying(self, attempt: Callable[[RetryState], Awaitable[T]], *, what: str) -> T:
        """:func:`retry_transient` with this store's retries, backoff and sleep."""
        return await retry_transient(
            attempt,
            what=what,
            retries=self.retries,
            backoff=self.backoff,
            max_backoff=self.max_backoff,
            sleep=self._sleep,
        )

    def _writer(self, write: bool) -> contextlib.AbstractAsyncContextManager[Any]:
        if write and self._write_lock is not None:
            return self._write_lock
        return contextlib.nullcontext()

    # ---- matches ---------------------------------------------------------------------------

    async def create_match(
        self,
        *,
        game: str,
        seats: Sequence[SeatInfo],
        state: Mapping[str, Any],
        variant: str = "standard",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        clock: Mapping[str, Any] | None = None,
        host: Mapping[str, Any] | None = None,
        status: str = "live",
    ) -> MatchRecord:
        """Start a match (version 0, an empty log) and return it.

        Raises :class:`RoomBusy` if ``channel_id`` already holds a live or paused match.
        """
        if status not in m.MATCH_STATUSES:
            raise ValueError(f"unknown match status {status!r}")
        _check_length("game", game, 64)
        _check_length("variant", variant, 64)
        for seat in seats:
            _check_length("seat", seat.seat, 16)
        now = self.now()

        def work(conn: Connection) -> int:
            try:
                match_id = (
                    conn.execute(
                        insert(m.Match)
                        .values(
                            guild_id=guild_id,
                            channel_id=channel_id,
                            game=game,
                            variant=variant,
                            seed=str(int(seed)),
                            options=dict(options or {}),
                            status=status,
                            state=dict(state),
                            clock=_json(clock),
                            host=_json(host),
                            version=0,
                            last_seq=0,
                            created_at=now,
                            updated_at=now,
                            finished_at=now if status in m.ENDED_STATUSES else None,
                        )
                        .returning(m.Match.id)
                    )
                ).scalar_one()
            except IntegrityError as error:
                if channel_id is not None and _unique_violation(error):
                    raise RoomBusy(channel_id) from error
                raise
            if seats:
                conn.execute(
                    insert(m.Seat),
                    [
                        {
                            "match_id": match_id,
                            "seat": s.seat,
                            "user_id": s.user_id,
                            "display_name": _name(s.display_name),
                        }
                        for s in seats
                    ],
                )
            return match_id

        def verify(conn: Connection) -> int | None:
            # A retry after a lost answer must not start the match twice (nor find its own room
            # busy): a match of this game and seed stamped with this very microsecond is ours.
            channel = m.Match.channel_id.is_(None) if channel_id is None else m.Match.channel_id == channel_id
            return (
                conn.execute(
                    select(m.Match.id).where(
                        channel, m.Match.created_at == now, m.Match.game == game, m.Match.seed == str(int(seed))
                    )
                )
            ).scalar_one_or_none()

        match_id = await self._transaction(work, write=True, what="starting a match", verify=verify)
        return await self.get_match(match_id)

    async def get_match(self, match_id: int) -> MatchRecord:
        """The match as last committed; raises :class:`MatchNotFound`."""

        def work(conn: Connection) -> MatchRecord:
            found = self._load_matches(conn, m.Match.id == match_id)
            if not found:
                raise MatchNotFound(match_id)
            return found[0]

        return await self._transaction(work, write=False, what="reading a match")

    async def live_matches(self, *, include_paused: bool = True) -> list[MatchRecord]:
        """Every unfinished match (live, and paused unless ``include_paused`` is false), oldest first."""
        statuses = m.UNFINISHED_STATUSES if include_paused else ("live",)

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(conn, m.Match.status.in_(statuses))

        return await self._transaction(work, write=False, what="listing live matches")

    async def live_match_in_channel(self, channel_id: int) -> MatchRecord | None:
        """The live or paused match in the game room ``channel_id``, if any."""

        def work(conn: Connection) -> MatchRecord | None:
            found = self._load_matches(
                conn, and_(m.Match.channel_id == channel_id, m.Match.status.in_(m.UNFINISHED_STATUSES))
            )
            return found[0] if found else None

        return await self._transaction(work, write=False, what="finding the match of a room")

    async def live_matches_of_user(self, user_id: int) -> list[MatchRecord]:
        """The live or paused matches in which ``user_id`` holds a seat, oldest first."""

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(
                conn,
                and_(
                    m.Match.status.in_(m.UNFINISHED_STATUSES),
                    m.Match.id.in_(select(m.Seat.match_id).where(m.Seat.user_id == user_id)),
                ),
            )

        return await self._transaction(work, write=False, what="finding a player's matches")

    async def finished_matches(
        self,
        guild_id: int | None,
        *,
        player: int | None = None,
        game: str | None = None,
        channel: int | None = None,
        limit: int = 20,
        include_aborted: bool = False,
    ) -> list[MatchRecord]:
        """Ended matches of a guild (``None``: console matches), newest first.

        ``player`` keeps those in which that user held a seat; ``game`` those of that game;
        ``channel`` those played in that channel.
        """
        statuses = m.ENDED_STATUSES if include_aborted else ("finished",)
        conditions = [m.Match.status.in_(statuses)]
        conditions.append(m.Match.guild_id.is_(None) if guild_id is None else m.Match.guild_id == guild_id)
        if player is not None:
            conditions.append(m.Match.id.in_(select(m.Seat.match_id).where(m.Seat.user_id == player)))
        if game is not None:
            conditions.append(m.Match.game == game)
        if channel is not None:
            conditions.append(m.Match.channel_id == channel)

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(
                conn, and_(*conditions), order=(m.Match.finished_at.desc(), m.Match.id.desc()), limit=limit
            )

        return await self._transaction(work, write=False, what="listing finished matches")

    def _load_matches(
        self,
        conn: Connection,
        where: Any,
        *,
        order: Sequence[Any] = (),
        limit: int | None = None,
    ) -> list[MatchRecord]:
        query = select(m.Match.__table__).where(where).order_by(*(order or (m.Match.id,)))
        if limit is not None:
            query = query.limit(limit)
        rows = (conn.execute(query)).all()
        if not rows:
            return []
        ids = [row.id for row in rows]
        seats: dict[int, list[Any]] = {i: [] for i in ids}
        # Chunked, since SQLite caps the number of bound parameters of one statement.
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            for seat in (conn.execute(select(m.Seat.__table__).where(m.Seat.match_id.in_(chunk)))).all():
                seats[seat.match_id].append(seat)
        return [_match_from_row(row, seats[row.id]) for row in rows]

    async def commit_action(
        self,
        match_id: int,
        expected_version: int,
        action: NewAction | None,
        *,
        state: Mapping[str, Any] = _UNSET,
        clock: Mapping[str, Any] | None = _UNSET,
        host: Mapping[str, Any] | None = _UNSET,
        status: str = _UNSET,
        result: Result | None = _UNSET,
        done_timer: TimerRecord | None = None,
    ) -> Committed:
        """Append ``action`` (accepted) and replace the snapshot, in one transaction.

        Only the snapshot fields given are replaced; the others stay. Moving ``status`` to
        ``finished`` or ``aborted`` stamps ``finished_at``. ``action`` may be ``None`` to save
        the snapshot alone. Raises :class:`StaleVersion` (and writes nothing) unless the match
        is still at ``expected_version``; :class:`MatchNotFound` if there is no such match.
        ``done_timer``: a delivered timer whose work this commit is; that very row (same id,
        kind and due time) is deleted in the same transaction, saving the dispatcher a write.
        """
        if status is not _UNSET and status not in m.MATCH_STATUSES:
            raise ValueError(f"unknown match status {status!r}")
        _check_action(action)
        if result is not _UNSET and result is not None:
            _check_length("winner", result.winner, 16)
        now = self.now()
        at = _aware(action.at) if action is not None and action.at is not None else now
        values: dict[str, Any] = {"p_id": match_id, "p_expected": expected_version, "p_updated_at": now}
        if state is not _UNSET:
            values["p_state"] = dict(state)
        if clock is not _UNSET:
            values["p_clock"] = _json(clock)
        if host is not _UNSET:
            values["p_host"] = _json(host)
        if status is not _UNSET:
            values["p_status"] = status
            values["p_finished_at"] = now if status in m.ENDED_STATUSES else None
        if result is not _UNSET:
            values["p_winner"] = None if result is None else result.winner
            values["p_reason"] = None if result is None else _text(result.reason)
        statement = _commit_update(
            (
                state is not _UNSET,
                clock is not _UNSET,
                host is not _UNSET,
                status is not _UNSET,
                result is not _UNSET,
                action is not None,
            )
        )
        timer_params = None if done_timer is None else _exact_params(done_timer)

        def work(conn: Connection) -> Committed:
            row = conn.execute(statement, values).first()
            if row is None:
                actual = conn.execute(_MATCH_VERSION, {"p_id": match_id}).scalar_one_or_none()
                if actual is None:
                    raise MatchNotFound(match_id)
                raise StaleVersion(match_id, expected_version, actual)
            if timer_params is not None:
                conn.execute(_DELETE_EXACT_TIMER, timer_params)
            if action is None:
                return Committed(None, row.version)
            conn.execute(_INSERT_ACTION, _action_params(match_id, row.last_seq, action, at, accepted=True))
            return Committed(row.last_seq, row.version)

        def verify(conn: Connection) -> Committed | None:
            # Did the try whose COMMIT broke land after all? Then the match is one version on and
            # (with an action) its newest log row is ours, to the microsecond.
            row = (
                conn.execute(
                    select(m.Match.version, m.Match.last_seq, m.Match.updated_at).where(m.Match.id == match_id)
                )
            ).first()
            if row is None or row.version != expected_version + 1 or row.updated_at != now:
                return None
            if action is None:
                return Committed(None, row.version)
            last = (
                conn.execute(
                    select(m.Action.__table__).where(m.Action.match_id == match_id, m.Action.seq == row.last_seq)
                )
            ).first()
            if last is None or last.at != at or last.text != _text(action.text) or last.kind != action.kind:
                return None
            return Committed(row.last_seq, row.version)

        return await self._transaction(work, write=True, what="committing an action", verify=verify)

    async def append_rejected(self, match_id: int, action: NewAction, error: str) -> int:
        """Log a refused submission with the reason the player was given; return its seq.

        The snapshot and the version stay as they are.
        """
        _check_action(action)
        now = self.now()
        at = _aware(action.at) if action.at is not None else now

        def work(conn: Connection) -> int:
            seq = conn.execute(_NEXT_SEQ, {"p_id": match_id}).scalar_one_or_none()
            if seq is None:
                raise MatchNotFound(match_id)
            conn.execute(_INSERT_ACTION, _action_params(match_id, seq, action, at, accepted=False, error=error))
            return seq

        def verify(conn: Connection) -> int | None:
            last = (
                conn.execute(
                    select(m.Action.__table__)
                    .where(m.Action.match_id == match_id)
                    .order_by(m.Action.seq.desc())
                    .limit(1)
                )
            ).first()
            if last is not None and not last.accepted and last.at == at and last.text == _text(action.text):
                return last.seq
            return None

        return await self._transaction(work, write=True, what="logging a refused submission", verify=verify)

    async def actions(self, match_id: int, *, after_seq: int = 0, accepted_only: bool = False) -> list[ActionRecord]:
        """The match's log in order (those with ``seq`` above ``after_seq``).

        Raises :class:`MatchNotFound` if there is no such match.
        """

        def work(conn: Connection) -> list[ActionRecord]:
            exists = (conn.execute(select(m.Match.id).where(m.Match.id == match_id))).first()
            if exists is None:
                raise MatchNotFound(match_id)
            query = (
                select(m.Action.__table__)
                .where(m.Action.match_id == match_id, m.Action.seq > after_seq)
                .order_by(m.Action.seq)
            )
            if accepted_only:
                query = query.where(m.Action.accepted.is_(True))
            return [_action_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what="reading a match log")

    # ---- timers ----------------------------------------------------------------------------

    async def add_timer(
        self,
        kind: str,
        due_at: datetime,
        *,
        match_id: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> TimerRecord:
        """Store a deadline and return it (with its id)."""
        _check_length("timer kind", kind, 32)
        due_at = _aware(due_at)
        data = dict(payload or {})
        params = {"p_match_id": match_id, "p_kind": kind, "p_due_at": due_at, "p_payload": data}

        def work(conn: Connection) -> TimerRecord:
            timer_id = conn.execute(_INSERT_TIMER, params).scalar_one()
            return TimerRecord(timer_id, match_id, kind, due_at, data, 0)

        return await self._transaction(work, write=True, what="adding a timer")

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
        _check_length("timer kind", kind, 32)
        due_at = _aware(due_at)
        data = dict(payload or {})
        params = {"p_match_id": match_id, "p_kind": kind, "p_due_at": due_at, "p_payload": data}
        delivered_params = _exact_params(delivered)

        def work(conn: Connection) -> tuple[TimerRecord, bool]:
            timer_id = conn.execute(_INSERT_TIMER, params).scalar_one()
            gone = conn.execute(_DELETE_EXACT_TIMER, delivered_params).rowcount > 0
            return TimerRecord(timer_id, match_id, kind, due_at, data, 0), gone

        return await self._transaction(work, write=True, what="replacing a timer")

    async def delete_timer(self, timer_id: int, *, kind: str | None = None, due_at: datetime | None = None) -> bool:
        """Remove one timer; ``False`` if it was already gone.

        With ``kind`` and ``due_at`` (a delivered :class:`TimerRecord`'s), only that very row goes:
        SQLite gives a deleted row's id to the next new row, so a timer deleted and replaced while
        it was being delivered must not take its replacement with it.
        """
        statement = _DELETE_TIMER[kind is not None, due_at is not None]
        params: dict[str, Any] = {"p_id": timer_id}
        if kind is not None:
            params["p_kind"] = kind
        if due_at is not None:
            params["p_due_at"] = _aware(due_at)

        def work(conn: Connection) -> bool:
            return conn.execute(statement, params).rowcount > 0

        return await self._transaction(work, write=True, what="deleting a timer")

    async def delete_timers(self, match_id: int, kind: str | None = None) -> int:
        """Remove the timers of a match (only those of ``kind`` if given); return how many."""

        def work(conn: Connection) -> int:
            query = delete(m.Timer).where(m.Timer.match_id == match_id)
            if kind is not None:
                query = query.where(m.Timer.kind == kind)
            return (conn.execute(query)).rowcount

        return await self._transaction(work, write=True, what="deleting timers")

    async def postpone_timer(self, timer_id: int, due_at: datetime, *, delivered: TimerRecord | None = None) -> bool:
        """Move a timer to ``due_at`` and count one failed delivery; ``False`` if it is gone.

        With ``delivered`` (the row as it was delivered), only that very row is moved.
        """
        due_at = _aware(due_at)
        statement = _POSTPONE_TIMER[delivered is not None]
        params = _exact_params(delivered) if delivered is not None else {"p_id": timer_id}
        params["p_new_due_at"] = due_at

        def work(conn: Connection) -> bool:
            return conn.execute(statement, params).rowcount > 0

        return await self._transaction(work, write=True, what="postponing a timer")

    async def next_timer(self) -> TimerRecord | None:
        """The earliest timer (ties: the oldest), or ``None``."""

        def work(conn: Connection) -> TimerRecord | None:
            row = (conn.execute(select(m.Timer.__table__).order_by(m.Timer.due_at, m.Timer.id).limit(1))).first()
            return None if row is None else _timer_from_row(row)

        return await self._transaction(work, write=False, what="reading the next timer")

    async def due_timers(self, now: datetime, *, limit: int | None = None) -> list[TimerRecord]:
        """The timers due at or before ``now``, earliest first."""
        now = _aware(now)

        def work(conn: Connection) -> list[TimerRecord]:
            query = select(m.Timer.__table__).where(m.Timer.due_at <= now).order_by(m.Timer.due_at, m.Timer.id)
            if limit is not None:
                query = query.limit(limit)
            return [_timer_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what="reading due timers")

    async def due_and_next(self, now: datetime, *, limit: int = 100) -> tuple[list[TimerRecord], TimerRecord | None]:
        """The timers due at or before ``now`` (at most ``limit``, earliest first) and the first
        one after them, in one read: what a dispatcher's pass needs.

        The next one is ``None`` when there is none, or when ``limit`` due timers were found (read
        again after delivering them).
        """
        now = _aware(now)

        def work(conn: Connection) -> tuple[list[TimerRecord], TimerRecord | None]:
            query = select(m.Timer.__table__).order_by(m.Timer.due_at, m.Timer.id).limit(limit + 1)
            rows = [_timer_from_row(row) for row in (conn.execute(query)).all()]
            due = [t for t in rows if t.due_at <= now][:limit]
            later = [t for t in rows if t.due_at > now]
            return due, (later[0] if later and len(due) < limit else None)

        return await self._transaction(work, write=False, what="reading due timers")

    async def timers(self, match_id: int | None = _UNSET) -> list[TimerRecord]:
        """Every timer, earliest first; with ``match_id``, only that match's (``None``: no match's)."""

        def work(conn: Connection) -> list[TimerRecord]:
            query = select(m.Timer.__table__).order_by(m.Timer.due_at, m.Timer.id)
            if match_id is None:
                query = query.where(m.Timer.match_id.is_(None))
            elif match_id is not _UNSET:
                query = query.where(m.Timer.match_id == match_id)
            return [_timer_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what="reading timers")

    # ---- posted messages ---------------------------------------------------------------------

    async def add_message(
        self,
        channel_id: int | None,
        message_id: int,
        kind: str,
        *,
        match_id: int | None = None,
        delete_at: datetime | None = None,
    ) -> PostedMessage:
        """Remember a message the bot posted (and when it must be deleted, if ever)."""
        _check_length("message kind", kind, 32)
        delete_at = None if delete_at is None else _aware(delete_at)

        def work(conn: Connection) -> PostedMessage:
            row_id = (
                conn.execute(
                    insert(m.Message)
                    .values(
                        match_id=match_id,
                        channel_id=channel_id,
                        message_id=message_id,
                        kind=kind,
                        delete_at=delete_at,
                        deleted=False,
                    )
                    .returning(m.Message.id)
                )
            ).scalar_one()
            return PostedMessage(row_id, match_id, channel_id, message_id, kind, delete_at, False)

        return await self._transaction(work, write=True, what="remembering a posted message")

    async def mark_message_deleted(self, channel_id: int | None, message_id: int) -> bool:
        """Record that a posted message is gone; ``False`` if it was unknown or already marked."""
        channel = m.Message.channel_id.is_(None) if channel_id is None else m.Message.channel_id == channel_id

        def work(conn: Connection) -> bool:
            return (
                conn.execute(
                    update(m.Message)
                    .where(channel, m.Message.message_id == message_id, m.Message.deleted.is_(False))
                    .values(deleted=True)
                )
            ).rowcount > 0

        return await self._transaction(work, write=True, what="marking a message deleted")

    async def messages_to_delete(self, before: datetime | None = None) -> list[PostedMessage]:
        """Messages still to be deleted (only those due by ``before`` if given), earliest first."""
        conditions = [m.Message.deleted.is_(False), m.Message.delete_at.is_not(None)]
        if before is not None:
            conditions.append(m.Message.delete_at <= _aware(before))

        def work(conn: Connection) -> list[PostedMessage]:
            rows = (
                conn.execute(select(m.Message.__table__).where(*conditions).order_by(m.Message.delete_at, m.Message.id))
            ).all()
            return [_message_from_row(row) for row in rows]

        return await self._transaction(work, write=False, what="reading messages to delete")

    async def messages(self, match_id: int) -> list[PostedMessage]:
        """Every message posted for a match, in the order posted."""

        def work(conn: Connection) -> list[PostedMessage]:
            rows = (
                conn.execute(select(m.Message.__table__).where(m.Message.match_id == match_id).order_by(m.Message.id))
            ).all()
            return [_message_from_row(row) for row in rows]

        return await self._transaction(work, write=False, what="reading posted messages")

    # ---- guild settings ------------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildConfig:
        """A guild's settings; a guild never configured gets the defaults (no role, no rooms)."""

        def work(conn: Connection) -> GuildConfig:
            return self._load_guild(conn, guild_id)

        return await self._transaction(work, write=False, what="reading guild settings")

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        host_role_id: int | None = _UNSET,
        game_room_ids: Iterable[int] = _UNSET,
    ) -> GuildConfig:
        """Change a guild's settings (only the fields given) and return them as now stored."""
        rooms = None if game_room_ids is _UNSET else sorted(set(int(c) for c in game_room_ids))

        def work(conn: Connection) -> GuildConfig:
            exists = (
                conn.execute(select(m.GuildSettings.guild_id).where(m.GuildSettings.guild_id == guild_id))
            ).first()
            if exists is None:
                conn.execute(
                    insert(m.GuildSettings).values(
                        guild_id=guild_id, host_role_id=None if host_role_id is _UNSET else host_role_id
                    )
                )
            elif host_role_id is not _UNSET:
                conn.execute(
                    update(m.GuildSettings)
                    .where(m.GuildSettings.guild_id == guild_id)
                    .values(host_role_id=host_role_id)
                )
            if rooms is not None:
                conn.execute(delete(m.GameRoom).where(m.GameRoom.guild_id == guild_id))
                if rooms:
                    conn.execute(insert(m.GameRoom), [{"guild_id": guild_id, "channel_id": c} for c in rooms])
            return self._load_guild(conn, guild_id)

        return await self._transaction(work, write=True, what="saving guild settings")

    def _load_guild(self, conn: Connection, guild_id: int) -> GuildConfig:
        role = (conn.execute(select(m.GuildSettings.host_role_id).where(m.GuildSettings.guild_id == guild_id))).first()
        rooms = (
            conn.execute(
                select(m.GameRoom.channel_id).where(m.GameRoom.guild_id == guild_id).order_by(m.GameRoom.channel_id)
            )
        ).scalars()
        return GuildConfig(guild_id, None if role is None else role[0], tuple(rooms))

    # ---- maintenance ---------------------------------------------------------------------------

    async def counts(self) -> dict[str, int]:
        """How many rows each table holds (for ``/status`` and the benchmark)."""

        def work(conn: Connection) -> dict[str, int]:
            out = {}
            for table in m.Base.metadata.sorted_tables:
                out[table.name] = (conn.execute(select(func.count()).select_from(table))).scalar_one()
            return out

        return await self._transaction(work, write=False, what="counting rows")


def _unique_violation(error: IntegrityError) -> bool:
    text = str(error.orig).lower()
    return "uq_matches_channel_id_unfinished" in text or "unique constraint failed: matches.channel_id" in text


__all__ = [
    "ActionRecord",
    "Committed",
    "GuildConfig",
    "MatchNotFound",
    "MatchRecord",
    "NewAction",
    "PostedMessage",
    "Result",
    "RetryState",
    "RoomBusy",
    "SeatInfo",
    "StaleVersion",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "TimerRecord",
    "is_transient",
    "retry_transient",
]
