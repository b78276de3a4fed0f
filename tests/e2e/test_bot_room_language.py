"""A server's rooms speak the language ``/setup language`` chose (by default the server's preferred
locale where a catalogue has it, else ``GENIUSBOT_LANGUAGE``), and a match keeps the language it
started in: its room's posts, its boards' captions and pictures' alt text, its result line and its
players' DMs, across a restart and a later change of the setting. Ephemeral answers stay in the
member's own language.

The catalogues are the test's own (a ``qps`` folder makes the pseudo-language one of
``/setup language``'s choices; a ``ko`` one of two entries), found where the bot looks for
geniusbot's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from geniusbot.config import Settings
from geniusbot.words import render as words_render, unsaid
from tests.e2e.botworld import TestBot, World, ephemeral_answer
from tests.fakediscord import FakeChannel, FakeMessage

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: {language}\\n"\n'

KOREAN_PO = (
    HEADER.format(language="ko")
    + """
msgid "Match #{id}: {game}, {players}. Clock: {clock}."
msgstr "{id}번 경기: {game}, {players}. 시계: {clock}."
"""
)


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """geniusbot's catalogues are the test's: ``qps`` (empty: the pseudo-language needs none) and ``ko``."""
    root = tmp_path / "locales"
    for language, text in (("qps", HEADER.format(language="qps")), ("ko", KOREAN_PO)):
        folder = root / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "geniusbot.po").write_text(text, encoding="utf-8")
    real = words_render.locales
    monkeypatch.setattr(words_render, "locales", lambda domain: root if domain == "geniusbot" else real(domain))
    words_render.catalogue.cache_clear()
    yield
    words_render.catalogue.cache_clear()


def texts_of(message: FakeMessage) -> list[str]:
    """Every text a reader of ``message`` reads: its content, its pictures' alt text, its embeds'
    and its card's texts (a button's label is the game's own notation, and is left out)."""
    texts = [message.content, *(a.description or "" for a in message.attachments)]
    texts += [str(embed.get(key) or "") for embed in message.embeds for key in ("title", "description")]

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 10:  # a text display
                texts.append(str(item.get("content") or ""))
            walk(item.get("components") or [])
            if isinstance(item.get("accessory"), dict):
                walk([item["accessory"]])

    walk(message.components)
    return [t for t in texts if t]


def only_catalogue_words(world: World, channel: FakeChannel) -> list[str]:
    """What the bot posted in ``channel`` (its public messages; the ephemeral answers aside) that
    did not come from a message: text outside the pseudo-language's brackets with letters in it."""
    found = []
    for message in world.fake.messages(channel):
        if message.author.id != world.fake.bot_user.id or message.ephemeral:
            continue
        for text in texts_of(message):
            rest = unsaid(text)
            if re.search(r"[^\W\d_]|[⟦⟧]", rest):
                found.append(f"{rest!r} in {text!r}")
    return found


async def setup(world: World, **options: object) -> str:
    interaction = await world.fake.slash(world.owner, world.guild, world.room, "setup", options)
    return await ephemeral_answer(world, interaction)


@pytest.mark.slow
async def test_a_room_set_to_the_pseudo_language_speaks_it_for_the_whole_match(world: World, catalogues: None) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert bot.language == "en"
        # /setup's answer is the owner's alone: in the owner's language; it says the rooms' one.
        assert (await setup(world, language="qps")).endswith(
            "The rooms speak the language qps; a match keeps the one it started in."
        )
        assert (await world.start("decks", clock="none")).startswith("Match #1 has started")  # ephemeral: English
        assert bot.host is not None and bot.host.matches[1].language == "qps"
        heading = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert heading.content.startswith("⟦Ḿáţçĥ #1: ")
        # A private move, a refusal to a seat (both by DM).
        await fake.dm(world.alice, "create 50")
        await fake.wait_for_message(fake.dm_channel(world.alice), predicate=lambda m: "50" in m.content)
        mark = fake.mark()
        await fake.dm(world.bob, "create nonsense")
        refusal = await fake.wait_for_message(fake.dm_channel(world.bob), since=mark)
        assert refusal.content.startswith("⟦")
    # A restart: the new process reads the match's language from the store.
    world.time.advance(120)
    mark = fake.mark()
    async with world.running() as bot:
        back = await fake.wait_for_message(world.room, since=mark)
        assert back.content.startswith("⟦")
        assert bot.host is not None and bot.host.matches[1].language == "qps"
        # The room's language changes; the match keeps its own to the end.
        assert (await setup(world, language="en")).endswith(
            "The rooms speak English; a match keeps the one it started in."
        )
        await fake.dm(world.bob, "create 40")
        mark = fake.mark()
        interaction = await fake.slash(world.alice, world.guild, world.room, "resign", {})
        await ephemeral_answer(world, interaction)
        result = await fake.wait_for_message(world.room, predicate=lambda m: "⟦Ŕéśúĺţ" in m.content, since=mark)
        assert result.content
        # Every public post of the match, and every DM of its players, carries catalogue words alone.
        assert not only_catalogue_words(world, world.room)
        for player in (world.alice, world.bob):
            assert fake.messages(fake.dm_channel(player))
            assert not only_catalogue_words(world, fake.dm_channel(player))
        # The next match speaks the room's language now.
        assert (await world.start("tictacfive")).startswith("Match #2 has started")
        assert bot.host.matches[2].language == "en"


