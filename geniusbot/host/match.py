"""The match host: one match's life, from its start to its result, through anything.

The host receives what happens in the outside world (a seat typed something in the room, a seat
sent something privately, a host command, a timer fell due) and answers through a
:class:`~geniusbot.host.transport.Transport`. Its promises:

* One match's inputs are handled one at a time (an :class:`asyncio.Lock` per match).
* The first legal submission of a seat to move is taken; an illegal one is answered with the
  game's reason, logged with it, and the turn stands. A refused submission changes nothing.
* An action is committed to the store BEFORE anything about it is announced, so nothing
  acknowledged is ever lost; if the commit fails, the in-memory match goes back to the last
  committed snapshot and the player is told to send the move again.
* Public events go to the room; private events and views go only to the seats they name.
* Every deadline (the next clock alert, a timed window, a scheduled deletion) is a timer row in
  the store, re-armed after each action, so it survives a restart.
* Clocks stop while the bot is down: :meth:`Host.recover` gives the outage back.
* No input, however bad, raises out of the public entry points: each returns a :class:`Reply`.

The host is composed of one part per job, each in its own module. Objects of their own, wired
in the host's constructor and called through their public methods only: ``cache`` (the live
matches in memory), ``arming`` (each match's timer rows), ``posted`` (messages deleted at a set
time), ``announce`` (what the room and the seats read), ``committer`` (every change committed
before it is said, and a commit whose answer was lost found out), ``heartbeat`` (when the host
was last alive, and the ledger of outages), ``deadlines`` (timers delivered: clocks, windows,
deletions) and ``recovery`` (a restart). Mixins over one state (``base``), still: ``routing``
(where an input goes), ``actions`` (starting, submitting) and ``commands`` (the host commands);
``live`` holds a live match and a reply.

See ``docs/host.md`` for the contract with transports and the rulings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import board
from .actions import Actions
from .announce import ABORTED_RESULT, Announcer
from .base import never_raises
from .commands import Commands
from .deadlines import CLOCK_TIMER, DELETE_TIMER, HEARTBEAT_TIMER, WINDOW_TIMER
from .heartbeat import HEARTBEAT_SECONDS, MAX_OUTAGES
from .live import LiveMatch, Reply, ReplyStatus, epoch, result_detail, timed_out, utc
from .routing import CHAT_PREFIXES, Routing
from .transport import Player

if TYPE_CHECKING:
    from geniusbot.storage import MatchRecord, TimerRecord

__all__ = [
    "ABORTED_RESULT",
    "CHAT_PREFIXES",
    "CLOCK_TIMER",
    "DELETE_TIMER",
    "HEARTBEAT_SECONDS",
    "HEARTBEAT_TIMER",
    "MAX_OUTAGES",
    "WINDOW_TIMER",
    "Host",
    "LiveMatch",
    "Reply",
    "ReplyStatus",
    "epoch",
    "result_detail",
    "timed_out",
    "utc",
]


class Host(Routing, Actions, Commands):
    """Hosts every match of one store, speaking through one transport (see :class:`~geniusbot.host.base.HostBase`
    for its settings). Its queries answer the front ends from the live-match cache; they never
    hand out the cache or a match's lock."""

    async def load(self, match_id: int) -> LiveMatch | None:
        """See :meth:`.cache.MatchCache.load`."""
        return await self.cache.load(match_id)

    def held(self, match_id: int) -> LiveMatch | None:
        """The match ``match_id`` if this host holds it in memory (``None``: not held now)."""
        return self.cache.held(match_id)

    def match_in(self, channel_id: int) -> LiveMatch | None:
        """The unfinished match this host holds in memory for the room ``channel_id``."""
        return self.cache.match_in(channel_id)

    def unfinished(self) -> list[LiveMatch]:
        """The unfinished matches this host holds in memory."""
        return self.cache.unfinished()

    def matches_of(self, user_id: int) -> list[LiveMatch]:
        """The unfinished matches this host holds in memory in which ``user_id`` holds a seat."""
        return self.cache.matches_of(user_id)

    async def players(self, match_id: int) -> dict[str, Player]:
        """Who holds each seat of match ``match_id``, from memory or else from the store (which
        raises :class:`~geniusbot.storage.MatchNotFound` for no such match)."""
        return await self.cache.players(match_id)

    async def seat_of(self, match_id: int, user_id: int) -> str | None:
        """The seat ``user_id`` holds in match ``match_id`` (``None``: none)."""
        return await self.cache.seat_of(match_id, user_id)

    async def quiet(self, match_id: int) -> None:
        """Return once the input match ``match_id`` is handling now, if any, is done."""
        await self.cache.quiet(match_id)

    async def recover(self, only: Callable[[MatchRecord], bool] | None = None, *, boards: bool = False) -> list[int]:
        """Reload every unfinished match after a start (``only``: those it picks): give back the
        outage, say so (``boards``: with each match's board), re-arm; returns the ids resumed. See
        :meth:`.recovery.Recovery.recover`."""
        return await self.recovery.recover(only, boards=boards)

    async def on_timer(self, timer: TimerRecord) -> bool:
        """A durable timer fell due (the :class:`~.timers.TimerDispatcher` calls this; raising
        means "deliver again"): see :meth:`.deadlines.Deadlines.on_timer`."""
        return await self.deadlines.on_timer(timer)

    async def confirmations(self) -> None:
        """Return once every submission whose commit went unanswered is confirmed or refused (tests)."""
        await self.committer.confirmations()

    # ---- what the room and the seats read (the announcer's)

    @never_raises
    async def show_board(self, match_id: int) -> Reply:
        """Post the match's board again, as it stands (the console's ``board``): the room's
        picture or text board with its clock line, and each seat's own view that changed."""
        live, refused = await self.cache.get(match_id)
        if live is None:
            return refused
        async with live.lock:
            await self.announcer.show_board(live, self.now())
        return Reply(ReplyStatus.ACCEPTED, "", live.id)

    def result_line(self, record: MatchRecord) -> str:
        """An ended match's result as the room read it under its last board (see
        :meth:`.announce.Announcer.result_line`)."""
        return self.announcer.result_line(record)

    def clock_line(self, live: LiveMatch, now: float) -> str:
        """The clock line under a board: who is to move, with their time."""
        return self.announcer.clock_line(live, now)

    def clocks(self, live: LiveMatch, now: float) -> dict[str, str]:
        """Each seat's clock as a board shows it."""
        return self.announcer.clocks(live, now)

    def window_line(self, live: LiveMatch, now: float) -> str:
        """What the running timed window says, with the time it has left ("" when none runs)."""
        return self.announcer.window_line(live, now)

    def status_text(self, live: LiveMatch) -> str:
        """A status line for the ``status`` command."""
        return self.announcer.status_text(live)

    @staticmethod
    def views(live: LiveMatch, *, fresh: bool = False) -> board.Views:
        """The views of the match's state now (see :meth:`.announce.Announcer.views`)."""
        return Announcer.views(live, fresh=fresh)
