"""Match threads (``/setup threads:true``): each match runs in a thread of its game room, named
after the match; the room keeps one line per match and reads its result; the thread is archived
and locked when the match ends. A room may then hold several matches at once."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import World, ephemeral_answer
from tests.fakediscord import FakeChannel
from tests.fakediscord.model import MANAGE_THREADS


async def threads_on(world: World) -> str:
    interaction = await world.fake.slash(world.owner, world.guild, world.room, "setup", {"threads": True})
    return await ephemeral_answer(world, interaction)


def thread_of(world: World, name_start: str) -> FakeChannel:
    [thread] = [c for c in world.guild.channels.values() if c.is_thread and (c.name or "").startswith(name_start)]
    return thread


async def test_a_match_runs_in_a_thread_of_its_room_which_closes_when_it_ends(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert (await threads_on(world)).endswith(
            "Each match runs in a thread of its game room; the room reads its result. "
            "Nobody is pinged when it is their turn."
            " Each move posts the board as a picture with its caption."
            " The rooms speak English (the server's default); a match keeps the one it started in."
        )
        answer = await world.start("tictacfive")
        thread = thread_of(world, "#1 ")
        assert thread.name == "#1 Tic-Tac-Five: alice vs bob" and thread.parent_id == world.room.id
        assert answer == f"Match #1 has started in <#{thread.id}>."
        # The board and the moves are in the thread; the room holds none of them.
        board = await world.say(world.alice, "H8", channel=thread)
        assert "alice places black on H8" in board.content
        assert not [m for m in fake.messages(world.room) if m.attachments]
        # A second match may start in the same room: it gets a thread of its own.
        second = await world.start("armslength", world.carol, world.bob)
        other = thread_of(world, "#2 ")
        assert second == f"Match #2 has started in <#{other.id}>."
        # The match ends (alice resigns in the thread): the room reads the result, the thread closes.
        interaction = await fake.slash(world.alice, world.guild, thread, "resign", {})
        assert await ephemeral_answer(world, interaction) == "You resigned match #1."
        ended = await fake.wait_for_message(world.room, predicate=lambda m: m.content.startswith("Match #1 ("))
        assert ended.content == (
            f"Match #1 (Tic-Tac-Five: alice vs bob) has ended in <#{thread.id}>. Result: bob (p2) wins. alice resigned."
        )
        await fake.wait_until(lambda: thread.archived and thread.locked, what="the thread to close")
        with pytest.raises(PermissionError):
            await fake.user_says(thread, world.alice, "gg")
        assert not other.archived and 2 in bot.host.matches


async def test_threads_need_the_thread_permissions_and_can_be_turned_off(world: World) -> None:
    fake = world.fake
    plain = fake.create_channel(world.guild, "no-threads", overwrites={fake.bot_role(world.guild): (0, MANAGE_THREADS)})
    async with world.running() as bot:
        await threads_on(world)
        answer = await world.start("tictacfive", room=plain)
        assert answer == (
            f"I cannot run a match in <#{plain.id}>: I need Manage Threads there. Give me that, or choose another room."
        )
        assert not bot.host.matches and not [c for c in world.guild.channels.values() if c.is_thread]
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"threads": False})
        assert (await ephemeral_answer(world, interaction)).endswith(
            "Matches run in the game room itself. Nobody is pinged when it is their turn."
            " Each move posts the board as a picture with its caption."
            " The rooms speak English (the server's default); a match keeps the one it started in."
        )
        assert await world.start("tictacfive", room=plain) == f"Match #1 has started in <#{plain.id}>."


async def test_a_practice_match_runs_in_a_thread_too(world: World) -> None:
    from tests.e2e.test_bot_practice import practice_bot, practise

    async with world.running(practice_bot(world)):
        await threads_on(world)
        answer = await practise(world, world.alice, game="tictacfive", level="easy")
        thread = thread_of(world, "#1 ")
        assert thread.name == "#1 Tic-Tac-Five: alice vs geniusbot"
        assert answer.startswith(f"Practice match #1 has started in <#{thread.id}>")
