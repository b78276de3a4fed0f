"""Players' standing: ``/leaderboard`` (a game's ratings, a page at a time) and ``/profile`` (a
member's ratings, wins, losses and draws, recent matches and rating history), all read from the
archive. Each answers the asker alone unless ``public`` is given, as ``/replay`` does; its
pictures carry alt text."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import GeniusBot, Refusal, member_words, reply
from geniusbot.discord_transport import alt_text
from geniusbot.discord_words import described
from geniusbot.games import GameError, default_variant, get_game, registry
from geniusbot.standing import (
    PAGE_SIZE,
    Card,
    game_name,
    history_card,
    leaderboard_card,
    pages_of,
    ratings_card,
    recent_line,
    rule_sets_refusal,
)
from geniusbot.words import Verbatim, Words, say, say_c, say_n

from . import bot_of
from .options import game_autocomplete, variants_of

#: Recent matches a profile lists.
RECENT = 5


def attached(card: Card) -> discord.File:
    """A picture as an attachment, its alt text as the attachment's description."""
    return discord.File(io.BytesIO(card.png), filename=card.filename, description=alt_text(card.alt))


def titles() -> dict[str, str]:
    """Every installed game's title by its name."""
    return {name: cls.title for name, cls in registry().items()}


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"gb:lb:(?P<game>[^:]+):(?P<variant>[^:]+):(?P<page>\d+):(?P<tag>prev|next)",
):
    """Previous / next page of a leaderboard; the custom_id holds the game, rule set and the page
    it opens, so anyone can press it, also after a restart. The message shows the new page."""

    def __init__(self, game: str, variant: str, page: int, tag: str, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:lb:{game}:{variant}:{page}:{tag}"[:100],
                disabled=disabled,
            )
        )
        self.game, self.variant, self.page = game, variant, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["game"], match["variant"], int(match["page"]), match["tag"], label or match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            cog = bot.get_cog("Standing")
            assert isinstance(cog, Standing) and interaction.guild_id is not None
            shown_to_one = interaction.message is not None and interaction.message.flags.ephemeral
            words = member_words(interaction) if shown_to_one else bot.words()
            page = self.page
            try:
                card, pages = await cog.board(interaction.guild_id, self.game, self.variant, page, words)
            except Refusal:  # the board has fewer pages now: its last (or the refusal, if none is rated)
                assert bot.store is not None
                _, total = await bot.store.leaderboard(interaction.guild_id, self.game, self.variant, limit=1)
                page = pages_of(total)
                card, pages = await cog.board(interaction.guild_id, self.game, self.variant, page, words)
            await interaction.response.defer()
            view = pager(self.game, self.variant, page, pages, words)
            await interaction.edit_original_response(attachments=[attached(card)], view=view)
        except Exception as error:  # the tree's handler answers, as for a slash command
            await bot.on_app_command_error(interaction, error)


def pager(game: str, variant: str, page: int, pages: int, words: Words) -> discord.ui.View:
    """The previous and next buttons under a leaderboard page (none for a board of one page)."""
    view = discord.ui.View(timeout=None)
    if pages <= 1:
        return view
    previous = words(say_c("leaderboard button", "Previous"))
    following = words(say_c("leaderboard button", "Next"))
    view.add_item(PageButton(game, variant, max(page - 1, 1), "prev", previous, disabled=page <= 1))
    view.add_item(PageButton(game, variant, min(page + 1, pages), "next", following, disabled=page >= pages))
    return view


