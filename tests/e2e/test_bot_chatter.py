"""Table talk in a game room on the fake Discord, through the real bot: short chatter from either
player ("gg", "nice move") is ignored without a reply and changes nothing, while a coordinate, a
word of the game's notation (or a typo of one), a command's name, and anything the seat asked to
choose types are answered; full-width text (Ｈ８) is read as the ASCII it stands for."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import World
from tests.fakediscord import FakeUser

CHATTER = ("gg", "lol", "hello", "nice move")


async def bot_lines(world: World, say: list[tuple[FakeUser, str]], last: str) -> list[str]:
    """What the bot says in the room while the players say ``say``, up to its answer ``last``
    (which the last message must get: the bot reads the room in order, so nothing it said to
    the ones before can come after it)."""
    fake = world.fake
    mark, seen = fake.mark(), len(fake.messages(world.room))
    for user, text in say:
        await fake.user_says(world.room, user, text)
    await fake.wait_for_message(world.room, predicate=lambda m: m.content == last, since=mark)
    return [m.content for m in fake.messages(world.room)[seen:] if m.author.id == fake.bot_user.id]


@pytest.mark.slow
async def test_short_chatter_from_either_player_gets_no_reply_and_changes_nothing(world: World) -> None:
    async with world.running() as bot:
        await world.start("tictacfive", seed=7)
        live = bot.host.matches[1]
        before = (live.version, live.game.to_dict())
        talk = [(user, text) for text in CHATTER for user in (world.alice, world.bob)]  # alice is to move
        # The waiting player's coordinate is still a move attempt, answered.
        not_yours = "bob (p2): It is not your turn; waiting for alice."
        assert await bot_lines(world, [*talk, (world.bob, "H8")], not_yours) == [not_yours]
        # A command's name is answered with its slash command.
        hint = "alice (p1): to resign, use /resign."
        assert await bot_lines(world, [*talk, (world.alice, "resign")], hint) == [hint]
        assert (live.version, live.game.to_dict()) == before

        # Full-width, as a Korean or Japanese keyboard types it: Ｈ８ is H8; ｇｇ is still talk.
        wide_talk = [(world.bob, "ｇｇ"), (world.alice, "ｎｉｃｅ　ｍｏｖｅ")]
        assert await bot_lines(world, [*wide_talk, (world.bob, "Ｈ８")], not_yours) == [not_yours]
        await world.say(world.alice, "Ｈ８")
        assert live.game.to_dict()["state"]["stones"] == [["H8", "black"]]
        for point in ("H9", "I8"):
            await world.say(world.alice, point)
        await world.fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
        )
        # At the colour choice, whatever bob (asked to choose) types is answered with what to
        # type: a typo, a wrong word, talk; alice's talk is still talk.
        before = (live.version, live.game.to_dict())
        alice_talk = [(world.alice, text) for text in CHATTER]
        for said in ("blakc", "purple", "gg"):
            answer = f"bob (p2): '{said}' is not a colour; type black or white."
            assert await bot_lines(world, [*alice_talk, (world.bob, said)], answer) == [answer]
        assert (live.version, live.game.to_dict()) == before
        assert live.game.view()["phase"] == "choice"


async def test_a_word_of_the_games_notation_is_answered_where_the_game_has_it(world: World) -> None:
    async with world.running() as bot:
        # All Hands On Deck answers the Override with "pass"; Tic-Tac-Five has no such word.
        assert (await world.start("allhands", seed=4, clock="none")).startswith("Match #1")
        live = bot.host.matches[1]
        before = (live.version, live.game.to_dict())
        talk = [(user, text) for text in CHATTER for user in (world.alice, world.bob)]
        told = "bob (p2): The grid is on show: memorize it. Moves are taken once it is hidden."
        assert await bot_lines(world, [*talk, (world.bob, "pass")], told) == [told]
        assert (live.version, live.game.to_dict()) == before
