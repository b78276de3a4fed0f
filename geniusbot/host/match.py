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

The host is composed of one part per job, each an object of its own in its own module, made in
the host's constructor and called by the others through their public methods only: ``cache``
(the live matches in memory), ``arming`` (each match's timer rows), ``heartbeat`` (when the host
was last alive, and the ledger of outages), ``posted`` (messages deleted at a set time),
``announce`` (what the room and the seats read), ``committer`` (every change committed before it
is said, and a commit whose answer was lost found out), ``deadlines`` (timers delivered: clocks,
windows, deletions), ``recovery`` (a restart), ``commands`` (the host commands), ``actions``
(starting, submitting) and ``routing`` (where an input goes). :class:`Host` is their public face
for the front ends; ``base`` holds what the parts' inputs share (none raises); ``live`` holds a
live match and a reply.

See ``docs/host.md`` for the contract with transports and the rulings.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from geniusbot.words import ENGLISH, say

from . import board
from .actions import STARTS_AT_ONCE, Actions
from .announce import ABORTED_RESULT, Announcer
from .arming import Arming
from .base import never_raises
from .cache import MatchCache
from .commands import Commands
from .committer import Committer
from .deadlines import CLOCK_TIMER, DELETE_TIMER, HEARTBEAT_TIMER, WINDOW_TIMER, Deadlines
from .heartbeat import HEARTBEAT_SECONDS, MAX_OUTAGES, Heartbeat
from .live import LiveMatch, Reply, ReplyStatus, epoch, result_detail, timed_out, utc
from .posted import TimedMessages
from .recovery import Recovery
from .routing import CHAT_PREFIXES, Routing
from .transport import CommandNames, Player

if TYPE_CHECKING:
    from geniusbot.storage import MatchRecord, Practice, Store, TimerRecord
    from geniusbot.storage.shards import Shards

    from .clock import TimeControl
    from .transport import Transport

log = logging.getLogger(__name__)

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


