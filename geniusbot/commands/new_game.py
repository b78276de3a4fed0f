"""``geniusbot new-game NAME``: a new game's package, from the skeleton (:mod:`geniusbot.newgame`).

Exit 0 when written; 2, writing nothing, for a name that cannot be a game's or a folder that is
there already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words.parser import SaidCommands

import argparse
from pathlib import Path

EXIT_USAGE = 2


def add_parser(commands: SaidCommands) -> None:
    """Add ``new-game`` and its arguments to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "new-game",
        help=commands.said_help(say("write a new game's package: entry point, a Game subclass, its tests")),
        description=(
            commands.said(
                say(
                    "Write the package of a new game into NAME/ (or --dir): pyproject.toml with the "
                    "geniusbot.games entry point, a README, src/NAME/rules.py with a Game subclass (a "
                    "whole small game to change into yours) and tests/ with its scenarios and geniusbot "
                    "check. It passes geniusbot check NAME once installed (pip install -e NAME). Exit 0 "
                    "when written, 2 for a name that cannot be a game's or a folder that is there already."
                )
            )
        ),
    )
    parser.add_argument(
        "name",
        metavar="NAME",
        help=parser.said_help(say("the game's name: lower-case letters and digits, such as pebbles")),
    )
    parser.add_argument("--title", help=parser.said_help(say("the game's human name (default: the name, capitalised)")))
    parser.add_argument(
        "--dir",
        metavar="DIR",
        help=parser.said_help(say("the folder to write (default: ./NAME); it must not exist yet")),
    )
    parser.set_defaults(handler="geniusbot.commands.new_game:command", needs_settings=False)


def command(args: argparse.Namespace) -> int:
    """Write the skeleton; the exit code."""
    from geniusbot.newgame import class_name, refusal, write
    from geniusbot.words import Message, Verbatim, say, say_n

    from . import complainer, words_of

    problem: Message | None = refusal(args.name)
    if problem is None and args.title is not None and not args.title.strip():
        problem = say("--title is empty; give the game's human name, or leave --title out.")
    folder = Path(args.dir or args.name)
    if problem is None and folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        problem = say("{folder} is there already; choose another --dir, or move it away.", folder=Verbatim(str(folder)))
    complain = complainer("new-game", args)
    if problem is not None:
        complain(problem)
        return EXIT_USAGE
    try:
        written = write(args.name, folder, args.title and args.title.strip())
    except OSError as error:
        complain(
            say(
                "{folder} cannot be written ({why}).",
                folder=Verbatim(str(folder)),
                why=Verbatim(str(error.strerror or error)),  # the system's own words
            )
        )
        return EXIT_USAGE
    words = words_of(args)
    print(
        words(
            say_n(
                "Wrote {n} file in {folder}:",
                "Wrote {n} files in {folder}:",
                n=len(written),
                folder=Verbatim(str(folder)),
            )
        )
    )
    for path in written:
        print("  " + words(say("{path}", path=Verbatim(str(path)))))  # a path is said as it is
    installed = Verbatim(f"pip install -e {folder} && geniusbot check {args.name}")
    title = args.title or args.name.capitalize()
    loose = Verbatim(f"cd {folder / 'src'} && geniusbot check {args.name}:{class_name(args.name, title)}")
    print(words(say("Next: {installed} (or, not installed: {loose}).", installed=installed, loose=loose)))
    return 0
