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

The host is composed of one part per job, each in its own module: ``routing`` (where an input
goes), ``actions`` (starting, submitting, committing), ``commands`` (the host commands),
``deadlines`` (timers, clocks, windows, deletions), ``recovery`` (restart and heartbeat),
``announce`` (what the room and the seats read), on ``base`` (the shared state) and ``live``
(a live match, a reply); and one object, ``cache`` (the live matches in memory).

See ``docs/host.md`` for the contract with transports and the rulings.
"""

from __future__ import annotations

from .actions import Actions
from .announce import ABORTED_RESULT, Announcer
from .base import HEARTBEAT_SECONDS
from .commands import Commands
from .deadlines import CLOCK_TIMER, DELETE_TIMER, HEARTBEAT_TIMER, WINDOW_TIMER, Deadlines
from .live import LiveMatch, Reply, ReplyStatus, epoch, result_detail, timed_out, utc
from .recovery import MAX_OUTAGES, Recovery
from .routing import CHAT_PREFIXES, Routing
from .transport import Player

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


class Host(Routing, Actions, Commands, Deadlines, Recovery, Announcer):
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