async def test_the_server_default_is_its_preferred_locale_where_a_catalogue_has_it(
    world: World, catalogues: None
) -> None:
    world.guild.locale = "ko"
    async with world.running() as bot:
        # The summary is the owner's alone (English); the rooms speak Korean by the server's locale.
        assert (await setup(world)).endswith(
            "The rooms speak 한국어 (ko) (the server's default); a match keeps the one it started in."
        )
        await world.start("tictacfive", clock="none")
        assert bot.host is not None and bot.host.matches[1].language == "ko"
        board = await world.fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert board.content.startswith("1번 경기: Tic-Tac-Five, alice (p1)")


async def test_a_server_whose_locale_has_no_catalogue_speaks_the_bots_language(world: World, catalogues: None) -> None:
    world.guild.locale = "fr"
    settings = Settings(_env_file=None, database_url=world.db_url, geniusbot_language="qps")  # type: ignore[call-arg]
    async with world.running(TestBot(settings, time=world.time, guild_ready_timeout=0.01)) as bot:
        await world.start("tictacfive", clock="none")
        assert bot.host is not None and bot.host.matches[1].language == "qps"
        board = await world.fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert board.content.startswith("⟦Ḿáţçĥ #1: ")
        # "server default" again after a choice: the bot's language once more.
        assert "(ko)" in (await setup(world, language="ko"))
        assert "(" in (await setup(world, language="default"))
        assert await bot.rooms.of(bot.get_guild(world.guild.id)) == "qps"


async def test_setup_offers_english_the_catalogues_and_the_server_default(world: World, catalogues: None) -> None:
    async with world.running():
        setup_command = world.fake.find_command("setup", world.guild)
        assert setup_command is not None
        [language] = [o for o in setup_command.data["options"] if o["name"] == "language"]
        assert [(c["name"], c["value"]) for c in language["choices"]] == [
            ("the server's default", "default"),
            ("English", "en"),
            ("한국어 (ko)", "ko"),
            ("the language qps", "qps"),
        ]


async def test_a_choice_in_the_room_is_offered_and_closed_in_the_matchs_language(
    world: World, catalogues: None
) -> None:
    fake = world.fake
    async with world.running():
        await setup(world, language="qps")
        await world.start("tictacfive", clock="none")
        for point in ("H8", "H9", "I8"):
            await world.say(world.alice, point)
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
        )
        assert choice.content.startswith("⟦")
        pressed = await fake.click(world.bob, choice, "gb:choice:1:p2:white")
        await fake.wait_for_response(pressed)
        closed = await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        assert closed.content.startswith("⟦") and "white" in closed.content
        await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments) and m.id > closed.id)
        assert not only_catalogue_words(world, world.room)


async def test_a_record_played_on_in_a_room_speaks_the_rooms_language(world: World, catalogues: None) -> None:
    from tests.e2e.test_bot_import import RECORDS, import_file

    fake = world.fake
    async with world.running() as bot:
        await setup(world, language="qps")
        text = (RECORDS / "tictacfive-unfinished.txt").read_bytes()
        await ephemeral_answer(world, await import_file(world, "u.txt", text, first=world.alice, second=world.bob))
        assert bot.store is not None and (await bot.store.get_match(1)).language == "qps"
        await ephemeral_answer(world, await fake.slash(world.owner, world.guild, world.room, "resume", {"match": 1}))
        board = await world.say(world.alice, "J9")
        assert board.content.startswith("⟦")
        assert not only_catalogue_words(world, world.room)
