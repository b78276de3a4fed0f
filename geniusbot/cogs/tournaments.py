"""``/tournament``: a host creates a tournament (a sign-up button in the room), starts it (seeded by
rating), and may pause it, remove a player or replace a result; players sign up and withdraw; the
bot plays it (:mod:`.tournament_run`) and anyone reads ``/tournament status``."""

from __future__ import annotations

import asyncio
import io
import re
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import GeniusBot, Refusal, member_words, reply
from geniusbot.discord_transport import alt_text
from geniusbot.discord_words import described
from geniusbot.games import GameError, default_variant, get_game
from geniusbot.standing import rule_sets_refusal
from geniusbot.standing.tournament import cards
from geniusbot.storage.tournaments import FINISHED, PAUSED, RUNNING, SIGNUP, TournamentRecord
from geniusbot.tournaments import DOUBLE_ELIMINATION, DRAW, LOSS, ROUND_ROBIN, SINGLE_ELIMINATION, SWISS, WIN, rounds_of
from geniusbot.words import Message, Verbatim, say, say_c, say_n

from . import bot_of, host_refusal
from .options import game_autocomplete
from .tournament_run import Runner, round_text, standings_text


def started_already(number: int) -> Message:
    """The refusal of what only a tournament taking sign-ups allows, with where to see it now."""
    return say(
        "Tournament #{number} has started already; {status} shows its rounds and standings.",
        number=number,
        status=Verbatim(f"/tournament status number:{number}"),
    )


FORMAT_CHOICES = [
    app_commands.Choice(name=described(say_c("tournament format", "Swiss")), value=SWISS),
    app_commands.Choice(name=described(say_c("tournament format", "round robin")), value=ROUND_ROBIN),
    app_commands.Choice(name=described(say_c("tournament format", "single elimination")), value=SINGLE_ELIMINATION),
    app_commands.Choice(name=described(say_c("tournament format", "double elimination")), value=DOUBLE_ELIMINATION),
]
RESULT_CHOICES = [
    app_commands.Choice(name=described(say_c("tournament result", "the first player (p1) wins")), value="p1"),
    app_commands.Choice(name=described(say_c("tournament result", "the second player (p2) wins")), value="p2"),
    app_commands.Choice(name=described(say_c("tournament result", "a draw")), value="draw"),
]
SCORES = {"p1": WIN, "p2": LOSS, "draw": DRAW}
DESCRIBE_NUMBER = described(say_c("slash option", "the tournament's number"))


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"gb:join:(?P<tournament>\d+)"):
    """The sign-up message's button: the presser joins the tournament."""

    def __init__(self, tournament_id: int, label: str = "Sign up") -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.primary, custom_id=f"gb:join:{tournament_id}"
        )
        super().__init__(button)
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await reply(interaction, await join(bot, interaction, self.tournament_id))
        except Exception as error:  # the tree's handler answers, as for a slash command
            await bot.on_app_command_error(interaction, error)


async def join(bot: GeniusBot, interaction: discord.Interaction, tournament_id: int) -> Any:
    """Sign the presser up (rated as in the tournament's game and rule set; a first rating if none)."""
    store = bot.store
    assert store is not None
    tournament = await store.get_tournament(tournament_id)
    if tournament is None or tournament.status != SIGNUP:
        raise Refusal(say("Tournament #{number} takes no more sign-ups.", number=tournament_id))
    if tournament.signup_deadline is not None and bot.time.now() > tournament.signup_deadline:
        raise Refusal(say("Sign-up for tournament #{number} has closed.", number=tournament_id))
    user = interaction.user
    ratings = await store.player_ratings(tournament.guild_id, user.id)
    rating = next((r.rating for r in ratings if (r.game, r.variant) == (tournament.game, tournament.variant)), 1500.0)
    if not await store.join_tournament(tournament_id, user.id, user.display_name, rating):
        return say("You are signed up for tournament #{number} already.", number=tournament_id)
    return say("You are signed up for tournament #{number}.", number=tournament_id)


