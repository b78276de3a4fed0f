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

log = logging.getLogger(__name__)

EXIT_FAILED = 1
EXIT_USAGE = 2


#: ``check``'s line in ``geniusbot --help`` (its own parser says the same).
HELP = "run every per-game conformance check on an installed game"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], full: bool = True) -> None:
    """Add ``check`` and its arguments to the launcher's sub-commands.

    With ``full`` false (another command runs), a line in the command list is enough: the full
    parser lists the checks, which imports the conformance package."""
    if not full:
        commands.add_parser("check", help=HELP)
        return
    from geniusbot.conformance.checks import CHECK_NAMES, CHECKS

    listing = "\n".join(
        textwrap.fill(check.says, 96, initial_indent=f"  {check.name:<14} ", subsequent_indent=" " * 17)
        for check in CHECKS
    )
    parser = commands.add_parser(
        "check",
        help=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(
            "Hold a game, built in or installed as a plug-in, to the contract every game keeps "
            "(docs/writing-a-game.md): the checks geniusbot's own test suite runs on its games. "
            "Each check prints ok or FAIL; a failure says what was wrong, where it was met (rule set, "
            "seed, action) and what to do. Exit 0 when every check passes, 1 when one fails, 2 for a "
            "game that cannot be found or loaded.",
            96,
        )
        + "\n\nThe checks, in the order they run:\n"
        + listing,
    )
    parser.add_argument(
        "game",
        metavar="GAME",
        help="an installed game's name, or module:Class of a game not installed yet (imported from the current folder)",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="CHECK",
        help="run only this check (repeatable, or comma-separated): " + ", ".join(CHECK_NAMES),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="K=V",
        help="also play random games and keywords with this game option (repeatable: one set of options)",
    )
    parser.set_defaults(handler="geniusbot.commands.check:command", needs_settings=False)


def _say(text: str) -> None:
    print(f"geniusbot check: {text}", file=sys.stderr)


def find_game(name: str) -> type[Game]:
    """The game ``name`` names: a registered game, or ``module:Class`` imported (and registered
    for the run). A ``LookupError`` says why there is none."""
    from geniusbot.games import Game, GameError, get_game

    if ":" not in name:
        try:
            return get_game(name)
        except GameError as error:
            raise LookupError(
                f"{error} A game not installed is named as module:Class (run from the folder it is in)."
            ) from None
    module_name, _, attribute = name.partition(":")
    try:
        target: object = importlib.import_module(module_name.strip())
        for part in attribute.strip().split("."):
            target = getattr(target, part)
    except ImportError as error:
        raise LookupError(f"{module_name!r} cannot be imported ({error}).") from None
    except AttributeError:
        raise LookupError(f"{module_name!r} has no {attribute!r}.") from None
    if not (isinstance(target, type) and issubclass(target, Game)) or not isinstance(
        getattr(target, "name", None), str
    ):
        raise LookupError(f"{name} is not a Game subclass with a name.")
    return target


def _options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"--option {pair!r} needs the form name=value, such as p1_color=blue.")
        options[key.strip().lower()] = value.strip()
    return options


def _line(result: Result) -> str:
    if result.failure is not None and result.failure.__cause__ is not None:
        log.debug("%s: the game's exception", result.check.name, exc_info=result.failure.__cause__)
    mark = "ok  " if result.passed else "FAIL"
    line = f"{mark}  {result.check.name:<14} {result.seconds:6.1f} s"
    if result.failure is None:
        return line
    said = f"{result.check.name} failed: {result.failure}"
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

    try:
        cls = find_game(args.game)
        options = _options(args.option)
    except (LookupError, ValueError) as error:
        _say(str(error))
        return EXIT_USAGE
    names = [n.strip() for given in args.only or [] for n in given.split(",") if n.strip()] or None
    unknown = sorted(set(names or []) - set(CHECK_NAMES))
    if unknown:
        _say(f"there is no check called {unknown[0]!r}; the checks are {', '.join(CHECK_NAMES)}.")
        return EXIT_USAGE
    for variant in cls.variants:
        try:
            cls.new(seed=0, variant=variant, **dict(options))
        except GameError as error:
            _say(f"--option: {error}")
            return EXIT_USAGE
    known = registry().get(cls.name)
    if known is not None and known is not cls:
        _say(f"{args.game} is called {cls.name!r}, the name of another installed game; rename one.")
        return EXIT_USAGE
    if known is None:
        register(cls)  # the host, the adjudicator and load() find a game by its name
    rule_sets = ", ".join(cls.variants)
    print(f"Checking {cls.title} ({cls.name}; rule sets: {rule_sets}) against the game contract.", flush=True)
    quiet = logging.getLogger("geniusbot")
    level = quiet.level
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        quiet.setLevel(logging.WARNING)  # the host's own INFO lines (a match started...) are not the report
    try:
        report = await run_checks(
            cls, names, options=[options] if options else [], each=lambda result: print(_line(result), flush=True)
        )
    finally:
        quiet.setLevel(level)
        if known is None:
            unregister(cls.name)
    failed = report.failed
    if not failed:
        run = len(report.results)
        print(
            f"{cls.name} passes every check ({run})."
            if run == len(CHECKS)
            else f"{cls.name} passes the {run} of {len(CHECKS)} checks run."
        )
        return 0
    names_failed = ", ".join(result.check.name for result in failed)
    print(f"{cls.name} fails {len(failed)} of {len(report.results)} checks: {names_failed}.")
    _say(
        f"{cls.name} fails {len(failed)} of {len(report.results)} checks ({names_failed}); the report above says what to fix."
    )
    return EXIT_FAILED
