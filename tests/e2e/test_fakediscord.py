"""The fake Discord against the real discord.py 2.7: a bare bot connects, talks, is rate limited,
loses its socket, and every answer lands where a player would see it."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, UnknownRouteError, png_size
from tests.fakediscord.model import SEND_MESSAGES
from tests.fakediscord.running import running


def make_png(width: int, height: int, seed: int = 0) -> bytes:
    """A real RGB PNG of the given size (standard library only), distinct per seed."""
    row = bytes([0]) + bytes((x * 7 + seed) % 256 for x in range(width * 3))
    raw = row * height

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


BOARD_PNG = make_png(96, 64, seed=3)
SECRET_PNG = make_png(32, 32, seed=5)


def intents(*, content: bool = True) -> discord.Intents:
    value = discord.Intents.default()
    value.message_content = content
    value.members = True
    return value


class BareBot(commands.Bot):
    """A small bot: replies with a PNG, opens DMs, shows a button and a select, has slash commands."""

    def __init__(self, *, content_intent: bool = True, sync_to: discord.abc.Snowflake | None = None) -> None:
        super().__init__(command_prefix="!", intents=intents(content=content_intent), guild_ready_timeout=0.01)
        self.sync_to = sync_to
        self.seen: list[discord.Message] = []
        self.sent: list[discord.Message] = []
        self.errors: list[Exception] = []
        self.resumed = asyncio.Event()
        self._changed = asyncio.Event()
        self.gate = asyncio.Event()

        @self.tree.command(description="Answer at once")
        async def ping(interaction: discord.Interaction, times: int = 1) -> None:
            await interaction.response.send_message("pong " * times + interaction.user.name, ephemeral=True)

        @self.tree.command(description="Think, then answer")
        async def slow(interaction: discord.Interaction, word: str) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(f"thought about {word}")
            await interaction.followup.send("and one more thing")

        @self.tree.command(description="Answer only when the test opens the gate")
        async def late(interaction: discord.Interaction) -> None:
            await self.gate.wait()
            try:
                await interaction.response.send_message("sorry I am late")
            except discord.NotFound as error:
                self.note(self.errors, error)

        @self.tree.command(description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("board v1", file=discord.File(io.BytesIO(BOARD_PNG), "board.png"))
            await interaction.edit_original_response(content="board v2")
            original = await interaction.original_response()
            await interaction.followup.send(
                f"your hand under {original.content}",
                file=discord.File(io.BytesIO(SECRET_PNG), "hand.png"),
                ephemeral=True,
            )

        @commands.command()
        async def give(ctx: commands.Context, member: discord.Member, *, role_name: str) -> None:
            role = discord.utils.get(ctx.guild.roles, name=role_name) or await ctx.guild.create_role(name=role_name)
            fetched = await ctx.guild.fetch_member(member.id)
            try:
                await fetched.add_roles(role)
            except discord.Forbidden as error:
                self.note(self.errors, error)
                await ctx.send(f"I cannot give {role_name}; move my role above it.")
            else:
                await ctx.send(f"{fetched.name} is now {role_name}")

        self.add_command(give)

        @self.tree.command(description="Play a cell")
        async def move(interaction: discord.Interaction, cell: str) -> None:
            await interaction.response.send_message(f"played {cell}")

        @move.autocomplete("cell")
        async def cells(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=c, value=c) for c in ("A1", "A2", "B1") if c.startswith(current.upper())]

        @self.tree.command(description="Leave a note for the host")
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        @self.tree.command(description="Start a match against someone")
        @app_commands.describe(opponent="who to play")
        @app_commands.choices(
            game=[
                app_commands.Choice(name="Mines", value="mines"),
                app_commands.Choice(name="Tightwire", value="tightwire"),
            ]
        )
        async def start(
            interaction: discord.Interaction, opponent: discord.Member, game: app_commands.Choice[str]
        ) -> None:
            await interaction.response.send_message(f"{game.value}: {interaction.user.name} vs {opponent.name}")

    def note(self, bucket: list, item: object) -> None:
        """Keep ``item`` and wake ``until``: the test waits on the bot's side without sleeping."""
        bucket.append(item)
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def until(self, condition, timeout: float = 5.0) -> None:
        """Wait until ``condition()`` holds, re-checked each time the bot notes something."""
        async with asyncio.timeout(timeout):
            while not condition():
                await self._changed.wait()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before every IDENTIFY but the first (Discord's identify limit);
        the fake has no such limit, so the test bot re-identifies at once."""

    async def setup_hook(self) -> None:
        self.add_view(Seats())
        if self.sync_to is not None:
            self.tree.copy_global_to(guild=self.sync_to)
            await self.tree.sync(guild=self.sync_to)
        else:
            await self.tree.sync()

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        if payload.user_id != self.user.id and str(payload.emoji) == "\N{WHITE HEAVY CHECK MARK}":
            channel = self.get_channel(payload.channel_id)
            await channel.send(f"{payload.member.name} agreed to message {payload.message_id}")

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        if message.content.startswith("!"):
            await self.process_commands(message)
            return
        self.note(self.seen, message)
        text = message.content
        if text in ("H8", "H9") or text.startswith("mines"):
            sent = await message.reply(f"board after {text}", file=discord.File(io.BytesIO(BOARD_PNG), "board.png"))
            self.note(self.sent, sent)
        elif text == "dm me":
            try:
                await message.author.send("your secret card: 7")
            except discord.Forbidden as error:
                self.note(self.errors, error)
                await message.channel.send(f"{message.author.mention}, open your DMs and try again.")
        elif text == "seats":
            await message.channel.send("the table is open", view=Seats())
        elif text == "menu":
            view = Menu()
            await message.channel.send("pick", view=view)
        elif text == "lifecycle":
            sent = await message.channel.send("counting: 1")
            await sent.edit(content="counting: 2")
            await sent.add_reaction("\N{WHITE HEAVY CHECK MARK}")
            history = [m async for m in message.channel.history(limit=5)]
            again = await message.channel.fetch_message(sent.id)
            await message.channel.send(f"history {len(history)}: {history[0].content}; {len(again.reactions)} reaction")
            await sent.delete()
        elif text == "big":
            try:
                await message.channel.send(file=discord.File(io.BytesIO(bytes(10 * 1024 * 1024 + 1)), "huge.png"))
            except discord.HTTPException as error:
                self.note(self.errors, error)
        elif text == "new match":
            thread = await message.create_thread(name="match 1")
            await thread.send("welcome to match 1")
        elif text == "boom":
            raise RuntimeError("the bot tripped over its own feet")
        elif text == "say" and message.guild is not None:
            try:
                await message.channel.send("hello")
            except discord.Forbidden as error:
                self.note(self.errors, error)


class NoteModal(discord.ui.Modal, title="A note for the host"):
    text = discord.ui.TextInput(label="Your note", custom_id="note_text", max_length=100)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}", ephemeral=True)


class Seats(discord.ui.View):
    """A persistent view: any client that registers it answers its button, even after a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Take a seat", custom_id="seats:take")
    async def take(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.name} took a seat")


class Menu(discord.ui.View):
    """A button and a select; the button edits the message, the select answers ephemerally."""

    @discord.ui.button(label="Press", custom_id="press", style=discord.ButtonStyle.primary)
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"pressed by {interaction.user.name}", view=None)

    @discord.ui.select(
        custom_id="card", options=[discord.SelectOption(label=str(n), value=str(n)) for n in range(1, 4)]
    )
    async def card(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"you chose {select.values[0]}", ephemeral=True)


