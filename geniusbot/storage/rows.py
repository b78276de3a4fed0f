"""Between the store's values (:mod:`.values`) and its rows: checks and conversions of values going
in, and mappers of rows coming out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from . import models as m
from .values import ActionRecord, MatchRecord, NewAction, PostedMessage, Result, SeatInfo, TimerRecord

UNSET: Any = object()
"""Leave this field (of the snapshot, of a guild's settings) as it is; also "no filter given"."""

DISPLAY_NAME_LENGTH = 100
"""The longest display name kept; longer ones (a console player's, say) are cut, on every database."""


def utcnow() -> datetime:
    """The current time, aware UTC: the store's clock unless it is given another."""
    return datetime.now(UTC)


def aware(value: datetime) -> datetime:
    """``value`` in UTC; a naive time is refused (``ValueError``), as its zone would be a guess."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}; pass a timezone-aware time")
    return value.astimezone(UTC)


def db_text(value: str | None) -> str | None:
    """``value`` as a text column keeps it (NUL replaced)."""
    # PostgreSQL text cannot hold NUL; both databases get the same visible stand-in so that a log
    # reads the same wherever it is kept.
    return None if value is None else value.replace("\x00", "\ufffd")


def kept_name(value: str) -> str:
    """A seat's display name as kept: NUL replaced, cut to :data:`DISPLAY_NAME_LENGTH`."""
    return (db_text(value) or "")[:DISPLAY_NAME_LENGTH]


def check_length(what: str, value: str | None, limit: int) -> None:
    """Refuse (``ValueError``) a ``value`` longer than its column's ``limit``."""
    # SQLite would keep an over-long value and PostgreSQL refuse it; refuse it on both, early.
    if value is not None and len(value) > limit:
        raise ValueError(f"{what} {value[:20]!r}... is longer than {limit} characters")


def check_action(action: NewAction | None) -> None:
    """Refuse (``ValueError``) an action whose kind, seat or key is too long for its column."""
    if action is not None:
        check_length("action kind", action.kind, 32)
        check_length("seat", action.seat, 16)
        check_length("submission key", action.key, m.SUBMISSION_KEY_LENGTH)


def json_or_none(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A JSON column's value: a plain dict of ``value``, or ``None``."""
    return None if value is None else dict(value)


def match_from_row(row: Any, seats: Iterable[Any]) -> MatchRecord:
    """The record of a ``matches`` row and its ``seats`` rows."""
    result = None
    if row.status in m.ENDED_STATUSES or row.reason is not None:
        result = Result(row.winner, row.reason or "", row.termination, row.outcome or {})
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
        practice_seat=row.practice_seat,
        practice_level=row.practice_level,
        language=row.language,
        rated=bool(row.rated),
        seats=tuple(
            SeatInfo(seat=s.seat, display_name=s.display_name, user_id=s.user_id)
            for s in sorted(seats, key=lambda s: s.seat)
        ),
    )


def action_from_row(row: Any) -> ActionRecord:
    """The record of an ``actions`` row."""
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
        key=row.key,
        line=row.line,
    )


def timer_from_row(row: Any) -> TimerRecord:
    """The record of a ``timers`` row."""
    return TimerRecord(
        id=row.id,
        match_id=row.match_id,
        kind=row.kind,
        due_at=row.due_at,
        payload=row.payload or {},
        attempts=row.attempts,
    )


def message_from_row(row: Any) -> PostedMessage:
    """The record of a ``messages`` row."""
    return PostedMessage(
        id=row.id,
        match_id=row.match_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        kind=row.kind,
        delete_at=row.delete_at,
        deleted=bool(row.deleted),
        text_digest=row.text_digest,
        intended_at=row.intended_at,
    )
