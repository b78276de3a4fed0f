"""The tables geniusbot keeps: matches, their seats and action log, timers, posted messages, guilds.

SQLAlchemy 2 declarative models with typed ``Mapped[...]`` columns. They run unchanged on SQLite
(``sqlite+aiosqlite``) and PostgreSQL (``postgresql+asyncpg``); the Alembic migrations in
``geniusbot/migrations`` create exactly this schema (a test compares them).

Only the store's modules (:mod:`geniusbot.storage.store` and the modules it is built from) touch
these classes; the rest of the bot sees the frozen dataclasses of :mod:`geniusbot.storage.values`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    false,
    text,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


class MatchStatus(StrEnum):
    """Where a match is: ``matches.status`` (a member equals its string: ``MatchStatus.LIVE == "live"``)."""

    LIVE = "live"
    PAUSED = "paused"
    FINISHED = "finished"
    ABORTED = "aborted"


MATCH_STATUSES: tuple[MatchStatus, ...] = tuple(MatchStatus)
"""Every value ``matches.status`` may take."""

UNFINISHED_STATUSES: tuple[MatchStatus, ...] = (MatchStatus.LIVE, MatchStatus.PAUSED)
"""A match in one of these is still running (or may resume); it holds its game room."""

ENDED_STATUSES: tuple[MatchStatus, ...] = (MatchStatus.FINISHED, MatchStatus.ABORTED)

SUBMISSION_KEY_LENGTH = 100
"""The longest submission key (``actions.key``) kept."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python, on every database.

    PostgreSQL keeps ``timestamptz`` and asyncpg already returns aware values; SQLite has no
    time type, so the value is stored as naive UTC text and the zone is put back on reading.
    A naive datetime handed in is refused rather than guessed at.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r} given to the database; pass an aware UTC time")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


# JSON 'null' and SQL NULL are kept apart nowhere in the bot; SQL NULL is the one we mean.
JSONValue = JSON(none_as_null=True)

#: The longest termination a match keeps (a game's own are short words: ``line``, ``checkmate``).
TERMINATION_LENGTH = 32
#: The longest language code kept (a Discord locale such as ``zh-TW``, or ``qps``).
LANGUAGE_LENGTH = 16

# Stable constraint names make migrations reproducible on both databases.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every geniusbot table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    # A class attribute SQLAlchemy reads once, when it maps the tables; nothing mutates it.
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSONValue}


def _status_list(statuses: tuple[MatchStatus, ...]) -> str:
    return ", ".join(f"'{s}'" for s in statuses)


class Match(Base):
    """One match: its setup, its latest snapshot (game state, clocks, host data) and its result.

    ``version`` rises by one with every committed action, so two writers of the same match
    cannot both commit from the same snapshot. ``last_seq`` is the seq of the newest row of the
    action log (accepted or refused); it is kept here so that numbering the log needs no scan.
    """

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(64))
    # Text, not BIGINT: a seed is any Python int and may not fit 64 signed bits.
    seed: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    status: Mapped[str] = mapped_column(String(16), default=MatchStatus.LIVE.value)
    state: Mapped[dict[str, Any]] = mapped_column(JSONValue)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    host: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    version: Mapped[int] = mapped_column(Integer, default=0)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    winner: Mapped[str | None] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(Text)
    # How it ended, as data: the termination (``line``, ``time``, a game's own) and the outcome's
    # plain values; NULL for a match ended before they were kept, and for an aborted one.
    termination: Mapped[str | None] = mapped_column(String(TERMINATION_LENGTH))
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    # A practice match (one seat played by the bot's practice opponent): the opponent's seat and
    # level; both NULL for a match between people.
    practice_seat: Mapped[str | None] = mapped_column(String(16))
    practice_level: Mapped[str | None] = mapped_column(String(16))
    # The language the match speaks, fixed at its start (the room's then); NULL: the host's own.
    language: Mapped[str | None] = mapped_column(String(LANGUAGE_LENGTH))
    # Whether the match's end moves its players' ratings (``ratings``, ``rating_changes``).
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())

    __table_args__ = (
        CheckConstraint(f"status IN ({_status_list(MATCH_STATUSES)})", name="status"),
        Index("ix_matches_status", "status"),
        Index("ix_matches_guild_id_status_finished_at", "guild_id", "status", "finished_at"),
        # The archive's filters (geniusbot/storage/archive.py, since revision ``0014``).
        Index("ix_matches_guild_id_finished_at", "guild_id", "finished_at"),
        Index("ix_matches_guild_id_game_variant_finished_at", "guild_id", "game", "variant", "finished_at"),
        Index("ix_matches_guild_id_winner_finished_at", "guild_id", "winner", "finished_at"),
        # A game room holds at most one unfinished match; the database settles two hosts racing
        # to start one in the same room.
        Index(
            "uq_matches_channel_id_unfinished",
            "channel_id",
            unique=True,
            sqlite_where=text(f"status IN ({_status_list(UNFINISHED_STATUSES)})"),
            postgresql_where=text(f"status IN ({_status_list(UNFINISHED_STATUSES)})"),
        ),
    )


