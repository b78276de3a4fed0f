"""The language a server's rooms speak: ``/setup language`` chooses it among the languages the
bot speaks (English and each of geniusbot's catalogues); unset, it is the server's preferred
locale (Discord's ``guild.preferred_locale``) where a catalogue has it, else the bot's own
(``GENIUSBOT_LANGUAGE``). A match keeps the language of its room as it started (see
``docs/bot.md``, "Languages")."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from geniusbot.storage import StorageError
from geniusbot.words import DOMAIN, ENGLISH, Message, Verbatim, render, say, say_c
from geniusbot.words.render import catalogue, languages

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from geniusbot.storage import GuildConfig

#: The value of ``/setup language``'s choice "the server's own" (no language set).
SERVER_DEFAULT = "default"


def catalogue_languages(domain: str = DOMAIN) -> tuple[str, ...]:
    """The languages ``domain`` (geniusbot's own by default) has a catalogue of, as Discord writes
    a locale (``ko``, ``pt-BR``), in order."""
    folder = render.locales(domain)
    if folder is None:
        return ()
    found = (path.name for path in folder.iterdir() if (path / "LC_MESSAGES" / f"{domain}.po").is_file())
    return tuple(sorted(name.replace("_", "-") for name in found))


def room_languages() -> tuple[str, ...]:
    """What ``/setup language`` offers: English, then each language geniusbot has a catalogue of."""
    return (ENGLISH, *(code for code in catalogue_languages() if languages(code)[-1] != ENGLISH))


def has_catalogue(language: str | None) -> bool:
    """Whether geniusbot has a catalogue of ``language`` (a Discord locale; English has none)."""
    return bool(language) and catalogue(DOMAIN, str(language)) is not None


def room_language(chosen: str | None, preferred: str | None, default: str) -> str:
    """The language a server's rooms speak: the one ``/setup`` chose; else the server's
    ``preferred`` locale where a catalogue has it; else ``default`` (the bot's)."""
    if chosen:
        return chosen
    if preferred and has_catalogue(preferred):
        return preferred
    return default


def language_said(language: str) -> Message:
    """A language named as it names itself, with its code: "한국어 (ko)", "English"."""
    if languages(language)[-1] == ENGLISH:
        return say_c("language", "English")
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(language, sep="-").get_display_name() or ""
    except (UnknownLocaleError, ValueError):
        name = ""
    if not name:
        return say_c("language", "the language {code}", code=Verbatim(language))
    return say_c("language", "{name} ({code})", name=Verbatim(name), code=Verbatim(language))


def rooms_speak(config: GuildConfig, language: str) -> Message:
    """/setup's sentence on the rooms' language (``language``: the one they speak now)."""
    if config.language:
        return say("The rooms speak {language}; a match keeps the one it started in.", language=language_said(language))
    return say(
        "The rooms speak {language} (the server's default); a match keeps the one it started in.",
        language=language_said(language),
    )


class RoomLanguages:
    """Each server's rooms' language, read from the store once and kept (``/setup`` tells this of
    a change, :meth:`changed`). ``settings(guild_id)`` reads a server's settings; ``default()``
    is the bot's language."""

    def __init__(self, settings: Callable[[int], Awaitable[GuildConfig] | None], default: Callable[[], str]) -> None:
        self.settings = settings
        self.default = default
        self._chosen: dict[int, str | None] = {}

    async def of(self, guild: Any) -> str:
        """The language ``guild``'s rooms speak (a discord.py guild: its ``id`` and
        ``preferred_locale``; ``None``, a DM: the bot's). A store that cannot be read now gives
        the server's default (logged), read again next time."""
        if guild is None:
            return self.default()
        preferred = str(getattr(guild.preferred_locale, "value", guild.preferred_locale) or "")
        if guild.id not in self._chosen:
            reading = self.settings(guild.id)
            if reading is None:
                return room_language(None, preferred, self.default())
            try:
                self._chosen[guild.id] = (await reading).language
            except StorageError as error:  # never worth a failed answer or a match not started
                log.warning("the language of server %s cannot be read now: %s", guild.id, error)
                return room_language(None, preferred, self.default())
        return room_language(self._chosen[guild.id], preferred, self.default())

    def changed(self, config: GuildConfig) -> None:
        """A server's settings were saved: its language follows."""
        self._chosen[config.guild_id] = config.language