@pytest.fixture
async def fake():
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
def world(fake: FakeDiscord):
    guild = fake.create_guild("The Genius")
    general = fake.create_channel(guild, "general")
    alice = fake.create_user("alice")
    bob = fake.create_user("bob")
    player = fake.create_role(guild, "Player")
    fake.add_member(guild, alice, roles=[player])
    fake.add_member(guild, bob)
    return guild, general, alice, bob


async def test_connect_and_ready(fake: FakeDiscord, world) -> None:
    guild, general, alice, _ = world
    async with running(fake, BareBot()) as bot:
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.application_id == fake.application_id
        [seen] = bot.guilds
        assert seen.id == guild.id and seen.name == "The Genius"
        assert seen.get_channel(general.id).name == "general"
        assert {r.name for r in seen.roles} >= {"@everyone", "Player", "geniusbot"}
        assert seen.get_member(alice.id).roles[-1].name == "Player"
        assert seen.chunked
    [connection] = fake.gateway.connections
    assert connection.compress, "discord.py asks for zlib-stream and the fake must speak it"
    assert fake.gateway.identify_count == 1
    assert connection.ws.closed


async def test_message_in_png_reply_out(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()) as bot:
        said = await fake.user_says(general, alice, "H8")
        reply = await fake.wait_for_message(general)
        assert reply.content == "board after H8"
        assert reply.message_reference["message_id"] == str(said.id)
        assert fake.attachments(reply) == [BOARD_PNG]
        assert png_size(fake.attachments(reply)[0]) == (96, 64)
        # The bot sees what the player typed (message content intent) and can read its own file back.
        assert bot.seen[-1].content == "H8"
        await bot.until(lambda: bot.sent)
        [sent] = bot.sent
        assert sent.attachments[0].width == 96 and sent.attachments[0].content_type == "image/png"
        assert await sent.attachments[0].read() == BOARD_PNG