class Seat(Base):
    """Who sits in a seat of a match. ``user_id`` is a Discord user id, ``None`` on the console."""

    __tablename__ = "seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(16), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    display_name: Mapped[str] = mapped_column(String(100))

    __table_args__ = (
        Index("ix_seats_user_id", "user_id"),
        Index("ix_seats_display_name", "display_name"),  # the archive's player filter (revision 0014)
    )


class Action(Base):
    """One row of a match's append-only log: a submission, a command, a timeout, a window.

    ``seq`` counts from 1 within the match. ``seat`` is the seat that moved or resigned, or whose
    clock ran out (a timeout, which the host did: since revision ``0009``), ``None`` for the
    host's other commands; nothing reads a seat back from ``text``.
    Refused submissions are logged too (``accepted`` false, ``error`` the reason the player was
    given; an imported record's refused lines as well, with their ``line``); they never changed
    the snapshot. ``key`` names the submission a taken action came
    from (a Discord message or interaction, a console line), unique within the match: a commit
    whose answer was lost is found by it, and the same submission is never taken twice.
    """

    __tablename__ = "actions"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str | None] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    accepted: Mapped[bool] = mapped_column(Boolean, default=True)
    error: Mapped[str | None] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    clocks: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    key: Mapped[str | None] = mapped_column(String(SUBMISSION_KEY_LENGTH))
    # An imported record's line: its 1-based line number in the file (since revision ``0014``);
    # NULL for an action the live bot logged.
    line: Mapped[int | None] = mapped_column(Integer)

    # NULLs are distinct in a unique index on both databases: actions without a key never collide.
    __table_args__ = (Index("uq_actions_match_id_key", "match_id", "key", unique=True),)


class Timer(Base):
    """A deadline that must survive a restart (a clock expiry, a warning, a deletion, a window).

    ``attempts`` counts deliveries whose callback failed; the dispatcher backs off with it.
    """

    __tablename__ = "timers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime())
    payload: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    attempts: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (
        Index("ix_timers_due_at", "due_at"),
        Index("ix_timers_match_id", "match_id"),
    )


class Message(Base):
    """A message the bot posted, kept so that a scheduled deletion still happens after a restart.

    Message ids are not unique on their own (the console numbers its messages from 1 every run),
    so a message is named by its channel and id. A message to be deleted is written here before
    it is posted: ``message_id`` is NULL until the post returns (an intent), so that no crash can
    leave on show a message that no row knows of.
    """

    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"))
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(32))
    delete_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    #: An intent to post a text: the text's digest (``host.transport.text_digest``) and when the
    #: intent was written, so that a restart can find a text that carries no key (on Discord).
    text_digest: Mapped[str | None] = mapped_column(String(64))
    intended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (
        Index("ix_messages_channel_id_message_id", "channel_id", "message_id"),
        Index("ix_messages_deleted_delete_at", "deleted", "delete_at"),
        Index("ix_messages_match_id", "match_id"),
    )


