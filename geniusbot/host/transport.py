"""The host's only way to speak: a small transport protocol.

A transport knows how to post into a match's room (a Discord channel, the terminal, a test's
list) and how to reach one player privately. The host never imports Discord: the cog implements
this protocol with discord.py, the console prints, and the tests record.

Addresses are the ones the store keeps: a room is the match's ``channel_id`` (``None`` for a
console match), a player is a :class:`Player` (seat, Discord user id or ``None``, display name).
Every method may raise :class:`TransportError`; the host logs it and goes on (a lost
announcement never undoes a committed action).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


class TransportError(RuntimeError):
    """The outside world refused a message (a closed DM, a deleted channel, a network error)."""


@dataclass(frozen=True)
class Player:
    """A seat and who holds it."""

    seat: str
    user_id: int | None = None
    name: str = ""

    @property
    def label(self) -> str:
        """How the host names the player in the room: ``Alice (p1)`` or ``p1``."""
        return f"{self.name} ({self.seat})" if self.name and self.name != self.seat else self.seat


@dataclass(frozen=True)
class TextBoard:
    """A text board and the lines around it, as the host sends them: the ``board`` (rows laid out
    in columns, then its footer), a sentence ``above`` it and lines ``below`` it. The board is
    data, never found in a text again: Discord puts it (and it alone) in a code block, a terminal
    prints :attr:`text`."""

    board: str
    above: str = ""
    below: str = ""
    #: The players it tells it is their turn now (a transport that can notify them does: Discord
    #: mentions them, where the server has turn pings on); once a turn, the host decides.
    ping: tuple[Player, ...] = ()

    @property
    def text(self) -> str:
        """The whole as one text: what is above, the board and what is below, a line each."""
        return "\n".join(t for t in (self.above, self.board, self.below) if t)


#: How a room shows a match's board (``/setup board``): a picture with its caption per move
#: (``message``, the default), a card per move (``card``), or one card per match edited in place
#: after every move, its latest moves logged in it (``edited``). See :class:`CardTransport`.
BOARD_STYLES = ("message", "card", "edited")


@dataclass(frozen=True)
class CardClock:
    """A seat's clock on a card: ``text`` as the host says it now ("alice (p1) 0:52 +5:00"); while
    it runs, ``deadline`` (epoch seconds) is when it runs out and ``running`` the words of its line
    before and after that moment, which a transport writes as a countdown that stays live
    (Discord: ``<t:...:R>``, :meth:`line`)."""

    text: str
    deadline: float | None = None
    running: tuple[str, str] = ("", "")

    def line(self, moment: str) -> str:
        """The clock's line with ``moment`` (the deadline as the transport writes it) in its
        place; the stopped clock's ``text`` when it does not run."""
        if self.deadline is None:
            return self.text
        return f"{self.running[0]}{moment}{self.running[1]}"


@dataclass(frozen=True)
class CardButton:
    """A button a card carries: its ``kind`` (``private``: "Send privately", custom id
    ``gb:private:<match>``), the match it acts on and its label, said already."""

    kind: str
    match_id: int
    label: str


@dataclass(frozen=True)
class BoardCard:
    """A board as a card (:class:`CardTransport`): the facts a transport lays out, every word
    said already in the host's language.

    ``colour``: the colour of the seat to move (``0xRRGGBB``; ``None`` when nobody is to move);
    ``png``/``filename``/``alt``: the board's picture and its words; ``last_move``: the line of
    the last move ("" for none); ``clocks``: each seat's clock; ``lines``: the caption's lines
    (the action's announcement, the window's line, the result or an untimed match's "To move"
    line); ``log``: the latest moves, oldest first, under ``log_heading`` (an edited card's);
    ``buttons`` and ``ping`` (the players told it is their turn, see :attr:`TextBoard.ping`).
    """

    match_id: int
    title: str
    png: bytes
    filename: str
    alt: str = ""
    colour: int | None = None
    last_move: str = ""
    clocks: tuple[CardClock, ...] = ()
    lines: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    log_heading: str = ""
    buttons: tuple[CardButton, ...] = ()
    ping: tuple[Player, ...] = ()

    @property
    def text(self) -> str:
        """The card's words as one text (a terminal, a recording), each clock as it was said when
        the card was made."""
        log = [self.log_heading, *self.log] if self.log else []
        parts = [self.title, *self.lines, self.last_move, *(c.text for c in self.clocks), *log]
        return "\n".join(p for p in parts if p)


