"""The spectators' rooms' checks on Discord: before a match (``/start``), and again whenever a
channel's overwrites, a role or a member's roles change (a member's roles only reach a bot with the
members intent; without it, the host reads its players anew once a move, before the move's first
secret). See :mod:`geniusbot.spectating` and :mod:`geniusbot.host.spectators`."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord.ext import commands

from geniusbot.bot import GeniusBot
from geniusbot.host.spectators import spectators_of
from geniusbot.host.transport import Player
from geniusbot.words import Message, say

log = logging.getLogger(__name__)


class Spectating(commands.Cog):
    """Checks each running match's spectators' room again when permissions change."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot

    async def recheck(self, guild_id: int, *, user_id: int | None = None) -> None:
        """Check the spectators' room of every match held in ``guild_id`` (of ``user_id``'s, if
        given); one that a seated player can read now gets no more secrets."""
        host = self.bot.host
        if host is None:
            return
        self.bot.transport.readers.forget(guild_id, user_id)
        for live in list(host.cache.unfinished()):
            if live.guild_id != guild_id or spectators_of(live) is None:
                continue
            if user_id is not None and user_id not in {p.user_id for p in live.players.values()}:
                continue
            await host.announcer.spectators.room(live, fresh=True)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """A channel changed: its overwrites may let a player read a spectators' room now."""
        if before.overwrites != after.overwrites:
            await self.recheck(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions changed."""
        if before.permissions != after.permissions:
            await self.recheck(after.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """A member's roles changed (with the members intent only)."""
        if before.roles != after.roles:
            await self.recheck(after.guild.id, user_id=after.id)


async def spectators_at_start(
    bot: GeniusBot, room: int | None, players: Sequence[Player], host: int, language: str
) -> tuple[dict[str, int] | None, Message | None]:
    """A new match's spectators' room (``room``: the one ``/start`` names, else the server's),
    checked: what the match keeps of it (``None``: none), and why it is refused (said in that room
    too, never a secret; ``None``: it is not)."""
    if room is None:
        return None, None
    why = await bot.transport.readers.readable_by(room, players, fresh=True)
    if why is None:
        return {"room": room, "host": host}, None
    refused = say("No secret of this match is posted in the spectators' room: {why}", why=why)
    channel = bot.get_channel(room)
    if isinstance(channel, discord.abc.Messageable):
        try:
            await channel.send(bot.words(language=language)(refused))
        except discord.HTTPException as error:
            log.info("spectators' room %s: the refusal could not be said: %s", room, error)
    return None, refused
