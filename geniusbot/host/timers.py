"""Durable timers: every deadline of every match is a database row, fired by one dispatcher task.

A clock's expiry, a low-time warning, a board's deletion when its timed window closes, the end
of a submission window: each is a :class:`~geniusbot.storage.TimerRecord` in the
store, so a restart loses none of them. One :class:`TimerDispatcher` task sleeps until the
earliest; a row written earlier than that (the store's ``add_timer``, then
:meth:`TimerDispatcher.wake` with its due time, as the host does) wakes it. A due timer is
handed to the callback (``async def on_timer(timer)``) and deleted only once the callback has
returned: delivery is at-least-once, so a callback must tolerate a timer it has already handled
(for instance by checking the match version or the clock it carries in ``payload``). A callback
that raises is logged and retried later with a growing delay; it never stops the dispatcher or
the other timers.

A callback may delete the delivered row itself, in the same transaction as its own write (the
store's ``replace_timer``, or ``commit_action(done_timer=...)``), and return ``True`` to say so:
the dispatcher then has nothing to delete. One pass reads the due timers and the next one
together (``Store.due_and_next``), and :meth:`TimerDispatcher.wake` with a due time only
shortens the coming sleep, so a delivery whose callback re-arms a deadline costs one read and
the callback's one write.

The dispatcher's store calls, its callback's among them, have :attr:`~geniusbot.storage.Priority.HIGH`
priority: where transactions queue (SQLite's one writer, PostgreSQL's pool), a due timer's go
first, so a burst of other work (2,000 matches started at once) does not make the clocks late.

Time is injected: :class:`SystemTime` for the bot; a test's (``tests/manualtime.py``) moves only
when the test moves it, so no test waits for real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import NamedTuple, Protocol

from geniusbot.storage import Priority, Store, TimerRecord, priority

log = logging.getLogger(__name__)

#: ``async def on_timer(timer)``; returning ``True`` means the callback deleted the row itself.
OnTimer = Callable[[TimerRecord], Awaitable[bool | None]]


class TimeSource(Protocol):
    """Where the dispatcher (and the host's clocks) get the time, and how they wait for it."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Return at ``when`` (at once if it has passed). Cancellable."""
        ...


class SystemTime:
    """The real clock."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        """Sleep until ``when`` by the system clock."""
        delay = (when - self.now()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)


class Pass(NamedTuple):
    """One pass over the due timers: how many callbacks succeeded, and the next timer then."""

    delivered: int
    upcoming: TimerRecord | None


class TimerDispatcher:
    """Delivers the store's timers to ``on_timer`` when they fall due, one at a time, in order.

    ``retry_delay`` is the pause before a timer whose callback failed is tried again (doubled
    with each failure, up to ``max_retry_delay``). ``max_sleep`` bounds one sleep, so timers
    that another process wrote straight into the store are still found.
    """

    def __init__(
        self,
        store: Store,
        on_timer: OnTimer,
        *,
        time: TimeSource | None = None,
        retry_delay: float = 5.0,
        max_retry_delay: float = 300.0,
        max_sleep: float = 300.0,
        batch: int = 100,
    ) -> None:
        self.store = store
        self.on_timer = on_timer
        self.time: TimeSource = time or SystemTime()
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        self.max_sleep = max_sleep
        self.batch = batch
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._sleeping_until: datetime | None = None
        # The earliest due time announced through wake(due) during a pass (it shortens the sleep).
        self._soonest: datetime | None = None
        self._in_pass = False
        # Pass accounting for settle(): a pass that starts after a request covers it.
        self._requested = 0
        self._completed = 0
        self._pass_done = asyncio.Event()
        #: How late, in seconds, the last pass that found due timers found the most overdue of them; None before one.
        self.lag: float | None = None

    # ---- life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the dispatcher task; it first delivers whatever fell due while the bot was down."""
        if self._task is not None and not self._task.done():
            return
        self._task = asyncio.create_task(self._run(), name="geniusbot-timers")

    async def stop(self) -> None:
        """Stop the task (a callback in progress is cancelled; its timer stays for next time)."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    @property
    def running(self) -> bool:
        """Whether the dispatcher task is alive."""
        return self._task is not None and not self._task.done()

    # ---- timers ------------------------------------------------------------------------------

    def wake(self, due_at: datetime | None = None) -> None:
        """Say that a timer was written: without ``due_at``, the task reads the store again now;
        with it (the new timer's due time), the task only makes sure to be awake by then."""
        if due_at is None:
            self._wake.set()
        elif self._in_pass:
            # The pass's own reading of the next timer may predate this row: remember it.
            if self._soonest is None or due_at < self._soonest:
                self._soonest = due_at
        elif self._sleeping_until is None or due_at < self._sleeping_until:
            self._wake.set()

    async def settle(self) -> None:
        """Return once the task has made a full pass that began after this call.

        After ``settle()``, every timer due at the time source's present has been delivered (or
        has failed and been postponed). Tests use it to wait without sleeping.
        """
        if not self.running:
            raise RuntimeError("the timer dispatcher is not running; call start() first")
        self._requested += 1
        target = self._requested
        self._wake.set()
        while self._completed < target:
            done = self._pass_done
            waiter = asyncio.ensure_future(done.wait())
            assert self._task is not None
            finished, _ = await asyncio.wait({waiter, self._task}, return_when=asyncio.FIRST_COMPLETED)
            if waiter not in finished:
                waiter.cancel()
                raise RuntimeError("the timer dispatcher stopped") from self._task.exception()

    async def run_due(self) -> Pass:
        """Deliver every timer due now, earliest first (one pass of the task, which a caller may
        make without it): how many callbacks succeeded, and the first timer after them as read
        before the deliveries (timers their callbacks wrote come through :meth:`wake`)."""
        delivered = 0
        # A due timer is late already: its reads and writes (and its callback's) go ahead of
        # every other queued transaction of the store (a burst of starts must not hold the clocks).
        with priority(Priority.HIGH):
            while True:
                now = self.time.now()
                due, upcoming = await self.store.due_and_next(now, limit=self.batch)
                if due:
                    self.lag = max(0.0, max((now - timer.due_at).total_seconds() for timer in due))
                for timer in due:
                    if await self._deliver(timer):
                        delivered += 1
                if len(due) < self.batch:
                    return Pass(delivered, upcoming)

    # ---- the task ------------------------------------------------------------------------------

    async def _deliver(self, timer: TimerRecord) -> bool:
        try:
            consumed = await self.on_timer(timer)
        except asyncio.CancelledError:
            raise
        except Exception:
            delay = min(self.retry_delay * (2**timer.attempts), self.max_retry_delay)
            log.exception(
                "timer %s (%s, match %s) failed; retrying in %.0f s", timer.id, timer.kind, timer.match_id, delay
            )
            # Only the row delivered: the callback may have replaced it, and its successor stands.
            await self.store.postpone_timer(timer.id, self.time.now() + timedelta(seconds=delay), delivered=timer)
            return False
        if consumed is not True:
            # Only the row delivered: the callback may have deleted it and a new timer taken its id.
            await self.store.delete_timer(timer.id, kind=timer.kind, due_at=timer.due_at)
        return True

    async def _run(self) -> None:
        while True:
            started = self._requested
            self._wake.clear()
            self._in_pass, self._soonest = True, None
            try:
                _, upcoming = await self.run_due()
            except Exception:
                # A dead dispatcher would silently stop every clock; log, wait, and try again.
                log.exception("timers: a pass failed; trying again in %.0f s", self.retry_delay)
                upcoming = None
                until = self.time.now() + timedelta(seconds=self.retry_delay)
            else:
                until = self.time.now() + timedelta(seconds=self.max_sleep)
                if upcoming is not None and upcoming.due_at < until:
                    until = upcoming.due_at
            finally:
                self._in_pass = False
            if self._soonest is not None and self._soonest < until:
                until = self._soonest
            self._completed = started
            done, self._pass_done = self._pass_done, asyncio.Event()
            done.set()
            if self._wake.is_set():
                continue
            await self._sleep(until)

    async def _sleep(self, until: datetime) -> None:
        self._sleeping_until = until
        sleeper = asyncio.ensure_future(self.time.sleep_until(until))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._sleeping_until = None
            for task in (sleeper, waker):
                if not task.done():
                    task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(sleeper, waker, return_exceptions=True)


__all__ = ["OnTimer", "Pass", "SystemTime", "TimeSource", "TimerDispatcher"]
