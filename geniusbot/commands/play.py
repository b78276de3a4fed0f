"""``geniusbot play GAME``: a match in the terminal (the console, :mod:`geniusbot.console`).

The command line's part: the arguments (``--vs bot`` and its fellows among them), the options
checked before the data directory or the database is touched, and the database the console
keeps its matches in. The console itself reads the lines and hands them to the host.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words import Message
    from geniusbot.words.parser import SaidCommands, SaidParser


def help_line() -> Message:
    """``play``'s line in ``geniusbot --help`` (its own parser says the same)."""
    from geniusbot.words import say

    return say("play a match in the terminal through the match host")


def add_parser(commands: SaidCommands, full: bool = True) -> None:
    """Add ``play`` to the launcher's sub-commands (its help lists every game of the registry).

    With ``full`` false (another command runs), a line in the command list is enough: the full
    parser lists every game of the registry, which loads them all."""
    from geniusbot.words import Listing, Verbatim, say

    if not full:
        commands.add_parser("play", help=commands.said_help(help_line()))
        return
    from geniusbot.games import registry
    from geniusbot.host.hints import COMMANDS

    games = registry()
    listing = Listing(
        tuple(
            say(
                "{name} ({title}; rule sets {rule_sets})",
                name=Verbatim(name),
                title=Verbatim(cls.title),
                rule_sets=Verbatim(", ".join(cls.variants)),
            )
            if len(cls.variants) > 1
            else say("{name} ({title})", name=Verbatim(name), title=Verbatim(cls.title))
            for name, cls in games.items()
        )
    )
    rule_sets = "; ".join(f"{name}: {', '.join(cls.variants)}" for name, cls in games.items() if len(cls.variants) > 1)
    implied = ", ".join(
        f"{alias} ({name}, {variant})" for name, cls in games.items() for alias, variant in cls.variant_aliases.items()
    )
    parser = commands.add_parser(
        "play",
        help=commands.said_help(help_line()),
        description=commands.said(
            say(
                "Play a match in the terminal: both seats type at one keyboard ('p1: H8', 'p2 (dm): ...' "
                "for a private submission). Commands: {commands}. Reads standard input line by line, so a "
                "game can be piped in.",
                commands=Verbatim(COMMANDS),
            )
        ),
    )
    parser.add_argument("game", help=parser.said_help(say("the game: {games}", games=listing)))
    parser.add_argument("--seed", type=int, help=parser.said_help(say("the match seed (default: random)")))
    parser.add_argument(
        "--variant",
        help=parser.said_help(
            say(
                "the rule set of a game that has several ({rule_sets}; default: the first, or the one a rule "
                "set's own name implies: {implied})",
                rule_sets=Verbatim(rule_sets),
                implied=Verbatim(implied),
            )
            if implied
            else say(
                "the rule set of a game that has several ({rule_sets}; default: the first)",
                rule_sets=Verbatim(rule_sets),
            )
        ),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="K=V",
        help=parser.said_help(say("a game option, e.g. p1_color=blue (repeatable)")),
    )
    parser.add_argument(
        "--clock", metavar="SPEC", help=parser.said_help(say("time control: 60s, 60s+5m, 90s+5m/10s, 5x60s, none"))
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help=parser.said_help(
            say(
                "a SQLite file, or a database URL such as postgresql+asyncpg://... (default: <data "
                "dir>/console.sqlite3)"
            )
        ),
    )
    parser.add_argument(
        "--boards",
        metavar="DIR",
        help=parser.said_help(say("save every board picture as a PNG in DIR (default: no picture is kept)")),
    )
    parser.add_argument(
        "--new", action="store_true", help=parser.said_help(say("start a new match even if one can be resumed"))
    )
    parser.add_argument(
        "--language",
        metavar="CODE",
        help=parser.said_help(
            say(
                "the language the match is said in: en, a language with a catalogue, or qps, the "
                "pseudo-language (default: GENIUSBOT_LANGUAGE, else en)"
            )
        ),
    )
    add_arguments(parser)  # --vs bot, --level, --bot-seat
    parser.set_defaults(handler="geniusbot.commands.play:command")


