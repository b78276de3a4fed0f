"""Whether a seated player can read a spectators' room, as Discord computes it: the member's
roles' permissions (``@everyone`` included), then the channel's permission overwrites (discord.py's
``permissions_for``). A player who can see the channel or read its history could read the
secrets posted there; the room is refused then (see :mod:`geniusbot.host.spectators`).

The :class:`Spectating` cog checks again whenever a channel's overwrites, a role or a member's
roles change (a member's roles only reach a bot with the members intent; without it, each match's
start and each channel or role change reads its players anew)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from geniusbot.host.spectators import spectators_of
from geniusbot.host.transport import Player
from geniusbot.words import Message, Verbatim, say

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot

log = logging.getLogger(__name__)

#: What lets a member read a channel's messages.
READS = ("view_channel", "read_message_history")


def reads(permissions: discord.Permissions) -> bool:
    """Whether ``permissions`` let one see the channel and read what was posted in it."""
    return permissions.view_channel and permissions.read_message_history


class Readers:
    """Who can read a channel, from discord.py's cache; a player's member object read once a
    match (and again on a change), so that each secret's check costs no call to Discord."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._members: dict[tuple[int, int], discord.Member | None] = {}

    def forget(self, guild_id: int, user_id: int | None = None) -> None:
        """Read the members of ``guild_id`` (or one of them) anew at the next check."""
        for key in [k for k in self._members if k[0] == guild_id and user_id in (None, k[1])]:
            del self._members[key]

    async def member(self, guild: discord.Guild, user_id: int, fresh: bool) -> discord.Member | None:
        """The member ``user_id`` of ``guild`` (``None``: not a member, who reads nothing of it)."""
        key = (guild.id, user_id)
        if fresh or key not in self._members:
            try:
                self._members[key] = await guild.fetch_member(user_id)
            except discord.NotFound:
                self._members[key] = None
        return self._members[key]

    async def readable_by(self, room: int, players: Sequence[Player], *, fresh: bool = False) -> Message | None:
        """Why one of ``players`` can read ``room`` (through which role or overwrite), or why it
        cannot be told; ``None`` when none of them can."""
        channel = self.client.get_channel(room)
        if not isinstance(channel, discord.abc.GuildChannel):
            return say("the room cannot be found.")
        guild = channel.guild
        try:
            for player in players:
                if player.user_id is None:
                    continue
                member = await self.member(guild, player.user_id, fresh)
                if member is not None and reads(channel.permissions_for(member)):
                    return say(
                        "{player} can read {room}, through {how}.",
                        player=Verbatim(player.name or str(player.user_id)),
                        room=Verbatim(channel.mention),
                        how=self.how(channel, member),
                    )
        except discord.HTTPException as error:
            log.warning("spectators' room %s: its readers could not be read: %s", room, error)
            return say("who can read the room could not be read.")
        return None

    @staticmethod
    def how(channel: discord.abc.GuildChannel, member: discord.Member) -> Message:
        """How ``member`` gets to read ``channel``: @everyone, a role, or their own overwrite."""
        if reads(channel.permissions_for(member.guild.default_role)):
            return say("@everyone")
        for role in member.roles:
            if not role.is_default() and reads(channel.permissions_for(role)):
                return say("the role {role}", role=Verbatim(role.name))
        if member.guild_permissions.administrator or member.guild.owner_id == member.id:
            return say("being an administrator of the server")
        return say("a permission overwrite of their own")


class Spectating(commands.Cog):
    """Checks each running match's spectators' room again when permissions change."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot

    async def recheck(self, guild_id: int, *, user_id: int | None = None) -> None:
        """Check the spectators' room of every match held in ``guild_id`` (of ``user_id``'s, if
        given); one that a seated player can read now gets no more secrets."""
        host = self.bot.host
        readers = getattr(self.bot.transport, "readers", None)
        if host is None or not isinstance(readers, Readers):
            return
        readers.forget(guild_id, user_id)
        for live in list(host.cache.unfinished()):
            if live.guild_id != guild_id or spectators_of(live) is None:
                continue
            if user_id is not None and user_id not in {p.user_id for p in live.players.values()}:
                continue
            announcer = host.announcer
            spectators = getattr(announcer, "spectators", None)
            if spectators is not None:
                await spectators.room(live, fresh=True)

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
    readers = getattr(bot.transport, "readers", None)
    if room is None or not isinstance(readers, Readers):
        return None, None
    why = await readers.readable_by(room, players, fresh=True)
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