async def test_without_the_content_intent_the_bot_sees_text_only_when_mentioned(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot(content_intent=False)) as bot:
        await fake.user_says(general, alice, "H8")
        await fake.user_says(general, alice, f"{fake.bot_user.mention} H8")
        await bot.until(lambda: len(bot.seen) == 2)
        assert [m.content for m in bot.seen] == ["", f"<@{fake.bot_user.id}> H8"]
        # Direct messages carry their text without the intent.
        await fake.dm(alice, "mines A1")
        assert (await fake.wait_for_message(fake.dm_channel(alice))).content == "board after mines A1"


async def test_slash_commands_sync_answer_and_defer(fake: FakeDiscord, world) -> None:
    guild, general, alice, bob = world
    async with running(fake, BareBot()):
        assert {c.name for c in fake.commands.values()} == {"ping", "slow", "late", "board", "move", "note", "start"}
        assert all(c.guild_id is None for c in fake.commands.values())

        ping = await fake.slash(alice, guild, general, "ping", {"times": 2})
        response = await fake.wait_for_response(ping)
        assert response.type == 4
        assert response.message.content == "pong pong alice" and response.message.ephemeral
        assert ping.payload["member"]["permissions"] and ping.payload["app_permissions"]

        slow = await fake.slash(alice, guild, general, "slow", {"word": "tightwire"})
        assert (await fake.wait_for_response(slow)).type == 5
        first = await fake.wait_for_followup(slow)
        assert first is slow.original and first.content == "thought about tightwire"
        second = await fake.wait_for_followup(slow, 2)
        assert second.content == "and one more thing" and second is not first

        match = await fake.slash(bob, guild, general, "start", {"opponent": alice, "game": "mines"})
        answer = await fake.wait_for_message(general)
        assert answer.content == "mines: bob vs alice" and answer.interaction_metadata["id"] == str(match.id)

        private = await fake.slash(bob, None, fake.dm_channel(bob), "ping")
        reply = (await fake.wait_for_response(private)).message
        assert reply.content == "pong bob" and reply.channel_id == fake.dm_channel(bob).id
    assert [r.type for _, r in fake.interaction_responses] == [4, 5, 4, 4]


async def test_guild_sync_and_what_discord_would_refuse(fake: FakeDiscord, world) -> None:
    guild, general, alice, _ = world
    async with running(fake, BareBot(sync_to=discord.Object(guild.id))):
        assert {c.guild_id for c in fake.commands.values()} == {guild.id}
        with pytest.raises(ValueError, match="required"):
            await fake.slash(alice, guild, general, "start", {"game": "mines"})
        with pytest.raises(ValueError, match="choices"):
            await fake.slash(alice, guild, general, "start", {"opponent": alice, "game": "chess"})
        with pytest.raises(LookupError):
            await fake.slash(alice, guild, general, "resign")
        ping = await fake.slash(alice, guild, general, "ping")
        assert (await fake.wait_for_response(ping)).message.content == "pong alice"


class ManualClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_an_interaction_answered_after_three_seconds_is_unknown() -> None:
    clock = ManualClock()
    async with FakeDiscord(clock=clock) as fake:
        guild = fake.create_guild()
        general = fake.create_channel(guild, "general")
        alice = fake.create_user("alice")
        fake.add_member(guild, alice)
        async with running(fake, BareBot()) as bot:
            late = await fake.slash(alice, guild, general, "late")
            clock.now += 3.5
            bot.gate.set()
            await bot.until(lambda: bot.errors)
            assert bot.errors[0].code == 10062
            assert late.response is None and fake.interaction_responses == []


