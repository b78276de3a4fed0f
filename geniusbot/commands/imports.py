"""``geniusbot import PATH [--guild ID] [--db URL] [--strict]``: a match record stored as an
archived match (:mod:`geniusbot.host.imports` adjudicates and stores it; this says what it did).

``PATH`` is a record file, a folder (its ``*.txt`` files, in its sub-folders too) or a zip file
(its ``*.txt`` members): each file is imported on its own, one line of outcome each, into one
database; the exit code says whether every one was stored."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from geniusbot.host.imports import Prepared
    from geniusbot.storage import Store
    from geniusbot.words import Message
    from geniusbot.words.parser import SaidCommands

import argparse
from pathlib import Path

#: The most records one folder or zip file is read for (more are refused before any is imported).
MAX_BATCH = 10_000


def add_parser(commands: SaidCommands) -> None:
    """Add ``import`` and its arguments to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "import",
        help=commands.said_help(say("store a match record as an archived match")),
        description=(
            commands.said(
                say(
                    "Adjudicate a match record and store it as a match: finished, or paused when the "
                    "record stops before the end. Its accepted lines make the match; a refused line is kept "
                    "where it happened, with its line number and reason, as the bot keeps a refused "
                    "submission (--strict refuses such a record instead). With --guild it goes to the "
                    "bot's database (DATABASE_URL) as a match of that server; without, to the console's, "
                    "where 'geniusbot play GAME' resumes a paused one. The same record imported twice is "
                    "recognised. PATH may be a folder or a zip file of records (*.txt): one line of outcome "
                    "for each. Exit 0 when every record is stored (or stored already), 2 when one is not "
                    "(unreadable, not UTF-8, too large, unknown game, a refused line with --strict)."
                )
            )
        ),
    )
    parser.add_argument(
        "file",
        metavar="PATH",
        help=parser.said_help(
            say("the record file (see README.md, 'The match record'), or a folder or zip file of them")
        ),
    )
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
    parser.add_argument(
        "--strict",
        action="store_true",
        help=parser.said_help(say("refuse a record with a refused line (store nothing) instead of keeping it")),
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


def _prepared(args: argparse.Namespace, data: bytes, what: str, path: str | None) -> Prepared | Message:
    """The adjudicated record of ``data``, or the message saying why it is not imported (a record
    that cannot be read names ``path`` first, when given)."""
    from geniusbot.host.imports import ImportRefused, decode_record, prepare
    from geniusbot.record import RecordError
    from geniusbot.words import Verbatim, say

    from . import one_line, words_of

    try:
        return prepare(decode_record(data, what), strict=args.strict)
    except ImportRefused as error:
        return error.said
    except RecordError as error:
        refusal = one_line(error.said, words_of(args))  # one line, whatever a game's message holds
        if path is None:
            return say("{refusal} Nothing was imported.", refusal=refusal)
        return say("{path}: {refusal} Nothing was imported.", path=Verbatim(path), refusal=refusal)


def _resume(args: argparse.Namespace, game: str, match_id: int) -> Message:
    from geniusbot.words import Verbatim, say

    if args.guild is None:
        return say("{command} resumes it", command=Verbatim(f"'geniusbot play {game}'"))
    return say("a host types {command} in a game room", command=Verbatim(f"/resume match:{match_id}"))


async def _store(args: argparse.Namespace, complain: Callable[[Message], None]) -> Store | None:
    from geniusbot.words import say

    from . import open_store, said_of

    try:
        url = _database(args)
    except ValueError as error:
        complain(say("{problem}. Nothing was imported.", problem=said_of(error)))
        return None
    return await open_store(url, complain)


async def command(args: argparse.Namespace) -> int:
    """``geniusbot import PATH [--guild ID] [--db URL] [--strict]``: exit 0 when the record (every
    record of a folder or zip file) is stored, or was already; 2 when one is not (unreadable, not
    UTF-8, too large, unknown game, a refused line with ``--strict``, a database that cannot be used)."""
    from geniusbot.host.imports import Prepared, import_prepared
    from geniusbot.record.file import RecordUnreadable, read_record_bytes

    from . import complainer, words_of

    complain = complainer("import", args)
    path = Path(args.file)
    if args.file != "-" and (path.is_dir() or path.suffix.lower() == ".zip"):
        return await _batch(args, path, complain)
    try:
        data, what = read_record_bytes(args.file)  # at most the largest record and one byte more
    except RecordUnreadable as error:
        complain(error.said)
        return 2
    prepared = _prepared(args, data, what, str(path))
    if not isinstance(prepared, Prepared):
        complain(prepared)
        return 2
    store = await _store(args, complain)
    if store is None:
        return 2
    try:
        done = await import_prepared(store, prepared, guild_id=args.guild)
    finally:
        await store.close()
    print(words_of(args)(done.said_summary(_resume(args, prepared.game.name, done.match_id))))
    return 0


def _members(path: Path) -> Iterator[tuple[str, bytes | Message]]:
    """Each record of a folder (its ``*.txt`` files, sub-folders too) or a zip file (its ``*.txt``
    members), in name order: its name and its bytes (at most a record's largest and one byte
    more, so that one too large is refused), or the message saying why it cannot be read."""
    import zipfile

    from geniusbot.record import MAX_RECORD_BYTES
    from geniusbot.record.file import RecordUnreadable, read_record_bytes
    from geniusbot.words import Verbatim, say

    if path.is_dir():
        for file in sorted(p for p in path.rglob("*.txt") if p.is_file()):
            name = str(file.relative_to(path))
            try:
                yield name, read_record_bytes(str(file))[0]
            except RecordUnreadable as error:
                yield name, error.said
        return
    with zipfile.ZipFile(path) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir() or not info.filename.lower().endswith(".txt"):
                continue
            with archive.open(info) as member:
                data = member.read(MAX_RECORD_BYTES + 1)
            if len(data) > MAX_RECORD_BYTES:
                yield (
                    info.filename,
                    say(
                        "it is over {most} KiB, the largest a record may be; nothing was imported.",
                        most=Verbatim(str(MAX_RECORD_BYTES // 1024)),
                    ),
                )
                continue
            yield info.filename, data


def _listed(path: Path) -> list[str] | Message:
    """The names of the records of a folder or zip file, or why it cannot be read."""
    import zipfile

    from geniusbot.words import Verbatim, say

    try:
        if path.is_dir():
            return [str(p) for p in path.rglob("*.txt") if p.is_file()]
        with zipfile.ZipFile(path) as archive:
            return [i.filename for i in archive.infolist() if not i.is_dir() and i.filename.lower().endswith(".txt")]
    except (OSError, zipfile.BadZipFile) as error:
        return say(
            "cannot read {file} as a zip file of records: {why}.",
            file=Verbatim(repr(str(path))),
            why=Verbatim(str(getattr(error, "strerror", None) or error)),
        )


async def _batch(args: argparse.Namespace, path: Path, complain: Callable[[Message], None]) -> int:
    """Every record of a folder or zip file, each imported on its own: one line each, then the count."""
    from geniusbot.host.imports import Prepared, import_prepared
    from geniusbot.storage import RoomBusy
    from geniusbot.words import Verbatim, say

    from . import one_line, said_of, words_of

    words = words_of(args)
    names = _listed(path)
    if not isinstance(names, list):
        complain(names)
        return 2
    if not names:
        complain(say("{path} holds no record (*.txt); nothing was imported.", path=Verbatim(repr(str(path)))))
        return 2
    if len(names) > MAX_BATCH:
        complain(
            say(
                "{path} holds {count} records; one import takes at most {most}. Nothing was imported.",
                path=Verbatim(repr(str(path))),
                count=len(names),
                most=MAX_BATCH,
            )
        )
        return 2
    store = await _store(args, complain)
    if store is None:
        return 2
    stored = 0
    try:
        for name, data in _members(path):
            outcome: Message
            if isinstance(data, bytes):
                prepared = _prepared(args, data, name, None)
                if isinstance(prepared, Prepared):
                    try:
                        done = await import_prepared(store, prepared, guild_id=args.guild)
                    except RoomBusy as error:
                        outcome = said_of(error)
                    else:
                        outcome = done.said_summary(_resume(args, prepared.game.name, done.match_id))
                        stored += 1
                else:
                    outcome = prepared
            else:
                outcome = data
            print(words(say("{file}: {outcome}", file=Verbatim(name), outcome=one_line(outcome, words))))
    finally:
        await store.close()
    print(words(say("{stored} of {count} records stored.", stored=stored, count=len(names))))
    return 0 if stored == len(names) else 2
