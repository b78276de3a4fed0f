"""The match host: one match's life, from its start to its result, through anything.

The host receives what happens in the outside world (a seat typed something in the room, a seat
sent something privately, a host command, a timer fell due) and answers through a
:class:`~geniusbot.host.transport.Transport`. Its promises:

* One match's inputs are handled one at a time (an :class:`asyncio.Lock` per match).
* The first legal submission of a seat to move is taken; an illegal one is answered with the
  game's reason, logged with it, and the turn stands. A refused submission changes nothing.
* An action is committed to the store BEFORE anything about it is announced, so nothing
  acknowledged is ever lost; if the commit fails, the in-memory match goes back to the last
  committed snapshot and the player is told to send the move again.
* Public events go to the room; private events and views go only to the seats they name.
* Every deadline (the next clock alert, a timed window, a scheduled deletion) is a timer row in
  the store, re-armed after each action, so it survives a restart.
* Clocks stop while the bot is down: :meth:`Host.recover` gives the outage back.
* No input, however bad, raises out of the public entry points: each returns a :class:`Reply`.

See ``docs/host.md`` for the contract with transports and the rulings.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from geniusbot.games import Event, EventKind, Game, GameError, default_variant, get_game, load
from geniusbot.storage import (
    MatchNotFound,
    MatchRecord,
    NewAction,
    Result,
    RoomBusy,
    SeatInfo,
    StaleVersion,
    StorageError,
    StorageUnavailable,
    Store,
    TimerRecord,
)

from . import board
from .clock import Alert, Clock, ClockSpecError, TimeControl, format_duration, preset
from .naming import game_title, name_seats
from .transport import Player, Transport, TransportError

log = logging.getLogger(__name__)

#: Room messages that start with one of these are table talk, never a submission.
CHAT_PREFIXES: tuple[str, ...] = ("#", "//", "(")
#: Timer kinds the host arms.
CLOCK_TIMER, WINDOW_TIMER, DELETE_TIMER, HEARTBEAT_TIMER = "clock", "window", "delete", "heartbeat"
#: How often a running host notes that it is alive (bounds the time an outage may give back).
HEARTBEAT_SECONDS = 5.0
#: Outages the heartbeat ledger keeps for matches that have not committed since (the newest).
MAX_OUTAGES = 50


def takes_private_moves(game_name: str) -> bool:
    """Whether the game ``game_name`` takes private submissions (it says which moves are private)."""
    try:
        cls = get_game(game_name)
    except GameError:
        return False
    return cls.takes_private_moves()


def utc(seconds: float) -> datetime:
    """Epoch seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)


def epoch(moment: datetime) -> float:
    """An aware datetime as epoch seconds."""
    return moment.timestamp()


def _never_raises(method: Callable[..., Awaitable[Reply]]) -> Callable[..., Awaitable[Reply]]:
    """A public entry point answers every input; a bug is logged, never raised into the loop."""

    @functools.wraps(method)
    async def wrapper(self: Host, *args: Any, **kwargs: Any) -> Reply:
        try:
            reply = await method(self, *args, **kwargs)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("host: %s%r failed", method.__name__, args)
            return Reply("error", "Something went wrong on the bot's side; nothing changed. Try again in a moment.")
        if reply.match_id is not None:
            self._let_go(reply.match_id)  # its end (if this was it) is announced by now
        return reply

    return wrapper


#: The result line of a match the host aborted (it has no result).
ABORTED_RESULT = "Result: none; the host aborted it."


def without_verdict(reason: str, winner: str | None) -> str:
    """A game's reason for a result without a last clause that names the winner again, for the
    line that has just said who wins: "p2 resigned; p1 wins." -> "p2 resigned.", "p1 (black)
    makes five in a row, G8 to K8, and wins." -> "... G8 to K8.". Anything else stands."""
    if winner is None:
        return reason
    pattern = rf"\s*[;,]\s*(?:so\s+|and\s+)?(?:{re.escape(winner)}(?:\s+\([^()]*\))?\s+)?wins\.\s*$"
    trimmed = re.sub(pattern, ".", reason)
    return trimmed if trimmed.strip(" .") else reason


@dataclass(frozen=True)
class Reply:
    """What the host did with an input.

    ``status``: ``accepted``, ``rejected`` (answered with ``message``), ``ignored`` (table talk,
    a non-player, a finished match), ``unavailable`` (the store failed; nothing changed, try
    again), ``error`` (bad input such as an unknown match; ``message`` says what to do).
    """

    status: str
    message: str = ""
    match_id: int | None = None

    @property
    def ok(self) -> bool:
        """Whether the input was taken."""
        return self.status == "accepted"


