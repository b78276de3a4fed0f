"""Private moves without DMs: a "Send privately" button in the game room answers its presser alone
(an ephemeral message) with the seat's own view and a button that opens a form for the private
move, which goes in exactly as a DM would. The room offers the button while a seat the game waits
on cannot be sent DMs; ``/move`` sends a private move too.

A button's custom_id carries the match (``gb:private:12`` in the room, ``gb:sealed:12`` under a
seat's own view), so buttons posted before a restart still work (discord.py dynamic items,
registered at start). These formats are what running matches' buttons carry: they never change.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import re
from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from geniusbot.bot import DISCORD_ERRORS, Refusal, member_words, reply
from geniusbot.host.match import LiveMatch
from geniusbot.host.transport import Player, TransportError
from geniusbot.storage import MatchStatus
from geniusbot.words import Message, Verbatim, Words, joined, say

from . import bot_of
from .choices import Offer

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot

log = logging.getLogger(__name__)

#: The label of the room's button (said in the bot's language).
SEND_PRIVATELY = say("Send privately")
#: The label of the button under a seat's own view that opens the form.
TYPE_MOVE = say("Type my private move")


def private_entry_message(labels: list[str]) -> Message:
    """The room's message above the "Send privately" button: whom it is for (``labels``: the
    room's names of the seats, "alice (p1)")."""
    return say(
        "{seats}: I cannot send you direct messages. Press the button to see your own view and send your "
        "private move; only you will see them (or send it with {move}).",
        seats=Verbatim(", ".join(labels)),
        move=Verbatim("/move"),
    )


def _button(kind: str, match_id: int, label: str, style: discord.ButtonStyle) -> discord.ui.Button[discord.ui.View]:
    """A button of match ``match_id`` whose custom_id is ``gb:<kind>:<match>``."""
    return discord.ui.Button(label=label[:80], style=style, custom_id=f"gb:{kind}:{match_id}")


