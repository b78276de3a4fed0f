"""Arming: the clock and window timer rows of each live match, kept due no later than its next
deadline, and the timer dispatcher told of each row written (an object of the host's own)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from geniusbot.storage import MatchStatus, TimerRecord

from .live import LiveMatch, epoch, utc

if TYPE_CHECKING:
    from geniusbot.storage import Store

#: Timer kinds the host arms.
CLOCK_TIMER, WINDOW_TIMER, DELETE_TIMER, HEARTBEAT_TIMER = "clock", "window", "delete", "heartbeat"


class Arming:
    """The timer rows of each match's clock and window. ``wake`` is called with the due time (aware
    UTC) of each timer row written, so the dispatcher wakes by then (see
    :class:`~geniusbot.host.match.Host`)."""

    def __init__(self, store: Store, wake: Callable[[datetime], Any] | None = None) -> None:
        self.store = store
        self._wake = wake

    @staticmethod
    def know_rows(live: LiveMatch, rows: Iterable[TimerRecord]) -> None:
        """Learn which clock and window rows exist for the match (after a load)."""
        live.armed = {CLOCK_TIMER: [], WINDOW_TIMER: []}
        gone = live.delivered
        for row in rows:
            if gone is not None and (row.id, row.kind, row.due_at) == (gone.id, gone.kind, gone.due_at):
                continue  # being delivered: it goes with this delivery, it cannot stand for a deadline
            if row.kind in live.armed and row.match_id == live.id:
                live.armed[row.kind].append((epoch(row.due_at), dict(row.payload), row.id))

    async def arm(self, live: LiveMatch, now: float) -> None:
        """Make sure a timer row is due no later than the next clock alert (and the window).

        The exact alert rides in the payload; a row that fires early is re-checked and re-armed.
        """
        wanted: dict[str, tuple[float, dict[str, Any]] | None] = {CLOCK_TIMER: None, WINDOW_TIMER: None}
        added: float = 0.0  # the earliest due time of a row written here (0: none)
        if live.status == MatchStatus.LIVE:
            alerts = live.clock.alerts(now)
            if alerts:
                a = alerts[0]
                deadline = live.clock.deadline(a.seat)
                wanted[CLOCK_TIMER] = (
                    a.at,
                    {"seat": a.seat, "alert": a.kind, "seconds": a.seconds, "deadline": deadline},
                )
            window = live.host.get("window")
            if window:
                wanted[WINDOW_TIMER] = (float(window["due"]), {"kind": window["kind"]})
        if any(kind not in live.armed for kind in wanted):
            self.know_rows(live, await self.store.timers(live.id))
        for kind, want in wanted.items():
            rows = live.armed[kind]
            # Rows are never deleted here, only added: the dispatcher deletes a delivered row by
            # id once its callback returns, and SQLite reuses the highest free row id, so a row
            # deleted while its delivery waits for this match's lock could hand its id to a new
            # row that the dispatcher would then delete. A row no longer wanted fires, finds
            # nothing due (or a match not live), and goes.
            if want is None:
                continue
            # A row due no later than wanted may stay: when it fires early, the callback finds
            # nothing due and re-arms. That saves a write on most moves.
            if rows and min(due for due, _, _ in rows) <= want[0] + 0.0005:
                continue
            gone = live.delivered
            if gone is not None:
                # Re-armed from its own delivery: the new row and the delivered row's deletion
                # in one write (the dispatcher then deletes nothing).
                timer, _ = await self.store.replace_timer(gone, kind, utc(want[0]), match_id=live.id, payload=want[1])
                live.delivered = None
            else:
                timer = await self.store.add_timer(kind, utc(want[0]), match_id=live.id, payload=want[1])
            added = min(added or want[0], want[0])
            live.armed[kind] = rows + [(want[0], want[1], timer.id)]
        if added:
            await self.wake(added)

    async def wake(self, due: float) -> None:
        """Tell the dispatcher a timer row due at ``due`` was written (it may need to wake sooner)."""
        if self._wake is None:
            return
        result = self._wake(utc(due))
        if asyncio.iscoroutine(result):
            await result
