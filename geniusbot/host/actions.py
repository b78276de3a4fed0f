"""The action pipeline: a match starts, a submission is taken or refused; every change is
committed (by :mod:`.committer`) before it is announced (an object of the host's own, ``host.actions``)."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import uuid
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

from geniusbot.games import Event, EventKind, GameError, WrongPlaceError, default_variant, get_game, typed
from geniusbot.storage import (
    ENDED_STATUSES,
    ActionKind,
    CommitUnknown,
    DuplicateSubmission,
    MatchStatus,
    NewAction,
    Practice,
    Priority,
    RoomBusy,
    SeatInfo,
    StaleVersion,
    StorageError,
    StorageUnavailable,
    at_priority,
)
from geniusbot.storage.errors import StorageFault
from geniusbot.words import Listing, Message, Verbatim, Words, say

from .announce import caller_answers
from .base import never_raises
from .clock import Clock, ClockSpecError, TimeControl, preset
from .deadlines import CLOCK_TIMER, WINDOW_TIMER
from .live import LiveMatch, Reply, ReplyStatus, utc
from .naming import game_title
from .routing import CHAT_PREFIXES
from .transport import Player

if TYPE_CHECKING:
    from geniusbot.storage import Store

    from .announce import Announcer
    from .arming import Arming
    from .cache import MatchCache
    from .committer import Committer
    from .deadlines import Deadlines

log = logging.getLogger(__name__)

#: What a player is told when the database went away while their move was being saved.
NOT_KNOWN_YET_SAID = say(
    "The bot lost touch with its database while saving that move, so it does not know yet whether "
    "the move was taken; it will say here as soon as the database answers."
)
NOT_KNOWN_YET = NOT_KNOWN_YET_SAID.text  # its English
#: What a player is told when a move could not be saved.
NOT_SAVED = say("The bot could not save that move, so it was not taken; send it again in a moment.")
#: What a player who sends a move to a finished match privately is told.
OVER = say("This match is over; no more moves are taken.")


#: How many matches a host starts at once. A burst of starts (2,000 at once) would otherwise run
#: every start's first stretch of work, up to its first wait, in one turn of the event loop: a
#: second or more in which no timer is delivered and no move is taken. Behind the gate a waiting
#: start costs one future, and the starts let in take their turns with the clocks'.
STARTS_AT_ONCE = 8


_P = ParamSpec("_P")


def _gated(
    method: Callable[Concatenate[Actions, _P], Coroutine[Any, Any, Reply]],
) -> Callable[Concatenate[Actions, _P], Coroutine[Any, Any, Reply]]:
    """The call waits at the actions' gate (:attr:`Actions.starting`) before doing any work."""

    @functools.wraps(method)
    async def gated(self: Actions, /, *args: _P.args, **kwargs: _P.kwargs) -> Reply:
        async with self.starting:
            return await method(self, *args, **kwargs)

    return gated