@runtime_checkable
class CardTransport(Protocol):
    """A transport that can show a board as a card (Discord's Components V2 message), as each
    room chooses (:meth:`board_style`, one of :data:`BOARD_STYLES`). ``post_card`` posts one (named
    by ``key`` if given: its picture's file carries it, so :meth:`KeyedTransport.find_posted`
    finds it after a crash); ``edit_card`` edits a card posted before into ``card`` (picture and
    all)."""

    async def board_style(self, room: int | None) -> str:
        """How ``room`` shows a match's board: ``message``, ``card`` or ``edited``."""
        ...

    async def post_card(self, room: int | None, card: BoardCard, *, key: str | None = None) -> int:
        """Post ``card`` in the room; return its message's id."""
        ...

    async def edit_card(self, room: int | None, message_id: int, card: BoardCard) -> None:
        """Edit the card ``message_id`` into ``card``."""
        ...


@runtime_checkable
class Transport(Protocol):
    """What the host may do in the outside world. Message ids are integers (Discord snowflakes; the console's are unique across its runs).

    A transport declares how its users write a host command: ``command_prefix``, put before the
    command's name when the host names one in a hint ("/" on Discord: "use /resume to go on";
    the console's "": "use resume to go on"), and ``commands``: the names its users can write so
    (Discord: its slash commands, which have no ``close window``); a hint names no other.
    ``None``: every host command can be written (the console). See :class:`CommandNames`.
    """

    #: How the transport's users write a host command, before its name ("/" on Discord).
    command_prefix: str
    #: Whether the room hears of a restart as the bot's return ("The bot is back after 2:00"), or,
    #: where there is no bot that was away (the console), as the match's ("Match #1 is back after 2:00").
    bot_returns: bool

    @property
    def commands(self) -> frozenset[str] | None:
        """The host commands the transport's users can write (``None``: all)."""
        ...

    async def post(self, room: int | None, text: str) -> int:
        """Post ``text`` in the room; return the new message's id."""
        ...

    async def post_board(self, room: int | None, board: TextBoard) -> int:
        """Post a text board (with the lines around it) in the room; return the first message's id."""
        ...

    async def post_picture(
        self, room: int | None, png: bytes, *, filename: str, text: str = "", alt: str = "", ping: Sequence[Player] = ()
    ) -> int:
        """Post a PNG picture (with an optional caption) in the room; return its id. ``alt``: the
        picture in words, for who cannot see it (a screen reader; Discord's attachment description);
        ``ping``: the players it tells it is their turn (see :attr:`TextBoard.ping`)."""
        ...

    async def delete(self, room: int | None, message_id: int) -> None:
        """Delete a message the host posted."""
        ...

    async def send_private(self, player: Player, text: str) -> int | None:
        """Send ``text`` to one player only (a DM); return its id if the medium has one."""
        ...

    async def send_private_board(self, player: Player, board: TextBoard) -> int | None:
        """Send a text board (with the lines around it) to one player only; its id if any."""
        ...

    async def send_private_picture(self, player: Player, png: bytes, *, filename: str, text: str = "") -> int | None:
        """Send a PNG picture (with an optional caption) to one player only; its id if any."""
        ...


@runtime_checkable
class TurnLinks(Protocol):
    """A transport that tells a player privately that it is their move, with a link to the board
    (Discord: a jump URL, where the server has turn pings on). A transport without it (the
    console, the recording one) is sent no such message."""

    async def tells_turns(self, room: int | None) -> bool:
        """Whether the players of ``room`` are told privately that it is their move (Discord:
        where the room's server has turn pings on)."""
        ...

    def link(self, room: int | None, message_id: int) -> str | None:
        """A link that opens the message ``message_id`` of ``room`` where it stands (``None``: none)."""
        ...


