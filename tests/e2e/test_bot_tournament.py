"""A Swiss of Tic-Tac-Five on the loopback Discord: four players sign up with the button, the host
starts it and does nothing more; the bot starts each round's matches in threads of the room, reads
each result as its match ends, opens the next round when the last match of one ends and posts the
standings, to the final ones. A restart in the middle of a round starts no match twice."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from tests.e2e.botworld import TestBot, World, ephemeral_answer
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser


async def sign_up(world: World, players: list[FakeUser]) -> None:
    interaction = await world.fake.slash(
        world.owner,
        world.guild,
        world.room,
        "tournament create",
        {"game": "tictacfive", "format": "swiss", "rounds": 2},
    )
    assert await ephemeral_answer(world, interaction) == "Tournament #1 is open for sign-up."
    [post] = [m for m in world.fake.messages(world.room) if m.content.startswith("Tournament #1: ")]
    assert post.content == (
        "Tournament #1: Tic-Tac-Five (standard), Swiss. Press the button to sign up; a host starts it with "
        "/tournament start number:1."
    )
    for player in players:
        pressed = await world.fake.click(player, post, "gb:join:1")
        assert await ephemeral_answer(world, pressed) == "You are signed up for tournament #1."
    pressed = await world.fake.click(players[0], post, "gb:join:1")
    assert await ephemeral_answer(world, pressed) == "You are signed up for tournament #1 already."


async def started(world: World, given: dict[str, object], players: list[FakeUser]) -> None:
    """Tournament #1 made with ``given``, ``players`` signed up with its button, and started."""
    fake = world.fake
    interaction = await fake.slash(world.owner, world.guild, world.room, "tournament create", given)
    assert await ephemeral_answer(world, interaction) == "Tournament #1 is open for sign-up."
    [post] = [m for m in fake.messages(world.room) if m.content.startswith("Tournament #1: ")]
    for player in players:
        await ephemeral_answer(world, await fake.click(player, post, "gb:join:1"))
    interaction = await fake.slash(world.owner, world.guild, world.room, "tournament start", {"number": 1})
    assert await ephemeral_answer(world, interaction) == "Tournament #1 has started."


async def settled(bot: TestBot) -> None:
    """Wait for the runner to be done with the tournament for now."""
    cog = bot.get_cog("Tournaments")  # the extension's own class (loaded apart from this module's import)
    assert cog is not None
    await asyncio.gather(*cog.runner.tasks)  # type: ignore[attr-defined]  # a match's end moving it on
    async with cog.runner.locks[1]:  # type: ignore[attr-defined]
        pass


def running_threads(world: World) -> list[FakeChannel]:
    return [c for c in world.guild.channels.values() if c.is_thread and not c.archived and (c.name or "")[:1] == "#"]


async def round_posted(world: World, number: int) -> FakeMessage:
    return await world.fake.wait_for_message(
        world.room, predicate=lambda m: m.content.startswith(f"Tournament #1, round {number}:"), since=0, timeout=15
    )


async def final_standings(world: World) -> FakeMessage:
    """Tournament #1's final standings, once the room has them."""
    return await world.fake.wait_for_message(
        world.room, predicate=lambda m: m.content.startswith("Tournament #1: final standings."), since=0, timeout=15
    )


async def second_players_resign(world: World, users: dict[str, FakeUser], threads: list[FakeChannel]) -> None:
    """In each thread the second player (p2; "#5 Tic-Tac-Five: alice vs bob") resigns."""
    for thread in threads:
        second = (thread.name or "").rsplit(" vs ", 1)[1]
        match = int((thread.name or "")[1:].split(" ", 1)[0])
        interaction = await world.fake.slash(users[second], world.guild, thread, "resign", {})
        assert await ephemeral_answer(world, interaction) == f"You resigned match #{match}."


