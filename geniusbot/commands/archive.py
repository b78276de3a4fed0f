"""``geniusbot archive list``: the ended matches of a database, filtered, a page at a time.

The search is the store's (:mod:`geniusbot.storage.archive`, the same as ``/replay``'s list);
each match is one line as ``/replay`` lists it (:mod:`geniusbot.archive.listing`), then the page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import date

    from geniusbot.words.parser import SaidCommands

import argparse


def add_parser(commands: SaidCommands) -> None:
    """Add ``archive`` and its ``list`` to the launcher's sub-commands."""
    from geniusbot.words import say

    archive = commands.add_parser(
        "archive",
        help=commands.said_help(say("find archived matches")),
        description=commands.said(say("Find the ended matches of a database.")),
    )
    archive_commands = archive.add_subparsers(
        dest="archive_command", metavar="ARCHIVE_COMMAND", title=archive.said(say("archive commands")), required=True
    )
    listing = archive_commands.add_parser(
        "list",
        help=archive_commands.said_help(say("list ended matches, filtered, a page at a time")),
        description=(
            archive_commands.said(
                say(
                    "List the ended matches (finished or aborted) of DATABASE_URL or --db, newest first, one "
                    "line each, a page at a time, as /replay lists them; every filter given must hold. Exit 0 "
                    "when the page was listed (even empty), 2 for a bad filter, a page past the last or a "
                    "database that cannot be used."
                )
            )
        ),
    )
    listing.add_argument(
        "--db", metavar="URL", help=listing.said_help(say("a SQLite file or database URL instead of DATABASE_URL"))
    )
    listing.add_argument(
        "--guild",
        type=int,
        metavar="ID",
        help=listing.said_help(say("only the matches of this Discord server (default: every match of the database)")),
    )
    listing.add_argument(
        "--player",
        metavar="NAME|ID",
        help=listing.said_help(
            say("only the matches of this player: a name as the seat shows it, or a Discord user id")
        ),
    )
    listing.add_argument("--game", metavar="GAME", help=listing.said_help(say("only the matches of this game")))
    listing.add_argument(
        "--rule-set", metavar="RULES", help=listing.said_help(say("only the matches of this rule set"))
    )
    listing.add_argument(
        "--since", metavar="YYYY-MM-DD", help=listing.said_help(say("only the matches that ended on or after this day"))
    )
    listing.add_argument(
        "--until",
        metavar="YYYY-MM-DD",
        help=listing.said_help(say("only the matches that ended on or before this day")),
    )
    listing.add_argument(
        "--result",
        choices=("p1", "p2", "draw", "aborted"),
        help=listing.said_help(say("only the matches p1 won, p2 won, drawn, or aborted")),
    )
    listing.add_argument(
        "--tournament",
        metavar="EVENT",
        help=listing.said_help(
            say("only the matches of this tournament: its number (#3), or an imported record's Event header")
        ),
    )
    listing.add_argument(
        "--page", type=int, default=1, metavar="N", help=listing.said_help(say("the page to list (default: 1)"))
    )
    listing.add_argument(
        "--per-page",
        type=int,
        default=20,
        metavar="N",
        help=listing.said_help(say("how many matches a page holds, 1 to 100 (default: 20)")),
    )
    listing.set_defaults(handler="geniusbot.commands.archive:list_command")


def _day(text: str | None, option: str) -> date | None:
    from datetime import date

    from geniusbot.words import Verbatim, say

    if not text:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            say(
                "{option} is a day written YYYY-MM-DD, such as 2026-12-07, not {text}.",
                option=Verbatim(option),
                text=Verbatim(repr(text)),
            )
        ) from None


async def list_command(args: argparse.Namespace) -> int:
    """``geniusbot archive list [filters] [--page N] [--per-page N]``: exit 0 when listed, 2 for a
    bad filter or a database that cannot be used."""
    from geniusbot.archive.listing import listed, page_said
    from geniusbot.games import GameError, get_game
    from geniusbot.storage.archive import MAX_PAGE_SIZE, ArchiveQuery, find_matches, player_of
    from geniusbot.words import Message, say

    from . import complainer, open_store, said_of, words_of
    from .replay import _database

    complain = complainer("archive list", args)
    words = words_of(args)
    try:
        if args.page < 1 or not 1 <= args.per_page <= MAX_PAGE_SIZE:
            raise ValueError(
                say(
                    "--page is 1 or more and --per-page 1 to {most}; not {page} and {size}.",
                    most=MAX_PAGE_SIZE,
                    page=args.page,
                    size=args.per_page,
                )
            )
        query = ArchiveQuery(
            args.guild,
            any_guild=args.guild is None,
            player=player_of(args.player) if args.player else None,
            game=get_game(args.game).name if args.game else None,
            variant=args.rule_set.strip().lower() if args.rule_set else None,
            since=_day(args.since, "--since"),
            until=_day(args.until, "--until"),
            result=args.result,
            tournament=args.tournament.strip() if args.tournament else None,
            page=args.page,
            size=args.per_page,
        )
        url = _database(args)
    except (ValueError, GameError) as error:
        said = error.args[0] if error.args and isinstance(error.args[0], Message) else said_of(error)
        complain(said)
        return 2
    store = await open_store(url, complain)
    if store is None:
        return 2
    try:
        found = await find_matches(store, query)
    finally:
        await store.close()
    if not found.matches and found.total:
        complain(say("There is no page {page}: the matches found fill {pages}.", page=found.page, pages=found.pages))
        return 2
    for record in found.matches:
        print(words(listed(record)))
    if not found.matches:
        print(words(say("No ended match matches that.")))
    print(words(page_said(found)))
    return 0
