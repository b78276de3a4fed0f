"""The Discord transport finds a picture again by the key it was posted with (over the fake
Discord's real HTTP): what lets a restarted bot delete a memory grid posted just before a crash,
before its message id was written. A text message cannot carry a key and is never found."""

from __future__ import annotations

from tests.e2e.botworld import PNG_MAGIC, World


async def test_a_picture_posted_with_a_key_is_found_by_it_and_only_by_it(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        room = world.room.id
        keyed = await bot.transport.post_picture(room, PNG_MAGIC + b"grid", filename="match1.png", key="m7")
        plain = await bot.transport.post_picture(room, PNG_MAGIC + b"board", filename="match1.png")
        text = await bot.transport.post(room, "Memorize the grid", key="m8")
        assert await bot.transport.find_posted(room, "m7") == keyed
        assert await bot.transport.find_posted(room, "m70") is None
        assert await bot.transport.find_posted(room, "m8") is None  # a text carries no key
        [picture] = [m for m in fake.messages(world.room) if m.id == keyed]
        assert picture.attachments[0].filename == "match1-m7.png"
        assert {plain, text} <= {m.id for m in fake.messages(world.room)}
