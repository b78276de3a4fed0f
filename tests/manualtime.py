"""The tests' time source: a clock that moves only when a test moves it (the host's
:class:`~geniusbot.host.timers.TimeSource`; the bot's is :class:`~geniusbot.host.timers.SystemTime`)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta


class ManualTime:
    """A clock that moves only when told to: :meth:`advance` or :meth:`set`.

    ``sleep_until`` returns as soon as the clock has been moved to (or past) the time asked for,
    so a test runs a two-hour match in milliseconds.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("ManualTime needs a timezone-aware start time")
        self._moved = asyncio.Event()
        self.sleepers: list[datetime] = []
        """The times ``sleep_until`` is being awaited for right now (for tests to inspect)."""

    def now(self) -> datetime:
        """The current (manual) time."""
        return self._now

    async def sleep_until(self, when: datetime) -> None:
        """Wait until the clock has been moved to ``when`` or later."""
        self.sleepers.append(when)
        try:
            while self._now < when:
                moved = self._moved
                await moved.wait()
        finally:
            self.sleepers.remove(when)

    def set(self, when: datetime) -> None:
        """Move the clock to ``when`` (never backwards) and wake the sleepers that are due."""
        if when < self._now:
            raise ValueError("ManualTime does not run backwards")
        self._now = when
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    def advance(self, seconds: float) -> datetime:
        """Move the clock ``seconds`` forward; return the new time."""
        self.set(self._now + timedelta(seconds=seconds))
        return self._now