class Tournaments(commands.Cog):
    """The /tournament commands and the bot that runs the tournaments."""

    tournament = app_commands.Group(
        name="tournament",
        description=described(say_c("slash command", "Run a tournament: create, sign up, start, status")),
        guild_only=True,
    )

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        self.runner = Runner(bot)
        assert bot.host is not None
        self._unsubscribe = bot.host.on_end(self.runner.match_ended)
        # A move whose commit went unanswered is found saved later: the match may have ended then.
        self._unsubscribe_changes = bot.host.subscribe(self.runner.match_ended)

    async def cog_unload(self) -> None:
        self._unsubscribe()
        self._unsubscribe_changes()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a start or restart, every running tournament is brought up to date."""
        await self.runner.resume()

    async def hosted(self, interaction: discord.Interaction, number: int) -> TournamentRecord:
        """The tournament, if the asker may host it here."""
        if why := await host_refusal(interaction, "start"):
            raise Refusal(why)
        return await self.found(interaction, number)

    async def found(self, interaction: discord.Interaction, number: int) -> TournamentRecord:
        assert self.bot.store is not None
        tournament = await self.bot.store.get_tournament(number)
        if tournament is None or tournament.guild_id != interaction.guild_id:
            raise Refusal(
                say(
                    "There is no tournament #{number} in this server; {status} lists the ones it has.",
                    number=number,
                    status=Verbatim("/tournament status"),
                )
            )
        return tournament

    @tournament.command(
        name="create", description=described(say_c("slash command", "Create a tournament and open its sign-up"))
    )
    @app_commands.describe(
        game=described(say_c("slash option", "the game")),
        format=described(say_c("slash option", "how players are paired")),
        variant=described(say_c("slash option", "the rule set (default: the game's first)")),
        clock=described(say_c("slash option", "each match's clock, as /start takes it")),
        rounds=described(say_c("slash option", "the rounds of a Swiss (default: enough to find a winner)")),
        signup_minutes=described(say_c("slash option", "minutes until sign-up closes (default: until the start)")),
    )
    @app_commands.choices(format=FORMAT_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        variant: str | None = None,
        clock: str | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        signup_minutes: app_commands.Range[int, 1, 10080] | None = None,
    ) -> None:
        """Create it in this room and post the sign-up button."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if why := await host_refusal(interaction, "start"):
            raise Refusal(why)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel) or interaction.guild is None or self.bot.store is None:
            raise Refusal(say("Create a tournament in a text channel; its matches run in threads of it."))
        try:
            cls = get_game(game)
        except GameError as error:
            raise Refusal(
                say(
                    "There is no game {game}; pick one from the game option's list, or see what each is with {rules}.",
                    game=Verbatim(game),
                    rules=Verbatim("/rules"),
                )
            ) from error
        rules = variant or default_variant(cls.name) or cls.variants[0]
        if rules not in cls.variants:
            raise Refusal(rule_sets_refusal(cls.title, cls.variants, default_variant(cls.name) or cls.variants[0]))
        deadline = self.bot.time.now() + timedelta(minutes=signup_minutes) if signup_minutes else None
        made = await self.bot.store.create_tournament(
            guild_id=interaction.guild.id,
            channel_id=channel.id,
            host_id=interaction.user.id,
            game=cls.name,
            variant=rules,
            clock=clock,
            form=format,
            rounds=rounds,
            deadline=deadline,
        )
        words = self.bot.words(language=await self.bot.rooms.of(interaction.guild))
        text = say(
            "Tournament #{number}: {game} ({variant}), {format}. Press the button to sign up; "
            "a host starts it with {start}.",
            number=made.id,
            game=Verbatim(cls.title),
            variant=Verbatim(rules),
            format=_format_name(format),
            start=Verbatim(f"/tournament start number:{made.id}"),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(made.id, words(say("Sign up"))))
        posted = await channel.send(words(text), view=view)
        await self.bot.store.update_tournament(made.id, message_id=posted.id)
        await reply(interaction, say("Tournament #{number} is open for sign-up.", number=made.id))

    @tournament.command(
        name="start", description=described(say_c("slash command", "Close sign-up, seed by rating, play round 1"))
    )
    @app_commands.describe(number=DESCRIBE_NUMBER)
    async def start(self, interaction: discord.Interaction, number: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = await self.hosted(interaction, number)
        store = self.bot.store
        assert store is not None
        entries = await store.entries(number)
        if tournament.status != SIGNUP:
            raise Refusal(started_already(number))
        if len(entries) < 2:
            raise Refusal(
                say(
                    "Tournament #{number} needs two players at least: wait for more to sign up with its button, "
                    "or give them more time with {extend}.",
                    number=number,
                    extend=Verbatim(f"/tournament extend number:{number} minutes:"),
                )
            )
        seeds = [e.user_id for e in sorted(entries, key=lambda e: -e.rating)]  # stable: sign-up order on a tie
        if not await store.start_tournament(number, seeds, rounds_of(tournament.format, len(seeds), tournament.rounds)):
            raise Refusal(started_already(number))
        await reply(interaction, say("Tournament #{number} has started.", number=number))
        await self.runner.advance(number)

    @tournament.command(name="status", description=described(say_c("slash command", "Show a tournament's standings")))
    @app_commands.describe(
        number=described(say_c("slash option", "the tournament's number (default: list this server's tournaments)"))
    )
    async def status(self, interaction: discord.Interaction, number: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.bot.store
        assert store is not None
        if number is None:
            await reply(interaction, await self.listing(interaction))
            return
        tournament = await self.found(interaction, number)
        entries, pairings = await store.entries(number), await store.pairings(number)
        words = self.bot.words(language=await self.bot.rooms.of(interaction.guild))
        if tournament.status == SIGNUP:
            names = Verbatim(", ".join(e.display_name for e in entries) or "-")
            await reply(
                interaction, say("Tournament #{number} is open for sign-up: {players}.", number=number, players=names)
            )
            return
        current = [p for p in pairings if p.round == tournament.current_round]
        parts = [standings_text(tournament, entries, pairings, words)]
        if tournament.status != "finished" and current:
            parts.append(round_text(tournament, entries, current, words))
        if tournament.status == PAUSED:
            parts.append(words(say("The tournament is paused.")))
        pictures = await asyncio.to_thread(cards, tournament, entries, pairings, words, "")
        files = [discord.File(io.BytesIO(c.png), filename=c.filename, description=alt_text(c.alt)) for c in pictures]
        await reply(interaction, "\n\n".join(parts)[:2000], files=files)

    async def listing(self, interaction: discord.Interaction) -> str:
        """This server's tournaments, a line each, the newest first."""
        assert self.bot.store is not None and interaction.guild_id is not None
        every = await self.bot.store.tournaments(statuses=STATUSES, guild_id=interaction.guild_id)
        words = member_words(interaction)
        if not every:
            return words(
                say(
                    "This server has no tournament yet; a host creates one with {create}.",
                    create=Verbatim("/tournament create"),
                )
            )
        lines = [words(say("This server's tournaments (the newest first):"))]
        for made in reversed(every[-20:]):
            lines.append(
                words(
                    say(
                        "#{number}: {game} ({variant}), {format}, {state}",
                        number=made.id,
                        game=Verbatim(_title(made.game)),
                        variant=Verbatim(made.variant),
                        format=_format_name(made.format),
                        state=_status_name(made.status),
                    )
                )
            )
        return "\n".join(lines)[:2000]

    @tournament.command(
        name="extend", description=described(say_c("slash command", "Give a tournament's sign-up more time"))
    )
    @app_commands.describe(
        number=DESCRIBE_NUMBER, minutes=described(say_c("slash option", "minutes from now until sign-up closes"))
    )
    async def extend(
        self, interaction: discord.Interaction, number: int, minutes: app_commands.Range[int, 1, 10080]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = await self.hosted(interaction, number)
        if tournament.status != SIGNUP:
            raise Refusal(started_already(number))
        assert self.bot.store is not None
        await self.bot.store.update_tournament(number, signup_deadline=self.bot.time.now() + timedelta(minutes=minutes))
        await reply(
            interaction,
            say_n(
                "Sign-up for tournament #{number} is open for {n} more minute.",
                "Sign-up for tournament #{number} is open for {n} more minutes.",
                number=number,
                n=minutes,
            ),
        )

    @tournament.command(
        name="withdraw", description=described(say_c("slash command", "Leave a tournament (a host: remove a player)"))
    )
    @app_commands.describe(
        number=DESCRIBE_NUMBER, member=described(say_c("slash option", "the player a host removes (default: you)"))
    )
    async def withdraw(
        self, interaction: discord.Interaction, number: int, member: discord.Member | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = (
            await self.hosted(interaction, number)
            if member is not None and member.id != interaction.user.id
            else await self.found(interaction, number)
        )
        who = member or interaction.user
        assert self.bot.store is not None
        if not await self.bot.store.withdraw(tournament.id, who.id):
            raise Refusal(
                say("{player} does not play in tournament #{number}.", player=Verbatim(who.display_name), number=number)
            )
        await reply(
            interaction,
            say(
                "{player} is withdrawn from tournament #{number} and paired no more; a match already "
                "running is played out or resigned.",
                player=Verbatim(who.display_name),
                number=number,
            ),
        )

    @tournament.command(name="pause", description=described(say_c("slash command", "Pause or resume a tournament")))
    @app_commands.describe(
        number=DESCRIBE_NUMBER, paused=described(say_c("slash option", "true: pause; false: resume"))
    )
    async def pause(self, interaction: discord.Interaction, number: int, paused: bool = True) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = await self.hosted(interaction, number)
        if tournament.status not in (RUNNING, PAUSED):
            raise Refusal(say("Tournament #{number} is not running.", number=number))
        assert self.bot.store is not None
        await self.bot.store.update_tournament(number, status=PAUSED if paused else RUNNING)
        if paused:
            await reply(
                interaction, say("Tournament #{number} is paused: no round opens until it resumes.", number=number)
            )
            return
        await reply(interaction, say("Tournament #{number} runs again.", number=number))
        await self.runner.advance(number)

    @tournament.command(
        name="result", description=described(say_c("slash command", "Replace a game's result (a host, with a reason)"))
    )
    @app_commands.describe(
        number=DESCRIBE_NUMBER,
        round=described(say_c("slash option", "the round")),
        board=described(say_c("slash option", "the game's place in the round's list (1 first)")),
        result=described(say_c("slash option", "the result it takes")),
        reason=described(say_c("slash option", "why (kept with the result)")),
    )
    @app_commands.choices(result=RESULT_CHOICES)
    async def result(
        self, interaction: discord.Interaction, number: int, round: int, board: int, result: str, reason: str
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.hosted(interaction, number)
        assert self.bot.store is not None
        if not await self.bot.store.set_result(number, round, board, SCORES[result], reason[:500]):
            raise Refusal(
                say(
                    "Tournament #{number} has no game {board} in round {round}.",
                    number=number,
                    board=board,
                    round=round,
                )
            )
        await reply(interaction, say("The result is replaced; the reason is kept with it."))
        await self.runner.advance(number)


#: Every status a tournament has, for the server's list.
STATUSES = (SIGNUP, RUNNING, PAUSED, FINISHED)


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except GameError:
        return game  # a game no longer installed: its name


def _status_name(status: str) -> Any:
    names = {
        SIGNUP: say_c("tournament status", "open for sign-up"),
        RUNNING: say_c("tournament status", "running"),
        PAUSED: say_c("tournament status", "paused"),
        FINISHED: say_c("tournament status", "finished"),
    }
    return names[status]


def _format_name(form: str) -> Any:
    names = {
        SWISS: say_c("tournament format", "Swiss"),
        ROUND_ROBIN: say_c("tournament format", "round robin"),
        SINGLE_ELIMINATION: say_c("tournament format", "single elimination"),
        DOUBLE_ELIMINATION: say_c("tournament format", "double elimination"),
    }
    return names[form]


async def setup(bot: GeniusBot) -> None:
    """Add the cog and its persistent sign-up button."""
    bot.add_dynamic_items(JoinButton)
    await bot.add_cog(Tournaments(bot))
