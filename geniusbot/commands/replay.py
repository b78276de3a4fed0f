"""``geniusbot replay``: a whole match as a file, from a record or from the database.

``geniusbot replay FILE --gif OUT`` (``-`` reads the record from standard input) or
``geniusbot replay --match N [--db URL] --gif OUT``, and ``--html OUT`` in place of ``--gif`` for
the replay page (:mod:`geniusbot.archive.page`). The output options are one group, one of them required.
A record's refused lines make no step; each is shown after the step it followed. Exit 0 when
written; 2 for bad input (an unreadable file, a record that cannot be read, no such match, a database that cannot be used, a game without a picture, an output that cannot be
written).

The archive makes the files (:mod:`geniusbot.archive`); this is the command that reads its
arguments and says what it wrote. Imported by the launcher to build the parser, it imports nothing
heavy at its top: the steps, the pictures and the database are loaded when the command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.archive.gif import Part
    from geniusbot.archive.steps import Steps
    from geniusbot.words import Message
    from geniusbot.words.parser import SaidCommands, SaidParser

EXIT_USAGE = 2


def add_parser(commands: SaidCommands) -> None:
    """Add ``replay`` and its arguments to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "replay",
        help=commands.said_help(say("write a whole match as an animated GIF or a replay page")),
        description=(
            commands.said(
                say(
                    "Write every step of a match as a file: an animated GIF with one frame per step (the "
                    "start, then one per accepted action), each the board as everyone saw it, with the "
                    "action and the clocks under it, or a replay page (one HTML file that loads nothing: "
                    "the boards, the move list, the arrow keys and a play button); private submissions "
                    "show only once the rules reveal them. The match comes from a record file (a refused line "
                    "makes no step; the caption of the step it followed shows it) or, with --match, from "
                    "the bot's database. A GIF that would pass "
                    "Discord's 10 MB upload limit is written in parts, OUT-1.gif, OUT-2.gif... Exit 0 when "
                    "written, 2 for bad input (the message says what to fix)."
                )
            )
        ),
    )
    add_source(parser)
    # The output formats: one of them, and only one. Another format is one more add_argument here
    # and one more branch in command().
    output = parser.add_mutually_exclusive_group(required=True)
    output.add_argument(
        "--gif",
        metavar="OUT",
        help=parser.said_help(say("write an animated GIF to OUT (OUT-1.gif, OUT-2.gif... when split)")),
    )
    output.add_argument(
        "--html",
        metavar="OUT",
        help=parser.said_help(
            say("write the replay page to OUT: one HTML file (boards, move list, keys, play button), no network")
        ),
    )
    parser.add_argument(
        "--review",
        action="store_true",
        help=parser.said_help(
            say("carry the engine review: its graph and its marked moves (docs/analysis.md; it takes a while)")
        ),
    )
    parser.add_argument(
        "--language",
        metavar="CODE",
        help=parser.said_help(
            say(
                "the language of the captions and the page: en, a language with a catalogue, or qps, "
                "the pseudo-language (default: GENIUSBOT_LANGUAGE, else en)"
            )
        ),
    )
    parser.set_defaults(handler="geniusbot.commands.replay:command")


def add_source(parser: SaidParser) -> None:
    """The match a command reads (``replay``, ``analyse``): a record ``FILE`` (``-``: standard
    input) or ``--match N`` from the database, ``--db URL`` instead of DATABASE_URL."""
    from geniusbot.words import say

    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help=parser.said_help(say("the record file (see README.md, 'The match record'); - reads standard input")),
    )
    source.add_argument(
        "--match", type=int, metavar="N", help=parser.said_help(say("the stored match N instead of a record file"))
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help=parser.said_help(say("with --match: a SQLite file or database URL instead of DATABASE_URL")),
    )