class CommandNames:
    """The host's commands as a transport's users write them, as the transport declares
    (``command_prefix`` and ``commands``, read at each use: Discord's commands are its cogs')."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    @property
    def prefix(self) -> str:
        """What is written before a command's name: "/" on Discord, "" at the console."""
        return self.transport.command_prefix

    def offers(self, name: str) -> bool:
        """Whether the transport's users can write the host command ``name``: a transport's
        ``commands`` names those it has (Discord: its slash commands, so no ``close window``);
        ``None``: every host command (the console)."""
        commands = self.transport.commands
        return commands is None or name in commands

    def written(self, name: str) -> str:
        """A host command as the transport's users write it: "/resume" on Discord, "resume" on the
        console. Name only a command the transport offers (:meth:`offers`)."""
        return f"{self.prefix}{name}"

    def again(self, name: str) -> str:
        """ "/pause again", or "again" where the command has no name the users could write."""
        return f"{self.written(name)} again" if self.offers(name) else "again"


@runtime_checkable
class KeyedTransport(Protocol):
    """A transport that can find a room message again after a crash: it takes a ``key`` with a
    post and answers :meth:`find_posted` with the message posted with that key.

    The host posts a message it must delete later (a vanishing window's board) with a key of its
    own, after writing the deletion's intent and before learning the message's id. If the bot
    dies between the post and the id's fill-in, the restart asks the transport for the message
    by that key, so it can still delete it. A transport without this (the recording one) has its open intents
    dropped at a restart: the narrow gap between a post returning and its id being written is
    not covered there (nor for a message that cannot carry a key, such as a Discord text).
    """

    async def post(self, room: int | None, text: str, *, key: str | None = None) -> int:
        """Post ``text`` in the room, named by ``key`` if given; return the new message's id."""
        ...

    async def post_board(self, room: int | None, board: TextBoard, *, key: str | None = None) -> int:
        """Post a text board, named by ``key`` if given; return its first message's id."""
        ...

    async def post_picture(
        self, room: int | None, png: bytes, *, filename: str, text: str = "", alt: str = "", key: str | None = None
    ) -> int:
        """Post a picture (``alt``: in words), named by ``key`` if given; return its id."""
        ...

    async def find_posted(self, room: int | None, key: str) -> int | None:
        """The id of the message posted in ``room`` with ``key``, or ``None`` if there was none
        (or it cannot be known)."""
        ...


@runtime_checkable
class TextFinder(Protocol):
    """A keyed transport on which a text message cannot carry its key (Discord): it finds a text
    posted before a crash by what can be known of it instead, its words and when it was posted."""

    async def find_posted_text(self, room: int | None, digest: str, since: float) -> int | None:
        """The id of this bot's text message in ``room`` whose :func:`text_digest` is ``digest``,
        posted no earlier than ``since`` (epoch seconds, when its intent was written), or ``None``."""
        ...


