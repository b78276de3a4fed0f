"""Whether a seated player can read a spectators' room, as Discord computes it: the member's
roles' permissions (``@everyone`` included), then the channel's permission overwrites (discord.py's
``permissions_for``). A player who can see the channel or read its history could read the
secrets posted there; the room is refused then (see :mod:`geniusbot.host.spectators`).

:mod:`geniusbot.cogs.spectators` checks again whenever a channel's overwrites, a role or a
member's roles change."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from geniusbot.host.transport import Player
from geniusbot.words import Message, Verbatim, say

log = logging.getLogger(__name__)


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
