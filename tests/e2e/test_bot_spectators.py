"""The spectators' room (``/setup spectators``, ``/start spectators:``): every secret of a match is
posted there as it happens (each seat's private messages and views, the memory grid for as long as
the players see it), while nothing a seated player can read (the room, their DMs, the answers only
they see) shows them the other seat's; a room a seated player can read is refused, before the
match and when its permissions change."""

from __future__ import annotations

import pytest

from geniusbot.config import Settings
from tests.e2e.botworld import PNG_MAGIC, TestBot, World, ephemeral_answer
from tests.e2e.secrecy import move, play_by_move, readable, scan_sealed
from tests.e2e.test_bot_korean_rooms import examples
from tests.e2e.test_bot_pseudo import said_by_messages
from tests.e2e.test_bot_tournament import started
from tests.fakediscord import FakeChannel, FakeMessage
from tests.fakediscord.model import ATTACH_FILES, READ_MESSAGE_HISTORY, SEND_MESSAGES, VIEW_CHANNEL

READ = VIEW_CHANNEL | READ_MESSAGE_HISTORY


def hidden_room(world: World, name: str = "spectators") -> FakeChannel:
    """A channel @everyone cannot see; the bot can see, post and upload there."""
    fake = world.fake
    return fake.create_channel(
        world.guild,
        name,
        overwrites={
            world.guild.everyone: (0, VIEW_CHANNEL),
            fake.bot_role(world.guild): (READ | SEND_MESSAGES | ATTACH_FILES, 0),
        },
    )


def bot_posts(world: World, channel: FakeChannel) -> list[FakeMessage]:
    """The bot's messages in ``channel``, the deleted ones included."""
    bot = world.fake.bot_user.id
    return [m for m in world.fake.messages(channel, include_deleted=True) if m.author.id == bot]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "options", "per_match"), [("tiles", "anomalies=landmine", False), ("decks", None, True)]
)
async def test_the_spectators_room_shows_every_secret_and_no_player_learns_one(
    world: World, game: str, options: str | None, per_match: bool
) -> None:
    fake = world.fake
    spectators = hidden_room(world)
    users = {"p1": world.alice, "p2": world.bob}
    async with world.running() as bot:
        given: dict[str, object] = {"seed": 7}
        if options:
            given["options"] = options
        if per_match:
            given["spectators"] = spectators
        else:
            interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"spectators": spectators})
            said = await ephemeral_answer(world, interaction)
            assert said.endswith(f"Every secret is posted in <#{spectators.id}> as it happens.")
        start = fake.mark()
        answer = await world.start(game, **given)
        assert answer.startswith("Match #1 has started"), answer
        played = await play_by_move(world, bot, users, f"spectators:{game}", world.room)
        ended = fake.mark()
    shown = bot_posts(world, spectators)
    assert shown
    # Nobody seated can read the spectators' room; only the bot posted there.
    assert not fake.visible_to(world.alice, spectators) and not fake.visible_to(world.bob, spectators)
    texts = [m.content for m in shown]
    pictures = {data for m in shown for data in fake.attachments(m)}
    labels = {"p1": "Match #1, sent to alice (p1):", "p2": "Match #1, sent to bob (p2):"}
    for seat, user in users.items():
        dms = bot_posts(world, fake.dm_channel(user))
        assert dms
        for dm in dms:
            # Each private message is posted there, labelled with its seat; each view picture too.
            if "Private moves of that match go here" in dm.content:
                continue  # the greeting of /start's check of the DMs, before the match is
            if dm.content and not dm.attachments:
                assert any(t.startswith(labels[seat]) and dm.content in t for t in texts), dm.content
            for data in fake.attachments(dm):
                assert data.startswith(PNG_MAGIC) and data in pictures
        assert any(t.startswith(f"Match #1: the view of {'alice' if seat == 'p1' else 'bob'} ({seat}).") for t in texts)
    # A vanishing window's boards (the memory grid) were there as long as in the room: gone with them.
    vanished = [m for m in bot_posts(world, world.room) if m.deleted and m.attachments]
    if game == "tiles":
        assert vanished
    for board in vanished:
        [twin] = [m for m in shown if fake.attachments(m) == fake.attachments(board)]
        assert twin.deleted and twin.content.startswith("Match #1: what the players see until the window closes.")
    # The scan: each seat's view pictures never reach the other seat; a sealed move is read by
    # nobody but its seat (and the spectators) while it is sealed: from its sending until the move
    # that ends its round, but for the rules' own examples of a move.
    for seat, user in users.items():
        other = users["p2" if seat == "p1" else "p1"]
        own = {d for m in bot_posts(world, fake.dm_channel(user)) for d in fake.attachments(m)}
        theirs = {d for m in readable(world, other, start) for d in fake.attachments(m)}
        assert not own & theirs
    scanned = scan_sealed(world, played, users, ended, examples())
    assert scanned


