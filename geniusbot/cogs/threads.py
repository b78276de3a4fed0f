"""Match threads (``/setup threads:true``): a match runs in a public thread of its game room, named
after the match; when it ends the room reads its result and the thread is archived and locked."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from geniusbot.bot import DISCORD_ERRORS, Refusal
from geniusbot.games import get_game
from geniusbot.host.match import LiveMatch
from geniusbot.host.transport import Player
from geniusbot.storage import MatchNotFound, StorageUnavailable
from geniusbot.words import Verbatim, say

from . import players_of

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot

log = logging.getLogger(__name__)


def thread_name(title: str, players: list[Player], match_id: int | None = None) -> str:
    """A match's thread's name: "#12 <title>: alice vs bob" (Discord allows 100 characters)."""
    names = " vs ".join(p.name or p.seat for p in players)
    return (f"#{match_id} " if match_id is not None else "") + f"{title}: {names}"[:100]


class MatchThreads:
    """Opens, names and closes the threads the bot runs matches in (each closed once)."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        self.closed: set[int] = set()

    async def open(self, room: discord.TextChannel, name: str) -> discord.Thread:
        """A public thread of ``room`` for a match, or a refusal."""
        try:
            return await room.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
            )
        except DISCORD_ERRORS as error:
            log.warning("could not open a thread in %s: %s", room.id, error)
            raise Refusal(
                say(
                    "I could not open a thread in {room} for the match; try again in a moment.",
                    room=Verbatim(room.mention),
                )
            ) from None

    @staticmethod
    async def drop(place: discord.abc.Messageable) -> None:
        """Delete the thread opened for a match that did not start."""
        if isinstance(place, discord.Thread):
            try:
                await place.delete()
            except DISCORD_ERRORS as error:
                log.info("could not delete the unused thread %s: %s", place.id, error)

    @staticmethod
    async def name(place: discord.abc.Messageable, name: str) -> None:
        """Give a match's thread its number once the match has one."""
        if isinstance(place, discord.Thread):
            try:
                await place.edit(name=name)
            except DISCORD_ERRORS as error:
                log.info("could not name the thread %s: %s", place.id, error)

    async def close(self, live: LiveMatch) -> None:
        """A match that ran in a thread the bot opened has ended: the room reads its result with a
        link, and the thread is archived and locked (once)."""
        bot = self.bot
        if live.id in self.closed or live.channel_id is None or bot.user is None:
            return
        thread = bot.get_channel(live.channel_id)
        if not isinstance(thread, discord.Thread) or thread.owner_id != bot.user.id or thread.parent_id is None:
            return
        self.closed.add(live.id)
        assert bot.store is not None and bot.host is not None
        try:
            record = await bot.store.get_match(live.id)
            said = say(
                "Match #{match} ({title}: {players}) has ended in {thread}. {result}",
                match=live.id,
                title=Verbatim(get_game(record.game).title),
                players=players_of(record),
                thread=Verbatim(thread.mention),
                result=Verbatim(bot.host.result_line(record)),
            )
            await bot.get_partial_messageable(thread.parent_id).send(
                bot.host.announcer.words(live)(said), allowed_mentions=discord.AllowedMentions.none()
            )
        except (MatchNotFound, StorageUnavailable, *DISCORD_ERRORS) as error:
            log.warning("match %s: could not post the result in the room: %s", live.id, error)
        try:
            await thread.edit(archived=True, locked=True)
        except DISCORD_ERRORS as error:
            log.warning("match %s: could not archive its thread: %s", live.id, error)
