"""Crash recovery: the outage given back to every match after a restart (an object of the host's
own, ``host.recovery``; the heartbeat that measures the outage is :mod:`.heartbeat`'s)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from geniusbot.storage import MatchRecord, MatchStatus, TimerRecord
from geniusbot.words import Verbatim, say

from .clock import format_duration
from .deadlines import DELETE_TIMER, HEARTBEAT_TIMER
from .live import epoch

if TYPE_CHECKING:
    from geniusbot.storage import Store

    from .announce import Announcer
    from .arming import Arming
    from .cache import MatchCache
    from .committer import Committer
    from .deadlines import Deadlines
    from .heartbeat import Heartbeat
    from .posted import TimedMessages
    from .transport import Transport

log = logging.getLogger(__name__)


class Recovery:
    """A restart: the outage given back (from the heartbeat's ledger), and the matches resumed.
    ``changed(match_id)`` tells the host's subscribers of each match resumed."""

    def __init__(
        self,
        store: Store,
        transport: Transport,
        now: Callable[[], float],
        cache: MatchCache,
        arming: Arming,
        posted: TimedMessages,
        announcer: Announcer,
        committer: Committer,
        heartbeat: Heartbeat,
        deadlines: Deadlines,
        *,
        changed: Callable[[int], None],
    ) -> None:
        self.store = store
        self.transport = transport
        self.now = now
        self.cache = cache
        self.arming = arming
        self.posted = posted
        self.announcer = announcer
        self.committer = committer
        self.heartbeat = heartbeat
        self.deadlines = deadlines
        self.changed = changed

    async def recover(self, only: Callable[[MatchRecord], bool] | None = None, *, boards: bool = False) -> list[int]:
        """Reload every unfinished match after a start: give back the outage, say so, re-arm.

        ``only`` picks the matches to resume (default: all). Returns the ids of the matches
        resumed (each told to the subscribers too, :meth:`~geniusbot.host.match.Host.subscribe`).
        A match that fails to load is logged and skipped (the others still resume).
        ``boards``: post each resumed match's board too (the console, whose terminal holds none
        of an earlier run's; a Discord room still shows its boards).

        The outage is written once, into the heartbeat row's ledger of outages, before anything
        is announced; a match's shifted clock reaches its own row with its next commit. Until
        then the ledger says what to give back, so a second crash loses nothing.
        """
        now = self.now()
        unfinished = await self.store.live_matches()
        records = [r for r in unfinished if only is None or only(r)]
        rows: dict[int | None, list[TimerRecord]] = {}
        for row in await self.store.timers():
            rows.setdefault(row.match_id, []).append(row)
        beats = [r for r in rows.get(None, []) if r.kind == HEARTBEAT_TIMER]
        await self.heartbeat.restart(now, beats, unfinished)
        # Before anything is said: the messages posted before the crash that must go are found
        # (or their intents dropped), and those whose time has passed go now.
        await self._settle_messages(now, [r for group in rows.values() for r in group if r.kind == DELETE_TIMER])
        resumed: list[int] = []
        semaphore = asyncio.Semaphore(8 if self.store.dialect == "postgresql" else 1)

        async def one(record: MatchRecord) -> None:
            async with semaphore:
                try:
                    await self._recover_one(record, now, rows.get(record.id, []), boards)
                    resumed.append(record.id)
                    self.cache.let_go(record.id)  # a clock that ran out before the outage ended it
                except Exception:
                    log.exception("match %s could not be resumed", record.id)

        await asyncio.gather(*(one(r) for r in records))
        resumed.sort()
        for match_id in resumed:
            self.changed(match_id)
        return resumed

    async def _settle_messages(self, now: float, deletions: Sequence[TimerRecord]) -> None:
        """At a restart: finish or undo every intent of a timed message left open by the crash
        (:meth:`_settle_intent`), delete now every posted message whose time has passed (with
        its timer rows), and give a deletion's timer row to any message still due that lacks one."""
        rows: dict[tuple[int | None, int], list[TimerRecord]] = {}
        for row in deletions:
            if "message_id" in row.payload:
                rows.setdefault((row.payload.get("channel_id"), int(row.payload["message_id"])), []).append(row)
        for message in await self.store.messages_to_delete():
            if message.delete_at is None:
                continue
            message_id = message.message_id
            if message_id is None:
                settled = await self.posted.settle_intent(message)
                if settled is None:
                    continue
                message_id, timer = settled
                if timer is not None:
                    rows.setdefault((message.channel_id, message_id), []).append(timer)
            mine = rows.get((message.channel_id, message_id), [])
            if epoch(message.delete_at) <= now + 0.0005:
                await self.posted.delete_posted(message.channel_id, message_id)
                for row in mine:
                    await self.store.delete_timer(row.id, kind=row.kind, due_at=row.due_at)
            elif not mine:
                await self.store.add_timer(
                    DELETE_TIMER,
                    message.delete_at,
                    match_id=message.match_id,
                    payload={"channel_id": message.channel_id, "message_id": message_id, "row": message.id},
                )
                await self.arming.wake(epoch(message.delete_at))

    async def _recover_one(self, record: MatchRecord, now: float, rows: list[TimerRecord], boards: bool) -> None:
        live = self.cache.from_record(record)
        self.arming.know_rows(live, rows)
        self.cache.hold(live)
        async with live.lock:
            if live.status != MatchStatus.LIVE:
                if boards:
                    await self.announcer.show_board(live, now)
                return  # paused: its clocks are stopped already
            outage, latest = self.heartbeat.give_back(float(live.host.get("saved_at", now)))
            live.clock.give_back(outage)
            window = live.host.get("window")
            # A vanishing window's time is wall time: what it shows stayed on show while the bot
            # was down (its messages go at their time), so it ends when they go. Any other
            # window, like the clocks, gets the outage back.
            vanishing = self.announcer.vanishing(live, window)
            if window and not vanishing:
                window["due"] += outage
            if self.heartbeat.seconds > 0:
                live.snapshot()  # what the row and the ledger together say
            else:
                await self.committer.commit(live, None, now)  # no ledger: the row must say it alone
            await self.arming.arm(live, now)
            over = False
            length = Verbatim(format_duration(int(latest * 1000)))
            away = (
                say("The bot is back after {away}", away=length)
                if self.transport.bot_returns
                else say("Match #{match} is back after {away}", match=live.id, away=length)
            )
            timed = not live.clock.control.untimed
            said = say("{back}; the clocks were stopped meanwhile.", back=away) if timed else say("{back}.", back=away)
            if window and vanishing:
                left = self.announcer.left_said(live, now)
                over = left is None or float(window["due"]) <= now + 0.0005
                if over or left is None:
                    when = say("its time ran out meanwhile, so it closes now")
                else:
                    when = say("it closes in {left}", left=left)
                if timed:
                    said = say(
                        "{back}; the clocks were stopped meanwhile, but not the window's time "
                        "(what it shows stayed on show): {when}.",
                        back=away,
                        when=when,
                    )
                else:
                    said = say(
                        "{back}; the window's time ran on (what it shows stayed on show): {when}.", back=away, when=when
                    )
            back = self.announcer.text(live, said)
            if boards and not over:
                # Apart from the board: a board in a memory window goes when the window closes.
                await self.announcer.post(live, back)
                await self.announcer.show_board(live, now)  # its clock line under it
            else:
                # Whole sentences, one after another.
                await self.announcer.post(live, f"{back} {self.announcer.clock_line(live, now)}".strip())
            if over and window:
                await self.deadlines.window_due(live, {"kind": window["kind"]}, now)
            # A clock that had already run out before the outage still decides.
            await self.deadlines.expire(live, now)