@dataclass
class LiveMatch:
    """A match the host holds in memory, with the snapshot it last committed."""

    id: int
    guild_id: int | None
    channel_id: int | None
    game: Game
    clock: Clock
    players: dict[str, Player]
    version: int
    status: str
    host: dict[str, Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    saved: tuple[dict[str, Any], dict[str, Any], dict[str, Any], str] | None = None
    # The timer rows the host knows of: kind -> [(due, payload, row id)]; absent = not read yet.
    armed: dict[str, Any] = field(default_factory=dict)
    private_views: dict[str, Any] = field(default_factory=dict)
    # The timer row being delivered, until a write of this delivery deletes it (see on_timer).
    delivered: TimerRecord | None = None
    # Clock notices due up to this moment have been posted (epoch seconds; 0: none since the load).
    alerted: float = 0.0

    @property
    def room(self) -> int | None:
        """The room the match is played in (its channel), ``None`` on the console."""
        return self.channel_id

    def label(self, seat: str) -> str:
        """How the room names a seat: ``Alice (p1)``."""
        player = self.players.get(seat)
        return player.label if player else seat

    def speak(self, text: str) -> str:
        """A game's text (an event, a result, a refusal) as the players read it: seat ids become
        their names ("alice places black on G8."), see :func:`~geniusbot.host.naming.name_seats`.
        Only what goes out is named; the store keeps the seat ids."""
        return name_seats(text, {seat: player.name for seat, player in self.players.items()})

    def snapshot(self) -> None:
        """Remember the current state as the committed one."""
        self.saved = (self.game.to_dict(), self.clock.to_dict(), dict(self.host), self.status)

    def restore(self) -> None:
        """Go back to the last committed state (a commit failed)."""
        if self.saved is None:
            return
        game, clock, host, status = self.saved
        self.game = load(game)
        self.clock = Clock.from_dict(clock)
        self.host = dict(host)
        self.status = status


Renderer = Callable[..., bytes | None]


class Host:
    """Hosts every match of one store, speaking through one transport.

    ``now`` is the time source (epoch seconds); tests and the console inject their own.
    ``wake`` is called with the due time (aware UTC) of each timer row added, so the dispatcher
    wakes by then (a ``wake()`` without arguments, which re-reads the store, also works).
    ``pictures``: post a rendered board when a renderer exists (the text board otherwise);
    ``text_boards``: post the text board as well (the console). ``adopt``: a timer of a match
    this host has not loaded loads it (the bot); false: such timers are left alone (a console
    that resumes one match of a shared file).
    """

    def __init__(
        self,
        store: Store,
        transport: Transport,
        *,
        now: Callable[[], float] = time.time,
        wake: Callable[..., Any] | None = None,
        pictures: bool = True,
        boards: bool = True,
        text_boards: bool = False,
        adopt: bool = True,
        on_picture: Callable[[int, bytes], Awaitable[None] | None] | None = None,
        heartbeat: float = HEARTBEAT_SECONDS,
    ) -> None:
        self.store = store
        self.transport = transport
        self.now = now
        self.wake = wake
        self.pictures = pictures
        self.boards = boards
        self.text_boards = text_boards
        self.adopt = adopt
        self.on_picture = on_picture
        self.heartbeat = heartbeat
        # (down, up) of each outage not yet in every live match's row; see recover().
        self.outages: list[tuple[float, float]] = []
        self.matches: dict[int, LiveMatch] = {}
        self._loading: dict[int, asyncio.Lock] = {}

    # ==================================================================== starting

    @_never_raises
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
    ) -> Reply:
        """Start a match: validate everything, commit it, announce it. Never raises."""
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
            return Reply("error", str(error))
        except ValueError as error:
            return Reply("error", f"That option is not valid ({error}); check it and start again.")
        seats = {p.seat: p for p in players}
        missing = [s for s in instance.seats if s not in seats]
        if missing:
            return Reply("error", f"Name a player for {', '.join(missing)} and start again.")
        now = self.now()
        match_clock = Clock.new(control, instance.seats)
        # A preset clock follows a final match from task to task; a host's own clock stays.
        host_data: dict[str, Any] = {"saved_at": now, "window": None, "preset_clock": not clock}
        # Some games open with an announcement of their own (a memory grid, the prize cards, the
        # items of a final match); its events set the clocks too (a bout, the Clock item).
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
            )
        except RoomBusy as error:
            return Reply("error", str(error))
        except StorageError as error:
            log.warning("starting a match failed: %s", error)
            return Reply("unavailable", "The match could not be saved, so it has not started; try again in a moment.")
        live = LiveMatch(
            record.id,
            guild_id,
            channel_id,
            instance,
            match_clock,
            {s: Player(s, seats[s].user_id, seats[s].name or s) for s in instance.seats},
            record.version,
            "live",
            host_data,
        )
        live.snapshot()
        live.armed = {CLOCK_TIMER: [], WINDOW_TIMER: []}
        self.matches[live.id] = live
        async with live.lock:
            self._after_change(live, now, opening)
            try:
                await self._commit(live, NewAction("command", f"start {control.spec()}", None), now)
            except StorageError:
                # The match row exists; its start action did not land. Recovery will pick it up.
                return Reply(
                    "unavailable", "The match was created but could not be started; try again in a moment.", live.id
                )
            await self._arm(live, now)
            names = " vs ".join(live.label(s) for s in instance.seats)
            heading = f"Match #{live.id}: {game_title(instance)}, {names}. Clock: {control.describe()}."
            # As a move's announcement does: the heading and the game's opening lines ride in the
            # first board's caption, one message (on their own before a text board or a grid
            # that vanishes).
            await self._report(live, now, opening, lead=[heading])
        return Reply("accepted", "", live.id)

    # ==================================================================== inputs

    @_never_raises
    async def room_message(self, channel_id: int, user_id: int, text: str) -> Reply:
        """Someone typed ``text`` in a room: a submission if they hold a seat of its match."""
        try:
            record = await self.store.live_match_in_channel(channel_id)
        except StorageUnavailable as error:
            log.warning("room message lost to storage: %s", error)
            return Reply("unavailable", "The bot cannot read its matches right now; send that again in a moment.")
        if record is None:
            return Reply("ignored")
        seat = record.seat_of(user_id)
        if seat is None:
            return Reply("ignored", match_id=record.id)
        return await self.submit(record.id, seat, text)

    @_never_raises
    async def private_message(self, user_id: int, text: str, match_id: int | None = None) -> Reply:
        """A player sent ``text`` privately; with several live matches, ``match_id`` picks one."""
        try:
            records = await self.store.live_matches_of_user(user_id)
        except StorageUnavailable:
            return Reply("unavailable", "The bot cannot read its matches right now; send that again in a moment.")
        numbered = re.match(r"^\s*#?(\d+)\s*[:,]?\s+(.+)$", text) if len(records) > 1 and match_id is None else None
        if numbered and any(r.id == int(numbered.group(1)) for r in records):
            match_id, text = int(numbered.group(1)), numbered.group(2)
        if match_id is not None:
            records = [r for r in records if r.id == match_id]
        elif len(records) > 1:
            # Only a game that takes private moves can be waiting for a DM: if one match alone
            # plays such a game, the DM is for it (a careful host would not ask which).
            private_games = [r for r in records if takes_private_moves(r.game)]
            if len(private_games) == 1:
                records = private_games
        if not records:
            # /start is the bot's, not a host command: named only where the transport has it.
            offered = getattr(self.transport, "commands", None)
            how = f" ({self._command('start')} in a game room)" if offered is not None and "start" in offered else ""
            return Reply(
                "ignored",
                "You play in no running match, so there is nothing to send this to. Once a host starts a "
                f"match with you{how}, send that match's private moves here.",
            )
        if len(records) > 1:
            listing = ", ".join(f"#{r.id} ({get_game(r.game).title})" for r in records)
            return Reply(
                "error",
                f"You play in several matches ({listing}); start your message with the match number, "
                f"such as #{records[0].id} {text}.",
            )
        record = records[0]
        seat = record.seat_of(user_id)
        assert seat is not None
        return await self.submit(record.id, seat, text, private=True)

    @_never_raises
    async def submit(self, match_id: int, seat: str, text: str, *, private: bool = False) -> Reply:
        """Seat ``seat`` of match ``match_id`` typed ``text`` (privately if ``private``)."""
        live, reply = await self._get(match_id)
        if live is None:
            return reply
        async with live.lock:
            try:
                return await self._submit(live, seat, text.strip(), private)
            except StorageUnavailable as error:
                log.warning("match %s: %s", match_id, error)
                live.restore()
                message = "The bot could not save that move, so it was not taken; send it again in a moment."
                await self._answer(live, seat, private, message)
                return Reply("unavailable", message, match_id)
            except StaleVersion:
                # Another process moved this match on; take its state and let the player retry.
                self.matches.pop(match_id, None)
                message = "The match changed while your move was being taken; look at the board and send it again."
                await self._answer(live, seat, private, message)
                return Reply("unavailable", message, match_id)
            except Exception:
                log.exception("match %s: submission %r by %s failed", match_id, text, seat)
                live.restore()
                message = "Something went wrong on the bot's side and that move was not taken; send it again."
                await self._answer(live, seat, private, message)
                return Reply("error", message, match_id)

    async def _submit(self, live: LiveMatch, seat: str, text: str, private: bool) -> Reply:
        if seat not in live.players:
            seats = ", ".join(live.players)
            return Reply("error", f"{seat!r} is not a seat of match #{live.id}; its seats are {seats}.", live.id)
        if not text or (not private and text.startswith(CHAT_PREFIXES)):
            return Reply("ignored", match_id=live.id)
        if live.status in ("finished", "aborted"):
            if private:
                await self._answer(live, seat, True, "This match is over; no more moves are taken.")
                return Reply("rejected", "This match is over; no more moves are taken.", live.id)
            return Reply("ignored", match_id=live.id)
        now = self.now()
        kind = "private" if private else "move"
        if live.status == "paused":
            message = "The match is paused; wait for the host to resume it, then send your move again."
            await self._log_rejected(live, seat, kind, text, private, message, now)
            await self._answer(live, seat, private, message)
            return Reply("rejected", message, live.id)
        # A clock that ran out before this message arrived decides first, even if its timer is late.
        await self._expire(live, now)
        if live.game.is_over:
            message = "Time ran out before that move arrived; the game is over."
            await self._log_rejected(live, seat, kind, text, private, message, now)
            await self._answer(live, seat, private, message)
            return Reply("rejected", message, live.id)
        try:
            move = live.game.parse_move(text, seat, private=private)
        except GameError as error:
            # The log keeps the game's reason as it is; the player reads it with the names.
            await self._log_rejected(live, seat, kind, text, private, str(error), now)
            message = live.speak(str(error))
            await self._answer(live, seat, private, message)
            return Reply("rejected", message, live.id)
        events = live.game.play(move)
        live.clock.stop(seat, now)
        self._after_change(live, now, events)
        # The board depends only on the new state: draw it while the commit runs, and post it
        # only once the commit has succeeded (a failed commit drops it unseen).
        drawing = self._draw_board(live, now)
        try:
            await self._commit(live, NewAction(kind, move.text(), seat, private), now)
        except BaseException:
            self._drop(drawing)
            raise
        await self._arm(live, now)
        # One acknowledgement a private move: the game's own echo of it ("Sealed: play 15.", "Your
        # mines are on ...") goes unsent, the host's "Taken:" says the same.
        if private:
            events = [e for e in events if not (e.seats == frozenset({seat}) and e.kind == EventKind.SEALED)]
        if private:
            await self._private(live, seat, f"Taken: {move.text()}.")
        await self._report(live, now, events, drawing=drawing)
        return Reply("accepted", move.text(), live.id)

    # ==================================================================== commands

    @_never_raises
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
            return Reply("accepted", self.status_text(live), match_id)
        handler = handlers.get(name)
        if handler is None:
            known = [self._command(c) for c in (*handlers, "status") if self._offers(c)]
            listing = f"; use {', '.join(known[:-1])} or {known[-1]}" if len(known) > 1 else ""
            return Reply("error", f"There is no command {name!r}{listing}.", match_id)
        async with live.lock:
            try:
                return await handler(live, seat)
            except StorageUnavailable as error:
                log.warning("match %s: %s", match_id, error)
                live.restore()
                return Reply(
                    "unavailable",
                    f"The bot could not save that, so nothing changed; try {self._again(name)} in a moment.",
                    match_id,
                )
            except StaleVersion:
                self.matches.pop(match_id, None)
                return Reply("unavailable", f"Match #{match_id} changed meanwhile; try {self._again(name)}.", match_id)
            except Exception:
                log.exception("match %s: command %s failed", match_id, name)
                live.restore()
                return Reply(
                    "error",
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
        if live.status in ("finished", "aborted"):
            return Reply("error", f"Match #{live.id} is over already.", live.id)
        return None

    async def _pause(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        if live.status == "paused":
            go_on = f"; use {self._command('resume')} to go on" if self._offers("resume") else ""
            return Reply("error", f"Match #{live.id} is paused already{go_on}.", live.id)
        now = self.now()
        live.clock.pause(now)
        live.status = "paused"
        live.host["paused_at"] = now
        await self._commit(live, NewAction("command", "pause", None), now)
        await self._arm(live, now)
        stopped = "" if live.clock.control.untimed else "; the clocks are stopped"
        await self._post(live, f"The host paused the match{stopped}.")
        return Reply("accepted", "paused", live.id)

    async def _resume(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        if live.status != "paused":
            return Reply("error", f"Match #{live.id} is not paused; it goes on already.", live.id)
        now = self.now()
        paused_for = max(0.0, now - float(live.host.pop("paused_at", now)))
        live.clock.resume(now)
        if live.host.get("window"):
            live.host["window"]["due"] += paused_for
        live.status = "live"
        await self._commit(live, NewAction("command", "resume", None), now)
        await self._arm(live, now)
        await self._post(live, f"The match goes on. {self.clock_line(live, now)}".strip())
        return Reply("accepted", "resumed", live.id)

    async def _abort(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        now = self.now()
        live.clock.sync((), now)
        live.status = "aborted"
        live.host["window"] = None
        await self._commit(live, NewAction("command", "abort", None), now, result=Result(None, "aborted by the host"))
        await self._arm(live, now)
        await self._post(live, f"The host aborted match #{live.id}; it has no result.")
        return Reply("accepted", "aborted", live.id)

    async def _resign(self, live: LiveMatch, seat: str | None) -> Reply:
        if ended := self._ended(live):
            return ended
        if seat not in live.players:
            return Reply("error", f"Name the seat that resigns: one of {', '.join(live.players)}.", live.id)
        now = self.now()
        events = live.game.resign(seat)
        self._after_change(live, now, events)
        await self._commit(live, NewAction("resign", "resign", seat), now)
        await self._arm(live, now)
        await self._report(live, now, events)
        return Reply("accepted", "resigned", live.id)

    async def _close_window(self, live: LiveMatch, seat: str | None) -> Reply:
        """End the running timed window now, as its timer would (a record's ``host: close window``)."""
        if ended := self._ended(live):
            return ended
        if live.status == "paused":
            if not self._offers("resume"):
                return Reply(
                    "error", f"Match #{live.id} is paused; its window cannot be closed until it goes on.", live.id
                )
            then = (
                f"then {self._command('close window')}"
                if self._offers("close window")
                else "and its window closes when its time is up"  # the users have no command for it
            )
            return Reply("error", f"Match #{live.id} is paused; use {self._command('resume')}, {then}.", live.id)
        if not live.host.get("window") or live.game.window() is None:
            return Reply(
                "error", f"Match #{live.id} has no timed phase running, so there is no window to close.", live.id
            )
        now = self.now()
        events = live.game.close_window()
        self._after_change(live, now, events)
        await self._commit(live, NewAction("window", "close window", None), now)
        await self._arm(live, now)  # the window's own row fires later, finds nothing, and goes
        # What the window showed goes with it now, not at the time it would have run out.
        for row in await self.store.timers(live.id):
            if row.kind == DELETE_TIMER:
                await self._delete_message(row)
                await self.store.delete_timer(row.id, kind=row.kind, due_at=row.due_at)
        await self._report(live, now, events)
        return Reply("accepted", "window closed", live.id)

    # ==================================================================== timers

    async def on_timer(self, timer: TimerRecord) -> bool:
        """A durable timer fell due: deliver it (see ``_deliver``), then let go of a match it ended."""
        try:
            return await self._deliver(timer)
        finally:
            if timer.match_id is not None:
                self._let_go(timer.match_id)

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
        live, _ = await self._get(timer.match_id)
        if live is None:
            return False
        async with live.lock:
            if timer.kind in live.armed:
                # This row goes with this delivery: it no longer counts as armed.
                live.armed[timer.kind] = [r for r in live.armed[timer.kind] if r[2] != timer.id]
            if live.status != "live":
                return False
            now = self.now()
            live.delivered = timer
            try:
                if timer.kind == CLOCK_TIMER:
                    await self._clock_alert(live, epoch(timer.due_at), now)
                elif timer.kind == WINDOW_TIMER:
                    await self._window_due(live, timer.payload, now)
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
            warnings = [a for a in mine if a.kind == "warning"]
            periods = [a for a in mine if a.kind == "period"]
            overtime = [a for a in mine if a.kind == "overtime"]
            who = live.label(seat)
            if warnings:
                notices.append((warnings[-1].at, f"{who}: {warnings[-1].seconds} s left."))
            if periods:
                # Counted just past the last boundary, where that period is (just) spent.
                left = live.clock.remaining(seat, periods[-1].at + 0.001).periods_left
                used = "a period is used up" if len(periods) == 1 else f"{len(periods)} periods are used up"
                notices.append((periods[-1].at, f"{who}: {used}; {left} left."))
            if overtime:
                # The time to the flag, in words: the board's "0:00 +4:55" is not for a sentence.
                left = format_duration(live.clock.remaining(seat, now).total_ms)
                notices.append((overtime[-1].at, f"{who}: the move time is up; now on reserve, {left} left."))
        notices.sort(key=lambda n: n[0])
        return notices

    @staticmethod
    def _run_out(live: LiveMatch, now: float) -> tuple[float, str] | None:
        """The earliest running clock that has run out by ``now`` (deadline, seat), if any."""
        if live.status != "live" or live.game.is_over:
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
        try:
            while (nxt := self._run_out(live, now)) is not None:
                deadline, seat = nxt
                # Charged at the deadline itself: a late timer must not cost the seat extra.
                live.clock.stop(seat, deadline)
                events = live.game.timeout(seat)
                self._after_change(live, deadline, events)
                await self._commit(live, NewAction("timeout", f"timeout {seat}", None), deadline)
                await self._arm(live, now)
                lead, events = self._timeout_words(live, seat, events)
                lines += lead
                if self._run_out(live, now) is None:
                    lead, lines = lines, []
                    await self._report(live, now, events, lead=lead)
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

        The game's event that is only the match's result ("p1 ran out of time; p2 wins.") is left
        to the result line; one that says more ("p1 ran out of time and plays nothing this
        phase.") is said instead of the host's line, the seat named as the room knows it
        ("alice (p1) ran out of time and plays nothing this phase."). Either way the line is
        returned as the lead, said first and as it stands (the rest of the event is named).
        """
        said = f"{seat} ran out of time"
        outcome = live.game.outcome()
        kept: list[Event] = []
        named: list[str] = []
        for event in events:
            if event.public and event.text.startswith(said):
                if outcome is not None and event.text.strip() == outcome.reason.strip():
                    continue
                if not named:
                    named.append(live.label(seat) + live.speak(event.text[len(seat) :]))
                    continue
            kept.append(event)
        return (named or [f"{live.label(seat)} ran out of time."]), kept

    async def _window_due(self, live: LiveMatch, payload: Mapping[str, Any], now: float) -> None:
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
        await self._commit(live, NewAction("window", "close window", None), now)
        await self._arm(live, now)
        await self._report(live, now, events)

    async def _delete_message(self, timer: TimerRecord) -> None:
        channel = timer.payload.get("channel_id")
        message_id = int(timer.payload["message_id"])
        try:
            await self.transport.delete(channel, message_id)
        except TransportError as error:
            log.info("deleting message %s: %s (already gone?)", message_id, error)
        await self.store.mark_message_deleted(channel, message_id)

    # ==================================================================== recovery

    async def recover(self, only: Callable[[MatchRecord], bool] | None = None) -> list[int]:
        """Reload every unfinished match after a start: give back the outage, say so, re-arm.

        ``only`` picks the matches to resume (default: all). Returns the ids of the matches
        resumed. A match that fails to load is logged and skipped (the others still resume).

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
        # The last heartbeat of the process that went down: it was alive then, so the outage
        # began no earlier. Without one (the first start), a match's own last commit stands in.
        alive_at = max((float(r.payload.get("alive_at", 0)) for r in beats), default=None)
        ledger = {(float(d), float(u)) for r in beats for d, u in r.payload.get("outages", ())}
        saved = [float((r.host or {}).get("saved_at", now)) for r in unfinished if r.status == "live"]
        oldest = min(saved, default=now)
        ledger.add((alive_at if alive_at is not None else oldest, now))
        # An outage that ended before every live match's last commit is in their rows already.
        self.outages = sorted((d, u) for d, u in ledger if u > oldest and u > d)[-MAX_OUTAGES:]
        await self._beat(replacing=[r.id for r in beats])
        resumed: list[int] = []
        semaphore = asyncio.Semaphore(8 if self.store.dialect == "postgresql" else 1)

        async def one(record: MatchRecord) -> None:
            async with semaphore:
                try:
                    await self._recover_one(record, now, rows.get(record.id, []))
                    resumed.append(record.id)
                    self._let_go(record.id)  # a clock that ran out before the outage ended it
                except Exception:
                    log.exception("match %s could not be resumed", record.id)

        await asyncio.gather(*(one(r) for r in records))
        resumed.sort()
        return resumed

    async def _beat(self, replacing: Sequence[int] = (), *, delivered: TimerRecord | None = None) -> bool:
        """Note that this host is alive now: a heartbeat row (carrying the ledger of outages not
        yet in every match's row), due again in ``heartbeat`` seconds. A ``delivered`` heartbeat
        row is replaced in the same write; returns whether it was."""
        if self.heartbeat <= 0:
            return False
        now = self.now()
        payload = {"alive_at": now, "outages": [list(o) for o in self.outages]}
        due = utc(now + self.heartbeat)
        if delivered is not None:
            await self.store.replace_timer(delivered, HEARTBEAT_TIMER, due, payload=payload)
        else:
            await self.store.add_timer(HEARTBEAT_TIMER, due, payload=payload)
        for row_id in replacing:
            await self.store.delete_timer(row_id)
        await self._wake(now + self.heartbeat)
        return delivered is not None

    def _give_back(self, saved_at: float) -> tuple[float, float]:
        """What the ledger gives back to a match last committed at ``saved_at``, and how long
        the latest outage it saw lasted."""
        total = last = 0.0
        for down, up in self.outages:
            if up > saved_at:
                last = up - max(down, saved_at)
                total += last
        return total, last

    async def _recover_one(self, record: MatchRecord, now: float, rows: list[TimerRecord]) -> None:
        live = self._from_record(record)
        self._know_rows(live, rows)
        self.matches[live.id] = live
        async with live.lock:
            if live.status != "live":
                return  # paused: its clocks are stopped already
            outage, latest = self._give_back(float(live.host.get("saved_at", now)))
            live.clock.give_back(outage)
            if live.host.get("window"):
                live.host["window"]["due"] += outage
            if self.heartbeat > 0:
                live.snapshot()  # what the row and the ledger together say
            else:
                await self._commit(live, None, now)  # no ledger: the row must say it alone
            await self._arm(live, now)
            await self._post(
                live,
                f"The bot is back after {format_duration(int(latest * 1000))}"
                f"{'' if live.clock.control.untimed else '; the clocks were stopped meanwhile'}. "
                f"{self.clock_line(live, now)}".strip(),
            )
            # A clock that had already run out before the outage still decides.
            await self._expire(live, now)

    # ==================================================================== helpers

    async def load(self, match_id: int) -> LiveMatch | None:
        """The match ``match_id`` as the host holds it, or as the store has it once it is over
        (``None``: no such match, or the store cannot be read now). A finished match read here
        is not kept in memory."""
        live, _ = await self._get(match_id)
        self._let_go(match_id)
        return live

    def _let_go(self, match_id: int) -> None:
        """Forget a finished or aborted match (and its loading lock): a bot that runs for months
        must not hold every match it ever hosted. Reading it later loads it from the store.

        A match whose lock is held is kept: the holder may still be announcing its end, and
        lets go of it itself when done. A live or paused match is never let go of.
        """
        live = self.matches.get(match_id)
        if live is not None:
            if live.status not in ("finished", "aborted") or live.lock.locked():
                return
            del self.matches[match_id]
        loading = self._loading.get(match_id)
        if loading is not None and not loading.locked():
            del self._loading[match_id]

    async def _get(self, match_id: int) -> tuple[LiveMatch | None, Reply]:
        live = self.matches.get(match_id)
        if live is not None:
            return live, Reply("accepted")
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self.matches.get(match_id)
            if live is not None:
                return live, Reply("accepted")
            try:
                record = await self.store.get_match(match_id)
            except MatchNotFound as error:
                return None, Reply("error", str(error), match_id)
            except StorageUnavailable:
                return None, Reply(
                    "unavailable", "The bot cannot read its matches right now; try again in a moment.", match_id
                )
            try:
                live = self._from_record(record)
            except Exception:
                log.exception("match %s cannot be loaded", match_id)
                return None, Reply(
                    "error", f"Match #{match_id} cannot be loaded; ask the bot's owner to look at the log.", match_id
                )
            self.matches[match_id] = live
            return live, Reply("accepted")

    def _from_record(self, record: MatchRecord) -> LiveMatch:
        game = load(record.state)
        clock = (
            Clock.from_dict(record.clock)
            if record.clock
            else Clock.new(preset(record.game, record.variant), game.seats)
        )
        players = {s.seat: Player(s.seat, s.user_id, s.display_name) for s in record.seats}
        live = LiveMatch(
            record.id,
            record.guild_id,
            record.channel_id,
            game,
            clock,
            players,
            record.version,
            record.status,
            dict(record.host or {}),
        )
        live.snapshot()
        return live

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
            live.status = "finished"

    async def _commit(
        self, live: LiveMatch, action: NewAction | None, now: float, *, result: Result | None = None
    ) -> None:
        """Commit the in-memory state (and ``action``); on any failure, go back to the last commit."""
        live.host["saved_at"] = now
        if action is not None:
            action = NewAction(action.kind, action.text, action.seat, action.private, live.clock.to_dict(), utc(now))
        outcome = live.game.outcome()
        if result is None and outcome is not None:
            result = Result(outcome.winner, outcome.reason)
        extra: dict[str, Any] = {}
        if result is not None:
            extra["result"] = result
        # A delivery that ends the match arms nothing after this commit: its row can go with it.
        # (While the match is live, a later write of the delivery re-arms and replaces the row,
        # so a failure between the two still leaves the row to be delivered again.)
        done = live.delivered if live.delivered is not None and live.status != "live" else None
        if done is not None:
            extra["done_timer"] = done
        try:
            committed = await self.store.commit_action(
                live.id,
                live.version,
                action,
                state=live.game.to_dict(),
                clock=live.clock.to_dict(),
                host=live.host,
                status=live.status,
                **extra,
            )
        except BaseException:
            live.restore()
            raise
        live.version = committed.version
        if done is not None:
            live.delivered = None
        live.snapshot()

    async def _log_rejected(
        self, live: LiveMatch, seat: str, kind: str, text: str, private: bool, reason: str, now: float
    ) -> None:
        try:
            await self.store.append_rejected(
                live.id, NewAction(kind, text, seat, private, live.clock.to_dict(), utc(now)), reason
            )
        except StorageError as error:
            # The answer still goes out; a refused submission changed nothing worth keeping.
            log.warning("match %s: could not log a refused submission: %s", live.id, error)

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
        if live.status == "live":
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

    # ---- speaking -----------------------------------------------------------------------------

    async def _post(self, live: LiveMatch, text: str) -> int | None:
        try:
            return await self.transport.post(live.room, text)
        except TransportError as error:
            log.warning("match %s: could not post: %s", live.id, error)
            return None

    async def _private(self, live: LiveMatch, seat: str, text: str) -> bool:
        player = live.players.get(seat)
        if player is None:
            return False
        try:
            await self.transport.send_private(player, text)
            return True
        except TransportError as error:
            log.info("match %s: private message to %s failed: %s", live.id, seat, error)
            # Say that it failed, never what it said: the room must not learn a secret.
            await self._post(
                live, f"{live.label(seat)}: I could not send you a private message; open your DMs to this bot."
            )
            return False

    async def _answer(self, live: LiveMatch, seat: str, private: bool, text: str) -> None:
        if private:
            await self._private(live, seat, text)
        else:
            await self._post(live, f"{live.label(seat)}: {text}")

    async def _announce(self, live: LiveMatch, events: Iterable[Event]) -> None:
        for event in events:
            if not event.text:
                continue  # data only: nothing to say
            if event.public:
                message_id = await self._post(live, live.speak(event.text))
                delete_after = event.data.get("delete_after") if isinstance(event.data, Mapping) else None
                if message_id is not None and delete_after:
                    await self._schedule_delete(live, message_id, float(delete_after))
            else:
                text = live.speak(event.text)
                for seat in sorted(event.seats or ()):
                    await self._private(live, seat, text)

    async def _schedule_delete(self, live: LiveMatch, message_id: int, seconds: float) -> None:
        due = utc(self.now() + seconds)
        await self.store.add_message(live.room, message_id, "timed", match_id=live.id, delete_at=due)
        await self.store.add_timer(
            DELETE_TIMER, due, match_id=live.id, payload={"channel_id": live.room, "message_id": message_id}
        )
        await self._wake(epoch(due))

    async def _wake(self, due: float) -> None:
        """Tell the dispatcher a timer row due at ``due`` was written (it may need to wake sooner)."""
        if self.wake is None:
            return
        try:
            result = self.wake(utc(due))
        except TypeError:  # a wake() that takes no due time: it reads the store again
            result = self.wake()
        if asyncio.iscoroutine(result):
            await result

    def clocks(self, live: LiveMatch, now: float) -> dict[str, str]:
        """Each seat's clock as a short string for a board."""
        return {seat: live.clock.display(seat, now) for seat in live.clock.seats}

    def clock_line(self, live: LiveMatch, now: float) -> str:
        """Whose turn it is, with their clocks: "To move: alice (p1) 0:52 +5:00."; untimed, the
        names alone: "To move: alice (p1)."; "" when nobody moves (a finished match, a memorize
        window). While a timed window runs, its timer is the only clock (the move clocks wait), so
        the line gives its time left instead: "To move: alice (p1), bob (p2); the window closes in 30 s."."""
        if live.game.is_over:
            return ""
        movers = live.game.to_move()
        if not movers:
            return ""
        left = self._window_left(live, now)
        if left is not None:
            return f"To move: {', '.join(live.label(s) for s in movers)}; the window closes in {left}."
        if live.clock.control.untimed:
            return f"To move: {', '.join(live.label(s) for s in movers)}."
        parts = [f"{live.label(s)} {live.clock.display(s, now)}" for s in movers]
        return f"To move: {', '.join(parts)}."

    @staticmethod
    def _vanishing(live: LiveMatch, window: Mapping[str, Any] | None) -> bool:
        """Whether the window the host runs (its record of it) shows what the rules hide once it
        closes (a memory grid), so that the boards posted during it go with it."""
        if not window:
            return False
        if "vanishing" in window:
            return bool(window["vanishing"])
        # Recorded before the host kept the flag: the game, which still runs the window, says.
        running = live.game.window()
        return running is not None and running.kind == window.get("kind") and running.vanishing

    def _pictured(self, live: LiveMatch) -> bool:
        """Whether this host posts the match's board as a picture."""
        return self.boards and self.pictures and board.has_picture(live.game.name)

    def _draw_board(self, live: LiveMatch, now: float) -> asyncio.Future[bytes | None] | None:
        """Start drawing the public board of the current state in a worker thread (or ``None``)."""
        if not self._pictured(live):
            return None
        view = live.game.view(None)
        players = {s: p.name or s for s, p in live.players.items()}
        return asyncio.ensure_future(
            asyncio.to_thread(
                board.picture, view, players=players, clocks=self.clocks(live, now), title=f"Match #{live.id}"
            )
        )

    @staticmethod
    def _drop(drawing: asyncio.Future[bytes | None] | None) -> None:
        """Forget a board drawn for a state that was never committed."""
        if drawing is not None:
            drawing.cancel()

    async def _report(
        self,
        live: LiveMatch,
        now: float,
        events: Iterable[Event],
        *,
        lead: Sequence[str] = (),
        drawing: asyncio.Future[bytes | None] | None = None,
    ) -> None:
        """Announce a committed action: private events to their seats, the public ones with the board.

        When the board is a picture, the action's public texts (``lead``, then the events') ride
        in its caption above the clock line, so one action is one message in the room. They are
        posted on their own when the board is text, or when the board will vanish with a
        memorize window (the announcement must stay), or when an event deletes itself later.
        The events' texts go out with the players' names (:meth:`LiveMatch.speak`); ``lead`` is
        the host's own lines, said as they stand.
        """
        window = live.host.get("window")
        vanishing = self._vanishing(live, window)
        if not self._pictured(live) or vanishing:
            self._drop(drawing)
            events = list(events)
            for text in lead:
                await self._post(live, text)
            await self._announce(live, events)
            await self._show_board(
                live, now, said=[*lead, *(live.speak(e.text) for e in events if e.public and e.text)]
            )
            return
        texts = list(lead)
        separate: list[Event] = []
        for event in events:
            delete_after = event.data.get("delete_after") if isinstance(event.data, Mapping) else None
            if event.public and not delete_after:
                if event.text:  # an event with no text is data only
                    texts.append(live.speak(event.text))
            else:
                separate.append(event)
        await self._announce(live, separate)
        await self._show_board(live, now, lead=texts, drawing=drawing, said=texts)

    async def _show_board(
        self,
        live: LiveMatch,
        now: float,
        *,
        lead: Sequence[str] = (),
        drawing: asyncio.Future[bytes | None] | None = None,
        said: Sequence[str] = (),
    ) -> None:
        """Post the public board (a picture when a renderer exists) and changed private views by DM.

        ``lead``: texts to put above the caption of a picture board (posted on their own before
        a text board). ``drawing``: the picture, already being drawn. ``said``: what this
        action's announcement says, so the result line does not say it again.
        """
        if not self.boards:
            self._drop(drawing)
            for text in lead:
                await self._post(live, text)
            return
        view = live.game.view(None)
        clocks = self.clocks(live, now)
        png = None
        if drawing is not None:
            png = await drawing
        elif self._pictured(live):
            drawing = self._draw_board(live, now)
            png = await drawing if drawing is not None else None
        ending = self._caption(live, now, said=(*said, *lead))
        # A last move's event often says what the result line says ("p2 resigned"): once is enough.
        outcome = live.game.outcome()
        told = live.speak(outcome.reason).strip() if outcome is not None else None
        lead = [t for t in lead if t and t.strip() not in ending and t.strip() != told]
        # A picture says what a running window is for (a text board says it in its own lines).
        caption = "\n".join(t for t in (*lead, self.window_line(live, now), ending) if t)
        posted: list[int | None] = []
        if png is not None:
            try:
                posted.append(
                    await self.transport.post_picture(live.room, png, filename=f"match{live.id}.png", text=caption)
                )
                if self.on_picture is not None:
                    result = self.on_picture(live.id, png)
                    if asyncio.iscoroutine(result):
                        await result
            except TransportError as error:
                log.warning("match %s: could not post the board: %s", live.id, error)
                if lead:  # the board is lost, the announcement must not be
                    posted.append(await self._post(live, caption))
        else:
            for text in lead:
                await self._post(live, text)
        if png is None or self.text_boards:
            text = board.text_board(view, clocks=clocks)
            caption = ending
            posted.append(await self._post(live, text + ("\n" + caption if caption and png is None else "")))
        window = live.host.get("window")
        if self._vanishing(live, window):
            # A memorize window shows what the rules hide when it closes (a memory grid): a board
            # posted during it goes when it closes, even across a restart. Any other window (the
            # landmine window) shows nothing hidden, and nothing else is ever deleted.
            for message_id in posted:
                if message_id is not None:
                    # From the time now, not the action's: an upload may have taken a while.
                    await self._schedule_delete(live, message_id, max(0.0, float(window["due"]) - self.now()))
        for seat in live.players:
            own = live.game.view(seat)
            if own != view and live.private_views.get(seat) != own:
                live.private_views[seat] = own
                await self._private_view(live, seat, own, clocks)

    async def _private_view(
        self, live: LiveMatch, seat: str, view: Mapping[str, Any], clocks: Mapping[str, str]
    ) -> bool:
        """Send a seat its own view: a picture with a one-line caption when a renderer draws the
        game, a readable text otherwise (never a JSON dump)."""
        player = live.players.get(seat)
        send_picture = getattr(self.transport, "send_private_picture", None)
        if player is not None and send_picture is not None and self.pictures and board.has_picture(live.game.name):
            players = {s: p.name or s for s, p in live.players.items()}
            png = await asyncio.to_thread(
                board.picture, view, players=players, clocks=clocks, title=f"Match #{live.id}: {live.label(seat)}"
            )
            if png is not None:
                try:
                    await send_picture(
                        player,
                        png,
                        filename=f"match{live.id}-{seat}.png",
                        text=f"Your view of match #{live.id} (only you can see this).",
                    )
                except TransportError as error:
                    log.info("match %s: private view to %s failed: %s", live.id, seat, error)
                    await self._post(
                        live, f"{live.label(seat)}: I could not send you a private message; open your DMs to this bot."
                    )
                    return False
                if not self.text_boards:  # a terminal shows the text view as well as saving the picture
                    return True
        return await self._private(live, seat, f"Your view of match #{live.id}:\n" + board.text_board(view))

    def _caption(self, live: LiveMatch, now: float, *, said: Sequence[str] = ()) -> str:
        outcome = live.game.outcome()
        if outcome is not None:
            who = live.label(outcome.winner) + " wins" if outcome.winner else "a draw"
            for seat in live.players:
                # The announcement just said this timeout with the player's name: once is enough.
                if outcome.reason.startswith(f"{seat} ran out of time") and any(
                    text.startswith(f"{live.label(seat)} ran out of time") for text in said
                ):
                    return f"Result: {who}."
            return f"Result: {who}. {live.speak(without_verdict(outcome.reason, outcome.winner))}"
        return self.clock_line(live, now)

    def window_line(self, live: LiveMatch, now: float) -> str:
        """What the running timed window says under a board's picture, with the time it has
        left ("Memorize the grid: it is hidden in 30 s."); "" when none runs or it says nothing."""
        left = self._window_left(live, now)
        window = live.game.window() if left is not None else None
        if window is None or not window.says:
            return ""
        return window.says.format(left=left)

    def _window_left(self, live: LiveMatch, now: float) -> str | None:
        """The time the running timed window has left ("30 s", "1:30"); ``None`` when none runs."""
        running = live.host.get("window")
        window = live.game.window() if running and not live.game.is_over else None
        if window is None or window.kind != running.get("kind"):
            return None
        left = math.ceil(max(0.0, float(running["due"]) - now) - 0.0005)
        return f"{left} s" if left < 60 else format_duration(left * 1000)

    def status_text(self, live: LiveMatch) -> str:
        """A status line for the ``status`` command."""
        now = self.now()
        game = live.game
        head = f"Match #{live.id}: {game_title(game)}, {live.status}."
        clocks = ", ".join(f"{live.label(s)} {t}" for s, t in self.clocks(live, now).items() if t)
        movers = game.to_move()
        parts = [head]
        if movers and live.status not in ("finished", "aborted"):
            parts.append(f"To move: {' and '.join(live.label(s) for s in movers)}.")
        if clocks:
            parts.append(f"Clocks: {clocks}.")
        if game.outcome():
            parts.append(self._caption(live, now))
        elif live.status == "aborted":
            parts.append(ABORTED_RESULT)
        return " ".join(parts)
