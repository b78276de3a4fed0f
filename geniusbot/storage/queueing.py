"""The order in which the store's transactions take their turn when they have to queue.

A transaction queues where the database has fewer places than callers: SQLite's one writer, and
PostgreSQL's pool of connections. There the store lets the waiters in by :class:`Priority`
(highest first; in the order they came within one priority), so that a burst of one kind of
work cannot keep another waiting behind it: a due timer's delivery (``HIGH``) goes ahead of the
moves and commands (``NORMAL``, the default), which go ahead of the starts of matches (``LOW``).
A transaction once let in is never interrupted; the wait of a ``HIGH`` one is bounded by the
transactions already running, not by the queue.

The priority is the caller's context (:func:`priority`, a :mod:`contextvars` variable), so it
follows a piece of work through every store call it makes, and into the tasks it starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")


class Priority(enum.IntEnum):
    """How soon a queued transaction is let in: the lower the value, the sooner."""

    HIGH = 0
    """A due timer's delivery: the clocks."""
    NORMAL = 1
    """Everything not marked otherwise: moves, commands, reads."""
    LOW = 2
    """The start of a match: many may come at once, and none of them is late when it waits."""


_CURRENT: ContextVar[Priority] = ContextVar("geniusbot_store_priority", default=Priority.NORMAL)


def current_priority() -> Priority:
    """The priority the store gives this context's transactions."""
    return _CURRENT.get()


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """Within the block, this context's store transactions queue with priority ``level``."""
    token = _CURRENT.set(level)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def at_priority(
    level: Priority,
) -> Callable[[Callable[_P, Coroutine[Any, Any, _T]]], Callable[_P, Coroutine[Any, Any, _T]]]:
    """A coroutine function whose store transactions (and its tasks') queue with priority ``level``."""

    def decorate(function: Callable[_P, Coroutine[Any, Any, _T]]) -> Callable[_P, Coroutine[Any, Any, _T]]:
        @functools.wraps(function)
        async def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
            with priority(level):
                return await function(*args, **kwargs)

        return wrapper

    return decorate


class PriorityQueue:
    """At most ``places`` holders at a time; the waiters are let in by :func:`current_priority`,
    highest first, and in the order they came within one priority.

    ``by_priority=False`` lets every waiter in as it came, whatever its priority (first come,
    first served: what the store did before, kept for the benchmark's side-by-side run).
    """

    def __init__(self, places: int, *, by_priority: bool = True) -> None:
        if places < 1:
            raise ValueError(f"a queue needs at least one place, not {places}")
        self.places = places
        self.by_priority = by_priority
        self._held = 0
        self._waiting: tuple[deque[asyncio.Future[None]], ...] = tuple(deque() for _ in Priority)

    @property
    def waiting(self) -> int:
        """How many callers wait for a place."""
        return sum(len(queue) for queue in self._waiting)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Hold a place for the block (waiting for one first if all are held)."""
        await self._enter(current_priority())
        try:
            yield
        finally:
            self._leave()

    async def _enter(self, level: Priority) -> None:
        if self._held < self.places and not self.waiting:
            self._held += 1
            return
        queue = self._waiting[level if self.by_priority else Priority.NORMAL]
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(place)
        try:
            await place
        except asyncio.CancelledError:
            if place.done() and not place.cancelled():
                self._leave()  # given a place just as it was cancelled: the place goes on
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(place)
            raise

    def _leave(self) -> None:
        # A place left goes to the first waiter of the highest priority (the count stays).
        for queue in self._waiting:
            while queue:
                place = queue.popleft()
                if not place.done():
                    place.set_result(None)
                    return
        self._held -= 1


__all__ = ["Priority", "PriorityQueue", "at_priority", "current_priority", "priority"]