async def test_button_click_and_select(fake: FakeDiscord, world) -> None:
    _, general, alice, bob = world
    async with running(fake, BareBot()):
        await fake.user_says(general, alice, "menu")
        menu = await fake.wait_for_message(general, predicate=lambda m: m.content == "pick")
        chosen = await fake.select(bob, menu, "card", ["2"])
        answer = await fake.wait_for_response(chosen)
        assert answer.message.content == "you chose 2" and answer.message.ephemeral
        with pytest.raises(ValueError):
            await fake.select(bob, menu, "card", ["9"])

        click = await fake.click(alice, menu, "press")
        assert (await fake.wait_for_response(click)).type == 7
        edited = await fake.wait_for_edit(menu)
        assert edited.content == "pressed by alice" and edited.components == []
        with pytest.raises(LookupError):
            await fake.click(alice, menu, "press")


async def test_dm_opened_and_sent(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()) as bot:
        await fake.user_says(general, alice, "dm me")
        secret = await fake.wait_for_message(fake.dm_channel(alice))
        assert secret.content == "your secret card: 7" and secret.guild_id is None
        # A player writing to the bot in private gets a private answer.
        await fake.dm(alice, "mines A1 B2")
        answer = await fake.wait_for_message(fake.dm_channel(alice))
        assert answer.content == "board after mines A1 B2" and fake.attachments(answer) == [BOARD_PNG]
        assert isinstance(bot.seen[-1].channel, discord.DMChannel)
        assert fake.messages(general)[-1].content == "dm me"


async def test_closed_dms_raise_forbidden_50007(fake: FakeDiscord, world) -> None:
    _, general, _, bob = world
    bob.dms_open = False
    async with running(fake, BareBot()) as bot:
        await fake.user_says(general, bob, "dm me")
        notice = await fake.wait_for_message(general)
        assert notice.content == f"{bob.mention}, open your DMs and try again."
        [error] = bot.errors
        assert isinstance(error, discord.Forbidden) and error.code == 50007
        assert fake.messages(fake.dm_channel(bob)) == []


async def test_missing_permission_raises_forbidden_50013(fake: FakeDiscord, world) -> None:
    guild, _, alice, _ = world
    muted = fake.create_channel(guild, "announcements", overwrites={fake.bot_role(guild): (0, SEND_MESSAGES)})
    async with running(fake, BareBot()) as bot:
        await fake.user_says(muted, alice, "say")
        await bot.until(lambda: bot.errors)
        assert bot.errors[0].code == 50013
        assert [m.author.id for m in fake.messages(muted)] == [alice.id]


async def test_an_upload_over_10_mib_is_refused(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()) as bot:
        await fake.user_says(general, alice, "big")
        await bot.until(lambda: bot.errors)
        assert (bot.errors[0].status, bot.errors[0].code) == (413, 40005)
        assert [m.author.id for m in fake.messages(general)] == [alice.id]


async def test_rate_limited_route_is_retried(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()):
        fake.rate_limit("POST", "/channels/{channel_id}/messages", times=2, retry_after=0.02)
        await fake.user_says(general, alice, "H8")
        reply = await fake.wait_for_message(general)
        assert fake.attachments(reply) == [BOARD_PNG], "the retried upload must carry the file again"
        # A global limit holds every route back until it passes.
        fake.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=0.02, is_global=True)
        await fake.user_says(general, alice, "H9")
        assert (await fake.wait_for_message(general)).content == "board after H9"
    posts = [r for r in fake.requests if r.method == "POST" and r.route == "/channels/{}/messages"]
    assert [r.status for r in posts] == [429, 429, 200, 429, 200]
    assert len(fake.messages(general)) == 4


async def test_gateway_drop_is_resumed_and_missed_events_replayed(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()) as bot:
        mark = fake.mark()
        assert await fake.drop_gateway() == 1
        # Said while the bot has no socket: Discord keeps it for the RESUME.
        await fake.user_says(general, alice, "H8")
        session = await fake.wait_for_gateway("resume", since=mark)
        assert session.connection.path == "/resume-gateway"
        reply = await fake.wait_for_message(general)
        assert reply.content == "board after H8"
        await asyncio.wait_for(bot.resumed.wait(), 5)
    assert fake.gateway.identify_count == 1 and fake.gateway.resume_count == 1


