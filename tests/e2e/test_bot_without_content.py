"""Hosting without the Message Content intent (a bot whose portal has the intent switched off):
the bot connects, typed room text is not read, and every game plays by ``/move`` (its
autocomplete offering the moves legal now), by replies to the board and by mentions; a sealed move
sent by ``/move`` stays between its sender and the bot."""

from __future__ import annotations

import itertools
import random

import pytest

from geniusbot.bot import intents
from geniusbot.games import Game, GameError, get_game, registry
from tests.e2e.botworld import EPHEMERAL, TestBot, World, ephemeral_answer
from tests.e2e.secrecy import readable
from tests.fakediscord import FakeMessage, FakeUser
from tests.fakediscord.gateway import MESSAGE_CONTENT


def without_content(world: World) -> TestBot:
    """The portal has no Message Content intent; the bot asks for none (MESSAGE_CONTENT_INTENT=false)."""
    world.fake.gateway.allowed_intents = ~MESSAGE_CONTENT
    return TestBot(database_url=world.db_url, time=world.time, guild_ready_timeout=0.01, intents=intents(False))


async def started(world: World, game: str, **options: object) -> FakeMessage:
    """``/start`` the game; its first board."""
    mark = world.fake.mark()
    answer = await world.start(game, seed=7, **options)
    assert answer.startswith("Match #1 has started")
    return await world.fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)


async def offered(world: World, user: FakeUser, typed: str) -> list[str]:
    """What ``/move``'s autocomplete offers ``user`` having typed ``typed``."""
    interaction = await world.fake.autocomplete(user, world.guild, world.room, "move", {"move": typed}, "move")
    response = await world.fake.wait_for_response(interaction)
    assert response.type == 8
    return [choice["value"] for choice in response.data["choices"]]


def posted_since(world: World, mark: int) -> list[FakeMessage]:
    """The messages the bot posted in the room, for everyone to read, since ``mark``."""
    return [
        entry.subject
        for entry in world.fake.log[mark:]
        if entry.kind == "message_create"
        and entry.subject.author.id == world.fake.bot_user.id
        and entry.subject.channel_id == world.room.id
        and not entry.subject.flags & EPHEMERAL
    ]


async def move(world: World, user: FakeUser, text: str) -> str:
    """``user`` sends ``/move text``; the answer, checked to be seen by ``user`` alone."""
    interaction = await world.fake.slash(user, world.guild, world.room, "move", {"move": text})
    return await ephemeral_answer(world, interaction)


async def test_the_bot_connects_without_the_intent_and_a_match_plays_by_move(world: World) -> None:
    fake = world.fake
    async with world.running(without_content(world)):
        await started(world, "tictacfive")
        # Typed text in the room reaches the bot empty: nothing is played, nothing answered.
        mark = fake.mark()
        await fake.user_says(world.room, world.alice, "H8")
        assert posted_since(world, mark) == []
        # The list offers the legal points that start with what is typed, and only to the player to move.
        assert await offered(world, world.alice, "H1") == ["H1", "H10", "H11", "H12", "H13", "H14", "H15"]
        assert await offered(world, world.bob, "H") == []
        assert await offered(world, world.carol, "H") == []
        mark = fake.mark()
        assert await move(world, world.alice, "H8") == "Match #1: your move H8 is in."
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert "alice places black on H8" in board.content
        # A move refused says why to its sender alone, and nothing reaches the room.
        mark = fake.mark()
        assert await move(world, world.alice, "H8") == "H8 is taken; choose an empty point."
        assert (await move(world, world.bob, "H9")) == "It is not your turn; waiting for alice."
        assert posted_since(world, mark) == []
        # A reply to the board (pinging the bot, the client's default) and a mention are read.
        await fake.user_says(world.room, world.alice, "H9", reply_to=board)
        second = await fake.wait_for_message(world.room, predicate=lambda m: "on H9" in m.content)
        await fake.user_says(world.room, world.alice, f"<@{fake.bot_user.id}> I8")
        await fake.wait_for_message(world.room, predicate=lambda m: "on I8" in m.content)
        # A reply with its ping switched off reaches the bot empty, as Discord sends it.
        mark = fake.mark()
        await fake.user_says(world.room, world.bob, "white", reply_to=second, ping=False)
        assert posted_since(world, mark) == []
        # Someone who plays in no match here is told so.
        assert (await move(world, world.carol, "A1")).startswith("You do not play in match #1")


def legal(game: Game, seat: str, text: str) -> bool:
    """Whether ``text`` is a legal move of ``seat`` now, sent where it belongs."""
    for private in (False, True):
        try:
            game.parse_move(text, seat, private=private)
        except GameError:
            continue
        return True
    return False


RULE_SETS = [(name, variant) for name, cls in sorted(registry().items()) for variant in cls.variants]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "variant"), RULE_SETS)
async def test_every_game_and_rule_set_plays_to_its_result_by_move_with_dms_closed(
    world: World, game: str, variant: str
) -> None:
    """No intent and no DMs: each rule set of each installed game is played from /start to its
    result, every move sent by /move (a sealed one privately); what the autocomplete offers is
    legal, and a seat with no list (hidden information and no twin to work it out from) types."""
    fake = world.fake
    users = {"p1": world.alice, "p2": world.bob}
    world.alice.dms_open = world.bob.dms_open = False
    rng = random.Random(f"{game}:{variant}")
    async with world.running(without_content(world)) as bot:
        await started(world, game, variant=variant)
        live = bot.host.matches[1]
        for _ in range(600):
            if live.game.is_over:
                break
            if not live.game.to_move():  # a window open (a grid to memorise): its time runs out
                world.time.advance(5)
                await bot.dispatcher.settle()
                continue
            seat = rng.choice(live.game.to_move())
            choices = await offered(world, users[seat], "")
            assert all(legal(live.game, seat, c) for c in choices), (game, seat, choices)
            chosen = live.game.rollout_move(seat, rng)
            if chosen is None:
                chosen = rng.choice(list(itertools.islice(live.game.legal_moves(seat), 500)))
            text = chosen.text()
            version = live.version
            answer = await move(world, users[seat], text)
            assert answer.startswith("Match #1: your move"), (game, seat, text, answer)
            await fake.wait_until(lambda: live.version > version, what="the move to be committed")
        assert live.game.is_over, f"{get_game(game).title} ({variant}) did not end in 600 moves"
        await fake.wait_for_message(world.room, predicate=lambda m: "Result:" in m.content)


async def test_a_sealed_move_by_move_is_taken_privately_and_never_shown_in_the_room(world: World) -> None:
    fake = world.fake
    async with world.running(without_content(world)) as bot:
        await started(world, "decks")
        assert "create 49 1" in await offered(world, world.alice, "create 49")
        mark = fake.mark()
        assert await move(world, world.alice, "create 49 1") == "Match #1: your move create 49 1 is in."
        # The room learns that alice's creations are in, never what they are.
        await fake.wait_until(
            lambda: bot.host.matches[1].game.sealed.sealed_by("p1") is not None, what="the sealed play"
        )
        public = [m.content for m in posted_since(world, mark)]
        assert public and not any("49" in text for text in public), public
        # Nor does bob, anywhere he reads (the room, his DMs, the answers only he sees).
        seen = [m.content for m in readable(world, world.bob, mark)]
        assert seen and not any("49" in text for text in seen), seen
        # It went in as a private submission, as a DM would have.
        [logged] = [line for line in await bot.store.actions(1) if line.seat == "p1" and line.text == "create 49 1"]
        assert logged.private
