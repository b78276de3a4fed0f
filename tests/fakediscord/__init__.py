"""A loopback fake of Discord (REST API v10 + gateway) for end-to-end tests of the bot.

See README.md in this directory for how to use it in a test.
"""

from .driver import FakeTimeout, LogEntry
from .model import (
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResponse,
    png_size,
)
from .server import ApiError, FakeDiscord, UnknownRouteError

__all__ = [
    "ApiError",
    "FakeAttachment",
    "FakeChannel",
    "FakeCommand",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeTimeout",
    "FakeUser",
    "InteractionResponse",
    "LogEntry",
    "UnknownRouteError",
    "png_size",
]
