"""A double elimination of six players on the loopback Discord, played by scripted players: the
host creates and starts it and does nothing more; a player withdraws in the middle of round 1
(her match is played out, she is paired no more), odd groups give byes, and the bot plays it to
the final standings, every match once and in the archive."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import World, ephemeral_answer
from tests.e2e.test_bot_tournament import final_standings, round_posted, running_threads, second_players_resign, settled


@pytest.mark.slow
async def test_a_double_elimination_of_six_with_a_withdrawal_and_byes_runs_to_the_final_standings(
    world: World,
) -> None:
    fake = world.fake
    extra = [fake.create_user(name) for name in ("dave", "erin", "frank")]
    for user in extra:
        fake.add_member(world.guild, user)
    players = [world.alice, world.bob, world.carol, *extra]
    users = {u.username: u for u in players}
    async with world.running() as bot:
        given = {"game": "tictacfive", "format": "double_elimination"}
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament create", given)
        assert await ephemeral_answer(world, interaction) == "Tournament #1 is open for sign-up."
        [post] = [m for m in fake.messages(world.room) if m.content.startswith("Tournament #1: ")]
        for player in players:
            await ephemeral_answer(world, await fake.click(player, post, "gb:join:1"))
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament start", {"number": 1})
        assert await ephemeral_answer(world, interaction) == "Tournament #1 has started."
        # Seeds by sign-up (all at 1500): alice 1 ... frank 6; the best seed meets the worst.
        round_one = await round_posted(world, 1)
        await fake.wait_until(lambda: len(running_threads(world)) == 3, what="round 1's matches")
        await settled(bot)
        assert [line.split(" in ")[0] for line in round_one.content.split("\n")[1:]] == [
            "alice against frank",
            "bob against erin",
            "carol against dave",
        ]
        # carol withdraws while her match runs: it is played out (she wins it), then she is paired no more.
        interaction = await fake.slash(world.carol, world.guild, world.room, "tournament withdraw", {"number": 1})
        assert (await ephemeral_answer(world, interaction)).startswith("carol is withdrawn from tournament #1")
        expected = {
            2: ["alice against bob", "dave against erin", "frank has a bye (a point)."],
            3: ["bob against frank", "alice has a bye (a point).", "dave has a bye (a point)."],
            4: ["bob against dave", "alice has a bye (a point)."],
            5: ["alice against bob"],  # the final: the last unbeaten against the last once-beaten
        }
        games = {1: 3, 2: 2, 3: 1, 4: 1, 5: 1}
        for number in range(1, 6):
            if number > 1:
                posted = await round_posted(world, number)
                assert [line.split(" in ")[0] for line in posted.content.split("\n")[1:]] == expected[number]
                assert [a.filename for a in posted.attachments] == [f"bracket-t1r{number}.png"]
            await fake.wait_until(lambda: len(running_threads(world)) == games[number], what=f"round {number}")
            await settled(bot)
            await second_players_resign(world, users, running_threads(world))
            await fake.wait_until(lambda: not running_threads(world), what=f"round {number}'s ends", timeout=15)
        final = await final_standings(world)
        assert final.content.split("\n")[1:] == [
            "1. alice: 5",
            "2. bob: 3",
            "3. dave: 2",
            "4. frank: 1",
            "5. carol: 1",  # withdrawn: counted as out
            "6. erin: 0",
        ]
        assert [a.filename for a in final.attachments] == ["standings-t1f.png", "bracket-t1f.png"]
        assert bot.store is not None
        pairings = await bot.store.pairings(1)
        played = [p for p in pairings if p.second_id is not None]
        assert sorted(p.match_id or 0 for p in played) == list(range(1, 9))  # eight matches, each once
        assert sum(p.second_id is None for p in pairings) == 4  # four byes
        for match in range(1, 9):  # every match is in the archive, to replay
            assert (await bot.store.get_match(match)).status == "finished"
