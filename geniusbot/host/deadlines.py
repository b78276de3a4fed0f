"""Deadlines: the clock and window timers delivered, clock notices, timeouts, windows that close,
and scheduled deletions; every deadline is a timer row in the store (armed by
:class:`~.arming.Arming`; a timed message's deletion kept by :class:`~.posted.TimedMessages`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from geniusbot.games import Event, EventKind
from geniusbot.record import host_action
from geniusbot.storage import (
    ActionKind,
    MatchStatus,
    NewAction,
    StaleVersion,
    StorageUnavailable,
    TimerRecord,
)
from geniusbot.words import Message, Verbatim, say, say_n

from .arming import (
    CLOCK_TIMER as CLOCK_TIMER,
    DELETE_TIMER as DELETE_TIMER,
    HEARTBEAT_TIMER as HEARTBEAT_TIMER,
    WINDOW_TIMER as WINDOW_TIMER,
)
from .clock import Alert, AlertKind, format_duration
from .live import LiveMatch, epoch, timed_out
from .posted import (
    KILL_AT_ENV as KILL_AT_ENV,
    TIMED_MESSAGE as TIMED_MESSAGE,
    kill_point as kill_point,
    message_key as message_key,
)

if TYPE_CHECKING:
    from .announce import Announcer
    from .arming import Arming
    from .cache import MatchCache
    from .committer import Committer
    from .heartbeat import Heartbeat
    from .posted import TimedMessages

log = logging.getLogger(__name__)

#: What the room reads first when a timed window closes because its time ran out (a window
#: closed by hand says so instead; the game's own line is true either way).
TIME_IS_UP_SAID = say("Time is up.")
TIME_IS_UP = TIME_IS_UP_SAID.text  # its English


class Deadlines:
    """Timer rows delivered: clock notices, timeouts, windows, deletions, heartbeats (an object of
    the host's own). ``adopt``: a timer of a match not held in memory loads it (see
    :class:`~geniusbot.host.match.Host`); ``changed(match_id)`` tells the host's subscribers
    that a timer moved a match on."""

    def __init__(
        self,
        now: Callable[[], float],
        cache: MatchCache,
        arming: Arming,
        posted: TimedMessages,
        announcer: Announcer,
        committer: Committer,
        heartbeat: Heartbeat,
        *,
        adopt: bool = True,
        changed: Callable[[int], None],
    ) -> None:
        self.now = now
        self.cache = cache
        self.arming = arming
        self.posted = posted
        self.announcer = announcer
        self.committer = committer
        self.heartbeat = heartbeat
        self.adopt = adopt
        self.changed = changed

    async def on_timer(self, timer: TimerRecord) -> bool:
        """A durable timer fell due: deliver it (see ``_deliver``), let go of a match it ended, and tell
        the subscribers that its match changed (:meth:`~geniusbot.host.match.Host.subscribe`)."""
        try:
            consumed = await self._deliver(timer)
        finally:
            if timer.match_id is not None:
                self.cache.let_go(timer.match_id)
        if timer.match_id is not None:
            self.changed(timer.match_id)  # a clock may have settled a choice whose buttons are up
        return consumed

    async def _deliver(self, timer: TimerRecord) -> bool:
        """A durable timer fell due (the dispatcher calls this; raising means "deliver again").

        Returns ``True`` when the delivered row was deleted here, in the same transaction as
        this delivery's own write (a re-armed clock row, a heartbeat, the commit that ended the
        match), so the dispatcher has nothing to delete; ``False`` leaves that to it.
        """
        if timer.kind == DELETE_TIMER:
            await self.posted.delete_message(timer)
            return False
        if timer.kind == HEARTBEAT_TIMER:
            return await self.heartbeat.beat(delivered=timer)
        if timer.match_id is None:
            return False
        if not self.adopt and self.cache.held(timer.match_id) is None:
            return False
        live, _ = await self.cache.get(timer.match_id)
        if live is None:
            return False
        async with live.lock:
            if timer.kind in live.armed:
                # This row goes with this delivery: it no longer counts as armed.
                live.armed[timer.kind] = [r for r in live.armed[timer.kind] if r[2] != timer.id]
            if live.status != MatchStatus.LIVE:
                return False
            now = self.now()
            live.delivered = timer
            try:
                if timer.kind == CLOCK_TIMER:
                    await self._clock_alert(live, epoch(timer.due_at), now)
                elif timer.kind == WINDOW_TIMER:
                    await self.window_due(live, timer.payload, now, lead=[self.announcer.text(live, TIME_IS_UP_SAID)])
            except (StorageUnavailable, StaleVersion):
                live.restore()
                self.cache.forget(live.id)
                raise  # the dispatcher keeps the row (unless it was replaced) and delivers it again
            except Exception:
                log.exception("match %s: timer %s failed", live.id, timer.kind)
                live.restore()
                raise
            finally:
                consumed, live.delivered = live.delivered is None, None
            return consumed

    async def _clock_alert(self, live: LiveMatch, due: float, now: float) -> None:
        """Post every clock notice due since the delivered row's own time, then apply timeouts.

        The row may fire late, or be a row left over from an earlier alert: the notices are read
        from the clock between the row's due time (or the last notice posted) and now, so none
        is skipped and none is said twice. Several due in one delivery are summed up per seat
        (docs/host.md, "Clock notices").
        """
        # A millisecond of slack: the row's stored time may round below the alert's own.
        since = max(live.alerted, due - 0.001)
        passed = live.clock.passed_alerts(since, now)
        live.alerted = max(live.alerted, now)
        for _, said in self._notices(live, passed, now):
            await self.announcer.post(live, said)
        await self.expire(live, now)
        await self.arming.arm(live, now)

    @staticmethod
    def _notices(live: LiveMatch, passed: Sequence[Alert], now: float) -> list[tuple[float, Message]]:
        """The room's clock notices for the alerts ``passed``, in time order, one per kind and seat.

        A seat whose time has run out by now gets none: its timeout says all there is. Of several
        warnings only the last is true now; several periods become one count.
        """
        notices: list[tuple[float, Message]] = []
        for seat in live.clock.seats:
            if live.clock.expired(seat, now):
                continue
            mine = [a for a in passed if a.seat == seat]
            warnings = [a for a in mine if a.kind == AlertKind.WARNING]
            periods = [a for a in mine if a.kind == AlertKind.PERIOD]
            overtime = [a for a in mine if a.kind == AlertKind.OVERTIME]
            who = live.who(seat)
            if warnings:
                notices.append((warnings[-1].at, say("{seat}: {n} s left.", seat=who, n=warnings[-1].seconds)))
            if periods:
                # Counted just past the last boundary, where that period is (just) spent.
                periods_left = live.clock.remaining(seat, periods[-1].at + 0.001).periods_left or 0
                used = say_n(
                    "{seat}: a period is used up; {left} left.",
                    "{seat}: {n} periods are used up; {left} left.",
                    n=len(periods),
                    seat=who,
                    left=periods_left,
                )
                notices.append((periods[-1].at, used))
            if overtime:
                # The time to the flag, in words: the board's "0:00 +4:55" is not for a sentence.
                left = Verbatim(format_duration(live.clock.remaining(seat, now).total_ms))
                notices.append(
                    (
                        overtime[-1].at,
                        say("{seat}: the move time is up; now on reserve, {left} left.", seat=who, left=left),
                    )
                )
        notices.sort(key=lambda n: n[0])
        return notices

    @staticmethod
    def _run_out(live: LiveMatch, now: float) -> tuple[float, str] | None:
        """The earliest running clock that has run out by ``now`` (deadline, seat), if any."""
        if live.status != MatchStatus.LIVE or live.game.is_over:
            return None
        nxt = live.clock.next_deadline()
        if nxt is None or not live.clock.expired(nxt[1], now):
            return None
        return nxt

    async def expire(self, live: LiveMatch, now: float) -> None:
        """Apply every running clock that has run out, earliest first.

        Each timeout is its own action, committed on its own; when several clocks have run out
        (both seats of a simultaneous phase), their lines are said together and one board
        follows the last, so no board says that a seat whose time is gone is to move.
        """
        lines: list[str] = []  # the room's lines of timeouts applied, not yet said
        timed_out: set[str] = set()  # the seats whose timeout those lines say
        try:
            while (nxt := self._run_out(live, now)) is not None:
                deadline, seat = nxt
                # Charged at the deadline itself: a late timer must not cost the seat extra.
                live.clock.stop(seat, deadline)
                events = live.game.timeout(seat)
                # What follows starts now, when it is said, not at the deadline: a late timer
                # (or a restart) must not charge the lateness to the next seat before it is told.
                # The commit is now's too (the log says the deadline): its ``saved_at`` must not
                # fall inside an outage given back already, or a second crash would give it again.
                self.committer.after_change(live, now, events)
                await self.committer.commit(live, NewAction.of(host_action(ActionKind.TIMEOUT, seat)), now, at=deadline)
                await self.arming.arm(live, now)
                lead, events = self._timeout_words(live, seat, events)
                lines += lead
                timed_out.add(seat)
                if self._run_out(live, now) is None:
                    lead, lines = lines, []
                    await self.announcer.report(live, now, events, lead=lead, timed_out=frozenset(timed_out))
                    timed_out.clear()
                    continue
                # Another clock has run out too: its timeout comes first, then the board.
                said = [e for e in events if e.public and not e.delete_after]
                lines += [self.announcer.say(live, e) for e in said if e.text]
                await self.announcer.announce(live, [e for e in events if e not in said])
        except Exception:
            for text in lines:  # committed: said even if a later timeout could not be
                await self.announcer.post(live, text)
            raise

    def _timeout_words(self, live: LiveMatch, seat: str, events: Iterable[Event]) -> tuple[list[str], list[Event]]:
        """Say a timeout once, with the player's name: the host's line, or the game's own event.

        The game's end that is this timeout (an :attr:`~EventKind.END` event whose outcome is the
        seat's time, "p1 ran out of time; p2 wins.") is left to the result line; the game's
        :attr:`~EventKind.TIMEOUT` event of the seat, which says what follows ("p1 ran out of
        time and plays nothing this phase."), is said instead of the host's line, the seat named as
        the room knows it ("alice (p1) ran out of time and plays nothing this phase."). Either way
        the line is returned as the lead, said first and as it stands (the rest of the event is named).
        """
        ended_by_it = timed_out(live.game.outcome(), seat)
        kept: list[Event] = []
        named: list[str] = []
        for event in events:
            if event.kind == EventKind.END and ended_by_it:
                continue
            if not named and event.public and event.kind == EventKind.TIMEOUT and event.data.get("seat") == seat:
                # The room reads the seat's label there.
                named.append(self.announcer.say(live, event, labelled=seat))
                continue
            kept.append(event)
        return (named or [self.announcer.text(live, say("{seat} ran out of time.", seat=live.who(seat)))]), kept

    async def window_due(
        self, live: LiveMatch, payload: Mapping[str, Any], now: float, *, lead: Sequence[str] = ()
    ) -> None:
        """Close the window whose timer is due; ``lead``: the host's line saying why (a return or a
        resume that finds its time ran out meanwhile has said so already)."""
        window = live.host.get("window")
        if not window or window.get("kind") != payload.get("kind") or now + 0.0005 < float(window["due"]):
            await self.arming.arm(live, now)  # stale or early: the live window (if any) re-arms
            return
        if live.game.window() is None:
            live.host["window"] = None
            await self.arming.arm(live, now)
            return
        events = live.game.close_window()
        self.committer.after_change(live, now, events)
        await self.committer.commit(live, NewAction.of(host_action(ActionKind.WINDOW)), now)
        await self.arming.arm(live, now)
        await self.announcer.report(live, now, events, lead=lead)