async def command(args: argparse.Namespace) -> int:
    """The ``play`` sub-command's handler: the options checked, then the console's match."""
    from geniusbot.console import check_options, run_console

    from . import said_of, words_of

    words = words_of(args)
    try:
        options = parse_options(args.option)
    except BadOption as error:
        print(words(error.said), file=sys.stderr)
        return 2
    # Before the data directory or the database is touched.
    problem = check_options(args.game, variant=args.variant, options=options, clock=args.clock, seed=args.seed)
    if problem:
        print(words(problem), file=sys.stderr)
        return 2
    boards = Path(args.boards).expanduser() if args.boards else None
    if boards is not None and (unwritable := boards_problem(boards)):
        print(words(unwritable), file=sys.stderr)
        return 2
    data_dir = Path(getattr(getattr(args, "settings", None), "data_dir", "data"))
    db_url = None
    if args.db:
        from geniusbot.storage.db import checked_url

        try:
            db_url = checked_url(args.db, "--db")
        except ValueError as error:
            print(words(said_of(error)), file=sys.stderr)
            return 2
    if not db_url:
        data_dir.mkdir(parents=True, exist_ok=True)
        db_url = f"sqlite+aiosqlite:///{(data_dir / 'console.sqlite3').resolve()}"
    return await run_console(
        args.game,
        db_url=db_url,
        seed=args.seed,
        variant=args.variant,
        options=options,
        clock=args.clock,
        new=args.new,
        boards_dir=boards,
        bot=opponent_of(args),
        for_new=[
            f"{flag} {value}" for flag, value in (("--level", args.level), ("--bot-seat", args.bot_seat)) if value
        ],
        language=args.language or getattr(getattr(args, "settings", None), "geniusbot_language", "en"),
    )


def add_arguments(parser: SaidParser) -> None:
    """``--vs bot``, ``--level`` and ``--bot-seat``."""
    from geniusbot.words import say

    parser.add_argument(
        "--vs", choices=["bot"], help=parser.said_help(say("play against the practice opponent (see docs/practice.md)"))
    )
    # No argparse defaults: a match resumed says which of these were given and left out.
    parser.add_argument(
        "--level",
        choices=["easy", "normal", "hard"],
        help=parser.said_help(say("the practice opponent's level (default normal)")),
    )
    parser.add_argument(
        "--bot-seat",
        choices=["p1", "p2"],
        help=parser.said_help(say("the seat the practice opponent plays (default p2)")),
    )


def opponent_of(args: argparse.Namespace) -> tuple[str, str] | None:
    """The seat and level of the practice opponent the command line asks for (``--vs bot``)."""
    if getattr(args, "vs", None) != "bot":
        return None
    return (args.bot_seat or "p2", args.level or "normal")


class BadOption(ValueError):
    """An ``--option`` that is not ``name=value``: ``said`` says what to write (``str(error)`` its English)."""

    def __init__(self, said: Message) -> None:
        from geniusbot.words import Words

        super().__init__(Words()(said))
        self.said = said


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``["k=v", ...]`` as a dict; :class:`BadOption` (a ``ValueError``) for a pair without ``=``."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            from geniusbot.words import Verbatim, say

            raise BadOption(
                say("--option {pair} needs the form name=value, such as p1_color=blue.", pair=Verbatim(repr(pair)))
            )
        options[key.strip().lower()] = value.strip()
    return options


def boards_problem(folder: Path) -> Message | None:
    """Why the pictures cannot be saved in ``folder`` (``--boards``), or ``None``: it is made if
    missing and written to once, before the database is touched or a match starts."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".geniusbot-{os.getpid()}.probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        from geniusbot.words import Verbatim, say

        return say(
            "--boards {folder} cannot be written ({why}); choose a folder you can write to, "
            "or leave --boards out (then no picture is saved).",
            folder=Verbatim(repr(str(folder))),
            why=Verbatim(error.strerror or type(error).__name__),  # the system's own words
        )
    return None
