"""The options of the match commands as Discord shows them: the games offered by autocomplete
(every installed game, past Discord's 25 by typing), the rule sets, and the options' descriptions,
each within Discord's limit."""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands

from geniusbot.games import Game, GameError, get_game, registry

#: Discord's limit on the choices an option offers at once (typing narrows them).
MAX_CHOICES = 25


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    """The installed games whose title or name holds ``current`` (any case), as a ``game`` option
    offers them while it is typed: every installed game is found by typing, however many there
    are; Discord shows the first :data:`MAX_CHOICES`."""
    typed = current.strip().lower()
    found = [
        app_commands.Choice(name=cls.title, value=name)
        for name, cls in registry().items()
        if typed in name.lower() or typed in cls.title.lower()
    ]
    return found[:MAX_CHOICES]


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """A ``game`` option's autocomplete (/start, /practice, /rules, /replay): see :func:`game_choices`."""
    return game_choices(current)


def variants_of(chosen: str | None) -> list[type[Game]]:
    """The game classes whose rule sets a ``variant`` option offers: the game chosen so far, or
    every game while none (or no installed one) is."""
    if chosen:
        with contextlib.suppress(GameError):
            return [get_game(chosen)]
    return list(registry().values())


#: Discord's limit on an option's description.
DESCRIPTION_CHARS = 100


def _fitted(text: str) -> str:
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1].rstrip(" ,;:") + "…"


def describe_dmo() -> str:
    """/start's ``dmo`` option, in the words of the games that take it (from the registry)."""
    takers = [cls for cls in registry().values() if "dmo" in cls.options]
    if not takers:
        return "which player is the DMO (no installed game takes one)"
    titles = ", ".join(cls.title for cls in takers)
    return _fitted(f"{titles}: which player is the DMO and chooses colour and order")


def describe_variant() -> str:
    """/start's ``variant`` option: the rule sets of the games that have several (from the registry)."""
    several = [f"{cls.title}: {', '.join(cls.variants)}" for cls in registry().values() if len(cls.variants) > 1]
    return _fitted(f"the rule set ({'; '.join(several)})" if several else "the rule set")


#: What /start and /practice say of the options they share (Discord allows 100 characters each).
DESCRIBE_SEED = "the match seed (default: random); the same seed gives the same pre-placed stones"
DESCRIBE_CLOCK = "time control, such as 60s, 60s+5m, 90s+5m/10s, 5x60s or none (default: the game's)"
DESCRIBE_ROOM = "the game room (default: this channel)"
DESCRIBE_OPTIONS = "more game options as name=value, such as setup=red C3 F6; blue F3 C6"

SEAT_CHOICES = [
    app_commands.Choice(name="the first player", value="p1"),
    app_commands.Choice(name="the second player", value="p2"),
]
