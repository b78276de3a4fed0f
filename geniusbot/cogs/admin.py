"""Server set-up (``/setup``: the host role, the game rooms, threads, pings, the rooms' language)
and ``/rules``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import GeniusBot, Refusal, reply
from geniusbot.discord_words import described
from geniusbot.games import get_game
from geniusbot.languages import SERVER_DEFAULT, language_said, room_languages, rooms_speak
from geniusbot.storage import GuildConfig
from geniusbot.words import Listing, Message, Verbatim, say, say_c

from .matches import rooms_of
from .options import game_autocomplete
from .spectators import Spectating


class GuildChanges(TypedDict, total=False):
    """What a /setup changes, as the store's ``set_guild_settings`` takes it (only what is given)."""

    host_role_id: int | None
    game_room_ids: Iterable[int]
    threads: bool
    pings: bool
    board: str
    language: str | None
    rated: bool
    spectators_channel_id: int | None


#: The board styles as /setup offers them (``board:``; ``geniusbot.host.transport.BOARD_STYLES``), each said.
BOARD_CHOICES = [
    app_commands.Choice(name=described(say_c("slash choice", "message: a picture a move")), value="message"),
    app_commands.Choice(name=described(say_c("slash choice", "card: a card a move")), value="card"),
    app_commands.Choice(name=described(say_c("slash choice", "edited: one card a match, edited")), value="edited"),
]
#: How /setup's summary says each board style.
BOARD_SAID = {
    "message": say("Each move posts the board as a picture with its caption."),
    "card": say("Each move posts the board as a card."),
    "edited": say("Each match has one card, edited after every move, its latest moves logged in it."),
}


#: The most choices Discord lets an option have.
MAX_CHOICES = 25


def language_choices() -> list[app_commands.Choice[str | int | float]]:
    """``/setup language``'s choices: the server's default, English, each language of a catalogue."""
    default = app_commands.Choice[str | int | float](
        name=described(say_c("slash choice", "the server's default")), value=SERVER_DEFAULT
    )
    offered = [
        app_commands.Choice[str | int | float](name=described(language_said(c)), value=c) for c in room_languages()
    ]
    return [default, *offered][:MAX_CHOICES]  # Discord's limit


def describe_config(config: GuildConfig, guild: discord.Guild, language: str) -> Message:
    """The guild's settings in a sentence or two (``language``: the one its rooms speak now)."""
    role = guild.get_role(config.host_role_id) if config.host_role_id else None
    if role is not None:
        hosts = say("Members with the {role} role (or Manage Server) may host matches.", role=Verbatim(role.name))
    elif config.host_role_id:
        hosts = say(
            "The host role was deleted; only members with Manage Server may host until {setup} names another.",
            setup=Verbatim("/setup"),
        )
    else:
        hosts = say("Only members with Manage Server may host matches (no host role is set).")
    rooms = (
        say("Game rooms: {rooms}.", rooms=rooms_of(config.game_room_ids))
        if config.game_room_ids
        else say("Any text channel may be a game room.")
    )
    where = (
        say("Each match runs in a thread of its game room; the room reads its result.")
        if config.threads
        else say("Matches run in the game room itself.")
    )
    pings = (
        say("The player to move is pinged once a turn.")
        if config.pings
        else say("Nobody is pinged when it is their turn.")
    )
    board = BOARD_SAID.get(config.board, BOARD_SAID["message"])
    rated = (
        say("{start} rates a match unless its host says otherwise.", start=Verbatim("/start"))
        if config.rated
        else say("{start} leaves a match unrated unless its host says otherwise.", start=Verbatim("/start"))
    )
    settings = say(
        "{hosts} {rated} {rooms} {where} {pings} {board} {language}",
        hosts=hosts,
        rated=rated,
        rooms=rooms,
        where=where,
        pings=pings,
        board=board,
        language=rooms_speak(config, language),
    )
    if not config.spectators_channel_id:
        return settings
    room = Verbatim(f"<#{config.spectators_channel_id}>")
    return say(
        "{settings} {spectators}",
        settings=settings,
        spectators=say("Every secret is posted in {room} as it happens.", room=room),
    )


