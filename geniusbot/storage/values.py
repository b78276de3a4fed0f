"""The store's values: the frozen dataclasses a caller hands to the store and gets back.

Never ORM objects, which would tie a caller to a session. (The plain-text match record, a
different thing, is :mod:`geniusbot.record`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from geniusbot.record.actions import ActionKind as ActionKind  # the log's kinds are the record's
from geniusbot.words import Message, Verbatim, Words, say

if TYPE_CHECKING:
    from geniusbot.games.outcome import Outcome
    from geniusbot.record.actions import GameAction


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: ``user_id`` is a Discord user id, ``None`` for a console player."""

    seat: str
    display_name: str
    user_id: int | None = None


@dataclass(frozen=True)
class Result:
    """How a match ended: ``winner`` is a seat or ``None`` (a draw, or an aborted match);
    ``reason`` the sentence the room read; ``termination`` how it ended, as data (``"line"``,
    ``"time"``, a game's own; ``None`` for an aborted match, or one ended before it was kept) and
    ``data`` the outcome's plain values (the seat that ran out of time, the scores)."""

    winner: str | None
    reason: str
    termination: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, outcome: Outcome) -> Result:
        """A game's outcome as the match keeps it: its sentence, its termination and its data."""
        return cls(outcome.winner, outcome.reason, str(outcome.termination), dict(outcome.data))


#: The display name the console gave the practice opponent's seat before matches kept
#: ``practice_seat``: such a seat of a console match (no channel) still marks it a practice match.
OLD_PRACTICE_NAME = "bot"


@dataclass(frozen=True)
class Practice:
    """A practice match's opponent: the seat it plays and its level (``None``: a match stored
    before the level was kept)."""

    seat: str
    level: str | None = None

    def describe(self) -> str:
        """``practice (bot at normal)``, or ``practice (bot)`` when the level is not known: the
        record's header (English, as a record is written)."""
        return Words()(self.said())

    def said(self) -> Message:
        """:meth:`describe` as a message, for a page or a reply in its own language."""
        return say("practice (bot at {level})", level=Verbatim(self.level)) if self.level else say("practice (bot)")


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
    #: The seat the practice opponent plays and its level; ``None`` for a match between people.
    practice_seat: str | None = None
    practice_level: str | None = None
    #: The language the match speaks, fixed at its start; ``None``: the host's own.
    language: str | None = None
    #: Whether the match's end moves its players' ratings (``docs/ratings.md``).
    rated: bool = False

    @property
    def practice(self) -> Practice | None:
        """The practice opponent of this match, ``None`` for a match between people. A console
        match stored before the practice columns is one when a seat is named ``bot``."""
        if self.practice_seat is not None:
            return Practice(self.practice_seat, self.practice_level)
        if self.channel_id is None and self.guild_id is None:
            for seat in self.seats:
                if seat.display_name == OLD_PRACTICE_NAME and seat.user_id is None:
                    return Practice(seat.seat)
        return None

    def seat_of(self, user_id: int) -> str | None:
        """The seat ``user_id`` holds in this match, if any."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


@dataclass(frozen=True)
class NewAction:
    """An action the host is about to log. ``at`` defaults to the store's clock.

    ``key`` names the submission it comes from (``discord:<message or interaction id>``,
    ``console:<run>:<line>``): a taken action keeps it, unique within the match, so a commit
    whose answer was lost is found by it (:meth:`Store.find_submission`) and the same submission
    is never taken twice (:class:`DuplicateSubmission`). A refused one is logged without it.
    """

    kind: str
    text: str
    seat: str | None = None
    private: bool = False
    clocks: Mapping[str, Any] | None = None
    at: datetime | None = None
    key: str | None = None
    #: An imported record's line number (``None`` for the live bot's actions).
    line: int | None = None

    @classmethod
    def of(cls, action: GameAction, *, key: str | None = None) -> NewAction:
        """The row to log of a game action (the host's: :func:`geniusbot.record.host_action`)."""
        return cls(action.kind, action.text, action.seat, action.private, key=key)


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
    key: str | None = None
    #: An imported record's line number (``None`` for the live bot's actions).
    line: int | None = None


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
    """A message the bot posted; ``delete_at`` is when it must go, if ever.

    ``message_id`` is ``None`` while the row is an intent: written before the message is posted,
    so that a crash between the post and the row cannot leave a message no row knows of. The id is
    filled in once the post returns (``MessageStore.fill_message``); a restart finds or drops the
    intents still open.
    """

    id: int
    match_id: int | None
    channel_id: int | None
    message_id: int | None
    kind: str
    delete_at: datetime | None
    deleted: bool
    #: An intent to post a text: the text's digest, and when the intent was written.
    text_digest: str | None = None
    intended_at: datetime | None = None


@dataclass(frozen=True)
class GuildConfig:
    """A guild's settings: the host role, the game rooms, whether each match runs in a thread of
    its room (``threads``), whether the player to move is pinged (``pings``), how a match's board
    is shown (``board``: ``message``, ``card`` or ``edited``) and the rooms' language
    (``language``); defaults when never set."""

    guild_id: int
    host_role_id: int | None = None
    game_room_ids: tuple[int, ...] = ()
    threads: bool = False
    pings: bool = True
    #: How the room shows a match's board (``/setup board``; ``geniusbot.host.transport.BOARD_STYLES``).
    board: str = "message"
    #: The language its rooms speak (``/setup language``); ``None``: the server's own.
    language: str | None = None
    #: Whether ``/start`` rates a match when the host does not say.
    rated: bool = True
    #: The spectators' room (``/setup spectators``), where the secrets are posted; ``None``: none.
    spectators_channel_id: int | None = None
