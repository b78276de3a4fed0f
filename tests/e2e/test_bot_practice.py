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

from geniusbot.bot import COGS
from geniusbot.host import board
from geniusbot.host.announce import UNREACHABLE
from geniusbot.practice import Budget
from geniusbot.storage import ENDED_STATUSES, ActionKind, MatchStatus
from tests.e2e.botworld import EPHEMERAL, TestBot, World, make_world
from tests.fakediscord import FakeDiscord, FakeUser
from tests.practice.positions import CASES, case_id

#: The smallest search: one iteration a move (the levels' seconds never come into it).
TINY = Budget(iterations=1)


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
            # The opponent chose its colour without buttons: none were offered for its seat.
            assert not [m for m in fake.messages(world.room) if m.component("gb:choice:1:p2:white") is not None]
            assert bot.store is not None
            record = await bot.store.get_match(1)
            assert record.status == MatchStatus.FINISHED
            assert (record.practice_seat, record.practice_level) == ("p2", "easy")
            # The bot's moves were taken in the room as a player's are.
            actions = await bot.store.actions(1, accepted_only=True)
            assert any(a.seat == "p2" and a.kind == ActionKind.MOVE for a in actions)
            await fake.wait_until(lambda: not bot.get_cog("Practice").opponents, what="the opponent to stop")  # type: ignore[union-attr]

            # The archive marks it as practice, and replays it.
            listing = await world.answer(await fake.slash(world.carol, world.guild, world.room, "replay", {}))
            assert "#1 Tic-Tac-Five, practice (bot at easy): alice vs geniusbot, " in listing
            page = await world.answer(await fake.slash(world.carol, world.guild, world.room, "replay", {"match": 1}))
            assert page.startswith("Replay of match #1, Tic-Tac-Five, practice (bot at easy): alice vs geniusbot (")
            last = len(actions) + 5
            page = await world.answer(
                await fake.slash(world.carol, world.guild, world.room, "replay", {"match": 1, "step": last})
            )
            assert "Result:" in page
            interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": 1})
            await fake.wait_for_response(interaction)
            sent = await fake.wait_for_followup(interaction)
            assert sent.content == "The record of match #1 (Tic-Tac-Five, practice (bot at easy))."
            text = fake.attachments(sent)[0].decode()
            assert text.startswith('[Game "tictacfive"]')
            assert '[Event "geniusbot match #1, practice (bot at easy)"]' in text.splitlines()


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


@pytest.mark.slow
async def test_the_member_who_starts_is_told_as_you_and_the_bots_seat_is_told_to_type_nothing(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        second = fake.create_channel(world.guild, "death-match-2")
        async with world.running(practice_bot(world)):
            # The bot opens Tic-Tac-Five as p1: the room learns how a point is written, but the
            # bot's own seat is not told to type one.
            answer = await practise(world, world.bob, game="tictacfive", level="easy", seat="p2", seed=3)
            assert answer.endswith("you play p2, the bot plays p1 at level easy.")
            opening = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
            assert "geniusbot places the three opening stones, black, white, black (a point is written like H8)." in (
                opening.content.splitlines()
            )
            said = [line for m in fake.messages(world.room) for line in m.content.splitlines()]
            assert not [line for line in said if line.startswith("geniusbot") and "type" in line.lower()], said
            # The DM check of a game with private moves speaks to the member who starts it as "you".
            interaction = await fake.slash(
                world.alice, world.guild, second, "practice", {"game": "tiles", "level": "easy", "seat": "p2"}
            )
            assert (await world.answer(interaction)).endswith("you play p2, the bot plays p1 at level easy.")
            [hello] = fake.messages(fake.dm_channel(world.alice))
            assert hello.content == (
                "You are starting a practice match of Tile Decklaration against geniusbot in #death-match-2, "
                "playing p2. Private moves of that match go here, in this direct message."
            )


@pytest.mark.slow
async def test_practice_refusals_say_why_and_start_nothing(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        lobby = fake.create_channel(world.guild, "lobby")
        second = fake.create_channel(world.guild, "death-match-2")
        async with world.running(practice_bot(world)) as bot:
            interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"add_room": world.room})
            await world.answer(interaction)
            interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"add_room": second})
            await world.answer(interaction)
            # Not a game room: no match is played there.
            interaction = await fake.slash(world.alice, world.guild, lobby, "practice", {"game": "tictacfive"})
            assert await world.answer(interaction) == (
                f"<#{lobby.id}> is not a game room, so no match is played here; practise in one of "
                f"<#{world.room.id}>, <#{second.id}>."
            )
            # Any member may practise (no host role); one live practice match at a time.
            answer = await practise(world, world.alice, game="tictacfive", level="easy")
            assert answer.startswith("Practice match #1 has started")
            interaction = await fake.slash(world.alice, world.guild, second, "practice", {"game": "tictacfive"})
            assert await world.answer(interaction) == (
                f"You have a practice match running already: #1 in <#{world.room.id}> "
                f"(https://discord.com/channels/{world.guild.id}/{world.room.id}). One at a time: finish it, "
                "or give it up with /resign match:1, then start another."
            )
            # The room holds one match: carol is told so.
            interaction = await fake.slash(world.carol, world.guild, world.room, "practice", {"game": "tictacfive"})
            assert "already" in (await world.answer(interaction)).lower()
            assert bot.store is not None
            assert [r.id for r in await bot.store.live_matches()] == [1]
            # Once it is given up, she may start another.
            interaction = await fake.slash(world.alice, world.guild, world.room, "resign", {})
            assert await world.answer(interaction) == "You resigned match #1."
            answer = await practise(world, world.alice, game="tictacfive", level="easy")
            assert answer.startswith("Practice match #2 has started")


