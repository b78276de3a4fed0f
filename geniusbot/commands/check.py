"""``geniusbot check GAME``: every per-game conformance check (:mod:`geniusbot.conformance`) on
one installed game.

``GAME`` is a registered game's name (any installed plug-in), or ``module:Class`` for a class
not installed yet (imported with the current folder on the path). Each check prints one line,
``ok`` or ``FAIL``; a failure says what was wrong, where (rule set, seed, action), and what to do.
Exit 0 when every check passes, 1 when one fails, 2 for a game that cannot be found or loaded,
or a bad argument.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.conformance.checks import Result
    from geniusbot.games import Game
    from geniusbot.words import Message, Words
    from geniusbot.words.parser import SaidCommands

log = logging.getLogger(__name__)

EXIT_FAILED = 1
EXIT_USAGE = 2


def help_line() -> Message:
    """``check``'s line in ``geniusbot --help`` (its own parser says the same)."""
    from geniusbot.words import say

    return say("run every per-game conformance check on an installed game")


def add_parser(commands: SaidCommands, full: bool = True) -> None:
    """Add ``check`` and its arguments to the launcher's sub-commands.

    With ``full`` false (another command runs), a line in the command list is enough: the full
    parser lists the checks, which imports the conformance package."""
    from geniusbot.words import Verbatim, say

    if not full:
        commands.add_parser("check", help=commands.said_help(help_line()))
        return
    from geniusbot.conformance.checks import CHECK_NAMES, CHECKS

    listing = "\n".join(
        textwrap.fill(commands.said(check.says), 96, initial_indent=f"  {check.name:<14} ", subsequent_indent=" " * 17)
        for check in CHECKS
    )
    parser = commands.add_parser(
        "check",
        help=commands.said_help(help_line()),
        raw_description=True,
        description=textwrap.fill(
            commands.said(
                say(
                    "Hold a game, built in or installed as a plug-in, to the contract every game keeps "
                    "(docs/writing-a-game.md): the checks geniusbot's own test suite runs on its games. "
                    "Each check prints ok or FAIL; a failure says what was wrong, where it was met (rule "
                    "set, seed, action) and what to do. Exit 0 when every check passes, 1 when one fails, "
                    "2 for a game that cannot be found or loaded."
                )
            ),
            96,
        )
        + "\n\n"
        + commands.said(say("The checks, in the order they run:"))
        + "\n"
        + listing,
    )
    parser.add_argument(
        "game",
        metavar="GAME",
        help=parser.said_help(
            say(
                "an installed game's name, or module:Class of a game not installed yet (imported from "
                "the current folder)"
            )
        ),
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="CHECK",
        help=parser.said_help(
            say(
                "run only this check (repeatable, or comma-separated): {checks}",
                checks=Verbatim(", ".join(CHECK_NAMES)),
            )
        ),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="K=V",
        help=parser.said_help(
            say("also play random games and keywords with this game option (repeatable: one set of options)")
        ),
    )
    parser.set_defaults(handler="geniusbot.commands.check:command", needs_settings=False)


class GameNotFound(LookupError):
    """No game by that name: ``said`` says why and how to name one (``str(error)`` its English)."""

    def __init__(self, said: Message) -> None:
        from geniusbot.words import Words

        super().__init__(Words()(said))
        self.said = said


def find_game(name: str) -> type[Game]:
    """The game ``name`` names: a registered game, or ``module:Class`` imported (and registered
    for the run). A :class:`GameNotFound` (a ``LookupError``) says why there is none."""
    from geniusbot.games import Game, GameError, get_game
    from geniusbot.words import Verbatim, say

    if ":" not in name:
        try:
            return get_game(name)
        except GameError as error:
            refusal = error.said or say("{text}", text=Verbatim(str(error)))
            raise GameNotFound(
                say(
                    "{refusal} A game not installed is named as module:Class (run from the folder it is in).",
                    refusal=refusal,
                )
            ) from None
    module_name, _, attribute = name.partition(":")
    try:
        target: object = importlib.import_module(module_name.strip())
        for part in attribute.strip().split("."):
            target = getattr(target, part)
    except ImportError as error:
        raise GameNotFound(
            say(
                "{module} cannot be imported ({error}).",
                module=Verbatim(repr(module_name)),
                error=Verbatim(str(error)),  # Python's own words
            )
        ) from None
    except AttributeError:
        raise GameNotFound(
            say("{module} has no {name}.", module=Verbatim(repr(module_name)), name=Verbatim(repr(attribute)))
        ) from None
    if not (isinstance(target, type) and issubclass(target, Game)) or not isinstance(
        getattr(target, "name", None), str
    ):
        raise GameNotFound(say("{name} is not a Game subclass with a name.", name=Verbatim(name)))
    return target


