"""Private submissions by DM on the fake Discord: a DM reaches the sender's match and is
acknowledged privately; a DM with no match waiting is refused with the reason; a player whose
DMs are closed is reported to the host before the match starts, and nothing hangs."""

from __future__ import annotations

import pytest

from geniusbot.games import IN_THE_ROOM
from tests.e2e.botworld import World


@pytest.mark.slow
async def test_a_dm_reaches_the_match_and_is_acknowledged_privately(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        answer = await world.start("tiles", seed=5, options="anomalies=landmine")
        assert answer.startswith("Match #1 has started")
        # Before the start each player was told, by DM, where the match's private moves go.
        for user in (world.alice, world.bob):
            [hello] = fake.messages(fake.dm_channel(user))
            assert "Private moves of that match go here" in hello.content
        # The grid is shown for 30 s (a text board in a code block), then deleted, and the
        # landmine window opens (the clock is the test's).
        [grid] = [m for m in fake.messages(world.room) if "Memorize the grid" in m.content and not m.attachments]
        assert grid.content.startswith("Memorize the grid")
        mark = fake.mark()
        world.time.advance(30)
        await bot.dispatcher.settle()
        await fake.wait_for_delete(grid, since=mark)
        await fake.wait_for_message(world.room, since=mark)
        assert bot.host.matches[1].game.view()["phase"] == "landmines"

        await fake.dm(world.alice, "mines A7 B6 C5 E2 F1")
        ack = await fake.wait_for_message(fake.dm_channel(world.alice))
        assert ack.content == "Taken: mines A7 B6 C5 E2 F1."
        view = bot.host.matches[1].game.view()
        assert view["mines_sent"] == {"p1": True, "p2": False}
        # The room learns that alice sent her mines, never which.
        assert not [m.content for m in fake.messages(world.room) if "B6" in m.content or "E2" in m.content]

        # A refused private move is answered privately with the reason.
        await fake.dm(world.bob, "mines A1 A1")
        refusal = await fake.wait_for_message(fake.dm_channel(world.bob))
        assert refusal.content and not refusal.content.startswith("Taken")
        assert bot.host.matches[1].game.view()["mines_sent"]["p2"] is False

        # carol plays in no match: her DM is refused with the reason.
        await fake.dm(world.carol, "mines A1 B2 C3 E6 G7")
        refusal = await fake.wait_for_message(fake.dm_channel(world.carol))
        assert refusal.content == (
            "You play in no running match, so there is nothing to send this to. Once a host starts a "
            "match with you (/start in a game room), send that match's private moves here."
        )


@pytest.mark.slow
async def test_a_player_with_closed_dms_is_reported_to_the_host_and_the_match_starts(world: World) -> None:
    fake = world.fake
    world.bob.dms_open = False
    async with world.running() as bot:
        answer = await world.start("tiles", options="anomalies=landmine")
        # He plays through the room's "Send privately" or /move (tests/e2e/test_bot_private_without_dms.py).
        assert answer == (
            f"Match #1 has started in <#{world.room.id}>. I cannot send a direct message to <@{world.bob.id}>: "
            "they see their own view and send their private moves with the Send privately button in the room, "
            "or with /move."
        )
        assert [r.id for r in await bot.store.live_matches()] == [1]
        # alice, whose DMs are open, was told where her private moves go.
        [hello] = fake.messages(fake.dm_channel(world.alice))
        assert "Private moves of that match go here" in hello.content


async def test_a_game_without_private_moves_starts_without_a_dm_and_refuses_one(world: World) -> None:
    fake = world.fake
    world.bob.dms_open = False
    async with world.running() as bot:
        assert (await world.start("tictacfive")).startswith("Match #1 has started")
        assert fake.messages(fake.dm_channel(world.alice)) == []
        await fake.dm(world.alice, "H8")
        refusal = await fake.wait_for_message(fake.dm_channel(world.alice))
        assert refusal.content == f"Your match takes no private moves; type your move in <#{world.room.id}>."
        assert bot.host.matches[1].game.view()["last_move"] is None


@pytest.mark.slow
async def test_a_dm_naming_a_match_whose_moves_are_public_is_refused_and_told_to_type_it_in_the_room(
    world: World,
) -> None:
    # Alice plays Tic-Tac-Five here and Dueling Decks (private moves) in another room: her DM
    # reaches the host, which refuses a Tic-Tac-Five move sent by DM, whichever match it names.
    fake = world.fake
    other = fake.create_channel(world.guild, "card-room")
    async with world.running() as bot:
        assert (await world.start("tictacfive", clock="none")).startswith("Match #1 has started")
        interaction = await fake.slash(
            world.owner, world.guild, other, "start", {"game": "decks", "first": world.alice, "second": world.bob}
        )
        assert (await world.answer(interaction)).startswith("Match #2 has started")
        mark, seen = fake.mark(), len(fake.messages(world.room))
        await fake.dm(world.alice, "#1 H8")
        refusal = await fake.wait_for_message(
            fake.dm_channel(world.alice), predicate=lambda m: "game room" in m.content, since=mark
        )
        assert IN_THE_ROOM in refusal.content
        assert bot.host.matches[1].game.view()["last_move"] is None
        assert not [m for m in fake.messages(world.room)[seen:] if "H8" in m.content]
        # Typed in the room, the same move is taken.
        await world.say(world.alice, "H8")
        assert bot.host.matches[1].game.view()["last_move"] == "H8"
