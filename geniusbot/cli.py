"""The ``geniusbot`` launcher: settings, logging, and the sub-commands.

Each sub-command is a module of :mod:`geniusbot.commands` (``adjudicate``, ``play``, ``db``,
``run``, ``import``, ``replay``, ``archive``, ``analyse``, ``check``, ``new-game``). Adding one is a module there with an
``add_parser(commands)`` that adds its parser and sets ``handler`` to ``"module:function"``
(imported only when the command runs, so ``geniusbot adjudicate`` never loads discord.py or
SQLAlchemy), listed in :data:`COMMANDS`. A handler takes the parsed ``argparse.Namespace`` (with
``args.settings``, the :class:`~geniusbot.config.Settings`) and returns the exit code, or a
coroutine that does (the launcher runs it with :func:`asyncio.run`). A command that reads no
setting but the log level (``adjudicate``) sets ``needs_settings=False``: the launcher then reads
``LOG_LEVEL`` itself and never imports pydantic.

Exit codes, the same for every command (README.md, "The commands and their exit codes"):
0 done; 2 a user's mistake (a bad argument, setting, file or folder, a database or Discord that
cannot be used with the settings given), with one sentence saying what to fix; 1 an unexpected
error (a bug: one line, the traceback only at ``--log-level DEBUG``); 130 stopped by Ctrl-C; 141
the reader of standard output went away (``geniusbot adjudicate FILE | head``), said nothing, as a
Unix tool killed by SIGPIPE reports it.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from geniusbot import __version__
from geniusbot.commands import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_PIPE_CLOSED,
    EXIT_USAGE,
    adjudicate,
    analyse,
    archive,
    check,
    db,
    imports,
    new_game,
    play,
    replay,
    run,
    tournament,
)

if TYPE_CHECKING:
    from geniusbot.config import Settings
    from geniusbot.words import Message
    from geniusbot.words.parser import SaidCommands, SaidParser

log = logging.getLogger("geniusbot")

#: The sub-commands, in the order ``geniusbot --help`` lists them: each one's ``add_parser``.
COMMANDS: list[Callable[[SaidCommands], None]] = [
    adjudicate.add_parser,
    play.add_parser,
    db.add_parser,
    run.add_parser,
    imports.add_parser,
    replay.add_parser,
    archive.add_parser,
    tournament.add_parser,
    analyse.add_parser,
    check.add_parser,
    new_game.add_parser,
]


# --------------------------------------------------------------------------- the launcher


def build_parser(argv: Sequence[str] | None = None) -> SaidParser:
    """The argument parser with every sub-command of :data:`COMMANDS`.

    Given the command line ``argv``, ``play``'s own parser (which loads every game) and ``check``'s
    (which lists the checks) are built only when their command is in it; without ``argv``, always.
    """
    from geniusbot.words import Words, say
    from geniusbot.words.parser import SaidParser

    # Read lightly: the parser is built before the settings are (and --help reads none).
    parser = SaidParser(
        prog="geniusbot",
        words=Words(light_setting("GENIUSBOT_LANGUAGE") or "en"),
        description=None,
    )
    parser.description = parser.said(
        say("geniusbot: a Discord game master for Genius-style death matches and final matches.")
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"geniusbot {__version__}",
        help=parser.said_help(say("show the version and exit")),
    )
    parser.add_argument(
        "--log-level",
        metavar="LEVEL",
        help=parser.said_help(
            say("DEBUG, INFO, WARNING, ERROR or CRITICAL (default: the LOG_LEVEL setting, else INFO)")
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title=parser.said(say("commands")))
    for add in COMMANDS:
        if add is play.add_parser:
            play.add_parser(commands, full=argv is None or "play" in argv)
        elif add is check.add_parser:
            check.add_parser(commands, full=argv is None or "check" in argv)
        else:
            add(commands)
    return parser


def configure_logging(level: str) -> None:
    """Log to standard error at ``level``; called once per process by :func:`main`."""
    root = logging.getLogger()
    # Alembic tells INFO of every migration step ("Context impl SQLiteImpl.", "Running upgrade
    # -> 0001") on every start; a person needs it only when debugging. Failures are WARNING+.
    logging.getLogger("alembic").setLevel(logging.NOTSET if level == "DEBUG" else logging.WARNING)
    if getattr(configure_logging, "done", False):
        root.setLevel(level)
        return
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    configure_logging.done = True  # type: ignore[attr-defined]


def _resolve(handler: str) -> Callable[[argparse.Namespace], object]:
    module_name, _, function = handler.partition(":")
    found: Callable[[argparse.Namespace], object] = getattr(importlib.import_module(module_name), function)
    return found


#: The log levels ``--log-level`` and ``LOG_LEVEL`` take (``geniusbot.config.LOG_LEVELS``, which
#: imports nothing of geniusbot, says the same; a test holds them equal).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def light_setting(name: str, env_file: str | os.PathLike[str] = ".env") -> str | None:
    """The setting ``name`` as :class:`~geniusbot.config.Settings` reads it (the environment,
    else ``NAME=value`` in ``.env``; an empty value counts as unset), without pydantic: for a
    command that needs no other setting."""
    value = os.environ.get(name, "").strip()
    if value:
        return value
    try:
        lines = open(env_file, encoding="utf-8").read().splitlines()  # noqa: SIM115  # a few lines
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        key, eq, value = line.strip().removeprefix("export ").partition("=")
        if eq and key.strip().upper() == name.upper():
            value = value.split(" #", 1)[0].strip().strip("\"'")
            return value or None
    return None


def _language(args: argparse.Namespace) -> str:
    """The language the launcher speaks for the command: its ``--language``, else the settings'
    GENIUSBOT_LANGUAGE (read lightly where the settings are not, or could not be, read), else English."""
    given = getattr(args, "language", None) or getattr(getattr(args, "settings", None), "geniusbot_language", None)
    return str(given or light_setting("GENIUSBOT_LANGUAGE") or "en")


def _complain(args: argparse.Namespace, said: Message, command: str = "geniusbot") -> None:
    """``command: said`` on standard error, in the command's language."""
    from geniusbot.words import Verbatim, Words, say

    print(Words(_language(args))(say("{command}: {line}", command=Verbatim(command), line=said)), file=sys.stderr)


