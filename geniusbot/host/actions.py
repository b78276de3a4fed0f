"""The action pipeline: a match starts, a submission is taken or refused, every change is
committed before it is announced."""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from geniusbot.games import Event, EventKind, GameError, WrongPlaceError, default_variant, get_game, load, typed
from geniusbot.storage import (
    ENDED_STATUSES,
    ActionKind,
    CommitUnknown,
    DuplicateSubmission,
    MatchStatus,
    NewAction,
    Practice,
    Priority,
    Result,
    RoomBusy,
    SeatInfo,
    StaleVersion,
    StorageError,
    StorageUnavailable,
    at_priority,
)
from geniusbot.storage.errors import StorageFault

from .announce import caller_answers
from .base import HostBase, never_raises
from .clock import Clock, ClockSpecError, TimeControl, preset
from .deadlines import CLOCK_TIMER, WINDOW_TIMER
from .live import LiveMatch, Reply, ReplyStatus, Unconfirmed, utc
from .naming import game_title
from .routing import CHAT_PREFIXES
from .transport import Player

log = logging.getLogger(__name__)

#: The pause before the first try to find out whether a commit whose answer was lost landed,
#: doubled after each try that could not tell, up to the second.
CONFIRM_DELAY, CONFIRM_MAX_DELAY = 2.0, 60.0

#: What a player is told when the database went away while their move was being saved.
NOT_KNOWN_YET = (
    "The bot lost touch with its database while saving that move, so it does not know yet whether "
    "the move was taken; it will say here as soon as the database answers."
)


