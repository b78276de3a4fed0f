"""A seat's own view by DM as a picture, and long captions, through the real bot on the fake Discord."""

from __future__ import annotations

import pytest

from geniusbot.discord_transport import MESSAGE_LIMIT
from geniusbot.host.transport import Player, TransportError
from tests.e2e.botworld import PNG_MAGIC, World


@pytest.mark.slow
async def test_a_private_move_brings_the_seat_its_own_view_as_a_picture_by_dm(world: World) -> None:
    fake = world.fake
    async with world.running():
        assert (await world.start("decks", seed=3, clock="none")).startswith("Match #1 has started")
        mark = fake.mark()
        await fake.dm(world.alice, "create 30")
        view = await fake.wait_for_message(
            fake.dm_channel(world.alice), predicate=lambda m: bool(m.attachments), since=mark
        )
        assert view.content == "Your view of match #1 (only you can see this)."
        [png] = fake.attachments(view)
        assert png.startswith(PNG_MAGIC) and view.attachments[0].filename == "match1-p1.png"
        acks = [m.content for m in fake.messages(fake.dm_channel(world.alice)) if m.content.startswith("Taken")]
        assert acks == ["Taken: create 30."]
        # bob's view did not change, the room never sees alice's picture, and nothing is JSON.
        assert not [m for m in fake.messages(fake.dm_channel(world.bob)) if m.attachments]
        assert all(png not in fake.attachments(m) for m in fake.messages(world.room))
        assert not [
            m for m in fake.messages(world.room) + fake.messages(fake.dm_channel(world.alice)) if '{"' in m.content
        ]


async def test_a_caption_longer_than_a_message_goes_first_as_text_and_the_picture_carries_its_end(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        lines = [f"line {i:04d} " + "x" * 90 for i in range(45)]  # about 4,500 characters
        await bot.transport.post_picture(world.room.id, PNG_MAGIC + b"board", filename="b.png", text="\n".join(lines))
        posted = [m for m in fake.messages(world.room) if m.author.id == fake.bot_user.id][-3:]
        assert all(len(m.content) <= MESSAGE_LIMIT for m in posted)
        assert [bool(m.attachments) for m in posted] == [False, False, True]
        assert "\n".join(m.content for m in posted) == "\n".join(lines)


async def test_a_closed_dm_refuses_a_private_picture_with_a_transport_error(world: World) -> None:
    world.bob.dms_open = False
    async with world.running() as bot:
        with pytest.raises(TransportError, match="does not accept direct messages"):
            await bot.transport.send_private_picture(
                Player("p2", world.bob.id, "bob"), PNG_MAGIC, filename="v.png", text="Your view"
            )
