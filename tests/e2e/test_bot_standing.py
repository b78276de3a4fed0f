"""Ratings on the loopback Discord: two rated matches and an unrated one are played to a result;
/leaderboard and /profile answer with pictures whose numbers (drawn and in their alt text) are the
Glicko-2 arithmetic's, and /setup rated: sets what /start does when its host does not say."""

from __future__ import annotations

import pytest

from geniusbot.ratings import Rating, rate_match
from geniusbot.render.text import listening
from tests.e2e.botworld import PNG_MAGIC, World, ephemeral_answer
from tests.fakediscord import FakeUser


async def resign(world: World, player: FakeUser, match: int) -> None:
    interaction = await world.fake.slash(player, world.guild, world.room, "resign", {})
    assert await ephemeral_answer(world, interaction) == f"You resigned match #{match}."
    await world.fake.wait_for_message(world.room, predicate=lambda m: m.content.startswith("Result:"))


@pytest.mark.slow
async def test_two_rated_matches_make_the_leaderboard_and_the_profiles(world: World) -> None:
    fake = world.fake
    async with world.running():
        assert (await world.start("tictacfive")).startswith("Match #1 has started")  # rated: /setup's default
        await resign(world, world.bob, 1)
        assert (await world.start("tictacfive", world.bob, world.alice)).startswith("Match #2 has started")
        await resign(world, world.alice, 2)
        assert (await world.start("tictacfive", world.carol, world.alice, rated=False)).startswith("Match #3")
        await resign(world, world.carol, 3)
        alice1, bob1 = rate_match(Rating(), Rating(), 1.0)
        bob2, alice2 = rate_match(bob1, alice1, 1.0)
        ranked = sorted([("alice", alice2), ("bob", bob2)], key=lambda p: -p[1].rating)

        with listening() as heard:
            interaction = await fake.slash(
                world.carol, world.guild, world.room, "leaderboard", {"game": "tictacfive", "public": True}
            )
            await fake.wait_for_response(interaction)
            shown = await fake.wait_for_followup(interaction)
        assert not shown.ephemeral  # public: true shows it to the room
        (picture,) = shown.attachments
        assert picture.data.startswith(PNG_MAGIC)
        rows = [f"{i}. {name}, {round(r.rating)}?, 2 games" for i, (name, r) in enumerate(ranked, 1)]
        assert picture.description.split("\n")[:3] == ["Leaderboard: Tic-Tac-Five (standard), page 1 of 1:", *rows]
        # Both rated matches were won by the player in p1 (the one in p2 resigned).
        assert "Seat p1 scored 100% of the points in 2 rated matches (50% is no advantage)." in picture.description
        drawn = [text for text, _ in heard]
        for i, (name, r) in enumerate(ranked, 1):
            at = drawn.index(name)
            assert drawn[at - 1 : at + 3] == [str(i), name, f"{round(r.rating)}?", "2"]
        assert "carol" not in drawn  # an unrated match rates nobody
        interaction = await fake.slash(
            world.carol, world.guild, world.room, "leaderboard", {"game": "tictacfive", "page": 2, "public": True}
        )
        said = await ephemeral_answer(world, interaction)  # a refusal goes to the asker alone
        assert said == "The leaderboard of Tic-Tac-Five (standard) has 1 page."

        with listening() as heard:
            interaction = await fake.slash(world.carol, world.guild, world.room, "profile", {"member": world.alice})
            response = await fake.wait_for_response(interaction)
            shown = await fake.wait_for_followup(interaction)
        assert response.data["flags"] & 64 and shown.ephemeral  # only to the asker by default
        lines = shown.content.split("\n")
        assert lines[0] == "Recent matches of alice:"
        room = f"<#{world.room.id}>"
        assert lines[1:] == [
            f"- Match #3, Tic-Tac-Five (standard) against carol: won (in {room}; /replay match:3)",
            f"- Match #2, Tic-Tac-Five (standard) against bob: lost, rating {round(alice1.rating)} to "
            f"{round(alice2.rating)} (in {room}; /replay match:2)",
            f"- Match #1, Tic-Tac-Five (standard) against bob: won, rating 1500 to {round(alice1.rating)} "
            f"(in {room}; /replay match:1)",
        ]
        ratings, graph = shown.attachments
        assert ratings.data.startswith(PNG_MAGIC) and graph.data.startswith(PNG_MAGIC)
        assert ratings.description == (
            f"alice: ratings in this server:\nTic-Tac-Five (standard): {round(alice2.rating)}?, 1 won, 1 lost, 0 drawn"
        )
        assert graph.description == (
            "alice: rating in Tic-Tac-Five (standard), from 1500 after each rated match: "
            f"{round(alice1.rating)}, {round(alice2.rating)}."
        )
        drawn = [text for text, _ in heard]
        assert ["Tic-Tac-Five (standard)", f"{round(alice2.rating)}?", "1", "1", "0"] == drawn[
            drawn.index("Drawn") + 1 :
        ][:5]
        values = [1500.0, alice1.rating, alice2.rating]
        scale = drawn[drawn.index("alice: rating in Tic-Tac-Five (standard)") + 1 :][:2]
        assert scale == [str(round(min(values))), str(round(max(values)))]  # the graph's lowest and highest


@pytest.mark.slow
async def test_setup_rated_false_leaves_starts_unrated_and_nobody_is_ranked(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"rated": False})
        assert "/start leaves a match unrated unless its host says otherwise. Any text channel" in (
            await ephemeral_answer(world, interaction)
        )
        assert (await world.start("tictacfive")).startswith("Match #1 has started")
        await resign(world, world.bob, 1)
        assert bot.store is not None and not (await bot.store.get_match(1)).rated
        interaction = await fake.slash(
            world.carol, world.guild, world.room, "leaderboard", {"game": "tictacfive", "public": True}
        )
        said = await ephemeral_answer(world, interaction)  # a refusal goes to the asker alone
        assert said == "Nobody is rated in Tic-Tac-Five (standard) in this server yet: a rated match ends first."
        interaction = await fake.slash(world.alice, world.guild, world.room, "profile", {})
        assert (await ephemeral_answer(world, interaction)).endswith("No rated match yet, so no rating.")
