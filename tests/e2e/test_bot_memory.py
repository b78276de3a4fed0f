"""The bot lets go of a match once it is over, on the fake Discord: the choice buttons still
close, and /status still answers for it, read from the database."""

from __future__ import annotations

from tests.e2e.botworld import ephemeral_answer
from tests.e2e.test_bot_tightwire import Table
from tests.host.tightwire_scripts import DRAFT


async def test_a_resignation_closes_the_open_buttons_and_status_still_answers(world) -> None:
    async with world.running() as bot:
        table = Table(world, bot)
        await table.open("fate")
        (_, pick1), _, _ = DRAFT
        await table.press("p1", pick1)
        offer = await world.fake.wait_until(
            lambda: next(
                (m for m in reversed(world.fake.messages(world.room)) if m.component("gb:choice:1:p2:pick turn order")),
                None,
            ),
            what="bob's draft buttons",
        )
        assert 1 in bot.host.matches
        interaction = await world.fake.slash(world.bob, world.guild, world.room, "resign", {})
        assert await ephemeral_answer(world, interaction) == "You resigned match #1."
        # The match is over and let go of; its last buttons close all the same.
        await world.fake.wait_for_edit(offer, predicate=lambda m: not m.components)
        assert bot.host.matches == {} and bot.host.cache.loading == {}
        interaction = await world.fake.slash(world.carol, world.guild, world.room, "status", {"match": 1})
        status = await ephemeral_answer(world, interaction)
        assert status.startswith("Match #1: Tightwire (fate), finished.") and "alice (p1) wins" in status
        assert bot.host.matches == {}
