"""Words as data: what the bot says is a :class:`Message` (an English template that is its id in
the catalogues, and typed arguments), made into text in one place, :class:`Words`, for a language
and a match's players. ``docs/words.md`` says how a message is written and how a language is added.

:mod:`geniusbot.words.message` is the standard library only (a game's rules make messages);
:mod:`geniusbot.words.render` reads catalogues with Babel, imported only when a language other
than English is asked for.
"""

from .message import (
    DOMAIN,
    Argument,
    Listing,
    Message,
    Seat,
    Verbatim,
    fields,
    joined,
    listed,
    say,
    say_c,
    say_n,
    say_nc,
)
from .render import ENGLISH, PSEUDO, Words, pseudo, spoken_names, unsaid

__all__ = [
    "DOMAIN",
    "ENGLISH",
    "PSEUDO",
    "Argument",
    "Listing",
    "Message",
    "Seat",
    "Verbatim",
    "Words",
    "fields",
    "joined",
    "listed",
    "pseudo",
    "say",
    "say_c",
    "say_n",
    "say_nc",
    "spoken_names",
    "unsaid",
]