@pytest.mark.parametrize("how", ["everyone", "role", "member"])
async def test_a_spectators_room_a_player_can_read_is_refused(world: World, how: str) -> None:
    fake = world.fake
    if how == "everyone":
        room, through = fake.create_channel(world.guild, "open-spectators"), "@everyone"
    elif how == "role":
        fake.set_roles(world.guild, world.bob, [world.host_role])
        room = hidden_room(world)
        fake.set_overwrite(room, world.host_role, READ, 0)
        through = "the role Dealer"
    else:
        room = hidden_room(world)
        fake.set_overwrite(room, world.alice, READ, 0)
        through = "a permission overwrite of their own"
    who = "bob" if how == "role" else "alice"
    async with world.running() as bot:
        answer = await world.start("decks", seed=7, spectators=room)
        why = f"{who} can read <#{room.id}>, through {through}."
        assert answer.startswith("Match #1 has started") and answer.endswith(
            f"No secret of this match is posted in the spectators' room: {why}"
        ), answer
        await move(world, world.room, world.alice, next(iter(bot.host.matches[1].game.legal_moves("p1"))).text())
    # The room read why, and nothing else.
    [refusal] = bot_posts(world, room)
    assert refusal.content == f"No secret of this match is posted in the spectators' room: {why}"
    assert "spectators" not in bot.host.matches[1].host


async def test_a_permission_change_mid_match_stops_the_secrets(world: World) -> None:
    fake = world.fake
    spectators = hidden_room(world)
    async with world.running() as bot:
        answer = await world.start("decks", seed=7, spectators=spectators)
        assert answer == f"Match #1 has started in <#{world.room.id}>."
        live = bot.host.matches[1]
        before = len(bot_posts(world, spectators))
        played = next(iter(live.game.legal_moves("p1"))).text()
        await move(world, world.room, world.alice, played)
        await fake.wait_until(lambda: len(bot_posts(world, spectators)) > before, what="the sealed play shown")
        fake.set_overwrite(spectators, world.bob, READ, 0)
        why = f"Match #1: no secret is posted here: bob can read <#{spectators.id}>, through a permission overwrite of their own."
        await fake.wait_until(lambda: bot_posts(world, spectators)[-1].content == why, what="the refusal")
        # The host hears it privately.
        await fake.wait_until(
            lambda: any(m.content == why for m in bot_posts(world, fake.dm_channel(world.owner))), what="the host told"
        )
        shown = len(bot_posts(world, spectators))
        mark = fake.mark()
        version = live.version
        await move(world, world.room, world.bob, next(iter(live.game.legal_moves("p2"))).text())
        await fake.wait_until(lambda: live.version > version, what="bob's play")
        # Bob's DMs got his view and play; the room he can read now got nothing more.
        assert any(m.channel_id == fake.dm_channel(world.bob).id for m in readable(world, world.bob, mark))
        assert len(bot_posts(world, spectators)) == shown


async def test_a_role_given_mid_match_stops_the_secrets_without_the_members_intent(world: World) -> None:
    # The bot asks for no members intent, so Discord never tells it that bob got a role: the
    # host reads its players anew once a move, before the move's first secret.
    fake = world.fake
    spectators = hidden_room(world)
    fake.set_overwrite(spectators, world.host_role, READ, 0)  # the Dealers may read it; bob is none yet
    async with world.running() as bot:
        answer = await world.start("decks", seed=7, spectators=spectators)
        assert answer == f"Match #1 has started in <#{world.room.id}>."
        live = bot.host.matches[1]
        before = len(bot_posts(world, spectators))
        await move(world, world.room, world.alice, next(iter(live.game.legal_moves("p1"))).text())
        await fake.wait_until(lambda: len(bot_posts(world, spectators)) > before, what="the sealed play shown")
        fake.set_roles(world.guild, world.bob, [world.host_role])  # no event reaches the bot
        shown = len(bot_posts(world, spectators))
        version = live.version
        await move(world, world.room, world.bob, next(iter(live.game.legal_moves("p2"))).text())
        await fake.wait_until(lambda: live.version > version, what="bob's play")
        why = f"Match #1: no secret is posted here: bob can read <#{spectators.id}>, through the role Dealer."
        await fake.wait_until(lambda: bot_posts(world, spectators)[-1].content == why, what="the refusal")
        # Nothing of bob's move but the refusal reached the room he can read now.
        assert len(bot_posts(world, spectators)) == shown + 1


