"""A live match as the host holds it in memory, and the host's answer to an input."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from geniusbot.games import Event, Game, Outcome, Termination, load
from geniusbot.storage import MatchStatus, Practice, TimerRecord
from geniusbot.words import Verbatim

from .clock import Clock
from .transport import Player


def utc(seconds: float) -> datetime:
    """Epoch seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)


def epoch(moment: datetime) -> float:
    """An aware datetime as epoch seconds."""
    return moment.timestamp()


def timed_out(outcome: Outcome | None, seat: str) -> bool:
    """Whether the game ended because ``seat``'s clock ran out."""
    return outcome is not None and outcome.termination is Termination.TIME and outcome.data.get("seat") == seat


def result_detail(outcome: Outcome) -> str:
    """How the game ended, for a result line that has just said who wins ("p2 resigned."): the
    outcome's :attr:`~Outcome.detail`; a draw's whole sentence (its verdict names no winner)."""
    return outcome.detail if outcome.winner is not None else outcome.reason


class ReplyStatus(StrEnum):
    """What the host did with an input (a member equals its string: ``ReplyStatus.ACCEPTED == "accepted"``)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    IGNORED = "ignored"
    UNAVAILABLE = "unavailable"
    ERROR = "error"


@dataclass(frozen=True)
class Reply:
    """What the host did with an input.

    ``status``: ``accepted``, ``rejected`` (answered with ``message``), ``ignored`` (table talk,
    a non-player, a finished match), ``unavailable`` (the store failed; nothing changed, try
    again), ``error`` (bad input such as an unknown match; ``message`` says what to do).
    ``belongs_private``: set when the game refused a move sent to the wrong place
    (:class:`~geniusbot.games.WrongPlaceError`): true, it is sent privately; false, in the room.
    ``hint``: a command's name typed as a room message; the host pointed to the command in the
    room (``message``, rejected: nothing changed).
    """

    status: ReplyStatus
    message: str = ""
    match_id: int | None = None
    belongs_private: bool | None = None
    hint: bool = False

    @property
    def ok(self) -> bool:
        """Whether the input was taken."""
        return self.status == ReplyStatus.ACCEPTED


@dataclass
class LiveMatch:
    """A match the host holds in memory, with the snapshot it last committed."""

    id: int
    guild_id: int | None
    channel_id: int | None
    game: Game
    clock: Clock
    players: dict[str, Player]
    version: int
    status: MatchStatus
    host: dict[str, Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    saved: tuple[dict[str, Any], dict[str, Any], dict[str, Any], MatchStatus] | None = None
    # The timer rows the host knows of: kind -> [(due, payload, row id)]; absent = not read yet.
    armed: dict[str, Any] = field(default_factory=dict)
    private_views: dict[str, Any] = field(default_factory=dict)
    # The seats to move when the room's last board was posted: a seat is told it is its turn
    # (pinged) once, when it joins them.
    pinged: tuple[str, ...] = ()
    # The views of the state last announced (board.Views), built once an action and read by
    # all that shows it: the board, its picture, the private views, the choice offers.
    views: Any = None
    # The timer row being delivered, until a write of this delivery deletes it (see on_timer).
    delivered: TimerRecord | None = None
    # Clock notices due up to this moment have been posted (epoch seconds; 0: none since the load).
    alerted: float = 0.0
    # The seats whose private messages fail now: the room has been told once, in this spell
    # (from a failed private message to the seat until one to it gets through again).
    unreachable: set[str] = field(default_factory=set)
    # The practice opponent's seat and level (``None``: people play every seat). Nothing private
    # is sent to its seat: the opponent reads what the seat has seen from the match's log.
    practice: Practice | None = None
    # The language the match speaks, fixed at its start and kept with it (``None``: the host's).
    language: str | None = None
    # The seats whose "your move" DMs (long clocks) failed in this process: told no more this match.
    unreachable_turns: set[str] = field(default_factory=set)

    @property
    def practice_seat(self) -> str | None:
        """The seat the practice opponent plays, if any."""
        return self.practice.seat if self.practice is not None else None

    @property
    def room(self) -> int | None:
        """The room the match is played in (its channel), ``None`` on the console."""
        return self.channel_id

    def label(self, seat: str) -> str:
        """How the room names a seat: ``Alice (p1)``."""
        player = self.players.get(seat)
        return player.label if player else seat

    def who(self, seat: str) -> Verbatim:
        """A seat as the host's own lines name it, an argument of a message: its label
        (``Alice (p1)``), which says whose it is in every language."""
        return Verbatim(self.label(seat))

    def snapshot(self, state: dict[str, Any] | None = None, clock: dict[str, Any] | None = None) -> None:
        """Remember the current state as the committed one (``state`` and ``clock``: the game's
        and the clock's ``to_dict()`` of it, if the caller has them already)."""
        state = self.game.to_dict() if state is None else state
        clock = self.clock.to_dict() if clock is None else clock
        self.saved = (state, clock, dict(self.host), self.status)

    def restore(self) -> None:
        """Go back to the last committed state (a commit failed)."""
        if self.saved is None:
            return
        game, clock, host, status = self.saved
        self.game = load(game)
        self.clock = Clock.from_dict(clock)
        self.host = dict(host)
        self.status = status


@dataclass
class Unconfirmed:
    """A submission or host command whose commit was sent but never answered (the database went
    away past the retries): it may have landed or not. The host keeps what the match would be with
    it, and says neither "taken" nor "not taken" until the store can tell, by its ``key``."""

    key: str
    #: The seat that moved (or resigned); ``None`` for a host command of no seat.
    seat: str | None
    private: bool
    #: The move as the game wrote it, or the host command ("pause", "resign", "close window").
    text: str
    #: When it was made (epoch seconds).
    at: float
    #: The match's version it was decided at; it made the next one if it landed.
    version: int
    #: The snapshot it would have committed (game, clock, host data, status), as :attr:`LiveMatch.saved`.
    state: tuple[dict[str, Any], dict[str, Any], dict[str, Any], MatchStatus]
    #: What it would announce, once it is known to have landed.
    events: list[Event] = field(default_factory=list)
    #: Whether it is a host command (:meth:`Commands.command`), not a submission.
    command: bool = False
    #: A host command's own lines for the room ("The host paused the match."), said before ``events``.
    lines: list[str] = field(default_factory=list)