def text_digest(text: str) -> str:
    """The digest of a text as posted (SHA-256, hex), kept with the intent to post it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def post_text(transport: Transport, room: int | None, text: str | TextBoard, key: str | None) -> int:
    """Post ``text`` (or a text board), with ``key`` if the transport takes one."""
    if isinstance(text, TextBoard):
        if key is not None and isinstance(transport, KeyedTransport):
            return await transport.post_board(room, text, key=key)
        return await transport.post_board(room, text)
    if key is not None and isinstance(transport, KeyedTransport):
        return await transport.post(room, text, key=key)
    return await transport.post(room, text)


async def send_private_text(transport: Transport, player: Player, text: str | TextBoard) -> int | None:
    """Send ``text`` (or a text board) to one player only."""
    if isinstance(text, TextBoard):
        return await transport.send_private_board(player, text)
    return await transport.send_private(player, text)


async def post_picture(
    transport: Transport, room: int | None, png: bytes, *, filename: str, text: str, key: str | None, alt: str = ""
) -> int:
    """Post a picture (``alt``: in words), with ``key`` if the transport takes one."""
    if key is not None and isinstance(transport, KeyedTransport):
        return await transport.post_picture(room, png, filename=filename, text=text, alt=alt, key=key)
    return await transport.post_picture(room, png, filename=filename, text=text, alt=alt)


@dataclass
class Sent:
    """One thing a :class:`RecordingTransport` was asked to do."""

    op: str  # "post" | "picture" | "card" | "edit card" | "delete" | "private" | "private picture"
    room: int | None
    text: str = ""
    message_id: int = 0
    to: str | None = None  # the seat, for private messages
    png: bytes | None = None
    alt: str = ""  # a picture in words
    ping: tuple[str, ...] = ()  # the seats told it is their turn
    card: BoardCard | None = None  # a card posted or edited


@dataclass
class RecordingTransport:
    """A transport that keeps everything in a list: for tests and benchmarks.

    ``fail_private`` names seats whose private messages fail (a closed DM); ``command_prefix``
    is written before the host commands its hints name (``"/"`` to read as Discord), and
    ``commands`` (``None``: all) are the only ones they name.
    """

    sent: list[Sent] = field(default_factory=list)
    fail_private: set[str] = field(default_factory=set)
    command_prefix: str = ""
    commands: frozenset[str] | None = None
    bot_returns: bool = True
    #: How its rooms show a board (:class:`CardTransport`): ``message`` unless a test says.
    style: str = "message"
    _next_id: int = 0

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def post(self, room: int | None, text: str) -> int:
        """Record a room post."""
        mid = self._id()
        self.sent.append(Sent("post", room, text, mid))
        return mid

    async def post_board(self, room: int | None, board: TextBoard) -> int:
        """Record a text board as the one room post it is (through :meth:`post`)."""
        mid = await self.post(room, board.text)
        self.sent[-1].ping = tuple(p.seat for p in board.ping)
        return mid

    async def post_picture(
        self, room: int | None, png: bytes, *, filename: str, text: str = "", alt: str = "", ping: Sequence[Player] = ()
    ) -> int:
        """Record a picture."""
        mid = self._id()
        self.sent.append(Sent("picture", room, text, mid, png=png, alt=alt, ping=tuple(p.seat for p in ping)))
        return mid

    async def board_style(self, room: int | None) -> str:
        """The board style the test chose (:attr:`style`)."""
        return self.style

    async def post_card(self, room: int | None, card: BoardCard, *, key: str | None = None) -> int:
        """Record a card (its words as one text, :attr:`BoardCard.text`)."""
        mid = self._id()
        self.sent.append(
            Sent(
                "card",
                room,
                card.text,
                mid,
                png=card.png,
                alt=card.alt,
                ping=tuple(p.seat for p in card.ping),
                card=card,
            )
        )
        return mid

    async def edit_card(self, room: int | None, message_id: int, card: BoardCard) -> None:
        """Record a card's edit."""
        self.sent.append(Sent("edit card", room, card.text, message_id, png=card.png, alt=card.alt, card=card))

    async def delete(self, room: int | None, message_id: int) -> None:
        """Record a deletion."""
        self.sent.append(Sent("delete", room, "", message_id))

    async def send_private(self, player: Player, text: str) -> int | None:
        """Record a private message, or fail for seats in ``fail_private``."""
        if player.seat in self.fail_private:
            raise TransportError(f"{player.label} does not accept private messages.")
        mid = self._id()
        self.sent.append(Sent("private", None, text, mid, to=player.seat))
        return mid

    async def send_private_board(self, player: Player, board: TextBoard) -> int | None:
        """Record a private text board as the one private message it is (through :meth:`send_private`)."""
        return await self.send_private(player, board.text)

    async def send_private_picture(self, player: Player, png: bytes, *, filename: str, text: str = "") -> int | None:
        """Record a private picture, or fail for seats in ``fail_private``."""
        if player.seat in self.fail_private:
            raise TransportError(f"{player.label} does not accept private messages.")
        mid = self._id()
        self.sent.append(Sent("private picture", None, text, mid, to=player.seat, png=png))
        return mid

    # ---- reading, for tests --------------------------------------------------------------

    def room_texts(self) -> list[str]:
        """Every text posted in a room (posts and picture captions), in order."""
        return [s.text for s in self.sent if s.op in ("post", "picture", "card")]

    def private_texts(self, seat: str) -> list[str]:
        """Every private text sent to ``seat`` (messages and picture captions)."""
        return [s.text for s in self.sent if s.op in ("private", "private picture") and s.to == seat]

    def clear(self) -> None:
        """Forget what was sent so far."""
        self.sent.clear()
