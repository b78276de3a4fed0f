"""The options of the match commands as Discord shows them: the games offered by autocomplete
(every installed game, past Discord's 25 by typing), the rule sets, and the options' descriptions,
each within Discord's limit."""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands

from geniusbot.discord_words import described
from geniusbot.games import Game, GameError, get_game, registry
from geniusbot.words import Verbatim, say_c

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


def describe_dmo() -> app_commands.locale_str:
    """/start's ``dmo`` option, in the words of the games that take it (from the registry)."""
    takers = [cls for cls in registry().values() if "dmo" in cls.options]
    if not takers:
        return described(say_c("slash option", "which player is the DMO (no installed game takes one)"))
    titles = Verbatim(", ".join(cls.title for cls in takers))
    return described(
        say_c("slash option", "{titles}: which player is the DMO and chooses colour and order", titles=titles)
    )


def describe_variant() -> app_commands.locale_str:
    """/start's ``variant`` option: the rule sets of the games that have several (from the registry)."""
    several = [f"{cls.title}: {', '.join(cls.variants)}" for cls in registry().values() if len(cls.variants) > 1]
    if not several:
        return described(say_c("slash option", "the rule set"))
    return described(say_c("slash option", "the rule set ({rule_sets})", rule_sets=Verbatim("; ".join(several))))


#: What /start and /practice say of the options they share (Discord allows 100 characters each).
DESCRIBE_SEED = described(
    say_c("slash option", "the match seed (default: random); the same seed gives the same pre-placed stones")
)
DESCRIBE_CLOCK = described(
    say_c("slash option", "time control, such as 60s, 60s+5m, 90s+5m/10s, 5x60s or none (default: the game's)")
)
DESCRIBE_ROOM = described(say_c("slash option", "the game room (default: this channel)"))
DESCRIBE_OPTIONS = described(
    say_c("slash option", "more game options as name=value, such as setup=red C3 F6; blue F3 C6")
)

SEAT_CHOICES = [
    app_commands.Choice(name=described(say_c("slash choice", "the first player")), value="p1"),
    app_commands.Choice(name=described(say_c("slash choice", "the second player")), value="p2"),
]