async def test_invalidated_session_identifies_again(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()):
        mark = fake.mark()
        await fake.drop_gateway(invalidate=True)
        await fake.wait_for_gateway("resume_refused", since=mark)
        await fake.wait_for_gateway("identify", since=mark)
        await fake.user_says(general, alice, "H8")
        assert (await fake.wait_for_message(general)).content == "board after H8"
    assert fake.gateway.identify_count == 2


async def test_reconnect_opcode_resumes(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()):
        mark = fake.mark()
        await fake.request_reconnect()
        await fake.wait_for_gateway("resume", since=mark)
        await fake.user_says(general, alice, "H8")
        await fake.wait_for_message(general)


async def test_second_client_after_the_first_closed(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()):
        pass
    first = next(iter(fake.gateway.sessions.values()))
    assert first.connection is None
    async with running(fake, BareBot()) as second:
        await fake.user_says(general, alice, "H8")
        await fake.wait_for_message(general)
        assert second.seen[-1].content == "H8"
        assert len(fake.gateway.sessions) == 2 and first.connection is None
    replies = [m for m in fake.messages(general) if m.author.id == fake.bot_user.id]
    assert len(replies) == 1
    assert fake.gateway.identify_count == 2


async def test_interaction_answer_with_a_file_edited_and_an_ephemeral_followup(fake: FakeDiscord, world) -> None:
    guild, general, alice, bob = world
    async with running(fake, BareBot()):
        board = await fake.slash(alice, guild, general, "board")
        response = await fake.wait_for_response(board)
        assert response.type == 4 and fake.attachments(response.message) == [BOARD_PNG]
        hand = await fake.wait_for_followup(board)
        assert hand.ephemeral and fake.attachments(hand) == [SECRET_PNG]
        assert hand.content == "your hand under board v2"
        assert board.original.content == "board v2" and board.original.edits == 1
        # The ephemeral hand is alice's alone.
        assert [m.content for m in fake.visible_to(bob, general)] == ["board v2"]
        assert [m.content for m in fake.visible_to(alice, general)] == ["board v2", hand.content]
        assert fake.visible_to(bob, fake.dm_channel(alice)) == []


async def test_autocomplete_and_modal(fake: FakeDiscord, world) -> None:
    guild, general, alice, _ = world
    async with running(fake, BareBot()):
        typing = await fake.autocomplete(alice, guild, general, "move", {"cell": "a"}, focused="cell")
        response = await fake.wait_for_response(typing)
        assert response.type == 8 and [c["value"] for c in response.data["choices"]] == ["A1", "A2"]

        note = await fake.slash(alice, guild, general, "note")
        shown = await fake.wait_for_response(note)
        assert shown.type == 9 and shown.data["title"] == "A note for the host"
        with pytest.raises(ValueError, match="characters"):
            await fake.submit_modal(note, {"note_text": "x" * 101})
        submitted = await fake.submit_modal(note, {"note_text": "bob stalls"})
        answer = await fake.wait_for_response(submitted)
        assert answer.message.content == "noted: bob stalls" and answer.message.ephemeral


async def test_prefix_command_fetches_a_member_and_gives_a_role(fake: FakeDiscord, world) -> None:
    guild, general, alice, bob = world
    host = fake.create_role(guild, "Host", position=50)  # above the bot's role
    async with running(fake, BareBot()) as bot:
        await fake.user_says(general, alice, f"!give {bob.mention} Finalist")
        assert (await fake.wait_for_message(general)).content == "bob is now Finalist"
        finalist = next(r for r in guild.roles.values() if r.name == "Finalist")
        assert finalist.id in guild.members[bob.id].role_ids
        await fake.user_says(general, alice, f"!give {bob.mention} Host")
        assert (await fake.wait_for_message(general)).content == "I cannot give Host; move my role above it."
        assert bot.errors[0].code == 50013 and host.id not in guild.members[bob.id].role_ids


async def test_a_player_reaction_reaches_the_bot(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()):
        await fake.user_says(general, alice, "menu")
        menu = await fake.wait_for_message(general)
        await fake.react(alice, menu, "\N{WHITE HEAVY CHECK MARK}")
        assert (await fake.wait_for_message(general)).content == f"alice agreed to message {menu.id}"


