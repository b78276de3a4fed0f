"""A tournament's posts: each round's pairings with a picture (an elimination's bracket), the
standings and the bracket as pictures with alt text after every round, each keyed by tournament
and round, so that a crash between opening a round and posting it is made up for on restart, once."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import PNG_MAGIC, World, ephemeral_answer
from tests.e2e.test_bot_tournament import final_standings, round_posted, running_threads, second_players_resign, settled
from tests.fakediscord import FakeMessage


def posts(world: World, start: str) -> list[FakeMessage]:
    return [m for m in world.fake.messages(world.room) if m.content.startswith(start)]


@pytest.mark.slow
async def test_pictures_follow_every_round_and_a_lost_pairings_post_is_posted_once_on_restart(world: World) -> None:
    fake = world.fake
    dave = fake.create_user("dave")
    fake.add_member(world.guild, dave)
    players = [world.alice, world.bob, world.carol, dave]
    users = {u.username: u for u in players}
    async with world.running() as bot:
        given = {"game": "tictacfive", "format": "single_elimination"}
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament create", given)
        assert await ephemeral_answer(world, interaction) == "Tournament #1 is open for sign-up."
        [post] = posts(world, "Tournament #1: ")
        for player in players:
            await ephemeral_answer(world, await fake.click(player, post, "gb:join:1"))
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament start", {"number": 1})
        assert await ephemeral_answer(world, interaction) == "Tournament #1 has started."
        first = await round_posted(world, 1)
        await fake.wait_until(lambda: len(running_threads(world)) == 2, what="round 1's matches")
        await settled(bot)
    [picture] = first.attachments
    assert picture.filename == "bracket-t1r1.png" and fake.attachments(first)[0].startswith(PNG_MAGIC)
    assert picture.description == "Tournament #1, round 1\nRound 1:\nalice against dave\nbob against carol"
    # As if the bot had stopped between opening round 1 and posting it.
    first.deleted = True
    for _ in range(2):  # a restart posts it; the next finds it and posts nothing
        async with world.running() as bot:
            await fake.wait_until(lambda: len(posts(world, "Tournament #1, round 1:")) == 1, what="the post again")
            await settled(bot)
    [again] = posts(world, "Tournament #1, round 1:")
    assert again.content == first.content and [a.filename for a in again.attachments] == ["bracket-t1r1.png"]
    async with world.running() as bot:
        await settled(bot)
        await second_players_resign(world, users, running_threads(world))
        after = await fake.wait_for_message(
            world.room, predicate=lambda m: "standings after round 1 of 2" in m.content, since=0, timeout=15
        )
        assert [a.filename for a in after.attachments] == ["standings-t1s1.png", "bracket-t1s1.png"]
        standings, bracket = after.attachments
        assert standings.description == after.content  # the alt text says the table line by line
        assert bracket.description == (
            "Tournament #1: the bracket\nRound 1:\nalice against dave: alice goes on\nbob against carol: bob goes on"
        )
        await round_posted(world, 2)
        await fake.wait_until(lambda: len(running_threads(world)) == 1, what="the final")
        await settled(bot)
        await second_players_resign(world, users, running_threads(world))
        final = await final_standings(world)
        assert [a.filename for a in final.attachments] == ["standings-t1f.png", "bracket-t1f.png"]
        assert len(posts(world, "Tournament #1, round 1:")) == 1
        assert len(posts(world, "Tournament #1: standings after round 1 of 2.")) == 1
        interaction = await fake.slash(world.carol, world.guild, world.room, "tournament status", {"number": 1})
        await fake.wait_for_response(interaction)
        status = await fake.wait_for_followup(interaction)
        assert status.content == final.content  # the text, and the pictures with it
        assert [a.filename for a in status.attachments] == ["standings.png", "bracket.png"]
        assert status.attachments[0].description == final.attachments[0].description
