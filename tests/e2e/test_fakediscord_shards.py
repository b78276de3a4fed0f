"""The fake Discord speaks shards: IDENTIFY's ``shard: [id, count]`` is kept, a guild's events go
only to the socket of its shard, ``(guild_id >> 22) % count``, and DMs only to shard 0. Real
discord.py ``AutoShardedClient``s, one per shard, on one fake."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.gateway import shard_of
from tests.fakediscord.running import running

pytestmark = pytest.mark.slow


class ShardBot(commands.AutoShardedBot):
    """A bot that notes every message and button press it receives, per shard."""

    def __init__(self, **options: object) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.01, **options)  # type: ignore[arg-type]
        self.seen: list[tuple[int | None, str]] = []
        self.pressed: list[tuple[int | None, str]] = []
        self._changed = asyncio.Event()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """The fake has no identify limit."""

    def _note(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        self.seen.append((message.guild.id if message.guild else None, message.content))
        self._note()

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self._note()

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self._note()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.pressed.append((interaction.guild_id, str((interaction.data or {}).get("custom_id"))))
        self._note()
        await interaction.response.defer()

    async def until(self, condition, timeout: float = 5.0) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                await self._changed.wait()


def test_guild_ids_can_be_put_on_a_given_shard() -> None:
    fake = FakeDiscord()
    for count in (1, 2, 3, 7):
        for shard in range(count):
            guild = fake.create_guild(f"g{count}-{shard}", shard=(shard, count))
            assert shard_of(guild.id, count) == shard
    ids = [g for g in fake.guilds]
    assert ids == sorted(ids)  # still increasing snowflakes
    with pytest.raises(ValueError):
        fake.create_guild("nowhere", shard=(2, 2))


async def test_a_bot_without_shard_settings_asks_discord_and_is_shard_0_of_1() -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("one")
        room = fake.create_channel(guild, "room")
        alice = fake.create_user("alice")
        fake.add_member(guild, alice)
        async with running(fake, ShardBot()) as bot:
            assert ("GET", "/gateway/bot") in [(r.method, r.route) for r in fake.requests]
            assert [s.shard for s in fake.shard_sessions()] == [[0, 1]]
            await fake.user_says(room, alice, "H8")
            await fake.dm(alice, "mines A1")
            await bot.until(lambda: len(bot.seen) == 2)
            assert bot.seen == [(guild.id, "H8"), (None, "mines A1")]


async def test_each_shard_receives_its_own_guilds_and_only_shard_0_the_dms() -> None:
    async with FakeDiscord() as fake:
        guilds = [fake.create_guild(f"g{n}", shard=(n, 2)) for n in (0, 1)]
        rooms = [fake.create_channel(g, "room") for g in guilds]
        alice = fake.create_user("alice")
        for guild in guilds:
            fake.add_member(guild, alice)
        zero, one = ShardBot(shard_count=2, shard_ids=[0]), ShardBot(shard_count=2, shard_ids=[1])
        async with running(fake, zero), running(fake, one):
            assert sorted(s.shard for s in fake.shard_sessions()) == [[0, 2], [1, 2]]
            assert [s.shard for s in fake.shard_sessions(1)] == [[1, 2]]
            assert [g.id for g in zero.guilds] == [guilds[0].id]
            assert [g.id for g in one.guilds] == [guilds[1].id]
            await fake.user_says(rooms[1], alice, "in one")
            await fake.user_says(rooms[0], alice, "in zero")
            await fake.dm(alice, "a dm")
            await zero.until(lambda: len(zero.seen) == 2)
            await one.until(lambda: len(one.seen) == 1)
            assert zero.seen == [(guilds[0].id, "in zero"), (None, "a dm")]
            assert one.seen == [(guilds[1].id, "in one")]

            # A guild created later, a channel in it: only its shard hears of them.
            late = fake.create_guild("late", shard=(1, 2))
            fake.create_channel(late, "later-room")
            await one.until(lambda: one.get_guild(late.id) is not None and len(one.get_guild(late.id).channels) == 1)
            assert zero.get_guild(late.id) is None

            # Button presses: a guild's to its shard, a DM's to shard 0.
            posted = await one.get_channel(rooms[1].id).send(
                "press", view=discord.ui.View().add_item(discord.ui.Button(label="go", custom_id="g:1"))
            )
            dm = await (await one.fetch_user(alice.id)).send(
                "press", view=discord.ui.View().add_item(discord.ui.Button(label="go", custom_id="dm:1"))
            )
            await fake.click(alice, fake.message_store[posted.id], "g:1")
            await fake.click(alice, fake.message_store[dm.id], "dm:1")
            await zero.until(lambda: len(zero.pressed) == 1)
            await one.until(lambda: len(one.pressed) == 1)
            assert zero.pressed == [(None, "dm:1")]
            assert one.pressed == [(guilds[1].id, "g:1")]


async def test_a_new_identify_of_one_shard_leaves_the_other_shards_sessions_alone() -> None:
    async with FakeDiscord() as fake:
        async with running(fake, ShardBot(shard_count=2, shard_ids=[0])):
            async with running(fake, ShardBot(shard_count=2, shard_ids=[1])):
                pass
            # Shard 1 closed cleanly; shard 0's session lives on, and a new shard 1 takes over.
            async with running(fake, ShardBot(shard_count=2, shard_ids=[1])):
                assert sorted(s.shard for s in fake.shard_sessions()) == [[0, 2], [1, 2]]
