"""Announcements: what the room and the seats read (events, boards and their captions, clock
lines, the status text)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from geniusbot.games import Event, EventKind, Outcome
from geniusbot.storage import ENDED_STATUSES, MatchRecord, MatchStatus
from geniusbot.words import ENGLISH, Argument, Listing, Message, Seat, Verbatim, Words, joined, say, say_c

from . import board
from .card import CardParts, Cards, board_style
from .clock import format_duration
from .live import LiveMatch, result_detail, timed_out as timed_out_of
from .naming import game_title, legacy_name_seats, match_words
from .spectators import Spectators
from .transport import Player, TextBoard, TransportError, post_picture, post_text, send_private_text
from .turns import TurnMessages, turn_pings

if TYPE_CHECKING:
    from .cache import MatchCache
    from .posted import TimedMessages
    from .transport import Transport

log = logging.getLogger(__name__)

#: The result line of a match the host aborted (it has no result).
ABORTED_SAID = say("Result: none; the host aborted it.")
ABORTED_RESULT = ABORTED_SAID.text  # its English
#: What the room reads, after a seat's label, when a private message to that seat fails (once a spell).
UNREACHABLE_SAID = say("I could not send you a private message; open your DMs to this bot.")
UNREACHABLE = UNREACHABLE_SAID.text  # its English
#: What the room reads in place of a board whose picture could not be posted.
BOARD_LOST_SAID = say("The board could not be posted.")
BOARD_LOST = BOARD_LOST_SAID.text  # its English

#: A match's status as a sentence says it ("Match #1: Nim, paused.").
STATUS_SAID = {
    MatchStatus.LIVE: say_c("match status", "live"),
    MatchStatus.PAUSED: say_c("match status", "paused"),
    MatchStatus.FINISHED: say_c("match status", "finished"),
    MatchStatus.ABORTED: say_c("match status", "aborted"),
}


# Set while the host takes a submission whose caller answers the player itself (a button press,
# answered to its presser alone): the host then says nothing of a refusal (see ``caller_answers``).
_CALLER_ANSWERS: ContextVar[bool] = ContextVar("caller_answers", default=False)


@contextlib.asynccontextmanager
async def caller_answers(yes: bool = True) -> AsyncIterator[None]:
    """While the block runs (in this task), :meth:`Announcer.answer` is the caller's: the host
    posts no answer of its own to the submitting seat, whose :class:`Reply` carries the message."""
    token = _CALLER_ANSWERS.set(yes)
    try:
        yield
    finally:
        _CALLER_ANSWERS.reset(token)


class Announcer:
    """What the room and the seats read: events, boards, captions, clock lines, status (an object of the host's own;
    see :class:`~geniusbot.host.match.Host` for ``pictures``, ``boards``, ``text_boards`` and ``on_picture``)."""

    def __init__(
        self,
        transport: Transport,
        now: Callable[[], float],
        cache: MatchCache,
        posted: TimedMessages,
        *,
        pictures: bool = True,
        boards: bool = True,
        text_boards: bool = False,
        on_picture: Callable[[int, bytes], Awaitable[None] | None] | None = None,
        language: str = ENGLISH,
    ) -> None:
        self.language = language
        self.transport = transport
        self.now = now
        self.cache = cache
        self.posted = posted
        self.pictures = pictures
        self.boards = boards
        self.text_boards = text_boards
        self.on_picture = on_picture
        self.cards = Cards(posted.store, transport, posted, self.text)  # a match's words: its own language
        #: "Your move" by private message, for long clocks (see :mod:`.turns`).
        self.turns = TurnMessages(transport, now, self.words)
        self.spectators = Spectators(self)  # each secret in a match's spectators' room, too

    async def post(
        self, live: LiveMatch, text: str | Message | TextBoard, *, delete_at: float | None = None
    ) -> int | None:
        """Post ``text`` (or a text board) in the room (``None`` if it could not be); with
        ``delete_at`` (epoch seconds), a message to be deleted then, whose deletion is kept before
        it is posted. A :class:`Message` is said in the match's language (:meth:`text`); a text
        board that tells seats it is their turn may tell them privately too (:mod:`.turns`)."""
        if isinstance(text, Message):
            text = self.text(live, text)
        posted: int | None
        try:
            if delete_at is None:
                posted = await post_text(self.transport, live.room, text, None)
            else:
                whole = text.text if isinstance(text, TextBoard) else text
                posted = await self.posted.post_timed(
                    live, delete_at, lambda key: post_text(self.transport, live.room, text, key), text=whole
                )
        except TransportError as error:
            log.warning("match %s: could not post: %s", live.id, error)
            return None
        await self.spectators.vanishing(live, delete_at, None, text)  # a vanishing window's, for as long
        if isinstance(text, TextBoard) and text.ping:
            await self.turns.tell(live, text.ping, posted)  # a text board that told seats it is their turn
        return posted

    async def private(self, live: LiveMatch, seat: str, text: str | Message | TextBoard) -> bool:
        if isinstance(text, Message):
            text = self.text(live, text)
        player = live.players.get(seat)
        if player is None:
            return False
        await self.spectators.private(live, seat, text)
        if seat == live.practice_seat:
            return True  # the practice opponent reads its seat's views from the log, never a message
        try:
            await send_private_text(self.transport, player, text)
        except TransportError as error:
            await self._private_failed(live, seat, "private message", error)
            return False
        live.unreachable.discard(seat)
        return True

    async def _private_failed(self, live: LiveMatch, seat: str, what: str, error: TransportError) -> None:
        """A private message to ``seat`` failed: tell the room, once a spell (from the first
        failure until a private message to the seat gets through again), that it did, never
        what it said (the room must not learn a secret)."""
        log.info("match %s: %s to %s failed: %s", live.id, what, seat, error)
        if seat in live.unreachable:
            return
        live.unreachable.add(seat)
        await self.post(live, say("{seat}: {line}", seat=live.who(seat), line=UNREACHABLE_SAID))

    async def answer(self, live: LiveMatch, seat: str, private: bool, text: str | Message) -> None:
        """Answer ``seat``: privately, or in the room after its label ("alice (p1): ..."). A
        ``str`` is a text said already (a game's refusal not yet made of words as data)."""
        if _CALLER_ANSWERS.get():
            return  # the caller shows the reply's message to the player alone
        if private:
            await self.private(live, seat, text)
        else:
            line = text if isinstance(text, Message) else Verbatim(text)
            await self.post(live, say("{seat}: {line}", seat=live.who(seat), line=line))

    def say(self, live: LiveMatch, event: Event, *, labelled: str | None = None) -> str:
        """An event as the players read it: its message (:attr:`Event.said`) in the host's language with the players'
        names. ``labelled``: the seat of a timeout, said where the message names it as ``{seat}`` in the label form
        the room knows it by ("alice (p1)"). An event of plain English (a game not made of words as data, which
        ``geniusbot check`` refuses) is said as it is: its text is never read for seats."""
        if event.said is None:
            return event.text
        said = event.said
        if labelled is not None and said.args.get("seat") == Seat(labelled):
            said = replace(said, args={**said.args, "seat": Verbatim(live.label(labelled))})
        return self.words(live)(said)

    def language_of(self, live: LiveMatch) -> str:
        """The language ``live`` speaks: its own, fixed at its start; the host's for a match of none."""
        return live.language or self.language

    def words(self, live: LiveMatch) -> Words:
        """The renderer of ``live``'s words: its language (:meth:`language_of`), the players' names."""
        return match_words(self.language_of(live), tuple((seat, player.name) for seat, player in live.players.items()))

    def text(self, live: LiveMatch, message: Message) -> str:
        """``message`` as ``live``'s players read it: in its language, with their names."""
        return self.words(live)(message)

    async def announce(self, live: LiveMatch, events: Iterable[Event]) -> None:
        for event in events:
            if not event.text:
                continue  # data only: nothing to say
            if event.public:
                delete_at = self.now() + float(event.delete_after) if event.delete_after else None
                await self.post(live, self.say(live, event), delete_at=delete_at)
            else:
                text = self.say(live, event)
                for seat in sorted(event.seats or ()):
                    await self.private(live, seat, text)

    def clocks(self, live: LiveMatch, now: float) -> dict[str, str]:
        """Each seat's clock as a short string for a board."""
        return {seat: live.clock.display(seat, now) for seat in live.clock.seats}

    def _clock_text(self, live: LiveMatch, seat: str, now: float) -> str:
        """A seat's clock as a text board shows it ("0:52 +5:00"), its words in the host's language."""
        said = live.clock.said(seat, now)
        return said.text if isinstance(said, Verbatim) else self.text(live, said)

    def clock_line(self, live: LiveMatch, now: float) -> str:
        """:meth:`clock_said` in the host's language; "" when it says nothing."""
        said = self.clock_said(live, now)
        return self.text(live, said) if said is not None else ""

    def clock_said(self, live: LiveMatch, now: float) -> Message | None:
        """Whose turn it is, with their clocks: "To move: alice (p1) 0:52 +5:00."; untimed, the
        names alone: "To move: alice (p1)."; "" when nobody moves (a finished match, a timed
        window that takes no move). While a timed window runs, its timer is the only clock (the move clocks wait), so
        the line gives its time left instead: "To move: alice (p1), bob (p2); the window closes in 30 s."."""
        if live.game.is_over:
            return None
        movers = live.game.to_move()
        if not movers:
            return None
        seats = Listing(tuple(live.who(s) for s in movers))
        left = self.left_said(live, now)
        if left is not None:
            return say("To move: {seats}; the window closes in {left}.", seats=seats, left=left)
        if live.clock.control.untimed:
            return say("To move: {seats}.", seats=seats)
        return say("To move: {clocks}.", clocks=self.clocks_said(live, now, movers))

    def clocks_said(self, live: LiveMatch, now: float, seats: Iterable[str]) -> Listing:
        """``seats`` with their clocks: "alice (p1) 0:52 +5:00, bob (p2) 1:00 +5:00"."""
        return Listing(tuple(say("{seat} {clock}", seat=live.who(s), clock=live.clock.said(s, now)) for s in seats))

    @staticmethod
    def vanishing(live: LiveMatch, window: Mapping[str, Any] | None) -> bool:
        """Whether the window the host runs (its record of it) shows what the rules hide once it
        closes (``Window.vanishing``), so that the boards posted during it go with it."""
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

    @staticmethod
    def views(live: LiveMatch, *, fresh: bool = False) -> board.Views:
        """The views of the match's state now (:class:`board.Views`): this action's, made when
        its board was first drawn or announced, unless ``fresh`` (the state has changed since)
        or the game is another object (a failed commit restored it)."""
        if fresh or live.views is None or live.views.game is not live.game:
            live.views = board.Views(live.game)
        views: board.Views = live.views
        return views

    def draw_board(
        self, live: LiveMatch, now: float, views: board.Views | None = None
    ) -> asyncio.Future[bytes | None] | None:
        """Start drawing the public board of the current state in a worker thread (or ``None``). Without ``views``
        the state has just changed: its views are made anew here, once, for the whole action."""
        views = views or self.views(live, fresh=True)
        if not self._pictured(live):
            return None
        view = views.public
        players = {s: p.name or s for s, p in live.players.items()}
        title = self.text(live, say("Match #{id}", id=live.id))
        return asyncio.ensure_future(
            asyncio.to_thread(
                board.picture, view, words=self.words(live), players=players, clocks=self.clocks(live, now), title=title
            )
        )

    @staticmethod
    def drop(drawing: asyncio.Future[bytes | None] | None) -> None:
        """Forget a board drawn for a state that was never committed."""
        if drawing is not None:
            drawing.cancel()

    async def report(
        self,
        live: LiveMatch,
        now: float,
        events: Iterable[Event],
        *,
        lead: Sequence[str] = (),
        drawing: asyncio.Future[bytes | None] | None = None,
        timed_out: frozenset[str] = frozenset(),
    ) -> None:
        """Announce a committed action: private events to their seats, the public ones with the board.

        When the board is a picture, the action's public texts (``lead``, then the events') ride in its caption above
        the clock line, so one action is one message in the room. They are posted on their own when the board is text,
        or when the board will vanish with a vanishing window (the announcement must stay), or when an event deletes
        itself later. The events' messages go out with the players' names (:meth:`say`); ``lead`` is the host's own
        lines, said as they stand; ``timed_out``, the seats whose timeout they say.
        """
        if drawing is None:  # else _draw_board made this state's views as the action began
            self.views(live, fresh=True)
        window = live.host.get("window")
        vanishing = self.vanishing(live, window)
        events = list(events)
        # An event that goes with a vanishing window (deleted when it closes, as a game's opening
        # line for it is) says what the window is: the board after it says it no more.
        window_said = vanishing and any(event.public and event.text and event.delete_after for event in events)
        if not self._pictured(live) or vanishing:
            self.drop(drawing)
            for text in lead:
                await self.post(live, text)
            await self.announce(live, events)
            await self.show_board(live, now, timed_out=timed_out, window_said=window_said)
            return
        texts = list(lead)
        separate: list[Event] = []
        for event in events:
            if event.public and not event.delete_after:
                # An event with no text is data only; the game's end is said by the result line
                # under the board ("p2 resigned; p1 wins." is "Result: alice (p1) wins. bob resigned.").
                if event.text and event.kind != EventKind.END:
                    texts.append(self.say(live, event))
            else:
                separate.append(event)
        await self.announce(live, separate)
        await self.show_board(live, now, lead=texts, drawing=drawing, timed_out=timed_out)

    async def show_board(
        self,
        live: LiveMatch,
        now: float,
        *,
        lead: Sequence[str] = (),
        drawing: asyncio.Future[bytes | None] | None = None,
        timed_out: frozenset[str] = frozenset(),
        window_said: bool = False,
    ) -> None:
        """Post the public board (a picture when a renderer exists) and changed private views by DM.

        ``lead``: texts to put above the caption of a picture board (posted on their own before
        a text board). ``drawing``: the picture, already being drawn. ``timed_out``: the seats whose
        timeout this action's announcement says, so the result line does not say it again.
        The running window's line (:meth:`window_line`) goes under the board once, the picture's
        or else the text board's, unless ``window_said``: the announcement has said it already.
        """
        if not self.boards:
            self.drop(drawing)
            for text in lead:
                await self.post(live, text)
            return
        views = self.views(live)
        view = views.public
        png = None
        if drawing is not None:
            png = await drawing
        elif self._pictured(live):
            drawing = self.draw_board(live, now, views)
            png = await drawing if drawing is not None else None
        lead = [t for t in lead if t]
        window_says = "" if window_said else self.window_line(live, now)
        # Said once, where shown: a card whose clocks run says neither the clock line nor the caption.
        ending = functools.cache(lambda: self.caption(live, now, timed_out=timed_out))
        caption = functools.cache(lambda: "\n".join(t for t in (*lead, window_says, ending()) if t))
        # A vanishing window shows what the rules hide once it closes: a board posted during it
        # goes when it closes (its intent kept before it is posted), even across a restart. Any
        # other window shows nothing hidden, and nothing else is ever deleted.
        window = live.host.get("window")
        vanish_at = float(window["due"]) if window and self.vanishing(live, window) else None
        ping = self.turn_pings(live)
        if png is not None:
            try:
                alt = self.alt_text(live, view)
                parts = CardParts(now, view, lead, window_says, ending)
                await self.turns.tell(
                    live, ping, await self._post_picture(live, png, caption, vanish_at, alt, ping, parts)
                )
                await self.spectators.vanishing(live, vanish_at, png, caption() if vanish_at is not None else None)
                if self.on_picture is not None:
                    result = self.on_picture(live.id, png)
                    if asyncio.iscoroutine(result):
                        await result
            except TransportError as error:
                log.warning("match %s: could not post the board: %s", live.id, error)
                # The board is lost, the announcement must not be; the lines under the board
                # are said again as they are now (the upload may have taken a while).
                await self.post(live, self._board_lost(live, lead, window_said, timed_out), delete_at=vanish_at)
        else:
            for text in lead:
                await self.post(live, text)
        if png is None or self.text_boards:
            # Said in the host's language, the seats named by the renderer; the clocks as the host says them.
            said_clocks = {seat: self._clock_text(live, seat, now) for seat in live.clock.seats}
            text = board.text_board(view, clocks=said_clocks, words=self.words(live))
            # Under a text board alone its caption; after a picture (the console) the picture's said it.
            below = "\n".join(t for t in (window_says, ending()) if t) if png is None else ""
            await self.post(live, TextBoard(text, below=below, ping=ping if png is None else ()), delete_at=vanish_at)
        if type(live.game).perfect_information:
            return  # every seat's view is the room's: there is no view of its own to send
        for seat in live.players:
            own = views.of(seat)
            if own != view and live.private_views.get(seat) != own:
                live.private_views[seat] = own
                await self._private_view(live, seat, own, self.clocks(live, now))

    def _board_lost(self, live: LiveMatch, lead: Sequence[str], window_said: bool, timed_out: frozenset[str]) -> str:
        """What the room reads when the board's picture could not be posted: the announcement
        (``lead``), that the board is missing, and the window's line and the clock line (or the
        result) as they are now, not as they were when the picture was drawn."""
        now = self.now()
        window_says = "" if window_said else self.window_line(live, now)
        ending = self.caption(live, now, timed_out=timed_out)
        return "\n".join(t for t in (*lead, self.text(live, BOARD_LOST_SAID), window_says, ending) if t)

    #: The players the board about to be posted tells it is their turn (see :func:`.turns.turn_pings`).
    turn_pings = staticmethod(turn_pings)

    def alt_text(self, live: LiveMatch, view: Mapping[str, Any]) -> str:
        """The board's picture in words, for who cannot see it: the match and its game, then the position as the game
        describes it (``Game.describe``; its text board otherwise) with who plays what, the last move and who is to
        move, from the same view (what it shows, no more), in the host's language."""
        heading = self.text(live, say("Match #{id}, {game}:", id=live.id, game=Verbatim(game_title(live.game))))
        return f"{heading}\n{board.described(view, words=self.words(live))}"

    async def _post_picture(
        self,
        live: LiveMatch,
        png: bytes,
        caption: Callable[[], str],
        delete_at: float | None,
        alt: str = "",
        ping: tuple[Player, ...] = (),
        parts: CardParts | None = None,
    ) -> int | None:
        """Post the board's picture in the room (``caption()``: its words; ``alt``: in words; ``ping``: who it tells it
        is their turn); with ``delete_at``, one to be deleted then (its words with it; a board of a window, when nobody
        is to move). A room that shows boards as cards gets one (``parts``)."""
        style = await board_style(self.transport, live.room) if parts is not None else "message"
        if style != "message" and parts is not None:
            return await self.cards.post(self, live, png, parts, style, delete_at, caption=caption, alt=alt, ping=ping)
        filename = f"match{live.id}.png"
        text = caption()
        if delete_at is None:
            return await self.transport.post_picture(live.room, png, filename=filename, text=text, alt=alt, ping=ping)
        return await self.posted.post_timed(
            live,
            delete_at,
            lambda key: post_picture(self.transport, live.room, png, filename=filename, text=text, key=key, alt=alt),
        )

    async def _private_view(
        self, live: LiveMatch, seat: str, view: Mapping[str, Any], clocks: Mapping[str, str]
    ) -> bool:
        """Send a seat its own view: a picture with a one-line caption when a renderer draws the
        game, a readable text otherwise (never a JSON dump)."""
        player = live.players.get(seat)
        await self.spectators.view(live, seat, view, clocks)
        if seat == live.practice_seat:
            return True  # see _private: nothing private goes to the practice opponent's seat
        send_picture = self.transport.send_private_picture
        if player is not None and self.pictures and board.has_picture(live.game.name):
            players = {s: p.name or s for s, p in live.players.items()}
            title = self.text(live, say("Match #{id}: {seat}", id=live.id, seat=live.who(seat)))
            png = await asyncio.to_thread(
                board.picture, view, words=self.words(live), players=players, clocks=clocks, title=title
            )
            if png is not None:
                try:
                    await send_picture(
                        player,
                        png,
                        filename=f"match{live.id}-{seat}.png",
                        text=self.text(live, say("Your view of match #{id} (only you can see this).", id=live.id)),
                    )
                except TransportError as error:
                    await self._private_failed(live, seat, "private view", error)
                    return False
                live.unreachable.discard(seat)
                if not self.text_boards:  # a terminal shows the text view as well as saving the picture
                    return True
        # The game's own text board, in the host's language, its seats named by the renderer.
        text = board.text_board(view, words=self.words(live))
        above = self.text(live, say("Your view of match #{id}:", id=live.id))
        return await self.private(live, seat, TextBoard(text, above=above))

    def caption(self, live: LiveMatch, now: float, *, timed_out: frozenset[str] = frozenset()) -> str:
        """The line under a board: the result once the game is over, the clock line before.

        ``timed_out``: the seats whose timeout the announcement has just said with the player's
        name; a result that is one of those timeouts says who wins, and no more."""
        outcome = live.game.outcome()
        if outcome is not None:
            said = outcome.said
            winner = live.who(outcome.winner) if outcome.winner is not None else None
            if any(timed_out_of(outcome, seat) for seat in timed_out):
                result = say("Result: {seat} wins.", seat=winner) if winner else say("Result: a draw.")
            elif said is None:
                # An outcome of plain English, kept before endings were messages (an old saved
                # state; or a plug-in's, which `geniusbot check` refuses): its seats named as such
                # old data alone is.
                result = self._stored_result(live, outcome)
            elif outcome.names_winner:
                # The game's own sentence says who wins ("p1 resigned; p2 wins the task."): once.
                result = say("Result: {result}", result=said)
            else:
                # The line has said who wins: the game's sentence without its verdict (a draw's whole).
                detail = said if winner is None else outcome.said_detail
                assert detail is not None
                result = self._result(winner, detail)
            return self.text(live, result)
        return self.clock_line(live, now)

    @staticmethod
    def _result(winner: Argument | None, detail: Argument) -> Message:
        """The result line that says who wins (or that it is a draw), then how."""
        if winner is None:
            return say("Result: a draw. {result}", result=detail)
        return say("Result: {seat} wins. {detail}", seat=winner, detail=detail)

    def result_line(self, record: MatchRecord) -> str:
        """An ended match's result as the room read it under its last board ("Result: alice (p1)
        wins. bob resigned."), from its record: the board's caption; the aborted line for a match
        that ended with no result."""
        result = record.result
        if record.status == MatchStatus.ABORTED or result is None:
            return Words(record.language or self.language)(ABORTED_SAID)
        live = self.cache.from_record(record)
        if live.game.outcome() is not None:
            return self.caption(live, self.now())
        # A result the game's state does not keep (a host's own ruling): the record's stored sentence.
        winner = live.who(result.winner) if result.winner is not None else None
        return self.text(live, self._result(winner, Verbatim(self._stored(live, result.reason))))

    def _stored_result(self, live: LiveMatch, outcome: Outcome) -> Message:
        """The result line of an outcome of plain English (``said`` is ``None``: saved before the
        games made their endings of messages). A draw says so, then the sentence; a sentence with
        a verdict ("p2 resigned; p1 wins.") is said after who wins, without it; one without is the
        whole stored sentence, which says who wins itself (a reason stored whole)."""
        if outcome.winner is None:
            return self._result(None, Verbatim(self._stored(live, result_detail(outcome))))
        if outcome.verdict:
            return self._result(live.who(outcome.winner), Verbatim(self._stored(live, result_detail(outcome))))
        return say("Result: {result}", result=Verbatim(self._stored(live, outcome.reason)))

    @staticmethod
    def _stored(live: LiveMatch, text: str) -> str:
        """A sentence the store kept as plain English with seat ids (old data), the seats named."""
        return legacy_name_seats(text, {seat: player.name for seat, player in live.players.items()})

    def window_line(self, live: LiveMatch, now: float) -> str:
        """What the running timed window says under a board's picture, with the time it has
        left (``Window.says`` with ``{left}`` filled in: "... it is hidden in 30 s."); "" when none runs or it says nothing."""
        left = self.window_left(live, now)
        window = live.game.window() if left is not None else None
        if window is None or left is None or not window.says:
            return ""
        if isinstance(window.says, Message):
            return self.words(live)(replace(window.says, args={**window.says.args, "left": Verbatim(left)}))
        return window.says.format(left=left)

    def window_left(self, live: LiveMatch, now: float) -> str | None:
        """The time the running timed window has left ("30 s", "1:30"); ``None`` when none runs."""
        left = self.left_said(live, now)
        if left is None:
            return None
        return left.text if isinstance(left, Verbatim) else self.text(live, left)

    @staticmethod
    def left_said(live: LiveMatch, now: float) -> Message | Verbatim | None:
        """:meth:`window_left` as a message's argument."""
        running = live.host.get("window")
        window = live.game.window() if running and not live.game.is_over else None
        if window is None or running is None or window.kind != running.get("kind"):
            return None
        left = math.ceil(max(0.0, float(running["due"]) - now) - 0.0005)
        return say("{n} s", n=left) if left < 60 else Verbatim(format_duration(left * 1000))

    def status_text(self, live: LiveMatch) -> str:
        """A status line for the ``status`` command."""
        now = self.now()
        game = live.game
        status = STATUS_SAID[MatchStatus(live.status)]
        said = [say("Match #{id}: {game}, {status}.", id=live.id, game=Verbatim(game_title(game)), status=status)]
        timed = [s for s, t in self.clocks(live, now).items() if t]
        movers = game.to_move()
        if movers and live.status not in ENDED_STATUSES:
            said.append(say("To move: {seats}.", seats=joined([live.who(s) for s in movers])))
        if timed:
            said.append(say("Clocks: {clocks}.", clocks=self.clocks_said(live, now, timed)))
        if live.status == MatchStatus.ABORTED and not game.outcome():
            said.append(ABORTED_SAID)
        # Whole sentences, one after another.
        parts = [self.text(live, sentence) for sentence in said]
        if game.outcome():
            parts.append(self.caption(live, now))
        return " ".join(parts)
