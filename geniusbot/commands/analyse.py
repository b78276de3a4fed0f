"""``geniusbot analyse``: the engine review of a finished match, from a record or the database.

``geniusbot analyse FILE`` (``-`` reads standard input) or ``geniusbot analyse --match N [--db URL]``
prints the review (the moves that threw away the most, a better move for each, how sure it is,
every move's value) and, with ``--graph OUT``, writes the graph of who was ahead as a PNG.
Exit 0 when done; 2 for bad input (an unreadable file or record, no such match, a match still
being played, a database that cannot be used, an output that cannot be written).

The review itself is :mod:`geniusbot.analysis`; this reads the arguments, reports progress on
standard error and says what it wrote. Nothing heavy is imported at the top.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words import Message
    from geniusbot.words.parser import SaidCommands

EXIT_USAGE = 2


def add_parser(commands: SaidCommands) -> None:
    """Add ``analyse`` and its arguments to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "analyse",
        help=commands.said_help(say("review a finished match with the engine: who was ahead, the worst moves")),
        description=commands.said(
            say(
                "Review a finished match with the engine, every position with all information known: each "
                "move gets a value (the mover's chance of winning), the moves that threw away the most are "
                "marked with a better move for each, and the review says how sure it is (docs/analysis.md). "
                "The match comes from a record file or, with --match, from the bot's database. Exit 0 when "
                "done, 2 for bad input (the message says what to fix)."
            )
        ),
    )
    from .replay import add_source

    add_source(parser)
    parser.add_argument(
        "--graph", metavar="OUT", help=parser.said_help(say("write the graph of who was ahead to OUT as a PNG"))
    )
    parser.add_argument(
        "--playouts",
        type=int,
        metavar="N",
        help=parser.said_help(say("play-outs for each move tried (default 16); more is slower and surer")),
    )
    parser.add_argument(
        "--candidates",
        type=int,
        metavar="N",
        help=parser.said_help(say("moves tried in each position besides the one played (default 8)")),
    )
    parser.add_argument(
        "--language",
        metavar="CODE",
        help=parser.said_help(say("the language of the review: en, a language with a catalogue, or qps")),
    )
    parser.set_defaults(handler="geniusbot.commands.analyse:command")


def _say(args: argparse.Namespace, said: Message) -> None:
    from . import complainer

    complainer("analyse", args)(said)


def _nothing_reviewed(refusal: Message) -> Message:
    from geniusbot.words import say

    return say("{refusal} Nothing was reviewed.", refusal=refusal)


async def command(args: argparse.Namespace) -> int:
    """``geniusbot analyse (FILE | --match N [--db URL]) [--graph OUT]``."""
    from geniusbot.analysis import DEFAULT_EFFORT, Effort, review
    from geniusbot.analysis.said import lines
    from geniusbot.words import Verbatim, Words, say

    from . import language_of
    from .replay import db_without_match, load_steps, unfinished

    if db_without_match(args, "analyse"):
        return EXIT_USAGE
    for given in (args.playouts, args.candidates):
        if given is not None and not 1 <= given <= 1000:
            _say(args, say("--playouts and --candidates take a number from 1 to 1000."))
            return EXIT_USAGE
    steps = await load_steps(args, "analyse", _nothing_reviewed)
    if isinstance(steps, int):
        return steps
    if unfinished(args, steps, "analyse"):  # its secrets are still secret: a review waits for the end
        return EXIT_USAGE
    words = Words(language_of(args), steps.names)
    effort = Effort(
        candidates=args.candidates or DEFAULT_EFFORT.candidates, playouts=args.playouts or DEFAULT_EFFORT.playouts
    )

    def progress(done: int, total: int) -> None:
        print(words(say("Reviewed {done} of {total} moves.", done=done, total=total)), end="\r", file=sys.stderr)

    reviewed = review(steps.start, steps.actions, effort, progress if sys.stderr.isatty() else None)
    for line in lines(reviewed):
        print(words(line))
    if args.graph:
        from geniusbot.analysis.graph import graph_png

        out = Path(args.graph)
        try:
            out.write_bytes(graph_png(reviewed, words.language, steps.names))
        except OSError as error:
            _say(
                args,
                say(
                    "cannot write {file}: {why}; choose another OUT.",
                    file=Verbatim(repr(str(out))),
                    why=Verbatim(str(error.strerror or error)),
                ),
            )
            return EXIT_USAGE
        print(words(say("Wrote the graph to {out}.", out=Verbatim(str(out)))))
    return 0
