"""Which language a server's rooms speak (:mod:`geniusbot.languages`): the one ``/setup`` chose,
else the server's preferred locale where geniusbot has a catalogue of it, else the bot's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from geniusbot.languages import RoomLanguages, catalogue_languages, language_said, room_language, room_languages
from geniusbot.storage import GuildConfig, StorageUnavailable
from geniusbot.words import Words, render as words_render


@pytest.fixture
def korean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """geniusbot has a catalogue of Korean (and of Brazilian Portuguese), and of nothing else."""
    for code in ("ko", "pt_BR"):
        folder = tmp_path / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "geniusbot.po").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    (tmp_path / "fr").mkdir()  # a folder with no catalogue in it
    real = words_render.locales
    monkeypatch.setattr(words_render, "locales", lambda domain: tmp_path if domain == "geniusbot" else real(domain))
    words_render.catalogue.cache_clear()
    yield
    words_render.catalogue.cache_clear()


def test_the_languages_offered_are_english_and_the_catalogues(korean: None) -> None:
    assert catalogue_languages() == ("ko", "pt-BR")
    assert room_languages() == ("en", "ko", "pt-BR")


def test_the_chosen_language_then_the_servers_where_a_catalogue_has_it_then_the_bots(korean: None) -> None:
    assert room_language("ko", "fr", "en") == "ko"
    assert room_language(None, "ko", "qps") == "ko"
    assert room_language(None, "pt-BR", "en") == "pt-BR"
    assert room_language(None, "fr", "qps") == "qps"  # no catalogue of French
    assert room_language(None, "en-US", "ko") == "ko"  # English is every server's default, no choice
    assert room_language(None, None, "en") == "en"


def test_a_language_is_named_as_it_names_itself() -> None:
    english = Words()
    assert english(language_said("en")) == english(language_said("en-GB")) == "English"
    assert english(language_said("ko")) == "한국어 (ko)"
    assert english(language_said("qps")) == "the language qps"


@dataclass
class Guild:
    id: int
    preferred_locale: str


async def test_a_servers_choice_is_read_once_and_follows_setup(korean: None) -> None:
    reads: list[int] = []
    down = False

    async def settings(guild_id: int) -> GuildConfig:
        reads.append(guild_id)
        if down:
            raise StorageUnavailable("away")
        return GuildConfig(guild_id, language="pt-BR")

    rooms = RoomLanguages(settings, lambda: "en")
    assert await rooms.of(None) == "en"  # a DM: the bot's
    assert await rooms.of(Guild(1, "ko")) == "pt-BR"
    assert await rooms.of(Guild(1, "ko")) == "pt-BR" and reads == [1]
    rooms.changed(GuildConfig(1))
    assert await rooms.of(Guild(1, "ko")) == "ko"
    down = True
    assert await rooms.of(Guild(2, "fr")) == "en"  # not read: the server's default, read again next time
    down = False
    assert await rooms.of(Guild(2, "fr")) == "pt-BR" and reads == [1, 2, 2]
