"""``geniusbot adjudicate FILE [--json]``: rule on every line of a match record, as
:mod:`geniusbot.adjudicate` does, and print the verdicts (or say why the file cannot be read)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words.parser import SaidCommands

import argparse
import sys
from pathlib import Path


def add_parser(commands: SaidCommands) -> None:
    """Add ``adjudicate`` and its arguments to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "adjudicate",
        help=commands.said_help(say("replay a match record and rule on every line")),
        description=(
            commands.said(
                say(
                    "Replay a match record the way a careful host rules a transcript: every line is "
                    "accepted or rejected with the reason a player would be given, and the result follows. "
                    "Exit 0 when the file was read, 2 when it could not be (unreadable file, unknown game, "
                    "malformed header)."
                )
            )
        ),
    )
    parser.add_argument(
        "file",
        help=parser.said_help(say("the record file (see README.md, 'The match record'); - reads standard input")),
    )
    parser.add_argument("--json", action="store_true", help=parser.said_help(say("print the verdicts as JSON")))
    parser.add_argument(
        "--language",
        metavar="CODE",
        default="en",
        help=parser.said_help(
            say(
                "the language of the report: en (default), a language with a catalogue, or qps, the "
                "pseudo-language (the JSON's rulings are English whatever it says)"
            )
        ),
    )
    # It rules a text file: no pydantic settings, no database, no pictures (see bench/bench_startup.py).
    parser.set_defaults(handler="geniusbot.commands.adjudicate:command", needs_settings=False)


def command(args: argparse.Namespace) -> int:
    """``geniusbot adjudicate FILE [--json]`` (``-``: standard input): exit 0 once the file is
    read, 2 if it cannot be (missing, over :data:`~geniusbot.record.file.MAX_RECORD_BYTES`,
    not UTF-8: the file is read only that far, so a huge one costs no more)."""
    from geniusbot.adjudicate import adjudicate_text, json_lines, report_lines
    from geniusbot.record import RecordError
    from geniusbot.record.file import RecordUnreadable, read_record
    from geniusbot.words import Verbatim, say

    from . import complainer, one_line, words_of

    # Said in the report's language (--language), as the report is.
    complain = complainer("adjudicate", args)
    path = Path(args.file)
    try:
        # '-' is standard input, read as UTF-8 whatever the terminal's encoding.
        text, _ = read_record(args.file)
    except RecordUnreadable as error:
        complain(error.said)
        return 2
    try:
        result = adjudicate_text(text)
    except RecordError as error:
        complain(say("{path}: {refusal}", path=Verbatim(str(path)), refusal=one_line(error.said, words_of(args))))
        return 2
    if args.json:
        sys.stdout.writelines(json_lines(result))
        sys.stdout.write("\n")
    else:
        sys.stdout.writelines(report_lines(result, args.language))
    return 0
