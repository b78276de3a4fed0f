"""The fake Discord's attachment options against the real discord.py 2.7: a file a user attaches to
a slash command reaches the bot as a ``discord.Attachment`` (name, size, type) whose ``read()``
downloads its bytes from the fake; what Discord's client would not send is refused."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import ATTACHMENT_SIZE_LIMIT
from tests.fakediscord.running import running


class FileBot(commands.Bot):
    """A bot with one command that reads the file attached to it."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.01)

        @self.tree.command(description="Read a file")
        async def read(interaction: discord.Interaction, file: discord.Attachment, note: str = "") -> None:
            data = await file.read()
            await interaction.response.send_message(
                f"{file.filename} {file.size} {file.content_type} {data.decode()} {note}".strip(), ephemeral=True
            )

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def test_an_attached_file_is_read_by_the_bot() -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("The Genius")
        general = fake.create_channel(guild, "general")
        alice = fake.create_user("alice")
        fake.add_member(guild, alice)
        async with running(fake, FileBot()):
            command = fake.find_command("read")
            assert command is not None
            assert [(o["name"], o["type"]) for o in command.data["options"]] == [("file", 11), ("note", 3)]
            upload = fake.upload("record.txt", b"p1: H8")
            interaction = await fake.slash(alice, guild, general, "read", {"file": upload, "note": "ok"})
            assert interaction.payload["data"]["resolved"]["attachments"][str(upload.id)]["size"] == 6
            response = await fake.wait_for_response(interaction)
            assert response.message.content == "record.txt 6 text/plain p1: H8 ok"
            with pytest.raises(TypeError, match="pass a fake.upload"):
                await fake.slash(alice, guild, general, "read", {"file": "record.txt"})
            with pytest.raises(ValueError, match="upload limit"):
                await fake.slash(
                    alice, guild, general, "read", {"file": fake.upload("big.txt", b"#" * (ATTACHMENT_SIZE_LIMIT + 1))}
                )
