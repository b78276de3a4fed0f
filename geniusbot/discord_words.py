"""The slash commands' own words in each member's language: every command's description, every
option's description and every choice's name is a message (:func:`described`), and Discord is
given its translation for each locale the catalogues have (:class:`CatalogueTranslator`,
discord.py's ``app_commands.Translator``), so a member whose client speaks Korean reads the
commands in Korean. The commands' names stay as they are, so that ``/start`` is ``/start`` in every
document and every hint."""

from __future__ import annotations

import discord
from discord import app_commands

from geniusbot.words import Message, Words
from geniusbot.words.render import catalogue

#: Discord's limit on a description and on a choice's name.
DESCRIPTION_CHARS = 100


def fitted(text: str) -> str:
    """``text`` cut to Discord's 100 characters, with an ellipsis where it is cut."""
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1].rstrip(" ,;:") + "…"


def described(message: Message) -> app_commands.locale_str:
    """A command's, option's or choice's text as a message: its English as Discord shows it by
    default, the message itself for the translator."""
    return app_commands.locale_str(fitted(Words()(message)), said=message)


def has_catalogue(domain: str, language: str) -> bool:
    """Whether ``language`` (a Discord locale such as ``ko`` or ``en-US``) has a catalogue of ``domain``."""
    return catalogue(domain, language) is not None


class CatalogueTranslator(app_commands.Translator):
    """Translates what :func:`described` marked, for each Discord locale a catalogue has; anything
    else (a text not marked, a locale with no catalogue) is left to Discord's default, English."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        said = string.extras.get("said")
        language = locale.value
        if not isinstance(said, Message) or not has_catalogue(said.domain, language):
            return None
        text = fitted(Words(language)(said))
        return text if text != string.message else None
