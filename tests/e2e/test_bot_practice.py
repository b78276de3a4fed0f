"""``/practice`` on the fake Discord, through the real bot: a member plays a whole match against
the practice opponent (its searches in the bot's worker processes, at a tiny iteration budget
given to the bot's constructor), private moves by DM; the refusals; a restart in mid-match gives
the opponent back and it moves; nothing of the opponent's private view reaches any channel; the
archive marks the match as practice and replays it."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from geniusbot.host import board
from geniusbot.host.announce import UNREACHABLE
from geniusbot.practice import Budget
from geniusbot.storage import ENDED_STATUSES, ActionKind, MatchStatus
from tests.e2e.botworld import EPHEMERAL, TestBot, World, make_world
from tests.fakediscord import FakeDiscord, FakeUser

#: The smallest search: a few iterations a move (the levels' seconds never come into it).
TINY = Budget(iterations=4)


def practice_bot(world: World) -> TestBot:
    """The bot of ``world`` with the tiny search budget."""
    return TestBot(database_url=world.db_url, time=world.time, guild_ready_timeout=0.01, practice_budget=TINY)


async def practise(world: World, user: FakeUser, **options: object) -> str:
    """``/practice`` by ``user`` in the room; the bot's answer (seen by ``user`` alone)."""
    interaction = await world.fake.slash(user, world.guild, world.room, "practice", options)
    response = await world.fake.wait_for_response(interaction)
    assert response.data["flags"] & EPHEMERAL
    return (await world.fake.wait_for_followup(interaction)).content


def state(bot: TestBot, match_id: int) -> tuple[int, object] | None:
    """The match's version and game as the host holds them; ``None`` once it is over."""
    assert bot.host is not None
    live = bot.host.matches.get(match_id)
    if live is None or live.status in ENDED_STATUSES or live.game.is_over:
        return None
    return live.version, live.game


async def play_out(
    world: World,
    bot: TestBot,
    match_id: int,
    user: FakeUser,
    seat: str,
    seed: int,
    *,
    watch: Callable[[Any], None] | None = None,
    moves: int | None = None,
) -> None:
    """``user`` plays ``seat`` with random legal moves (a private one by DM, a timed window
    closed by moving the clock on) until the match is over (or ``moves`` of the match's versions
    have passed); the bot plays the other seat. ``watch`` sees the game at every step."""
    fake, rng = world.fake, random.Random(seed)
    assert bot.host is not None and bot.dispatcher is not None
    for _ in range(3000):
        now = state(bot, match_id)
        if now is None:
            return
        version, game = now
        if moves is not None and version >= moves:
            return
        if watch is not None:
            watch(game)
        live = bot.host.matches[match_id]
        if seat in game.to_move():  # type: ignore[attr-defined]
            move = game.rollout_move(seat, rng) or rng.choice(list(game.legal_moves(seat)))  # type: ignore[attr-defined]
            if game.is_private(move):  # type: ignore[attr-defined]
                await fake.dm(user, move.text())
            else:
                await fake.user_says(world.room, user, move.text())
        elif not game.to_move():  # type: ignore[attr-defined]
            window = live.host.get("window") or {}
            world.time.advance(max(1.0, float(window.get("due", 0)) - bot.now() + 1))
            await bot.dispatcher.settle()
        await fake.wait_until(
            lambda: (s := state(bot, match_id)) is None or s[0] != version,
            timeout=60,
            what=f"match #{match_id} to move on from version {version}",
        )
    raise AssertionError(f"match #{match_id} did not end")


def bot_messages(world: World) -> list[tuple[int, str]]:
    """Every message the bot sent anywhere, as (channel id, text)."""
    fake = world.fake
    return [
        (channel.id, message.content)
        for channel in fake.channels.values()
        for message in fake.messages(channel, include_deleted=True)
        if message.author.id == fake.bot_user.id
    ]


@pytest.mark.slow
async def test_a_whole_practice_match_of_tictacfive_at_easy(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running(practice_bot(world)) as bot:
            answer = await practise(world, world.alice, game="tictacfive", level="easy", seed=3)
            assert answer == (
                f"Practice match #1 has started in <#{world.room.id}>: you play p1, the bot plays p2 at level easy."
            )
            first = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
            assert first.content.startswith("Match #1: Tic-Tac-Five, alice (p1) vs geniusbot (p2).")
            await play_out(world, bot, 1, world.alice, "p1", seed=1)
            assert bot.store is not None
            record = await bot.store.get_match(1)
            assert record.status == MatchStatus.FINISHED
            assert (record.practice_seat, record.practice_level) == ("p2", "easy")
            # The bot's moves were taken in the room as a player's are.
            actions = await bot.store.actions(1, accepted_only=True)
            assert any(a.seat == "p2" and a.kind == ActionKind.MOVE for a in actions)
            await fake.wait_until(lambda: not bot.get_cog("Practice").opponents, what="the opponent to stop")  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_practice_match_with_private_moves_by_dm_shows_no_secret_of_the_bot(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running(practice_bot(world)) as bot:
            answer = await practise(
                world, world.alice, game="tiles", level="easy", seat="p2", options="anomalies=landmine"
            )
            assert answer.endswith("you play p2, the bot plays p1 at level easy.")
            # Her DMs were checked first: she heard where the private moves go.
            [hello] = fake.messages(fake.dm_channel(world.alice))
            assert "Private moves of that match go here" in hello.content
            secrets: set[str] = set()

            def watch(game: Any) -> None:
                # The bot's own view, where it tells more than alice's and the room's.
                mine = board.text_board(game.view("p1"))
                if mine not in (board.text_board(game.view("p2")), board.text_board(game.view(None))):
                    secrets.add(mine)

            await play_out(world, bot, 1, world.alice, "p2", seed=2, watch=watch)
            assert bot.store is not None
            actions = await bot.store.actions(1, accepted_only=True)
            sealed = [a.text for a in actions if a.seat == "p1" and a.private]
            assert sealed and secrets, "the bot made no private move, or its view never told more than alice's"
            assert any(a.seat == "p2" and a.private for a in actions), "alice made no private move by DM"
            assert (await bot.store.get_match(1)).status == MatchStatus.FINISHED
            sent = bot_messages(world)
        # The bot wrote in the room and to alice alone: no DM to its own seat, nowhere else.
        assert {channel for channel, _ in sent} == {world.room.id, fake.dm_channel(world.alice).id}
        assert list(fake.dm_channels) == [world.alice.id]
        for channel, text in sent:
            assert not any(secret in text for secret in secrets), text
            assert not any(f"Taken: {move}" in text for move in sealed), text
            if channel == world.room.id:
                # Nothing was sent towards the bot's seat at all (not even a message that failed).
                assert not text.startswith("Your view of match") and UNREACHABLE not in text, text
