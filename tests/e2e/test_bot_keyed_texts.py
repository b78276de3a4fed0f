"""A timed text posted just before a crash is found again on Discord, over the fake Discord's
real HTTP. A text message cannot carry a key there (a message's nonce is not kept in its
history), so the intent keeps the text's digest and when it was written, and the restarted bot
finds its own message with those words posted since, fills the intent in and deletes the
message at its time: Tile Decklaration's memory grid and its opening line, both posted with
their ids never written (the bot died there), go 30 s after they were posted."""

from __future__ import annotations

import asyncio

from tests.e2e.botworld import World


async def test_a_timed_text_whose_id_was_never_written_is_found_and_deleted_at_its_time(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert bot.store is not None

        async def died_before_the_id_was_written(row_id, message_id, **kwargs):  # type: ignore[no-untyped-def]
            return None  # the process is gone: nothing fills the intent in

        bot.store.fill_message = died_before_the_id_was_written  # type: ignore[method-assign]
        assert (await world.start("tiles", seed=1)).startswith("Match #1 has started")
        intents = [m for m in await bot.store.messages(1) if m.message_id is None and m.delete_at is not None]
        assert len(intents) == 2 and sum(m.text_digest is not None for m in intents) == 1  # the line, the grid
    mine = [m for m in fake.messages(world.room) if m.author.id == fake.bot_user.id]
    [line] = [m for m in mine if not m.attachments and m.content.startswith("Memorize the grid")]
    [grid] = [m for m in mine if m.attachments]
    async with world.running() as bot:
        assert bot.store is not None
        # The restart found both intents' messages (the text by its words): none is left open.
        rows = await bot.store.messages(1)
        assert {m.message_id for m in rows} == {line.id, grid.id} and not any(m.deleted for m in rows)
        assert not fake.message_store[line.id].deleted  # its 30 s are not over yet
        world.time.advance(30)
        for message in (line, grid):
            await fake.wait_until(lambda m=message: fake.message_store[m.id].deleted, what="a timed message's deletion")
        for _ in range(1000):  # the rows say so once each deletion's answer is in (yielding, not sleeping)
            if not await bot.store.messages_to_delete():
                break
            await asyncio.sleep(0)
        assert await bot.store.messages_to_delete() == []