class Host:
    """Hosts every match of one store, speaking through one transport.

    ``now`` is the time source (epoch seconds); tests and the console inject their own.
    ``wake`` is called with the due time (aware UTC) of each timer row added, so the dispatcher
    wakes by then. ``pictures``: post a rendered board when a renderer exists (the text board
    otherwise); ``text_boards``: post the text board as well (the console). ``adopt``: a timer of
    a match this host has not loaded loads it (the bot); false: such timers are left alone (a
    console that resumes one match of a shared file). ``sleep`` is the pause between tries to
    find out whether a commit whose answer was lost landed (tests inject it).

    One process of several (``docs/bot.md``): ``shards()`` names the shards this process serves
    (asked each time: a standby's change as it takes one over; an unfinished match of another
    shard is refused, and the heartbeat is kept once per shard; unset or ``None``: every match of
    the store), and ``forward(record, seat, text, key)``, asked before a private message is
    submitted, hands a message whose match another process owns to that owner and returns the
    reply (``None``: the match is this host's, submitted here; unset: every match is).

    ``language``: the language the host's lines and the games' words are said in
    (:mod:`geniusbot.words`; English by default).

    ``starts_at_once``: how many :meth:`start_match` calls do their work at once (the others wait).

    ``hint_seats``: a hint to a player who typed a command's name names the seat in the resign
    command (the console's ``resign p1``, where one keyboard types for every seat).

    :meth:`subscribe` hears of a match that changed with no caller waiting on it. Its queries
    answer the front ends from the live-match cache; they never hand out the cache or a match's
    lock.
    """

    def __init__(
        self,
        store: Store,
        transport: Transport,
        *,
        now: Callable[[], float] = time.time,
        wake: Callable[[datetime], Any] | None = None,
        pictures: bool = True,
        boards: bool = True,
        text_boards: bool = False,
        adopt: bool = True,
        on_picture: Callable[[int, bytes], Awaitable[None] | None] | None = None,
        heartbeat: float = HEARTBEAT_SECONDS,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shards: Callable[[], Shards | None] | None = None,
        forward: Callable[[MatchRecord, str, str, str | None], Awaitable[Reply | None]] | None = None,
        hint_seats: bool = False,
        starts_at_once: int = STARTS_AT_ONCE,
        language: str = ENGLISH,
    ) -> None:
        self.store = store
        self.transport = transport
        self.now = now
        self._listeners: list[Callable[[int], object]] = []
        self._end_listeners: list[Callable[[int], object]] = []
        # The parts, each given what it uses (nothing is set on them afterwards).
        #: The live-match cache: the matches held in memory (see :mod:`.cache`).
        self.cache = MatchCache(store, shards, language=language)
        #: The host's commands as the transport's users write them (see :class:`~.transport.CommandNames`).
        self.names = CommandNames(transport)
        #: The clock and window timer rows, and the dispatcher told of each (see :mod:`.arming`).
        self.arming = Arming(store, wake)
        #: The heartbeat rows and their ledger of outages (see :mod:`.heartbeat`).
        self.heartbeat = Heartbeat(store, now, self.arming, heartbeat, shards)
        #: Messages posted to be deleted at a set time, and their deletions (see :mod:`.posted`).
        self.posted = TimedMessages(store, transport, now, self.arming)
        #: What the room and the seats read (see :mod:`.announce`).
        self.announcer = Announcer(
            transport,
            now,
            self.cache,
            self.posted,
            pictures=pictures,
            boards=boards,
            text_boards=text_boards,
            on_picture=on_picture,
            language=language,
        )
        #: Every change committed before it is said, and a commit whose answer was lost found out
        #: (see :mod:`.committer`).
        self.committer = Committer(
            store,
            now,
            self.cache,
            self.arming,
            self.announcer,
            self.names,
            sleep=sleep,
            changed=self.changed,
            ended=self.ended,
        )
        #: Timer rows delivered: clock notices, timeouts, windows, deletions (see :mod:`.deadlines`).
        self.deadlines = Deadlines(
            now,
            self.cache,
            self.arming,
            self.posted,
            self.announcer,
            self.committer,
            self.heartbeat,
            adopt=adopt,
            changed=self.changed,
        )
        #: A restart: the outage given back, the matches resumed (see :mod:`.recovery`).
        self.recovery = Recovery(
            store,
            transport,
            now,
            self.cache,
            self.arming,
            self.posted,
            self.announcer,
            self.committer,
            self.heartbeat,
            self.deadlines,
            changed=self.changed,
        )
        #: The host commands (see :mod:`.commands`).
        self.commands = Commands(
            store,
            now,
            self.cache,
            self.arming,
            self.posted,
            self.announcer,
            self.committer,
            self.deadlines,
            self.names,
            boards=boards,
        )
        #: A match started, a submission taken or refused (see :mod:`.actions`).
        self.actions = Actions(
            store, now, self.cache, self.arming, self.announcer, self.committer, self.deadlines, starts_at_once
        )
        #: Where an input goes (see :mod:`.routing`).
        self.routing = Routing(
            store,
            transport,
            self.cache,
            self.announcer,
            self.names,
            self.actions,
            forward=forward,
            hint_seats=hint_seats,
        )

    @property
    def matches(self) -> dict[int, LiveMatch]:
        """The matches held in memory, by id (the cache's own dict)."""
        return self.cache.matches

    def subscribe(self, listener: Callable[[int], object]) -> Callable[[], None]:
        """Call ``listener(match_id)`` whenever a match changed with no caller waiting on it: a
        timer delivered (a clock or a window moved it on), a restart resumed it, or the background
        check said whether a move whose commit went unanswered landed (the bot refreshes the
        match's buttons then). Returns what unsubscribes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def changed(self, match_id: int) -> None:
        """Tell the subscribers that ``match_id`` changed (see :meth:`subscribe`); a listener that
        fails is logged and the others still hear."""
        for listener in list(self._listeners):
            try:
                listener(match_id)
            except Exception:
                log.exception("match %s: a match-changed listener failed", match_id)

    def on_end(self, listener: Callable[[int], object]) -> Callable[[], None]:
        """Call ``listener(match_id)`` as soon as a match's end is committed (finished or
        aborted; a tournament opens its next round). Returns what unsubscribes it."""
        self._end_listeners.append(listener)
        return lambda: self._end_listeners.remove(listener)

    def ended(self, match_id: int) -> None:
        """Tell the :meth:`on_end` listeners that ``match_id`` ended (a failing one is logged)."""
        for listener in list(self._end_listeners):
            try:
                listener(match_id)
            except Exception:
                log.exception("match %s: a match-end listener failed", match_id)

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

    # ---- the inputs (each answers with a Reply and never raises, but on_timer)

    async def start_match(
        self,
        game: str,
        *,
        players: Sequence[Player] = (Player("p1"), Player("p2")),
        seed: int | None = None,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
        clock: str | TimeControl | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        practice: Practice | None = None,
        language: str | None = None,
        rated: bool = False,
        spectators: Mapping[str, int] | None = None,
    ) -> Reply:
        """Start a match (``language``: the one it speaks, else the host's): see
        :meth:`.actions.Actions.start_match`."""
        return await self.actions.start_match(
            game,
            players=players,
            seed=seed,
            variant=variant,
            options=options,
            clock=clock,
            channel_id=channel_id,
            guild_id=guild_id,
            practice=practice,
            language=language,
            rated=rated,
            spectators=spectators,
        )

    async def submit(
        self,
        match_id: int,
        seat: str,
        text: str,
        *,
        private: bool = False,
        key: str | None = None,
        answer: bool = True,
    ) -> Reply:
        """Seat ``seat`` of match ``match_id`` typed ``text``: see :meth:`.actions.Actions.submit`."""
        return await self.actions.submit(match_id, seat, text, private=private, key=key, answer=answer)

    async def command(self, match_id: int, name: str, *, seat: str | None = None, key: str | None = None) -> Reply:
        """A host command: see :meth:`.commands.Commands.command`."""
        return await self.commands.command(match_id, name, seat=seat, key=key)

    async def room_message(self, channel_id: int, user_id: int, text: str, *, key: str | None = None) -> Reply:
        """Someone typed ``text`` in a room: see :meth:`.routing.Routing.room_message`."""
        return await self.routing.room_message(channel_id, user_id, text, key=key)

    async def room_move(self, match_id: int, seat: str, text: str, *, key: str | None = None) -> Reply:
        """Seat ``seat`` typed ``text`` in the room of match ``match_id``: see :meth:`.routing.Routing.room_move`."""
        return await self.routing.room_move(match_id, seat, text, key=key)

    async def command_move(self, match_id: int, seat: str, text: str, *, key: str | None = None) -> Reply:
        """Seat ``seat`` sent ``text`` by a command answered to it alone: see :meth:`.routing.Routing.command_move`."""
        return await self.routing.command_move(match_id, seat, text, key=key)

    async def private_message(
        self, user_id: int, text: str, match_id: int | None = None, *, key: str | None = None
    ) -> Reply:
        """A player sent ``text`` privately: see :meth:`.routing.Routing.private_message`."""
        return await self.routing.private_message(user_id, text, match_id, key=key)

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

    def own_view(self, live: LiveMatch, seat: str) -> tuple[bytes | None, str]:
        """``seat``'s own view of the match now, as a private view by DM shows it: the picture
        (``None`` when the game has none) and the text board (the caption under a picture, the
        board itself otherwise). For a front end that shows it to the seat alone (an ephemeral
        answer); slow (it draws), so call it off the event loop."""
        view = self.views(live).of(seat)
        words = self.announcer.words(live)
        heading = words(say("Your view of match #{id} (only you can see this).", id=live.id))
        if self.announcer.pictures and board.has_picture(live.game.name):
            players = {s: p.name or s for s, p in live.players.items()}
            title = words(say("Match #{id}: {seat}", id=live.id, seat=live.who(seat)))
            png = board.picture(view, words=words, players=players, clocks=self.clocks(live, self.now()), title=title)
            if png is not None:
                return png, heading
        text = board.text_board(view, words=words)
        return None, f"{heading}\n```\n{text}\n```"

    @staticmethod
    def views(live: LiveMatch, *, fresh: bool = False) -> board.Views:
        """The views of the match's state now (see :meth:`.announce.Announcer.views`)."""
        return Announcer.views(live, fresh=fresh)