class GuildSettings(Base):
    """What a server's admins set: the role that may host matches, whether each match runs in a
    thread of its room, whether the player to move is pinged, how a match's board is shown, the
    rooms' language."""

    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    host_role_id: Mapped[int | None] = mapped_column(BigInteger)
    threads: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    pings: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    board: Mapped[str] = mapped_column(String(16), default="message", server_default="message")
    #: The language its rooms speak (``/setup language``); NULL: the server's own (see docs/bot.md).
    language: Mapped[str | None] = mapped_column(String(LANGUAGE_LENGTH))
    # Whether /start rates a match when the host does not say.
    rated: Mapped[bool] = mapped_column(Boolean, server_default=true())
    #: The spectators' room (``/setup spectators``): where every secret is posted as it happens; NULL: none.
    spectators_channel_id: Mapped[int | None] = mapped_column(BigInteger)


class GameRoom(Base):
    """A channel of a guild where matches may be played (a guild may have several)."""

    __tablename__ = "game_rooms"

    guild_id: Mapped[int] = mapped_column(
        ForeignKey("guild_settings.guild_id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)


class ImportedRecord(Base):
    """A match record imported as a match: the digest of its normalised text (its game, rule set,
    seed, options, players, time control and moves), so that importing the same record again in
    the same place finds the match it became. ``scope`` is the guild id, 0 for console matches."""

    __tablename__ = "imported_records"

    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))

    __table_args__ = (Index("ix_imported_records_match_id", "match_id"),)


class InboxItem(Base):
    """A direct message, or a press of a button in one, for a match another bot process owns: the
    process that received it (Discord sends every DM to shard 0) writes it here, and the owner of
    ``shard`` applies it with the submission's ``key`` (once) and deletes the row. ``reply`` holds
    what the owner answers a button press with (its application id and interaction token)."""

    __tablename__ = "inbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    shard: Mapped[int] = mapped_column(Integer)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    seat: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    key: Mapped[str] = mapped_column(String(SUBMISSION_KEY_LENGTH))
    reply: Mapped[dict[str, Any] | None] = mapped_column(JSONValue)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (
        Index("ix_inbox_shard_id", "shard", "id"),
        Index("ix_inbox_key", "key", unique=True),
        Index("ix_inbox_match_id", "match_id"),
    )


class PlayerRating(Base):
    """A player's Glicko-2 rating in one guild, game and rule set, and the rated matches behind it
    (:mod:`geniusbot.ratings`). ``display_name`` is the name the player last played under."""

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_ratings_guild_id_game_variant_rating", "guild_id", "game", "variant", "rating"),)


class RatingChange(Base):
    """What one rated match did to one player's rating: before and after, and the score (1, 0.5, 0)."""

    __tablename__ = "rating_changes"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(64))
    seat: Mapped[str] = mapped_column(String(16))
    # The player's rated matches in this game and rule set with this one (1 for the first): the
    # order the ratings moved in, which the times need not be (two ends at once take their time
    # before the one waits for the other's lock).
    number: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    rd_before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_rating_changes_guild_id_user_id_at", "guild_id", "user_id", "at"),)


__all__ = [
    "ENDED_STATUSES",
    "MATCH_STATUSES",
    "UNFINISHED_STATUSES",
    "Action",
    "Base",
    "GameRoom",
    "GuildSettings",
    "ImportedRecord",
    "InboxItem",
    "Match",
    "MatchStatus",
    "Message",
    "PlayerRating",
    "RatingChange",
    "Seat",
    "Timer",
    "UTCDateTime",
]