@pytest.mark.slow
async def test_a_swiss_of_four_runs_from_the_start_to_the_final_standings_and_survives_a_restart(
    world: World,
) -> None:
    fake = world.fake
    dave = fake.create_user("dave")
    fake.add_member(world.guild, dave)
    players = [world.alice, world.bob, world.carol, dave]
    users = {u.username: u for u in players}
    async with world.running() as bot:
        await sign_up(world, players)
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament start", {"number": 1})
        assert await ephemeral_answer(world, interaction) == "Tournament #1 has started."
        first = await round_posted(world, 1)
        await fake.wait_until(lambda: len(running_threads(world)) == 2, what="round 1's two matches")
        await settled(bot)
        assert bot.store is not None
        started = sorted(p.match_id or 0 for p in await bot.store.pairings(1))
        assert started == [1, 2]
    # A crash between a match's start and its pairing's record of it: the pairing knows its thread only.
    with sqlite3.connect(world.db_url.split("///", 1)[1]) as db:
        db.execute("UPDATE tournament_pairings SET match_id = NULL WHERE board = 1")
    # A restart in the middle of round 1: the same two matches run on, none is started again.
    async with world.running() as bot:
        await fake.wait_until(lambda: len(running_threads(world)) == 2, what="the matches to resume")
        await settled(bot)
        assert bot.store is not None
        assert sorted(p.match_id or 0 for p in await bot.store.pairings(1)) == [1, 2]  # found in its thread
        assert sorted(m.id for m in await bot.store.live_matches()) == [1, 2]  # and no third match started
        # Every seeded player is in round 1 once (all rated 1500: seeded in sign-up order).
        lines = first.content.split("\n")[1:]
        assert sorted(n for line in lines for n in line.split(" in ")[0].split(" against ")) == sorted(users)
        await second_players_resign(world, users, running_threads(world))
        after_one = await fake.wait_for_message(
            world.room, predicate=lambda m: "standings after round 1 of 2" in m.content, since=0, timeout=15
        )
        assert [line.split(": ", 1)[1].split(" (")[0] for line in after_one.content.split("\n")[1:]] == [
            "1",
            "1",
            "0",
            "0",
        ]
        await round_posted(world, 2)
        await fake.wait_until(lambda: len(running_threads(world)) == 2, what="round 2's two matches")
        await second_players_resign(world, users, running_threads(world))
        final = await final_standings(world)
        rows = final.content.split("\n")[1:]
        assert [row.split(": ", 1)[1].split(" (")[0] for row in rows] == ["2", "1", "1", "0"]
        assert rows[0].startswith("1. ")
        pairings = await bot.store.pairings(1)
        assert sorted(p.match_id or 0 for p in pairings) == [1, 2, 3, 4]  # four matches, each once
        assert all(p.score == 1.0 for p in pairings)  # the first player won each
        interaction = await fake.slash(world.carol, world.guild, world.room, "tournament status", {"number": 1})
        assert (await ephemeral_answer(world, interaction)) == final.content


@pytest.mark.slow
async def test_an_elimination_with_a_withdrawal_a_bye_an_aborted_match_and_a_replaced_result(world: World) -> None:
    fake = world.fake
    dave = fake.create_user("dave")
    fake.add_member(world.guild, dave)
    players = [world.alice, world.bob, world.carol, dave]
    users = {u.username: u for u in players}
    async with world.running() as bot:
        given = {"game": "tictacfive", "format": "single_elimination", "signup_minutes": 10}
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament create", given)
        assert await ephemeral_answer(world, interaction) == "Tournament #1 is open for sign-up."
        [post] = [m for m in fake.messages(world.room) if m.content.startswith("Tournament #1: ")]
        for player in players:
            await ephemeral_answer(world, await fake.click(player, post, "gb:join:1"))
        interaction = await fake.slash(dave, world.guild, world.room, "tournament withdraw", {"number": 1})
        assert (await ephemeral_answer(world, interaction)).startswith("dave is withdrawn from tournament #1")
        world.time.advance(11 * 60)  # past the sign-up's 10 minutes
        late = fake.create_user("erin")
        fake.add_member(world.guild, late)
        assert await ephemeral_answer(world, await fake.click(late, post, "gb:join:1")) == (
            "Sign-up for tournament #1 has closed."
        )
        interaction = await fake.slash(world.bob, world.guild, world.room, "tournament start", {"number": 1})
        assert "Manage Server" in await ephemeral_answer(world, interaction)  # a player starts nothing
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament start", {"number": 1})
        assert await ephemeral_answer(world, interaction) == "Tournament #1 has started."
        assert await ephemeral_answer(world, await fake.click(late, post, "gb:join:1")) == (
            "Tournament #1 takes no more sign-ups."
        )
        # Seeds by sign-up (all at 1500): alice 1, bob 2, carol 3, dave 4; 1 meets 4, who withdrew.
        first = await round_posted(world, 1)
        await fake.wait_until(lambda: len(running_threads(world)) == 1, what="round 1's one match")
        await settled(bot)
        [thread] = running_threads(world)
        assert (
            first.content == f"Tournament #1, round 1:\nalice has a bye (a point).\nbob against carol in <#{thread.id}>"
        )
        # The host aborts the match: the game waits for a result, which the host gives with a reason.
        interaction = await fake.slash(world.owner, world.guild, thread, "abort", {})
        assert await ephemeral_answer(world, interaction) == "Match #1: aborted."
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament status", {"number": 1})
        assert "bob against carol" in await ephemeral_answer(world, interaction)  # still open
        given = {"number": 1, "round": 1, "board": 2, "result": "p2", "reason": "bob left the server"}
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament result", given)
        assert await ephemeral_answer(world, interaction) == "The result is replaced; the reason is kept with it."
        await round_posted(world, 2)
        await fake.wait_until(lambda: len(running_threads(world)) == 1, what="the final")
        await settled(bot)
        [final_thread] = running_threads(world)
        assert (final_thread.name or "").endswith("alice vs carol")
        await second_players_resign(world, users, [final_thread])
        final = await final_standings(world)
        assert final.content.split("\n")[1:] == [
            "1. alice: 2",
            "2. carol: 1",
            "3. bob: 0",
            "4. dave: 0",
        ]  # dave withdrew unplayed
        assert bot.store is not None
        notes = [p.note for p in await bot.store.pairings(1)]
        assert notes == [None, "bob left the server", None]