def _settings(args: argparse.Namespace) -> tuple[object | None, str] | int:
    """The settings and the log level the command runs with, or the exit code of a bad setting."""
    if not getattr(args, "needs_settings", True):
        level = light_setting("LOG_LEVEL") or "INFO"
        if level.upper() not in LOG_LEVELS:
            from geniusbot.words import Listing, Verbatim, say

            _complain(
                args,
                say(
                    "the settings cannot be read (LOG_LEVEL must be one of {levels}, not {level}); fix the "
                    "environment or .env.",
                    levels=Listing(tuple(Verbatim(name) for name in LOG_LEVELS)),
                    level=Verbatim(repr(level)),
                ),
            )
            return EXIT_USAGE
        return None, level.upper()

    from pydantic import ValidationError

    try:
        settings = _launcher_settings()()
    except ValidationError as error:
        from geniusbot.words import Verbatim, say

        # Each problem as pydantic and the settings' validators say it (English until they are messages).
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}" for e in error.errors())
        _complain(
            args,
            say("the settings cannot be read ({problems}); fix the environment or .env.", problems=Verbatim(problems)),
        )
        return EXIT_USAGE
    return settings, settings.log_level


def _launcher_settings() -> type[Settings]:
    """:class:`~geniusbot.config.Settings` as the launcher reads them: the font file is also
    checked by the renderer (:func:`geniusbot.render.fonts.check_font`, Pillow only when FONT_PATH
    is set), as a validator of the setting, so that a font the pictures cannot draw with is refused
    among the other settings' problems, in the same sentence. The settings themselves import
    nothing of geniusbot; the renderer is the launcher's to bring in."""
    from pydantic import field_validator

    from geniusbot.config import Settings

    class LauncherSettings(Settings):
        @field_validator("font_path")
        @classmethod
        def _drawable_font(cls, value: Path | None) -> Path | None:
            if value is None:
                return None
            from geniusbot.render.fonts import check_font

            return Path(check_font(value))

    return LauncherSettings


def _name(args: argparse.Namespace) -> str:
    """The command as typed: ``adjudicate``, ``db upgrade``."""
    return " ".join(filter(None, (args.command, getattr(args, "db_command", None))))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the launcher with ``argv`` (default: the command line); return the exit code."""
    parser = build_parser(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        read = _settings(args)
        if isinstance(read, int):
            return read
        settings, level = read
        level = (args.log_level or level).upper()
        if level not in LOG_LEVELS:
            from geniusbot.words import Listing, Verbatim, say

            levels = Listing(tuple(Verbatim(name) for name in LOG_LEVELS))
            _complain(args, say("--log-level must be one of {levels}.", levels=levels))
            return EXIT_USAGE
        configure_logging(level)
        args.settings = settings
        if settings is None:  # the language of a command that reads no settings
            args.language_setting = light_setting("GENIUSBOT_LANGUAGE")
        font_path = getattr(settings, "font_path", None)
        if font_path is not None:
            # The pictures of every command (the bot's, `geniusbot play`'s) use it; checked by Settings.
            from geniusbot.render.fonts import configure_font

            configure_font(font_path)

        result = _resolve(args.handler)(args)
        if isinstance(result, Coroutine):  # not inspect.iscoroutine: inspect costs ~8 ms to import
            import asyncio  # only the commands that need an event loop pay for importing it

            result = asyncio.run(result)
        sys.stdout.flush()  # here, where a reader gone away is caught, rather than at exit
        status: int = int(result or 0)  # type: ignore[call-overload]  # a handler returns its exit status
        return status
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        # asyncio.run has cancelled the command's tasks (each closes what it holds) and re-raised.
        from geniusbot.words import say

        _complain(args, say("stopped (Ctrl-C)."), f"geniusbot {_name(args)}")
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: say it in one line; the traceback is for --log-level DEBUG
        log.debug("the command %r failed", args.command, exc_info=True)
        storage = sys.modules.get("geniusbot.storage.errors")  # loaded if a database was used
        if storage is not None and isinstance(error, storage.StorageUnavailable):
            # A database that cannot be used (unreachable, its disk full, its file read-only or
            # damaged) is not a bug; its sentence says what to do.
            _complain(args, error.said, f"geniusbot {_name(args)}")
            return EXIT_USAGE
        from geniusbot.words import Verbatim, say

        _complain(
            args,
            say(
                "an unexpected error stopped the command ({error}); run it again with --log-level DEBUG to see "
                "where, and report it.",
                error=Verbatim(f"{type(error).__name__}: {error}"),  # the bug's own words, for its report
            ),
            f"geniusbot {_name(args)}",
        )
        return EXIT_ERROR


def _reader_gone() -> int:
    """Standard output's reader went away (``| head``): stop quietly, as a Unix tool does.

    Python's own advice: point standard output at ``/dev/null``, so the flush at exit finds
    nothing to write instead of raising again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test's captured stdout): nothing to redirect
        pass
    return EXIT_PIPE_CLOSED


if __name__ == "__main__":
    raise SystemExit(main())
