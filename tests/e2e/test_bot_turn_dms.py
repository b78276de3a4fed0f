""" "Your move" by DM for long clocks: with an hour or more for the move, the player to move is
told by DM once a turn, with a link (Discord's jump URL) to the board that pinged them; not with a
short clock, not where the server has pings off, never the practice opponent's seat; a player
whose DMs are closed holds nothing up and the room hears nothing of it."""

from __future__ import annotations

import re

from tests.e2e.botworld import World
from tests.fakediscord import FakeMessage, FakeUser

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


def bot_seat_told_nothing(world: World) -> bool:
    """No DM channel but alice's and bob's has anything of the bot (the practice opponent is no user)."""
    return all(
        not world.fake.messages(channel)
        for user_id, channel in world.fake.dm_channels.items()
        if user_id != world.alice.id
    )


def told(world: World, user: FakeUser) -> list[str]:
    """The "your move" DMs ``user`` has had."""
    return [m.content for m in world.fake.messages(world.fake.dm_channel(user)) if "your move" in m.content]


async def dm_to(world: World, user: FakeUser) -> FakeMessage:
    """The next "your move" DM to ``user``."""
    return await world.fake.wait_for_message(world.fake.dm_channel(user), predicate=lambda m: "your move" in m.content)


def opened(world: World, text: str) -> FakeMessage:
    """The message the link in ``text`` opens (it must be one of the fake's, where it says)."""
    found = LINK.search(text)
    assert found, text
    guild, channel, message = (int(g) for g in found.groups())
    assert guild == world.guild.id
    [target] = [m for m in world.fake.messages(world.fake.channels[channel]) if m.id == message]
    return target


async def test_a_long_clock_tells_the_player_to_move_by_dm_once_a_turn(world: World) -> None:
    world.pings = True
    fake = world.fake
    async with world.running():
        assert (await world.start("tictacfive", clock="2h")).startswith("Match #1 has started")
        first = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        dm = (await dm_to(world, world.alice)).content
        assert told(world, world.alice) == [dm]
        assert dm.startswith("It is your move in match #1 of Tic-Tac-Five: https://discord.com/channels/")
        assert opened(world, dm).id == first.id  # the board that pinged her
        assert not told(world, world.bob)
        # alice places the three opening stones in a row: told once, at the first.
        boards = [await world.say(world.alice, point) for point in ("H8", "H9", "I8")]
        assert len(told(world, world.alice)) == 1
        # The third hands bob the colour choice: his turn, his DM, linking that board.
        bobs = (await dm_to(world, world.bob)).content
        assert told(world, world.bob) == [bobs]
        assert opened(world, bobs).id == boards[2].id
        # Nothing of it in the room.
        assert not [m for m in fake.messages(world.room) if "your move" in m.content]


async def test_a_seat_whose_reserve_makes_the_hour_is_told_too(world: World) -> None:
    world.pings = True
    async with world.running():
        await world.start("tictacfive", clock="10m+1h")
        assert "match #1" in (await dm_to(world, world.alice)).content


async def test_a_short_clock_sends_no_dm(world: World) -> None:
    world.pings = True
    async with world.running():
        await world.start("tictacfive", clock="59m")
        await world.fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        await world.say(world.alice, "H8")
        assert not told(world, world.alice) and not told(world, world.bob)


async def test_pings_off_sends_no_dm(world: World) -> None:
    world.pings = False
    async with world.running():
        await world.start("tictacfive", clock="2h")
        await world.fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        await world.say(world.alice, "H8")
        assert not told(world, world.alice)


async def test_closed_dms_hold_nothing_up_and_the_room_hears_nothing(world: World) -> None:
    world.pings = True
    world.alice.dms_open = False
    fake = world.fake
    async with world.running() as bot:
        await world.start("tictacfive", clock="2h")
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        for point in ("H8", "H9", "I8"):
            await world.say(world.alice, point)
        assert bot.host is not None and tuple(bot.host.matches[1].game.to_move()) == ("p2",)
        await dm_to(world, world.bob)
        bots = [m for m in fake.messages(world.room) if m.author.id == fake.bot_user.id and not m.ephemeral]
        assert bots and all(m.attachments for m in bots)  # the boards alone: nothing of a failed DM
        assert bot.host.matches[1].unreachable_turns == {"p1"}


async def test_the_practice_opponents_seat_is_never_told(world: World) -> None:
    from tests.e2e.test_bot_practice import practice_bot, practise

    world.pings = True
    async with world.running(practice_bot(world)):
        # alice takes p1 and moves first: she is told; the bot's seat, p2, has no user to tell.
        assert (await practise(world, world.alice, game="tictacfive", level="easy", seat="p1", clock="2h")).startswith(
            "Practice match #1 has started"
        )
        await dm_to(world, world.alice)
        assert bot_seat_told_nothing(world)
