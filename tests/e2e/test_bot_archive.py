"""The archive on the fake Discord: /replay lists the finished matches and steps through one
(first, previous, next, last; a board per step), while another match runs; a live match is not
replayable; /record sends the record file, which the adjudicator reads back to the same result."""

from __future__ import annotations

import pytest

from geniusbot.record import game_from_record, parse_record
from tests.e2e.botworld import PNG_MAGIC, World
from tests.fakediscord import FakeMessage

MOVES = [
    ("alice", "H8"),
    ("alice", "H9"),
    ("alice", "I8"),
    ("bob", "white"),
    ("bob", "A1"),
    ("alice", "J8"),
    ("bob", "A2"),
    ("alice", "K8"),
    ("bob", "A3"),
    ("alice", "G8"),
]


async def play_to_a_five(world: World) -> None:
    assert (await world.start("tictacfive", clock="60s")).startswith("Match #1 has started")
    for who, text in MOVES:
        world.time.advance(3)
        await world.say(getattr(world, who), text)


def buttons(message: FakeMessage) -> dict[str, bool]:
    """Button tag (first, prev, next, last, gif) -> enabled, for a replay message's buttons."""
    return {
        c["custom_id"].rsplit(":", 1)[1]: not c.get("disabled", False)
        for row in message.components
        for c in row["components"]
    }


@pytest.mark.slow
async def test_a_finished_match_is_replayed_step_by_step(world: World) -> None:
    fake = world.fake
    other_room = fake.create_channel(world.guild, "second-room")
    async with world.running() as bot:
        await play_to_a_five(world)
        # Another match goes on meanwhile in another room.
        interaction = await fake.slash(
            world.owner,
            world.guild,
            other_room,
            "start",
            {"game": "armslength", "first": world.bob, "second": world.carol},
        )
        assert (await world.answer(interaction)).startswith("Match #2 has started")

        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {})
        listing = await world.answer(interaction)
        assert listing.splitlines()[:2] == ["Finished matches:", listing.splitlines()[1]]
        assert listing.splitlines()[1].startswith("#1 Tic-Tac-Five: alice vs bob, alice wins (")
        assert "#2" not in listing
        # Picking the match in the list's menu opens its replay too.
        listed = await fake.wait_for_followup(interaction)
        picked = await fake.select(world.carol, listed, "gb:replay-pick", ["1"])
        await fake.wait_for_response(picked)
        opened = await fake.wait_for_followup(picked)
        assert opened.content.splitlines()[1].startswith("Step 0 of 10: the start.") and opened.ephemeral
        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"game": "armslength"})
        assert (
            await world.answer(interaction) == "No finished match matches that; play one first, or change the filters."
        )
        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"player": world.carol})
        assert (
            await world.answer(interaction) == "No finished match matches that; play one first, or change the filters."
        )
        interaction = await fake.slash(
            world.carol, world.guild, world.room, "replay", {"player": world.bob, "game": "tictacfive"}
        )
        assert (await world.answer(interaction)).splitlines()[1].startswith("#1 Tic-Tac-Five")

        # The live match is not replayable.
        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"match": 2})
        assert (await world.answer(interaction)).startswith(
            "Match #2 is still being played; it can be replayed once it is over"
        )

        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"match": 1})
        await fake.wait_for_response(interaction)
        page = await fake.wait_for_followup(interaction)
        assert page.ephemeral
        assert page.content.splitlines()[0] == "Replay of match #1, Tic-Tac-Five: alice vs bob (alice wins)."
        assert page.content.splitlines()[1] == "Step 0 of 10: the start. Clocks: alice 1:00, bob 1:00."
        assert buttons(page) == {
            "first": False,
            "prev": False,
            "next": True,
            "last": True,
            "gif": True,
            "analyse": True,
        }
        pictures = [fake.attachments(page)[0]]
        assert pictures[0].startswith(PNG_MAGIC)

        async def press(tag: str) -> FakeMessage:
            custom_id = next(
                c["custom_id"]
                for row in page.components
                for c in row["components"]
                if c["custom_id"].endswith(":" + tag)
            )
            await fake.click(world.carol, page, custom_id)
            return await fake.wait_for_edit(page)

        await press("next")
        assert page.content.splitlines()[1] == "Step 1 of 10: alice (p1): H8. Clocks: alice 1:00, bob 1:00."
        pictures.append(fake.attachments(page)[0])
        await press("last")
        assert page.content.splitlines()[1].startswith("Step 10 of 10: alice (p1): G8.")
        # The game's reason with the players' names; the store keeps the seat ids.
        assert page.content.splitlines()[2] == "Result: alice (black) makes five in a row, G8 to K8, and wins."
        stored = await bot.store.get_match(1)
        assert stored.result.reason == "p1 (black) makes five in a row, G8 to K8, and wins."
        assert buttons(page) == {
            "first": True,
            "prev": True,
            "next": False,
            "last": False,
            "gif": True,
            "analyse": True,
        }
        pictures.append(fake.attachments(page)[0])
        await press("prev")
        assert page.content.splitlines()[1].startswith("Step 9 of 10: bob (p2): A3.")
        await press("first")
        assert page.content.splitlines()[1].startswith("Step 0 of 10")
        assert fake.attachments(page)[0] == pictures[0]
        assert len(set(pictures)) == 3 and len(page.attachments) == 1


@pytest.mark.slow
async def test_record_sends_the_file_that_replays_to_the_result(world: World) -> None:
    fake = world.fake
    async with world.running():
        await play_to_a_five(world)
        interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": 1})
        await fake.wait_for_response(interaction)
        message = await fake.wait_for_followup(interaction)
        assert message.content == "The record of match #1 (Tic-Tac-Five)."
        assert message.ephemeral  # only to the one who asked, as /replay
        assert message.attachments[0].filename == "geniusbot-match-1.txt"
        record = parse_record(fake.attachments(message)[0].decode("utf-8"))
        assert [line.text for line in record.lines] == [text for _, text in MOVES]
        game = game_from_record(record)
        for line in record.lines:
            game.submit(line.text, line.seat)
        assert game.outcome().winner == "p1"
        # The record speaks of seats, as the adjudicator reads it, never of the players' names.
        assert record.header("Result") == "p1" and record.header("P1") == "alice"
        interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": 7})
        assert (await world.answer(interaction)).startswith("There is no match #7 here")
        assert (await fake.wait_for_followup(interaction)).ephemeral  # a refusal is not posted to the room
        # public:true posts the file for everyone in the channel.
        interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": 1, "public": True})
        await fake.wait_for_response(interaction)
        shared = await fake.wait_for_followup(interaction)
        assert not shared.ephemeral and shared.attachments[0].filename == "geniusbot-match-1.txt"
