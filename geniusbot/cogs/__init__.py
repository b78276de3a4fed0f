"""The bot's cogs: thin adapters from Discord events to the match host.

Each cog module ends in ``async def setup(bot)``. This package module holds what several cogs
share: who may host, and the option syntax of ``/start``. What the console needs as well lives
in the host: the chatter test for room messages (:mod:`geniusbot.host.chatter`) and the choices
a game offers (:mod:`geniusbot.host.offers`); ``cogs/choices.py`` draws those as buttons.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot

# "key=" starts a new option in /start's options text; values may hold spaces, commas, semicolons.
_OPTION_START = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)\s*=")


def bot_of(interaction_or_client: Any) -> GeniusBot:
    """The :class:`~geniusbot.bot.GeniusBot` behind an interaction (or a client)."""
    bot: GeniusBot = getattr(interaction_or_client, "client", interaction_or_client)
    return bot


def parse_options(text: str | None) -> dict[str, str]:
    """``"setup=red C3 F6; blue F3 C6 dmo=p1"`` as ``{"setup": "red C3 F6; blue F3 C6", "dmo": "p1"}``.

    Each ``name=`` starts a new option, so a value may contain spaces, commas and semicolons.
    Raises :class:`ValueError` with a sentence for text that names no option.
    """
    text = (text or "").strip()
    if not text:
        return {}
    starts = list(_OPTION_START.finditer(text))
    if not starts or text[: starts[0].start()].strip():
        raise ValueError(f"Write the options as name=value pairs, such as 'setup=red C3 F6; blue F3 C6', not {text!r}.")
    options: dict[str, str] = {}
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        options[match.group(1).lower()] = text[match.end() : end].strip()
    return options


async def host_refusal(interaction: discord.Interaction, what: str) -> str | None:
    """Why the user may not ``what`` (start, pause...) a match here, or ``None`` if they may.

    Members with Manage Server may always; otherwise the guild's host role (``/setup``) is needed.
    """
    bot = bot_of(interaction)
    member = interaction.user
    if interaction.guild is None or not isinstance(member, discord.Member):
        return "Matches are hosted in a server; use this command there."
    if interaction.permissions.manage_guild or member.guild_permissions.manage_guild:
        return None
    assert bot.store is not None
    config = await bot.store.get_guild_settings(interaction.guild.id)
    if config.host_role_id is None:
        return (
            f"Only members with the Manage Server permission can {what} a match here until an admin "
            "names a host role with /setup."
        )
    if any(role.id == config.host_role_id for role in member.roles):
        return None
    role = interaction.guild.get_role(config.host_role_id)
    name = f"the {role.name} role" if role else "the host role"
    return f"Only members with {name} (or Manage Server) can {what} a match; ask one of them."
