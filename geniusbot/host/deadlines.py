"""Deadlines: the clock and window timers, clock notices, timeouts, windows that close, and
scheduled deletions; every deadline is a timer row in the store."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

from geniusbot.games import Event, EventKind
from geniusbot.storage import (
    ActionKind,
    MatchStatus,
    NewAction,
    PostedMessage,
    StaleVersion,
    StorageError,
    StorageUnavailable,
    TimerRecord,
)

from .base import HostBase
from .clock import Alert, AlertKind, format_duration
from .live import LiveMatch, epoch, timed_out, utc
from .transport import KeyedTransport, TextFinder, TransportError, text_digest

log = logging.getLogger(__name__)

#: Timer kinds the host arms.
CLOCK_TIMER, WINDOW_TIMER, DELETE_TIMER, HEARTBEAT_TIMER = "clock", "window", "delete", "heartbeat"

#: The ``messages`` kind of a message the host deletes at a set time.
TIMED_MESSAGE = "timed"

#: What the room reads first when a timed window closes because its time ran out (a window
#: closed by hand says so instead; the game's own line is true either way).
TIME_IS_UP = "Time is up."

#: Test-only: the environment variable naming a boundary at which the process kills itself with
#: SIGKILL, written ``boundary`` or ``boundary:n`` (the n-th time it is reached; default the
#: first). The boundaries are those :func:`kill_point` is called with: ``message-intent`` (a timed
#: message's intent is written, nothing posted yet) and ``message-posted`` (it is posted, its id
#: not yet written). The crash tests use it to hit each gap; a bot never sets it.
KILL_AT_ENV = "GENIUSBOT_TEST_KILL_AT"
_reached: dict[str, int] = {}


def kill_point(boundary: str) -> None:
    """Die here, at once and without cleaning up, if :data:`KILL_AT_ENV` names this boundary
    (and this is the time it asks for). A no-op unless that test-only variable is set."""
    wanted = os.environ.get(KILL_AT_ENV)
    if not wanted:
        return
    name, _, nth = wanted.partition(":")
    if name.strip() != boundary:
        return
    _reached[boundary] = _reached.get(boundary, 0) + 1
    if _reached[boundary] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)


def message_key(row_id: int) -> str:
    """The key a timed message is posted with (:class:`~.transport.KeyedTransport`): its row's
    (short: a transport may carry it in a file's name)."""
    return f"m{row_id}"


class Deadlines(HostBase):
    """Timer rows armed and delivered: clock notices, timeouts, windows, deletions."""

    async def on_timer(self, timer: TimerRecord) -> bool:
        """A durable timer fell due: deliver it (see ``_deliver``), let go of a match it ended, and tell
        the subscribers that its match changed (:meth:`~geniusbot.host.base.HostBase.subscribe`)."""
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
            await self._delete_message(timer)
            return False
        if timer.kind == HEARTBEAT_TIMER:
            return await self._beat(delivered=timer)
        if timer.match_id is None:
            return False
        if not self.adopt and timer.match_id not in self.matches:
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
                    await self._window_due(live, timer.payload, now, lead=[TIME_IS_UP])
            except (StorageUnavailable, StaleVersion):
                live.restore()
                self.matches.pop(live.id, None)
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
        for _, text in self._notices(live, passed, now):
            await self._post(live, text)
        await self._expire(live, now)
        await self._arm(live, now)

    @staticmethod
    def _notices(live: LiveMatch, passed: Sequence[Alert], now: float) -> list[tuple[float, str]]:
        """The room's clock notices for the alerts ``passed``, in time order, one per kind and seat.

        A seat whose time has run out by now gets none: its timeout says all there is. Of several
        warnings only the last is true now; several periods become one count.
        """
        notices: list[tuple[float, str]] = []
        for seat in live.clock.seats:
            if live.clock.expired(seat, now):
                continue
            mine = [a for a in passed if a.seat == seat]
            warnings = [a for a in mine if a.kind == AlertKind.WARNING]
            periods = [a for a in mine if a.kind == AlertKind.PERIOD]
            overtime = [a for a in mine if a.kind == AlertKind.OVERTIME]
            who = live.label(seat)
            if warnings:
                notices.append((warnings[-1].at, f"{who}: {warnings[-1].seconds} s left."))
            if periods:
                # Counted just past the last boundary, where that period is (just) spent.
                periods_left = live.clock.remaining(seat, periods[-1].at + 0.001).periods_left
                used = "a period is used up" if len(periods) == 1 else f"{len(periods)} periods are used up"
                notices.append((periods[-1].at, f"{who}: {used}; {periods_left} left."))
            if overtime:
                # The time to the flag, in words: the board's "0:00 +4:55" is not for a sentence.
                left = format_duration(live.clock.remaining(seat, now).total_ms)
                notices.append((overtime[-1].at, f"{who}: the move time is up; now on reserve, {left} left."))
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

    async def _expire(self, live: LiveMatch, now: float) -> None:
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
                self._after_change(live, now, events)
                await self._commit(live, NewAction(ActionKind.TIMEOUT, f"timeout {seat}", None), now, at=deadline)
                await self._arm(live, now)
                lead, events = self._timeout_words(live, seat, events)
                lines += lead
                timed_out.add(seat)
                if self._run_out(live, now) is None:
                    lead, lines = lines, []
                    await self._report(live, now, events, lead=lead, timed_out=frozenset(timed_out))
                    timed_out.clear()
                    continue
                # Another clock has run out too: its timeout comes first, then the board.
                said = [
                    e for e in events if e.public and not (isinstance(e.data, Mapping) and e.data.get("delete_after"))
                ]
                lines += [live.speak(e.text) for e in said if e.text]
                await self._announce(live, [e for e in events if e not in said])
        except Exception:
            for text in lines:  # committed: said even if a later timeout could not be
                await self._post(live, text)
            raise

    @staticmethod
    def _timeout_words(live: LiveMatch, seat: str, events: Iterable[Event]) -> tuple[list[str], list[Event]]:
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
                # The event begins with the seat: the room reads its label there.
                named.append(live.label(seat) + live.speak(event.text[len(seat) :]))
                continue
            kept.append(event)
        return (named or [f"{live.label(seat)} ran out of time."]), kept

    async def _window_due(
        self, live: LiveMatch, payload: Mapping[str, Any], now: float, *, lead: Sequence[str] = ()
    ) -> None:
        """Close the window whose timer is due; ``lead``: the host's line saying why (a return or a
        resume that finds its time ran out meanwhile has said so already)."""
        window = live.host.get("window")
        if not window or window.get("kind") != payload.get("kind") or now + 0.0005 < float(window["due"]):
            await self._arm(live, now)  # stale or early: the live window (if any) re-arms
            return
        if live.game.window() is None:
            live.host["window"] = None
            await self._arm(live, now)
            return
        events = live.game.close_window()
        self._after_change(live, now, events)
        await self._commit(live, NewAction(ActionKind.WINDOW, "close window", None), now)
        await self._arm(live, now)
        await self._report(live, now, events, lead=lead)

    async def _delete_message(self, timer: TimerRecord) -> None:
        await self._delete_posted(timer.payload.get("channel_id"), int(timer.payload["message_id"]))

    async def _delete_posted(self, channel: int | None, message_id: int) -> None:
        try:
            await self.transport.delete(channel, message_id)
        except TransportError as error:
            log.info("deleting message %s: %s (already gone?)", message_id, error)
        await self.store.mark_message_deleted(channel, message_id)

    async def _post_timed(
        self, live: LiveMatch, delete_at: float, send: Callable[[str], Awaitable[int]], *, text: str | None = None
    ) -> int | None:
        """Post a message that must be gone at ``delete_at`` (epoch seconds): ``send(key)`` posts it.
        A ``text`` message's intent keeps its digest and the time, so that a transport on which a
        text carries no key can still find it (:class:`~.transport.TextFinder`).

        The deletion is durable before the message can exist: its intent (a ``messages`` row with
        no message id) is written first, then the message is posted (with the intent's key), then
        its id and the deletion's timer row are written in one transaction. A crash in between
        leaves an intent, which the restart settles (:meth:`_settle_intent`). If the intent cannot
        be written, nothing is posted: a message whose deletion is not kept must not be shown.
        Raises :class:`TransportError` as the post does.
        """
        try:
            intent = await self.store.add_message(
                live.room,
                None,
                TIMED_MESSAGE,
                match_id=live.id,
                delete_at=utc(delete_at),
                text_digest=None if text is None else text_digest(text),
                intended_at=None if text is None else utc(self.now()),
            )
        except StorageError as error:
            log.warning("match %s: a message to delete later is not posted: %s", live.id, error)
            return None
        kill_point("message-intent")
        try:
            message_id = await send(message_key(intent.id))
        except TransportError:
            await self._settle_intent(intent)  # it may be on show all the same
            raise
        kill_point("message-posted")
        await self.store.fill_message(intent.id, message_id, timer_kind=DELETE_TIMER)
        await self._wake(delete_at)
        return message_id

    async def _settle_intent(self, intent: PostedMessage) -> tuple[int, TimerRecord | None] | None:
        """Finish or undo an intent whose post may or may not have happened: a transport that
        can find its messages by key (:class:`~.transport.KeyedTransport`) is asked; the message
        found gets its id and its deletion's timer row (returned with it), else the intent is
        dropped. ``None`` when nothing was found (or the transport could not be asked: the
        intent then stays open, for the next restart)."""
        found: int | None = None
        if isinstance(self.transport, KeyedTransport):
            try:
                if intent.text_digest is not None and isinstance(self.transport, TextFinder):
                    # A text carries no key here: found by its words, posted after its intent.
                    since = epoch(intent.intended_at) if intent.intended_at is not None else 0.0
                    found = await self.transport.find_posted_text(intent.channel_id, intent.text_digest, since)
                else:
                    found = await self.transport.find_posted(intent.channel_id, message_key(intent.id))
            except TransportError as error:
                log.warning("message intent %s: the transport could not be asked: %s", intent.id, error)
                return None
        if found is None:
            await self.store.drop_message(intent.id)
            return None
        return found, await self.store.fill_message(intent.id, found, timer_kind=DELETE_TIMER)

    @staticmethod
    def _know_rows(live: LiveMatch, rows: Iterable[TimerRecord]) -> None:
        """Learn which clock and window rows exist for the match (after a load)."""
        live.armed = {CLOCK_TIMER: [], WINDOW_TIMER: []}
        gone = live.delivered
        for row in rows:
            if gone is not None and (row.id, row.kind, row.due_at) == (gone.id, gone.kind, gone.due_at):
                continue  # being delivered: it goes with this delivery, it cannot stand for a deadline
            if row.kind in live.armed and row.match_id == live.id:
                live.armed[row.kind].append((epoch(row.due_at), dict(row.payload), row.id))

    async def _arm(self, live: LiveMatch, now: float) -> None:
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
            self._know_rows(live, await self.store.timers(live.id))
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
            await self._wake(added)

    async def _wake(self, due: float) -> None:
        """Tell the dispatcher a timer row due at ``due`` was written (it may need to wake sooner)."""
        if self.wake is None:
            return
        result = self.wake(utc(due))
        if asyncio.iscoroutine(result):
            await result
