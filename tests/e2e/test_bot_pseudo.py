"""The Discord front end in the pseudo-language (``GENIUSBOT_LANGUAGE=qps``): every line the cogs
write (slash commands' answers and refusals, the choice message and its answer, /status's list,
/setup's settings, a replay page and its buttons, /record's caption) is said through a message,
so it is bracketed whole; what is left outside the brackets has no letters.

Only the front end's own lines are checked here. The host's lines (the room's "Match #1: ..."
heading, the status line of a match, the result line) are made into messages on their own
branch, and a game's title or a player's name is said as it is (inside a message's brackets)."""

from __future__ import annotations

import re

import pytest

from geniusbot.config import Settings
from geniusbot.words import unsaid
from tests.e2e.botworld import TestBot, World, ephemeral_answer
from tests.fakediscord import FakeMessage

outside = unsaid


def said_by_messages(text: str) -> None:
    """``text`` came wholly from messages: outside their brackets, no letter and no bracket."""
    rest = outside(text)
    assert text and not re.search(r"[^\W\d_]|[⟦⟧]", rest), f"not said by a message: {rest!r} in {text!r}"


def test_outside_strips_nested_messages() -> None:
    assert outside("⟦Ḿáţçĥ #1 ⟦alice ṽś bob⟧⟧\n⟦x⟧: 12") == "\n: 12"
    with pytest.raises(AssertionError):
        said_by_messages("⟦Ŕéśúĺţ⟧ alice wins")


@pytest.mark.slow
async def test_the_front_end_speaks_the_pseudo_language(world: World) -> None:
    fake = world.fake
    settings = Settings(_env_file=None, database_url=world.db_url, geniusbot_language="qps")  # type: ignore[call-arg]
    lobby = fake.create_channel(world.guild, "lobby")
    bot = TestBot(settings, time=world.time, guild_ready_timeout=0.01)

    async def answer(user, name, options=None, channel=None) -> str:  # type: ignore[no-untyped-def]
        interaction = await fake.slash(user, world.guild, channel or world.room, name, options or {})
        return await ephemeral_answer(world, interaction)

    async with world.running(bot):
        assert bot.language == "qps"
        # /setup's settings, and a refusal of /start.
        said_by_messages(await answer(world.owner, "setup", {}))
        said_by_messages(
            await answer(world.owner, "start", {"game": "tictacfive", "first": world.alice, "second": world.alice})
        )

        started = await world.start("tictacfive", seed=7)
        said_by_messages(started)
        assert "#1" in started and f"<#{world.room.id}>" in started

        # The choice message over bob's colour buttons, and its answer once pressed.
        for point in ("H8", "H9", "I8"):
            await world.say(world.alice, point)
        choice: FakeMessage = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
        )
        said_by_messages(choice.content)
        assert "bob (p2)" in choice.content and "black / white" in choice.content
        pressed = await fake.click(world.bob, choice, "gb:choice:1:p2:white")
        await fake.wait_for_response(pressed)
        closed = await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        said_by_messages(closed.content)
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments) and "bob" in m.content)

        # /status where no match runs: the list of running ones; /resign by a bystander, then by a player.
        running = await answer(world.carol, "status", channel=lobby)
        said_by_messages(running)
        assert "Tic-Tac-Five" in running and "alice" in running and "bob" in running
        said_by_messages(await answer(world.carol, "resign"))
        said_by_messages(await answer(world.alice, "resign"))

        # The ended match in the archive: the list, a replay page and its buttons, the record.
        listing = await fake.slash(world.carol, world.guild, world.room, "replay", {})
        said_by_messages(await ephemeral_answer(world, listing))
        picker = await fake.wait_for_followup(listing)
        assert picker.components
        replay = await fake.slash(world.carol, world.guild, world.room, "replay", {"match": 1, "step": 9})
        page = await ephemeral_answer(world, replay)
        for line in page.split("\n"):
            said_by_messages(line)
        page_message = await fake.wait_for_followup(replay)
        labels = [c["label"] for row in page_message.components for c in row.get("components", [])]
        assert len(labels) == 6  # first, previous, next, last, GIF, Analyse
        for label in labels:
            said_by_messages(label)
        record = await fake.slash(world.carol, world.guild, world.room, "record", {"match": 1})
        said_by_messages(await ephemeral_answer(world, record))


@pytest.mark.slow
async def test_moves_without_the_room_and_without_dms_speak_the_pseudo_language(world: World) -> None:
    """/move's answers and refusals, /start's word on a closed DM, the room's Send privately
    offer, the own view it answers with, the form's answer, and a thread's closing line."""
    fake = world.fake
    settings = Settings(_env_file=None, database_url=world.db_url, geniusbot_language="qps")  # type: ignore[call-arg]
    bot = TestBot(settings, time=world.time, guild_ready_timeout=0.01)
    world.bob.dms_open = False

    async def answer(user, name, options=None, channel=None) -> str:  # type: ignore[no-untyped-def]
        interaction = await fake.slash(user, world.guild, channel or world.room, name, options or {})
        return await ephemeral_answer(world, interaction)

    async with world.running(bot):
        said_by_messages(await answer(world.owner, "setup", {"threads": True}))
        started = await world.start("decks")
        said_by_messages(started)
        [thread] = [c for c in world.guild.channels.values() if c.is_thread]
        offer = await fake.wait_for_message(thread, predicate=lambda m: m.component("gb:private:1") is not None)
        said_by_messages(offer.content)
        assert offer.component("gb:private:1")["label"].startswith("⟦")
        pressed = await fake.click(world.bob, offer, "gb:private:1")
        await fake.wait_for_response(pressed)
        mine = await fake.wait_for_followup(pressed)
        said_by_messages(mine.content)
        opened = await fake.click(world.bob, mine, "gb:sealed:1")
        await fake.wait_for_response(opened)
        said_by_messages(await ephemeral_answer(world, await fake.submit_modal(opened, {"move": "create 60"})))
        said_by_messages(await answer(world.alice, "move", {"move": "create 50"}, channel=thread))
        said_by_messages(await answer(world.carol, "move", {"move": "create 50"}, channel=thread))
        said_by_messages(await answer(world.alice, "resign", {}, channel=thread))
        ended = await fake.wait_for_message(world.room, predicate=lambda m: "#1" in m.content and "<#" in m.content)
        said_by_messages(ended.content)
