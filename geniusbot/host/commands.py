"""Host commands: pause, resume, abort, resign, close window, status."""

from __future__ import annotations

import logging

from geniusbot.storage import (
    ENDED_STATUSES,
    ActionKind,
    MatchStatus,
    NewAction,
    Result,
    StaleVersion,
    StorageUnavailable,
)

from .base import HostBase, never_raises
from .deadlines import DELETE_TIMER
from .live import LiveMatch, Reply, ReplyStatus

log = logging.getLogger(__name__)


class Commands(HostBase):
    """The host commands, and how the transport's users write them."""

    @never_raises
    async def command(self, match_id: int, name: str, *, seat: str | None = None) -> Reply:
        """A host command: ``pause``, ``resume``, ``abort``, ``resign`` (with ``seat``), ``close window``
        (end the running timed window now), ``status``."""
        live, reply = await self._get(match_id)
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
            return Reply(ReplyStatus.ACCEPTED, self.status_text(live), match_id)
        handler = handlers.get(name)
        if handler is None:
            known = [self._command(c) for c in (*handlers, "status") if self._offers(c)]
            listing = f"; use {', '.join(known[:-1])} or {known[-1]}" if len(known) > 1 else ""
            return Reply(ReplyStatus.ERROR, f"There is no command {name!r}{listing}.", match_id)
        async with live.lock:
            try:
                return await handler(live, seat)
            except StorageUnavailable as error:
                log.warning("match %s: %s", match_id, error)
                live.restore()
                return Reply(
                    ReplyStatus.UNAVAILABLE,
                    f"The bot could not save that, so nothing changed; try {self._again(name)} in a moment.",
                    match_id,
                )
            except StaleVersion:
                self.matches.pop(match_id, None)
                return Reply(
                    ReplyStatus.UNAVAILABLE, f"Match #{match_id} changed meanwhile; try {self._again(name)}.", match_id
                )
            except Exception:
                log.exception("match %s: command %s failed", match_id, name)
                live.restore()
                return Reply(
                    ReplyStatus.ERROR,
                    f"Something went wrong on the bot's side; nothing changed. Try {self._again(name)}.",
                    match_id,
                )

    def _offers(self, name: str) -> bool:
        """Whether the transport's users can write the host command ``name``: a transport's
        ``commands`` names those it has (Discord: its slash commands, so no ``close window``);
        without it, every host command (the console)."""
        commands = getattr(self.transport, "commands", None)
        return commands is None or name in commands

    def _command(self, name: str) -> str:
        """A host command as the transport's users write it: "/resume" on Discord, "resume" on the console.
        Name only a command the transport offers (:meth:`_offers`)."""
        return f"{getattr(self.transport, 'command_prefix', '')}{name}"

    def _again(self, name: str) -> str:
        """ "/pause again", or "again" where the command has no name the users could write."""
        return f"{self._command(name)} again" if self._offers(name) else "again"

    def _ended(self, live: LiveMatch) -> Reply | None:
        if live.status in ENDED_STATUSES:
            return Reply(ReplyStatus.ERROR, f"Match #{live.id} is over already.", live.id)
        return None

    async def _pause(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        if live.status == MatchStatus.PAUSED:
            go_on = f"; use {self._command('resume')} to go on" if self._offers("resume") else ""
            return Reply(ReplyStatus.ERROR, f"Match #{live.id} is paused already{go_on}.", live.id)
        now = self.now()
        live.clock.pause(now)
        live.status = MatchStatus.PAUSED
        live.host["paused_at"] = now
        await self._commit(live, NewAction(ActionKind.COMMAND, "pause", None), now)
        await self._arm(live, now)
        stopped = "" if live.clock.control.untimed else "; the clocks are stopped"
        if self._vanishing(live, live.host.get("window")):
            stopped += ", but not the window's time (what it shows stays on show until its time)"
        await self._post(live, f"The host paused the match{stopped}.")
        return Reply(ReplyStatus.ACCEPTED, "paused", live.id)

    async def _resume(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        if live.status != MatchStatus.PAUSED:
            return Reply(ReplyStatus.ERROR, f"Match #{live.id} is not paused; it goes on already.", live.id)
        now = self.now()
        paused_for = max(0.0, now - float(live.host.pop("paused_at", now)))
        live.clock.resume(now)
        window = live.host.get("window")
        # A vanishing window's time is wall time, a pause's as an outage's (ruling 22): what it
        # shows stayed on show and goes at its time, so the window ends then, or now if that
        # time has passed. Any other window, like the clocks, gets the pause's length back.
        vanishing = self._vanishing(live, window)
        if window and not vanishing:
            window["due"] += paused_for
        live.status = MatchStatus.LIVE
        await self._commit(live, NewAction(ActionKind.COMMAND, "resume", None), now)
        await self._arm(live, now)
        if not (window and vanishing):
            await self._post(live, f"The match goes on. {self.clock_line(live, now)}".strip())
            return Reply(ReplyStatus.ACCEPTED, "resumed", live.id)
        left = self._window_left(live, now)
        over = left is None or float(window["due"]) <= now + 0.0005
        when = "its time ran out meanwhile, so it closes now" if over else f"it closes in {left}"
        said = f"The match goes on; the window's time ran on during the pause (what it shows stayed on show): {when}."
        await self._post(live, f"{said} {'' if over else self.clock_line(live, now)}".strip())
        if over:
            await self._window_due(live, {"kind": window["kind"]}, now)
        return Reply(ReplyStatus.ACCEPTED, "resumed", live.id)

    async def _abort(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        now = self.now()
        live.clock.sync((), now)
        live.status = MatchStatus.ABORTED
        live.host["window"] = None
        await self._commit(
            live, NewAction(ActionKind.COMMAND, "abort", None), now, result=Result(None, "aborted by the host")
        )
        await self._arm(live, now)
        await self._post(live, f"The host aborted match #{live.id}; it has no result.")
        return Reply(ReplyStatus.ACCEPTED, "aborted", live.id)

    async def _resign(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        if seat not in live.players:
            return Reply(ReplyStatus.ERROR, f"Name the seat that resigns: one of {', '.join(live.players)}.", live.id)
        now = self.now()
        events = live.game.resign(seat)
        self._after_change(live, now, events)
        await self._commit(live, NewAction(ActionKind.RESIGN, "resign", seat), now)
        await self._arm(live, now)
        await self._report(live, now, events)
        return Reply(ReplyStatus.ACCEPTED, "resigned", live.id)

    async def _close_window(self, live: LiveMatch, seat: str | None) -> Reply:
        """End the running timed window now, as its timer would (a record's ``host: close window``)."""
        if ended := self._ended(live):
            return ended
        if live.status == MatchStatus.PAUSED:
            if not self._offers("resume"):
                return Reply(
                    ReplyStatus.ERROR,
                    f"Match #{live.id} is paused; its window cannot be closed until it goes on.",
                    live.id,
                )
            then = (
                f"then {self._command('close window')}"
                if self._offers("close window")
                else "and its window closes when its time is up"  # the users have no command for it
            )
            return Reply(
                ReplyStatus.ERROR, f"Match #{live.id} is paused; use {self._command('resume')}, {then}.", live.id
            )
        if not live.host.get("window") or live.game.window() is None:
            return Reply(
                ReplyStatus.ERROR,
                f"Match #{live.id} has no timed phase running, so there is no window to close.",
                live.id,
            )
        now = self.now()
        events = live.game.close_window()
        self._after_change(live, now, events)
        await self._commit(live, NewAction(ActionKind.WINDOW, "close window", None), now)
        await self._arm(live, now)  # the window's own row fires later, finds nothing, and goes
        # What the window showed goes with it now, not at the time it would have run out.
        for row in await self.store.timers(live.id):
            if row.kind == DELETE_TIMER:
                await self._delete_message(row)
                await self.store.delete_timer(row.id, kind=row.kind, due_at=row.due_at)
        await self._report(live, now, events)
        return Reply(ReplyStatus.ACCEPTED, "window closed", live.id)
