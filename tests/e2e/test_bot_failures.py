"""Failures told clearly, once, on the fake Discord through the real bot: a board whose upload
keeps failing is said missing with the clock as it is after the retries (slept on the test's
clock); a seat whose DMs are closed is told so once a spell; a /start refused for a closed DM
tells the player already written to that it did not start; a second press of a choice button is
answered to the presser alone; /record public:true on a live match refuses the asker alone."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tests.e2e.botworld import World
from tests.fakediscord import FakeMessage

UNREACHABLE = "alice (p1): I could not send you a private message; open your DMs to this bot."


def public_bot_messages(world: World, since: int = 0) -> list[FakeMessage]:
    """The bot's messages in the room after message id ``since`` that a bystander (alice's
    reading, less her own ephemeral answers) can read there."""
    fake = world.fake
    return [
        m
        for m in fake.visible_to(world.alice, world.room)
        if m.author.id == fake.bot_user.id and not m.ephemeral and m.id > since
    ]


@pytest.mark.slow
async def test_a_board_whose_upload_keeps_failing_is_said_missing_with_the_clock_as_it_is_now(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        slept: list[float] = []

        async def sleep(seconds: float) -> None:  # the retries' waits, on the test's clock
            slept.append(seconds)
            world.time.advance(seconds)

        bot.transport.sleep = sleep
        assert (await world.start("tictacfive", seed=7)).startswith("Match #1 has started")
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        fake.fail_uploads(5)  # Discord is overloaded: 503 Service Unavailable for every upload
        mark = fake.mark()
        await fake.user_says(world.room, world.alice, "H8")
        said = await fake.wait_for_message(world.room, since=mark)
        # Three tries, 1 s and 3 s apart by the test's clock; then the room reads the move, that
        # the board is missing, and alice's clock as it is 4 s after her move, not as it was.
        assert slept == [1.0, 3.0] and len(fake.failed_uploads) == 3
        assert said.content == (
            "alice places black on H8.\nThe board could not be posted.\nTo move: alice (p1) 0:56 +5:00."
        )
        assert not said.attachments


@pytest.mark.slow
async def test_an_upload_discord_refuses_is_not_tried_again(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        slept: list[float] = []

        async def sleep(seconds: float) -> None:
            slept.append(seconds)

        bot.transport.sleep = sleep
        assert (await world.start("tictacfive", seed=7)).startswith("Match #1 has started")
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        fake.fail_uploads(1, status=400)  # a refusal, not a passing failure
        mark = fake.mark()
        await fake.user_says(world.room, world.alice, "H8")
        said = await fake.wait_for_message(world.room, since=mark)
        assert said.content.startswith("alice places black on H8.\nThe board could not be posted.")
        assert slept == [] and len(fake.failed_uploads) == 1
        # The next board goes up as usual.
        assert (await world.say(world.alice, "H9")).attachments


async def test_the_bots_uploads_wait_on_its_time_source(world: World) -> None:
    bot = world.bot()
    waiting = asyncio.ensure_future(bot.transport.sleep(3.0))
    await asyncio.sleep(0)  # let it start: it waits for the test's clock, not for real time
    assert world.time.sleepers == [world.time.now() + timedelta(seconds=3)]
    world.time.advance(3)
    await waiting


@pytest.mark.slow
async def test_a_seat_whose_dms_are_closed_is_told_once_a_spell(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert (await world.start("tiles", seed=5, options="anomalies=landmine")).startswith("Match #1 has started")
        mark = fake.mark()
        world.time.advance(30)  # the grid is hidden and the landmine window opens
        await bot.dispatcher.settle()
        await fake.wait_for_message(world.room, since=mark)
        start = fake.messages(world.room)[-1].id
        world.alice.dms_open = False
        # alice's acknowledgement, her own view, her view again after bob's mines: three DMs fail.
        await fake.dm(world.alice, "mines A7 B6 C5 E2 F1")
        await fake.wait_for_message(world.room, predicate=lambda m: m.content.startswith("alice has placed"))
        await fake.dm(world.bob, "mines A7 B6 C5 E2 F1")
        await fake.wait_for_message(world.room, predicate=lambda m: m.content.startswith("bob has placed"))
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.components))  # alice calls a colour
        told = [m.content for m in public_bot_messages(world, start) if m.content == UNREACHABLE]
        assert told == [UNREACHABLE]


@pytest.mark.slow
async def test_a_start_with_a_closed_dm_writes_the_other_player_once_and_starts(world: World) -> None:
    fake = world.fake
    world.bob.dms_open = False
    async with world.running() as bot:
        answer = await world.start("tiles", options="anomalies=landmine")
        assert answer.startswith(
            f"Match #1 has started in <#{world.room.id}>. I cannot send a direct message to <@{world.bob.id}>"
        )
        assert list(bot.host.matches) == [1]
        hello, *rest = fake.messages(fake.dm_channel(world.alice))
        assert "is starting a match of Tile Decklaration" in hello.content
        assert not [m for m in rest if "not started" in m.content]


@pytest.mark.slow
async def test_a_second_press_of_a_choice_button_is_answered_to_the_presser_alone(world: World) -> None:
    fake = world.fake
    async with world.running():
        assert (await world.start("tictacfive", seed=7)).startswith("Match #1 has started")
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        for point in ("H8", "H9", "I8"):
            await world.say(world.alice, point)
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
        )
        start = fake.messages(world.room)[-1].id
        # bob presses twice before the buttons close: one press is taken, the other refused.
        presses = await asyncio.gather(
            fake.click(world.bob, choice, "gb:choice:1:p2:white"),
            fake.click(world.bob, choice, "gb:choice:1:p2:black"),
        )
        for press in presses:
            await fake.wait_for_response(press)
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        await fake.wait_until(lambda: any(p.followups for p in presses), what="the refusal")
        [refusal] = [m for p in presses for m in p.followups]
        assert refusal.ephemeral and refusal.content.startswith("The colours are chosen after the opening stones")
        assert refusal in fake.visible_to(world.bob, world.room)
        assert refusal not in fake.visible_to(world.carol, world.room)
        # The room reads the board of the choice taken, and nothing of the refused press.
        assert public_bot_messages(world, start) == [board]


@pytest.mark.slow
async def test_record_public_on_a_live_match_refuses_the_asker_alone(world: World) -> None:
    fake = world.fake
    async with world.running():
        assert (await world.start("tictacfive", seed=7)).startswith("Match #1 has started")
        start = fake.messages(world.room)[-1].id
        interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": 1, "public": True})
        assert (await world.answer(interaction)).startswith("Match #1 is still being played")
        # carol reads it; the room does not.
        assert public_bot_messages(world, start) == []
        [answer] = [m for m in fake.messages(world.room) if m.id > start]
        assert answer.ephemeral and answer in fake.visible_to(world.carol, world.room)
        assert answer not in fake.visible_to(world.bob, world.room)
