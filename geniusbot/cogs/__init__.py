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

from geniusbot.words import Message, Verbatim, Words, say, say_c

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot
    from geniusbot.storage import MatchRecord

# "key=" starts a new option in /start's options text; values may hold spaces, commas, semicolons.
_OPTION_START = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)\s*=")


def bot_of(interaction_or_client: Any) -> GeniusBot:
    """The :class:`~geniusbot.bot.GeniusBot` behind an interaction (or a client)."""
    bot: GeniusBot = getattr(interaction_or_client, "client", interaction_or_client)
    return bot


class OptionsError(ValueError):
    """Options text that names no option; ``said`` says so (``str(error)``: its English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(Words()(said))
        self.said = said


def refusal_words(error: ValueError) -> str | Message:
    """What a refused option (a game's, or /start's options text) says: its message where it is
    one (an :class:`OptionsError`, a :class:`~geniusbot.games.GameError` made of one), else its text."""
    said = getattr(error, "said", None)
    return said if isinstance(said, Message) else str(error)


#: What a host may do to a match, as :func:`host_refusal` names it ("can {act} a match").
HOST_ACTS: dict[str, Message] = {
    "start": say_c("what a host does to a match", "start"),
    "pause": say_c("what a host does to a match", "pause"),
    "resume": say_c("what a host does to a match", "resume"),
    "abort": say_c("what a host does to a match", "abort"),
    "import": say_c("what a host does to a match", "import"),
}


def parse_options(text: str | None) -> dict[str, str]:
    """``"setup=red C3 F6; blue F3 C6 dmo=p1"`` as ``{"setup": "red C3 F6; blue F3 C6", "dmo": "p1"}``.

    Each ``name=`` starts a new option, so a value may contain spaces, commas and semicolons.
    Raises :class:`OptionsError` (a :class:`ValueError`) with a sentence for text that names no option.
    """
    text = (text or "").strip()
    if not text:
        return {}
    starts = list(_OPTION_START.finditer(text))
    if not starts or text[: starts[0].start()].strip():
        raise OptionsError(
            say(
                "Write the options as {form} pairs, such as {example}, not {text}.",
                form=Verbatim("name=value"),
                example=Verbatim("'setup=red C3 F6; blue F3 C6'"),
                text=Verbatim(repr(text)),
            )
        )
    options: dict[str, str] = {}
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        options[match.group(1).lower()] = text[match.end() : end].strip()
    return options


async def host_refusal(interaction: discord.Interaction, what: str) -> Message | None:
    """Why the user may not ``what`` (start, pause...: a key of :data:`HOST_ACTS`) a match here, or
    ``None`` if they may.

    Members with Manage Server may always; otherwise the guild's host role (``/setup``) is needed.
    """
    bot = bot_of(interaction)
    member = interaction.user
    if interaction.guild is None or not isinstance(member, discord.Member):
        return say("Matches are hosted in a server; use this command there.")
    if interaction.permissions.manage_guild or member.guild_permissions.manage_guild:
        return None
    assert bot.store is not None
    config = await bot.store.get_guild_settings(interaction.guild.id)
    act = HOST_ACTS[what]
    if config.host_role_id is None:
        return say(
            "Only members with the Manage Server permission can {act} a match here until an admin "
            "names a host role with {setup}.",
            act=act,
            setup=Verbatim("/setup"),
        )
    if any(role.id == config.host_role_id for role in member.roles):
        return None
    role = interaction.guild.get_role(config.host_role_id)
    name = say("the {role} role", role=Verbatim(role.name)) if role else say("the host role")
    return say("Only members with {role} (or Manage Server) can {act} a match; ask one of them.", role=name, act=act)


def players_of(record: MatchRecord) -> Verbatim | Message:
    """The players of a recorded match: "alice vs bob" (their display names as they are)."""
    from geniusbot.host.actions import versus

    return versus([Verbatim(s.display_name) for s in record.seats]) if record.seats else Verbatim("")