async def test_the_spectators_room_speaks_in_messages(world: World) -> None:
    """In the pseudo-language, everything the spectators' room, /setup and /start's refusal say
    is bracketed whole: every word a catalogue message."""
    fake = world.fake
    settings = Settings(_env_file=None, database_url=world.db_url, geniusbot_language="qps")  # type: ignore[call-arg]
    spectators, lobby, opened = (
        hidden_room(world),
        fake.create_channel(world.guild, "lobby"),
        fake.create_channel(world.guild, "open"),
    )
    async with world.running(TestBot(settings, time=world.time, guild_ready_timeout=0.01)) as bot:
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"spectators": spectators})
        said_by_messages(await ephemeral_answer(world, interaction))
        said_by_messages(await world.start("decks", seed=7))
        live = bot.host.matches[1]
        await move(world, world.room, world.alice, next(iter(live.game.legal_moves("p1"))).text())
        await fake.wait_until(lambda: len(bot_posts(world, spectators)) >= 2, what="the secrets")
        fake.set_overwrite(spectators, world.bob, READ, 0)
        await fake.wait_until(lambda: bot.host.announcer.spectators.refused, what="the refusal")
        refused = await world.start("decks", world.carol, world.owner, seed=7, room=lobby, spectators=opened)
        said_by_messages(refused)
    posts = bot_posts(world, spectators) + bot_posts(world, opened) + bot_posts(world, fake.dm_channel(world.owner))
    assert len(posts) >= 4
    for post in posts:
        said_by_messages(post.content)


async def test_setup_names_and_clears_the_spectators_room(world: World) -> None:
    fake = world.fake
    spectators = hidden_room(world)

    async def setup(options: dict[str, object]) -> str:
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", options)
        return await ephemeral_answer(world, interaction)

    async with world.running() as bot:
        assert bot.store is not None
        assert (await setup({"spectators": spectators})).endswith(
            f"Every secret is posted in <#{spectators.id}> as it happens."
        )
        assert (await bot.store.get_guild_settings(world.guild.id)).spectators_channel_id == spectators.id
        assert (await setup({"spectators": spectators, "clear_spectators": True})) == (
            "Either name a spectators' room or clear it, not both."
        )
        assert "Every secret" not in await setup({"clear_spectators": True})
        assert (await bot.store.get_guild_settings(world.guild.id)).spectators_channel_id is None
        # A match started now has no spectators' room.
        assert (await world.start("decks", seed=7)).startswith("Match #1 has started")
        assert "spectators" not in bot.host.matches[1].host
    assert not bot_posts(world, spectators)


async def test_a_tournament_game_shows_its_secrets_in_the_servers_spectators_room(world: World) -> None:
    # A tournament starts its games itself: the server's spectators' room sees them as /start's.
    fake = world.fake
    spectators = hidden_room(world)
    async with world.running() as bot:
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"spectators": spectators})
        await ephemeral_answer(world, interaction)
        await started(world, {"game": "decks", "format": "round_robin"}, [world.alice, world.bob])
        await fake.wait_until(lambda: 1 in bot.host.matches, what="the tournament's game")
        live = bot.host.matches[1]
        assert live.host.get("spectators") == {"room": spectators.id, "host": world.owner.id}
        seat = next(s for s, p in live.players.items() if p.user_id == world.alice.id)
        before = len(bot_posts(world, spectators))
        await move(world, fake.channels[live.channel_id], world.alice, next(iter(live.game.legal_moves(seat))).text())
        await fake.wait_until(lambda: len(bot_posts(world, spectators)) > before, what="alice's sealed play shown")
        assert any("sent to alice" in m.content for m in bot_posts(world, spectators))
