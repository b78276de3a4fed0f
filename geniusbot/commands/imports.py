"""``geniusbot import FILE [--guild ID] [--db URL]``: a match record stored as an archived match
(:mod:`geniusbot.host.imports` adjudicates and stores it; this says what it did)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words.parser import SaidCommands

import argparse
from pathlib import Path


def add_parser(commands: SaidCommands) -> None:
    """Add ``import`` and its arguments to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "import",
        help=commands.said_help(say("store a match record as an archived match")),
        description=(
            commands.said(
                say(
                    "Adjudicate a match record and, when every line is accepted, store it as a match: "
                    "finished, or paused when the record stops before the end. With --guild it goes to the "
                    "bot's database (DATABASE_URL) as a match of that server; without, to the console's, "
                    "where 'geniusbot play GAME' resumes a paused one. The same record imported twice is "
                    "recognised. Exit 0 when stored (or stored already), 2 when not (unreadable, not "
                    "UTF-8, too large, unknown game, a refused line)."
                )
            )
        ),
    )
    parser.add_argument("file", help=parser.said_help(say("the record file (see README.md, 'The match record')")))
    parser.add_argument(
        "--guild",
        type=int,
        metavar="ID",
        help=parser.said_help(say("the Discord server (guild) id the match belongs to")),
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help=parser.said_help(say("a SQLite file or database URL instead of the default database")),
    )
    parser.set_defaults(handler="geniusbot.commands.imports:command")


def _database(args: argparse.Namespace) -> str:
    from geniusbot.storage.db import checked_url

    if args.db:
        return checked_url(args.db, "--db")  # a ValueError saying what a URL looks like
    settings = getattr(args, "settings", None)
    data_dir = Path(getattr(settings, "data_dir", "data"))
    if args.guild is not None:
        assert settings is not None and settings.database_url
        url = str(settings.database_url)
        if url.startswith("sqlite"):
            data_dir.mkdir(parents=True, exist_ok=True)  # the default is a file in it, as for run
        return url
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{(data_dir / 'console.sqlite3').resolve()}"


async def command(args: argparse.Namespace) -> int:
    """``geniusbot import FILE [--guild ID] [--db URL]``: exit 0 when the record is stored (or
    was already), 2 when it is not (unreadable, not UTF-8, too large, unknown game, a refused line,
    a database that cannot be used)."""
    from geniusbot.host.imports import ImportRefused, decode_record, import_prepared, prepare
    from geniusbot.record import RecordError
    from geniusbot.record.file import RecordUnreadable, read_record_bytes
    from geniusbot.words import Verbatim, say

    from . import complainer, one_line, open_store, said_of, words_of

    complain = complainer("import", args)
    path = Path(args.file)
    try:
        data, what = read_record_bytes(args.file)  # at most the largest record and one byte more
        prepared = prepare(decode_record(data, what))
    except (RecordUnreadable, ImportRefused) as error:
        complain(error.said)
        return 2
    except RecordError as error:
        complain(
            say(
                "{path}: {refusal} Nothing was imported.",
                path=Verbatim(str(path)),
                refusal=one_line(error.said, words_of(args)),  # one line, whatever a game's message holds
            )
        )
        return 2
    try:
        url = _database(args)
    except ValueError as error:
        complain(say("{problem}. Nothing was imported.", problem=said_of(error)))
        return 2
    store = await open_store(url, complain)
    if store is None:
        return 2
    try:
        done = await import_prepared(store, prepared, guild_id=args.guild)
    finally:
        await store.close()
    if args.guild is None:
        resume = say("{command} resumes it", command=Verbatim(f"'geniusbot play {prepared.game.name}'"))
    else:
        resume = say("a host types {command} in a game room", command=Verbatim(f"/resume match:{done.match_id}"))
    print(words_of(args)(done.said_summary(resume)))
    return 0
