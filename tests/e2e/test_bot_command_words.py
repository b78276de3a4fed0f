"""The slash commands' own words are messages (every command's description, every option's
description, every choice's name), and Discord is given their translation for each locale a
catalogue has: a Korean client reads the commands in Korean, the names stay ``/start``."""

from __future__ import annotations

from pathlib import Path

import pytest

from geniusbot.words import Message, render as words_render
from tests.e2e.botworld import World

KOREAN_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: ko\\n"

msgctxt "slash command"
msgid "Start a death match in a game room"
msgstr "게임 방에서 데스매치를 시작합니다"

msgctxt "slash option"
msgid "the player in seat p2"
msgstr "p2 자리의 플레이어"

msgctxt "slash choice"
msgid "the first player"
msgstr "첫 번째 플레이어"

msgid "You do not play in match #{match}; only its players move."
msgstr "#{match} 경기의 플레이어가 아닙니다. 그 경기의 플레이어만 둘 수 있습니다."
"""


def said(text: object) -> bool:
    """Whether a command's text is a message (a locale_str carrying it)."""
    return isinstance(getattr(text, "extras", {}).get("said"), Message)


@pytest.fixture
def korean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Korean catalogue of three entries, where the bot looks for geniusbot's."""
    folder = tmp_path / "locales" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "geniusbot.po").write_text(KOREAN_PO, encoding="utf-8")
    real = words_render.locales
    monkeypatch.setattr(
        words_render, "locales", lambda domain: tmp_path / "locales" if domain == "geniusbot" else real(domain)
    )
    words_render.catalogue.cache_clear()
    yield
    words_render.catalogue.cache_clear()


async def test_every_command_description_option_and_choice_is_a_message(world: World) -> None:
    async with world.running() as bot:
        unsaid = []
        for command in bot.tree.walk_commands():
            if not said(command._locale_description):
                unsaid.append(f"/{command.qualified_name}")
            for param in getattr(command, "_params", {}).values():
                if not said(param.description):
                    unsaid.append(f"/{command.qualified_name} {param.name}")
                unsaid += [
                    f"/{command.qualified_name} {param.name}: {choice.name}"
                    for choice in (param.choices or [])
                    if not said(choice._locale_name)
                ]
        assert not unsaid, unsaid


async def test_a_catalogue_gives_discord_the_commands_in_its_language(world: World, korean: None) -> None:
    async with world.running():
        start = world.fake.find_command("start", world.guild)
        assert start is not None
        assert start.name == "start" and start.data["description"] == "Start a death match in a game room"
        assert start.data["description_localizations"] == {"ko": "게임 방에서 데스매치를 시작합니다"}
        options = {option["name"]: option for option in start.data["options"]}
        assert options["second"]["description_localizations"] == {"ko": "p2 자리의 플레이어"}
        [first] = [c for c in options["dmo"]["choices"] if c["value"] == "p1"]
        assert first["name_localizations"] == {"ko": "첫 번째 플레이어"}
        # A text the catalogue lacks is left to Discord's default, English.
        assert not options["first"].get("description_localizations")


async def test_an_answer_only_its_member_reads_is_in_the_members_language(world: World, korean: None) -> None:
    """An ephemeral answer is said in the member's Discord language where a catalogue has it, in
    English for an English client, and in the bot's language otherwise."""
    from tests.e2e.botworld import ephemeral_answer

    async with world.running():
        await world.start("tictacfive")
        answers = {}
        for locale in ("ko", "en-US", "fr"):
            interaction = await world.fake.slash(
                world.carol, world.guild, world.room, "move", {"move": "H8"}, locale=locale
            )
            answers[locale] = await ephemeral_answer(world, interaction)
        assert answers["ko"] == "#1 경기의 플레이어가 아닙니다. 그 경기의 플레이어만 둘 수 있습니다."
        assert answers["en-US"] == answers["fr"] == "You do not play in match #1; only its players move."
