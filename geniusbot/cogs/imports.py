"""``/import``: a host attaches a match record file, and it becomes an archived match of the server.

The record is adjudicated as ``geniusbot adjudicate`` rules it (:mod:`geniusbot.host.imports`);
its accepted lines make the match and its refused lines are kept, where they happened, as the
live bot keeps a refused submission (with ``strict``, a record with a refused line is not stored
and the answer quotes the first). A finished match is kept without a room (``/replay`` and ``/record`` show it); a record
that stops before the end becomes a paused match in this channel, which must be a free game
room, with the players named here in its seats, so that a host may ``/resume`` it and they play on.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import DISCORD_ERRORS, GeniusBot, Refusal, reply
from geniusbot.discord_words import described
from geniusbot.host.imports import ImportRefused, decode_record, import_prepared, prepare
from geniusbot.record import RecordError
from geniusbot.record.file import MAX_RECORD_BYTES
from geniusbot.storage import RoomBusy
from geniusbot.words import Verbatim, say, say_c

from . import host_refusal
from .matches import rooms_of

#: Discord's limit on a message's text.
MESSAGE_CHARS = 2000
#: A record file's download from Discord is given up after this long, on the bot's clock (a
#: record is at most 1 MiB: a download that takes longer has stalled, and the host is told so
#: while they still wait, not after aiohttp's own five minutes).
DOWNLOAD_SECONDS = 30

log = logging.getLogger(__name__)


class Imports(commands.Cog):
    """Match records in: ``/import``."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="import",
        description=described(say_c("slash command", "Import a match record file as an archived match (host)")),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        record=described(
            say_c("slash option", "the record file (the format /record gives and geniusbot adjudicate reads)")
        ),
        first=described(
            say_c("slash option", "the player in seat p1 (needed to play on a record that stops before the end)")
        ),
        second=described(
            say_c("slash option", "the player in seat p2 (needed to play on a record that stops before the end)")
        ),
        strict=described(say_c("slash option", "refuse a record with a refused line instead of keeping it as refused")),
        rated=described(say_c("slash option", "whether the match moves the players' ratings (default: no)")),
    )
    async def import_command(
        self,
        interaction: discord.Interaction,
        record: discord.Attachment,
        first: discord.Member | None = None,
        second: discord.Member | None = None,
        strict: bool = False,
        rated: bool = False,
    ) -> None:
        """Adjudicate the attached record and store it, its refused lines kept as refused
        (``strict``: only when every line is accepted)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if why := await host_refusal(interaction, "import"):
            raise Refusal(why)
        assert interaction.guild is not None and self.bot.store is not None
        words = self.bot.words()
        file = Verbatim(record.filename)
        if record.size > MAX_RECORD_BYTES:
            raise Refusal(
                say(
                    "{file} is {size} KiB; a record file may be at most {most} KiB. Attach the record of one match.",
                    file=file,
                    size=record.size // 1024,
                    most=MAX_RECORD_BYTES // 1024,
                )
            )
        try:
            data = await self.download(record)
        except DISCORD_ERRORS as error:
            log.info("could not download %s: %s", record.filename, error)
            raise Refusal(say("I could not download {file} from Discord; attach it again.", file=file)) from None
        except TimeoutError:
            log.info("the download of %s stalled for %s s", record.filename, DOWNLOAD_SECONDS)
            raise Refusal(
                say(
                    "I could not download {file} from Discord: it took over {seconds} s. Attach it again.",
                    file=file,
                    seconds=DOWNLOAD_SECONDS,
                )
            ) from None
        try:
            prepared = prepare(decode_record(data, record.filename), strict=strict)
        except ImportRefused as error:
            raise Refusal(words(error.said)[:MESSAGE_CHARS]) from None
        except RecordError as error:
            # The record's own refusal (what its line says is wrong), on one line.
            reason = Verbatim(" ".join(words(error.said).split()))
            said = words(say("{file} cannot be imported: {reason}", file=file, reason=reason))
            raise Refusal(said[:MESSAGE_CHARS]) from None
        users = {seat: member.id for seat, member in (("p1", first), ("p2", second)) if member is not None}
        if len(users) == 2 and first == second:
            raise Refusal(say("A match needs two different players; name someone else as the second player."))
        channel_id = None
        existing = await self.bot.store.imported_match(interaction.guild.id, prepared.digest)
        if prepared.game.outcome() is None and existing is None:
            channel_id = await self.room_for_play(interaction, users)
        try:
            done = await import_prepared(
                self.bot.store,
                prepared,
                guild_id=interaction.guild.id,
                channel_id=channel_id,
                users=users,
                language=await self.bot.rooms.of(interaction.guild),  # the room's, as a match started here
                rated=rated,
            )
        except RoomBusy:
            raise Refusal(
                say(
                    "A match runs in this channel, and a record that stops before the end is kept in the room "
                    "where it is imported; import it in a free game room."
                )
            ) from None
        resume = say("a host uses {resume} here", resume=Verbatim(f"/resume match:{done.match_id}"))
        replay = say(
            "{replay} steps through it; {record} gives its record.",
            replay=Verbatim(f"/replay match:{done.match_id}"),
            record=Verbatim(f"/record match:{done.match_id}"),
        )
        # The summary is the importer's message, the two phrases ours: all said in the bot's language.
        await reply(interaction, words(done.said_summary(resume, replay))[:MESSAGE_CHARS])

    async def download(self, attachment: discord.Attachment) -> bytes:
        """The attachment's bytes, or :class:`TimeoutError` once :data:`DOWNLOAD_SECONDS` have
        passed on the bot's clock (the one its tests move)."""
        reading = asyncio.ensure_future(attachment.read())
        limit = asyncio.ensure_future(self.bot.sleep(DOWNLOAD_SECONDS))
        try:
            done, _ = await asyncio.wait((reading, limit), return_when=asyncio.FIRST_COMPLETED)
        finally:
            limit.cancel()
            reading.cancel()  # nothing, once it is done
        if reading not in done:
            raise TimeoutError
        return reading.result()

    async def room_for_play(self, interaction: discord.Interaction, users: dict[str, int]) -> int:
        """This channel, as the room of a paused import, or a refusal saying what is missing."""
        assert interaction.guild is not None and self.bot.store is not None
        if len(users) < 2:
            raise Refusal(
                say(
                    "This record stops before the end, so it becomes a match to play on: name its players "
                    "with the {first} and {second} options, and import it again.",
                    first=Verbatim("first"),
                    second=Verbatim("second"),
                )
            )
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(say("Import a record that stops before the end in a game room, a text channel."))
        config = await self.bot.store.get_guild_settings(interaction.guild.id)
        if config.game_room_ids and channel.id not in config.game_room_ids:
            raise Refusal(
                say(
                    "{room} is not a game room, and a record that stops before the end is played on "
                    "where it is imported; import it in one of {rooms}.",
                    room=Verbatim(channel.mention),
                    rooms=rooms_of(config.game_room_ids),
                )
            )
        return channel.id


async def setup(bot: GeniusBot) -> None:
    """Add the cog."""
    await bot.add_cog(Imports(bot))
