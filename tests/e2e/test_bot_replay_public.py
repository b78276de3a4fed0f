"""/replay public:true decides before it defers, as /record does: a deferral's follow-up shows
as the deferral did, so a refusal (a live match, an unknown match, nothing to list) must go to
the asker alone, never to the room. The real bot on the loopback fake Discord."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import World


@pytest.mark.slow
async def test_replay_public_refusals_go_to_the_asker_alone(world: World) -> None:
    fake = world.fake
    async with world.running():
        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"public": True})
        assert (await world.answer(interaction)).startswith("No finished match matches that")
        assert (await world.start("tictacfive", seed=7)).startswith("Match #1 has started")
        start = fake.messages(world.room)[-1].id
        for options, said in (
            ({"match": 1, "public": True}, "Match #1 is still being played"),
            ({"match": 99, "public": True}, "There is no match #99 here"),
            ({"public": True}, "No finished match matches that"),
        ):
            interaction = await fake.slash(world.carol, world.guild, world.room, "replay", options)
            assert (await world.answer(interaction)).startswith(said)
        answers = [m for m in fake.messages(world.room) if m.id > start]
        assert len(answers) == 3 and all(m.ephemeral for m in answers), answers
        assert not any(m in fake.visible_to(world.bob, world.room) for m in answers)
        assert all(m in fake.visible_to(world.carol, world.room) for m in answers)
        # Once there is one to show, public:true shows it to the room: the step and the list.
        interaction = await fake.slash(world.owner, world.guild, world.room, "abort", {})
        assert "aborted" in await world.answer(interaction)
        for options, said in (({"match": 1, "public": True}, "Replay of match #1"), ({"public": True}, "Finished")):
            interaction = await fake.slash(world.carol, world.guild, world.room, "replay", options)
            assert (await world.answer(interaction)).startswith(said)
            shown = fake.messages(world.room)[-1]
            assert not shown.ephemeral and shown in fake.visible_to(world.bob, world.room)