async def _answered(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Run a press's work; a refusal or a failure is answered as a slash command's is."""
    try:
        await work
    except Exception as error:  # the tree's handler answers, as for a slash command
        await bot_of(interaction).on_app_command_error(interaction, error)


class PrivateButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"gb:private:(?P<match>\d+)"):
    """The room's "Send privately": the presser's own view and the form, to the presser alone."""

    def __init__(self, match_id: int, label: str = "Send privately") -> None:
        super().__init__(_button("private", match_id, label, discord.ButtonStyle.secondary))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PrivateButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answered(interaction, show_own_view(interaction, self.match_id))


class TypeMoveButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"gb:sealed:(?P<match>\d+)"):
    """Under a seat's own view: opens the form for its private move."""

    def __init__(self, match_id: int, label: str = "Type my private move") -> None:
        super().__init__(_button("sealed", match_id, label, discord.ButtonStyle.primary))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TypeMoveButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answered(interaction, open_form(interaction, self.match_id))


async def open_form(interaction: discord.Interaction, match_id: int) -> None:
    """Open the form of the presser's private move, in the presser's language."""
    seat = await seat_of(interaction, match_id)
    await interaction.response.send_modal(PrivateMoveForm(match_id, seat, words=member_words(interaction)))


class PrivateMoveForm(discord.ui.Modal):
    """The form of a private move: one line, checked and taken exactly as a DM."""

    def __init__(self, match_id: int, seat: str, *, words: Words) -> None:
        super().__init__(title=words(say("Match #{match}: your private move", match=match_id))[:45], timeout=None)
        self.match_id = match_id
        self.seat = seat
        self.move: discord.ui.TextInput[PrivateMoveForm] = discord.ui.TextInput(
            label=words(say("Your move, as you would send it by DM"))[:45], max_length=200, custom_id="move"
        )
        self.add_item(self.move)

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        await _answered(interaction, send_private_move(interaction, self.match_id, self.seat, self.move.value))


def private_entry_view(match_id: int, label: str) -> discord.ui.View:
    """The room's "Send privately" button (no timeout: it lives as long as the message)."""
    view = discord.ui.View(timeout=None)
    view.add_item(PrivateButton(match_id, label))
    return view


async def seat_of(interaction: discord.Interaction, match_id: int) -> str:
    """The seat the presser holds in the running match ``match_id``, or a refusal."""
    host = bot_of(interaction).host
    assert host is not None
    live = await host.load(match_id)
    if live is None:
        raise Refusal(
            say(
                "Match #{match} is not running any more; {status} lists the running ones.",
                match=match_id,
                status=Verbatim("/status"),
            )
        )
    seat = next((s for s, p in live.players.items() if p.user_id == interaction.user.id), None)
    if seat is None:
        raise Refusal(say("You do not play in match #{match}; this button is for its players.", match=match_id))
    return seat


async def show_own_view(interaction: discord.Interaction, match_id: int) -> None:
    """Answer the presser alone with its own view and the button that opens the form."""
    bot = bot_of(interaction)
    host = bot.host
    assert host is not None
    seat = await seat_of(interaction, match_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    live = await host.load(match_id)
    assert live is not None
    if live.game.window() is not None:
        # What a window shows (a grid to memorise) is deleted from the room when it closes; an
        # answer to one member cannot be taken back, so the view waits for the window to close.
        raise Refusal(say("The board in the room shows what everyone may see now; press again once it is hidden."))
    png, text = await asyncio.to_thread(host.own_view, live, seat)
    view = discord.ui.View(timeout=None)
    view.add_item(TypeMoveButton(match_id, bot.words()(TYPE_MOVE)))
    extra: dict[str, Any] = {"view": view}
    if png is not None:
        extra["file"] = discord.File(io.BytesIO(png), filename=f"match{match_id}-{seat}.png")
    await reply(interaction, text[:2000], **extra)


async def send_private_move(interaction: discord.Interaction, match_id: int, seat: str, text: str) -> None:
    """Submit ``text`` privately for ``seat``, as a DM; answer the sender alone."""
    bot = bot_of(interaction)
    host = bot.host
    assert host is not None
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await host.submit(match_id, seat, text, private=True, key=f"discord:{interaction.id}", answer=False)
    if not result.ok:
        raise Refusal(result.message or say("That move was not taken; send it again."))
    bot.dispatch("match_changed", match_id)
    await reply(
        interaction, say("Match #{match}: your move {move} is in.", match=match_id, move=Verbatim(text.strip()))
    )


async def close_entry(bot: Any, channel_id: int, message_id: int) -> None:
    """Take the button off an old "Send privately" message."""
    try:
        await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
    except DISCORD_ERRORS as error:
        log.info("could not close a Send privately button: %s", error)
    except RuntimeError as error:  # discord.py's "Session is closed": the bot stopped meanwhile
        if not bot.is_closed():
            raise
        log.info("the bot stopped before a Send privately button was taken off: %s", error)


def waiting_privately(live: LiveMatch, closed: set[str]) -> list[str]:
    """The seats the match waits on for a private move whose DMs could not be reached
    (``closed``; the practice opponent's aside)."""
    game = live.game
    if not type(game).takes_private_moves():
        return []
    return [
        seat
        for seat in game.to_move()
        if seat in closed
        and seat != live.practice_seat
        and live.players[seat].user_id is not None
        and any(game.is_private(move) for move in itertools.islice(game.legal_moves(seat), 200))
    ]


class PrivateEntries:
    """The room's "Send privately" offers: one a match while it waits on a private move of a seat
    whose DMs could not be reached (``closed_dms``: the seats closed when the match started; the
    host learns of others as its private messages fail, ``LiveMatch.unreachable``)."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        self.offers: dict[int, Offer] = {}
        self.closed_dms: dict[int, set[str]] = {}

    async def refresh(self, match_id: int, live: LiveMatch, view: Mapping[str, Any]) -> None:
        """Offer "Send privately" while the match waits on such a seat; a fresh offer each
        question, the old one closed."""
        closed = self.closed_dms.get(match_id, set()) | live.unreachable
        waiting = waiting_privately(live, closed) if live.status == MatchStatus.LIVE else []
        if live.status not in (MatchStatus.LIVE, MatchStatus.PAUSED):
            self.closed_dms.pop(match_id, None)
        asks = (*live.game.choice_key(view), tuple(waiting)) if waiting else ()
        old = self.offers.get(match_id)
        if old is not None and old.asks == asks:
            return
        if old is not None:
            self.offers.pop(match_id, None)
            await close_entry(self.bot, old.channel_id, old.message_id)
        if not waiting or live.channel_id is None:
            return
        assert self.bot.host is not None
        words = self.bot.host.announcer.words(live)  # the match's language
        try:
            sent = await self.bot.get_partial_messageable(live.channel_id).send(
                words(private_entry_message([live.label(seat) for seat in waiting])),
                view=private_entry_view(match_id, words(SEND_PRIVATELY)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except DISCORD_ERRORS as error:
            log.warning("match %s: could not post the Send privately button: %s", match_id, error)
            return
        self.offers[match_id] = Offer(live.channel_id, sent.id, waiting[0], (), asks)


def with_closed_dms(started: Message, closed: list[Player]) -> Message:
    """What a member who started a match is told: ``started``, and who cannot be sent DMs and how
    they play all the same."""
    if not closed:
        return started
    return say(
        "{started} I cannot send a direct message to {players}: they see their own view and send their "
        "private moves with the Send privately button in the room, or with {move}.",
        started=started,
        players=joined([Verbatim(f"<@{p.user_id}>") for p in closed]),
        move=Verbatim("/move"),
    )


async def greet_privately(bot: GeniusBot, players: Sequence[Player], hello: Message, language: str) -> list[Player]:
    """Send each of ``players`` ``hello`` by DM before a match that nobody started by hand (a
    tournament's game); returns those whose DMs are closed, as :func:`check_dms` does."""
    words = bot.words(language=language)
    closed: list[Player] = []
    for player in players:
        try:
            await bot.transport.send_private(player, words(hello))
        except TransportError as error:
            log.info("DM check for %s failed: %s", player.label, error)
            closed.append(player)
    return closed


async def check_dms(
    bot: GeniusBot,
    interaction: discord.Interaction,
    title: str,
    channel: discord.TextChannel,
    players: list[Player],
    *,
    against: str | None = None,
) -> list[Player]:
    """Open a DM with each player before a match that takes private moves, saying where they
    go; returns the players whose DMs are closed (Discord has no way to ask whether a DM would
    get through but to send one). They play all the same: the room offers them "Send
    privately" (their own view and a form for the private move, to them alone) and ``/move``.
    ``against``: a practice match's opponent, the bot's name (the member who starts one plays it)."""
    words = bot.words(language=await bot.rooms.of(interaction.guild))  # the language the match will speak
    closed: list[Player] = []
    room = Verbatim(f"#{channel.name}")
    for player in players:
        hello: Message
        if player.user_id == interaction.user.id:  # the one who starts it hears it as "you"
            match = (
                say("a practice match of {title} against {bot}", title=Verbatim(title), bot=Verbatim(against))
                if against
                else say("a match of {title}", title=Verbatim(title))
            )
            hello = say(
                "You are starting {match} in {room}, playing {seat}.",
                match=match,
                room=room,
                seat=Verbatim(player.seat),
            )
        else:
            hello = say(
                "{user} is starting a match of {title} in {room} with you as {seat}.",
                user=Verbatim(interaction.user.display_name),
                title=Verbatim(title),
                room=room,
                seat=Verbatim(player.seat),
            )
        try:
            await bot.transport.send_private(
                player,
                words(say("{hello} Private moves of that match go here, in this direct message.", hello=hello)),
            )
        except TransportError as error:
            log.info("DM check for %s failed: %s", player.label, error)
            closed.append(player)
    return closed
