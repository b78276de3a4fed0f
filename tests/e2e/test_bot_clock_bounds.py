"""A clock that reads but is longer than a clock may give (``/start clock:300000000000s``) is
refused in one sentence that says the bound, and the room stays free: the next /start is taken."""

from __future__ import annotations

from tests.e2e.botworld import World

BOUND = "each time in a time control may be at most 24 hours (24h, 1440m or 86400s)."


async def test_start_refuses_a_clock_past_the_bound_and_leaves_the_room_free(world: World) -> None:
    async with world.running() as bot:
        answer = await world.start("tictacfive", clock="300000000000s")
        assert answer == f"'300000000000s' is longer than a clock may give: {BOUND}"
        answer = await world.start("tictacfive", clock="1" + "0" * 308 + "s")
        assert answer.startswith("'100000000000000000000000... (310 characters)' is longer than a clock may give")
        assert (await world.start("tightwire", clock="101x60s")).endswith(
            "a byo-yomi clock may have at most 100, such as 5x60s."
        )
        assert not bot.host.matches and await bot.store.live_matches() == []
        assert (await world.start("tictacfive", clock="24h")).startswith("Match #1 has started")
