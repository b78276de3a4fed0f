"""The board as a card (``/setup board``: ``card`` or ``edited``): the facts the host gives a
:class:`~.transport.CardTransport` (:class:`~.transport.BoardCard`), and the one card per match
of the ``edited`` style, whose message id the store keeps so that a restarted bot edits the same.

A card shows the board's picture with its words (the alt text), the colour of the seat to move,
the last move, each clock (a running one as the moment it runs out, which Discord counts down
live), the caption's lines and the board's buttons. An edited card logs the match's latest moves
under its board. A board of a vanishing window (a grid to memorise) is never edited into the
lasting card: it is a card of its own, deleted when the window closes (:meth:`TimedMessages.post_timed`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from geniusbot.render.palette import COLOURS
from geniusbot.storage import StorageError
from geniusbot.words import Message, Verbatim, say

from .live import LiveMatch
from .naming import game_title
from .posted import message_key
from .transport import BoardCard, CardButton, CardClock, CardTransport, Player, Transport, TransportError

if TYPE_CHECKING:
    from geniusbot.storage import Store

    from .announce import Announcer
    from .posted import TimedMessages

log = logging.getLogger(__name__)

#: The ``messages`` kind of a match's edited card.
CARD_MESSAGE = "card"
#: How many of the latest moves an edited card logs (Discord keeps 4,000 characters of text a card).
LOG_LINES = 10
#: Where an edited card's log is kept in the match's host state (saved with its next action).
LOG_KEY = "card_log"
#: Stands for the moment a clock runs out while its line is said, then split at it.
_MOMENT = "\x00"
#: The label of the card's "Send privately" button (the room's own button says the same).
SEND_PRIVATELY = say("Send privately")
#: The heading of an edited card's log of the latest moves.
LOG_HEADING = say("Latest moves:")


def seat_colour(view: Mapping[str, Any], seats: Sequence[str]) -> int | None:
    """The card's accent: the colour the seats to move play (the game's view's ``colors``, as the
    house palette draws it), the palette's accent where they play none or differ; ``None`` when
    nobody is to move."""
    if not seats:
        return None
    colours = {(view.get("colors") or {}).get(seat) for seat in seats}
    name = colours.pop() if len(colours) == 1 else None
    rgb = next(
        (COLOURS[k] for k in (f"{name}_stone", f"{name}_piece", f"{name}_tile", str(name)) if k in COLOURS),
        COLOURS["accent"],
    )
    return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]


def card_clocks(announcer: Announcer, live: LiveMatch, now: float) -> tuple[CardClock, ...]:
    """Each seat's clock on the card: a running one with the moment it runs out, a stopped one
    as the host says it today; none for an untimed match, an ended one, or while a timed window
    runs (its line says the time it has left)."""
    if live.clock.control.untimed or live.game.is_over or announcer.left_said(live, now) is not None:
        return ()
    words = announcer.words(live)
    clocks = []
    for seat in live.clock.seats:
        said = live.clock.said(seat, now)
        text = words(say("{seat} {clock}", seat=live.who(seat), clock=said))
        deadline = live.clock.deadline(seat)
        if deadline is None:
            clocks.append(CardClock(text))
            continue
        line = words(say("To move: {seat}, out of time {when}.", seat=live.who(seat), when=Verbatim(_MOMENT)))
        before, _, after = line.partition(_MOMENT)
        clocks.append(CardClock(text, deadline, (before, after)))
    return tuple(clocks)


def build(
    announcer: Announcer,
    live: LiveMatch,
    now: float,
    view: Mapping[str, Any],
    png: bytes,
    *,
    lead: Sequence[str],
    window: str,
    ending: Callable[[], str],
    alt: str,
    ping: tuple[Player, ...],
) -> BoardCard:
    """The card of the board now: its lines are ``lead`` (the action's announcement), ``window``
    (the running window's line) and ``ending()`` (the result, or the clock line, which the card's
    clocks say instead while they run: then it is not said at all)."""
    clocks = card_clocks(announcer, live, now)
    shown = [*(t for t in lead if t), *(t for t in (window, "" if clocks else ending()) if t)]
    last = view.get("last_move")
    last_move = announcer.text(live, say("Last move: {move}.", move=Verbatim(str(last)))) if last else ""
    movers = tuple(live.game.to_move()) if not live.game.is_over else ()
    buttons: tuple[CardButton, ...] = ()
    if movers and type(live.game).takes_private_moves() and live.players:
        buttons = (CardButton("private", live.id, announcer.text(live, SEND_PRIVATELY)),)
    title = announcer.text(live, say("Match #{id}: {game}", id=live.id, game=Verbatim(game_title(live.game))))
    return BoardCard(
        match_id=live.id,
        title=title,
        png=png,
        filename=f"match{live.id}.png",
        alt=alt,
        colour=seat_colour(view, movers),
        last_move=last_move,
        clocks=clocks,
        lines=tuple(shown),
        buttons=buttons,
        ping=ping,
    )


async def board_style(transport: Any, room: int | None) -> str:
    """How the room shows a board (``message`` on a transport that has no cards)."""
    if room is None or not isinstance(transport, CardTransport):
        return "message"
    try:
        return await transport.board_style(room)
    except TransportError as error:
        log.info("room %s: its board style could not be read: %s", room, error)
        return "message"


class CardParts(NamedTuple):
    """What a card is made of besides the picture: the time its clocks are said at, the public
    view, and the caption's parts (the announcement, the window's line, and the result or clock
    line, said when called)."""

    now: float
    view: Mapping[str, Any]
    lead: Sequence[str]
    window: str
    ending: Callable[[], str]


class Cards:
    """Posting a board as a card, and the one card of each match of an ``edited`` room."""

    def __init__(
        self,
        store: Store,
        transport: Transport,
        posted: TimedMessages,
        words: Callable[[LiveMatch, Message], str],
    ) -> None:
        self.words = words
        self.store = store
        self.transport = transport
        self.posted = posted
        #: Match id -> its edited card's message id, once known in this process.
        self.ids: dict[int, int] = {}

    async def post(
        self,
        announcer: Announcer,
        live: LiveMatch,
        png: bytes,
        parts: CardParts,
        style: str,
        delete_at: float | None,
        *,
        caption: Callable[[], str],
        alt: str,
        ping: tuple[Player, ...],
    ) -> int | None:
        """Show the board as a card (``style``: ``card`` or ``edited``). An edited card's match
        that has ended reads its result in the room as today, under a picture of its last board
        (``caption()``: its words)."""
        made = build(
            announcer,
            live,
            parts.now,
            parts.view,
            png,
            lead=parts.lead,
            window=parts.window,
            ending=parts.ending,
            alt=alt,
            ping=ping,
        )
        shown = await self.show(live, made, style, delete_at, parts.lead)
        if style == "edited" and delete_at is None and live.game.is_over:
            self.forget(live.id)
            return await self.transport.post_picture(live.room, png, filename=made.filename, text=caption(), alt=alt)
        return shown

    async def show(
        self, live: LiveMatch, card: BoardCard, style: str, delete_at: float | None, lead: Sequence[str] = ()
    ) -> int | None:
        """Show ``card`` in the room as ``style`` says. A board to be deleted at ``delete_at`` (a
        vanishing window's) is a card of its own, deleted then, never the match's edited card."""
        transport = self.transport
        assert isinstance(transport, CardTransport)
        if delete_at is not None:
            return await self.posted.post_timed(
                live, delete_at, lambda key: transport.post_card(live.room, card, key=key)
            )
        if style != "edited":
            return await transport.post_card(live.room, card)
        card = self.logged(live, card, [t for t in lead if t])
        message_id = await self.card_id(live)
        if message_id is not None:
            try:
                await transport.edit_card(live.room, message_id, card)
                return message_id
            except TransportError as error:
                log.info(
                    "match %s: its card %s could not be edited (%s); a new one is posted", live.id, message_id, error
                )
        return await self._post_new(live, card)

    def logged(self, live: LiveMatch, card: BoardCard, lead: Sequence[str]) -> BoardCard:
        """An edited card with its log: the match's latest moves, oldest first (this action's
        announcement, ``lead``, last; kept in the match's host state, saved with its next action),
        the lines that are not the move's own (the window's, the result) above them."""
        kept = [str(t) for t in live.host.get(LOG_KEY) or []]
        said = " ".join(t for t in lead if t)
        if said:
            kept = [*kept, said][-LOG_LINES:]
            live.host[LOG_KEY] = kept
        heading = self.words(live, LOG_HEADING) if kept else ""
        return replace(card, lines=card.lines[len(lead) :], log=tuple(kept), log_heading=heading)

    async def card_id(self, live: LiveMatch) -> int | None:
        """The message id of the match's edited card: this process's, else the store's (an
        intent whose post a crash cut short is found by its key, or dropped)."""
        if live.id in self.ids:
            return self.ids[live.id]
        try:
            rows = [r for r in await self.store.messages(live.id) if r.kind == CARD_MESSAGE and not r.deleted]
        except StorageError as error:
            log.warning("match %s: its card could not be read: %s", live.id, error)
            return None
        for row in reversed(rows):
            if row.message_id is not None:
                self.ids[live.id] = row.message_id
                return row.message_id
            settled = await self.posted.settle_intent(row)
            if settled is not None:
                self.ids[live.id] = settled[0]
                return settled[0]
        return None

    async def _post_new(self, live: LiveMatch, card: BoardCard) -> int:
        """Post the match's edited card, its row's intent written first (so a crash between the
        post and its id is found again by its key)."""
        transport = self.transport
        assert isinstance(transport, CardTransport)
        try:
            intent = await self.store.add_message(live.room, None, CARD_MESSAGE, match_id=live.id)
        except StorageError as error:
            log.warning("match %s: its card is posted unkept: %s", live.id, error)
            return await transport.post_card(live.room, card)
        message_id = await transport.post_card(live.room, card, key=message_key(intent.id))
        try:
            await self.store.fill_message(intent.id, message_id)
        except StorageError as error:
            log.warning("match %s: its card's id could not be kept: %s", live.id, error)
        self.ids[live.id] = message_id
        return message_id

    def forget(self, match_id: int) -> None:
        """Let go of an ended match's card."""
        self.ids.pop(match_id, None)