@pytest.mark.slow
async def test_a_restart_gives_the_practice_match_its_opponent_back_and_it_moves(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running(practice_bot(world)):
            await practise(world, world.alice, game="tictacfive", level="easy", seed=3, clock="60s")
            await world.say(world.alice, "H8")
            await world.say(world.alice, "H9")
        # A bot without /practice stands for one that went down just as it became the
        # opponent's turn: alice's third stone is taken, and no opponent answers it.
        quiet = TestBot(
            database_url=world.db_url,
            time=world.time,
            guild_ready_timeout=0.01,
            cogs=[c for c in COGS if not c.endswith(".practice")],
        )
        async with world.running(quiet) as bot:
            await world.say(world.alice, "I8")
            assert bot.host is not None and tuple(bot.host.matches[1].game.to_move()) == ("p2",)
        world.time.advance(120)
        mark = fake.mark()
        async with world.running(practice_bot(world)) as bot:
            assert bot.resumed == [1]
            back = await fake.wait_for_message(
                world.room, predicate=lambda m: m.content.startswith("The bot is back"), since=mark
            )
            assert back.content.endswith("To move: geniusbot (p2) 1:00.")
            # The opponent is back and chooses its colour; the match goes on to its end.
            await fake.wait_until(
                lambda: (s := state(bot, 1)) is None or tuple(s[1].to_move()) != ("p2",),  # type: ignore[attr-defined]
                timeout=60,
                what="the opponent to move after the restart",
            )
            assert bot.store is not None
            actions = await bot.store.actions(1, accepted_only=True)
            assert actions[-1].seat == "p2" and actions[-1].text in ("black", "white")
            await play_out(world, bot, 1, world.alice, "p1", seed=4)
            assert (await bot.store.get_match(1)).status == MatchStatus.FINISHED


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
async def test_a_whole_practice_match_of_every_game_and_rule_set(case, tmp_path: Path) -> None:
    name, variant, options = case
    seat = "p1" if CASES.index(case) % 2 == 0 else "p2"
    given: dict[str, object] = {"game": name, "level": "easy", "seat": seat, "seed": 5, "clock": "none"}
    if variant:
        given["variant"] = variant
    if options:
        given["options"] = " ".join(f"{key}={value}" for key, value in options.items())
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running(practice_bot(world)) as bot:
            answer = await practise(world, world.alice, **given)
            assert answer.startswith("Practice match #1 has started"), answer
            await play_out(world, bot, 1, world.alice, seat, seed=CASES.index(case))
            assert bot.store is not None
            record = await bot.store.get_match(1)
            assert record.status == MatchStatus.FINISHED and record.practice is not None
            actions = await bot.store.actions(1, accepted_only=True)
            bots = "p2" if seat == "p1" else "p1"
            assert any(a.seat == bots for a in actions), "the opponent never moved"
        assert list(fake.dm_channels) in ([], [world.alice.id])
