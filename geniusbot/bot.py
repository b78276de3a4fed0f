"""The Discord bot: one :class:`GeniusBot` wires the store, the match host, the durable timers and
the cogs (``geniusbot run`` starts it; see ``docs/bot.md``).

``setup_hook`` (after login, before the gateway connects) opens and upgrades the database, loads
the cogs, registers the persistent buttons, syncs the slash commands, resumes every unfinished
match (each room is told) and starts the timer dispatcher. One global ``tree.on_error`` answers
a :class:`~geniusbot.games.GameError` or a :class:`Refusal` with its message, ephemerally, and
logs anything else with its traceback while the user gets a short apology.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from datetime import timedelta
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands

from geniusbot import health
from geniusbot.cluster.inbox import Inbox
from geniusbot.cluster.ownership import (
    AnotherSoleProcess,
    LayoutConflict,
    ShardLocks,
    SoleProcessLock,
    StandbyStopped,
)
from geniusbot.cluster.relay import Relay
from geniusbot.config import Settings
from geniusbot.discord_transport import DiscordTransport
from geniusbot.games import GameError
from geniusbot.host.match import Host
from geniusbot.host.timers import SystemTime, TimerDispatcher, TimeSource
from geniusbot.languages import RoomLanguages
from geniusbot.render.fonts import configure_font
from geniusbot.storage import GuildConfig, StorageError, StorageUnavailable, Store, TimerRecord
from geniusbot.storage.shards import Shards
from geniusbot.words import DOMAIN, ENGLISH, PSEUDO, Message, Verbatim, Words, say
from geniusbot.words.render import catalogue, languages

if TYPE_CHECKING:
    from geniusbot.host.live import Reply
    from geniusbot.practice.engine import Budget
    from geniusbot.storage import MatchRecord

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The cog modules ``setup_hook`` loads, in order.
COGS: tuple[str, ...] = (
    "geniusbot.cogs.matches",
    "geniusbot.cogs.moves",
    "geniusbot.cogs.admin",
    "geniusbot.cogs.archive",
    "geniusbot.cogs.imports",
    "geniusbot.cogs.practice",
    *("geniusbot.cogs.standing", "geniusbot.cogs.tournaments"),  # ratings, then tournaments seeded by them
)

#: The practice opponent's worker processes, shared by every practice match: a search holds a
#: core while it runs, so few (more matches than workers wait their turn).
PRACTICE_WORKERS = 2

#: What a call to Discord may raise besides a refusal: a dropped connection (also while closing).
DISCORD_ERRORS = (discord.HTTPException, aiohttp.ClientError, ConnectionError)

SORRY = say("Sorry, something went wrong on the bot's side, and nothing changed. Try again in a moment.")
#: :data:`SORRY` in English.
APOLOGY = Words()(SORRY)


class Refusal(Exception):
    """A command the bot will not carry out. ``said`` tells the user why and what to do: a message
    (said in the bot's language), or words said already (the host's, in its language);
    ``str(refusal)`` is its English."""

    def __init__(self, said: str | Message) -> None:
        super().__init__(Words()(said) if isinstance(said, Message) else said)
        self.said = said


def words_for(client: Any) -> Words:
    """The words of ``client`` (a :class:`GeniusBot`): its language, no match's players."""
    return client.words() if isinstance(client, GeniusBot) else Words()


def said(client: Any, text: str | Message) -> str:
    """``text`` as the users of ``client`` read it: a message in the bot's language; words said
    already (the host's, a game's title, what a player typed) as they are."""
    return words_for(client)(text) if isinstance(text, Message) else text


def apply_discord_urls(api_base_url: str | None, gateway_url: str | None) -> None:
    """Point discord.py at a Discord proxy (REST base and gateway), for deployments behind one."""
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def intents(message_content: bool = True) -> discord.Intents:
    """The gateway intents: the defaults, plus message content unless ``message_content`` is off
    (then moves arrive by ``/move``, by replies and mentions, and by DM; see docs/bot.md)."""
    value = discord.Intents.default()
    value.message_content = message_content
    return value


