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

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.storage import Store

#: Exit code for a command that could not do its work because of its input (bad file, bad settings).
EXIT_USAGE = 2
#: Exit code for an unexpected error (a bug; the launcher says so in one line).
EXIT_ERROR = 1
#: Exit code for a command stopped by Ctrl-C (SIGINT), as a shell reports it.
EXIT_INTERRUPTED = 130
#: Exit code for a command whose standard output was closed by its reader (``| head``): 128 +
#: SIGPIPE, what a shell reports for a Unix tool the closed pipe stopped. Nothing is said.
EXIT_PIPE_CLOSED = 141


async def open_store(url: str, say: Callable[[str], None], *, after: str = "") -> Store | None:
    """The store at ``url``, or ``None`` once ``say`` has told why it cannot be used and what to
    check (``after``: what the command adds, such as "Nothing was imported.")."""
    from geniusbot.storage import StorageUnavailable, Store

    tail = f" {after}" if after else ""
    try:
        return await Store.open(url)
    except StorageUnavailable as error:  # it says what failed and what to do; name the URL too
        say(f"{error} The database was {url!r}.{tail}")
    except Exception as error:  # a bad URL, a schema it does not know
        say(f"the database {url!r} cannot be opened ({error}); check DATABASE_URL or --db.{tail}")
    return None