class Admin(commands.Cog):
    """Per-server settings and the rules of each game."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        # The languages are the catalogues found as the cog loads (a choice's list is fixed then).
        self.setup_command._params["language"].choices = language_choices()

    @app_commands.command(
        name="setup",
        description=described(say_c("slash command", "Choose who may host matches and which channels are game rooms")),
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        host_role=described(say_c("slash option", "members with this role may start, pause, resume and abort matches")),
        add_room=described(say_c("slash option", "make this channel a game room")),
        remove_room=described(say_c("slash option", "this channel is no longer a game room")),
        any_room=described(say_c("slash option", "let every text channel be a game room (forgets the list)")),
        clear_host_role=described(say_c("slash option", "forget the host role (then only Manage Server may host)")),
        threads=described(
            say_c("slash option", "run each match in a thread of its game room (true), or in the room itself (false)")
        ),
        pings=described(say_c("slash option", "mention the player to move once a turn (true), or nobody (false)")),
        board=described(
            say_c("slash option", "the board: a picture per move (message), a card per move (card), one card edited")
        ),
        language=described(say_c("slash option", "the language the rooms speak; a match keeps the one it started in")),
        rated=described(
            say_c("slash option", "whether /start rates a match when its host does not say (default true)")
        ),
        spectators=described(say_c("slash option", "the room where every secret is posted as it happens")),
        clear_spectators=described(say_c("slash option", "forget the spectators' room")),
    )
    @app_commands.choices(board=BOARD_CHOICES)
    async def setup_command(
        self,
        interaction: discord.Interaction,
        host_role: discord.Role | None = None,
        add_room: discord.TextChannel | None = None,
        remove_room: discord.TextChannel | None = None,
        any_room: bool = False,
        clear_host_role: bool = False,
        threads: bool | None = None,
        pings: bool | None = None,
        board: app_commands.Choice[str] | None = None,
        language: str | None = None,
        rated: bool | None = None,
        spectators: discord.TextChannel | None = None,
        clear_spectators: bool = False,
    ) -> None:
        """Change the settings given (Manage Server only) and show them all."""
        if interaction.guild is None:
            raise Refusal(say("Use {setup} in the server you want to set up.", setup=Verbatim("/setup")))
        if not interaction.permissions.manage_guild:
            raise Refusal(say("Only members with the Manage Server permission can change the bot's settings."))
        if host_role is not None and clear_host_role:
            raise Refusal(say("Either name a host role or clear it, not both."))
        if spectators is not None and clear_spectators:
            raise Refusal(say("Either name a spectators' room or clear it, not both."))
        if language not in (None, SERVER_DEFAULT, *room_languages()):
            raise Refusal(
                say(
                    "The bot does not speak {language}; choose one of the languages offered.",
                    language=Verbatim(str(language)),
                )
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.bot.store
        assert store is not None
        config = await store.get_guild_settings(interaction.guild.id)
        rooms = set(config.game_room_ids)
        if any_room:
            rooms.clear()
        if add_room is not None:
            rooms.add(add_room.id)
        if remove_room is not None:
            rooms.discard(remove_room.id)
        changes: GuildChanges = {}
        if rooms != set(config.game_room_ids):
            changes["game_room_ids"] = rooms
        if host_role is not None:
            changes["host_role_id"] = host_role.id
        elif clear_host_role:
            changes["host_role_id"] = None
        if threads is not None and threads != config.threads:
            changes["threads"] = threads
        if pings is not None and pings != config.pings:
            changes["pings"] = pings
        if board is not None and board.value != config.board:
            changes["board"] = board.value
        chosen = None if language in (None, SERVER_DEFAULT) else language
        if language is not None and chosen != config.language:
            changes["language"] = chosen
        if rated is not None and rated != config.rated:
            changes["rated"] = rated
        if spectators is not None or clear_spectators:
            changes["spectators_channel_id"] = spectators.id if spectators is not None else None
        if changes:
            config = await store.set_guild_settings(interaction.guild.id, **changes)
            self.bot.settings_changed(config)
        settings = describe_config(config, interaction.guild, await self.bot.rooms.of(interaction.guild))
        await reply(interaction, say("Saved. {settings}", settings=settings) if changes else settings)

    @app_commands.command(
        name="rules", description=described(say_c("slash command", "The rules of a game, with its notation"))
    )
    @app_commands.describe(game=described(say_c("slash option", "the game")))
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """The game's summary, rule sets and options, only to the one who asks."""
        cls = get_game(game)
        words = self.bot.words()
        # The game's title and options' texts are the game's own words; its summary is a message.
        summary = words(cls.summary) if isinstance(cls.summary, Message) else cls.summary
        parts = [f"**{cls.title}**", summary]
        if len(cls.variants) > 1:
            variants = Listing(tuple(Verbatim(v) for v in cls.variants))
            parts.append(
                words(
                    say(
                        "Rule sets: {variants} (default {default}).",
                        variants=variants,
                        default=Verbatim(cls.variants[0]),
                    )
                )
            )
        if cls.options:
            # One line an option: their texts hold semicolons of their own ('red C3 F6; blue F3 C6').
            lines = [f"- {k}: {v}" + ("" if v.endswith(".") else ".") for k, v in cls.options.items()]
            heading = say(
                "Options for {start}, written as {form} in its options:",
                start=Verbatim("/start"),
                form=Verbatim("name=value"),
            )
            parts.append(words(heading) + "\n" + "\n".join(lines))
        await reply(interaction, "\n".join(parts)[:2000])


async def setup(bot: GeniusBot) -> None:
    """Add the cog, and the checks of the spectators' rooms (:mod:`geniusbot.spectating`)."""
    await bot.add_cog(Admin(bot))
    await bot.add_cog(Spectating(bot))