@pytest.mark.slow
async def test_a_no_show_loses_on_time_and_the_tournament_goes_on_by_itself(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await started(world, {"game": "tictacfive", "format": "swiss", "clock": "30s"}, [world.alice, world.bob])
        await round_posted(world, 1)
        await fake.wait_until(lambda: len(running_threads(world)) == 1, what="the one match")
        await settled(bot)
        [thread] = running_threads(world)
        second = (thread.name or "").rsplit(" vs ", 1)[1]
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament pause", {"number": 1})
        assert await ephemeral_answer(world, interaction) == (
            "Tournament #1 is paused: no round opens until it resumes."
        )
        # Nobody moves: the first player's 30 s run out (a pause of the tournament stops no clock).
        world.time.advance(31)
        assert bot.dispatcher is not None
        await bot.dispatcher.settle()
        assert bot.store is not None and (await bot.store.get_match(1)).status == "finished"
        await settled(bot)
        assert not [m for m in fake.messages(world.room) if "standings" in m.content]  # paused: nothing moves on
        given = {"number": 1, "paused": False}
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament pause", given)
        assert await ephemeral_answer(world, interaction) == "Tournament #1 runs again."
        final = await final_standings(world)
        assert final.content.split("\n")[1].startswith(f"1. {second}: 1 ")
        assert bot.store is not None
        ended = await bot.store.get_match(1)
        assert ended.result is not None and (ended.result.winner, ended.result.termination) == ("p2", "time")


@pytest.mark.slow
async def test_a_swiss_of_eight_is_played_to_the_end_with_the_host_doing_nothing_after_the_start(world: World) -> None:
    fake = world.fake
    extra = [fake.create_user(name) for name in ("dave", "erin", "frank", "grace", "heidi")]
    for user in extra:
        fake.add_member(world.guild, user)
    players = [world.alice, world.bob, world.carol, *extra]
    users = {u.username: u for u in players}
    async with world.running() as bot:
        interaction = await fake.slash(
            world.owner, world.guild, world.room, "tournament create", {"game": "tictacfive", "format": "swiss"}
        )
        assert await ephemeral_answer(world, interaction) == "Tournament #1 is open for sign-up."
        [post] = [m for m in fake.messages(world.room) if m.content.startswith("Tournament #1: ")]
        for player in players:
            await ephemeral_answer(world, await fake.click(player, post, "gb:join:1"))
        interaction = await fake.slash(world.owner, world.guild, world.room, "tournament start", {"number": 1})
        assert await ephemeral_answer(world, interaction) == "Tournament #1 has started."
        for number in (1, 2, 3):  # three rounds: log2 of eight
            await round_posted(world, number)
            await fake.wait_until(lambda: len(running_threads(world)) == 4, what=f"round {number}'s matches")
            await settled(bot)
            await second_players_resign(world, users, running_threads(world))
            await fake.wait_until(lambda: not running_threads(world), what=f"round {number}'s ends", timeout=15)
        final = await final_standings(world)
        rows = final.content.split("\n")[1:]
        assert len(rows) == 8 and sum(float(r.split(": ", 1)[1].split(" (")[0]) for r in rows) == 12  # a point a game
        assert bot.store is not None
        pairings = await bot.store.pairings(1)
        met = {frozenset((p.first_id, p.second_id)) for p in pairings}
        assert len(pairings) == len(met) == 12  # nobody met twice
        assert sorted(p.match_id or 0 for p in pairings) == list(range(1, 13))
        for match in range(1, 13):  # every match is in the archive, to replay
            assert (await bot.store.get_match(match)).status == "finished"
