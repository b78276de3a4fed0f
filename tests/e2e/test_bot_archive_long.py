"""The archive keeps the bot responsive with a long match: /replay and /record of a stored
5,000-move Tightwire match (with its resignation) while a lag sampler runs on the bot's event
loop. No archive command may hold the loop for more than 50 ms.

How the lag is measured: a sampler task on the bot's loop sleeps 2 ms at a time and, for every
wake-up, takes both the wall time it came late by and the CPU time the loop's thread spent since
the previous wake-up. The CPU time is what the loop itself was kept busy with (code running on
it, the bot's or the fake Discord's), and is bounded by 50 ms: the old code, which copied the game
once per step on the loop, kept it busy for over 6 s. The wall-clock lag also counts the moments
the shared test machine did not run the process at all (on two cores under a load of 6, an idle
loop's 2 ms sleep came up to 200 ms late) and waits for the GIL while a worker thread replays; it
gets a generous bound, 1 s, which still catches a worker holding the GIL for long.
"""

from __future__ import annotations

import gc

import pytest

from geniusbot.cogs.archive import CACHE_BYTES
from geniusbot.record import game_from_record, parse_record
from geniusbot.storage import Store
from tests.e2e.botworld import PNG_MAGIC, World
from tests.fakediscord import FakeMessage
from tests.host.longmatch import sampled, shuttle_moves, store_long_match

MOVES = 5000
CPU_BOUND = 0.050
WALL_BOUND = 1.0


async def stored(world: World) -> int:
    """The long match, written into the bot's database before the bot starts."""
    store = await Store.open(world.db_url)
    try:
        return await store_long_match(
            store, MOVES, guild_id=world.guild.id, players=(("alice", world.alice.id), ("bob", world.bob.id))
        )
    finally:
        await store.close()


def step_line(message: FakeMessage) -> str:
    return message.content.splitlines()[1]


@pytest.mark.slow
async def test_replay_and_record_of_a_long_match_never_hold_the_loop(world: World) -> None:
    fake = world.fake
    match_id = await stored(world)
    moves = shuttle_moves(MOVES)
    async with world.running() as bot:
        gc.collect()  # what writing the match and starting the bot left behind is not the archive's
        async with sampled() as lag:
            interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"match": match_id})
            await fake.wait_for_response(interaction)
            page = await fake.wait_for_followup(interaction, timeout=30)
            assert step_line(page) == f"Step 0 of {MOVES + 1}: the start. Clocks: alice 1:00, bob 1:00."
            assert fake.attachments(page)[0].startswith(PNG_MAGIC)

            async def press(tag: str) -> None:
                custom_id = next(
                    c["custom_id"]
                    for row in page.components
                    for c in row["components"]
                    if c["custom_id"].endswith(":" + tag)
                )
                since = len(fake.log)
                await fake.click(world.carol, page, custom_id)
                await fake.wait_for_edit(page, since=since, timeout=30)

            await press("last")
            assert step_line(page).startswith(f"Step {MOVES + 1} of {MOVES + 1}: bob (p2): resign.")
            assert page.content.splitlines()[2].startswith("Result: ")
            await press("prev")
            seat, text = moves[-1]
            who = {"p1": "alice", "p2": "bob"}[seat]
            assert step_line(page).startswith(f"Step {MOVES} of {MOVES + 1}: {who} ({seat}): {text}.")
            # A step in the middle, straight from the command.
            interaction = await fake.slash(
                world.carol, world.guild, world.room, "replay", {"match": match_id, "step": 2501}
            )
            await fake.wait_for_response(interaction)
            middle = await fake.wait_for_followup(interaction, timeout=30)
            seat, text = moves[2500]
            assert step_line(middle).startswith(f"Step 2501 of {MOVES + 1}: ")
            assert f"({seat}): {text}." in step_line(middle)

            interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": match_id})
            await fake.wait_for_response(interaction)
            message = await fake.wait_for_followup(interaction, timeout=30)
        record = parse_record(fake.attachments(message)[0].decode("utf-8"))
        assert [(line.seat, line.text) for line in record.lines] == [*moves, ("host", "resign p2")]
        game = game_from_record(record)
        for line in record.lines[:-1]:
            game.submit(line.text, line.seat)
        game.resign("p2")
        assert record.header("Result") == "p1" == game.outcome().winner
        # The replay stays cached, by its bytes: a small part of the cache's bound.
        cache = bot.get_cog("Archive")._cache  # the cog as the bot loaded it, an extension
        assert match_id in cache and cache.max_bytes == CACHE_BYTES and cache.nbytes < CACHE_BYTES // 50
    cpu, wall = lag.worst()
    assert len(lag.cpu) > 20
    assert cpu <= CPU_BOUND, f"the loop was busy for {cpu * 1000:.0f} ms at a stretch (wall lag {wall * 1000:.0f} ms)"
    assert wall <= WALL_BOUND, f"the loop came {wall * 1000:.0f} ms late (busy {cpu * 1000:.0f} ms at most)"
