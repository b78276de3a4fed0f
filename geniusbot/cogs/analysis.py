"""The Analyse button of a ``/replay`` page: the engine review of an ended match
(:mod:`geniusbot.analysis`), to the one who pressed it.

Each move is judged in the bot's worker processes (the practice opponent's pool), one at a time
so that a practice match waiting for its opponent's move is never stuck behind a long review;
a progress message says how many moves are judged and is edited as it goes (every tenth of the
match); then the graph of who was ahead is posted with the marked moves and how sure the review is.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

from geniusbot.analysis import DEFAULT_EFFORT, Effort, assemble, judge, positions
from geniusbot.analysis.graph import graph_png
from geniusbot.analysis.said import graph_said, lines
from geniusbot.archive.steps import from_store
from geniusbot.bot import GeniusBot
from geniusbot.words import say, say_n

from . import bot_of
from .ended import ended_match

#: How hard the bot's review looks (a test sets a smaller one on the cog's module).
EFFORT: Effort = DEFAULT_EFFORT


class AnalyseButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"gb:replay:(?P<match>\d+):analyse"
):
    """The Analyse button of a replay page: the engine review, to the one who pressed it."""

    def __init__(self, match_id: int, label: str = "Analyse") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"gb:replay:{match_id}:analyse"
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnalyseButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["match"]), label or "Analyse")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_review(bot, interaction, self.match_id)
        except Exception as error:
            await bot.on_app_command_error(interaction, error)


async def send_review(bot: GeniusBot, interaction: discord.Interaction, match_id: int) -> None:
    """Review an ended match this interaction may see, telling the progress as it goes, then send
    the graph and the marks (ephemeral)."""
    record = await ended_match(bot, interaction, match_id)  # refuses a match still being played
    assert bot.store is not None
    steps = await from_store(bot.store, record.id)
    found, end = positions(steps.start, steps.actions)
    words = bot.words(steps.names)
    effort = EFFORT

    def said(done: int) -> str:
        return words(
            say("Reviewing match #{match}: move {done} of {total}\u2026", match=record.id, done=done, total=len(found))
        )

    told = await interaction.followup.send(said(0), ephemeral=True, wait=True)
    loop = asyncio.get_running_loop()
    pool = bot.practice_pool()
    every = max(1, len(found) // 10)
    judged = []
    for done, position in enumerate(found, 1):
        judged.append(await loop.run_in_executor(pool, judge, position, effort))
        if done % every == 0 and done < len(found):
            await told.edit(content=said(done))
    review = assemble(steps.start, judged, end, effort)
    await told.edit(
        content=words(
            say_n(
                "Reviewed match #{match}: {n} move.",
                "Reviewed match #{match}: {n} moves.",
                match=record.id,
                n=len(found),
            )
        )
    )
    png = await asyncio.to_thread(graph_png, review, words.language, steps.names)
    text = "\n".join(words(line) for line in lines(review, every_move=False))
    file = discord.File(io.BytesIO(png), filename=f"geniusbot-match-{record.id}-review.png")
    file.description = words(graph_said(review))[:1024]  # the picture's alt text
    await interaction.followup.send(text[:2000], file=file, ephemeral=True)
