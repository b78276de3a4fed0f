"""``geniusbot db upgrade``: migrate the database to the newest schema.

The migrations themselves are the storage's (:func:`geniusbot.storage.db.upgrade`); this is the
command that runs them and says what it did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words.parser import SaidCommands

import sys
from typing import Any


def add_parser(commands: SaidCommands) -> None:
    """Add ``db`` and its ``upgrade`` to the launcher's sub-commands."""
    from geniusbot.words import say

    db = commands.add_parser(
        "db",
        help=commands.said_help(say("manage the database")),
        description=commands.said(say("Manage the bot's database.")),
    )
    db_commands = db.add_subparsers(
        dest="db_command", metavar="DB_COMMAND", title=db.said(say("database commands")), required=True
    )
    upgrade = db_commands.add_parser(
        "upgrade",
        help=db_commands.said_help(say("migrate the database to the newest schema")),
        description=(
            db_commands.said(
                say(
                    "Run the database migrations on DATABASE_URL (default: a SQLite file in the data "
                    "directory). Safe to repeat: an up-to-date database is left as it is. Exit 0 when the "
                    "database is up to date, 2 when it could not be reached or migrated (the message says "
                    "why), 130 when stopped by Ctrl-C."
                )
            )
        ),
    )
    upgrade.add_argument(
        "--url", help=upgrade.said_help(say("the database URL to migrate instead of the DATABASE_URL setting"))
    )
    upgrade.add_argument(
        "--revision", default="head", help=upgrade.said_help(say("the revision to migrate to (default: head)"))
    )
    upgrade.set_defaults(handler="geniusbot.commands.db:upgrade_command")


async def upgrade_command(args: Any) -> int:
    """``geniusbot db upgrade``: migrate the database of ``DATABASE_URL`` to the newest schema.

    Exit 0 when the database is up to date, 2 when the URL is not one or the database could not
    be reached or migrated (the launcher's exit code for what the user can fix, as ``run`` and
    ``play`` give), 130 when stopped by Ctrl-C (the launcher says so).
    """
    from geniusbot.storage.db import checked_url, current_revision, integrity_problem, safe_url, upgrade
    from geniusbot.storage.errors import StorageFault, StorageUnavailable
    from geniusbot.storage.retry import retry_transient
    from geniusbot.words import Message, Verbatim, say

    from . import said_of, words_of

    words = words_of(args)

    def complain(said: Message) -> None:
        print(words(say("{command}: {line}", command=Verbatim("geniusbot"), line=said)), file=sys.stderr)

    given = getattr(args, "url", None)
    revision = getattr(args, "revision", None) or "head"
    try:
        url = checked_url(given or args.settings.database_url, "--url" if given else "DATABASE_URL")
    except ValueError as error:
        complain(say("{problem}.", problem=said_of(error)))
        return 2
    where = Verbatim(safe_url(url))
    try:
        # Each step is retried as the store retries its writes: a running bot, or a second
        # upgrade starting at the same moment, may hold SQLite's lock (even a read can meet it,
        # while the other process switches a new file to WAL).
        reading = say("reading the schema's revision")
        before = await retry_transient(lambda _state: current_revision(url), what=reading)
        await retry_transient(lambda _state: upgrade(url, revision), what=say("upgrading the schema"))
        after = await retry_transient(lambda _state: current_revision(url), what=reading)
        damage = await retry_transient(lambda _state: integrity_problem(url), what=say("checking the database"))
        if damage is not None:
            raise StorageFault("damaged", damage)
    except StorageFault as fault:  # a full disk, a read-only or damaged file: it says what to do
        complain(say("{fault} The database was {url}.", fault=fault.said, url=where))
        return 2
    except Exception as error:  # the message is for whoever runs the command
        # After the retries (each logged), name what kept failing rather than the retry's summary.
        shown: BaseException = error
        if isinstance(error, StorageUnavailable) and error.__cause__ is not None:
            shown = error.__cause__
        complain(
            say(
                "could not upgrade the database at {url} ({error}); check DATABASE_URL and that the database "
                "server is running, then try again.",
                url=where,
                error=Verbatim(f"{type(shown).__name__}: {shown}"),  # the driver's own words
            )
        )
        return 2
    if before == after:
        print(
            words(
                say(
                    "The database at {url} is up to date (revision {revision}).",
                    url=where,
                    revision=Verbatim(str(after)),
                )
            )
        )
    else:
        print(
            words(
                say(
                    "Upgraded the database at {url} from revision {before} to {after}.",
                    url=where,
                    before=Verbatim(before) if before else say("empty"),
                    after=Verbatim(str(after)),
                )
            )
        )
    return 0