def db_without_match(args: argparse.Namespace, command: str) -> bool:
    """Whether ``--db`` came without ``--match`` (said as ``command``'s): a record needs no database."""
    from geniusbot.words import say

    from . import complainer

    if args.db and args.match is None:
        complainer(command, args)(
            say("--db goes with --match (a record file needs no database); leave it out or give --match N.")
        )
        return True
    return False


async def load_steps(args: argparse.Namespace, command: str, refused: Callable[[Message], Message]) -> Steps | int:
    """The steps of the match :func:`add_source` names, or exit 2 said as ``command``'s: an
    unreadable file, a record refused (``refused`` says what was not done), no such match, a
    database that cannot be used."""
    from geniusbot.archive.steps import StepsRefused, from_record
    from geniusbot.record.file import RecordUnreadable, read_record_bytes

    from . import complainer

    if args.match is not None:
        return await _stored(args, command)
    try:
        data, what = read_record_bytes(args.file)  # at most the largest record and one byte more
    except RecordUnreadable as error:
        complainer(command, args)(error.said)
        return EXIT_USAGE
    try:
        return from_record(data, what)
    except StepsRefused as error:
        complainer(command, args)(refused(error.said))
        return EXIT_USAGE


def unfinished(args: argparse.Namespace, steps: Steps, command: str) -> bool:
    """Whether a stored match is still being played (said as ``command``'s): its review, which
    knows every secret, waits for its end."""
    from geniusbot.words import say

    from . import complainer

    if args.match is None or steps.result is not None:
        return False
    complainer(command, args)(say("match #{id} is still being played; review it once it is over.", id=args.match))
    return True


def _no_file(refusal: Message) -> Message:
    from geniusbot.words import say

    return say("{refusal} No file was written.", refusal=refusal)


def language_of(args: argparse.Namespace) -> str:
    """The language asked for: ``--language``, else the settings' GENIUSBOT_LANGUAGE, else English."""
    from . import language_of as asked

    return asked(args)


def _say(args: argparse.Namespace, said: Message) -> None:
    from . import complainer

    complainer("replay", args)(said)


def _database(args: argparse.Namespace) -> str:
    """The database ``--match`` reads: ``--db``, else the bot's DATABASE_URL (as ``import --guild``)."""
    from geniusbot.storage.db import checked_url

    if args.db:
        return checked_url(args.db, "--db")  # a ValueError saying what a URL looks like
    settings = args.settings
    url = str(settings.database_url)
    if url.startswith("sqlite"):
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)  # the default is a file in it
    return url


async def _stored(args: argparse.Namespace, command: str) -> Steps | int:
    from geniusbot.archive.steps import from_store
    from geniusbot.storage import MatchNotFound
    from geniusbot.words import Verbatim, say

    from . import complainer, open_store, said_of

    complain = complainer(command, args)
    try:
        url = _database(args)
    except ValueError as error:
        complain(say("{problem}.", problem=said_of(error)))
        return EXIT_USAGE
    store = await open_store(url, complain)
    if store is None:
        return EXIT_USAGE
    try:
        return await from_store(store, args.match)
    except MatchNotFound:
        complain(
            say(
                "there is no match #{id} in the database {url}; check the number, or --db.",
                id=args.match,
                url=Verbatim(repr(url)),
            )
        )
        return EXIT_USAGE
    finally:
        await store.close()


def part_names(out: Path, count: int) -> list[Path]:
    """The files of a GIF in ``count`` parts: ``out`` itself for one, ``OUT-1.gif``... for more."""
    if count == 1:
        return [out]
    suffix = out.suffix or ".gif"
    return [out.with_name(f"{out.stem if out.suffix else out.name}-{n}{suffix}") for n in range(1, count + 1)]


def parts_said(parts: list[Part], names: list[str]) -> Message:
    """How the parts of a GIF are told: which steps each holds."""
    from geniusbot.words import Listing, Verbatim, say

    return say(
        "{parts}",
        parts=Listing(
            tuple(
                say("{name} (steps {first} to {last})", name=Verbatim(name), first=p.first, last=p.last)
                for name, p in zip(names, parts, strict=True)
            )
        ),
    )


