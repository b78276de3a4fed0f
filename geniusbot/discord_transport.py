"""The match host's :class:`~geniusbot.host.transport.Transport`, spoken with discord.py.

Rooms are channel ids; the transport reaches them through
:meth:`discord.Client.get_partial_messageable`, so it works before the gateway has filled the
cache (the host tells each room that the bot is back from ``setup_hook``, before connecting).
Every Discord refusal becomes the host's :class:`TransportError`: a closed DM (403, code 50007),
a deleted channel, missing permissions, a network error. A call that takes longer than
``timeout`` seconds is given up with a :class:`TransportError` too, so a match never hangs on
Discord.

A picture upload that fails for a passing reason discord.py does not retry itself (503
Service Unavailable, a dropped connection) is tried again after each of ``retry_delays``
seconds, slept with ``sleep`` (the bot sleeps on its time source, so tests inject the delays);
discord.py retries a 500, 502 or 504 itself, five times, before the transport hears of it, so
those are not tried again here.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import TypeVar

import aiohttp
import discord

from geniusbot.discord_card import card_view
from geniusbot.host.transport import BoardCard, Player, TextBoard, TransportError, text_digest
from geniusbot.spectating import Readers
from geniusbot.words import Message

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Discord's limit on a message's text.
MESSAGE_LIMIT = 2000
#: Error code of "Cannot send messages to this user" (the user's DMs are closed to the bot).
CANNOT_DM = 50007
NO_MENTIONS = discord.AllowedMentions.none()
#: The statuses discord.py retries itself (sleeping 1, 3, 5, 7 and 9 s) before it raises.
RETRIED_BY_DISCORD_PY = frozenset({500, 502, 504, 524})
#: Seconds between the tries of an upload that failed for a passing reason: three tries in all.
UPLOAD_RETRY_DELAYS: tuple[float, ...] = (1.0, 3.0)


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` cut into messages of at most ``limit`` characters, at line ends where possible.
    A text is said as it is: only a :class:`~geniusbot.host.transport.TextBoard`'s board goes in a
    code block (:func:`board_texts`), never a line that merely looks like one."""
    if len(text) <= limit:
        return [text or "\u200b"]
    return _cut(text, limit)


def _cut(body: str, room: int) -> list[str]:
    parts: list[str] = []
    while body:
        if len(body) <= room:
            cut = len(body)
        else:
            cut = body.rfind("\n", 0, room)
            cut = room if cut <= 0 else cut
        parts.append(body[:cut])
        body = body[cut:].lstrip("\n")
    return parts


def board_texts(board: TextBoard, limit: int = MESSAGE_LIMIT) -> list[str]:
    """A text board as messages: the board, all of it and it alone, in a code block (Discord drops
    leading spaces outside one, and the board's columns line up with them), the sentence above it
    and the lines below it as text. One message where it fits; else the sentence, the board cut
    at line ends into blocks of their own, and the lines below, each in messages of their own."""
    block = f"```\n{board.board}\n```"
    whole = "\n".join(t for t in (board.above, block, board.below) if t)
    if len(whole) <= limit:
        return [whole]
    parts = split_text(board.above, limit) if board.above else []
    parts += [f"```\n{part}\n```" for part in _cut(board.board, limit - 8)]
    if board.below:
        parts += split_text(board.below, limit)
    return parts


#: Discord's limit on an attachment's description.
ALT_LIMIT = 1024


def alt_text(alt: str) -> str | None:
    """A picture's description as Discord takes it: at most :data:`ALT_LIMIT` characters, cut at a
    line with an ellipsis; ``None`` for none."""
    if not alt:
        return None
    if len(alt) <= ALT_LIMIT:
        return alt
    cut = alt[: ALT_LIMIT - 1]
    return (cut.rsplit("\n", 1)[0] if "\n" in cut else cut) + "…"


def unfenced(content: str) -> str:
    """A message's text without the code block lines :func:`board_texts` put around a board: the
    text the host meant (:attr:`TextBoard.text`), whose digest finds it again."""
    return "\n".join(line for line in content.split("\n") if line != "```")