class Actions(HostBase):
    """Start a match; take or refuse a submission; commit every change before it is said."""

    @never_raises
    @at_priority(Priority.LOW)  # a burst of starts queues behind the moves and the clocks
    async def start_match(
        self,
        game: str,
        *,
        players: Sequence[Player] = (Player("p1"), Player("p2")),
        seed: int | None = None,
        variant: str | None = None,
        options: Mapping[str, str] | None = None,
        clock: str | TimeControl | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        practice: Practice | None = None,
    ) -> Reply:
        """Start a match: validate everything, commit it, announce it. Never raises. ``practice``:
        the seat the practice opponent plays (and its level); nothing private is sent to it."""
        async with self.starting:  # a burst of starts takes its turns, never the loop's whole
            return await self._start(
                game,
                players=players,
                seed=seed,
                variant=variant,
                options=options,
                clock=clock,
                channel_id=channel_id,
                guild_id=guild_id,
                practice=practice,
            )

    async def _start(
        self,
        game: str,
        *,
        players: Sequence[Player],
        seed: int | None,
        variant: str | None,
        options: Mapping[str, str] | None,
        clock: str | TimeControl | None,
        channel_id: int | None,
        guild_id: int | None,
        practice: Practice | None,
    ) -> Reply:
        try:
            cls = get_game(game)
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            instance = cls.new(seed=int(seed), variant=variant or default_variant(game), **dict(options or {}))
            if isinstance(clock, TimeControl):
                control = clock
            elif clock:
                control = TimeControl.parse(clock)
            else:
                control = preset(instance.name, instance.variant)
        except (GameError, ClockSpecError) as error:
            return Reply(ReplyStatus.ERROR, str(error))
        except ValueError as error:
            return Reply(ReplyStatus.ERROR, f"That option is not valid ({error}); check it and start again.")
        seats = {p.seat: p for p in players}
        missing = [s for s in instance.seats if s not in seats]
        if missing:
            return Reply(ReplyStatus.ERROR, f"Name a player for {', '.join(missing)} and start again.")
        now = self.now()
        match_clock = Clock.new(control, instance.seats)
        # A preset clock follows a final match from task to task; a host's own clock stays.
        host_data: dict[str, Any] = {"saved_at": now, "window": None, "preset_clock": not clock}
        # Some games open with an announcement of their own (a timed window, a card draw, the
        # items of a final match); its events set the clocks too (a bout, an item that gives extra time).
        opening: list[Event] = instance.opening_events()
        for event in opening:
            seat = event.data.get("seat")
            if event.kind == EventKind.EXTRA_TIME and seat in match_clock.seats:
                match_clock.add_extra(seat, round(float(event.data["seconds"]) * 1000))
        try:
            record = await self.store.create_match(
                game=instance.name,
                seats=[SeatInfo(s, seats[s].name or s, seats[s].user_id) for s in instance.seats],
                state=instance.to_dict(),
                variant=instance.variant,
                seed=instance.seed,
                options=instance.option_values,
                guild_id=guild_id,
                channel_id=channel_id,
                clock=match_clock.to_dict(),
                host=host_data,
                practice=practice,
            )
        except RoomBusy as error:
            return Reply(ReplyStatus.ERROR, str(error))
        except StorageError as error:
            log.warning("starting a match failed: %s", error)
            return Reply(
                ReplyStatus.UNAVAILABLE, "The match could not be saved, so it has not started; try again in a moment."
            )
        live = LiveMatch(
            record.id,
            guild_id,
            channel_id,
            instance,
            match_clock,
            {s: Player(s, seats[s].user_id, seats[s].name or s) for s in instance.seats},
            record.version,
            MatchStatus.LIVE,
            host_data,
            practice=practice,
        )
        live.snapshot()
        live.armed = {CLOCK_TIMER: [], WINDOW_TIMER: []}
        self.matches[live.id] = live
        async with live.lock:
            self._after_change(live, now, opening)
            try:
                await self._commit(live, NewAction(ActionKind.START, f"start {control.spec()}", None), now)
            except StorageError:
                # The match row exists; its start action did not land. Recovery will pick it up.
                return Reply(
                    ReplyStatus.UNAVAILABLE,
                    "The match was created but could not be started; try again in a moment.",
                    live.id,
                )
            await self.arming.arm(live, now)
            names = " vs ".join(live.label(s) for s in instance.seats)
            heading = f"Match #{live.id}: {game_title(instance)}, {names}. Clock: {control.describe()}."
            # As a move's announcement does: the heading and the game's opening lines ride in the
            # first board's caption, one message (on their own before a text board or a grid
            # that vanishes).
            await self.announcer.report(live, now, opening, lead=[heading])
        return Reply(ReplyStatus.ACCEPTED, "", live.id)

    @never_raises
    async def submit(
        self,
        match_id: int,
        seat: str,
        text: str,
        *,
        private: bool = False,
        key: str | None = None,
        answer: bool = True,
    ) -> Reply:
        """Seat ``seat`` of match ``match_id`` typed ``text`` (privately if ``private``).

        ``key`` names the submission (``discord:<message or interaction id>``, ``console:<run>:<line>``):
        the same submission is taken once (a resend is answered as taken already), and a commit
        whose answer was lost is found again by it. Without one the host makes one up, so any
        move whose commit went unanswered is found again; only a resend is then not recognised.

        ``answer=False``: the caller answers the player with the reply's message itself (a
        button press is answered to its presser alone), so the host posts no refusal.
        """
        live, reply = await self.cache.get(match_id)
        if live is None:
            return reply
        given = key
        key = key or f"host:{uuid.uuid4().hex}"
        async with live.lock, caller_answers(not answer):
            try:
                if match_id in self.unconfirmed:
                    # An earlier move's fate first: this submission is ruled on the match as it is.
                    await self._settle(live)
                return await self._submit(live, seat, typed(text).strip(), private, key)
            except CommitUnknown as error:
                log.warning("match %s: %s", match_id, error)
                if (pending := self.unconfirmed.get(match_id)) is None or pending.key != key:
                    # Unknown is what came before the move (a timeout applied first): the move
                    # itself was never sent, so it was not taken.
                    live.restore()
                    message = "The bot could not save that move, so it was not taken; send it again in a moment."
                    await self.announcer.answer(live, seat, private, message)
                    return Reply(ReplyStatus.UNAVAILABLE, message, match_id)
                # Saved or not, nobody knows yet: say neither, and find out (see _settle).
                await self.announcer.answer(live, seat, private, NOT_KNOWN_YET)
                return Reply(ReplyStatus.UNAVAILABLE, NOT_KNOWN_YET, match_id)
            except DuplicateSubmission:
                live.restore()
                message = "That move was taken already; it is not taken twice."
                await self.announcer.answer(live, seat, private, message)
                return Reply(ReplyStatus.REJECTED, message, match_id)
            except StorageUnavailable as error:
                log.warning("match %s: %s", match_id, error)
                live.restore()
                pending = self.unconfirmed.get(match_id)
                if isinstance(error, StorageFault):  # a full disk, a read-only or damaged file: say so
                    message = error.for_player("that move was not taken")
                elif pending is not None and pending.key == given:
                    message = NOT_KNOWN_YET  # its resend: still not known
                elif pending is not None:
                    message = (
                        f"The bot is still waiting for its database to say whether {self._pending_what(live, pending)} "
                        "was saved, so that was not taken; send it again once the bot has said."
                    )
                else:
                    message = "The bot could not save that move, so it was not taken; send it again in a moment."
                await self.announcer.answer(live, seat, private, message)
                return Reply(ReplyStatus.UNAVAILABLE, message, match_id)
            except StaleVersion:
                # Another process moved this match on; take its state and let the player retry.
                self.matches.pop(match_id, None)
                message = "The match changed while your move was being taken; look at the board and send it again."
                await self.announcer.answer(live, seat, private, message)
                return Reply(ReplyStatus.UNAVAILABLE, message, match_id)
            except Exception:
                log.exception("match %s: submission %r by %s failed", match_id, text, seat)
                live.restore()
                message = "Something went wrong on the bot's side and that move was not taken; send it again."
                await self.announcer.answer(live, seat, private, message)
                return Reply(ReplyStatus.ERROR, message, match_id)

    async def _submit(self, live: LiveMatch, seat: str, text: str, private: bool, key: str) -> Reply:
        if seat not in live.players:
            seats = ", ".join(live.players)
            return Reply(
                ReplyStatus.ERROR, f"{seat!r} is not a seat of match #{live.id}; its seats are {seats}.", live.id
            )
        if not text or (not private and text.startswith(CHAT_PREFIXES)):
            return Reply(ReplyStatus.IGNORED, match_id=live.id)
        if live.status in ENDED_STATUSES:
            if private:
                await self.announcer.answer(live, seat, True, "This match is over; no more moves are taken.")
                return Reply(ReplyStatus.REJECTED, "This match is over; no more moves are taken.", live.id)
            return Reply(ReplyStatus.IGNORED, match_id=live.id)
        now = self.now()
        kind = ActionKind.PRIVATE if private else ActionKind.MOVE
        if live.status == MatchStatus.PAUSED:
            message = "The match is paused; wait for the host to resume it, then send your move again."
            await self._log_rejected(live, seat, kind, text, private, message, now, key)
            await self.announcer.answer(live, seat, private, message)
            return Reply(ReplyStatus.REJECTED, message, live.id)
        # A clock that ran out before this message arrived decides first, even if its timer is late.
        await self._expire(live, now)
        if live.game.is_over:
            message = "Time ran out before that move arrived; the game is over."
            await self._log_rejected(live, seat, kind, text, private, message, now, key)
            await self.announcer.answer(live, seat, private, message)
            return Reply(ReplyStatus.REJECTED, message, live.id)
        try:
            move = live.game.parse_move(text, seat, private=private)
        except GameError as error:
            # The log keeps the game's reason as it is; the player reads it with the names.
            await self._log_rejected(live, seat, kind, text, private, str(error), now, key)
            message = live.speak(str(error))
            await self.announcer.answer(live, seat, private, message)
            # Where the move belongs, as data (a transport says how its users send it there).
            belongs = error.private if isinstance(error, WrongPlaceError) else None
            return Reply(ReplyStatus.REJECTED, message, live.id, belongs_private=belongs)
        events = live.game.play(move)
        live.clock.stop(seat, now)
        self._after_change(live, now, events)
        # The board depends only on the new state: draw it while the commit runs, and post it
        # only once the commit has succeeded (a failed commit drops it unseen).
        drawing = self.announcer.draw_board(live, now)
        # One acknowledgement a private move: the game's own echo of it ("Sealed: play 15.", "Your
        # mines are on ...") goes unsent, the host's "Taken:" says the same.
        if private:
            events = [e for e in events if not (e.seats == frozenset({seat}) and e.kind == EventKind.SEALED)]
        try:
            await self._commit(live, NewAction(kind, move.text(), seat, private, key=key), now)
        except BaseException:
            self.announcer.drop(drawing)
            if (pending := self.unconfirmed.get(live.id)) is not None and pending.key == key:
                pending.events = events  # said if it turns out to have landed
            raise
        # Taken: whatever fails from here on, the move stands and is never said to be "not taken".
        await self._arm_taken(live, now)
        if private:
            await self.announcer.private(live, seat, f"Taken: {move.text()}.")
        await self._report_taken(live, now, events, drawing=drawing)
        return Reply(ReplyStatus.ACCEPTED, move.text(), live.id)

    async def _arm_taken(self, live: LiveMatch, now: float) -> None:
        """Re-arm the timers after a taken move; a store that fails now costs the rows, not the move."""
        try:
            await self.arming.arm(live, now)
        except StorageError as error:
            log.warning("match %s: a taken move's timers could not be armed: %s", live.id, error)

    async def _report_taken(self, live: LiveMatch, now: float, events: Iterable[Event], **kwargs: Any) -> None:
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
                        await self._settle(live)
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

    async def _settle(self, live: LiveMatch) -> bool:
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
                again = f"; use {self.names.written(pending.text)} again" if self.names.offers(pending.text) else ""
                await self.announcer.post(
                    live, f"The host's {pending.text} was not saved after all, so nothing changed{again}."
                )
                return False
            message = f"Your move {pending.text} was not saved after all, so it was not taken; send it again."
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
            await self._arm_taken(live, now)
        finally:
            live.delivered = delivered
        if pending.command:
            lead = [f"The host's {pending.text} was saved after all; it stands.", *pending.lines]
            if not pending.events:
                for line in lead:
                    await self.announcer.post(live, line)
                return True
        elif pending.private:
            assert pending.seat is not None
            await self.announcer.private(live, pending.seat, f"Taken: {pending.text} (it was saved after all).")
            lead = []
        else:
            lead = [f"{live.label(pending.seat or '')}: your move {pending.text} was saved after all; it stands."]
        await self._report_taken(live, now, pending.events, lead=lead)
        return True

    @staticmethod
    def _pending_what(live: LiveMatch, pending: Unconfirmed) -> str:
        """What waits to be known saved: "alice (p1)'s last move", "the host's pause"."""
        if pending.command:
            return f"the host's {pending.text}"
        return f"{live.label(pending.seat or '')}'s last move"

    def _after_change(self, live: LiveMatch, now: float, events: Iterable[Event] = ()) -> None:
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

    async def _commit(
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
                landed = await self._settle(live)
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

    async def _log_rejected(
        self, live: LiveMatch, seat: str, kind: str, text: str, private: bool, reason: str, now: float, key: str
    ) -> None:
        try:
            await self.store.append_rejected(
                live.id, NewAction(kind, text, seat, private, live.clock.to_dict(), utc(now), key), reason
            )
        except DuplicateSubmission:
            raise  # a resend of a taken move: answered as such, not refused
        except StorageError as error:
            # The answer still goes out; a refused submission changed nothing worth keeping.
            log.warning("match %s: could not log a refused submission: %s", live.id, error)
