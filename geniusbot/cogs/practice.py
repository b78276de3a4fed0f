"""``/practice``: a match against the bot's practice opponent, in a game room.

Any member may start one where ``/start`` could start a match (the channel the command is used
in, or the ``room`` option), one live practice match per member at a time. The member plays one
seat; the other is the bot's, played by :class:`DiscordOpponent` (the engine of
:mod:`geniusbot.practice`, searching in the bot's worker processes). The host sends nothing
private to the bot's seat: the opponent reads what that seat has seen from the match's log. A
restart gives every live practice match its opponent back (on ``match_changed``, which the bot
dispatches for each match it resumed).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import DISCORD_ERRORS, GeniusBot, Refusal, reply
from geniusbot.discord_words import described
from geniusbot.games import get_game
from geniusbot.host.transport import Player
from geniusbot.practice.engine import LEVELS, PracticeError
from geniusbot.practice.seat import BotSeat
from geniusbot.storage import ENDED_STATUSES, MatchRecord, MatchStatus, Practice
from geniusbot.words import Verbatim, joined, say, say_c

from . import parse_options, refusal_words
from .matches import Matches, missing_permissions, rooms_of
from .options import (
    DESCRIBE_CLOCK,
    DESCRIBE_OPTIONS,
    DESCRIBE_ROOM,
    DESCRIBE_SEED,
    MAX_CHOICES,
    SEAT_CHOICES,
    describe_dmo,
    describe_variant,
    game_autocomplete,
    variants_of,
)
from .private import check_dms, with_closed_dms
from .threads import thread_name

log = logging.getLogger(__name__)

LEVEL_CHOICES = [
    app_commands.Choice(name=described(say_c("practice level", "easy")), value="easy"),
    app_commands.Choice(name=described(say_c("practice level", "normal")), value="normal"),
    app_commands.Choice(name=described(say_c("practice level", "hard")), value="hard"),
]
PLAYER_SEAT_CHOICES = [
    app_commands.Choice(name=described(say_c("slash choice", "the first player (p1)")), value="p1"),
    app_commands.Choice(name=described(say_c("slash choice", "the second player (p2)")), value="p2"),
    app_commands.Choice(name=described(say_c("slash choice", "either, drawn at random")), value="random"),
]
#: The seats of a practice match: the member plays one, the bot the other.
SEATS = ("p1", "p2")


def match_link(record: MatchRecord) -> str:
    """A link to the room of a match (Discord's channel link)."""
    return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"


class DiscordOpponent(BotSeat):
    """The practice opponent of one match on Discord: it logs what the console prints, says in
    the room only that it is stuck (no secret), and stops once the match is over."""

    def __init__(self, cog: PracticeCog, match_id: int, seat: str, level: str) -> None:
        bot = cog.bot
        super().__init__(
            bot.host,
            bot.store,
            match_id,
            seat,
            level=level,
            executor=bot.practice_pool(),
            seed=match_id,
            budget=bot.practice_budget,
            say=lambda text: log.info("match %s: %s", match_id, text),
        )
        self.cog = cog

    async def step(self) -> bool:
        # The match as the host holds it (loaded again if it was let go of after a conflict).
        live = await self.host.load(self.match_id)
        if live is not None and live.status in ENDED_STATUSES:
            self.over = True
            self.cog.opponents.pop(self.match_id, None)
            return False
        return await super().step()

    async def moved(self, choice: Any) -> None:
        # Never the move itself: a private one is the seat's secret, in the bot's log too.
        log.info("match %s: the practice opponent (%s) moved", self.match_id, self.seat)
        self.cog.bot.dispatch("match_changed", self.match_id)  # a choice it made closes its buttons

    async def stuck(self, error: PracticeError) -> None:
        log.warning("match %s: the practice opponent cannot move: %s", self.match_id, error)
        live = self.host.held(self.match_id)
        if live is None or live.channel_id is None:
            return
        try:
            # What the room reads when the engine finds no move: never the engine's own words, which
            # may speak of what the bot's seat holds.
            said = say(
                "{seat}: the practice opponent cannot find a move here; resign with {resign}, or a host ends the "
                "match with {abort}.",
                seat=Verbatim(live.label(self.seat)),
                resign=Verbatim("/resign"),
                abort=Verbatim("/abort"),
            )
            await self.cog.bot.get_partial_messageable(live.channel_id).send(
                self.host.announcer.words(live)(said), allowed_mentions=discord.AllowedMentions.none()
            )
        except DISCORD_ERRORS as failure:
            log.info("match %s: could not say the opponent is stuck: %s", self.match_id, failure)

    async def failed(self, error: Exception) -> None:
        if str(error) != self._said:
            log.warning("match %s: the practice opponent failed (%s); it tries again", self.match_id, error)
        self._said = str(error)


class PracticeCog(commands.Cog, name="Practice"):
    """``/practice`` and the opponents of the live practice matches."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        self.opponents: dict[int, DiscordOpponent] = {}

    async def cog_unload(self) -> None:
        """Stop every opponent (the bot closes; the worker processes go after)."""
        opponents, self.opponents = list(self.opponents.values()), {}
        await asyncio.gather(*(opponent.stop() for opponent in opponents), return_exceptions=True)

    def ensure_opponent(self, match_id: int) -> None:
        """Give a live practice match the host holds its opponent, unless it has one."""
        host = self.bot.host
        live = host.held(match_id) if host is not None else None
        if live is None or live.practice is None or match_id in self.opponents:
            return
        if live.status not in (MatchStatus.LIVE, MatchStatus.PAUSED):
            return
        level = live.practice.level if live.practice.level in LEVELS else "normal"
        opponent = DiscordOpponent(self, match_id, live.practice.seat, level or "normal")
        self.opponents[match_id] = opponent
        opponent.start()

    async def _poke_after(self, user_id: int) -> None:
        """The member's input is being handled (the matches cog took it first, and holds its
        match's lock while it rules on it): once that is done, the opponent looks at once."""
        host = self.bot.host
        if host is None:
            return
        for match_id, opponent in list(self.opponents.items()):
            live = host.held(match_id)
            if live is None or not any(p.user_id == user_id for p in live.players.values()):
                continue
            await asyncio.sleep(0)  # one turn of the loop: the handler scheduled first reaches the host
            await host.quiet(match_id)
            opponent.poke()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A member typed (a move in the room, a private one by DM): their opponent may be next."""
        if not message.author.bot and self.opponents:
            await self._poke_after(message.author.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A member pressed a choice button or sent ``/move``: their opponent may be next."""
        moved = (discord.InteractionType.component, discord.InteractionType.application_command)
        if interaction.type in moved and self.opponents:
            await self._poke_after(interaction.user.id)

    @commands.Cog.listener()
    async def on_match_changed(self, match_id: int) -> None:
        """A restart resumed a match (or a timer moved one on): a practice match gets its opponent."""
        self.ensure_opponent(match_id)

    # ==================================================================== /practice

    @app_commands.command(
        name="practice", description=described(say_c("slash command", "Play a game against the bot, for practice"))
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=described(say_c("slash option", "the game to play")),
        level=described(say_c("slash option", "how hard the bot plays (default: normal)")),
        seat=described(
            say_c("slash option", "the seat you play (default: the first player, p1); the bot plays the other")
        ),
        variant=describe_variant(),
        dmo=describe_dmo(),
        seed=DESCRIBE_SEED,
        clock=DESCRIBE_CLOCK,
        room=DESCRIBE_ROOM,
        options=DESCRIBE_OPTIONS,
    )
    @app_commands.choices(level=LEVEL_CHOICES, seat=PLAYER_SEAT_CHOICES, dmo=SEAT_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def practice(
        self,
        interaction: discord.Interaction,
        game: str,
        level: str = "normal",
        seat: str = "p1",
        variant: str | None = None,
        dmo: str | None = None,
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
        clock: str | None = None,
        room: discord.TextChannel | None = None,
        options: str | None = None,
    ) -> None:
        """Check where and who; check the member's DMs if the game needs them; start the match
        with the bot in the other seat, and its opponent."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        member = interaction.user
        if interaction.guild is None or not isinstance(member, discord.Member):
            raise Refusal(
                say("Practice matches are played in a server; use {practice} there.", practice=Verbatim("/practice"))
            )
        assert self.bot.store is not None and self.bot.host is not None
        channel = room or interaction.channel
        threads = await self.check_room(interaction.guild, channel)
        assert isinstance(channel, discord.TextChannel)
        running = [r for r in await self.bot.store.live_matches_of_user(member.id) if r.practice is not None]
        if running:
            record = running[0]
            raise Refusal(
                say(
                    "You have a practice match running already: #{match} in {room} ({link}). One at a time: "
                    "finish it, or give it up with {resign}, then start another.",
                    match=record.id,
                    room=Verbatim(f"<#{record.channel_id}>"),
                    link=Verbatim(match_link(record)),
                    resign=Verbatim(f"/resign match:{record.id}"),
                )
            )
        try:
            game_class = get_game(game)
            game_options = parse_options(options)
        except ValueError as error:  # GameError is a ValueError too
            raise Refusal(refusal_words(error)) from None
        if dmo:
            game_options["dmo"] = dmo
        mine = random.SystemRandom().choice(SEATS) if seat == "random" else seat
        bots = next(s for s in SEATS if s != mine)
        me = interaction.guild.me
        bot_name = me.display_name if me is not None else (self.bot.user.name if self.bot.user else "bot")
        human = Player(mine, member.id, member.display_name)
        # The bot's seat has no Discord user: nothing is ever sent to it (the host sends it nothing).
        players = sorted([human, Player(bots, None, bot_name)], key=lambda p: p.seat)
        matches = self.bot.get_cog("Matches")
        assert isinstance(matches, Matches)  # added before this cog (COGS)
        closed = []
        if game_class.takes_private_moves():
            closed = await check_dms(self.bot, interaction, game_class.title, channel, [human], against=bot_name)
        title = game_class.title
        place = await matches.threads.open(channel, thread_name(title, players)) if threads else channel
        result = await self.bot.host.start_match(
            game_class.name,
            players=players,
            seed=seed,
            variant=variant,
            options=game_options,
            clock=clock,
            channel_id=place.id,
            guild_id=interaction.guild.id,
            language=await self.bot.rooms.of(interaction.guild),
            practice=Practice(bots, level),
        )
        if not result.ok or result.match_id is None:
            await matches.threads.drop(place)
            raise Refusal(result.message or say("The match could not start; try again in a moment."))
        await matches.threads.name(place, thread_name(title, players, result.match_id))
        self.ensure_opponent(result.match_id)
        if closed:
            matches.entries.closed_dms[result.match_id] = {p.seat for p in closed}
        await matches.refresh_choices(result.match_id)
        started = say(
            "Practice match #{match} has started in {room}: you play {seat}, the bot plays {bot} at level {level}.",
            match=result.match_id,
            room=Verbatim(place.mention),
            seat=Verbatim(mine),
            bot=Verbatim(bots),
            level=Verbatim(level),
        )
        await reply(interaction, with_closed_dms(started, closed))

    async def check_room(self, guild: discord.Guild, channel: Any) -> bool:
        """Refuse a channel where a match may not be played (as /start refuses it); whether its
        matches run in threads (``/setup threads``)."""
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(say("Practise in a text channel that is a game room, or name one with the room option."))
        assert self.bot.store is not None
        config = await self.bot.store.get_guild_settings(guild.id)
        me = guild.me
        if me is not None and (missing := missing_permissions(channel.permissions_for(me), threads=config.threads)):
            raise Refusal(
                say(
                    "I cannot run a match in {room}: I need {permissions} there. "
                    "Ask an admin for that, or choose another room.",
                    room=Verbatim(channel.mention),
                    permissions=joined(missing),
                )
            )
        if config.game_room_ids and channel.id not in config.game_room_ids:
            raise Refusal(
                say(
                    "{room} is not a game room, so no match is played here; practise in one of {rooms}.",
                    room=Verbatim(channel.mention),
                    rooms=rooms_of(config.game_room_ids),
                )
            )
        return config.threads

    @practice.autocomplete("variant")
    async def variant_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The rule sets of the game chosen so far (of every game if none yet), as /start offers them."""
        names = sorted({v for cls in variants_of(interaction.namespace.game) for v in cls.variants})
        return [app_commands.Choice(name=v, value=v) for v in names if current.lower() in v][:MAX_CHOICES]


async def setup(bot: GeniusBot) -> None:
    """Add the cog."""
    await bot.add_cog(PracticeCog(bot))