def _line(result: Result, words: Words) -> str:
    """A check's line of the report; a failure's own text (the conformance suite's diagnosis, for
    the game's developer) is quoted as the suite gives it."""
    from geniusbot.words import Verbatim, say, say_c

    if result.failure is not None and result.failure.__cause__ is not None:
        log.debug("%s: the game's exception", result.check.name, exc_info=result.failure.__cause__)
    mark = words(say_c("a check's mark", "ok") if result.passed else say_c("a check's mark", "FAIL"))
    line = words(
        say(
            "{mark}  {check} {seconds} s",
            mark=Verbatim(mark.ljust(4)),  # said already; padded to the width of FAIL
            check=Verbatim(f"{result.check.name:<14}"),
            seconds=Verbatim(f"{result.seconds:6.1f}"),
        )
    )
    if result.failure is None:
        return line
    said = words(
        say("{check} failed: {failure}", check=Verbatim(result.check.name), failure=Verbatim(str(result.failure)))
    )
    return line + "\n" + textwrap.fill(said, width=100, initial_indent="      ", subsequent_indent="      ")


async def command(args: argparse.Namespace) -> int:
    """Run the checks and print the report; the exit code. A ``module:Class`` is imported with
    the current folder on the path (as ``python -m`` has it), for the run."""
    here = os.getcwd()
    added = ":" in args.game and here not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        return await _command(args)
    finally:
        if added and here in sys.path:
            sys.path.remove(here)


async def _command(args: argparse.Namespace) -> int:
    from geniusbot.conformance.checks import CHECK_NAMES, CHECKS, run_checks
    from geniusbot.games import GameError, register, registry, unregister
    from geniusbot.words import Listing, Verbatim, say

    from . import complainer, words_of

    complain = complainer("check", args)
    words = words_of(args)
    from .play import BadOption, parse_options

    try:
        cls = find_game(args.game)
        options = parse_options(args.option)
    except (GameNotFound, BadOption) as error:
        complain(error.said)
        return EXIT_USAGE
    names = [n.strip() for given in args.only or [] for n in given.split(",") if n.strip()] or None
    unknown = sorted(set(names or []) - set(CHECK_NAMES))
    if unknown:
        complain(
            say(
                "there is no check called {name}; the checks are {checks}.",
                name=Verbatim(repr(unknown[0])),
                checks=Listing(tuple(Verbatim(n) for n in CHECK_NAMES)),
            )
        )
        return EXIT_USAGE
    for variant in cls.variants:
        try:
            cls.new(seed=0, variant=variant, **dict(options))
        except GameError as error:
            complain(say("--option: {refusal}", refusal=error.said or say("{text}", text=Verbatim(str(error)))))
            return EXIT_USAGE
    known = registry().get(cls.name)
    if known is not None and known is not cls:
        complain(
            say(
                "{game} is called {name}, the name of another installed game; rename one.",
                game=Verbatim(args.game),
                name=Verbatim(repr(cls.name)),
            )
        )
        return EXIT_USAGE
    if known is None:
        register(cls)  # the host, the adjudicator and load() find a game by its name
    heading = say(
        "Checking {title} ({name}; rule sets: {rule_sets}) against the game contract.",
        title=Verbatim(cls.title),
        name=Verbatim(cls.name),
        rule_sets=Listing(tuple(Verbatim(v) for v in cls.variants)),
    )
    print(words(heading), flush=True)
    quiet = logging.getLogger("geniusbot")
    level = quiet.level
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        quiet.setLevel(logging.WARNING)  # the host's own INFO lines (a match started...) are not the report
    try:
        report = await run_checks(
            cls,
            names,
            options=[options] if options else [],
            each=lambda result: print(_line(result, words), flush=True),
        )
    finally:
        quiet.setLevel(level)
        if known is None:
            unregister(cls.name)
    failed = report.failed
    game = Verbatim(cls.name)
    run = len(report.results)
    if not failed:
        print(
            words(
                say("{game} passes every check ({run}).", game=game, run=run)
                if run == len(CHECKS)
                else say("{game} passes the {run} of {n} checks run.", game=game, run=run, n=len(CHECKS))
            )
        )
        return 0
    names_failed = Listing(tuple(Verbatim(result.check.name) for result in failed))
    print(
        words(
            say(
                "{game} fails {failed} of {n} checks: {names}.",
                game=game,
                failed=len(failed),
                n=run,
                names=names_failed,
            )
        )
    )
    complain(
        say(
            "{game} fails {failed} of {n} checks ({names}); the report above says what to fix.",
            game=game,
            failed=len(failed),
            n=run,
            names=names_failed,
        )
    )
    return EXIT_FAILED
