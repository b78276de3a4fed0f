"""/tournament's refusals each say what to do next and change nothing: an unknown game, a rule set
the game lacks, a tournament the server does not have, a start with fewer than two players; the
server's list of tournaments, and more time for sign-up; a start or more time once it has started."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import World, ephemeral_answer
from tests.fakediscord import FakeUser


@pytest.mark.slow
async def test_each_refusal_gives_the_next_step_and_changes_nothing(world: World) -> None:
    fake = world.fake

    async def ask(command: str, given: dict[str, object], user: FakeUser | None = None) -> str:
        interaction = await fake.slash(user or world.owner, world.guild, world.room, command, given)
        return await ephemeral_answer(world, interaction)

    async with world.running() as bot:
        assert await ask("tournament status", {}) == (
            "This server has no tournament yet; a host creates one with /tournament create."
        )
        assert await ask("tournament create", {"game": "chess", "format": "swiss"}) == (
            "There is no game chess; pick one from the game option's list, or see what each is with /rules."
        )
        assert await ask("tournament create", {"game": "tictacfive", "format": "swiss", "variant": "huge"}) == (
            "Tic-Tac-Five has the rule sets standard: give one of them as the variant option, or leave it out "
            "for standard."
        )
        assert await ask("tournament status", {"number": 9}) == (
            "There is no tournament #9 in this server; /tournament status lists the ones it has."
        )
        assert bot.store is not None and await bot.store.tournaments(statuses=("signup",)) == []  # nothing made
        given = {"game": "tictacfive", "format": "round_robin", "signup_minutes": 5}
        assert await ask("tournament create", given) == "Tournament #1 is open for sign-up."
        [post] = [m for m in fake.messages(world.room) if m.content.startswith("Tournament #1: ")]
        await ephemeral_answer(world, await fake.click(world.alice, post, "gb:join:1"))
        assert await ask("tournament start", {"number": 1}) == (
            "Tournament #1 needs two players at least: wait for more to sign up with its button, or give them "
            "more time with /tournament extend number:1 minutes:."
        )
        world.time.advance(6 * 60)  # sign-up has closed
        assert await ephemeral_answer(world, await fake.click(world.bob, post, "gb:join:1")) == (
            "Sign-up for tournament #1 has closed."
        )
        assert "Manage Server" in await ask("tournament extend", {"number": 1, "minutes": 10}, world.bob)
        assert await ask("tournament extend", {"number": 1, "minutes": 10}) == (
            "Sign-up for tournament #1 is open for 10 more minutes."
        )
        assert await ephemeral_answer(world, await fake.click(world.bob, post, "gb:join:1")) == (
            "You are signed up for tournament #1."
        )
        assert await ask("tournament status", {}, world.carol) == (
            "This server's tournaments (the newest first):\n#1: Tic-Tac-Five (standard), round robin, open for sign-up"
        )
        assert await ask("tournament start", {"number": 1}) == "Tournament #1 has started."
        started_already = (
            "Tournament #1 has started already; /tournament status number:1 shows its rounds and standings."
        )
        assert await ask("tournament start", {"number": 1}) == started_already
        assert await ask("tournament extend", {"number": 1, "minutes": 10}) == started_already
