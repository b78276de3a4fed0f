"""``/move``: a move sent as a slash command, for rooms where the bot does not read typed messages
(no Message Content intent) and for sealed moves without a DM. Its autocomplete offers the moves
legal now, worked out from the seat's own view (:func:`geniusbot.host.offers.suggestions`); the
answer is the sender's alone."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import GeniusBot, Refusal, reply
from geniusbot.discord_words import described
from geniusbot.host.match import Host, LiveMatch
from geniusbot.host.offers import suggestions
from geniusbot.storage import UNFINISHED_STATUSES, MatchNotFound
from geniusbot.words import Verbatim, say, say_c

log = logging.getLogger(__name__)


class Moves(commands.Cog):
    """``/move`` through the host."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot

    @property
    def host(self) -> Host:
        assert self.bot.host is not None
        return self.bot.host

    async def _match(self, interaction: discord.Interaction, match: int | None) -> LiveMatch | None:
        """The match named, or the one running in this channel; ``None`` when there is none."""
        if match is None:
            return self.host.match_in(interaction.channel_id) if interaction.channel_id is not None else None
        try:
            live = await self.host.load(match)
        except MatchNotFound:
            return None
        return live if live is not None and live.guild_id == interaction.guild_id else None

    @app_commands.command(
        name="move",
        description=described(say_c("slash command", "Make your move in a match (a sealed move stays private)")),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        move=described(say_c("slash option", "your move, as the board writes it (the list offers the legal ones)")),
        match=described(say_c("slash option", "the match number (default: the match in this channel)")),
    )
    async def move(self, interaction: discord.Interaction, move: str, match: int | None = None) -> None:
        """Submit ``move`` for the sender's seat; only the sender sees the answer."""
        live = await self._match(interaction, match)
        if live is None or live.status not in UNFINISHED_STATUSES:
            raise Refusal(
                say(
                    "No match is running here; give the match number, or see {status} for the running ones.",
                    status=Verbatim("/status"),
                )
                if match is None
                else say(
                    "Match #{match} is not running in this server; see {status}.",
                    match=match,
                    status=Verbatim("/status"),
                )
            )
        seat = next((s for s, p in live.players.items() if p.user_id == interaction.user.id), None)
        if seat is None:
            raise Refusal(say("You do not play in match #{match}; only its players move.", match=live.id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.host.command_move(live.id, seat, move, key=f"discord:{interaction.id}")
        if not result.ok:
            raise Refusal(result.message or say("That move was not taken; look at the board and try again."))
        # Buttons of a choice now asked, the practice opponent's turn: as after a typed move.
        self.bot.dispatch("match_changed", live.id)
        await reply(
            interaction, say("Match #{match}: your move {move} is in.", match=live.id, move=Verbatim(move.strip()))
        )

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The sender's legal moves now, from its own view, that start with what it typed."""
        match = getattr(interaction.namespace, "match", None)
        live = await self._match(interaction, match if isinstance(match, int) else None)
        if live is None:
            return []
        seat = next((s for s, p in live.players.items() if p.user_id == interaction.user.id), None)
        if seat is None:
            return []
        return [
            app_commands.Choice(name=text[:100], value=text[:100])
            for text in suggestions(live.game, seat, current, seed=live.id)
        ]


async def setup(bot: GeniusBot) -> None:
    """Add the cog."""
    await bot.add_cog(Moves(bot))