def passing(error: TransportError) -> bool:
    """Whether a failed call may pass if tried again and discord.py has not tried again itself:
    a 503 or a dropped connection (not a refusal, a timeout, or a 500 discord.py retried)."""
    cause = error.__cause__
    if isinstance(cause, discord.DiscordServerError):
        return cause.status not in RETRIED_BY_DISCORD_PY
    return isinstance(cause, aiohttp.ClientConnectionError)


def captions(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """A picture's caption as messages: all but the last go before the picture, the last rides
    with it (``[""]`` for no caption)."""
    if not text:
        return [""]
    return split_text(text, limit)


#: How many of a room's latest messages :meth:`DiscordTransport.find_posted` looks through.
FIND_WITHIN = 100

#: How much earlier than its intent a text found again may seem posted (seconds): the bot's
#: clock and Discord's may differ by that much.
CLOCK_MARGIN = 60.0


def _keyed_filename(filename: str, key: str) -> str:
    """``match1.png`` posted with the key ``m12``: ``match1-m12.png``."""
    stem, dot, suffix = filename.rpartition(".")
    return f"{stem}-{key}.{suffix}" if dot else f"{filename}-{key}"


def _keyed_name(filename: str, key: str) -> bool:
    """Whether an attachment's file name is one :func:`_keyed_filename` made with ``key``."""
    stem = filename.rpartition(".")[0] or filename
    return stem.endswith(f"-{key}")


class DiscordTransport:
    """Posts, pictures, edits, deletions and DMs for the host, through one discord.py client."""

    #: Host commands are slash commands: the host's hints say "/resume".
    command_prefix = "/"
    #: A resumed match's first line after a restart: the bot was away.
    bot_returns = True

    @property
    def commands(self) -> frozenset[str]:
        """The slash commands the bot has (its cogs'), the only ones a hint may name."""
        tree = getattr(self.client, "tree", None)
        return frozenset(c.name for c in tree.get_commands()) if tree is not None else frozenset()

    def __init__(
        self,
        client: discord.Client,
        *,
        timeout: float = 30.0,
        retry_delays: Sequence[float] = UPLOAD_RETRY_DELAYS,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        pings: Callable[[int], Awaitable[bool]] | None = None,
        board_style: Callable[[int], Awaitable[str]] | None = None,
    ) -> None:
        self.client = client
        self.timeout = timeout
        self.retry_delays = tuple(retry_delays)
        self.sleep: Callable[[float], Awaitable[None]] = sleep or asyncio.sleep
        #: Whether a server (by id) has turn pings on (``/setup pings``); ``None``: never ping.
        self.pings = pings
        #: How a server (by id) shows a match's board (``/setup board``); ``None``: as a picture.
        self.board_styles = board_style
        #: Room -> the turn ping posted under its edited card last (deleted at the next one).
        self._ping_lines: dict[int, int] = {}
        #: Who can read a spectators' room (see :mod:`geniusbot.spectating`).
        self.readers = Readers(client)

    async def readable_by(self, room: int, players: Sequence[Player], *, fresh: bool = False) -> Message | None:
        """Why one of ``players`` can read ``room``; ``None`` when none can (:class:`Readers`)."""
        return await self.readers.readable_by(room, players, fresh=fresh)

    async def _mentions(self, room: int | None, ping: Sequence[Player]) -> tuple[str, discord.AllowedMentions]:
        """The line that tells ``ping`` it is their turn, and the mentions allowed with it (those
        users alone): nothing where the room's server has turn pings off."""
        users = [p.user_id for p in ping if p.user_id is not None]
        channel = self.client.get_channel(room) if room is not None and users else None
        guild = getattr(channel, "guild", None)
        if not users or guild is None or self.pings is None or not await self.pings(guild.id):
            return "", NO_MENTIONS
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(id=u) for u in users]
        )
        return " ".join(f"<@{u}>" for u in users), allowed

    def _guild_id(self, room: int | None) -> int | None:
        """The server of ``room`` (a channel or thread the client knows), ``None`` if none."""
        channel = self.client.get_channel(room) if room is not None else None
        guild = getattr(channel, "guild", None)
        return guild.id if guild is not None else None

    async def board_style(self, room: int | None) -> str:
        """How the room's server shows a match's board (``/setup board``): ``message`` (a picture
        per move), ``card`` or ``edited``; a room of no known server shows pictures."""
        guild = self._guild_id(room)
        if guild is None or self.board_styles is None:
            return "message"
        return await self.board_styles(guild)

    async def post_card(self, room: int | None, card: BoardCard, *, key: str | None = None) -> int:
        """Post a board as a Components V2 card (:func:`~geniusbot.discord_card.card_view`), its
        picture an attachment (named after ``key`` if given, as :meth:`post_picture` names it, so
        :meth:`find_posted` finds the card too); the players of ``card.ping`` are mentioned in it."""
        channel = self._room(room)
        filename = _keyed_filename(card.filename, key) if key is not None else card.filename
        mention, allowed = await self._mentions(room, card.ping)

        def send() -> Awaitable[discord.Message]:
            view, file = card_view(card, filename, mention)
            return self._call(
                "post a card", self._sent(view, channel.send(view=view, file=file, allowed_mentions=allowed))
            )

        message = await self._upload(send)
        return message.id

    async def edit_card(self, room: int | None, message_id: int, card: BoardCard) -> None:
        """Edit the card ``message_id`` into ``card``: its picture replaced, its words and
        colour with it. An edit notifies nobody, so the players of ``card.ping`` are mentioned
        in a line of their own under it, the room's previous such line deleted (one at a time)."""
        channel = self._room(room)
        message = channel.get_partial_message(message_id)

        def send() -> Awaitable[discord.Message]:
            view, file = card_view(card, card.filename, "")
            edit = message.edit(view=view, attachments=[file], allowed_mentions=NO_MENTIONS)
            return self._call("edit a card", self._sent(view, edit))

        await self._upload(send)
        mention, allowed = await self._mentions(room, card.ping)
        if mention:
            pinged = await self._call("post a turn ping", channel.send(mention, allowed_mentions=allowed))
            old = self._ping_lines.pop(channel.id, None)
            self._ping_lines[channel.id] = pinged.id
            if old is not None:
                try:
                    await self.delete(room, old)
                except TransportError as error:
                    log.info("room %s: an old turn ping stays: %s", room, error)

    @staticmethod
    async def _sent(view: discord.ui.LayoutView, call: Awaitable[discord.Message]) -> discord.Message:
        """A card's message once sent; its view let go of (its buttons are the bot's dynamic items)."""
        try:
            return await call
        finally:
            view.stop()

    async def tells_turns(self, room: int | None) -> bool:
        """Whether the players of ``room`` are told privately that it is their move (long clocks):
        where its server has turn pings on (``/setup pings``)."""
        guild_id = self._guild_id(room)
        return guild_id is not None and self.pings is not None and await self.pings(guild_id)

    def link(self, room: int | None, message_id: int) -> str | None:
        """The jump URL of the message ``message_id`` of ``room`` (``None``: a room of no known server)."""
        guild_id = self._guild_id(room)
        return None if guild_id is None else f"https://discord.com/channels/{guild_id}/{room}/{message_id}"

    def _room(self, room: int | None) -> discord.PartialMessageable:
        if room is None:
            raise TransportError("This match has no Discord channel.")
        return self.client.get_partial_messageable(room)

    async def _call(self, what: str, call: Awaitable[T]) -> T:
        try:
            # In this task, not one of its own (``wait_for``'s): no task and no extra turn of the loop a request.
            async with asyncio.timeout(self.timeout):
                return await call
        except TimeoutError:
            raise TransportError(f"Discord did not answer within {self.timeout:.0f} s ({what}).") from None
        except discord.Forbidden as error:
            raise TransportError(f"Discord refused to {what}: {error.text or error} (code {error.code}).") from error
        except discord.HTTPException as error:
            raise TransportError(f"Discord failed to {what}: {error.text or error} (HTTP {error.status}).") from error
        except (OSError, RuntimeError, aiohttp.ClientError, discord.DiscordException) as error:
            # A closed session while shutting down, a dropped connection: the host goes on.
            raise TransportError(f"could not {what}: {error}") from error

    async def _upload(self, send: Callable[[], Awaitable[T]]) -> T:
        """``send()`` (a message with a file, built anew for each try), tried again after each of
        :attr:`retry_delays` while it fails for a passing reason (see :func:`passing`)."""
        for delay in (*self.retry_delays, None):
            try:
                return await send()
            except TransportError as error:
                if delay is None or not passing(error) or self.client.is_closed():
                    raise  # the last try, a refusal, or a bot that is shutting down
                log.info("%s; trying again in %.0f s", error, delay)
                await self.sleep(delay)
        raise AssertionError("unreachable: the last try raises")

    async def post(self, room: int | None, text: str, *, key: str | None = None) -> int:
        """Post ``text`` in the room (split over several messages if it is long); the first id.
        A text message cannot carry a ``key``: :meth:`find_posted` never finds one, but
        :meth:`find_posted_text` finds it by its words."""
        return await self._post_parts(room, split_text(text))

    async def post_board(self, room: int | None, board: TextBoard, *, key: str | None = None) -> int:
        """Post a text board, its board in a code block (:func:`board_texts`); the first id. As a
        text, it carries no ``key``: :meth:`find_posted_text` finds it by its words. The players
        of ``board.ping`` are mentioned on a line of their own above it (turn pings)."""
        parts = board_texts(board)
        mention, allowed = await self._mentions(room, board.ping)
        if mention:
            parts = (
                [f"{mention}\n{parts[0]}", *parts[1:]]
                if len(mention) + len(parts[0]) < MESSAGE_LIMIT
                else [mention, *parts]
            )
        return await self._post_parts(room, parts, allowed)

    async def _post_parts(
        self, room: int | None, parts: Sequence[str], allowed: discord.AllowedMentions = NO_MENTIONS
    ) -> int:
        channel = self._room(room)
        first: int | None = None
        for part in parts:
            message = await self._call("post a message", channel.send(part, allowed_mentions=allowed))
            allowed = NO_MENTIONS  # one ping a turn: the first part carries it
            first = first or message.id
        assert first is not None
        return first

    async def post_picture(
        self,
        room: int | None,
        png: bytes,
        *,
        filename: str,
        text: str = "",
        alt: str = "",
        key: str | None = None,
        ping: Sequence[Player] = (),
    ) -> int:
        """Post the PNG as a file attachment, with ``text`` as its caption (a caption too long for
        one message goes first as text, the picture carries its last part); the picture's id.
        With ``key`` the file is named after it too (``match1-m12.png``), so that
        :meth:`find_posted` finds the picture again after a crash. ``alt`` is the attachment's
        description (what a screen reader says of it; Discord keeps 1,024 characters)."""
        channel = self._room(room)
        *before, caption = captions(text)
        for part in before:
            await self._call("post a message", channel.send(part, allowed_mentions=NO_MENTIONS))
        if key is not None:
            filename = _keyed_filename(filename, key)
        # Turn pings: the players to move now, mentioned on a line of their own under the caption.
        mention, allowed = await self._mentions(room, ping)
        if mention and len(caption) + len(mention) < MESSAGE_LIMIT:
            caption = f"{caption}\n{mention}" if caption else mention
        else:
            allowed = NO_MENTIONS

        def send() -> Awaitable[discord.Message]:
            file = discord.File(io.BytesIO(png), filename=filename, description=alt_text(alt))
            return self._call("post a picture", channel.send(caption or None, file=file, allowed_mentions=allowed))

        message = await self._upload(send)
        return message.id

    async def find_posted(self, room: int | None, key: str) -> int | None:
        """The picture this bot posted in the room with ``key`` (by its file's name), among the
        room's last :data:`FIND_WITHIN` messages; ``None`` if there is none (a keyed text is never
        found: a text message cannot carry a key)."""
        channel = self._room(room)
        me = self.client.user
        if me is None:
            raise TransportError("The bot is not logged in to Discord yet.")

        async def scan() -> int | None:
            async for message in channel.history(limit=FIND_WITHIN):
                if message.author.id == me.id and any(_keyed_name(a.filename, key) for a in message.attachments):
                    return message.id
            return None

        return await self._call("read the room's messages", scan())

    async def find_posted_text(self, room: int | None, digest: str, since: float) -> int | None:
        """A text cannot carry a key on Discord (a message's ``nonce`` is not kept in its history),
        so the text this bot posted before a crash is found by what can be known of it: among the
        room's last :data:`FIND_WITHIN` messages, the earliest of the bot's own, without a file,
        created (by its id's time) no earlier than ``since`` less :data:`CLOCK_MARGIN`, whose
        words have the ``digest`` of the text meant (:func:`~geniusbot.host.transport.text_digest`).
        A text too long for one message is found by its first part only if that part is all of it."""
        channel = self._room(room)
        me = self.client.user
        if me is None:
            raise TransportError("The bot is not logged in to Discord yet.")
        earliest = datetime.fromtimestamp(since - CLOCK_MARGIN, UTC)

        async def scan() -> int | None:
            found: int | None = None  # the earliest such: history reads the newest first
            async for message in channel.history(limit=FIND_WITHIN):
                if message.created_at < earliest:
                    break
                mine = message.author.id == me.id and not message.attachments
                # A text board's message is found by the words meant, without its code block's lines.
                if mine and digest in (text_digest(message.content), text_digest(unfenced(message.content))):
                    found = message.id
            return found

        return await self._call("read the room's messages", scan())

    async def delete(self, room: int | None, message_id: int) -> None:
        """Delete a message the bot posted."""
        await self._call("delete a message", self._room(room).get_partial_message(message_id).delete())

    async def _user(self, player: Player) -> discord.User:
        if player.user_id is None:
            raise TransportError(f"{player.label} has no Discord account to write to.")
        user = self.client.get_user(player.user_id)
        if user is None:
            user = await self._call(f"find the Discord user of {player.label}", self.client.fetch_user(player.user_id))
        return user

    async def _dm(self, player: Player, call: Awaitable[discord.Message]) -> discord.Message:
        try:
            return await self._call("send a direct message", call)
        except TransportError as error:
            cause = error.__cause__
            if isinstance(cause, discord.Forbidden) and cause.code == CANNOT_DM:
                raise TransportError(f"{player.label} does not accept direct messages from this bot.") from cause
            raise

    async def send_private(self, player: Player, text: str) -> int | None:
        """DM the player; a closed DM raises :class:`TransportError` at once."""
        return await self._send_parts(player, split_text(text))

    async def send_private_board(self, player: Player, board: TextBoard) -> int | None:
        """DM the player a text board, its board in a code block (:func:`board_texts`)."""
        return await self._send_parts(player, board_texts(board))

    async def _send_parts(self, player: Player, parts: Sequence[str]) -> int | None:
        user = await self._user(player)
        first: int | None = None
        for part in parts:
            message = await self._dm(player, user.send(part, allowed_mentions=NO_MENTIONS))
            first = first or message.id
        return first

    async def send_private_picture(self, player: Player, png: bytes, *, filename: str, text: str = "") -> int | None:
        """DM the player a PNG with ``text`` as its caption; a closed DM raises :class:`TransportError`."""
        user = await self._user(player)
        *before, caption = captions(text)
        for part in before:
            await self._dm(player, user.send(part, allowed_mentions=NO_MENTIONS))

        def send() -> Awaitable[discord.Message]:
            file = discord.File(io.BytesIO(png), filename=filename)
            return self._dm(player, user.send(caption or None, file=file, allowed_mentions=NO_MENTIONS))

        message = await self._upload(send)
        return message.id
