"""What the bot's end-to-end tests share: a server on the fake Discord, players, a host, and the
real :class:`~geniusbot.bot.GeniusBot` with a manual clock and a SQLite file of the test's own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from geniusbot.bot import GeniusBot
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeInteraction, FakeMessage, FakeRole, FakeUser
from tests.fakediscord.running import running
from tests.manualtime import ManualTime

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class TestBot(GeniusBot):
    """The real bot; only discord.py's 5 s wait before a re-IDENTIFY is skipped (the fake has no limit)."""

    __test__ = False

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No identify rate limit on the fake."""


@dataclass
class World:
    """One server: an owner who hosts (Manage Server), two players, a bystander, a room."""

    fake: FakeDiscord
    guild: FakeGuild
    room: FakeChannel
    owner: FakeUser
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    host_role: FakeRole
    time: ManualTime
    db_url: str
    #: Whether the server pings the player to move (``/setup pings``, on in a new server). Off here,
    #: so that the tests of everything else read the boards' captions as they are;
    #: tests/e2e/test_bot_pings.py turns it on.
    pings: bool = False

    def bot(self) -> TestBot:
        """A new bot process's client on the same database and clock."""
        return TestBot(database_url=self.db_url, time=self.time, guild_ready_timeout=0.01)

    @asynccontextmanager
    async def running(self, bot: TestBot | None = None) -> AsyncIterator[TestBot]:
        """The bot connected (and ready) for the length of the block."""
        async with running(self.fake, bot or self.bot(), timeout=15) as client:
            if not self.pings and client.store is not None:
                client.settings_changed(await client.store.set_guild_settings(self.guild.id, pings=False))
            yield client

    async def say(self, user: FakeUser, text: str, channel: FakeChannel | None = None) -> FakeMessage:
        """``user`` types ``text`` in the room; returns the bot's next message there with a picture."""
        await self.fake.user_says(channel or self.room, user, text)
        return await self.fake.wait_for_message(channel or self.room, predicate=lambda m: bool(m.attachments))

    async def answer(self, interaction: FakeInteraction) -> str:
        """The text the bot answered an interaction with (its first follow-up after a deferral)."""
        response = await self.fake.wait_for_response(interaction)
        if response.type == 5:
            return (await self.fake.wait_for_followup(interaction)).content
        return (response.data or {}).get("content", "")

    async def start(
        self,
        game: str,
        first: FakeUser | None = None,
        second: FakeUser | None = None,
        *,
        by: FakeUser | None = None,
        **options: object,
    ) -> str:
        """``/start`` by the owner (or ``by``); returns the bot's answer to the host."""
        given = {"game": game, "first": first or self.alice, "second": second or self.bob, **options}
        interaction = await self.fake.slash(by or self.owner, self.guild, self.room, "start", given)
        return await self.answer(interaction)


def make_world(fake: FakeDiscord, tmp_path: Path, db_url: str | None = None) -> World:
    """Build the server on ``fake``; the database is a SQLite file in ``tmp_path`` unless given."""
    guild = fake.create_guild("The Genius")
    room = fake.create_channel(guild, "death-match")
    alice, bob, carol = (fake.create_user(n) for n in ("alice", "bob", "carol"))
    host_role = fake.create_role(guild, "Dealer")
    for user in (alice, bob, carol):
        fake.add_member(guild, user)
    owner = fake.users[guild.owner_id]
    url = db_url or f"sqlite+aiosqlite:///{(tmp_path / 'bot.sqlite3').as_posix()}"
    return World(fake, guild, room, owner, alice, bob, carol, host_role, ManualTime(), url)


EPHEMERAL = 64
"""The message flag of an answer only its asker sees."""


async def ephemeral_answer(world: World, interaction: FakeInteraction) -> str:
    """The answer to ``interaction`` (deferred or not), checked to be seen only by the one who asked."""
    response = await world.fake.wait_for_response(interaction)
    assert response.data["flags"] & EPHEMERAL
    if response.type == 5:  # deferred: the answer is the follow-up
        return (await world.fake.wait_for_followup(interaction)).content
    return response.data["content"]