class Standing(commands.Cog):
    """The leaderboard and the players' profiles."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot

    async def begin(self, interaction: discord.Interaction, public: bool) -> Words:
        """Defer an answer only the asker reads at once; give the words to say the answer in.
        A public answer is deferred only once it is known to be one to post (:meth:`shown`):
        a deferral's follow-up shows as the deferral did, and a refusal goes to the asker alone."""
        if not public:
            await interaction.response.defer(ephemeral=True, thinking=True)
        return self.bot.words() if public else member_words(interaction)

    @staticmethod
    async def shown(interaction: discord.Interaction, public: bool) -> None:
        """Defer a public answer, now that there is one to show."""
        if public:
            await interaction.response.defer(thinking=True)

    @app_commands.command(
        name="leaderboard",
        description=described(say_c("slash command", "The ratings of a game in this server, highest first")),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=described(say_c("slash option", "the game")),
        variant=described(say_c("slash option", "the rule set (default: the game's first)")),
        page=described(say_c("slash option", "the page to show (ten players a page)")),
        public=described(say_c("slash option", "show it to the whole channel (default: only to you)")),
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        variant: str | None = None,
        page: app_commands.Range[int, 1] = 1,
        public: bool = False,
    ) -> None:
        """A page of the game's leaderboard as a picture."""
        try:
            cls = get_game(game)
        except GameError as error:
            raise Refusal(error.said if error.said is not None else str(error)) from None
        rules = variant or default_variant(game) or cls.variants[0]
        if rules not in cls.variants:
            raise Refusal(rule_sets_refusal(cls.title, cls.variants, default_variant(game) or cls.variants[0]))
        assert interaction.guild_id is not None and self.bot.store is not None
        words = await self.begin(interaction, public)
        card, pages = await self.board(interaction.guild_id, cls.name, rules, page, words)
        await self.shown(interaction, public)
        view = pager(cls.name, rules, page, pages, words)
        await reply(interaction, "", ephemeral=not public, file=attached(card), view=view)

    async def board(self, guild_id: int, game: str, rules: str, page: int, words: Words) -> tuple[Card, int]:
        """Page ``page`` of a game's leaderboard as a picture, and how many pages it has; a
        :class:`Refusal` when nobody is rated or the page is past the last."""
        assert self.bot.store is not None
        store = self.bot.store
        named = game_name(titles(), game, rules)
        board, total = await store.leaderboard(guild_id, game, rules, offset=(page - 1) * PAGE_SIZE)
        if total == 0:
            raise Refusal(say("Nobody is rated in {game} in this server yet: a rated match ends first.", game=named))
        if not board:
            raise Refusal(
                say_n(
                    "The leaderboard of {game} has {n} page.",
                    "The leaderboard of {game} has {n} pages.",
                    game=named,
                    n=pages_of(total),
                )
            )
        first = await store.first_seat(guild_id, game, rules)
        card = await asyncio.to_thread(
            leaderboard_card,
            words,
            game=named,
            standings=board,
            offset=(page - 1) * PAGE_SIZE,
            total=total,
            first=first,
        )
        return card, pages_of(total)

    @leaderboard.autocomplete("variant")
    async def variant_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The rule sets of the game chosen so far."""
        names = sorted({v for cls in variants_of(interaction.namespace.game) for v in cls.variants})
        return [app_commands.Choice(name=v, value=v) for v in names if current.lower() in v][:25]

    @app_commands.command(
        name="profile",
        description=described(say_c("slash command", "A member's ratings, results and recent matches in this server")),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        member=described(say_c("slash option", "whose profile (default: yours)")),
        public=described(say_c("slash option", "show it to the whole channel (default: only to you)")),
    )
    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | None = None, public: bool = False
    ) -> None:
        """The member's ratings as a picture, the rating history of their most played game as a
        graph, and their recent matches as lines with the way to replay each."""
        assert interaction.guild_id is not None and self.bot.store is not None
        who = member or interaction.user
        words = await self.begin(interaction, public)
        store = self.bot.store
        names = titles()
        standings = await store.player_ratings(interaction.guild_id, who.id)
        recent = await store.finished_matches(interaction.guild_id, player=who.id, limit=RECENT)
        if not standings and not recent:
            raise Refusal(say("{member} has no finished match in this server yet.", member=Verbatim(who.display_name)))
        history = await store.rating_history(interaction.guild_id, who.id)
        await self.shown(interaction, public)
        changes = {p.match_id: p for p in history}
        lines = [words(say("Recent matches of {member}:", member=Verbatim(who.display_name)))]
        lines += [f"- {words(recent_line(r, who.id, names, changes.get(r.id)))}" for r in recent]
        files = []
        if standings:
            files.append(attached(ratings_card(words, player=who.display_name, standings=standings, titles=names)))
            top = standings[0]
            points = await store.rating_history(interaction.guild_id, who.id, game=(top.game, top.variant))
            graph = await asyncio.to_thread(
                history_card,
                words,
                player=who.display_name,
                game=game_name(names, top.game, top.variant),
                history=points,
            )
            files.append(attached(graph))
        else:
            lines.append(words(say("No rated match yet, so no rating.")))
        await reply(interaction, "\n".join(lines)[:2000], ephemeral=not public, files=files)


async def setup(bot: GeniusBot) -> None:
    """Add the cog."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Standing(bot))
