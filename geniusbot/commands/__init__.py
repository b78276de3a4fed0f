"""The launcher's sub-commands, one module each: ``geniusbot <command>``.

Each module has ``add_parser(commands)``, which adds its parser to the launcher's and names its
handler ``"geniusbot.commands.<module>:<function>"``, and the handler, which takes the parsed
``argparse.Namespace`` and returns the exit code (or a coroutine that does). A module imports
nothing but the standard library's ``argparse`` at its top: the launcher imports every one of
them to build its parser, and a handler imports what its command uses when it runs (so
``geniusbot adjudicate`` never loads discord.py, SQLAlchemy or pydantic; bench/bench_startup.py).

This is the top floor (``tests/test_layers.py``): a command may import any layer below it (the
front ends, the host, the storage, the games, the settings); nothing below imports a command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from geniusbot.storage import Store
    from geniusbot.words import Message, Verbatim, Words

#: Exit code for a command that could not do its work because of its input (bad file, bad settings).
EXIT_USAGE = 2
#: Exit code for an unexpected error (a bug; the launcher says so in one line).
EXIT_ERROR = 1
#: Exit code for a command stopped by Ctrl-C (SIGINT), as a shell reports it.
EXIT_INTERRUPTED = 130
#: Exit code for a command whose standard output was closed by its reader (``| head``): 128 +
#: SIGPIPE, what a shell reports for a Unix tool the closed pipe stopped. Nothing is said.
EXIT_PIPE_CLOSED = 141


def language_of(args: argparse.Namespace) -> str:
    """The language a command speaks: its ``--language``, else the settings' GENIUSBOT_LANGUAGE
    (read by the launcher from the environment or .env, for a command that reads no settings),
    else English."""
    given = getattr(args, "language", None)
    if given:
        return str(given)
    settings = getattr(args, "settings", None)
    if settings is not None:
        return str(getattr(settings, "geniusbot_language", None) or "en")
    # A command that reads no settings: the launcher read this one lightly (the environment, .env).
    light = getattr(args, "language_setting", None)
    return str(light or os.environ.get("GENIUSBOT_LANGUAGE", "").strip() or "en")


def words_of(args: argparse.Namespace) -> Words:
    """The words of a command: :func:`language_of` its arguments."""
    from geniusbot.words import Words

    return Words(language_of(args))


def said_of(error: BaseException) -> Message:
    """What an error says: its ``said`` (a message) where it has one, else its text as it is
    (an error from a part whose words are quoted as they are: the settings')."""
    from geniusbot.words import Message, Verbatim, say

    said = getattr(error, "said", None)
    return said if isinstance(said, Message) else say("{text}", text=Verbatim(str(error)))


def one_line(said: Message, words: Words) -> Verbatim:
    """``said`` in ``words``, on one line (a game's message inside a record's refusal may hold
    line breaks): for a complaint that is one line."""
    from geniusbot.words import Verbatim

    return Verbatim(" ".join(words(said).split()))


def complainer(command: str, args: argparse.Namespace) -> Callable[[Message], None]:
    """What says a command's complaint: ``geniusbot <command>: <the message>`` on standard
    error, in the command's language."""
    from geniusbot.words import Verbatim, say

    words = words_of(args)

    def complain(said: Message) -> None:
        print(words(say("{command}: {line}", command=Verbatim(f"geniusbot {command}"), line=said)), file=sys.stderr)

    return complain


async def open_store(url: str, complain: Callable[[Message], None], *, after: Message | None = None) -> Store | None:
    """The store at ``url``, or ``None`` once ``complain`` has told why it cannot be used and what
    to check (``after``: what the command adds, such as "Nothing was imported.")."""
    from geniusbot.storage import StorageUnavailable, Store
    from geniusbot.words import Verbatim, say

    said: Message
    try:
        return await Store.open(url)
    except StorageUnavailable as error:  # it says what failed and what to do; name the URL too
        said = say("{error} The database was {url}.", error=error.said, url=Verbatim(repr(url)))
    except Exception as error:  # a bad URL, a schema it does not know
        said = say(
            "the database {url} cannot be opened ({error}); check DATABASE_URL or --db.",
            url=Verbatim(repr(url)),
            error=Verbatim(str(error)),
        )
    complain(said if after is None else say("{line} {after}", line=said, after=after))
    return None
