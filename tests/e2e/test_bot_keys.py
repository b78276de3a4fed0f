"""Through the real bot on the fake Discord: every move is logged with the key of the submission it
came from (a typed move's message id, a button's interaction id), and the same message delivered
again is answered as taken already, never taken twice."""

from __future__ import annotations

import pytest

from geniusbot.storage import Store
from tests.e2e.botworld import World


async def keys(world: World) -> list[tuple[str | None, str, str | None]]:
    store = await Store.open(world.db_url, migrate=False)
    try:
        return [(a.seat, a.text, a.key) for a in await store.actions(1, accepted_only=True) if a.seat]
    finally:
        await store.close()


@pytest.mark.slow
async def test_typed_moves_and_buttons_are_keyed_by_their_message_and_interaction(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await world.start("tictacfive", seed=7)
        typed = []
        for point in ("H8", "H9", "I8"):
            mark = fake.mark()
            typed.append(await fake.user_says(world.room, world.alice, point))
            await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
        )
        mark = fake.mark()
        pressed = await fake.click(world.bob, choice, "gb:choice:1:p2:white")
        await fake.wait_for_response(pressed)  # the defer: the choice is taken after it
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert await keys(world) == [
            ("p1", "H8", f"discord:{typed[0].id}"),
            ("p1", "H9", f"discord:{typed[1].id}"),
            ("p1", "I8", f"discord:{typed[2].id}"),
            ("p2", "white", f"discord:{pressed.id}"),
        ]
        # The first message reaches the cog again (a gateway event replayed): taken already.
        [first] = [m for m in bot.cached_messages if m.id == typed[0].id]
        mark = fake.mark()
        await bot.get_cog("Matches").on_message(first)
        answer = await fake.wait_for_message(world.room, since=mark, predicate=lambda m: "alice" in m.content[:6])
        assert answer.content == "alice (p1): That move was taken already; it is not taken twice."
        assert len(await keys(world)) == 4
