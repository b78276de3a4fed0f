"""What every part of the match host shares: its settings and state, and what each job offers the others.

:class:`~geniusbot.host.match.Host` is composed of the parts that are objects of their own,
made here in the constructor (:attr:`HostBase.cache`, :attr:`HostBase.arming`,
:attr:`HostBase.posted`, :attr:`HostBase.announcer`), and of one mixin per job still sharing one
state (routing, actions, commands, deadlines, recovery), each a subclass of :class:`HostBase`.
The methods one mixin calls on another are declared here for the type checker only; each is
defined once, in its own module.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from geniusbot.storage.errors import StorageFault

from .announce import Announcer
from .arming import Arming
from .cache import MatchCache
from .live import LiveMatch, Reply, ReplyStatus, Unconfirmed
from .posted import TimedMessages
from .transport import CommandNames

if TYPE_CHECKING:
    from abc import abstractmethod

    from geniusbot.games import Event
    from geniusbot.storage import MatchRecord, NewAction, Result, Store, TimerRecord
    from geniusbot.storage.shards import Shards

    from .transport import Transport

log = logging.getLogger(__name__)

#: How often a running host notes that it is alive (bounds the time an outage may give back).
HEARTBEAT_SECONDS = 5.0

_P = ParamSpec("_P")
_H = TypeVar("_H", bound="HostBase")


def never_raises(
    method: Callable[Concatenate[_H, _P], Coroutine[Any, Any, Reply]],
) -> Callable[Concatenate[_H, _P], Coroutine[Any, Any, Reply]]:
    """A public entry point answers every input; a bug is logged, never raised into the loop."""

    async def wrapper(self: _H, /, *args: _P.args, **kwargs: _P.kwargs) -> Reply:
        try:
            reply = await method(self, *args, **kwargs)
        except asyncio.CancelledError:
            raise
        except StorageFault as fault:
            # The database's disk is full, or its file read-only or damaged: no bug, and the same
            # for every input until someone mends it, so one line (no traceback) and the reason.
            log.error("host: %s: %s", method.__name__, fault)
            return Reply(ReplyStatus.UNAVAILABLE, fault.for_player())
        except Exception:
            log.exception("host: %s%r failed", method.__name__, args)
            return Reply(
                ReplyStatus.ERROR, "Something went wrong on the bot's side; nothing changed. Try again in a moment."
            )
        if reply.match_id is not None:
            self.cache.let_go(reply.match_id)  # its end (if this was it) is announced by now
        return reply

    functools.update_wrapper(wrapper, method)  # its name and docstring; its type stays the method's
    return wrapper


class HostBase:
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

    ``hint_seats``: a hint to a player who typed a command's name names the seat in the resign
    command (the console's ``resign p1``, where one keyboard types for every seat).

    :meth:`subscribe` hears of a match that changed with no caller waiting on it.
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
    ) -> None:
        self.store = store
        self.transport = transport
        self.now = now
        self.pictures = pictures
        self.boards = boards
        self.text_boards = text_boards
        self.adopt = adopt
        self.on_picture = on_picture
        self.heartbeat = heartbeat
        # (down, up) of each outage not yet in every live match's row; see Recovery.recover().
        self.outages: list[tuple[float, float]] = []
        #: The live-match cache: the matches held in memory (see :mod:`.cache`).
        self.cache = MatchCache(store, shards)
        #: The host's commands as the transport's users write them (see :class:`~.transport.CommandNames`).
        self.names = CommandNames(transport)
        #: The clock and window timer rows, and the dispatcher told of each (see :mod:`.arming`).
        self.arming = Arming(store, wake)
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
        )
        self.sleep = sleep
        # Per match, the submission whose commit may have landed, and the task finding out (actions.py).
        self.unconfirmed: dict[int, Unconfirmed] = {}
        self._confirming: dict[int, asyncio.Task[None]] = {}
        self.shards = shards
        self.forward = forward
        self.hint_seats = hint_seats
        self._listeners: list[Callable[[int], object]] = []

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

    if TYPE_CHECKING:
        # What one job calls on another, each defined in its own module.

        # ---- actions.py: the action pipeline
        @abstractmethod
        def _after_change(self, live: LiveMatch, now: float, events: Iterable[Event] = ()) -> None: ...
        @abstractmethod
        async def _commit(
            self,
            live: LiveMatch,
            action: NewAction | None,
            now: float,
            *,
            result: Result | None = None,
            at: float | None = None,
        ) -> None: ...
        @abstractmethod
        async def _settle(self, live: LiveMatch) -> bool: ...
        @staticmethod
        @abstractmethod
        def _pending_what(live: LiveMatch, pending: Unconfirmed) -> str: ...
        @abstractmethod
        async def submit(
            self,
            match_id: int,
            seat: str,
            text: str,
            *,
            private: bool = False,
            key: str | None = None,
            answer: bool = True,
        ) -> Reply: ...

        # ---- deadlines.py: timers and deadlines
        @abstractmethod
        async def _expire(self, live: LiveMatch, now: float) -> None: ...
        @abstractmethod
        async def _window_due(self, live: LiveMatch, payload: Mapping[str, Any], now: float) -> None: ...

        # ---- recovery.py: the heartbeat
        @abstractmethod
        async def _beat(self, replacing: Sequence[int] = (), *, delivered: TimerRecord | None = None) -> bool: ...