class Actions:
    """Start a match; take or refuse a submission (an object of the host's own; each change is
    committed by the committer before it is said). At most ``starts_at_once`` matches are being
    started at once; the other starts wait their turn before doing any work."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        cache: MatchCache,
        arming: Arming,
        announcer: Announcer,
        committer: Committer,
        deadlines: Deadlines,
        starts_at_once: int = STARTS_AT_ONCE,
    ) -> None:
        self.starting = asyncio.Semaphore(starts_at_once)
        self.store = store
        self.now = now
        self.cache = cache
        self.arming = arming
        self.announcer = announcer
        self.committer = committer
        self.deadlines = deadlines

    @never_raises
    @at_priority(Priority.LOW)  # a burst of starts queues behind the moves and the clocks
    @_gated  # and takes its turns, never the loop's whole
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
        language: str | None = None,
        rated: bool = False,
        spectators: Mapping[str, int] | None = None,
    ) -> Reply:
        """Start a match: validate everything, commit it, announce it. Never raises. ``practice``:
        the seat the practice opponent plays (and its level); nothing private is sent to it.
        ``language``: the one the match speaks from its start to its end, its refusals here
        included (kept with it; ``None``: the host's). ``rated``: the match's end moves its
        players' ratings (never a practice match's). ``spectators``: its spectators' room
        (``room``) and who started it (``host``), see :mod:`.spectators`."""
        said = functools.partial(self._text, language=language)
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
            # A refusal of the game's or of the clock's: its message where it is words as data.
            return Reply(ReplyStatus.ERROR, said(error.said) if error.said is not None else str(error))
        except ValueError as error:
            refused = say("That option is not valid ({error}); check it and start again.", error=Verbatim(str(error)))
            return Reply(ReplyStatus.ERROR, said(refused))
        seats = {p.seat: p for p in players}
        missing = [s for s in instance.seats if s not in seats]
        if missing:
            named = Listing(tuple(Verbatim(s) for s in missing))
            return Reply(ReplyStatus.ERROR, said(say("Name a player for {seats} and start again.", seats=named)))
        now = self.now()
        match_clock = Clock.new(control, instance.seats)
        # A preset clock follows a final match from task to task; a host's own clock stays.
        host_data: dict[str, Any] = {"saved_at": now, "window": None, "preset_clock": not clock}
        if spectators:
            host_data["spectators"] = dict(spectators)
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
                language=language,
                rated=rated and practice is None,
            )
        except RoomBusy as error:
            return Reply(ReplyStatus.ERROR, said(error.said))
        except StorageError as error:
            log.warning("starting a match failed: %s", error)
            return Reply(
                ReplyStatus.UNAVAILABLE,
                said(say("The match could not be saved, so it has not started; try again in a moment.")),
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
            language=language,
        )
        live.snapshot()
        live.armed = {CLOCK_TIMER: [], WINDOW_TIMER: []}
        self.cache.hold(live)
        async with live.lock:
            self.committer.after_change(live, now, opening)
            try:
                await self.committer.commit(live, NewAction(ActionKind.START, f"start {control.spec()}", None), now)
            except StorageError:
                # The match row exists; its start action did not land. Recovery will pick it up.
                return Reply(
                    ReplyStatus.UNAVAILABLE,
                    said(say("The match was created but could not be started; try again in a moment.")),
                    live.id,
                )
            await self.arming.arm(live, now)
            heading = self.announcer.text(
                live,
                say(
                    "Match #{id}: {game}, {players}. Clock: {clock}.",
                    id=live.id,
                    game=Verbatim(game_title(instance)),
                    players=versus([live.who(s) for s in instance.seats]),
                    clock=control.described(),
                ),
            )
            # As a move's announcement does: the heading and the game's opening lines ride in the
            # first board's caption, one message (on their own before a text board or a grid
            # that vanishes).
            await self.announcer.report(live, now, opening, lead=[heading])
        return Reply(ReplyStatus.ACCEPTED, "", live.id)

    def _text(self, message: Message, language: str | None = None) -> str:
        """``message`` in ``language`` (the host's by default), for a reply that no match's players read yet."""
        return Words(language or self.announcer.language)(message)

    async def _refuse(
        self, live: LiveMatch, seat: str, private: bool, said: Message, status: ReplyStatus = ReplyStatus.UNAVAILABLE
    ) -> Reply:
        """Answer ``seat`` with ``said`` and reply so (its text in the host's language)."""
        await self.announcer.answer(live, seat, private, said)
        return Reply(status, self.announcer.text(live, said), live.id)

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
                if match_id in self.committer.unconfirmed:
                    # An earlier move's fate first: this submission is ruled on the match as it is.
                    await self.committer.settle(live)
                return await self._submit(live, seat, typed(text).strip(), private, key)
            except CommitUnknown as error:
                log.warning("match %s: %s", match_id, error)
                if (pending := self.committer.unconfirmed.get(match_id)) is None or pending.key != key:
                    # Unknown is what came before the move (a timeout applied first): the move
                    # itself was never sent, so it was not taken.
                    live.restore()
                    return await self._refuse(live, seat, private, NOT_SAVED)
                # Saved or not, nobody knows yet: say neither, and find out (see Committer.settle).
                return await self._refuse(live, seat, private, NOT_KNOWN_YET_SAID)
            except DuplicateSubmission:
                live.restore()
                taken = say("That move was taken already; it is not taken twice.")
                return await self._refuse(live, seat, private, taken, ReplyStatus.REJECTED)
            except StorageUnavailable as error:
                log.warning("match %s: %s", match_id, error)
                live.restore()
                pending = self.committer.unconfirmed.get(match_id)
                said: Message
                if isinstance(error, StorageFault):  # a full disk, a read-only or damaged file: say so
                    said = error.told(say("That move was not taken"))
                elif pending is not None and pending.key == given:
                    said = NOT_KNOWN_YET_SAID  # its resend: still not known
                elif pending is not None:
                    said = say(
                        "The bot is still waiting for its database to say whether {what} "
                        "was saved, so that was not taken; send it again once the bot has said.",
                        what=self.committer.pending_what(live, pending),
                    )
                else:
                    said = NOT_SAVED
                return await self._refuse(live, seat, private, said)
            except StaleVersion:
                # Another process moved this match on; take its state and let the player retry.
                self.cache.forget(match_id)
                changed = say("The match changed while your move was being taken; look at the board and send it again.")
                return await self._refuse(live, seat, private, changed)
            except Exception:
                log.exception("match %s: submission %r by %s failed", match_id, text, seat)
                live.restore()
                wrong = say("Something went wrong on the bot's side and that move was not taken; send it again.")
                return await self._refuse(live, seat, private, wrong, ReplyStatus.ERROR)

    async def _submit(self, live: LiveMatch, seat: str, text: str, private: bool, key: str) -> Reply:
        if seat not in live.players:
            seats = Listing(tuple(Verbatim(s) for s in live.players))
            refused = say(
                "{seat} is not a seat of match #{id}; its seats are {seats}.",
                seat=Verbatim(repr(seat)),
                id=live.id,
                seats=seats,
            )
            return Reply(ReplyStatus.ERROR, self.announcer.text(live, refused), live.id)
        if not text or (not private and text.startswith(CHAT_PREFIXES)):
            return Reply(ReplyStatus.IGNORED, match_id=live.id)
        if live.status in ENDED_STATUSES:
            if private:
                return await self._refuse(live, seat, True, OVER, ReplyStatus.REJECTED)
            return Reply(ReplyStatus.IGNORED, match_id=live.id)
        now = self.now()
        kind = ActionKind.PRIVATE if private else ActionKind.MOVE
        if live.status == MatchStatus.PAUSED:
            said = say("The match is paused; wait for the host to resume it, then send your move again.")
            # The log keeps the host's reason in English (the store's words are the seat ids').
            await self._log_rejected(live, seat, kind, text, private, said.text, now, key)
            return await self._refuse(live, seat, private, said, ReplyStatus.REJECTED)
        # A clock that ran out before this message arrived decides first, even if its timer is late.
        await self.deadlines.expire(live, now)
        if live.game.is_over:
            said = say("Time ran out before that move arrived; the game is over.")
            await self._log_rejected(live, seat, kind, text, private, said.text, now, key)
            return await self._refuse(live, seat, private, said, ReplyStatus.REJECTED)
        try:
            move = live.game.parse_move(text, seat, private=private)
        except GameError as error:
            # The log keeps the game's reason as it is; the player reads its message (a refusal of
            # plain English, a game's not made of words as data, is said as it is).
            await self._log_rejected(live, seat, kind, text, private, str(error), now, key)
            refusal: str | Message = error.said if error.said else str(error)
            message = self.announcer.text(live, refusal) if isinstance(refusal, Message) else refusal
            await self.announcer.answer(live, seat, private, refusal)
            # Where the move belongs, as data (a transport says how its users send it there).
            belongs = error.private if isinstance(error, WrongPlaceError) else None
            return Reply(ReplyStatus.REJECTED, message, live.id, belongs_private=belongs)
        events = live.game.play(move)
        live.clock.stop(seat, now)
        self.committer.after_change(live, now, events)
        # The board depends only on the new state: draw it while the commit runs, and post it
        # only once the commit has succeeded (a failed commit drops it unseen).
        drawing = self.announcer.draw_board(live, now)
        # One acknowledgement a private move: the game's own echo of it ("Sealed: play 15.", "Your
        # mines are on ...") goes unsent, the host's "Taken:" says the same.
        if private:
            events = [e for e in events if not (e.seats == frozenset({seat}) and e.kind == EventKind.SEALED)]
        try:
            await self.committer.commit(live, NewAction(kind, move.text(), seat, private, key=key), now)
        except BaseException:
            self.announcer.drop(drawing)
            if (pending := self.committer.unconfirmed.get(live.id)) is not None and pending.key == key:
                pending.events = events  # said if it turns out to have landed
            raise
        # Taken: whatever fails from here on, the move stands and is never said to be "not taken".
        await self.committer.arm_taken(live, now)
        if private:
            await self.announcer.private(live, seat, say("Taken: {move}.", move=Verbatim(move.text())))
        await self.committer.report_taken(live, now, events, drawing=drawing)
        return Reply(ReplyStatus.ACCEPTED, move.text(), live.id)

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


def versus(seats: Sequence[Verbatim]) -> Verbatim | Message:
    """The players of a match in a row, as a match's heading names them ("alice (p1) vs bob (p2)")."""
    if len(seats) == 1:
        return seats[0]
    return say("{first} vs {rest}", first=seats[0], rest=versus(seats[1:]))
