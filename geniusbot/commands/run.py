"""``geniusbot run``: the Discord bot (:func:`geniusbot.bot.run_bot`), until it is stopped."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geniusbot.words.parser import SaidCommands

import os
from typing import Any


def add_parser(commands: SaidCommands) -> None:
    """Add ``run`` to the launcher's sub-commands."""
    from geniusbot.words import say

    commands.add_parser(
        "run",
        help=commands.said_help(say("run the Discord bot")),
        description=(
            commands.said(
                say(
                    "Connect to Discord and host matches: reads DISCORD_TOKEN, DATABASE_URL, the data "
                    "directory, LOG_LEVEL and the optional DISCORD_API_BASE_URL / DISCORD_GATEWAY_URL from "
                    "the environment or .env, upgrades the database, resumes every unfinished match (each "
                    "room is told) and runs until stopped. Exit 2 without a token (the message says how to "
                    "get one) or with a token Discord refuses."
                )
            )
        ),
    ).set_defaults(handler="geniusbot.commands.run:command")


async def command(args: Any) -> int:
    """The ``run`` sub-command's handler."""
    from geniusbot.bot import run_bot
    from geniusbot.console.transport import TIME_FILE_ENV, FileTime

    # Tests only: the same injected clock as the console's (never set in a deployment).
    time_file = os.environ.get(TIME_FILE_ENV)
    return await run_bot(args.settings, time=FileTime(time_file) if time_file else None)
