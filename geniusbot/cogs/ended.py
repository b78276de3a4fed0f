"""An ended match that an interaction may see: what the archive's commands and buttons (the
replay, its GIF and record, the Analyse button) all open first."""

from __future__ import annotations

import discord

from geniusbot.bot import GeniusBot, Refusal
from geniusbot.storage import MatchNotFound, MatchRecord, MatchStatus
from geniusbot.words import Verbatim, say

#: The statuses of a match that is over (its replay shows everything).
ENDED = (MatchStatus.FINISHED, MatchStatus.ABORTED)


async def ended_match(bot: GeniusBot, interaction: discord.Interaction, match_id: int) -> MatchRecord:
    """The ended match ``match_id`` of this server (or of this DM's player), or a refusal."""
    assert bot.store is not None
    try:
        record = await bot.store.get_match(match_id)
    except MatchNotFound:
        record = None
    if (
        record is None
        or (interaction.guild_id is not None and record.guild_id != interaction.guild_id)
        or (interaction.guild_id is None and record.seat_of(interaction.user.id) is None)
    ):
        raise Refusal(
            say(
                "There is no match #{match} here; {replay} without a match lists the finished ones.",
                match=match_id,
                replay=Verbatim("/replay"),
            )
        )
    if record.status not in ENDED:
        raise Refusal(
            say(
                "Match #{match} is still being played; it can be replayed once it is over "
                "(until then it may hide what its players may not yet see).",
                match=match_id,
            )
        )
    return record
