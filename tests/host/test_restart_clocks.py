"""Clocks across late timeouts and restarts, through the real host over a real database (SQLite
and PostgreSQL), the timers delivered by the real dispatcher on an injected clock.

A timeout applied late (the timer was late, or the bot was down when the time ran out) is
charged at the deadline, but what follows starts when it is said: the next seats' clocks run
from then, not from the deadline. And a restart that applies such a timeout commits it at the
time it does so, so that a second crash gives back no outage twice: after any number of
restarts the clocks hold what they held when the bot was last alive.

The game is the tests' Sealed Bid (both seats bid at once; a seat out of time bids nothing, and
the next round starts with fresh clocks), on a 60 s clock.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from geniusbot.host.match import Host
from geniusbot.host.timers import TimerDispatcher
from geniusbot.host.transport import Player, RecordingTransport
from tests.manualtime import ManualTime

from .sealedbid import registered
from .support import T0, DownStore

PLAYERS = [Player("p1"), Player("p2")]


@pytest.fixture
async def down_store(db_url: str):
    store = await DownStore.open(db_url, migrate=False)
    try:
        yield store
    finally:
        await store.close()


class Bot:
    """One run of the bot: a host and its timer dispatcher over the store, on the shared clock."""

    def __init__(self, store: DownStore, time: ManualTime, *, heartbeat: float = 5.0) -> None:
        self.transport = RecordingTransport()
        self.host = Host(store, self.transport, now=lambda: time.now().timestamp(), pictures=False, heartbeat=heartbeat)
        self.timers = TimerDispatcher(store, self.host.on_timer, time=time, retry_delay=5.0)

    async def clocks(self, match_id: int) -> str:
        status = (await self.host.command(match_id, "status")).message
        return status.split("Clocks: ", 1)[1].split(".", 1)[0]


def at(seconds: float) -> datetime:
    return datetime.fromtimestamp(T0 + seconds, UTC)


async def start(bot: Bot) -> int:
    reply = await bot.host.start_match("sealedbid", players=PLAYERS, seed=1, clock="60s")
    assert reply.ok, reply.message
    return reply.match_id


async def test_a_late_timeout_starts_the_next_round_when_it_is_said(down_store):
    time = ManualTime(at(0))
    with registered():
        bot = Bot(down_store, time, heartbeat=0)
        match_id = await start(bot)
        time.set(at(1))
        assert (await bot.host.submit(match_id, "p1", "bid 3", private=True)).ok
        # p2's minute is up at T0 + 60; the bot gets to it only at T0 + 70.
        time.set(at(70))
        await bot.timers.run_due()
        assert "p2 ran out of time." in bot.transport.room_texts()
        # Round 2 began when the room was told, at T0 + 70: nobody has lost the 10 s of lateness.
        assert await bot.clocks(match_id) == "p1 1:00, p2 1:00"
        time.set(at(75))
        assert await bot.clocks(match_id) == "p1 0:55, p2 0:55"


async def test_a_timeout_applied_by_a_restart_is_not_given_back_again_by_the_next(down_store):
    time = ManualTime(at(0))
    with registered():
        first = Bot(down_store, time)
        await first.host.recover()  # the first start: the heartbeat begins
        match_id = await start(first)
        time.set(at(1))
        assert (await first.host.submit(match_id, "p1", "bid 3", private=True)).ok
        # p2's minute is up at T0 + 60, but by T0 + 70 the database refuses the timeout's commit:
        # the bot lives on (its heartbeat says so) with the timeout not applied, then dies.
        time.set(at(70))
        down_store.down = True
        await first.timers.run_due()
        assert "p2 ran out of time." not in first.transport.room_texts()

        # Back at T0 + 75: the outage (5 s) is given back, and p2's time is still up, since
        # before the crash: the restart applies the timeout, and round 2 starts as it is said.
        down_store.down = False
        time.set(at(75))
        second = Bot(down_store, time)
        assert await second.host.recover() == [match_id]
        assert "p2 ran out of time." in second.transport.room_texts()
        assert await second.clocks(match_id) == "p1 1:00, p2 1:00"

        # Down again at once, back at T0 + 90: only this outage is given back, not the first
        # one again, so the clocks hold what they held when the bot was last alive.
        time.set(at(90))
        third = Bot(down_store, time)
        assert await third.host.recover() == [match_id]
        assert await third.clocks(match_id) == "p1 1:00, p2 1:00"
        time.set(at(91))
        fourth = Bot(down_store, time)  # and a third crash, a second later, changes nothing
        await fourth.host.recover()
        assert await fourth.clocks(match_id) == "p1 1:00, p2 1:00"
        # Ten seconds of thinking cost ten seconds: no outage was given back twice (a clock
        # given more than its time would still read 1:00 at the restart, but not now).
        time.set(at(101))
        assert await fourth.clocks(match_id) == "p1 0:50, p2 0:50"