async def test_a_match_thread_from_a_message(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()) as bot:
        said = await fake.user_says(general, alice, "new match")
        thread = await fake.wait_for("channel_create")
        assert thread.is_thread and thread.id == said.id and thread.parent_id == general.id
        assert (await fake.wait_for_message(thread)).content == "welcome to match 1"
        await fake.user_says(thread, alice, "H8")
        assert (await fake.wait_for_message(thread)).content == "board after H8"
        assert isinstance(bot.seen[-1].channel, discord.Thread)


async def test_a_persistent_button_answers_in_the_next_client(fake: FakeDiscord, world) -> None:
    _, general, alice, bob = world
    async with running(fake, BareBot()):
        await fake.user_says(general, alice, "seats")
        table = await fake.wait_for_message(general)
    async with running(fake, BareBot()):
        click = await fake.click(bob, table, "seats:take")
        assert (await fake.wait_for_response(click)).message.content == "bob took a seat"


async def test_message_edit_reaction_history_delete(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    async with running(fake, BareBot()):
        await fake.user_says(general, alice, "lifecycle")
        summary = await fake.wait_for_message(general, predicate=lambda m: m.content.startswith("history"))
        # Waits judge a message as it was posted: "counting: 1" is found though it was edited since.
        counting = await fake.wait_for_message(general, predicate=lambda m: m.content == "counting: 1")
        assert counting.content == "counting: 2"
        assert summary.content == "history 2: counting: 2; 1 reaction"
        await fake.wait_for_delete(counting)
        assert counting.edits == 1 and counting.reactions == {"\N{WHITE HEAVY CHECK MARK}": {fake.bot_user.id}}
        assert [m.content for m in fake.messages(general)] == ["lifecycle", summary.content]


async def test_unknown_route_fails_the_test() -> None:
    with pytest.raises(UnknownRouteError, match="audit-logs"):
        async with FakeDiscord() as fake:
            guild = fake.create_guild()
            async with running(fake, BareBot()) as bot:
                with pytest.raises(discord.NotFound) as caught:
                    await bot.get_guild(guild.id).audit_logs(limit=1).__anext__()
                assert caught.value.status == 404 and caught.value.code == 0


async def test_an_error_the_bot_only_logs_fails_the_block(fake: FakeDiscord, world) -> None:
    _, general, alice, _ = world
    with pytest.raises(AssertionError, match="tripped over its own feet"):
        async with running(fake, BareBot()):
            await fake.user_says(general, alice, "boom")
            record = await fake.wait_for("bot_error")
            assert "on_message" in record.getMessage()


async def test_urls_are_restored_after_the_fake_stops() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord() as fake:
        assert fake.api_base == discord.http.Route.BASE
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


async def test_gateway_protocol_by_hand() -> None:
    import aiohttp

    async with FakeDiscord() as fake:
        fake.create_guild()
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
                hello = await ws.receive_json()
                assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
                await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0, "properties": {}}})
                closing = await ws.receive()
                assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004
            async with http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
                await ws.receive_json()
                await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1 << 9, "properties": {}}})
                ready = await ws.receive_json()
                assert (ready["t"], ready["s"]) == ("READY", 1) and ready["d"][
                    "resume_gateway_url"
                ] == fake.resume_gateway_url
                assert [g["unavailable"] for g in ready["d"]["guilds"]] == [True]
                guild = await ws.receive_json()
                assert (guild["t"], guild["s"]) == ("GUILD_CREATE", 2)
                # Without the members intent only the bot's own member comes along.
                assert [m["user"]["id"] for m in guild["d"]["members"]] == [str(fake.bot_user.id)]
                await ws.send_json({"op": 1, "d": 2})
                assert (await ws.receive_json())["op"] == 11
                await ws.send_json({"op": 99, "d": None})
                closing = await ws.receive()
                assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4001
            async with http.get(
                fake.api_base + "/users/@me", headers={"Authorization": "Bot " + fake.token}
            ) as response:
                assert response.headers["Content-Type"] == "application/json"
                assert (await response.json())["id"] == str(fake.bot_user.id)
            async with http.get(fake.api_base + "/users/@me", headers={"Authorization": "Bot nope"}) as response:
                assert response.status == 401
        assert any("opcode 99" in problem for problem in fake.protocol_errors)
        fake.protocol_errors.clear()
