"""The committer: every change of a match committed to the store before it is said, and a commit
whose answer was lost found out later (an object of the host's own, ``host.committer``)."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from geniusbot.games import Event, EventKind, load
from geniusbot.storage import (
    ENDED_STATUSES,
    ActionKind,
    CommitUnknown,
    MatchStatus,
    NewAction,
    Result,
    StaleVersion,
    StorageError,
    StorageUnavailable,
)
from geniusbot.words import Message, Verbatim, say

from .clock import Clock, TimeControl
from .live import LiveMatch, Unconfirmed, utc

if TYPE_CHECKING:
    from geniusbot.storage import Store

    from .announce import Announcer
    from .arming import Arming
    from .cache import MatchCache
    from .transport import CommandNames

log = logging.getLogger(__name__)

#: The pause before the first try to find out whether a commit whose answer was lost landed,
#: doubled after each try that could not tell, up to the second.
CONFIRM_DELAY, CONFIRM_MAX_DELAY = 2.0, 60.0


class Committer:
    """Commits a match's in-memory state (going back to the last commit on any failure), brings
    clocks, window and status in line with the game after it changed, and keeps each commit whose
    answer was lost (:class:`~.live.Unconfirmed`) until the store says whether it landed (rulings
    21 and 23). ``changed(match_id)`` tells the host's subscribers that a match changed with no
    caller waiting on it; ``sleep`` is the pause between tries (see
    :class:`~geniusbot.host.match.Host`)."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        cache: MatchCache,
        arming: Arming,
        announcer: Announcer,
        names: CommandNames,
        *,
        sleep: Callable[[float], Awaitable[None]],
        changed: Callable[[int], None],
        ended: Callable[[int], None] = lambda match_id: None,
    ) -> None:
        self.store = store
        self.now = now
        self.cache = cache
        self.arming = arming
        self.announcer = announcer
        self.names = names
        self.sleep = sleep
        self.changed = changed
        #: Told of each match whose end was just committed (see :meth:`~.match.Host.on_end`).
        self.ended = ended
        #: Per match, the submission or command whose commit may have landed.
        self.unconfirmed: dict[int, Unconfirmed] = {}
        # Per match, the task finding that out.
        self._confirming: dict[int, asyncio.Task[None]] = {}

    async def arm_taken(self, live: LiveMatch, now: float) -> None:
        """Re-arm the timers after a taken move; a store that fails now costs the rows, not the move."""
        try:
            await self.arming.arm(live, now)
        except StorageError as error:
            log.warning("match %s: a taken move's timers could not be armed: %s", live.id, error)

    async def report_taken(self, live: LiveMatch, now: float, events: Iterable[Event], **kwargs: Any) -> None:
        """Announce a taken move (see :meth:`.announce.Announcer.report`); a store that fails now
        costs the rest of the announcement, not the move."""
        try:
            await self.announcer.report(live, now, events, **kwargs)
        except StorageError as error:
            log.warning("match %s: a taken move's announcement could not be finished: %s", live.id, error)

    # ---- a commit whose answer was lost

    def _confirm_later(self, match_id: int) -> None:
        """Find out, in the background, whether the match's unconfirmed submission landed."""
        task = self._confirming.get(match_id)
        if task is None or task.done():
            self._confirming[match_id] = asyncio.get_running_loop().create_task(self._keep_confirming(match_id))

    async def _keep_confirming(self, match_id: int) -> None:
        delay = CONFIRM_DELAY
        try:
            while match_id in self.unconfirmed:
                await self.sleep(delay)
                delay = min(delay * 2, CONFIRM_MAX_DELAY)
                live, _ = await self.cache.get(match_id)
                if live is None:
                    continue  # the store cannot be read yet
                settled = False
                async with live.lock:
                    try:
                        await self.settle(live)
                        settled = True
                    except StorageUnavailable as error:
                        log.info("match %s: whether the last move landed is not known yet: %s", match_id, error)
                    except Exception:
                        log.exception("match %s: finding out whether the last move landed failed", match_id)
                self.cache.let_go(match_id)
                if settled:
                    self.changed(match_id)
        finally:
            if self._confirming.get(match_id) is asyncio.current_task():
                del self._confirming[match_id]

    async def confirmations(self) -> None:
        """Return once every submission whose commit went unanswered is confirmed or refused (tests)."""
        while self._confirming:
            await asyncio.gather(*self._confirming.values())

    async def settle(self, live: LiveMatch) -> bool:
        """Find out whether the match's unconfirmed submission landed, and say so to its player.

        ``True``: it landed; the match is as it left it (with the time it waited given back to
        the clocks that ran meanwhile, since nobody could see it), and it is announced as a taken
        move is. ``False``: it did not (its player is told to send it again), or there was none.
        Raises :class:`StorageUnavailable` while the store cannot tell.
        """
        pending = self.unconfirmed.get(live.id)
        if pending is None:
            return False
        found = await self.store.find_submission(live.id, pending.key)
        del self.unconfirmed[live.id]
        now = self.now()
        if found is None:
            if pending.command:
                command = Verbatim(pending.text)
                if self.names.offers(pending.text):
                    said = say(
                        "The host's {command} was not saved after all, so nothing changed; use {written} again.",
                        command=command,
                        written=Verbatim(self.names.written(pending.text)),
                    )
                else:
                    said = say("The host's {command} was not saved after all, so nothing changed.", command=command)
                await self.announcer.post(live, said)
                return False
            message = say(
                "Your move {move} was not saved after all, so it was not taken; send it again.",
                move=Verbatim(pending.text),
            )
            assert pending.seat is not None
            await self.announcer.answer(live, pending.seat, pending.private, message)
            return False
        if live.version == pending.version:  # still as before it: take the state it committed
            game, clock, host, status = pending.state
            live.game, live.clock, live.host, live.status = load(game), Clock.from_dict(clock), host, status
            live.version = pending.version + 1
        if live.version == pending.version + 1:
            # The clocks that ran meanwhile get the wait back (a paused match's ran none, and
            # its resume gives back the whole pause); a window that is vanishing runs on wall time.
            waited = max(0.0, now - pending.at) if live.status == MatchStatus.LIVE else 0.0
            live.clock.give_back(waited)
            if (window := live.host.get("window")) and not self.announcer.vanishing(live, window):
                live.host["window"] = {**window, "due": float(window["due"]) + waited}
            live.snapshot()  # the next commit writes the time given back
        delivered, live.delivered = live.delivered, None  # not this announcement's row
        try:
            await self.arm_taken(live, now)
        finally:
            live.delivered = delivered
        if pending.command:
            stands = say("The host's {command} was saved after all; it stands.", command=Verbatim(pending.text))
            lead = [self.announcer.text(live, stands), *pending.lines]
            if not pending.events:
                for line in lead:
                    await self.announcer.post(live, line)
                return True
        elif pending.private:
            assert pending.seat is not None
            taken = say("Taken: {move} (it was saved after all).", move=Verbatim(pending.text))
            await self.announcer.private(live, pending.seat, taken)
            lead = []
        else:
            stands = say(
                "{seat}: your move {move} was saved after all; it stands.",
                seat=live.who(pending.seat or ""),
                move=Verbatim(pending.text),
            )
            lead = [self.announcer.text(live, stands)]
        await self.report_taken(live, now, pending.events, lead=lead)
        return True

    @staticmethod
    def pending_what(live: LiveMatch, pending: Unconfirmed) -> Message:
        """What waits to be known saved: "alice (p1)'s last move", "the host's pause"."""
        if pending.command:
            return say("the host's {command}", command=Verbatim(pending.text))
        return say("{seat}'s last move", seat=live.who(pending.seat or ""))

    def after_change(self, live: LiveMatch, now: float, events: Iterable[Event] = ()) -> None:
        """Bring clocks, window and status in line with the game after it changed."""
        for event in events:
            if event.kind != EventKind.BOUT:
                continue
            spec = event.data.get("clock")
            if spec and live.host.get("preset_clock"):
                live.clock.switch(TimeControl.parse(str(spec)))
            else:
                live.clock.reset_reserves()
        window = live.game.window() if not live.game.is_over else None
        if window is not None:
            current = live.host.get("window")
            if not current or current.get("kind") != window.kind:
                live.host["window"] = {"kind": window.kind, "due": now + window.seconds, "vanishing": window.vanishing}
            # While a timed window runs, the window's timer is the only clock.
            live.clock.sync((), now)
        else:
            live.host["window"] = None
            live.clock.sync(() if live.game.is_over else live.game.to_move(), now)
        if live.game.is_over:
            live.status = MatchStatus.FINISHED

    async def commit(
        self,
        live: LiveMatch,
        action: NewAction | None,
        now: float,
        *,
        result: Result | None = None,
        at: float | None = None,
    ) -> None:
        """Commit the in-memory state (and ``action``, logged at ``at``, default ``now``: a late
        timeout is logged at its deadline); on any failure, go back to the last commit.

        While an earlier submission's commit is unconfirmed, its fate comes first: if it landed,
        what the caller decided is stale (:class:`StaleVersion`, after the landed move is said).
        A submission's commit that goes unanswered is kept as :class:`Unconfirmed`.
        """
        if live.id in self.unconfirmed:
            try:
                landed = await self.settle(live)
            except BaseException:
                live.restore()
                raise
            if landed:
                raise StaleVersion(live.id, live.version - 1, live.version)
        live.host["saved_at"] = now
        # Each written once: the commit writes them, and the snapshot keeps the same dicts.
        state, clock = live.game.to_dict(), live.clock.to_dict()
        if action is not None:
            action = NewAction(
                action.kind,
                action.text,
                action.seat,
                action.private,
                clock,
                utc(now if at is None else at),
                action.key,
            )
        outcome = live.game.outcome()
        if result is None and outcome is not None:
            result = Result.of(outcome)
        extra: dict[str, Any] = {}
        if result is not None:
            extra["result"] = result
        # A delivery that ends the match arms nothing after this commit: its row can go with it.
        # (While the match is live, a later write of the delivery re-arms and replaces the row,
        # so a failure between the two still leaves the row to be delivered again.)
        done = live.delivered if live.delivered is not None and live.status != MatchStatus.LIVE else None
        if done is not None:
            extra["done_timer"] = done
        try:
            committed = await self.store.commit_action(
                live.id,
                live.version,
                action,
                state=state,
                clock=clock,
                host=live.host,
                status=live.status,
                **extra,
            )
        except CommitUnknown:
            if action is not None and action.key is not None:
                after = (state, clock, copy.deepcopy(live.host), live.status)
                command = action.kind not in (ActionKind.MOVE, ActionKind.PRIVATE)
                self.unconfirmed[live.id] = Unconfirmed(
                    action.key, action.seat, action.private, action.text, now, live.version, after, command=command
                )
                self._confirm_later(live.id)
            live.restore()
            raise
        except BaseException:
            live.restore()
            raise
        live.version = committed.version
        if done is not None:
            live.delivered = None
        live.snapshot(state, clock)
        if live.status in ENDED_STATUSES:
            self.ended(live.id)