class GeniusBot(commands.AutoShardedBot):
    """The geniusbot Discord client: discord.py's auto-sharded bot, serving the shards the settings
    name (``SHARD_COUNT``, ``SHARD_IDS``) or, without them, every shard Discord recommends.

    ``database_url`` names the store (default: the settings' ``DATABASE_URL``); ``time`` is the
    time source of the host, the store and the timers (tests inject a manual one).
    ``sync_commands``: push the slash commands to Discord on start. ``practice_budget``
    replaces the practice opponent's search budget at every level (tests give a tiny one).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        database_url: str | None = None,
        time: TimeSource | None = None,
        sync_commands: bool = True,
        cogs: Sequence[str] = COGS,
        practice_budget: Budget | None = None,
        **options: Any,
    ) -> None:
        # A text bot: discord.py's start-up warnings that voice needs PyNaCl and davey are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("intents", intents(settings.message_content_intent if settings is not None else True))
        options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True))
        if settings is not None and settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
            options.setdefault("shard_ids", list(settings.served_shards or ()))
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.settings = settings
        url = database_url or (settings.database_url if settings else None)
        if not url:
            raise ValueError("GeniusBot needs a database URL (DATABASE_URL).")
        self.database_url: str = url
        self.time: TimeSource = time or SystemTime()
        self.sync_commands = sync_commands
        self.cog_modules = tuple(cogs)
        self.store: Store | None = None
        self.host: Host | None = None
        # An upload tried again waits on the bot's time source, as its clocks do (tests inject it).
        self.transport = DiscordTransport(self, sleep=self.sleep, pings=self.pings_on, board_style=self.board_style)
        self._guilds: dict[int, GuildConfig] = {}  # server -> its settings (/setup), read from the store once
        #: Each server's rooms' language (/setup language), read from the store once.
        self.rooms = RoomLanguages(
            lambda guild: self.store.get_guild_settings(guild) if self.store else None, lambda: self.language
        )
        self.dispatcher: TimerDispatcher | None = None
        self.resumed: list[int] = []
        #: The shards this process owns when it is one of several on PostgreSQL (``SHARD_COUNT``
        #: set); ``None``: the one process of its database, serving every match.
        self.owned_shards: Shards | None = cluster_shards(settings, url)
        self.locks: ShardLocks | SoleProcessLock | None = None
        #: Set once this process holds what it serves (its shards' locks, or the sole-process lock).
        self.serving = False
        #: One process of several: DMs of other shards' matches handed over, and the inbox of ours.
        self.relay: Relay | None = None
        self.inbox: Inbox | None = None
        #: Called when the shards' locks are lost (the default stops the process at once).
        self.on_fence: Callable[[str], Any] = fence
        self.practice_budget = practice_budget
        self._practice_pool: ProcessPoolExecutor | None = None
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    @property
    def language(self) -> str:
        """The language the bot speaks (``GENIUSBOT_LANGUAGE``; English without settings)."""
        return self.settings.geniusbot_language if self.settings is not None else ENGLISH

    def words(self, names: Mapping[str, str] | None = None, language: str | None = None) -> Words:
        """The renderer of what the bot says, in its language or ``language`` (``names``: a match's seats' names)."""
        return Words(language or self.language, names)

    async def _guild(self, guild_id: int) -> GuildConfig | None:
        """The server's settings as this process keeps them; ``None`` while the store cannot be read."""
        if guild_id not in self._guilds:
            if self.store is None:
                return None
            try:
                self._guilds[guild_id] = await self.store.get_guild_settings(guild_id)
            except StorageUnavailable:
                return None
        return self._guilds[guild_id]

    async def pings_on(self, guild_id: int) -> bool:
        """Whether the server pings the player to move (``/setup pings``; on by default). A store
        that cannot be read pings nobody: a ping is never worth a failed board."""
        config = await self._guild(guild_id)
        return config is not None and config.pings

    async def board_style(self, guild_id: int) -> str:
        """How the server's rooms show a board (``/setup board``); ``message`` while the store cannot be read."""
        config = await self._guild(guild_id)
        return config.board if config is not None else "message"

    def settings_changed(self, config: GuildConfig) -> None:
        """A server's settings were saved (``/setup``): what this process keeps of them follows."""
        self._guilds[config.guild_id] = config
        self.rooms.changed(config)

    def now(self) -> float:
        """The time of the host's clocks, as epoch seconds."""
        return self.time.now().timestamp()

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` on the bot's time source."""
        await self.time.sleep_until(self.time.now() + timedelta(seconds=seconds))

    def practice_pool(self) -> Executor:
        """The worker processes of the practice opponent's searches (started at the first use,
        shut down on :meth:`close`), so that the event loop never waits on a search."""
        if self._practice_pool is None:
            self._practice_pool = ProcessPoolExecutor(max_workers=PRACTICE_WORKERS, mp_context=get_context("spawn"))
        return self._practice_pool

    async def on_message(self, message: discord.Message, /) -> None:
        """No prefix commands: a message that mentions the bot is a move ("@geniusbot H8", read by
        the cogs' listeners), never a command to look up."""

    async def setup_hook(self) -> None:
        """Open the store, load the cogs, sync commands, resume live matches, start the timers."""
        await health.start(self)  # the health line and /healthz (503 until ready)
        store_class: type[Store] = Store
        engine_options: dict[str, Any] = {}
        if self.owned_shards is not None:
            from geniusbot.storage.cluster import ClusterStore

            store_class = ClusterStore
            # The lock session first: every other session of this process opens only while it
            # lives (the fence of docs/bot.md, "Several processes").
            locks = self.locks = ShardLocks(
                self.database_url, self.owned_shards, on_lost=lambda why: self.on_fence(why)
            )
            await self._locking(locks.connect())
            engine_options = {"application_name": locks.application_name("store"), "on_connect": locks.check_session}
        try:
            self.store = await store_class.open(self.database_url, now=self.time.now, engine_options=engine_options)
        except StorageError:
            raise
        except Exception as error:  # a bad URL, an unreachable server, a failed migration
            raise StorageError(f"{type(error).__name__}: {error}") from error
        if self.owned_shards is not None:
            self._serve_in_store(self.owned_shards)
        self.dispatcher = TimerDispatcher(self.store, self.on_timer, time=self.time)
        self.host = Host(
            self.store,
            self.transport,
            now=self.now,
            wake=self.dispatcher.wake,
            shards=self.served_shards,
            forward=self.forward_dm,
            language=self.language,
        )
        # A timer moved a match on, a restart resumed it, or a move found saved after its commit
        # went unanswered: its choice buttons follow (and a practice match gets its opponent).
        self.host.subscribe(lambda match_id: self.dispatch("match_changed", match_id))
        for module in self.cog_modules:
            await self.load_extension(module)
        # The commands' descriptions and choices in every language a catalogue has.
        from geniusbot.discord_words import CatalogueTranslator

        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_commands:
            await self.tree.sync()
        if isinstance(self.locks, ShardLocks):
            # Nothing of a shard is touched before its lock is held: a standby waits here.
            locks = self.locks
            standby = bool(self.settings and self.settings.standby)
            # A standby without SHARD_IDS stands by for every shard and serves the first that frees.
            one_of = standby and self.settings is not None and self.settings.shard_ids is None
            served = await self._locking(locks.acquire(standby=standby, one_of=one_of))
            if served != self.owned_shards:
                self.owned_shards = served
                self._serve_in_store(served)
                self.shard_ids = sorted(served.ids)  # what discord.py connects
        elif self.store.dialect == "postgresql" and self.settings is not None:
            # Alone: never beside a cluster, nor beside another process without shard settings.
            sole = self.locks = SoleProcessLock(self.database_url, on_lost=lambda why: self.on_fence(why))
            await self._locking(sole.acquire())
        self.serving = True
        self.resumed = await self.host.recover()
        if self.resumed:
            log.info("resumed %d match(es): %s", len(self.resumed), ", ".join(f"#{i}" for i in self.resumed))
        self.dispatcher.start()
        if self.owned_shards is not None:
            # DMs reach shard 0 only: those of other shards' matches go to their owners' inboxes,
            # and this process drains its own (what waited while no owner ran, first).
            self.relay = Relay(self, self.owned_shards)
            fenced = self.locks if isinstance(self.locks, ShardLocks) else None
            self.inbox = Inbox(self.database_url, self.owned_shards, self.relay.apply, locks=fenced)
            await self.inbox.start()

    def _serve_in_store(self, shards: Shards) -> None:
        """The store's start-up and timer reads are those of ``shards`` from now on."""
        from geniusbot.storage.cluster import ClusterStore

        if isinstance(self.store, ClusterStore):
            self.store.shards = shards

    def served_shards(self) -> Shards | None:
        """The shards this process serves (the host's ``shards``); ``None``: the one process of its
        database, serving every match."""
        return self.owned_shards

    async def forward_dm(self, record: MatchRecord, seat: str, text: str, key: str | None) -> Reply | None:
        """The host's ``forward``: a DM of another shard's match goes to its owner (the relay's
        answer); ``None`` (submit it here) while this process relays nothing."""
        if self.relay is None:
            return None
        return await self.relay.forward_dm(record, seat, text, key)

    @property
    def standing_by(self) -> bool:
        """A standby (the ``STANDBY`` setting, or a process whose shards another one serves) still
        waiting for a shard: once it serves one, it is an owner like any other."""
        waiting = isinstance(self.locks, ShardLocks) and self.locks.waiting
        return (waiting or bool(self.settings and self.settings.standby)) and not self.serving

    @staticmethod
    async def _locking(taking: Awaitable[T]) -> T:
        """Take the locks; a database that fails meanwhile is a :class:`StorageError`, as in the store."""
        try:
            return await taking
        except (LayoutConflict, AnotherSoleProcess, StandbyStopped):
            raise
        except Exception as error:
            raise StorageError(
                say("the shard locks cannot be taken ({error})", error=Verbatim(f"{type(error).__name__}: {error}"))
            ) from error

    async def on_timer(self, timer: TimerRecord) -> bool:
        """A durable timer fell due: the host handles it (and tells its subscribers, the cogs among
        them, that the match changed). Returns the host's answer: whether it deleted the delivered
        row itself."""
        assert self.host is not None
        return await self.host.on_timer(timer)

    async def close(self) -> None:
        """Stop the timers and close the database, then disconnect."""
        await health.stop(self)
        if self.inbox is not None:
            inbox, self.inbox = self.inbox, None
            await inbox.close()
        if self.dispatcher is not None:
            await self.dispatcher.stop()
        try:
            await super().close()  # unloads the cogs: the practice opponents stop
        finally:
            if self._practice_pool is not None:
                pool, self._practice_pool = self._practice_pool, None
                # A search under way ends within its budget; none waiting is started.
                await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
            if self.store is not None:
                store, self.store = self.store, None
                await store.close()
            if self.locks is not None:
                # Last, once nothing more is written: a standby may take the shards from here on.
                locks, self.locks = self.locks, None
                await locks.close()

    # ---- errors ----------------------------------------------------------------------------

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError | Exception
    ) -> None:
        """The one error handler of every slash command (and of the buttons, which call it too)."""
        original = getattr(error, "original", error)
        text: str | Message
        if isinstance(original, Refusal):
            text = original.said
        elif isinstance(original, GameError):
            text = original.said or str(original)
        elif isinstance(original, app_commands.MissingPermissions):
            text = say("You need the Manage Server permission for that.")
        elif isinstance(original, app_commands.NoPrivateMessage):
            text = say("That command works only in a server, not in direct messages.")
        elif isinstance(original, app_commands.TransformerError):
            # discord.py's own words on the option (its value, the type it wanted), as it says them.
            text = say(
                "One of the options cannot be used ({reason}); check it and try again.", reason=Verbatim(str(original))
            )
        elif isinstance(original, app_commands.CommandSignatureMismatch):
            text = say("This command has just changed; wait a minute for Discord to update it, then try again.")
        elif isinstance(original, app_commands.CheckFailure):
            text = str(original) or say("You may not use that command here.")
        elif isinstance(original, DISCORD_ERRORS):
            # Discord refused or dropped a call half-way (a restart, a network error).
            log.warning("an interaction failed on Discord's side: %s", original)
            text = SORRY
        elif isinstance(original, StorageError):
            log.warning("a command failed on the database: %s", original)
            text = say("The bot cannot reach its database right now, so nothing changed; try again in a moment.")
        else:
            command = interaction.command.qualified_name if interaction.command else "a component"
            log.error("/%s failed", command, exc_info=(type(original), original, original.__traceback__))
            text = SORRY
        await reply(interaction, text)


def cluster_shards(settings: Settings | None, url: str) -> Shards | None:
    """The shards a process owns as one of several: with ``SHARD_COUNT`` set on PostgreSQL
    (on SQLite one process serves every shard, and :class:`Settings` refuses anything else)."""
    if settings is None or settings.shard_count is None:
        return None
    from sqlalchemy.engine import make_url

    if make_url(url).get_backend_name() != "postgresql":
        return None
    return Shards.of(settings.shard_count, settings.served_shards)


#: The exit code of a process that lost its shards' locks (it stops at once; restart it).
FENCED_EXIT = 2


def fence(why: str) -> None:
    """Stop the process now, without a clean close: it no longer owns its shards, so it must not
    write, post or deliver anything more (a standby may be taking them over already)."""
    log.critical("%s; stopping at once so that another process can serve the shards", why)
    with contextlib.suppress(Exception):
        for handler in logging.getLogger().handlers:
            handler.flush()
        sys.stderr.write(f"geniusbot: {why}; stopped at once (another process may serve the shards now).\n")
        sys.stderr.flush()
    os._exit(FENCED_EXIT)


def member_words(interaction: discord.Interaction) -> Words:
    """The words of an answer only the member who asked reads (ephemeral): in the member's own
    Discord language where the bot speaks it (English, or a language with a catalogue), else in
    the bot's; in the pseudo-language always when the bot speaks it (a test of the catalogue)."""
    words = words_for(interaction.client)
    locale = str(getattr(interaction.locale, "value", "") or "")
    if not locale or words.language == PSEUDO:
        return words
    if languages(locale)[-1] == ENGLISH or catalogue(DOMAIN, locale) is not None:
        return Words(locale)
    return words


async def reply(interaction: discord.Interaction, text: str | Message, *, ephemeral: bool = True, **extra: Any) -> None:
    """Answer an interaction whether or not it was answered (or deferred) already: a message in
    the member's language when only they read it (:func:`member_words`), else in the room's
    (words said already, such as the host's, as they are)."""
    if isinstance(text, Message):
        client = interaction.client
        if ephemeral:
            text = member_words(interaction)(text)
        elif isinstance(client, GeniusBot):
            text = Words(await client.rooms.of(interaction.guild))(text)
        else:
            text = said(client, text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **extra)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **extra)
    except DISCORD_ERRORS as error:
        log.info("could not answer interaction %s: %s", interaction.id, error)


NO_TOKEN = say(
    """\
geniusbot: no Discord token is set, so the bot cannot connect.

To get one: open https://discord.com/developers/applications, choose "New Application", then
"Bot" in the menu; press "Reset Token" and copy it. On the same page turn on the "Message
Content Intent" (players type their moves as plain messages). Invite the bot with "OAuth2" ->
"URL Generator": scopes "bot" and "applications.commands"; permissions View Channels, Send
Messages, Attach Files, Read Message History. Then put the token in the environment or in .env:

    DISCORD_TOKEN=your-token-here

To try the games without Discord, play in the terminal: geniusbot play GAME (geniusbot play
--help lists the games).
"""
)
#: :data:`NO_TOKEN` in English.
TOKEN_HELP = Words()(NO_TOKEN)


async def run_bot(
    settings: Settings, *, time: TimeSource | None = None, out: Callable[[str], Any] | None = None
) -> int:
    """Run the bot until it is stopped; return the exit code (2 without a token or a database)."""
    tell = out or (lambda text: print(text, file=sys.stderr, end=""))
    words = Words(settings.geniusbot_language)

    def write(message: Message) -> None:
        """One message to the one who runs the bot, in the bot's language, ending its line."""
        text = words(message)
        tell(text if text.endswith("\n") else text + "\n")

    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        write(NO_TOKEN)
        return 2
    try:
        configure_font(settings.font_path)
    except ValueError as error:  # the launcher's settings check it; this is for settings built elsewhere
        write(say("geniusbot: {error}.", error=Verbatim(str(error))))
        return 2
    apply_discord_urls(settings.discord_api_base_url, settings.discord_gateway_url)
    if str(settings.database_url).startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    bot = GeniusBot(settings, time=time)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Future[None]] = []
    stopped_by: list[int] = []

    def stop(signum: int) -> None:
        stopped_by.append(signum)
        closing.append(asyncio.ensure_future(bot.close()))

    for signum in (signal.SIGTERM, signal.SIGINT):
        # A service manager stops the bot with SIGTERM, a person with Ctrl-C (SIGINT): close
        # cleanly (timers, database, socket) and say so in one line, no traceback.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop, signum)
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value().strip())
    except discord.LoginFailure:
        write(
            say(
                "geniusbot: Discord refused the token ({setting}); copy it again from the Developer Portal.",
                setting=Verbatim("DISCORD_TOKEN"),
            )
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        write(
            say(
                "geniusbot: Discord refused the Message Content Intent; turn it on in the Developer Portal "
                "(your application -> Bot -> Privileged Gateway Intents)."
            )
        )
        return 2
    except (LayoutConflict, AnotherSoleProcess) as error:
        write(say("geniusbot: {error}", error=Verbatim(str(error))))
        return 2
    except StandbyStopped:
        pass  # stopped by a signal while it waited for its shards: said below
    except StorageUnavailable as error:  # it says what failed and what to do
        write(say("geniusbot: {error} Check {setting}.", error=error.said, setting=Verbatim("DATABASE_URL")))
        return 2
    except StorageError as error:
        write(
            say(
                "geniusbot: the database cannot be used ({error}); check {setting}.",
                error=error.said,
                setting=Verbatim("DATABASE_URL"),
            )
        )
        return 2
    except aiohttp.ClientConnectionError as error:
        write(
            say(
                "geniusbot: Discord cannot be reached at {url} ({error}); check the network, "
                "or {setting} if the bot runs behind a proxy.",
                url=Verbatim(discord.http.Route.BASE),
                error=Verbatim(str(error)),
                setting=Verbatim("DISCORD_API_BASE_URL"),
            )
        )
        return 2
    finally:
        # Let a close begun by a signal finish (asyncio.run would cancel it half-way).
        await asyncio.gather(*closing, return_exceptions=True)
    if stopped_by:
        by = "Ctrl-C" if stopped_by[0] == signal.SIGINT else signal.Signals(stopped_by[0]).name
        write(
            say(
                "geniusbot: stopped ({signal}); the unfinished matches resume when the bot runs again.",
                signal=Verbatim(by),
            )
        )
        return 130 if stopped_by[0] == signal.SIGINT else 0
    return 0
