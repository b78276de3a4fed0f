"""Host commands: pause, resume, abort, resign, close window, status."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from geniusbot.games import Event
from geniusbot.record import host_action
from geniusbot.storage import (
    ENDED_STATUSES,
    ActionKind,
    CommitUnknown,
    DuplicateSubmission,
    MatchStatus,
    NewAction,
    Result,
    StaleVersion,
    StorageUnavailable,
)
from geniusbot.words import Listing, Message, Verbatim, say

from .base import never_raises
from .deadlines import DELETE_TIMER
from .live import LiveMatch, Reply, ReplyStatus

if TYPE_CHECKING:
    from geniusbot.storage import Store

    from .announce import Announcer
    from .arming import Arming
    from .cache import MatchCache
    from .committer import Committer
    from .deadlines import Deadlines
    from .posted import TimedMessages
    from .transport import CommandNames

log = logging.getLogger(__name__)

#: What the caller of a host command is told when the database went away while it was saved.
COMMAND_NOT_KNOWN_YET_SAID = say(
    "The bot lost touch with its database while saving that command, so it does not know yet whether "
    "it was carried out; it will say in the room as soon as the database answers."
)
COMMAND_NOT_KNOWN_YET = COMMAND_NOT_KNOWN_YET_SAID.text  # its English

#: The same command again (a repeated interaction, a line read twice), found in the log taken.
DONE_ALREADY_SAID = say("That command was carried out already; it is not done twice.")
DONE_ALREADY = DONE_ALREADY_SAID.text  # its English

#: What the room reads first when ``close window`` ends a window (not its time running out).
CLOSED_BY_HAND_SAID = say("The window was closed by hand before its time was up.")
CLOSED_BY_HAND = CLOSED_BY_HAND_SAID.text  # its English


class Commands:
    """The host commands, and how the transport's users write them (an object of the host's own).
    ``boards``: a resumed match's board is posted again (see :class:`~geniusbot.host.match.Host`)."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        cache: MatchCache,
        arming: Arming,
        posted: TimedMessages,
        announcer: Announcer,
        committer: Committer,
        deadlines: Deadlines,
        names: CommandNames,
        *,
        boards: bool = True,
    ) -> None:
        self.store = store
        self.now = now
        self.cache = cache
        self.arming = arming
        self.posted = posted
        self.announcer = announcer
        self.committer = committer
        self.deadlines = deadlines
        self.names = names
        self.boards = boards

    @never_raises
    async def command(self, match_id: int, name: str, *, seat: str | None = None, key: str | None = None) -> Reply:
        """A host command: ``pause``, ``resume``, ``abort``, ``resign`` (with ``seat``), ``close window``
        (end the running timed window now), ``status``.

        ``key`` names the command as a submission's key does (``discord:<interaction id>``,
        ``console:<run>:<line>``): the same command is carried out once (again, it is answered as
        done already), and a commit whose answer was lost is found again by it (ruling 23).
        Without one the host makes one up, so that such a commit is still found again."""
        live, reply = await self.cache.get(match_id)
        if live is None:
            return reply
        name = name.strip().lower()
        handlers = {
            "pause": self._pause,
            "resume": self._resume,
            "abort": self._abort,
            "resign": self._resign,
            "close window": self._close_window,
        }
        name = " ".join(name.split())
        if name == "status":
            return Reply(ReplyStatus.ACCEPTED, self.announcer.status_text(live), match_id)
        handler = handlers.get(name)
        if handler is None:
            known = [Verbatim(self.names.written(c)) for c in (*handlers, "status") if self.names.offers(c)]
            if len(known) > 1:
                unknown = say(
                    "There is no command {name}; use {commands} or {last}.",
                    name=Verbatim(repr(name)),
                    commands=Listing(tuple(known[:-1])),
                    last=known[-1],
                )
            else:
                unknown = say("There is no command {name}.", name=Verbatim(repr(name)))
            return self._reply(live, ReplyStatus.ERROR, unknown)
        given = key
        key = key or f"host:{uuid.uuid4().hex}"
        async with live.lock:
            try:
                if match_id in self.committer.unconfirmed:
                    # An earlier commit's fate first: the command is ruled on the match as it is.
                    await self.committer.settle(live)
                if given is not None and await self.store.find_submission(match_id, given) is not None:
                    return self._reply(live, ReplyStatus.REJECTED, DONE_ALREADY_SAID)
                return await handler(live, seat, key)
            except CommitUnknown as error:
                log.warning("match %s: %s", match_id, error)
                if (pending := self.committer.unconfirmed.get(match_id)) is not None and pending.key == key:
                    # Carried out or not, nobody knows yet: say neither, and find out (Committer.settle).
                    return self._reply(live, ReplyStatus.UNAVAILABLE, COMMAND_NOT_KNOWN_YET_SAID)
                live.restore()
                return self._not_saved(live, name, given)
            except DuplicateSubmission:
                live.restore()
                return self._reply(live, ReplyStatus.REJECTED, DONE_ALREADY_SAID)
            except StorageUnavailable as error:
                log.warning("match %s: %s", match_id, error)
                live.restore()
                return self._not_saved(live, name, given)
            except StaleVersion:
                self.cache.forget(match_id)
                changed = say("Match #{id} changed meanwhile; try {again}.", id=match_id, again=self._again(name))
                return self._reply(live, ReplyStatus.UNAVAILABLE, changed)
            except Exception:
                log.exception("match %s: command %s failed", match_id, name)
                live.restore()
                wrong = say(
                    "Something went wrong on the bot's side; nothing changed. Try {again}.", again=self._again(name)
                )
                return self._reply(live, ReplyStatus.ERROR, wrong)

    def _reply(self, live: LiveMatch, status: ReplyStatus, said: Message) -> Reply:
        """A reply that says ``said`` (in the host's language, with the players' names)."""
        return Reply(status, self.announcer.text(live, said), live.id)

    def _again(self, name: str) -> Message:
        """ "/pause again", or "again" where the command has no name the users could write
        (:meth:`~.transport.CommandNames.again`)."""
        if self.names.offers(name):
            return say("{command} again", command=Verbatim(self.names.written(name)))
        return say("again")

    def _not_saved(self, live: LiveMatch, name: str, given: str | None) -> Reply:
        """The answer to a command the store could not take: not known yet if it is the one
        whose commit went unanswered, else nothing changed (and why, if another waits)."""
        pending = self.committer.unconfirmed.get(live.id)
        if pending is not None and pending.key == given:
            return self._reply(live, ReplyStatus.UNAVAILABLE, COMMAND_NOT_KNOWN_YET_SAID)  # its repeat: still not known
        if pending is not None:
            said = say(
                "The bot is still waiting for its database to say whether {what} "
                "was saved, so nothing changed; try {again} once the bot has said.",
                what=self.committer.pending_what(live, pending),
                again=self._again(name),
            )
        else:
            said = say(
                "The bot could not save that, so nothing changed; try {again} in a moment.", again=self._again(name)
            )
        return self._reply(live, ReplyStatus.UNAVAILABLE, said)

    async def _commit_command(
        self,
        live: LiveMatch,
        action: NewAction,
        now: float,
        lines: Iterable[str] = (),
        events: Iterable[Event] = (),
        **kwargs: Any,
    ) -> None:
        """Commit a command's action; if its answer is lost, what it would say (its ``lines`` for
        the room, then its ``events``) is kept with it, said once it is found saved."""
        try:
            await self.committer.commit(live, action, now, **kwargs)
        except CommitUnknown:
            if (pending := self.committer.unconfirmed.get(live.id)) is not None and pending.key == action.key:
                pending.lines, pending.events = list(lines), list(events)
            raise

    def _ended(self, live: LiveMatch) -> Reply | None:
        if live.status in ENDED_STATUSES:
            return self._reply(live, ReplyStatus.ERROR, say("Match #{id} is over already.", id=live.id))
        return None

    async def _pause(self, live: LiveMatch, seat: str | None, key: str) -> Reply:
        if ended := self._ended(live):
            return ended
        if live.status == MatchStatus.PAUSED:
            if self.names.offers("resume"):
                paused = say(
                    "Match #{id} is paused already; use {resume} to go on.",
                    id=live.id,
                    resume=Verbatim(self.names.written("resume")),
                )
            else:
                paused = say("Match #{id} is paused already.", id=live.id)
            return self._reply(live, ReplyStatus.ERROR, paused)
        now = self.now()
        live.clock.pause(now)
        live.status = MatchStatus.PAUSED
        live.host["paused_at"] = now
        vanishing = self.announcer.vanishing(live, live.host.get("window"))
        if live.clock.control.untimed:
            pause = (
                say(
                    "The host paused the match, but not the window's time (what it shows stays on show until its time)."
                )
                if vanishing
                else say("The host paused the match.")
            )
        elif vanishing:
            pause = say(
                "The host paused the match; the clocks are stopped, but not the window's time "
                "(what it shows stays on show until its time)."
            )
        else:
            pause = say("The host paused the match; the clocks are stopped.")
        said = self.announcer.text(live, pause)
        await self._commit_command(live, NewAction(ActionKind.COMMAND, "pause", None, key=key), now, [said])
        await self.arming.arm(live, now)
        await self.announcer.post(live, said)
        return Reply(ReplyStatus.ACCEPTED, "paused", live.id)

    async def _resume(self, live: LiveMatch, seat: str | None, key: str) -> Reply:
        if ended := self._ended(live):
            return ended
        if live.status != MatchStatus.PAUSED:
            return self._reply(
                live, ReplyStatus.ERROR, say("Match #{id} is not paused; it goes on already.", id=live.id)
            )
        now = self.now()
        paused_for = max(0.0, now - float(live.host.pop("paused_at", now)))
        live.clock.resume(now)
        window = live.host.get("window")
        # A vanishing window's time is wall time, a pause's as an outage's (ruling 22): what it
        # shows stayed on show and goes at its time, so the window ends then, or now if that
        # time has passed. Any other window, like the clocks, gets the pause's length back.
        vanishing = self.announcer.vanishing(live, window)
        if window and not vanishing:
            window["due"] += paused_for
        live.status = MatchStatus.LIVE
        over = False
        goes_on = say("The match goes on.")
        if window and vanishing:
            left = self.announcer.left_said(live, now)
            over = left is None or float(window["due"]) <= now + 0.0005
            if over or left is None:
                when = say(
                    "The match goes on; the window's time ran on during the pause (what it shows stayed on show): "
                    "its time ran out meanwhile, so it closes now."
                )
            else:
                when = say(
                    "The match goes on; the window's time ran on during the pause (what it shows stayed on show): "
                    "it closes in {left}.",
                    left=left,
                )
            lines = [when] if over else [when, self.announcer.clock_said(live, now)]
        else:
            lines = [goes_on, self.announcer.clock_said(live, now)]
        # Whole sentences, one after another.
        said = " ".join(self.announcer.text(live, line) for line in lines if line is not None)
        await self._commit_command(live, NewAction(ActionKind.COMMAND, "resume", None, key=key), now, [said])
        await self.arming.arm(live, now)
        if self.boards and not window:
            # The board again, under which its clock line: a paused import, a match paused
            # long ago, is taken up seeing where it stands.
            await self.announcer.show_board(live, now, lead=[self.announcer.text(live, goes_on)])
        else:
            await self.announcer.post(live, said)
        if over and window:
            await self.deadlines.window_due(live, {"kind": window["kind"]}, now)
        return Reply(ReplyStatus.ACCEPTED, "resumed", live.id)

    async def _abort(self, live: LiveMatch, seat: str | None, key: str) -> Reply:
        if ended := self._ended(live):
            return ended
        now = self.now()
        live.clock.sync((), now)
        live.status = MatchStatus.ABORTED
        live.host["window"] = None
        said = self.announcer.text(live, say("The host aborted match #{id}; it has no result.", id=live.id))
        await self._commit_command(
            live,
            NewAction(ActionKind.COMMAND, "abort", None, key=key),
            now,
            [said],
            result=Result(None, "aborted by the host"),
        )
        await self.arming.arm(live, now)
        await self.announcer.post(live, said)
        return Reply(ReplyStatus.ACCEPTED, "aborted", live.id)

    async def _resign(self, live: LiveMatch, seat: str | None, key: str) -> Reply:
        if ended := self._ended(live):
            return ended
        if seat not in live.players:
            seats = Listing(tuple(Verbatim(s) for s in live.players))
            return self._reply(live, ReplyStatus.ERROR, say("Name the seat that resigns: one of {seats}.", seats=seats))
        now = self.now()
        events = live.game.resign(seat)
        self.committer.after_change(live, now, events)
        action = NewAction.of(host_action(ActionKind.RESIGN, seat), key=key)
        await self._commit_command(live, action, now, events=events)
        await self.arming.arm(live, now)
        await self.announcer.report(live, now, events)
        return Reply(ReplyStatus.ACCEPTED, "resigned", live.id)

    async def _close_window(self, live: LiveMatch, seat: str | None, key: str) -> Reply:
        """End the running timed window now, as its timer would (a record's ``host: close window``)."""
        if ended := self._ended(live):
            return ended
        if live.status == MatchStatus.PAUSED:
            if not self.names.offers("resume"):
                paused = say("Match #{id} is paused; its window cannot be closed until it goes on.", id=live.id)
            elif self.names.offers("close window"):
                paused = say(
                    "Match #{id} is paused; use {resume}, then {close}.",
                    id=live.id,
                    resume=Verbatim(self.names.written("resume")),
                    close=Verbatim(self.names.written("close window")),
                )
            else:  # the users have no command for it
                paused = say(
                    "Match #{id} is paused; use {resume}, and its window closes when its time is up.",
                    id=live.id,
                    resume=Verbatim(self.names.written("resume")),
                )
            return self._reply(live, ReplyStatus.ERROR, paused)
        if not live.host.get("window") or live.game.window() is None:
            return self._reply(
                live,
                ReplyStatus.ERROR,
                say("Match #{id} has no timed phase running, so there is no window to close.", id=live.id),
            )
        now = self.now()
        events = live.game.close_window()
        self.committer.after_change(live, now, events)
        action = NewAction.of(host_action(ActionKind.WINDOW), key=key)
        await self._commit_command(live, action, now, events=events)
        await self.arming.arm(live, now)  # the window's own row fires later, finds nothing, and goes
        # What the window showed goes with it now, not at the time it would have run out.
        for row in await self.store.timers(live.id):
            if row.kind == DELETE_TIMER:
                await self.posted.delete_message(row)
                await self.store.delete_timer(row.id, kind=row.kind, due_at=row.due_at)
        await self.announcer.report(live, now, events, lead=[self.announcer.text(live, CLOSED_BY_HAND_SAID)])
        return Reply(ReplyStatus.ACCEPTED, "window closed", live.id)