def _write_gif(args: argparse.Namespace, steps: Steps, out: Path) -> int:
    from geniusbot.archive.gif import MAX_BYTES, NoPicture, make_gif
    from geniusbot.words import Verbatim, say

    from . import words_of

    try:
        parts = make_gif(steps)
    except NoPicture as error:
        _say(args, error.said)
        return EXIT_USAGE
    paths = part_names(out, len(parts))
    try:
        for path, part in zip(paths, parts, strict=True):
            path.write_bytes(part.data)
    except OSError as error:
        _say(
            args,
            say(
                "cannot write {file}: {why}; choose another OUT.",
                file=Verbatim(repr(str(error.filename or out))),
                why=Verbatim(str(error.strerror or error)),  # the system's own words
            ),
        )
        return EXIT_USAGE
    frames = sum(p.frames for p in parts)
    words = words_of(args)
    if len(parts) == 1 and steps.review is not None:  # the graph's frame first, then one a step
        print(
            words(
                say(
                    "Wrote {out}: the review's graph, then {frames} frames, one per step, {size} MB.",
                    out=Verbatim(str(out)),
                    frames=frames - 1,
                    size=Verbatim(f"{len(parts[0].data) / 1e6:.1f}"),
                )
            )
        )
    elif len(parts) == 1:
        print(
            words(
                say(
                    "Wrote {out}: {frames} frames, one per step, {size} MB.",
                    out=Verbatim(str(out)),
                    frames=frames,
                    size=Verbatim(f"{len(parts[0].data) / 1e6:.1f}"),
                )
            )
        )
    else:
        print(
            words(
                say(
                    "The GIF of {frames} frames would pass Discord's {limit} MB upload limit, "
                    "so it is in {count} parts: {parts}.",
                    frames=frames,
                    limit=MAX_BYTES // 1_000_000,
                    count=len(parts),
                    parts=parts_said(parts, [str(p) for p in paths]),
                )
            )
        )
    return 0


async def command(args: argparse.Namespace) -> int:
    """``geniusbot replay (FILE | --match N [--db URL]) (--gif OUT | --html OUT)``."""
    from geniusbot.words import say

    from . import said_of

    if db_without_match(args, "replay"):
        return EXIT_USAGE
    if args.html is not None:
        from geniusbot.archive.page import html_command

        parts = None
        if args.review:
            reviewed = await _reviewed(args)
            if isinstance(reviewed, int):
                return reviewed
            parts = reviewed

        if args.match is not None and not args.db:
            try:
                args.db = _database(args)  # the page reads --db; here it defaults to DATABASE_URL
            except ValueError as error:
                _say(args, say("{problem}.", problem=said_of(error)))
                return EXIT_USAGE
        return await html_command(args, parts)
    steps = await load_steps(args, "replay", _no_file)
    if isinstance(steps, int):
        return steps
    steps.language = language_of(args)
    if args.review:
        from geniusbot.analysis import review

        if unfinished(args, steps, "replay"):
            return EXIT_USAGE
        steps.review = review(steps.start, steps.actions)
    # The output: the one format of the output group given (another format is one more branch).
    return _write_gif(args, steps, Path(args.gif))


async def _reviewed(args: argparse.Namespace) -> tuple[str, dict[int, str]] | int:
    """The engine review's parts of the replay page (``--html --review``), or exit 2 said."""
    from geniusbot.analysis import review
    from geniusbot.archive.review_page import review_parts
    from geniusbot.words import Words

    steps = await load_steps(args, "replay", _no_file)
    if isinstance(steps, int):
        return steps
    if unfinished(args, steps, "replay"):
        return EXIT_USAGE
    return review_parts(review(steps.start, steps.actions), Words(language_of(args), steps.names))
