"""A game installed from outside geniusbot (examples/blackwhite) on the loopback Discord, through
the real bot: /start offers it among the games, and a whole match of it is played, its sealed
tiles by DM, its board drawn by the plug-in's picture and posted after every round."""

from __future__ import annotations

import asyncio
import re

import pytest

from geniusbot.games import registry
from tests.e2e.botworld import PNG_MAGIC, World
from tests.fakediscord import FakeMessage, png_size

pytestmark = pytest.mark.skipif(
    "blackwhite" not in registry(),
    reason="the example game is not installed (pip install -e examples/blackwhite, as the README's test command does)",
)

# p1 (alice) and p2 (bob), round by round: p1 wins 5 rounds to 3.
ROUNDS = [(4, 6), (8, 7), (0, 8), (7, 5), (3, 3), (2, 4), (6, 2), (5, 1), (1, 0)]


def is_png_board(message: FakeMessage) -> bool:
    files = [a.data for a in message.attachments]
    return len(files) == 1 and files[0].startswith(PNG_MAGIC) and message.attachments[0].filename.endswith(".png")


async def handled() -> None:
    """Wait until the bot has handled every message sent to it (its on_message tasks are done)."""
    for _ in range(500):
        if not [t for t in asyncio.all_tasks() if t.get_name() == "discord.py: on_message" and not t.done()]:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the bot is still handling a message")


async def test_start_offers_the_installed_game(world: World) -> None:
    async with world.running():
        interaction = await world.fake.autocomplete(
            world.owner, world.guild, world.room, "start", {"game": "black"}, "game"
        )
        choices = (await world.fake.wait_for_response(interaction)).data["choices"]
        assert {"name": "Black and White", "value": "blackwhite"} in [
            {"name": c["name"], "value": c["value"]} for c in choices
        ]


@pytest.mark.slow
async def test_a_match_of_the_installed_game_is_played_by_dm_and_its_board_drawn(world: World) -> None:
    from blackwhite.picture import HEIGHT, WIDTH

    fake = world.fake
    async with world.running() as bot:
        mark = fake.mark()
        assert await world.start("blackwhite", seed=0) == f"Match #1 has started in <#{world.room.id}>."
        first = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert is_png_board(first) and png_size(first.attachments[0].data) == (WIDTH, HEIGHT)
        assert first.content.split("\n") == [
            "Match #1: Black and White, alice (p1) vs bob (p2). Clock: 30 s a move, then a 2:00 reserve.",
            "Round 1 of 9: each player sends one tile, 0 to 8, to the bot privately, such as play 4.",
            "To move: alice (p1) 0:30 +2:00, bob (p2) 0:30 +2:00.",
        ]
        # The game takes private moves: each player was told where they go before the start.
        for user in (world.alice, world.bob):
            hello = fake.messages(fake.dm_channel(user))[0]
            assert "Private moves of that match go here" in hello.content

        # A tile typed in the room is refused there, with the game's reason, and not played.
        mark = fake.mark()
        await fake.user_says(world.room, world.alice, "play 4")
        refusal = await fake.wait_for_message(world.room, since=mark)
        assert refusal.content == (
            "alice (p1): Send your tile to me privately (by direct message), not in the game room: tiles are sealed."
        )
        assert (await bot.host.load(1)).game.view()["played"] == {"p1": False, "p2": False}

        boards = [first]
        for number, (a, b) in enumerate(ROUNDS, start=1):
            mark = fake.mark()
            await fake.dm(world.alice, f"play {a}")
            ack = await fake.wait_for_message(
                fake.dm_channel(world.alice), predicate=lambda m: m.content.startswith("Taken"), since=mark
            )
            assert ack.content == f"Taken: play {a}."
            board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
            assert is_png_board(board) and board.content.startswith("alice has played a tile.\n")
            mark = fake.mark()
            await fake.dm(world.bob, f"play {b}")
            board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
            assert is_png_board(board) and board.content.startswith(f"Round {number}: alice played ")
            boards.append(board)
        assert boards[1].content.startswith(
            "Round 1: alice played black, bob played black; bob wins the round. Score: alice 0, bob 1.\n"
        )
        final = boards[-1]
        assert final.content.split("\n") == [
            "Round 9: alice played white, bob played black; alice wins the round. Score: alice 5, bob 3.",
            "The tiles, round by round: alice 4 8 0 7 3 2 6 5 1; bob 6 7 8 5 3 4 2 1 0.",
            "Result: alice (p1) wins. alice won 5 rounds to 3.",
        ]
        # Until the reveal the room was never told a tile's number: only colours and scores.
        said = [m.content for m in fake.messages(world.room) if m.author.id == fake.bot_user.id]
        before_the_end = said[: said.index(final.content)]
        # (the prompt's own example, "such as play 4", says nothing of a tile).
        leaks = [t for t in before_the_end if "Taken" in t or re.search(r"play [0-8]", t.replace("such as play 4", ""))]
        assert leaks == []
        await handled()
        game = (await bot.host.load(1)).game
        outcome = game.outcome()
        assert outcome is not None and outcome.winner == "p1" and outcome.termination == "points"
